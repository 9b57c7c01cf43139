/* alu: ALU instructions only (add, sub, xor, or, and, shifts, slt, sltu;
 * rotations are shift/shift/or), no loads, stores or branch misses in the
 * loops. size = rounds (default 15000) of an invertible mixing function on
 * four registers, then the same number of rounds of its inverse: the
 * self-check is getting the initial state back. */
#include "wl.h"

WL_TEST_SIZE(4000);

#define DEFAULT_ROUNDS 15000u
#define ROUND_STEP 0x9e3779b9u

struct state {
	uint32_t a, b, c, d;
};

/* each step changes one word by a function of the others, so it can be undone */
static struct state forward(struct state s, uint32_t rounds)
{
	uint32_t a = s.a, b = s.b, c = s.c, d = s.d, k = 0;
	for (uint32_t r = 0; r < rounds; r++) {
		a += b;
		d = rotl32(d ^ a, 16);
		c += d;
		b = rotl32(b ^ c, 12);
		a -= k;
		d += (a & c) ^ (uint32_t)((int32_t)b >> 5);
		b ^= (a | d) >> 3;
		c += (uint32_t)((int32_t)a < (int32_t)d) + (uint32_t)(a < b);
		k += ROUND_STEP;
	}
	return (struct state){ a, b, c, d };
}

static struct state inverse(struct state s, uint32_t rounds)
{
	uint32_t a = s.a, b = s.b, c = s.c, d = s.d, k = rounds * ROUND_STEP;
	for (uint32_t r = 0; r < rounds; r++) {
		k -= ROUND_STEP;
		c -= (uint32_t)((int32_t)a < (int32_t)d) + (uint32_t)(a < b);
		b ^= (a | d) >> 3;
		d -= (a & c) ^ (uint32_t)((int32_t)b >> 5);
		a += k;
		b = rotr32(b, 12) ^ c;
		c -= d;
		d = rotr32(d, 16) ^ a;
		a -= b;
	}
	return (struct state){ a, b, c, d };
}

uint32_t workload_main(uint32_t size)
{
	uint32_t rounds = size ? size : DEFAULT_ROUNDS;
	const struct state init = { 0x01234567u, 0x89abcdefu, 0xdeadbeefu, 0x0badf00du };
	struct state s = forward(init, rounds);
	if (s.a == init.a && s.b == init.b && s.c == init.c && s.d == init.d)
		return 1; /* the rounds did nothing */
	SABOTAGE(s.c ^= 0x100);
	s = inverse(s, rounds);
	if (s.a != init.a || s.b != init.b || s.c != init.c || s.d != init.d)
		return 2;
	return 0;
}
