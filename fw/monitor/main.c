/* The firmware monitor: serves the link protocol (docs/protocol.md) over the
 * UART and runs uploaded workloads with exact counter windows.
 *
 * Single-threaded and polled: the main loop takes frames from the link
 * (link.c) and executes one request at a time. The monitor never enables
 * interrupts for itself; a workload reaches it only through trap_vector
 * (entry.S). State that a RESET must clear lives in .bss (crt0 zeroes it).
 */
#include <stdint.h>
#include "hpm_soc.h"
#include "hpm_proto.h"
#include "hpm_events.h"
#include "monitor.h"

#define FW_VERSION 0x0106u           /* 1.1: sampling, region markers, write call; 1.2: FETCH; 1.3: RUN flag TWICE; 1.4: protocol 2, the monitor's checksum; 1.5: sample times, RUN flag STACK; 1.6: the top-down unit's level 1 emulated on the iCE40 board */
#define MIN_INTERVAL 1000u           /* cycles; a sample takes longer to send */

static uint8_t reply[HPM_MAX_BODY];  /* the reply cache (section 2) */
static uint16_t reply_len;
static uint8_t reply_type, reply_seq;   /* reply_type 0: no reply cached */
static struct hpm_frame req;         /* the request being served */

/* ---- replies (to req) ---- */

static void reply_send(uint8_t type, size_t len)
{
	reply_type = type;
	reply_seq = req.seq;
	reply_len = (uint16_t)len;
	send_frame(type, req.seq, reply, len);
}

static void reply_ok(size_t len)
{
	reply_send(req.type | HPM_T_REPLY, len);
}

static void reply_error(uint8_t code, uint32_t arg)
{
	struct hpm_msg_error e = { .code = code, .req_type = req.type, .arg = arg };
	reply_send(HPM_T_ERROR, hpm_pack_error(reply, &e));
}

/* ---- commands ---- */

static int range_ok(uint32_t addr, uint32_t len, uint32_t base, uint32_t size)
{
	return addr >= base && addr - base <= size && len <= size - (addr - base);
}

static void cmd_hello(void)
{
	struct hpm_msg_hello h;
	if (hpm_unpack_hello(req.body, req.len, &h) != HPM_PROTO_OK) {
		reply_error(HPM_ERR_BAD_LENGTH, HPM_HELLO_LEN);
		return;
	}
	if (h.ver_min > HPM_PROTO_VERSION || h.ver_max < HPM_PROTO_VERSION) {
		reply_error(HPM_ERR_BAD_VERSION, HPM_PROTO_VERSION);
		return;
	}
	struct hpm_msg_info in = {
		.proto_version = HPM_PROTO_VERSION, .fw_version = FW_VERSION,
		.mvendorid = csr_read(CSR_MVENDORID), .marchid = csr_read(CSR_MARCHID),
		.mimpid = csr_read(CSR_MIMPID), .misa = csr_read(CSR_MISA),
		.hpm_num = board.hpm_num, .hpm_width = board.hpm_width,
		.max_body = HPM_MAX_BODY, .clock_hz = board.clock_hz,
		.uart_baud = board.clock_hz / UART_DIV,
		.event_hash = HPM_EVENT_CATALOGUE_HASH,
		.ram_base = HPM_RAM_BASE, .ram_size = WL_RAM_SIZE,
		.min_interval = MIN_INTERVAL, .features = 0,
		.monitor_sum = monitor_sum(),
	};
	reply_send(HPM_T_INFO, hpm_pack_info(reply, &in));
}

static void cmd_csr_read(void)
{
	struct hpm_msg_csr_read r;
	struct hpm_msg_csr_value v;
	if (hpm_unpack_csr_read(req.body, req.len, &r) != HPM_PROTO_OK) {
		reply_error(HPM_ERR_BAD_LENGTH, HPM_CSR_READ_LEN);
		return;
	}
	if (r.csr > 0xfffu) {     /* 12 bits: 0x1305 must not become mtvec */
		reply_error(HPM_ERR_BAD_ARG, 0);
		return;
	}
	if (td_emulate(r.csr, &v.value) < 0 && csr_access(CSR_OP_READ, r.csr, 0, &v.value) < 0) {
		reply_error(HPM_ERR_CSR_TRAP, r.csr);
		return;
	}
	v.csr = r.csr;
	reply_ok(hpm_pack_csr_value(reply, &v));
}

static void cmd_csr_write(void)
{
	static const uint8_t funct3[] = { CSR_OP_WRITE, CSR_OP_SET, CSR_OP_CLEAR };
	struct hpm_msg_csr_write w;
	struct hpm_msg_csr_written r;
	uint32_t after;

	if (hpm_unpack_csr_write(req.body, req.len, &w) != HPM_PROTO_OK) {
		reply_error(HPM_ERR_BAD_LENGTH, HPM_CSR_WRITE_LEN);
		return;
	}
	if (w.csr > 0xfffu || w.op > HPM_CSR_CLEAR) {   /* arg: the field's offset */
		reply_error(HPM_ERR_BAD_ARG, w.csr > 0xfffu ? 0 : 2);
		return;
	}
	if (csr_access(CSR_OP_READ, w.csr, 0, &r.old_value) < 0) {
		reply_error(HPM_ERR_CSR_TRAP, w.csr);
		return;
	}
	after = w.op == HPM_CSR_WRITE ? w.value :
		w.op == HPM_CSR_SET ? r.old_value | w.value : r.old_value & ~w.value;
	if (hpm_csr_write_forbidden(w.csr, r.old_value, after)) {
		reply_error(HPM_ERR_FORBIDDEN, w.csr);
		return;
	}
	if (csr_access(funct3[w.op], w.csr, w.value, &r.old_value) < 0) {
		reply_error(HPM_ERR_CSR_TRAP, w.csr);
		return;
	}
	csr_access(CSR_OP_READ, w.csr, 0, &r.new_value);
	counter_written(w.csr);
	r.csr = w.csr;
	reply_ok(hpm_pack_csr_written(reply, &r));
}

static void cmd_mem_read(void)
{
	struct hpm_msg_mem_read r;
	if (hpm_unpack_mem_read(req.body, req.len, &r) != HPM_PROTO_OK) {
		reply_error(HPM_ERR_BAD_LENGTH, HPM_MEM_READ_LEN);
		return;
	}
	if (r.len < 1 || r.len > HPM_MEM_MAX_DATA) {
		reply_error(HPM_ERR_BAD_ARG, 4);
		return;
	}
	if (!range_ok(r.addr, r.len, HPM_RAM_BASE, WL_RAM_SIZE) &&
	    !range_ok(r.addr, r.len, HPM_FW_BASE, HPM_FW_SIZE)) {
		reply_error(HPM_ERR_BAD_ADDRESS, r.addr);
		return;
	}
	hpm_put32(reply, r.addr);
	const volatile uint8_t *src = (const volatile uint8_t *)(uintptr_t)r.addr;
	for (uint32_t i = 0; i < r.len; i++)
		reply[HPM_MEM_HDR_LEN + i] = src[i];
	reply_ok(HPM_MEM_HDR_LEN + r.len);
}

static void cmd_mem_write(void)
{
	struct hpm_msg_mem_written w;
	if (req.len <= HPM_MEM_HDR_LEN) {
		reply_error(HPM_ERR_BAD_LENGTH, 0);
		return;
	}
	w.addr = hpm_get32(req.body);
	w.len = req.len - HPM_MEM_HDR_LEN;
	if (!range_ok(w.addr, w.len, HPM_RAM_BASE, WL_RAM_SIZE)) {
		reply_error(HPM_ERR_BAD_ADDRESS, w.addr);
		return;
	}
	volatile uint8_t *dst = (volatile uint8_t *)(uintptr_t)w.addr;
	for (uint32_t i = 0; i < w.len; i++)
		dst[i] = req.body[HPM_MEM_HDR_LEN + i];
	w.crc = hpm_crc32(0, (const void *)(uintptr_t)w.addr, w.len);
	reply_ok(hpm_pack_mem_written(reply, &w));
}

static void cmd_snapshot(void)
{
	struct hpm_msg_snapshot s;
	if (req.len) {
		reply_error(HPM_ERR_BAD_LENGTH, 0);
		return;
	}
	take_snapshot(&s);
	reply_ok(hpm_pack_snapshot(reply, &s));
}

static void cmd_stream(void)
{
	struct hpm_msg_stream s;
	if (req.type == HPM_T_STREAM_STOP) {
		if (req.len) {
			reply_error(HPM_ERR_BAD_LENGTH, 0);
			return;
		}
		stream.armed = 0;
		reply_ok(0);
		return;
	}
	if (hpm_unpack_stream(req.body, req.len, &s) != HPM_PROTO_OK) {
		reply_error(HPM_ERR_BAD_LENGTH, HPM_STREAM_LEN);
		return;
	}
	if (s.interval < MIN_INTERVAL) {
		reply_error(HPM_ERR_BAD_ARG, 0);
		return;
	}
	if (!s.mask || (s.mask & ~board.present)) {
		reply_error(HPM_ERR_BAD_ARG, 8);
		return;
	}
	if (s.flags & ~HPM_STREAM_SILENT) {
		reply_error(HPM_ERR_BAD_ARG, 12);
		return;
	}
	stream.armed = 1;
	stream.interval = s.interval;
	stream.mask = s.mask;
	stream.silent = s.flags & HPM_STREAM_SILENT;
	reply_ok(0);
}

static void cmd_reset(void)
{
	if (req.len != HPM_RESET_LEN) {
		reply_error(HPM_ERR_BAD_LENGTH, HPM_RESET_LEN);
		return;
	}
	if (hpm_get32(req.body) != HPM_RESET_MAGIC) {
		reply_error(HPM_ERR_BAD_ARG, 0);
		return;
	}
	reply_ok(0);
	uart_flush();
	__asm__ volatile("j _start");
	__builtin_unreachable();
}

static void dispatch(void)
{
	/* FETCH (body: u8 seq, u8 off / 4, u8 len) sends a slice of the cached
	 * reply with FETCH's own seq, empty if seq is not the cached one; it is
	 * never cached. A retransmission sends the whole cached reply. */
	uint32_t off = 0, n = reply_len;
	if (req.type == HPM_T_FETCH) {
		off = (uint32_t)req.body[1] << 2;
		n = req.body[2];
		if (off > reply_len || req.body[0] != reply_seq)
			off = reply_len;
	} else if (req.type == HPM_T_HELLO || !reply_type || req.seq != reply_seq) {
		goto execute;
	}
	send_frame(reply_type, req.seq, reply + off, n < reply_len - off ? n : reply_len - off);
	return;
execute:
	switch (req.type) {
	case HPM_T_HELLO:       cmd_hello(); break;
	case HPM_T_PING:
		for (unsigned i = 0; i < req.len; i++)
			reply[i] = req.body[i];
		reply_ok(req.len);
		break;
	case HPM_T_CSR_READ:    cmd_csr_read(); break;
	case HPM_T_CSR_WRITE:   cmd_csr_write(); break;
	case HPM_T_MEM_READ:    cmd_mem_read(); break;
	case HPM_T_MEM_WRITE:   cmd_mem_write(); break;
	case HPM_T_RUN: {
		uint32_t err_arg;
		int err = run_workload(&req, reply, &err_arg);
		if (err)
			reply_error((uint8_t)err, err_arg);
		else
			reply_ok(HPM_RUN_RESULT_LEN);
		break;
	}
	case HPM_T_SNAPSHOT:    cmd_snapshot(); break;
	case HPM_T_STREAM:
	case HPM_T_STREAM_STOP: cmd_stream(); break;
	case HPM_T_RESET:       cmd_reset(); break;
	default:
		reply_error(HPM_ERR_UNKNOWN_CMD, req.type);
		break;
	}
}

int main(void)
{
	/* BOOT's body (protocol 5.8) is a constant: sent as it is, not packed */
	static const uint8_t boot[HPM_BOOT_LEN] = {
		HPM_PROTO_VERSION & 0xff, HPM_PROTO_VERSION >> 8, FW_VERSION & 0xff, FW_VERSION >> 8,
	};

	hpm_init();
	link_init();
	send_frame(HPM_T_BOOT, 0, boot, HPM_BOOT_LEN);
	for (;;) {
		int st = link_receive(&req);
		if (st == HPM_PROTO_FRAME) {
			dispatch();
		} else if (st == HPM_PROTO_E_BAD_CRC) {
			send_error(req.seq, HPM_ERR_BAD_CRC, req.type);
		}
	}
}
