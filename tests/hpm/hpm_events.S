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

#include "hpm_common.h"

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
    li      t0, SEL_LO(HPM_EV_WFI_CYCLES, HPM_EV_CSR_INSTRUCTIONS, HPM_EV_TOPDOWN_BE_BOUND, 3)
    csrw    mhpmevent3, t0
    csrr    a0, mhpmevent3
    SIGCHK  a0, SEL_LO(HPM_EV_WFI_CYCLES, HPM_EV_CSR_INSTRUCTIONS, HPM_EV_TOPDOWN_BE_BOUND, 3)
    li      t0, 0x7fffffff
    csrw    mhpmevent3h, t0
    csrr    a0, mhpmevent3h
    SIG     a0
    li      t0, 0x0f800000      /* VSINH, VUINH, 57:55 */
    and     a1, a0, t0
    CHECK   a1, 0
    /* each event alone over the block (see the counts at `block`) */
    EVENT  10, HPM_EV_CYCLES, 65
    EVENT  11, HPM_EV_INSTRUCTIONS, 20
    EVENT  12, HPM_EV_LOADS, 1
    EVENT  13, HPM_EV_STORES, 1
    EVENT  14, HPM_EV_JUMPS, 2
    EVENT  15, HPM_EV_BRANCHES, 5
    EVENT  16, HPM_EV_BRANCHES_TAKEN, 3
    EVENT  17, HPM_EV_BRANCH_MISSES, 2
    EVENT  18, HPM_EV_MUL, 1
    EVENT  19, HPM_EV_DIV, 1
    EVENT  20, HPM_EV_MULDIV_STALL_CYCLES, 37
    EVENT  21, HPM_EV_FETCH_STALL_CYCLES, 4
    EVENT  22, HPM_EV_MEM_STALL_CYCLES, 2
    EVENT  23, HPM_EV_HAZARD_STALL_CYCLES, 0
    EVENT  24, HPM_EV_EXCEPTIONS, 0
    EVENT  25, HPM_EV_INTERRUPTS, 0
    EVENT  26, HPM_EV_CSR_INSTRUCTIONS, 1
    EVENT  27, HPM_EV_FENCES, 2
    EVENT  28, HPM_EV_FLUSHES, 4
    EVENT  29, HPM_EV_TOPDOWN_RETIRING, 20
    EVENT  30, HPM_EV_TOPDOWN_BAD_SPEC, 2
    EVENT  31, HPM_EV_TOPDOWN_FE_BOUND, 2
    EVENT  32, HPM_EV_TOPDOWN_BE_BOUND, 41
    EVENT  33, HPM_EV_TOPDOWN_BR_MISPREDICT, 2
    EVENT  34, HPM_EV_TOPDOWN_MACHINE_CLEARS, 0
    EVENT  35, HPM_EV_TOPDOWN_FETCH_LATENCY, 2
    EVENT  36, HPM_EV_TOPDOWN_MEM_BOUND, 2
    EVENT  37, HPM_EV_TOPDOWN_CORE_BOUND, 39
    EVENT  38, HPM_EV_WFI_CYCLES, 0
    EVENT  39, 0, 0
    /* combining: per cycle, (E0 op0 E1) op2 (E2 op1 E3) */
    RUN    40, SEL_LO(HPM_EV_CYCLES, HPM_EV_INSTRUCTIONS, 0, 0), SEL_HI(0, OP_AND, OP_OR, OP_OR), 20
    RUN    41, SEL_LO(HPM_EV_CYCLES, HPM_EV_INSTRUCTIONS, 0, 0), SEL_HI(0, OP_XOR, OP_OR, OP_OR), 45
    RUN    42, SEL_LO(HPM_EV_CYCLES, HPM_EV_INSTRUCTIONS, 0, 0), SEL_HI(0, OP_ADD, OP_OR, OP_OR), 85
    RUN    43, SEL_LO(HPM_EV_CYCLES, HPM_EV_INSTRUCTIONS, 0, 0), SEL_HI(0, OP_OR, OP_OR, OP_OR), 65
    RUN    44, SEL_LO(HPM_EV_LOADS, HPM_EV_STORES, HPM_EV_MUL, HPM_EV_DIV), SEL_HI(HPM_EV_DIV, OP_ADD, OP_ADD, OP_ADD), 4
    RUN    45, SEL_LO(HPM_EV_LOADS, HPM_EV_STORES, HPM_EV_MUL, HPM_EV_DIV), SEL_HI(HPM_EV_DIV, OP_OR, OP_OR, OP_OR), 4
    RUN    46, SEL_LO(0, 0, HPM_EV_CYCLES, HPM_EV_MEM_STALL_CYCLES), SEL_HI(HPM_EV_MEM_STALL_CYCLES, OP_OR, OP_XOR, OP_OR), 63
    /* the top-down partition: retiring + bad-spec + fe-bound + be-bound = cycles */
    RUN    47, SEL_LO(HPM_EV_TOPDOWN_RETIRING, HPM_EV_TOPDOWN_BAD_SPEC, HPM_EV_TOPDOWN_FE_BOUND, HPM_EV_TOPDOWN_BE_BOUND), SEL_HI(HPM_EV_TOPDOWN_BE_BOUND, OP_ADD, OP_ADD, OP_ADD), 65
    RUN    48, SEL_LO(HPM_EV_TOPDOWN_RETIRING, HPM_EV_TOPDOWN_BAD_SPEC, HPM_EV_TOPDOWN_FE_BOUND, HPM_EV_TOPDOWN_BE_BOUND), SEL_HI(HPM_EV_TOPDOWN_BE_BOUND, OP_OR, OP_OR, OP_OR), 65
    /* privilege inhibits: the block runs in M */
    RUN    50, SEL_LO(HPM_EV_CYCLES, 0, 0, 0), SEL_HI(0, OP_OR, OP_OR, OP_OR) | MINH, 0
    RUN    51, SEL_LO(HPM_EV_CYCLES, 0, 0, 0), SEL_HI(0, OP_OR, OP_OR, OP_OR) | SINH | UINH, 65
    /* mcountinhibit bit 3 freezes mhpmcounter3 */
    TEST 52
    csrwi   mcountinhibit, 8
    EVENT  53, HPM_EV_CYCLES, 0
    csrwi   mcountinhibit, 0
    /* a counter write replaces the value; both halves */
    TEST 54
    li      t0, SEL_LO(HPM_EV_CYCLES, 0, 0, 0)
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
    SCOUNTOVF_S 0, 0
    SCOUNTOVF_S 8, 8
    csrw    mcounteren, zero
    csrw    mhpmevent3h, zero
    j       pass

/* The measured block. Counts from docs/timing.md and events.def, over the
 * cycles from the first csrr's read cycle (its second X cycle, a wait; its
 * commit is the third) to the cycle before the second csrr's read cycle
 * (its first X cycle, a wait):
 *   cycles 65, instructions 20, loads 1, stores 1, jumps 2 (jal, jalr),
 *   branches 5, taken 3, mispredicted 2 (forward taken beq, loop exit),
 *   mul 1, div 1, muldiv stall 4 + 33, bubbles 4 (2 mispredicts, jalr,
 *   fence.i), mem stall 2, csr 1 (the first csrr), fences 2, flushes 4,
 *   top-down: retiring 20, bad-spec 2, fe-bound 2, be-bound 41 (core-bound
 *   39: the mul/div stalls, the first csrr's second wait and the second
 *   csrr's first). */
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
