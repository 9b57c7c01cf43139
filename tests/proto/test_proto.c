/* test_proto.c: unit tests of the link codec (proto/hpm_proto.c).
 * Last line: "proto: N passed, M failed" (N, M count test cases).
 * With --write-corpus DIR it also writes seed inputs for the fuzzer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpm_proto.h"
#include "decode_feed.h"

static int checks_failed;   /* in the current test case */
static int cases_passed, cases_failed;

#define CHECK(cond) do { \
	if (!(cond)) { \
		checks_failed++; \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long a_ = (long long)(a), b_ = (long long)(b); \
	if (a_ != b_) { \
		checks_failed++; \
		fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", \
			__FILE__, __LINE__, #a, a_, #b, b_); \
	} \
} while (0)

/* deterministic PRNG (xorshift64*) */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void fill_random(uint8_t *p, size_t n, int zero_odds)
{
	for (size_t i = 0; i < n; i++) {
		p[i] = (uint8_t)rnd();
		if (zero_odds && rnd() % (unsigned)zero_odds == 0)
			p[i] = 0;
	}
}

/* bit-at-a-time CRC-32 as an independent reference */
static uint32_t crc32_ref(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/* ---- helpers: decode a whole wire buffer, collecting events ---- */

struct event {
	int status;
	uint8_t type, seq;
	uint16_t len;
	uint8_t body[HPM_MAX_BODY];
};

struct events {
	struct event *ev;
	int max;
};

static void collect(void *ctx, int i, int st, const struct hpm_frame *f)
{
	struct events *e = ctx;
	if (i >= e->max)
		return;
	e->ev[i].status = st;
	if (st == HPM_PROTO_FRAME || st == HPM_PROTO_E_BAD_CRC) {
		e->ev[i].type = f->type;
		e->ev[i].seq = f->seq;
	}
	if (st == HPM_PROTO_FRAME) {
		e->ev[i].len = f->len;
		memcpy(e->ev[i].body, f->body, f->len);
	}
}

static int decode_all(const uint8_t *wire, size_t n, struct event *ev, int max_ev,
		      size_t chunk)
{
	struct events e = { ev, max_ev };
	return decode_feed(wire, n, chunk, collect, &e);
}

static int one_event(const uint8_t *wire, size_t n, struct event *ev)
{
	return decode_all(wire, n, ev, 1, 0);
}

/* ---- test cases ---- */

static void test_crc32(void)
{
	static const char kat[] = "123456789";
	uint8_t buf[1000];

	CHECK_EQ(hpm_crc32(0, kat, 9), 0xcbf43926u);
	CHECK_EQ(hpm_crc32(0, NULL, 0), 0);
	CHECK_EQ(hpm_crc32(0, "a", 1), 0xe8b7be43u);
	/* chaining equals one pass */
	CHECK_EQ(hpm_crc32(hpm_crc32(0, kat, 4), kat + 4, 5), 0xcbf43926u);
	for (int t = 0; t < 200; t++) {
		size_t n = rnd() % sizeof(buf);

		fill_random(buf, n, 0);
		CHECK_EQ(hpm_crc32(0, buf, n), crc32_ref(buf, n));
	}
}

static void test_le_helpers(void)
{
	uint8_t b[8];

	hpm_put16(b, 0x1234);
	CHECK(b[0] == 0x34 && b[1] == 0x12);
	CHECK_EQ(hpm_get16(b), 0x1234);
	hpm_put32(b, 0xdeadbeefu);
	CHECK(b[0] == 0xef && b[1] == 0xbe && b[2] == 0xad && b[3] == 0xde);
	CHECK_EQ(hpm_get32(b), 0xdeadbeefu);
	hpm_put64(b, 0x0102030405060708ull);
	CHECK(b[0] == 0x08 && b[7] == 0x01);
	CHECK(hpm_get64(b) == 0x0102030405060708ull);
	CHECK_EQ(hpm_popcount32(0), 0);
	CHECK_EQ(hpm_popcount32(0xffffffffu), 32);
	CHECK_EQ(HPM_MAX_WIRE, 522);
	CHECK_EQ(HPM_MAX_RAW, 518);
}

struct cobs_vec {
	const char *name;
	uint8_t in[8];
	size_t in_len;
	uint8_t out[10];
	size_t out_len;
};

static void test_cobs_vectors(void)
{
	static const struct cobs_vec v[] = {
		{ "empty", { 0 }, 0, { 0x01 }, 1 },
		{ "00", { 0x00 }, 1, { 0x01, 0x01 }, 2 },
		{ "00 00", { 0, 0 }, 2, { 0x01, 0x01, 0x01 }, 3 },
		{ "00 11 00", { 0x00, 0x11, 0x00 }, 3, { 0x01, 0x02, 0x11, 0x01 }, 4 },
		{ "11 22 00 33", { 0x11, 0x22, 0x00, 0x33 }, 4,
		  { 0x03, 0x11, 0x22, 0x02, 0x33 }, 5 },
		{ "11 22 33 44", { 0x11, 0x22, 0x33, 0x44 }, 4,
		  { 0x05, 0x11, 0x22, 0x33, 0x44 }, 5 },
		{ "11 00 00 00", { 0x11, 0, 0, 0 }, 4,
		  { 0x02, 0x11, 0x01, 0x01, 0x01 }, 5 },
	};
	uint8_t enc[16], dec[16];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t n = hpm_cobs_encode(v[i].in, v[i].in_len, enc);
		int m;

		CHECK_EQ(n, v[i].out_len);
		if (memcmp(enc, v[i].out, v[i].out_len) != 0) {
			checks_failed++;
			fprintf(stderr, "cobs vector %s: wrong encoding\n", v[i].name);
		}
		m = hpm_cobs_decode(v[i].out, v[i].out_len, dec, sizeof(dec));
		CHECK_EQ(m, (long long)v[i].in_len);
		CHECK(memcmp(dec, v[i].in, v[i].in_len) == 0);
	}
}

/* Wikipedia's long examples: runs around the 254-byte block limit */
static void test_cobs_long_runs(void)
{
	static uint8_t in[1200], enc[1300], dec[1200];
	size_t n;

	/* 01..FE (254 non-zero): FF 01..FE, no trailing 01 */
	for (int i = 0; i < 254; i++)
		in[i] = (uint8_t)(i + 1);
	n = hpm_cobs_encode(in, 254, enc);
	CHECK_EQ(n, 255);
	CHECK_EQ(enc[0], 0xff);
	CHECK(memcmp(enc + 1, in, 254) == 0);
	/* the classic encoder's trailing 01 is accepted too */
	enc[255] = 0x01;
	CHECK_EQ(hpm_cobs_decode(enc, 256, dec, sizeof(dec)), 254);

	/* 00 01..FE (255 bytes): 01 FF 01..FE */
	in[0] = 0;
	for (int i = 1; i < 255; i++)
		in[i] = (uint8_t)i;
	n = hpm_cobs_encode(in, 255, enc);
	CHECK_EQ(n, 256);
	CHECK(enc[0] == 0x01 && enc[1] == 0xff && enc[2] == 0x01 && enc[255] == 0xfe);

	/* 01..FF (255 non-zero): FF 01..FE 02 FF */
	for (int i = 0; i < 255; i++)
		in[i] = (uint8_t)(i + 1);
	n = hpm_cobs_encode(in, 255, enc);
	CHECK_EQ(n, 257);
	CHECK(enc[0] == 0xff && enc[255] == 0x02 && enc[256] == 0xff);

	/* 02..FF 00 (255 bytes): FF 02..FF 01 01 */
	for (int i = 0; i < 254; i++)
		in[i] = (uint8_t)(i + 2);
	in[254] = 0;
	n = hpm_cobs_encode(in, 255, enc);
	CHECK_EQ(n, 257);
	CHECK(enc[0] == 0xff && enc[255] == 0x01 && enc[256] == 0x01);

	/* 03..FF 00 01 (255 bytes): FE 03..FF 02 01 */
	for (int i = 0; i < 253; i++)
		in[i] = (uint8_t)(i + 3);
	in[253] = 0;
	in[254] = 1;
	n = hpm_cobs_encode(in, 255, enc);
	CHECK_EQ(n, 256);
	CHECK(enc[0] == 0xfe && enc[253] == 0xff && enc[254] == 0x02 && enc[255] == 0x01);

	/* runs of every length 0..1100 of non-zero bytes and of zeros */
	for (size_t len = 0; len <= 1100; len += (len < 520 ? 1 : 37)) {
		for (int kind = 0; kind < 3; kind++) {
			int m;

			if (kind == 0)
				memset(in, 0xa5, len);
			else if (kind == 1)
				memset(in, 0, len);
			else
				fill_random(in, len, 4);
			n = hpm_cobs_encode(in, len, enc);
			CHECK(n <= HPM_COBS_MAX(len));
			CHECK(memchr(enc, 0, n) == NULL);
			if (kind == 0)
				CHECK_EQ(n, len + (len + 253) / 254 + (len == 0));
			if (kind == 1)
				CHECK_EQ(n, len + 1);
			m = hpm_cobs_decode(enc, n, dec, sizeof(dec));
			CHECK_EQ(m, (long long)len);
			CHECK(memcmp(dec, in, len) == 0);
		}
	}
}

static void test_cobs_decode_errors(void)
{
	static const uint8_t truncated[] = { 0x05, 0x11, 0x22 };
	static const uint8_t zero_inside[] = { 0x03, 0x11, 0x00 };
	static const uint8_t zero_code[] = { 0x00 };
	uint8_t dec[4];
	static const uint8_t big[] = { 0x06, 1, 2, 3, 4, 5 };

	CHECK_EQ(hpm_cobs_decode(truncated, sizeof(truncated), dec, sizeof(dec)), HPM_PROTO_E_BAD_COBS);
	CHECK_EQ(hpm_cobs_decode(zero_inside, sizeof(zero_inside), dec, sizeof(dec)), HPM_PROTO_E_BAD_COBS);
	CHECK_EQ(hpm_cobs_decode(zero_code, 1, dec, sizeof(dec)), HPM_PROTO_E_BAD_COBS);
	CHECK_EQ(hpm_cobs_decode(big, sizeof(big), dec, sizeof(dec)), HPM_PROTO_E_NOSPACE);
}

/* build + decode, byte by byte and in chunks, for many sizes */
static void test_frame_round_trip(void)
{
	static uint8_t body[HPM_MAX_BODY], wire[HPM_MAX_WIRE + 8];
	static struct event ev[4];

	for (int t = 0; t < 3000; t++) {
		size_t len = t < 520 ? (size_t)t % (HPM_MAX_BODY + 1) : rnd() % (HPM_MAX_BODY + 1);
		uint8_t type = (uint8_t)rnd(), seq = (uint8_t)rnd();
		int n;
		static const size_t chunks[] = { 0, 1, 3, 64, 1000 };

		fill_random(body, len, t % 3 == 0 ? 0 : (t % 3 == 1 ? 2 : 40));
		n = hpm_frame_build(type, seq, body, len, wire, sizeof(wire));
		CHECK(n > 0 && (size_t)n <= HPM_MAX_WIRE);
		if (n <= 0)
			continue;
		CHECK_EQ(wire[n - 1], 0);
		CHECK(memchr(wire, 0, (size_t)n - 1) == NULL);
		for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
			int nev = decode_all(wire, (size_t)n, ev, 4, chunks[c]);

			CHECK_EQ(nev, 1);
			CHECK_EQ(ev[0].status, HPM_PROTO_FRAME);
			CHECK(ev[0].type == type && ev[0].seq == seq);
			CHECK_EQ(ev[0].len, (long long)len);
			CHECK(memcmp(ev[0].body, body, len) == 0);
		}
	}
}

struct sink {
	uint8_t buf[HPM_MAX_WIRE + 8];
	size_t n;
};

static void sink_put(void *ctx, uint8_t b)
{
	struct sink *s = ctx;

	if (s->n < sizeof(s->buf))
		s->buf[s->n] = b;
	s->n++;
}

static void test_frame_emit_matches_build(void)
{
	static uint8_t body[HPM_MAX_BODY], wire[HPM_MAX_WIRE];
	static struct sink s;

	for (int t = 0; t < 500; t++) {
		size_t len = rnd() % (HPM_MAX_BODY + 1);
		int n;

		fill_random(body, len, 8);
		n = hpm_frame_build(0x81, (uint8_t)t, body, len, wire, sizeof(wire));
		s.n = 0;
		CHECK_EQ(hpm_frame_emit(0x81, (uint8_t)t, body, len, sink_put, &s), HPM_PROTO_OK);
		CHECK_EQ(s.n, n);
		CHECK(memcmp(s.buf, wire, s.n) == 0);
	}
	s.n = 0;
	CHECK_EQ(hpm_frame_emit(1, 1, body, HPM_MAX_BODY + 1, sink_put, &s), HPM_PROTO_E_NOSPACE);
	CHECK_EQ(s.n, 0);
}

static void test_frame_max_size(void)
{
	static uint8_t body[HPM_MAX_BODY + 1], wire[HPM_MAX_WIRE + 16];
	static struct event ev[2];
	int n;

	/* worst case for COBS: no zeros anywhere, not even in the CRC */
	memset(body, 0x55, sizeof(body));
	n = hpm_frame_build(HPM_T_MEM_READ | HPM_T_REPLY, 7, body, HPM_MAX_BODY, wire,
			    sizeof(wire));
	CHECK(n > 0 && (size_t)n <= HPM_MAX_WIRE);
	CHECK_EQ(one_event(wire, (size_t)n, ev), 1);
	CHECK_EQ(ev[0].status, HPM_PROTO_FRAME);
	CHECK_EQ(ev[0].len, HPM_MAX_BODY);
	CHECK(memcmp(ev[0].body, body, HPM_MAX_BODY) == 0);

	/* HPM_MAX_WIRE always suffices; one byte less than needed does not */
	CHECK_EQ(hpm_frame_build(1, 2, body, HPM_MAX_BODY, wire, HPM_MAX_WIRE), n);
	CHECK_EQ(hpm_frame_build(1, 2, body, HPM_MAX_BODY, wire, (size_t)n - 1), HPM_PROTO_E_NOSPACE);
	CHECK_EQ(hpm_frame_build(1, 2, body, HPM_MAX_BODY + 1, wire, sizeof(wire)), HPM_PROTO_E_NOSPACE);
	CHECK_EQ(hpm_frame_build(1, 2, NULL, 0, wire, 7), HPM_PROTO_E_NOSPACE);
	CHECK(hpm_frame_build(1, 2, NULL, 0, wire, HPM_MAX_WIRE) > 0);
}

/* wire bytes for an arbitrary raw frame (no CRC computed) */
static size_t wire_of_raw(const uint8_t *raw, size_t n, uint8_t *wire)
{
	size_t m = hpm_cobs_encode(raw, n, wire);

	wire[m] = 0;
	return m + 1;
}

static void test_decoder_errors(void)
{
	static uint8_t raw[HPM_MAX_RAW + 300], wire[HPM_MAX_RAW + 400];
	static struct event ev[4];
	size_t n;
	struct hpm_decoder d;
	struct hpm_frame f;

	/* TOO_LONG: one byte over HPM_MAX_RAW, with a correct CRC */
	fill_random(raw, HPM_MAX_RAW + 1 - 4, 0);
	hpm_put32(raw + HPM_MAX_RAW + 1 - 4, hpm_crc32(0, raw, HPM_MAX_RAW + 1 - 4));
	n = wire_of_raw(raw, HPM_MAX_RAW + 1, wire);
	CHECK_EQ(one_event(wire, n, ev), 1);
	CHECK_EQ(ev[0].status, HPM_PROTO_E_TOO_LONG);
	/* exactly HPM_MAX_RAW with a correct CRC is fine */
	hpm_put32(raw + HPM_MAX_RAW - 4, hpm_crc32(0, raw, HPM_MAX_RAW - 4));
	n = wire_of_raw(raw, HPM_MAX_RAW, wire);
	CHECK_EQ(one_event(wire, n, ev), 1);
	CHECK_EQ(ev[0].status, HPM_PROTO_FRAME);
	CHECK_EQ(ev[0].len, HPM_MAX_BODY);

	/* TOO_LONG: a long stream of non-zero garbage, then a good frame */
	hpm_decoder_init(&d);
	for (int i = 0; i < 100000; i++)
		CHECK_EQ(hpm_decoder_feed(&d, (uint8_t)(1 + i % 255), &f), HPM_PROTO_OK);
	CHECK_EQ(hpm_decoder_feed(&d, 0, &f), HPM_PROTO_E_TOO_LONG);
	n = (size_t)hpm_frame_build(9, 9, "ok", 2, wire, sizeof(wire));
	for (size_t i = 0; i < n - 1; i++)
		CHECK_EQ(hpm_decoder_feed(&d, wire[i], &f), HPM_PROTO_OK);
	CHECK_EQ(hpm_decoder_feed(&d, 0, &f), HPM_PROTO_FRAME);
	CHECK(f.type == 9 && f.seq == 9 && f.len == 2 && memcmp(f.body, "ok", 2) == 0);

	/* BAD_COBS: delimiter inside a block */
	{
		static const uint8_t w[] = { 0x05, 0x11, 0x22, 0x00 };

		CHECK_EQ(one_event(w, sizeof(w), ev), 1);
		CHECK_EQ(ev[0].status, HPM_PROTO_E_BAD_COBS);
	}

	/* TOO_SHORT: 0..5 decoded bytes */
	for (size_t len = 0; len < HPM_FRAME_OVERHEAD; len++) {
		fill_random(raw, len, 0);
		n = wire_of_raw(raw, len, wire);
		CHECK_EQ(one_event(wire, n, ev), 1);
		CHECK_EQ(ev[0].status, HPM_PROTO_E_TOO_SHORT);
	}

	/* BAD_CRC: type and seq still reported */
	raw[0] = HPM_T_CSR_READ;
	raw[1] = 0x42;
	raw[2] = 0x00;
	raw[3] = 0x0b;
	hpm_put32(raw + 4, hpm_crc32(0, raw, 4) ^ 0x00010000u);
	n = wire_of_raw(raw, 8, wire);
	CHECK_EQ(one_event(wire, n, ev), 1);
	CHECK_EQ(ev[0].status, HPM_PROTO_E_BAD_CRC);
	CHECK(ev[0].type == HPM_T_CSR_READ && ev[0].seq == 0x42);

	/* empty frames (delimiter runs) are skipped silently */
	{
		static const uint8_t w[] = { 0, 0, 0, 0 };

		CHECK_EQ(decode_all(w, sizeof(w), ev, 4, 0), 0);
	}
	for (int s = -6; s <= 1; s++)
		CHECK(hpm_proto_status_str(s) != NULL && strcmp(hpm_proto_status_str(s), "unknown status") != 0);
}

/* garbage before, between and inside frames: each good frame that follows a
 * delimiter is recovered */
static void test_resync(void)
{
	static uint8_t stream[20000], body[64];
	static struct event ev[2048];
	size_t n = 0;
	int frames = 0;

	for (int k = 0; k < 20; k++) {
		size_t g = rnd() % 600;

		fill_random(stream + n, g, k % 2 ? 0 : 50);  /* garbage, some zeros */
		n += g;
		stream[n++] = 0;                             /* host's leading 0x00 */
		fill_random(body, 64, 5);
		n += (size_t)hpm_frame_build(0x80 | (uint8_t)k, (uint8_t)k, body, 1 + (size_t)k,
					     stream + n, HPM_MAX_WIRE);
		frames++;
	}
	for (size_t chunk = 0; chunk <= 7; chunk += 7) {
		int nev = decode_all(stream, n, ev, 2048, chunk);
		int got = 0;

		CHECK(nev <= 2048);
		for (int i = 0; i < nev && i < 2048; i++) {
			if (ev[i].status != HPM_PROTO_FRAME)
				continue;
			/* a garbage frame never passes the CRC in this stream */
			CHECK_EQ(ev[i].seq, got);
			CHECK_EQ(ev[i].len, got + 1);
			got++;
		}
		CHECK_EQ(got, frames);
	}
}

/* SPEC 6: a corrupted, dropped or duplicated byte never yields a wrong frame */
static void test_corruption_never_wrong(void)
{
	static uint8_t body[HPM_MAX_BODY], wire[HPM_MAX_WIRE], bad[HPM_MAX_WIRE + 4];
	static struct event ev[8];
	long wrong = 0, tried = 0;

	for (int t = 0; t <= 10; t++) {
		size_t len = (size_t)t * 50;
		int n;

		fill_random(body, len, 6);
		n = hpm_frame_build(HPM_T_RUN | HPM_T_REPLY, (uint8_t)t, body, len, wire,
				    sizeof(wire));
		for (int i = 0; i < n - 1; i++) {
			/* every single-bit flip */
			for (int b = 0; b < 8; b++) {
				int nev;

				memcpy(bad, wire, (size_t)n);
				bad[i] ^= (uint8_t)(1u << b);
				nev = decode_all(bad, (size_t)n, ev, 8, 0);
				for (int e = 0; e < nev && e < 8; e++)
					wrong += ev[e].status == HPM_PROTO_FRAME;
				tried++;
			}
			/* byte dropped */
			memcpy(bad, wire, (size_t)i);
			memcpy(bad + i, wire + i + 1, (size_t)(n - i - 1));
			{
				int nev = decode_all(bad, (size_t)n - 1, ev, 8, 0);

				for (int e = 0; e < nev && e < 8; e++)
					wrong += ev[e].status == HPM_PROTO_FRAME;
			}
			/* byte duplicated */
			memcpy(bad, wire, (size_t)i + 1);
			memcpy(bad + i + 1, wire + i, (size_t)(n - i));
			{
				int nev = decode_all(bad, (size_t)n + 1, ev, 8, 0);

				for (int e = 0; e < nev && e < 8; e++)
					wrong += ev[e].status == HPM_PROTO_FRAME;
			}
			tried += 2;
		}
	}
	CHECK_EQ(wrong, 0);
	CHECK(tried > 10000);
}

/* ---- bodies ---- */

/* pack, unpack, pack again: same bytes (compares every packed field) */
#define ROUND_TRIP(kind, expect_len, ...) do { \
	struct hpm_msg_##kind a_ = __VA_ARGS__, b_; \
	static uint8_t buf_[HPM_MAX_BODY], buf2_[HPM_MAX_BODY]; \
	size_t n_ = hpm_pack_##kind(buf_, &a_); \
	memset(&b_, 0, sizeof(b_)); \
	CHECK_EQ(n_, (expect_len)); \
	CHECK_EQ(hpm_unpack_##kind(buf_, n_, &b_), HPM_PROTO_OK); \
	CHECK_EQ(hpm_pack_##kind(buf2_, &b_), n_); \
	CHECK(memcmp(buf_, buf2_, n_) == 0); \
	CHECK_EQ(hpm_unpack_##kind(buf_, n_ + 1, &b_), HPM_PROTO_E_LENGTH); \
	CHECK_EQ(hpm_unpack_##kind(buf_, n_ - 1, &b_), HPM_PROTO_E_LENGTH); \
} while (0)

static void test_bodies_fixed(void)
{
	ROUND_TRIP(hello, HPM_HELLO_LEN, { 1, 3 });
	ROUND_TRIP(info, HPM_INFO_LEN, { 1, 0x0100, 0, 0x48504d31, 1, 0x40101100, 29, 64, 512,
					  24000000, 3000000, 0x0123456789abcdefull, 0x80000000,
					  0x20000, 65536, HPM_INFO_F_SSTC, 0x9abcdef0 });
	ROUND_TRIP(csr_read, HPM_CSR_READ_LEN, { 0xb03 });
	ROUND_TRIP(csr_value, HPM_CSR_VALUE_LEN, { 0xb80, 0xfedcba98 });
	ROUND_TRIP(csr_write, HPM_CSR_WRITE_LEN, { 0x323, HPM_CSR_SET, 0x4000000 });
	ROUND_TRIP(csr_written, HPM_CSR_WRITTEN_LEN, { 0x320, 0xffffffff, 0xfffffffd });
	ROUND_TRIP(mem_read, HPM_MEM_READ_LEN, { 0x8001fff0, 16 });
	ROUND_TRIP(mem_written, HPM_MEM_WRITTEN_LEN, { 0x80000000, 508, 0xcbf43926 });
	ROUND_TRIP(stream, HPM_STREAM_LEN, { 1000000, 0x7, HPM_STREAM_SILENT });
	ROUND_TRIP(boot, HPM_BOOT_LEN, { 1, 0x0100 });
	ROUND_TRIP(error, HPM_ERROR_LEN, { HPM_ERR_FORBIDDEN, HPM_T_CSR_WRITE, 0x305 });

	/* byte layout spot checks against docs/protocol.md */
	{
		uint8_t b[HPM_ERROR_LEN];
		struct hpm_msg_error e = { HPM_ERR_BAD_ADDRESS, HPM_T_MEM_WRITE, 0x7ffffffc };

		hpm_pack_error(b, &e);
		CHECK(b[0] == 0x04 && b[1] == 0x06 && b[2] == 0 && b[3] == 0);
		CHECK(b[4] == 0xfc && b[7] == 0x7f);
	}
}

static void test_bodies_run(void)
{
	static uint8_t buf[HPM_MAX_BODY];
	struct hpm_msg_run a, b;

	for (unsigned n = 0; n <= HPM_NHPM; n++) {
		size_t len;

		memset(&a, 0, sizeof(a));
		a.entry = 0x80000000;
		a.mode = HPM_MODE_U;
		a.n_events = (uint8_t)n;
		a.budget = 1ull << 40;
		a.tohost = 0x80001000;
		a.mcountinhibit = 0x5;
		a.mcounteren = 0xffffffff;
		a.medeleg = 0xb100;
		a.mideleg = 0x222;
		a.a0 = 1;
		a.a1 = 2;
		a.mcyclecfg = 1ull << 62;
		a.minstretcfg = 3ull << 61;
		for (unsigned i = 0; i < n; i++)
			a.mhpmevent[i] = rnd();
		len = hpm_pack_run(buf, &a);
		CHECK_EQ(len, HPM_RUN_LEN(n));
		CHECK(len <= HPM_MAX_BODY);
		memset(&b, 0, sizeof(b));
		CHECK_EQ(hpm_unpack_run(buf, len, &b), HPM_PROTO_OK);
		CHECK(memcmp(&a, &b, sizeof(a)) == 0);
		/* selectors not sent read back as 0 */
		b.mhpmevent[HPM_NHPM - 1] = 0xffff;
		CHECK_EQ(hpm_unpack_run(buf, len, &b), HPM_PROTO_OK);
		CHECK(b.mhpmevent[HPM_NHPM - 1] == (n == HPM_NHPM ? a.mhpmevent[HPM_NHPM - 1] : 0));
		CHECK_EQ(hpm_unpack_run(buf, len + 8, &b), HPM_PROTO_E_LENGTH);
		CHECK_EQ(hpm_unpack_run(buf, len - 1, &b), HPM_PROTO_E_LENGTH);
	}
	buf[6] = HPM_NHPM + 1;
	CHECK_EQ(hpm_unpack_run(buf, HPM_RUN_LEN(HPM_NHPM + 1), &b), HPM_PROTO_E_LENGTH);
	CHECK_EQ(hpm_unpack_run(buf, 3, &b), HPM_PROTO_E_LENGTH);

	/* PROFILE: a period per selector after the selectors, up to 28 in a body */
	CHECK(HPM_RUN_PROFILE_LEN(HPM_NHPM - 1) == HPM_MAX_BODY);
	for (unsigned n = 0; n < HPM_NHPM; n++) {
		size_t len;

		memset(&a, 0, sizeof(a));
		a.entry = 0x80000000;
		a.flags = HPM_RUN_PROFILE;
		a.n_events = (uint8_t)n;
		a.budget = 77;
		for (unsigned i = 0; i < n; i++) {
			a.mhpmevent[i] = rnd();
			a.period[i] = i & 1 ? 0 : rnd() | 256;
		}
		len = hpm_pack_run(buf, &a);
		CHECK_EQ(len, HPM_RUN_PROFILE_LEN(n));
		memset(&b, 0, sizeof(b));
		b.period[HPM_NHPM - 1] = b.period[n] = 0xffff;    /* not sent: read back as 0 */
		CHECK_EQ(hpm_unpack_run(buf, len, &b), HPM_PROTO_OK);
		CHECK(memcmp(&a, &b, sizeof(a)) == 0);
		CHECK_EQ(hpm_unpack_run(buf, HPM_RUN_LEN(n), &b), n ? HPM_PROTO_E_LENGTH : HPM_PROTO_OK);
		CHECK_EQ(hpm_unpack_run(buf, len + 8, &b), HPM_PROTO_E_LENGTH);
	}
	/* without the flag, periods are neither sent nor kept */
	a.flags = 0;
	CHECK_EQ(hpm_unpack_run(buf, hpm_pack_run(buf, &a), &b), HPM_PROTO_OK);
	CHECK(b.period[0] == 0 && b.mhpmevent[0] == a.mhpmevent[0]);
}

static void test_bodies_snapshot(void)
{
	static uint8_t buf[HPM_MAX_BODY];
	static struct hpm_msg_run_result a, b;

	memset(&a, 0, sizeof(a));
	a.reason = HPM_EXIT_TRAP;
	a.priv = HPM_MODE_S;
	a.code = 7;
	a.mcause = 2;
	a.mepc = 0x80000124;
	a.mtval = 0xffffffff;
	a.ticks = 12;
	a.samples = 11;
	a.elapsed = 123456789012ull;
	a.monitor_sum = 0x13572468;
	a.snap.present = 0xfffffffd;
	a.snap.overflowed = 0x8;
	for (int i = 0; i < HPM_NCOUNTERS; i++)
		a.snap.value[i] = rnd();
	for (int i = 0; i < HPM_NHPM; i++)
		a.snap.wraps[i] = (uint32_t)rnd();
	CHECK_EQ(hpm_pack_run_result(buf, &a), HPM_RUN_RESULT_LEN);
	CHECK(HPM_RUN_RESULT_LEN <= HPM_MAX_BODY);
	CHECK_EQ(hpm_unpack_run_result(buf, HPM_RUN_RESULT_LEN, &b), HPM_PROTO_OK);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	CHECK_EQ(hpm_unpack_run_result(buf, HPM_RUN_RESULT_LEN - 1, &b), HPM_PROTO_E_LENGTH);
	/* the snapshot part is the SNAPSHOT reply body */
	memset(&b, 0, sizeof(b));
	CHECK_EQ(hpm_unpack_snapshot(buf + HPM_RUN_RESULT_HDR_LEN, HPM_SNAPSHOT_LEN, &b.snap),
		 HPM_PROTO_OK);
	CHECK(memcmp(&a.snap, &b.snap, sizeof(a.snap)) == 0);
	CHECK_EQ(hpm_get64(buf + HPM_RUN_RESULT_HDR_LEN + 8 + 8 * 3), a.snap.value[3]);
	CHECK_EQ(hpm_unpack_snapshot(buf, HPM_SNAPSHOT_LEN + 1, &b.snap), HPM_PROTO_E_LENGTH);
}

static void test_bodies_sample(void)
{
	static uint8_t buf[HPM_MAX_BODY];
	struct hpm_msg_sample a, b;
	static const uint32_t masks[] = { 0, 1, 0x5, 0xfffffffd, 0xffffffff, 0x80000000 };

	for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
		size_t len;

		memset(&a, 0, sizeof(a));
		a.sample_seq = (uint32_t)m * 1000;
		a.mask = masks[m];
		for (int i = 0; i < HPM_NCOUNTERS; i++)
			if (a.mask >> i & 1) {
				a.value[i] = rnd();
				if (i >= 3)
					a.wraps[i] = (uint32_t)rnd();
			}
		len = hpm_pack_sample(buf, &a);
		CHECK_EQ(len, HPM_SAMPLE_LEN(masks[m]));
		CHECK(len <= HPM_MAX_BODY);
		memset(&b, 0, sizeof(b));
		CHECK_EQ(hpm_unpack_sample(buf, len, &b), HPM_PROTO_OK);
		CHECK(memcmp(&a, &b, sizeof(a)) == 0);
		CHECK_EQ(hpm_unpack_sample(buf, len + 4, &b), HPM_PROTO_E_LENGTH);
		CHECK_EQ(hpm_unpack_sample(buf, 7, &b), HPM_PROTO_E_LENGTH);
	}
}

/* offsets exactly as in the tables of docs/protocol.md */
static void test_layouts(void)
{
	static uint8_t b[HPM_MAX_BODY];
	struct hpm_msg_info in;
	struct hpm_msg_run r;
	static struct hpm_msg_run_result rr;
	struct hpm_msg_csr_write cw = { 0x320, HPM_CSR_CLEAR, 0x11223344 };
	struct hpm_msg_stream st = { 0x0102030405060708ull, 0xa5a5a5a5, 1 };

	memset(&in, 0, sizeof(in));
	in.proto_version = 2;
	in.fw_version = 0x0203;
	in.mvendorid = 0x11111111;
	in.marchid = 0x22222222;
	in.mimpid = 0x33333333;
	in.misa = 0x40141101;
	in.hpm_num = 29;
	in.hpm_width = 48;
	in.max_body = 512;
	in.clock_hz = 24000000;
	in.uart_baud = 3000000;
	in.event_hash = 0xfedcba9876543210ull;
	in.ram_base = 0x80000000;
	in.ram_size = 0x20000;
	in.min_interval = 4096;
	in.features = 1;
	in.monitor_sum = 0x5eed5eed;
	memset(b, 0xee, sizeof(b));
	CHECK_EQ(hpm_pack_info(b, &in), 60);
	CHECK_EQ(hpm_get16(b + 0), 2);
	CHECK_EQ(hpm_get16(b + 2), 0x0203);
	CHECK_EQ(hpm_get32(b + 4), 0x11111111);
	CHECK_EQ(hpm_get32(b + 8), 0x22222222);
	CHECK_EQ(hpm_get32(b + 12), 0x33333333);
	CHECK_EQ(hpm_get32(b + 16), 0x40141101);
	CHECK(b[20] == 29 && b[21] == 48);
	CHECK_EQ(hpm_get16(b + 22), 512);
	CHECK_EQ(hpm_get32(b + 24), 24000000);
	CHECK_EQ(hpm_get32(b + 28), 3000000);
	CHECK(hpm_get64(b + 32) == 0xfedcba9876543210ull);
	CHECK_EQ(hpm_get32(b + 40), 0x80000000);
	CHECK_EQ(hpm_get32(b + 44), 0x20000);
	CHECK_EQ(hpm_get32(b + 48), 4096);
	CHECK_EQ(hpm_get32(b + 52), 1);
	CHECK_EQ(hpm_get32(b + 56), 0x5eed5eed);
	CHECK_EQ(b[60], 0xee);

	memset(&r, 0, sizeof(r));
	r.entry = 0x80000100;
	r.mode = HPM_MODE_S;
	r.flags = 0;
	r.n_events = 2;
	r.budget = 0x0000000123456789ull;
	r.tohost = 0x80001000;
	r.mcountinhibit = 0x4;
	r.mcounteren = 0x7;
	r.medeleg = 0x100;
	r.mideleg = 0x222;
	r.a0 = 0xaaaa0000;
	r.a1 = 0xbbbb0000;
	r.mcyclecfg = 1ull << 60;
	r.minstretcfg = 1ull << 61;
	r.mhpmevent[0] = 0x4000000000000401ull;
	r.mhpmevent[1] = 0x2;
	memset(b, 0xee, sizeof(b));
	CHECK_EQ(hpm_pack_run(b, &r), 80);
	CHECK_EQ(hpm_get32(b + 0), 0x80000100);
	CHECK(b[4] == 1 && b[5] == 0 && b[6] == 2 && b[7] == 0);
	CHECK(hpm_get64(b + 8) == 0x123456789ull);
	CHECK_EQ(hpm_get32(b + 16), 0x80001000);
	CHECK_EQ(hpm_get32(b + 20), 0x4);
	CHECK_EQ(hpm_get32(b + 24), 0x7);
	CHECK_EQ(hpm_get32(b + 28), 0x100);
	CHECK_EQ(hpm_get32(b + 32), 0x222);
	CHECK_EQ(hpm_get32(b + 36), 0xaaaa0000);
	CHECK_EQ(hpm_get32(b + 40), 0xbbbb0000);
	CHECK_EQ(hpm_get32(b + 44), 0);
	CHECK(hpm_get64(b + 48) == 1ull << 60);
	CHECK(hpm_get64(b + 56) == 1ull << 61);
	CHECK(hpm_get64(b + 64) == 0x4000000000000401ull);
	CHECK(hpm_get64(b + 72) == 0x2);
	CHECK_EQ(b[80], 0xee);

	memset(&rr, 0, sizeof(rr));
	rr.reason = HPM_EXIT_ECALL;
	rr.priv = HPM_MODE_U;
	rr.code = 0x600d;
	rr.mcause = 8;
	rr.mepc = 0x80000200;
	rr.mtval = 0x12;
	rr.ticks = 3;
	rr.samples = 2;
	rr.elapsed = 0x1122334455ull;
	rr.monitor_sum = 0xc0dec0de;
	rr.snap.present = 0x1fffffff;
	rr.snap.overflowed = 0x10;
	rr.snap.value[0] = 0x100000000ull;
	rr.snap.value[31] = 0x3131313131313131ull;
	rr.snap.wraps[0] = 0x33;
	rr.snap.wraps[28] = 0x44;
	memset(b, 0xee, sizeof(b));
	CHECK_EQ(hpm_pack_run_result(b, &rr), 424);
	CHECK(b[0] == 1 && b[1] == 0 && b[2] == 0 && b[3] == 0);
	CHECK_EQ(hpm_get32(b + 4), 0x600d);
	CHECK_EQ(hpm_get32(b + 8), 8);
	CHECK_EQ(hpm_get32(b + 12), 0x80000200);
	CHECK_EQ(hpm_get32(b + 16), 0x12);
	CHECK_EQ(hpm_get32(b + 20), 3);
	CHECK_EQ(hpm_get32(b + 24), 2);
	CHECK_EQ(hpm_get32(b + 28), 0);
	CHECK(hpm_get64(b + 32) == 0x1122334455ull);
	CHECK_EQ(hpm_get32(b + 40), 0xc0dec0de);
	CHECK_EQ(hpm_get32(b + 44), 0x1fffffff);
	CHECK_EQ(hpm_get32(b + 48), 0x10);
	CHECK(hpm_get64(b + 52) == 0x100000000ull);
	CHECK(hpm_get64(b + 44 + 8 + 31 * 8) == 0x3131313131313131ull);
	CHECK_EQ(hpm_get32(b + 44 + 264), 0x33);
	CHECK_EQ(hpm_get32(b + 44 + 264 + 28 * 4), 0x44);
	CHECK_EQ(b[424], 0xee);

	memset(b, 0xee, sizeof(b));
	CHECK_EQ(hpm_pack_csr_write(b, &cw), 8);
	CHECK(hpm_get16(b) == 0x320 && b[2] == 2 && b[3] == 0 && hpm_get32(b + 4) == 0x11223344);
	CHECK_EQ(hpm_pack_stream(b, &st), 16);
	CHECK(hpm_get64(b) == 0x0102030405060708ull && hpm_get32(b + 8) == 0xa5a5a5a5 &&
	      hpm_get32(b + 12) == 1);
	{
		struct hpm_msg_sample sm;

		memset(&sm, 0, sizeof(sm));
		sm.sample_seq = 77;
		sm.mask = 0x5;           /* mcycle, minstret */
		sm.value[0] = 1000;
		sm.value[2] = 500;
		sm.value[1] = 999;       /* not in mask: not sent */
		CHECK_EQ(hpm_pack_sample(b, &sm), 24);
		CHECK(hpm_get32(b) == 77 && hpm_get32(b + 4) == 5);
		CHECK(hpm_get64(b + 8) == 1000 && hpm_get64(b + 16) == 500);
		sm.mask = 0x11;          /* mcycle, mhpmcounter4: its wraps follow */
		sm.value[4] = 0x1234;
		sm.wraps[4] = 3;
		CHECK_EQ(hpm_pack_sample(b, &sm), 28);
		CHECK(hpm_get64(b + 8) == 1000 && hpm_get64(b + 16) == 0x1234 &&
		      hpm_get32(b + 24) == 3);
	}
}

static void test_csr_policy(void)
{
	static const uint16_t always[] = { 0x310, 0x302, 0x303, 0x304, 0x305, 0x340, 0x180 };
	static const uint16_t allowed[] = { 0x320, 0x323, 0x33f, 0x723, 0xb00, 0xb80, 0xb03,
					    0x321, 0x721, 0x306, 0x106, 0x344, 0x341, 0x7a0,
					    0x3a0, 0x3b0, 0x100, 0x105 };

	for (size_t i = 0; i < sizeof(always) / sizeof(always[0]); i++) {
		CHECK(hpm_csr_write_forbidden(always[i], 0, 0));
		CHECK(hpm_csr_write_forbidden(always[i], 5, 0xffffffff));
	}
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		CHECK(!hpm_csr_write_forbidden(allowed[i], 0, 0xffffffff));
	/* mstatus: MIE (3) and MPRV (17) may not change, everything else may */
	CHECK(!hpm_csr_write_forbidden(0x300, 0x00001800, 0x00000000));
	CHECK(!hpm_csr_write_forbidden(0x300, 0x00000008, 0xfffdffff));
	CHECK(hpm_csr_write_forbidden(0x300, 0x00000000, 0x00000008));
	CHECK(hpm_csr_write_forbidden(0x300, 0x00000008, 0x00000000));
	CHECK(hpm_csr_write_forbidden(0x300, 0x00000000, 0x00020000));
	CHECK(!hpm_csr_write_forbidden(0x300, 0x00020008, 0x00020008));
}

/* seed inputs for the fuzzer: valid frames of every type and a few bad ones */
static int write_corpus(const char *dir)
{
	static uint8_t body[HPM_MAX_BODY], wire[HPM_MAX_WIRE];
	static const uint8_t types[] = {
		HPM_T_HELLO, HPM_T_PING, HPM_T_CSR_READ, HPM_T_CSR_WRITE, HPM_T_MEM_READ,
		HPM_T_MEM_WRITE, HPM_T_RUN, HPM_T_SNAPSHOT, HPM_T_STREAM, HPM_T_STREAM_STOP,
		HPM_T_RESET, HPM_T_INFO, HPM_T_RUN | HPM_T_REPLY, HPM_T_SAMPLE, HPM_T_BOOT,
		HPM_T_ERROR,
	};
	static const size_t lens[] = { 4, 9, 4, 8, 8, 40, 120, 0, 16, 0, 4, HPM_INFO_LEN, HPM_RUN_RESULT_LEN, 80, 4, 8 };

	for (size_t i = 0; i < sizeof(types); i++) {
		char path[512];
		FILE *fp;
		int n;

		fill_random(body, lens[i], 5);
		n = hpm_frame_build(types[i], (uint8_t)i, body, lens[i], wire, sizeof(wire));
		snprintf(path, sizeof(path), "%s/seed-%02x", dir, types[i]);
		fp = fopen(path, "wb");
		if (!fp || fwrite(wire, 1, (size_t)n, fp) != (size_t)n || fclose(fp) != 0) {
			perror(path);
			return 1;
		}
	}
	return 0;
}

#define RUN(fn) do { \
	checks_failed = 0; \
	fn(); \
	if (checks_failed) { \
		cases_failed++; \
		printf("FAIL %s (%d checks)\n", &#fn[5], checks_failed); \
	} else { \
		cases_passed++; \
		printf("ok   %s\n", &#fn[5]); \
	} \
} while (0)

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--write-corpus") == 0)
		return write_corpus(argv[2]);

	RUN(test_crc32);
	RUN(test_le_helpers);
	RUN(test_cobs_vectors);
	RUN(test_cobs_long_runs);
	RUN(test_cobs_decode_errors);
	RUN(test_frame_round_trip);
	RUN(test_frame_emit_matches_build);
	RUN(test_frame_max_size);
	RUN(test_decoder_errors);
	RUN(test_resync);
	RUN(test_corruption_never_wrong);
	RUN(test_bodies_fixed);
	RUN(test_bodies_run);
	RUN(test_bodies_snapshot);
	RUN(test_bodies_sample);
	RUN(test_layouts);
	RUN(test_csr_policy);
	printf("proto: %d passed, %d failed\n", cases_passed, cases_failed);
	return cases_failed ? 1 : 0;
}
