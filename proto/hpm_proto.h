/* hpm_proto.h: the hpm-overlay link protocol, version 2 (docs/protocol.md).
 *
 * One codec for both ends: the firmware monitor links it with -ffreestanding
 * -nostdlib, the host library with -Wall -Wextra -Werror. Freestanding C11:
 * no allocation, no stdio, no global state.
 *
 * Frame on the wire:  COBS( type | seq | body[0..HPM_MAX_BODY] | crc32 ) 0x00
 * crc32 is IEEE 802.3 (reflected, poly 0xEDB88320) over type..body, stored
 * little-endian. Every integer in a body is little-endian.
 */
#ifndef HPM_PROTO_H
#define HPM_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include "hpm_map.h"   /* HPM_CSR_* numbers and CSR fields, from hw/csr.def */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sizes ---- */

#define HPM_PROTO_VERSION   2   /* 2: INFO and the RUN reply carry monitor_sum */
#define HPM_MAX_BODY        512u
#define HPM_FRAME_OVERHEAD  6u                              /* type, seq, crc32 */
#define HPM_MAX_RAW         (HPM_MAX_BODY + HPM_FRAME_OVERHEAD)          /* 518 */
#define HPM_COBS_MAX(n)     ((n) + (n) / 254u + 1u)      /* worst-case encoding */
#define HPM_MAX_WIRE        (HPM_COBS_MAX(HPM_MAX_RAW) + 1u)  /* 521 + 0x00 = 522 */

#define HPM_DELIM           0x00u  /* frame delimiter */
#define HPM_ABORT_BYTE      0x18u  /* sent alone by the host to abort a run */

/* ---- codec status (negative = error) ---- */

enum hpm_proto_status {
	HPM_PROTO_OK          = 0,
	HPM_PROTO_FRAME       = 1,   /* decoder: a complete, valid frame is ready */
	HPM_PROTO_E_TOO_LONG  = -1,  /* decoded frame exceeds HPM_MAX_RAW */
	HPM_PROTO_E_BAD_COBS  = -2,  /* delimiter inside a COBS block */
	HPM_PROTO_E_TOO_SHORT = -3,  /* fewer than 6 decoded bytes */
	HPM_PROTO_E_BAD_CRC   = -4,  /* crc32 mismatch (type and seq are reported) */
	HPM_PROTO_E_NOSPACE   = -5,  /* output buffer too small / body too long */
	HPM_PROTO_E_LENGTH    = -6,  /* unpack: body has the wrong length */
};

const char *hpm_proto_status_str(int status);

/* ---- frame types ---- */

enum hpm_type {
	/* requests, host -> monitor */
	HPM_T_HELLO       = 0x01,
	HPM_T_PING        = 0x02,
	HPM_T_CSR_READ    = 0x03,
	HPM_T_CSR_WRITE   = 0x04,
	HPM_T_MEM_READ    = 0x05,
	HPM_T_MEM_WRITE   = 0x06,
	HPM_T_RUN         = 0x07,
	HPM_T_SNAPSHOT    = 0x08,
	HPM_T_STREAM      = 0x09,
	HPM_T_STREAM_STOP = 0x0a,
	HPM_T_RESET       = 0x0b,
	HPM_T_FETCH       = 0x0c,  /* a slice of the cached reply, never cached (2.1) */
	/* replies: request | HPM_T_REPLY (HELLO's reply is INFO) */
	HPM_T_REPLY       = 0x80,
	HPM_T_INFO        = HPM_T_HELLO | HPM_T_REPLY,
	/* asynchronous, monitor -> host */
	HPM_T_SAMPLE      = 0xc0,
	HPM_T_BOOT        = 0xc1,
	HPM_T_PROFILE     = 0xc2,  /* async: a batch of profile samples (6.7) */
	HPM_T_REGION      = 0xc3,  /* async: a region marker's counter values (6.8) */
	HPM_T_OUTPUT      = 0xc4,  /* write system call: 0xc4 stdout, 0xc5 stderr */
	HPM_T_ERROR       = 0xff,
};

/* ---- error reply codes (ERROR body, byte 0) ---- */

enum hpm_err {
	HPM_ERR_BAD_CRC     = 0x01,  /* frame decoded but crc32 mismatch */
	HPM_ERR_UNKNOWN_CMD = 0x02,  /* type is not a request of this version */
	HPM_ERR_BAD_LENGTH  = 0x03,  /* body length wrong for the command */
	HPM_ERR_BAD_ADDRESS = 0x04,  /* memory range outside the allowed region */
	HPM_ERR_FORBIDDEN   = 0x05,  /* CSR write the monitor refuses */
	HPM_ERR_CSR_TRAP    = 0x06,  /* CSR access raised an exception */
	HPM_ERR_BUSY        = 0x07,  /* bytes received while a run is in progress */
	HPM_ERR_BAD_ARG     = 0x08,  /* field value out of range */
	HPM_ERR_BAD_VERSION = 0x09,  /* no common protocol version */
};

/* ---- enums used inside bodies ---- */

enum hpm_mode { HPM_MODE_U = 0, HPM_MODE_S = 1, HPM_MODE_M = 3 };

enum hpm_csr_op { HPM_CSR_WRITE = 0, HPM_CSR_SET = 1, HPM_CSR_CLEAR = 2 };

enum hpm_exit {
	HPM_EXIT_ECALL   = 1,  /* ecall with a7 == 93: code = a0 */
	HPM_EXIT_TOHOST  = 2,  /* tohost != 0 seen by the monitor: code = tohost */
	HPM_EXIT_TRAP    = 3,  /* any other trap into the monitor */
	HPM_EXIT_BUDGET  = 4,  /* cycle budget exhausted */
	HPM_EXIT_ABORTED = 5,  /* host sent HPM_ABORT_BYTE */
};

#define HPM_ECALL_EXIT      93u        /* a7 value of the exit ecall */
#define HPM_ECALL_WRITE     64u        /* a7 value of the write system call */
#define HPM_RESET_MAGIC     0x54455352u  /* "RSET" */
#define HPM_STREAM_SILENT   (1u << 0)  /* STREAM flag: ticks without SAMPLE frames */
#define HPM_RUN_PROFILE     (1u << 0)  /* RUN flag: periods follow the selectors (6.7) */
#define HPM_RUN_TWICE       (1u << 1)  /* RUN flag: SAMPLE, PROFILE, REGION frames go twice (2.1) */
#define HPM_RUN_STACK       (1u << 2)  /* RUN flag: PROFILE frames carry the call chain (6.7) */
#define HPM_PROF_LEN        20u        /* PROFILE body without return addresses (firmware 1.5) */
#define HPM_PROF_STACK      16u        /* return addresses per PROFILE frame at most */
#define HPM_PROF_MIN_PERIOD 256u       /* smallest sampling period, events */
#define HPM_PROF_BATCH      63u        /* samples per PROFILE frame at most */
#define HPM_PROF_REC_LEN    8u         /* u32 pc, u32 counter | mode << 8 */
#define HPM_ECALL_REGION    0x48504du  /* a7 of a region marker ecall ("HPM") */
#define HPM_INFO_F_SSTC     (1u << 0)  /* INFO features */
#define HPM_NCOUNTERS       32         /* value[] index: 0 mcycle, 1 mtime, 2 minstret, 3..31 hpm */
#define HPM_NHPM            29

/* ---- CSR write policy ---- */

#define HPM_MSTATUS_GUARDED (MSTATUS_MIE | MSTATUS_MPRV)

/* Non-zero if the monitor refuses to write csr (ERROR FORBIDDEN): old_value
 * is its current value, new_value what the write would leave in it. The host
 * may call it to reject a write before sending it. */
int hpm_csr_write_forbidden(uint16_t csr, uint32_t old_value, uint32_t new_value);

/* ---- CRC-32 and COBS ---- */

/* zlib-style: hpm_crc32(0, p, n) is the CRC of p; pass the previous result
 * to continue over more bytes. */
uint32_t hpm_crc32(uint32_t crc, const void *buf, size_t len);

/* Encode len bytes; dst must hold HPM_COBS_MAX(len). No delimiter is written.
 * Returns the encoded length. */
size_t hpm_cobs_encode(const uint8_t *src, size_t len, uint8_t *dst);

/* Decode one COBS block sequence (no delimiter inside src). Returns the
 * decoded length, HPM_PROTO_E_BAD_COBS or HPM_PROTO_E_NOSPACE. */
int hpm_cobs_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

/* ---- frames ---- */

struct hpm_frame {
	uint8_t type;
	uint8_t seq;
	uint16_t len;         /* body length */
	const uint8_t *body;  /* points into the decoder; valid until the next feed */
};

/* Build the wire bytes of one frame, trailing delimiter included. Returns
 * the number of bytes written or HPM_PROTO_E_NOSPACE (len > HPM_MAX_BODY or the
 * output is smaller than needed; HPM_MAX_WIRE always suffices). */
int hpm_frame_build(uint8_t type, uint8_t seq, const void *body, size_t len,
		    uint8_t *out, size_t cap);

/* Same, but hand each wire byte to put(): no output buffer needed. */
typedef void (*hpm_put_fn)(void *ctx, uint8_t byte);
int hpm_frame_emit(uint8_t type, uint8_t seq, const void *body, size_t len,
		   hpm_put_fn put, void *ctx);

/* Incremental decoder. Per byte it only un-COBSes into buf (cheap enough for
 * the monitor's UART loop); the CRC is checked at the delimiter. */
struct hpm_decoder {
	uint8_t buf[HPM_MAX_RAW];
	uint16_t len;    /* decoded bytes so far */
	uint8_t left;    /* data bytes left in the current COBS block */
	uint8_t zero;    /* a zero is owed before the next block */
	uint8_t discard; /* frame too long: drop bytes until the delimiter */
	uint8_t started; /* any byte since the last delimiter */
};

void hpm_decoder_init(struct hpm_decoder *d);

/* Feed one byte. Returns HPM_PROTO_OK (need more), HPM_PROTO_FRAME (*f filled) or, at
 * the delimiter that ends a bad frame, a negative HPM_PROTO_E_*. For HPM_PROTO_E_BAD_CRC,
 * f->type and f->seq hold the (untrusted) received values. Empty frames
 * (back-to-back delimiters) are skipped silently. */
int hpm_decoder_feed(struct hpm_decoder *d, uint8_t byte, struct hpm_frame *f);

/* Feed up to len bytes, stopping after the first frame or error. Returns the
 * number of bytes consumed; *status gets what hpm_decoder_feed returned for
 * the last one (HPM_PROTO_OK if all were consumed with nothing to report). */
size_t hpm_decoder_push(struct hpm_decoder *d, const uint8_t *buf, size_t len,
			struct hpm_frame *f, int *status);

/* ---- little-endian helpers ---- */

static inline void hpm_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void hpm_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void hpm_put64(uint8_t *p, uint64_t v)
{
	hpm_put32(p, (uint32_t)v);
	hpm_put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t hpm_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t hpm_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t hpm_get64(const uint8_t *p)
{
	return (uint64_t)hpm_get32(p) | (uint64_t)hpm_get32(p + 4) << 32;
}

/* ---- bodies ----
 * Each fixed layout has a size macro, a struct, and pack/unpack. pack writes
 * exactly *_LEN bytes and returns that length; unpack returns HPM_PROTO_OK or
 * HPM_PROTO_E_LENGTH. Offsets are in docs/protocol.md. */

#define HPM_HELLO_LEN       4u
#define HPM_INFO_LEN        60u
#define HPM_CSR_READ_LEN    4u
#define HPM_CSR_VALUE_LEN   8u    /* CSR_READ reply */
#define HPM_CSR_WRITE_LEN   8u
#define HPM_CSR_WRITTEN_LEN 12u   /* CSR_WRITE reply */
#define HPM_MEM_READ_LEN    8u
#define HPM_MEM_HDR_LEN     4u    /* addr before data: MEM_READ reply, MEM_WRITE */
#define HPM_MEM_MAX_DATA    (HPM_MAX_BODY - HPM_MEM_HDR_LEN)            /* 508 */
#define HPM_MEM_WRITTEN_LEN 12u   /* MEM_WRITE reply */
#define HPM_RUN_HDR_LEN     64u
#define HPM_RUN_LEN(n)      (HPM_RUN_HDR_LEN + 8u * (n))
#define HPM_RUN_PROFILE_LEN(n) (HPM_RUN_HDR_LEN + 16u * (n))   /* with periods: n <= 28 */
#define HPM_SNAPSHOT_LEN    380u
#define HPM_RUN_RESULT_HDR_LEN 44u
#define HPM_RUN_RESULT_LEN  (HPM_RUN_RESULT_HDR_LEN + HPM_SNAPSHOT_LEN)   /* 424 */
#define HPM_STREAM_LEN      16u
#define HPM_RESET_LEN       4u
#define HPM_SAMPLE_HDR_LEN  8u
#define HPM_BOOT_LEN        4u
#define HPM_ERROR_LEN       8u

struct hpm_msg_hello {
	uint16_t ver_min, ver_max;
};

struct hpm_msg_info {
	uint16_t proto_version, fw_version;
	uint32_t mvendorid, marchid, mimpid, misa;
	uint8_t hpm_num, hpm_width;
	uint16_t max_body;
	uint32_t clock_hz, uart_baud;
	uint64_t event_hash;
	uint32_t ram_base, ram_size;
	uint32_t min_interval;
	uint32_t features;
	uint32_t monitor_sum;        /* protocol 2: the checksum of the monitor's code */
};

struct hpm_msg_csr_read {
	uint16_t csr;
};

struct hpm_msg_csr_value {
	uint16_t csr;
	uint32_t value;
};

struct hpm_msg_csr_write {
	uint16_t csr;
	uint8_t op;        /* enum hpm_csr_op */
	uint32_t value;
};

struct hpm_msg_csr_written {
	uint16_t csr;
	uint32_t old_value, new_value;
};

struct hpm_msg_mem_read {
	uint32_t addr, len;
};

struct hpm_msg_mem_written {
	uint32_t addr, len, crc;
};

struct hpm_msg_run {
	uint32_t entry;
	uint8_t mode;       /* enum hpm_mode */
	uint8_t flags;      /* HPM_RUN_PROFILE, HPM_RUN_TWICE */
	uint8_t n_events;   /* selectors for mhpmevent3 .. 3+n_events-1 */
	uint64_t budget;    /* workload cycles, >= 1 */
	uint32_t tohost;    /* 0: none */
	uint32_t mcountinhibit, mcounteren, medeleg, mideleg;
	uint32_t a0, a1;
	uint64_t mcyclecfg, minstretcfg;
	uint64_t mhpmevent[HPM_NHPM];
	uint64_t period[HPM_NHPM];   /* HPM_RUN_PROFILE: sample counter 3+i every
	                                period[i] events (0: not sampled) */
};

struct hpm_msg_snapshot {
	uint32_t present;            /* bit n: value[n] is implemented */
	uint32_t overflowed;         /* OF bits (bit n = counter n) when taken */
	uint64_t value[HPM_NCOUNTERS];
	uint32_t wraps[HPM_NHPM];    /* wraps of mhpmcounter3..31 */
};

struct hpm_msg_run_result {
	uint8_t reason;              /* enum hpm_exit */
	uint8_t priv;                /* mode the workload was in at the exit */
	uint32_t code;
	uint32_t mcause, mepc, mtval;
	uint32_t ticks, samples;
	uint32_t records;            /* profile samples + region markers taken */
	uint64_t elapsed;            /* workload mtime cycles */
	uint32_t monitor_sum;        /* protocol 2: as INFO's, taken after the run */
	struct hpm_msg_snapshot snap;
};

struct hpm_msg_stream {
	uint64_t interval;           /* cycles, >= INFO.min_interval */
	uint32_t mask;               /* value[] indexes to send */
	uint32_t flags;              /* HPM_STREAM_SILENT */
};

struct hpm_msg_sample {
	uint32_t sample_seq;
	uint32_t mask;
	uint64_t value[HPM_NCOUNTERS];  /* by index; only bits of mask are sent */
	uint32_t wraps[HPM_NCOUNTERS];  /* by index, for set bits >= 3 */
};

struct hpm_msg_boot {
	uint16_t proto_version, fw_version;
};

struct hpm_msg_error {
	uint8_t code;                /* enum hpm_err */
	uint8_t req_type;
	uint32_t arg;
};

size_t hpm_pack_hello(uint8_t *b, const struct hpm_msg_hello *s);
int hpm_unpack_hello(const uint8_t *b, size_t len, struct hpm_msg_hello *s);
size_t hpm_pack_info(uint8_t *b, const struct hpm_msg_info *s);
int hpm_unpack_info(const uint8_t *b, size_t len, struct hpm_msg_info *s);
size_t hpm_pack_csr_read(uint8_t *b, const struct hpm_msg_csr_read *s);
int hpm_unpack_csr_read(const uint8_t *b, size_t len, struct hpm_msg_csr_read *s);
size_t hpm_pack_csr_value(uint8_t *b, const struct hpm_msg_csr_value *s);
int hpm_unpack_csr_value(const uint8_t *b, size_t len, struct hpm_msg_csr_value *s);
size_t hpm_pack_csr_write(uint8_t *b, const struct hpm_msg_csr_write *s);
int hpm_unpack_csr_write(const uint8_t *b, size_t len, struct hpm_msg_csr_write *s);
size_t hpm_pack_csr_written(uint8_t *b, const struct hpm_msg_csr_written *s);
int hpm_unpack_csr_written(const uint8_t *b, size_t len, struct hpm_msg_csr_written *s);
size_t hpm_pack_mem_read(uint8_t *b, const struct hpm_msg_mem_read *s);
int hpm_unpack_mem_read(const uint8_t *b, size_t len, struct hpm_msg_mem_read *s);
size_t hpm_pack_mem_written(uint8_t *b, const struct hpm_msg_mem_written *s);
int hpm_unpack_mem_written(const uint8_t *b, size_t len, struct hpm_msg_mem_written *s);
/* n_events must be <= HPM_NHPM; unpack also checks the length matches it */
size_t hpm_pack_run(uint8_t *b, const struct hpm_msg_run *s);
int hpm_unpack_run(const uint8_t *b, size_t len, struct hpm_msg_run *s);
size_t hpm_pack_snapshot(uint8_t *b, const struct hpm_msg_snapshot *s);
int hpm_unpack_snapshot(const uint8_t *b, size_t len, struct hpm_msg_snapshot *s);
size_t hpm_pack_run_result(uint8_t *b, const struct hpm_msg_run_result *s);
int hpm_unpack_run_result(const uint8_t *b, size_t len, struct hpm_msg_run_result *s);
size_t hpm_pack_stream(uint8_t *b, const struct hpm_msg_stream *s);
int hpm_unpack_stream(const uint8_t *b, size_t len, struct hpm_msg_stream *s);
/* values of indexes not in mask are left untouched by unpack */
size_t hpm_pack_sample(uint8_t *b, const struct hpm_msg_sample *s);
int hpm_unpack_sample(const uint8_t *b, size_t len, struct hpm_msg_sample *s);
size_t hpm_pack_boot(uint8_t *b, const struct hpm_msg_boot *s);
int hpm_unpack_boot(const uint8_t *b, size_t len, struct hpm_msg_boot *s);
size_t hpm_pack_error(uint8_t *b, const struct hpm_msg_error *s);
int hpm_unpack_error(const uint8_t *b, size_t len, struct hpm_msg_error *s);

/* Mem bodies carry variable data after a 4-byte address: use hpm_put32/
 * hpm_get32 at offset 0 and the data at HPM_MEM_HDR_LEN. */

static inline unsigned hpm_popcount32(uint32_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

#define HPM_SAMPLE_LEN(mask) (HPM_SAMPLE_HDR_LEN + 8u * hpm_popcount32(mask) + \
			      4u * hpm_popcount32((mask) & ~7u))

#ifdef __cplusplus
}
#endif

#endif /* HPM_PROTO_H */
