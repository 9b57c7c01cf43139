/* hpmctl record -c / report / annotate: sampling profiles from counter
 * overflows (hpm_profile), kept in prof.data, shown as perf shows them:
 * a table per sampled event, folded stacks, JSON, per-instruction counts. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "hpmctl.h"
#include "profview.h"

/* ---- record -c ---- */

struct rec {
	hpm_prof_sample *s;
	size_t n, cap;
	int nomem;
};

static int keep_sample(void *ctx, const hpm_prof_sample *s)
{
	struct rec *r = ctx;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4096;
		hpm_prof_sample *ns = realloc(r->s, cap * sizeof *ns);
		if (!ns) {
			r->nomem = 1;
			return 1;
		}
		r->s = ns;
		r->cap = cap;
	}
	r->s[r->n++] = *s;
	return 0;
}

static const char record_help[] =
	"usage: hpmctl record [-e EVENT] -c PERIOD | -F FREQ [-e EVENT2 -c P2 ...] [-g]\n"
	"                     [-o prof.data] [--perf-data FILE] [--mode u|s|m] [--size N]\n"
	"                     [--budget N] <workload|file.elf> [-- ARGS]\n\n"
	"Samples the workload: each event's counter overflows every PERIOD events,\n"
	"and the monitor records the interrupted pc (the next instruction to run),\n"
	"the mode and the board time (the run's cycles), then restarts the period;\n"
	"with -g also the call chain. The sample list is exact: the reference\n"
	"board (--link ref) gives the same samples and stacks. Each -c applies to\n"
	"the -e events before it that have no period yet; an -e after the last -c\n"
	"is only counted. See 'hpmctl report' and 'hpmctl annotate'. A program's\n"
	"output appears as it runs, it gets ARGS as argv (hpm-cc), and its exit\n"
	"code is hpmctl's; a program that fails or traps keeps its profile. The\n"
	"summary goes to stderr. prof.data names the ELF by its absolute path\n"
	"and content hash, so that report can tell when it moved or changed.\n\n"
	"  -e, --event EVENTS   events to sample (default cycles)\n"
	"  -c, --count PERIOD   events between samples (at least 256)\n"
	"  -F, --freq FREQ      samples per second of the program's cycles: cycles\n"
	"                       sampled every clock/FREQ cycles (a fixed period, not\n"
	"                       perf's adaptive one); -g alone means -F 4000\n"
	"  -g                   record each sample's call chain (--call-graph fp)\n"
	"  --call-graph fp      the same: the program's frame-pointer chain (hpm-cc\n"
	"                       keeps frame pointers), up to 16 return addresses\n"
	"  -o, --output FILE    the profile (default prof.data)\n"
	"  --perf-data FILE     also write it as a perf.data file (perf report -i FILE,\n"
	"                       perf script, perf annotate, hotspot)\n"
	RUN_OPTIONS_HELP
	"\nWithout -c, -F or -g, record samples counters at intervals (hpmctl record -I --help).\n";

/* --call-graph MODE: fp only; perf's other unwinders need what the board
 * has not. 0 or the usage error. */
static int call_graph_option(const char *mode)
{
	if (!strcmp(mode, "fp"))
		return 0;
	if (!strncmp(mode, "dwarf", 5))
		return usage_error("record", "--call-graph %s: not on this board (the monitor sends no stack copy to unwind with DWARF); use fp", mode);
	if (!strcmp(mode, "lbr"))
		return usage_error("record", "--call-graph lbr: the core has no last-branch record; use fp");
	return usage_error("record", "--call-graph '%s': expected fp", mode);
}

#define DEFAULT_FREQ 4000    /* perf record's default -F */

int cmd_record_profile(const struct cli *c, int argc, char **argv)
{
	enum { OPT_CALL_GRAPH = OPT_FIRST_FREE, OPT_PERF };
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "freq", required_argument, NULL, 'F' },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "perf-data", required_argument, NULL, OPT_PERF },
		{ "help", no_argument, NULL, 'h' },
		RUN_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	char spec[4096] = "", err[512];
	uint64_t freq = 0;
	uint64_t period[HPM_MAX_COUNTS] = { 0 };
	size_t nspec = 0, periodic = 0;      /* events parsed so far, those with a period */
	const char *outname = "prof.data", *perf_out = NULL;
	struct target t;
	struct progress pg = { 0 };
	hpm_run_opts ro = { 0 };
	hpm_evlist *l = NULL;
	hpm_program *p = NULL;
	hpm_board *b = NULL;
	hpm_profdata *d = NULL;
	struct rec r = { 0 };
	int opt, rc;

	const struct cmd_opts co = { "record", record_help, ":e:c:o:F:gh", longopts, &ro };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		switch (opt) {
		case 'e': {
			hpm_evlist *one;
			if ((rc = parse_events(optarg, &one)))
				return rc;
			nspec += hpm_evlist_len(one);
			hpm_evlist_free(one);
			if (nspec > HPM_MAX_COUNTS || strlen(spec) + strlen(optarg) + 2 > sizeof spec)
				return usage_error("record", "too many events");
			if (spec[0])
				strcat(spec, ",");
			strcat(spec, optarg);
			break;
		}
		case 'c': {
			uint64_t v;
			if (parse_u64(optarg, &v) || v < HPM_MIN_PERIOD)
				return usage_error("record", "-c '%s': expected a number of events, at least %d",
						   optarg, HPM_MIN_PERIOD);
			if (!nspec) {           /* perf's default event */
				strcpy(spec, "cycles");
				nspec = 1;
			}
			if (periodic == nspec)
				return usage_error("record", "-c '%s' follows no -e without a period", optarg);
			for (; periodic < nspec; periodic++)
				period[periodic] = v;
			break;
		}
		case 'F':
			if (parse_u64(optarg, &freq) || !freq)
				return usage_error("record", "-F '%s': expected a number of samples per second, at least 1",
						   optarg);
			break;
		case 'g': ro.call_graph = 1; break;
		case OPT_CALL_GRAPH:
			if ((rc = call_graph_option(optarg)))
				return rc;
			ro.call_graph = 1;
			break;
		case 'o': outname = optarg; break;
		case OPT_PERF: perf_out = optarg; break;
		}
	}
	if (!opt || (rc = program_operand("record", argc, argv, &t)))
		return rc;
	if (freq && periodic)
		return usage_error("record", "-F and -c are exclusive: a frequency or a period");
	if (!periodic && !freq && ro.call_graph)
		freq = DEFAULT_FREQ;
	if (!periodic && !freq)
		return usage_error("record", "missing -c PERIOD or -F FREQ");
	if (freq && !nspec) {
		strcpy(spec, "cycles");
		nspec = 1;
	}
	if ((rc = parse_events(spec, &l)))
		goto out;
	/* -F: every event is sampled, and only cycles has a fixed number of
	 * events per second */
	for (size_t i = 0; freq && i < nspec; i++)
		if (hpm_evlist_at(l, i)->fixed != 0) {
			rc = usage_error("record", "-F samples cycles only (every clock/FREQ cycles), not '%s': use -c PERIOD",
					 hpm_evlist_at(l, i)->name);
			goto out;
		}
	if ((rc = load_program(t.name, &p)) || (rc = program_setup("record", &t, p, &ro, &pg)) ||
	    (rc = open_board(c, &b)))
		goto out;
	if (freq) {
		uint32_t hz = hpm_get_info(b)->clock_hz;
		uint64_t per = (hz + freq / 2) / freq;   /* to the nearest cycle */
		if (per < HPM_MIN_PERIOD) {
			rc = fail("record: -F %llu: at most %u samples per second at this board's %u Hz (a period of at least %d cycles)",
				  (unsigned long long)freq, (unsigned)(hz / HPM_MIN_PERIOD), (unsigned)hz, HPM_MIN_PERIOD);
			goto out;
		}
		for (size_t i = 0; i < nspec; i++)
			period[i] = per;
	}
	size_t n = hpm_evlist_len(l), nc = 0;
	hpm_count counts[HPM_MAX_COUNTS];
	hpm_run_result res;
	progress_begin(&pg, "record %s", t.name);
	/* Ctrl-C stops the run at its next tick: the profile up to there is
	 * kept (the file whole: a second Ctrl-C waits for it), then hpmctl
	 * dies of SIGINT */
	catch_interrupt();
	interrupt_stops(b);
	int st = hpm_profile(b, p, l, period, &ro, keep_sample, &r, counts, HPM_MAX_COUNTS, &nc, &res);
	progress_end(&pg);
	/* a program that fails still has its profile (hpm_profile) */
	if (st != HPM_OK && !((st == HPM_E_RUN || st == HPM_E_INTERRUPTED) && nc == n && !r.nomem)) {
		rc = fail("record: %s", r.nomem ? "out of memory for the samples" : hpm_errmsg(b));
		goto out;
	}
	if (!(d = calloc(1, sizeof *d))) {
		rc = fail("out of memory");
		goto out;
	}
	char *abs = realpath(hpm_program_path(p), NULL);
	snprintf(d->program, sizeof d->program, "%s", abs ? abs : hpm_program_path(p));
	free(abs);
	if (hpm_file_hash(d->program, &d->elf_hash, err, sizeof err) != HPM_OK) {
		rc = fail("record: %s", err);
		goto out;
	}
	/* SOURCE_DATE_EPOCH (the reproducible-builds convention) fixes the
	 * time recorded, so that two records compare byte for byte */
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	if (!epoch || parse_u64(epoch, &d->time))
		d->time = (uint64_t)time(NULL);
	for (int i = 1, len = 0; i < t.argc; i++)
		len += snprintf(d->args + len, sizeof d->args - (size_t)len, "%s%s", i > 1 ? " " : "",
				t.argv[i]);
	d->clock_hz = hpm_get_info(b)->clock_hz;
	d->mode = ro.mode;
	d->cycles = res.snap.value[0];
	d->nevents = n;
	for (size_t i = 0; i < n; i++) {
		snprintf(d->event[i].name, sizeof d->event[i].name, "%s", hpm_evlist_at(l, i)->name);
		d->event[i].period = period[i];
		d->event[i].count = counts[i].value;
	}
	d->nsamples = r.n;
	d->samples = r.s;
	r.s = NULL;
	hold_interrupts(1);
	int saved = hpm_profdata_save(d, outname, err, sizeof err);
	hold_interrupts(0);
	if (saved != HPM_OK || (perf_out && perf_data_write(d, perf_out, err, sizeof err))) {
		rc = fail("record: %s", err);
		goto out;
	}
	fprintf(stderr, "[ hpmctl record: '%s' (%s-mode), %zu samples%s in %s%s%s, %llu cycles, %u ticks%s ]\n",
		hpm_program_name(p), mode_name(ro.mode), d->nsamples, ro.call_graph ? " with call chains" : "",
		outname, perf_out ? " and " : "", perf_out ? perf_out : "",
		(unsigned long long)res.snap.value[0], (unsigned)res.ticks,
		st == HPM_E_INTERRUPTED ? "; partial: interrupted, the run was stopped there" :
		res.reason == HPM_EXIT_REASON_BUDGET ? "; stopped at its --budget" : "");
	for (size_t i = 0; i < n; i++) {
		char num[32];
		size_t k = 0;
		for (size_t j = 0; j < d->nsamples; j++)
			k += d->samples[j].counter == i;
		if (period[i])
			fprintf(stderr, "  %20s  %s  (%zu samples, 1 every %llu)\n", fmt_count(counts[i].value, num),
				d->event[i].name, k, (unsigned long long)period[i]);
		else
			fprintf(stderr, "  %20s  %s\n", fmt_count(counts[i].value, num), d->event[i].name);
	}
	if (st == HPM_E_RUN)
		rc = program_failed("record", p, &res);
out:
	interrupt_stops(NULL);
	free(r.s);
	hpm_profdata_free(d);
	hpm_close(b);
	hpm_program_free(p);
	hpm_evlist_free(l);
	return finish_interrupt(rc);
}

/* ---- report ---- */

struct row {
	uint32_t key;          /* pc, or the symbol's address */
	const char *sym;       /* NULL: no symbol */
	uint64_t samples;
};

static int by_samples(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* The rows of event ev: per symbol (by_pc 0) or per pc. */
static size_t make_rows(const hpm_profdata *d, const hpm_program *p, size_t ev, int by_pc,
			const struct time_range *t, struct row **out)
{
	struct row *rows = calloc(d->nsamples + 1, sizeof *rows);
	size_t n = 0;
	if (!rows)
		return (size_t)-1;
	for (size_t i = 0; i < d->nsamples; i++) {
		const hpm_prof_sample *s = &d->samples[i];
		if (s->counter != ev || (t && !time_range_has(t, s)))
			continue;
		const hpm_symbol *sym = p ? hpm_program_symbol(p, s->pc) : NULL;
		uint32_t key = by_pc || !sym ? s->pc : sym->addr;   /* no symbol: its own pc */
		size_t j;
		for (j = 0; j < n && !(rows[j].key == key && (by_pc || rows[j].sym == (sym ? sym->name : NULL))); j++)
			;
		if (j == n)
			rows[n++] = (struct row){ key, sym ? sym->name : NULL, 0 };
		rows[j].samples++;
	}
	qsort(rows, n, sizeof *rows, by_samples);
	*out = rows;
	return n;
}

static const char report_help[] =
	"usage: hpmctl report [-i prof.data] [--sort symbol|pc] [-n] [--percent-limit P]\n"
	"                     [--children | --no-children] [-g] [--time START,END]\n"
	"                     [--header] [--stdio | --folded | --json | --to-perf-data FILE]\n\n"
	"Shows a profile written by 'hpmctl record -c': per sampled event, the\n"
	"share of samples (overhead) and the symbol (from the program's ELF\n"
	"symbol table) or pc, most samples first. If the ELF is missing or is not\n"
	"the one that ran (its content hash differs), one line says so and the\n"
	"rows are per pc. A profile with call chains (record -g) is shown as\n"
	"perf shows one: Children (the samples with the symbol anywhere in the\n"
	"chain) and Self (the samples in the symbol itself).\n\n"
	"  -i, --input FILE   the profile (default prof.data)\n"
	"  -s, --sort KEYS    symbol (default; also sym) or pc, or a list: sym,pc\n"
	"  -n, --show-nr-samples  a column with the samples of each row\n"
	"  --percent-limit P  only the rows with at least P %% of the samples\n"
	"  --children         the Children and Self columns (default with call chains)\n"
	"  --no-children      only Self (default without call chains)\n"
	"  -g, --call-graph   the call graph under each row: with --no-children its\n"
	"                     callers, with --children its callees\n"
	"  --time START,END   only the samples in that board time: seconds since the\n"
	"                     run started (either may be empty), or P%%-Q%% of the run\n"
	"  --header           first the profile's header: program, hash, time, board\n"
	"  --stdio            the table (the default; there is no TUI)\n"
	"  --folded           'main;outer;inner count' lines (the call chain, outermost\n"
	"                     first), as flame-graph tools read\n"
	"  --json             one JSON object per event\n"
	"  --to-perf-data FILE  write the profile as a perf.data file for perf and hotspot\n";

int load_profile(const char *cmd, const char *name, hpm_profdata **d, hpm_program **p,
			const char **elf_state)
{
	char err[1400];
	uint64_t h;
	*p = NULL;
	if (hpm_profdata_load(d, name, err, sizeof err) != HPM_OK)
		return fail("%s", err);
	const char *prog = (*d)->program;
	if (hpm_file_hash(prog, &h, err, sizeof err) != HPM_OK) {
		*elf_state = "missing";
		fprintf(stderr, "hpmctl: %s: the program of %s is missing (%s): no symbols, rows per pc\n",
			cmd, name, err);
		return EXIT_OK;
	}
	if ((*d)->version >= 2 && h != (*d)->elf_hash) {
		*elf_state = "differs";
		fprintf(stderr, "hpmctl: %s: %s is not the ELF that ran (content hash 0x%016llx, recorded 0x%016llx): no symbols, rows per pc\n",
			cmd, prog, (unsigned long long)h, (unsigned long long)(*d)->elf_hash);
		return EXIT_OK;
	}
	if (hpm_program_load(p, prog, err, sizeof err) != HPM_OK) {
		*elf_state = "unreadable";
		fprintf(stderr, "hpmctl: %s: %s: no symbols, rows per pc\n", cmd, err);
		*p = NULL;
		return EXIT_OK;
	}
	*elf_state = "the one that ran";
	if ((*d)->version < 2) {
		*elf_state = "unchecked";
		fprintf(stderr, "hpmctl: %s: %s is a version-1 profile without the ELF's hash: the symbols are %s's as it is now\n",
			cmd, name, prog);
	}
	return EXIT_OK;
}

/* report --header: what the profile says of its run (perf's header) */
static void print_header(const char *in, const hpm_profdata *d, const char *elf_state)
{
	char when[64] = "unknown (version-1 profile)";
	if (d->time) {
		time_t t = (time_t)d->time;
		struct tm tm;
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&t, &tm));
	}
	printf("# ========\n# profile      : %s (prof.data version %u)\n# captured on  : %s\n", in,
	       d->version, when);
	printf("# program      : %s\n", d->program);
	if (d->version >= 2)
		printf("# content hash : 0x%016llx (FNV-1a 64 of the ELF: %s)\n", (unsigned long long)d->elf_hash,
		       elf_state);
	printf("# arguments    : %s\n# mode         : %s\n# cycles       : %llu\n# board clock  : %u Hz\n",
	       d->args, mode_name((enum hpm_privilege)d->mode), (unsigned long long)d->cycles,
	       (unsigned)d->clock_hz);
	for (size_t i = 0; i < d->nevents; i++) {
		printf("# event        : %s, ", d->event[i].name);
		if (d->event[i].period)
			printf("1 sample every %llu, ", (unsigned long long)d->event[i].period);
		printf("count %llu\n", (unsigned long long)d->event[i].count);
	}
	printf("# samples      : %zu\n# ========\n#\n", d->nsamples);
}

/* report --to-perf-data: perf reads the symbols from the ELF, so it must
 * be the one that ran */
static int convert_profile(const char *in, const char *out)
{
	char err[1400];
	uint64_t h;
	hpm_profdata *d;
	int rc = EXIT_OK;
	if (hpm_profdata_load(&d, in, err, sizeof err) != HPM_OK)
		return fail("%s", err);
	if (hpm_file_hash(d->program, &h, err, sizeof err) != HPM_OK)
		rc = fail("report: --to-perf-data needs the program of %s: %s", in, err);
	else if (d->version >= 2 && h != d->elf_hash)
		rc = fail("report: --to-perf-data: %s is not the ELF that ran (content hash 0x%016llx, recorded 0x%016llx)",
			  d->program, (unsigned long long)h, (unsigned long long)d->elf_hash);
	else if (perf_data_write(d, out, err, sizeof err))
		rc = fail("report: %s", err);
	else
		fprintf(stderr, "[ hpmctl report: %zu samples of %s written to %s ]\n", d->nsamples, in, out);
	hpm_profdata_free(d);
	return rc;
}

int cmd_report(const struct cli *c, int argc, char **argv)
{
	enum { OPT_STDIO = OPT_FIRST_FREE, OPT_FOLDED, OPT_JSON, OPT_LIMIT, OPT_HEADER, OPT_CHILDREN,
	       OPT_NO_CHILDREN, OPT_TIME, OPT_PERF };
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "show-nr-samples", no_argument, NULL, 'n' },
		{ "percent-limit", required_argument, NULL, OPT_LIMIT },
		{ "children", no_argument, NULL, OPT_CHILDREN },
		{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "header", no_argument, NULL, OPT_HEADER },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "to-perf-data", required_argument, NULL, OPT_PERF },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *in = "prof.data", *elf_state = "", *time_arg = NULL, *perf_out = NULL;
	int format = 0, opt, rc, children = -1;     /* format: 0 table, 1 folded, 2 json */
	int header = 0;
	struct report_opts o = { 0 };
	hpm_profdata *d = NULL;
	hpm_program *p = NULL;

	(void)c;
	const struct cmd_opts co = { "report", report_help, ":i:s:ngh", longopts, NULL };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		switch (opt) {
		case 'i': in = optarg; break;
		case 'n': o.show_nr = 1; break;
		case 'g': o.graph = 1; break;
		case OPT_CHILDREN: children = 1; break;
		case OPT_NO_CHILDREN: children = 0; break;
		case OPT_TIME: time_arg = optarg; break;
		case OPT_HEADER: header = 1; break;
		case OPT_PERF: perf_out = optarg; break;
		case OPT_LIMIT: {
			char *end;
			o.limit = strtod(optarg, &end);
			if (end == optarg || *end || !(o.limit >= 0 && o.limit <= 100))
				return usage_error("report", "--percent-limit '%s': expected a percentage, 0..100", optarg);
			break;
		}
		case 's': {
			/* a list of keys: rows per pc if it has pc */
			char keys[256];
			int keys_ok = 0;
			snprintf(keys, sizeof keys, "%s", optarg);
			o.by_pc = 0;
			for (char *k = strtok(keys, ","); k; k = strtok(NULL, ",")) {
				keys_ok = keys_ok >= 0 && (!strcmp(k, "pc") || !strcmp(k, "symbol") || !strcmp(k, "sym")) ? 1 : -1;
				o.by_pc |= !strcmp(k, "pc");
			}
			if (keys_ok <= 0)
				return usage_error("report", "--sort '%s': expected symbol, pc or both (sym,pc)", optarg);
			break;
		}
		case OPT_STDIO: format = 0; break;
		case OPT_FOLDED: format = 1; break;
		case OPT_JSON: format = 2; break;
		}
	}
	if (!opt || (rc = no_operands("report", argc, argv)))
		return rc;
	if (perf_out && time_arg)
		return usage_error("report", "--time does not apply to --to-perf-data (perf's own --time filters perf.data)");
	if (perf_out)
		return convert_profile(in, perf_out);
	if ((rc = load_profile("report", in, &d, &p, &elf_state)))
		return rc;
	if (time_arg && (rc = time_range_parse("report", time_arg, d, &o.time)))
		goto out;
	o.children = children < 0 ? profile_has_stacks(d) : children;
	if (header)
		print_header(in, d, elf_state);
	for (size_t ev = 0; ev < d->nevents && !rc; ev++) {
		const hpm_profdata_event *e = &d->event[ev];
		struct row *rows;
		char pcbuf[16];
		if (!e->period)
			continue;
		if (format == 0) {
			rc = report_table(d, p, ev, &o);
			continue;
		}
		if (format == 1) {
			rc = report_folded(d, p, ev, &o);
			continue;
		}
		size_t n = make_rows(d, p, ev, o.by_pc, &o.time, &rows), total = 0;
		if (n == (size_t)-1) {
			rc = fail("out of memory");
			break;
		}
		for (size_t i = 0; i < n; i++)
			total += rows[i].samples;
		printf("{\"event\" : ");
		json_string(stdout, e->name);
		printf(", \"period\" : %llu, \"count\" : %llu, \"samples\" : %zu, \"program\" : ",
		       (unsigned long long)e->period, (unsigned long long)e->count, total);
		json_string(stdout, d->program);
		printf(", \"rows\" : [");
		size_t shown = 0;
		for (size_t i = 0; i < n; i++) {
			const struct row *w = &rows[i];
			double pct = total ? 100.0 * (double)w->samples / (double)total : 0;
			if (pct < o.limit)
				continue;
			snprintf(pcbuf, sizeof pcbuf, "0x%08x", (unsigned)w->key);
			printf("%s{\"overhead\" : %.2f, \"samples\" : %llu, \"symbol\" : ", shown++ ? ", " : "",
			       pct, (unsigned long long)w->samples);
			json_string(stdout, w->sym ? w->sym : "[unknown]");
			if (o.by_pc || !w->sym)
				printf(", \"pc\" : \"%s\"", pcbuf);
			printf("}");
		}
		printf("]}\n");
		free(rows);
	}
out:
	hpm_profdata_free(d);
	hpm_program_free(p);
	return rc;
}

/* ---- annotate ---- */

static const char annotate_help[] =
	"usage: hpmctl annotate [-i prof.data] [-e EVENT] [--stdio] [--no-source] SYMBOL\n\n"
	"Disassembles SYMBOL (riscv64-unknown-elf-objdump, or $HPM_OBJDUMP) and\n"
	"puts each sampled event's samples next to every instruction: a sample\n"
	"counts at the pc the monitor saw, the instruction after the one whose\n"
	"event overflowed the counter (docs/hpm.md, Sampling). Percentages are of\n"
	"the function's own samples, as perf annotate gives them. For a program\n"
	"built with -g the source lines come between the instructions (objdump -S).\n\n"
	"  -i, --input FILE   the profile (default prof.data)\n"
	"  -e, --event NAME   only this sampled event (default: the first)\n"
	"  --stdio            the text view (the default; there is no TUI)\n"
	"  --no-source        the disassembly without source lines\n";

/* An objdump that exists: $HPM_OBJDUMP, else the cross binutils on $PATH. */
static const char *find_objdump(void)
{
	const char *e = getenv("HPM_OBJDUMP");
	if (e && *e)
		return e;
	const char *path = getenv("PATH");
	static char buf[1024];
	for (const char *q = path; q && *q; ) {
		const char *end = strchr(q, ':');
		size_t dl = end ? (size_t)(end - q) : strlen(q);
		snprintf(buf, sizeof buf, "%.*s/riscv64-unknown-elf-objdump", (int)dl, q);
		if (dl && access(buf, X_OK) == 0)
			return buf;
		q += dl + (end ? 1 : 0);
	}
	return NULL;
}

/* Without the ELF that ran: the event's samples per pc, most first. */
static int annotate_pcs(const hpm_profdata *d, size_t ev)
{
	struct row *rows;
	size_t n = make_rows(d, NULL, ev, 1, NULL, &rows), total = 0;
	if (n == (size_t)-1)
		return fail("out of memory");
	for (size_t i = 0; i < n; i++)
		total += rows[i].samples;
	printf(" Percent | Samples | pc: %zu samples of '%s' (1 every %llu)\n", total, d->event[ev].name,
	       (unsigned long long)d->event[ev].period);
	printf("---------+---------+-------------------------------------------\n");
	for (size_t i = 0; i < n; i++)
		printf("%7.2f%% | %7llu | %08x\n", 100.0 * (double)rows[i].samples / (double)total,
		       (unsigned long long)rows[i].samples, (unsigned)rows[i].key);
	free(rows);
	return EXIT_OK;
}

int cmd_annotate(const struct cli *c, int argc, char **argv)
{
	enum { OPT_STDIO = OPT_FIRST_FREE, OPT_NO_SOURCE };
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "event", required_argument, NULL, 'e' },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *in = "prof.data", *evname = NULL, *elf_state;
	int source = 1;
	hpm_profdata *d = NULL;
	hpm_program *p = NULL;
	int opt, rc;

	(void)c;
	const struct cmd_opts co = { "annotate", annotate_help, ":i:e:h", longopts, NULL };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		switch (opt) {
		case 'i': in = optarg; break;
		case 'e': evname = optarg; break;
		case OPT_STDIO: break;
		case OPT_NO_SOURCE: source = 0; break;
		}
	}
	if (!opt)
		return rc;
	if (optind >= argc)
		return usage_error("annotate", "missing SYMBOL");
	if (optind + 1 < argc)
		return usage_error("annotate", "unexpected argument '%s'", argv[optind + 1]);
	const char *symname = argv[optind];
	if ((rc = load_profile("annotate", in, &d, &p, &elf_state)))
		return rc;
	size_t ev = d->nevents;
	for (size_t i = 0; i < d->nevents; i++)
		if (d->event[i].period && (!evname || !strcmp(evname, d->event[i].name))) {
			ev = i;
			break;
		}
	const hpm_symbol *syms, *sym = NULL;
	size_t nsym = p ? hpm_program_symbols(p, &syms) : 0;
	for (size_t i = 0; i < nsym && !sym; i++)
		if (!strcmp(syms[i].name, symname))
			sym = &syms[i];
	const char *objdump = find_objdump();
	if (ev == d->nevents)
		rc = fail("annotate: %s has no sampled event '%s'", in, evname ? evname : "");
	else if (!p) {
		rc = annotate_pcs(d, ev);
		goto out;
	} else if (!sym)
		rc = fail("annotate: no symbol '%s' in %s", symname, d->program);
	else if (!objdump)
		rc = fail("annotate: needs riscv64-unknown-elf-objdump on PATH (Debian: binutils-riscv64-unknown-elf) or HPM_OBJDUMP");
	if (rc)
		goto out;
	uint32_t lo = sym->addr, hi = sym->size ? sym->addr + sym->size : 0;
	if (!hi) {                      /* a label: up to the next symbol */
		hi = lo + 4;
		for (size_t i = 0; i < nsym; i++)
			if (syms[i].addr > lo) {
				hi = syms[i].addr;
				break;
			}
	}
	uint64_t total = 0, in_sym = 0;
	for (size_t i = 0; i < d->nsamples; i++)
		if (d->samples[i].counter == ev) {
			total++;
			in_sym += d->samples[i].pc >= lo && d->samples[i].pc < hi;
		}
	char cmd[2600];
	snprintf(cmd, sizeof cmd, "'%s' -d %s--no-show-raw-insn --start-address=0x%x --stop-address=0x%x '%s' 2>&1",
		 objdump, source ? "-S " : "", (unsigned)lo, (unsigned)hi, d->program);
	if (strchr(objdump, '\'') || strchr(d->program, '\'')) {
		rc = fail("annotate: a path contains a quote");
		goto out;
	}
	FILE *f = popen(cmd, "r");
	if (!f) {
		rc = fail("annotate: cannot run %s: %s", objdump, strerror(errno));
		goto out;
	}
	printf(" Percent | Samples | %s: %llu of %llu samples of '%s' (1 every %llu)\n",
	       symname, (unsigned long long)in_sym, (unsigned long long)total, d->event[ev].name,
	       (unsigned long long)d->event[ev].period);
	printf("---------+---------+-------------------------------------------\n");
	char line[512];
	int lines = 0, body = 0;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		char *endp;
		unsigned long addr = strtoul(line, &endp, 16);
		line[strcspn(line, "\n")] = '\0';
		if (!colon || endp != colon || !isxdigit((unsigned char)line[strspn(line, " ")]) ||
		    colon[1] != '\t') {
			/* after the function's label "80000100 <name>:", a line that
			 * is not an instruction is source (objdump -S) */
			if (endp != line && *endp == ' ' && endp[1] == '<')
				body = 1;
			else if (body && line[strspn(line, " \t")])
				printf("         |         |     %s\n", line);
			continue;
		}
		uint64_t k = 0;
		for (size_t i = 0; i < d->nsamples; i++)
			k += d->samples[i].counter == ev && d->samples[i].pc == addr;
		if (k)
			printf("%7.2f%% | %7llu | %08lx: %s\n", 100.0 * (double)k / (double)in_sym,
			       (unsigned long long)k, addr, colon + 2);
		else
			printf("         |         | %08lx: %s\n", addr, colon + 2);
		lines++;
	}
	if (pclose(f) || !lines)
		rc = fail("annotate: %s printed no disassembly for %s", objdump, symname);
out:
	hpm_profdata_free(d);
	hpm_program_free(p);
	return rc;
}
