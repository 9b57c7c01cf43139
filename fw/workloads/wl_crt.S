/* wl_crt.S: startup of a workload ELF (the monitor enters _start in U, S or
 * M mode with a0 = size parameter, a1 = 0, every other register 0).
 * Sets gp/sp, clears .bss, calls workload_main(size) and leaves through the
 * exit system call (a7 = 93, a0 = the result). No CSR access. */
    .section .text.init, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    /* clear .bss (word aligned by wl.ld); a0 is kept for workload_main */
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    workload_main
    li      a7, 93
    ecall
    /* exit does not return; spin if a monitor ever did */
3:  j       3b
