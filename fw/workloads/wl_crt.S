/* wl_crt.S: startup of a workload ELF (the monitor enters _start in U, S or
 * M mode with a0 = size parameter, a1 = 0, every other register 0).
 * Sets gp/sp, clears .bss, calls workload_main(size) and leaves through the
 * exit system call (a7 = 93, a0 = the result). No CSR access. */
#include "hpm_crt.h"
    .section .text.init, "ax"
    .globl _start
_start:
    CRT_GP_SP
    CRT_CLEAR_BSS                 /* a0 is kept for workload_main */
    call    workload_main
    li      a7, 93
    ecall
    /* exit does not return; spin if a monitor ever did */
3:  j       3b
