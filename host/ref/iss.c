/* iss.c: decode and execute RV32IM + Zicsr + Zifencei, with the core's timing
 * (docs/timing.md): each step takes the instruction entering X in cycle
 * m->cycle, computes its occupancy and redirect bubble, and fills a retire
 * record whose cycle is the instruction's last X cycle. */
#include "hpmref_int.h"

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Fetches the word at pc in the current mode; returns 0 or -1 (instruction
 * access fault: no executable region, or M-only below M with mguard set). */
static inline int fetch(const hpmref *m, uint32_t pc, uint32_t *insn)
{
	if (UNLIKELY(m->mguard) && m->priv != PRV_M && HPM_MONLY(pc))
		return -1;
	if (LIKELY(pc - HPM_RAM_BASE < HPM_RAM_SIZE)) {
		*insn = rd32(m->ram + (pc - HPM_RAM_BASE));
		return 0;
	}
	if (pc - HPM_FW_BASE < HPM_FW_SIZE) {
		*insn = rd32(m->fw + (pc - HPM_FW_BASE));
		return 0;
	}
	return -1;
}

/* A load/store to addr is an access fault by mguard: the M-only regions
 * below M, the mode of loads and stores being MPP under mstatus.MPRV. */
static inline int data_guarded(const hpmref *m, uint32_t addr)
{
	if (LIKELY(!m->mguard))
		return 0;
	unsigned p = m->priv;
	if (p == PRV_M && (m->mstatus & MSTATUS_MPRV))
		p = (m->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;
	return p != PRV_M && HPM_MONLY(addr);
}

/* mret/sret (x = M or S, the bits ie, pie, pp of mstatus): xIE = xPIE,
 * xPIE = 1, xPP = U, MPRV cleared when returning below M; the mode becomes
 * np. Returns epc, where execution continues. */
static inline uint32_t xret(hpmref *m, uint32_t ie, uint32_t pie, uint32_t pp, unsigned np, uint32_t epc)
{
	uint32_t s = m->mstatus;
	s = (s & ~ie) | ((s & pie) ? ie : 0);
	s |= pie;
	s &= ~pp;
	if (np != PRV_M)
		s &= ~MSTATUS_MPRV;
	m->mstatus = s;
	m->priv = np;
	return epc;
}

/* The checks before a load or store of size bytes at addr: its trap cause
 * (misaligned, then access for a guarded address, which sets *occ), or 0. */
static inline uint32_t data_check(const hpmref *m, uint32_t addr, unsigned size,
				  uint32_t misaligned, uint32_t access, unsigned *occ)
{
	if (addr & (size - 1))
		return misaligned;
	if (UNLIKELY(data_guarded(m, addr))) {
		*occ = T_OCC_ACCESS_FAULT;
		return access;
	}
	return 0;
}

static uint32_t divide(unsigned f3, uint32_t a, uint32_t b)
{
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	switch (f3) {
	case 4: /* div */
		if (b == 0) return 0xFFFFFFFFu;
		if (a == 0x80000000u && sb == -1) return a;
		return (uint32_t)(sa / sb);
	case 5: /* divu */
		return b ? a / b : 0xFFFFFFFFu;
	case 6: /* rem */
		if (b == 0) return a;
		if (a == 0x80000000u && sb == -1) return 0;
		return (uint32_t)(sa % sb);
	default: /* remu */
		return b ? a % b : a;
	}
}

static uint32_t multiply(unsigned f3, uint32_t a, uint32_t b)
{
	switch (f3) {
	case 0: return a * b;
	case 1: return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32);
	case 2: return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(uint64_t)b) >> 32);
	default: return (uint32_t)(((uint64_t)a * b) >> 32);
	}
}

/* Cycle in which a wfi entering X in cycle t completes: the first cycle
 * >= t with (mip & mie) != 0. Only MTIP and LCOFIP (an overflow's set still
 * pending, or a counter that wraps while it waits: ref_hpm_wfi_wake) can
 * change while the core waits. */
static uint64_t wfi_wake(const hpmref *m, uint64_t t)
{
	if (ref_csr_mip(m, t) & m->mie)
		return t;
	uint64_t w = 1ull << 62; /* never: beyond any --max-cycles */
	if ((m->mie & (1u << IRQ_LCOF)) && m->lcof_at > t)
		w = m->lcof_at;
	if (m->mie & (1u << IRQ_MTI)) {
		/* MTIP(t + d) = mtime(t + d - 1) >= mtimecmp; mtime(t - 1) <
		 * mtimecmp here, so mtime(t) <= mtimecmp */
		uint64_t now = ref_soc_mtime(m, t);
		uint64_t d = m->mtimecmp - now + 1;
		if (d < w - t)
			w = t + d;
	}
	return w;
}

void hpmref_step(hpmref *m, hpm_retire *out)
{
	hpm_retire local;
	hpm_retire *r = out ? out : &local;
	const uint64_t t = m->cycle;
	const uint32_t pc = m->pc;
	uint32_t insn = 0, cause = 0, tval = 0, next_pc;
	unsigned trap_occ = T_OCC_TRAP, trap_stall = HK_MEM_FIRST;

	memset(r, 0, sizeof *r);
	r->pc = pc;
	r->priv = (uint8_t)m->priv;

	int stale = m->stale_valid;
	m->stale_valid = 0;

	/* interrupts, checked on the state of the entry cycle */
	if (UNLIKELY(m->mie != 0) && (ref_csr_mip(m, t) & m->mie)) {
		uint32_t irq = ref_csr_pending_irq(m, t);
		if (irq) {
			if (fetch(m, pc, &insn))
				insn = 0;
			else if (stale && m->stale_pc == pc)
				insn = m->stale_insn;
			r->insn = insn;
			cause = irq;
			tval = 0;
			goto trap;
		}
	}

	if (UNLIKELY(pc & 3u)) {
		cause = MCAUSE_MISALIGNED_FETCH;
		tval = pc;
		goto trap;
	}
	if (UNLIKELY(fetch(m, pc, &insn))) {
		cause = MCAUSE_FETCH_ACCESS;
		tval = pc;
		goto trap;
	}
	if (UNLIKELY(stale) && m->stale_pc == pc)
		insn = m->stale_insn;
	r->insn = insn;

	{
		const unsigned rd = (insn >> 7) & 31u;
		const unsigned f3 = (insn >> 12) & 7u;
		const uint32_t a = m->x[(insn >> 15) & 31u];
		const uint32_t b = m->x[(insn >> 20) & 31u];
		const uint32_t imm_i = (uint32_t)((int32_t)insn >> 20);
		uint32_t val = 0;
		next_pc = pc + 4;
		unsigned occ = 1, redirect = 0, wb = 0, waited = 0;
		unsigned kind = HK_R_ALU, stall_kind = HK_MEM_FIRST, bubble = HK_BUB_FE;

		switch (insn & 0x7Fu) {
		case 0x37: /* lui */
			val = insn & 0xFFFFF000u;
			wb = 1;
			break;
		case 0x17: /* auipc */
			val = pc + (insn & 0xFFFFF000u);
			wb = 1;
			break;
		case 0x6F: { /* jal */
			uint32_t imm = ((insn >> 31) ? 0xFFF00000u : 0) | (insn & 0x000FF000u) |
				       ((insn >> 9) & 0x800u) | ((insn >> 20) & 0x7FEu);
			next_pc = pc + imm;
			if (next_pc & 2u)
				goto misaligned_target;
			val = pc + 4;
			wb = 1;
			kind = HK_R_JAL;
			break;
		}
		case 0x67: /* jalr */
			if (f3) goto illegal;
			next_pc = (a + imm_i) & ~1u;
			if (next_pc & 2u)
				goto misaligned_target;
			val = pc + 4;
			wb = 1;
			redirect = 1;
			kind = HK_R_JALR;
			break;
		case 0x63: { /* branches */
			int taken;
			switch (f3) {
			case 0: taken = a == b; break;
			case 1: taken = a != b; break;
			case 4: taken = (int32_t)a < (int32_t)b; break;
			case 5: taken = (int32_t)a >= (int32_t)b; break;
			case 6: taken = a < b; break;
			case 7: taken = a >= b; break;
			default: goto illegal;
			}
			const uint32_t imm = ((insn >> 31) ? 0xFFFFF000u : 0) | ((insn << 4) & 0x800u) |
					     ((insn >> 20) & 0x7E0u) | ((insn >> 7) & 0x1Eu);
			if ((pc + imm) & 2u) { /* decided in a second X cycle, taken or not */
				occ = T_OCC_BR_MISALIGNED;
				stall_kind = HK_BR_WAIT;
			}
			if (taken) {
				next_pc = pc + imm;
				if (next_pc & 2u) {
					trap_occ = T_OCC_BR_MISALIGNED;
					trap_stall = HK_BR_WAIT;
					goto misaligned_target;
				}
			}
			redirect = (unsigned)taken != (insn >> 31); /* BTFN */
			kind = taken ? (redirect ? HK_R_BR_T_MISS : HK_R_BR_T)
				     : (redirect ? HK_R_BR_NT_MISS : HK_R_BR_NT);
			bubble = HK_BUB_MISP;
			break;
		}
		case 0x03: { /* loads */
			uint32_t addr = a + imm_i, v;
			unsigned size;
			switch (f3) {
			case 0:
			case 4: size = 1; break;
			case 1:
			case 5: size = 2; break;
			case 2: size = 4; break;
			default: goto illegal;
			}
			if ((cause = data_check(m, addr, size, MCAUSE_MISALIGNED_LOAD, MCAUSE_LOAD_ACCESS,
						&trap_occ))) {
				tval = addr;
				goto trap;
			}
			if (LIKELY(addr - HPM_RAM_BASE < HPM_RAM_SIZE) && size == 4) {
				v = rd32(m->ram + (addr - HPM_RAM_BASE));
			} else if (ref_soc_load(m, addr, size, t, &v)) {
				cause = MCAUSE_LOAD_ACCESS;
				tval = addr;
				trap_occ = T_OCC_ACCESS_FAULT;
				goto trap;
			}
			switch (f3) {
			case 0: v = (uint32_t)(int32_t)(int8_t)v; break;
			case 1: v = (uint32_t)(int32_t)(int16_t)v; break;
			default: break;
			}
			val = v;
			wb = 1;
			occ = T_OCC_LOAD;
			kind = HK_R_LOAD;
			break;
		}
		case 0x23: { /* stores */
			uint32_t imm = (uint32_t)((int32_t)(insn & 0xFE000000u) >> 20) | ((insn >> 7) & 31u);
			uint32_t addr = a + imm;
			unsigned size;
			if (f3 > 2) goto illegal;
			size = 1u << f3;
			if ((cause = data_check(m, addr, size, MCAUSE_MISALIGNED_STORE, MCAUSE_STORE_ACCESS,
						&trap_occ))) {
				tval = addr;
				goto trap;
			}
			const uint32_t sv = size == 4 ? b : size == 2 ? (b & 0xFFFFu)
								      : (b & 0xFFu);
			uint32_t old_next = 0;
			int hit_next = ((addr ^ (pc + 4)) & ~3u) == 0;
			if (UNLIKELY(hit_next) && fetch(m, pc + 4, &old_next))
				hit_next = 0;
			if (LIKELY(addr - HPM_RAM_BASE < HPM_RAM_SIZE) && size == 4) {
				wr32(m->ram + (addr - HPM_RAM_BASE), sv);
			} else if (ref_soc_store(m, addr, size, sv, t)) {
				cause = MCAUSE_STORE_ACCESS;
				tval = addr;
				trap_occ = T_OCC_ACCESS_FAULT;
				goto trap;
			}
			if (UNLIKELY(hit_next)) {
				m->stale_valid = 1;
				m->stale_pc = pc + 4;
				m->stale_insn = old_next;
			}
			r->mem_we = 1;
			r->mem_addr = addr;
			r->mem_wdata = sv << (8 * (addr & 3u));
			r->mem_be = (uint8_t)(((1u << size) - 1) << (addr & 3u));
			occ = T_OCC_STORE;
			kind = HK_R_STORE;
			break;
		}
		case 0x13: { /* op-imm */
			unsigned sh = (insn >> 20) & 31u;
			switch (f3) {
			case 0: val = a + imm_i; break;
			case 1:
				if (insn >> 25) goto illegal;
				val = a << sh;
				break;
			case 2: val = (int32_t)a < (int32_t)imm_i; break;
			case 3: val = a < imm_i; break;
			case 4: val = a ^ imm_i; break;
			case 5:
				if ((insn >> 25) == 0)
					val = a >> sh;
				else if ((insn >> 25) == 0x20)
					val = (uint32_t)((int32_t)a >> sh);
				else
					goto illegal;
				break;
			case 6: val = a | imm_i; break;
			default: val = a & imm_i; break;
			}
			wb = 1;
			break;
		}
		case 0x33: { /* op */
			unsigned f7 = insn >> 25;
			if (f7 == 0) {
				switch (f3) {
				case 0: val = a + b; break;
				case 1: val = a << (b & 31u); break;
				case 2: val = (int32_t)a < (int32_t)b; break;
				case 3:
					if (UNLIKELY(m->cfg.fault == HPMREF_FAULT_SLTU))
						val = (int32_t)a < (int32_t)b;
					else
						val = a < b;
					break;
				case 4: val = a ^ b; break;
				case 5: val = a >> (b & 31u); break;
				case 6: val = a | b; break;
				default: val = a & b; break;
				}
			} else if (f7 == 0x20 && f3 == 0) {
				val = a - b;
			} else if (f7 == 0x20 && f3 == 5) {
				val = (uint32_t)((int32_t)a >> (b & 31u));
			} else if (f7 == 1) {
				if (f3 < 4) {
					val = multiply(f3, a, b);
					occ = f3 == 0 ? T_OCC_MUL : T_OCC_MULH;
					kind = HK_R_MUL;
					stall_kind = HK_MULDIV_STALL;
				} else {
					val = divide(f3, a, b);
					occ = (f3 < 6 ? T_OCC_DIV : T_OCC_REM) +
					      (UNLIKELY(m->cfg.fault == HPMREF_FAULT_DIV_LATENCY)
						       ? T_OCC_DIV_FAULT
						       : 0u);
					kind = HK_R_DIV;
					stall_kind = HK_MULDIV_STALL;
				}
			} else {
				goto illegal;
			}
			wb = 1;
			break;
		}
		case 0x0F: /* misc-mem */
			if (f3 == 0) {
				/* fence (incl. fence.tso, pause): no-op */
				kind = HK_R_FENCE;
			} else if (f3 == 1) {
				redirect = 1; /* fence.i: refetch pc+4 */
				kind = HK_R_FENCEI;
			} else {
				goto illegal;
			}
			break;
		case 0x73: { /* system */
			if (f3 == 0) {
				if (insn == 0x00000073u) {
					cause = m->priv == PRV_U ? MCAUSE_ECALL_U : m->priv == PRV_S ? MCAUSE_ECALL_S
												  : MCAUSE_ECALL_M;
					tval = 0;
					goto trap;
				} else if (insn == 0x00100073u) {
					cause = MCAUSE_BREAKPOINT;
					tval = pc;
					goto trap;
				} else if (insn == 0x30200073u) { /* mret */
					if (m->priv != PRV_M) goto illegal;
					unsigned np = (m->mstatus >> 11) & 3u;
					next_pc = xret(m, MSTATUS_MIE, MSTATUS_MPIE, MSTATUS_MPP, np, m->mepc);
					redirect = 1;
					kind = HK_R_XRET;
				} else if (insn == 0x10200073u) { /* sret */
					if (m->priv == PRV_U ||
					    (m->priv == PRV_S && (m->mstatus & MSTATUS_TSR)))
						goto illegal;
					unsigned np = (m->mstatus & MSTATUS_SPP) ? PRV_S : PRV_U;
					next_pc = xret(m, MSTATUS_SIE, MSTATUS_SPIE, MSTATUS_SPP, np, m->sepc);
					redirect = 1;
					kind = HK_R_XRET;
				} else if (insn == 0x10500073u) { /* wfi */
					if (m->priv == PRV_U ||
					    (m->priv == PRV_S && (m->mstatus & MSTATUS_TW)))
						goto illegal;
					uint64_t w = ref_hpm_wfi_wake(m, t, wfi_wake(m, t), m->priv);
					r->cycle = w;
					m->cycle = w + 1;
					m->pc = next_pc;
					m->retired++;
					ref_hpm_step(m, HK_WFI_WAIT, w - t, HK_R_WFI, HK_NUM, m->priv, m->priv, 1);
					return;
				} else if ((insn & 0xFE007FFFu) == 0x12000073u) { /* sfence.vma */
					if (m->priv == PRV_U ||
					    (m->priv == PRV_S && (m->mstatus & MSTATUS_TVM)))
						goto illegal;
					kind = HK_R_FENCE;
				} else {
					goto illegal;
				}
				break;
			}
			if (f3 == 4)
				goto illegal;
			/* Zicsr */
			unsigned csr = insn >> 20;
			unsigned rs1 = (insn >> 15) & 31u;
			uint32_t src = (f3 & 4u) ? rs1 : a;
			int write = (f3 & 3u) == 1u || rs1 != 0;
			uint32_t old;
			if (ref_csr_check(m, csr, write) || ref_csr_read(m, csr, t, &old))
				goto illegal;
			/* an HPM counter or selector access waits in X (docs/timing.md),
             * those cycles counted here; it reads the CSR in cycle tr, one
             * (a read) or two (a write) cycles before its commit */
			uint64_t tr = t;
			const uint64_t wait = ref_hpm_csr_wait(m, csr, write, t, &tr);
			const uint64_t tc = t + wait; /* the commit cycle */
			if (wait) {
				waited = (unsigned)wait;
				occ += waited;
				ref_csr_read(m, csr, tr, &old);
				ref_hpm_wait(m, tc - tr, tc);
			}
			if (write) {
				uint32_t nv = (f3 & 3u) == 1u ? src : (f3 & 3u) == 2u ? (old | src)
										      : (old & ~src);
				r->csr_we = 1;
				r->csr_addr = (uint16_t)csr;
				/* the HPM unit counts the writing cycle itself (old
                 * settings) before the write */
				r->csr_val = ref_hpm_owns(csr) ? ref_hpm_write(m, csr, nv, tc)
							       : ref_csr_write(m, csr, nv, tc);
				/* xscratch, xepc, xtval live in the register file's EBR: a
                 * write with an rd refetches pc+4, one bubble (docs/timing.md) */
				redirect = rd != 0 && csr_in_regfile(csr);
			}
			val = old;
			wb = 1;
			kind = HK_R_CSR;
			break;
		}
		default:
			goto illegal;
		}

		/* retire */
		if (wb && rd) {
			m->x[rd] = val;
			r->rd_we = 1;
			r->rd = (uint8_t)rd;
			r->rd_val = val;
		}
		m->pc = next_pc;
		r->cycle = t + occ - 1;
		m->cycle = t + occ + redirect;
		m->retired++;
		if (!r->csr_we || !ref_hpm_owns(r->csr_addr)) /* else counted by ref_hpm_write */
			ref_hpm_step(m, stall_kind, occ - 1 - waited, kind, redirect ? bubble : HK_NUM,
				     r->priv, m->priv, 1);
		return;
	}

misaligned_target:   /* a jump or taken branch to next_pc, not 4-byte aligned */
	cause = MCAUSE_MISALIGNED_FETCH;
	tval = next_pc;
	goto trap;
illegal:
	cause = MCAUSE_ILLEGAL_INSN;
	tval = insn;
trap:
	/* the trap cycle is the last X cycle; a load/store access fault has
	 * its first cycle before it, a load/store's first cycle (HK_MEM_FIRST),
	 * a taken branch to a misaligned target its first (HK_BR_WAIT) */
	r->trap = 1;
	r->cause = cause;
	r->tval = tval;
	r->cycle = t + trap_occ - 1;
	ref_csr_trap(m, cause, tval);
	m->cycle = t + trap_occ + T_REDIRECT;
	ref_hpm_step(m, trap_stall, trap_occ - 1, (cause >> 31) ? HK_IRQ : HK_EXC, HK_BUB_TRAP,
		     r->priv, m->priv, 0);
}
