/* entry.S: the monitor's only ways into and out of a workload
 * (docs/protocol.md section 6.2). The counted window depends on the exact
 * instructions here: the entry sequence E1/E2 and the resume sequence
 * R1..R4 must stay byte for byte as documented.
 *
 * wl_regs[0..31] hold the workload's x0..x31 while the monitor runs;
 * wl_regs[32] carries the run's mcountinhibit into the resume sequence.
 * mon_regs hold the monitor's ra, sp, s0..s11 while a workload runs, so a
 * trap "returns" from enter_workload(); gp, which the monitor's code uses
 * to reach its .bss (fw/common/fw.ld), is set again from the linker script.
 * in_workload holds wl_regs' address while a workload runs, else 0.
 */
#include "hpm_map.h"
    /* offsets into .bss.entry (checked at its end) */
    .equ    IN_WORKLOAD_OFF, 4 * (33 + 14 + 1)  /* in_workload - wl_regs */
    .equ    CSR_TRAPPED_OFF, 8                  /* csr_trapped - mon_t1 */
    .equ    MON_INHIBIT_OFF, 12                 /* mon_inhibit - mon_t1 */

    .section .text.trap, "ax"
    .globl  trap_vector
    .balign 4
trap_vector:
    csrrw   t0, mscratch, t0        /* E1: t0 = 0xFFFFFFFF, mscratch = t0 */
    csrw    mcountinhibit, t0       /* E2: every counter stops */
    /* gp is the workload's until restored below: absolute addresses */
    .option push
    .option norelax
    la      t0, in_workload
    lw      t0, 0(t0)               /* wl_regs while a workload runs */
    beqz    t0, monitor_trap

    sw      x1, 4(t0)
    sw      x2, 8(t0)
    sw      x3, 12(t0)
    sw      x4, 16(t0)
    sw      x6, 24(t0)
    sw      x7, 28(t0)
    sw      x8, 32(t0)
    sw      x9, 36(t0)
    sw      x10, 40(t0)
    sw      x11, 44(t0)
    sw      x12, 48(t0)
    sw      x13, 52(t0)
    sw      x14, 56(t0)
    sw      x15, 60(t0)
    sw      x16, 64(t0)
    sw      x17, 68(t0)
    sw      x18, 72(t0)
    sw      x19, 76(t0)
    sw      x20, 80(t0)
    sw      x21, 84(t0)
    sw      x22, 88(t0)
    sw      x23, 92(t0)
    sw      x24, 96(t0)
    sw      x25, 100(t0)
    sw      x26, 104(t0)
    sw      x27, 108(t0)
    sw      x28, 112(t0)
    sw      x29, 116(t0)
    sw      x30, 120(t0)
    sw      x31, 124(t0)
    li      t1, -1
    csrrw   t1, mscratch, t1        /* workload t0; mscratch back to -1 */
    sw      t1, 20(t0)
    sw      zero, IN_WORKLOAD_OFF(t0)
    la      gp, __global_pointer$   /* the monitor's (fw/common/fw.ld) */
    .option pop

    la      t0, mon_regs            /* return from enter_workload() */
    lw      ra, 0(t0)
    lw      sp, 4(t0)
    lw      s0, 8(t0)
    lw      s1, 12(t0)
    lw      s2, 16(t0)
    lw      s3, 20(t0)
    lw      s4, 24(t0)
    lw      s5, 28(t0)
    lw      s6, 32(t0)
    lw      s7, 36(t0)
    lw      s8, 40(t0)
    lw      s9, 44(t0)
    lw      s10, 48(t0)
    lw      s11, 52(t0)
    ret

/* A trap in the monitor itself: only a CSR access through csr_tramp can
 * raise one. Flag it, skip the instruction, and restore mcountinhibit (E2
 * stopped every counter; the host may have enabled some while idle). */
monitor_trap:
    la      t0, mon_t1
    sw      t1, 0(t0)
    li      t1, 1
    sw      t1, CSR_TRAPPED_OFF(t0)
    lw      t1, MON_INHIBIT_OFF(t0)
    csrw    mcountinhibit, t1
    csrr    t1, mepc
    addi    t1, t1, 4
    csrw    mepc, t1
    lw      t1, 0(t0)
    li      t0, -1
    csrrw   t0, mscratch, t0        /* the monitor's t0; mscratch = -1 */
    mret

/* void enter_workload(uint32_t inhibit): resumes the workload from wl_regs
 * at mepc with mstatus.MPP as set; comes back when it traps. */
    .section .text.enter_workload, "ax"
    .globl  enter_workload
    .balign 4
enter_workload:
    la      t0, mon_regs
    sw      ra, 0(t0)
    sw      sp, 4(t0)
    sw      s0, 8(t0)
    sw      s1, 12(t0)
    sw      s2, 16(t0)
    sw      s3, 20(t0)
    sw      s4, 24(t0)
    sw      s5, 28(t0)
    sw      s6, 32(t0)
    sw      s7, 36(t0)
    sw      s8, 40(t0)
    sw      s9, 44(t0)
    sw      s10, 48(t0)
    sw      s11, 52(t0)
    la      t0, wl_regs
    sw      t0, IN_WORKLOAD_OFF(t0)
    sw      a0, 128(t0)
    lw      t1, 20(t0)
    csrw    mscratch, t1
    lw      x1, 4(t0)
    lw      x2, 8(t0)
    lw      x3, 12(t0)
    lw      x4, 16(t0)
    lw      x6, 24(t0)
    lw      x7, 28(t0)
    lw      x8, 32(t0)
    lw      x9, 36(t0)
    lw      x10, 40(t0)
    lw      x11, 44(t0)
    lw      x12, 48(t0)
    lw      x13, 52(t0)
    lw      x14, 56(t0)
    lw      x15, 60(t0)
    lw      x16, 64(t0)
    lw      x17, 68(t0)
    lw      x18, 72(t0)
    lw      x19, 76(t0)
    lw      x20, 80(t0)
    lw      x21, 84(t0)
    lw      x22, 88(t0)
    lw      x23, 92(t0)
    lw      x24, 96(t0)
    lw      x25, 100(t0)
    lw      x26, 104(t0)
    lw      x27, 108(t0)
    lw      x28, 112(t0)
    lw      x29, 116(t0)
    lw      x30, 120(t0)
    lw      x31, 124(t0)
    lw      t0, 128(t0)
    csrw    mcountinhibit, t0       /* R1: counting starts next cycle */
    addi    t0, zero, -1            /* R2 */
    csrrw   t0, mscratch, t0        /* R3: t0 = workload t0, mscratch = -1 */
    mret                            /* R4 */

/* size_t walk_stack(uint32_t *ret) (docs/monitor.md "Call stacks"): from
 * the workload's s0, each frame's return address (at fp - 4) and its
 * caller's fp (at fp - 8). The chain ends at HPM_PROF_STACK addresses, at
 * an fp that is misaligned or outside [RAM + 8, RAM + WL_RAM_SIZE], or
 * after a frame whose caller's fp is not above its own: every read is of
 * the workload's RAM. A return-address slot that holds an fp above its
 * frame (up to the RAM's top) is a leaf's saved s0 (GCC saves no ra in a
 * leaf): the return address is then the workload's ra. */
    .equ    WL_RAM_TOP, HPM_RAM_BASE + 0x1f000  /* + WL_RAM_SIZE (monitor.h) */
    .equ    PROF_STACK, 16                      /* HPM_PROF_STACK (hpm_proto.h) */
    .section .text.walk_stack, "ax"
    .globl  walk_stack
    .balign 4
walk_stack:
    la      t0, wl_regs
    lw      a1, 32(t0)              /* fp = the workload's s0 */
    lw      t1, 4(t0)               /* its ra */
    mv      a3, a0
    addi    t4, a0, 4 * PROF_STACK
    li      t2, HPM_RAM_BASE + 8
    li      t3, WL_RAM_TOP
1:  beq     a3, t4, 3f
    andi    a4, a1, 3
    bnez    a4, 3f
    bltu    a1, t2, 3f
    bltu    t3, a1, 3f
    lw      a4, -4(a1)              /* return address */
    lw      a5, -8(a1)              /* the caller's fp */
    beqz    a4, 4f
    bgeu    a1, a4, 2f
    bltu    t3, a4, 2f
4:  mv      a5, a4                  /* a leaf's frame */
    mv      a4, t1
2:  sw      a4, 0(a3)
    addi    a3, a3, 4
    bgeu    a1, a5, 3f
    mv      a1, a5
    j       1b
3:  sub     a0, a3, a0
    ret

/* csr_tramp: "csrrX a0, CSR, a1" patched in by csr_access(), then ret. */
    .section .data.csr_tramp, "aw"
    .globl  csr_tramp
    .balign 4
csr_tramp:
    .word   0x00000013
    ret

    .section .bss.entry, "aw", @nobits
    .balign 4
    .globl  wl_regs, in_workload, csr_trapped, mon_inhibit
    /* reached by offsets from wl_regs and mon_t1: keep them in one section */
wl_regs:     .space 4 * 33
mon_regs:    .space 4 * 14
mon_t1:      .space 4
in_workload: .space 4
csr_trapped: .space 4
mon_inhibit: .space 4
    .if in_workload - wl_regs != IN_WORKLOAD_OFF || csr_trapped - mon_t1 != CSR_TRAPPED_OFF || mon_inhibit - mon_t1 != MON_INHIBIT_OFF
    .error "entry.S: the .bss.entry offsets changed"
    .endif
