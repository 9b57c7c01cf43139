/* hpmctl record: interval streaming. The counters are sampled every N
 * cycles (hpm_stat_interval: with more events than counters the replays'
 * samples are merged, exactly), each interval written as CSV or JSON lines
 * (per-interval delta and cumulative count), and optionally an SVG chart of
 * events per cycle over time. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hpmctl.h"
#include "plot.h"

struct recorder {
	FILE *out;
	const char *outname;               /* .json: created at its first row */
	int json;
	const hpm_evlist *l;
	size_t n;                          /* events */
	uint64_t prev[HPM_MAX_COUNTS];     /* cumulative values of the last row */
	uint64_t prev_cycles;
	uint32_t rows, clock_hz;
	uint32_t lost, first_gap;          /* lost samples, seq after the first gap */
	const char *failure;               /* why emit() stopped the run */
	struct progress *pg;
	/* kept for --plot: per row the end cycle and each event per cycle */
	int keep;
	double *x, *y;
	size_t cap;
};

/* The rows' file: a CSV gets its header at once; rows are written an
 * interval at a time (the buffer holds the longest). */
static FILE *open_rows(const char *name, int json)
{
	FILE *f = fopen(name, "w");
	if (!f || setvbuf(f, NULL, _IOFBF, 1 << 16))
		return f;
	if (!json)
		fprintf(f, "interval,counter-value,unit,event,event-runtime,pcnt-running,sample,cycles,cumulative\n");
	if (fflush(f)) {
		fclose(f);
		return NULL;
	}
	return f;
}

/* The chart, written whole under another name and renamed, with a second
 * Ctrl-C held off meanwhile: never an empty or torn file. 0 or -1. */
static int write_plot(const char *name, const struct plot *pl)
{
	char tmp[4200];
	if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", name, (long)getpid()) >= (int)sizeof tmp)
		return -1;
	hold_interrupts(1);
	FILE *f = fopen(tmp, "w");
	int bad = !f || plot_svg(f, pl);
	if (f)
		bad |= fclose(f) != 0;
	if (bad || rename(tmp, name)) {
		unlink(tmp);
		bad = 1;
	}
	hold_interrupts(0);
	return bad ? -1 : 0;
}

/* One row per event for the interval ending at `cycles`; value[i] is event
 * i's cumulative count. */
static int emit(struct recorder *r, uint32_t seq, uint64_t cycles, const uint64_t *value)
{
	if (!r->out && !(r->out = open_rows(r->outname, r->json))) {
		r->failure = "cannot write the output";
		return 1;
	}
	uint64_t dc = cycles - r->prev_cycles;
	uint64_t ns = cycles_to_ns(dc, r->clock_hz);
	/* the row's board time, truncated to the ns as stat -I prints it */
	uint64_t at = cycles_to_ns(cycles, r->clock_hz);
	unsigned long long sec = at / 1000000000u, nsec = at % 1000000000u;

	if (r->keep) {
		if (r->rows == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 256;
			double *x = realloc(r->x, cap * sizeof *x);
			if (x)
				r->x = x;
			double *y = x ? realloc(r->y, cap * r->n * sizeof *y) : NULL;
			if (!y) {
				r->failure = "out of memory";
				return 1;
			}
			r->y = y;
			r->cap = cap;
		}
		r->x[r->rows] = (double)cycles;
	}
	for (size_t i = 0; i < r->n; i++) {
		uint64_t d = value[i] - r->prev[i];
		const char *name = hpm_evlist_at(r->l, i)->name;
		if (r->keep)
			r->y[r->rows * r->n + i] = dc ? (double)d / (double)dc : 0;
		if (r->json) {
			fprintf(r->out, "{\"interval\" : %llu.%09llu, \"counter-value\" : \"%llu\", \"unit\" : \"\", \"event\" : ",
				sec, nsec, (unsigned long long)d);
			json_string(r->out, name);
			fprintf(r->out, ", \"event-runtime\" : %llu, \"pcnt-running\" : 100.00, \"sample\" : %u, "
				"\"cycles\" : \"%llu\", \"cumulative\" : \"%llu\"}\n", (unsigned long long)ns,
				(unsigned)seq, (unsigned long long)cycles, (unsigned long long)value[i]);
		} else {
			fprintf(r->out, "%llu.%09llu,%llu,,%s,%llu,100.00,%u,%llu,%llu\n", sec, nsec, (unsigned long long)d, name,
				(unsigned long long)ns, (unsigned)seq, (unsigned long long)cycles,
				(unsigned long long)value[i]);
		}
	}
	memcpy(r->prev, value, r->n * sizeof *value);
	r->prev_cycles = cycles;
	r->rows++;
	/* each interval's rows in one write: tail -f sees them as they come,
	 * and a kill never leaves a torn row */
	if (fflush(r->out) || ferror(r->out)) {
		r->failure = "writing the output failed";
		return 1;
	}
	return 0;
}

static int on_interval(void *ctx, const hpm_interval *iv)
{
	struct recorder *r = ctx;
	if (iv->lost && !r->lost)
		r->first_gap = iv->seq;
	r->lost += iv->lost;
	progress_set(r->pg, "record: sample %u at %llu cycles", (unsigned)iv->seq,
		     (unsigned long long)iv->cycles);
	return emit(r, iv->seq, iv->cycles, iv->value);
}

static const char record_help[] =
	"usage: hpmctl record -I T -o FILE.csv|FILE.json [-e EVENTS] [--plot FILE.svg]\n"
	"                     [--mode u|s|m] [--size N] [--budget N] <workload|file.elf> [-- ARGS]\n\n"
	"Runs the workload and samples the counters every T of board time: T in\n"
	"ms (as perf and stat -I), or Nms, Nus, Ncycles. Each sample gives one\n"
	"line per event: the count in that\n"
	"interval (counter-value) and since the start of the run (cumulative); the\n"
	"last line per event is the end of the run. Lost samples are reported on\n"
	"stderr (the cumulative counts stay exact). More events than counters: the\n"
	"workload is replayed and the samples merged (exact, the core is\n"
	"deterministic). A stop at an explicit --budget is a normal end. Ctrl-C\n"
	"stops the run on the board at its next tick; the rows so far are kept.\n"
	"A program's output appears as it runs, it gets ARGS as argv (hpm-cc), and\n"
	"its exit code is hpmctl's, the rows kept; the summary goes to stderr.\n\n"
	"  -I, --interval T      time between samples: N or Nms, Nus, Ncycles (at\n"
	"                        least the board's minimum, hpmctl info)\n"
	"  -o, --output FILE     .csv: header line, then interval, counter-value, unit,\n"
	"                        event, event-runtime, pcnt-running, sample, cycles,\n"
	"                        cumulative; .json or .jsonl: one object per line\n"
	"  -e, --event EVENTS    events, -e may be repeated (default cycles,\n"
	"                        instructions,loads,stores,branches,branch-misses)\n"
	"  --plot FILE.svg       also draw each event per cycle over time\n"
	RUN_OPTIONS_HELP
	"\nWith -c PERIOD, -F FREQ or -g, record takes a sampling profile instead\n"
	"(record -c --help).\n";

int cmd_record(const struct cli *c, int argc, char **argv)
{
	enum { OPT_PLOT = OPT_FIRST_FREE };
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'I' },
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "help", no_argument, NULL, 'h' },
		RUN_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *events = "cycles,instructions,loads,stores,branches,branch-misses";
	const char *interval = NULL, *outname = NULL, *plotname = NULL;
	struct target t;
	char *events_acc = NULL;
	struct recorder r = { 0 };
	hpm_run_opts ro = { 0 };
	hpm_evlist *l = NULL;
	hpm_program *p = NULL;
	hpm_board *b = NULL;
	struct progress pg = { 0 };
	uint64_t every;
	unsigned per_second;
	int opt, rc;

	/* perf record's sampling options: -c, -F, -g, --call-graph */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-c") || !strncmp(argv[i], "--count", 7) ||
		    (!strncmp(argv[i], "-c", 2) && isdigit((unsigned char)argv[i][2])) ||
		    !strncmp(argv[i], "-F", 2) || !strncmp(argv[i], "--freq", 6) ||
		    !strcmp(argv[i], "-g") || !strncmp(argv[i], "--call-graph", 12))
			return cmd_record_profile(c, argc, argv);
	const struct cmd_opts co = { "record", record_help, ":I:o:e:h", longopts, &ro };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		switch (opt) {
		case 'I': interval = optarg; break;
		case 'o': outname = optarg; break;
		case 'e':
			if ((rc = add_events(&events_acc, optarg)))
				goto out;
			events = events_acc;
			break;
		case OPT_PLOT: plotname = optarg; break;
		}
	}
	if (!opt || (rc = program_operand("record", argc, argv, &t)))
		return rc;
	if (!interval)
		return usage_error("record", "missing -I <ms> (or Nus, Ncycles)");
	if ((rc = interval_option("record", interval, &every, &per_second)))
		return rc;
	if (!outname)
		return usage_error("record", "missing -o FILE.csv or FILE.json");
	const char *dot = strrchr(outname, '.');
	if (dot && (!strcmp(dot, ".json") || !strcmp(dot, ".jsonl")))
		r.json = 1;
	else if (!dot || strcmp(dot, ".csv"))
		return usage_error("record", "-o '%s': the name must end in .csv, .json or .jsonl", outname);

	if ((rc = parse_events(events, &l)) || (rc = load_program(t.name, &p)) ||
	    (rc = program_setup("record", &t, p, &ro, &pg)))
		goto out;
	r.l = l;
	r.n = hpm_evlist_len(l);
	r.outname = outname;
	if (!r.json && !(r.out = open_rows(outname, 0))) {
		rc = fail("record: cannot write %s: %s", outname, strerror(errno));
		goto out;
	}
	/* the chart is written at the end: see now that it can be */
	FILE *probe = plotname ? fopen(plotname, "a") : NULL;
	if (plotname && !probe) {
		rc = fail("record: cannot write %s: %s", plotname, strerror(errno));
		goto out;
	}
	if (probe) {
		int fresh = !ftell(probe);
		fclose(probe);
		if (fresh)
			unlink(plotname);
	}
	if ((rc = open_board(c, &b)))
		goto out;
	const hpm_info *in = hpm_get_info(b);
	ro.interval = interval_cycles(every, per_second, in->clock_hz);
	r.clock_hz = in->clock_hz;
	r.pg = &pg;
	r.keep = plotname != NULL;

	hpm_run_result res;
	hpm_count *counts = calloc(r.n, sizeof *counts);
	size_t ncounts;
	if (!counts) {
		rc = fail("out of memory");
		goto out;
	}
	progress_begin(&pg, "record %s", t.name);
	/* Ctrl-C: the run is aborted at its next tick; the rows received so
	 * far are written, with the chart and a summary, then hpmctl dies of
	 * SIGINT (as stat does) */
	catch_interrupt();
	interrupt_stops(b);
	int st = hpm_stat_interval(b, p, l, &ro, on_interval, &r, counts, r.n, &ncounts, &res);
	progress_end(&pg);
	unsigned runs = 0;
	for (size_t i = 0; st == HPM_OK && i < ncounts; i++)
		runs = counts[i].run + 1 > runs ? counts[i].run + 1 : runs;
	free(counts);
	int stopped = interrupted && (st == HPM_OK || st == HPM_E_INTERRUPTED);
	/* a program that failed: its rows are kept, then its exit code */
	int failed = !stopped && st == HPM_E_RUN && ncounts && !r.failure;
	if (st != HPM_OK && !stopped && !failed) {
		rc = fail("record: %s", r.failure ? r.failure : hpm_errmsg(b));
		goto out;
	}
	if (!r.out && !stopped && !(r.out = open_rows(outname, r.json)))
		r.failure = "cannot write the output";   /* a JSON file without rows */
	hold_interrupts(1);
	int closed = r.out ? fclose(r.out) : 0;
	hold_interrupts(0);
	if (closed || r.failure) {
		r.out = NULL;
		rc = fail("record: writing %s failed", outname);
		goto out;
	}
	r.out = NULL;
	if (plotname) {
		char title[200], ylabel[80];
		snprintf(title, sizeof title, "hpmctl record: %s (%s-mode), a sample every %llu cycles",
			 hpm_program_name(p), mode_name(ro.mode), (unsigned long long)ro.interval);
		snprintf(ylabel, sizeof ylabel, "events per cycle in each interval");
		const char **names = calloc(r.n, sizeof *names);
		if (!names) {
			rc = fail("out of memory");
			goto out;
		}
		for (size_t i = 0; i < r.n; i++)
			names[i] = hpm_evlist_at(l, i)->name;
		struct plot pl = { title, "cycles", ylabel, r.n, r.rows, names, 0, r.x, r.y };
		int bad = write_plot(plotname, &pl);
		free(names);
		if (bad) {
			rc = fail("record: writing %s failed", plotname);
			goto out;
		}
	}
	if (stopped && st != HPM_OK) {
		fprintf(stderr, "record: '%s' (%s-mode): interrupted: the run stopped at %llu cycles, samples every %llu cycles, %u lost; %u intervals x %zu events in %s%s%s\n",
			hpm_program_name(p), mode_name(ro.mode), (unsigned long long)r.prev_cycles,
			(unsigned long long)ro.interval, (unsigned)r.lost, r.rows, r.n, outname,
			plotname ? ", chart in " : "", plotname ? plotname : "");
		rc = EXIT_FAIL;
		goto out;
	}
	fprintf(stderr, "record: '%s' (%s-mode): %u samples every %llu cycles, %u lost, %u ticks, %s at %llu cycles; %u intervals x %zu events in %s%s%s",
		hpm_program_name(p), mode_name(ro.mode), (unsigned)res.samples,
		(unsigned long long)ro.interval, (unsigned)r.lost, (unsigned)res.ticks,
		exit_reason_name(res.reason), (unsigned long long)res.snap.value[0], r.rows, r.n, outname,
		plotname ? ", chart in " : "", plotname ? plotname : "");
	if (runs > 1)
		fprintf(stderr, "; %u replays merged", runs);
	fprintf(stderr, "\n");
	if (r.lost)
		fprintf(stderr, "hpmctl: record: %u samples lost (the first gap before sample %u); the cumulative counts stay exact\n",
			(unsigned)r.lost, (unsigned)r.first_gap);
	if (failed)
		rc = program_failed("record", p, &res);
out:
	interrupt_stops(NULL);
	if (r.out)
		fclose(r.out);
	free(r.x);
	free(r.y);
	hpm_close(b);
	hpm_program_free(p);
	hpm_evlist_free(l);
	free(events_acc);
	return finish_interrupt(rc);
}
