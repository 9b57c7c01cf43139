/* matmul: loads and mul. C = A B for random N x N matrices of 32-bit
 * integers (arithmetic mod 2^32), N = size (default 36, at most MAX_N): N^3
 * multiply-adds, each two loads and a mul. Self-check (Freivalds): C v ==
 * A (B v) for a random vector v of odd numbers, which any single wrong entry
 * of C violates. */
#include "wl.h"

WL_TEST_SIZE(24);

#define DEFAULT_N 36u
#define MAX_N 64u

static uint32_t a[MAX_N][MAX_N], b[MAX_N][MAX_N], c[MAX_N][MAX_N];
static uint32_t v[MAX_N], bv[MAX_N], abv[MAX_N], cv[MAX_N];

static void fill(uint32_t m[MAX_N][MAX_N], uint32_t n, uint32_t *seed)
{
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < n; j++)
			m[i][j] = xs32(seed);
}

/* out = m x */
static void mul_vec(uint32_t *out, uint32_t m[MAX_N][MAX_N], const uint32_t *x, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = 0;
		for (uint32_t j = 0; j < n; j++)
			s += m[i][j] * x[j];
		out[i] = s;
	}
}

uint32_t workload_main(uint32_t size)
{
	uint32_t n = size ? size : DEFAULT_N;
	if (n > MAX_N)
		n = MAX_N;
	uint32_t seed = 0x7f4a7c15u;
	fill(a, n, &seed);
	fill(b, n, &seed);

	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < n; j++) {
			uint32_t s = 0;
			for (uint32_t k = 0; k < n; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
	SABOTAGE(c[n / 2][n / 3] += 1);

	for (uint32_t j = 0; j < n; j++)
		v[j] = xs32(&seed) | 1;
	mul_vec(bv, b, v, n);
	mul_vec(abv, a, bv, n);
	mul_vec(cv, c, v, n);
	for (uint32_t i = 0; i < n; i++)
		if (cv[i] != abv[i])
			return 1;
	return 0;
}
