/* branch.S: every conditional branch taken and not taken, forward and
 * backward, on signed/unsigned corner cases; loops; branch on just-written
 * registers. Timing of each case is checked in timing.S. */
#include "test_macros.h"

/* taken forward: must skip the poison */
.macro BR_T n, op, a, b
    TEST    \n
    li      a1, \a
    li      a2, \b
    \op     a1, a2, 1f
    j       fail
1:
.endm
/* not taken forward */
.macro BR_N n, op, a, b
    TEST    \n
    li      a1, \a
    li      a2, \b
    \op     a1, a2, fail
.endm
/* taken backward */
.macro BR_TB n, op, a, b
    TEST    \n
    li      a1, \a
    li      a2, \b
    j       2f
1:  j       3f
2:  \op     a1, a2, 1b
    j       fail
3:
.endm
/* not taken backward */
.macro BR_NB n, op, a, b
    TEST    \n
    li      a1, \a
    li      a2, \b
    j       2f
1:  j       fail
2:  \op     a1, a2, 1b
.endm

    RVTEST_CODE_BEGIN
    BR_T  1, beq, 5, 5
    BR_N  2, beq, 5, 6
    BR_T  3, bne, 0, 0x80000000
    BR_N  4, bne, -1, -1
    BR_T  5, blt, -1, 0
    BR_N  6, blt, 0, -1
    BR_N  7, blt, 7, 7
    BR_T  8, bge, 0, -1
    BR_T  9, bge, 7, 7
    BR_N 10, bge, 0x80000000, 0x7fffffff
    BR_T 11, bltu, 0, -1
    BR_N 12, bltu, -1, 0
    BR_N 13, bltu, 3, 3
    BR_T 14, bgeu, -1, 0
    BR_T 15, bgeu, 3, 3
    BR_N 16, bgeu, 0x7fffffff, 0x80000000
    BR_TB 17, beq, 9, 9
    BR_NB 18, beq, 9, 8
    BR_TB 19, bne, 9, 8
    BR_NB 20, bne, 9, 9
    BR_TB 21, blt, 0x80000000, 1
    BR_NB 22, blt, 1, 0x80000000
    BR_TB 23, bge, 1, 0x80000000
    BR_NB 24, bge, -2, -1
    BR_TB 25, bltu, 1, 0x80000000
    BR_NB 26, bltu, 0x80000000, 1
    BR_TB 27, bgeu, 0x80000000, 1
    BR_NB 28, bgeu, 0, 1
    /* x0 operands */
    TEST 29
    beq     x0, x0, 1f
    j       fail
1:  bne     x0, x0, fail
    li      a1, -1
    blt     a1, x0, 1f
    j       fail
1:  bltu    x0, a1, 1f
    j       fail
1:
    /* counted loop: backward branch taken 99 times, not taken once */
    TEST 30
    li      a0, 100
    li      a1, 0
1:  add     a1, a1, a0
    addi    a0, a0, -1
    bnez    a0, 1b
    SIGCHK  a1, 5050
    /* nested loops */
    TEST 31
    li      a0, 0
    li      a2, 10
1:  li      a3, 7
2:  addi    a0, a0, 3
    addi    a3, a3, -1
    bgtz    a3, 2b
    addi    a2, a2, -1
    bnez    a2, 1b
    SIGCHK  a0, 210
    /* branch on a register written by the previous instruction (bypass) */
    TEST 32
    li      a0, 4
    addi    a0, a0, -4
    bnez    a0, fail
    la      a1, bval
    lw      a0, 0(a1)
    beqz    a0, fail
    lw      a0, 0(a1)
    bltz    a0, 1f
    j       fail
1:  SIGCHK  a0, 0x80000000
    /* branch with the largest offsets in this file: far forward target */
    TEST 33
    li      a0, 1
    bnez    a0, far_fwd
    j       fail
back_from_far:
    SIGCHK  a0, 2
    EXPECT_NO_TRAP
    j       pass
    .skip   2000, 0x13      /* never executed (not a valid encoding anyway) */
    .balign 4
far_fwd:
    li      a0, 2
    bnez    a0, back_from_far
    j       fail
    RVTEST_CODE_END
    .data
bval:   .word 0x80000000
    RVTEST_DATA 8
