/* test_macros.h: shared frame of the directed ISA tests (tests/isa/*.S).
 *
 * Each test is self-checking (a wrong value jumps to `fail`, which stores
 * (TESTNUM << 1) | 1 to tohost, so the runner exits 1 and the failing check
 * number is tohost >> 1) and also dumps its results into the signature region
 * (begin_signature..end_signature), which `make test` compares between
 * hpm-ref and hpm-sim --lockstep.
 *
 * Register conventions (tests must not use these for anything else):
 *   gp  (x3)  TESTNUM: number of the current check
 *   t6  (x31) scratch of CHECK
 *   s11 (x27) signature pointer
 *   s10 (x26) resume address for the next trap (0: epc + 4; interrupts: epc)
 *   s9  (x25) trap count (both handlers increment it)
 *   s8  (x24) cause of the last trap (mcause or scause)
 *   s7  (x23) tval of the last trap
 *   s6  (x22) epc of the last trap
 *   s5  (x21) previous privilege of the last trap (mstatus.MPP or sstatus.SPP)
 *   s4  (x20) 1: the next exception that reaches the M handler returns in
 *             M-mode (ENTER_M: ecall; ENTER_M_BRK: ebreak, for tests that
 *             delegate ecalls to S)
 *   s3  (x19) level that took the last trap: 3 = M handler, 1 = S handler
 * On an interrupt the M handler clears mie (and the S handler clears sie),
 * so a level-triggered source does not fire again; the test re-arms it.
 */
#ifndef TEST_MACROS_H
#define TEST_MACROS_H

#define TESTNUM gp

#include "hpm_map.h"     /* MSTATUS_*, MIP_*, HPM_*_BASE, *_OFF (generated) */
#include "hpm_crt.h"     /* CRT_TOHOST */
#define MSTATUS_MPP_S 0x00000800

#define CLINT_BASE     HPM_CLINT_BASE
#define CLINT_MSIP     (HPM_CLINT_BASE + CLINT_MSIP_OFF)
#define CLINT_MTIMECMP (HPM_CLINT_BASE + CLINT_MTIMECMP_OFF)
#define CLINT_MTIMECMPH (HPM_CLINT_BASE + CLINT_MTIMECMPH_OFF)
#define CLINT_MTIME    (HPM_CLINT_BASE + CLINT_MTIME_OFF)
#define CLINT_MTIMEH   (HPM_CLINT_BASE + CLINT_MTIMEH_OFF)
#define UART_BASE      HPM_UART_BASE
#define GPIO_BASE      HPM_GPIO_BASE
#define RAM_BASE       HPM_RAM_BASE
#define BAD_ADDR       0x40000000   /* outside every region */

#define PRV_U 0
#define PRV_S 1
#define PRV_M 3

#define CAUSE_IRQ 0x80000000

/* ---- code frame ---- */
.macro RVTEST_CODE_BEGIN
	.section .text.init, "ax"
	.globl _start
_start:
	la      t0, trap_m
	csrw    mtvec, t0
	la      t0, trap_s
	csrw    stvec, t0
	la      s11, begin_signature
	li      sp, 0x80020000
	li      s10, 0
	li      s9, 0
	li      s8, 0
	li      s7, 0
	li      s6, 0
	li      s5, 0
	li      s4, 0
	li      s3, 0
	li      gp, 0
	j       .Ltest_body

/* M-mode trap handler: records the trap, then resumes (see top of file). */
	.balign 4
trap_m:
	csrw    mscratch, t0
	csrr    s8, mcause
	csrr    s7, mtval
	csrr    s6, mepc
	csrr    t0, mstatus
	srli    t0, t0, 11
	andi    s5, t0, 3
	li      s3, 3
	addi    s9, s9, 1
	bltz    s8, .Ltrap_m_irq
	beqz    s4, .Ltrap_m_resume
	li      s4, 0
	li      t0, MSTATUS_MPP
	csrs    mstatus, t0
	li      t0, MSTATUS_MPIE
	csrc    mstatus, t0
.Ltrap_m_resume:
	bnez    s10, .Ltrap_m_redirect
	addi    t0, s6, 4
	csrw    mepc, t0
	j       .Ltrap_m_out
.Ltrap_m_irq:
	csrw    mie, zero
	beqz    s10, .Ltrap_m_out
.Ltrap_m_redirect:
	csrw    mepc, s10
	li      s10, 0
.Ltrap_m_out:
	csrr    t0, mscratch
	mret

/* S-mode trap handler (delegated traps). */
	.balign 4
trap_s:
	csrw    sscratch, t0
	csrr    s8, scause
	csrr    s7, stval
	csrr    s6, sepc
	csrr    t0, sstatus
	srli    t0, t0, 8
	andi    s5, t0, 1
	li      s3, 1
	addi    s9, s9, 1
	bltz    s8, .Ltrap_s_irq
	bnez    s10, .Ltrap_s_redirect
	addi    t0, s6, 4
	csrw    sepc, t0
	j       .Ltrap_s_out
.Ltrap_s_irq:
	csrw    sie, zero
	beqz    s10, .Ltrap_s_out
.Ltrap_s_redirect:
	csrw    sepc, s10
	li      s10, 0
.Ltrap_s_out:
	csrr    t0, sscratch
	sret

.Ltest_body:
.endm

/* pass and fail store to tohost, where hpm-sim and hpm-ref --elf stop. Run
 * through the firmware monitor (tests/link/elfrun.c), fromhost holds the
 * monitor's trap entry: the end code gives the monitor mtvec and mscratch
 * back and leaves with the exit ecall, a0 = the tohost value. */
.macro RVTEST_CODE_END
pass:
	li      t0, 1
	la      t1, tohost
	sw      t0, 0(t1)
	j       .Lto_monitor
fail:
	slli    t0, TESTNUM, 1
	ori     t0, t0, 1
	la      t1, tohost
	sw      t0, 0(t1)
.Lto_monitor:
	la      t1, fromhost
	lw      t1, 0(t1)
1:  beqz    t1, 1b
	csrw    mtvec, t1
	li      t1, -1
	csrw    mscratch, t1
	mv      a0, t0
	li      a7, 93
	ecall
	j       1b
.endm

/* n signature words (pre-filled with 0xdeadbeef) and the tohost words. */
.macro RVTEST_DATA n
	CRT_TOHOST
	.section .data
	.balign 16
	.globl  begin_signature
begin_signature:
	.fill   \n, 4, 0xdeadbeef
	.globl  end_signature
end_signature:
	.word   0
.endm

/* ---- checks ---- */
.macro TEST n
	li      TESTNUM, \n
.endm
/* reg == val, else fail */
.macro CHECK reg, val
	li      t6, \val
	bne     \reg, t6, fail
.endm
.macro CHECKR ra, rb
	bne     \ra, \rb, fail
.endm
/* append a word to the signature */
.macro SIG reg
	sw      \reg, 0(s11)
	addi    s11, s11, 4
.endm
/* check and append */
.macro SIGCHK reg, val
	SIG     \reg
	CHECK   \reg, \val
.endm
/* forget previous traps */
.macro TRAP_CLEAR
	li      s9, 0
	li      s8, -1
	li      s7, -1
	li      s6, -1
	li      s5, -1
	li      s3, 0
.endm
/* exactly `count` traps since TRAP_CLEAR, the last one with this cause */
.macro EXPECT_TRAP cause, count=1
	CHECK   s9, \count
	CHECK   s8, \cause
	SIG     s8
.endm
/* the last trap's epc == label */
.macro EXPECT_EPC label
	la      t6, \label
	bne     s6, t6, fail
.endm
.macro EXPECT_TVAL val
	CHECK   s7, \val
	SIG     s7
.endm
.macro EXPECT_TVAL_LABEL label
	la      t6, \label
	bne     s7, t6, fail
.endm
.macro EXPECT_NO_TRAP
	CHECK   s9, 0
.endm

/* ---- privilege changes ---- */
/* from M: continue at the next instruction in privilege `mode` (0, 1, 3),
 * with mstatus.MIE = 0 (MPIE is cleared first) */
.macro ENTER_MODE mode
	li      t0, MSTATUS_MPP | MSTATUS_MPIE
	csrc    mstatus, t0
	li      t0, (\mode << 11)
	csrs    mstatus, t0
	la      t0, .Lenter\@
	csrw    mepc, t0
	mret
.Lenter\@:
.endm
/* from S or U (or M): back to M via ecall (counts as one trap); M resumes
 * with mstatus.MIE = 0 */
.macro ENTER_M
	li      s4, 1
	ecall
.endm
.macro ENTER_M_BRK
	li      s4, 1
	ebreak
.endm

/* ---- CLINT helpers (M-mode; clobber t0, t1) ---- */
.macro TIMER_OFF
	li      t0, CLINT_MTIMECMPH
	li      t1, -1
	sw      t1, 0(t0)
	sw      t1, -4(t0)
.endm
/* mtimecmp = mtime + delta (mtime < 2^32 in every test) */
.macro TIMER_IN delta
	li      t0, CLINT_MTIMECMPH
	li      t1, -1
	sw      t1, 0(t0)
	li      t0, CLINT_MTIME
	lw      t1, 0(t0)
	li      t0, \delta
	add     t1, t1, t0
	li      t0, CLINT_MTIMECMP
	sw      t1, 0(t0)
	sw      zero, 4(t0)
.endm

#endif
