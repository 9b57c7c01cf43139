/* hpm_common.h: event indexes (hw/hpm/events.def) and selector helpers for
 * the directed HPM tests (tests/hpm/*.S). Include after test_macros.h. */
#ifndef HPM_COMMON_H
#define HPM_COMMON_H

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
#define EV_LAST 29

#define OP_OR 0
#define OP_AND 1
#define OP_XOR 2
#define OP_ADD 4

/* the two 32-bit halves of a 64-bit selector */
#define SEL_LO(e0, e1, e2, e3) ((e0) | ((e1) << 10) | ((e2) << 20) | (((e3) & 3) << 30))
#define SEL_HI(e3, op0, op1, op2) (((e3) >> 2) | ((op0) << 8) | ((op1) << 13) | ((op2) << 18))
/* bits of the high half (mhpmeventNh, mcyclecfgh, minstretcfgh) */
#define OF   (1 << 31)
#define MINH (1 << 30)
#define SINH (1 << 29)
#define UINH (1 << 28)
#define MIP_LCOF (1 << 13)

#define CSR_MCYCLECFGH   0x721
#define CSR_MINSTRETCFGH 0x722

/* counter n counts event ev with the high half hi (inhibits, ops), zeroed */
.macro SELN n, ev, hi=0
    li      t0, \ev
    csrw    mhpmevent\n, t0
    li      t0, \hi
    csrw    mhpmevent\n\()h, t0
    csrw    mhpmcounter\n, zero
    csrw    mhpmcounter\n\()h, zero
.endm
/* read counter n (low half), sign it and check it */
.macro CNT n, val
    csrr    a0, mhpmcounter\n
    SIGCHK  a0, \val
.endm
#endif
