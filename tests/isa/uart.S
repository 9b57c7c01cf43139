/* uart.S: the UART as a polling program sees it: div reads UART_DIV (8),
 * tx_busy rises the cycle after a store to data and falls 10*UART_DIV cycles
 * later, a store while busy is ignored, rx_valid is 0 without input,
 * undefined offsets read 0. Prints "uart ok\n" (the runner compares stdout
 * of hpm-ref and hpm-sim). */
#include "test_macros.h"

.macro PUTC ch
1:  lw      t1, 4(s0)
    andi    t1, t1, 1
    bnez    t1, 1b
    li      t1, \ch
    sw      t1, 0(s0)
.endm

    RVTEST_CODE_BEGIN
    li      s0, UART_BASE
    TEST 1
    lw      a0, 8(s0)
    SIGCHK  a0, 8
    lw      a0, 4(s0)
    SIGCHK  a0, 0            /* idle, nothing received */
    lw      a0, 0x10(s0)
    SIGCHK  a0, 0
    lw      a0, 0xfc(s0)
    SIGCHK  a0, 0
    /* tx_busy timing: store in cycle t, busy from t+1 to t+80 */
    TEST 2
    li      t1, 'u'
    csrr    a0, mcycle
    sw      t1, 0(s0)        /* X in cycle a0 + 1 */
    lw      a2, 4(s0)        /* X in cycle a0 + 3: busy */
1:  lw      t1, 4(s0)
    andi    t1, t1, 1
    bnez    t1, 1b
    csrr    a1, mcycle
    SIGCHK  a2, 1
    sub     a3, a1, a0
    SIG     a3
    addi    a3, a3, -82
    sltiu   a3, a3, 16       /* 82 <= delta < 98 (poll loop granularity) */
    CHECK   a3, 1
    /* a store while busy is ignored: "ar" with an 'X' in between is "ar" */
    TEST 3
    li      t1, 'a'
    sw      t1, 0(s0)
    li      t1, 'X'
    sw      t1, 0(s0)        /* dropped: still busy */
    PUTC    'r'
    PUTC    't'
    PUTC    ' '
    PUTC    'o'
    PUTC    'k'
    PUTC    '\n'
    /* wait for the line to be idle before halting */
1:  lw      t1, 4(s0)
    andi    t1, t1, 1
    bnez    t1, 1b
    /* a store that does not write byte lane 0 of data sends nothing */
    TEST 5
    li      t1, 0x5858
    sh      t1, 2(s0)
    sb      t1, 1(s0)
    lw      a0, 4(s0)
    SIGCHK  a0, 0            /* still idle */
    /* the div register is read-only */
    TEST 4
    li      t1, 99
    sw      t1, 8(s0)
    lw      a0, 8(s0)
    SIGCHK  a0, 8
    /* byte and half loads of status see the same lanes */
    lbu     a0, 8(s0)
    SIGCHK  a0, 8
    lhu     a0, 10(s0)
    SIGCHK  a0, 0
    EXPECT_NO_TRAP
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 16
