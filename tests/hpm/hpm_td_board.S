/* hpm_td_board.S: the iCE40 board's top-down counts (HPM_TD = 2, docs/hpm.md,
 * "Top-down on the board"): mtdfe16 and mtdbad16. Elsewhere (the simulated
 * board's unit, or no unit) both trap, and that is all this test checks.
 * With them:
 *   - they are M-only and read-only; the unit's CSRs trap;
 *   - over a block with every kind of top-down cycle, in M and U, their
 *     deltas equal mhpmcounters counting topdown-fe-bound and
 *     topdown-bad-spec (started and stopped together by mcountinhibit, CY
 *     included), mod 2^16, also with mcycle's mode filter;
 *   - every change of either count's bit 15 raises LCOFI (no OF bit): a loop
 *     of 40,000 rounds (two frontend bubbles and one mispredict each) takes
 *     one interrupt per change, and at each the counts still equal the
 *     mhpmcounters' low 16 bits;
 *   - a write of mcycle (SLOTS) clears both, raising no LCOFI.
 * The lockstep compares the interrupts' cycles with the reference model's;
 * the signature has the values read. */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

#define ROUNDS 40000

/* a1 = (CSR c - base) mod 2^16 must equal mhpmcounter n mod 2^16; signs a1 */
.macro TD16 c, base, n
    csrr    a1, \c
    sub     a1, a1, \base
    csrr    a2, mhpmcounter\n
    xor     a2, a2, a1
    slli    a2, a2, 16
    bnez    a2, fail
    slli    a1, a1, 16
    srli    a1, a1, 16
    SIG     a1
.endm

/* the changes of bit 15 from 16-bit value \base over delta \d (counter
 * \n, zeroed at the start): a0 += floor((base + d) / 2^15) - floor(base / 2^15),
 * base mod 2^16 and d < 2^32 */
.macro CROSSINGS base, n
    csrr    t0, mhpmcounter\n
    slli    t1, \base, 16
    srli    t1, t1, 16
    add     t0, t0, t1
    srli    t0, t0, 15
    srli    t1, t1, 15
    sub     t0, t0, t1
    add     a0, a0, t0
.endm

    RVTEST_CODE_BEGIN
    HPM_QUIET
    TIMER_OFF
    TEST 1                  /* present? mtdfe16 traps without the board's counts */
    TRAP_CLEAR
    csrr    a0, CSR_MTDFE16
    bnez    s9, absent

    TEST 2                  /* M-only, read-only; the unit is absent */
    TRAP_CLEAR
    ENTER_MODE PRV_S
    csrr    a0, CSR_MTDFE16
    csrr    a0, CSR_MTDBAD16
    ENTER_M
    CHECK   s9, 3
    TRAP_CLEAR
    csrw    CSR_MTDFE16, zero
    csrs    CSR_MTDBAD16, s1
    csrr    a0, CSR_MTOPDOWN
    csrr    a0, CSR_MSLOTS
    csrr    a0, CSR_TDMETRICS
    csrr    a0, CSR_MTDFEBOUND
    CHECK   s9, 6
    CHECK   s8, 2

    TEST 3                  /* the counts over a block in M and U */
    li      a5, 0
    jal     ra, block
    TEST 4                  /* the same with mcycle's filter: U only */
    li      a5, MINH
    jal     ra, block

    TEST 5                  /* one LCOFI at every change of bit 15 */
    SELN    3, HPM_EV_TOPDOWN_FE_BOUND
    SELN    4, HPM_EV_TOPDOWN_BAD_SPEC
    csrw    CSR_MCYCLECFGH, zero
    jal     ra, refill_wait
    csrr    a3, CSR_MTDFE16
    csrr    a4, CSR_MTDBAD16
    li      t0, MIP_LCOF
    csrc    mip, t0
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    TRAP_CLEAR
    li      s2, ROUNDS
    csrw    mcountinhibit, zero
1:  la      t4, 2f
    jalr    x0, 0(t4)               /* frontend bound */
2:  la      t4, 3f
    jalr    x0, 0(t4)               /* frontend bound */
3:  beq     x0, x0, 4f              /* forward taken: a mispredict */
4:  csrr    t0, mie
    beqz    t0, lcofi_taken         /* the handler cleared mie */
5:  addi    s2, s2, -1
    bnez    s2, 1b
    csrw    mcountinhibit, s1
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    li      a0, 0
    CROSSINGS a3, 3
    CROSSINGS a4, 4
    SIG     a0
    CHECKR  s9, a0
    li      t0, 3                   /* 80,000 + 40,000 counts: at least 3 */
    bltu    s9, t0, fail
    TD16    CSR_MTDFE16, a3, 3
    TD16    CSR_MTDBAD16, a4, 4

    TEST 6                  /* a write of mcycle clears both, without an LCOFI */
    csrr    a0, CSR_MTDFE16
    csrr    a1, CSR_MTDBAD16
    or      a0, a0, a1
    li      t0, 0x8000
    and     a0, a0, t0
    beqz    a0, fail                /* a bit 15 is set before the clear */
    li      t0, MIP_LCOF
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    TRAP_CLEAR
    csrw    mcountinhibit, zero
    csrw    mcycle, zero
    csrr    a0, CSR_MTDFE16
    csrr    a1, CSR_MTDBAD16
    nop
    nop
    csrw    mcountinhibit, s1
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    CHECK   s9, 0
    SIGCHK  a0, 0
    SIGCHK  a1, 0
    csrr    a0, mip
    li      t0, MIP_LCOF
    and     a0, a0, t0
    CHECK   a0, 0
    j       pass

/* in the loop: an LCOFI was taken (cause checked); the counts so far,
 * LCOFIP cleared and the interrupt enabled again */
lcofi_taken:
    li      t0, CAUSE_IRQ | MCAUSE_INT_LCOF
    bne     s8, t0, fail
    TD16    CSR_MTDFE16, a3, 3
    TD16    CSR_MTDBAD16, a4, 4
    li      t0, MIP_LCOF
    csrc    mip, t0
    csrw    mie, t0
    j       5b

absent:
    TEST 20                 /* both trap */
    TRAP_CLEAR
    csrr    a0, CSR_MTDFE16
    csrr    a0, CSR_MTDBAD16
    CHECK   s9, 2
    CHECK   s8, 2
    SIG     s9
    j       pass

/* counters 3 and 4 count fe-bound and bad-spec with high half a5 (and
 * mcycle the same filter); over `mix` in M, an ebreak, `mix` in U, the
 * deltas of mtdfe16/mtdbad16 equal them mod 2^16 */
block:
    mv      a6, ra
    csrw    mcountinhibit, s1
    csrw    CSR_MCYCLECFGH, a5
    li      t0, HPM_EV_TOPDOWN_FE_BOUND
    csrw    mhpmevent3, t0
    csrw    mhpmevent3h, a5
    csrw    mhpmcounter3, zero
    csrw    mhpmcounter3h, zero
    li      t0, HPM_EV_TOPDOWN_BAD_SPEC
    csrw    mhpmevent4, t0
    csrw    mhpmevent4h, a5
    csrw    mhpmcounter4, zero
    csrw    mhpmcounter4h, zero
    jal     ra, refill_wait
    csrr    a3, CSR_MTDFE16
    csrr    a4, CSR_MTDBAD16
    la      s0, tdata
    li      s2, 7
    TD_MIX_MU
    csrr    a0, mhpmcounter3
    beqz    a0, fail                /* the block has frontend bubbles */
    csrr    a0, mhpmcounter4
    beqz    a0, fail
    TD16    CSR_MTDFE16, a3, 3
    TD16    CSR_MTDBAD16, a4, 4
    jr      a6

/* past the last selector write's refill window */
refill_wait:
    li      t0, 100
1:  addi    t0, t0, -1
    bnez    t0, 1b
    ret

    TD_MIX
    RVTEST_CODE_END

    .data
    .balign 4
tdata:  .word 0x1234, 0
    RVTEST_DATA 64
