/* hpm_proto.c: frame codec of the hpm-overlay link protocol (docs/protocol.md).
 * Freestanding C11: no libc calls, no global mutable state. */
#include "hpm_proto.h"

const char *hpm_proto_status_str(int status)
{
	switch (status) {
	case HPM_PROTO_OK:          return "ok";
	case HPM_PROTO_FRAME:       return "frame";
	case HPM_PROTO_E_TOO_LONG:  return "frame too long";
	case HPM_PROTO_E_BAD_COBS:  return "bad COBS encoding";
	case HPM_PROTO_E_TOO_SHORT: return "frame too short";
	case HPM_PROTO_E_BAD_CRC:   return "bad CRC";
	case HPM_PROTO_E_NOSPACE:   return "no space";
	case HPM_PROTO_E_LENGTH:    return "bad body length";
	}
	return "unknown status";
}

/* ---- CRC-32 (IEEE 802.3, reflected), one nibble at a time ---- */

static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t hpm_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
	}
	return ~crc;
}

/* ---- COBS encoder over up to three segments, one byte out at a time ---- */

struct segs {
	const uint8_t *p[3];
	size_t n[3];
};

static uint8_t seg_at(const struct segs *s, size_t i)
{
	int k = 0;

	while (i >= s->n[k])
		i -= s->n[k++];
	return s->p[k][i];
}

static void cobs_emit(const struct segs *s, hpm_put_fn put, void *ctx)
{
	size_t n = s->n[0] + s->n[1] + s->n[2];
	size_t i = 0, run, k;

	for (;;) {
		for (run = 0; run < 254 && i + run < n && seg_at(s, i + run); run++)
			;
		put(ctx, (uint8_t)(run + 1));
		for (k = 0; k < run; k++)
			put(ctx, seg_at(s, i + k));
		i += run;
		if (i == n)
			break;		/* a final full block needs no 0x01 after it */
		if (run < 254)
			i++;		/* skip the zero this block stands for */
	}
}

struct bufput {
	uint8_t *out;
	size_t cap, pos;
};

static void buf_put(void *ctx, uint8_t byte)
{
	struct bufput *b = ctx;

	if (b->pos < b->cap)
		b->out[b->pos] = byte;
	b->pos++;
}

size_t hpm_cobs_encode(const uint8_t *src, size_t len, uint8_t *dst)
{
	struct segs s = { { src, 0, 0 }, { len, 0, 0 } };
	struct bufput b = { dst, HPM_COBS_MAX(len), 0 };

	cobs_emit(&s, buf_put, &b);
	return b.pos;
}

int hpm_cobs_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
	size_t i = 0, o = 0;

	while (i < len) {
		uint8_t code = src[i++];

		if (code == 0 || code - 1u > len - i)
			return HPM_PROTO_E_BAD_COBS;
		for (uint8_t k = 1; k < code; k++) {
			if (src[i] == 0)
				return HPM_PROTO_E_BAD_COBS;
			if (o >= cap)
				return HPM_PROTO_E_NOSPACE;
			dst[o++] = src[i++];
		}
		if (code != 0xff && i < len) {
			if (o >= cap)
				return HPM_PROTO_E_NOSPACE;
			dst[o++] = 0;
		}
	}
	return (int)o;
}

/* ---- CSR write policy (docs/protocol.md 5.4) ---- */

int hpm_csr_write_forbidden(uint16_t csr, uint32_t old_value, uint32_t new_value)
{
	switch (csr) {
	case HPM_CSR_MSTATUS:
		return ((old_value ^ new_value) & HPM_MSTATUS_GUARDED) != 0;
	case HPM_CSR_MSTATUSH:
	case HPM_CSR_MEDELEG:
	case HPM_CSR_MIDELEG:
	case HPM_CSR_MIE:
	case HPM_CSR_MTVEC:
	case HPM_CSR_MSCRATCH:
	case HPM_CSR_SATP:
		return 1;
	}
	return 0;
}

/* ---- frames ---- */

int hpm_frame_emit(uint8_t type, uint8_t seq, const void *body, size_t len,
		   hpm_put_fn put, void *ctx)
{
	uint8_t hdr[2] = { type, seq };
	uint8_t crc[4];
	struct segs s = { { hdr, body, crc }, { 2, len, 4 } };

	if (len > HPM_MAX_BODY)
		return HPM_PROTO_E_NOSPACE;
	hpm_put32(crc, hpm_crc32(hpm_crc32(0, hdr, 2), body, len));
	cobs_emit(&s, put, ctx);
	put(ctx, HPM_DELIM);
	return HPM_PROTO_OK;
}

int hpm_frame_build(uint8_t type, uint8_t seq, const void *body, size_t len,
		    uint8_t *out, size_t cap)
{
	struct bufput b = { out, cap, 0 };
	int ret = hpm_frame_emit(type, seq, body, len, buf_put, &b);

	if (ret < 0)
		return ret;
	if (b.pos > cap)
		return HPM_PROTO_E_NOSPACE;
	return (int)b.pos;
}

/* ---- incremental decoder ---- */

void hpm_decoder_init(struct hpm_decoder *d)
{
	d->len = 0;
	d->left = 0;
	d->zero = 0;
	d->discard = 0;
	d->started = 0;
}

static int decoder_end(struct hpm_decoder *d, struct hpm_frame *f)
{
	uint32_t crc;

	if (d->discard)
		return HPM_PROTO_E_TOO_LONG;
	if (d->left)
		return HPM_PROTO_E_BAD_COBS;
	if (d->len < HPM_FRAME_OVERHEAD)
		return HPM_PROTO_E_TOO_SHORT;
	f->type = d->buf[0];
	f->seq = d->buf[1];
	f->len = (uint16_t)(d->len - HPM_FRAME_OVERHEAD);
	f->body = d->buf + 2;
	crc = hpm_crc32(0, d->buf, d->len - 4u);
	if (crc != hpm_get32(d->buf + d->len - 4))
		return HPM_PROTO_E_BAD_CRC;
	return HPM_PROTO_FRAME;
}

static void decoder_put(struct hpm_decoder *d, uint8_t byte)
{
	if (d->len >= HPM_MAX_RAW)
		d->discard = 1;
	else
		d->buf[d->len++] = byte;
}

int hpm_decoder_feed(struct hpm_decoder *d, uint8_t byte, struct hpm_frame *f)
{
	int ret;

	if (byte == HPM_DELIM) {
		if (!d->started)
			return HPM_PROTO_OK;
		ret = decoder_end(d, f);
		hpm_decoder_init(d);
		return ret;
	}
	d->started = 1;
	if (d->discard)
		return HPM_PROTO_OK;
	if (d->left) {
		d->left--;
		decoder_put(d, byte);
	} else {
		/* code byte: the previous short block stood for a zero */
		if (d->zero)
			decoder_put(d, 0);
		d->left = (uint8_t)(byte - 1);
		d->zero = byte != 0xff;
	}
	return HPM_PROTO_OK;
}

size_t hpm_decoder_push(struct hpm_decoder *d, const uint8_t *buf, size_t len,
			struct hpm_frame *f, int *status)
{
	size_t i = 0;

	*status = HPM_PROTO_OK;
	while (i < len) {
		*status = hpm_decoder_feed(d, buf[i++], f);
		if (*status != HPM_PROTO_OK)
			break;
	}
	return i;
}

/* ---- bodies ----
 * Fixed layouts are tables of fields in wire order: the struct member's
 * offset and size (1, 2, 4 or 8 bytes, stored little-endian), or a reserved
 * run of zero bytes. One small engine packs and unpacks them all. */

#define FLD(type, m)  (uint16_t)(offsetof(struct hpm_msg_##type, m) << 5 | sizeof(((struct hpm_msg_##type *)0)->m))
#define RSV(n)        (uint16_t)(16 | (n))   /* n reserved bytes, written 0 */
#define NFIELDS(t)    (sizeof(t) / sizeof((t)[0]))

/* n members of size bytes each (an array, or one member) to and from the
 * wire, byte by byte in little-endian order: no shifts, no 64-bit ones */
#define LE_BYTE(k, size) (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? \
			  (k) - (k) % (size) + (size) - 1u - (k) % (size) : (k))

static void put_le(uint8_t *b, const void *v, unsigned size, unsigned n)
{
	const uint8_t *m = v;

	for (unsigned k = 0; k < size * n; k++)
		b[k] = m[LE_BYTE(k, size)];
}

static void get_le(const uint8_t *b, void *v, unsigned size, unsigned n)
{
	uint8_t *m = v;

	for (unsigned k = 0; k < size * n; k++)
		m[LE_BYTE(k, size)] = b[k];
}

static size_t put_fields(uint8_t *b, const void *s, const uint16_t *desc, size_t n)
{
	uint8_t *p = b;

	for (size_t i = 0; i < n; i++) {
		unsigned size = desc[i] & 15;

		if (desc[i] & 16) {		/* reserved: zeros */
			for (unsigned k = 0; k < size; k++)
				p[k] = 0;
		} else {
			put_le(p, (const uint8_t *)s + (desc[i] >> 5), size, 1);
		}
		p += size;
	}
	return (size_t)(p - b);
}

static void get_fields(const uint8_t *b, void *s, const uint16_t *desc, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned size = desc[i] & 15;

		if (!(desc[i] & 16))		/* reserved: skipped */
			get_le(b, (uint8_t *)s + (desc[i] >> 5), size, 1);
		b += size;
	}
}

/* one fixed-size body: descriptor table, pack and unpack */
#define FIXED_BODY(type, LEN, ...)						\
static const uint16_t type##_desc[] = { __VA_ARGS__ };				\
size_t hpm_pack_##type(uint8_t *b, const struct hpm_msg_##type *s)			\
{										\
	return put_fields(b, s, type##_desc, NFIELDS(type##_desc));		\
}										\
int hpm_unpack_##type(const uint8_t *b, size_t len, struct hpm_msg_##type *s)	\
{										\
	if (len != (LEN))							\
		return HPM_PROTO_E_LENGTH;						\
	get_fields(b, s, type##_desc, NFIELDS(type##_desc));			\
	return HPM_PROTO_OK;								\
}

FIXED_BODY(hello, HPM_HELLO_LEN, FLD(hello, ver_min), FLD(hello, ver_max))

FIXED_BODY(info, HPM_INFO_LEN,
	   FLD(info, proto_version), FLD(info, fw_version), FLD(info, mvendorid),
	   FLD(info, marchid), FLD(info, mimpid), FLD(info, misa), FLD(info, hpm_num),
	   FLD(info, hpm_width), FLD(info, max_body), FLD(info, clock_hz),
	   FLD(info, uart_baud), FLD(info, event_hash), FLD(info, ram_base),
	   FLD(info, ram_size), FLD(info, min_interval), FLD(info, features),
	   FLD(info, monitor_sum))

FIXED_BODY(csr_read, HPM_CSR_READ_LEN, FLD(csr_read, csr), RSV(2))

FIXED_BODY(csr_value, HPM_CSR_VALUE_LEN, FLD(csr_value, csr), RSV(2), FLD(csr_value, value))

FIXED_BODY(csr_write, HPM_CSR_WRITE_LEN,
	   FLD(csr_write, csr), FLD(csr_write, op), RSV(1), FLD(csr_write, value))

FIXED_BODY(csr_written, HPM_CSR_WRITTEN_LEN,
	   FLD(csr_written, csr), RSV(2), FLD(csr_written, old_value),
	   FLD(csr_written, new_value))

FIXED_BODY(mem_read, HPM_MEM_READ_LEN, FLD(mem_read, addr), FLD(mem_read, len))

FIXED_BODY(mem_written, HPM_MEM_WRITTEN_LEN,
	   FLD(mem_written, addr), FLD(mem_written, len), FLD(mem_written, crc))

FIXED_BODY(stream, HPM_STREAM_LEN,
	   FLD(stream, interval), FLD(stream, mask), FLD(stream, flags))

FIXED_BODY(boot, HPM_BOOT_LEN, FLD(boot, proto_version), FLD(boot, fw_version))

FIXED_BODY(error, HPM_ERROR_LEN,
	   FLD(error, code), FLD(error, req_type), RSV(2), FLD(error, arg))

/* RUN: 64-byte header, then n_events selectors */
static const uint16_t run_desc[] = {
	FLD(run, entry), FLD(run, mode), FLD(run, flags), FLD(run, n_events), RSV(1),
	FLD(run, budget), FLD(run, tohost), FLD(run, mcountinhibit),
	FLD(run, mcounteren), FLD(run, medeleg), FLD(run, mideleg), FLD(run, a0),
	FLD(run, a1), RSV(4), FLD(run, mcyclecfg), FLD(run, minstretcfg),
};

size_t hpm_pack_run(uint8_t *b, const struct hpm_msg_run *s)
{
	unsigned n = s->n_events <= HPM_NHPM ? s->n_events : HPM_NHPM;

	put_fields(b, s, run_desc, NFIELDS(run_desc));
	b[6] = (uint8_t)n;
	put_le(b + HPM_RUN_HDR_LEN, s->mhpmevent, 8, n);
	if (!(s->flags & HPM_RUN_PROFILE))
		return HPM_RUN_LEN(n);
	put_le(b + HPM_RUN_LEN(n), s->period, 8, n);
	return HPM_RUN_PROFILE_LEN(n);
}

int hpm_unpack_run(const uint8_t *b, size_t len, struct hpm_msg_run *s)
{
	unsigned n;

	if (len < HPM_RUN_HDR_LEN)
		return HPM_PROTO_E_LENGTH;
	n = b[6];
	if (n > HPM_NHPM || len != (b[5] & HPM_RUN_PROFILE ? HPM_RUN_PROFILE_LEN(n) : HPM_RUN_LEN(n)))
		return HPM_PROTO_E_LENGTH;
	get_fields(b, s, run_desc, NFIELDS(run_desc));
	for (unsigned i = 0; i < HPM_NHPM; i++)
		s->mhpmevent[i] = s->period[i] = 0;
	get_le(b + HPM_RUN_HDR_LEN, s->mhpmevent, 8, n);
	if (b[5] & HPM_RUN_PROFILE)
		get_le(b + HPM_RUN_LEN(n), s->period, 8, n);
	return HPM_PROTO_OK;
}

/* SNAPSHOT: present, overflowed, value[32], wraps[29] */
size_t hpm_pack_snapshot(uint8_t *b, const struct hpm_msg_snapshot *s)
{
	hpm_put32(b, s->present);
	hpm_put32(b + 4, s->overflowed);
	put_le(b + 8, s->value, 8, HPM_NCOUNTERS);
	put_le(b + 264, s->wraps, 4, HPM_NHPM);
	return HPM_SNAPSHOT_LEN;
}

int hpm_unpack_snapshot(const uint8_t *b, size_t len, struct hpm_msg_snapshot *s)
{
	if (len != HPM_SNAPSHOT_LEN)
		return HPM_PROTO_E_LENGTH;
	s->present = hpm_get32(b);
	s->overflowed = hpm_get32(b + 4);
	get_le(b + 8, s->value, 8, HPM_NCOUNTERS);
	get_le(b + 264, s->wraps, 4, HPM_NHPM);
	return HPM_PROTO_OK;
}

/* RUN reply: 40-byte header, then a snapshot */
static const uint16_t run_result_desc[] = {
	FLD(run_result, reason), FLD(run_result, priv), RSV(2), FLD(run_result, code),
	FLD(run_result, mcause), FLD(run_result, mepc), FLD(run_result, mtval),
	FLD(run_result, ticks), FLD(run_result, samples), FLD(run_result, records),
	FLD(run_result, elapsed), FLD(run_result, monitor_sum),
};

size_t hpm_pack_run_result(uint8_t *b, const struct hpm_msg_run_result *s)
{
	put_fields(b, s, run_result_desc, NFIELDS(run_result_desc));
	hpm_pack_snapshot(b + HPM_RUN_RESULT_HDR_LEN, &s->snap);
	return HPM_RUN_RESULT_LEN;
}

int hpm_unpack_run_result(const uint8_t *b, size_t len, struct hpm_msg_run_result *s)
{
	if (len != HPM_RUN_RESULT_LEN)
		return HPM_PROTO_E_LENGTH;
	get_fields(b, s, run_result_desc, NFIELDS(run_result_desc));
	return hpm_unpack_snapshot(b + HPM_RUN_RESULT_HDR_LEN, HPM_SNAPSHOT_LEN,
				   &s->snap);
}

/* SAMPLE: sample_seq, mask, value[i] for each set bit i, ascending, then
 * wraps[i] for each set bit i >= 3 */
size_t hpm_pack_sample(uint8_t *b, const struct hpm_msg_sample *s)
{
	size_t o = HPM_SAMPLE_HDR_LEN;

	hpm_put32(b, s->sample_seq);
	hpm_put32(b + 4, s->mask);
	for (unsigned i = 0; i < HPM_NCOUNTERS; i++) {
		if (s->mask >> i & 1) {
			hpm_put64(b + o, s->value[i]);
			o += 8;
		}
	}
	for (unsigned i = 3; i < HPM_NCOUNTERS; i++) {
		if (s->mask >> i & 1) {
			hpm_put32(b + o, s->wraps[i]);
			o += 4;
		}
	}
	return o;
}

int hpm_unpack_sample(const uint8_t *b, size_t len, struct hpm_msg_sample *s)
{
	size_t o = HPM_SAMPLE_HDR_LEN;
	uint32_t mask;

	if (len < HPM_SAMPLE_HDR_LEN)
		return HPM_PROTO_E_LENGTH;
	mask = hpm_get32(b + 4);
	if (len != HPM_SAMPLE_LEN(mask))
		return HPM_PROTO_E_LENGTH;
	s->sample_seq = hpm_get32(b);
	s->mask = mask;
	for (unsigned i = 0; i < HPM_NCOUNTERS; i++) {
		if (mask >> i & 1) {
			s->value[i] = hpm_get64(b + o);
			o += 8;
		}
	}
	for (unsigned i = 3; i < HPM_NCOUNTERS; i++) {
		if (mask >> i & 1) {
			s->wraps[i] = hpm_get32(b + o);
			o += 4;
		}
	}
	return HPM_PROTO_OK;
}
