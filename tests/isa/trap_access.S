/* trap_access.S: load/store/fetch access faults for addresses outside every
 * region of docs/memory-map.md (cause 5/7/1, mtval = the address; for a
 * fetch fault mepc = mtval = the target, the jump itself retired). */
#include "test_macros.h"

.macro LD_AF n, op, addr
    TEST    \n
    TRAP_CLEAR
    li      a0, \addr
    li      a3, 0x6666
1:  \op     a3, 0(a0)
    EXPECT_TRAP 5
    EXPECT_EPC 1b
    CHECKR  s7, a0
    CHECK   a3, 0x6666
.endm
.macro ST_AF n, op, addr
    TEST    \n
    TRAP_CLEAR
    li      a0, \addr
1:  \op     a0, 0(a0)
    EXPECT_TRAP 7
    EXPECT_EPC 1b
    CHECKR  s7, a0
.endm
.macro IF_AF n, addr
    TEST    \n
    TRAP_CLEAR
    li      a0, \addr
    la      s10, 2f
1:  jalr    ra, 0(a0)
2:  EXPECT_TRAP 1
    CHECKR  s6, a0
    CHECKR  s7, a0
    la      a1, 1b + 4
    CHECKR  ra, a1
.endm

    RVTEST_CODE_BEGIN
    LD_AF  1, lw, BAD_ADDR
    LD_AF  2, lb, 0x00002000        /* just past fw */
    LD_AF  3, lhu, 0x01fffffe       /* just below clint */
    LD_AF  4, lw, 0x02010000        /* just past clint */
    LD_AF  5, lbu, 0x10000100       /* just past uart */
    LD_AF  6, lw, 0x10000ffc        /* between uart and gpio */
    LD_AF  7, lh, 0x10001100        /* just past gpio */
    LD_AF  8, lw, 0x80020000        /* just past ram */
    LD_AF  9, lw, 0xfffffffc
    ST_AF 10, sw, BAD_ADDR
    ST_AF 11, sb, 0x00002000
    ST_AF 12, sh, 0x02010000
    ST_AF 13, sw, 0x10000100
    ST_AF 14, sb, 0x10001100
    ST_AF 15, sw, 0x80020000
    ST_AF 16, sw, 0x7ffffffc
    IF_AF 20, BAD_ADDR
    IF_AF 21, 0x10000000            /* uart: not executable */
    IF_AF 22, 0x02000000            /* clint */
    IF_AF 23, 0x10001000            /* gpio */
    IF_AF 24, 0x80020000            /* past ram */
    IF_AF 25, 0x00002000            /* past fw */
    /* falling off the end of RAM: execute the last word (a nop), then
     * fetch 0x80020000 */
    TEST 26
    TRAP_CLEAR
    li      a0, 0x8001fffc
    li      a1, 0x00000013
    sw      a1, 0(a0)
    fence.i
    la      s10, 2f
    jalr    ra, 0(a0)
2:  EXPECT_TRAP 1
    CHECK   s7, 0x80020000
    CHECK   s6, 0x80020000
    /* a fetch fault from U-mode is reported with MPP = U */
    TEST 27
    TRAP_CLEAR
    ENTER_MODE PRV_U
    la      s10, 2f
    li      a0, BAD_ADDR
    jr      a0
2:  mv      a1, s8
    mv      a2, s5
    ENTER_M
    CHECK   s9, 2
    CHECK   a1, 1
    CHECK   a2, PRV_U
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 40
