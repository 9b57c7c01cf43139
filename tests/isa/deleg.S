/* deleg.S: medeleg/mideleg read-back, exceptions delegated to S (scause,
 * sepc, stval, sstatus.SPP), traps from M never delegated, undelegated
 * exceptions from S/U go to M. */
#include "test_macros.h"
/* test n: in mode, the access `op a5, 0(a0)` at a0 = addr (set by `set`:
 * li or la) traps with cause, taken in `to` (s3: 1 = S, 3 = M); back in M,
 * a3 = its tval */
.macro ACCESS_TRAP n, mode, set, addr, op, to, cause
    TEST \n
    ENTER_MODE \mode
    TRAP_CLEAR
    \set     a0, \addr
    \op      a5, 0(a0)
    mv      a1, s3
    mv      a2, s8
    mv      a3, s7
    ENTER_M_BRK
    CHECK   a1, \to
    CHECK   a2, \cause
.endm
    RVTEST_CODE_BEGIN
    TEST 1
    li      t0, -1
    csrw    medeleg, t0
    csrr    a0, medeleg
    SIG     a0
    srli    a1, a0, 11
    andi    a1, a1, 1
    CHECK   a1, 0            /* ecall from M cannot be delegated */
    csrw    mideleg, t0
    csrr    a0, mideleg
    SIG     a0
    andi    a1, a0, MIP_MSIP | MIP_MTIP
    CHECK   a1, 0            /* M-level interrupts cannot be delegated */
    csrw    medeleg, zero
    csrw    mideleg, zero
    csrr    a0, medeleg
    CHECK   a0, 0
    /* delegate: illegal (2), misaligned load (4), ecall U (8), load fault (5) */
    li      t0, (1 << 2) | (1 << 4) | (1 << 8) | (1 << 5)
    csrw    medeleg, t0
    /* from U: ecall -> S */
    TEST 2
    ENTER_MODE PRV_U
    TRAP_CLEAR
1:  ecall
    mv      a1, s3
    mv      a2, s8
    mv      a3, s6
    mv      a4, s5
    ENTER_M_BRK
    CHECK   a1, 1
    CHECK   a2, 8
    la      t0, 1b
    CHECKR  a3, t0
    CHECK   a4, 0
    csrr    a0, scause
    CHECK   a0, 8
    csrr    a0, mcause
    CHECK   a0, 3            /* the ebreak of ENTER_M_BRK went to M */
    /* from U: illegal instruction -> S, stval = bits or 0 */
    TEST 3
    ENTER_MODE PRV_U
    TRAP_CLEAR
1:  .word   0xffffffff
    mv      a1, s3
    mv      a2, s8
    mv      a3, s7
    ENTER_M_BRK
    CHECK   a1, 1
    CHECK   a2, 2
    SIG     a3
    /* from S: misaligned load -> S (stval = address), SPP = S */
    TEST 4
    ENTER_MODE PRV_S
    TRAP_CLEAR
    la      a0, ddata + 1
1:  lw      a5, 0(a0)
    mv      a1, s3
    mv      a2, s8
    mv      a3, s7
    mv      a4, s5
    ENTER_M_BRK
    CHECK   a1, 1
    CHECK   a2, 4
    la      t0, ddata + 1
    CHECKR  a3, t0
    CHECK   a4, 1
    /* from S: load access fault -> S */
    ACCESS_TRAP 5, PRV_S, li, BAD_ADDR, lw, 1, 5
    CHECK   a3, BAD_ADDR
    /* from S: ecall (9, not delegated) -> M */
    TEST 6
    ENTER_MODE PRV_S
    TRAP_CLEAR
    ecall
    mv      a1, s3
    mv      a2, s8
    ENTER_M_BRK
    CHECK   a1, 3
    CHECK   a2, 9
    /* from U: store misaligned (6, not delegated) -> M */
    ACCESS_TRAP 7, PRV_U, la, ddata + 2, sw, 3, 6
    /* in M, delegated causes still trap to M */
    TEST 8
    TRAP_CLEAR
    .word   0xffffffff
    CHECK   s3, 3
    CHECK   s8, 2
    TRAP_CLEAR
    la      a0, ddata + 1
    lw      a5, 0(a0)
    CHECK   s3, 3
    CHECK   s8, 4
    /* each exception class takes its own delegation (one xtvec select in
     * hpm_core by class): misaligned jump target (0) and store access
     * fault (7) delegated; load access fault (5), misaligned load (4),
     * illegal (2), misaligned store (6) not */
    TEST 9
    li      t0, (1 << 0) | (1 << 7)
    csrw    medeleg, t0
    ENTER_MODE PRV_S
    TRAP_CLEAR
    la      a0, 2f + 2
1:  jalr    zero, 0(a0)
2:  mv      a1, s3
    mv      a2, s8
    mv      a3, s7
    mv      a4, s6
    ENTER_M_BRK
    CHECK   a1, 1
    CHECK   a2, 0
    la      t0, 2b + 2
    CHECKR  a3, t0
    la      t0, 1b
    CHECKR  a4, t0
    TEST 10
    ENTER_MODE PRV_U
    TRAP_CLEAR
1:  beq     zero, zero, 2f + 2
2:  mv      a1, s3
    mv      a2, s8
    mv      a3, s7
    ENTER_M_BRK
    CHECK   a1, 1
    CHECK   a2, 0
    la      t0, 2b + 2
    CHECKR  a3, t0
    ACCESS_TRAP 11, PRV_S, li, BAD_ADDR, sw, 1, 7
    CHECK   a3, BAD_ADDR
    ACCESS_TRAP 12, PRV_S, li, BAD_ADDR, lw, 3, 5
    ACCESS_TRAP 13, PRV_U, la, ddata + 2, lw, 3, 4
    TEST 14
    ENTER_MODE PRV_S
    TRAP_CLEAR
    .word   0xffffffff
    mv      a1, s3
    mv      a2, s8
    ENTER_M_BRK
    CHECK   a1, 3
    CHECK   a2, 2
    /* a misaligned store (6) takes its own class's delegation, not the
     * store access fault's (7, delegated) */
    ACCESS_TRAP 15, PRV_S, la, ddata + 2, sw, 3, 6
    csrw    medeleg, zero
    j       pass
    RVTEST_CODE_END
    .data
    .balign 4
ddata:  .word 0x01020304, 0x05060708
    RVTEST_DATA 16
