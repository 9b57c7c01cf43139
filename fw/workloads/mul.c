/* mul: the multiplier. Each of size steps (default 11000) advances a linear
 * congruential generator (mul) and multiplies its value into three 64-bit
 * products: unsigned (mul + mulhu), signed (mul + mulh) and signed by
 * unsigned (mul + mulhsu), summed mod 2^64. Self-check: the final LCG state
 * equals the closed-form jump of size steps (O(log size) multiplications),
 * and each product sum equals its constant times the plain sum of the values
 * (distributivity). */
#include "wl.h"

WL_TEST_SIZE(4000);

#define DEFAULT_STEPS 11000u
#define LCG_A 1664525u
#define LCG_C 1013904223u
#define X0 0x3c6ef372u
#define KU 0x9e3779b9u   /* unsigned factor */
#define KS (-0x2545f491) /* signed factor */
#define KM 0xd1b54a33u   /* unsigned factor of the signed value */

struct sums {
	uint32_t x, negative; /* values with bit 31 set */
	uint64_t sum_s;       /* the values, signed */
	uint64_t prod_u, prod_s, prod_m;
};

/* high half of signed x unsigned: gcc does not emit mulhsu by itself */
static inline uint32_t mulhsu(int32_t a, uint32_t b)
{
	uint32_t hi;
	__asm__("mulhsu %0, %1, %2"
		: "=r"(hi)
		: "r"(a), "r"(b));
	return hi;
}

static struct sums run(uint32_t steps)
{
	struct sums r = { X0, 0, 0, 0, 0, 0 };
	uint32_t x = X0;
	for (uint32_t i = 0; i < steps; i++) {
		x = x * LCG_A + LCG_C;
		int32_t xs = (int32_t)x;
		r.negative += x >> 31;
		r.sum_s += (uint64_t)(int64_t)xs;
		r.prod_u += (uint64_t)x * KU;
		r.prod_s += (uint64_t)((int64_t)xs * KS);
		r.prod_m += ((uint64_t)mulhsu(xs, KM) << 32) | (x * KM);
	}
	r.x = x;
	return r;
}

/* the LCG applied n times, by squaring the map x -> a x + c */
static uint32_t lcg_jump(uint32_t x, uint32_t n)
{
	uint32_t mul = 1, add = 0, a = LCG_A, c = LCG_C;
	for (; n != 0; n >>= 1) {
		if (n & 1) {
			mul *= a;
			add = add * a + c;
		}
		c = c * a + c;
		a *= a;
	}
	return mul * x + add;
}

uint32_t workload_main(uint32_t size)
{
	uint32_t steps = size ? size : DEFAULT_STEPS;
	struct sums r = run(steps);
	SABOTAGE(r.prod_s += 1ull << 32);
	if (r.x != lcg_jump(X0, steps))
		return 1;
	/* unsigned, each negative value is 2^32 more than signed */
	uint64_t sum_u = r.sum_s + ((uint64_t)r.negative << 32);
	if (r.prod_u != sum_u * KU)
		return 2;
	if (r.prod_s != r.sum_s * (uint64_t)(int64_t)KS)
		return 3;
	if (r.prod_m != r.sum_s * KM)
		return 4;
	return 0;
}
