/* perf-stat style counting: events packed onto the board's counters, the
 * workload replayed once per pack (exact, the core is deterministic), and
 * the same measurement on the reference board for hpm_validate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hpm_int.h"

uint64_t hpm_extend(const hpm_info *in, uint64_t raw, uint32_t wraps)
{
	if (in->hpm_width >= 64)
		return raw;
	return ((uint64_t)wraps << in->hpm_width) + raw;
}

/* Why a run did not end with a clean exit, or HPM_OK. */
static int check_exit(hpm_board *b, const hpm_program *p, const hpm_run_result *r)
{
	switch (r->reason) {
	case HPM_EXIT_REASON_ECALL:
		if (r->code)
			return hpm_fail(b, HPM_E_RUN, "%s: the workload failed its self-check (exit code %u)",
					p->name, (unsigned)r->code);
		return HPM_OK;
	case HPM_EXIT_REASON_TOHOST:
		if (r->code != 1)
			return hpm_fail(b, HPM_E_RUN, "%s: the program failed (tohost = 0x%x)",
					p->name, (unsigned)r->code);
		return HPM_OK;
	case HPM_EXIT_REASON_TRAP:
		return hpm_fail(b, HPM_E_RUN, "%s: the workload trapped: mcause 0x%x at pc 0x%08x (mtval 0x%x)",
				p->name, (unsigned)r->mcause, (unsigned)r->mepc, (unsigned)r->mtval);
	case HPM_EXIT_REASON_BUDGET:
		return hpm_fail(b, HPM_E_RUN, "%s: still running after its budget of %llu cycles",
				p->name, (unsigned long long)r->elapsed);
	case HPM_EXIT_REASON_ABORTED:
		return hpm_fail(b, HPM_E_RUN, "%s: run aborted", p->name);
	}
	return hpm_fail(b, HPM_E_PROTOCOL, "%s: unknown exit reason %d", p->name, (int)r->reason);
}

int hpm_stat(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
	     const hpm_run_opts *o, hpm_count *out, size_t *nout, hpm_run_result *first)
{
	size_t n = hpm_evlist_len(l);
	unsigned run_of[HPM_MAX_COUNTS], slot_of[HPM_MAX_COUNTS];
	unsigned nruns = 0, used = 0;
	unsigned hpm_num = b->info.hpm_num;

	if (!n)
		return hpm_fail(b, HPM_E_ARG, "no events to count");
	/* pack: a group (or a lone event) goes whole into the current run if it
	 * fits, else into a new one */
	for (size_t i = 0; i < n; ) {
		size_t j = i;
		unsigned need = 0;
		const hpm_evspec *e = hpm_evlist_at(l, i);
		while (j < n && hpm_evlist_at(l, j)->group == e->group) {
			need += hpm_evlist_at(l, j)->fixed < 0;
			j++;
		}
		if (need > hpm_num)
			return hpm_fail(b, HPM_E_EVENT,
					"%s: %u programmable events in one group, but the board has %u counters",
					e->name, need, hpm_num);
		if (!nruns || used + need > hpm_num) {
			nruns++;
			used = 0;
		}
		for (; i < j; i++) {
			run_of[i] = nruns - 1;
			slot_of[i] = hpm_evlist_at(l, i)->fixed < 0 ? used++ : 0;
		}
	}

	uint64_t cycles0 = 0, instret0 = 0;
	for (unsigned run = 0; run < nruns; run++) {
		uint64_t sel[HPM_NHPM];
		unsigned nsel = 0;
		hpm_run_result r;
		for (size_t i = 0; i < n; i++)
			if (run_of[i] == run && hpm_evlist_at(l, i)->fixed < 0) {
				sel[slot_of[i]] = hpm_evlist_at(l, i)->selector;
				nsel = slot_of[i] + 1 > nsel ? slot_of[i] + 1 : nsel;
			}
		int rc = hpm_run(b, p, o, sel, nsel, &r);
		if (rc)
			return rc;
		if ((rc = check_exit(b, p, &r)))
			return rc;
		if (run == 0) {
			cycles0 = r.snap.value[0];
			instret0 = r.snap.value[2];
			if (first)
				*first = r;
		} else if (r.snap.value[0] != cycles0 || r.snap.value[2] != instret0) {
			return hpm_fail(b, HPM_E_MISMATCH,
					"%s: replay %u differs from the first run (cycles %llu vs %llu, instructions %llu vs %llu): the workload is not deterministic",
					p->name, run, (unsigned long long)r.snap.value[0],
					(unsigned long long)cycles0, (unsigned long long)r.snap.value[2],
					(unsigned long long)instret0);
		}
		for (size_t i = 0; i < n; i++) {
			const hpm_evspec *e = hpm_evlist_at(l, i);
			if (run_of[i] != run)
				continue;
			unsigned idx = e->fixed >= 0 ? (unsigned)e->fixed : 3 + slot_of[i];
			if (r.snap.untrusted >> idx & 1)
				return hpm_fail(b, HPM_E_RUN,
						"%s: counter %u is only %u bits wide and wrapped: its count cannot be trusted",
						e->name, idx, b->info.hpm_width);
			out[i] = (hpm_count){ e, r.snap.value[idx], r.snap.value[0], run };
		}
	}
	*nout = n;
	return HPM_OK;
}

int hpm_validate(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		 const hpm_run_opts *o, hpm_count *hw, hpm_count *ref, size_t *nout)
{
	hpm_open_opts ro = b->opts;
	hpm_board *rb;
	size_t nref;
	char err[512];

	int rc = hpm_stat(b, p, l, o, hw, nout, NULL);
	if (rc)
		return rc;
	ro.hpm_num = b->info.hpm_num;
	ro.hpm_width = b->info.hpm_width;
	ro.verbose = 0;
	rc = hpm_open(&rb, "ref", &ro, err, sizeof err);
	if (rc)
		return hpm_fail(b, rc, "reference: %s", err);
	rc = hpm_stat(rb, p, l, o, ref, &nref, NULL);
	if (rc) {
		hpm_fail(b, rc, "reference: %s", hpm_errmsg(rb));
		hpm_close(rb);
		return rc;
	}
	hpm_close(rb);
	for (size_t i = 0; i < *nout; i++)
		if (hw[i].value != ref[i].value)
			return hpm_fail(b, HPM_E_MISMATCH, "%s: %s: board %llu, reference %llu",
					p->name, hw[i].ev->name, (unsigned long long)hw[i].value,
					(unsigned long long)ref[i].value);
	return HPM_OK;
}
