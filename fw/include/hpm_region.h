/* hpm_region.h: region markers for hpmctl stat --regions (docs/hpmctl.md).
 *
 *   HPM_REGION_BEGIN("solve");
 *   solve();
 *   HPM_REGION_END("solve");
 *
 * The name is a string literal (no quotes or backslashes inside). Regions
 * nest and may be entered many times; hpmctl sums each name's BEGIN..END
 * spans (the outermost ones when a name is re-entered) and counts the calls,
 * up to 32 names per program.
 *
 * A marker is an ecall with a7 = 0x48504d and a0 = the name's address (bit 0
 * set for END): the monitor stops the counters, sends their values to the
 * host and resumes the program, so the host sees exact counts at each marker.
 * Each marker is exactly the four instructions below and the ecall; their
 * cost inside a region is fixed (docs/hpm.md, Regions). Without the monitor
 * (the bare harness, hpm-ref --elf) the same ecall is a null system call. */
#ifndef HPM_REGION_H
#define HPM_REGION_H

#define HPM_ECALL_REGION_A7 0x48504d

#define HPM_REGION_MARK_(name, end)                                        \
	__asm__ volatile(".pushsection .rodata.hpm_region, \"a\"\n\t"        \
			 ".balign 4\n"                                       \
			 "1:\t.asciz \"" name "\"\n\t"                       \
			 ".popsection\n\t"                                   \
			 ".option push\n\t"                                  \
			 ".option norelax\n\t"                               \
			 "lui a7, 0x485\n\t"                                 \
			 "addi a7, a7, 0x4d\n\t"                             \
			 "2:\tauipc a0, %%pcrel_hi(1b + " #end ")\n\t"       \
			 "addi a0, a0, %%pcrel_lo(2b)\n\t"                    \
			 ".option pop\n\t"                                   \
			 "ecall"                                             \
			 : : : "a0", "a7", "memory")

#define HPM_REGION_BEGIN(name) HPM_REGION_MARK_(name, 0)
#define HPM_REGION_END(name)   HPM_REGION_MARK_(name, 1)

#endif
