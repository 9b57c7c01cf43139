/* perf-stat style counting: events packed onto the board's counters, the
 * workload replayed once per pack (exact, the core is deterministic), the
 * same with interval samples merged across the replays, and the same
 * measurement on the reference board for hpm_validate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hpm_int.h"

/* Why a run did not end with a clean exit, or HPM_OK. */
int hpm_check_exit(hpm_board *b, const hpm_program *p, const hpm_run_result *r)
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

/* Which replay run counts each event, and on which value[] index. */
struct plan {
	size_t n;                       /* events */
	unsigned nruns;
	unsigned run_of[HPM_MAX_COUNTS];
	unsigned vidx[HPM_MAX_COUNTS];  /* 0 mcycle, 2 minstret, 3.. counters */
	unsigned pos[HPM_MAX_COUNTS];   /* place of each event among its run's */
	unsigned nin[HPM_MAX_COUNTS];   /* events per run */
	int unit;                       /* run 0 reads the top-down unit: vidx
	                                   HPM_NUM_VALUES + enum hpm_td_value */
};

/* Why the top-down group cannot use the unit (hpm_stat_interval, regions,
 * level 2 on a board with level 1 only). */
enum td_use { TD_UNIT, TD_NO_INTERVAL, TD_NO_REGIONS, TD_LEVEL1 };

int hpm_check_out(hpm_board *b, size_t n, size_t cap)
{
	if (n > cap)
		return hpm_fail(b, HPM_E_ARG, "the output array holds %zu counts, the event list has %zu events",
				cap, n);
	return HPM_OK;
}

/* The top-down group (hpm_evlist_parse): on the unit in run 0 when the
 * board has it and use allows, else on counters in one run with every
 * other event: HPM_E_EVENT if they do not fit. */
static int plan_topdown(hpm_board *b, const hpm_evlist *l, enum td_use use, struct plan *pl)
{
	static const char *const why[] = {
		"the board has no top-down unit",
		"interval samples carry no top-down unit counts",
		"region markers carry no top-down unit counts",
		"the board's top-down unit has level 1 only",
	};
	size_t n = hpm_evlist_len(l);
	unsigned need = 0, td = 0;
	int levels = 0, rc;

	for (size_t i = 0; i < n; i++) {
		unsigned t = hpm_evlist_at(l, i)->topdown;
		need += hpm_evlist_at(l, i)->fixed < 0;
		td |= t == HPM_TD_NONE ? 0 : t > HPM_TD_BE_BOUND ? 2 : 1;
	}
	if (!td)
		return HPM_OK;
	if (use == TD_UNIT && (rc = hpm_topdown_present(b, &levels)))
		return rc;
	if (levels >= (td & 2 ? 2 : 1)) {
		pl->unit = 1;
		return HPM_OK;
	}
	if (levels)
		use = TD_LEVEL1;
	if (need > b->info.hpm_num)
		return hpm_fail(b, HPM_E_EVENT, "topdown: %s: its events take programmable counters, and with the other events the run needs %u of the board's %u (no replay: count fewer events)",
				why[use], need, b->info.hpm_num);
	return HPM_OK;
}

/* A group (or a lone event) goes whole into the current run if it fits,
 * else into a new one; the top-down group on the unit takes no counter and
 * goes into run 0. cap: the caller's output array. */
static int plan_runs(hpm_board *b, const hpm_evlist *l, size_t cap, enum td_use use, struct plan *pl)
{
	size_t n = hpm_evlist_len(l);
	unsigned used = 0, hpm_num = b->info.hpm_num;
	int rc;

	if (!n)
		return hpm_fail(b, HPM_E_ARG, "no events to count");
	if (n > HPM_MAX_COUNTS)
		return hpm_fail(b, HPM_E_ARG, "%zu events, at most %d", n, HPM_MAX_COUNTS);
	if (hpm_check_out(b, n, cap))
		return HPM_E_ARG;
	memset(pl, 0, sizeof *pl);
	pl->n = n;
	if ((rc = plan_topdown(b, l, use, pl)))
		return rc;
	for (size_t i = 0; i < n; ) {
		const hpm_evspec *t = hpm_evlist_at(l, i);
		if (pl->unit && t->topdown) {
			pl->nruns += !pl->nruns;
			pl->run_of[i] = 0;
			pl->vidx[i] = HPM_NUM_VALUES + t->topdown;
			pl->pos[i++] = pl->nin[0]++;
			continue;
		}
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
		if (!pl->nruns || used + need > hpm_num) {
			pl->nruns++;
			used = 0;
		}
		for (; i < j; i++) {
			const hpm_evspec *f = hpm_evlist_at(l, i);
			pl->run_of[i] = pl->nruns - 1;
			pl->vidx[i] = f->fixed >= 0 ? (unsigned)f->fixed : 3 + used++;
			pl->pos[i] = pl->nin[pl->nruns - 1]++;
		}
	}
	return HPM_OK;
}

/* Event i's count in its run's result: a counter, or the top-down unit. */
static uint64_t run_value(const struct plan *pl, size_t i, const hpm_run_result *r)
{
	unsigned idx = pl->vidx[i];
	return idx < HPM_NUM_VALUES ? r->snap.value[idx] : r->td.value[idx - HPM_NUM_VALUES];
}

/* Adjusts the options of replay run `run` before it starts. */
typedef void (*run_hook)(void *ctx, unsigned run, hpm_run_opts *o);
/* After replay run `run`: > 0 to run it again (samples were lost on the
 * link), 0 when complete, < 0 an error. */
typedef int (*run_check)(void *ctx, unsigned run, const hpm_run_result *r);

#define HPM_REFILL_RUNS 16  /* repeats of a run to recover lost samples */

/* hpm_interrupt: the request is consumed here. */
static int interrupted(hpm_board *b, const hpm_program *p)
{
	b->interrupt = 0;
	return hpm_fail(b, HPM_E_INTERRUPTED, "%s: interrupted", p->name);
}

/* Runs every pack of pl, checks that every replay took the same cycles and
 * instructions, and fills out[]. On a lossy link a pack whose run lost
 * frames is repeated while check asks for it, up to HPM_REFILL_RUNS times
 * and while the session's error budget lasts. With budget_ends a stop at an explicit
 * o->budget is a normal end (every replay stops at the same cycle). A run
 * aborted by hpm_interrupt returns HPM_E_INTERRUPTED with its result in
 * *stopped (if not NULL); an interrupt during the repeats of a pack ends
 * the repeats, and the measurement goes on to the next pack's start. */
static int count_runs(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		      const hpm_run_opts *o, const struct plan *pl, int budget_ends,
		      run_hook before, run_check check, void *ctx, hpm_count *out, size_t *nout,
		      hpm_run_result *first, hpm_run_result *stopped)
{
	static const hpm_run_opts defaults;
	uint64_t cycles0 = 0, instret0 = 0;
	uint32_t ticks0 = 0;
	char failure[sizeof b->err] = "";

	for (unsigned run = 0; run < pl->nruns; run++) {
		uint64_t sel[HPM_NHPM];
		unsigned nsel = 0;
		hpm_run_opts ro = o ? *o : defaults;
		hpm_run_result r;
		for (size_t i = 0; i < pl->n; i++)
			if (pl->run_of[i] == run && pl->vidx[i] >= 3 && pl->vidx[i] < HPM_NUM_VALUES) {
				sel[pl->vidx[i] - 3] = hpm_evlist_at(l, i)->selector;
				nsel = pl->vidx[i] - 2 > nsel ? pl->vidx[i] - 2 : nsel;
			}
		if (run)
			ro.on_output = NULL;   /* a replay prints the same again */
		ro.topdown = pl->unit && !run;
		if (before)
			before(ctx, run, &ro);
		if (b->interrupt)
			return interrupted(b, p);
		int rc = hpm_run(b, p, &ro, sel, nsel, &r);
		if (rc)
			return rc;
		if (r.reason == HPM_EXIT_REASON_ABORTED && b->interrupt) {
			/* the counts where the run stopped; the other packs'
			 * events were not counted up to there */
			for (size_t i = 0; i < pl->n; i++) {
				int here = pl->run_of[i] == run;
				out[i] = (hpm_count){ hpm_evlist_at(l, i), here ? run_value(pl, i, &r) : 0,
						      here ? r.snap.value[0] : 0, run, pl->vidx[i] >= HPM_NUM_VALUES };
			}
			*nout = pl->n;
			if (stopped)
				*stopped = r;
			b->interrupt = 0;
			return hpm_fail(b, HPM_E_INTERRUPTED, "%s: interrupted: the run was stopped at %llu cycles",
					p->name, (unsigned long long)r.snap.value[0]);
		}
		/* a program that fails the same way in every replay still has
		 * exact counts: they are filled, and the failure returned last */
		if (!(budget_ends && ro.budget && r.reason == HPM_EXIT_REASON_BUDGET) &&
		    (rc = hpm_check_exit(b, p, &r))) {
			if (r.reason == HPM_EXIT_REASON_ABORTED)
				return rc;
			if (run == 0)
				snprintf(failure, sizeof failure, "%s", b->err);
		}
		if (run == 0) {
			cycles0 = r.snap.value[0];
			instret0 = r.snap.value[2];
			ticks0 = r.ticks;
			if (first)
				*first = r;
		} else if (r.ticks != ticks0 && b->info.hpm_width < 64) {
			/* each wrap of a narrow counter is a tick that costs cycles */
			return hpm_fail(b, HPM_E_MISMATCH,
					"%s: replay %u had %u ticks, the first run %u: %u-bit counters wrapped at different times, so the replays differ; count fewer events at once or use a shorter run",
					p->name, run, (unsigned)r.ticks, (unsigned)ticks0, b->info.hpm_width);
		} else if (r.snap.value[0] != cycles0 || r.snap.value[2] != instret0) {
			return hpm_fail(b, HPM_E_MISMATCH,
					"%s: replay %u differs from the first run (cycles %llu vs %llu, instructions %llu vs %llu): the workload is not deterministic",
					p->name, run, (unsigned long long)r.snap.value[0],
					(unsigned long long)cycles0, (unsigned long long)r.snap.value[2],
					(unsigned long long)instret0);
		}
		/* a lossy link lost samples: the run is deterministic, so the
		 * same run again brings them (each must equal its first copy) */
		hpm_run_result r2 = r;
		for (unsigned rep = 0; check && b->link && b->link->baud; rep++) {
			int m = check(ctx, run, &r2);
			if (m < 0)
				return m;
			if (!m || rep == HPM_REFILL_RUNS || b->interrupt || hpm_budget_spent(b))
				break;
			ro.on_output = NULL;
			if (b->opts.trace)
				fprintf(stderr, "link-trace: %s: run %u repeated: %u samples, %u records lost\n",
					p->name, run, (unsigned)r2.lost_samples, (unsigned)r2.lost_records);
			hpm_repeat_begin(b);
			rc = hpm_run(b, p, &ro, sel, nsel, &r2);
			hpm_repeat_end(b);
			if (rc)
				return rc;
			if (r2.reason == HPM_EXIT_REASON_ABORTED && b->interrupt) {
				check(ctx, run, &r2);   /* keeps what the repeat brought */
				break;
			}
			if (r2.snap.value[0] != r.snap.value[0] || r2.snap.value[2] != r.snap.value[2])
				return hpm_fail(b, HPM_E_MISMATCH,
						"%s: a repeat of replay %u differs from it (cycles %llu vs %llu): the workload is not deterministic",
						p->name, run, (unsigned long long)r2.snap.value[0],
						(unsigned long long)r.snap.value[0]);
		}
		for (size_t i = 0; i < pl->n; i++) {
			const hpm_evspec *e = hpm_evlist_at(l, i);
			unsigned idx = pl->vidx[i];
			if (pl->run_of[i] != run)
				continue;
			if (idx < HPM_NUM_VALUES && r.snap.untrusted >> idx & 1)
				return hpm_fail(b, HPM_E_RUN,
						"%s: counter %u is only %u bits wide and wrapped: its count cannot be trusted",
						e->name, idx, b->info.hpm_width);
			out[i] = (hpm_count){ e, run_value(pl, i, &r), r.snap.value[0], run, idx >= HPM_NUM_VALUES };
		}
	}
	*nout = pl->n;
	if (failure[0])
		return hpm_fail(b, HPM_E_RUN, "%s", failure);
	return HPM_OK;
}

int hpm_stat(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
	     const hpm_run_opts *o, hpm_count *out, size_t cap, size_t *nout,
	     hpm_run_result *first)
{
	struct plan pl;
	int rc = plan_runs(b, l, cap, TD_UNIT, &pl);

	if (rc)
		return rc;
	*nout = 0;
	hpm_run_result stopped;
	rc = count_runs(b, p, l, o, &pl, 0, NULL, NULL, NULL, out, nout, first, &stopped);
	if (rc == HPM_E_INTERRUPTED && *nout && first)
		*first = stopped;
	return rc;
}

/* ---- intervals: the samples of every replay, merged by sample number ---- */

/* One replay's samples: per sample its number and w values: mcycle,
 * minstret, then the run's own events (plan.pos). */
struct samples {
	size_t len, cap, w;
	size_t sorted;               /* [0, sorted) sorted by complete_run; the
	                                rest arrived since, in increasing order */
	uint32_t *seq;
	uint64_t *v;
};

struct intervals {
	hpm_board *b;
	const struct plan *pl;
	hpm_interval_cb cb;
	void *ctx;
	unsigned run;                /* the run being sampled */
	struct samples *runs;        /* NULL: one run, delivered as it comes */
	uint64_t *cur;               /* n cumulative values being delivered */
	uint32_t next_seq;           /* sample number after the last delivered */
	uint32_t cursor;             /* sample numbers below it are delivered or merged */
	uint64_t last_cycles;
	int delivered, stopped, nomem, live_off;
};

static int deliver(struct intervals *iv, uint32_t seq, uint64_t cycles)
{
	hpm_interval out = { seq, seq - iv->next_seq, cycles, iv->cur };
	if (iv->stopped)          /* samples already on the way when it said stop */
		return 1;
	iv->next_seq = seq + 1;
	iv->last_cycles = cycles;
	iv->delivered = 1;
	if (iv->cb(iv->ctx, &out))
		iv->stopped = 1;
	return iv->stopped;
}

/* The row of sample number seq in r, or NULL. */
static const uint64_t *find_sample(const struct samples *r, uint32_t seq)
{
	size_t parts[2][2] = { { 0, r->sorted }, { r->sorted, r->len } };
	for (int k = 0; k < 2; k++) {
		size_t lo = parts[k][0], hi = parts[k][1];
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (r->seq[mid] < seq)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < parts[k][1] && r->seq[lo] == seq)
			return r->v + lo * r->w;
	}
	return NULL;
}

/* While the last pack runs: delivers, in order, each next sample number
 * that has arrived in it and is in every earlier replay (one lost there for
 * good is merged into the next). Stops at the first gap, which a repeat of
 * the run may fill; merge() delivers the rest at the end and reports a
 * replay that differs. */
static void deliver_live(struct intervals *iv)
{
	const struct plan *pl = iv->pl;
	unsigned last = pl->nruns - 1;
	const uint64_t *row[HPM_MAX_COUNTS];

	while (!iv->live_off && !iv->stopped) {
		uint32_t seq = iv->cursor;
		int everywhere = 1;
		if (!(row[last] = find_sample(&iv->runs[last], seq)))
			return;
		for (unsigned run = 0; run < last && everywhere; run++) {
			row[run] = find_sample(&iv->runs[run], seq);
			everywhere = row[run] != NULL;
			if (everywhere && (row[run][0] != row[last][0] || row[run][1] != row[last][1])) {
				iv->live_off = 1;
				return;
			}
		}
		iv->cursor = seq + 1;
		if (!everywhere)
			continue;
		for (size_t i = 0; i < pl->n; i++)
			iv->cur[i] = row[pl->run_of[i]][2 + pl->pos[i]];
		deliver(iv, seq, row[last][0]);
	}
}

static int keep_sample(void *ctx, const hpm_sample *s)
{
	struct intervals *iv = ctx;
	const struct plan *pl = iv->pl;

	if (!iv->runs) {                 /* one run: straight to the caller */
		for (size_t i = 0; i < pl->n; i++)
			iv->cur[i] = s->value[pl->vidx[i]];
		return deliver(iv, s->seq, s->value[0]);
	}
	struct samples *r = &iv->runs[iv->run];
	size_t w = r->w;
	if (r->len == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		uint32_t *seq = realloc(r->seq, cap * sizeof *seq);
		if (seq)
			r->seq = seq;
		uint64_t *v = seq ? realloc(r->v, cap * w * sizeof *v) : NULL;
		if (!v) {
			iv->nomem = 1;
			return 1;
		}
		r->v = v;
		r->cap = cap;
	}
	uint64_t *row = r->v + r->len * w;
	row[0] = s->value[0];
	row[1] = s->value[2];
	for (size_t i = 0; i < pl->n; i++)
		if (pl->run_of[i] == iv->run)
			row[2 + pl->pos[i]] = s->value[pl->vidx[i]];
	r->seq[r->len++] = s->seq;
	if (iv->run == pl->nruns - 1)
		deliver_live(iv);
	return iv->stopped;
}

static void sample_run(void *ctx, unsigned run, hpm_run_opts *o)
{
	struct intervals *iv = ctx;
	iv->run = run;
	o->on_sample = keep_sample;
	o->ctx = iv;
}

static int by_seq(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;     /* seq << 32 | position */
	return *x < *y ? -1 : *x > *y;
}

/* Sorts run's samples by number and drops repeated copies (each must equal
 * the first); returns how many of the run's r->samples are still missing,
 * or < 0 if a copy differs. */
static int complete_run(void *ctx, unsigned run, const hpm_run_result *r)
{
	struct intervals *iv = ctx;
	struct samples *sm = &iv->runs[run];
	size_t w = sm->w, kept = 0;
	uint64_t *key = malloc((sm->len + 1) * sizeof *key);
	uint32_t *seq = malloc((sm->len + 1) * sizeof *seq);
	uint64_t *v = malloc((sm->len + 1) * w * sizeof *v);

	if (!key || !seq || !v) {
		free(key), free(seq), free(v);
		return hpm_fail(iv->b, HPM_E_NOMEM, "out of memory for the samples");
	}
	for (size_t k = 0; k < sm->len; k++)
		key[k] = (uint64_t)sm->seq[k] << 32 | k;
	qsort(key, sm->len, sizeof *key, by_seq);
	for (size_t k = 0; k < sm->len; k++) {
		const uint64_t *row = sm->v + (key[k] & 0xffffffffu) * w;
		if (kept && seq[kept - 1] == key[k] >> 32) {
			if (memcmp(v + (kept - 1) * w, row, w * sizeof *v)) {
				unsigned bad = (unsigned)(key[k] >> 32);
				free(key), free(seq), free(v);
				return hpm_fail(iv->b, HPM_E_MISMATCH,
						"sample %u of a repeated run differs from its first copy: the workload is not deterministic",
						bad);
			}
			continue;
		}
		seq[kept] = (uint32_t)(key[k] >> 32);
		memcpy(v + kept * w, row, w * sizeof *v);
		kept++;
	}
	free(key);
	free(sm->seq);
	free(sm->v);
	sm->seq = seq;
	sm->v = v;
	sm->len = sm->cap = sm->sorted = kept;
	if (!kept) {                       /* keep_sample grows from cap */
		free(sm->seq), free(sm->v);
		sm->seq = NULL, sm->v = NULL;
	}
	return kept < r->samples ? (int)(r->samples - kept) : 0;
}

/* Delivers the sample numbers present in every replay, in order. Each must
 * have the same cycles and instructions in every replay. */
static int merge(struct intervals *iv, const hpm_program *p)
{
	const struct plan *pl = iv->pl;
	size_t at[HPM_MAX_COUNTS] = { 0 };
	const uint64_t *row[HPM_MAX_COUNTS];
	const struct samples *r0 = &iv->runs[0];

	for (size_t k = 0; k < r0->len && !iv->stopped; k++) {
		uint32_t seq = r0->seq[k];
		if (seq < iv->cursor)
			continue;              /* delivered while the run ran */
		const uint64_t *base = row[0] = r0->v + k * r0->w;
		int everywhere = 1;
		for (unsigned run = 1; run < pl->nruns && everywhere; run++) {
			const struct samples *r = &iv->runs[run];
			while (at[run] < r->len && r->seq[at[run]] < seq)
				at[run]++;
			everywhere = at[run] < r->len && r->seq[at[run]] == seq;
			row[run] = everywhere ? r->v + at[run] * r->w : NULL;
			if (everywhere && (row[run][0] != base[0] || row[run][1] != base[1]))
				return hpm_fail(iv->b, HPM_E_MISMATCH,
						"%s: sample %u of replay %u differs from the first run (cycles %llu vs %llu, instructions %llu vs %llu): the workload is not deterministic",
						p->name, (unsigned)seq, run,
						(unsigned long long)row[run][0], (unsigned long long)base[0],
						(unsigned long long)row[run][1], (unsigned long long)base[1]);
		}
		if (!everywhere)
			continue;              /* lost in some replay: merged into the next */
		for (size_t i = 0; i < pl->n; i++)
			iv->cur[i] = row[pl->run_of[i]][2 + pl->pos[i]];
		deliver(iv, seq, base[0]);
	}
	return HPM_OK;
}

int hpm_stat_interval(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		      const hpm_run_opts *o, hpm_interval_cb cb, void *ctx,
		      hpm_count *out, size_t cap, size_t *nout, hpm_run_result *first)
{
	struct plan pl;
	struct intervals iv = { .b = b, .pl = &pl, .cb = cb, .ctx = ctx };
	hpm_run_result r0;
	int rc;

	if (!o || !o->interval || !cb)
		return hpm_fail(b, HPM_E_ARG, "interval counting needs an interval and a callback");
	if ((rc = plan_runs(b, l, cap, TD_NO_INTERVAL, &pl)))
		return rc;
	iv.cur = calloc(pl.n, sizeof *iv.cur);
	/* replays, and a lossy link (lost samples are run again), need the
	 * samples kept and merged */
	int keep = pl.nruns > 1 || (b->link && b->link->baud);
	if (keep)
		iv.runs = calloc(pl.nruns, sizeof *iv.runs);
	for (unsigned run = 0; iv.runs && run < pl.nruns; run++)
		iv.runs[run].w = 2 + pl.nin[run];
	if (!iv.cur || (keep && !iv.runs)) {
		rc = hpm_fail(b, HPM_E_NOMEM, "out of memory");
		goto out;
	}
	/* a stop by the callback or a full memory aborts the run: that, not
	 * the aborted run, is the error */
	size_t counted = 0;
	char failure[sizeof b->err] = "";
	hpm_run_result stopped = { 0 };
	rc = count_runs(b, p, l, o, &pl, 1, sample_run, iv.runs ? complete_run : NULL, &iv,
			out, &counted, &r0, &stopped);
	if (rc == HPM_E_INTERRUPTED && stopped.reason == HPM_EXIT_REASON_ABORTED &&
	    iv.run == pl.nruns - 1) {
		/* aborted in the last pack: the intervals received so far, then
		 * (one pack) the counts where the run stopped */
		hpm_run_result none = { 0 };
		if (iv.runs && ((rc = complete_run(&iv, iv.run, &none)) < 0 || (rc = merge(&iv, p))))
			goto out;
		if (pl.nruns == 1 && (!iv.delivered || stopped.snap.value[0] > iv.last_cycles)) {
			for (size_t i = 0; i < pl.n; i++)
				iv.cur[i] = stopped.snap.value[pl.vidx[i]];
			deliver(&iv, stopped.samples, stopped.snap.value[0]);
		}
		rc = hpm_fail(b, HPM_E_INTERRUPTED, "%s: interrupted: the run was stopped at %llu cycles",
			      p->name, (unsigned long long)stopped.snap.value[0]);
		goto out;
	}
	if (rc == HPM_E_RUN && counted) {   /* a failing program: its intervals still count */
		snprintf(failure, sizeof failure, "%s", b->err);
		rc = HPM_OK;
	}
	if ((rc == HPM_E_LINK || rc == HPM_E_TIMEOUT || rc == HPM_E_RESET) && iv.runs &&
	    pl.nruns == 1 && iv.runs[0].len) {
		/* the board was lost mid-run: the intervals received so far */
		char why[sizeof b->err];
		hpm_run_result none = { 0 };
		snprintf(why, sizeof why, "%s", b->err);
		if (complete_run(&iv, 0, &none) >= 0 && merge(&iv, p) == HPM_OK) {
			const struct samples *sm = &iv.runs[0];
			uint32_t last = sm->seq[sm->len - 1];
			rc = hpm_fail(b, rc, "%s: the board was lost during the run; %zu samples (0..%u, %u missing) kept, the rest of the run is lost",
				      why, sm->len, (unsigned)last, (unsigned)(last + 1 - sm->len));
		}
		goto out;
	}
	if (!rc && iv.runs)
		rc = merge(&iv, p);
	/* the end of the run, unless it fell on the last sample */
	if (!rc && (!iv.delivered || iv.last_cycles != r0.snap.value[0])) {
		for (size_t i = 0; i < pl.n; i++)
			iv.cur[i] = out[i].value;
		deliver(&iv, r0.samples, r0.snap.value[0]);
	}
	if (iv.nomem)
		rc = hpm_fail(b, HPM_E_NOMEM, "out of memory for the samples");
	else if (iv.stopped)
		rc = hpm_fail(b, HPM_E_RUN, "%s: stopped by the interval callback", p->name);
	if (rc)
		goto out;
	*nout = pl.n;
	if (first)
		*first = r0;
	if (failure[0])
		rc = hpm_fail(b, HPM_E_RUN, "%s", failure);
out:
	for (unsigned run = 0; iv.runs && run < pl.nruns; run++) {
		free(iv.runs[run].seq);
		free(iv.runs[run].v);
	}
	free(iv.runs);
	free(iv.cur);
	return rc;
}

int hpm_validate(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		 const hpm_run_opts *o, hpm_count *hw, hpm_count *ref, size_t cap, size_t *nout)
{
	return hpm_validate_run(b, p, l, o, hw, ref, cap, nout, NULL);
}

int hpm_validate_run(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		     const hpm_run_opts *o, hpm_count *hw, hpm_count *ref, size_t cap,
		     size_t *nout, hpm_run_result *r)
{
	static const hpm_run_opts defaults;
	hpm_run_opts quiet = o ? *o : defaults;
	hpm_open_opts ro = b->opts;
	hpm_run_result br, rr;
	hpm_board *rb;
	size_t nref = 0;
	char err[512], failure[sizeof b->err] = "";

	int rc = hpm_stat(b, p, l, o, hw, cap, nout, &br);
	if (rc == HPM_E_RUN && *nout)   /* a failing program: compared all the same */
		snprintf(failure, sizeof failure, "%s", b->err);
	else if (rc)
		return rc;
	ro.hpm_num = b->info.hpm_num;
	ro.hpm_width = b->info.hpm_width;
	ro.verbose = 0;
	if ((rc = hpm_td_board_present(b, &ro.td_board)))
		return rc;
	rc = hpm_open(&rb, "ref", &ro, err, sizeof err);
	if (rc)
		return hpm_fail(b, rc, "reference: %s", err);
	quiet.on_output = NULL;         /* the program's output is the board's */
	b->also = rb;           /* hpm_interrupt(b) stops the reference's run too */
	if (b->interrupt)
		hpm_interrupt(rb);
	rc = hpm_stat(rb, p, l, &quiet, ref, cap, &nref, &rr);
	b->also = NULL;
	if (rc == HPM_E_INTERRUPTED)
		b->interrupt = 0;
	if (rc && !(rc == HPM_E_RUN && nref == *nout)) {
		hpm_fail(b, rc, "reference: %s", hpm_errmsg(rb));
		hpm_close(rb);
		return rc;
	}
	hpm_close(rb);
	if ((rc == HPM_E_RUN) != (failure[0] != 0) || rr.reason != br.reason || rr.code != br.code ||
	    (br.reason == HPM_EXIT_REASON_TRAP && (rr.mcause != br.mcause || rr.mepc != br.mepc ||
						   rr.mtval != br.mtval)))
		return hpm_fail(b, HPM_E_MISMATCH, "%s: the run ended otherwise on the board (reason %d, code %u, mcause 0x%x) than on the reference (reason %d, code %u, mcause 0x%x)",
				p->name, (int)br.reason, (unsigned)br.code, (unsigned)br.mcause,
				(int)rr.reason, (unsigned)rr.code, (unsigned)rr.mcause);
	if (r)
		*r = br;
	for (size_t i = 0; i < *nout; i++)
		if (hw[i].value != ref[i].value)
			return hpm_fail(b, HPM_E_MISMATCH, "%s: %s: board %llu, reference %llu",
					p->name, hw[i].ev->name, (unsigned long long)hw[i].value,
					(unsigned long long)ref[i].value);
	return failure[0] ? hpm_fail(b, HPM_E_RUN, "%s", failure) : HPM_OK;
}

/* ---- regions: per-run accounting of the marker frames, merged ---- */

struct region_acc {
	char name[HPM_REGION_NAME];
	uint64_t calls;
	unsigned depth;
	uint64_t begin[HPM_NUM_VALUES], sum[HPM_NUM_VALUES];
};

struct regions {
	hpm_board *b;
	const hpm_program *p;
	unsigned run;
	size_t max;
	size_t *n;                    /* per run: regions seen */
	struct region_acc *acc;       /* per run: max entries */
	uint32_t lost, lost_left;     /* markers the last run lost on the link; left lost in earlier packs */
	/* lossy links: the pack's markers, kept by mcycle (strictly increasing
	 * along a run), so that repeats of the run fill in the lost ones */
	int lossy;
	hpm_region_mark *mark;
	size_t nmark, capmark;
	char err[300];
};

static int region_fail(struct regions *rg, const char *fmt, const char *name)
{
	if (!rg->err[0])
		snprintf(rg->err, sizeof rg->err, fmt, name);
	return 1;
}

/* Accounts one marker of the current pack, in the run's order. */
static int account_region(struct regions *rg, const hpm_region_mark *m)
{
	struct region_acc *acc = rg->acc + (size_t)rg->run * rg->max;
	size_t *n = &rg->n[rg->run], i;
	char name[HPM_REGION_NAME];

	if (hpm_program_string(rg->p, m->marker & ~1u, name, sizeof name))
		return region_fail(rg, "a region marker's a0 is not the address of a string in the %s", "program");
	for (i = 0; i < *n && strcmp(acc[i].name, name); i++)
		;
	if (i == *n) {
		if (*n == rg->max) {
			char max[32];
			snprintf(max, sizeof max, "%zu", rg->max);
			return region_fail(rg, "more than %s regions", max);
		}
		memset(&acc[i], 0, sizeof acc[i]);
		snprintf(acc[i].name, sizeof acc[i].name, "%s", name);
		(*n)++;
	}
	struct region_acc *a = &acc[i];
	if (!(m->marker & 1u)) {
		if (!a->depth++)
			memcpy(a->begin, m->value, sizeof a->begin);
		return 0;
	}
	if (!a->depth)
		return region_fail(rg, "region '%s' ends without a BEGIN", a->name);
	if (--a->depth)
		return 0;
	for (unsigned k = 0; k < HPM_NUM_VALUES; k++)
		if (m->mask >> k & 1)
			a->sum[k] += m->value[k] - a->begin[k];
	a->calls++;
	return 0;
}

/* Keeps a marker by its mcycle; a copy from a repeat must be equal. */
static int keep_region(struct regions *rg, const hpm_region_mark *m)
{
	size_t lo = 0, hi = rg->nmark;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rg->mark[mid].value[0] < m->value[0])
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < rg->nmark && rg->mark[lo].value[0] == m->value[0]) {
		if (memcmp(&rg->mark[lo], m, sizeof *m))
			return region_fail(rg, "a repeat of the run differs at a region marker: the %s is not deterministic",
					   "workload");
		return 0;
	}
	if (rg->nmark == rg->capmark) {
		size_t cap = rg->capmark ? 2 * rg->capmark : 64;
		hpm_region_mark *nm = realloc(rg->mark, cap * sizeof *nm);
		if (!nm)
			return region_fail(rg, "out of %s for the region markers", "memory");
		rg->mark = nm;
		rg->capmark = cap;
	}
	memmove(rg->mark + lo + 1, rg->mark + lo, (rg->nmark - lo) * sizeof *rg->mark);
	rg->mark[lo] = *m;
	rg->nmark++;
	return 0;
}

static int on_region(void *ctx, const hpm_region_mark *m)
{
	struct regions *rg = ctx;
	return rg->lossy ? keep_region(rg, m) : account_region(rg, m);
}

static void region_run(void *ctx, unsigned run, hpm_run_opts *o)
{
	struct regions *rg = ctx;
	rg->run = run;
	rg->lost_left += rg->lost;    /* the previous pack's, after its repeats */
	rg->lost = 0;
	rg->nmark = 0;
	o->on_region = on_region;
	o->ctx = rg;
}

/* After each run of a pack (lossy links): REGION frames carry no number,
 * but each has its own mcycle, so the markers of the run and its repeats
 * are merged by it; once all the run took are in, they are accounted in
 * order. > 0 asks for a repeat. */
static int region_check(void *ctx, unsigned run, const hpm_run_result *r)
{
	struct regions *rg = ctx;
	(void)run;
	if (rg->nmark > r->records)
		return hpm_fail(rg->b, HPM_E_PROTOCOL, "run: %zu region markers for %u records",
				rg->nmark, (unsigned)r->records);
	rg->lost = (uint32_t)(r->records - rg->nmark);
	if (rg->lost)
		return 1;
	for (size_t k = 0; k < rg->nmark && !account_region(rg, &rg->mark[k]); k++)
		;
	return 0;
}

int hpm_stat_regions(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		     const hpm_run_opts *o, hpm_count *out, size_t cap, size_t *nout,
		     hpm_region *regions, size_t maxregions, size_t *nregions,
		     hpm_run_result *first)
{
	struct plan pl;
	struct regions rg = { .b = b, .p = p };
	hpm_run_result r0;
	int rc = plan_runs(b, l, cap, TD_NO_REGIONS, &pl);

	*nout = *nregions = 0;
	if (rc)
		return rc;
	if (b->info.fw_version < HPM_FW_SAMPLING)
		return hpm_fail(b, HPM_E_CONFIG, "the board's monitor (firmware %u.%u) has no region markers: it needs firmware 1.1 (make prog)",
				b->info.fw_version >> 8, b->info.fw_version & 0xff);
	rg.max = maxregions < HPM_MAX_REGIONS ? maxregions : HPM_MAX_REGIONS;
	rg.n = calloc(pl.nruns, sizeof *rg.n);
	rg.acc = calloc((size_t)pl.nruns * (rg.max ? rg.max : 1), sizeof *rg.acc);
	if (!rg.n || !rg.acc) {
		rc = hpm_fail(b, HPM_E_NOMEM, "out of memory");
		goto out;
	}
	size_t counted = 0;
	char failure[sizeof b->err] = "";
	rg.lossy = b->link && b->link->baud;
	hpm_run_result stopped;
	rc = count_runs(b, p, l, o, &pl, 0, region_run, region_check, &rg, out, &counted, &r0, &stopped);
	if (rc == HPM_E_INTERRUPTED) {
		/* the whole program's counts where it stopped; no region */
		*nout = counted;
		if (counted && first)
			*first = stopped;
		goto out;
	}
	if ((!rc || (rc == HPM_E_RUN && counted)) && rg.lost + rg.lost_left) {
		rc = hpm_fail(b, HPM_E_PROTOCOL, "%s: %u region markers still lost on the link after %d repeats of the run",
			      p->name, (unsigned)(rg.lost + rg.lost_left), HPM_REFILL_RUNS);
		goto out;
	}
	if (rc == HPM_E_RUN && counted && !rg.err[0]) {
		/* a failing program: the regions it closed still count */
		snprintf(failure, sizeof failure, "%s", b->err);
		rc = HPM_OK;
	}
	for (unsigned run = 0; !rc && !failure[0] && !rg.err[0] && run < pl.nruns; run++)
		for (size_t i = 0; i < rg.n[run]; i++)
			if (rg.acc[(size_t)run * rg.max + i].depth)
				region_fail(&rg, "region '%s' is still open when the program ends",
					    rg.acc[(size_t)run * rg.max + i].name);
	if (rg.err[0]) {
		rc = hpm_fail(b, HPM_E_RUN, "%s: %s", p->name, rg.err);
		goto out;
	}
	if (rc)
		goto out;
	for (size_t i = 0; i < rg.n[0]; i++) {
		const struct region_acc *a0 = &rg.acc[i];
		hpm_region *g = &regions[i];
		memset(g, 0, sizeof *g);
		snprintf(g->name, sizeof g->name, "%s", a0->name);
		g->calls = a0->calls;
		g->cycles = a0->sum[0];
		for (unsigned run = 1; run < pl.nruns; run++) {
			const struct region_acc *a = rg.acc + (size_t)run * rg.max;
			size_t j;
			for (j = 0; j < rg.n[run] && strcmp(a[j].name, a0->name); j++)
				;
			if (j == rg.n[run] || a[j].calls != a0->calls || a[j].sum[0] != a0->sum[0] ||
			    a[j].sum[2] != a0->sum[2]) {
				rc = hpm_fail(b, HPM_E_MISMATCH,
					      "%s: region '%s' differs between replay %u and the first run: the workload is not deterministic",
					      p->name, a0->name, run);
				goto out;
			}
		}
	}
	/* each replay's regions are found by name: map positions of run 0 */
	for (size_t i = 0; i < rg.n[0]; i++)
		for (size_t e = 0; e < pl.n; e++) {
			unsigned run = pl.run_of[e];
			const struct region_acc *a = rg.acc + (size_t)run * rg.max;
			for (size_t j = 0; j < rg.n[run]; j++)
				if (!strcmp(a[j].name, regions[i].name))
					regions[i].value[e] = a[j].sum[pl.vidx[e]];
		}
	*nregions = rg.n[0];
	*nout = pl.n;
	if (first)
		*first = r0;
	if (failure[0])
		rc = hpm_fail(b, HPM_E_RUN, "%s", failure);
out:
	free(rg.n);
	free(rg.acc);
	free(rg.mark);
	return rc;
}
