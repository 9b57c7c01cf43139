/* fuzz_decoder.c: libFuzzer target for the link codec.
 *   clang -fsanitize=fuzzer,address,undefined
 * Checks, for any input:
 *  - the decoder never crashes and byte-by-byte feeding equals chunked push;
 *  - every frame it accepts re-encodes to a frame that decodes to the same
 *    (type, seq, body): decode(encode(x)) == x;
 *  - the input read as (type, seq, body) survives encode -> decode, and
 *    hpm_frame_emit produces the same bytes as hpm_frame_build;
 *  - COBS alone round-trips; every body unpacker is total and, when it
 *    accepts, pack(unpack(x)) unpacks to the same value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hpm_proto.h"
#include "decode_feed.h"

#define EXPECT(c) do { if (!(c)) abort(); } while (0)

struct event {
	int status;
	uint8_t type, seq;
	uint16_t len;
	uint32_t body_crc;
};

#define MAX_EV 256

static void check_event(void *ctx, int i, int st, const struct hpm_frame *f)
{
	struct event *ev = ctx;

	EXPECT(st == HPM_PROTO_FRAME || (st < 0 && st >= HPM_PROTO_E_BAD_CRC));
	if (i < MAX_EV) {
		ev[i].status = st;
		ev[i].type = st == HPM_PROTO_FRAME || st == HPM_PROTO_E_BAD_CRC ? f->type : 0;
		ev[i].seq = st == HPM_PROTO_FRAME || st == HPM_PROTO_E_BAD_CRC ? f->seq : 0;
		ev[i].len = st == HPM_PROTO_FRAME ? f->len : 0;
		ev[i].body_crc = st == HPM_PROTO_FRAME ? hpm_crc32(0, f->body, f->len) : 0;
	}
	if (st == HPM_PROTO_FRAME) {
		/* re-encode what was accepted and decode it again */
		static uint8_t wire[HPM_MAX_WIRE];
		struct hpm_decoder d2;
		struct hpm_frame g;
		int m, st2 = HPM_PROTO_OK;

		EXPECT(f->len <= HPM_MAX_BODY);
		m = hpm_frame_build(f->type, f->seq, f->body, f->len, wire, sizeof(wire));
		EXPECT(m > 0);
		hpm_decoder_init(&d2);
		EXPECT(hpm_decoder_push(&d2, wire, (size_t)m, &g, &st2) == (size_t)m);
		EXPECT(st2 == HPM_PROTO_FRAME && g.type == f->type && g.seq == f->seq &&
		       g.len == f->len && memcmp(g.body, f->body, f->len) == 0);
	}
}

static int decode(const uint8_t *p, size_t n, size_t chunk, struct event *ev)
{
	return decode_feed(p, n, chunk, check_event, ev);
}

struct sink {
	uint8_t buf[HPM_MAX_WIRE];
	size_t n;
};

static void sink_put(void *ctx, uint8_t b)
{
	struct sink *s = ctx;

	EXPECT(s->n < sizeof(s->buf));
	s->buf[s->n++] = b;
}

static void check_encode(const uint8_t *p, size_t n)
{
	static uint8_t wire[HPM_MAX_WIRE];
	static struct sink s;
	struct hpm_decoder d;
	struct hpm_frame f;
	size_t len;
	int m, st;

	if (n < 2)
		return;
	len = n - 2 > HPM_MAX_BODY ? HPM_MAX_BODY : n - 2;
	m = hpm_frame_build(p[0], p[1], p + 2, len, wire, sizeof(wire));
	EXPECT(m > 0 && (size_t)m <= HPM_MAX_WIRE);
	EXPECT(wire[m - 1] == 0 && memchr(wire, 0, (size_t)m - 1) == NULL);
	s.n = 0;
	EXPECT(hpm_frame_emit(p[0], p[1], p + 2, len, sink_put, &s) == HPM_PROTO_OK);
	EXPECT(s.n == (size_t)m && memcmp(s.buf, wire, s.n) == 0);
	hpm_decoder_init(&d);
	EXPECT(hpm_decoder_push(&d, wire, (size_t)m, &f, &st) == (size_t)m);
	EXPECT(st == HPM_PROTO_FRAME && f.type == p[0] && f.seq == p[1] && f.len == len &&
	       memcmp(f.body, p + 2, len) == 0);
}

static void check_cobs(const uint8_t *p, size_t n)
{
	static uint8_t enc[HPM_COBS_MAX(4096)], dec[4096];
	size_t m;
	int k;

	if (n > 4096)
		n = 4096;
	m = hpm_cobs_encode(p, n, enc);
	EXPECT(m <= HPM_COBS_MAX(n) && memchr(enc, 0, m) == NULL);
	k = hpm_cobs_decode(enc, m, dec, sizeof(dec));
	EXPECT(k == (int)n && memcmp(dec, p, n) == 0);
	/* raw input as COBS: must not crash; a success fits the buffer */
	k = hpm_cobs_decode(p, n, dec, sizeof(dec));
	EXPECT(k == HPM_PROTO_E_BAD_COBS || k == HPM_PROTO_E_NOSPACE || (k >= 0 && (size_t)k <= sizeof(dec)));
}

#define BODY(kind) do { \
	struct hpm_msg_##kind a_, b_; \
	static uint8_t buf_[HPM_MAX_BODY]; \
	memset(&a_, 0, sizeof(a_)); \
	memset(&b_, 0, sizeof(b_)); \
	if (hpm_unpack_##kind(p, n, &a_) == HPM_PROTO_OK) { \
		size_t m_ = hpm_pack_##kind(buf_, &a_); \
		EXPECT(m_ == n); \
		EXPECT(hpm_unpack_##kind(buf_, m_, &b_) == HPM_PROTO_OK); \
		EXPECT(memcmp(&a_, &b_, sizeof(a_)) == 0); \
	} \
} while (0)

static void check_bodies(const uint8_t *p, size_t n)
{
	if (n > HPM_MAX_BODY)
		return;
	BODY(hello);
	BODY(info);
	BODY(csr_read);
	BODY(csr_value);
	BODY(csr_write);
	BODY(csr_written);
	BODY(mem_read);
	BODY(mem_written);
	BODY(run);
	BODY(snapshot);
	BODY(run_result);
	BODY(stream);
	BODY(sample);
	BODY(boot);
	BODY(error);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct event e1[MAX_EV], e2[MAX_EV];
	size_t chunk = size ? 1u + data[0] % 97u : 1;
	int n1, n2;

	n1 = decode(data, size, 1, e1);
	n2 = decode(data, size, chunk, e2);
	EXPECT(n1 == n2);
	EXPECT(memcmp(e1, e2, sizeof(e1[0]) * (size_t)(n1 < MAX_EV ? n1 : MAX_EV)) == 0);
	check_encode(data, size);
	check_cobs(data, size);
	check_bodies(data, size);
	return 0;
}
