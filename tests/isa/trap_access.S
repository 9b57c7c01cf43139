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
    LD_AF  2, lb, (HPM_FW_BASE+HPM_FW_SIZE)        /* just past fw */
    LD_AF  3, lhu, (HPM_CLINT_BASE-2)       /* just below clint */
    LD_AF  4, lw, (HPM_CLINT_BASE+HPM_CLINT_SIZE)        /* just past clint */
    LD_AF  5, lbu, (HPM_UART_BASE+HPM_UART_SIZE)       /* just past uart */
    LD_AF  6, lw, (HPM_GPIO_BASE-4)        /* between uart and gpio */
    LD_AF  7, lh, (HPM_GPIO_BASE+HPM_GPIO_SIZE)        /* just past gpio */
    LD_AF  8, lw, (HPM_RAM_BASE+HPM_RAM_SIZE)        /* just past ram */
    LD_AF  9, lw, 0xfffffffc
    ST_AF 10, sw, BAD_ADDR
    ST_AF 11, sb, (HPM_FW_BASE+HPM_FW_SIZE)
    ST_AF 12, sh, (HPM_CLINT_BASE+HPM_CLINT_SIZE)
    ST_AF 13, sw, (HPM_UART_BASE+HPM_UART_SIZE)
    ST_AF 14, sb, (HPM_GPIO_BASE+HPM_GPIO_SIZE)
    ST_AF 15, sw, (HPM_RAM_BASE+HPM_RAM_SIZE)
    ST_AF 16, sw, (HPM_RAM_BASE-4)
    IF_AF 20, BAD_ADDR
    IF_AF 21, HPM_UART_BASE            /* uart: not executable */
    IF_AF 22, HPM_CLINT_BASE            /* clint */
    IF_AF 23, HPM_GPIO_BASE            /* gpio */
    IF_AF 24, (HPM_RAM_BASE+HPM_RAM_SIZE)            /* past ram */
    IF_AF 25, (HPM_FW_BASE+HPM_FW_SIZE)            /* past fw */
    /* falling off the end of RAM: execute the last word (a nop), then
     * fetch just past it */
    TEST 26
    TRAP_CLEAR
    li      a0, (HPM_RAM_BASE+HPM_RAM_SIZE-4)
    li      a1, 0x00000013
    sw      a1, 0(a0)
    fence.i
    la      s10, 2f
    jalr    ra, 0(a0)
2:  EXPECT_TRAP 1
    CHECK   s7, (HPM_RAM_BASE+HPM_RAM_SIZE)
    CHECK   s6, (HPM_RAM_BASE+HPM_RAM_SIZE)
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
