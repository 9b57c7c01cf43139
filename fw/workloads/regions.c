/* regions: region markers (hpm_region.h) around three kernels, for
 * hpmctl stat --regions and as a profile with several functions.
 * size rounds (default 8), each: "fill" writes a 256-word array from an
 * xorshift stream (stores), "sum" adds it up with a multiply per element
 * (loads, mul) inside "scan", which also runs "divide" (divisions) nested
 * in it; "empty" is a region with nothing inside, so its counts are the
 * markers' own cost. Every kernel is a separate function (noinline).
 * Self-check: the sum and the quotients agree with a second computation
 * from the same stream without the array. */
#include "wl.h"
#include "hpm_region.h"

WL_TEST_SIZE(2);

#define DEFAULT_ROUNDS 8u
#define N 256u

static uint32_t arr[N];

__attribute__((noinline)) static void fill(uint32_t seed)
{
	uint32_t s = seed;
	for (uint32_t i = 0; i < N; i++)
		arr[i] = xs32(&s);
}

__attribute__((noinline)) static uint32_t sum(void)
{
	uint32_t acc = 0;
	for (uint32_t i = 0; i < N; i++)
		acc += arr[i] * (i | 1);
	return acc;
}

__attribute__((noinline)) static uint32_t divide(uint32_t acc)
{
	uint32_t q = 0;
	for (uint32_t i = 0; i < N / 8; i++) {
		uint32_t d = arr[i] | 1;
		OPAQUE(d);
		q += acc / d + acc % (i + 3);
	}
	return q;
}

uint32_t workload_main(uint32_t size)
{
	uint32_t rounds = size ? size : DEFAULT_ROUNDS, bad = 0;

	for (uint32_t r = 0; r < rounds; r++) {
		uint32_t seed = 0x9e3779b9u + r, acc, q;

		HPM_REGION_BEGIN("empty");
		HPM_REGION_END("empty");

		HPM_REGION_BEGIN("fill");
		fill(seed);
		HPM_REGION_END("fill");

		HPM_REGION_BEGIN("scan");
		acc = sum();
		HPM_REGION_BEGIN("divide");
		q = divide(acc);
		HPM_REGION_END("divide");
		HPM_REGION_END("scan");

		/* the same from the stream, without the array */
		uint32_t s = seed, acc2 = 0, q2 = 0, first[N / 8];
		for (uint32_t i = 0; i < N; i++) {
			uint32_t v = xs32(&s);
			if (i < N / 8)
				first[i] = v | 1;
			acc2 += v * (i | 1);
		}
		SABOTAGE(acc2 ^= 1);
		for (uint32_t i = 0; i < N / 8; i++)
			q2 += acc2 / first[i] + acc2 % (i + 3);
		bad |= (acc != acc2) | (q != q2) << 1;
	}
	return bad;
}
