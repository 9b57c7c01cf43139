/* hpm_common.h: event indexes (hw/hpm/events.def) and selector helpers for
 * the directed HPM tests (tests/hpm/*.S). Include after test_macros.h. */
#ifndef HPM_COMMON_H
#define HPM_COMMON_H

#include "hpm_events.h"  /* HPM_EV_* (generated from hw/hpm/events.def) */

/* mhpmevent fields and OP values (hpm_map.h, from hw/csr.def) */
#define OP_OR MHPMEVENT_OP_OR
#define OP_AND MHPMEVENT_OP_AND
#define OP_XOR MHPMEVENT_OP_XOR
#define OP_ADD MHPMEVENT_OP_ADD

/* the two 32-bit halves of a 64-bit selector */
#define SEL_LO(e0, e1, e2, e3) ((e0) | ((e1) << MHPMEVENT_EVENT1_SHIFT) | \
	((e2) << MHPMEVENT_EVENT2_SHIFT) | (((e3) & 3) << MHPMEVENT_EVENT3_SHIFT))
#define SEL_HI(e3, op0, op1, op2) (((e3) >> (32 - MHPMEVENT_EVENT3_SHIFT)) | \
	((op0) << (MHPMEVENT_OP_TYPE0_SHIFT - 32)) | ((op1) << (MHPMEVENT_OP_TYPE1_SHIFT - 32)) | \
	((op2) << (MHPMEVENT_OP_TYPE2_SHIFT - 32)))
/* bits of the high half (mhpmeventNh, mcyclecfgh, minstretcfgh) */
#define OF   (1 << (MHPMEVENT_OF_SHIFT - 32))
#define MINH (1 << (MHPMEVENT_MINH_SHIFT - 32))
#define SINH (1 << (MHPMEVENT_SINH_SHIFT - 32))
#define UINH (1 << (MHPMEVENT_UINH_SHIFT - 32))
#define MIP_LCOF MIP_LCOFIP

/* counter n counts event ev with the high half hi (inhibits, ops), zeroed */
.macro SELN n, ev, hi=0
	li      t0, \ev
	csrw    mhpmevent\n, t0
	li      t0, \hi
	csrw    mhpmevent\n\()h, t0
	csrw    mhpmcounter\n, zero
	csrw    mhpmcounter\n\()h, zero
.endm
/* s1 = -1; every counter stopped, no interrupt enabled, LCOFIP clear */
.macro HPM_QUIET
	li      s1, -1
	csrw    mie, zero
	csrw    mcountinhibit, s1
	li      t0, MIP_LCOF
	csrc    mip, t0
.endm
/* read counter n (low half), sign it and check it */
.macro CNT n, val
	csrr    a0, mhpmcounter\n
	SIGCHK  a0, \val
.endm
/* scountovf read in S with mcounteren = men: a1, signed and checked (val) */
.macro SCOUNTOVF_S men, val
	.if \men
	li      t0, \men
	csrw    mcounteren, t0
	.else
	csrw    mcounteren, zero
	.endif
	ENTER_MODE PRV_S
	csrr    a1, scountovf
	ENTER_M
	SIGCHK  a1, \val
.endm
/* OF set by software in the selectors n..., every mode inhibited */
.macro OF_SET n, more:vararg
	li      t0, OF | MINH | SINH | UINH
	csrw    mhpmevent\n\()h, t0
	.ifnb \more
	OF_SET  \more
	.endif
.endm
/* the flush tests (hpm_flush.S, hpm_flush10.S). FLUSH_SETUP: the counters
 * count 4 per cycle (ADD of cycles) from low parts (n * 37) mod 256, so they
 * carry at spread phases; counter 4 is 2^64 - 196 (upper part all ones) and
 * counters wrap_a and wrap_b wrap after 1000 and 2250 cycles. The block
 * after FLUSH_SLED (s3 = counter 3 first, s6 = the selectors' high half)
 * runs once per value of s2 (0..63), after s2 nops, so it meets the
 * store's flush at every phase; FLUSH_NEXT checks counter 3's delta over the
 * block (s3 read first) and repeats; FLUSH_WRAPPED checks the OF bits
 * (mask) of the counters that wrapped and quiets the unit. The 128 nops
 * before the sled keep the block's selector write more than 144 cycles
 * (the refill window, docs/timing.md) after the previous one, so it never
 * waits, and keep the phases of the 32- and 64-cycle carries. */
#define FLUSH_LO SEL_LO(HPM_EV_CYCLES, HPM_EV_CYCLES, HPM_EV_CYCLES, HPM_EV_CYCLES)
#define FLUSH_HI SEL_HI(HPM_EV_CYCLES, OP_ADD, OP_ADD, OP_ADD)
.macro FLUSH_COUNTERS n, more:vararg
	csrw    mhpmevent\n, t0
	csrw    mhpmevent\n\()h, t1
	li      t2, (\n * 37) & 0xff
	csrw    mhpmcounter\n, t2
	csrw    mhpmcounter\n\()h, zero
	.ifnb \more
	FLUSH_COUNTERS \more
	.endif
.endm
.macro FLUSH_SETUP wrap_a, wrap_b, counters:vararg
	li      t0, FLUSH_LO
	li      t1, FLUSH_HI
	FLUSH_COUNTERS \counters
	li      t2, -196
	csrw    mhpmcounter4, t2
	csrw    mhpmcounter4h, s1
	csrw    mhpmcounter\wrap_a\()h, s1
	li      t2, -4000
	csrw    mhpmcounter\wrap_a, t2
	csrw    mhpmcounter\wrap_b\()h, s1
	li      t2, -9000
	csrw    mhpmcounter\wrap_b, t2
	csrw    mcountinhibit, zero
.endm
.macro FLUSH_SLED
	li      s6, FLUSH_HI
	li      s2, 0
	li      s4, 64
flush_loop:
	.rept 128
	nop
	.endr
	la      t0, flush_sled_end
	slli    t1, s2, 2
	sub     t0, t0, t1
	jalr    x0, 0(t0)
	.rept 63
	nop
	.endr
flush_sled_end:
	csrr    s3, mhpmcounter3
.endm
.macro FLUSH_NEXT delta
	csrr    s5, mhpmcounter3
	sub     s5, s5, s3
	CHECK   s5, \delta
	addi    s2, s2, 1
	bne     s2, s4, flush_loop
.endm
.macro FLUSH_WRAPPED mask
	csrr    a0, scountovf
	SIG     a0
	li      t0, \mask
	and     a0, a0, t0
	CHECK   a0, \mask
	csrw    mcountinhibit, s1
	li      t0, MIP_LCOF
	csrc    mip, t0
.endm

/* the top-down tests (hpm_topdown.S, hpm_td_board.S): TD_MIX_MU counts
 * the subroutine `mix` (TD_MIX, s0: data, s2: 7) in M, an ebreak, `mix`
 * in U, started and stopped by mcountinhibit (s1 = -1), mcyclecfgh back
 * to 0 after: two traps */
.macro TD_MIX_MU
	TRAP_CLEAR
	csrw    mcountinhibit, zero     /* all start in the next cycle */
	jal     ra, mix
	ebreak                          /* machine clears */
	ENTER_MODE PRV_U
	jal     ra, mix
	ENTER_M
	csrw    mcountinhibit, s1       /* all stop after this cycle */
	csrw    CSR_MCYCLECFGH, zero
	CHECK   s9, 2
.endm
/* every kind of top-down cycle: a load and a store, mul, div, a loop whose
 * exit mispredicts, a forward taken branch, a jalr */
.macro TD_MIX
mix:
	lw      t1, 0(s0)
	sw      t1, 4(s0)
	mul     t2, t1, t1
	div     t2, t2, s2
	li      t3, 4
1:	addi    t3, t3, -1
	bnez    t3, 1b                  /* exit mispredicted */
	beq     x0, x0, 2f              /* forward taken: mispredicted */
2:	la      t4, 3f
	jalr    x0, 0(t4)               /* frontend bound */
3:	lw      t1, 4(s0)
	ret
.endm

#endif
