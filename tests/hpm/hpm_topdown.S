/* hpm_topdown.S: the top-down unit (docs/hpm.md, "Top-down unit").
 * Without it (HPM_TD = 0: hpm-sim-v3, hpm-ref --no-topdown) every one of its
 * 17 CSRs traps. With it:
 *   - after a reset (mtopdown = 1) SLOTS counts the cycles mcycle counts;
 *   - over a block with every kind of top-down cycle, in M and U, SLOTS and
 *     the five counts equal mhpmcounters counting cycles and the same events
 *     (started and stopped together by mcountinhibit, CY included), also
 *     with mcycle's mode filter (mcyclecfgh.MINH, the counters' MINH);
 *   - tdmetrics/tdmetrics2 are the rounding rule applied to the counts
 *     (check_metrics computes it here from the exact counts), also with
 *     SLOTS written by hand (clamps, SLOTS = 0), and level 1 sums to 0xff;
 *   - slots, slotsh, tdmetrics, tdmetrics2 read from S and U under
 *     mcounteren/scounteren bit CY, the M-only ones trap below M, the user
 *     ones are read-only;
 *   - SLOTS written near 2^64 wraps: OF (mtopdown, tdmetrics2 bit 31) set,
 *     no LCOFIP; a write of 0 keeps it, a write of 1 clears everything.
 * The signature (compared with the reference model) has the values read. */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

#define TD_CSRS 17

/* a = min(a, b), unsigned */
.macro MINU a, b
    bleu    \a, \b, 1f
    mv      \a, \b
1:
.endm
/* the byte sum of reg (level 1 fields) must be 0xff; uses t0, t1 */
.macro SUM_FF reg
    andi    t0, \reg, 0xff
    srli    t1, \reg, 8
    andi    t1, t1, 0xff
    add     t0, t0, t1
    srli    t1, \reg, 16
    andi    t1, t1, 0xff
    add     t0, t0, t1
    srli    t1, \reg, 24
    add     t0, t0, t1
    CHECK   t0, 0xff
.endm

/* counter n = the unit's count (lo, hi) */
.macro TDCMP n, lo, hi
    csrr    a0, \lo
    csrr    a1, mhpmcounter\n
    CHECKR  a0, a1
    SIG     a0
    csrr    a0, \hi
    csrr    a1, mhpmcounter\n\()h
    CHECKR  a0, a1
.endm

/* the four user CSRs read in mode m (a1 slots, a2 slotsh, a3 tdmetrics,
 * a4 tdmetrics2), back in M after */
.macro READ_TD m
    TRAP_CLEAR
    ENTER_MODE \m
    csrr    a1, CSR_SLOTS
    csrr    a2, CSR_SLOTSH
    csrr    a3, CSR_TDMETRICS
    csrr    a4, CSR_TDMETRICS2
    ENTER_M
.endm

/* test n: SLOTS and the counts equal mhpmcounters 3..8 (cycles and the same
 * events, high half hi: their mode filter, mcyclecfgh the same) over a block
 * in M and U, all started and stopped by mcountinhibit (CY too) */
.macro BLOCK n, hi
    TEST    \n
    csrw    mcountinhibit, s1       /* everything frozen, CY too */
    li      t0, \hi
    csrw    CSR_MCYCLECFGH, t0
    SELN    3, HPM_EV_CYCLES, \hi
    SELN    4, HPM_EV_TOPDOWN_RETIRING, \hi
    SELN    5, HPM_EV_TOPDOWN_BAD_SPEC, \hi
    SELN    6, HPM_EV_TOPDOWN_FE_BOUND, \hi
    SELN    7, HPM_EV_TOPDOWN_BR_MISPREDICT, \hi
    SELN    8, HPM_EV_TOPDOWN_MEM_BOUND, \hi
    csrwi   CSR_MTOPDOWN, 1
    li      t0, 100                 /* past the last selector's refill window */
1:  addi    t0, t0, -1
    bnez    t0, 1b
    la      s0, tdata
    li      s2, 7
    TD_MIX_MU
    csrr    a0, CSR_MSLOTS
    csrr    a1, mhpmcounter3
    CHECKR  a0, a1
    SIG     a0
    csrr    a0, CSR_MSLOTSH
    csrr    a1, mhpmcounter3h
    CHECKR  a0, a1
    TDCMP   4, CSR_MTDRETIRING, CSR_MTDRETIRINGH
    TDCMP   5, CSR_MTDBADSPEC, CSR_MTDBADSPECH
    TDCMP   6, CSR_MTDFEBOUND, CSR_MTDFEBOUNDH
    TDCMP   7, CSR_MTDBRMISS, CSR_MTDBRMISSH
    TDCMP   8, CSR_MTDMEMBOUND, CSR_MTDMEMBOUNDH
    jal     ra, check_metrics
.endm

    RVTEST_CODE_BEGIN
    csrw    mie, zero
    li      s1, -1
    TEST 1                  /* present? mtopdown traps without the unit */
    TRAP_CLEAR
    csrr    a0, CSR_MTOPDOWN
    bnez    s9, absent

    TEST 2                  /* reset, then SLOTS counts mcycle's cycles */
    csrw    mcountinhibit, zero
    csrr    s2, mcycle              /* cycle t: mcycle(t) */
    csrwi   CSR_MTOPDOWN, 1         /* t+1: SLOTS 0 after it */
    nop
    nop
    csrr    a1, CSR_SLOTS           /* t+4: SLOTS = 2 (t+2, t+3) */
    csrr    a0, mcycle              /* t+5: mcycle(t) + 5 */
    sub     a0, a0, s2
    sub     a0, a0, a1
    CHECK   a0, 3
    csrr    a2, CSR_SLOTSH
    CHECK   a2, 0
    SIG     a1

    BLOCK   3, 0
    BLOCK   11, MINH                /* mcyclecfg's filter: U only */
    BLOCK   3, 0                    /* the last block unfiltered (tests 4, 8) */

    TEST 4                  /* reads from S and U: bit CY of the enables */
    csrw    mcountinhibit, zero
    csrwi   mcounteren, 1
    csrwi   scounteren, 1
    .irp m, PRV_U, PRV_S
    READ_TD \m
    CHECK   s9, 1
    beqz    a1, fail
    CHECK   a2, 0
    SUM_FF  a3
    SIG     a3
    SIG     a4
    .endr
    TEST 5                  /* mcounteren.CY clear: illegal in S and U */
    li      t0, ~1
    csrw    mcounteren, t0
    csrw    scounteren, s1
    .irp m, PRV_U, PRV_S
    READ_TD \m
    CHECK   s9, 5
    .endr
    TEST 6                  /* scounteren.CY clear: illegal in U only */
    csrw    mcounteren, s1
    li      t0, ~1
    csrw    scounteren, t0
    TRAP_CLEAR
    ENTER_MODE PRV_U
    csrr    a1, CSR_SLOTS
    csrr    a3, CSR_TDMETRICS
    ENTER_M
    CHECK   s9, 3
    CHECK   s8, 8
    TRAP_CLEAR
    ENTER_MODE PRV_S
    csrr    a1, CSR_SLOTS
    csrr    a3, CSR_TDMETRICS
    ENTER_M
    CHECK   s9, 1
    TEST 7                  /* the M-only CSRs trap in S; the user ones are read-only */
    TRAP_CLEAR
    ENTER_MODE PRV_S
    csrr    a1, CSR_MSLOTS
    csrr    a1, CSR_MTOPDOWN
    csrr    a1, CSR_MTDRETIRING
    csrr    a1, CSR_MTDMEMBOUNDH
    ENTER_M
    CHECK   s9, 5
    TRAP_CLEAR
    csrw    CSR_SLOTS, zero
    csrs    CSR_TDMETRICS, s1
    csrw    CSR_MTDRETIRING, zero
    CHECK   s9, 3
    CHECK   s8, 2
    csrw    mcounteren, zero
    csrw    scounteren, zero

    TEST 8                  /* while counting: level 1 sums to 0xff at every read */
    li      s3, 6
2:  jal     ra, mix
    csrr    a0, CSR_TDMETRICS
    csrr    a1, CSR_TDMETRICS2
    SUM_FF  a0
    SIG     a0
    SIG     a1
    addi    s3, s3, -1
    bnez    s3, 2b

    TEST 9                  /* SLOTS written by hand: the clamps */
    csrw    mcountinhibit, s1
    csrw    CSR_MSLOTSH, zero
    csrwi   CSR_MSLOTS, 3           /* retiring > SLOTS: all of it retiring */
    csrr    a0, CSR_TDMETRICS
    SIGCHK  a0, 0x000000ff
    jal     ra, check_metrics
    csrr    a0, CSR_MTDRETIRING     /* SLOTS = retiring + 1 */
    addi    a0, a0, 1
    csrw    CSR_MSLOTS, a0
    jal     ra, check_metrics
    csrr    a0, CSR_MTDRETIRING     /* SLOTS = retiring + bad spec / 2 */
    csrr    a1, CSR_MTDBADSPEC
    srli    a1, a1, 1
    add     a0, a0, a1
    csrw    CSR_MSLOTS, a0
    jal     ra, check_metrics
    csrw    CSR_MSLOTS, zero        /* SLOTS = 0: all backend bound */
    csrr    a0, CSR_TDMETRICS
    SIGCHK  a0, 0xff000000
    csrr    a0, CSR_TDMETRICS2
    SIGCHK  a0, 0
    jal     ra, check_metrics

    TEST 10                 /* SLOTS wraps: OF, no interrupt */
    csrw    CSR_MSLOTSH, s1
    li      t0, -8
    csrw    CSR_MSLOTS, t0
    csrr    a0, CSR_MTOPDOWN
    CHECK   a0, 0
    csrw    mcountinhibit, zero
    .rept 12
    nop
    .endr
    csrw    mcountinhibit, s1
    csrr    a0, CSR_MTOPDOWN
    SIGCHK  a0, 1
    csrr    a0, CSR_TDMETRICS2
    srli    a0, a0, 31
    CHECK   a0, 1
    csrr    a0, CSR_MSLOTSH
    CHECK   a0, 0
    csrr    a0, CSR_MSLOTS
    SIG     a0
    csrr    a0, mip
    li      t0, MIP_LCOF
    and     a0, a0, t0
    CHECK   a0, 0
    jal     ra, check_metrics
    csrwi   CSR_MTOPDOWN, 0         /* a write of 0 changes nothing */
    csrr    a0, CSR_MTOPDOWN
    CHECK   a0, 1
    csrrwi  a0, CSR_MTOPDOWN, 1     /* a write of 1 resets the unit */
    CHECK   a0, 1
    csrr    a0, CSR_MTOPDOWN
    CHECK   a0, 0
    csrr    a0, CSR_MSLOTS
    CHECK   a0, 0
    .irp c, CSR_MTDRETIRING, CSR_MTDBADSPEC, CSR_MTDFEBOUND, CSR_MTDBRMISS, CSR_MTDMEMBOUND
    csrr    a0, \c
    CHECK   a0, 0
    .endr
    csrr    a0, CSR_TDMETRICS
    CHECK   a0, 0xff000000
    csrw    mcountinhibit, zero
    j       pass

absent:
    TEST 20                 /* every CSR of the unit traps */
    TRAP_CLEAR
    .irp c, CSR_MSLOTS, CSR_MSLOTSH, CSR_MTOPDOWN, CSR_SLOTS, CSR_SLOTSH, CSR_TDMETRICS, CSR_TDMETRICS2
    csrr    a0, \c
    .endr
    .irp c, CSR_MTDRETIRING, CSR_MTDRETIRINGH, CSR_MTDBADSPEC, CSR_MTDBADSPECH, CSR_MTDFEBOUND
    csrr    a0, \c
    .endr
    .irp c, CSR_MTDFEBOUNDH, CSR_MTDBRMISS, CSR_MTDBRMISSH, CSR_MTDMEMBOUND, CSR_MTDMEMBOUNDH
    csrr    a0, \c
    .endr
    CHECK   s9, TD_CSRS
    CHECK   s8, 2
    SIG     s9
    j       pass

    TD_MIX

/* M, counting stopped: tdmetrics and tdmetrics2 (but OF) equal the rounding
 * rule applied to the counts (low halves, the high ones 0; counts < 2^24):
 * q(x) = floor(255 * x / S), 0 when S = 0, at most 255; each field clamped
 * to what the ones before it left. Signs both. Uses t0-t5, a0-a7. */
check_metrics:
    csrr    t0, CSR_MTDRETIRINGH
    csrr    t1, CSR_MTDBADSPECH
    or      t0, t0, t1
    csrr    t1, CSR_MTDFEBOUNDH
    or      t0, t0, t1
    csrr    t1, CSR_MTDBRMISSH
    or      t0, t0, t1
    csrr    t1, CSR_MTDMEMBOUNDH
    or      t0, t0, t1
    csrr    t1, CSR_MSLOTSH
    or      t0, t0, t1
    bnez    t0, fail
    csrr    a0, CSR_MSLOTS
    li      a7, 255
    csrr    a3, CSR_MTDRETIRING
    jal     t5, q
    mv      a1, a3                  /* ret */
    csrr    a3, CSR_MTDBADSPEC
    jal     t5, q
    sub     t2, a7, a1
    MINU    a3, t2
    mv      a2, a3                  /* bad */
    csrr    a3, CSR_MTDFEBOUND
    jal     t5, q
    sub     t2, a7, a1
    sub     t2, t2, a2
    MINU    a3, t2
    mv      a4, a3                  /* fe */
    sub     a5, t2, a4              /* be */
    slli    t3, a2, 8
    or      t3, t3, a1
    slli    t2, a4, 16
    or      t3, t3, t2
    slli    t2, a5, 24
    or      t3, t3, t2              /* level 1 */
    csrr    t4, CSR_TDMETRICS
    SIG     t4
    bne     t4, t3, fail
    SUM_FF  t4
    csrr    a3, CSR_MTDBRMISS
    jal     t5, q
    MINU    a3, a2
    mv      a6, a3                  /* br */
    csrr    a3, CSR_MTDMEMBOUND
    jal     t5, q
    MINU    a3, a5                  /* mem */
    slli    t2, a4, 8
    or      t3, a6, t2
    slli    t2, a3, 16
    or      t3, t3, t2              /* level 2 but OF */
    csrr    t4, CSR_TDMETRICS2
    SIG     t4
    slli    t4, t4, 1
    srli    t4, t4, 1
    bne     t4, t3, fail
    ret
/* a3 = q(a3) with S = a0 (a7 = 255) */
q:
    beqz    a0, 9f
    mulhu   t0, a3, a7
    bnez    t0, fail
    mul     a3, a3, a7
    divu    a3, a3, a0
    MINU    a3, a7
    jr      t5
9:  li      a3, 0
    jr      t5
    RVTEST_CODE_END

    .data
    .balign 4
tdata:  .word 0x1234, 0
    RVTEST_DATA 64
