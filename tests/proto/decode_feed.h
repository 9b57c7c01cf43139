/* decode_feed.h: what the codec's tests share (test_proto.c, fuzz_decoder.c):
 * a wire buffer fed to a fresh decoder in chunks. */
#ifndef DECODE_FEED_H
#define DECODE_FEED_H
#include <stddef.h>
#include <stdint.h>
#include "hpm_proto.h"

/* Feeds wire[0..n) to a fresh decoder, chunk bytes at a time (1 if chunk is
 * 0), and calls on_event(ctx, i, st, f) for the i-th status other than
 * HPM_PROTO_OK (f: the frame, its fields as valid as st says). Returns how
 * many there were. */
static int decode_feed(const uint8_t *wire, size_t n, size_t chunk,
		       void (*on_event)(void *ctx, int i, int st, const struct hpm_frame *f), void *ctx)
{
	struct hpm_decoder d;
	struct hpm_frame f;
	int nev = 0;
	size_t i = 0;

	hpm_decoder_init(&d);
	while (i < n) {
		int st;
		size_t c = chunk ? (n - i < chunk ? n - i : chunk) : 1;

		i += hpm_decoder_push(&d, wire + i, c, &f, &st);
		if (st != HPM_PROTO_OK)
			on_event(ctx, nev++, st, &f);
	}
	return nev;
}
#endif
