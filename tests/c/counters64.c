/* counters64: the race-free 64-bit counter reads of fw/include/hpm_soc.h.
 * mcycle is set a few cycles below a low-half wrap, then read
 * (a) naively, high half then low half: for some phases the low half wraps
 *     in between and the value is 2^32 too small;
 * (b) with hpm_rdcycle64 (hi-lo-hi): always within a few cycles of the truth.
 * Also mtime (hpm_mtime64) across a low-half wrap and minstret64. */
#include "common.h"
#include "hpm_soc.h"

int main(void)
{
	int races = 0;
	for (uint32_t i = 0; i < 3000; i++) {
		uint32_t below = i % 24;
		uint64_t start = ((uint64_t)(i + 1) << 32) - 1 - below;
		/* naive */
		csr_write(CSR_MCYCLEH, i);
		csr_write(CSR_MCYCLE, 0xffffffffu - below);
		uint32_t h = csr_read(CSR_MCYCLEH);
		uint32_t l = csr_read(CSR_MCYCLE);
		uint64_t naive = ((uint64_t)h << 32) | l;
		if (naive < start)
			races++;
		/* race-free */
		csr_write(CSR_MCYCLEH, i);
		csr_write(CSR_MCYCLE, 0xffffffffu - below);
		uint64_t v = hpm_rdcycle64();
		CHECK(1, v >= start && v < start + 64);
	}
	CHECK(2, races > 0); /* the race is real ... */
	/* minstret64 */
	csr_write(CSR_MINSTRETH, 7);
	csr_write(CSR_MINSTRET, 0xfffffff0u);
	uint64_t a = hpm_rdinstret64();
	for (volatile int k = 0; k < 10; k++)
		;
	uint64_t b = hpm_rdinstret64();
	CHECK(3, b > a && (a >> 32) == 7 && (b >> 32) == 8);
	/* mtime across a low-half wrap */
	CLINT_MTIMEH = 5;
	CLINT_MTIME = 0xffffff00u;
	uint64_t prev = hpm_mtime64();
	for (int k = 0; k < 200; k++) {
		uint64_t t = hpm_mtime64();
		CHECK(4, t > prev && t - prev < 64);
		prev = t;
	}
	CHECK(5, (prev >> 32) == 6);
	printf("counters64 races=%d of 3000\n", races);
	return 0;
}
