/* monitor_abuse: the firmware monitor under hostile input (docs/testing.md).
 *
 *   monitor_abuse [--link ref|sim] [--frames N] [--seed S]
 *
 * Sends N frames (default 100000) built to be refused: random types,
 * every command with wrong lengths, out-of-range fields, memory ranges over
 * the monitor's own EBR and MONRAM, MMIO and address wrap-around through
 * every command that takes an address, huge lengths, forbidden CSR writes,
 * RUNs that must not start, and framing garbage (bad COBS, over-long
 * frames, stray bytes). Every refusal must be the typed ERROR the protocol
 * names; the monitor must answer a PING after every 64 frames; at the end
 * its EBR must read back exactly as before and the workload RAM outside the
 * bytes a legal write touched must be unchanged.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hpm_int.h"

static uint64_t rng_state;
static uint32_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

static unsigned long wrong, sent, typed[16], silent, resent;

/* Sends raw bytes, then reads until one frame with seq (or none within
 * timeout_ms). Returns 1 with *f, 0 for none. */
static int exchange(hpm_board *b, const uint8_t *wire, size_t n, uint8_t seq, struct hpm_frame *f,
		    int timeout_ms)
{
	if (b->link->ops->write(b->link, wire, n))
		return -1;
	for (int waited = 0; waited < timeout_ms; ) {
		if (b->rx_off >= b->rx_len) {
			int got = b->link->ops->read(b->link, b->rx, sizeof b->rx, 5);
			if (got < 0)
				return -1;
			b->rx_off = 0;
			b->rx_len = got > 0 ? (size_t)got : 0;
			if (!got) {
				waited += 5;
				continue;
			}
		}
		while (b->rx_off < b->rx_len)
			if (hpm_decoder_feed(&b->dec, b->rx[b->rx_off++], f) == HPM_PROTO_FRAME && f->seq == seq)
				return 1;
	}
	return 0;
}

/* One request that must be refused with code (0: any ERROR). */
static void refuse(hpm_board *b, uint8_t type, const uint8_t *body, size_t len, unsigned code,
		   const char *what)
{
	uint8_t wire[HPM_MAX_WIRE + 2];
	struct hpm_frame f;
	uint8_t seq = ++b->seq;
	if (seq == b->last_req_seq)
		seq = ++b->seq;
	b->last_req_seq = seq;
	wire[0] = 0;
	int w = hpm_frame_build(type, seq, body, len, wire + 1, sizeof wire - 1);
	int got, tries = 0;
	/* bytes sent while the monitor still answered garbage may be lost on
	 * its one-byte UART (the RTL board's): BAD_CRC, or silence when what
	 * arrived was no frame at all, asks for the request again, as a host
	 * would (the same seq: executed at most once) */
	for (;;) {
		got = exchange(b, wire, (size_t)w + 1, seq, &f, 5000);
		int crc = got == 1 && f.type == HPM_T_ERROR && f.len == HPM_ERROR_LEN && f.body[0] == HPM_ERR_BAD_CRC;
		if ((got != 0 && !crc) || ++tries >= 5)
			break;
		if (crc)
			typed[HPM_ERR_BAD_CRC]++;
		else
			resent++;
	}
	sent++;
	if (got == 1 && f.type == HPM_T_ERROR && f.len == HPM_ERROR_LEN && (!code || f.body[0] == code) &&
	    f.body[1] == type) {
		typed[f.body[0] & 15]++;
		return;
	}
	if (wrong++ < 10)
		printf("FAIL %s (type 0x%02x, %zu bytes): got %d, reply type 0x%02x code 0x%02x, want error 0x%02x\n",
		       what, type, len, got, got == 1 ? f.type : 0, got == 1 && f.len ? f.body[0] : 0, code);
}

#define FW      HPM_FW_BASE
#define FW_END  (HPM_FW_BASE + HPM_FW_SIZE)
#define RAM_END (HPM_RAM_BASE + HPM_RAM_SIZE)   /* MONRAM is its top 4 KiB */

static uint32_t bad_addr(void)
{
	static const uint32_t spots[] = {
		FW, FW + 0x100u, FW_END - 0x10u, FW_END - 4u, FW_END,                /* EBR and past it */
		RAM_END - 0x1000u, RAM_END - 0x800u, RAM_END - 4u, RAM_END,          /* MONRAM, past RAM */
		RAM_END - 0x1010u, HPM_RAM_BASE - 4u, HPM_UART_BASE, HPM_CLINT_BASE, /* across the end, MMIO */
		HPM_CLINT_BASE + CLINT_MTIMECMP_OFF,
		0xfffffff0u, 0xfffffffcu, 0x40000000u,                               /* wrap-around */
	};
	uint32_t a = spots[rnd() % (sizeof spots / sizeof spots[0])];
	return a + (rnd() % 3 == 0 ? rnd() % 16 : 0);
}

static void one(hpm_board *b, const hpm_info *in, uint8_t *ram_touched)
{
	uint8_t body[HPM_MAX_BODY + 64];
	unsigned k = rnd() % 12;
	memset(body, 0, sizeof body);
	for (size_t i = 0; i < sizeof body; i++)
		if (rnd() % 2)
			body[i] = (uint8_t)rnd();
	switch (k) {
	case 0: {   /* MEM_WRITE over the monitor's memory, MMIO, wrap-around */
		uint32_t a = bad_addr(), n = 1 + rnd() % HPM_MEM_MAX_DATA;
		if (a >= in->ram_base && a - in->ram_base < in->ram_size && n <= in->ram_size - (a - in->ram_base))
			n = in->ram_size - (a - in->ram_base) + 1 + rnd() % 8;   /* always crosses the end */
		if (n > HPM_MEM_MAX_DATA) {
			a = in->ram_base + in->ram_size - 4;
			n = 5 + rnd() % 100;
		}
		hpm_put32(body, a);
		refuse(b, HPM_T_MEM_WRITE, body, 4 + n, HPM_ERR_BAD_ADDRESS, "mem write outside RAM");
		break;
	}
	case 1: {   /* MEM_READ: huge or zero lengths, then ranges outside */
		uint32_t n = rnd() % 2 ? 0 : HPM_MEM_MAX_DATA + 1 + rnd();
		hpm_put32(body, in->ram_base);
		hpm_put32(body + 4, n);
		refuse(b, HPM_T_MEM_READ, body, 8, HPM_ERR_BAD_ARG, "mem read with a huge length");
		uint32_t a = bad_addr();
		if (a < 0x2000u)
			a = 0x2000u - rnd() % 4;    /* readable EBR: make it cross its end */
		hpm_put32(body, a);
		hpm_put32(body + 4, 8 + rnd() % 500);
		if (a >= in->ram_base && a - in->ram_base < in->ram_size)
			break;
		refuse(b, HPM_T_MEM_READ, body, 8, HPM_ERR_BAD_ADDRESS, "mem read outside RAM and EBR");
		break;
	}
	case 2: {   /* the CSRs the monitor must keep */
		static const uint16_t keep[] = { 0x305, 0x304, 0x340, 0x302, 0x303, 0x180, 0x310 };
		hpm_put16(body, keep[rnd() % 7]);
		body[2] = (uint8_t)(rnd() % 3);
		body[3] = 0;
		hpm_put32(body + 4, rnd() | 1);
		if (body[2] == 2)
			body[2] = 0;    /* clearing nothing could be legal */
		refuse(b, HPM_T_CSR_WRITE, body, 8, HPM_ERR_FORBIDDEN, "forbidden CSR write");
		/* mstatus: a change of MIE or MPRV */
		hpm_put16(body, 0x300);
		body[2] = 1;
		hpm_put32(body + 4, rnd() % 2 ? 1u << 3 : 1u << 17);
		refuse(b, HPM_T_CSR_WRITE, body, 8, HPM_ERR_FORBIDDEN, "mstatus MIE/MPRV write");
		body[2] = (uint8_t)(3 + rnd() % 253);
		refuse(b, HPM_T_CSR_WRITE, body, 8, HPM_ERR_BAD_ARG, "CSR write op > 2");
		break;
	}
	case 3: {   /* RUNs that must not start */
		unsigned n = rnd() % (in->hpm_num + 1);
		size_t len = HPM_RUN_LEN(n);
		body[4] = 0;               /* mode U */
		body[5] = 0;
		body[6] = (uint8_t)n;
		hpm_put32(body + 8, 1 + rnd());
		hpm_put32(body + 12, 0);
		hpm_put32(body + 16, 0);   /* tohost: none */
		hpm_put32(body + 32, 0);
		unsigned how = rnd() % 4;
		unsigned code = HPM_ERR_BAD_ADDRESS;
		hpm_put32(body, in->ram_base);
		if (how == 0) {
			hpm_put32(body, bad_addr() | (rnd() % 2 ? 2 : 0));   /* entry outside RAM */
			if (hpm_get32(body) >= in->ram_base && hpm_get32(body) - in->ram_base < in->ram_size)
				hpm_put32(body, 0x100);
		} else if (how == 1) {
			hpm_put32(body + 16, bad_addr());                   /* tohost over the monitor */
			if ((hpm_get32(body + 16) >= in->ram_base && hpm_get32(body + 16) - in->ram_base < in->ram_size) ||
			    hpm_get32(body + 16) == 0)   /* 0 is "no tohost" */
				hpm_put32(body + 16, 0x8001f000u);
		} else if (how == 2) {
			body[6] = (uint8_t)(in->hpm_num + 1 + rnd() % 100);  /* too many events */
			len = HPM_RUN_LEN(body[6]) > HPM_MAX_BODY ? HPM_MAX_BODY : HPM_RUN_LEN(body[6]);
			/* above the protocol's 29 the length check refuses first */
			code = body[6] > HPM_NHPM ? HPM_ERR_BAD_LENGTH : HPM_ERR_BAD_ARG;
		} else {
			hpm_put32(body + 8, 0);                             /* budget 0 */
			hpm_put32(body + 12, 0);
			code = HPM_ERR_BAD_ARG;
		}
		refuse(b, HPM_T_RUN, body, len, code, "RUN with a bad field");
		break;
	}
	case 4: {   /* wrong lengths for every fixed-length command */
		static const struct { uint8_t t; unsigned len; } fixed[] = {
			{ HPM_T_HELLO, HPM_HELLO_LEN }, { HPM_T_CSR_READ, HPM_CSR_READ_LEN },
			{ HPM_T_CSR_WRITE, HPM_CSR_WRITE_LEN }, { HPM_T_MEM_READ, HPM_MEM_READ_LEN },
			{ HPM_T_SNAPSHOT, 0 }, { HPM_T_STREAM, HPM_STREAM_LEN }, { HPM_T_STREAM_STOP, 0 },
			{ HPM_T_RESET, HPM_RESET_LEN },
		};
		unsigned i = rnd() % 8;
		size_t len;
		do
			len = rnd() % 2 ? rnd() % 24 : rnd() % (HPM_MAX_BODY + 1);
		while (len == fixed[i].len);
		refuse(b, fixed[i].t, body, len, HPM_ERR_BAD_LENGTH, "wrong length");
		break;
	}
	case 5: {   /* types that are not requests */
		uint8_t t;
		do
			t = (uint8_t)rnd();
		while (t >= HPM_T_HELLO && t <= HPM_T_FETCH);
		refuse(b, t, body, rnd() % (HPM_MAX_BODY + 1), HPM_ERR_UNKNOWN_CMD, "unknown type");
		break;
	}
	case 6: {   /* STREAM with bad values */
		hpm_put32(body, rnd() % in->min_interval);
		hpm_put32(body + 4, 0);
		hpm_put32(body + 8, 0x5);
		hpm_put32(body + 12, 0);
		refuse(b, HPM_T_STREAM, body, HPM_STREAM_LEN, HPM_ERR_BAD_ARG, "stream interval too short");
		hpm_put32(body, 100000);
		hpm_put32(body + 12, 2 + (rnd() & ~1u));
		refuse(b, HPM_T_STREAM, body, HPM_STREAM_LEN, HPM_ERR_BAD_ARG, "stream with unknown flags");
		break;
	}
	case 7: {   /* RESET with a wrong magic, HELLO with no common version */
		if (hpm_get32(body) == HPM_RESET_MAGIC)
			body[0] ^= 1;
		refuse(b, HPM_T_RESET, body, HPM_RESET_LEN, HPM_ERR_BAD_ARG, "reset with a wrong magic");
		hpm_put16(body, (uint16_t)(HPM_PROTO_VERSION + 1 + rnd() % 100));
		hpm_put16(body + 2, (uint16_t)(hpm_get16(body) + rnd() % 100));
		refuse(b, HPM_T_HELLO, body, HPM_HELLO_LEN, HPM_ERR_BAD_VERSION, "hello, no common version");
		break;
	}
	case 8: {   /* framing: garbage, bad COBS, over-long frames, a bad CRC */
		uint8_t wire[1200];
		struct hpm_frame f;
		size_t n = 1 + rnd() % sizeof wire;
		for (size_t i = 0; i < n; i++)
			wire[i] = (uint8_t)(1 + rnd() % 255);
		wire[n - 1] = 0;
		exchange(b, wire, n, 0xff, &f, 0);
		sent++;
		silent++;
		break;
	}
	case 9: {   /* a legal write into the RAM, remembered, so nothing else may change */
		uint32_t off = rnd() % (in->ram_size - 64), n = 1 + rnd() % 64;
		if (hpm_mem_write(b, in->ram_base + off, body, n) != HPM_OK && wrong++ < 10)
			printf("FAIL a legal write at 0x%08x: %s\n", in->ram_base + off, hpm_errmsg(b));
		memset(ram_touched + off, 1, n);
		sent++;
		break;
	}
	case 10: {  /* FETCH with random fields: a slice or nothing, never a change */
		uint8_t wire[64];
		struct hpm_frame f;
		uint8_t seq = ++b->seq;
		if (seq == b->last_req_seq)
			seq = ++b->seq;
		wire[0] = 0;
		int w = hpm_frame_build(HPM_T_FETCH, seq, body, rnd() % 8, wire + 1, sizeof wire - 1);
		int got = 0;
		for (int tries = 0; got == 0 && tries < 5; tries++) {
			got = exchange(b, wire, (size_t)w + 1, seq, &f, 5000);
			resent += got == 0;
		}
		sent++;
		if ((got != 1 || f.type == HPM_T_FETCH) && wrong++ < 10)
			printf("FAIL fetch with random fields: got %d type 0x%02x\n", got, got == 1 ? f.type : 0);
		break;
	}
	default: {  /* CSR reads of CSRs that do not exist */
		static const uint16_t none[] = { 0x7c4, 0x5c0, 0x800, 0xcc4, 0xfca };
		hpm_put16(body, none[rnd() % 5]);
		refuse(b, HPM_T_CSR_READ, body, HPM_CSR_READ_LEN, HPM_ERR_CSR_TRAP, "read of a CSR that does not exist");
		break;
	}
	}
}

int main(int argc, char **argv)
{
	const char *link = "ref";
	unsigned long frames = 100000, seed = 1;
	char err[512];
	hpm_board *b;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--link") && i + 1 < argc) link = argv[++i];
		else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoul(argv[++i], NULL, 0);
		else {
			fprintf(stderr, "usage: monitor_abuse [--link ref|sim] [--frames N] [--seed S]\n");
			return 2;
		}
	}
	rng_state = seed * 0x9E3779B97F4A7C15ULL + 7;
	if (hpm_open(&b, link, NULL, err, sizeof err)) {
		printf("FAIL open %s: %s\n", link, err);
		return 1;
	}
	const hpm_info in = *hpm_get_info(b);
	static uint8_t ebr[0x2000], ebr2[0x2000], ram[0x1f000], ram2[0x1f000], touched[0x1f000];
	for (size_t i = 0; i < sizeof ram; i++)
		ram[i] = (uint8_t)(i * 7 + (i >> 9));
	/* the monitor patches one instruction in its EBR for every CSR access
	 * (csr_tramp): the same access before each read makes it equal */
	uint32_t misa;
	int rc = hpm_csr_read(b, 0x301, &misa);
	rc = rc ? rc : hpm_mem_read(b, 0, ebr, sizeof ebr);
	rc = rc ? rc : hpm_mem_write(b, in.ram_base, ram, in.ram_size);
	if (rc) {
		printf("FAIL before: %s\n", hpm_errmsg(b));
		return 1;
	}
	unsigned long pings = 0;
	while (sent < frames && wrong < 10) {
		one(b, &in, touched);
		if (sent / 64 != pings) {
			char data[32];
			size_t n = rnd() % sizeof data;
			for (size_t i = 0; i < n; i++)
				data[i] = (char)rnd();
			if (hpm_ping(b, data, n) != HPM_OK) {
				printf("FAIL no PING answer after %lu frames: %s\n", sent, hpm_errmsg(b));
				return 1;
			}
			pings = sent / 64;
		}
	}
	rc = hpm_csr_read(b, 0x301, &misa);
	rc = rc ? rc : hpm_mem_read(b, 0, ebr2, sizeof ebr2);
	rc = rc ? rc : hpm_mem_read(b, in.ram_base, ram2, in.ram_size);
	size_t changed = 0;
	for (size_t i = 0; !rc && i < sizeof ram; i++)
		changed += !touched[i] && ram[i] != ram2[i];
	for (size_t i = 0; !rc && i < sizeof ebr; i++)
		if (ebr[i] != ebr2[i])
			printf("EBR 0x%04zx: 0x%02x -> 0x%02x\n", i, ebr[i], ebr2[i]);
	printf("%s monitor EBR intact after %lu frames\n", !rc && !memcmp(ebr, ebr2, sizeof ebr) ? "PASS" : "FAIL", sent);
	printf("%s workload RAM outside the legal writes unchanged (%zu bytes differ)\n", !rc && !changed ? "PASS" : "FAIL",
	       changed);
	printf("%s every refusal typed: %lu frames, %lu PINGs answered, %lu retried after BAD_CRC, %lu after silence, BAD_ADDRESS %lu, BAD_ARG %lu, BAD_LENGTH %lu, FORBIDDEN %lu, UNKNOWN_CMD %lu, CSR_TRAP %lu, BAD_VERSION %lu, %lu garbage frames\n",
	       wrong ? "FAIL" : "PASS", sent, pings, typed[HPM_ERR_BAD_CRC], resent, typed[HPM_ERR_BAD_ADDRESS], typed[HPM_ERR_BAD_ARG],
	       typed[HPM_ERR_BAD_LENGTH], typed[HPM_ERR_FORBIDDEN], typed[HPM_ERR_UNKNOWN_CMD],
	       typed[HPM_ERR_CSR_TRAP], typed[HPM_ERR_BAD_VERSION], silent);
	int ok = !rc && !wrong && !changed && !memcmp(ebr, ebr2, sizeof ebr) && sent >= frames;
	hpm_close(b);
	printf("monitor_abuse %s: %s\n", link, ok ? "passed" : "failed");
	return ok ? 0 : 1;
}
