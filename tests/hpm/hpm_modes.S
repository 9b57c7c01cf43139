/* hpm_modes.S: privilege-mode filtering and mcountinhibit.
 *  - the same block runs in M, S and U; eight counters count cycles under
 *    every combination of MINH/SINH/UINH, eight count instructions, three
 *    count loads with a single inhibit bit. From M the block is entered with
 *    mret and left with ecall, so in S and U exactly these cycles are in the
 *    block's mode (docs/hpm.md: the bubble after mret counts in the new
 *    mode, the ecall's X cycle in the old one): bubble + 5 lw (10) + 3 nop +
 *    li + ecall = 16 cycles, 9 instructions retired, 5 loads;
 *  - mcyclecfg / minstretcfg (Smcntrpmf) do the same for mcycle / minstret;
 *  - seven counters count loads as event 1, 2 or 3, instructions as event
 *    3 with SINH, and the ADD of cycles, loads, instructions and loads in
 *    all modes, in U only and in S only: the filter and every event index
 *    at each privilege (architecture 3 keeps them in its table's rows per
 *    privilege; docs/hpm.md); one counts instructions, written by its low
 *    half alone after a selector counting cycles (a table refill that
 *    mixed in the previous selector's events would count bubbles);
 *  - the top-down partition and its level-2 sums hold under every filter;
 *  - each mcountinhibit bit (CY, IR, HPM3..31) stops exactly its counter.
 * Needs HPM_NUM = 29 (default build only). */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

#define INH_M (MINH | SINH | UINH)
#define ADD4_LO SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, HPM_EV_INSTRUCTIONS, HPM_EV_LOADS)
#define ADD4_HI SEL_HI(HPM_EV_LOADS, OP_ADD, OP_ADD, OP_ADD)

/* the block: from M into `mode`, 5 loads and 3 nops there, back to M */
.macro BLOCK mode
    ENTER_MODE \mode
    lw      t1, 0(s0)
    lw      t1, 0(s0)
    lw      t1, 0(s0)
    lw      t1, 0(s0)
    lw      t1, 0(s0)
    nop
    nop
    nop
    ENTER_M
.endm
.macro SETUP
    csrw    mcountinhibit, s1
    SELN    3, HPM_EV_CYCLES, 0
    SELN    4, HPM_EV_CYCLES, MINH
    SELN    5, HPM_EV_CYCLES, SINH
    SELN    6, HPM_EV_CYCLES, UINH
    SELN    7, HPM_EV_CYCLES, MINH | SINH       /* U only */
    SELN    8, HPM_EV_CYCLES, MINH | UINH       /* S only */
    SELN    9, HPM_EV_CYCLES, SINH | UINH       /* M only */
    SELN    10, HPM_EV_CYCLES, MINH | SINH | UINH
    SELN    11, HPM_EV_INSTRUCTIONS, 0
    SELN    12, HPM_EV_INSTRUCTIONS, MINH
    SELN    13, HPM_EV_INSTRUCTIONS, SINH
    SELN    14, HPM_EV_INSTRUCTIONS, UINH
    SELN    15, HPM_EV_INSTRUCTIONS, MINH | SINH
    SELN    16, HPM_EV_INSTRUCTIONS, MINH | UINH
    SELN    17, HPM_EV_INSTRUCTIONS, SINH | UINH
    SELN    18, HPM_EV_INSTRUCTIONS, MINH | SINH | UINH
    SELN    19, HPM_EV_LOADS, MINH
    SELN    20, HPM_EV_LOADS, SINH
    SELN    21, HPM_EV_LOADS, UINH
    SELN    22, SEL_LO(0, HPM_EV_LOADS, 0, 0)
    SELN    23, SEL_LO(0, 0, HPM_EV_LOADS, 0)
    SELN    24, SEL_LO(0, 0, 0, HPM_EV_LOADS), SEL_HI(HPM_EV_LOADS, OP_OR, OP_OR, OP_OR)
    SELN    25, SEL_LO(0, 0, 0, HPM_EV_INSTRUCTIONS), SEL_HI(HPM_EV_INSTRUCTIONS, OP_OR, OP_OR, OP_OR) | SINH
    SELN    26, ADD4_LO, ADD4_HI
    SELN    27, ADD4_LO, ADD4_HI | MINH | SINH  /* U only */
    SELN    28, ADD4_LO, ADD4_HI | MINH | UINH  /* S only */
    li      t0, HPM_EV_INSTRUCTIONS
    csrw    mhpmevent29, t0     /* the low half alone, after event 0 = cycles */
    .rept 144
    nop                         /* its refill window (counter 29 a cycle late) ends */
    .endr
.endm
/* counters 22..29 after a block: loads (5, all in the block) as event 1, 2
 * and 3; instructions as event 3 equal instructions as event 0 (SINH both),
 * counter 29 (instructions) equals counter 11;
 * the ADD = cycles + instructions + 2 x loads; in U only and S only: the
 * block's 16 cycles, 9 instructions and 5 loads in that mode (u, s: 35 or 0) */
.macro FOURCHK u, s
    CNT     22, 5
    CNT     23, 5
    CNT     24, 5
    csrr    a0, mhpmcounter25
    csrr    a1, mhpmcounter13
    CHECKR  a0, a1
    csrr    a0, mhpmcounter29
    csrr    a1, mhpmcounter11
    CHECKR  a0, a1
    csrr    a0, mhpmcounter3
    csrr    a1, mhpmcounter11
    add     a0, a0, a1
    addi    a0, a0, 10
    csrr    a1, mhpmcounter26
    CHECKR  a1, a0
    CNT     27, \u
    CNT     28, \s
.endm
.macro ZERO
    csrw    mcountinhibit, s1
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    csrw    mhpmcounter\n, zero
    .endr
.endm
/* run the block in `mode` with all counters from 0 */
.macro RUN mode
    ZERO
    TRAP_CLEAR
    csrw    mcountinhibit, zero
    BLOCK   \mode
    csrw    mcountinhibit, s1
    CHECK   s9, 1
.endm
/* a0 = counter a + counter b (+ counter c) */
.macro SUM2 a, b
    csrr    a0, mhpmcounter\a
    csrr    t0, mhpmcounter\b
    add     a0, a0, t0
.endm
/* identities for one event group base..base+7 (none, -M, -S, -U, U, S, M, 0):
 * none = U + S + M, noM = U + S, noS = U + M, noU = S + M, all = 0 */
.macro IDENT b0, b1, b2, b3, bu, bs, bm, b7
    csrr    a1, mhpmcounter\bu
    csrr    a2, mhpmcounter\bs
    csrr    a3, mhpmcounter\bm
    add     t1, a1, a2
    add     t1, t1, a3
    csrr    a0, mhpmcounter\b0
    CHECKR  a0, t1
    add     t1, a1, a2
    csrr    a0, mhpmcounter\b1
    CHECKR  a0, t1
    add     t1, a1, a3
    csrr    a0, mhpmcounter\b2
    CHECKR  a0, t1
    add     t1, a2, a3
    csrr    a0, mhpmcounter\b3
    CHECKR  a0, t1
    csrr    a0, mhpmcounter\b7
    CHECK   a0, 0
.endm
/* test t: the identities of the cycle groups (3..10), test t + 1: of the
 * instruction groups (11..18), then FOURCHK u, s */
.macro IDENTS t, u, s
    TEST    \t
    IDENT   3, 4, 5, 6, 7, 8, 9, 10
    TEST    (\t + 1)
    IDENT   11, 12, 13, 14, 15, 16, 17, 18
    FOURCHK \u, \s
.endm

    RVTEST_CODE_BEGIN
    la      s0, hdata
    li      s1, -1
    csrw    mie, zero
    csrw    mcounteren, zero
    csrw    scounteren, zero
    SETUP

    /* ---- the block in U ---- */
    TEST 1
    RUN     PRV_U
    CNT     7, 16           /* cycles in U */
    CNT     8, 0            /* cycles in S */
    CNT     15, 9           /* instructions in U */
    CNT     16, 0
    CNT     19, 5           /* loads, MINH */
    CNT     20, 5           /* loads, SINH */
    CNT     21, 0           /* loads, UINH */
    csrr    a0, mhpmcounter9
    SIG     a0              /* M cycles: ENTER_MODE, the handler */
    csrr    a0, mhpmcounter17
    SIG     a0
    IDENTS  2, 35, 0

    /* ---- the same block in S ---- */
    TEST 4
    RUN     PRV_S
    CNT     7, 0
    CNT     8, 16           /* cycles in S */
    CNT     15, 0
    CNT     16, 9           /* instructions in S */
    CNT     19, 5
    CNT     20, 0
    CNT     21, 5
    IDENTS  5, 0, 35

    /* ---- the same block in M (entered with mret to M) ---- */
    TEST 7
    RUN     PRV_M
    CNT     4, 0            /* MINH: nothing */
    CNT     7, 0
    CNT     8, 0
    CNT     12, 0
    CNT     15, 0
    CNT     16, 0
    CNT     19, 0
    CNT     20, 5
    CNT     21, 5
    IDENTS  8, 0, 0
    csrr    a0, mhpmcounter3
    csrr    a1, mhpmcounter9
    CHECKR  a0, a1
    SIG     a0

    /* ---- Smcntrpmf: mcycle / minstret counting only U or only S ---- */
.macro CFGRUN n, mode, cfg, ecyc, eins
    TEST    \n
    li      t0, \cfg
    csrw    CSR_MCYCLECFGH, t0
    csrw    CSR_MINSTRETCFGH, t0
    csrr    a4, mcycle
    csrr    a5, minstret
    BLOCK   \mode
    csrr    a6, mcycle
    csrr    a7, minstret
    csrw    CSR_MCYCLECFGH, zero
    csrw    CSR_MINSTRETCFGH, zero
    sub     a0, a6, a4
    SIGCHK  a0, \ecyc
    sub     a0, a7, a5
    SIGCHK  a0, \eins
.endm
    csrw    mcountinhibit, zero
    CFGRUN  10, PRV_U, MINH | SINH, 16, 9
    CFGRUN  11, PRV_S, MINH | UINH, 16, 9
    CFGRUN  12, PRV_U, MINH | UINH, 0, 0
    CFGRUN  13, PRV_S, MINH | SINH, 0, 0
    CFGRUN  14, PRV_U, MINH, 16, 9
    CFGRUN  15, PRV_M, SINH | UINH | MINH, 0, 0
    TEST 16                 /* the cfg halves keep bits 62..60 only */
    li      t0, -1
    csrw    CSR_MCYCLECFGH, t0
    csrw    CSR_MINSTRETCFGH, t0
    csrr    a0, CSR_MCYCLECFGH
    csrr    a1, CSR_MINSTRETCFGH
    csrw    CSR_MCYCLECFGH, zero
    csrw    CSR_MINSTRETCFGH, zero
    SIGCHK  a0, MINH | SINH | UINH
    SIGCHK  a1, MINH | SINH | UINH
    TEST 17                 /* mcycle (cfg: M only) equals an HPM counter with the same filter */
    ZERO
    li      t0, SINH | UINH
    csrw    CSR_MCYCLECFGH, t0
    csrw    CSR_MINSTRETCFGH, t0
    csrw    mcycle, zero
    csrw    minstret, zero
    csrw    mcountinhibit, zero
    BLOCK   PRV_U
    csrw    mcountinhibit, s1
    csrw    CSR_MCYCLECFGH, zero
    csrw    CSR_MINSTRETCFGH, zero
    csrr    a0, mcycle
    csrr    a1, mhpmcounter9
    SIG     a0
    sub     a0, a0, a1      /* same window: mcountinhibit.CY/IR were set too */
    SIGCHK  a0, 0
    csrr    a0, minstret
    csrr    a1, mhpmcounter17
    sub     a0, a0, a1
    SIGCHK  a0, 0

    /* ---- top-down partition under mode filters: a mixed block (loads,
     * stores, mul, div, mispredicts, jalr, fence.i, exceptions) in U with
     * the handler in M ---- */
.macro TDSET hi
    csrw    mcountinhibit, s1
    SELN    22, HPM_EV_CYCLES, \hi
    SELN    23, HPM_EV_TOPDOWN_RETIRING, \hi
    SELN    24, HPM_EV_TOPDOWN_BAD_SPEC, \hi
    SELN    25, HPM_EV_TOPDOWN_FE_BOUND, \hi
    SELN    26, HPM_EV_TOPDOWN_BE_BOUND, \hi
    SELN    27, HPM_EV_TOPDOWN_BR_MISPREDICT, \hi
    SELN    28, HPM_EV_TOPDOWN_MACHINE_CLEARS, \hi
    SELN    29, HPM_EV_TOPDOWN_MEM_BOUND, \hi
    SELN    30, HPM_EV_TOPDOWN_CORE_BOUND, \hi
    SELN    31, HPM_EV_INSTRUCTIONS, \hi
.endm
.macro TDRUN n, hi
    TEST    \n
    TDSET   \hi
    TRAP_CLEAR
    csrw    mcountinhibit, zero
    ENTER_MODE PRV_U
    lw      t1, 0(s0)
    sw      t1, 4(s0)
    mul     t2, t1, t1
    div     t2, t2, t1
    lw      t1, 2(s0)           /* misaligned: exception */
    .word   0                   /* illegal */
    beq     x0, x0, 1f          /* mispredicted */
1:  la      t4, 2f
    jalr    x0, 0(t4)
2:  fence.i
    li      t3, 3
3:  addi    t3, t3, -1
    bnez    t3, 3b
    ENTER_M
    csrw    mcountinhibit, s1
    CHECK   s9, 3
    csrr    a3, mhpmcounter22
    csrr    a4, mhpmcounter23
    csrr    a5, mhpmcounter24
    csrr    a6, mhpmcounter25
    csrr    a7, mhpmcounter26
    .irp r, a3, a4, a5, a6, a7
    SIG     \r
    .endr
    add     t0, a4, a5          /* cycles = ret + bad + fe + be */
    add     t0, t0, a6
    add     t0, t0, a7
    CHECKR  t0, a3
    SUM2    27, 28              /* bad = br-mispredict + machine-clears */
    CHECKR  a0, a5
    SUM2    29, 30              /* be = mem-bound + core-bound */
    CHECKR  a0, a7
    csrr    a0, mhpmcounter31   /* retiring = instructions */
    CHECKR  a0, a4
.endm
    TDRUN   20, 0
    TDRUN   21, MINH
    TDRUN   22, SINH | UINH
    TDRUN   23, MINH | SINH
    TDRUN   24, UINH
    TEST 25                 /* U only: exact. U cycles: the bubbles after the
                             * 3 mret (ENTER_MODE, 2 handler returns), lw 2, sw 2,
                             * mul 5, div 34, faulting lw 1, illegal 1, beq 1 +
                             * bubble, la 2, jalr 1 + bubble, fence.i 1 + bubble,
                             * li, 3 x (addi, bnez) + exit bubble, li, ecall 1
                             * = 66 (the bubbles after the traps are in M) */
    TDRUN   26, MINH | SINH
    CNT     22, 66          /* cycles */
    CNT     23, 17          /* retiring */
    CNT     24, 5           /* bad: lw, illegal, ecall X cycles, 2 mispredict bubbles */
    CNT     25, 5           /* fe: 3 mret bubbles, jalr, fence.i */
    CNT     26, 39          /* be: lw 1, sw 1, mul 4, div 33 */
    CNT     27, 2           /* br-mispredict */
    CNT     28, 3           /* machine-clears: the X cycles only */
    CNT     29, 2           /* mem-bound */
    CNT     30, 37          /* core-bound */

    /* ---- each mcountinhibit bit stops exactly its counter: counter n
     * inhibited, the others count the 3 cycles nop, nop, csrw ---- */
    csrw    mcountinhibit, s1
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    SELN    \n, HPM_EV_CYCLES, 0
    .endr
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    TEST    (100 + \n)
    ZERO
    li      t0, (1 << \n)
    csrw    mcountinhibit, t0
    nop
    nop
    csrw    mcountinhibit, s1
    CNT     \n, 0
    .if \n == 31
    CNT     3, 3
    .else
    csrr    a0, (0xB00 + \n + 1)
    SIGCHK  a0, 3
    .endif
    .endr
    TEST 140                /* CY stops mcycle only, IR minstret only */
    csrwi   mcountinhibit, 1
    csrr    a1, mcycle
    csrr    a2, minstret
    csrr    a3, mcycle
    csrr    a4, minstret
    csrwi   mcountinhibit, 4
    csrr    a5, mcycle
    csrr    a6, minstret
    csrr    a7, mcycle
    csrr    t1, minstret
    csrwi   mcountinhibit, 0
    sub     a0, a3, a1
    SIGCHK  a0, 0
    sub     a0, a4, a2
    SIGCHK  a0, 2
    sub     a0, a7, a5
    SIGCHK  a0, 2
    sub     a0, t1, a6
    SIGCHK  a0, 0
    j       pass
    RVTEST_CODE_END
    .data
    .balign 4
hdata:  .word 0x1234, 0
    RVTEST_DATA 200
