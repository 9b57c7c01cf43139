/* lcofi: the latency of the counter-overflow interrupt (make bench).
 *
 * mhpmcounter3 counts `cycles` and is preloaded to wrap every P cycles (P
 * pseudo-random, 256..1279, so the wraps fall on every phase of the code);
 * the LCOFI handler's first instruction reads the counter. A counter that
 * wrapped at the end of cycle c reads x - c - 1 in a cycle x, and the
 * handler's first instruction enters X two cycles after the interrupt cycle
 * T (T, the bubble, then it: docs/timing.md) and reads the counter at the
 * start of its second X cycle (of three), x = T + 3, so
 * T - c = value - 2: the cycles from the wrap to the interrupt, which is
 * what delays a sample (docs/hpm.md, "Sampling"). The kernels are those of
 * speed.c plus a division loop. Prints the histogram and a summary; the
 * same on every board (lockstep). */
#include <stdint.h>
#include "hpm_lib.h"
#include "hpm_map.h"
#include "hpm_events.h"
#include "kernels.h"

#define BINS 64                 /* latency 0..62, and 63 for 63 or more */
#define SAMPLES 4000

volatile uint32_t lcofi_hist[BINS];
volatile uint32_t lcofi_left = SAMPLES;
uint32_t lcofi_rng = 12345;

/* Uses only tp (never allocated by the compiler) and t0 (saved in
 * mscratch): the first instruction is the measurement. */
__asm__(".text\n"
	".balign 4\n"
	"lcofi_entry:\n"
	"	csrr	tp, mhpmcounter3\n"
	"	csrw	mscratch, t0\n"
	"	addi	tp, tp, -2\n"
	"	li	t0, " "63" "\n"
	"	bltu	tp, t0, 1f\n"
	"	mv	tp, t0\n"
	"1:	slli	tp, tp, 2\n"
	"	la	t0, lcofi_hist\n"
	"	add	t0, t0, tp\n"
	"	lw	tp, 0(t0)\n"
	"	addi	tp, tp, 1\n"
	"	sw	tp, 0(t0)\n"
	/* the next period: 256 + 10 bits of an LCG */
	"	la	t0, lcofi_rng\n"
	"	lw	tp, 0(t0)\n"
	"	li	t0, 1103515245\n"
	"	mul	tp, tp, t0\n"
	"	addi	tp, tp, 1234\n"
	"	la	t0, lcofi_rng\n"
	"	sw	tp, 0(t0)\n"
	"	srli	tp, tp, 16\n"
	"	andi	tp, tp, 1023\n"
	"	addi	tp, tp, 256\n"
	"	neg	tp, tp\n"
	"	li	t0, -1\n"
	"	csrw	mhpmcounter3h, t0\n"
	"	csrw	mhpmcounter3, tp\n"
	"	csrw	mhpmevent3h, zero\n"      /* clears OF */
	"	li	t0, 1 << 13\n"
	"	csrc	mip, t0\n"
	"	la	t0, lcofi_left\n"
	"	lw	tp, 0(t0)\n"
	"	addi	tp, tp, -1\n"
	"	sw	tp, 0(t0)\n"
	"	bnez	tp, 2f\n"
	"	li	t0, 1 << 13\n"
	"	csrc	mie, t0\n"
	"2:	csrr	t0, mscratch\n"
	"	mret\n");
void lcofi_entry(void);

/* decimal digits of the buffer's words: a division and a remainder each */
static uint32_t digits(const uint32_t *p, unsigned n)
{
	uint32_t sum = 0;
	for (unsigned i = 0; i < n; i++)
		for (uint32_t v = p[i]; v; v /= 10)
			sum += v % 10;
	return sum;
}

int main(void)
{
	uint32_t check = 0;
	kernels_init();
	__asm__ volatile("csrw mtvec, %0" : : "r"(lcofi_entry));
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(HPM_EV_CYCLES));
	__asm__ volatile("csrw mhpmevent3h, zero");
	__asm__ volatile("csrw mhpmcounter3h, %0" : : "r"(-1));
	__asm__ volatile("csrw mhpmcounter3, %0" : : "r"(-1000));
	__asm__ volatile("csrw mcountinhibit, zero");
	__asm__ volatile("csrs mie, %0" : : "r"(1u << 13));
	__asm__ volatile("csrs mstatus, %0" : : "r"(MSTATUS_MIE));
	for (int round = 0; lcofi_left; round++) {
		check ^= crc(buf, 256);
		for (unsigned i = 0; i < N; i++)
			a[i] = (int32_t)(buf[(i * 7 + round) & 1023] >> 3);
		sort(a, N);
		matmul();
		check += (uint32_t)m3[round & 7][(round >> 3) & 7] + digits(buf + (round & 511), 8);
	}
	__asm__ volatile("csrc mstatus, %0" : : "r"(MSTATUS_MIE));

	uint32_t n = 0, sum = 0, lo = BINS, hi = 0, med = 0, p99 = 0, acc = 0;
	for (uint32_t l = 0; l < BINS; l++) {
		n += lcofi_hist[l];
		sum += l * lcofi_hist[l];
		if (lcofi_hist[l] && l < lo)
			lo = l;
		if (lcofi_hist[l])
			hi = l;
	}
	for (uint32_t l = 0; l < BINS; l++) {
		if (acc < (n + 1) / 2 && acc + lcofi_hist[l] >= (n + 1) / 2)
			med = l;
		if (acc < n - n / 100 && acc + lcofi_hist[l] >= n - n / 100)
			p99 = l;
		acc += lcofi_hist[l];
	}
	for (uint32_t l = 0; l < BINS; l++)
		if (lcofi_hist[l])
			printf("lcofi-hist %u %u\n", (unsigned)l, (unsigned)lcofi_hist[l]);
	printf("lcofi: samples %u min %u median %u p99 %u max %u mean %u.%02u check %x\n",
	       (unsigned)n, (unsigned)lo, (unsigned)med, (unsigned)p99, (unsigned)hi,
	       (unsigned)(sum / n), (unsigned)(sum % n * 100 / n), (unsigned)check);
	return n == SAMPLES ? 0 : 1;
}
