/* The top-down unit (docs/csr.md "Top-down unit"): probed with a CSR_READ of
 * `slots`, reset with mtopdown, read as exact 64-bit counts while the
 * counters are frozen (outside a run), the other values derived exactly.
 * The iCE40 board's monitor emulates its level 1 (docs/hpm.md "Top-down on
 * the board"): there every run starts from zero and level 2 is not kept. */
#include <string.h>
#include "hpm_int.h"
#include "hpm_map.h"

/* whether CSR csr reads without a trap, asked once (*state, hpm_int.h) */
static int probe_csr(hpm_board *b, unsigned csr, int *state, int *present)
{
	if (!*state) {
		uint32_t v;
		int rc = hpm_csr_read(b, csr, &v);
		if (rc == HPM_E_BOARD && b->err_code == HPM_ERR_CSR_TRAP)
			*state = 1;
		else if (rc)
			return rc;
		else
			*state = 2;
	}
	*present = *state == 2;
	return HPM_OK;
}

/* whether the board has the iCE40 board's two top-down counts instead of
 * the unit, so that its reference board models them (they raise LCOFI,
 * docs/hpm.md) */
int hpm_td_board_present(hpm_board *b, int *present)
{
	return probe_csr(b, CSR_MTDFE16, &b->td_counts, present);
}

int hpm_topdown_present(hpm_board *b, int *levels)
{
	int unit = 0, counts = 0;
	int rc = probe_csr(b, CSR_SLOTS, &b->td_unit, &unit);
	if (!rc && unit)
		rc = hpm_td_board_present(b, &counts);
	*levels = !unit ? 0 : counts ? 1 : 2;
	return rc;
}

/* the levels the board keeps, HPM_E_CONFIG without any */
static int need_unit(hpm_board *b, int *levels)
{
	int rc = hpm_topdown_present(b, levels);
	if (rc)
		return rc;
	if (!*levels)
		return hpm_fail(b, HPM_E_CONFIG, "the board has no top-down unit (reading slots traps)");
	return HPM_OK;
}

int hpm_topdown_reset(hpm_board *b)
{
	int levels;
	int rc = need_unit(b, &levels);
	/* level 1 only: the monitor starts every run from zero */
	return rc || levels == 1 ? rc : hpm_csr_write(b, CSR_MTOPDOWN, 0, 1, NULL, NULL);
}

/* A 64-bit count from its two halves (frozen: no carry between the reads). */
static int read64(hpm_board *b, uint16_t lo, uint16_t hi, uint64_t *v)
{
	uint32_t l, h;
	int rc = hpm_csr_read(b, lo, &l);
	if (!rc)
		rc = hpm_csr_read(b, hi, &h);
	if (!rc)
		*v = (uint64_t)h << 32 | l;
	return rc;
}

int hpm_topdown_read(hpm_board *b, hpm_topdown *t)
{
	static const struct { unsigned td; uint16_t lo, hi; } kept[] = {
		{ HPM_TD_SLOTS, CSR_SLOTS, CSR_SLOTSH },
		{ HPM_TD_RETIRING, CSR_MTDRETIRING, CSR_MTDRETIRINGH },
		{ HPM_TD_BAD_SPEC, CSR_MTDBADSPEC, CSR_MTDBADSPECH },
		{ HPM_TD_FE_BOUND, CSR_MTDFEBOUND, CSR_MTDFEBOUNDH },
		{ HPM_TD_BR_MISPREDICT, CSR_MTDBRMISS, CSR_MTDBRMISSH },
		{ HPM_TD_MEM_BOUND, CSR_MTDMEMBOUND, CSR_MTDMEMBOUNDH },
	};
	uint32_t of = 0;
	uint64_t *v = t->value;
	int levels;
	int rc = need_unit(b, &levels);
	size_t n = levels == 1 ? 4 : sizeof kept / sizeof kept[0];   /* level 1: SLOTS and kept[1..3] */
	memset(t, 0, sizeof *t);
	for (size_t i = 0; !rc && i < n; i++)
		rc = read64(b, kept[i].lo, kept[i].hi, &v[kept[i].td]);
	if (!rc && levels == 2)
		rc = hpm_csr_read(b, CSR_MTOPDOWN, &of);
	if (rc)
		return rc;
	t->levels = levels;
	uint64_t l1 = v[HPM_TD_RETIRING] + v[HPM_TD_BAD_SPEC] + v[HPM_TD_FE_BOUND];
	if (l1 > v[HPM_TD_SLOTS] || v[HPM_TD_BR_MISPREDICT] > v[HPM_TD_BAD_SPEC])
		return hpm_fail(b, HPM_E_PROTOCOL, "top-down unit: the counts exceed their parents (slots %llu, retiring + bad + frontend %llu); was slots written by hand?",
				(unsigned long long)v[HPM_TD_SLOTS], (unsigned long long)l1);
	v[HPM_TD_BE_BOUND] = v[HPM_TD_SLOTS] - l1;
	if (levels == 1)
		return HPM_OK;
	if (v[HPM_TD_MEM_BOUND] > v[HPM_TD_BE_BOUND])
		return hpm_fail(b, HPM_E_PROTOCOL, "top-down unit: memory bound %llu exceeds backend bound %llu",
				(unsigned long long)v[HPM_TD_MEM_BOUND], (unsigned long long)v[HPM_TD_BE_BOUND]);
	v[HPM_TD_MACHINE_CLEARS] = v[HPM_TD_BAD_SPEC] - v[HPM_TD_BR_MISPREDICT];
	v[HPM_TD_FETCH_LATENCY] = v[HPM_TD_FE_BOUND];
	v[HPM_TD_CORE_BOUND] = v[HPM_TD_BE_BOUND] - v[HPM_TD_MEM_BOUND];
	t->overflow = of & 1u;
	return HPM_OK;
}
