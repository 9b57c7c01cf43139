/* Opening a board, the handshake, and one function per protocol command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hpm_int.h"
#include "hpm_events.h"
#include "hpm_monitor_sum.h"

void hpm_interrupt(hpm_board *b)
{
	if (!b)
		return;
	b->interrupt = 1;
	if (b->also)
		b->also->interrupt = 1;
}

void hpm_board_error(const hpm_board *b, unsigned *code, uint32_t *arg)
{
	if (code) *code = b->err_code;
	if (arg) *arg = b->err_arg;
}

const hpm_info *hpm_get_info(const hpm_board *b)
{
	return &b->info;
}

/* The monitor reports the checksum of its code and constants in INFO and in
 * every RUN reply; a board whose monitor differs from the one this library
 * was built with (an M-mode program rewrote it, another firmware) may count
 * anything: no number from it is used. */
int hpm_check_monitor(hpm_board *b, uint32_t sum)
{
	if (sum != HPM_MONITOR_SUM)
		return hpm_fail(b, HPM_E_CONFIG,
				"the board's monitor was modified (checksum 0x%08x, expected 0x%08x): reset or reflash the board",
				sum, HPM_MONITOR_SUM);
	return HPM_OK;
}

static int handshake(hpm_board *b)
{
	uint8_t req[HPM_HELLO_LEN], rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_hello h = { HPM_PROTO_VERSION, HPM_PROTO_VERSION };
	struct hpm_msg_info in;

	int rc = hpm_transact(b, HPM_T_HELLO, req, hpm_pack_hello(req, &h), rep, &rlen);
	if (rc)
		return rc;
	if (hpm_unpack_info(rep, rlen, &in) != HPM_PROTO_OK)
		return hpm_fail(b, HPM_E_PROTOCOL, "link: malformed INFO reply (%zu bytes)", rlen);
	if (in.proto_version != HPM_PROTO_VERSION)
		return hpm_fail(b, HPM_E_CONFIG, "board speaks protocol %u, host %u",
				in.proto_version, HPM_PROTO_VERSION);
	if ((rc = hpm_check_monitor(b, in.monitor_sum)))
		return rc;
	if (in.event_hash != HPM_EVENT_CATALOGUE_HASH)
		return hpm_fail(b, HPM_E_CONFIG,
				"board event catalogue 0x%016llx differs from the host's 0x%016llx: rebuild one of them",
				(unsigned long long)in.event_hash,
				(unsigned long long)HPM_EVENT_CATALOGUE_HASH);
	if (in.hpm_num > HPM_NHPM || in.hpm_width < 1 || in.hpm_width > 64 || !in.clock_hz)
		return hpm_fail(b, HPM_E_PROTOCOL, "board reports an impossible configuration");
	b->info = (hpm_info){
		.proto_version = in.proto_version, .fw_version = in.fw_version,
		.mvendorid = in.mvendorid, .marchid = in.marchid, .mimpid = in.mimpid,
		.misa = in.misa, .hpm_num = in.hpm_num, .hpm_width = in.hpm_width,
		.clock_hz = in.clock_hz, .uart_baud = in.uart_baud,
		.event_hash = in.event_hash, .ram_base = in.ram_base,
		.ram_size = in.ram_size, .min_interval = in.min_interval,
		.features = in.features, .link = b->link_name,
	};
	return HPM_OK;
}

static int open_link(hpm_board *b, const char *link, char *err, size_t errlen)
{
	char num[2][16];
	uint32_t baud = b->opts.baud ? b->opts.baud : HPM_USB_BAUD_DEFAULT;

	if (!strcmp(link, "sim") || !strcmp(link, "ref")) {
		int ref = link[0] == 'r';
		const char *args[8] = { NULL };
		if (ref) {
			snprintf(num[0], sizeof num[0], "%u", b->opts.hpm_num ? b->opts.hpm_num : 29);
			snprintf(num[1], sizeof num[1], "%u", b->opts.hpm_width ? b->opts.hpm_width : 64);
			args[0] = "--hpm-num"; args[1] = num[0];
			args[2] = "--hpm-width"; args[3] = num[1];
			if (b->opts.td_board)
				args[4] = "--td-board";
		}
		if (hpm_link_spawn_open(ref ? HPM_LINK_REF : HPM_LINK_SIM,
					ref ? b->ref_path : b->sim_path, args, &b->link, err, errlen))
			return HPM_E_LINK;
		int rc = hpm_wait_boot(b, 30000);
		if (rc)
			snprintf(err, errlen, "%s", b->err);
		return rc;
	}
	int rc = hpm_link_check(link, err, errlen);
	if (rc)
		return rc;
	if (!strncmp(link, "tty:", 4))
		return hpm_link_tty_open(link + 4, baud, &b->link, err, errlen) ? HPM_E_LINK : HPM_OK;
	if (!strncmp(link, "usb", 3))
		return hpm_link_usb_open(link + 3, baud, &b->link, err, errlen) ? HPM_E_LINK : HPM_OK;
	return hpm_link_net_open(link, baud, &b->link, err, errlen) ? HPM_E_LINK : HPM_OK;
}

int hpm_link_check(const char *link, char *err, size_t errlen)
{
	char host[256], port[8], dummy[8];

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	if (!link)
		link = "auto";
	if (!strcmp(link, "sim") || !strcmp(link, "ref") || !strcmp(link, "auto") ||
	    (!strncmp(link, "usb", 3) && (link[3] == '\0' || link[3] == ':')) ||
	    (!strncmp(link, "tty:", 4) && link[4]))
		return HPM_OK;
	if (!strncmp(link, "tcp:", 4) || !strncmp(link, "rfc2217:", 8))
		return hpm_link_net_parse(link, host, sizeof host, port, sizeof port, err, errlen) ?
			HPM_E_ARG : HPM_OK;
	snprintf(err, errlen, "unknown link '%s' (sim, usb, usb::SERIAL, usb:VID:PID[:serial], tty:PATH, "
		 "tcp:HOST:PORT, rfc2217:HOST:PORT, auto, ref)", link);
	return HPM_E_ARG;
}

/* A positive number of milliseconds from the environment, else dflt. */
static unsigned env_ms(const char *name, unsigned dflt)
{
	const char *e = getenv(name);
	unsigned long v = e && *e ? strtoul(e, NULL, 10) : 0;
	return v > 0 && v <= UINT32_MAX ? (unsigned)v : dflt;
}

int hpm_open(hpm_board **out, const char *link, const hpm_open_opts *opts,
	     char *err, size_t errlen)
{
	char dummy[8];
	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	*out = NULL;
	err[0] = '\0';
	hpm_board *b = calloc(1, sizeof *b);
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return HPM_E_NOMEM;
	}
	if (opts)
		b->opts = *opts;
	if (b->opts.sim_path)
		snprintf(b->sim_path, sizeof b->sim_path, "%s", b->opts.sim_path);
	else
		hpm_find_path("HPM_SIM", "hpm-sim\0", "build/bin/hpm-sim", b->sim_path, sizeof b->sim_path);
	if (b->opts.ref_path)
		snprintf(b->ref_path, sizeof b->ref_path, "%s", b->opts.ref_path);
	else
		hpm_find_path("HPM_REF", "hpm-ref\0", "build/bin/hpm-ref", b->ref_path, sizeof b->ref_path);
	b->opts.sim_path = b->sim_path;
	b->opts.ref_path = b->ref_path;
	if (!b->opts.timeout_ms)
		b->opts.timeout_ms = env_ms("HPM_TIMEOUT_MS", 0);
	if (!b->opts.giveup_ms)
		b->opts.giveup_ms = env_ms("HPM_GIVEUP_MS", HPM_GIVEUP_MS);
	if (!b->opts.link_budget_ms)
		b->opts.link_budget_ms = env_ms("HPM_LINK_BUDGET_MS", HPM_LINK_BUDGET_MS);
	if (!b->opts.trace)
		b->opts.trace = getenv("HPM_LINK_TRACE") != NULL;
	hpm_decoder_init(&b->dec);

	if (!link || !strcmp(link, "auto")) {
		link = hpm_link_usb_present() ? "usb" : "sim";
		if (b->opts.verbose)
			fprintf(stderr, "hpmctl: link auto: %s\n",
				link[0] == 'u' ? "USB board found" : "no USB board, using the simulated board");
	}
	int rc = open_link(b, link, err, errlen);
	if (rc == HPM_OK) {
		snprintf(b->link_name, sizeof b->link_name, "%s", b->link->name);
		rc = handshake(b);
		if (rc)
			snprintf(err, errlen, "%s", b->err);
	}
	if (rc) {
		hpm_close(b);
		return rc;
	}
	*out = b;
	return HPM_OK;
}

void hpm_close(hpm_board *b)
{
	if (!b)
		return;
	if (b->link)
		b->link->ops->close(b->link);
	free(b);
}

int hpm_ping(hpm_board *b, const void *data, size_t len)
{
	uint8_t rep[HPM_MAX_BODY];
	size_t rlen;
	if (len > HPM_MAX_BODY)
		return hpm_fail(b, HPM_E_ARG, "ping: at most %u bytes", HPM_MAX_BODY);
	int rc = hpm_transact(b, HPM_T_PING, data, len, rep, &rlen);
	if (rc)
		return rc;
	if (rlen != len || (len && memcmp(rep, data, len)))
		return hpm_fail(b, HPM_E_PROTOCOL, "ping: reply differs from the request");
	return HPM_OK;
}

int hpm_csr_read(hpm_board *b, uint16_t csr, uint32_t *value)
{
	uint8_t req[HPM_CSR_READ_LEN], rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_csr_read r = { csr };
	struct hpm_msg_csr_value v;

	if (csr > 0xfff)
		return hpm_fail(b, HPM_E_ARG, "csr 0x%x: CSR numbers are 12 bits", csr);
	int rc = hpm_transact(b, HPM_T_CSR_READ, req, hpm_pack_csr_read(req, &r), rep, &rlen);
	if (rc == HPM_E_BOARD && b->err_code == HPM_ERR_CSR_TRAP)
		return hpm_fail(b, rc, "csr 0x%03x: no such CSR (the read trapped)", csr);
	if (rc)
		return rc;
	if (hpm_unpack_csr_value(rep, rlen, &v) != HPM_PROTO_OK || v.csr != csr)
		return hpm_fail(b, HPM_E_PROTOCOL, "csr: malformed reply");
	*value = v.value;
	return HPM_OK;
}

int hpm_csr_write(hpm_board *b, uint16_t csr, unsigned op, uint32_t value,
		  uint32_t *old_value, uint32_t *new_value)
{
	uint8_t req[HPM_CSR_WRITE_LEN], rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_csr_write w = { csr, (uint8_t)op, value };
	struct hpm_msg_csr_written r;

	if (csr > 0xfff || op > HPM_CSR_CLEAR)
		return hpm_fail(b, HPM_E_ARG, "csr write: bad CSR number or operation");
	int rc = hpm_transact(b, HPM_T_CSR_WRITE, req, hpm_pack_csr_write(req, &w), rep, &rlen);
	if (rc == HPM_E_BOARD && b->err_code == HPM_ERR_FORBIDDEN)
		return hpm_fail(b, rc, "csr 0x%03x: the monitor refuses this write (it owns that CSR)", csr);
	if (rc == HPM_E_BOARD && b->err_code == HPM_ERR_CSR_TRAP)
		return hpm_fail(b, rc, "csr 0x%03x: the write trapped (read-only or no such CSR)", csr);
	if (rc)
		return rc;
	if (hpm_unpack_csr_written(rep, rlen, &r) != HPM_PROTO_OK || r.csr != csr)
		return hpm_fail(b, HPM_E_PROTOCOL, "csr: malformed reply");
	if (old_value) *old_value = r.old_value;
	if (new_value) *new_value = r.new_value;
	return HPM_OK;
}

/* The size of the next MEM_READ/MEM_WRITE chunk: on a lossy link it halves
 * when an exchange needed 3 or more attempts and doubles after 3 clean ones
 * (docs/protocol.md section 2.1); a chunk above the minimum gets 3 attempts
 * before it is split. */
#define MEM_CHUNK_MIN 16u
static uint32_t mem_chunk(hpm_board *b, size_t len)
{
	uint32_t c = b->link && b->link->baud && b->mem_chunk ? b->mem_chunk : HPM_MEM_MAX_DATA;
	if (len < c)
		c = (uint32_t)len;
	/* only a chunk that can still be split gives up early */
	b->attempt_limit = b->link && b->link->baud && c > MEM_CHUNK_MIN ? 3 : 0;
	return c;
}

/* After an exchange of a chunk: 1 if it should be sent again smaller. */
static int mem_adapt(hpm_board *b, int rc, uint32_t chunk)
{
	b->attempt_limit = 0;
	if (!b->link || !b->link->baud)
		return 0;
	if (!b->mem_chunk)
		b->mem_chunk = HPM_MEM_MAX_DATA;
	if (rc == HPM_E_TIMEOUT && chunk > MEM_CHUNK_MIN) {
		b->mem_chunk = chunk / 2 < MEM_CHUNK_MIN ? MEM_CHUNK_MIN : chunk / 2;
		b->mem_clean = 0;
		return 1;
	}
	if (rc == HPM_OK && b->last_attempts > 2) {
		b->mem_chunk = chunk / 2 < MEM_CHUNK_MIN ? MEM_CHUNK_MIN : chunk / 2;
		b->mem_clean = 0;
	} else if (rc == HPM_OK && ++b->mem_clean >= 3 && b->mem_chunk < HPM_MEM_MAX_DATA) {
		b->mem_chunk = b->mem_chunk * 2 > HPM_MEM_MAX_DATA ? HPM_MEM_MAX_DATA : b->mem_chunk * 2;
		b->mem_clean = 0;
	}
	return 0;
}

int hpm_mem_read(hpm_board *b, uint32_t addr, void *buf, size_t len)
{
	uint8_t req[HPM_MEM_READ_LEN], rep[HPM_MAX_BODY];
	size_t rlen;

	while (len) {
		uint32_t chunk = mem_chunk(b, len);
		struct hpm_msg_mem_read r = { addr, chunk };
		int rc = hpm_transact(b, HPM_T_MEM_READ, req, hpm_pack_mem_read(req, &r), rep, &rlen);
		if (mem_adapt(b, rc, chunk))
			continue;
		if (rc == HPM_E_BOARD && b->err_code == HPM_ERR_BAD_ADDRESS)
			return hpm_fail(b, rc, "mem: 0x%08x..0x%08x is outside the board's RAM and firmware",
					addr, addr + chunk - 1);
		if (rc)
			return rc;
		if (rlen != HPM_MEM_HDR_LEN + chunk || hpm_get32(rep) != addr)
			return hpm_fail(b, HPM_E_PROTOCOL, "mem read: malformed reply");
		memcpy(buf, rep + HPM_MEM_HDR_LEN, chunk);
		buf = (uint8_t *)buf + chunk;
		addr += chunk;
		len -= chunk;
	}
	return HPM_OK;
}

int hpm_mem_write(hpm_board *b, uint32_t addr, const void *buf, size_t len)
{
	uint8_t req[HPM_MAX_BODY], rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_mem_written w;

	while (len) {
		uint32_t chunk = mem_chunk(b, len);
		hpm_put32(req, addr);
		memcpy(req + HPM_MEM_HDR_LEN, buf, chunk);
		int rc = hpm_transact(b, HPM_T_MEM_WRITE, req, HPM_MEM_HDR_LEN + chunk, rep, &rlen);
		if (mem_adapt(b, rc, chunk))
			continue;   /* a write of the same bytes again is harmless */
		if (rc == HPM_E_BOARD && b->err_code == HPM_ERR_BAD_ADDRESS)
			return hpm_fail(b, rc, "mem: 0x%08x..0x%08x is outside the workload RAM",
					addr, addr + chunk - 1);
		if (rc)
			return rc;
		if (hpm_unpack_mem_written(rep, rlen, &w) != HPM_PROTO_OK || w.addr != addr || w.len != chunk)
			return hpm_fail(b, HPM_E_PROTOCOL, "mem write: malformed reply");
		if (w.crc != hpm_crc32(0, buf, chunk))
			return hpm_fail(b, HPM_E_PROTOCOL,
					"mem write: read-back CRC of 0x%08x differs from what was sent", addr);
		buf = (const uint8_t *)buf + chunk;
		addr += chunk;
		len -= chunk;
	}
	return HPM_OK;
}

int hpm_reset(hpm_board *b)
{
	uint8_t req[HPM_RESET_LEN], rep[HPM_MAX_BODY];
	size_t rlen;
	hpm_put32(req, HPM_RESET_MAGIC);
	int rc = hpm_transact(b, HPM_T_RESET, req, sizeof req, rep, &rlen);
	if (rc)
		return rc;
	rc = hpm_wait_boot(b, 5000);
	if (rc)
		return rc;
	return handshake(b);
}
