/* bare.S: M-mode harness that runs a workload without the monitor (for
 * hpm-ref and hpm-sim). Linked in front of the workload (entry bare_start at
 * 0x80000000, section .text.bare), it enables the user counters, enters the
 * workload's _start in the mode WL_BARE_MPP (0 U, 1 S, 3 M; default U) with
 * a0 = wl_test_size (0 with WL_BARE_DEFAULT: the workload's default size)
 * and implements the system calls of the workload ABI:
 *   a7 = 0:  null call, returns to the next instruction, registers unchanged
 *   a7 = 0x48504d: a region marker (hpm_region.h), here a null call
 *   a7 = 93: exit, tohost = 1 if a0 == 0 else (a0 << 1) | 1
 * Any other trap fails with tohost = ((0x400 | mcause[7:0]) << 1) | 1. */
#include "hpm_crt.h"
#ifndef WL_BARE_MPP
#define WL_BARE_MPP 0
#endif
    .section .text.bare, "ax"
    .globl bare_start
bare_start:
    la      t0, bare_trap
    csrw    mtvec, t0
    li      t0, -1
    csrw    mcounteren, t0
    csrw    scounteren, t0
    li      t0, 0x1800                  /* mstatus.MPP */
    csrc    mstatus, t0
    li      t0, WL_BARE_MPP << 11
    csrs    mstatus, t0
    la      t0, _start
    csrw    mepc, t0
#ifdef WL_BARE_DEFAULT
    li      a0, 0
#else
    lw      a0, wl_test_size
#endif
    li      t0, 0
    mret

    .balign 4
bare_trap:
    csrw    mscratch, t0
    la      t0, bare_save
    sw      t1, 0(t0)
    /* ecall from U (8), S (9) or M (11) */
    csrr    t1, mcause
    addi    t1, t1, -8
    beqz    t1, 1f
    addi    t1, t1, -1
    beqz    t1, 1f
    addi    t1, t1, -2
    bnez    t1, bare_fail
1:  bnez    a7, 3f
    /* null call: skip the ecall, restore t1 and t0 */
4:  csrr    t1, mepc
    addi    t1, t1, 4
    csrw    mepc, t1
    lw      t1, 0(t0)
    csrr    t0, mscratch
    mret

3:  li      t1, 0x48504d            /* region marker */
    beq     a7, t1, 4b
bare_exit:
    li      t1, 93
    bne     a7, t1, bare_fail
    li      t1, 1
    beqz    a0, bare_halt
    slli    t1, a0, 1
    ori     t1, t1, 1
    j       bare_halt

bare_fail:
    csrr    t1, mcause
    andi    t1, t1, 0xff
    ori     t1, t1, 0x400
    slli    t1, t1, 1
    ori     t1, t1, 1
bare_halt:
    la      t0, tohost
    sw      t1, 0(t0)
2:  j       2b

    .section .bss.bare_save, "aw", @nobits
    .balign 4
bare_save:
    .word   0

    CRT_TOHOST
