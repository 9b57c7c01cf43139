/* hpm_identities.S: per-cycle identities between events (events.def) over a
 * block with every kind of cycle: exceptions (ebreak, ecall, a misaligned
 * load), a timer interrupt woken out of wfi, mispredicted branches, jalr,
 * mret, fence.i, loads, stores, mul, div. 16 counters count at once (needs
 * HPM_NUM >= 16, HPM_WIDTH >= 16), started and stopped together through
 * mcountinhibit; then:
 *   cycles          = retiring + bad-spec + fe-bound + be-bound
 *   bad-spec        = br-mispredict + machine-clears
 *   machine-clears  = 2 * (exceptions + interrupts)
 *   fetch-stall     = br-mispredict + exceptions + interrupts + fe-bound
 *   fe-bound        = fetch-latency,  retiring = instructions
 *   be-bound        = mem-bound + core-bound
 *   core-bound      = muldiv-stall + wfi-cycles
 * and the counts are signed (compared with the reference model). */
#include "test_macros.h"
#include "hpm_events.h"

#define MIE_MTIE 0x80

/* counter n counts event ev */
.macro SEL n, ev
    li      t0, \ev
    csrw    mhpmevent\n, t0
    csrw    mhpmevent\n\()h, zero
    csrw    mhpmcounter\n, zero
    csrw    mhpmcounter\n\()h, zero
.endm

    RVTEST_CODE_BEGIN
    csrw    mie, zero
    li      t0, -1
    csrw    mcountinhibit, t0
    SEL 3, HPM_EV_CYCLES
    SEL 4, HPM_EV_TOPDOWN_RETIRING
    SEL 5, HPM_EV_TOPDOWN_BAD_SPEC
    SEL 6, HPM_EV_TOPDOWN_FE_BOUND
    SEL 7, HPM_EV_TOPDOWN_BE_BOUND
    SEL 8, HPM_EV_EXCEPTIONS
    SEL 9, HPM_EV_INTERRUPTS
    SEL 10, HPM_EV_TOPDOWN_MACHINE_CLEARS
    SEL 11, HPM_EV_TOPDOWN_BR_MISPREDICT
    SEL 12, HPM_EV_FETCH_STALL_CYCLES
    SEL 13, HPM_EV_INSTRUCTIONS
    SEL 14, HPM_EV_TOPDOWN_FETCH_LATENCY
    SEL 15, HPM_EV_TOPDOWN_MEM_BOUND
    SEL 16, HPM_EV_TOPDOWN_CORE_BOUND
    SEL 17, HPM_EV_MULDIV_STALL_CYCLES
    SEL 18, HPM_EV_WFI_CYCLES
    la      s0, hdata
    li      s1, 7
    TRAP_CLEAR
    csrw    mcountinhibit, zero
    /* ---- the block ---- */
    lw      t1, 0(s0)
    sw      t1, 4(s0)
    mul     t2, t1, t1
    div     t2, t2, s1
    ebreak
    ecall
    lw      t1, 1(s0)           /* misaligned: exception */
    li      t3, 4
1:  addi    t3, t3, -1
    bnez    t3, 1b              /* exit mispredicted */
    beq     x0, x0, 2f          /* forward taken: mispredicted */
2:  la      t4, 3f
    jalr    x0, 0(t4)
3:  fence.i
    /* wfi until the timer, then the interrupt */
    li      t0, CLINT_MTIME
    lw      t1, 0(t0)
    addi    t1, t1, 60
    li      t0, CLINT_MTIMECMPH
    sw      zero, 0(t0)
    sw      t1, -4(t0)
    li      t0, MIE_MTIE
    csrw    mie, t0
    wfi
    csrsi   mstatus, MSTATUS_MIE
    nop
    csrci   mstatus, MSTATUS_MIE
    /* ---- end ---- */
    li      t0, -1
    csrw    mcountinhibit, t0
    TIMER_OFF
    TEST 1
    CHECK   s9, 4               /* ebreak, ecall, misaligned load, timer */
    csrr    a3, mhpmcounter3
    csrr    a4, mhpmcounter4
    csrr    a5, mhpmcounter5
    csrr    a6, mhpmcounter6
    csrr    a7, mhpmcounter7
    csrr    s0, mhpmcounter8
    csrr    s1, mhpmcounter9
    csrr    s2, mhpmcounter10
    csrr    t1, mhpmcounter11
    csrr    t2, mhpmcounter12
    .irp r, a3, a4, a5, a6, a7, s0, s1, s2, t1, t2
    SIG     \r
    .endr
    /* cycles = retiring + bad-spec + fe-bound + be-bound */
    TEST 2
    add     t0, a4, a5
    add     t0, t0, a6
    add     t0, t0, a7
    CHECKR  t0, a3
    /* bad-spec = br-mispredict + machine-clears */
    TEST 3
    add     t0, t1, s2
    CHECKR  t0, a5
    /* machine-clears = 2 * (exceptions + interrupts) */
    TEST 4
    add     t0, s0, s1
    CHECK   s0, 3
    CHECK   s1, 1
    slli    t0, t0, 1
    CHECKR  t0, s2
    /* fetch-stall = br-mispredict + exceptions + interrupts + fe-bound */
    TEST 5
    add     t0, t1, s0
    add     t0, t0, s1
    add     t0, t0, a6
    CHECKR  t0, t2
    /* fe-bound = fetch-latency, retiring = instructions */
    TEST 6
    csrr    t0, mhpmcounter14
    CHECKR  t0, a6
    csrr    t0, mhpmcounter13
    CHECKR  t0, a4
    /* be-bound = mem-bound + core-bound, core-bound = muldiv-stall + wfi */
    TEST 7
    csrr    t0, mhpmcounter15
    csrr    t1, mhpmcounter16
    csrr    t2, mhpmcounter17
    csrr    s0, mhpmcounter18
    .irp r, t0, t1, t2, s0
    SIG     \r
    .endr
    add     t3, t0, t1
    CHECKR  t3, a7
    add     t3, t2, s0
    CHECKR  t3, t1
    CHECK   t2, 37
    beqz    s0, fail            /* wfi waited */
    j       pass
    RVTEST_CODE_END
    .data
    .balign 4
hdata:  .word 0x1234, 0
    RVTEST_DATA 24
