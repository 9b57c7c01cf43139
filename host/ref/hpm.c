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
 * only bumps mcycle/minstret inline (ref_hpm_step in hpmref_int.h). The
 * counter whose selector's refill window is open counts a cycle late; it is
 * counted apart, segment by segment (lag_count).
 *
 * Counters hold their value at the start of cycle m->cycle: all cycles of the
 * previous steps are counted, those of the current step are counted at its
 * end (or, for an HPM CSR write, before the write, see ref_hpm_write).
 *
 * The top-down unit (docs/hpm.md, "Top-down unit") is six more counters in
 * the same arrays (TD_SLOTS..): mcycle's filters, 64 bits, no selector, no
 * LCOFI; a SLOTS wrap sets td_of. Its metrics are computed at the read.
 * The board's form (td = 2) keeps two of them, bad-spec and fe-bound, mod
 * 2^16; a change of bit 15 (a 15-bit wrap) raises LCOFI as a counter's
 * wrap does, without OF; a write of mcycle (SLOTS) clears them. */
#include "hpmref_int.h"
#include "hpm_events.h"

/* ---- the event catalogue (hw/hpm/events.def) ---- */
#define HPM_EVENT(i, n, a, b, d) _Static_assert((i) > 0 && (i) < 64, "event index 1..63");
#include "../../hw/hpm/events.def"
#undef HPM_EVENT

/* the event's bit in a kind's event set, by generated index (hpm_events.h):
 * a name that is not in the catalogue does not compile */
#define EV(name) (1ull << HPM_EV_##name)

/* Cycles a selector write makes the next one wait: the RTL refills one
 * table row per cycle (docs/hpm.md, "Selector writes wait for the refill"). */
#define HPM_REFILL 144u

/* ---- selector fields ---- */
#define SEL_OF MHPMEVENT_OF
#define SEL_MINH MHPMEVENT_MINH
#define SEL_SINH MHPMEVENT_SINH
#define SEL_UINH MHPMEVENT_UINH
#define OP_OR MHPMEVENT_OP_OR
#define OP_AND MHPMEVENT_OP_AND
#define OP_XOR MHPMEVENT_OP_XOR
#define OP_ADD MHPMEVENT_OP_ADD
#define OP_BITS (MHPMEVENT_OP_TYPE1_SHIFT - MHPMEVENT_OP_TYPE0_SHIFT)
#define EV_BITS MHPMEVENT_EVENT1_SHIFT

static unsigned op_legal(unsigned f)
{
	return (f == OP_AND || f == OP_XOR || f == OP_ADD) ? f : OP_OR;
}

static uint64_t sel_legal(const hpm_unit *h, uint64_t w)
{
	uint64_t v = w & (SEL_OF | SEL_MINH | SEL_SINH | SEL_UINH);
	for (unsigned k = 0; k < 3; k++)
		v |= (uint64_t)op_legal((unsigned)(w >> (MHPMEVENT_OP_TYPE0_SHIFT + OP_BITS * k)) & 31u)
		     << (MHPMEVENT_OP_TYPE0_SHIFT + OP_BITS * k);
	for (unsigned k = 0; k < 4; k++) {
		unsigned e = (unsigned)((w >> (EV_BITS * k)) & MHPMEVENT_EVENT0);
		v |= (uint64_t)(e > h->ev_max ? 0 : e) << (EV_BITS * k);
	}
	return v;
}

static unsigned combine(unsigned op, unsigned a, unsigned b)
{
	switch (op) {
	case OP_AND: return a & b;
	case OP_XOR: return a ^ b;
	case OP_ADD: return a + b;
	default: return a | b;
	}
}

/* RESULT2 = (E0 op0 E1) op2 (E2 op1 E3) for a cycle with events evmask. */
static unsigned sel_inc(uint64_t sel, uint64_t evmask)
{
	unsigned e[4];
	for (unsigned k = 0; k < 4; k++) {
		unsigned idx = (unsigned)((sel >> (EV_BITS * k)) & MHPMEVENT_EVENT0);
		e[k] = idx && idx < 64 && ((evmask >> idx) & 1u);
	}
	unsigned r0 = combine((unsigned)(sel >> MHPMEVENT_OP_TYPE0_SHIFT) & 31u, e[0], e[1]);
	unsigned r1 = combine((unsigned)(sel >> MHPMEVENT_OP_TYPE1_SHIFT) & 31u, e[2], e[3]);
	return combine((unsigned)(sel >> MHPMEVENT_OP_TYPE2_SHIFT) & 31u, r0, r1);
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

/* the top-down counters' events, from TD_SLOTS on */
static const unsigned td_event[HPM_NCTR - TD_SLOTS] = {
	HPM_EV_CYCLES, HPM_EV_TOPDOWN_RETIRING, HPM_EV_TOPDOWN_BAD_SPEC,
	HPM_EV_TOPDOWN_FE_BOUND, HPM_EV_TOPDOWN_BR_MISPREDICT, HPM_EV_TOPDOWN_MEM_BOUND
};

/* mcountinhibit's bit of counter n (the top-down unit's: CY) */
static unsigned inhibit_bit(unsigned n)
{
	return n >= TD_SLOTS ? 0 : n;
}

/* Recomputes the cached increments of counter n and the active list. */
static void refresh(hpm_unit *h, unsigned n)
{
	uint64_t sel;
	unsigned inh;
	if (n == 0) {
		sel = HPM_EV_CYCLES; /* EVENT0 = cycles */
		inh = h->cyclecfg;
	} else if (n >= TD_SLOTS) {
		sel = td_event[n - TD_SLOTS];
		inh = h->cyclecfg;
	} else if (n == 2) {
		sel = HPM_EV_INSTRUCTIONS;
		inh = h->instretcfg;
	} else {
		sel = h->sel[n];
		inh = (unsigned)(sel >> MHPMEVENT_UINH_SHIFT) & 7u;
	}
	for (unsigned k = 0; k < HK_NUM; k++)
		h->inc[n][k] = (uint8_t)sel_inc(sel, h->kind_ev[k]);
	h->inh[n] = inh_mask(inh);
}

static uint64_t ctr_mask(const hpm_unit *h, unsigned n)
{
	return n < 3 ? ~0ull : n >= TD_SLOTS ? (h->td == 2 ? 0xFFFFull : ~0ull) : h->mask;
}

/* the board's counts (td = 2): a 15-bit wrap raises LCOFI */
#define TD16_HALF 0x8000ull
static int td16(const hpm_unit *h, unsigned n)
{
	return h->td == 2 && n >= TD_SLOTS;
}

/* whether counter n is there: mcycle, minstret, the implemented
 * mhpmcounters, the top-down unit's or the board's two counts */
static int counter_present(const hpm_unit *h, unsigned n)
{
	if (n < TD_SLOTS)
		return n != 1 && (n < 3 || implemented(h, n));
	return h->td == 1 || (h->td == 2 && (n == TD_BAD_SPEC || n == TD_FE_BOUND));
}

/* Cycles from the last flush in which no counter can wrap. */
static void rebudget(hpm_unit *h)
{
	uint64_t b = ~0ull;
	for (unsigned a = 0; a < h->nact; a++) {
		const unsigned n = h->act[a];
		uint64_t room = td16(h, n) ? (TD16_HALF - 1u - (h->ctr[n] & (TD16_HALF - 1u))) / h->maxinc[n]
					   : (ctr_mask(h, n) - h->ctr[n]) / h->maxinc[n];
		if (room < b)
			b = room;
	}
#ifdef HPMREF_EAGER /* validation build: count exactly at every step */
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
	for (unsigned n = 0; n < HPM_NCTR; n++) {
		h->maxinc[n] = 0;
		if (!counter_present(h, n))
			continue;
		if (((h->inhibit >> inhibit_bit(n)) & 1u) || (h->lag_n && n == h->lag_n))
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
	h->fast = !hpm_any && !h->lag_n && h->cyclecfg == 0 && h->instretcfg == 0;
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
	h->ev_max = HPM_EVENT_MAX_INDEX;
	h->td = m->cfg.td_board ? 2 : !m->cfg.no_topdown;

	const uint64_t C = EV(CYCLES), R = C | EV(INSTRUCTIONS) | EV(TOPDOWN_RETIRING), FL = EV(FLUSHES),
		       BUB = C | EV(FETCH_STALL_CYCLES),
		       FE = EV(TOPDOWN_FE_BOUND) | EV(TOPDOWN_FETCH_LATENCY),
		       BAD = EV(TOPDOWN_BAD_SPEC), CLR = EV(TOPDOWN_MACHINE_CLEARS),
		       BE = EV(TOPDOWN_BE_BOUND), CORE = EV(TOPDOWN_CORE_BOUND),
		       BR = EV(BRANCHES), TK = EV(BRANCHES_TAKEN),
		       MISS = EV(BRANCH_MISSES), J = EV(JUMPS),
		       FEN = EV(FENCES);
	uint64_t *k = h->kind_ev;
	k[HK_RESET] = BUB | FE;
	k[HK_BUB_MISP] = BUB | BAD | EV(TOPDOWN_BR_MISPREDICT);
	k[HK_BUB_TRAP] = BUB | BAD | CLR;
	k[HK_BUB_FE] = BUB | FE;
	k[HK_MEM_FIRST] = C | EV(MEM_STALL_CYCLES) | BE | EV(TOPDOWN_MEM_BOUND);
	k[HK_MULDIV_STALL] = C | EV(MULDIV_STALL_CYCLES) | BE | CORE;
	k[HK_WFI_WAIT] = C | BE | CORE | EV(WFI_CYCLES);
	k[HK_EXC] = C | EV(EXCEPTIONS) | FL | BAD | CLR;
	k[HK_IRQ] = C | EV(INTERRUPTS) | FL | BAD | CLR;
	k[HK_R_ALU] = R;
	k[HK_R_LOAD] = R | EV(LOADS);
	k[HK_R_STORE] = R | EV(STORES);
	k[HK_R_JAL] = R | J;
	k[HK_R_JALR] = R | J | FL;
	k[HK_R_BR_NT] = R | BR;
	k[HK_R_BR_T] = R | BR | TK;
	k[HK_R_BR_NT_MISS] = R | BR | MISS | FL;
	k[HK_R_BR_T_MISS] = R | BR | TK | MISS | FL;
	k[HK_R_MUL] = R | EV(MUL);
	k[HK_R_DIV] = R | EV(DIV);
	k[HK_R_CSR] = R | EV(CSR_INSTRUCTIONS);
	k[HK_R_FENCE] = R | FEN;
	k[HK_R_FENCEI] = R | FEN | FL;
	k[HK_R_XRET] = R | FL;
	k[HK_R_WFI] = R;
	k[HK_SEL_WAIT] = C | BE | CORE;
	k[HK_BR_WAIT] = C | BE | CORE;

	for (unsigned n = 0; n < HPM_NCTR; n++)
		if (n != 1)
			refresh(h, n);
	rebuild_active(h);
	h->sel_free = HPM_REFILL; /* reset opens a refill window (cycles 0..143) */
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

/* Sets OF of the counters in `wrapped` (counted up to cycle end-1) and, if
 * one of them had OF 0, LCOFIP: set at the end of the cycle after the wrap,
 * seen two cycles after it (docs/hpm.md). `late`: the counters whose (first)
 * wrap is in cycle end-1; the others wrapped by end-2, so their LCOFIP is
 * seen from `end` on, and no mip/sip write lies between their set and
 * `end` (cycles of the same step), so it goes straight into mip_sw. */
static void overflow_td(hpmref *m, uint32_t wrapped, uint32_t late, uint32_t td_wrapped,
			uint32_t td_late, uint64_t end);

static void overflow(hpmref *m, uint32_t wrapped, uint32_t late, uint64_t end)
{
	overflow_td(m, wrapped, late, 0, 0, end);
}

/* overflow() with the board's counts: td_wrapped/td_late have bit n -
 * TD_SLOTS of a count whose bit 15 changed (LCOFIP without OF) */
static void overflow_td(hpmref *m, uint32_t wrapped, uint32_t late, uint32_t td_wrapped,
			uint32_t td_late, uint64_t end)
{
	hpm_unit *h = &m->hpm;
	h->wrapped = wrapped;
	uint32_t lcof = 0;
	for (unsigned n = 3; n < 32; n++)
		if ((wrapped >> n) & 1u) {
			if (!(h->sel[n] & SEL_OF))
				lcof |= 1u << n;
			h->sel[n] |= SEL_OF;
		}
	if ((lcof & ~late) || (td_wrapped & ~td_late))
		m->mip_sw |= 1u << IRQ_LCOF;
	else if ((lcof || td_wrapped) && (!m->lcof_at || m->lcof_at > end + 1))
		m->lcof_at = end + 1;
}

void ref_hpm_flush(hpmref *m, uint64_t end)
{
	hpm_unit *h = &m->hpm;
	uint32_t wrapped = 0, late = 0, td_wrapped = 0, td_late = 0;
	if (h->pending) {
		for (unsigned a = 0; a < h->nact; a++) {
			const unsigned n = h->act[a];
			const unsigned w = n < 3 || n >= TD_SLOTS ? 64 : h->width;
			unsigned __int128 v = ctr_sum(h, n);
			if (td16(h, n)) {
				const uint64_t c = h->ctr[n] >> 15;
				if ((uint64_t)(v >> 15) != c) {
					td_wrapped |= 1u << (n - TD_SLOTS);
					if ((uint64_t)((v - h->incp[h->last_p][h->last_k][n]) >> 15) == c)
						td_late |= 1u << (n - TD_SLOTS);
				}
			} else if (n >= TD_SLOTS) { /* no LCOFI; a SLOTS wrap sets OF */
				if (n == TD_SLOTS && (v >> 64))
					h->td_of = 1;
			} else if (v >> w) {
				wrapped |= 1u << n;
				/* not wrapped without the last cycle: it wrapped in end-1 */
				if (!((v - h->incp[h->last_p][h->last_k][n]) >> w))
					late |= 1u << n;
			}
			h->ctr[n] = (uint64_t)v & ctr_mask(h, n);
		}
		memset(h->hist, 0, sizeof h->hist);
		h->pending = 0;
	}
	overflow_td(m, wrapped, late, td_wrapped, td_late, end);
	if (h->lag_n && !h->lag_left) { /* the window is over: counted as usual */
		h->lag_n = 0;
		rebuild_active(h);
	} else {
		rebudget(h);
	}
}

/* Counts `len` cycles of kind `kind` in privilege p for the counter of the
 * open refill window (docs/hpm.md, "Selector writes wait for the refill"):
 * inside the window each cycle's increment (its events, the mode filter of
 * its privilege) is added in the next cycle, where mcountinhibit gates it
 * and a write of the counter (skip: in this 1-cycle segment) drops it; the
 * window's first cycle adds nothing (lag_f is 0) and the increment of its
 * last cycle is never added. After the window, as usual. Returns the
 * counter's bit if it wraps. */
static uint32_t lag_count(hpm_unit *h, unsigned kind, uint64_t len, unsigned p, int skip)
{
	const unsigned n = h->lag_n;
	const unsigned d = ((h->inh[n] >> p) & 1u) ? 0 : h->inc[n][kind];
	const uint64_t k = len < h->lag_left ? len : h->lag_left; /* cycles in the window */
	unsigned __int128 add = (unsigned __int128)(len - k) * d;
	if (k) {
		add += h->lag_f + (unsigned __int128)(k - 1) * d;
		h->lag_left -= k;
		h->lag_f = h->lag_left ? d : 0;
	}
	if (skip || ((h->inhibit >> n) & 1u) || !add)
		return 0;
	const unsigned __int128 v = h->ctr[n] + add;
	h->ctr[n] = (uint64_t)v & h->mask;
	return v > h->mask ? 1u << n : 0;
}

void ref_hpm_lag_step(hpmref *m, unsigned sk, uint64_t stall, unsigned lk, unsigned bk,
		      unsigned px, unsigned pb)
{
	hpm_unit *h = &m->hpm;
	uint32_t wrapped = lag_count(h, sk, stall, px, 0); /* in cycle order */
	uint32_t last = lag_count(h, lk, 1, px, 0);
	if (bk != HK_NUM) {
		wrapped |= last;
		last = lag_count(h, bk, 1, pb, 0);
	}
	/* a first wrap in the step's last cycle (m->cycle - 1): LCOFIP pending */
	if (wrapped | last)
		overflow(m, wrapped | last, last & ~wrapped, m->cycle);
}

/* Counts cycle t, of kind `kind` in the current privilege, exactly, for all
 * counters except those in `skip` (written in this cycle: the write wins).
 * hist must be empty (flushed). */
static void count_cycle(hpmref *m, unsigned kind, uint64_t skip, uint64_t t)
{
	hpm_unit *h = &m->hpm;
	uint32_t wrapped = 0, td_wrapped = 0;
	if (h->lag_n)
		wrapped = lag_count(h, kind, 1, m->priv, (skip >> h->lag_n) & 1u);
	for (unsigned a = 0; a < h->nact; a++) {
		const unsigned n = h->act[a];
		unsigned d = h->incp[m->priv][kind][n];
		if (!d || ((skip >> n) & 1u))
			continue;
		const uint64_t mask = ctr_mask(h, n);
		uint64_t v = h->ctr[n] + d; /* ctr <= mask, d <= 4: no 64-bit wrap unless mask = ~0 */
		if (td16(h, n))
			td_wrapped |= (uint32_t)((v ^ h->ctr[n]) >> 15 & 1u) << (n - TD_SLOTS);
		else if (n >= TD_SLOTS)
			h->td_of |= n == TD_SLOTS && v < d;
		else if (v < d || v > mask)
			wrapped |= 1u << n;
		h->ctr[n] = v & mask;
	}
	overflow_td(m, wrapped, wrapped, td_wrapped, td_wrapped, t + 1);
}

uint64_t ref_hpm_wfi_wake(hpmref *m, uint64_t t, uint64_t w0, unsigned priv)
{
	hpm_unit *h = &m->hpm;
	if (h->fast || !(m->mie & (1u << IRQ_LCOF)))
		return w0;
	ref_hpm_flush(m, t);
	uint64_t w = w0;
	for (unsigned a = 0; a < h->nact; a++) {
		const unsigned n = h->act[a];
		if (n < 3 || n >= TD_SLOTS || (h->sel[n] & SEL_OF))
			continue;
		unsigned d = h->incp[priv][HK_WFI_WAIT][n];
		if (!d)
			continue;
		/* first j >= 1 with ctr + d*j > mask: it wraps in cycle t+j-1,
         * LCOFIP is seen from t+j+1. q = j-1 can be 2^64-1 (a 64-bit
         * counter at 0): never wraps in time. */
		uint64_t q = (h->mask - h->ctr[n]) / d;
		if (w - t > 2 && q < w - t - 2)
			w = t + q + 2;
	}
	const unsigned n = h->lag_n; /* a cycle late in its window (lag_count) */
	if (n && !(h->sel[n] & SEL_OF) && !((h->inhibit >> n) & 1u)) {
		const unsigned d = ((h->inh[n] >> priv) & 1u) ? 0 : h->inc[n][HK_WFI_WAIT];
		uint64_t room = h->mask - h->ctr[n], f = h->lag_f, j = 0;
		for (; j < h->lag_left; j++) { /* cycle t+j adds f, its own increment next */
			if (f > room) { /* the wrap in t+j, LCOFIP seen from t+j+2 */
				if (j + 2 < w - t)
					w = t + j + 2;
				return w;
			}
			room -= f;
			f = d;
		}
		/* then d per cycle: the wrap in cycle t+j+room/d, LCOFIP seen two
		 * cycles later */
		if (d) {
			const unsigned __int128 o = (unsigned __int128)j + room / d + 2;
			if (o < w - t)
				w = t + (uint64_t)o;
		}
	}
	return w;
}

/* ---- CSRs ---- */

void ref_hpm_wait(hpmref *m, uint64_t s, uint64_t end)
{
	hpm_unit *h = &m->hpm;
	if (h->fast) {
		if (!(h->inhibit & 1u))
			h->ctr[0] += s;
		return;
	}
	if (h->lag_n) { /* cycles end-s .. end-1: a first wrap in end-1 is pending */
		const uint32_t wrapped = lag_count(h, HK_SEL_WAIT, s - 1, m->priv, 0);
		const uint32_t last = lag_count(h, HK_SEL_WAIT, 1, m->priv, 0);
		if (wrapped | last)
			overflow(m, wrapped | last, last & ~wrapped, end);
	}
	h->hist[m->priv][HK_SEL_WAIT] += s;
	h->last_p = (uint8_t)m->priv;
	h->last_k = HK_SEL_WAIT;
	h->pending += s;
	if (h->pending > h->budget || h->lag_n)
		ref_hpm_flush(m, end);
}

uint64_t ref_hpm_csr_wait(hpmref *m, unsigned a, int write, uint64_t t, uint64_t *tr)
{
	hpm_unit *h = &m->hpm;
	const unsigned n = a & 0x1Fu, space = a >> 5;
	const int sel = space == CSR_MCOUNTINHIBIT >> 5 || space == CSR_MCYCLECFGH >> 5;
	if (n < 3 || !(sel || space == CSR_MCYCLE >> 5 || space == CSR_MCYCLEH >> 5 ||
		       space == CSR_CYCLE >> 5 || space == CSR_CYCLEH >> 5))
		return 0;
	/* commit in t+2 (a read) or t+3 (a write), a selector write not before
	 * the refill ends; the read 1 (a read) or 2 (a write) cycles before */
	const uint64_t late = write ? 2 : 1;
	uint64_t s = late + 1;
	if (sel && write) {
		if (h->sel_free > t + s)
			s = h->sel_free - t;
		h->sel_free = t + s + 1 + HPM_REFILL;
	}
	*tr = t + s - late;
	ref_hpm_wait(m, s - late, *tr);
	return s;
}

uint32_t ref_hpm_ctr_exists(const hpmref *m)
{
	const unsigned k = 3 + m->hpm.num;
	return k >= 32 ? ~0u : (1u << k) - 1u;
}

int ref_hpm_owns(unsigned a)
{
	return (a >= CSR_MCYCLE && a < CSR_MHPMCOUNTER3 + CSR_MHPMCOUNTER3_COUNT) ||
	       (a >= CSR_MCYCLEH && a < CSR_MHPMCOUNTER3H + CSR_MHPMCOUNTER3H_COUNT) ||
	       (a >= CSR_CYCLE && a < CSR_HPMCOUNTER3 + CSR_HPMCOUNTER3_COUNT && a != CSR_TIME) ||
	       (a >= CSR_CYCLEH && a < CSR_HPMCOUNTER3H + CSR_HPMCOUNTER3H_COUNT && a != CSR_TIMEH) ||
	       (a >= CSR_MCOUNTINHIBIT && a < CSR_MHPMEVENT3 + CSR_MHPMEVENT3_COUNT) ||
	       (a >= CSR_MCYCLECFGH && a < CSR_MHPMEVENT3H + CSR_MHPMEVENT3H_COUNT) ||
	       a == CSR_SCOUNTOVF || ref_hpm_td_csr(a);
}

int ref_hpm_td_csr(unsigned a)
{
	return (a >= CSR_MSLOTS && a <= CSR_MTOPDOWN) || (a >= CSR_SLOTS && a <= CSR_TDMETRICS2) ||
	       (a >= CSR_MTDRETIRING && a <= CSR_MTDBAD16);
}

/* the board's counts' CSRs (td = 2) */
static int td_board_csr(unsigned a)
{
	return a == CSR_MTDFE16 || a == CSR_MTDBAD16;
}

/* whether top-down CSR a exists: the unit's with the unit, the board's
 * two with the board's form */
int ref_hpm_td_exists(const hpmref *m, unsigned a)
{
	return m->hpm.td == 2 ? td_board_csr(a) : m->hpm.td && !td_board_csr(a);
}

/* q(x) = floor(255 * x / S), 0 when S = 0, at most 255 (docs/hpm.md) */
static unsigned td_q(uint64_t x, uint64_t s)
{
	if (!s)
		return 0;
	const unsigned __int128 q = (unsigned __int128)255u * x / s;
	return q > 255u ? 255u : (unsigned)q;
}

static unsigned td_min(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* tdmetrics (level 1) and tdmetrics2 (level 2, OF) from the counts: each
 * field clamped to what the ones before it left of 255 */
static uint32_t td_metrics(const hpm_unit *h, int level2)
{
	uint64_t c[HPM_NCTR - TD_SLOTS];
	for (unsigned i = 0; i < HPM_NCTR - TD_SLOTS; i++)
		c[i] = (uint64_t)ctr_sum(h, TD_SLOTS + i);
	const uint64_t s = c[0];
	const unsigned ret = td_q(c[TD_RETIRING - TD_SLOTS], s);
	const unsigned bad = td_min(td_q(c[TD_BAD_SPEC - TD_SLOTS], s), 255u - ret);
	const unsigned fe = td_min(td_q(c[TD_FE_BOUND - TD_SLOTS], s), 255u - ret - bad);
	const unsigned be = 255u - ret - bad - fe;
	if (!level2)
		return ret << TDMETRICS_RETIRING_SHIFT | bad << TDMETRICS_BAD_SPEC_SHIFT |
		       fe << TDMETRICS_FE_BOUND_SHIFT | be << TDMETRICS_BE_BOUND_SHIFT;
	const unsigned br = td_min(td_q(c[TD_BR_MISPREDICT - TD_SLOTS], s), bad);
	const unsigned mem = td_min(td_q(c[TD_MEM_BOUND - TD_SLOTS], s), be);
	return br << TDMETRICS2_BR_MISPREDICT_SHIFT | fe << TDMETRICS2_FETCH_LAT_SHIFT |
	       mem << TDMETRICS2_MEM_BOUND_SHIFT | (uint32_t)h->td_of << TDMETRICS2_OF_SHIFT;
}

/* a read of the top-down unit's CSR a (present) */
static uint32_t td_read(const hpm_unit *h, unsigned a)
{
	uint64_t v;
	switch (a) {
	case CSR_MTOPDOWN: return (uint32_t)h->td_of;
	case CSR_TDMETRICS: return td_metrics(h, 0);
	case CSR_TDMETRICS2: return td_metrics(h, 1);
	case CSR_SLOTS: case CSR_MSLOTS: v = (uint64_t)ctr_sum(h, TD_SLOTS); return (uint32_t)v;
	case CSR_SLOTSH: case CSR_MSLOTSH: v = (uint64_t)ctr_sum(h, TD_SLOTS); return (uint32_t)(v >> 32);
	case CSR_MTDFE16: return (uint32_t)((uint64_t)ctr_sum(h, TD_FE_BOUND) & 0xFFFFu);
	case CSR_MTDBAD16: return (uint32_t)((uint64_t)ctr_sum(h, TD_BAD_SPEC) & 0xFFFFu);
	default: /* mtdretiring(h)..: a count per pair */
		v = (uint64_t)ctr_sum(h, TD_RETIRING + ((a - CSR_MTDRETIRING) >> 1));
		return (uint32_t)((a - CSR_MTDRETIRING) & 1u ? v >> 32 : v);
	}
}

uint32_t ref_hpm_read(const hpmref *m, unsigned a, unsigned priv)
{
	const hpm_unit *h = &m->hpm;
	const unsigned n = a & 0x1Fu;
	if (ref_hpm_td_csr(a))
		return h->td ? td_read(h, a) : 0;
	if (a == CSR_SCOUNTOVF) {
		uint32_t of = 0;
		for (unsigned i = 3; i < 3 + h->num; i++)
			of |= (uint32_t)(h->sel[i] >> 63) << i;
		return priv == PRV_M ? of : of & m->mcounteren;
	}
	if ((a >> 8) == 0xBu || (a >> 8) == 0xCu) { /* counters and shadows */
		if (n == 1 || (n >= 3 && !implemented(h, n)))
			return 0;
		uint64_t v = (uint64_t)ctr_sum(h, n) & ctr_mask(h, n);
		return (uint32_t)((a & 0x80u) ? v >> 32 : v);
	}
	if (a == CSR_MCOUNTINHIBIT)
		return h->inhibit;
	if (a == CSR_MCYCLECFGH)
		return h->cyclecfg << 28;
	if (a == CSR_MINSTRETCFGH)
		return h->instretcfg << 28;
	if (n >= 3 && implemented(h, n)) /* mhpmevent */
		return (uint32_t)((a >> 8) == 7u ? h->sel[n] >> 32 : h->sel[n]);
	return 0; /* 0x321, 0x322, unimplemented */
}

uint32_t ref_hpm_write(hpmref *m, unsigned a, uint32_t v, uint64_t t)
{
	hpm_unit *h = &m->hpm;
	const unsigned n = a & 0x1Fu;
	const int is_ctr = (a >> 8) == 0xBu;
	const int hi = is_ctr ? (a & 0x80u) != 0 : (a >> 8) == 7u;
	const int live = is_ctr ? (n != 1 && (n < 3 || implemented(h, n))) : 0;
	const int td = ref_hpm_td_csr(a); /* mslots(h), mtopdown: the unit is present */
	/* the top-down counters a write replaces: SLOTS, or all of them */
	const uint64_t td_all = ((1ull << HPM_NCTR) - 1u) & ~((1ull << TD_SLOTS) - 1u);
	/* the board's counts (td = 2): a write of mcycle (SLOTS) clears them */
	const int td_clear = h->td == 2 && a == CSR_MCYCLE;
	const uint64_t td_skip = td_clear ? td_all : !td ? 0 :
				 a == CSR_MTOPDOWN ? ((v & MTOPDOWN_OF) ? td_all : 0) : 1ull << TD_SLOTS;

	/* cycle t: the CSR instruction's last (only) X cycle, old settings; a
     * written counter keeps the written value (its increment is dropped) */
	if (h->fast) {
		if (!(h->inhibit & 1u) && !(live && n == 0))
			h->ctr[0]++;
		if (!(h->inhibit & 4u) && !(live && n == 2))
			h->ctr[2]++;
		h->wrapped = 0;
	} else {
		ref_hpm_flush(m, t);
		count_cycle(m, HK_R_CSR, (live ? 1ull << n : 0) | td_skip, t);
	}
	if (td_clear)
		memset(&h->ctr[TD_SLOTS], 0, sizeof h->ctr[0] * (HPM_NCTR - TD_SLOTS));

	if (td) {
		if (a == CSR_MTOPDOWN) {
			if (td_skip) {
				memset(&h->ctr[TD_SLOTS], 0, sizeof h->ctr[0] * (HPM_NCTR - TD_SLOTS));
				h->td_of = 0;
			}
		} else {
			uint64_t c = h->ctr[TD_SLOTS];
			h->ctr[TD_SLOTS] = a == CSR_MSLOTSH ? (c & 0xFFFFFFFFull) | (uint64_t)v << 32
							    : (c & ~0xFFFFFFFFull) | v;
		}
		rebudget(h);
		return td_read(h, a); /* mtopdown: OF after the write (a wrap in t included) */
	}

	if (is_ctr) {
		if (live) {
			uint64_t c = h->ctr[n];
			c = hi ? (c & 0xFFFFFFFFull) | (uint64_t)v << 32
			       : (c & ~0xFFFFFFFFull) | v;
			h->ctr[n] = n < 3 ? c : c & h->mask;
		}
		rebudget(h);
	} else if (a == CSR_MCOUNTINHIBIT) {
		/* bit 1 (time) and the counters that do not exist read 0 */
		h->inhibit = v & ~2u & ref_hpm_ctr_exists(m);
		rebuild_active(h);
	} else if (a == CSR_MCYCLECFGH || a == CSR_MINSTRETCFGH) {
		uint32_t f = (v >> 28) & 7u;
		if (a == CSR_MCYCLECFGH)
			h->cyclecfg = f;
		else
			h->instretcfg = f;
		refresh(h, a == CSR_MCYCLECFGH ? 0 : 2);
		if (a == CSR_MCYCLECFGH) /* the top-down unit counts in mcycle's cycles */
			for (unsigned n = TD_SLOTS; n < HPM_NCTR; n++)
				refresh(h, n);
		rebuild_active(h);
	} else if (n >= 3 && implemented(h, n)) { /* mhpmevent */
		/* halves merge with the value at the start of the cycle; a wrap in
         * this cycle sets OF whatever software writes */
		uint64_t cur = h->sel[n];
		int of_now = (h->wrapped >> n) & 1u;
		uint64_t start = of_now ? cur & ~SEL_OF : cur; /* undo this cycle's OF */
		uint64_t w = hi ? (start & 0xFFFFFFFFull) | (uint64_t)v << 32
				: (start & ~0xFFFFFFFFull) | v;
		w = sel_legal(h, w);
		h->sel[n] = of_now ? w | SEL_OF : w;
		/* its refill window c+1 .. c+144: the counter counts a cycle late
         * (the window before is over: this write waited for it) */
		h->lag_n = n;
		h->lag_left = HPM_REFILL;
		h->lag_f = 0;
		refresh(h, n);
		rebuild_active(h);
		rebudget(h);
		/* the reported value is the write's own (an OF set by a wrap in this
         * cycle is not in it; docs/hpm.md "Value reported for a write") */
		return (uint32_t)(hi ? w >> 32 : w);
	}
	/* 0x321/0x322 (low halves) and unimplemented ones ignore writes */
	rebudget(h); /* cycle t changed the counters */
	return ref_hpm_read(m, a, PRV_M);
}
