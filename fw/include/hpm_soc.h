/* hpm_soc.h: the hpm-overlay SoC as seen by firmware (docs/memory-map.md).
 * Freestanding: needs only <stdint.h>. */
#ifndef HPM_SOC_H
#define HPM_SOC_H

#include <stdint.h>

/* memory map, device register offsets, CSR numbers and fields (generated
 * from hw/soc/memmap.def and hw/csr.def) */
#include "hpm_map.h"

#define HPM_REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* ---- CLINT ---- */
#define CLINT_MSIP HPM_REG32(HPM_CLINT_BASE + CLINT_MSIP_OFF)           /* bit 0 -> mip.MSIP */
#define CLINT_MTIMECMP HPM_REG32(HPM_CLINT_BASE + CLINT_MTIMECMP_OFF)   /* reset 0xffffffff */
#define CLINT_MTIMECMPH HPM_REG32(HPM_CLINT_BASE + CLINT_MTIMECMPH_OFF) /* reset 0xffffffff */
#define CLINT_MTIME HPM_REG32(HPM_CLINT_BASE + CLINT_MTIME_OFF)         /* counts core cycles */
#define CLINT_MTIMEH HPM_REG32(HPM_CLINT_BASE + CLINT_MTIMEH_OFF)

/* ---- UART (8N1, fixed divisor) ---- */
#define UART_DATA HPM_REG32(HPM_UART_BASE + UART_DATA_OFF)
#define UART_STATUS HPM_REG32(HPM_UART_BASE + UART_STATUS_OFF)
#define UART_DIV HPM_REG32(HPM_UART_BASE + UART_DIV_OFF)
#define UART_STATUS_TX_BUSY (1u << 0)
#define UART_STATUS_RX_VALID (1u << 1)
#define UART_STATUS_RX_OVERRUN (1u << 2)

/* ---- GPIO ---- */
#define GPIO_LEDS HPM_REG32(HPM_GPIO_BASE + GPIO_LEDS_OFF)
#define GPIO_BUTTONS HPM_REG32(HPM_GPIO_BASE + GPIO_BUTTONS_OFF)
#define GPIO_CLOCK_HZ HPM_REG32(HPM_GPIO_BASE + GPIO_CLOCK_HZ_OFF)

/* mcause values */
#define CAUSE_MISALIGNED_FETCH MCAUSE_MISALIGNED_FETCH   /* codes: hw/csr.def */
#define CAUSE_FETCH_ACCESS MCAUSE_FETCH_ACCESS
#define CAUSE_ILLEGAL_INSN MCAUSE_ILLEGAL_INSN
#define CAUSE_BREAKPOINT MCAUSE_BREAKPOINT
#define CAUSE_MISALIGNED_LOAD MCAUSE_MISALIGNED_LOAD
#define CAUSE_LOAD_ACCESS MCAUSE_LOAD_ACCESS
#define CAUSE_MISALIGNED_STORE MCAUSE_MISALIGNED_STORE
#define CAUSE_STORE_ACCESS MCAUSE_STORE_ACCESS
#define CAUSE_ECALL_U MCAUSE_ECALL_U
#define CAUSE_ECALL_S MCAUSE_ECALL_S
#define CAUSE_ECALL_M MCAUSE_ECALL_M
#define CAUSE_INTERRUPT 0x80000000u
#define IRQ_S_SOFT MCAUSE_INT_S_SOFT
#define IRQ_M_SOFT MCAUSE_INT_M_SOFT
#define IRQ_S_TIMER MCAUSE_INT_S_TIMER
#define IRQ_M_TIMER MCAUSE_INT_M_TIMER
#define IRQ_LCOF MCAUSE_INT_LCOF

/* ---- CSR access (the CSR number must be a compile-time constant) ---- */
#define HPM_STR_(x) #x
#define HPM_STR(x) HPM_STR_(x)
#define csr_read(csr) ({ uint32_t v_; \
	__asm__ volatile ("csrr %0, " HPM_STR(csr) : "=r"(v_)); v_; })
#define csr_write(csr, val) ({ uint32_t w_ = (uint32_t)(val); \
	__asm__ volatile ("csrw " HPM_STR(csr) ", %0" :: "rK"(w_) : "memory"); })
#define csr_set(csr, bits) ({ uint32_t w_ = (uint32_t)(bits); \
	__asm__ volatile ("csrs " HPM_STR(csr) ", %0" :: "rK"(w_) : "memory"); })
#define csr_clear(csr, bits) ({ uint32_t w_ = (uint32_t)(bits); \
	__asm__ volatile ("csrc " HPM_STR(csr) ", %0" :: "rK"(w_) : "memory"); })
#define csr_swap(csr, val) ({ uint32_t v_, w_ = (uint32_t)(val); \
	__asm__ volatile ("csrrw %0, " HPM_STR(csr) ", %1" : "=r"(v_) : "rK"(w_) : "memory"); v_; })

/* Race-free read of a 64-bit counter whose halves are separate CSRs (RV32):
 * read hi, lo, hi again; if the high half changed, the low half wrapped
 * between the reads, so retry. Never returns a value that mixes halves of
 * two different moments (e.g. a stale hi with a wrapped lo, 2^32 off). */
#define csr_read64(csr_lo, csr_hi) ({ uint32_t hi_, lo_, hi2_; \
	do { hi_ = csr_read(csr_hi); lo_ = csr_read(csr_lo); hi2_ = csr_read(csr_hi); } \
	while (hi_ != hi2_); \
	((uint64_t)hi_ << 32) | lo_; })

static inline uint64_t hpm_rdcycle64(void)
{
	return csr_read64(CSR_MCYCLE, CSR_MCYCLEH);
}
static inline uint64_t hpm_rdinstret64(void)
{
	return csr_read64(CSR_MINSTRET, CSR_MINSTRETH);
}

/* Same for the memory-mapped CLINT mtime. */
static inline uint64_t hpm_mtime64(void)
{
	uint32_t hi, lo, hi2;
	do {
		hi = CLINT_MTIMEH;
		lo = CLINT_MTIME;
		hi2 = CLINT_MTIMEH;
	} while (hi != hi2);
	return ((uint64_t)hi << 32) | lo;
}

/* Writes mtimecmp without a spurious interrupt window: high half to all-ones
 * first, then the low half, then the real high half. */
static inline void hpm_set_mtimecmp(uint64_t v)
{
	CLINT_MTIMECMPH = 0xffffffffu;
	CLINT_MTIMECMP = (uint32_t)v;
	CLINT_MTIMECMPH = (uint32_t)(v >> 32);
}

#endif
