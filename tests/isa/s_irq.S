/* s_irq.S: supervisor interrupts: mip.SSIP/STIP written from M, delegated
 * by mideleg and taken in S (scause 0x80000001/0x80000005, sepc, SPP);
 * never taken in M when delegated; taken in S from U regardless of SIE;
 * gated by SIE in S; SSIP set from S through sip; undelegated SSIP goes to M. */
#include "test_macros.h"
    RVTEST_CODE_BEGIN
    csrw    mie, zero
    li      t0, MIP_SSIP | MIP_STIP
    csrw    mideleg, t0
    /* delegated SSIP pending in M with MIE = 1: not taken */
    TEST 1
    TRAP_CLEAR
    li      t0, MIP_SSIP | MIP_STIP
    csrw    mie, t0
    csrsi   mip, MIP_SSIP
    csrsi   mstatus, MSTATUS_MIE
    nop
    nop
    csrci   mstatus, MSTATUS_MIE
    EXPECT_NO_TRAP
    csrr    a0, sip
    andi    a0, a0, MIP_SSIP
    SIGCHK  a0, MIP_SSIP
    /* enter S with SIE = 1: taken in S at the first instruction */
    TEST 2
    TRAP_CLEAR
    csrsi   mstatus, MSTATUS_SIE
    ENTER_MODE PRV_S
1:  nop
    mv      a1, s3
    mv      a2, s8
    mv      a3, s6
    mv      a4, s5
    csrc    sip, MIP_SSIP    /* S clears its own software interrupt */
    ENTER_M
    CHECK   a1, 1
    CHECK   a2, 0x80000001
    la      t0, 1b
    CHECKR  a3, t0
    CHECK   a4, 1
    csrr    a0, mip
    andi    a0, a0, MIP_SSIP
    SIGCHK  a0, 0
    csrr    a0, scause
    SIGCHK  a0, 0x80000001
    /* STIP from M, taken in S from U (SIE = 0 does not matter in U) */
    TEST 3
    TRAP_CLEAR
    csrci   mstatus, MSTATUS_SIE
    li      t0, MIP_STIP
    csrw    mie, t0
    csrs    mip, t0
    ENTER_MODE PRV_U
1:  nop
    mv      a1, s3
    mv      a2, s8
    mv      a3, s6
    mv      a4, s5
    ENTER_M
    CHECK   a1, 1
    CHECK   a2, 0x80000005
    la      t0, 1b
    CHECKR  a3, t0
    CHECK   a4, 0
    li      t0, MIP_STIP
    csrc    mip, t0
    /* in S with SIE = 0: pending, not taken, until SIE is set */
    TEST 4
    TRAP_CLEAR
    li      t0, MIP_SSIP
    csrw    mie, t0
    csrs    mip, t0
    ENTER_MODE PRV_S
    nop
    nop
    mv      a1, s9
    csrsi   sstatus, MSTATUS_SIE
1:  nop
    mv      a2, s9
    mv      a3, s6
    csrci   sstatus, MSTATUS_SIE
    csrc    sip, MIP_SSIP
    ENTER_M
    CHECK   a1, 0
    CHECK   a2, 1
    la      t0, 1b
    CHECKR  a3, t0
    /* S raises its own SSIP through sip */
    TEST 5
    TRAP_CLEAR
    li      t0, MIP_SSIP
    csrw    mie, t0
    ENTER_MODE PRV_S
    csrsi   sstatus, MSTATUS_SIE
    csrsi   sip, MIP_SSIP
1:  nop
    mv      a1, s8
    mv      a3, s6
    csrci   sstatus, MSTATUS_SIE
    csrci   sip, MIP_SSIP
    ENTER_M
    CHECK   a1, 0x80000001
    la      t0, 1b
    CHECKR  a3, t0
    /* not delegated: SSIP goes to M when in S, even with MIE = 0 */
    TEST 6
    TRAP_CLEAR
    csrw    mideleg, zero
    li      t0, MIP_SSIP
    csrw    mie, t0
    csrs    mip, t0
    ENTER_MODE PRV_S
1:  nop
    mv      a1, s3
    mv      a2, s8
    mv      a4, s5
    ENTER_M
    CHECK   a1, 3
    CHECK   a2, 0x80000001
    CHECK   a4, PRV_S
    csrci   mip, MIP_SSIP
    /* undelegated SSIP in M needs MIE */
    TEST 7
    TRAP_CLEAR
    li      t0, MIP_SSIP
    csrw    mie, t0
    csrs    mip, t0
    nop
    EXPECT_NO_TRAP
    csrsi   mstatus, MSTATUS_MIE
1:  nop
    csrci   mstatus, MSTATUS_MIE
    CHECK   s9, 1
    CHECK   s8, 0x80000001
    EXPECT_EPC 1b
    csrci   mip, MIP_SSIP
    csrw    mie, zero
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 16
