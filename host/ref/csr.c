/* csr.c: the M/S/U CSR file, access checks, traps, delegation and interrupt
 * selection, and the time CSR. The counters (mcycle, minstret, mhpm*,
 * mcountinhibit, mcyclecfg/minstretcfg, scountovf) belong to the HPM unit
 * (hpm.c): their reads are routed there; the ISS writes them there itself. */
#include "hpmref_int.h"

uint32_t ref_csr_mip(const hpmref *m, uint64_t t)
{
    return m->mip_sw | ((m->msip & 1u) << IRQ_MSI) |
           ((uint32_t)ref_soc_mtip(m, t) << IRQ_MTI);
}

static int is_counter_shadow(unsigned a)   /* cycle..hpmcounter31(h) */
{
    return (a >= 0xC00u && a <= 0xC1Fu) || (a >= 0xC80u && a <= 0xC9Fu);
}

/* Returns 1 when the CSR exists (is implemented, possibly as read-0). */
static int csr_exists(unsigned a)
{
    switch (a) {
    case 0x100: case 0x104: case 0x105: case 0x106: case 0x10A:
    case 0x140: case 0x141: case 0x142: case 0x143: case 0x144: case 0x180:
    case 0x300: case 0x301: case 0x302: case 0x303: case 0x304: case 0x305:
    case 0x306: case 0x30A: case 0x310: case 0x31A: case 0x320:
    case 0x321: case 0x322: case 0x721: case 0x722: case 0xDA0:
    case 0x340: case 0x341: case 0x342: case 0x343: case 0x344:
    case 0x7A0: case 0x7A1: case 0x7A2: case 0x7A3:
    case 0xB00: case 0xB02: case 0xB80: case 0xB82:
    case 0xF11: case 0xF12: case 0xF13: case 0xF14: case 0xF15:
        return 1;
    default:
        break;
    }
    if ((a >= 0x323u && a <= 0x33Fu) || (a >= 0x723u && a <= 0x73Fu))
        return 1;                                   /* mhpmevent3..31(h) */
    if (a >= 0x3A0u && a <= 0x3EFu)
        return 1;                                   /* pmpcfg0-15, pmpaddr0-63 */
    if ((a >= 0xB03u && a <= 0xB1Fu) || (a >= 0xB83u && a <= 0xB9Fu))
        return 1;                                   /* mhpmcounter3..31(h) */
    if (is_counter_shadow(a))
        return 1;                                   /* cycle, time, instret, hpmcounter3..31 */
    return 0;
}

int ref_csr_check(const hpmref *m, unsigned a, int write)
{
    if (!csr_exists(a))
        return -1;
    if (((a >> 8) & 3u) > m->priv)
        return -1;
    if (write && (a >> 10) == 3u)
        return -1;
    if (is_counter_shadow(a) && m->priv < PRV_M) {
        uint32_t bit = 1u << (a & 0x1Fu);
        if (!(m->mcounteren & bit))
            return -1;
        if (m->priv == PRV_U && !(m->scounteren & bit))
            return -1;
    }
    if (a == 0x180u && m->priv == PRV_S && (m->mstatus & MSTATUS_TVM))
        return -1;
    return 0;
}

int ref_csr_read(const hpmref *m, unsigned a, uint64_t t, uint32_t *val)
{
    uint32_t v = 0;
    if (!csr_exists(a))
        return -1;
    if (ref_hpm_owns(a)) {
        *val = ref_hpm_read(m, a, m->priv);
        return 0;
    }
    switch (a) {
    case 0x100: v = m->mstatus & SSTATUS_MASK; break;
    case 0x104: v = m->mie & m->mideleg; break;
    case 0x105: v = m->stvec; break;
    case 0x106: v = m->scounteren; break;
    case 0x140: v = m->sscratch; break;
    case 0x141: v = m->sepc; break;
    case 0x142: v = m->scause; break;
    case 0x143: v = m->stval; break;
    case 0x144: v = ref_csr_mip(m, t) & m->mideleg; break;
    case 0x300: v = m->mstatus; break;
    case 0x301: v = MISA_VALUE; break;
    case 0x302: v = m->medeleg; break;
    case 0x303: v = m->mideleg; break;
    case 0x304: v = m->mie; break;
    case 0x305: v = m->mtvec; break;
    case 0x306: v = m->mcounteren; break;
    case 0x340: v = m->mscratch; break;
    case 0x341: v = m->mepc; break;
    case 0x342: v = m->mcause; break;
    case 0x343: v = m->mtval; break;
    case 0x344: v = ref_csr_mip(m, t); break;
    case 0xC01: v = (uint32_t)ref_soc_mtime(m, t); break;
    case 0xC81: v = (uint32_t)(ref_soc_mtime(m, t) >> 32); break;
    default:
        v = 0;      /* read-0 CSRs: satp, pmp*, t*, envcfg, ids, mstatush */
        break;
    }
    *val = v;
    return 0;
}

int hpmref_csr(const hpmref *m, uint16_t addr, uint32_t *val)
{
    if (csr_exists(addr) && ref_hpm_owns(addr)) {
        *val = ref_hpm_read(m, addr, PRV_M);   /* scountovf unmasked */
        return 0;
    }
    return ref_csr_read(m, addr, m->cycle, val);
}

uint32_t ref_csr_write(hpmref *m, unsigned a, uint32_t v, uint64_t t)
{
    uint32_t rb = 0;
    switch (a) {
    case 0x100:
        m->mstatus = (m->mstatus & ~SSTATUS_MASK) | (v & SSTATUS_MASK);
        break;
    case 0x104:
        m->mie = (m->mie & ~m->mideleg) | (v & m->mideleg);
        break;
    case 0x105: m->stvec = v & ~2u; break;
    case 0x106: m->scounteren = v; break;
    case 0x140: m->sscratch = v; break;
    case 0x141: m->sepc = v & ~3u; break;
    case 0x142: m->scause = v & CAUSE_MASK; break;
    case 0x143: m->stval = v; break;
    case 0x144: {
        uint32_t mk = m->mideleg & ((1u << IRQ_SSI) | (1u << IRQ_LCOF));
        m->mip_sw = (m->mip_sw & ~mk) | (v & mk);
        break;
    }
    case 0x300: {
        uint32_t nv = v & MSTATUS_WMASK;
        if ((nv & MSTATUS_MPP) == (2u << 11))
            nv = (nv & ~MSTATUS_MPP) | (m->mstatus & MSTATUS_MPP);
        m->mstatus = nv;
        break;
    }
    case 0x302: m->medeleg = v & MEDELEG_MASK; break;
    case 0x303: m->mideleg = v & MIDELEG_MASK; break;
    case 0x304: m->mie = v & MIE_MASK; break;
    case 0x305: m->mtvec = v & ~2u; break;
    case 0x306: m->mcounteren = v; break;
    case 0x340: m->mscratch = v; break;
    case 0x341: m->mepc = v & ~3u; break;
    case 0x342: m->mcause = v & CAUSE_MASK; break;
    case 0x343: m->mtval = v; break;
    case 0x344: m->mip_sw = v & MIP_SW_MASK; break;
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
