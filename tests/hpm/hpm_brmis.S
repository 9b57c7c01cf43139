/* hpm_brmis.S: conditional branches whose target has bit 1 set take two X
 * cycles (docs/timing.md): the first registers the compare (a core-bound
 * stall), the second traps (taken) or retires (not taken). Counted events
 * after a block of them with operands from loads, mul, divu and a CSR
 * refetch (1); a timer interrupt (2) and an LCOFI (3) at every cycle offset
 * across that block; a trap from U delegated to S and one from S to M (4);
 * illegal funct3 with such a target (5); a held branch first in a trap
 * handler and after mret (6); a U fetch of one from M-only memory under
 * mguard (7). Every register, count and trap value goes to the signature:
 * the model and the RTL in lockstep must agree on all of them. */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

.macro BLOCK
    li      a0, 5
    li      a1, 5
    bne     a0, a1, .+6          /* held, NT, fwd */
    la      a4, dword
    lw      a2, 0(a4)
    beq     a2, a0, .+6          /* load bypass (5), taken -> trap */
    mul     a3, a0, a1
    blt     a3, a0, .-6          /* NT, backward: mispredict */
    bge     a3, a0, .+10         /* taken fwd -> trap */
    csrrw   a5, mscratch, a3     /* refetch */
    bltu    a5, a3, .+6
    fence.i
    beq     x0, x0, .-6          /* taken backward (predicted) -> trap */
    add     a6, a0, a1
    bne     a6, a6, .+6          /* NT */
    addi    a7, a6, 1
    divu    a2, a3, a0
    beq     a2, a0, .+6          /* taken -> trap */
    bne     a2, a0, .-10         /* NT backward */
    bne     a2, a0, .+2          /* NT */
    beq     a7, a7, .-2          /* taken backward -> trap */
    add     a2, a2, a7
.endm

.macro SIGREGS
    SIG a0
    SIG a1
    SIG a2
    SIG a3
    SIG a6
    SIG a7
.endm

    RVTEST_CODE_BEGIN
    csrw    mie, zero
    /* counters: 3 core-bound, 4 be-bound, 5 flushes, 6 exceptions, 7 branches,
     * 8 branch-misses, 9 branches-taken, 10 bad-spec, 11 fetch-stall, 12 instructions */
    li      a0, HPM_EV_TOPDOWN_CORE_BOUND
    csrw    mhpmevent3, a0
    li      a0, HPM_EV_TOPDOWN_BE_BOUND
    csrw    mhpmevent4, a0
    li      a0, HPM_EV_FLUSHES
    csrw    mhpmevent5, a0
    li      a0, HPM_EV_EXCEPTIONS
    csrw    mhpmevent6, a0
    li      a0, HPM_EV_BRANCHES
    csrw    mhpmevent7, a0
    li      a0, HPM_EV_BRANCH_MISSES
    csrw    mhpmevent8, a0
    li      a0, HPM_EV_BRANCHES_TAKEN
    csrw    mhpmevent9, a0
    li      a0, HPM_EV_TOPDOWN_BAD_SPEC
    csrw    mhpmevent10, a0
    li      a0, HPM_EV_FETCH_STALL_CYCLES
    csrw    mhpmevent11, a0
    li      a0, HPM_EV_INSTRUCTIONS
    csrw    mhpmevent12, a0

    TEST 1
    TRAP_CLEAR
    csrw mhpmcounter3, zero
    csrw mhpmcounter4, zero
    csrw mhpmcounter5, zero
    csrw mhpmcounter6, zero
    csrw mhpmcounter7, zero
    csrw mhpmcounter8, zero
    csrw mhpmcounter9, zero
    csrw mhpmcounter10, zero
    csrw mhpmcounter11, zero
    csrw mhpmcounter12, zero
    BLOCK
    csrr a0, mhpmcounter3
    SIG a0
    csrr a0, mhpmcounter4
    SIG a0
    csrr a0, mhpmcounter5
    SIG a0
    csrr a0, mhpmcounter6
    SIG a0
    csrr a0, mhpmcounter7
    SIG a0
    csrr a0, mhpmcounter8
    SIG a0
    csrr a0, mhpmcounter9
    SIG a0
    csrr a0, mhpmcounter10
    SIG a0
    csrr a0, mhpmcounter11
    SIG a0
    csrr a0, mhpmcounter12
    SIG a0
    SIG s9
    SIG s7
    SIG s6

    /* 2: timer interrupt at every offset */
    TEST 2
    li      s0, 1
    li      s1, 150
1:  TRAP_CLEAR
    TIMER_IN 0
    add     t1, t1, s0
    sw      t1, 0(t0)
    li      t0, MIP_MTIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    BLOCK
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    TIMER_OFF
    SIG     s9
    SIGREGS
    addi    s0, s0, 1
    blt     s0, s1, 1b

    /* 3: LCOFI: counter 13 counts cycles, 14 core-bound, wraps at every offset */
    TEST 3
    li      a0, HPM_EV_CYCLES
    csrw    mhpmevent13, a0
    li      a0, HPM_EV_TOPDOWN_CORE_BOUND
    csrw    mhpmevent14, a0
    li      s0, 1
    li      s1, 110
2:  TRAP_CLEAR
    li      t0, MHPMEVENT_OF >> 32
    csrc    mhpmevent13h, t0
    csrc    mhpmevent14h, t0
    li      t0, MIP_LCOFIP
    csrc    mip, t0
    li      t1, -1
    csrw    mhpmcounter13h, t1
    csrw    mhpmcounter14h, t1
    sub     t1, zero, s0
    csrw    mhpmcounter13, t1
    srli    t2, s0, 3
    sub     t2, zero, t2
    csrw    mhpmcounter14, t2
    li      t0, MIP_LCOFIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    BLOCK
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    SIG     s9
    csrr    a0, mip
    SIG     a0
    csrr    a0, mhpmcounter14
    SIG     a0
    SIGREGS
    addi    s0, s0, 1
    blt     s0, s1, 2b

    /* 4: delegated to S, from U */
    TEST 4
    csrsi   medeleg, 1
    TRAP_CLEAR
    ENTER_MODE PRV_U
    li      a0, 3
    li      a1, 3
1:  beq     a0, a1, .+6
    mv      a2, s9
    mv      a3, s8
    mv      a4, s7
    mv      a5, s6
    mv      a6, s3
    ENTER_M
    CHECK   a2, 1
    CHECK   a3, 0
    la      t6, 1b + 6
    CHECKR  a4, t6
    la      t6, 1b
    CHECKR  a5, t6
    CHECK   a6, 1
    csrci   medeleg, 1
    /* in S, not delegated */
    TRAP_CLEAR
    ENTER_MODE PRV_S
1:  bne     a0, x0, .-6
    mv      a2, s9
    mv      a6, s3
    mv      a4, s7
    ENTER_M
    CHECK   a2, 1
    CHECK   a6, 3
    la      t6, 1b - 6
    CHECKR  a4, t6

    /* 5: illegal f3 2/3 with a misaligned target */
    TEST 5
    TRAP_CLEAR
    .word   0x00002363
    .word   0x00003363
    .word   0xfe002de3
    EXPECT_TRAP 2, 3
    EXPECT_TVAL 0xfe002de3

    /* 6: held branch as the first instruction of a trap handler, after mret */
    TEST 6
    TRAP_CLEAR
    la      t0, h6
    csrw    mtvec, t0
    ecall
    la      t0, trap_m
    csrw    mtvec, t0
    CHECK   s9, 1
    CHECK   s8, 11

    /* 7: mguard: U fetches a held branch from MONRAM */
    TEST 7
    la      a0, w7
    lw      a1, 0(a0)
    lw      a2, 4(a0)
    li      a0, HPM_MONRAM_BASE + 0x800
    sw      a1, 0(a0)
    sw      a2, 4(a0)
    fence.i
    csrsi   CSR_MGUARD, 1
    TRAP_CLEAR
    ENTER_MODE PRV_U
    la      s10, 2f
    jalr    ra, 0(a0)
2:  mv      a1, s9
    mv      a2, s8
    mv      a3, s7
    li      s10, 0
    ENTER_M
    CHECK   a1, 1
    CHECK   a2, 1
    CHECKR  a3, a0
    j       pass

    .balign 4
h6: bne     x0, x0, .+6
    beq     x0, x0, 1f
    nop
1:  j       trap_m
    .balign 4
w7: .word   0x00000363
    .word   0xfe000de3

    RVTEST_CODE_END
    .data
    .balign 4
dword: .word 5
    RVTEST_DATA 2048
