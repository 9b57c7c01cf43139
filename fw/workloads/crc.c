/* crc: loads and ALU. Table-driven CRC-32 (IEEE, reflected 0xedb88320):
 * per byte a load of the data, one of the 1 KiB table, shifts and xors.
 * A LEN-byte random buffer is run through the CRC register in size / LEN
 * passes (size = bytes, default 48 KiB), each from a different start value.
 * Self-check: the CRC of "123456789" is 0xcbf43926; the first pass agrees
 * with a bitwise (table-free) CRC; and, the register being linear in its
 * start value, pass p ends at pass 0's end value xor (start_p xor start_0)
 * times x^(8 LEN) mod the polynomial, a carry-less product computed apart. */
#include "wl.h"

WL_TEST_SIZE(12 * 1024);

#define DEFAULT_BYTES (48u * 1024u)
#define LEN 1024u
#define POLY 0xedb88320u
#define X0 0x80000000u /* the polynomial 1 in the reflected order */

static uint32_t table[256];
static uint32_t buf[LEN / 4];

/* multiply by x modulo the polynomial: one zero bit through the register */
static uint32_t times_x(uint32_t r)
{
	return (r >> 1) ^ (POLY & (0u - (r & 1)));
}

static uint32_t update_bitwise(uint32_t r, const uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		r ^= p[i];
		for (int k = 0; k < 8; k++)
			r = times_x(r);
	}
	return r;
}

static uint32_t update_table(uint32_t r, const uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		r = table[(r ^ p[i]) & 0xff] ^ (r >> 8);
	return r;
}

/* a b mod the polynomial, carry-less, reflected (bit 31 is x^0) */
static uint32_t gf2_mul(uint32_t a, uint32_t b)
{
	uint32_t prod = 0;
	for (int i = 31; i >= 0; i--) {
		prod ^= b & (0u - ((a >> i) & 1));
		b = times_x(b);
	}
	return prod;
}

/* x^n mod the polynomial, by squaring */
static uint32_t x_pow(uint32_t n)
{
	uint32_t result = X0, base = X0 >> 1;
	for (; n != 0; n >>= 1) {
		if (n & 1)
			result = gf2_mul(result, base);
		base = gf2_mul(base, base);
	}
	return result;
}

uint32_t workload_main(uint32_t size)
{
	uint32_t bytes = size ? size : DEFAULT_BYTES;
	uint32_t passes = (bytes + LEN - 1) / LEN;
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t r = i;
		for (int k = 0; k < 8; k++)
			r = times_x(r);
		table[i] = r;
	}
	static const uint8_t check[9] = { '1', '2', '3', '4', '5', '6', '7', '8', '9' };
	if (~update_table(~0u, check, 9) != 0xcbf43926u || ~update_bitwise(~0u, check, 9) != 0xcbf43926u)
		return 1;

	uint32_t seed = 0x0ddba11u;
	for (uint32_t i = 0; i < LEN / 4; i++)
		buf[i] = xs32(&seed);
	const uint8_t *data = (const uint8_t *)buf;

	/* the start values come from a generator, the end values are folded
     * into a check against their prediction */
	uint32_t start0 = ~0u, end0 = update_table(start0, data, LEN);
	if (end0 != update_bitwise(start0, data, LEN))
		return 2;
	uint32_t xlen = x_pow(8 * LEN), rng = 0x6a09e667u, bad = 0;
	for (uint32_t p = 1; p < passes; p++) {
		uint32_t start = xs32(&rng);
		uint32_t end = update_table(start, data, LEN);
		SABOTAGE(if (p == passes / 2) end ^= 0x10);
		bad |= end ^ end0 ^ gf2_mul(start ^ start0, xlen);
	}
	return bad != 0 ? 3 : 0;
}
