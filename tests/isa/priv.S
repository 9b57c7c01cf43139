/* priv.S: mret/sret between all modes (M->S, M->U, M->M, S->U, S->S, U->M
 * and S->M via ecall), the MIE/MPIE/MPP and SIE/SPIE/SPP stacks, mret/sret
 * where they are illegal. Which mode we are in is probed by the trap's MPP. */
#include "test_macros.h"

/* probe: ecall and record which cause it gives: 8 U, 9 S, 11 M */
.macro WHERE_AM_I reg
    TRAP_CLEAR
    ecall
    mv      \reg, s8
.endm

    RVTEST_CODE_BEGIN
    /* M -> S by mret; MPP becomes U, MIE = MPIE, MPIE = 1 */
    TEST 1
    li      t0, MSTATUS_MIE | MSTATUS_MPIE
    csrc    mstatus, t0
    li      t0, MSTATUS_MPIE
    csrs    mstatus, t0
    ENTER_MODE PRV_S
    WHERE_AM_I a1
    ENTER_M
    CHECK   a1, 9
    TEST 2
    /* mret into S: MIE = MPIE (1); the trap from S then stacks MPIE = 1,
     * MIE = 0, MPP = S (seen by trap_probe) */
    li      t0, MSTATUS_MPP | MSTATUS_MIE | MSTATUS_MPIE
    csrc    mstatus, t0
    li      t0, MSTATUS_MPP_S | MSTATUS_MPIE
    csrs    mstatus, t0
    la      t0, 1f
    csrw    mepc, t0
    la      t0, trap_probe
    csrw    mtvec, t0
    csrw    mie, zero
    mret
1:  ecall
    la      t0, trap_m
    csrw    mtvec, t0
    SIG     a4
    li      t0, MSTATUS_MPP | MSTATUS_MIE | MSTATUS_MPIE
    and     a1, a4, t0
    CHECK   a1, MSTATUS_MPP_S | MSTATUS_MPIE
    csrr    a0, mstatus
    andi    a0, a0, MSTATUS_MIE
    CHECK   a0, 0            /* trap_probe cleared MPIE before its mret */
    /* mret clears MPP to U and sets MPIE */
    TEST 3
    li      t0, MSTATUS_MPP
    csrs    mstatus, t0
    li      t0, MSTATUS_MPIE
    csrc    mstatus, t0
    la      t0, 1f
    csrw    mepc, t0
    mret
1:  csrr    a0, mstatus
    li      t0, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE
    and     a0, a0, t0
    SIGCHK  a0, MSTATUS_MPIE
    /* M -> U by mret */
    TEST 4
    ENTER_MODE PRV_U
    WHERE_AM_I a1
    ENTER_M
    CHECK   a1, 8
    /* M -> M by mret (MPP = M) */
    TEST 5
    ENTER_MODE PRV_M
    WHERE_AM_I a1
    CHECK   a1, 11
    /* S -> U by sret (SPP = 0), SIE = SPIE, SPIE = 1, SPP = 0 */
    TEST 6
    ENTER_MODE PRV_S
    li      t0, MSTATUS_SPP | MSTATUS_SIE
    csrc    sstatus, t0
    li      t0, MSTATUS_SPIE
    csrs    sstatus, t0
    la      t0, 1f
    csrw    sepc, t0
    sret
1:  WHERE_AM_I a1
    ENTER_M
    CHECK   a1, 8
    csrr    a0, mstatus
    andi    a0, a0, MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE
    SIGCHK  a0, MSTATUS_SPIE | MSTATUS_SIE
    csrci   mstatus, MSTATUS_SIE
    /* S -> S by sret (SPP = 1) */
    TEST 7
    ENTER_MODE PRV_S
    li      t0, MSTATUS_SPP
    csrs    sstatus, t0
    la      t0, 1f
    csrw    sepc, t0
    sret
1:  WHERE_AM_I a1
    csrr    a2, sstatus
    ENTER_M
    CHECK   a1, 9
    andi    a2, a2, MSTATUS_SPP
    SIGCHK  a2, 0
    /* sret in M (TSR = 0): returns to SPP mode (S) */
    TEST 8
    li      t0, MSTATUS_SPP
    csrs    mstatus, t0
    la      t0, 1f
    csrw    sepc, t0
    sret
1:  WHERE_AM_I a1
    ENTER_M
    CHECK   a1, 9
    /* mret from S and U, sret from U: illegal */
    TEST 9
    ENTER_MODE PRV_S
    TRAP_CLEAR
1:  mret
    mv      a1, s8
    mv      a2, s6
    ENTER_M
    CHECK   a1, 2
    la      t0, 1b
    CHECKR  a2, t0
    TEST 10
    ENTER_MODE PRV_U
    TRAP_CLEAR
1:  mret
    mv      a1, s8
    TRAP_CLEAR
2:  sret
    mv      a2, s8
    mv      a3, s6
    ENTER_M
    CHECK   a1, 2
    CHECK   a2, 2
    la      t0, 2b
    CHECKR  a3, t0
    /* U -> M by ecall records MPP = U; S -> M records MPP = S */
    TEST 11
    ENTER_MODE PRV_U
    ENTER_M
    CHECK   s5, PRV_U
    ENTER_MODE PRV_S
    ENTER_M
    CHECK   s5, PRV_S
    /* a trap into M saves MIE in MPIE and clears MIE (mie = 0: nothing can
     * interrupt) */
    TEST 12
    csrw    mie, zero
    csrsi   mstatus, MSTATUS_MIE
    la      t0, trap_probe
    csrw    mtvec, t0
    ecall
    la      t0, trap_m
    csrw    mtvec, t0
    csrr    a0, mstatus
    andi    a0, a0, MSTATUS_MIE
    CHECK   a0, 0            /* mret restored MIE = MPIE of the handler's write */
    andi    a1, a4, MSTATUS_MIE | MSTATUS_MPIE
    SIGCHK  a1, MSTATUS_MPIE
    j       pass

    .balign 4
trap_probe:                 /* records mstatus in a4, MPIE <- 0, skips */
    csrr    a4, mstatus
    csrr    t0, mepc
    addi    t0, t0, 4
    csrw    mepc, t0
    li      t0, MSTATUS_MPIE | MSTATUS_MPP
    csrc    mstatus, t0
    li      t0, MSTATUS_MPP
    csrs    mstatus, t0
    mret
    RVTEST_CODE_END
    RVTEST_DATA 16
