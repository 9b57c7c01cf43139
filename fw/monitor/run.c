/* RUN: set up the counters, run the workload between the documented resume
 * and entry sequences, serve ticks (samples, budget, abort, wraps) and build
 * the result (docs/protocol.md section 6). */
#include "hpm_soc.h"
#include "monitor.h"

#define MSTATUS_MPP_SHIFT 11
#define MSTATUS_MPP_MASK  (3u << MSTATUS_MPP_SHIFT)
#define MIE_MTIE          MIP_MTIP
#define MIE_LCOFIE        MIP_LCOFIP
#define MINH_HI           (1u << 30)     /* bit 62 in the high half */
#define CFG_HI_MASK       (7u << 28)     /* bits 62..60 */
#define REG_A0 10
#define REG_A1 11
#define REG_A2 12
#define REG_A7 17

struct stream_cfg stream;

static int in_ram(uint32_t addr)
{
	return addr - HPM_RAM_BASE < WL_RAM_SIZE && !(addr & 3u);
}

static void set_timer(uint64_t when)
{
	CLINT_MTIMECMPH = 0xffffffffu;
	CLINT_MTIMECMP = (uint32_t)when;
	CLINT_MTIMECMPH = (uint32_t)(when >> 32);
}

static int tohost_set(uint32_t tohost, uint32_t *code)
{
	if (!tohost)
		return 0;
	*code = *(volatile uint32_t *)(uintptr_t)tohost;
	return *code != 0;
}

static void send_sample(uint8_t seq, uint32_t sample_seq)
{
	struct hpm_sample s;
	uint8_t body[HPM_MAX_BODY];

	s.sample_seq = sample_seq;
	s.mask = stream.mask;
	read_counters(stream.mask, s.value);
	for (unsigned n = 3; n < HPM_NCOUNTERS; n++)
		s.wraps[n] = wraps[n];
	send_frame(HPM_T_SAMPLE, seq, body, hpm_pack_sample(body, &s));
}

static void program_counters(const struct hpm_run *r)
{
	uint32_t minh = r->mode == HPM_MODE_M ? 0 : MINH_HI;

	for (unsigned n = 3; n < HPM_NCOUNTERS; n++)
		wraps[n] = 0;
	final_of = 0;
	for (unsigned i = 0; i < board.hpm_num; i++) {
		uint64_t sel = i < r->n_events ? r->mhpmevent[i] : 0;
		csr_access(CSR_OP_WRITE, (uint16_t)(0x323u + i), (uint32_t)sel, 0);
		csr_access(CSR_OP_WRITE, (uint16_t)(0x723u + i),
			   ((uint32_t)(sel >> 32) & ~(1u << 31)) | minh, 0);
		csr_access(CSR_OP_WRITE, (uint16_t)(0xb03u + i), 0, 0);
		csr_access(CSR_OP_WRITE, (uint16_t)(0xb83u + i), 0, 0);
	}
	csr_write(0x721, ((uint32_t)(r->mcyclecfg >> 32) & CFG_HI_MASK) | minh);
	csr_write(0x722, ((uint32_t)(r->minstretcfg >> 32) & CFG_HI_MASK) | minh);
	csr_write(mcycle, 0);
	csr_write(mcycleh, 0);
	csr_write(minstret, 0);
	csr_write(minstreth, 0);
	csr_clear(mip, 1u << 13);
}

static int check_run(const struct hpm_frame *f, struct hpm_run *r, uint32_t *arg)
{
	if (hpm_unpack_run(f->body, f->len, r) != HPM_PROTO_OK) {
		*arg = f->len > 6 && f->body[6] <= HPM_NHPM ? HPM_RUN_LEN(f->body[6]) : 0;
		return HPM_ERR_BAD_LENGTH;
	}
	*arg = 4;
	if (r->mode != HPM_MODE_U && r->mode != HPM_MODE_S && r->mode != HPM_MODE_M)
		return HPM_ERR_BAD_ARG;
	*arg = 5;
	if (r->flags)
		return HPM_ERR_BAD_ARG;
	*arg = 6;
	if (r->n_events > board.hpm_num)
		return HPM_ERR_BAD_ARG;
	*arg = 8;
	if (!r->budget)
		return HPM_ERR_BAD_ARG;
	*arg = 32;
	if (r->mideleg & (1u << 13))
		return HPM_ERR_BAD_ARG;
	*arg = r->entry;
	if (!in_ram(r->entry))
		return HPM_ERR_BAD_ADDRESS;
	*arg = r->tohost;
	if (r->tohost && !in_ram(r->tohost))
		return HPM_ERR_BAD_ADDRESS;
	return 0;
}

int run_workload(const struct hpm_frame *f, uint8_t *out, uint32_t *arg)
{
	struct hpm_run r;
	struct hpm_run_result res = { 0 };
	int err = check_run(f, &r, arg);
	uint64_t remaining = r.budget, next_sample = stream.interval;
	uint32_t sample_seq = 0, mcause;
	int sampling = stream.armed;

	if (err)
		return err;
	program_counters(&r);
	for (unsigned i = 0; i < 32; i++)
		wl_regs[i] = 0;
	wl_regs[REG_A0] = r.a0;
	wl_regs[REG_A1] = r.a1;
	csr_write(mepc, r.entry);
	csr_clear(mstatus, MSTATUS_MPP_MASK);
	csr_set(mstatus, (uint32_t)r.mode << MSTATUS_MPP_SHIFT | MSTATUS_MPIE);
	csr_write(medeleg, r.medeleg);
	csr_write(mideleg, r.mideleg);
	csr_write(mcounteren, r.mcounteren);
	/* a U-mode read needs both enables; an S-mode workload sets its own */
	csr_write(scounteren, r.mode == HPM_MODE_U ? r.mcounteren : 0);
	csr_write(mie, MIE_MTIE | MIE_LCOFIE);

	for (;;) {
		uint64_t slice = remaining, t0, t1;
		if (sampling && next_sample - res.elapsed < slice)
			slice = next_sample - res.elapsed;
		t0 = hpm_mtime64();
		set_timer(t0 + slice);
		enter_workload(r.mcountinhibit);
		t1 = hpm_mtime64();
		res.elapsed += t1 - t0;
		remaining = t1 - t0 >= remaining ? 0 : remaining - (t1 - t0);
		mcause = csr_read(mcause);
		final_of |= account_wraps();

		if (!(mcause & CAUSE_INTERRUPT)) {
			int ecall = mcause == CAUSE_ECALL_U || mcause == CAUSE_ECALL_S ||
				    mcause == CAUSE_ECALL_M;
			if (ecall && wl_regs[REG_A7] == HPM_ECALL_EXIT) {
				res.reason = HPM_EXIT_ECALL;
				res.code = wl_regs[REG_A0];
				break;
			}
			if (ecall && wl_regs[REG_A7] == HPM_ECALL_WRITE) {
				/* write(fd 1|2, buf, len): one OUTPUT frame of up
				 * to HPM_MAX_BODY bytes; a0 = bytes sent, or -1 */
				uint32_t fd = wl_regs[REG_A0], buf = wl_regs[REG_A1];
				uint32_t len = wl_regs[REG_A2];
				if (len > HPM_MAX_BODY)
					len = HPM_MAX_BODY;
				if ((fd == 1 || fd == 2) && buf - HPM_RAM_BASE <= WL_RAM_SIZE - len) {
					send_frame((uint8_t)(HPM_T_OUTPUT + fd - 1), f->seq,
						   (const void *)(uintptr_t)buf, len);
					wl_regs[REG_A0] = len;
				} else {
					wl_regs[REG_A0] = ~0u;
				}
			}
			if (ecall && (wl_regs[REG_A7] == 0 || wl_regs[REG_A7] == HPM_ECALL_WRITE)) {
				/* null system call (and write): resume after it */
				csr_write(mepc, csr_read(mepc) + 4u);
				continue;
			}
			res.reason = tohost_set(r.tohost, &res.code) ? HPM_EXIT_TOHOST : HPM_EXIT_TRAP;
			break;
		}
		mcause &= ~CAUSE_INTERRUPT;
		if (mcause == IRQ_M_TIMER) {
			if (sampling && res.elapsed >= next_sample) {
				if (!stream.silent)
					send_sample(f->seq, sample_seq++);
				while (next_sample <= res.elapsed)
					next_sample += stream.interval;
			}
			if (tohost_set(r.tohost, &res.code)) {
				res.reason = HPM_EXIT_TOHOST;
				break;
			}
			if (sampling && (UART_STATUS & UART_STATUS_RX_VALID)) {
				uint8_t c = (uint8_t)UART_DATA;
				if (c == HPM_ABORT_BYTE) {
					res.reason = HPM_EXIT_ABORTED;
					break;
				}
				if (c == HPM_STOP_STREAM_BYTE) {
					sampling = 0;
				} else {
					struct hpm_error e = { HPM_ERR_BUSY, 0, 0 };
					uint8_t eb[HPM_ERROR_LEN];
					send_frame(HPM_T_ERROR, f->seq, eb, hpm_pack_error(eb, &e));
				}
			}
			if (!remaining) {
				res.reason = HPM_EXIT_BUDGET;
				break;
			}
			res.ticks++;
			continue;
		}
		if (tohost_set(r.tohost, &res.code)) {
			res.reason = HPM_EXIT_TOHOST;
			break;
		}
		if (mcause == IRQ_LCOF) {
			res.ticks++;
			continue;
		}
		res.reason = HPM_EXIT_TRAP;
		break;
	}

	set_timer(~0ull);
	csr_write(mie, 0);
	csr_write(medeleg, 0);
	csr_write(mideleg, 0);
	res.priv = (uint8_t)((csr_read(mstatus) & MSTATUS_MPP_MASK) >> MSTATUS_MPP_SHIFT);
	res.mcause = csr_read(mcause);
	res.mepc = csr_read(mepc);
	res.mtval = csr_read(mtval);
	res.samples = sample_seq;
	take_snapshot(&res.snap);
	hpm_pack_run_result(out, &res);
	return 0;
}
