/* common.h: helpers for the self-checking C programs in tests/c/.
 * main() returns 0 on success or the number of the failed check; crt0
 * turns that into tohost (1 = pass, (n << 1) | 1 = fail). */
#ifndef TESTS_C_COMMON_H
#define TESTS_C_COMMON_H
#include <stdint.h>
#include "hpm_lib.h"

#define CHECK(n, cond) do { if (!(cond)) { printf("check %d failed\n", (n)); return (n); } } while (0)

/* deterministic pseudo-random numbers (xorshift32) */
static inline uint32_t xs32(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}
#endif
