/* Frame pointers that lead nowhere: each spin_* function loads s0 with a
 * bad value in inline asm, spins there (the samples' s0), then restores it.
 * The monitor's walk must end each chain where the bad pointer is, never
 * read outside the program's RAM, and the board must go on. An ordinary
 * chain (main -> good) comes last. */
#include <stdint.h>

#define SPINS 3000u

volatile unsigned sink;

/* a frame whose caller's fp is itself: slot fp - 8 = fp, fp - 4 = 0x1234 */
uint32_t loop_frame[2];

/* s0 = FP for SPINS iterations, then back: no C code runs meanwhile */
#define SPIN_WITH_FP(name, FP)                                               \
	__attribute__((noinline)) void name(void)                            \
	{                                                                    \
		uint32_t fp = (FP), n = SPINS;                               \
		__asm__ volatile("mv t1, s0\n\tmv s0, %0\n"                  \
				 "1:\taddi %1, %1, -1\n\tbnez %1, 1b\n"      \
				 "\tmv s0, t1"                               \
				 : "+r"(fp), "+r"(n) : : "t1", "memory");    \
	}

SPIN_WITH_FP(spin_odd, 0xdeadbeefu)              /* misaligned, outside RAM */
SPIN_WITH_FP(spin_monram, 0x8001f004u)           /* just above the program's RAM */
SPIN_WITH_FP(spin_low, 0x80000004u)              /* its slots below the RAM */
SPIN_WITH_FP(spin_loop, (uint32_t)(uintptr_t)&loop_frame[2])

__attribute__((noinline)) unsigned good(unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++)
		s = s * 7 + i;
	return s;
}

int main(void)
{
	loop_frame[0] = (uint32_t)(uintptr_t)&loop_frame[2];
	loop_frame[1] = 0x1234u;
	spin_odd();
	spin_monram();
	spin_low();
	spin_loop();
	sink = good(SPINS);
	return 0;
}
