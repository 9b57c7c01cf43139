/* Core timing constants (docs/timing.md, "Cost of an instruction").
 * next_entry = entry + occupancy + (redirect ? 1 : 0) */
#ifndef HPM_TIMING_H
#define HPM_TIMING_H

#define T_FIRST_ENTRY  2u   /* fetch in 0, decode in 1, X in 2 */
#define T_OCC_ALU      1u
#define T_OCC_LOAD     2u
#define T_OCC_STORE    2u
#define T_OCC_MUL      4u
#define T_OCC_DIV     34u
#define T_OCC_DIV_FAULT 35u /* HPMREF_FAULT_DIV_LATENCY */
#define T_OCC_CSR      1u
#define T_OCC_TRAP     1u   /* exception or interrupt */
#define T_REDIRECT     1u   /* bubble after a redirect from X */

#endif
