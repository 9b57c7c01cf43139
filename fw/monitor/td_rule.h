/* td_rule.h: the top-down unit's level-1 metrics rule (docs/hpm.md
 * "Metrics") in 32-bit integer arithmetic, for the monitor's emulation on
 * the iCE40 board (topdown.c); tests/ref/test_ref.c checks it against the
 * rule in 128-bit arithmetic. */
#ifndef TD_RULE_H
#define TD_RULE_H

#include <stdint.h>

/* min(q(x), max) for the unit's q(x) = floor(255 * x / s) (0 when s = 0),
 * max <= 255. For x < s: a = floor(256 * x / s) by 8 steps of long
 * division, with remainder r = 256 * x - a * s; then 255 * x = a * s +
 * (r - x) and 0 <= r < s, so q(x) = a - (r < x). */
static inline uint32_t td_q(uint64_t x, uint64_t s, uint32_t max)
{
	if (!s)
		return 0;
	if (x >= s)
		return max;
	uint64_t r = x;
	uint32_t q = 0;
	for (int i = 0; i < 8; i++) {
		uint64_t top = r >> 63;      /* 2r may exceed 64 bits */
		r <<= 1;
		q <<= 1;
		if (top || r >= s) {
			r -= s;
			q |= 1;
		}
	}
	q -= r < x;
	return q < max ? q : max;
}

/* tdmetrics from c[]: SLOTS, then the retiring, bad-speculation and
 * frontend-bound counts; each field clamped to what the ones before it
 * left of 255, backend bound the rest */
static inline uint32_t td_metrics(const uint64_t *c)
{
	uint32_t rem = 255, v = 0;
	for (unsigned i = 0; i < 3; i++) {
		uint32_t f = td_q(c[1 + i], c[0], rem);
		rem -= f;
		v |= f << 8 * i;
	}
	return v | rem << 24;
}

#endif
