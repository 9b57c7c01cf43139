/* Opening a board, the handshake, and one function per protocol command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hpm_int.h"
#include "hpm_events.h"

const char *hpm_strerror(int err)
{
	switch (err) {
	case HPM_OK:         return "success";
	case HPM_E_ARG:      return "invalid argument";
	case HPM_E_NOMEM:    return "out of memory";
	case HPM_E_LINK:     return "link failure";
	case HPM_E_TIMEOUT:  return "no reply from the board";
	case HPM_E_PROTOCOL: return "protocol error";
	case HPM_E_BOARD:    return "the board refused the request";
	case HPM_E_CONFIG:   return "board and host configurations differ";
	case HPM_E_ELF:      return "bad ELF file";
	case HPM_E_EVENT:    return "bad event";
	case HPM_E_NOTFOUND: return "not found";
	case HPM_E_RUN:      return "the workload did not exit cleanly";
	case HPM_E_MISMATCH: return "board and reference differ";
	case HPM_E_RESET:    return "the board restarted";
	case HPM_E_INTERRUPTED: return "interrupted";
	default:             return "unknown error";
	}
}

const char *hpm_errmsg(const hpm_board *b)
{
	return b ? b->err : "no board";
}

void hpm_interrupt(hpm_board *b)
{
	if (b)
		b->interrupt = 1;
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
		}
		if (hpm_link_spawn_open(ref ? HPM_LINK_REF : HPM_LINK_SIM,
					ref ? b->ref_path : b->sim_path, args, &b->link, err, errlen))
			return HPM_E_LINK;
		int rc = hpm_wait_boot(b, 30000);
		if (rc)
			snprintf(err, errlen, "%s", b->err);
		return rc;
	}
	if (!strncmp(link, "tty:", 4))
		return hpm_link_tty_open(link + 4, baud, &b->link, err, errlen) ? HPM_E_LINK : HPM_OK;
	if (!strncmp(link, "usb", 3) && (link[3] == '\0' || link[3] == ':'))
		return hpm_link_usb_open(link + 3, baud, &b->link, err, errlen) ? HPM_E_LINK : HPM_OK;
	snprintf(err, errlen, "unknown link '%s' (sim, usb, usb::SERIAL, usb:VID:PID[:serial], tty:PATH, auto, ref)", link);
	return HPM_E_ARG;
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
	if (!b->opts.timeout_ms && getenv("HPM_TIMEOUT_MS"))
		b->opts.timeout_ms = (unsigned)strtoul(getenv("HPM_TIMEOUT_MS"), NULL, 10);
	b->opts.ref_path = b->ref_path;
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

static void convert_snapshot(const hpm_board *b, const struct hpm_msg_snapshot *s, hpm_snapshot *o)
{
	memset(o, 0, sizeof *o);
	o->present = s->present;
	o->overflowed = s->overflowed;
	for (unsigned n = 0; n < HPM_NUM_VALUES; n++) {
		if (n < 3) {
			o->value[n] = s->value[n];
			continue;
		}
		o->wraps[n] = s->wraps[n - 3];
		o->value[n] = hpm_extend(&b->info, s->value[n], s->wraps[n - 3]);
		if (b->info.hpm_width < 8 && s->wraps[n - 3])
			o->untrusted |= 1u << n;
	}
}

int hpm_snapshot_read(hpm_board *b, hpm_snapshot *s)
{
	uint8_t rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_snapshot raw;
	int rc = hpm_transact(b, HPM_T_SNAPSHOT, NULL, 0, rep, &rlen);
	if (rc)
		return rc;
	if (hpm_unpack_snapshot(rep, rlen, &raw) != HPM_PROTO_OK)
		return hpm_fail(b, HPM_E_PROTOCOL, "snapshot: malformed reply");
	convert_snapshot(b, &raw, s);
	return HPM_OK;
}

static int stream_arm(hpm_board *b, uint64_t interval, uint32_t mask)
{
	uint8_t req[HPM_STREAM_LEN], rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_stream s = { interval, mask, 0 };
	if (!interval)
		return hpm_transact(b, HPM_T_STREAM_STOP, NULL, 0, rep, &rlen);
	if (interval < b->info.min_interval)
		return hpm_fail(b, HPM_E_ARG, "interval %llu cycles is below the board's minimum %u",
				(unsigned long long)interval, (unsigned)b->info.min_interval);
	return hpm_transact(b, HPM_T_STREAM, req, hpm_pack_stream(req, &s), rep, &rlen);
}

/* main's arguments for an SDK program (docs/monitor.md): the strings and
 * the argv[] array, NULL-terminated, at the top of the RAM; a0 = argc,
 * a1 = argv. crt0 puts the stack below them. */
static int write_args(hpm_board *b, const hpm_program *p, const hpm_run_opts *o,
		      uint32_t *a0, uint32_t *a1)
{
	uint8_t block[HPM_ARGS_MAX];
	const char *self[1] = { p->name };
	const char *const *argv = o->argc ? o->argv : self;
	unsigned argc = o->argc ? o->argc : 1;
	size_t strings = 0;

	for (unsigned i = 0; i < argc; i++) {
		if (!argv[i])
			return hpm_fail(b, HPM_E_ARG, "argv[%u] is NULL", i);
		strings += strlen(argv[i]) + 1;
	}
	size_t table = 4 * ((size_t)argc + 1);
	size_t size = (table + strings + 15) & ~(size_t)15;
	if (argc > HPM_ARGS_MAX / 4 || size > HPM_ARGS_MAX)
		return hpm_fail(b, HPM_E_ARG, "%s: the arguments take %zu bytes, at most %d fit",
				p->name, table + strings, HPM_ARGS_MAX);
	uint32_t top = b->info.ram_base + b->info.ram_size, base = top - (uint32_t)size;
	if (p->mem_end > base - HPM_ARGS_STACK_MIN)
		return hpm_fail(b, HPM_E_ARG, "%s: no room for the arguments above the program and its stack",
				p->name);
	memset(block, 0, size);
	uint32_t at = base + (uint32_t)table;
	for (unsigned i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;
		hpm_put32(block + 4 * i, at);
		memcpy(block + (at - base), argv[i], n);
		at += (uint32_t)n;
	}
	*a0 = argc;
	*a1 = base;
	return hpm_mem_write(b, base, block, size);
}

int hpm_startup_cost(hpm_board *b, const hpm_program *p, uint64_t *cycles, uint64_t *instret)
{
	uint8_t w[8];
	if (!p->startup)
		return hpm_fail(b, HPM_E_NOTFOUND, "%s: no start-up record (not built with hpm-cc)", p->name);
	int rc = hpm_mem_read(b, p->startup, w, sizeof w);
	if (rc)
		return rc;
	*cycles = hpm_get32(w);
	*instret = hpm_get32(w + 4);
	return HPM_OK;
}

/* One try of a run: upload, arguments, stream, RUN and its reply. */
static int run_once(hpm_board *b, const hpm_program *p, const hpm_run_opts *o,
		    const uint64_t *sel, unsigned nsel, struct hpm_msg_run_result *res)
{
	uint8_t req[HPM_MAX_BODY], rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_run run;

	/* upload every time: a run changes the program's data */
	for (size_t i = 0; i < p->nseg; i++) {
		int rc = hpm_mem_write(b, p->seg[i].addr, p->seg[i].data, p->seg[i].len);
		if (rc)
			return rc;
	}
	uint32_t a0 = o->a0, a1 = o->a1;
	if (p->sdk_args) {
		int rc = write_args(b, p, o, &a0, &a1);
		if (rc)
			return rc;
	}
	uint32_t mask = 0x5u | (((1u << nsel) - 1u) << 3);
	int rc = stream_arm(b, o->interval, mask);
	if (rc)
		return rc;

	memset(&run, 0, sizeof run);
	run.entry = p->entry;
	run.mode = (uint8_t)o->mode;
	run.n_events = (uint8_t)nsel;
	run.budget = o->budget ? o->budget : 1ull << 40;
	run.tohost = p->tohost;
	run.mcountinhibit = 0;
	run.mcounteren = 0xffffffffu;
	run.a0 = a0;
	run.a1 = a1;
	for (unsigned i = 0; i < nsel; i++) {
		run.mhpmevent[i] = sel[i];
		run.period[i] = o->period ? o->period[i] : 0;
		if (run.period[i])
			run.flags = HPM_RUN_PROFILE;
	}
	b->run_opts = o;
	b->next_record = b->records_seen = 0;
	b->next_sample_seq = 0;
	b->lost_samples = 0;
	b->aborting = 0;
	b->output_seen = 0;
	rc = hpm_transact(b, HPM_T_RUN, req, hpm_pack_run(req, &run), rep, &rlen);
	b->run_opts = NULL;
	if (rc)
		return rc;
	if (hpm_unpack_run_result(rep, rlen, res) != HPM_PROTO_OK)
		return hpm_fail(b, HPM_E_PROTOCOL, "run: malformed reply");
	if (o->interval && (rc = stream_arm(b, 0, 0)))
		return rc;
	return HPM_OK;
}

int hpm_run(hpm_board *b, const hpm_program *p, const hpm_run_opts *o,
	    const uint64_t *sel, unsigned nsel, hpm_run_result *r)
{
	static const hpm_run_opts defaults;
	struct hpm_msg_run_result res;

	if (!o)
		o = &defaults;
	if (nsel > b->info.hpm_num)
		return hpm_fail(b, HPM_E_ARG, "%u selectors, but the board has %u counters",
				nsel, b->info.hpm_num);
	if (o->mode != HPM_MODE_USER && o->mode != HPM_MODE_SUPERVISOR && o->mode != HPM_MODE_MACHINE)
		return hpm_fail(b, HPM_E_ARG, "bad privilege mode %d", (int)o->mode);
	for (size_t i = 0; i < p->nseg; i++) {
		const struct hpm_segment *s = &p->seg[i];
		if (s->addr < b->info.ram_base || s->addr - b->info.ram_base > b->info.ram_size ||
		    s->len > b->info.ram_size - (s->addr - b->info.ram_base))
			return hpm_fail(b, HPM_E_ELF, "%s: segment 0x%08x+0x%x does not fit the board's RAM (0x%08x+0x%x)",
					p->name, s->addr, s->len, b->info.ram_base, b->info.ram_size);
	}
	if (p->mem_end && p->mem_end - b->info.ram_base > b->info.ram_size)
		return hpm_fail(b, HPM_E_ELF, "%s: too big: it needs %u bytes of RAM (.bss included), the board has %u",
				p->name, p->mem_end - b->info.ram_base, b->info.ram_size);
	if (o->argc && !p->sdk_args)
		return hpm_fail(b, HPM_E_ARG, "%s: takes no arguments (only programs built with hpm-cc do)",
				p->name);
	for (unsigned i = 0; o->period && i < nsel; i++) {
		uint64_t per = o->period[i];
		if (per && b->info.fw_version < HPM_FW_SAMPLING)
			return hpm_fail(b, HPM_E_CONFIG, "the board's monitor (firmware %u.%u) cannot sample: it needs firmware 1.1 (make prog)",
					b->info.fw_version >> 8, b->info.fw_version & 0xff);
		if (HPM_RUN_PROFILE_LEN(nsel) > HPM_MAX_BODY)
			return hpm_fail(b, HPM_E_ARG, "a sampling run takes at most %u counters (the RUN request's size), not %u",
					(HPM_MAX_BODY - HPM_RUN_HDR_LEN) / 16, nsel);
		if (per && (per < HPM_MIN_PERIOD ||
			    (b->info.hpm_width < 64 && per > 1ull << b->info.hpm_width)))
			return hpm_fail(b, HPM_E_ARG, "sampling period %llu: it must be at least %u and at most 2^%u (the counters' width)",
					(unsigned long long)per, HPM_MIN_PERIOD, b->info.hpm_width);
	}
	/* On a lossy link an ABORT the host never sent is a byte damaged on
	 * the way, read at a tick: the run is deterministic, so it runs again
	 * from a fresh upload (samples, records and output of the first try
	 * are merged like a repeat's), while the session's error budget lasts. */
	b->output_printed = 0;
	for (;;) {
		int64_t t0 = hpm_now_ms();
		int rc = run_once(b, p, o, sel, nsel, &res);
		if (rc)
			return rc;
		if (res.reason != HPM_EXIT_ABORTED || b->aborting || !b->link->baud || hpm_budget_spent(b))
			break;
		b->lost_ms += hpm_now_ms() - t0;
		b->noise_aborts++;
		if (b->output_seen > b->output_printed)
			b->output_printed = b->output_seen;
		if (getenv("HPM_LINK_TRACE"))
			fprintf(stderr, "link-trace: %s: the run was aborted by noise on the link: it runs again\n",
				p->name);
	}
	memset(r, 0, sizeof *r);
	r->reason = (enum hpm_exit_reason)res.reason;
	r->priv = res.priv;
	r->code = res.code;
	r->mcause = res.mcause;
	r->mepc = res.mepc;
	r->mtval = res.mtval;
	r->ticks = res.ticks;
	r->samples = res.samples;
	r->lost_samples = b->lost_samples + (res.samples > b->next_sample_seq ?
					     res.samples - b->next_sample_seq : 0);
	r->elapsed = res.elapsed;
	r->records = res.records;
	if (b->records_seen > res.records)
		return hpm_fail(b, HPM_E_PROTOCOL, "run: %u profile and region frames for %u records (duplicated frames)",
				(unsigned)b->records_seen, (unsigned)res.records);
	r->lost_records = res.records - b->records_seen;
	convert_snapshot(b, &res.snap, &r->snap);
	return HPM_OK;
}
