/* timer_irq.S: CLINT machine timer: mip.MTIP follows mtime >= mtimecmp,
 * MTIP is read-only in mip, the interrupt is taken in M (mcause 0x80000007,
 * mepc = the interrupted instruction) when MIE=1, and always from S/U; mtime
 * and mtimecmp halves; the 64-bit compare. */
#include "test_macros.h"

/* spin until a trap was counted (s9 != 0), at most 2000 iterations */
.macro WAIT_TRAP
    li      a0, 0
    li      a1, 2000
1:  addi    a0, a0, 1
    bnez    s9, 2f
    blt     a0, a1, 1b
    j       fail
2:
.endm

    RVTEST_CODE_BEGIN
    csrw    mie, zero
    /* mtimecmp resets to all ones: no MTIP */
    TEST 1
    li      t0, CLINT_MTIMECMP
    lw      a0, 0(t0)
    SIGCHK  a0, 0xffffffff
    lw      a0, 4(t0)
    SIGCHK  a0, 0xffffffff
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    SIGCHK  a0, 0
    /* mtimecmp = 0 -> MTIP = 1; MTIP not writable through mip */
    TEST 2
    li      t0, CLINT_MTIMECMP
    sw      zero, 4(t0)
    sw      zero, 0(t0)
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    SIGCHK  a0, MIP_MTIP
    li      t1, MIP_MTIP
    csrc    mip, t1
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    SIGCHK  a0, MIP_MTIP
    TIMER_OFF
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    SIGCHK  a0, 0
    /* interrupt in M with MIE = 1 */
    TEST 3
    TRAP_CLEAR
    TIMER_IN 60
    li      t0, MIP_MTIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    WAIT_TRAP
    csrci   mstatus, MSTATUS_MIE
    SIG     a0
    CHECK   s9, 1
    CHECK   s8, 0x80000007
    CHECK   s5, PRV_M
    SIG     s6
    csrr    a1, mie
    CHECK   a1, 0            /* the handler cleared it */
    csrr    a1, mcause
    CHECK   a1, 0x80000007
    TIMER_OFF
    /* MIE = 0 in M: pending but not taken */
    TEST 4
    TRAP_CLEAR
    li      t0, CLINT_MTIMECMP
    sw      zero, 4(t0)
    sw      zero, 0(t0)
    li      t0, MIP_MTIP
    csrw    mie, t0
    nop
    nop
    nop
    EXPECT_NO_TRAP
    /* from U with MIE = 0: taken into M, MPP = U */
    TEST 5
    ENTER_MODE PRV_U
1:  nop                     /* interrupted here */
    mv      a1, s8
    mv      a2, s5
    mv      a3, s6
    ENTER_M
    CHECK   a1, 0x80000007
    CHECK   a2, PRV_U
    la      t0, 1b
    CHECKR  a3, t0
    TIMER_OFF
    /* from S, timer fires while looping */
    TEST 6
    TRAP_CLEAR
    TIMER_IN 80
    li      t0, MIP_MTIP
    csrw    mie, t0
    ENTER_MODE PRV_S
    WAIT_TRAP
    mv      a1, s8
    mv      a2, s5
    ENTER_M
    CHECK   a1, 0x80000007
    CHECK   a2, PRV_S
    SIG     a0
    TIMER_OFF
    /* mtime write: the store's value, then counting on */
    TEST 7
    li      t0, CLINT_MTIME
    li      t1, 100
    sw      t1, 0(t0)
    lw      a0, 0(t0)
    SIG     a0
    addi    a1, a0, -100
    sltiu   a1, a1, 8
    CHECK   a1, 1
    /* 64-bit compare: mtimecmp = 1:0 with mtime < 2^32 -> no MTIP; then
     * mtimeh = 1 -> MTIP */
    TEST 8
    li      t0, CLINT_MTIMECMP
    li      t1, 1
    sw      t1, 4(t0)
    sw      zero, 0(t0)
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    SIGCHK  a0, 0
    li      t0, CLINT_MTIMEH
    li      t1, 1
    sw      t1, 0(t0)
    lw      a0, 0(t0)
    SIGCHK  a0, 1
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    SIGCHK  a0, MIP_MTIP
    /* time CSR follows mtime (incl. the high half) */
    csrr    a0, timeh
    SIGCHK  a0, 1
    sw      zero, 0(t0)
    TIMER_OFF
    csrw    mie, zero
    /* mtime low-half carry into mtimeh */
    TEST 9
    li      t0, CLINT_MTIME
    li      t1, -20
    sw      zero, 4(t0)
    sw      t1, 0(t0)
    .rept 20
    nop
    .endr
    lw      a0, 4(t0)
    SIGCHK  a0, 1
    sw      zero, 4(t0)
    /* mtime wrapping from 2^64 - 1 to 0: MTIP drops there for mtimecmp = 16
     * and rises again at 16; it stays set for mtimecmp = 0 (every mip read
     * compared in lockstep) */
    TEST 10
    li      t0, CLINT_MTIMECMP
    li      t1, 16
    sw      zero, 4(t0)
    sw      t1, 0(t0)
    li      t2, 1
1:  li      t0, CLINT_MTIME
    li      t1, -1
    sw      t1, 4(t0)
    li      t1, -24
    sw      t1, 0(t0)
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    SIGCHK  a0, MIP_MTIP
    .rept 60
    csrr    a0, mip
    .endr
    lw      a0, 4(t0)
    SIGCHK  a0, 0
    csrr    a0, mip
    andi    a0, a0, MIP_MTIP
    SIGCHK  a0, MIP_MTIP
    li      t0, CLINT_MTIMECMP
    sw      zero, 0(t0)
    addi    t2, t2, -1
    beqz    t2, 1b
    sw      zero, 4(t0)
    TIMER_OFF
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 40
