/* hpm.c: the HPM unit (docs/hpm.md): mcycle, minstret, mhpmcounter3..31(h),
 * mhpmevent3..31(h), mcountinhibit, mcyclecfg/minstretcfg (Smcntrpmf),
 * scountovf, overflow (OF, mip.LCOFIP).
 *
 * Nothing is simulated cycle by cycle. iss.c describes each step as at most
 * three segments (stall cycles, last X cycle, bubble): a segment kind (a fixed
 * set of catalogue events, e.g. "first X cycle of a load"), a length and the
 * privilege mode of those cycles. Each counter's increment per kind is cached
 * (inc[n][kind], recomputed when its selector changes), so a segment adds
 * inc * len after the mode filter; the wrap is detected on the sum.
 * When no mhpmcounter can count and no cfg filter is set (h->fast), iss.c
 * only bumps mcycle/minstret inline (ref_hpm_step in hpmref_int.h).
 *
 * Counters hold their value at the start of cycle m->cycle: all cycles of the
 * previous steps are counted, those of the current step are counted at its
 * end (or, for an HPM CSR write, before the write, see ref_hpm_write). */
#include "hpmref_int.h"

/* ---- the event catalogue (hw/hpm/events.def) ---- */
#define HPM_EVENT(i, n, a, b, d) _Static_assert((i) > 0 && (i) < 64, "event index 1..63");
#include "../../hw/hpm/events.def"
#undef HPM_EVENT

static const struct { unsigned idx; const char *name; } catalogue[] = {
#define HPM_EVENT(i, n, a, b, d) { i, n },
#include "../../hw/hpm/events.def"
#undef HPM_EVENT
};
#define NCAT (sizeof catalogue / sizeof catalogue[0])

static uint64_t ev_bit(const char *name)
{
    for (unsigned i = 0; i < NCAT; i++)
        if (!strcmp(catalogue[i].name, name))
            return 1ull << catalogue[i].idx;
    return 0;   /* not in the catalogue: never counts (caught by the unit tests) */
}

/* Cycles a selector write makes the next one wait: the RTL refills one
 * table row per cycle (docs/hpm.md, "Selector writes wait for the refill"). */
#define HPM_REFILL 24u

/* ---- selector fields ---- */
#define SEL_OF    (1ull << 63)
#define SEL_MINH  (1ull << 62)
#define SEL_SINH  (1ull << 61)
#define SEL_UINH  (1ull << 60)
#define OP_OR  0u
#define OP_AND 1u
#define OP_XOR 2u
#define OP_ADD 4u

static unsigned op_legal(unsigned f)
{
    return (f == OP_AND || f == OP_XOR || f == OP_ADD) ? f : OP_OR;
}

static uint64_t sel_legal(const hpm_unit *h, uint64_t w)
{
    uint64_t v = w & (SEL_OF | SEL_MINH | SEL_SINH | SEL_UINH);
    for (unsigned k = 0; k < 3; k++)
        v |= (uint64_t)op_legal((unsigned)(w >> (40 + 5 * k)) & 31u) << (40 + 5 * k);
    for (unsigned k = 0; k < 4; k++) {
        unsigned e = (unsigned)(w >> (10 * k)) & 0x3FFu;
        v |= (uint64_t)(e > h->ev_max ? 0 : e) << (10 * k);
    }
    return v;
}

static unsigned combine(unsigned op, unsigned a, unsigned b)
{
    switch (op) {
    case OP_AND: return a & b;
    case OP_XOR: return a ^ b;
    case OP_ADD: return a + b;
    default:     return a | b;
    }
}

/* RESULT2 = (E0 op0 E1) op2 (E2 op1 E3) for a cycle with events evmask. */
static unsigned sel_inc(uint64_t sel, uint64_t evmask)
{
    unsigned e[4];
    for (unsigned k = 0; k < 4; k++) {
        unsigned idx = (unsigned)(sel >> (10 * k)) & 0x3FFu;
        e[k] = idx && idx < 64 && ((evmask >> idx) & 1u);
    }
    unsigned r0 = combine((unsigned)(sel >> 40) & 31u, e[0], e[1]);
    unsigned r1 = combine((unsigned)(sel >> 45) & 31u, e[2], e[3]);
    return combine((unsigned)(sel >> 50) & 31u, r0, r1);
}

/* MINH/SINH/UINH (as bits 2..0) -> mask indexed by privilege (bit 3 M, 1 S, 0 U) */
static uint8_t inh_mask(unsigned minh_sinh_uinh)
{
    return (uint8_t)(((minh_sinh_uinh >> 2) & 1u) << PRV_M |
                     ((minh_sinh_uinh >> 1) & 1u) << PRV_S |
                     (minh_sinh_uinh & 1u) << PRV_U);
}

static int implemented(const hpm_unit *h, unsigned n)
{
    return n >= 3 && n < 3 + h->num;
}

/* Recomputes the cached increments of counter n and the active list. */
static void refresh(hpm_unit *h, unsigned n)
{
    uint64_t sel;
    unsigned inh;
    if (n == 0) {
        sel = 1u;                                   /* EVENT0 = cycles */
        for (unsigned i = 0; i < NCAT; i++)
            if (!strcmp(catalogue[i].name, "cycles")) sel = catalogue[i].idx;
        inh = h->cyclecfg;
    } else if (n == 2) {
        sel = 2u;
        for (unsigned i = 0; i < NCAT; i++)
            if (!strcmp(catalogue[i].name, "instructions")) sel = catalogue[i].idx;
        inh = h->instretcfg;
    } else {
        sel = h->sel[n];
        inh = (unsigned)(sel >> 60) & 7u;
    }
    for (unsigned k = 0; k < HK_NUM; k++)
        h->inc[n][k] = (uint8_t)sel_inc(sel, h->kind_ev[k]);
    h->inh[n] = inh_mask(inh);
}

static uint64_t ctr_mask(const hpm_unit *h, unsigned n)
{
    return n < 3 ? ~0ull : h->mask;
}

/* Cycles from the last flush in which no counter can wrap. */
static void rebudget(hpm_unit *h)
{
    uint64_t b = ~0ull;
    for (unsigned a = 0; a < h->nact; a++) {
        const unsigned n = h->act[a];
        uint64_t room = (ctr_mask(h, n) - h->ctr[n]) / h->maxinc[n];
        if (room < b)
            b = room;
    }
#ifdef HPMREF_EAGER      /* validation build: count exactly at every step */
    b = 0;
#endif
    h->budget = b;
}

/* After a change of a selector, mcountinhibit or a cfg register (with hist
 * flushed): the filtered increments, the active list, the fast flag. */
static void rebuild_active(hpm_unit *h)
{
    h->nact = 0;
    memset(h->incp, 0, sizeof h->incp);
    int hpm_any = 0;
    for (unsigned n = 0; n < 32; n++) {
        h->maxinc[n] = 0;
        if (n == 1 || (n >= 3 && !implemented(h, n)))
            continue;
        if ((h->inhibit >> n) & 1u)
            continue;
        unsigned mx = 0;
        static const unsigned privs[3] = { PRV_U, PRV_S, PRV_M };
        for (unsigned i = 0; i < 3; i++) {
            const unsigned p = privs[i];
            if ((h->inh[n] >> p) & 1u)
                continue;
            for (unsigned k = 0; k < HK_NUM; k++) {
                h->incp[p][k][n] = h->inc[n][k];
                if (h->inc[n][k] > mx)
                    mx = h->inc[n][k];
            }
        }
        if (!mx)
            continue;
        h->maxinc[n] = (uint8_t)mx;
        h->act[h->nact++] = (uint8_t)n;
        if (n >= 3)
            hpm_any = 1;
    }
    h->fast = !hpm_any && h->cyclecfg == 0 && h->instretcfg == 0;
    rebudget(h);
}

void ref_hpm_init(hpmref *m)
{
    hpm_unit *h = &m->hpm;
    memset(h, 0, sizeof *h);
    unsigned num = m->cfg.hpm_num, width = m->cfg.hpm_width;
    if (num == 0 && width == 0) {
        num = HPMREF_HPM_NUM_DEFAULT;
        width = HPMREF_HPM_WIDTH_DEFAULT;
    }
    if (width == 0 || width > 64)
        width = 64;
    if (num > 29)
        num = 29;
    h->num = num;
    h->width = width;
    h->mask = width == 64 ? ~0ull : (1ull << width) - 1;
    for (unsigned i = 0; i < NCAT; i++)
        if (catalogue[i].idx > h->ev_max)
            h->ev_max = catalogue[i].idx;

    const uint64_t C = ev_bit("cycles"), R = C | ev_bit("instructions") |
                       ev_bit("topdown-retiring"), FL = ev_bit("flushes"),
                   BUB = C | ev_bit("fetch-stall-cycles"),
                   FE = ev_bit("topdown-fe-bound") | ev_bit("topdown-fetch-latency"),
                   BAD = ev_bit("topdown-bad-spec"), CLR = ev_bit("topdown-machine-clears"),
                   BE = ev_bit("topdown-be-bound"), CORE = ev_bit("topdown-core-bound"),
                   BR = ev_bit("branches"), TK = ev_bit("branches-taken"),
                   MISS = ev_bit("branch-misses"), J = ev_bit("jumps"),
                   FEN = ev_bit("fences");
    uint64_t *k = h->kind_ev;
    k[HK_RESET]        = BUB | FE;
    k[HK_BUB_MISP]     = BUB | BAD | ev_bit("topdown-br-mispredict");
    k[HK_BUB_TRAP]     = BUB | BAD | CLR;
    k[HK_BUB_FE]       = BUB | FE;
    k[HK_MEM_FIRST]    = C | ev_bit("mem-stall-cycles") | BE | ev_bit("topdown-mem-bound");
    k[HK_MULDIV_STALL] = C | ev_bit("muldiv-stall-cycles") | BE | CORE;
    k[HK_WFI_WAIT]     = C | BE | CORE | ev_bit("wfi-cycles");
    k[HK_EXC]          = C | ev_bit("exceptions") | FL | BAD | CLR;
    k[HK_IRQ]          = C | ev_bit("interrupts") | FL | BAD | CLR;
    k[HK_R_ALU]        = R;
    k[HK_R_LOAD]       = R | ev_bit("loads");
    k[HK_R_STORE]      = R | ev_bit("stores");
    k[HK_R_JAL]        = R | J;
    k[HK_R_JALR]       = R | J | FL;
    k[HK_R_BR_NT]      = R | BR;
    k[HK_R_BR_T]       = R | BR | TK;
    k[HK_R_BR_NT_MISS] = R | BR | MISS | FL;
    k[HK_R_BR_T_MISS]  = R | BR | TK | MISS | FL;
    k[HK_R_MUL]        = R | ev_bit("mul");
    k[HK_R_DIV]        = R | ev_bit("div");
    k[HK_R_CSR]        = R | ev_bit("csr-instructions");
    k[HK_R_FENCE]      = R | FEN;
    k[HK_R_FENCEI]     = R | FEN | FL;
    k[HK_R_XRET]       = R | FL;
    k[HK_R_WFI]        = R;
    k[HK_SEL_WAIT]     = C | BE | CORE;

    for (unsigned n = 0; n < 32; n++)
        if (n != 1)
            refresh(h, n);
    rebuild_active(h);
    h->sel_free = HPM_REFILL;       /* reset opens a refill window (cycles 0..23) */
    /* cycles 0 and 1 after reset: bubbles in M-mode */
    ref_hpm_step(m, HK_RESET, 1, HK_RESET, HK_NUM, PRV_M, PRV_M, 0);
}

/* ---- counting ---- */

/* Counter n including the cycles in hist, before masking (mod 2^128). */
static unsigned __int128 ctr_sum(const hpm_unit *h, unsigned n)
{
    unsigned __int128 v = h->ctr[n];
    if (!h->pending)
        return v;
    static const unsigned privs[3] = { PRV_U, PRV_S, PRV_M };
    for (unsigned i = 0; i < 3; i++) {
        const unsigned p = privs[i];
        for (unsigned k = 0; k < HK_NUM; k++) {
            unsigned d = h->incp[p][k][n];
            if (d)
                v += (unsigned __int128)d * h->hist[p][k];
        }
    }
    return v;
}

/* Sets OF of the counters in `wrapped` and LCOFIP if one of them had OF 0. */
static void overflow(hpmref *m, uint32_t wrapped)
{
    hpm_unit *h = &m->hpm;
    h->wrapped = wrapped;
    uint32_t lcof = 0;
    for (unsigned n = 3; n < 32; n++)
        if ((wrapped >> n) & 1u) {
            if (!(h->sel[n] & SEL_OF))
                lcof = 1;
            h->sel[n] |= SEL_OF;
        }
    if (lcof)
        m->mip_sw |= 1u << IRQ_LCOF;
}

void ref_hpm_flush(hpmref *m)
{
    hpm_unit *h = &m->hpm;
    uint32_t wrapped = 0;
    if (h->pending) {
        for (unsigned a = 0; a < h->nact; a++) {
            const unsigned n = h->act[a];
            const unsigned w = n < 3 ? 64 : h->width;
            unsigned __int128 v = ctr_sum(h, n);
            if (v >> w)
                wrapped |= 1u << n;
            h->ctr[n] = (uint64_t)v & ctr_mask(h, n);
        }
        memset(h->hist, 0, sizeof h->hist);
        h->pending = 0;
    }
    overflow(m, wrapped);
    rebudget(h);
}

/* Counts one cycle of kind `kind` in the current privilege exactly, for all
 * counters except those in `skip` (written in this cycle: the write wins).
 * hist must be empty (flushed). */
static void count_cycle(hpmref *m, unsigned kind, uint32_t skip)
{
    hpm_unit *h = &m->hpm;
    uint32_t wrapped = 0;
    for (unsigned a = 0; a < h->nact; a++) {
        const unsigned n = h->act[a];
        unsigned d = h->incp[m->priv][kind][n];
        if (!d || ((skip >> n) & 1u))
            continue;
        const uint64_t mask = ctr_mask(h, n);
        uint64_t v = h->ctr[n] + d;       /* ctr <= mask, d <= 4: no 64-bit wrap unless mask = ~0 */
        if (v < d || v > mask)
            wrapped |= 1u << n;
        h->ctr[n] = v & mask;
    }
    overflow(m, wrapped);
}

uint64_t ref_hpm_wfi_wake(hpmref *m, uint64_t t, uint64_t w0, unsigned priv)
{
    hpm_unit *h = &m->hpm;
    if (h->fast || !(m->mie & (1u << IRQ_LCOF)))
        return w0;
    ref_hpm_flush(m);
    uint64_t w = w0;
    for (unsigned a = 0; a < h->nact; a++) {
        const unsigned n = h->act[a];
        if (n < 3 || (h->sel[n] & SEL_OF))
            continue;
        unsigned d = h->incp[priv][HK_WFI_WAIT][n];
        if (!d)
            continue;
        /* first j >= 1 with ctr + d*j > mask: it wraps in cycle t+j-1.
         * q = j-1 can be 2^64-1 (a 64-bit counter at 0): never wraps in time. */
        uint64_t q = (h->mask - h->ctr[n]) / d;
        if (q != UINT64_MAX && q + 1 < w - t)
            w = t + q + 1;
    }
    return w;
}

/* ---- CSRs ---- */

uint64_t ref_hpm_sel_wait(hpmref *m, unsigned a, uint64_t t)
{
    hpm_unit *h = &m->hpm;
    if (!((a >= 0x323u && a <= 0x33Fu) || (a >= 0x723u && a <= 0x73Fu)))
        return 0;
    const uint64_t s = h->sel_free > t ? h->sel_free - t : 0;
    h->sel_free = t + s + 1 + HPM_REFILL;
    if (!s)
        return 0;
    if (h->fast) {
        if (!(h->inhibit & 1u))
            h->ctr[0] += s;
        return s;
    }
    h->hist[m->priv][HK_SEL_WAIT] += s;
    h->pending += s;
    if (h->pending > h->budget)
        ref_hpm_flush(m);
    return s;
}

int ref_hpm_owns(unsigned a)
{
    return (a >= 0xB00u && a <= 0xB1Fu) || (a >= 0xB80u && a <= 0xB9Fu) ||
           (a >= 0xC00u && a <= 0xC1Fu && a != 0xC01u) ||
           (a >= 0xC80u && a <= 0xC9Fu && a != 0xC81u) ||
           (a >= 0x320u && a <= 0x33Fu) || (a >= 0x721u && a <= 0x73Fu) ||
           a == 0xDA0u;
}

uint32_t ref_hpm_read(const hpmref *m, unsigned a, unsigned priv)
{
    const hpm_unit *h = &m->hpm;
    const unsigned n = a & 0x1Fu;
    if (a == 0xDA0u) {
        uint32_t of = 0;
        for (unsigned i = 3; i < 3 + h->num; i++)
            of |= (uint32_t)(h->sel[i] >> 63) << i;
        return priv == PRV_M ? of : of & m->mcounteren;
    }
    if ((a >> 8) == 0xBu || (a >> 8) == 0xCu) {         /* counters and shadows */
        if (n == 1 || (n >= 3 && !implemented(h, n)))
            return 0;
        uint64_t v = (uint64_t)ctr_sum(h, n) & ctr_mask(h, n);
        return (uint32_t)((a & 0x80u) ? v >> 32 : v);
    }
    if (a == 0x320u)
        return h->inhibit;
    if (a == 0x721u)
        return h->cyclecfg << 28;
    if (a == 0x722u)
        return h->instretcfg << 28;
    if (n >= 3 && implemented(h, n))                    /* mhpmevent */
        return (uint32_t)((a >> 8) == 7u ? h->sel[n] >> 32 : h->sel[n]);
    return 0;                                           /* 0x321, 0x322, unimplemented */
}

uint32_t ref_hpm_write(hpmref *m, unsigned a, uint32_t v)
{
    hpm_unit *h = &m->hpm;
    const unsigned n = a & 0x1Fu;
    const int is_ctr = (a >> 8) == 0xBu;
    const int hi = is_ctr ? (a & 0x80u) != 0 : (a >> 8) == 7u;
    const int live = is_ctr ? (n != 1 && (n < 3 || implemented(h, n))) : 0;

    /* cycle t: the CSR instruction's last (only) X cycle, old settings; a
     * written counter keeps the written value (its increment is dropped) */
    if (h->fast) {
        if (!(h->inhibit & 1u) && !(live && n == 0))
            h->ctr[0]++;
        if (!(h->inhibit & 4u) && !(live && n == 2))
            h->ctr[2]++;
        h->wrapped = 0;
    } else {
        ref_hpm_flush(m);
        count_cycle(m, HK_R_CSR, live ? 1u << n : 0);
    }

    if (is_ctr) {
        if (live) {
            uint64_t c = h->ctr[n];
            c = hi ? (c & 0xFFFFFFFFull) | (uint64_t)v << 32
                   : (c & ~0xFFFFFFFFull) | v;
            h->ctr[n] = n < 3 ? c : c & h->mask;
        }
        rebudget(h);
    } else if (a == 0x320u) {
        h->inhibit = v & ~2u;
        rebuild_active(h);
    } else if (a == 0x721u || a == 0x722u) {
        uint32_t f = (v >> 28) & 7u;
        if (a == 0x721u) h->cyclecfg = f; else h->instretcfg = f;
        refresh(h, a == 0x721u ? 0 : 2);
        rebuild_active(h);
    } else if (n >= 3 && implemented(h, n)) {           /* mhpmevent */
        /* halves merge with the value at the start of the cycle; a wrap in
         * this cycle sets OF whatever software writes */
        uint64_t cur = h->sel[n];
        int of_now = (h->wrapped >> n) & 1u;
        uint64_t start = of_now ? cur & ~SEL_OF : cur;  /* undo this cycle's OF */
        uint64_t w = hi ? (start & 0xFFFFFFFFull) | (uint64_t)v << 32
                        : (start & ~0xFFFFFFFFull) | v;
        w = sel_legal(h, w);
        h->sel[n] = of_now ? w | SEL_OF : w;
        refresh(h, n);
        rebuild_active(h);
        rebudget(h);
        /* the reported value is the write's own (an OF set by a wrap in this
         * cycle is not in it; docs/hpm.md "Value reported for a write") */
        return (uint32_t)(hi ? w >> 32 : w);
    }
    /* 0x321/0x322 (low halves) and unimplemented ones ignore writes */
    rebudget(h);    /* cycle t changed the counters */
    return ref_hpm_read(m, a, PRV_M);
}
