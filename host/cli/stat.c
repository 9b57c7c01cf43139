/* hpmctl stat: count events on a workload like perf stat, in perf's human,
 * CSV (-x) and JSON (-j) formats. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hpmctl.h"

#define DEFAULT_EVENTS "cycles,instructions,loads,stores,jumps,branches,branch-misses," \
		       "fetch-stall-cycles,mem-stall-cycles,muldiv-stall-cycles"
#define MAX_REPEAT 1000
#define METRIC_LEN 38          /* perf's width of the "# metric" column */

/* The metric perf prints next to an event, when its base event was counted
 * too (HPM_METRIC in events.def; the top-down events: of all slots). */
struct metric_def {
	const char *event, *base, *unit;
	int pct;               /* printed as a percentage of base */
};
static const struct metric_def metric_defs[] = {
#define HPM_METRIC(event, base, unit, pct) { event, base, unit, pct },
#define HPM_TOPDOWN(event, parent, level, label, area) { event, "cycles", "of all slots", 1 },
#include "events.def"
};

/* The catalogue entry of a named event (NULL for raw selectors). */
static const hpm_event_desc *event_desc(const hpm_evspec *e)
{
	for (size_t i = 0; e->index && i < hpm_event_count(); i++)
		if (hpm_event_at(i)->index == e->index)
			return hpm_event_at(i);
	return NULL;
}

/* --topdown: the top-down group goes first (perf's order: slots, level 1,
 * then with --td-level 2 level 2), from the catalogue's hierarchy */
struct td_def {
	const char *event, *parent, *label;
	int level;
};
static const struct td_def td_defs[] = {
#define HPM_TOPDOWN(event, parent, level, label, area) { event, parent, label, level },
#include "events.def"
};
#define TD_DEFS (sizeof td_defs / sizeof td_defs[0])

/* "{slots,topdown-retiring,...}" up to level, then the other events (malloc'd) */
static char *td_events(int level, const char *others)
{
	size_t len = strlen(others) + 16;
	for (size_t k = 0; k < TD_DEFS; k++)
		len += strlen(td_defs[k].event) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "{slots");
	for (size_t k = 0; k < TD_DEFS; k++)
		if (td_defs[k].level <= level)
			strcat(strcat(s, ","), td_defs[k].event);
	strcat(s, "}");
	if (*others)
		strcat(strcat(s, ","), others);
	return s;
}

static const struct metric_def *metric_of(const hpm_evspec *e)
{
	const hpm_event_desc *d = event_desc(e);
	if (!d)
		return NULL;
	for (size_t i = 0; i < sizeof metric_defs / sizeof metric_defs[0]; i++)
		if (!strcmp(metric_defs[i].event, d->name))
			return &metric_defs[i];
	return NULL;
}

struct row {
	const hpm_evspec *ev;
	uint64_t value;        /* mean over the runs, exact when they agree */
	double noise;          /* relative standard deviation of the mean, % */
	const struct metric_def *m;
	double metric;
	int none;              /* not counted up to an interrupt: perf's <not counted> */
	const char *td_label;  /* --topdown: its area, and tenths of a percent of slots */
	unsigned tenths;
};

/* perf's software clocks, counted as board time (the board runs nothing
 * but the program, so task-clock and cpu-clock are its run time) */
#define MAX_CLOCKS 8

struct stat_out {
	FILE *f;               /* stderr (as perf), or -o FILE */
	const char *name;      /* the workload as given */
	enum hpm_privilege mode;
	unsigned repeat;
	const char *csv_sep;   /* -x */
	int json;              /* -j */
	uint64_t runtime_ns;   /* board time of one run (with -I: of the interval) */
	double seconds, seconds_sd;
	int interval;          /* -I: rows are intervals ending at board time `at` */
	uint64_t at_ns;
	const char *region;    /* --regions: the rows are this region's */
	uint64_t calls;
	int plain;             /* --no-big-num: counts without thousands separators */
	const char *clock[MAX_CLOCKS];   /* -e task-clock, cpu-clock: printed first */
	size_t nclocks;
	int clocks_only;       /* only clocks asked: the events counted are not shown */
	size_t ntd;            /* --topdown: rows of the top-down group, first (0: none) */
};

/* Takes perf's software clocks out of an -e list (outside groups):
 * returns the rest (malloc'd; "" if nothing is left), the clocks in o. */
static char *take_clocks(const char *spec, struct stat_out *o, int *err)
{
	char *rest = calloc(1, strlen(spec) + 1);
	size_t len = 0;
	*err = !rest;
	for (const char *q = spec; rest && *q; ) {
		size_t n = 0;
		if (*q == '{')
			n = strcspn(q, "}") + (q[strcspn(q, "}")] == '}');
		n += strcspn(q + n, ",");
		if ((n == 10 && !strncmp(q, "task-clock", n)) || (n == 9 && !strncmp(q, "cpu-clock", n))) {
			if (o->nclocks == MAX_CLOCKS) {
				*err = 2;
				break;
			}
			o->clock[o->nclocks++] = !strncmp(q, "task", 4) ? "task-clock" : "cpu-clock";
		} else {
			if (len)
				rest[len++] = ',';
			memcpy(rest + len, q, n);
			len += n;
		}
		q += n + (q[n] == ',');
	}
	if (*err) {
		free(rest);
		return NULL;
	}
	return rest;
}

/* --regions in -x and -j: the region and its calls lead each line */
static void print_region(const struct stat_out *o, const char *sep)
{
	if (!o->region)
		return;
	if (sep) {
		fprintf(o->f, "%s%s%llu%s", o->region, sep, (unsigned long long)o->calls, sep);
		return;
	}
	fprintf(o->f, "\"region\" : ");
	json_string(o->f, o->region);
	fprintf(o->f, ", \"calls\" : %llu, ", (unsigned long long)o->calls);
}

/* mean rounded to the nearest integer, without overflow */
static uint64_t mean_u64(const uint64_t *v, size_t n, size_t stride)
{
	uint64_t q = 0, r = 0;
	for (size_t i = 0; i < n; i++) {
		q += v[i * stride] / n;
		r += v[i * stride] % n;
	}
	q += r / n;
	return q + (2 * (r % n) >= n);
}

/* perf's rel_stddev_stats: 100 * stddev of the mean / mean */
static double noise_pct(const uint64_t *v, size_t n, size_t stride)
{
	double mean = 0, m2 = 0;
	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		mean += (double)v[i * stride] / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = (double)v[i * stride] - mean;
		m2 += d * d;
	}
	return mean ? 100.0 * sqrt(m2 / (double)(n - 1) / (double)n) / mean : 0;
}

static void set_topdown(struct row *rows, size_t ntd);

/* the metric of each row whose base event was counted too; with
 * --topdown (ntd rows of the group first) the top-down split */
static void set_metrics(struct row *rows, size_t n, size_t ntd)
{
	for (size_t i = 0; i < n; i++) {
		const struct metric_def *m = metric_of(rows[i].ev);
		const hpm_event_desc *base = m ? hpm_event_find(m->base) : NULL;
		rows[i].m = NULL;
		/* the base counted in the same modes (cycles:u for instructions:u) */
		for (size_t j = 0; base && j < n; j++)
			if (rows[j].ev->index == base->index &&
			    rows[j].ev->selector >> 60 == rows[i].ev->selector >> 60) {
				rows[i].m = m;
				rows[i].metric = rows[j].value ?
					(double)rows[i].value / (double)rows[j].value * (m->pct ? 100 : 1) : 0;
				break;
			}
	}
	if (ntd)
		set_topdown(rows, ntd);
}

/* --topdown: rows[1..ntd) are td_defs in order (rows[0] slots); each
 * level to exactly 100.0 as hpmctl topdown's, from the exact counts */
static void set_topdown(struct row *rows, size_t ntd)
{
	uint64_t w[TD_MAX_ITEMS] = { 0 };
	unsigned pct[TD_MAX_ITEMS], share[TD_MAX_ITEMS];
	size_t nl1 = 0, idx[TD_MAX_ITEMS];
	while (nl1 + 1 < ntd && td_defs[nl1].level == 1)
		nl1++;
	for (size_t k = 0; k < nl1; k++)
		w[k] = rows[1 + k].value;
	td_largest_remainder(w, nl1, 1000, pct);
	for (size_t k = 0; k < nl1; k++) {
		size_t m = 0;
		rows[1 + k].td_label = td_defs[k].label;
		rows[1 + k].tenths = pct[k];
		for (size_t j = nl1; j + 1 < ntd; j++)
			if (!strcmp(td_defs[j].parent, td_defs[k].event)) {
				idx[m] = j;
				w[m++] = rows[1 + j].value;
			}
		td_largest_remainder(w, m, pct[k], share);
		for (size_t c = 0; c < m; c++) {
			rows[1 + idx[c]].td_label = td_defs[idx[c]].label;
			rows[1 + idx[c]].tenths = share[c];
		}
	}
}

/* perf's interval time stamp, seconds since the start (padded in the
 * table), between before and after */
static void print_stamp(const struct stat_out *o, const char *before, const char *after)
{
	if (o->interval)
		fprintf(o->f, o->csv_sep || o->json ? "%s%llu.%09llu%s" : "%s%6llu.%09llu%s", before,
		       (unsigned long long)(o->at_ns / 1000000000u),
		       (unsigned long long)(o->at_ns % 1000000000u), after);
}

static void print_heading(const struct stat_out *o)
{
	fprintf(o->f, "\n Performance counter stats for '%s'", o->name);
	if (o->mode != HPM_MODE_USER && o->repeat > 1)
		fprintf(o->f, " (%s-mode, %u runs)", mode_name(o->mode), o->repeat);
	else if (o->mode != HPM_MODE_USER)
		fprintf(o->f, " (%s-mode)", mode_name(o->mode));
	else if (o->repeat > 1)
		fprintf(o->f, " (%u runs)", o->repeat);
	fprintf(o->f, ":\n\n");
}

static void print_human(const struct stat_out *o, const struct row *rows, size_t n)
{
	char num[32];
	for (size_t k = 0; k < o->nclocks; k++) {
		char line[256];
		print_stamp(o, "", " ");
		int len = snprintf(line, sizeof line, "%18.2f msec %-32s #    1.000 %-26s",
				   (double)o->runtime_ns / 1e6, o->clock[k], "CPUs utilized");
		if (o->repeat > 1)
			snprintf(line + len, sizeof line - (size_t)len, "  ( +-%6.2f%% )",
				 o->seconds ? 100.0 * o->seconds_sd / o->seconds : 0.0);
		size_t end = strlen(line);
		while (end && line[end - 1] == ' ')
			line[--end] = '\0';
		fprintf(o->f, "%s\n", line);
	}
	if (o->clocks_only)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		char line[256];
		print_stamp(o, "", " ");
		if (rows[i].none)
			snprintf(num, sizeof num, "<not counted>");
		else if (o->plain)
			snprintf(num, sizeof num, "%llu", (unsigned long long)rows[i].value);
		else
			fmt_count(rows[i].value, num);
		int len = snprintf(line, sizeof line, "%18s      %-32s", num, rows[i].ev->name);
		if (rows[i].td_label && !rows[i].none) {     /* perf's "%8.1f%%" */
			len += snprintf(line + len, sizeof line - (size_t)len, " # %6u.%u%% %-*s",
					rows[i].tenths / 10, rows[i].tenths % 10, METRIC_LEN - 3 - 9 - 1,
					rows[i].td_label);
		} else if (rows[i].m && !rows[i].none) {
			char val[32];
			int w = snprintf(val, sizeof val, rows[i].m->pct ? "%7.2f%%" : "%7.2f ", rows[i].metric);
			len += snprintf(line + len, sizeof line - (size_t)len, " # %s %-*s", val,
					METRIC_LEN - 3 - w - 1, rows[i].m->unit);
		} else if (o->repeat > 1) {
			len += snprintf(line + len, sizeof line - (size_t)len, "%-*s", METRIC_LEN, "");
		}
		if (o->repeat > 1)
			snprintf(line + len, sizeof line - (size_t)len, "  ( +-%6.2f%% )", rows[i].noise);
		size_t end = strlen(line);
		while (end && line[end - 1] == ' ')
			line[--end] = '\0';
		fprintf(o->f, "%s\n", line);
	}
	if (o->interval)
		return;
	if (o->repeat > 1)
		fprintf(o->f, "\n%18.9f +- %.9f seconds board time  ( +-%6.2f%% )\n\n", o->seconds, o->seconds_sd,
		       o->seconds ? 100.0 * o->seconds_sd / o->seconds : 0.0);
	else
		fprintf(o->f, "\n%18.9f seconds board time\n\n", o->seconds);
}

/* perf 6.1's -x order (tests/cli/perf-6.1-stat.txt): value, unit, event,
 * [variance], run time, % running, metric value, metric unit */
static void print_csv(const struct stat_out *o, const struct row *rows, size_t n)
{
	const char *s = o->csv_sep;
	for (size_t k = 0; k < o->nclocks; k++) {
		print_stamp(o, "", s);
		print_region(o, s);
		fprintf(o->f, "%.2f%smsec%s%s", (double)o->runtime_ns / 1e6, s, s, o->clock[k]);
		if (o->repeat > 1)
			fprintf(o->f, "%s%.2f%%", s, o->seconds ? 100.0 * o->seconds_sd / o->seconds : 0.0);
		fprintf(o->f, "%s%llu%s100.00%s1.000%sCPUs utilized\n", s, (unsigned long long)o->runtime_ns,
			s, s, s);
	}
	if (o->clocks_only)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		print_stamp(o, "", s);
		print_region(o, s);
		if (rows[i].none)
			fprintf(o->f, "<not counted>%s%s%s", s, s, rows[i].ev->name);
		else
			fprintf(o->f, "%llu%s%s%s", (unsigned long long)rows[i].value, s, s, rows[i].ev->name);
		if (o->repeat > 1)
			fprintf(o->f, "%s%.2f%%", s, rows[i].noise);
		fprintf(o->f, "%s%llu%s100.00", s, (unsigned long long)o->runtime_ns, s);
		if (rows[i].td_label && !rows[i].none)
			fprintf(o->f, "%s%u.%u%s%s\n", s, rows[i].tenths / 10, rows[i].tenths % 10, s,
				rows[i].td_label);
		else if (rows[i].m && !rows[i].none)
			fprintf(o->f, "%s%.2f%s%s\n", s, rows[i].metric, s, rows[i].m->unit);
		else
			fprintf(o->f, "%s%s\n", s, s);
	}
}

/* perf's -j: one object per line; "counter-value" is a string */
static void print_json(const struct stat_out *o, const struct row *rows, size_t n)
{
	for (size_t k = 0; k < o->nclocks; k++) {
		fprintf(o->f, "{");
		print_stamp(o, "\"interval\" : ", ", ");
		print_region(o, NULL);
		fprintf(o->f, "\"counter-value\" : \"%f\", \"unit\" : \"msec\", \"event\" : \"%s\"",
			(double)o->runtime_ns / 1e6, o->clock[k]);
		if (o->repeat > 1)
			fprintf(o->f, ", \"variance\" : %.2f", o->seconds ? 100.0 * o->seconds_sd / o->seconds : 0.0);
		fprintf(o->f, ", \"event-runtime\" : %llu, \"pcnt-running\" : 100.00, \"metric-value\" : %f, \"metric-unit\" : \"CPUs utilized\"}\n",
			(unsigned long long)o->runtime_ns, 1.0);
	}
	if (o->clocks_only)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		fprintf(o->f, "{");
		print_stamp(o, "\"interval\" : ", ", ");
		print_region(o, NULL);
		if (rows[i].none)
			fprintf(o->f, "\"counter-value\" : \"<not counted>\", \"unit\" : \"\", \"event\" : ");
		else
			fprintf(o->f, "\"counter-value\" : \"%llu\", \"unit\" : \"\", \"event\" : ",
				(unsigned long long)rows[i].value);
		json_string(o->f, rows[i].ev->name);
		if (o->repeat > 1)
			fprintf(o->f, ", \"variance\" : %.2f", rows[i].noise);
		fprintf(o->f, ", \"event-runtime\" : %llu, \"pcnt-running\" : 100.00",
		       (unsigned long long)o->runtime_ns);
		if (rows[i].td_label && !rows[i].none) {
			fprintf(o->f, ", \"metric-value\" : %f, \"metric-unit\" : ", rows[i].tenths / 10.0);
			json_string(o->f, rows[i].td_label);
		} else if (rows[i].m && !rows[i].none) {
			fprintf(o->f, ", \"metric-value\" : %f, \"metric-unit\" : ", rows[i].metric);
			json_string(o->f, rows[i].m->unit);
		}
		fprintf(o->f, "}\n");
	}
}

/* -I: prints each interval as it ends (deltas against the previous one) */
struct interval_print {
	struct stat_out *o;
	struct row *rows;
	size_t n;
	uint64_t *prev;           /* cumulative counts at the previous interval's end */
	uint64_t prev_cycles;
	uint32_t clock_hz, lost;
	struct progress *pg;
	int started;              /* the table's header is out */
	uint64_t printed, limit;  /* intervals printed; --interval-count (0: all) */
};

static int print_interval(void *ctx, const hpm_interval *iv)
{
	struct interval_print *ip = ctx;
	for (size_t i = 0; i < ip->n; i++) {
		ip->rows[i].value = iv->value[i] - ip->prev[i];
		ip->prev[i] = iv->value[i];
	}
	set_metrics(ip->rows, ip->n, ip->o->ntd);
	ip->o->runtime_ns = cycles_to_ns(iv->cycles - ip->prev_cycles, ip->clock_hz);
	ip->o->at_ns = cycles_to_ns(iv->cycles, ip->clock_hz);
	ip->prev_cycles = iv->cycles;
	ip->lost += iv->lost;
	progress_clear(ip->pg);
	if (!ip->started++ && !ip->o->json && !ip->o->csv_sep)
		fprintf(ip->o->f, "#           time             counts unit events\n");
	if (ip->o->json)
		print_json(ip->o, ip->rows, ip->n);
	else if (ip->o->csv_sep)
		print_csv(ip->o, ip->rows, ip->n);
	else
		print_human(ip->o, ip->rows, ip->n);
	fflush(ip->o->f);
	if (ferror(ip->o->f))
		return 1;
	return ++ip->printed == ip->limit;   /* --interval-count: stop the run */
}

static const char stat_help[] =
	"usage: hpmctl stat [-e EVENTS] [--topdown [--td-level 1|2]]\n"
	"                   [-r N | -I T [--interval-count N] | --regions] [-D MS]\n"
	"                   [-x SEP | -j] [-o FILE] [-B | --no-big-num] [-q] [--timeout MS]\n"
	"                   [--mode u|s|m] [--size N] [--budget N] <workload|file.elf> [-- ARGS]\n\n"
	"Counts events on one run of the workload (exact 64-bit counts) and prints\n"
	"them on stderr like perf stat. More events than counters are counted by replaying\n"
	"the workload (exact: the core is deterministic); pcnt-running is 100.00.\n"
	"A program built with hpm-cc gets ARGS as argv; its output appears as it\n"
	"runs, and its exit code is hpmctl's (its counts are printed either way).\n\n"
	"  -e, --event EVENTS       events: names or aliases (hpmctl list), raw\n"
	"                           selectors r<hex>, modifiers :u :k :m (modes\n"
	"                           counted), {a,b} groups; -e may be repeated;\n"
	"                           task-clock, cpu-clock: the board time in msec\n"
	"                           (default: " DEFAULT_EVENTS ")\n"
	"  -r, --repeat N           run N times, print the mean and ( +- spread )\n"
	"  -I, --interval-print T   print the counts of every T of board time: T in\n"
	"                           ms (perf), or Nms, Nus; each interval's sampling\n"
	"                           tick costs the workload 2 cycles (U, S) or 8 (M)\n"
	"  -x, --field-separator S  CSV in perf's column order, separated by S\n"
	"  -j, --json               one JSON object per event, perf's keys\n"
	"  -o, --output FILE        write the counts to FILE instead of stderr\n"
	"  -D, --delay MS           count from MS ms of board time on: the counts\n"
	"                           at MS (a run stopped there) are subtracted\n"
	"  --interval-count N       with -I: stop the run after N intervals\n"
	"  -B, --big-num            thousands separators in the table (default)\n"
	"  --no-big-num             none\n"
	"  -q, --quiet              no 'link auto' notice\n"
	"  --regions                also per region of the program (hpm_region.h):\n"
	"                           calls and counts between its BEGIN and END\n"
	"                           markers, which are included (docs/hpm.md);\n"
	"                           -x and -j lines start with region and calls\n"
	"  --topdown                top-down first: slots and topdown-retiring,\n"
	"                           -bad-spec, -fe-bound, -be-bound, each with its\n"
	"                           % of slots (exact counts): the board's top-down\n"
	"                           unit, beside any -e events, if it has one and\n"
	"                           without -I and --regions; else 4 (level 2: 9)\n"
	"                           programmable counters, in the same run\n"
	"  --td-level 1|2           with --topdown: 2 adds level 2 (br-mispredict,\n"
	"                           machine-clears, fetch-latency, mem-bound, core-bound)\n"
	"  --timeout MS             stop the run after MS ms of wall time and print\n"
	"                           the counts so far (exit 0), as perf\n"
	"Ctrl-C stops the run at its next tick and prints the counts so far.\n"
	RUN_OPTIONS_HELP;

/* The start-up line of a program built with hpm-cc (human output). */
static void print_startup(const struct stat_out *o, hpm_board *b, const hpm_program *p)
{
	uint64_t cycles, instret;
	char c[32], i[32];
	if (!hpm_program_takes_args(p) || hpm_startup_cost(b, p, &cycles, &instret) != HPM_OK)
		return;
	fprintf(o->f, "%18s      start-up cycles before main (crt0: .bss clear, constructors)\n"
		"%18s      start-up instructions before main, both counted above\n\n",
		fmt_count(cycles, c), fmt_count(instret, i));
}

/* Below the human table: the board's ticks in the counts, and a run
 * stopped by Ctrl-C or --timeout (on stderr for -x and -j). */
static void print_notes(const struct stat_out *o, const hpm_run_result *r, int st, unsigned timeout)
{
	char num[32];
	int human = !o->json && !o->csv_sep;
	if (human && r->ticks)
		fprintf(o->f, " The counts include %u ticks of the board, %s each (docs/protocol.md 6.3).\n\n",
			(unsigned)r->ticks, o->mode == HPM_MODE_MACHINE ? "10 cycles and 5 instructions" :
			"2 cycles and 1 interrupt");
	if (st != HPM_E_INTERRUPTED)
		return;
	if (timed_out && !interrupted)
		fprintf(human ? o->f : stderr, "%s stopped by --timeout %u: the run was stopped at %s cycles; the counts are up to there.\n%s",
			human ? " Partial:" : "hpmctl: stat: partial counts:", timeout,
			fmt_count(r->snap.value[0], num), human ? "\n" : "");
	else
		fprintf(human ? o->f : stderr, "%s interrupted: the run was stopped at %s cycles; the counts are up to there.\n%s",
			human ? " Partial:" : "hpmctl: stat: partial counts:",
			fmt_count(r->snap.value[0], num), human ? "\n" : "");
}

/* --topdown on counters (human output): which and why, in one line */
static void print_td_note(const struct stat_out *o, hpm_board *b, int on_unit, const char *why)
{
	int levels = 0;
	if (!o->ntd || on_unit || o->json || o->csv_sep)
		return;
	if (hpm_topdown_present(b, &levels) != HPM_OK || !levels)
		why = "the board has no top-down unit";
	else if (levels == 1 && !*why)
		why = "the board's top-down unit has level 1 only";
	fprintf(o->f, "%s Top-down on %zu programmable counters, slots = cycles: %s.\n\n", o->interval ? "\n" : "",
		o->ntd - 1, why);
}

/* --regions: the whole program, then each region, in the chosen format */
static int stat_regions(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
			const hpm_run_opts *ro, struct stat_out *o, struct row *rows, unsigned timeout)
{
	size_t n = hpm_evlist_len(l), nout = 0, nreg = 0;
	uint32_t hz = hpm_get_info(b)->clock_hz;
	hpm_count *counts = calloc(n, sizeof *counts);
	hpm_region *regs = calloc(HPM_MAX_REGIONS, sizeof *regs);
	hpm_run_result first;
	struct progress pg;
	int rc = EXIT_OK;

	if (!counts || !regs) {
		free(counts);
		free(regs);
		return fail("out of memory");
	}
	progress_begin(&pg, "stat --regions %s", o->name);
	int st = hpm_stat_regions(b, p, l, ro, counts, n, &nout, regs, HPM_MAX_REGIONS, &nreg, &first);
	progress_end(&pg);
	if (st != HPM_OK && !((st == HPM_E_RUN || st == HPM_E_INTERRUPTED) && nout)) {
		rc = fail("%s", hpm_errmsg(b));
		goto out;
	}
	for (size_t r = 0; r <= nreg; r++) {
		uint64_t cycles = r ? regs[r - 1].cycles : first.snap.value[0];
		for (size_t i = 0; i < n; i++) {
			rows[i].value = r ? regs[r - 1].value[i] : counts[i].value;
			rows[i].none = !r && !counts[i].cycles;
		}
		set_metrics(rows, n, o->ntd);
		o->runtime_ns = cycles_to_ns(cycles, hz);
		o->seconds = (double)cycles / hz;
		o->region = r ? regs[r - 1].name : NULL;
		o->calls = r ? regs[r - 1].calls : 1;
		if (o->json) {
			print_json(o, rows, n);
		} else if (o->csv_sep) {
			print_csv(o, rows, n);
		} else {
			if (r)
				fprintf(o->f, " Region '%s' (%llu call%s):\n\n", regs[r - 1].name,
					(unsigned long long)regs[r - 1].calls, regs[r - 1].calls == 1 ? "" : "s");
			else
				print_heading(o);
			print_human(o, rows, n);
			if (!r && st != HPM_E_INTERRUPTED)
				print_startup(o, b, p);
		}
		if (!r)
			print_notes(o, &first, st, timeout);
	}
	print_td_note(o, b, 0, "region markers carry no top-down unit counts");
	if (!o->json && !o->csv_sep && nreg)
		fprintf(o->f, " Each region includes its markers: %s per call (docs/hpm.md, Regions).\n\n",
			o->mode == HPM_MODE_MACHINE ? "14 cycles, 9 instructions" : "6 cycles, 4 instructions");
	if (!nreg && st != HPM_E_INTERRUPTED)
		fprintf(stderr, "hpmctl: stat: %s has no region markers (hpm_region.h)\n", o->name);
	if (st == HPM_E_RUN)
		rc = program_failed("stat", p, &first);
out:
	free(counts);
	free(regs);
	return rc;
}

/* --topdown: the top-down group before the other events, which must not
 * name its events again */
static int add_topdown(char **events, int level, struct stat_out *o)
{
	hpm_evlist *l = NULL;
	int rc;
	if (**events && (rc = parse_events(*events, &l)))
		return rc;
	for (size_t i = 0; l && i < hpm_evlist_len(l); i++) {
		const hpm_evspec *e = hpm_evlist_at(l, i);
		const hpm_event_desc *d = event_desc(e);
		if (!strncmp(e->name, "slots", 5) || (d && !strncmp(d->name, "topdown-", 8))) {
			hpm_evlist_free(l);
			return usage_error("stat", "--topdown counts slots and the topdown-* events itself: -e cannot name '%s' too",
					   e->name);
		}
	}
	hpm_evlist_free(l);
	char *all = td_events(level, *events);
	if (!all)
		return fail("out of memory");
	free(*events);
	*events = all;
	o->ntd = 1;
	for (size_t k = 0; k < TD_DEFS; k++)
		o->ntd += td_defs[k].level <= level;
	return EXIT_OK;
}

/* -D MS: the counts of the same run stopped by a budget at MS of board
 * time (the core is deterministic) are taken off the counts; a program
 * that ends before MS counts nothing. */
static int subtract_delay(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
			  const hpm_run_opts *ro, uint64_t delay_ms, hpm_count *counts, size_t n,
			  hpm_count *pre)
{
	hpm_run_opts before = *ro;
	size_t npre = 0;
	uint64_t d = interval_cycles(delay_ms, 1000, hpm_get_info(b)->clock_hz);
	before.budget = ro->budget && ro->budget < d ? ro->budget : d;
	before.on_output = NULL;         /* its output was the run's */
	int st = hpm_stat(b, p, l, &before, pre, n, &npre, NULL);
	if (st != HPM_OK && !(st == HPM_E_RUN && npre))
		return fail("stat: -D: %s", hpm_errmsg(b));
	for (size_t i = 0; i < n; i++) {
		counts[i].value -= pre[i].value < counts[i].value ? pre[i].value : counts[i].value;
		counts[i].cycles -= pre[i].cycles < counts[i].cycles ? pre[i].cycles : counts[i].cycles;
	}
	return EXIT_OK;
}

int cmd_stat(const struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "regions", no_argument, NULL, OPT_FIRST_FREE },
		{ "delay", required_argument, NULL, 'D' },
		{ "interval-count", required_argument, NULL, OPT_FIRST_FREE + 1 },
		{ "big-num", no_argument, NULL, 'B' },
		{ "no-big-num", no_argument, NULL, OPT_FIRST_FREE + 2 },
		{ "timeout", required_argument, NULL, OPT_FIRST_FREE + 3 },
		{ "topdown", no_argument, NULL, OPT_FIRST_FREE + 4 },
		{ "td-level", required_argument, NULL, OPT_FIRST_FREE + 5 },
		RUN_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct stat_out o = { .f = stderr, .repeat = 1 };
	struct cli cl = *c;
	int regions = 0;
	hpm_run_opts ro = { 0 };
	const char *interval = NULL, *outname = NULL;
	struct target t;
	char *events = NULL;
	hpm_evlist *l = NULL;
	hpm_program *p = NULL;
	hpm_board *b = NULL;
	hpm_count *counts = NULL;
	struct row *rows = NULL;
	uint64_t *vals = NULL;
	hpm_run_result first;
	struct progress pg = { 0 };
	uint64_t v, every = 0, delay_ms = 0, icount = 0;
	unsigned per_second = 0, timeout = 0;
	int opt, rc, topdown = 0, td_level = 0;
	char *hw_events = NULL;
	hpm_count *pre = NULL;

	const struct cmd_opts co = { "stat", stat_help, ":e:r:I:x:jo:qhD:B", longopts, &ro };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		switch (opt) {
		case 'e':
			if ((rc = add_events(&events, optarg)))
				goto out;
			break;
		case 'I': interval = optarg; break;
		case 'x': o.csv_sep = optarg; break;
		case 'j': o.json = 1; break;
		case 'o': outname = optarg; break;
		case 'q': cl.quiet = 1; break;
		case OPT_FIRST_FREE: regions = 1; break;
		case 'B': o.plain = 0; break;
		case OPT_FIRST_FREE + 2: o.plain = 1; break;
		case 'D':
			if (parse_u64(optarg, &delay_ms) || !delay_ms || delay_ms > 1000000000u) {
				rc = usage_error("stat", "-D '%s': expected milliseconds of board time, 1..1000000000", optarg);
				goto out;
			}
			break;
		case OPT_FIRST_FREE + 3:
			if (parse_u64(optarg, &v) || v < 10 || v > UINT32_MAX) {
				rc = usage_error("stat", "--timeout '%s': expected milliseconds, at least 10", optarg);
				goto out;
			}
			timeout = (unsigned)v;
			break;
		case OPT_FIRST_FREE + 4: topdown = 1; break;
		case OPT_FIRST_FREE + 5:
			if (strcmp(optarg, "1") && strcmp(optarg, "2")) {
				rc = usage_error("stat", "--td-level '%s': expected 1 or 2", optarg);
				goto out;
			}
			td_level = optarg[0] - '0';
			break;
		case OPT_FIRST_FREE + 1:
			if (parse_u64(optarg, &icount) || !icount) {
				rc = usage_error("stat", "--interval-count '%s': expected a number of intervals > 0", optarg);
				goto out;
			}
			break;
		case 'r':
			if (parse_u64(optarg, &v) || v < 1 || v > MAX_REPEAT) {
				rc = usage_error("stat", "-r '%s': expected 1..%d", optarg, MAX_REPEAT);
				goto out;
			}
			o.repeat = (unsigned)v;
			break;
		}
	}
	if (!opt || (rc = program_operand("stat", argc, argv, &t)))
		goto out;
	rc = EXIT_USAGE;
	if (o.csv_sep && o.json) {
		usage_error("stat", "-x and -j cannot be combined");
		goto out;
	}
	if (interval && interval_option("stat", interval, &every, &per_second))
		goto out;
	if (interval && o.repeat > 1) {
		usage_error("stat", "-I and -r cannot be combined");
		goto out;
	}
	if (timeout && (interval || o.repeat > 1)) {
		usage_error("stat", "--timeout cannot be combined with -I or -r");
		goto out;
	}
	if (regions && (interval || o.repeat > 1)) {
		usage_error("stat", "--regions cannot be combined with -I or -r");
		goto out;
	}
	if (icount && !interval) {
		usage_error("stat", "--interval-count needs -I");
		goto out;
	}
	if (delay_ms && (interval || regions)) {
		usage_error("stat", "-D cannot be combined with -I or --regions");
		goto out;
	}
	if (td_level && !topdown) {
		usage_error("stat", "--td-level needs --topdown");
		goto out;
	}
	int bad_clocks;
	if (!(hw_events = take_clocks(events ? events : topdown ? "" : DEFAULT_EVENTS, &o, &bad_clocks))) {
		rc = bad_clocks == 2 ? usage_error("stat", "at most %d task-clock and cpu-clock events", MAX_CLOCKS) :
			fail("out of memory");
		goto out;
	}
	if (topdown && (rc = add_topdown(&hw_events, td_level ? td_level : 1, &o)))
		goto out;
	o.clocks_only = !hw_events[0];   /* the run's time needs a count: cycles */
	/* everything that can be checked without the board first */
	if ((rc = parse_events(o.clocks_only ? "cycles" : hw_events, &l)) || (rc = load_program(t.name, &p)) ||
	    (rc = program_setup("stat", &t, p, &ro, &pg)))
		goto out;
	if (outname && !(o.f = fopen(outname, "w"))) {
		o.f = stderr;
		rc = fail("stat: cannot write %s: %s", outname, strerror(errno));
		goto out;
	}
	if ((rc = open_board(&cl, &b)))
		goto out;

	size_t n = hpm_evlist_len(l), nout = 0;
	uint32_t hz = hpm_get_info(b)->clock_hz;
	counts = calloc((size_t)o.repeat * n, sizeof *counts);
	rows = calloc(n, sizeof *rows);
	vals = calloc((size_t)o.repeat * (n + 1), sizeof *vals);
	pre = calloc(n, sizeof *pre);
	if (!counts || !rows || !vals || !pre) {
		rc = fail("out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		rows[i].ev = hpm_evlist_at(l, i);
	o.name = hpm_program_name(p);
	o.mode = ro.mode;
	catch_interrupt();
	interrupt_stops(b);
	if (timeout && (rc = stop_after_ms(timeout)))
		goto out;
	if (regions) {
		rc = stat_regions(b, p, l, &ro, &o, rows, timeout);
		goto out;
	}

	if (interval) {
		struct interval_print ip = { &o, rows, n, vals, 0, hz, 0, &pg, 0, 0, icount };
		ro.interval = interval_cycles(every, per_second, hz);
		o.interval = 1;
		progress_begin(&pg, "stat %s", t.name);
		/* Ctrl-C: the run is aborted at its next tick, after the
		 * intervals received so far are printed */
		int st = hpm_stat_interval(b, p, l, &ro, print_interval, &ip, counts, n, &nout, &first);
		progress_end(&pg);
		if (interrupted)
			rc = EXIT_FAIL;
		else if (icount && ip.printed == icount)
			rc = EXIT_OK;       /* perf's --interval-count: a normal end */
		else if (st == HPM_E_RUN && nout)
			rc = program_failed("stat", p, &first);
		else if (st != HPM_OK)
			rc = fail("%s", ferror(o.f) ? "stat: writing the output failed" : hpm_errmsg(b));
		else
			rc = EXIT_OK;
		if (!rc)
			print_td_note(&o, b, 0, "interval samples carry no top-down unit counts");
		if (!rc && ip.lost)
			fprintf(stderr, "hpmctl: stat: %u samples lost; their intervals are merged into the next (counts stay exact)\n",
				(unsigned)ip.lost);
		goto out;
	}

	/* Ctrl-C (--timeout) stops the run in progress: the runs done are
	 * printed, or if none, that run's counts up to the stop */
	unsigned done = 0;
	int st = HPM_OK;
	progress_begin(&pg, "stat %s", t.name);
	for (unsigned r = 0; r < o.repeat && st == HPM_OK && !interrupted; r++) {
		if (o.repeat > 1)
			progress_set(&pg, "stat %s: run %u of %u", t.name, r + 1, o.repeat);
		st = hpm_stat(b, p, l, &ro, counts + (size_t)r * n, n, &nout, r ? NULL : &first);
		if (delay_ms && (st == HPM_OK || (st == HPM_E_RUN && nout)) &&
		    (rc = subtract_delay(b, p, l, &ro, delay_ms, counts + (size_t)r * n, n, pre))) {
			progress_end(&pg);
			goto out;
		}
		done += st == HPM_OK || (st == HPM_E_RUN && nout);
	}
	progress_end(&pg);
	int partial = st == HPM_E_INTERRUPTED && !done && nout;
	if (!done && !partial) {
		rc = interrupted && st == HPM_E_INTERRUPTED ? EXIT_FAIL : fail("%s", hpm_errmsg(b));
		goto out;
	}
	if (st == HPM_E_INTERRUPTED && done)
		st = HPM_OK;          /* the runs done are complete */
	else if (st != HPM_OK && !(st == HPM_E_RUN && nout) && !partial)
		fail("%s", hpm_errmsg(b));
	o.repeat = done ? done : 1;
	for (size_t i = 0; i < n; i++)
		rows[i].none = partial && !counts[i].cycles;

	/* vals[r * (n+1) + i]: event i of run r; column n: that run's cycles */
	for (unsigned r = 0; r < o.repeat; r++) {
		for (size_t i = 0; i < n; i++)
			vals[r * (n + 1) + i] = counts[(size_t)r * n + i].value;
		vals[r * (n + 1) + n] = counts[(size_t)r * n].cycles;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i].value = mean_u64(vals + i, o.repeat, n + 1);
		rows[i].noise = noise_pct(vals + i, o.repeat, n + 1);
	}
	set_metrics(rows, n, o.ntd);
	uint64_t cycles = partial ? first.snap.value[0] : mean_u64(vals + n, o.repeat, n + 1);
	o.runtime_ns = cycles_to_ns(cycles, hz);
	o.seconds = (double)cycles / hz;
	o.seconds_sd = o.seconds * noise_pct(vals + n, o.repeat, n + 1) / 100;
	if (o.json) {
		print_json(&o, rows, n);
	} else if (o.csv_sep) {
		print_csv(&o, rows, n);
	} else {
		print_heading(&o);
		print_human(&o, rows, n);
		if (!partial)
			print_startup(&o, b, p);
	}
	print_notes(&o, &first, st, timeout);
	print_td_note(&o, b, counts[0].unit, "");
	if (st == HPM_E_RUN)
		rc = program_failed("stat", p, &first);
	else
		rc = st == HPM_OK || st == HPM_E_INTERRUPTED || interrupted ? EXIT_OK : EXIT_FAIL;
out:
	interrupt_stops(NULL);
	if (o.f != stderr && fclose(o.f) && rc == EXIT_OK)
		rc = fail("stat: writing %s failed", outname);
	free(pre);
	free(hw_events);
	free(vals);
	free(rows);
	free(counts);
	hpm_close(b);
	hpm_program_free(p);
	hpm_evlist_free(l);
	free(events);
	return finish_interrupt(rc);
}
