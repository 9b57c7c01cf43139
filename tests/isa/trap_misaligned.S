/* trap_misaligned.S: instruction-address-misaligned from jalr, jal and a
 * taken branch (mepc = the jump, mtval = the target, rd not written; a
 * not-taken branch to a misaligned target does not trap), and misaligned
 * loads/stores of every width (cause 4/6, mtval = the address, no access). */
#include "test_macros.h"
/* the jump or branch at 1b trapped (cause 0, mepc 1b) for its target
 * 1b + off (mtval) */
.macro MISALIGNED_TARGET off
    EXPECT_TRAP 0
    EXPECT_EPC 1b
    la      a0, 1b
    addi    a0, a0, \off
    CHECKR  s7, a0
.endm

.macro LD_MIS n, op, off
    TEST    \n
    TRAP_CLEAR
    li      a3, 0x5555
    addi    a0, s0, \off
1:  \op     a3, \off(s0)
    EXPECT_TRAP 4
    EXPECT_EPC 1b
    CHECKR  s7, a0
    CHECK   a3, 0x5555
.endm
.macro ST_MIS n, op, off
    TEST    \n
    TRAP_CLEAR
    li      a3, -1
    addi    a0, s0, \off
1:  \op     a3, \off(s0)
    EXPECT_TRAP 6
    EXPECT_EPC 1b
    CHECKR  s7, a0
    lw      a4, 0(s0)
    CHECK   a4, 0x11223344
    lw      a4, 4(s0)
    CHECK   a4, 0x55667788
.endm

    RVTEST_CODE_BEGIN
    la      s0, mdata
    /* jalr to pc+2 */
    TEST 1
    TRAP_CLEAR
    li      ra, 0x1234
    la      a0, 2f
    addi    a0, a0, 2
1:  jalr    ra, 0(a0)
2:  nop
    nop
    EXPECT_TRAP 0
    EXPECT_EPC 1b
    CHECKR  s7, a0
    CHECK   ra, 0x1234
    /* jalr: bit 0 is cleared first, so +3 gives a target with bit 1 set */
    TEST 2
    TRAP_CLEAR
    la      a0, 2f
    addi    a0, a0, 3
1:  jalr    x0, 0(a0)
2:  nop
    nop
    EXPECT_TRAP 0
    EXPECT_EPC 1b
    addi    a0, a0, -1
    CHECKR  s7, a0
    /* jal with offset 6: jal x0, .+6 */
    TEST 3
    TRAP_CLEAR
1:  .word   0x0060006f
    nop
    nop
    MISALIGNED_TARGET 6
    /* jal ra, .+10: ra must not be written */
    TEST 4
    TRAP_CLEAR
    li      ra, 0x777
1:  .word   0x00a000ef
    nop
    nop
    nop
    EXPECT_TRAP 0
    CHECK   ra, 0x777
    /* beq x0, x0, .+6 (taken, misaligned) */
    TEST 5
    TRAP_CLEAR
1:  .word   0x00000363
    nop
    nop
    MISALIGNED_TARGET 6
    /* bne x0, x0, .+6 (not taken): no trap */
    TEST 6
    TRAP_CLEAR
    .word   0x00001363
    EXPECT_NO_TRAP
    /* blt backward by -6 (taken, predicted taken, misaligned) */
    TEST 7
    TRAP_CLEAR
    li      ra, -1
    nop
    nop
1:  .word   0xfe00cde3      /* blt x1, x0, .-6 ; x1 = ra */
    nop
    EXPECT_TRAP 0
    EXPECT_EPC 1b
    SIG     s7
    /* loads */
    LD_MIS 10, lh, 1
    LD_MIS 11, lh, 3
    LD_MIS 12, lhu, 1
    LD_MIS 13, lw, 1
    LD_MIS 14, lw, 2
    LD_MIS 15, lw, 3
    LD_MIS 16, lhu, 5
    /* stores */
    ST_MIS 20, sh, 1
    ST_MIS 21, sh, 3
    ST_MIS 22, sw, 1
    ST_MIS 23, sw, 2
    ST_MIS 24, sw, 3
    /* aligned byte/half accesses at odd/even addresses are fine */
    TEST 30
    TRAP_CLEAR
    lb      a3, 3(s0)
    lh      a3, 2(s0)
    sb      a3, 8(s0)
    sh      a3, 10(s0)
    EXPECT_NO_TRAP
    /* misaligned beats access fault: lw from BAD_ADDR+2 */
    TEST 31
    TRAP_CLEAR
    li      a0, BAD_ADDR + 2
    lw      a3, 0(a0)
    EXPECT_TRAP 4
    CHECKR  s7, a0
    TRAP_CLEAR
    sw      a3, 0(a0)
    EXPECT_TRAP 6
    CHECKR  s7, a0
    j       pass
    RVTEST_CODE_END
    .data
    .balign 8
mdata:  .word 0x11223344, 0x55667788, 0, 0
    RVTEST_DATA 16
