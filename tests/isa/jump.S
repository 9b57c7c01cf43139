/* jump.S: jal/jalr: link values, rd == x0, rd == rs1, jalr offsets and the
 * cleared bit 0, calls and returns, computed jumps. */
#include "test_macros.h"
    RVTEST_CODE_BEGIN
    TEST 1
    jal     ra, 1f
2:  j       fail
1:  la      a0, 2b
    CHECKR  ra, a0
    SIG     ra
    /* jal x0 (plain jump) */
    TEST 2
    li      a1, 0
    jal     x0, 1f
    li      a1, 1
1:  SIGCHK  a1, 0
    /* jalr with offset */
    TEST 3
    la      a0, target3 - 12
    jalr    a2, 12(a0)
ret3:
    j       fail
target3:
    la      a3, ret3
    CHECKR  a2, a3
    /* jalr clears bit 0 of the target */
    TEST 4
    la      a0, target4
    addi    a0, a0, 1
    jalr    a2, 0(a0)
    j       fail
target4:
    li      a4, 4
    SIGCHK  a4, 4
    /* jalr with negative offset */
    TEST 5
    la      a0, target5 + 16
    jalr    x0, -16(a0)
    j       fail
target5:
    /* rd == rs1: target uses the old value */
    TEST 6
    la      a0, target6
    jalr    a0, 0(a0)
ret6:
    j       fail
target6:
    la      a1, ret6
    CHECKR  a0, a1
    /* call / ret, nested */
    TEST 7
    li      a0, 5
    call    fact
    SIGCHK  a0, 120
    /* computed jump through a table */
    TEST 8
    li      a5, 0
    li      a6, 0
1:  la      a1, jtab
    slli    a2, a6, 2
    add     a1, a1, a2
    lw      a1, 0(a1)
    jalr    ra, 0(a1)
    addi    a6, a6, 1
    li      a2, 3
    bne     a6, a2, 1b
    SIGCHK  a5, 0x321
    /* jal immediately followed by a dependent use of the link register */
    TEST 9
    jal     a7, 1f
1:  addi    a7, a7, 4
    la      a1, 1b
    addi    a1, a1, 4
    CHECKR  a7, a1
    /* jalr target read from a register written just before (bypass) */
    TEST 10
    la      a0, target10
    addi    a0, a0, 0
    jalr    ra, a0
    j       fail
target10:
    EXPECT_NO_TRAP
    j       pass

fact:                       /* a0 = a0! (recursive) */
    addi    sp, sp, -8
    sw      ra, 4(sp)
    sw      a0, 0(sp)
    li      a1, 1
    ble     a0, a1, 1f
    addi    a0, a0, -1
    call    fact
    lw      a1, 0(sp)
    mul     a0, a0, a1
    j       2f
1:  li      a0, 1
2:  lw      ra, 4(sp)
    addi    sp, sp, 8
    ret
f0: ori     a5, a5, 0x1
    ret
f1: ori     a5, a5, 0x20
    ret
f2: ori     a5, a5, 0x300
    ret
    RVTEST_CODE_END
    .data
jtab:   .word f0, f1, f2
    RVTEST_DATA 8
