/* crt0.S: start-up of a program built with the SDK (hpm-cc). The monitor
 * enters _start in U, S or M mode with a0 = argc and a1 = argv, which the
 * host wrote at the top of the RAM (docs/monitor.md, "Programs built with
 * the SDK"); the stack starts below them. Sets gp, sp and tp (picolibc's
 * errno is thread-local), clears .tbss and .bss, runs the constructors,
 * notes in __hpm_startup what all this counted, calls main(argc, argv) and
 * passes its result to exit(). s0 stays 0 (the monitor enters with it 0): the
 * outermost frame pointer, so a call-chain walk ends at main's caller. */
#include "hpm_crt.h"
    .section .text.init, "ax"
    .globl _start
_start:
    CRT_GP_SP
    beqz    a1, 1f
    andi    sp, a1, -16
1:  la      tp, __tls_base
    mv      s1, a0
    mv      s2, a1
    CRT_CLEAR_BSS                 /* .tbss and .bss */
    call    __libc_init_array
    /* the start-up's own cost: counted cycles and instructions so far
     * (hpm_startup_cost, hpmctl's "start-up" line) */
    rdinstret t1
    rdcycle t0
    la      t2, __hpm_startup
    sw      t0, 0(t2)
    sw      t1, 4(t2)
    mv      a0, s1
    mv      a1, s2
    li      a2, 0
    call    main
    call    exit
4:  j       4b

/* ABI marker: the host passes argc/argv to programs that define it */
    .globl  __hpm_sdk_args
    .set    __hpm_sdk_args, 1

    .section .bss.hpm_startup, "aw", @nobits
    .balign 4
    .globl  __hpm_startup
__hpm_startup:
    .zero   8

/* keeps .tdata from being empty, so tp = __tls_base is the TLS segment */
    .section .tdata.hpm_anchor, "awT", @progbits
    .balign 8
__hpm_tls_anchor:
    .word   0
