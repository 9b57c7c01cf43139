/* hpmref internals: the model state shared by iss.c, csr.c, soc.c, hpm.c.
 * Not a public header. */
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
#define MSTATUS_SIE   (1u << 1)
#define MSTATUS_MIE   (1u << 3)
#define MSTATUS_SPIE  (1u << 5)
#define MSTATUS_MPIE  (1u << 7)
#define MSTATUS_SPP   (1u << 8)
#define MSTATUS_MPP   (3u << 11)
#define MSTATUS_MPRV  (1u << 17)
#define MSTATUS_SUM   (1u << 18)
#define MSTATUS_MXR   (1u << 19)
#define MSTATUS_TVM   (1u << 20)
#define MSTATUS_TW    (1u << 21)
#define MSTATUS_TSR   (1u << 22)
#define MSTATUS_WMASK (MSTATUS_SIE | MSTATUS_MIE | MSTATUS_SPIE | MSTATUS_MPIE | \
                       MSTATUS_SPP | MSTATUS_MPP | MSTATUS_MPRV | MSTATUS_TVM | \
                       MSTATUS_TW | MSTATUS_TSR)
#define SSTATUS_MASK  (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP)

/* interrupt numbers / mip bits */
#define IRQ_SSI   1u
#define IRQ_MSI   3u
#define IRQ_STI   5u
#define IRQ_MTI   7u
#define IRQ_SEI   9u
#define IRQ_MEI  11u
#define IRQ_LCOF 13u
#define MIP_SW_MASK   ((1u << IRQ_SSI) | (1u << IRQ_STI) | (1u << IRQ_SEI) | (1u << IRQ_LCOF))
#define MIE_MASK      0x2AAAu
#define MIDELEG_MASK  0x2222u
#define MEDELEG_MASK  0x0000B3FFu

/* exception causes */
#define EXC_INSN_MISALIGNED 0u
#define EXC_INSN_ACCESS     1u
#define EXC_ILLEGAL         2u
#define EXC_BREAKPOINT      3u
#define EXC_LOAD_MISALIGNED 4u
#define EXC_LOAD_ACCESS     5u
#define EXC_STORE_MISALIGNED 6u
#define EXC_STORE_ACCESS    7u
#define EXC_ECALL_U         8u
#define EXC_ECALL_S         9u
#define EXC_ECALL_M        11u

#define MISA_VALUE 0x40141100u  /* RV32 I M S U */

#define UART_BUF_SIZE 4096u

/* The HPM unit (mhpmcounter3..31, mhpmevent3..31). For now the counters read 0
 * and ignore writes; the state lives here so the full unit plugs in (hpm.c). */
typedef struct hpm_unit {
    uint64_t counter[32];   /* index 3..31 used */
    uint64_t event[32];
} hpm_unit;

struct hpmref {
    hpmref_config cfg;
    uint32_t x[32];
    uint32_t pc;
    unsigned priv;
    uint64_t cycle;         /* cycle in which the next instruction enters X */
    uint64_t retired;       /* instructions retired (not minstret: never
                               written or inhibited) */

    /* The instruction after a store is fetched before the store writes
     * memory; a store that overwrites it leaves the old word in the pipeline
     * (docs/timing.md, "Instruction fetch"). */
    int      stale_valid;
    uint32_t stale_pc, stale_insn;

    /* CSRs */
    uint32_t mstatus;       /* only the writable bits */
    uint32_t mtvec, mepc, mcause, mtval, mscratch;
    uint32_t stvec, sepc, scause, stval, sscratch;
    uint32_t mie, mip_sw;   /* mip_sw: the software-writable mip bits */
    uint32_t medeleg, mideleg, mcounteren, scounteren, mcountinhibit;

    /* mcycle(t) = cyc_base + (CY inhibited ? 0 : t - cyc_t0), t >= cyc_t0 */
    uint64_t cyc_base, cyc_t0;
    uint64_t minstret;

    /* CLINT: mtime(t) = t + mtime_off (mod 2^64) */
    uint32_t msip;
    uint64_t mtimecmp;
    uint64_t mtime_off;

    /* UART: tx_busy(t) = tx_valid && tx_t < t && t <= tx_t + 10*div */
    int      uart_tx_valid;
    uint64_t uart_tx_t;
    uint32_t uart_div;
    size_t   uart_head, uart_len;
    uint8_t  uart_buf[UART_BUF_SIZE];

    uint32_t leds;

    hpm_unit hpm;

    uint8_t fw[HPM_FW_SIZE];
    uint8_t ram[HPM_RAM_SIZE];
};

/* ---- soc.c ---- */
/* Device/memory data access in X cycle t (first X cycle). addr aligned to size.
 * Return 0, or -1 for an access fault. */
int  soc_load(hpmref *m, uint32_t addr, unsigned size, uint64_t t, uint32_t *val);
int  soc_store(hpmref *m, uint32_t addr, unsigned size, uint32_t val, uint64_t t);
uint64_t soc_mtime(const hpmref *m, uint64_t t);
static inline int soc_mtip(const hpmref *m, uint64_t t)
{
    return (t + m->mtime_off) >= m->mtimecmp;
}

/* ---- csr.c ---- */
/* mip as read in cycle t. */
uint32_t csr_mip(const hpmref *m, uint64_t t);
/* Checks access rights; returns 0 or -1 (illegal instruction). write: the
 * instruction writes the CSR. */
int  csr_check(const hpmref *m, unsigned addr, int write);
/* Reads a CSR in cycle t (after csr_check passed, or for the host). Returns
 * -1 if it does not exist. */
int  csr_read(const hpmref *m, unsigned addr, uint64_t t, uint32_t *val);
/* Writes a CSR in cycle t (after csr_check). Returns the CSR's value after
 * the write (the WARL-legalised value; hardware-driven bits as of cycle t),
 * as reported in the retire record. *minstret_written is set when
 * minstret(h) was written. */
uint32_t csr_write(hpmref *m, unsigned addr, uint32_t val, uint64_t t, int *minstret_written);
/* Takes a trap (exception or interrupt, cause with bit 31) at pc. */
void csr_trap(hpmref *m, uint32_t cause, uint32_t tval);
/* Interrupt to take when an instruction enters X in cycle t: returns the
 * cause (with bit 31) or 0 if none. */
uint32_t csr_pending_irq(const hpmref *m, uint64_t t);
uint64_t csr_mcycle(const hpmref *m, uint64_t t);

/* ---- hpm.c ---- */
void hpm_reset(hpm_unit *h);
/* idx 3..31; hi selects the upper half. */
uint32_t hpm_counter_read(const hpmref *m, unsigned idx, int hi, uint64_t t);
uint32_t hpm_counter_write(hpmref *m, unsigned idx, int hi, uint32_t val, uint64_t t);
uint32_t hpm_event_read(const hpmref *m, unsigned idx, int hi);
uint32_t hpm_event_write(hpmref *m, unsigned idx, int hi, uint32_t val);

#endif
