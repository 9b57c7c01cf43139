/* hpm_events.S: the HPM unit (SPEC section 4, hw/hpm/events.def) on a block
 * of known instructions whose every event count is derived by hand from
 * docs/timing.md and the event definitions: each event alone, the combining
 * ops (OR/AND/XOR/ADD), the top-down partition (sum = cycles), privilege
 * inhibits, mcountinhibit, counter writes, overflow (OF, mip.LCOFIP,
 * scountovf and its mcounteren gating from S), the LCOFI interrupt, and
 * Smcntrpmf (mcyclecfg/minstretcfg MINH).
 *
 * Pending: the HPM unit is being implemented (optional suite `hpm` of
 * tests/run.sh, not yet part of make test). */
#include "test_macros.h"

#define EV_CYCLES 1
#define EV_INSTR 2
#define EV_LOADS 3
#define EV_STORES 4
#define EV_JUMPS 5
#define EV_BRANCHES 6
#define EV_BR_TAKEN 7
#define EV_BR_MISS 8
#define EV_MUL 9
#define EV_DIV 10
#define EV_MULDIV_STALL 11
#define EV_FETCH_STALL 12
#define EV_MEM_STALL 13
#define EV_HAZARD 14
#define EV_EXC 15
#define EV_IRQ 16
#define EV_CSR 17
#define EV_FENCES 18
#define EV_FLUSHES 19
#define EV_TD_RET 20
#define EV_TD_BAD 21
#define EV_TD_FE 22
#define EV_TD_BE 23
#define EV_TD_BRMISS 24
#define EV_TD_CLEARS 25
#define EV_TD_FETCHLAT 26
#define EV_TD_MEM 27
#define EV_TD_CORE 28
#define EV_WFI 29

#define OP_OR 0
#define OP_AND 1
#define OP_XOR 2
#define OP_ADD 4

/* 64-bit selector halves */
#define SEL_LO(e0, e1, e2, e3) ((e0) | ((e1) << 10) | ((e2) << 20) | (((e3) & 3) << 30))
#define SEL_HI(e3, op0, op1, op2) (((e3) >> 2) | ((op0) << 8) | ((op1) << 13) | ((op2) << 18))
#define MINH (1 << 30)
#define SINH (1 << 29)
#define UINH (1 << 28)
#define OF   (1 << 31)

/* program mhpmevent3 and run the block; a0 = counter delta over the block */
.macro RUN n, lo, hi, expected
    TEST    \n
    li      t0, \lo
    csrw    mhpmevent3, t0
    li      t0, \hi
    csrw    mhpmevent3h, t0
    call    block
    SIGCHK  a0, \expected
.endm
.macro EVENT n, ev, expected
    RUN     \n, SEL_LO(\ev, 0, 0, 0), SEL_HI(0, OP_OR, OP_OR, OP_OR), \expected
.endm

    RVTEST_CODE_BEGIN
    la      s0, hdata
    li      s1, 7
    csrw    mcountinhibit, zero
    csrw    mie, zero
    /* the selector reads back (valid event indexes; bits 59..55 read 0) */
    TEST 1
    li      t0, SEL_LO(EV_WFI, EV_CSR, EV_TD_BE, 3)
    csrw    mhpmevent3, t0
    csrr    a0, mhpmevent3
    SIGCHK  a0, SEL_LO(EV_WFI, EV_CSR, EV_TD_BE, 3)
    li      t0, 0x7fffffff
    csrw    mhpmevent3h, t0
    csrr    a0, mhpmevent3h
    SIG     a0
    li      t0, 0x0f800000      /* VSINH, VUINH, 57:55 */
    and     a1, a0, t0
    CHECK   a1, 0
    /* each event alone over the block (see the counts at `block`) */
    EVENT  10, EV_CYCLES, 63
    EVENT  11, EV_INSTR, 20
    EVENT  12, EV_LOADS, 1
    EVENT  13, EV_STORES, 1
    EVENT  14, EV_JUMPS, 2
    EVENT  15, EV_BRANCHES, 5
    EVENT  16, EV_BR_TAKEN, 3
    EVENT  17, EV_BR_MISS, 2
    EVENT  18, EV_MUL, 1
    EVENT  19, EV_DIV, 1
    EVENT  20, EV_MULDIV_STALL, 37
    EVENT  21, EV_FETCH_STALL, 4
    EVENT  22, EV_MEM_STALL, 2
    EVENT  23, EV_HAZARD, 0
    EVENT  24, EV_EXC, 0
    EVENT  25, EV_IRQ, 0
    EVENT  26, EV_CSR, 1
    EVENT  27, EV_FENCES, 2
    EVENT  28, EV_FLUSHES, 4
    EVENT  29, EV_TD_RET, 20
    EVENT  30, EV_TD_BAD, 2
    EVENT  31, EV_TD_FE, 2
    EVENT  32, EV_TD_BE, 39
    EVENT  33, EV_TD_BRMISS, 2
    EVENT  34, EV_TD_CLEARS, 0
    EVENT  35, EV_TD_FETCHLAT, 2
    EVENT  36, EV_TD_MEM, 2
    EVENT  37, EV_TD_CORE, 37
    EVENT  38, EV_WFI, 0
    EVENT  39, 0, 0
    /* combining: per cycle, (E0 op0 E1) op2 (E2 op1 E3) */
    RUN    40, SEL_LO(EV_CYCLES, EV_INSTR, 0, 0), SEL_HI(0, OP_AND, OP_OR, OP_OR), 20
    RUN    41, SEL_LO(EV_CYCLES, EV_INSTR, 0, 0), SEL_HI(0, OP_XOR, OP_OR, OP_OR), 43
    RUN    42, SEL_LO(EV_CYCLES, EV_INSTR, 0, 0), SEL_HI(0, OP_ADD, OP_OR, OP_OR), 83
    RUN    43, SEL_LO(EV_CYCLES, EV_INSTR, 0, 0), SEL_HI(0, OP_OR, OP_OR, OP_OR), 63
    RUN    44, SEL_LO(EV_LOADS, EV_STORES, EV_MUL, EV_DIV), SEL_HI(EV_DIV, OP_ADD, OP_ADD, OP_ADD), 4
    RUN    45, SEL_LO(EV_LOADS, EV_STORES, EV_MUL, EV_DIV), SEL_HI(EV_DIV, OP_OR, OP_OR, OP_OR), 4
    RUN    46, SEL_LO(0, 0, EV_CYCLES, EV_MEM_STALL), SEL_HI(EV_MEM_STALL, OP_OR, OP_XOR, OP_OR), 61
    /* the top-down partition: retiring + bad-spec + fe-bound + be-bound = cycles */
    RUN    47, SEL_LO(EV_TD_RET, EV_TD_BAD, EV_TD_FE, EV_TD_BE), SEL_HI(EV_TD_BE, OP_ADD, OP_ADD, OP_ADD), 63
    RUN    48, SEL_LO(EV_TD_RET, EV_TD_BAD, EV_TD_FE, EV_TD_BE), SEL_HI(EV_TD_BE, OP_OR, OP_OR, OP_OR), 63
    /* privilege inhibits: the block runs in M */
    RUN    50, SEL_LO(EV_CYCLES, 0, 0, 0), SEL_HI(0, OP_OR, OP_OR, OP_OR) | MINH, 0
    RUN    51, SEL_LO(EV_CYCLES, 0, 0, 0), SEL_HI(0, OP_OR, OP_OR, OP_OR) | SINH | UINH, 63
    /* mcountinhibit bit 3 freezes mhpmcounter3 */
    TEST 52
    csrwi   mcountinhibit, 8
    EVENT  53, EV_CYCLES, 0
    csrwi   mcountinhibit, 0
    /* a counter write replaces the value; both halves */
    TEST 54
    li      t0, SEL_LO(EV_CYCLES, 0, 0, 0)
    csrw    mhpmevent3, t0
    csrw    mhpmevent3h, zero
    li      t0, 1000
    csrw    mhpmcounter3, t0
    csrr    a0, mhpmcounter3
    li      t0, 0xabc
    csrw    mhpmcounter3h, t0
    csrr    a1, mhpmcounter3h
    SIG     a0
    SIGCHK  a1, 0xabc
    addi    a0, a0, -1000
    sltiu   a0, a0, 2
    CHECK   a0, 1
    /* overflow: OF set, mip.LCOFIP set, scountovf bit 3; carry low -> high */
    TEST 55
    li      t0, -1
    csrw    mhpmcounter3h, t0
    li      t0, -40
    csrw    mhpmcounter3, t0
    .rept 50
    nop
    .endr
    csrr    a0, mhpmevent3h
    srli    a0, a0, 31
    SIGCHK  a0, 1
    csrr    a0, mip
    srli    a0, a0, 13
    andi    a0, a0, 1
    SIGCHK  a0, 1
    csrr    a0, scountovf
    andi    a0, a0, 8
    SIGCHK  a0, 8
    csrr    a0, mhpmcounter3h
    SIGCHK  a0, 0
    /* clearing OF (selector write) and LCOFIP (mip write) */
    TEST 56
    csrw    mhpmevent3h, zero
    li      t0, 1 << 13
    csrc    mip, t0
    csrr    a0, mip
    and     a0, a0, t0
    SIGCHK  a0, 0
    csrr    a0, scountovf
    andi    a0, a0, 8
    SIGCHK  a0, 0
    /* the LCOFI interrupt (cause 13) */
    TEST 57
    TRAP_CLEAR
    li      t0, -1
    csrw    mhpmcounter3h, t0
    li      t0, -30
    csrw    mhpmcounter3, t0
    li      t0, 1 << 13
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    li      a0, 0
    li      a1, 200
1:  addi    a0, a0, 1
    bnez    s9, 2f
    blt     a0, a1, 1b
    j       fail
2:  csrci   mstatus, MSTATUS_MIE
    CHECK   s8, 0x8000000d
    li      t0, 1 << 13
    csrc    mip, t0
    csrw    mhpmevent3h, zero
    csrw    mhpmevent3, zero
    /* Smcntrpmf: mcyclecfg.MINH / minstretcfg.MINH stop mcycle / minstret
     * in M-mode (bit 62 = bit 30 of the h halves 0x721 / 0x722) */
    TEST 60
    li      t0, 1 << 30
    csrw    0x721, t0
    csrr    a0, mcycle
    nop
    nop
    csrr    a1, mcycle
    csrw    0x721, zero
    sub     a0, a1, a0
    SIGCHK  a0, 0
    TEST 61
    li      t0, 1 << 30
    csrw    0x722, t0
    csrr    a0, minstret
    nop
    nop
    csrr    a1, minstret
    csrw    0x722, zero
    sub     a0, a1, a0
    SIGCHK  a0, 0
    /* scountovf from S shows only the OF bits enabled in mcounteren */
    TEST 62
    li      t0, OF
    csrw    mhpmevent3h, t0
    csrr    a0, scountovf
    andi    a0, a0, 8
    SIGCHK  a0, 8
    csrw    mcounteren, zero
    ENTER_MODE PRV_S
    csrr    a1, scountovf
    ENTER_M
    SIGCHK  a1, 0
    li      t0, 8
    csrw    mcounteren, t0
    ENTER_MODE PRV_S
    csrr    a1, scountovf
    ENTER_M
    SIGCHK  a1, 8
    csrw    mcounteren, zero
    csrw    mhpmevent3h, zero
    j       pass

/* The measured block. Counts from docs/timing.md and events.def, over the
 * cycles from the first csrr's X cycle to the cycle before the second csrr:
 *   cycles 63, instructions 20, loads 1, stores 1, jumps 2 (jal, jalr),
 *   branches 5, taken 3, mispredicted 2 (forward taken beq, loop exit),
 *   mul 1, div 1, muldiv stall 4 + 33, bubbles 4 (2 mispredicts, jalr,
 *   fence.i), mem stall 2, csr 1 (the first csrr), fences 2, flushes 4,
 *   top-down: retiring 20, bad-spec 2, fe-bound 2, be-bound 39. */
    .balign 4
block:
    csrr    a0, mhpmcounter3
    lw      t1, 0(s0)
    sw      t1, 4(s0)
    mul     t2, t1, t1
    divu    t2, t2, s1
    beq     x0, x0, 1f
1:  bne     x0, x0, 2f
2:  li      t3, 3
3:  addi    t3, t3, -1
    bnez    t3, 3b
    jal     x0, 4f
4:  la      t4, 5f
    jalr    x0, 0(t4)
5:  fence
    fence.i
    csrr    a1, mhpmcounter3
    sub     a0, a1, a0
    ret
    RVTEST_CODE_END
    .data
    .balign 4
hdata:  .word 0x1234, 0
    RVTEST_DATA 80
