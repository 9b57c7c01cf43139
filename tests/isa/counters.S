/* counters.S: mcycle/minstret writes (the written value is seen by the next
 * instruction; the writing instruction's own increment is suppressed), the
 * carry from the low into the high half, mcountinhibit (CY, IR; bit 1 reads
 * 0), the user aliases cycle/instret/time, and why a 64-bit counter must be
 * read hi-lo-hi on RV32. */
#include "test_macros.h"
    RVTEST_CODE_BEGIN
    csrw    mcountinhibit, zero
    /* mcycle write */
    TEST 1
    li      a0, 1000
    csrw    mcycle, a0
    csrr    a1, mcycle
    csrr    a2, mcycle
    SIGCHK  a1, 1000
    SIGCHK  a2, 1001
    TEST 2
    li      a0, 5
    csrw    mcycleh, a0
    csrr    a1, mcycleh
    SIGCHK  a1, 5
    /* carry from mcycle into mcycleh */
    TEST 3
    csrw    mcycleh, zero
    li      a0, -16
    csrw    mcycle, a0
    .rept 20
    nop
    .endr
    csrr    a1, mcycleh
    csrr    a2, mcycle
    SIGCHK  a1, 1
    SIGCHK  a2, 5            /* -16 + 21 */
    /* minstret write: suppresses its own increment */
    TEST 4
    li      a0, 500
    csrw    minstret, a0
    csrr    a1, minstret
    nop
    csrr    a2, minstret
    SIGCHK  a1, 500
    SIGCHK  a2, 502
    TEST 5
    li      a0, 9
    csrw    minstreth, a0
    csrr    a1, minstreth
    SIGCHK  a1, 9
    /* carry from minstret into minstreth */
    TEST 6
    csrw    minstreth, zero
    li      a0, -2
    csrw    minstret, a0
    nop
    nop
    nop
    csrr    a1, minstreth
    csrr    a2, minstret
    SIGCHK  a1, 1
    SIGCHK  a2, 2
    /* mcountinhibit.CY freezes mcycle */
    TEST 7
    csrwi   mcountinhibit, 1
    csrr    a0, mcycle
    nop
    nop
    csrr    a1, mcycle
    sub     a2, a1, a0
    SIGCHK  a2, 0
    csrr    a0, minstret     /* minstret still counts */
    nop
    csrr    a1, minstret
    sub     a2, a1, a0
    SIGCHK  a2, 2
    /* writing a frozen mcycle */
    li      a0, 77
    csrw    mcycle, a0
    nop
    csrr    a1, mcycle
    SIGCHK  a1, 77
    csrwi   mcountinhibit, 0
    csrr    a0, mcycle
    csrr    a1, mcycle
    sub     a2, a1, a0
    SIGCHK  a2, 1
    /* mcountinhibit.IR freezes minstret */
    TEST 8
    csrwi   mcountinhibit, 4
    csrr    a0, minstret
    nop
    nop
    csrr    a1, minstret
    sub     a2, a1, a0
    SIGCHK  a2, 0
    csrr    a0, mcycle       /* mcycle still counts */
    nop
    csrr    a1, mcycle
    sub     a2, a1, a0
    SIGCHK  a2, 2
    csrwi   mcountinhibit, 0
    csrr    a0, minstret
    csrr    a1, minstret
    sub     a2, a1, a0
    SIGCHK  a2, 1
    /* bit 1 reads 0; bits 0 and 2 read back */
    TEST 9
    li      a0, 7
    csrw    mcountinhibit, a0
    csrr    a1, mcountinhibit
    andi    a1, a1, 7
    SIGCHK  a1, 5
    li      a0, -1
    csrw    mcountinhibit, a0
    csrr    a1, mcountinhibit
    SIG     a1
    andi    a1, a1, 2
    CHECK   a1, 0
    csrw    mcountinhibit, zero
    /* user aliases */
    TEST 10
    csrr    a0, mcycle
    csrr    a1, cycle
    sub     a2, a1, a0
    SIGCHK  a2, 1
    csrr    a0, minstret
    csrr    a1, instret
    sub     a2, a1, a0
    SIGCHK  a2, 1
    li      a0, 0x1234
    csrw    mcycleh, a0
    csrr    a1, cycleh
    SIGCHK  a1, 0x1234
    csrw    minstreth, a0
    csrr    a1, instreth
    SIGCHK  a1, 0x1234
    /* time = mtime */
    TEST 11
    li      t0, CLINT_MTIME
    csrr    a0, time
    lw      a1, 0(t0)
    sub     a2, a1, a0
    SIG     a2
    addi    a2, a2, -1
    sltiu   a2, a2, 2        /* 1 or 2: the load samples mtime in X */
    CHECK   a2, 1
    csrr    a0, timeh
    lw      a1, 4(t0)
    CHECKR  a0, a1
    /* the race: the low half wraps between reading the high and the low
     * half, so a naive hi-then-lo read returns 0x0_00000000 instead of
     * ~0x1_00000000 (2^32 off); hi-lo-hi sees hi change and retries */
    TEST 12
    csrw    mcycleh, zero
    li      a0, -1
    csrw    mcycle, a0       /* mcycle = 0x0_ffffffff in the next cycle */
    csrr    a1, mcycleh      /* 0 */
    csrr    a2, mcycle       /* 0: wrapped */
    csrr    a3, mcycleh      /* 1 */
    SIGCHK  a1, 0
    SIGCHK  a2, 0
    SIGCHK  a3, 1
    /* the same moment read correctly */
    TEST 13
    csrw    mcycleh, zero
    li      a0, -1
    csrw    mcycle, a0
1:  csrr    a1, mcycleh
    csrr    a2, mcycle
    csrr    a3, mcycleh
    bne     a1, a3, 1b
    SIGCHK  a1, 1
    SIGCHK  a3, 1
    SIG     a2
    li      t0, 8
    bgeu    a2, t0, fail      /* a few cycles past the wrap */
    /* writes to the high half do not disturb the low half */
    TEST 14
    li      a0, 100
    csrw    mcycle, a0
    csrw    mcycleh, zero
    csrr    a1, mcycle
    SIGCHK  a1, 100          /* the mcycleh write suppressed this edge */
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 48
