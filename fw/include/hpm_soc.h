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
#define CAUSE_MISALIGNED_FETCH 0
#define CAUSE_FETCH_ACCESS 1
#define CAUSE_ILLEGAL_INSN 2
#define CAUSE_BREAKPOINT 3
#define CAUSE_MISALIGNED_LOAD 4
#define CAUSE_LOAD_ACCESS 5
#define CAUSE_MISALIGNED_STORE 6
#define CAUSE_STORE_ACCESS 7
#define CAUSE_ECALL_U 8
#define CAUSE_ECALL_S 9
#define CAUSE_ECALL_M 11
#define CAUSE_INTERRUPT 0x80000000u
#define IRQ_S_SOFT 1
#define IRQ_M_SOFT 3
#define IRQ_S_TIMER 5
#define IRQ_M_TIMER 7
#define IRQ_LCOF 13

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
