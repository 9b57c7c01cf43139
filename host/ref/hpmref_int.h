/* hpmref internals: the model state shared by iss.c, csr.c, soc.c, hpm.c,
 * and their functions (prefix ref_). Not a public header. */
#ifndef HPMREF_INT_H
#define HPMREF_INT_H

#include "hpmref.h"
#include "soc_map.h"
#include "timing.h"
#include <string.h>

#define PRV_U 0u
#define PRV_S 1u
#define PRV_M 3u

/* mstatus bits */
#define MSTATUS_WMASK CSR_MSTATUS_WMASK
#define SSTATUS_MASK CSR_SSTATUS_WMASK

/* interrupt numbers / mip bits */
#define IRQ_SSI MIP_SSIP_SHIFT
#define IRQ_MSI MIP_MSIP_SHIFT
#define IRQ_STI MIP_STIP_SHIFT
#define IRQ_MTI MIP_MTIP_SHIFT
#define IRQ_SEI MIP_SEIP_SHIFT
#define IRQ_MEI MIP_MEIP_SHIFT
#define IRQ_LCOF MIP_LCOFIP_SHIFT
#define MIP_SW_MASK CSR_MIP_WMASK
#define MIE_MASK CSR_MIE_WMASK
#define MIDELEG_MASK CSR_MIDELEG_WMASK
#define MEDELEG_MASK CSR_MEDELEG_WMASK
#define CAUSE_MASK CSR_MCAUSE_WMASK /* mcause/scause: interrupt bit, 4-bit code */


#define MISA_VALUE 0x40141100u /* RV32 I M S U */

#define UART_BUF_SIZE 4096u

/* ---- the HPM unit (hpm.c, docs/hpm.md) ----
 * Every cycle belongs to one "segment kind": a fixed set of catalogue events
 * that are 1 in that cycle (e.g. the first X cycle of a load, the last X cycle
 * of a retiring branch that was taken and mispredicted, a bubble after a
 * trap). A step of the ISS is at most three segments (stall cycles, last X
 * cycle, bubble), each with a length and the privilege mode of its cycles
 * (ref_hpm_step). */
enum {
	HK_RESET,        /* cycles 0 and 1 after reset */
	HK_BUB_MISP,     /* bubble after a mispredicted branch */
	HK_BUB_TRAP,     /* bubble after an exception or interrupt */
	HK_BUB_FE,       /* bubble after jalr, fence.i, mret, sret */
	HK_MEM_FIRST,    /* first X cycle of a load/store that accesses the bus */
	HK_MULDIV_STALL, /* X cycles of mul/div except the last */
	HK_WFI_WAIT,     /* X cycles of wfi except the last */
	HK_EXC,          /* X cycle of an instruction taking an exception */
	HK_IRQ,          /* X cycle in which an interrupt is taken */
	HK_R_ALU,        /* last X cycle of a retiring ... */
	HK_R_LOAD,
	HK_R_STORE,
	HK_R_JAL,
	HK_R_JALR,
	HK_R_BR_NT,
	HK_R_BR_T,
	HK_R_BR_NT_MISS,
	HK_R_BR_T_MISS,
	HK_R_MUL,
	HK_R_DIV,
	HK_R_CSR,
	HK_R_FENCE,
	HK_R_FENCEI,
	HK_R_XRET,
	HK_R_WFI,
	HK_SEL_WAIT, /* X cycles of a selector write waiting for a refill */
	HK_BR_WAIT,  /* first X cycle of a branch to a target not 4-byte aligned */
	HK_NUM
};

/* The top-down unit's counters (docs/hpm.md, "Top-down unit") follow the
 * mhpmcounters in the counter arrays: they count in mcycle's cycles
 * (mcountinhibit.CY, mcyclecfg), SLOTS 1 per cycle, the others their
 * catalogue event. Present unless hpmref_config.no_topdown. */
enum {
	TD_SLOTS = 32,
	TD_RETIRING,
	TD_BAD_SPEC,
	TD_FE_BOUND,
	TD_BR_MISPREDICT,
	TD_MEM_BOUND,
	HPM_NCTR
};

typedef struct hpm_unit {
	uint64_t ctr[HPM_NCTR]; /* 0 mcycle, 2 minstret, 3..31 mhpmcounterN (masked),
				   32.. the top-down unit's, as of the last flush
				   (hist not yet added) */
	uint64_t sel[32];    /* 3..31 mhpmeventN as read (legalized, OF in bit 63) */
	uint32_t inhibit;    /* mcountinhibit (bit 1 reads 0) */
	uint32_t cyclecfg;   /* mcyclecfg bits 62..60 (MINH SINH UINH) as bits 2..0 */
	uint32_t instretcfg; /* minstretcfg, the same */
	unsigned num, width; /* HPM_NUM, HPM_WIDTH */
	unsigned ev_max;     /* highest catalogue index */
	uint64_t mask;       /* 2^width - 1 */
	int fast;            /* no mhpmcounter can count and no cfg filter is set:
				only mcycle/minstret move (inhibit still applies) */
	/* Lazy counting (slow path): the cycles of each (privilege, kind) since
     * the last flush. No counter can wrap within `budget` cycles of the last
     * flush, so a step only adds to hist until pending exceeds budget; then
     * (at the end of that step) every counter is brought up to date and the
     * wraps are handled (OF visible from the next step, LCOFIP two cycles
     * after the wrap: from the next step, or the cycle after its entry). */
	uint64_t hist[4][HK_NUM];
	uint64_t pending, budget;
	uint8_t last_p, last_k; /* privilege and kind of the last cycle in hist */
	uint32_t wrapped;  /* counters that wrapped in the last exact count */
	uint64_t sel_free; /* first cycle a selector write may commit (refill) */
	/* The counter of an open refill window counts a cycle late (docs/hpm.md,
     * "Selector writes wait for the refill"): it is left out of hist and
     * counted segment by segment in cycle order (ref_hpm_lag_step). */
	unsigned lag_n;    /* that counter (0: none) */
	uint64_t lag_left; /* cycles of its window not yet counted */
	unsigned lag_f;    /* its increment of the last cycle counted, added in the next */
	int td;            /* 0: no top-down unit, 1: the unit, 2: the board's
			      counts (TD_BAD_SPEC, TD_FE_BOUND mod 2^16 only) */
	int td_of;         /* its OF: SLOTS wrapped since the last reset */
	unsigned nact;     /* counters that may count, in act[] */
	uint8_t act[HPM_NCTR];
	uint8_t maxinc[HPM_NCTR];          /* largest increment of a counter in one cycle */
	uint8_t inh[HPM_NCTR];             /* per counter: bit p set = not counted in priv p */
	uint64_t kind_ev[HK_NUM];          /* catalogue event mask of each kind */
	uint8_t inc[HPM_NCTR][HK_NUM];     /* increment per kind before any filter */
	uint8_t incp[4][HK_NUM][HPM_NCTR]; /* per privilege, after the mode filter and
					      mcountinhibit (0 for inactive counters) */
} hpm_unit;

struct hpmref {
	hpmref_config cfg;
	uint32_t x[32];
	uint32_t pc;
	unsigned priv;
	uint64_t cycle;   /* cycle in which the next instruction enters X */
	uint64_t retired; /* instructions retired (not minstret: never
			       written or inhibited) */

	/* The instruction after a store is fetched before the store writes
     * memory; a store that overwrites it leaves the old word in the pipeline
     * (docs/timing.md, "Instruction fetch"). */
	int stale_valid;
	uint32_t stale_pc, stale_insn;

	/* CSRs */
	uint32_t mstatus; /* only the writable bits */
	uint32_t mtvec, mepc, mcause, mtval, mscratch;
	uint32_t stvec, sepc, scause, stval, sscratch;
	uint32_t mie, mip_sw; /* mip_sw: the software-writable mip bits */
	/* An overflow sets LCOFIP at the end of the cycle after the wrap: seen
	 * from lcof_at (0: none), after a mip/sip write in lcof_at - 1 (hpm.c,
	 * docs/hpm.md "Overflow and LCOFI") */
	uint64_t lcof_at;
	uint32_t medeleg, mideleg, mcounteren, scounteren;
	/* mguard.GUARD: the M-only regions (memmap.def) fault below M; set by a
	 * write of 1, cleared only by reset */
	uint32_t mguard;

	/* CLINT: mtime(t) = t + mtime_off (mod 2^64) */
	uint32_t msip;
	uint64_t mtimecmp;
	uint64_t mtime_off;

	/* UART: tx_busy(t) = tx_valid && tx_t < t && t <= tx_t + 10*div */
	int uart_tx_valid;
	uint64_t uart_tx_t;
	uint32_t uart_div;
	size_t uart_head, uart_len;
	uint8_t uart_buf[UART_BUF_SIZE];
	/* UART receive: bytes handed in by the runner, available at once
     * (the model does not time the serial line in); rx_idle counts
     * consecutive status reads that saw nothing to do (no rx byte, tx idle) */
	size_t rx_head, rx_len;
	uint8_t rx_buf[UART_BUF_SIZE];
	uint32_t rx_idle;

	uint32_t leds;

	hpm_unit hpm;

	uint8_t fw[HPM_FW_SIZE];
	uint8_t ram[HPM_RAM_SIZE];
};

/* The functions below are the model's internals: hidden, and localised in
 * libhpmref.a (mk/ref.mk), which exports only hpmref.h. */
#pragma GCC visibility push(hidden)

/* ---- soc.c ---- */
/* Device/memory data access in X cycle t (first X cycle). addr aligned to size.
 * Return 0, or -1 for an access fault. */
int ref_soc_load(hpmref *m, uint32_t addr, unsigned size, uint64_t t, uint32_t *val);
int ref_soc_store(hpmref *m, uint32_t addr, unsigned size, uint32_t val, uint64_t t);
uint64_t ref_soc_mtime(const hpmref *m, uint64_t t);
/* MTIP(t) = mtime(t-1) >= mtimecmp(t-1) (the CLINT registers the compare),
 * 0 in cycle 0. Every query is at least 2 cycles after a CLINT store (its
 * second X cycle looks at no mip), so mtime_off and mtimecmp are already
 * those of cycle t-1. */
static inline int ref_soc_mtip(const hpmref *m, uint64_t t)
{
	return t != 0 && (t - 1 + m->mtime_off) >= m->mtimecmp;
}

/* ---- csr.c ---- */
/* mip as read in cycle t. */
uint32_t ref_csr_mip(const hpmref *m, uint64_t t);
/* Checks access rights; returns 0 or -1 (illegal instruction). write: the
 * instruction writes the CSR. */
int ref_csr_check(const hpmref *m, unsigned addr, int write);
/* Reads a CSR in cycle t (after ref_csr_check passed, or for the host). Returns
 * -1 if it does not exist. */
int ref_csr_read(const hpmref *m, unsigned addr, uint64_t t, uint32_t *val);
/* Writes a CSR that the HPM unit does not own (ref_hpm_owns) in cycle t
 * (after ref_csr_check). Returns the CSR's value after the write (the
 * WARL-legalised value; hardware-driven bits as of cycle t), as reported in
 * the retire record. */
uint32_t ref_csr_write(hpmref *m, unsigned addr, uint32_t val, uint64_t t);
/* Takes a trap (exception or interrupt, cause with bit 31) at pc. */
void ref_csr_trap(hpmref *m, uint32_t cause, uint32_t tval);
/* Interrupt to take when an instruction enters X in cycle t: returns the
 * cause (with bit 31) or 0 if none. */
uint32_t ref_csr_pending_irq(const hpmref *m, uint64_t t);

/* ---- hpm.c ---- */
/* Sets up the unit from m->cfg and counts reset cycles 0 and 1. */
void ref_hpm_init(hpmref *m);
/* 1 if the HPM unit owns the CSR address (counters, selectors, mcountinhibit,
 * mcyclecfg/minstretcfg, scountovf, the top-down unit's when present). */
int ref_hpm_owns(unsigned addr);
/* 1 if addr is one of the top-down unit's CSRs (they exist only with it). */
int ref_hpm_td_csr(unsigned addr);
int ref_hpm_td_exists(const hpmref *m, unsigned addr);
/* The counters that exist, by index: mcycle, time, minstret (bits 0..2) and
 * mhpmcounter3..2+HPM_NUM. mcountinhibit and x counteren keep bits of these
 * only (the WARL rules of docs/hpm.md). */
uint32_t ref_hpm_ctr_exists(const hpmref *m);
/* Reads an HPM CSR as the software in privilege priv sees it at the start of
 * the current cycle (every cycle before m->cycle has been counted). */
uint32_t ref_hpm_read(const hpmref *m, unsigned addr, unsigned priv);
/* Writes an HPM CSR from a retiring CSR instruction in cycle t: counts cycle
 * t first (old settings; the written counter's increment is dropped), then
 * writes. Returns the value after the write (retire record csr_val). */
uint32_t ref_hpm_write(hpmref *m, unsigned addr, uint32_t val, uint64_t t);
/* A CSR instruction on addr entering X in cycle t (write: it writes the
 * CSR): the cycles it waits before its commit cycle, 0 for every CSR but a
 * counter or selector 3..31. Such an access reads the CSR as it is at the
 * start of *tr and commits in t + the result: a read 2, a write 3, a
 * selector write also not before its previous write's refill ends, whose
 * window the write starts; *tr is the commit cycle less 1 (a read) or 2 (a
 * write) (docs/timing.md). Counts the wait cycles before *tr in the
 * current privilege; ref_hpm_wait counts the rest after the read. */
uint64_t ref_hpm_csr_wait(hpmref *m, unsigned addr, int write, uint64_t t, uint64_t *tr);
/* Counts s wait cycles (X stalls of an HPM access), end-s .. end-1, in the
 * current privilege, in cycle order (a refill window's late counter too; a
 * first wrap in end-1 has its LCOFIP pending). */
void ref_hpm_wait(hpmref *m, uint64_t s, uint64_t end);
/* Brings every counter up to date (slow path; see hpm_unit.hist); hist holds
 * the cycles before `end`. */
void ref_hpm_flush(hpmref *m, uint64_t end);
/* ref_hpm_step while a refill window's counter counts a cycle late; m->cycle
 * is already the step's end. */
void ref_hpm_lag_step(hpmref *m, unsigned sk, uint64_t stall, unsigned lk, unsigned bk,
		      unsigned px, unsigned pb);
/* wfi entering X in cycle t in privilege priv, woken by MTIP, a pending
 * LCOFIP (or never) in cycle w0: returns the earlier wake cycle caused by a
 * counter wrapping while it waits (LCOFIP seen two cycles after the wrap),
 * if mie.LCOFIE is set. */
uint64_t ref_hpm_wfi_wake(hpmref *m, uint64_t t, uint64_t w0, unsigned priv);

#pragma GCC visibility pop

/* One step's cycles: `stall` cycles of kind sk, then the last X cycle of kind
 * lk (both in px), then a bubble of kind bk in pb if bk != HK_NUM.
 * retire: the instruction retires (minstret's fast path). m->cycle is
 * already the step's end (the next entry). */
static inline void ref_hpm_step(hpmref *m, unsigned sk, uint64_t stall, unsigned lk,
				unsigned bk, unsigned px, unsigned pb, unsigned retire)
{
	hpm_unit *h = &m->hpm;
	if (__builtin_expect(h->fast, 1)) {
		if (!(h->inhibit & 1u))
			h->ctr[0] += stall + 1 + (bk != HK_NUM);
		if (!(h->inhibit & 4u))
			h->ctr[2] += retire;
		return;
	}
	if (__builtin_expect(h->lag_n != 0, 0))
		ref_hpm_lag_step(m, sk, stall, lk, bk, px, pb);
	h->hist[px][sk] += stall;
	h->hist[px][lk]++;
	h->last_p = (uint8_t)px;
	h->last_k = (uint8_t)lk;
	if (bk != HK_NUM) {
		h->hist[pb][bk]++;
		h->last_p = (uint8_t)pb;
		h->last_k = (uint8_t)bk;
	}
	h->pending += stall + 1 + (bk != HK_NUM);
	if (h->pending > h->budget || h->lag_n)
		ref_hpm_flush(m, m->cycle); /* m->cycle: the step's end */
}

#endif
