/* crt0.S: startup for hpm-overlay C programs (EBR firmware and RAM programs).
 * The runners load every section at its link address (and the EBR image holds
 * .data), so no copy is needed: set up gp/sp/mtvec, clear .bss, call main,
 * then report main's return code through tohost:
 *   rc == 0 -> 1 (pass), else (rc << 1) | 1 (fail, code rc). */
#include "hpm_map.h"
#include "hpm_crt.h"
    .section .text.init, "ax"
    .globl _start
_start:
    CRT_GP_SP
    la      t0, trap_vector
    csrw    mtvec, t0
#ifdef HPM_MONITOR
    /* the monitor's EBR, MONRAM and the devices: M-mode only from here to
     * the next reset (mguard is sticky; docs/memory-map.md, Protection) */
    csrsi   CSR_MGUARD, 1
#endif
    CRT_CLEAR_BSS
    li      a0, 0
    li      a1, 0
    call    main
#ifndef HPM_MONITOR
    /* the monitor's main never returns and it has its own trap vector */
    .globl  _exit
_exit:
    beqz    a0, 3f
    slli    a0, a0, 1
    ori     a0, a0, 1
    j       4f
3:  li      a0, 1
    /* let the last UART byte leave the shift register before halting, so
     * runners that decode the serial line see all of it */
4:  li      t1, HPM_UART_BASE
6:  lw      t2, UART_STATUS_OFF(t1)
    andi    t2, t2, 1
    bnez    t2, 6b
    la      t0, tohost
    sw      a0, 0(t0)
5:  j       5b

/* Default trap vector: an unexpected trap fails the program with code
 * 0x400 | mcause[7:0] (interrupts get 0x800 added), i.e. tohost =
 * ((0x400 | code) << 1) | 1. Programs may provide their own strong
 * trap_vector. */
    .weak   trap_vector
    .balign 4
trap_vector:
    csrr    a0, mcause
    andi    t0, a0, 0xff
    srli    a0, a0, 31
    slli    a0, a0, 11
    or      a0, a0, t0
    ori     a0, a0, 0x400
    j       _exit

/* Reference the optional signature symbols so that ram.ld provides them
 * (an empty range) for C programs that put nothing in .signature. */
    .section .rodata.crt0_sig, "a"
    .balign 4
    .weak   begin_signature
    .weak   end_signature
crt0_signature_range:
    .word   begin_signature, end_signature

    CRT_TOHOST
#endif
