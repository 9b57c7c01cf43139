/* Core timing constants (docs/timing.md, "Cost of an instruction").
 * next_entry = entry + occupancy + (redirect ? 1 : 0) */
#ifndef HPM_TIMING_H
#define HPM_TIMING_H

#define T_FIRST_ENTRY 2u /* fetch in 0, decode in 1, X in 2 */
#define T_OCC_ALU 1u
#define T_OCC_LOAD 2u
#define T_OCC_STORE 2u
#define T_OCC_MUL 5u       /* mul */
#define T_OCC_MULH 6u      /* mulh mulhsu mulhu */
#define T_OCC_DIV 34u      /* div divu */
#define T_OCC_REM 35u      /* rem remu */
#define T_OCC_DIV_FAULT 1u /* HPMREF_FAULT_DIV_LATENCY: one more for div/rem */
#define T_OCC_CSR 1u
#define T_OCC_TRAP 1u /* exception or interrupt */
#define T_OCC_ACCESS_FAULT 2u /* load/store access fault: traps in its second X cycle */
#define T_OCC_BR_MISALIGNED 2u /* branch to a target with bit 1 set, taken (traps) or not */
#define T_REDIRECT 1u /* bubble after a redirect from X */

/* The storage-only CSRs (mscratch mepc mtval sscratch sepc stval) are kept in
 * the register file's EBR: a CSR instruction that writes one and has an rd
 * (not x0) redirects (it refetches pc+4, one bubble in which the CSR row is
 * written; with rd = x0 the row is written in the instruction's cycle). */
static inline unsigned csr_in_regfile(unsigned csr)
{
	return (csr & 0xDFCu) == 0x140u && (csr & 3u) != 2u;
}

#endif
