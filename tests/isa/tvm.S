/* tvm.S: mstatus.TVM (satp and sfence.vma from S trap), TW (wfi from S
 * traps), TSR (sret from S traps); none of them affects M-mode. */
#include "test_macros.h"

.macro EXPECT_ILL n, mode, insn:vararg  /* run insn in mode, expect cause 2 in M */
    TEST    \n
    ENTER_MODE \mode
    TRAP_CLEAR
1:  \insn
    mv      a1, s8
    mv      a2, s6
    mv      a3, s9
    ENTER_M
    CHECK   a3, 1
    CHECK   a1, 2
    la      t0, 1b
    CHECKR  a2, t0
.endm
.macro S_EXPECT_OK n, insn:vararg
    TEST    \n
    ENTER_MODE PRV_S
    TRAP_CLEAR
    \insn
    mv      a3, s9
    ENTER_M
    CHECK   a3, 0
.endm

    RVTEST_CODE_BEGIN
    /* wfi must never sleep in this test: make an interrupt pending and
     * enabled in mie, but not taken (delegated SSIP with SIE = 0) */
    li      t0, MIP_SSIP
    csrw    mideleg, t0
    csrw    mie, t0
    csrs    mip, t0
    csrci   mstatus, MSTATUS_SIE | MSTATUS_MIE
    /* TVM = 0: all legal in S */
    S_EXPECT_OK 1, csrr a0, satp
    S_EXPECT_OK 2, csrw satp, zero
    S_EXPECT_OK 3, sfence.vma
    S_EXPECT_OK 4, sfence.vma a0, a1
    /* TVM = 1 */
    li      t0, MSTATUS_TVM
    csrs    mstatus, t0
    EXPECT_ILL 5, PRV_S, csrr a0, satp
    EXPECT_ILL 6, PRV_S, csrw satp, zero
    EXPECT_ILL 7, PRV_S, sfence.vma
    EXPECT_ILL 8, PRV_S, sfence.vma a0, x0
    TEST 9
    TRAP_CLEAR
    csrr    a0, satp
    sfence.vma
    EXPECT_NO_TRAP
    li      t0, MSTATUS_TVM
    csrc    mstatus, t0
    /* TW */
    S_EXPECT_OK 10, wfi
    li      t0, MSTATUS_TW
    csrs    mstatus, t0
    EXPECT_ILL 11, PRV_S, wfi
    TEST 12
    TRAP_CLEAR
    wfi
    EXPECT_NO_TRAP
    li      t0, MSTATUS_TW
    csrc    mstatus, t0
    /* TSR */
    TEST 13
    ENTER_MODE PRV_S
    TRAP_CLEAR
    la      t0, 1f
    csrw    sepc, t0
    li      t0, MSTATUS_SPP
    csrs    sstatus, t0
    li      t0, MSTATUS_SPIE  /* keep SIE = 0 after sret */
    csrc    sstatus, t0
    sret
1:  mv      a3, s9
    ENTER_M
    CHECK   a3, 0
    li      t0, MSTATUS_TSR
    csrs    mstatus, t0
    EXPECT_ILL 14, PRV_S, sret
    TEST 15
    TRAP_CLEAR
    li      t0, MSTATUS_SPP
    csrs    mstatus, t0
    li      t0, MSTATUS_SPIE
    csrc    mstatus, t0
    la      t0, 1f
    csrw    sepc, t0
    sret                     /* legal in M with TSR = 1: goes to S */
1:  ecall
    CHECK   s8, 9
    CHECK   s9, 1
    li      s4, 0
    /* back in S after the ecall: return to M */
    ENTER_M
    li      t0, MSTATUS_TSR
    csrc    mstatus, t0
    /* the read-back of the three bits */
    TEST 16
    li      t0, MSTATUS_TVM | MSTATUS_TW | MSTATUS_TSR
    csrs    mstatus, t0
    csrr    a0, mstatus
    and     a0, a0, t0
    SIGCHK  a0, MSTATUS_TVM | MSTATUS_TW | MSTATUS_TSR
    csrc    mstatus, t0
    csrr    a0, mstatus
    and     a0, a0, t0
    SIGCHK  a0, 0
    /* sstatus does not show them */
    csrs    mstatus, t0
    csrr    a0, sstatus
    and     a0, a0, t0
    SIGCHK  a0, 0
    csrc    mstatus, t0
    /* wfi in U is illegal whatever TW says (this core's choice: U-mode wfi
     * never waits; SSIP is still pending, so a legal wfi would not sleep) */
    EXPECT_ILL 17, PRV_U, wfi
    csrc    mip, MIP_SSIP
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 16
