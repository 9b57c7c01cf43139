/* hpm_width.S: runs on every HPM configuration (hpm-sim and the
 * hpm-sim-<num>x<width> variants); every expectation is computed from the
 * configuration, which the test probes:
 *   HPM_NUM   = the selectors that keep an event index written to them (they
 *               must be mhpmevent3 .. mhpmevent(2 + HPM_NUM), contiguous;
 *               the others and their counters read 0 and ignore writes),
 *   HPM_WIDTH = all-ones written to mhpmcounter3(h) reads back as the mask
 *               (2^w - 1 split in two halves; the last counter has the same).
 * Then, on mhpmcounter3 at that width: wrap from all-ones after one cycle
 * (OF, mip.LCOFIP, scountovf bit 3, the counter restarts at 0), a write in
 * the cycle of an event (the write wins), scountovf = the implemented bits. */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

    RVTEST_CODE_BEGIN
    HPM_QUIET
    TEST 1                  /* s0 = HPM_NUM, s2 = bitmask of implemented counters */
    li      s0, 0
    li      s2, 0
    li      t2, 8           /* bit of counter 3 */
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    li      t0, HPM_EV_CYCLES
    csrw    mhpmevent\n, t0
    csrr    a0, mhpmevent\n
    beqz    a0, 1f
    CHECK   a0, HPM_EV_CYCLES
    addi    s0, s0, 1
    or      s2, s2, t2
1:  slli    t2, t2, 1
    .endr
    SIG     s0
    SIG     s2
    /* contiguous: s2 == ((1 << s0) - 1) << 3 */
    li      t0, 1
    sll     t0, t0, s0
    addi    t0, t0, -1
    slli    t0, t0, 3
    CHECKR  t0, s2
    TEST 2                  /* unimplemented counters and selectors read 0 */
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    csrw    mhpmcounter\n\()h, s1
    csrw    mhpmcounter\n, s1
    li      t0, (1 << \n)
    and     t0, t0, s2
    bnez    t0, 5f
    csrr    a0, mhpmcounter\n
    CHECK   a0, 0
    csrr    a0, mhpmcounter\n\()h
    CHECK   a0, 0
    csrr    a0, mhpmevent\n
    CHECK   a0, 0
    csrr    a0, mhpmevent\n\()h
    CHECK   a0, 0
5:
    .endr
    TEST 3                  /* scountovf shows exactly the implemented OF bits */
    OF_SET  3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    csrr    a0, scountovf
    SIG     a0
    CHECKR  a0, s2
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    csrw    mhpmevent\n\()h, zero
    .endr
    csrr    a0, scountovf
    CHECK   a0, 0
    beqz    s0, pass        /* HPM_NUM = 0: no counter to look at */

    TEST 4                  /* the width: s3 = mask of the low half, s4 of the high half */
    csrw    mhpmcounter3h, s1
    csrw    mhpmcounter3, s1
    csrr    s3, mhpmcounter3
    csrr    s4, mhpmcounter3h
    SIG     s3
    SIG     s4
    beqz    s3, fail        /* HPM_WIDTH >= 1 */
    addi    t0, s3, 1       /* s3 = 2^k - 1 */
    and     t0, t0, s3
    bnez    t0, fail
    addi    t0, s4, 1
    and     t0, t0, s4
    bnez    t0, fail
    beqz    s4, 6f          /* a high half only if the low half is full */
    CHECK   s3, -1
6:  TEST 5                  /* the last implemented counter has the same width */
    li      t1, 0
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    li      t0, (1 << \n)
    and     t0, t0, s2
    beqz    t0, 7f
    csrw    mhpmcounter\n\()h, s1
    csrw    mhpmcounter\n, s1
    csrr    a0, mhpmcounter\n
    csrr    a1, mhpmcounter\n\()h
    CHECKR  a0, s3
    CHECKR  a1, s4
    csrw    mhpmcounter\n, zero
    csrw    mhpmcounter\n\()h, zero
    csrw    mhpmevent\n, zero
    addi    t1, t1, 1
7:
    .endr
    CHECKR  t1, s0

    TEST 6                  /* wrap at the width: all-ones in t+2 wraps at its end */
    csrw    mcountinhibit, s1
    li      t0, HPM_EV_CYCLES
    csrw    mhpmevent3, t0
    csrw    mhpmevent3h, zero
    csrw    mhpmcounter3h, s4
    addi    t0, s3, -1
    csrw    mhpmcounter3, t0    /* all-ones - 1 */
    csrw    mcountinhibit, zero /* t: counts from t+1 */
    csrr    a1, mhpmevent3h     /* t+1 .. t+3, reads at t+2: OF 0; all-ones in t+2, wraps at its end */
    csrr    a2, mhpmevent3h     /* t+4 .. t+6, reads at t+5: OF 1 */
    csrr    a3, mhpmcounter3    /* t+7 .. t+9, reads at t+8: 5 mod 2^w */
    csrr    a4, mhpmcounter3h   /* t+10 .. t+12, reads at t+11: 0 */
    csrr    a5, mip
    csrr    a6, scountovf
    SIGCHK  a1, 0
    SIGCHK  a2, OF
    andi    t1, s3, 5
    CHECKR  a3, t1
    SIGCHK  a4, 0
    li      t0, MIP_LCOF
    and     a5, a5, t0
    SIGCHK  a5, MIP_LCOF
    SIGCHK  a6, 8
    csrc    mip, t0
    csrw    mhpmevent3h, zero
    TEST 7                  /* a write in the cycle of an event wins */
    csrw    mhpmcounter3h, zero
    csrw    mhpmcounter3, zero  /* t (its fourth cycle) */
    csrr    a1, mhpmcounter3    /* t+1 .. t+3, reads at t+2: 1 */
    csrr    a2, mhpmcounter3    /* t+4 .. t+6, reads at t+5: 4 mod 2^w */
    SIGCHK  a1, 1
    andi    t1, s3, 4
    CHECKR  a2, t1
    TEST 8                  /* ADD of 4 events: 4 per cycle, modulo 2^w */
    li      t0, SEL_LO(HPM_EV_CYCLES, HPM_EV_CYCLES, HPM_EV_CYCLES, HPM_EV_CYCLES)
    csrw    mhpmevent3, t0
    li      t0, SEL_HI(HPM_EV_CYCLES, OP_ADD, OP_ADD, OP_ADD)
    csrw    mhpmevent3h, t0
    csrw    mhpmcounter3, zero  /* t (its fourth cycle) */
    nop                         /* t+1 */
    nop                         /* t+2 */
    csrr    a1, mhpmcounter3    /* t+3 .. t+5, reads at t+4: 12 mod 2^w */
    csrr    a2, mhpmevent3h
    addi    t0, s3, 0
    li      t1, 12
    and     t1, t1, t0
    SIG     a1
    CHECKR  a1, t1
    /* OF is set iff 12 >= 2^w, i.e. s3 < 12 */
    srli    a2, a2, 31
    sltiu   t0, s3, 12
    CHECKR  a2, t0
    csrw    mhpmevent3h, zero
    li      t0, MIP_LCOF
    csrc    mip, t0
    csrw    mcountinhibit, s1
    j       pass
    RVTEST_CODE_END
    .data
    RVTEST_DATA 24
