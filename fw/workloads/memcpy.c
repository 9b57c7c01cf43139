/* memcpy: loads and stores. LEN bytes of random data are copied back and
 * forth between two buffers, each pass to a random byte offset (so every
 * source/destination alignment occurs) and in chunks of random length. The
 * copy routine aligns the destination, then moves words (4 at a time) when
 * the source is aligned too, else merges two source words with shifts; heads
 * and tails go byte by byte. size = bytes to copy, rounded up to whole passes
 * of LEN (default 256 KiB). The self-check compares the data after the last
 * pass with the generator's stream. */
#include "wl.h"

WL_TEST_SIZE(64 * 1024);

#define DEFAULT_BYTES (256u * 1024u)
#define LEN 4096u
#define MAX_CHUNK 512u

/* word arrays, so word accesses through uint32_t pointers are allowed */
static uint32_t buf[2][(LEN + 8) / 4];

static void copy(uint8_t *d, const uint8_t *s, uint32_t n)
{
	while (n > 0 && ((uintptr_t)d & 3) != 0) {
		*d++ = *s++;
		n--;
	}
	uint32_t *wd = (uint32_t *)d;
	uint32_t skew = (uintptr_t)s & 3;
	if (skew == 0) {
		const uint32_t *ws = (const uint32_t *)s;
		for (; n >= 16; n -= 16, wd += 4, ws += 4) {
			uint32_t w0 = ws[0], w1 = ws[1], w2 = ws[2], w3 = ws[3];
			wd[0] = w0;
			wd[1] = w1;
			wd[2] = w2;
			wd[3] = w3;
		}
		for (; n >= 4; n -= 4)
			*wd++ = *ws++;
		s = (const uint8_t *)ws;
	} else if (n >= 4) {
		/* little endian: the next 4 bytes are the top of w0 and the bottom of w1 */
		unsigned lo = 8 * skew, hi = 32 - lo;
		const uint32_t *ws = (const uint32_t *)(s - skew);
		uint32_t w0 = *ws++;
		for (; n >= 4; n -= 4) {
			uint32_t w1 = *ws++;
			*wd++ = (w0 >> lo) | (w1 << hi);
			w0 = w1;
		}
		s = (const uint8_t *)ws - 4 + skew;
	}
	d = (uint8_t *)wd;
	while (n-- > 0)
		*d++ = *s++;
}

uint32_t workload_main(uint32_t size)
{
	uint32_t bytes = size ? size : DEFAULT_BYTES;
	uint32_t passes = (bytes + LEN - 1) / LEN;
	uint32_t seed = 0x6b8b4567u;
	for (uint32_t i = 0; i < LEN / 4; i++)
		buf[0][i] = xs32(&seed);

	uint32_t rng = 0x327b23c6u, from = 0, off = 0;
	for (uint32_t p = 0; p < passes; p++) {
		uint32_t to = from ^ 1, to_off = xs32(&rng) & 7;
		const uint8_t *s = (const uint8_t *)buf[from] + off;
		uint8_t *d = (uint8_t *)buf[to] + to_off;
		for (uint32_t done = 0; done < LEN;) {
			uint32_t n = 1 + (xs32(&rng) & (MAX_CHUNK - 1));
			if (n > LEN - done)
				n = LEN - done;
			copy(d + done, s + done, n);
			done += n;
		}
		from = to;
		off = to_off;
	}

	const uint8_t *out = (const uint8_t *)buf[from] + off;
	SABOTAGE(((uint8_t *)buf[from])[off + LEN / 2] ^= 1);
	seed = 0x6b8b4567u;
	for (uint32_t i = 0; i < LEN; i += 4) {
		uint32_t w = xs32(&seed);
		for (uint32_t k = 0; k < 4; k++)
			if (out[i + k] != (uint8_t)(w >> (8 * k)))
				return 1;
	}
	return 0;
}
