/* hpm_overflow.S: overflow of a 64-bit counter to the cycle (docs/hpm.md):
 * the exact wrap cycle and OF, mip.LCOFIP and scountovf; the LCOFI interrupt
 * taken before the exact instruction (mepc) and counted by `interrupts`; no
 * second LCOFIP while OF = 1, a new one once software clears OF; LCOFI
 * delegated to S (mideleg bit 13, sie/sip bit 13); a counter write in the
 * wrapping cycle suppresses the wrap; a selector write in the wrapping cycle
 * loses to the hardware's OF = 1; and the race of a naive lo/hi read of a
 * 64-bit counter across a carry of its low half, which hi-lo-hi avoids.
 * Needs HPM_NUM >= 2, HPM_WIDTH = 64 (default build only). */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

/* counter 3 = all-ones - k + 1 ... at the start of cycle t+1 it is 2^64 - k
 * (the csrw commits in t); it wraps at the end of t+k. A counter or
 * selector read takes three X cycles (two waits) and reads at the start of
 * the second; a write takes four and writes at the end of the fourth
 * (docs/timing.md). */
.macro PRELOAD k
    csrw    mhpmcounter3h, s1
    li      t0, -(\k)
    csrw    mhpmcounter3, t0
.endm

    RVTEST_CODE_BEGIN
    li      s1, -1
    csrw    mie, zero
    csrw    mcountinhibit, zero
    li      t0, MIP_LCOF
    csrc    mip, t0
    SELN    3, HPM_EV_CYCLES, 0
    SELN    4, HPM_EV_INTERRUPTS, 0

    TEST 1                  /* the wrap cycle: the end of t+7 */
    PRELOAD 7               /* csrw lo commits in cycle t */
    csrr    a1, mhpmevent3h /* t+1 .. t+3, reads at t+2 */
    csrr    a2, mhpmevent3h /* t+4 .. t+6, reads at t+5 */
    csrr    a3, mip         /* t+7 */
    csrr    a4, mip         /* t+8: LCOFIP */
    csrr    a5, mhpmevent3h /* t+9 .. t+11, reads at t+10: OF */
    csrr    a6, mhpmcounter3    /* t+12 .. t+14, reads at t+13: 5 */
    csrr    a7, mhpmcounter3h   /* t+15 .. t+17, reads at t+16: 0 */
    SIGCHK  a1, 0
    SIGCHK  a2, 0
    li      t0, MIP_LCOF
    and     a3, a3, t0
    SIGCHK  a3, 0
    and     a4, a4, t0
    SIGCHK  a4, MIP_LCOF
    SIGCHK  a5, OF
    SIGCHK  a6, 5
    SIGCHK  a7, 0
    csrr    a0, scountovf
    SIGCHK  a0, 8

    TEST 2                  /* software clears OF and LCOFIP */
    csrw    mhpmevent3h, zero
    li      t0, MIP_LCOF
    csrc    mip, t0
    csrr    a0, mip
    and     a0, a0, t0
    SIGCHK  a0, 0
    csrr    a0, scountovf
    SIGCHK  a0, 0

    TEST 3                  /* LCOFI taken before the instruction entering X after the wrap */
    TRAP_CLEAR
    li      t0, MIP_LCOF
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    PRELOAD 3               /* t; wrap at the end of t+3 */
    nop                     /* t+1 */
    nop                     /* t+2 */
    nop                     /* t+3 */
irq1:
    nop                     /* t+4: preempted */
    csrci   mstatus, MSTATUS_MIE
    CHECK   s9, 1
    CHECK   s8, CAUSE_IRQ | 13
    EXPECT_EPC irq1
    CNT     4, 1            /* interrupts */
    csrr    a0, mhpmevent3h
    SIGCHK  a0, OF

    TEST 4                  /* OF still 1: another wrap sets no LCOFIP, no interrupt */
    li      t0, MIP_LCOF
    csrc    mip, t0
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    TRAP_CLEAR
    PRELOAD 3
    .rept 10
    nop                     /* t+1 .. t+10 */
    .endr
    csrr    a6, mhpmcounter3    /* t+11 .. t+13, reads at t+12: wrapped at the end of t+3: 8 */
    csrci   mstatus, MSTATUS_MIE
    CHECK   s9, 0
    csrr    a0, mip
    li      t0, MIP_LCOF
    and     a0, a0, t0
    SIGCHK  a0, 0
    SIGCHK  a6, 8
    csrr    a0, mhpmevent3h
    SIGCHK  a0, OF

    TEST 5                  /* OF cleared: the next wrap interrupts again */
    csrw    mhpmevent3h, zero
    TRAP_CLEAR
    csrsi   mstatus, MSTATUS_MIE
    PRELOAD 3
    nop
    nop
    nop
irq2:
    nop
    csrci   mstatus, MSTATUS_MIE
    CHECK   s9, 1
    EXPECT_EPC irq2
    CNT     4, 2
    li      t0, MIP_LCOF
    csrc    mip, t0
    csrw    mhpmevent3h, zero

    TEST 6                  /* delegated: taken in S (sie.LCOFIE, sstatus.SIE) */
    li      t0, MIP_LCOF
    csrw    mideleg, t0
    csrw    mie, zero
    TRAP_CLEAR
    ENTER_MODE PRV_S
    li      t0, MIP_LCOF
    csrw    sie, t0
    csrr    a1, sie
    csrsi   sstatus, MSTATUS_SIE
    li      a2, 0
    li      a3, 100
1:  addi    a2, a2, 1
    bnez    s9, 2f
    bne     a2, a3, 1b
2:  csrci   sstatus, MSTATUS_SIE
    csrr    a4, sip
    ENTER_M
    SIGCHK  a1, MIP_LCOF
    CHECK   s9, 1           /* only the ecall: the counter was not near the wrap */
    /* now near the wrap (40 cycles), from S */
    PRELOAD 40
    TRAP_CLEAR
    ENTER_MODE PRV_S
    li      t0, MIP_LCOF
    csrw    sie, t0
    csrsi   sstatus, MSTATUS_SIE
    li      a2, 0
    li      a3, 100
1:  addi    a2, a2, 1
    bnez    s9, 2f
    bne     a2, a3, 1b
2:  csrci   sstatus, MSTATUS_SIE
    csrr    a4, sip
    li      t0, MIP_LCOF
    csrc    sip, t0         /* writable in sip when delegated */
    csrr    a5, sip
    mv      a6, s8
    mv      a7, s3
    ENTER_M
    SIG     a2
    CHECK   a6, CAUSE_IRQ | 13
    CHECK   a7, 1           /* the S handler took it */
    li      t0, MIP_LCOF
    and     a4, a4, t0
    SIGCHK  a4, MIP_LCOF
    and     a5, a5, t0
    SIGCHK  a5, 0
    csrw    mideleg, zero
    csrw    mhpmevent3h, zero

    TEST 7                  /* a counter write in the wrapping cycle: no wrap */
    csrw    mhpmcounter3h, s1
    li      t0, -4
    csrw    mhpmcounter3, t0    /* t: all-ones - 3 from t+1, all-ones from t+4 ... */
    csrw    mhpmcounter3, zero  /* t+1 .. t+4: would wrap at the end of t+4; the write wins */
    csrr    a0, mhpmcounter3    /* t+5 .. t+7, reads at t+6: 1 */
    csrr    a1, mhpmevent3h
    csrr    a2, mip
    csrr    a3, mhpmcounter3h
    SIGCHK  a0, 1
    SIGCHK  a1, 0
    li      t0, MIP_LCOF
    and     a2, a2, t0
    SIGCHK  a2, 0
    SIGCHK  a3, -1

    TEST 8                  /* a selector write in the wrapping cycle: OF = 1 wins */
    .rept 144
    nop                     /* TEST 6's selector write's refill window ends */
    .endr
    PRELOAD 5               /* t */
    nop                     /* t+1 */
    csrw    mhpmevent3h, zero   /* t+2 .. t+5, t+5 wraps */
    csrr    a0, mhpmevent3h
    SIGCHK  a0, OF
    li      t0, MIP_LCOF
    csrc    mip, t0
    csrw    mhpmevent3h, zero

    TEST 9                  /* an overflow in the cycle of a mip clear: LCOFIP stays set */
    PRELOAD 2
    li      t0, MIP_LCOF    /* t+1 */
    csrc    mip, t0         /* t+2 wraps */
    csrr    a0, mip
    and     a0, a0, t0
    SIGCHK  a0, MIP_LCOF
    csrc    mip, t0
    csrw    mhpmevent3h, zero

    /* ---- 64-bit reads across a carry of the low half (counter 3 counts
     * cycles): hi = 5, lo written 2^32 - k in t, the carry happens at the
     * end of t+k ---- */
    TEST 10                 /* naive lo-then-hi: (6, 0xfffffffe), 2^32 too big */
    li      t0, 5
    csrw    mhpmcounter3h, t0
    li      t0, -3
    csrw    mhpmcounter3, t0    /* t */
    csrr    a0, mhpmcounter3    /* t+1 .. t+3 (carry at its end), reads at t+2: 0xfffffffe */
    csrr    a1, mhpmcounter3h   /* t+4 .. t+6, reads at t+5: 6 */
    SIGCHK  a0, 0xfffffffe
    SIGCHK  a1, 6
    TEST 11                 /* naive hi-then-lo: (5, 0x00000002), 2^32 too small */
    li      t0, 5
    csrw    mhpmcounter3h, t0
    li      t0, -2
    csrw    mhpmcounter3, t0    /* t */
    csrr    a1, mhpmcounter3h   /* t+1 .. t+3, reads at t+2 (carry at its end): 5 */
    csrr    a0, mhpmcounter3    /* t+4 .. t+6, reads at t+5: 2 */
    SIGCHK  a1, 5
    SIGCHK  a0, 2
    TEST 12                 /* hi-lo-hi: the first try sees hi change, the retry is right */
    li      a3, 0
    li      t0, 5
    csrw    mhpmcounter3h, t0
    li      t0, -4
    csrw    mhpmcounter3, t0    /* t */
1:  addi    a3, a3, 1           /* t+1 */
    csrr    a1, mhpmcounter3h   /* t+2 .. t+4 (carry at the end of t+4), reads at t+3: 5 */
    csrr    a0, mhpmcounter3    /* t+5 .. t+7, reads at t+6: 1 */
    csrr    a2, mhpmcounter3h   /* t+8 .. t+10, reads at t+9: 6 */
    bne     a1, a2, 1b
    SIGCHK  a3, 2
    SIGCHK  a1, 6
    SIGCHK  a0, 12          /* retry: bne t+11 (predicted), addi t+12, hi t+13 .. t+15, lo t+16 .. t+18 reads 12 at t+17 */
    j       pass
    RVTEST_CODE_END
    .data
    RVTEST_DATA 48
