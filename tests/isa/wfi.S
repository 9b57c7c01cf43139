/* wfi.S: wfi waits until (mip & mie) != 0 whatever mstatus.MIE says, then the
 * interrupt is taken at the next instruction if enabled; wfi with an
 * interrupt already pending completes at once; a pending but disabled (mie)
 * source does not wake it; wfi retires. */
#include "test_macros.h"
    RVTEST_CODE_BEGIN
    csrw    mie, zero
    li      s0, CLINT_MSIP
    /* MIE = 0: wakes on the timer, no trap */
    TEST 1
    TRAP_CLEAR
    li      t0, MIP_MTIP
    csrw    mie, t0
    TIMER_IN 200
    csrr    a0, mcycle
    wfi
    csrr    a1, mcycle
    sub     a2, a1, a0
    SIG     a2
    addi    a3, a2, -150
    sltiu   a3, a3, 100      /* 150 <= delta < 250 */
    CHECK   a3, 1
    EXPECT_NO_TRAP
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    CHECK   a0, MIP_MTIP
    TIMER_OFF
    /* already pending and enabled in mie: 1 cycle */
    TEST 2
    li      t1, 1
    sw      t1, 0(s0)
    li      t0, MIP_MSIP
    csrw    mie, t0
    csrr    a0, mcycle
    wfi
    csrr    a1, mcycle
    sub     a2, a1, a0
    SIGCHK  a2, 2
    sw      zero, 0(s0)
    /* MSIP pending but only MTIE enabled: sleeps until the timer */
    TEST 3
    li      t1, 1
    sw      t1, 0(s0)
    li      t0, MIP_MTIP
    csrw    mie, t0
    TIMER_IN 120
    csrr    a0, mcycle
    wfi
    csrr    a1, mcycle
    sub     a2, a1, a0
    SIG     a2
    addi    a3, a2, -80
    sltiu   a3, a3, 80
    CHECK   a3, 1
    sw      zero, 0(s0)
    TIMER_OFF
    /* MIE = 1: the interrupt is taken right after wfi (mepc = next insn) */
    TEST 4
    TRAP_CLEAR
    li      t0, MIP_MTIP
    csrw    mie, t0
    TIMER_IN 100
    csrsi   mstatus, MSTATUS_MIE
    wfi
1:  nop
    csrci   mstatus, MSTATUS_MIE
    CHECK   s9, 1
    CHECK   s8, 0x80000007
    EXPECT_EPC 1b
    TIMER_OFF
    /* wfi retires */
    TEST 5
    li      t1, 1
    sw      t1, 0(s0)
    li      t0, MIP_MSIP
    csrw    mie, t0
    csrr    a0, minstret
    wfi
    csrr    a1, minstret
    sub     a2, a1, a0
    SIGCHK  a2, 2
    sw      zero, 0(s0)
    /* wfi in S (TW = 0) woken by the M timer, which is then taken in M */
    TEST 6
    TRAP_CLEAR
    li      t0, MIP_MTIP
    csrw    mie, t0
    TIMER_IN 100
    ENTER_MODE PRV_S
    wfi
1:  nop
    mv      a1, s8
    mv      a2, s6
    mv      a3, s9
    ENTER_M
    CHECK   a3, 1
    CHECK   a1, 0x80000007
    la      t0, 1b
    CHECKR  a2, t0
    TIMER_OFF
    csrw    mie, zero
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 16
