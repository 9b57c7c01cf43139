/* bench_ref: measures hpmref_step speed on a plain loop (instructions/s),
 * first with no HPM selector programmed (the mcycle/minstret fast path), then
 * with all 29 mhpmcounters programmed (see bench()).
 * Not a test: speed is reported, never asserted. Usage: bench_ref [STEPS] */
#include "hpmref.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* 0x80000000: [selector prologue], then li a0, 0x7fffffff (lui+addi); loop: addi a1,a1,1; xor a2,a2,a1;
 * lw a3,0(sp); addi a0,a0,-1; bnez a0, loop */
static const uint32_t loop[] = {
	0x80000537, /* lui a0, 0x80000 */
	0xfff50513, /* addi a0, a0, -1 */
	0x80000137, /* lui sp, 0x80000 */
	0x00158593, /* loop: addi a1, a1, 1 */
	0x00b64633, /* xor a2, a2, a1 */
	0x00012683, /* lw a3, 0(sp) */
	0xfff50513, /* addi a0, a0, -1 */
	0xfe0518e3, /* bnez a0, loop (-16) */
};

static void bench(const char *what, int program_hpm, uint64_t n)
{
	hpmref_config cfg = { .boot_addr = HPM_RAM_BASE, .uart_div = 8, .fault = 0 };
	hpmref *m = hpmref_new(&cfg);
	uint32_t prog[29 * 6 + 8];
	unsigned k = 0;
	if (program_hpm) {
		/* mhpmevent(2+i) = event i; mhpmevent31 = ADD of the four top-down
         * events (so it equals cycles) */
		for (unsigned i = 1; i <= 29; i++) {
			uint64_t sel = i;
			if (i == 29)
				sel = 20u | 21u << 10 | 22u << 20 | (uint64_t)23u << 30 |
				      4ull << 40 | 4ull << 45 | 4ull << 50;
			for (unsigned h = 0; h < 2; h++) {
				uint32_t v = (uint32_t)(sel >> (32 * h)), lo = v & 0xFFFu;
				uint32_t up = v + ((lo & 0x800u) << 1);
				prog[k++] = (up & 0xFFFFF000u) | 5u << 7 | 0x37u;  /* lui t0 */
				prog[k++] = lo << 20 | 5u << 15 | 5u << 7 | 0x13u; /* addi t0, t0 */
				prog[k++] = ((h ? 0x720u : 0x320u) + 2 + i) << 20 | 5u << 15 |
					    1u << 12 | 0x73u; /* csrw */
			}
		}
	}
	for (unsigned i = 0; i < sizeof loop / sizeof loop[0]; i++)
		prog[k++] = loop[i];
	hpmref_write_mem(m, HPM_RAM_BASE, prog, 4 * k);
	hpm_retire r;
	struct timespec a, b, ca, cb;
	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
	for (uint64_t i = 0; i < n; i++)
		hpmref_step(m, &r);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
	double c = (double)(cb.tv_sec - ca.tv_sec) + 1e-9 * (double)(cb.tv_nsec - ca.tv_nsec);
	uint32_t lo = 0, hi = 0, td = 0;
	hpmref_csr(m, 0xB00, &lo);
	hpmref_csr(m, 0xB03, &hi);
	hpmref_csr(m, 0xB1F, &td);
	printf("bench-ref: %s: %llu steps: wall %.3f s = %.1f M instructions/s, "
	       "cpu %.3f s = %.1f M instructions/s (cycle %llu, mcycle %u, "
	       "mhpmcounter3 %u, top-down sum %u)\n",
	       what, (unsigned long long)n, s, (double)n / s / 1e6, c, (double)n / c / 1e6,
	       (unsigned long long)hpmref_cycle(m), lo, hi, td);
	hpmref_free(m);
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 200000000ull;
	bench("no selector", 0, n);
	bench("29 counters programmed", 1, n);
	return 0;
}
