/* hpm_soc.h: the hpm-overlay SoC as seen by firmware (docs/memory-map.md).
 * Freestanding: needs only <stdint.h>. */
#ifndef HPM_SOC_H
#define HPM_SOC_H

#include <stdint.h>

/* ---- memory map ---- */
#define HPM_FW_BASE      0x00000000u   /* 8 KiB EBR, firmware monitor, reset vector */
#define HPM_FW_SIZE      0x00002000u
#define HPM_CLINT_BASE   0x02000000u
#define HPM_CLINT_SIZE   0x00010000u
#define HPM_UART_BASE    0x10000000u
#define HPM_UART_SIZE    0x00000100u
#define HPM_GPIO_BASE    0x10001000u
#define HPM_GPIO_SIZE    0x00000100u
#define HPM_RAM_BASE     0x80000000u   /* 128 KiB SPRAM, workloads */
#define HPM_RAM_SIZE     0x00020000u

#define HPM_REG32(addr)  (*(volatile uint32_t *)(uintptr_t)(addr))

/* ---- CLINT ---- */
#define CLINT_MSIP_OFF       0x0000u
#define CLINT_MTIMECMP_OFF   0x4000u
#define CLINT_MTIMECMPH_OFF  0x4004u
#define CLINT_MTIME_OFF      0xbff8u
#define CLINT_MTIMEH_OFF     0xbffcu
#define CLINT_MSIP       HPM_REG32(HPM_CLINT_BASE + CLINT_MSIP_OFF)      /* bit 0 -> mip.MSIP */
#define CLINT_MTIMECMP   HPM_REG32(HPM_CLINT_BASE + CLINT_MTIMECMP_OFF)  /* reset 0xffffffff */
#define CLINT_MTIMECMPH  HPM_REG32(HPM_CLINT_BASE + CLINT_MTIMECMPH_OFF) /* reset 0xffffffff */
#define CLINT_MTIME      HPM_REG32(HPM_CLINT_BASE + CLINT_MTIME_OFF)     /* counts core cycles */
#define CLINT_MTIMEH     HPM_REG32(HPM_CLINT_BASE + CLINT_MTIMEH_OFF)

/* ---- UART (8N1, fixed divisor) ---- */
#define UART_DATA_OFF    0x0u   /* write: send low byte (ignored while tx_busy); read: rx byte, clears rx_valid */
#define UART_STATUS_OFF  0x4u
#define UART_DIV_OFF     0x8u   /* read-only: clock cycles per bit */
#define UART_DATA        HPM_REG32(HPM_UART_BASE + UART_DATA_OFF)
#define UART_STATUS      HPM_REG32(HPM_UART_BASE + UART_STATUS_OFF)
#define UART_DIV         HPM_REG32(HPM_UART_BASE + UART_DIV_OFF)
#define UART_STATUS_TX_BUSY    (1u << 0)
#define UART_STATUS_RX_VALID   (1u << 1)
#define UART_STATUS_RX_OVERRUN (1u << 2)

/* ---- GPIO ---- */
#define GPIO_LEDS_OFF    0x0u   /* bits 4:0, read back */
#define GPIO_BUTTONS_OFF 0x4u   /* bits 2:0, read-only */
#define GPIO_CLOCK_HZ_OFF 0x8u  /* core clock in Hz, read-only */
#define GPIO_LEDS        HPM_REG32(HPM_GPIO_BASE + GPIO_LEDS_OFF)
#define GPIO_BUTTONS     HPM_REG32(HPM_GPIO_BASE + GPIO_BUTTONS_OFF)
#define GPIO_CLOCK_HZ    HPM_REG32(HPM_GPIO_BASE + GPIO_CLOCK_HZ_OFF)

/* ---- CSR numbers ---- */
#define CSR_SSTATUS     0x100
#define CSR_SIE         0x104
#define CSR_STVEC       0x105
#define CSR_SCOUNTEREN  0x106
#define CSR_SSCRATCH    0x140
#define CSR_SEPC        0x141
#define CSR_SCAUSE      0x142
#define CSR_STVAL       0x143
#define CSR_SIP         0x144
#define CSR_SATP        0x180
#define CSR_MSTATUS     0x300
#define CSR_MISA        0x301
#define CSR_MEDELEG     0x302
#define CSR_MIDELEG     0x303
#define CSR_MIE         0x304
#define CSR_MTVEC       0x305
#define CSR_MCOUNTEREN  0x306
#define CSR_MSTATUSH    0x310
#define CSR_MCOUNTINHIBIT 0x320
#define CSR_MCYCLECFG   0x321
#define CSR_MINSTRETCFG 0x322
#define CSR_MHPMEVENT3  0x323
#define CSR_MSCRATCH    0x340
#define CSR_MEPC        0x341
#define CSR_MCAUSE      0x342
#define CSR_MTVAL       0x343
#define CSR_MIP         0x344
#define CSR_PMPCFG0     0x3a0
#define CSR_PMPADDR0    0x3b0
#define CSR_TSELECT     0x7a0
#define CSR_TDATA1      0x7a1
#define CSR_MCYCLECFGH  0x721
#define CSR_MINSTRETCFGH 0x722
#define CSR_MHPMEVENT3H 0x723
#define CSR_MCYCLE      0xb00
#define CSR_MINSTRET    0xb02
#define CSR_MHPMCOUNTER3 0xb03
#define CSR_MCYCLEH     0xb80
#define CSR_MINSTRETH   0xb82
#define CSR_MHPMCOUNTER3H 0xb83
#define CSR_CYCLE       0xc00
#define CSR_TIME        0xc01
#define CSR_INSTRET     0xc02
#define CSR_CYCLEH      0xc80
#define CSR_TIMEH       0xc81
#define CSR_INSTRETH    0xc82
#define CSR_SCOUNTOVF   0xda0
#define CSR_MVENDORID   0xf11
#define CSR_MARCHID     0xf12
#define CSR_MIMPID      0xf13
#define CSR_MHARTID     0xf14

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

/* mip / mie bits */
#define MIP_SSIP   (1u << 1)
#define MIP_MSIP   (1u << 3)
#define MIP_STIP   (1u << 5)
#define MIP_MTIP   (1u << 7)
#define MIP_SEIP   (1u << 9)
#define MIP_MEIP   (1u << 11)
#define MIP_LCOFIP (1u << 13)

/* mcause values */
#define CAUSE_MISALIGNED_FETCH   0
#define CAUSE_FETCH_ACCESS       1
#define CAUSE_ILLEGAL_INSN       2
#define CAUSE_BREAKPOINT         3
#define CAUSE_MISALIGNED_LOAD    4
#define CAUSE_LOAD_ACCESS        5
#define CAUSE_MISALIGNED_STORE   6
#define CAUSE_STORE_ACCESS       7
#define CAUSE_ECALL_U            8
#define CAUSE_ECALL_S            9
#define CAUSE_ECALL_M           11
#define CAUSE_INTERRUPT         0x80000000u
#define IRQ_S_SOFT     1
#define IRQ_M_SOFT     3
#define IRQ_S_TIMER    5
#define IRQ_M_TIMER    7
#define IRQ_LCOF      13

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

static inline uint64_t hpm_rdcycle64(void)   { return csr_read64(CSR_MCYCLE, CSR_MCYCLEH); }
static inline uint64_t hpm_rdinstret64(void) { return csr_read64(CSR_MINSTRET, CSR_MINSTRETH); }

/* Same for the memory-mapped CLINT mtime. */
static inline uint64_t hpm_mtime64(void)
{
    uint32_t hi, lo, hi2;
    do { hi = CLINT_MTIMEH; lo = CLINT_MTIME; hi2 = CLINT_MTIMEH; } while (hi != hi2);
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
