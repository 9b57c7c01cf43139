/* hpm_crt.h: what the start-up files share (fw/common/crt0.S,
 * fw/workloads/wl_crt.S and bare.S, fw/sdk/crt0.S, tests/isa/test_macros.h),
 * as assembler macros. */
#ifndef HPM_CRT_H
#define HPM_CRT_H

/* gp and sp from the linker script (gp is set without relaxation: a
 * relaxed la would read gp itself) */
.macro CRT_GP_SP
	.option push
	.option norelax
	la      gp, __global_pointer$
	.option pop
	la      sp, __stack_top
.endm

/* zeroes [__bss_start, __bss_end), word aligned by the linker scripts;
 * uses t0 and t1 */
.macro CRT_CLEAR_BSS
	la      t0, __bss_start
	la      t1, __bss_end
1:  bgeu    t0, t1, 2f
	sw      zero, 0(t0)
	addi    t0, t0, 4
	j       1b
2:
.endm

/* the words through which a program reports to its runner (tohost) and a
 * runner answers (fromhost) */
.macro CRT_TOHOST
	.section .tohost, "aw", @progbits
	.balign 8
	.globl  tohost
tohost:   .word 0, 0
	.globl  fromhost
fromhost: .word 0, 0
.endm

#endif
