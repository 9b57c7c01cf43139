/* Sampling profiles (perf record -c): counters preloaded to overflow every
 * period events, one PROFILE frame per sample, and the exact counts of the
 * sampled counters recovered from the monitor's re-arming
 * (docs/protocol.md 6.7). The PROFILE frames arrive through run.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hpm_int.h"
#include "hpm_events.h"

struct prof {
	int event_of[HPM_NUM_VALUES];   /* counter -> position in l */
	hpm_prof_sample *at;            /* by record index, as received */
	uint8_t *have;
	size_t cap;
	uint32_t got;                   /* distinct samples received */
	uint32_t seen;                  /* samples received in the current run */
	int nomem, differs;
};

/* Keeps each sample by its record number: a repeat of the run (lossy link)
 * fills the numbers an earlier run lost, and must agree on the others. */
static int on_prof(void *ctx, const hpm_prof_sample *s)
{
	struct prof *pr = ctx;

	if (s->counter < 3 || pr->event_of[s->counter] < 0)
		return 0;               /* not a counter of this run: ignored */
	if (s->index >= pr->cap) {
		size_t cap = pr->cap ? pr->cap : 1024;
		while (cap <= s->index)
			cap *= 2;
		hpm_prof_sample *at = realloc(pr->at, cap * sizeof *at);
		if (at)
			pr->at = at;
		uint8_t *have = at ? realloc(pr->have, cap) : NULL;
		if (!have) {
			pr->nomem = 1;
			return 1;
		}
		memset(have + pr->cap, 0, cap - pr->cap);
		pr->have = have;
		pr->cap = cap;
	}
	pr->seen++;
	if (pr->have[s->index]) {
		const hpm_prof_sample *o = &pr->at[s->index];
		pr->differs |= o->pc != s->pc || o->mode != s->mode || o->counter != s->counter ||
			       o->time != s->time || o->nstack != s->nstack ||
			       memcmp(o->stack, s->stack, s->nstack * sizeof *s->stack);
		return 0;
	}
	pr->have[s->index] = 1;
	pr->at[s->index] = *s;
	pr->got++;
	return 0;
}

#define HPM_PROFILE_REPEATS 16   /* repeats of a run to recover lost samples */

int hpm_profile(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		const uint64_t *period, const hpm_run_opts *o, hpm_prof_cb cb,
		void *ctx, hpm_count *out, size_t cap, size_t *nout, hpm_run_result *res)
{
	static const hpm_run_opts defaults;
	size_t n = hpm_evlist_len(l);
	unsigned vidx[HPM_MAX_COUNTS], nsel = 0, nsampled = 0;
	uint64_t sel[HPM_NHPM], per[HPM_NHPM], samples[HPM_NUM_VALUES] = { 0 };
	struct prof pr = { .cap = 0 };
	hpm_run_opts ro = o ? *o : defaults;
	hpm_run_result r, again;
	unsigned width = b->info.hpm_width;
	char failure[sizeof b->err] = "";
	int rc;

	if (!n || n > HPM_MAX_COUNTS)
		return hpm_fail(b, HPM_E_ARG, "profile: 1 to %d events", HPM_MAX_COUNTS);
	if (hpm_check_out(b, n, cap))
		return HPM_E_ARG;
	for (unsigned k = 0; k < HPM_NUM_VALUES; k++)
		pr.event_of[k] = -1;
	for (size_t i = 0; i < n; i++) {
		const hpm_evspec *e = hpm_evlist_at(l, i);
		/* Linux refuses sampling on Ice Lake's slots and top-down metrics */
		if (period[i] && (e->topdown || (e->index >= HPM_EV_TOPDOWN_RETIRING &&
						  e->index <= HPM_EV_TOPDOWN_CORE_BOUND)))
			return hpm_fail(b, HPM_E_EVENT, "%s cannot be sampled: slots and the topdown-* events only count, as on Linux (use stat --topdown)",
					e->name);
		if (!period[i] && e->fixed >= 0) {
			vidx[i] = (unsigned)e->fixed;
			continue;
		}
		if (nsel == b->info.hpm_num)
			return hpm_fail(b, HPM_E_ARG,
					"profile: %zu events need programmable counters (a sampled event always does), the board has %u; sampling does not replay",
					n, b->info.hpm_num);
		sel[nsel] = e->selector;
		per[nsel] = period[i];
		vidx[i] = 3 + nsel;
		pr.event_of[3 + nsel] = (int)i;
		nsel++;
		nsampled += period[i] != 0;
	}
	if (!nsampled)
		return hpm_fail(b, HPM_E_ARG, "profile: no event has a sampling period");
	ro.period = per;
	ro.on_prof = on_prof;
	ro.ctx = &pr;
	ro.interval = 0;
	/* the run's records are its samples and its region markers; a run
	 * that lost some on the link is repeated (it is deterministic) until
	 * every sample number is in: never a short profile */
	uint32_t markers = 0;
	int stopped = 0;           /* hpm_interrupt aborted the run */
	for (unsigned rep = 0;; rep++) {
		hpm_run_result *cur = rep ? &again : &r;
		pr.seen = 0;
		if (rep)
			hpm_repeat_begin(b);   /* a repeat: time lost to the link */
		rc = hpm_run(b, p, &ro, sel, nsel, cur);
		if (rep)
			hpm_repeat_end(b);
		if (rc)
			goto out;
		if (pr.nomem) {
			rc = hpm_fail(b, HPM_E_NOMEM, "out of memory for the samples");
			goto out;
		}
		if (cur->reason == HPM_EXIT_REASON_ABORTED && b->interrupt) {
			/* the samples up to the abort; a repeat's, merged, are
			 * some of the first run's */
			stopped = 1;
			if (pr.differs)
				break;
			uint32_t got_now = cur->records - cur->lost_records;
			if (!rep && got_now - pr.seen > markers)
				markers = got_now - pr.seen;
			break;
		}
		/* a program that fails (exit code, trap) keeps its profile: the
		 * failure is returned after it; a stop at an explicit budget is
		 * a normal end */
		if (!rep && !(ro.budget && r.reason == HPM_EXIT_REASON_BUDGET) &&
		    (rc = hpm_check_exit(b, p, &r))) {
			if (rc != HPM_E_RUN || r.reason == HPM_EXIT_REASON_ABORTED)
				goto out;
			snprintf(failure, sizeof failure, "%s", b->err);
			rc = HPM_OK;
		}
		if (pr.differs || (rep && (again.snap.value[0] != r.snap.value[0] ||
					   again.snap.value[2] != r.snap.value[2] || again.records != r.records))) {
			rc = hpm_fail(b, HPM_E_MISMATCH, "%s: a repeat of the run differs from it: the workload is not deterministic",
				      p->name);
			goto out;
		}
		uint32_t got_now = cur->records - cur->lost_records;
		if (got_now - pr.seen > markers)
			markers = got_now - pr.seen;
		if (pr.got + markers >= r.records)
			break;
		if (b->interrupt) {
			stopped = 1;
			break;
		}
		if (!b->link || !b->link->baud || rep == HPM_PROFILE_REPEATS || b->interrupt ||
		    hpm_budget_spent(b)) {
			rc = hpm_fail(b, HPM_E_PROTOCOL, "%s: %u of %u samples lost on the link",
				      p->name, (unsigned)(r.records - pr.got - markers), (unsigned)r.records);
			goto out;
		}
		if (b->opts.trace)
			fprintf(stderr, "link-trace: %s: profile run repeated: %u of %u records lost\n",
				p->name, (unsigned)(r.records - pr.got - markers), (unsigned)r.records);
	}
	if (stopped && (pr.differs || pr.got + markers < r.records)) {
		/* a sampled count is corrected by its number of samples: every
		 * one must be in */
		b->interrupt = 0;
		rc = hpm_fail(b, HPM_E_INTERRUPTED, "%s: interrupted: %u of %u samples lost on the link, no profile",
			      p->name, (unsigned)(r.records - pr.got - markers), (unsigned)r.records);
		goto out;
	}
	for (size_t k = 0; k < pr.cap; k++) {
		if (!pr.have[k])
			continue;
		hpm_prof_sample s = pr.at[k];
		samples[s.counter]++;
		s.counter = (unsigned)pr.event_of[s.counter];
		if (cb && cb(ctx, &s)) {
			rc = hpm_fail(b, HPM_E_RUN, "%s: stopped by the sample callback", p->name);
			goto out;
		}
	}
	r.lost_records = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned k = vidx[i];
		uint64_t v = r.snap.value[k];
		if (k >= 3 && per[k - 3]) {
			/* preloaded with 2^W - P, P subtracted at each sample
			 * (docs/protocol.md 6.7): undo both */
			uint64_t lap = width >= 64 ? 0 : 1ull << width;
			v -= (samples[k] + 1) * (lap - per[k - 3]);
		}
		out[i] = (hpm_count){ hpm_evlist_at(l, i), v, r.snap.value[0], 0, 0 };
	}
	*nout = n;
	if (res)
		*res = r;
	if (stopped) {
		b->interrupt = 0;
		rc = hpm_fail(b, HPM_E_INTERRUPTED, "%s: interrupted: the run was stopped at %llu cycles",
			      p->name, (unsigned long long)r.snap.value[0]);
	} else if (failure[0]) {
		rc = hpm_fail(b, HPM_E_RUN, "%s", failure);
	}
out:
	free(pr.at);
	free(pr.have);
	return rc;
}
