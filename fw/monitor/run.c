/* RUN: set up the counters, run the workload between the documented resume
 * and entry sequences, serve ticks (samples, budget, abort, wraps) and build
 * the result (docs/protocol.md section 6). */
#include "hpm_soc.h"
#include "monitor.h"

#define MIE_MTIE          MIP_MTIP
#define MIE_LCOFIE        MIP_LCOFIP
#define MINH_HI           ((uint32_t)(MHPMEVENT_MINH >> 32))  /* in the high half */
#define CFG_HI_MASK       CSR_MCYCLECFGH_WMASK                /* bits 62..60 */
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

/* A SAMPLE-layout frame: word (the sample number, or a region marker's a0),
 * mask, the counters of mask and their wrap counts. */
static void send_values(uint8_t type, uint8_t seq, uint32_t word, uint32_t mask)
{
	uint8_t body[HPM_MAX_BODY];

	live.sample_seq = word;
	live.mask = mask;
	read_counters(mask, live.value);
	send_record(type, seq, body, hpm_pack_sample(body, &live));
}

static void program_counters(const struct hpm_msg_run *r)
{
	uint32_t minh = r->mode == HPM_MODE_M ? 0 : MINH_HI;

	for (unsigned n = 3; n < HPM_NCOUNTERS; n++)
		live.wraps[n] = 0;
	final_of = 0;
	for (unsigned i = 0; i < board.hpm_num; i++) {
		uint64_t sel = i < r->n_events ? r->mhpmevent[i] : 0;
		csr_access(CSR_OP_WRITE, CSR_MHPMEVENT3 + i, (uint32_t)sel, 0);
		csr_access(CSR_OP_WRITE, CSR_MHPMEVENT3H + i,
			   ((uint32_t)(sel >> 32) & ~(1u << 31)) | minh, 0);
		write_counter(3 + i, -r->period[i]);
	}
	csr_write(CSR_MCYCLECFGH, ((uint32_t)(r->mcyclecfg >> 32) & CFG_HI_MASK) | minh);
	csr_write(CSR_MINSTRETCFGH, ((uint32_t)(r->minstretcfg >> 32) & CFG_HI_MASK) | minh);
	csr_write(mcycle, 0);
	csr_write(mcycleh, 0);
	csr_write(minstret, 0);
	csr_write(minstreth, 0);
	csr_clear(mip, 1u << 13);
	td_run_start();
}

static int check_run(const struct hpm_frame *f, struct hpm_msg_run *r, uint32_t *arg)
{
	if (hpm_unpack_run(f->body, f->len, r) != HPM_PROTO_OK) {
		*arg = f->len > 6 ? HPM_RUN_HDR_LEN + (8u << (f->body[5] & HPM_RUN_PROFILE)) * f->body[6] : 0;
		return HPM_ERR_BAD_LENGTH;
	}
	*arg = 4;
	if (r->mode != HPM_MODE_U && r->mode != HPM_MODE_S && r->mode != HPM_MODE_M)
		return HPM_ERR_BAD_ARG;
	*arg = 5;
	if (r->flags & ~(HPM_RUN_PROFILE | HPM_RUN_TWICE | HPM_RUN_STACK))
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
	struct hpm_msg_run r;
	struct hpm_msg_run_result res;
	int err = check_run(f, &r, arg);
	uint64_t remaining = r.budget, next_sample = stream.interval;
	uint32_t sample_seq = 0, mcause;
	const int sampling = stream.armed;

	if (err)
		return err;
	run_flags = r.flags;
	res.code = res.ticks = 0;
	res.elapsed = 0;
	records = 0;
	program_counters(&r);
	for (unsigned i = 0; i < 32; i++)
		wl_regs[i] = 0;
	wl_regs[REG_A0] = r.a0;
	wl_regs[REG_A1] = r.a1;
	csr_write(mepc, r.entry);
	csr_clear(mstatus, MSTATUS_MPP);
	csr_set(mstatus, (uint32_t)r.mode << MSTATUS_MPP_SHIFT | MSTATUS_MPIE);
	csr_write(medeleg, r.medeleg);
	csr_write(mideleg, r.mideleg);
	csr_write(mcounteren, r.mcounteren);
	/* a U-mode read needs both enables; an S-mode workload sets its own */
	csr_write(scounteren, r.mode == HPM_MODE_U ? r.mcounteren : 0);
	csr_write(mie, MIE_MTIE | MIE_LCOFIE);

	for (;;) {
		uint64_t slice = remaining, t0, t1;
		/* An LCOFI tick's entry can already be past the next sample
		 * (elapsed counts up to the mtime read after the entry): the
		 * sample is then due at once, an immediate timer tick. */
		if (sampling) {
			int64_t due = (int64_t)(next_sample - res.elapsed);
			if (due < 0)
				due = 0;
			if ((uint64_t)due < slice)
				slice = (uint64_t)due;
		}
		t0 = hpm_mtime64();
		set_timer(t0 + slice);
		enter_workload(r.mcountinhibit);
		t1 = hpm_mtime64();
		res.elapsed += t1 - t0;
		remaining = t1 - t0 >= remaining ? 0 : remaining - (t1 - t0);
		mcause = csr_read(mcause);
		td_widen();
		final_of |= account_wraps(r.period, f->seq);

		if (!(mcause & CAUSE_INTERRUPT)) {
			int ecall = mcause == CAUSE_ECALL_U || mcause == CAUSE_ECALL_S ||
				    mcause == CAUSE_ECALL_M;
			if (ecall && wl_regs[REG_A7] == HPM_ECALL_EXIT) {
				res.reason = HPM_EXIT_ECALL;
				res.code = wl_regs[REG_A0];
				break;
			}
			uint32_t a7 = wl_regs[REG_A7];
			if (ecall && a7 == HPM_ECALL_REGION) {
				records++;
				send_values(HPM_T_REGION, f->seq, wl_regs[REG_A0],
					    5u | ((1u << r.n_events) - 1u) << 3);
			} else if (ecall && a7 == HPM_ECALL_WRITE) {
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
			} else if (mcause == CAUSE_ILLEGAL_INSN && td_trap()) {
				/* a read of the top-down unit's CSRs, emulated */
			} else if (!ecall || a7) {
				res.reason = tohost_set(r.tohost, &res.code) ? HPM_EXIT_TOHOST : HPM_EXIT_TRAP;
				break;
			}
			/* a region marker, write or the null system call: resume after it */
			csr_write(mepc, csr_read(mepc) + 4u);
			continue;
		}
		mcause &= ~CAUSE_INTERRUPT;
		if (mcause == IRQ_M_TIMER) {
			if (sampling && res.elapsed >= next_sample) {
				if (!stream.silent)
					send_values(HPM_T_SAMPLE, f->seq, sample_seq++, stream.mask);
				while (next_sample <= res.elapsed)
					next_sample += stream.interval;
			}
			if (tohost_set(r.tohost, &res.code)) {
				res.reason = HPM_EXIT_TOHOST;
				break;
			}
			int c = sampling ? link_byte() : -1;
			if (c >= 0) {
				if (c == HPM_ABORT_BYTE) {
					res.reason = HPM_EXIT_ABORTED;
					break;
				}
				send_error(f->seq, HPM_ERR_BUSY, 0);
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
	res.priv = (uint8_t)((csr_read(mstatus) & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
	res.mcause = csr_read(mcause);
	res.mepc = csr_read(mepc);
	res.mtval = csr_read(mtval);
	res.samples = sample_seq;
	res.records = records;
	take_snapshot(&res.snap);
	res.monitor_sum = monitor_sum();
	hpm_pack_run_result(out, &res);
	return 0;
}
