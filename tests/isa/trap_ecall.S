/* trap_ecall.S: ecall from M/S/U (cause 11/9/8) and ebreak from every mode
 * (cause 3, mtval = pc), mepc = the instruction, MPP = the mode it came from;
 * neither retires (minstret). */
#include "test_macros.h"
/* test n: ecall (cause c, mtval 0) then ebreak (cause 3, mtval = pc) in
 * mode, each trapping to M with mepc = the instruction, MPP = mode */
.macro ECALL_EBREAK n, mode, c
    TEST \n
    ENTER_MODE \mode
    TRAP_CLEAR
1:  ecall
    mv      a1, s8
    mv      a2, s6
    mv      a3, s5
    mv      a4, s7
    TRAP_CLEAR
2:  ebreak
    mv      a5, s8
    mv      a6, s7
    mv      a7, s5
    ENTER_M
    CHECK   a1, \c
    la      t0, 1b
    CHECKR  a2, t0
    CHECK   a3, \mode
    CHECK   a4, 0
    CHECK   a5, 3
    la      t0, 2b
    CHECKR  a6, t0
    CHECK   a7, \mode
    CHECK   s8, \c
    CHECK   s5, \mode
.endm
    RVTEST_CODE_BEGIN
    TEST 1
    TRAP_CLEAR
1:  ecall
    EXPECT_TRAP 11
    EXPECT_EPC 1b
    CHECK   s5, PRV_M
    EXPECT_TVAL 0
    TEST 2
    TRAP_CLEAR
1:  ebreak
    EXPECT_TRAP 3
    EXPECT_EPC 1b
    EXPECT_TVAL_LABEL 1b
    CHECK   s5, PRV_M
    ECALL_EBREAK 3, PRV_S, 9
    ECALL_EBREAK 4, PRV_U, 8
    /* ENTER_M really returned in M: mscratch is accessible */
    TEST 5
    csrw    mscratch, a1
    /* ecall/ebreak do not retire */
    TEST 6
    csrr    a0, minstret
    ecall
    csrr    a1, minstret
    sub     a2, a1, a0
    SIGCHK  a2, 18          /* csrr + the 17 instructions of the handler */
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 16
