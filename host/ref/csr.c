/* csr.c: the M/S/U CSR file, access checks, traps, delegation and interrupt
 * selection, and the time CSR. The counters (mcycle, minstret, mhpm*,
 * mcountinhibit, mcyclecfg/minstretcfg, scountovf) belong to the HPM unit
 * (hpm.c): their reads are routed there; the ISS writes them there itself. */
#include "hpmref_int.h"

uint32_t ref_csr_mip(const hpmref *m, uint64_t t)
{
	const uint32_t lcof = m->lcof_at && t >= m->lcof_at;
	return m->mip_sw | (lcof << IRQ_LCOF) | ((m->msip & 1u) << IRQ_MSI) |
	       ((uint32_t)ref_soc_mtip(m, t) << IRQ_MTI);
}

/* Before a mip/sip write in cycle t: an overflow's LCOFIP seen by t is in
 * the register the write changes; one set at the end of t (lcof_at = t+1)
 * stays pending and wins over the write. */
static void lcof_settle(hpmref *m, uint64_t t)
{
	if (m->lcof_at && m->lcof_at <= t) {
		m->mip_sw |= 1u << IRQ_LCOF;
		m->lcof_at = 0;
	}
}

/* The x counteren bit that gates a read below M: cycle..hpmcounter31(h) their
 * own, the top-down unit's user CSRs CY's; -1 for any other CSR. */
static int counter_enable_bit(unsigned a)
{
	if ((a >= CSR_CYCLE && a < CSR_HPMCOUNTER3 + CSR_HPMCOUNTER3_COUNT) ||
	    (a >= CSR_CYCLEH && a < CSR_HPMCOUNTER3H + CSR_HPMCOUNTER3H_COUNT))
		return (int)(a & 0x1Fu);
	return a >= CSR_SLOTS && a <= CSR_TDMETRICS2 ? 0 : -1;
}

/* Returns 1 when the CSR exists (is implemented, possibly as read-0): the
 * addresses of the CSR catalogue, the top-down unit's only with it (or
 * the board's two counts with the board's form). */
static int csr_exists(const hpmref *m, unsigned a)
{
	if (ref_hpm_td_csr(a))
		return ref_hpm_td_exists(m, a);
#define HPM_CSR(name, addr, count, wmask, brief) \
	if (a - (addr) < (count)) return 1;
#include "csr.def"
	return 0;
}

int ref_csr_check(const hpmref *m, unsigned a, int write)
{
	if (!csr_exists(m, a))
		return -1;
	if (((a >> 8) & 3u) > m->priv)
		return -1;
	if (write && (a >> 10) == 3u)
		return -1;
	const int cen = counter_enable_bit(a);
	if (cen >= 0 && m->priv < PRV_M) {
		uint32_t bit = 1u << cen;
		if (!(m->mcounteren & bit))
			return -1;
		if (m->priv == PRV_U && !(m->scounteren & bit))
			return -1;
	}
	if (a == CSR_SATP && m->priv == PRV_S && (m->mstatus & MSTATUS_TVM))
		return -1;
	return 0;
}

int ref_csr_read(const hpmref *m, unsigned a, uint64_t t, uint32_t *val)
{
	uint32_t v = 0;
	if (!csr_exists(m, a))
		return -1;
	if (ref_hpm_owns(a)) {
		*val = ref_hpm_read(m, a, m->priv);
		return 0;
	}
	switch (a) {
	case CSR_SSTATUS: v = m->mstatus & SSTATUS_MASK; break;
	case CSR_SIE: v = m->mie & m->mideleg; break;
	case CSR_STVEC: v = m->stvec; break;
	case CSR_SCOUNTEREN: v = m->scounteren; break;
	case CSR_SSCRATCH: v = m->sscratch; break;
	case CSR_SEPC: v = m->sepc; break;
	case CSR_SCAUSE: v = m->scause; break;
	case CSR_STVAL: v = m->stval; break;
	case CSR_SIP: v = ref_csr_mip(m, t) & m->mideleg; break;
	case CSR_MSTATUS: v = m->mstatus; break;
	case CSR_MISA: v = MISA_VALUE; break;
	case CSR_MEDELEG: v = m->medeleg; break;
	case CSR_MIDELEG: v = m->mideleg; break;
	case CSR_MIE: v = m->mie; break;
	case CSR_MTVEC: v = m->mtvec; break;
	case CSR_MCOUNTEREN: v = m->mcounteren; break;
	case CSR_MSCRATCH: v = m->mscratch; break;
	case CSR_MEPC: v = m->mepc; break;
	case CSR_MCAUSE: v = m->mcause; break;
	case CSR_MTVAL: v = m->mtval; break;
	case CSR_MIP: v = ref_csr_mip(m, t); break;
	case CSR_MGUARD: v = m->mguard; break;
	case CSR_TIME: v = (uint32_t)ref_soc_mtime(m, t); break;
	case CSR_TIMEH: v = (uint32_t)(ref_soc_mtime(m, t) >> 32); break;
	default:
		v = 0; /* read-0 CSRs: satp, pmp*, t*, envcfg, ids, mstatush */
		break;
	}
	*val = v;
	return 0;
}

int hpmref_csr(const hpmref *m, uint16_t addr, uint32_t *val)
{
	if (csr_exists(m, addr) && ref_hpm_owns(addr)) {
		*val = ref_hpm_read(m, addr, PRV_M); /* scountovf unmasked */
		return 0;
	}
	return ref_csr_read(m, addr, m->cycle, val);
}

/* xtvec WARL: bit 1 reads 0; vectored mode (MODE 1) aligns BASE to 64 bytes,
 * so BASE + 4 * cause never carries past bit 5; BASE keeps only the address
 * bits of the executable regions (fw, ram), the others read 0 */
#define TVEC_KEEP (HPM_FW_BASE | (HPM_FW_SIZE - 1u) | HPM_RAM_BASE | (HPM_RAM_SIZE - 1u) | 1u)
/* hw/csr.def's write masks of mtvec/stvec are typed in: they must follow the map */
_Static_assert(CSR_MTVEC_WMASK == (TVEC_KEEP & ~2u), "hw/csr.def: mtvec wmask is not memmap.def's TVEC_KEEP");
_Static_assert(CSR_STVEC_WMASK == (TVEC_KEEP & ~2u), "hw/csr.def: stvec wmask is not memmap.def's TVEC_KEEP");
static uint32_t tvec_legal(uint32_t v)
{
	return v & ((v & 1u) ? ~0x3Eu : ~2u) & TVEC_KEEP;
}

/* mcounteren/scounteren WARL: a bit per counter that exists; the counters
 * that do not (3 + HPM_NUM .. 31, they read 0) share one enable, set when a
 * write sets any of their bits, read in all of them */
static uint32_t counteren_legal(const hpmref *m, uint32_t v)
{
	uint32_t none = ~ref_hpm_ctr_exists(m);
	return (v & none) ? v | none : v;
}

uint32_t ref_csr_write(hpmref *m, unsigned a, uint32_t v, uint64_t t)
{
	uint32_t rb = 0;
	switch (a) {
	case CSR_SSTATUS:
		m->mstatus = (m->mstatus & ~SSTATUS_MASK) | (v & SSTATUS_MASK);
		break;
	case CSR_SIE:
		m->mie = (m->mie & ~m->mideleg) | (v & m->mideleg);
		break;
	case CSR_STVEC: m->stvec = tvec_legal(v); break;
	case CSR_SCOUNTEREN: m->scounteren = counteren_legal(m, v); break;
	case CSR_SSCRATCH: m->sscratch = v; break;
	case CSR_SEPC: m->sepc = v & ~3u; break;
	case CSR_SCAUSE: m->scause = v & CAUSE_MASK; break;
	case CSR_STVAL: m->stval = v; break;
	case CSR_SIP: {
		uint32_t mk = m->mideleg & ((1u << IRQ_SSI) | (1u << IRQ_LCOF));
		lcof_settle(m, t);
		m->mip_sw = (m->mip_sw & ~mk) | (v & mk);
		break;
	}
	case CSR_MSTATUS: {
		uint32_t nv = v & MSTATUS_WMASK;
		if ((nv & MSTATUS_MPP) == (2u << 11))
			nv = (nv & ~MSTATUS_MPP) | (m->mstatus & MSTATUS_MPP);
		m->mstatus = nv;
		break;
	}
	case CSR_MEDELEG: m->medeleg = v & MEDELEG_MASK; break;
	case CSR_MIDELEG: m->mideleg = v & MIDELEG_MASK; break;
	case CSR_MIE: m->mie = v & MIE_MASK; break;
	case CSR_MTVEC: m->mtvec = tvec_legal(v); break;
	case CSR_MCOUNTEREN: m->mcounteren = counteren_legal(m, v); break;
	case CSR_MSCRATCH: m->mscratch = v; break;
	case CSR_MEPC: m->mepc = v & ~3u; break;
	case CSR_MCAUSE: m->mcause = v & CAUSE_MASK; break;
	case CSR_MTVAL: m->mtval = v; break;
	case CSR_MIP:
		lcof_settle(m, t);
		m->mip_sw = v & MIP_SW_MASK;
		break;
	case CSR_MGUARD: m->mguard |= v & MGUARD_GUARD; break; /* sticky */
	default:
		/* everything else ignores writes (misa, satp, pmp*, t*, envcfg,
         * mstatush) */
		break;
	}
	/* The value reported for the write: the CSR after the write, with the
     * hardware-driven bits (mip.MTIP/MSIP) as of cycle t. */
	ref_csr_read(m, a, t, &rb);
	return rb;
}

void ref_csr_trap(hpmref *m, uint32_t cause, uint32_t tval)
{
	int irq = (cause >> 31) != 0;
	unsigned code = cause & 0x1Fu;
	uint32_t deleg = irq ? m->mideleg : m->medeleg;
	if (m->priv <= PRV_S && ((deleg >> code) & 1u)) {
		m->scause = cause;
		m->sepc = m->pc;
		m->stval = tval;
		uint32_t s = m->mstatus & ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE);
		if (m->priv == PRV_S)
			s |= MSTATUS_SPP;
		if (m->mstatus & MSTATUS_SIE)
			s |= MSTATUS_SPIE;
		m->mstatus = s;
		m->priv = PRV_S;
		m->pc = (m->stvec & ~3u) + ((irq && (m->stvec & 1u)) ? 4u * code : 0u);
	} else {
		m->mcause = cause;
		m->mepc = m->pc;
		m->mtval = tval;
		uint32_t s = m->mstatus & ~(MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE);
		s |= (uint32_t)m->priv << 11;
		if (m->mstatus & MSTATUS_MIE)
			s |= MSTATUS_MPIE;
		m->mstatus = s;
		m->priv = PRV_M;
		m->pc = (m->mtvec & ~3u) + ((irq && (m->mtvec & 1u)) ? 4u * code : 0u);
	}
}

uint32_t ref_csr_pending_irq(const hpmref *m, uint64_t t)
{
	static const unsigned order[7] = { IRQ_MEI, IRQ_MSI, IRQ_MTI, IRQ_SEI,
					   IRQ_SSI, IRQ_STI, IRQ_LCOF };
	uint32_t pend = ref_csr_mip(m, t) & m->mie;
	if (!pend)
		return 0;
	int m_en = m->priv < PRV_M || (m->mstatus & MSTATUS_MIE);
	int s_en = m->priv < PRV_S || (m->priv == PRV_S && (m->mstatus & MSTATUS_SIE));
	uint32_t take = m_en ? (pend & ~m->mideleg) : 0;
	if (!take)
		take = s_en ? (pend & m->mideleg) : 0;
	if (!take)
		return 0;
	for (unsigned i = 0; i < 7; i++)
		if (take & (1u << order[i]))
			return 0x80000000u | order[i];
	return 0;
}
