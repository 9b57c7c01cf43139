/* test_link: drives the firmware monitor over the link protocol
 * (docs/protocol.md) through libhpm, on a board given as a link name:
 *
 *   test_link [--link sim|ref|tty-sim] [--sim PATH] [--hpm-num N --hpm-width W] [--quick]
 *
 * tty-sim puts the simulated board behind a pseudo-terminal and opens its
 * slave side with the tty link (termios, raw 8N1), as a /dev/ttyUSB1 would be.
 * Every command, every error reply, the reply cache, runs in U/S/M mode,
 * budget/trap/abort exits, interval streaming with sample sequence checks,
 * narrow-counter extension, and, for every workload, the counts of a fixed
 * event set against the reference board (hpm_validate). Prints one
 * "PASS name" / "FAIL name: why" line per check and exits 1 on any failure.
 * Uses libhpm's internals (hpm_transact) to send malformed requests.
 */
#include <inttypes.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "hpm_int.h"

extern char **environ;

static int failures, passes;
static char why[1024];

#define CHECK(name, cond, ...) do { \
	if (cond) { printf("PASS %s\n", name); passes++; } \
	else { snprintf(why, sizeof why, __VA_ARGS__); printf("FAIL %s: %s\n", name, why); failures++; } \
	fflush(stdout); } while (0)

static uint8_t rep[HPM_MAX_BODY];
static size_t rlen;

/* A request that must be refused with code (and arg, unless ~0u). */
static void expect_error(hpm_board *b, const char *name, uint8_t type, const void *body,
			 size_t len, unsigned code, uint32_t arg)
{
	int rc = hpm_transact(b, type, body, len, rep, &rlen);
	CHECK(name, rc == HPM_E_BOARD && b->err_code == code && (arg == ~0u || b->err_arg == arg),
	      "rc %d (%s), error 0x%x arg 0x%x, want error 0x%x arg 0x%x", rc, hpm_errmsg(b),
	      b->err_code, (unsigned)b->err_arg, code, (unsigned)arg);
}

/* Reads frames until one arrives or timeout_ms passes. */
static int read_frame(hpm_board *b, struct hpm_frame *f, int timeout_ms, int *status)
{
	uint8_t c;
	for (int waited = 0; waited < timeout_ms; ) {
		int n = 1;
		if (b->rx_off < b->rx_len)
			c = b->rx[b->rx_off++];          /* left over by libhpm */
		else
			n = b->link->ops->read(b->link, &c, 1, 10);
		if (n < 0)
			return -1;
		if (n == 0) {
			waited += 10;
			continue;
		}
		int st = hpm_decoder_feed(&b->dec, c, f);
		if (st != HPM_PROTO_OK) {
			*status = st;
			return 1;
		}
	}
	return 0;
}

static void test_hello(hpm_board *b)
{
	const hpm_info *in = hpm_get_info(b);
	uint8_t h[4];

	CHECK("hello: protocol 2, host catalogue", in->proto_version == 2 &&
	      in->event_hash == hpm_event_catalogue_hash(), "proto %u hash 0x%" PRIx64,
	      in->proto_version, in->event_hash);
	CHECK("hello: RAM 0x80000000 + 0x1f000 (MONRAM excluded)",
	      in->ram_base == 0x80000000u && in->ram_size == 0x1f000u, "0x%x + 0x%x",
	      in->ram_base, in->ram_size);
	CHECK("hello: misa RV32IMSU", in->misa == 0x40141100u, "misa 0x%08x", in->misa);
	CHECK("hello: clock and baud", in->clock_hz && in->uart_baud && in->min_interval,
	      "clock %u baud %u", in->clock_hz, in->uart_baud);
	hpm_put16(h, 3);
	hpm_put16(h + 2, 7);
	expect_error(b, "hello: no common version -> BAD_VERSION", HPM_T_HELLO, h, 4,
		     HPM_ERR_BAD_VERSION, 2);
	expect_error(b, "hello: 3-byte body -> BAD_LENGTH", HPM_T_HELLO, h, 3,
		     HPM_ERR_BAD_LENGTH, HPM_HELLO_LEN);
}

static void test_ping(hpm_board *b)
{
	uint8_t data[HPM_MAX_BODY];
	for (unsigned i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 7);       /* includes zeros: COBS at work */
	int ok = hpm_ping(b, NULL, 0) == HPM_OK && hpm_ping(b, data, 1) == HPM_OK &&
		 hpm_ping(b, data, 255) == HPM_OK && hpm_ping(b, data, HPM_MAX_BODY) == HPM_OK;
	CHECK("ping: 0, 1, 255, 512 bytes echoed", ok, "%s", hpm_errmsg(b));
}

static void test_csr(hpm_board *b)
{
	uint32_t v = 0, old, nv, before, after;
	uint8_t body[8];

	CHECK("csr read misa", hpm_csr_read(b, 0x301, &v) == HPM_OK && v == 0x40141100u,
	      "0x%08x %s", v, hpm_errmsg(b));
	CHECK("csr read mguard: 1 (set by the monitor at boot)",
	      hpm_csr_read(b, 0x7c0, &v) == HPM_OK && v == 1u, "0x%08x %s", v, hpm_errmsg(b));
	hpm_put16(body, 0x7c4);
	hpm_put16(body + 2, 0);
	expect_error(b, "csr read 0x7c4 (none) -> CSR_TRAP", HPM_T_CSR_READ, body, 4,
		     HPM_ERR_CSR_TRAP, 0x7c4);
	expect_error(b, "csr read: 2-byte body -> BAD_LENGTH", HPM_T_CSR_READ, body, 2,
		     HPM_ERR_BAD_LENGTH, HPM_CSR_READ_LEN);
	static const uint16_t forbidden[] = { 0x310, 0x302, 0x303, 0x304, 0x305, 0x340, 0x180 };
	for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++) {
		char name[96];
		uint16_t c = forbidden[i];
		hpm_csr_read(b, c, &before);
		hpm_put16(body, c);
		body[2] = 0;
		body[3] = 0;
		hpm_put32(body + 4, 0x5a5a5a5a);
		snprintf(name, sizeof name, "csr write 0x%03x -> FORBIDDEN, unchanged", c);
		int rc = hpm_transact(b, HPM_T_CSR_WRITE, body, 8, rep, &rlen);
		hpm_csr_read(b, c, &after);
		CHECK(name, rc == HPM_E_BOARD && b->err_code == HPM_ERR_FORBIDDEN &&
		      b->err_arg == c && after == before, "rc %d code 0x%x, 0x%x -> 0x%x",
		      rc, b->err_code, before, after);
	}
	int rc = hpm_csr_write(b, 0x300, HPM_CSR_SET, 1u << 3, NULL, NULL);
	CHECK("csr write mstatus.MIE -> FORBIDDEN", rc == HPM_E_BOARD &&
	      b->err_code == HPM_ERR_FORBIDDEN, "rc %d", rc);
	rc = hpm_csr_write(b, 0x300, HPM_CSR_SET, 1u << 17, NULL, NULL);
	CHECK("csr write mstatus.MPRV -> FORBIDDEN", rc == HPM_E_BOARD &&
	      b->err_code == HPM_ERR_FORBIDDEN, "rc %d", rc);
	rc = hpm_csr_write(b, 0x300, HPM_CSR_SET, 1u << 21, &old, &nv);   /* TW */
	CHECK("csr write mstatus.TW allowed", rc == HPM_OK && !(old & (1u << 21)) && (nv & (1u << 21)),
	      "rc %d old 0x%x new 0x%x", rc, old, nv);
	hpm_csr_write(b, 0x300, HPM_CSR_CLEAR, 1u << 21, NULL, NULL);
	/* WARL: event index 31 (> 29) reads as 0, OP_TYPE 3 as OR (docs/hpm.md) */
	rc = hpm_csr_write(b, 0x323, HPM_CSR_WRITE, 31u | 2u << 10, &old, &nv);
	CHECK("csr write mhpmevent3: WARL read-back", rc == HPM_OK && nv == (2u << 10),
	      "rc %d new 0x%x", rc, nv);
	hpm_csr_write(b, 0x323, HPM_CSR_WRITE, 0, NULL, NULL);
	rc = hpm_csr_write(b, 0xf11, HPM_CSR_WRITE, 1, NULL, NULL);
	CHECK("csr write mvendorid (read-only) -> CSR_TRAP", rc == HPM_E_BOARD &&
	      b->err_code == HPM_ERR_CSR_TRAP && b->err_arg == 0xf11, "rc %d", rc);
	/* a CSR number is 12 bits: 0x1305 is not mtvec by another name */
	hpm_csr_read(b, 0x305, &before);
	hpm_put16(body, 0x1305);
	body[2] = HPM_CSR_WRITE;
	body[3] = 0;
	hpm_put32(body + 4, 0x80000000u);
	expect_error(b, "csr write 0x1305 (mtvec's 12 bits) -> BAD_ARG at 0", HPM_T_CSR_WRITE, body, 8,
		     HPM_ERR_BAD_ARG, 0);
	hpm_put16(body, 0xf340);
	body[2] = HPM_CSR_SET;
	expect_error(b, "csr set 0xf340 (mscratch's 12 bits) -> BAD_ARG at 0", HPM_T_CSR_WRITE, body, 8,
		     HPM_ERR_BAD_ARG, 0);
	hpm_put16(body, 0x1301);
	expect_error(b, "csr read 0x1301 (misa's 12 bits) -> BAD_ARG at 0", HPM_T_CSR_READ, body, 4,
		     HPM_ERR_BAD_ARG, 0);
	rc = hpm_csr_read(b, 0x305, &after);
	CHECK("csr: mtvec unchanged after the aliases, the board answers", rc == HPM_OK && after == before,
	      "rc %d, 0x%x -> 0x%x %s", rc, before, after, hpm_errmsg(b));
	rc = hpm_csr_write(b, 0x1305, HPM_CSR_WRITE, 0, NULL, NULL);
	CHECK("csr write 0x1305 refused by libhpm before sending", rc == HPM_E_ARG, "rc %d", rc);
	hpm_put16(body, 0x340);
	body[2] = 3;
	expect_error(b, "csr write op 3 -> BAD_ARG at 2", HPM_T_CSR_WRITE, body, 8, HPM_ERR_BAD_ARG, 2);
	expect_error(b, "csr write: 7-byte body -> BAD_LENGTH", HPM_T_CSR_WRITE, body, 7,
		     HPM_ERR_BAD_LENGTH, HPM_CSR_WRITE_LEN);
}

static void test_mem(hpm_board *b)
{
	uint8_t data[2000], back[2000], body[16];
	const uint32_t base = 0x80000000u, end = base + 0x1f000u;

	for (unsigned i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 13 + (i >> 8));
	int rc = hpm_mem_write(b, base + 1, data, sizeof data);
	int rc2 = hpm_mem_read(b, base + 1, back, sizeof back);
	CHECK("mem write/read 2000 bytes, odd address, CRC verified", !rc && !rc2 &&
	      !memcmp(data, back, sizeof data), "%d %d %s", rc, rc2, hpm_errmsg(b));
	rc = hpm_mem_write(b, end - 4, data, 4);
	CHECK("mem write last RAM word", rc == HPM_OK, "%s", hpm_errmsg(b));
	hpm_mem_read(b, end - 8, back, 8);
	rc = hpm_mem_write(b, end - 4, data + 100, 8);
	hpm_mem_read(b, end - 8, back + 8, 8);
	CHECK("mem write across the RAM end -> BAD_ADDRESS, unchanged", rc == HPM_E_BOARD &&
	      b->err_code == HPM_ERR_BAD_ADDRESS && b->err_arg == end - 4 && !memcmp(back, back + 8, 8),
	      "rc %d code 0x%x arg 0x%x", rc, b->err_code, (unsigned)b->err_arg);
	rc = hpm_mem_write(b, 0x8001f000u, data, 4);
	CHECK("mem write into MONRAM -> BAD_ADDRESS", rc == HPM_E_BOARD &&
	      b->err_code == HPM_ERR_BAD_ADDRESS, "rc %d", rc);
	rc = hpm_mem_write(b, 0x100, data, 4);
	CHECK("mem write into the monitor's EBR -> BAD_ADDRESS", rc == HPM_E_BOARD &&
	      b->err_code == HPM_ERR_BAD_ADDRESS && b->err_arg == 0x100, "rc %d", rc);
	rc = hpm_mem_read(b, 0, back, 16);
	CHECK("mem read the monitor's EBR (reset vector)", rc == HPM_OK, "%s", hpm_errmsg(b));
	rc = hpm_mem_read(b, 0x1ffc, back, 8);
	CHECK("mem read past the EBR -> BAD_ADDRESS", rc == HPM_E_BOARD &&
	      b->err_code == HPM_ERR_BAD_ADDRESS, "rc %d", rc);
	rc = hpm_mem_read(b, 0x10000000u, back, 4);
	CHECK("mem read of the UART -> BAD_ADDRESS", rc == HPM_E_BOARD &&
	      b->err_code == HPM_ERR_BAD_ADDRESS, "rc %d", rc);
	/* ranges that wrap around 2^32 or end in MONRAM, sent as they are */
	static const struct { uint32_t addr, len; const char *what; } bad[] = {
		{ 0xfffffffcu, 8, "wrapping to the EBR at 0" },
		{ 0xffffff00u, 508, "wrapping past 0" },
		{ 0x8001eff0u, 32, "ending in MONRAM" },
		{ 0x8001f000u, 4, "in MONRAM" },
		{ 0x7ffffffcu, 8, "starting below the RAM" },
		{ 0x00001ff0u, 32, "past the EBR's end" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char name[96];
		uint8_t wb[4 + 508] = { 0 };
		hpm_put32(wb, bad[i].addr);
		snprintf(name, sizeof name, "mem write 0x%08x+%u (%s) -> BAD_ADDRESS", bad[i].addr,
			 bad[i].len, bad[i].what);
		expect_error(b, name, HPM_T_MEM_WRITE, wb, 4 + bad[i].len, HPM_ERR_BAD_ADDRESS, bad[i].addr);
		hpm_put32(body, bad[i].addr);
		hpm_put32(body + 4, bad[i].len);
		snprintf(name, sizeof name, "mem read 0x%08x+%u (%s) -> BAD_ADDRESS", bad[i].addr,
			 bad[i].len, bad[i].what);
		expect_error(b, name, HPM_T_MEM_READ, body, 8, HPM_ERR_BAD_ADDRESS, bad[i].addr);
	}
	hpm_put32(body, base);
	hpm_put32(body + 4, 0);
	expect_error(b, "mem read len 0 -> BAD_ARG at 4", HPM_T_MEM_READ, body, 8, HPM_ERR_BAD_ARG, 4);
	hpm_put32(body + 4, 509);
	expect_error(b, "mem read len 509 -> BAD_ARG at 4", HPM_T_MEM_READ, body, 8, HPM_ERR_BAD_ARG, 4);
	expect_error(b, "mem write without data -> BAD_LENGTH", HPM_T_MEM_WRITE, body, 4,
		     HPM_ERR_BAD_LENGTH, 0);
}

static void test_framing(hpm_board *b)
{
	uint8_t wire[HPM_MAX_WIRE + 1];
	struct hpm_frame f;
	int st = 0;

	/* corrupt one CRC byte of a PING */
	int n = hpm_frame_build(HPM_T_PING, 0x42, "abc", 3, wire, sizeof wire);
	wire[n - 2] ^= 0x01;
	b->link->ops->write(b->link, (const uint8_t *)"\0", 1);
	b->link->ops->write(b->link, wire, (size_t)n);
	int got = read_frame(b, &f, 5000, &st);
	struct hpm_msg_error e = { 0 };
	if (got == 1 && st == HPM_PROTO_FRAME)
		hpm_unpack_error(f.body, f.len, &e);
	CHECK("bad CRC -> ERROR(BAD_CRC) naming type and seq", got == 1 && st == HPM_PROTO_FRAME &&
	      f.type == HPM_T_ERROR && f.seq == 0x42 && e.code == HPM_ERR_BAD_CRC &&
	      e.req_type == HPM_T_PING, "got %d st %d type 0x%x seq 0x%x code 0x%x", got, st,
	      f.type, f.seq, e.code);

	/* garbage (no delimiter inside), then a delimiter: silently dropped */
	uint8_t junk[300];
	for (unsigned i = 0; i < sizeof junk; i++)
		junk[i] = (uint8_t)(1 + i % 251);
	b->link->ops->write(b->link, junk, sizeof junk);
	b->link->ops->write(b->link, (const uint8_t *)"\0", 1);
	got = read_frame(b, &f, 300, &st);
	CHECK("garbage and an over-long frame get no answer", got == 0, "got %d st %d", got, st);
	CHECK("the next request after garbage works", hpm_ping(b, "x", 1) == HPM_OK, "%s", hpm_errmsg(b));

	expect_error(b, "unknown command 0x0d -> UNKNOWN_CMD", 0x0d, NULL, 0, HPM_ERR_UNKNOWN_CMD, 0x0d);
	expect_error(b, "unknown command 0x7f -> UNKNOWN_CMD", 0x7f, "zz", 2, HPM_ERR_UNKNOWN_CMD, 0x7f);
	expect_error(b, "snapshot with a body -> BAD_LENGTH", HPM_T_SNAPSHOT, "z", 1, HPM_ERR_BAD_LENGTH, 0);

	/* the reply cache: a retransmitted MEM_WRITE (same seq) is not executed
	 * again, even if its content changed (it cannot, on a real link) */
	uint8_t body[8], body2[8];
	uint32_t word = 0;
	hpm_put32(body, 0x80000100u);
	hpm_put32(body + 4, 0x11111111u);
	memcpy(body2, body, 4);
	hpm_put32(body2 + 4, 0x22222222u);
	uint8_t seq = (uint8_t)(b->seq + 1);
	int rc1 = hpm_transact(b, HPM_T_MEM_WRITE, body, 8, rep, &rlen);
	uint8_t first[HPM_MAX_BODY];
	size_t first_len = rlen;
	memcpy(first, rep, rlen);
	b->seq = (uint8_t)(seq - 1);
	b->last_req_seq = (uint8_t)(seq + 100);   /* a lossy link would skip seq */
	int rc2 = hpm_transact(b, HPM_T_MEM_WRITE, body2, 8, rep, &rlen);
	hpm_mem_read(b, 0x80000100u, &word, 4);
	CHECK("retransmission answered from the reply cache, not re-executed",
	      !rc1 && !rc2 && rlen == first_len && !memcmp(rep, first, rlen) && word == 0x11111111u,
	      "rc %d %d word 0x%08x", rc1, rc2, word);
}

/* One FETCH (docs/protocol.md 2.1) of the reply cached for cseq; the
 * slice goes to out. Returns its length, or -1 with no or a wrong frame. */
static int fetch(hpm_board *b, uint8_t fseq, uint8_t cseq, unsigned off, unsigned n,
		 uint8_t *out, uint8_t *type)
{
	uint8_t wire[HPM_MAX_WIRE + 1], body[3] = { cseq, (uint8_t)(off / 4), (uint8_t)n };
	struct hpm_frame f;
	int st = 0;
	wire[0] = 0;
	int w = hpm_frame_build(HPM_T_FETCH, fseq, body, sizeof body, wire + 1, sizeof wire - 1);
	b->link->ops->write(b->link, wire, (size_t)w + 1);
	do    /* a late copy of an earlier reply may come first */
		if (read_frame(b, &f, 5000, &st) != 1)
			return -1;
	while (st != HPM_PROTO_FRAME || f.seq != fseq);
	memcpy(out, f.body, f.len);
	*type = f.type;
	return f.len;
}

/* FETCH reads slices of the cached reply under its own seq, changes
 * nothing, and is not cached itself. */
static void test_fetch(hpm_board *b)
{
	uint8_t snap[HPM_MAX_BODY], part[HPM_MAX_BODY], whole[HPM_MAX_BODY], type = 0, t2 = 0;
	size_t snap_len = 0;
	int rc = hpm_transact(b, HPM_T_SNAPSHOT, NULL, 0, rep, &rlen);
	uint8_t cseq = b->last_req_seq;
	memcpy(snap, rep, rlen);
	snap_len = rlen;
	size_t got = 0;
	int n = 0, ok = rc == HPM_OK && snap_len == HPM_SNAPSHOT_LEN;
	for (unsigned off = 0; ok && off <= snap_len; off += 60) {
		n = fetch(b, (uint8_t)(cseq + 1 + off / 60), cseq, off, 60, part, &type);
		ok = n >= 0 && type == (HPM_T_SNAPSHOT | HPM_T_REPLY) &&
		     (size_t)n == (snap_len - off < 60 ? snap_len - off : 60);
		memcpy(whole + got, part, n > 0 ? (size_t)n : 0);
		got += n > 0 ? (size_t)n : 0;
	}
	CHECK("fetch: the cached SNAPSHOT reply in slices of 60 bytes, the last one short",
	      ok && got == snap_len && !memcmp(whole, snap, snap_len), "rc %d, slice %d type 0x%x, %zu of %zu bytes",
	      rc, n, type, got, snap_len);
	int n1 = fetch(b, (uint8_t)(cseq + 20), (uint8_t)(cseq - 1), 0, 60, part, &type);
	int n2 = fetch(b, (uint8_t)(cseq + 21), cseq, 1020, 255, part, &t2);
	CHECK("fetch: another seq or an offset past the end -> an empty slice",
	      n1 == 0 && n2 == 0, "%d %d", n1, n2);
	/* not cached: the snapshot request sent again still gets its own reply */
	b->seq = (uint8_t)(cseq - 1);
	b->last_req_seq = (uint8_t)(cseq + 100);
	rc = hpm_transact(b, HPM_T_SNAPSHOT, NULL, 0, rep, &rlen);
	CHECK("fetch: the cache survives; the request sent again gets its cached reply",
	      rc == HPM_OK && rlen == snap_len && !memcmp(rep, snap, snap_len), "rc %d len %zu", rc, rlen);
	/* a request with the seq of an earlier FETCH is executed: FETCH is not cached */
	b->seq = (uint8_t)(cseq + 19);
	b->last_req_seq = (uint8_t)(cseq + 100);
	rc = hpm_ping(b, "q", 1);
	CHECK("fetch: not cached; a PING with a FETCH's seq is executed", rc == HPM_OK, "%s", hpm_errmsg(b));
}

/* a minimal program in RAM: "ecall" with a7 = 93, a0 = code */
static hpm_program *tiny_program(uint32_t *words, size_t n)
{
	hpm_program *p = calloc(1, sizeof *p);
	strcpy(p->name, "tiny");
	p->entry = 0x80000000u;
	p->nseg = 1;
	p->seg[0].addr = 0x80000000u;
	p->seg[0].len = (uint32_t)(n * 4);
	p->seg[0].data = malloc(n * 4);
	memcpy(p->seg[0].data, words, n * 4);
	return p;
}

static int abort_after(void *ctx, const hpm_sample *s)
{
	int *n = ctx;
	(void)s;
	return ++*n >= 3;
}

struct series {
	unsigned n, gaps;
	uint64_t last_cycles, last_instr;
	int monotonic;
};

static int collect_sample(void *ctx, const hpm_sample *s)
{
	struct series *se = ctx;
	if (s->lost || s->seq != se->n)
		se->gaps++;
	if (s->value[0] < se->last_cycles || s->value[2] < se->last_instr)
		se->monotonic = 0;
	se->last_cycles = s->value[0];
	se->last_instr = s->value[2];
	se->n++;
	return 0;
}

static void test_runs(hpm_board *b)
{
	hpm_run_result r;
	hpm_run_opts o = { 0 };
	uint8_t body[HPM_RUN_PROFILE_LEN(1)];
	/* li a0, 7; li a7, 93; ecall: nothing else, so the counts are known */
	uint32_t exit7[] = { 0x00700513, 0x05d00893, 0x00000073 };
	hpm_program *p = tiny_program(exit7, 3);

	for (int mode = 0; mode < 3; mode++) {
		static const enum hpm_privilege modes[] = { HPM_MODE_USER, HPM_MODE_SUPERVISOR, HPM_MODE_MACHINE };
		static const char *const names[] = { "U", "S", "M" };
		char name[96];
		o.mode = modes[mode];
		int rc = hpm_run(b, p, &o, NULL, 0, &r);
		/* docs/protocol.md 6.2: U/S count the 2 instructions and the
		 * resume bubble + 3 cycles; M adds 5 instructions and 9 cycles
		 * (R3's and E1's csrrw of mscratch refetch: 1 cycle each) */
		uint64_t want_i = mode < 2 ? 2 : 7, want_c = mode < 2 ? 4 : 12;
		snprintf(name, sizeof name, "run %s: exit ecall code 7, %" PRIu64 " instructions, %" PRIu64 " cycles",
			 names[mode], want_i, want_c);
		CHECK(name, rc == HPM_OK && r.reason == HPM_EXIT_REASON_ECALL && r.code == 7 &&
		      r.priv == (unsigned)modes[mode] && r.snap.value[2] == want_i && r.snap.value[0] == want_c,
		      "rc %d reason %d code %u priv %u instret %" PRIu64 " cycles %" PRIu64 " %s", rc,
		      r.reason, r.code, r.priv, r.snap.value[2], r.snap.value[0], hpm_errmsg(b));
	}
	hpm_program_free(p);

	/* a trap ends the run with TRAP; the monitor survives */
	uint32_t bad[] = { 0xffffffff };
	p = tiny_program(bad, 1);
	o.mode = HPM_MODE_USER;
	int rc = hpm_run(b, p, &o, NULL, 0, &r);
	CHECK("run: illegal instruction -> TRAP, mcause 2, mepc, mtval", rc == HPM_OK &&
	      r.reason == HPM_EXIT_REASON_TRAP && r.mcause == 2 && r.mepc == 0x80000000u &&
	      r.mtval == 0xffffffffu, "rc %d reason %d mcause %u mepc 0x%x mtval 0x%x",
	      rc, r.reason, r.mcause, r.mepc, r.mtval);
	CHECK("monitor alive after a workload trap", hpm_ping(b, "p", 1) == HPM_OK, "%s", hpm_errmsg(b));
	hpm_program_free(p);

	/* budget: an endless loop stops at its budget */
	uint32_t loop[] = { 0x0000006f };   /* j . */
	p = tiny_program(loop, 1);
	o.budget = 20000;
	rc = hpm_run(b, p, &o, NULL, 0, &r);
	CHECK("run: endless loop ends with BUDGET after its budget", rc == HPM_OK &&
	      r.reason == HPM_EXIT_REASON_BUDGET && r.elapsed >= 20000 && r.elapsed < 20200,
	      "rc %d reason %d elapsed %" PRIu64, rc, r.reason, r.elapsed);
	/* abort from the host while streaming */
	int nsamples = 0;
	o.budget = 0;
	o.interval = 5000;
	o.on_sample = abort_after;
	o.ctx = &nsamples;
	rc = hpm_run(b, p, &o, NULL, 0, &r);
	CHECK("run: host abort during a stream -> ABORTED", rc == HPM_OK &&
	      r.reason == HPM_EXIT_REASON_ABORTED && nsamples >= 3, "rc %d reason %d samples %d %s",
	      rc, r.reason, nsamples, hpm_errmsg(b));
	hpm_program_free(p);
	memset(&o, 0, sizeof o);

	/* RUN request checks, in the documented order */
	struct hpm_msg_run run = { .entry = 0x80000000u, .mode = 0, .budget = 1000 };
	run.mode = 2;
	expect_error(b, "run: mode 2 -> BAD_ARG at 4", HPM_T_RUN, body, hpm_pack_run(body, &run), HPM_ERR_BAD_ARG, 4);
	run.mode = 0;
	run.flags = 8;
	expect_error(b, "run: flags 8 (an unknown bit) -> BAD_ARG at 5", HPM_T_RUN, body, hpm_pack_run(body, &run), HPM_ERR_BAD_ARG, 5);
	run.flags = 0;
	run.budget = 0;
	expect_error(b, "run: budget 0 -> BAD_ARG at 8", HPM_T_RUN, body, hpm_pack_run(body, &run), HPM_ERR_BAD_ARG, 8);
	run.budget = 1000;
	run.mideleg = 1u << 13;
	expect_error(b, "run: LCOFI delegated -> BAD_ARG at 32", HPM_T_RUN, body, hpm_pack_run(body, &run), HPM_ERR_BAD_ARG, 32);
	run.mideleg = 0;
	run.entry = 0x100;
	expect_error(b, "run: entry in the EBR -> BAD_ADDRESS", HPM_T_RUN, body, hpm_pack_run(body, &run), HPM_ERR_BAD_ADDRESS, 0x100);
	run.entry = 0x80000002u;
	expect_error(b, "run: misaligned entry -> BAD_ADDRESS", HPM_T_RUN, body, hpm_pack_run(body, &run), HPM_ERR_BAD_ADDRESS, 0x80000002u);
	run.entry = 0x8001f000u;
	expect_error(b, "run: entry in MONRAM -> BAD_ADDRESS", HPM_T_RUN, body, hpm_pack_run(body, &run), HPM_ERR_BAD_ADDRESS, 0x8001f000u);
	run.entry = 0xfffffffcu;
	expect_error(b, "run: entry 0xfffffffc -> BAD_ADDRESS", HPM_T_RUN, body, hpm_pack_run(body, &run), HPM_ERR_BAD_ADDRESS, 0xfffffffcu);
	run.entry = 0x80000000u;
	run.tohost = 0x8001f000u;
	expect_error(b, "run: tohost in MONRAM -> BAD_ADDRESS", HPM_T_RUN, body, hpm_pack_run(body, &run), HPM_ERR_BAD_ADDRESS, 0x8001f000u);
	run.tohost = 0;
	expect_error(b, "run: short body -> BAD_LENGTH (want 64)", HPM_T_RUN, body, 63, HPM_ERR_BAD_LENGTH, 64);
	/* a PROFILE run carries a period per selector after the selectors */
	run.flags = HPM_RUN_PROFILE;
	run.n_events = 1;
	run.mhpmevent[0] = 1;
	run.period[0] = 1000;
	CHECK("run: PROFILE body is 64 + 16 per selector", hpm_pack_run(body, &run) == 80, "%zu",
	      hpm_pack_run(body, &run));
	expect_error(b, "run: PROFILE without its periods -> BAD_LENGTH (want 80)", HPM_T_RUN, body,
		     HPM_RUN_LEN(1), HPM_ERR_BAD_LENGTH, 80);
	run.flags = 0;
	run.n_events = 0;
	{
		uint64_t per = HPM_MIN_PERIOD - 1, sel = 1;
		hpm_run_opts po = { .period = &per };
		hpm_program *tp = tiny_program(loop, 1);
		rc = hpm_run(b, tp, &po, &sel, hpm_get_info(b)->hpm_num ? 1 : 0, &r);
		CHECK("run: a sampling period below 256 -> HPM_E_ARG, nothing sent",
		      !hpm_get_info(b)->hpm_num || rc == HPM_E_ARG, "rc %d %s", rc, hpm_errmsg(b));
		hpm_program_free(tp);
	}
	if (hpm_get_info(b)->hpm_num < HPM_NHPM) {
		uint8_t big[HPM_RUN_LEN(HPM_NHPM)];
		run.n_events = (uint8_t)(hpm_get_info(b)->hpm_num + 1);
		expect_error(b, "run: more selectors than counters -> BAD_ARG at 6", HPM_T_RUN, big,
			     hpm_pack_run(big, &run), HPM_ERR_BAD_ARG, 6);
		run.n_events = 0;
	}

	/* streaming: STREAM argument checks, then a sampled run */
	uint8_t sb[HPM_STREAM_LEN];
	struct hpm_msg_stream s = { 10, 0x5, 0 };
	expect_error(b, "stream: interval below the minimum -> BAD_ARG at 0", HPM_T_STREAM, sb,
		     hpm_pack_stream(sb, &s), HPM_ERR_BAD_ARG, 0);
	s.interval = 100000;
	s.mask = 1u << 2 | 1u << 1 | (hpm_get_info(b)->hpm_num < HPM_NHPM ? 1u << 31 : 0) | 0x100000u;
	if (hpm_get_info(b)->hpm_num >= 18)
		s.mask = 0;
	expect_error(b, "stream: empty or absent counter mask -> BAD_ARG at 8", HPM_T_STREAM, sb,
		     hpm_pack_stream(sb, &s), HPM_ERR_BAD_ARG, 8);
	s.mask = 0x5;
	s.flags = 2;
	expect_error(b, "stream: unknown flag -> BAD_ARG at 12", HPM_T_STREAM, sb,
		     hpm_pack_stream(sb, &s), HPM_ERR_BAD_ARG, 12);
}

/* A link wrapper that corrupts one byte of the board's n-th SAMPLE frame,
 * as a noisy wire would; or loses every host frame of one type. */
struct lossy {
	struct hpm_link base;
	struct hpm_link *inner;
	int pos;        /* byte position in the current frame (COBS form) */
	int samples;    /* SAMPLE frames (or frames of type) seen */
	int victim;     /* the one to corrupt (1 = the first, -1 = none) */
	uint8_t type;   /* 0: SAMPLE */
	int done;
	uint8_t drop;   /* host frames of this type never arrive (0: none) */
	int dropped;
};

static int lossy_write(struct hpm_link *l, const uint8_t *buf, size_t len)
{
	struct lossy *y = (struct lossy *)l;
	/* delimiter, COBS code byte, then the type (non-zero) */
	if (y->drop && len > 3 && buf[0] == 0 && buf[2] == y->drop) {
		y->dropped++;
		return 0;
	}
	return y->inner->ops->write(y->inner, buf, len);
}

static int lossy_read(struct hpm_link *l, uint8_t *buf, size_t cap, int timeout_ms)
{
	struct lossy *y = (struct lossy *)l;
	int n = y->inner->ops->read(y->inner, buf, cap, timeout_ms);
	/* frame = COBS code byte, then the type (non-zero) ... delimiter */
	for (int i = 0; i < n; i++) {
		if (buf[i] == 0) {
			y->pos = 0;
			continue;
		}
		if (y->pos == 1 && buf[i] == (y->type ? y->type : HPM_T_SAMPLE))
			y->samples++;
		if (y->pos == 4 && y->samples == y->victim && !y->done) {
			buf[i] ^= 0x40;        /* the CRC catches it; the frame is dropped */
			y->done = 1;
		}
		y->pos++;
	}
	if (n < 0)
		snprintf(l->err, sizeof l->err, "%s", y->inner->err);
	return n;
}

static void lossy_close(struct hpm_link *l)
{
	(void)l;
}

static const struct hpm_link_ops lossy_ops = { lossy_write, lossy_read, lossy_close };

struct gaps { unsigned n, lost_seen, first_lost_seq; };

static int count_gaps(void *ctx, const hpm_sample *s)
{
	struct gaps *g = ctx;
	if (s->lost && !g->lost_seen) {
		g->lost_seen = s->lost;
		g->first_lost_seq = s->seq;
	}
	g->n++;
	return 0;
}

/* A corrupted SAMPLE is dropped and reported as lost; the counts that follow
 * stay exact (they equal a clean run's). */
static void test_lost_sample(hpm_board *b)
{
	hpm_program *p;
	char err[256];
	hpm_run_result clean, noisy;
	struct gaps g0 = { 0, 0, 0 }, g = { 0, 0, 0 };
	hpm_run_opts o = { .interval = 20000, .on_sample = count_gaps, .ctx = &g0, .a0 = 2000 };
	struct lossy y = { .base = { .ops = &lossy_ops }, .inner = b->link, .victim = 3 };

	if (hpm_program_load(&p, "alu", err, sizeof err)) {
		CHECK("lost sample: load alu", 0, "%s", err);
		return;
	}
	/* a session without damaged frames: each frame once (no TWICE) */
	unsigned long bad = b->bad_frames, retx = b->retransmits;
	b->bad_frames = b->retransmits = 0;
	int rc0 = hpm_run(b, p, &o, NULL, 0, &clean);
	snprintf(y.base.name, sizeof y.base.name, "lossy %s", b->link->name);
	y.base.kind = b->link->kind;
	y.base.baud = b->link->baud;
	b->link = &y.base;
	o.ctx = &g;
	int rc = hpm_run(b, p, &o, NULL, 0, &noisy);
	b->link = y.inner;
	CHECK("lost sample: a corrupted SAMPLE is dropped, the gap reported, later counts exact",
	      rc0 == HPM_OK && rc == HPM_OK && y.done && g.lost_seen == 1 && noisy.lost_samples == 1 &&
	      g.n + 1 == noisy.samples && noisy.samples == clean.samples &&
	      noisy.snap.value[0] == clean.snap.value[0] && noisy.snap.value[2] == clean.snap.value[2],
	      "rc %d/%d corrupted %d lost %u (at seq %u) reply lost %u samples %u+1 vs %u/%u cycles %" PRIu64 "/%" PRIu64 " %s",
	      rc0, rc, y.done, g.lost_seen, g.first_lost_seq, noisy.lost_samples, g.n, noisy.samples,
	      clean.samples, noisy.snap.value[0], clean.snap.value[0], hpm_errmsg(b));
	/* after a damaged frame a tty or usb session's runs send every SAMPLE
	 * twice (HPM_RUN_TWICE): the copy of the corrupted frame gets through */
	if (b->link->baud && b->info.fw_version >= HPM_FW_TWICE) {
		struct gaps g2 = { 0, 0, 0 };
		struct lossy y2 = { .base = y.base, .inner = b->link, .victim = 3 };
		b->bad_frames = 1;
		b->link = &y2.base;
		o.ctx = &g2;
		rc = hpm_run(b, p, &o, NULL, 0, &noisy);
		b->link = y2.inner;
		CHECK("lost sample: after a damaged frame every SAMPLE comes twice; one corrupted copy loses nothing",
		      rc == HPM_OK && y2.done && y2.samples == 2 * (int)clean.samples && g2.lost_seen == 0 &&
		      noisy.lost_samples == 0 && g2.n == clean.samples && noisy.snap.value[0] == clean.snap.value[0],
		      "rc %d corrupted %d frames %d for %u samples, lost %u/%u, delivered %u %s", rc, y2.done,
		      y2.samples, clean.samples, g2.lost_seen, noisy.lost_samples, g2.n, hpm_errmsg(b));
	}
	b->bad_frames += bad;
	b->retransmits += retx;
	hpm_program_free(p);
}

/* The session's error budget is a hard bound: a repeat of a run counts as
 * lost while it runs (nested repeats once), and a run that would outlast the
 * budget ends in the middle with one error; the board, still running it,
 * is aborted by the next exchange. Lossy (baud) links only. */
static void test_budget(hpm_board *b)
{
	hpm_program *p;
	char err[256];
	hpm_run_result r;
	struct timespec ms30 = { 0, 30 * 1000 * 1000 };

	if (!b->link->baud)
		return;
	int64_t saved = b->lost_ms;
	b->lost_ms = 1000;
	hpm_repeat_begin(b);
	hpm_repeat_begin(b);
	nanosleep(&ms30, NULL);
	int64_t during = hpm_lost_ms(b);
	hpm_repeat_end(b);
	int inner_open = b->repeat_t0 != 0;
	hpm_repeat_end(b);
	CHECK("budget: a repeat in progress counts as lost, nested repeats once",
	      during >= 1030 && inner_open && !b->repeat_t0 && b->lost_ms >= during,
	      "lost during %lld, after %lld, inner end closed it: %d", (long long)during,
	      (long long)b->lost_ms, !inner_open);

	if (hpm_program_load(&p, "alu", err, sizeof err)) {
		CHECK("budget: load alu", 0, "%s", err);
		b->lost_ms = saved;
		return;
	}
	/* a run needs far more than 50 ms over the pseudo-terminal */
	unsigned budget0 = b->opts.link_budget_ms;
	b->opts.link_budget_ms = 10000;
	b->lost_ms = 10000 - 50;
	hpm_run_opts o = { .interval = 0 };
	hpm_repeat_begin(b);
	int rc = hpm_run(b, p, &o, NULL, 0, &r);
	hpm_repeat_end(b);
	char msg[sizeof b->err];
	snprintf(msg, sizeof msg, "%s", hpm_errmsg(b));
	b->opts.link_budget_ms = budget0;
	b->lost_ms = saved;
	int ping = hpm_ping(b, "x", 1);
	CHECK("budget: a repeat that outlasts the error budget ends in the middle with one error; the next exchange aborts the run",
	      rc == HPM_E_TIMEOUT && strstr(msg, "too many errors: 10 s lost") && ping == HPM_OK,
	      "rc %d (%s), then PING %d %s", rc, msg, ping, hpm_errmsg(b));

	/* a RUN lost on the way: the monitor's cache says it never ran, and
	 * the time since it was sent is lost, however often that repeats
	 * (before, it counted as progress: an endless loop) */
	struct lossy y = { .base = *b->link, .inner = b->link, .victim = -1, .drop = HPM_T_RUN };
	y.base.ops = &lossy_ops;
	b->opts.link_budget_ms = 3000;
	b->link = &y.base;
	b->lost_ms = 0;
	b->attempt_limit = 3;   /* before: "no reply to RUN ... after 3 attempts" */
	rc = hpm_run(b, p, &o, NULL, 0, &r);
	snprintf(msg, sizeof msg, "%s", hpm_errmsg(b));
	b->attempt_limit = 0;
	b->link = y.inner;
	b->opts.link_budget_ms = budget0;
	b->lost_ms = saved;
	ping = hpm_ping(b, "x", 1);
	CHECK("budget: a RUN that never reaches the board is time lost to errors: one error once the budget is spent",
	      rc == HPM_E_TIMEOUT && y.dropped >= 1 && strstr(msg, "too many errors") && ping == HPM_OK,
	      "rc %d after %d RUNs dropped (%s), then PING %d %s", rc, y.dropped, msg, ping, hpm_errmsg(b));
	hpm_program_free(p);
}

/* ---- hpm_stat_interval: intervals, merged across replays ---- */

#define MAX_IV 64

struct ivlog {
	unsigned n, stop_at;       /* stop_at: return non-zero at that interval (1..) */
	size_t nev;
	uint32_t seq[MAX_IV], lost[MAX_IV];
	uint64_t cycles[MAX_IV], value[MAX_IV][40];
};

static int log_interval(void *ctx, const hpm_interval *iv)
{
	struct ivlog *g = ctx;
	if (g->n < MAX_IV && g->nev <= 40) {
		g->seq[g->n] = iv->seq;
		g->lost[g->n] = iv->lost;
		g->cycles[g->n] = iv->cycles;
		memcpy(g->value[g->n], iv->value, g->nev * sizeof *iv->value);
	}
	return ++g->n == g->stop_at;
}

static int ivlog_equal(const struct ivlog *a, const struct ivlog *b)
{
	if (a->n != b->n || a->n > MAX_IV)
		return 0;
	for (unsigned k = 0; k < a->n; k++)
		if (a->seq[k] != b->seq[k] || a->lost[k] != b->lost[k] || a->cycles[k] != b->cycles[k] ||
		    memcmp(a->value[k], b->value[k], a->nev * sizeof a->value[k][0]))
			return 0;
	return 1;
}

/* Logs intervals and, before interval `at`, writes one ABORT byte that the
 * library never asked for: noise on the link, as the monitor sees it. */
struct noisy_log {
	struct ivlog g;
	hpm_board *b;
	unsigned at;
	int sent;
};

static int noise_abort(void *ctx, const hpm_interval *iv)
{
	struct noisy_log *nl = ctx;
	if (nl->g.n + 1 == nl->at && !nl->sent) {
		uint8_t ab = HPM_ABORT_BYTE;
		nl->sent = !nl->b->link->ops->write(nl->b->link, &ab, 1);
	}
	return log_interval(&nl->g, iv);
}

static int interval_stat(hpm_board *b, const hpm_program *p, const char *events, hpm_run_opts *o,
			 struct ivlog *g, hpm_count *out, size_t *nout)
{
	hpm_evlist *l;
	char err[256];
	if (hpm_evlist_parse(&l, events, err, sizeof err))
		return HPM_E_EVENT;
	g->nev = hpm_evlist_len(l);
	int rc = hpm_stat_interval(b, p, l, o, log_interval, g, out, HPM_MAX_COUNTS, nout, NULL);
	hpm_evlist_free(l);
	return rc;
}

/* Intervals on this board equal one run on the full reference board (29 x
 * 64: every event on its own counter), whatever replays this board needs;
 * a sample lost in one replay merges two intervals and changes nothing else. */
static void test_intervals(hpm_board *b)
{
	static const char events[] = "cycles,loads,stores,branches,instructions,jumps";
	const hpm_info *in = hpm_get_info(b);
	hpm_run_opts o = { .interval = 10000, .a0 = 1500 };
	static hpm_count out[HPM_MAX_COUNTS], rout[HPM_MAX_COUNTS];
	size_t n, rn;
	hpm_program *p;
	hpm_board *rb;
	char err[512];
	static struct ivlog g, r, lossy_g, stop;

	if (hpm_program_load(&p, "alu", err, sizeof err)) {
		CHECK("intervals: load alu", 0, "%s", err);
		return;
	}
	int rc = interval_stat(b, p, events, &o, &g, out, &n);
	int mono = rc == HPM_OK && g.n > 3 && g.n <= MAX_IV;
	for (unsigned k = 0; mono && k < g.n; k++) {
		mono &= g.seq[k] == k && g.lost[k] == 0 && (!k || g.cycles[k] > g.cycles[k - 1]) &&
			g.value[k][0] == g.cycles[k];
		for (size_t i = 0; k && i < g.nev; i++)
			mono &= g.value[k][i] >= g.value[k - 1][i];
	}
	for (size_t i = 0; mono && i < n; i++)
		mono &= g.value[g.n - 1][i] == out[i].value;
	CHECK("intervals: numbered 0..n, none lost, cumulative counts grow, the last = the final counts",
	      mono, "rc %d intervals %u %s", rc, g.n, hpm_errmsg(b));
	if (in->hpm_width >= 32) {      /* no wraps: no LCOFI ticks to tell the boards apart */
		hpm_open_opts ro = { 0 };
		rc = hpm_open(&rb, "ref", &ro, err, sizeof err);
		int rrc = rc ? rc : interval_stat(rb, p, events, &o, &r, rout, &rn);
		CHECK("intervals: equal one run on the 29 x 64 reference board (this board: replays as needed)",
		      rc == HPM_OK && rrc == HPM_OK && ivlog_equal(&g, &r),
		      "rc %d/%d intervals %u vs %u %s", rc, rrc, g.n, r.n, rc ? err : "");
		if (!rc)
			hpm_close(rb);
	}
	/* one more programmable event than counters: 2 or more replays; the
	 * second SAMPLE of the second replay is corrupted (seq 1 lost there) */
	char many[512] = "cycles";
	for (unsigned i = 0; i <= in->hpm_num && in->hpm_num < 40; i++)
		strcat(many, i % 2 ? ",stores" : ",loads");
	struct ivlog clean = { 0 };
	rc = interval_stat(b, p, many, &o, &clean, out, &n);
	struct lossy y = { .base = { .ops = &lossy_ops }, .inner = b->link, .victim = (int)clean.n + 1 };
	snprintf(y.base.name, sizeof y.base.name, "lossy %s", b->link->name);
	y.base.kind = b->link->kind;
	y.base.baud = b->link->baud;
	b->link = &y.base;
	int lrc = interval_stat(b, p, many, &o, &lossy_g, out, &n);
	b->link = y.inner;
	int merged = rc == HPM_OK && lrc == HPM_OK && y.done && clean.n > 3 && lossy_g.n + 1 == clean.n &&
		     lossy_g.seq[0] == 0 && lossy_g.seq[1] == 2 && lossy_g.lost[1] == 1;
	if (b->link->baud) {
		/* tty, usb: the run is repeated until the lost sample comes */
		CHECK("intervals: a sample lost on a lossy link is recovered by running the replay again: as a clean run",
		      rc == HPM_OK && lrc == HPM_OK && y.done && clean.n > 3 && ivlog_equal(&lossy_g, &clean),
		      "rc %d/%d corrupted %d intervals %u vs %u %s", rc, lrc, y.done, lossy_g.n, clean.n, hpm_errmsg(b));
		merged = -1;
		/* an ABORT byte made by noise: the run is repeated, not failed */
		static struct noisy_log nl;
		hpm_evlist *l;
		unsigned before = b->noise_aborts;
		nl.b = b;
		nl.at = 3;
		rc = hpm_evlist_parse(&l, events, err, sizeof err);
		if (!rc) {
			nl.g.nev = hpm_evlist_len(l);
			rc = hpm_stat_interval(b, p, l, &o, noise_abort, &nl, out, HPM_MAX_COUNTS, &n, NULL);
			hpm_evlist_free(l);
		}
		CHECK("intervals: an ABORT byte the host never sent (noise) aborts the run, which runs again: as a clean run",
		      rc == HPM_OK && nl.sent && b->noise_aborts == before + 1 && ivlog_equal(&nl.g, &g),
		      "rc %d sent %d noise aborts %u intervals %u vs %u %s", rc, nl.sent,
		      b->noise_aborts - before, nl.g.n, g.n, hpm_errmsg(b));
	}
	for (unsigned k = 1; merged > 0 && k < lossy_g.n; k++)
		merged &= lossy_g.cycles[k] == clean.cycles[k + 1] &&
			  !memcmp(lossy_g.value[k], clean.value[k + 1], clean.nev * sizeof(uint64_t));
	if (merged >= 0)
	CHECK("intervals: a sample lost in one replay merges intervals 1 and 2, every count as in a clean run",
	      merged, "rc %d/%d corrupted %d intervals %u vs %u seq %u,%u lost %u %s", rc, lrc, y.done,
	      lossy_g.n, clean.n, lossy_g.seq[0], lossy_g.seq[1], lossy_g.lost[1], hpm_errmsg(b));
	/* the callback stops the measurement; the board goes on */
	stop.stop_at = 2;
	rc = interval_stat(b, p, events, &o, &stop, out, &n);
	CHECK("intervals: a callback returning non-zero stops it (HPM_E_RUN), the board still answers",
	      rc == HPM_E_RUN && stop.n == 2 && strstr(hpm_errmsg(b), "stopped") && hpm_ping(b, "x", 1) == HPM_OK,
	      "rc %d after %u intervals: %s", rc, stop.n, hpm_errmsg(b));
	o.interval = 0;
	rc = interval_stat(b, p, events, &o, &stop, out, &n);
	hpm_evlist *six;
	int small = HPM_E_EVENT;
	if (!hpm_evlist_parse(&six, events, err, sizeof err)) {
		small = hpm_stat(b, p, six, &o, out, 5, &n, NULL);
		hpm_evlist_free(six);
	}
	CHECK("intervals: no interval is a bad argument; so is an output array shorter than the event list",
	      rc == HPM_E_ARG && small == HPM_E_ARG && strstr(hpm_errmsg(b), "holds 5 counts, the event list has 6"),
	      "rc %d %d: %s", rc, small, hpm_errmsg(b));
	hpm_program_free(p);
}

static void test_stream_and_snapshot(hpm_board *b, int quick)
{
	hpm_program *p;
	hpm_run_result r;
	hpm_snapshot snap;
	char err[256];
	struct series se = { 0, 0, 0, 0, 1 };
	hpm_run_opts o = { .interval = 50000, .on_sample = collect_sample, .ctx = &se,
			   .a0 = quick ? 20000 : 0 };
	uint64_t sel[1] = { 2 };    /* instructions on counter 3 */

	if (hpm_program_load(&p, "alu", err, sizeof err)) {
		CHECK("stream: load alu", 0, "%s", err);
		return;
	}
	int rc = hpm_run(b, p, &o, hpm_get_info(b)->hpm_num ? sel : NULL,
			 hpm_get_info(b)->hpm_num ? 1 : 0, &r);
	CHECK("stream: samples numbered 0..n-1, none lost, values monotonic, n = reply's count",
	      rc == HPM_OK && se.n > 3 && se.gaps == 0 && se.monotonic && r.samples == se.n &&
	      r.lost_samples == 0 && se.last_cycles <= r.snap.value[0],
	      "rc %d samples %u (reply %u) gaps %u monotonic %d %s", rc, se.n, r.samples, se.gaps,
	      se.monotonic, hpm_errmsg(b));
	unsigned width = hpm_get_info(b)->hpm_width;
	if (!hpm_get_info(b)->hpm_num || width == 64 || r.snap.value[2] >> width == 0)
		CHECK("stream: every tick was a sample (no counter wrapped)",
		      rc == HPM_OK && r.ticks == r.samples && !r.snap.wraps[3],
		      "ticks %u samples %u wraps %u", r.ticks, r.samples, r.snap.wraps[3]);
	else     /* instructions on a narrow counter wrap; a wrap is an LCOFI
		  * tick unless it is counted at a timer tick's entry */
		CHECK("stream: every wrap of the narrow counter counted, LCOFI ticks added",
		      rc == HPM_OK && r.snap.wraps[3] == r.snap.value[2] >> width &&
		      r.ticks > r.samples && r.ticks <= r.samples + r.snap.wraps[3],
		      "ticks %u samples %u wraps %u", r.ticks, r.samples, r.snap.wraps[3]);
	rc = hpm_snapshot_read(b, &snap);
	snap.value[1] = r.snap.value[1];        /* mtime goes on */
	CHECK("snapshot after the run equals the run's final counters", rc == HPM_OK &&
	      !memcmp(snap.value, r.snap.value, sizeof snap.value) && snap.present == r.snap.present,
	      "rc %d", rc);
	if (hpm_get_info(b)->hpm_num)
		CHECK("counter 3 (instructions, extended) equals minstret", r.snap.value[3] == r.snap.value[2],
		      "hpm3 %" PRIu64 " minstret %" PRIu64 " wraps %u width %u", r.snap.value[3],
		      r.snap.value[2], r.snap.wraps[3], hpm_get_info(b)->hpm_width);
	hpm_program_free(p);
}

/* tty: a RUN never takes the seq 0x18 (ABORT), which the FETCHes asking
 * about it would carry to a monitor still running it */
static void test_run_seq(hpm_board *b)
{
	uint8_t body[HPM_MAX_BODY];
	struct hpm_msg_run run = { .entry = 0x80000000u, .mode = 0, .budget = 1000 };
	int ok = 1;
	if (!b->link->baud)
		return;
	for (unsigned before = 0x16; before <= 0x17; before++) {
		b->seq = (uint8_t)before;
		int rc = hpm_transact(b, HPM_T_RUN, body, hpm_pack_run(body, &run), rep, &rlen);
		ok &= rc == HPM_OK && b->last_req_seq != HPM_ABORT_BYTE;
		if (!ok)
			printf("  after seq 0x%02x: rc %d, RUN seq 0x%02x\n", before, rc, b->last_req_seq);
	}
	CHECK("tty: a RUN after seq 0x16 or 0x17 skips 0x18 (the FETCHes about it carry its seq)", ok, "see above");
}

static void test_reset(hpm_board *b)
{
	uint32_t v = 1, ev = 1;
	hpm_csr_write(b, 0x323, HPM_CSR_WRITE, 5, NULL, NULL);
	int rc = hpm_reset(b);
	hpm_csr_read(b, 0xb00, &v);
	hpm_csr_read(b, 0x323, &ev);
	CHECK("reset: BOOT, handshake again, counters and selectors cleared",
	      rc == HPM_OK && v == 0 && ev == 0, "rc %d mcycle %u mhpmevent3 %u %s", rc, v, ev,
	      hpm_errmsg(b));
	uint8_t body[4];
	hpm_put32(body, 0x12345678);
	expect_error(b, "reset with a bad magic -> BAD_ARG", HPM_T_RESET, body, 4, HPM_ERR_BAD_ARG, 0);
}

static void test_workloads(hpm_board *b, int quick)
{
	hpm_evlist *l;
	char err[256];
	const char *ev = "cycles,instructions,loads,stores,jumps,branches,branches-taken,branch-misses,"
			 "mul,div,muldiv-stall-cycles,fetch-stall-cycles,mem-stall-cycles,exceptions,"
			 "csr-instructions,flushes,topdown-retiring,topdown-bad-spec,topdown-fe-bound,"
			 "topdown-be-bound";
	if (hpm_evlist_parse(&l, ev, err, sizeof err)) {
		CHECK("workloads: event list", 0, "%s", err);
		return;
	}
	for (size_t i = 0; hpm_workload_at(i, NULL); i++) {
		const char *name = hpm_workload_at(i, NULL);
		hpm_program *p;
		hpm_count hw[HPM_MAX_COUNTS], ref[HPM_MAX_COUNTS];
		size_t n = 0;
		char check[128];
		hpm_run_opts o = { 0 };
		if (quick && i % 4)
			continue;
		snprintf(check, sizeof check, "workload %s: 20 events, board == reference", name);
		if (hpm_program_load(&p, name, err, sizeof err)) {
			CHECK(check, 0, "%s", err);
			continue;
		}
		int rc = hpm_validate(b, p, l, &o, hw, ref, HPM_MAX_COUNTS, &n);
		CHECK(check, rc == HPM_OK && n == hpm_evlist_len(l) && hw[0].value > 1000,
		      "%s", hpm_errmsg(b));
		if (rc == HPM_OK) {
			printf("     %s: cycles %" PRIu64 " instructions %" PRIu64 " loads %" PRIu64
			       " branch-misses %" PRIu64 "\n", name, hw[0].value, hw[1].value,
			       hw[2].value, hw[7].value);
		}
		hpm_program_free(p);
	}
	/* the same in S and M mode on one workload: M adds the fixed costs */
	static const enum hpm_privilege modes[] = { HPM_MODE_SUPERVISOR, HPM_MODE_MACHINE };
	for (int m = 0; m < 2; m++) {
		hpm_program *p;
		hpm_count hw[HPM_MAX_COUNTS], ref[HPM_MAX_COUNTS];
		size_t n;
		hpm_run_opts o = { .mode = modes[m] };
		char check[96];
		snprintf(check, sizeof check, "workload crc in %s mode: board == reference", m ? "M" : "S");
		if (hpm_program_load(&p, "crc", err, sizeof err)) {
			CHECK(check, 0, "%s", err);
			continue;
		}
		int rc = hpm_validate(b, p, l, &o, hw, ref, HPM_MAX_COUNTS, &n);
		CHECK(check, rc == HPM_OK, "%s", hpm_errmsg(b));
		hpm_program_free(p);
	}
	hpm_evlist_free(l);
}

static int count_prof(void *ctx, const hpm_prof_sample *s)
{
	uint32_t *pcs = ctx;
	if (s->pc < pcs[1] || s->pc >= pcs[2] || s->mode != HPM_MODE_USER || s->counter != 0)
		pcs[3]++;                        /* outside the program, or wrong fields */
	pcs[0]++;
	return 0;
}

/* hpm_profile and hpm_stat_regions through the library (under ASan here):
 * the documented costs, on every board configuration of the suite */
static void test_profile_regions(hpm_board *b)
{
	const hpm_info *in = hpm_get_info(b);
	hpm_evlist *l;
	hpm_program *p;
	hpm_count c[8], plain[8];
	hpm_run_result r;
	size_t n;
	char err[256];
	hpm_run_opts o = { .a0 = 2048 };
	uint64_t period[2] = { in->hpm_width >= 10 ? 1000 : HPM_MIN_PERIOD, 0 };
	uint32_t pcs[4] = { 0, 0x80000000u, 0, 0 };

	if (!in->hpm_num || hpm_evlist_parse(&l, "cycles,instructions", err, sizeof err))
		return;
	if (hpm_program_load(&p, "crc", err, sizeof err)) {
		CHECK("profile: load crc", 0, "%s", err);
		hpm_evlist_free(l);
		return;
	}
	pcs[2] = p->seg[0].addr + p->seg[0].len;
	int rc = hpm_stat(b, p, l, &o, plain, 8, &n, NULL);
	int rc2 = hpm_profile(b, p, l, period, &o, count_prof, pcs, c, 8, &n, &r);
	CHECK("profile: crc, cycles every P: count = stat's + 2 per tick, samples = count / P, pcs in the program",
	      !rc && !rc2 && c[0].value == plain[0].value + 2 * (uint64_t)r.ticks &&
	      c[1].value == plain[1].value && pcs[0] == c[0].value / period[0] && r.ticks == pcs[0] &&
	      !pcs[3] && r.records == pcs[0],
	      "rc %d %d: cycles %" PRIu64 " vs %" PRIu64 ", ticks %u, samples %u, P %" PRIu64 ", bad %u: %s",
	      rc, rc2, c[0].value, plain[0].value, (unsigned)r.ticks, (unsigned)pcs[0], period[0],
	      (unsigned)pcs[3], hpm_errmsg(b));
	hpm_program_free(p);
	hpm_evlist_free(l);

	hpm_region reg[HPM_MAX_REGIONS];
	size_t nreg = 0;
	o.a0 = 1;
	/* three programmable events: replays on the narrow configurations */
	if (hpm_evlist_parse(&l, "cycles,instructions,exceptions,loads,stores", err, sizeof err) ||
	    hpm_program_load(&p, "regions", err, sizeof err)) {
		CHECK("regions: setup", 0, "%s", err);
		return;
	}
	rc = hpm_stat(b, p, l, &o, plain, 8, &n, NULL);
	rc2 = hpm_stat_regions(b, p, l, &o, c, 8, &n, reg, HPM_MAX_REGIONS, &nreg, NULL);
	CHECK("regions: empty, fill, scan, divide; the empty one counts 6 cycles, 4 instructions, 1 exception; fill 256 stores per call; the program as stat",
	      !rc && !rc2 && nreg == 4 && !strcmp(reg[0].name, "empty") && !strcmp(reg[3].name, "divide") &&
	      reg[0].calls == 1 && reg[0].value[0] == 6 && reg[0].value[1] == 4 && reg[0].value[2] == 1 &&
	      reg[0].cycles == 6 && c[0].value == plain[0].value && c[2].value == plain[2].value &&
	      reg[2].value[0] > reg[3].value[0] && !strcmp(reg[1].name, "fill") &&
	      reg[1].value[4] == 256 * reg[1].calls && reg[1].value[3] == 0,
	      "rc %d %d, %zu regions, empty %" PRIu64 "/%" PRIu64 "/%" PRIu64 ": %s", rc, rc2, nreg,
	      nreg ? reg[0].value[0] : 0, nreg ? reg[0].value[1] : 0, nreg ? reg[0].value[2] : 0,
	      hpm_errmsg(b));
	/* tty, usb: a REGION frame corrupted on the way; without TWICE the run
	 * is repeated until the marker is in, with TWICE its copy gets through
	 * (frames counted: a clean run's, then the faulty runs') */
	if (b->link->baud && b->info.fw_version >= HPM_FW_TWICE) {
		unsigned long bad = b->bad_frames, retx = b->retransmits;
		int frames[3];
		int same = 1;
		for (int k = 0; k < 3; k++) {
			static hpm_region r2[HPM_MAX_REGIONS];
			size_t n2 = 0;
			struct lossy y = { .base = { .ops = &lossy_ops }, .inner = b->link, .victim = k ? 2 : -1,
					   .type = HPM_T_REGION };
			snprintf(y.base.name, sizeof y.base.name, "lossy %s", b->link->name);
			y.base.kind = b->link->kind;
			y.base.baud = b->link->baud;
			b->bad_frames = k == 2;
			b->retransmits = 0;
			b->link = &y.base;
			int rc3 = hpm_stat_regions(b, p, l, &o, c, 8, &n, r2, HPM_MAX_REGIONS, &n2, NULL);
			b->link = y.inner;
			frames[k] = y.samples;
			same &= rc3 == HPM_OK && n2 == nreg && (k == 0 || y.done);
			for (size_t i = 0; same && i < nreg; i++)
				same &= r2[i].calls == reg[i].calls && !memcmp(r2[i].value, reg[i].value, sizeof r2[i].value);
		}
		b->bad_frames = bad;
		b->retransmits = retx;
		CHECK("regions: a corrupted REGION frame: the run repeated (no TWICE), or its copy used (TWICE); regions as a clean run",
		      same && frames[0] > 0 && frames[1] > frames[0] && frames[2] == 2 * frames[0],
		      "equal %d, REGION frames: clean %d, corrupted %d, corrupted with TWICE %d %s", same,
		      frames[0], frames[1], frames[2], hpm_errmsg(b));
	}
	hpm_program_free(p);
	hpm_evlist_free(l);
}

/* hpm-sim with its stdin/stdout on a pty's master side; the slave's path
 * goes to name. Returns the child's pid or -1. */
static pid_t sim_on_pty(const char *sim, char *name, size_t len)
{
	int master, slave;
	struct termios t;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	const char *argv[] = { sim, NULL };

	if (openpty(&master, &slave, name, NULL, NULL))
		return -1;
	(void)len;
	tcgetattr(slave, &t);
	cfmakeraw(&t);                  /* no echo of the board's bytes */
	tcsetattr(slave, TCSANOW, &t);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, master, 0);
	posix_spawn_file_actions_adddup2(&fa, master, 1);
	posix_spawn_file_actions_addclose(&fa, slave);
	int rc = posix_spawn(&pid, sim, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(master);
	close(slave);
	return rc ? -1 : pid;
}

int main(int argc, char **argv)
{
	const char *link = "sim", *sim = NULL;
	hpm_open_opts opts = { 0 };
	int quick = 0;
	char err[512];
	hpm_board *b;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--link") && i + 1 < argc) link = argv[++i];
		else if (!strcmp(argv[i], "--sim") && i + 1 < argc) sim = argv[++i];
		else if (!strcmp(argv[i], "--hpm-num") && i + 1 < argc) opts.hpm_num = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--hpm-width") && i + 1 < argc) opts.hpm_width = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--quick")) quick = 1;
		else {
			fprintf(stderr, "usage: test_link [--link sim|ref|tty-sim] [--sim PATH] [--hpm-num N --hpm-width W] [--quick]\n");
			return 2;
		}
	}
	opts.sim_path = sim;
	char tty[64 + 4] = "tty:";
	pid_t child = -1;
	if (!strcmp(link, "tty-sim")) {
		child = sim_on_pty(sim ? sim : "build/bin/hpm-sim", tty + 4, sizeof tty - 4);
		CHECK("hpm-sim on a pseudo-terminal", child > 0, "openpty or spawn failed");
		if (child <= 0)
			return 1;
		opts.timeout_ms = 5000;         /* the simulated board is slower than 3 Mbaud */
		link = tty;
	}
	int rc = hpm_open(&b, link, &opts, err, sizeof err);
	CHECK("open and handshake", rc == HPM_OK, "%s", err);
	if (rc)
		return 1;
	test_hello(b);
	test_ping(b);
	test_csr(b);
	test_mem(b);
	test_framing(b);
	test_fetch(b);
	test_runs(b);
	test_stream_and_snapshot(b, quick);
	test_lost_sample(b);
	test_budget(b);
	test_intervals(b);
	test_workloads(b, quick);
	test_profile_regions(b);
	test_run_seq(b);
	test_reset(b);
	hpm_close(b);
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	printf("link %s: %d passed, %d failed\n", link, passes, failures);
	return failures ? 1 : 0;
}
