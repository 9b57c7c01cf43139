/* faults.h: the byte faults of a bad cable, shared by tests/link/faultproxy.c
 * (a pseudo-terminal) and tests/usb/ftdi_emu.c (the emulated FT2232H).
 *
 * Every byte meets a fault with probability rate, of a kind picked uniformly
 * from the enabled ones: a flipped bit, dropped, duplicated, a random byte
 * inserted before it, or a burst of 32 lost bytes starting at it. The RNG
 * (xorshift64*) is seeded, so the faults depend only on the seed and the
 * byte stream of each direction. */
#ifndef HPM_TEST_FAULTS_H
#define HPM_TEST_FAULTS_H

#include <stdint.h>
#include <string.h>

enum { FK_FLIP, FK_DROP, FK_DUP, FK_INSERT, FK_BURST, FK_N };
static const char *const fault_kind_name[FK_N] = { "flip", "drop", "dup", "insert", "burst" };

struct faults {
	double rate;
	int kinds[FK_N], nkinds;
	uint64_t rng;
	uint64_t bytes_in, bytes_out, count[FK_N];
	unsigned burst_left;
};

static inline uint64_t faults_rng(struct faults *f)
{
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 0x2545F4914F6CDD1DULL;
}

/* kinds: a comma-separated subset of the names above. */
static inline void faults_init(struct faults *f, double rate, uint64_t seed, const char *kinds)
{
	memset(f, 0, sizeof *f);
	f->rate = rate;
	f->rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	for (int k = 0; k < FK_N; k++)
		if (strstr(kinds, fault_kind_name[k]))
			f->kinds[f->nkinds++] = k;
}

/* Applies the faults to n bytes of in, appending to out (room for 2n). */
static inline size_t faults_apply(struct faults *f, const uint8_t *in, size_t n, uint8_t *out)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = in[i];
		f->bytes_in++;
		if (f->burst_left) {
			f->burst_left--;
			continue;
		}
		if (f->nkinds && f->rate > 0 && (double)(faults_rng(f) >> 11) * 0x1.0p-53 < f->rate) {
			int k = f->kinds[faults_rng(f) % (unsigned)f->nkinds];
			f->count[k]++;
			switch (k) {
			case FK_FLIP:   c ^= (uint8_t)(1u << (faults_rng(f) % 8)); break;
			case FK_DROP:   continue;
			case FK_DUP:    out[o++] = c; break;
			case FK_INSERT: out[o++] = (uint8_t)faults_rng(f); break;
			case FK_BURST:  f->burst_left = 31; continue;
			}
		}
		out[o++] = c;
	}
	f->bytes_out += o;
	return o;
}

#endif
