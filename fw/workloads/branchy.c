/* branchy: data-dependent branches that the static predictor gets wrong
 * half of the time. Each of size random values (default 8000; the same
 * stream ROUNDS times) goes down a three-level tree of forward branches on
 * its bits 0, 1 and 2 into one of eight sums: 3 conditional branches, 1.5
 * misses on average. The self-check recomputes the sums without branches, by
 * indexing a table with the three bits. */
#include "wl.h"

WL_TEST_SIZE(2500);

#define DEFAULT_VALUES 8000u
#define ROUNDS 4u
#define SEED 0x1f123bb5u

static void classify(uint32_t n, uint32_t sum[8])
{
	uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
	uint32_t seed = SEED;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = xs32(&seed);
		if (x & 1) {
			if (x & 2) {
				if (x & 4)
					s7 += x;
				else
					s3 += x;
			} else {
				if (x & 4)
					s5 += x;
				else
					s1 += x;
			}
		} else {
			if (x & 2) {
				if (x & 4)
					s6 += x;
				else
					s2 += x;
			} else {
				if (x & 4)
					s4 += x;
				else
					s0 += x;
			}
		}
	}
	sum[0] += s0;
	sum[1] += s1;
	sum[2] += s2;
	sum[3] += s3;
	sum[4] += s4;
	sum[5] += s5;
	sum[6] += s6;
	sum[7] += s7;
}

uint32_t workload_main(uint32_t size)
{
	uint32_t n = size ? size : DEFAULT_VALUES;
	uint32_t sum[8] = { 0 };
	for (uint32_t r = 0; r < ROUNDS; r++)
		classify(n, sum);
	SABOTAGE(sum[5] += 1);

	uint32_t ref[8] = { 0 };
	uint32_t seed = SEED;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = xs32(&seed);
		ref[x & 7] += x;
	}
	for (uint32_t k = 0; k < 8; k++)
		if (sum[k] != ROUNDS * ref[k])
			return 1 + k;
	return 0;
}
