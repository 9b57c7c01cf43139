/* div: the divider. For each of size operand pairs (default 3500) one div,
 * rem, divu and remu (34 cycles each). Dividends are random, divisors random
 * with a random number of leading zeros; every 16th pair divides by zero,
 * another 16th is INT32_MIN / -1 (signed overflow). Self-check on every
 * pair: the RISC-V results for /0 and overflow, else quotient * divisor +
 * remainder == dividend exactly (64-bit product), |remainder| < |divisor|
 * and the remainder has the dividend's sign. */
#include "wl.h"

WL_TEST_SIZE(1200);

#define DEFAULT_PAIRS 3500u

/* asm keeps /0 and overflow defined and stops gcc merging or strength-reducing */
#define DIVOP(name, insn)                                   \
	static inline uint32_t name(uint32_t a, uint32_t b) \
	{                                                   \
		uint32_t r;                                 \
		__asm__(insn " %0, %1, %2"                  \
			: "=r"(r)                           \
			: "r"(a), "r"(b));                  \
		return r;                                   \
	}
DIVOP(op_div, "div")
DIVOP(op_divu, "divu")
DIVOP(op_rem, "rem")
DIVOP(op_remu, "remu")

static int check_unsigned(uint32_t a, uint32_t b, uint32_t q, uint32_t r)
{
	if (b == 0)
		return q == UINT32_MAX && r == a;
	return (uint64_t)q * b + r == a && r < b;
}

static int check_signed(int32_t a, int32_t b, int32_t q, int32_t r)
{
	if (b == 0)
		return q == -1 && r == a;
	if (a == INT32_MIN && b == -1)
		return q == INT32_MIN && r == 0;
	int64_t r64 = r, b64 = b;
	if ((int64_t)q * b + r != a)
		return 0;
	if ((r64 < 0 ? -r64 : r64) >= (b64 < 0 ? -b64 : b64))
		return 0;
	return r == 0 || (r < 0) == (a < 0);
}

uint32_t workload_main(uint32_t size)
{
	uint32_t pairs = size ? size : DEFAULT_PAIRS;
	uint32_t seed = 0x5bd1e995u;
	for (uint32_t i = 0; i < pairs; i++) {
		uint32_t a = xs32(&seed), b = xs32(&seed);
		b >>= a & 31; /* divisors of every magnitude */
		if ((i & 15) == 5)
			b = 0;
		if ((i & 15) == 11) {
			a = (uint32_t)INT32_MIN;
			b = UINT32_MAX;
		}
		uint32_t qu = op_divu(a, b), ru = op_remu(a, b);
		uint32_t qs = op_div(a, b), rs = op_rem(a, b);
		SABOTAGE(if (i == pairs / 2) qs ^= 1);
		if (!check_unsigned(a, b, qu, ru))
			return 1;
		if (!check_signed((int32_t)a, (int32_t)b, (int32_t)qs, (int32_t)rs))
			return 2;
	}
	return 0;
}
