/* ecall: exceptions and flushes. size null system calls (ecall with a7 = 0,
 * default 30000): each traps to the monitor (or the bare harness) and
 * returns to the next instruction with every register unchanged. a0..a6
 * and t0..t6 hold values carried from one call to the next (a0 counts the
 * calls), so the self-check at the end sees any register a round trip
 * changed; a7 is checked to be still 0 after every call. */
#include "wl.h"

WL_TEST_SIZE(12000);

#define DEFAULT_CALLS 30000u

uint32_t workload_main(uint32_t size)
{
	uint32_t calls = size ? size : DEFAULT_CALLS, bad = 0;
	register uint32_t a0 __asm__("a0") = 0;
	register uint32_t a1 __asm__("a1") = 0x11111111u;
	register uint32_t a2 __asm__("a2") = 0x22222222u;
	register uint32_t a3 __asm__("a3") = 0x33333333u;
	register uint32_t a4 __asm__("a4") = 0x44444444u;
	register uint32_t a5 __asm__("a5") = 0x55555555u;
	register uint32_t a6 __asm__("a6") = 0x66666666u;
	register uint32_t a7 __asm__("a7");
	register uint32_t t0 __asm__("t0") = 0x77777777u;
	register uint32_t t1 __asm__("t1") = 0x88888888u;
	register uint32_t t2 __asm__("t2") = 0x99999999u;
	register uint32_t t3 __asm__("t3") = 0xaaaaaaaau;
	register uint32_t t4 __asm__("t4") = 0xbbbbbbbbu;
	register uint32_t t5 __asm__("t5") = 0xccccccccu;
	register uint32_t t6 __asm__("t6") = 0xddddddddu;
	for (uint32_t i = 0; i < calls; i++) {
		a7 = 0;
		__asm__ volatile("ecall"
				 : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5),
				   "+r"(a6), "+r"(a7), "+r"(t0), "+r"(t1), "+r"(t2), "+r"(t3),
				   "+r"(t4), "+r"(t5), "+r"(t6)
				 :
				 : "memory");
		bad |= a7;
		a0++;
	}
	SABOTAGE(t3 ^= 1);
	bad |= a0 ^ calls;
	bad |= (a1 ^ 0x11111111u) | (a2 ^ 0x22222222u) | (a3 ^ 0x33333333u);
	bad |= (a4 ^ 0x44444444u) | (a5 ^ 0x55555555u) | (a6 ^ 0x66666666u);
	bad |= (t0 ^ 0x77777777u) | (t1 ^ 0x88888888u) | (t2 ^ 0x99999999u);
	bad |= (t3 ^ 0xaaaaaaaau) | (t4 ^ 0xbbbbbbbbu) | (t5 ^ 0xccccccccu);
	bad |= t6 ^ 0xddddddddu;
	return bad != 0;
}
