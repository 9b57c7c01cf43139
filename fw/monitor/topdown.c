/* The top-down unit's level 1, emulated from the iCE40 board's two 16-bit
 * counts (HPM_TD = 2, docs/hpm.md "Top-down on the board"): SLOTS is
 * mcycle, retiring minstret, and the monitor widens the frontend-bound and
 * bad-speculation counts to 64 bits at every entry from a run (each change
 * of their bit 15 raises LCOFI, so no entry misses a wrap). A run's read of
 * slots, slotsh, tdmetrics or tdmetrics2 (NA: level 2 is not kept) traps as
 * an illegal instruction and gets the unit's value here; the host reads the
 * same CSRs and the exact counts (mtdretiring..mtdfeboundh) through
 * CSR_READ. */
#include "hpm_soc.h"
#include "monitor.h"
#include "td_rule.h"

#define MCOUNTEREN_CY 1u
_Static_assert((CSR_SLOTS & 3u) == 0 && CSR_TDMETRICS == CSR_SLOTS + 2 && CSR_TDMETRICS2 == CSR_SLOTS + 3,
	       "td_trap's and td_emulate's decode");

/* SLOTS (mcycle) and retiring (minstret), filled at a read; the bad
 * speculation and frontend bound counts, widened: their low 16 bits are
 * the last reads of mtdbad16 and mtdfe16, as all start from 0 at a run's
 * mcycle write */
static uint64_t td_c[4];

void td_run_start(void)
{
	td_c[2] = td_c[3] = 0;
}

void td_widen(void)
{
	if (!board.td_counts)
		return;
	td_c[2] += (uint16_t)(csr_read(CSR_MTDBAD16) - (uint16_t)td_c[2]);
	td_c[3] += (uint16_t)(csr_read(CSR_MTDFE16) - (uint16_t)td_c[3]);
}

/* slots(h), tdmetrics(2); mtdretiring(h), mtdbadspec(h), mtdfebound(h):
 * the counters are read only for one of these */
int td_emulate(unsigned csr, uint32_t *out)
{
	unsigned u = csr - CSR_SLOTS;        /* 0..3: slots, slotsh, tdmetrics(2) */
	/* the 64-bit value of td_c a half is of: 0 SLOTS, mtd*: 1..3 */
	unsigned i = u < 2 ? 0 : ((csr - CSR_MTDRETIRING) >> 1) + 1;

	if (!board.td_counts || (u > 3 && i > 3))
		return -1;
	td_c[0] = read_counter(0);
	td_c[1] = read_counter(2);
	if (u == 2)
		*out = td_metrics(td_c);
	else if (u == 3)
		*out = TDMETRICS2_NA;        /* level 2 is not kept here */
	else
		*out = (uint32_t)(csr & 1u ? td_c[i] >> 32 : td_c[i]);
	return 0;
}

/* A run's illegal instruction (mtval) that reads slots, slotsh, tdmetrics
 * or tdmetrics2 (csrrs/csrrc with rs1 = x0, or their immediate forms with
 * 0) with the unit's permission: bit CY of mcounteren below M, and of
 * scounteren in U. Writes rd; 1 if it did. */
int td_trap(void)
{
	uint32_t insn = csr_read(mtval);
	uint32_t mpp = csr_read(mstatus) & MSTATUS_MPP;      /* U 0, S 1, M 3 */
	uint32_t en = mpp == MSTATUS_MPP ? MCOUNTEREN_CY :
		csr_read(mcounteren) & (mpp ? MCOUNTEREN_CY : csr_read(scounteren));
	/* csr 0xCC0..0xCC3, funct3 x1x, rs1 0, SYSTEM; wl_regs[0] is never
	 * loaded */
	uint32_t d = insn ^ ((uint32_t)CSR_SLOTS << 20 | 0x2073u), v;
	if ((d & 0xffcfa07fu) || !(en & MCOUNTEREN_CY) || td_emulate(insn >> 20, &v) < 0)
		return 0;
	wl_regs[insn >> 7 & 31u] = v;
	return 1;
}
