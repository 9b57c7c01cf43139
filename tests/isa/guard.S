/* guard.S: mguard (docs/memory-map.md, Protection). Before it is set every
 * mode may load, store and fetch in fw, MONRAM and the devices. Once set,
 * U and S loads, stores and fetches to the M-only regions (fw, clint, uart,
 * gpio) and window (MONRAM) are access faults (cause 5/7/1, mtval = the
 * address; nothing is read or written), as are M-mode loads and stores under
 * mstatus.MPRV with MPP = U or S; M-mode itself and the rest of the RAM are
 * unaffected. The bit reads back, a write of 0 does not clear it, and it is
 * an M-mode CSR. */
#include "test_macros.h"

#define FW_LO   HPM_FW_BASE
#define FW_HI   (HPM_FW_BASE + HPM_FW_SIZE - 4)
#define MON_LO  HPM_MONRAM_BASE
#define MON_HI  (HPM_MONRAM_BASE + HPM_MONRAM_SIZE - 4)
#define MON_BELOW (HPM_MONRAM_BASE - 4)        /* the workload RAM's last word */
#define FW_FN   (HPM_FW_BASE + 0x1f00)         /* addi a5, a5, 1; ret */
#define MON_FN  (HPM_MONRAM_BASE + 0x800)
#define RAM_FN  (HPM_MONRAM_BASE - 0x100)
#define MTIMECMP (HPM_CLINT_BASE + CLINT_MTIMECMP_OFF)
#define UART_DATA (HPM_UART_BASE + UART_DATA_OFF)
#define UART_STATUS (HPM_UART_BASE + UART_STATUS_OFF)
#define GPIO_LEDS (HPM_GPIO_BASE + GPIO_LEDS_OFF)

/* a load or store (op) of a6 = val in mode: faults (cause, tval = addr,
 * epc, a6 kept: a faulting load writes no rd) or not (no trap) */
.macro G_ACCESS n, mode, op, addr, faults, cause, val
    TEST    \n
    li      a0, \addr
    li      a6, \val
    TRAP_CLEAR
    ENTER_MODE \mode
1:  \op     a6, 0(a0)
    mv      a1, s9
    mv      a2, s8
    mv      a3, s7
    mv      a4, s6
    ENTER_M
    .if \faults
    CHECK   a1, 1
    CHECK   a2, \cause
    CHECKR  a3, a0
    la      t6, 1b
    CHECKR  a4, t6
    CHECK   a6, \val
    .else
    CHECK   a1, 0
    .endif
    SIG     a2
.endm
.macro G_LD n, mode, op, addr, faults
    G_ACCESS \n, \mode, \op, \addr, \faults, 5, 0x6666
.endm
.macro G_ST n, mode, op, addr, faults
    G_ACCESS \n, \mode, \op, \addr, \faults, 7, 0x5a5a5a5a
.endm

/* memory word at addr (read in M) == val */
.macro MEM_IS addr, val
    li      t1, \addr
    lw      t1, 0(t1)
    CHECK   t1, \val
.endm
.macro MEM_SET addr, val
    li      t1, \addr
    li      t2, \val
    sw      t2, 0(t1)
.endm

/* a call of the function at addr in mode: a fetch fault (cause 1, epc =
 * tval = addr, the jalr retired) or the function runs (a5 + 1) */
.macro G_IF n, mode, addr, faults
    TEST    \n
    li      a0, \addr
    li      a5, 0
    TRAP_CLEAR
    ENTER_MODE \mode
    la      s10, 2f
1:  jalr    ra, 0(a0)
2:  mv      a1, s9
    mv      a2, s8
    mv      a3, s7
    mv      a4, s6
    li      s10, 0
    ENTER_M
    .if \faults
    CHECK   a1, 1
    CHECK   a2, 1
    CHECKR  a3, a0
    CHECKR  a4, a0
    CHECK   a5, 0
    la      t6, 1b + 4
    CHECKR  ra, t6
    .else
    CHECK   a1, 0
    CHECK   a5, 1
    .endif
    SIG     a2
.endm

/* the fixtures: a word at each end of fw and MONRAM, below MONRAM, and the
 * function in fw, MONRAM and the workload RAM */
.macro FIXTURES
    MEM_SET FW_LO, 0x11111111
    MEM_SET FW_HI, 0x22222222
    MEM_SET MON_LO, 0x33333333
    MEM_SET MON_HI, 0x44444444
    MEM_SET MON_BELOW, 0x55555555
    la      a0, fn
    lw      a1, 0(a0)
    lw      a2, 4(a0)
    li      a0, FW_FN
    sw      a1, 0(a0)
    sw      a2, 4(a0)
    li      a0, MON_FN
    sw      a1, 0(a0)
    sw      a2, 4(a0)
    li      a0, RAM_FN
    sw      a1, 0(a0)
    sw      a2, 4(a0)
    fence.i
.endm

    RVTEST_CODE_BEGIN
    FIXTURES
    /* ---- mguard clear (reset): nothing is M-only */
    TEST    1
    csrr    a0, CSR_MGUARD
    SIGCHK  a0, 0
    G_LD     2, PRV_U, lw, FW_LO, 0
    G_LD     3, PRV_U, lw, MON_HI, 0
    G_LD     4, PRV_S, lw, MTIMECMP, 0
    G_LD     5, PRV_U, lw, UART_STATUS, 0
    G_LD     6, PRV_U, lw, GPIO_LEDS, 0
    G_ST     7, PRV_U, sw, MON_LO, 0
    G_ST     8, PRV_S, sb, FW_HI, 0
    G_ST     9, PRV_U, sw, GPIO_LEDS, 0
    G_ST    10, PRV_U, sw, UART_STATUS, 0   /* read-only: the write is ignored */
    G_IF    11, PRV_U, FW_FN, 0
    G_IF    12, PRV_S, MON_FN, 0
    TEST    13
    MEM_IS  MON_LO, 0x5a5a5a5a
    MEM_IS  FW_HI, 0x2222225a
    li      t1, GPIO_LEDS
    lw      t1, 0(t1)
    CHECK   t1, 0x1a
    /* M-mode CSR: illegal from S and U, the bit unchanged */
    TEST    14
    TRAP_CLEAR
    ENTER_MODE PRV_S
    csrsi   CSR_MGUARD, 1
    mv      a1, s8
    ENTER_M
    CHECK   a1, 2
    TRAP_CLEAR
    ENTER_MODE PRV_U
    csrr    a0, CSR_MGUARD
    mv      a1, s8
    ENTER_M
    CHECK   a1, 2
    csrr    a0, CSR_MGUARD
    SIGCHK  a0, 0
    /* a write of 0 leaves it clear; of 1 sets it */
    TEST    15
    csrw    CSR_MGUARD, zero
    csrr    a0, CSR_MGUARD
    CHECK   a0, 0
    li      a1, 0xfffffffe          /* only bit 0 counts */
    csrw    CSR_MGUARD, a1
    csrr    a0, CSR_MGUARD
    CHECK   a0, 0
    FIXTURES
    li      a1, 0xffffffff
    csrrw   a0, CSR_MGUARD, a1
    SIGCHK  a0, 0
    csrr    a0, CSR_MGUARD
    SIGCHK  a0, 1
    /* sticky: no write clears it */
    TEST    16
    csrrw   a0, CSR_MGUARD, zero
    SIGCHK  a0, 1
    csrrci  a0, CSR_MGUARD, 1
    SIGCHK  a0, 1
    csrrc   a0, CSR_MGUARD, a1
    SIGCHK  a0, 1
    csrr    a0, CSR_MGUARD
    SIGCHK  a0, 1

    /* ---- guarded: U and S fault on every M-only region, each kind */
    G_LD    20, PRV_U, lw,  FW_LO, 1
    G_LD    21, PRV_U, lbu, FW_HI+3, 1
    G_LD    22, PRV_U, lw,  MON_LO, 1
    G_LD    23, PRV_U, lh,  MON_HI+2, 1
    G_LD    24, PRV_U, lw,  MTIMECMP, 1
    G_LD    25, PRV_U, lw,  UART_DATA, 1
    G_LD    26, PRV_U, lw,  GPIO_LEDS, 1
    G_LD    27, PRV_S, lw,  FW_LO, 1
    G_LD    28, PRV_S, lw,  MON_HI, 1
    G_LD    29, PRV_S, lhu, MTIMECMP+2, 1
    G_LD    30, PRV_S, lb,  UART_STATUS, 1
    G_LD    31, PRV_S, lw,  GPIO_LEDS, 1
    G_ST    40, PRV_U, sw,  FW_LO, 1
    G_ST    41, PRV_U, sb,  FW_HI+1, 1
    G_ST    42, PRV_U, sw,  MON_LO, 1
    G_ST    43, PRV_U, sh,  MON_HI, 1
    G_ST    44, PRV_U, sw,  MTIMECMP, 1
    G_ST    45, PRV_U, sw,  UART_DATA, 1
    G_ST    46, PRV_U, sw,  GPIO_LEDS, 1
    G_ST    47, PRV_S, sw,  FW_HI, 1
    G_ST    48, PRV_S, sw,  MON_HI, 1
    G_ST    49, PRV_S, sw,  MTIMECMP, 1
    G_ST    50, PRV_S, sb,  UART_DATA, 1
    G_ST    51, PRV_S, sw,  GPIO_LEDS, 1
    /* nothing was written */
    TEST    52
    MEM_IS  FW_LO, 0x11111111
    MEM_IS  FW_HI, 0x22222222
    MEM_IS  MON_LO, 0x33333333
    MEM_IS  MON_HI, 0x44444444
    MEM_IS  MTIMECMP, 0xffffffff
    li      t1, GPIO_LEDS
    lw      t1, 0(t1)
    CHECK   t1, 0x1a
    li      t1, UART_STATUS
    lw      t1, 0(t1)
    andi    t1, t1, 1               /* tx_busy: no byte was sent */
    CHECK   t1, 0
    G_IF    60, PRV_U, FW_FN, 1
    G_IF    61, PRV_U, MON_FN, 1
    G_IF    62, PRV_S, FW_FN, 1
    G_IF    63, PRV_S, MON_FN, 1
    G_IF    64, PRV_U, HPM_UART_BASE, 1     /* devices: never executable */
    G_IF    65, PRV_S, HPM_CLINT_BASE, 1
    /* the rest of the RAM stays open to U and S, up to MONRAM's first byte */
    G_LD    70, PRV_U, lw, MON_BELOW, 0
    G_ST    71, PRV_U, sw, MON_BELOW, 0
    G_ST    72, PRV_S, sb, MON_BELOW+3, 0
    G_IF    73, PRV_U, RAM_FN, 0
    G_IF    74, PRV_S, RAM_FN, 0
    TEST    75
    MEM_IS  MON_BELOW, 0x5a5a5a5a
    /* ---- M-mode is unaffected */
    G_LD    80, PRV_M, lw, FW_LO, 0
    G_LD    81, PRV_M, lw, MON_HI, 0
    G_LD    82, PRV_M, lw, MTIMECMP, 0
    G_LD    83, PRV_M, lw, UART_STATUS, 0
    G_LD    84, PRV_M, lw, GPIO_LEDS, 0
    G_ST    85, PRV_M, sw, FW_LO, 0
    G_ST    86, PRV_M, sw, MON_HI, 0
    G_ST    87, PRV_M, sw, MTIMECMP, 0
    G_ST    88, PRV_M, sb, UART_DATA, 0
    G_ST    89, PRV_M, sw, GPIO_LEDS, 0
    G_IF    90, PRV_M, FW_FN, 0
    G_IF    91, PRV_M, MON_FN, 0
    TEST    92
    MEM_IS  FW_LO, 0x5a5a5a5a
    MEM_IS  MON_HI, 0x5a5a5a5a
    MEM_IS  MTIMECMP, 0x5a5a5a5a
    MEM_SET MTIMECMP, 0xffffffff
    /* ---- MPRV: M-mode loads and stores at MPP's privilege; fetches at M */
    TEST    100
    TRAP_CLEAR
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0             /* MPP = U */
    li      t0, MSTATUS_MPRV
    li      a0, FW_LO
    li      a6, 0x6666
    csrs    mstatus, t0
1:  lw      a6, 0(a0)               /* faults; the trap sets MPP = M */
    csrc    mstatus, t0
    CHECK   s9, 1
    CHECK   s8, 5
    CHECKR  s7, a0
    la      t6, 1b
    CHECKR  s6, t6
    CHECK   a6, 0x6666
    SIG     s8
    TEST    101
    TRAP_CLEAR
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPP_S
    csrs    mstatus, t0             /* MPP = S */
    li      t0, MSTATUS_MPRV
    li      a0, MON_LO
    li      a6, 0x7777
    csrs    mstatus, t0
1:  sw      a6, 0(a0)
    csrc    mstatus, t0
    CHECK   s9, 1
    CHECK   s8, 7
    CHECKR  s7, a0
    la      t6, 1b
    CHECKR  s6, t6
    SIG     s8
    MEM_IS  MON_LO, 0x33333333
    /* MPRV with MPP = U: the workload RAM is open, the fetch is M's */
    TEST    102
    TRAP_CLEAR
    li      t0, MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPRV
    li      a0, MON_BELOW
    li      a6, 0x8888
    li      a5, 0
    li      t1, FW_FN
    csrs    mstatus, t0
    sw      a6, 0(a0)
    jalr    ra, 0(t1)
    csrc    mstatus, t0
    CHECK   s9, 0
    CHECK   a5, 1
    MEM_IS  MON_BELOW, 0x8888
    /* MPRV with MPP = M: unaffected */
    TEST    103
    TRAP_CLEAR
    li      t0, MSTATUS_MPP
    csrs    mstatus, t0
    li      t0, MSTATUS_MPRV
    li      a0, FW_HI
    li      a6, 0x9999
    csrs    mstatus, t0
    sw      a6, 0(a0)
    csrc    mstatus, t0
    CHECK   s9, 0
    MEM_IS  FW_HI, 0x9999
    TEST    104
    csrr    a0, CSR_MGUARD
    SIGCHK  a0, 1
    j       pass

    .balign 4
fn: addi    a5, a5, 1
    ret
    RVTEST_CODE_END
    RVTEST_DATA 120
