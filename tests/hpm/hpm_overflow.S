/* hpm_overflow.S: overflow of a 64-bit counter to the cycle (docs/hpm.md):
 * the exact wrap cycle and OF, mip.LCOFIP (seen two cycles after the wrap)
 * and scountovf; the LCOFI interrupt
 * taken before the exact instruction (mepc) and counted by `interrupts`; no
 * second LCOFIP while OF = 1, a new one once software clears OF; LCOFI
 * delegated to S (mideleg bit 13, sie/sip bit 13); a counter write in the
 * wrapping cycle suppresses the wrap; a selector write in the wrapping cycle
 * loses to the hardware's OF = 1; the race of a naive lo/hi read of a
 * 64-bit counter across a carry of its low half, which hi-lo-hi avoids; and
 * a wfi woken by LCOFIP; and a wrap in the counter's refill window, a cycle
 * late (docs/hpm.md), its LCOFI and a wfi it wakes.
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

/* interrupts off again, and exactly one LCOFI taken, before \at */
.macro LCOFI_TAKEN at
    csrci   mstatus, MSTATUS_MIE
    CHECK   s9, 1
    CHECK   s8, CAUSE_IRQ | 13
    EXPECT_EPC \at
.endm

/* in S, interrupts enabled for up to 100 loop iterations or until a trap
 * (s9); a2 = the iterations run, a4 = sip after */
.macro S_WAIT_LCOFI
    csrsi   sstatus, MSTATUS_SIE
    li      a2, 0
    li      a3, 100
1:  addi    a2, a2, 1
    bnez    s9, 2f
    bne     a2, a3, 1b
2:  csrci   sstatus, MSTATUS_SIE
    csrr    a4, sip
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
    csrr    a4, mip         /* t+8: LCOFIP set at its end */
    csrr    a7, mip         /* t+9: LCOFIP */
    csrr    a5, mhpmevent3h /* t+10 .. t+12, reads at t+11: OF */
    csrr    a6, mhpmcounter3    /* t+13 .. t+15, reads at t+14: t+8 .. t+13 counted, 6 */
    SIGCHK  a1, 0
    SIGCHK  a2, 0
    li      t0, MIP_LCOF
    and     a3, a3, t0
    SIGCHK  a3, 0
    and     a4, a4, t0
    SIGCHK  a4, 0
    and     a7, a7, t0
    SIGCHK  a7, MIP_LCOF
    SIGCHK  a5, OF
    SIGCHK  a6, 6
    csrr    a7, mhpmcounter3h
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

    TEST 3                  /* LCOFI taken by the first instruction entering X two cycles after the wrap or later */
    TRAP_CLEAR
    li      t0, MIP_LCOF
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    PRELOAD 3               /* t; wrap at the end of t+3 */
    nop                     /* t+1 */
    nop                     /* t+2 */
    nop                     /* t+3 */
    nop                     /* t+4: executes (LCOFIP set at its end) */
irq1:
    nop                     /* t+5: preempted */
    LCOFI_TAKEN irq1
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
    S_WAIT_LCOFI
    ENTER_M
    SIGCHK  a1, MIP_LCOF
    CHECK   s9, 1           /* only the ecall: the counter was not near the wrap */
    /* now near the wrap (40 cycles), from S */
    PRELOAD 40
    TRAP_CLEAR
    ENTER_MODE PRV_S
    li      t0, MIP_LCOF
    csrw    sie, t0
    S_WAIT_LCOFI
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

    TEST 9                  /* mip clears in the wrap cycle and in the next one, where the overflow sets LCOFIP: it stays set */
    PRELOAD 2
    li      t0, MIP_LCOF    /* t+1 */
    csrc    mip, t0         /* t+2 wraps */
    csrrc   a1, mip, t0     /* t+3: reads LCOFIP 0, which is set at its end */
    csrr    a0, mip         /* t+4 */
    and     a1, a1, t0
    CHECK   a1, 0
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

    /* ---- wfi woken by LCOFIP (mie.LCOFIE, mstatus.MIE clear: no
     * interrupt), which is seen two cycles after the wrap ---- */
    .rept 144
    nop                     /* TEST 9's selector write's refill window ends */
    .endr
    TEST 13                 /* the wrap in the wfi's first cycle */
    csrci   mstatus, MSTATUS_MIE
    li      t0, MIP_LCOF
    csrw    mie, t0
    csrr    a0, mcycle      /* s */
    PRELOAD 1               /* hi s+1 .. s+4, li s+5, lo s+6 .. s+9 = t: wrap
                             * at the end of t+1 */
    wfi                     /* t+1, t+2 (LCOFIP set at its end), completes in t+3 */
    csrr    a1, mcycle      /* t+4 = s+13 */
    sub     a1, a1, a0
    SIGCHK  a1, 13
    csrw    mhpmevent3h, zero
    li      t0, MIP_LCOF
    csrc    mip, t0
    .rept 144
    nop                     /* that write's refill window ends */
    .endr
    TEST 14                 /* wfi entering X in the cycle after the wrap */
    csrr    a0, mcycle      /* s */
    PRELOAD 1               /* s+9 = t */
    nop                     /* t+1: wraps */
    wfi                     /* t+2 (LCOFIP set at its end), completes in t+3 */
    csrr    a1, mcycle      /* t+4 = s+13 */
    sub     a1, a1, a0
    SIGCHK  a1, 13
    csrw    mie, zero
    csrw    mhpmevent3h, zero

    /* ---- in the refill window c+1 .. c+144 of its selector write counter 3
     * adds each cycle's increment in the next cycle, nothing in c+1: a wrap
     * comes a cycle late (a counter written in the window would count its
     * write's cycle, the same count as outside), and its LCOFIP is seen two
     * cycles after that late wrap ---- */
    TEST 15                 /* the LCOFI one instruction later than outside a window */
    li      t0, MIP_LCOF
    csrc    mip, t0
    csrw    mhpmevent3h, zero   /* OF clear */
    .rept 144
    nop                     /* its refill window ends */
    .endr
    TRAP_CLEAR
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    PRELOAD 5               /* t: 2^64 - 5 from t+1 */
    csrw    mhpmevent3h, zero   /* t+1 .. t+4 = c (old selector: 2^64 - 1 from
                                 * c+1; outside a window the wrap would be at
                                 * the end of t+5, LCOFIP seen from t+7) */
    nop                     /* t+5 = c+1: adds nothing, 2^64 - 1 */
    nop                     /* t+6: adds t+5's 1, the wrap at its end */
    nop                     /* t+7: executes (LCOFIP set at its end) */
irq3:
    nop                     /* t+8: preempted */
    LCOFI_TAKEN irq3
    TEST 16                 /* a wfi in the window, woken by the late wrap */
    li      t0, MIP_LCOF
    csrc    mip, t0
    csrw    mhpmevent3h, zero
    .rept 144
    nop
    .endr
    TRAP_CLEAR
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    PRELOAD 20              /* t: 2^64 - 20 from t+1 */
    csrw    mhpmevent3h, zero   /* t+1 .. t+4 = c (old selector: 2^64 - 16 from c+1) */
    wfi                     /* t+5 = c+1 adds nothing; t+6 .. t+21 add 16: the
                             * wrap at the end of t+21, LCOFIP set at the end
                             * of t+22, the wfi completes in t+23 */
irq4:
    nop                     /* preempted */
    LCOFI_TAKEN irq4
    csrr    a0, mhpmcounter3
    SIG     a0
    li      t0, MIP_LCOF
    csrc    mip, t0
    j       pass
    RVTEST_CODE_END
    .data
    RVTEST_DATA 52
