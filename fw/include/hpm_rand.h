/* hpm_rand.h: deterministic pseudo-random data for the workloads and the
 * test programs (the same sequence on the board, hpm-sim and hpm-ref). */
#ifndef HPM_RAND_H
#define HPM_RAND_H
#include <stdint.h>

/* xorshift32: the next value of *s (the state must never be 0) */
static inline uint32_t xs32(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}
#endif
