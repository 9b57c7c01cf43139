/* hpmctl topdown: the top-down breakdown of a workload's slots (issue width
 * 1, so slots = cycles), level 1 and level 2 (docs/events.md). Percentages
 * are rounded by largest remainder, so each level prints exactly 100.0, and
 * each level-2 group sums exactly to its printed level-1 parent. A board
 * with the top-down unit counts them there, in one run without counters. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "hpmctl.h"

/* The hierarchy of the event catalogue (HPM_TOPDOWN in events.def): level 1
 * first, then level 2, each after its parent. */
struct td_node {
	const char *label, *area, *event, *parent;   /* parent "" for level 1 */
};
static const struct td_node nodes[] = {
#define HPM_TOPDOWN(event, parent, level, label, area) { label, area, event, parent },
#include "events.def"
};
#define NNODES  (sizeof nodes / sizeof nodes[0])
enum { NLEVEL1 = 0
#define HPM_TOPDOWN(event, parent, level, label, area) + ((level) == 1)
#include "events.def"
};
/* the events counted, then nodes[] in order: slots and the top-down group
 * on a board with the unit (one run, no counter), else cycles and the
 * events on programmable counters (replayed on a board with few) */
static const char events_unit[] = "slots"
#define HPM_TOPDOWN(event, parent, level, label, area) "," event
#include "events.def"
	;
static const char events_counters[] = "cycles"
#define HPM_TOPDOWN(event, parent, level, label, area) "," event
#include "events.def"
	;

/* nodes[i]'s parent, -1 for level 1 */
static int parent_of(size_t i)
{
	for (size_t j = 0; j < NLEVEL1; j++)
		if (!strcmp(nodes[j].event, nodes[i].parent))
			return (int)j;
	return -1;
}

static int has_children(int parent)
{
	for (size_t i = NLEVEL1; i < NNODES; i++)
		if (parent_of(i) == parent)
			return 1;
	return 0;
}

/* One area as a CSV line (sep) or a JSON object. */
static void emit_row(const char *sep, int level, const struct td_node *nd, const char *parent,
		     uint64_t count, unsigned tenths)
{
	if (sep)
		fprintf(stderr, "%d%s%s%s%s%s%s%s%llu%s%u.%u\n", level, sep, nd->area, sep, parent, sep,
			nd->event, sep, (unsigned long long)count, sep, tenths / 10, tenths % 10);
	else
		fprintf(stderr, "{\"level\" : %d, \"area\" : \"%s\", \"parent\" : \"%s\", \"event\" : \"%s\", "
			"\"counter-value\" : \"%llu\", \"metric-value\" : \"%u.%u\", "
			"\"metric-unit\" : \"of all slots\"}\n", level, nd->area, parent, nd->event,
			(unsigned long long)count, tenths / 10, tenths % 10);
}

static const char topdown_help[] =
	"usage: hpmctl topdown [-x SEP | -j] [--mode u|s|m] [--size N] [--budget N]\n"
	"                      <workload|file.elf> [-- ARGS]\n\n"
	"Counts the top-down slot events in one run and prints level 1 (retiring,\n"
	"bad speculation, frontend bound, backend bound, as % of slots = cycles)\n"
	"and level 2 (bad speculation: branch mispredicts, machine clears; frontend:\n"
	"fetch latency; backend: memory bound, core bound; retiring is not split).\n"
	"One decimal, rounded so that each level sums to exactly 100.0. A board\n"
	"with the top-down unit counts it there, else programmable counters do\n"
	"(the same counts; see stat --topdown for perf's layout). The table\n"
	"goes to stderr (as perf's); a program's own output appears as it runs, it\n"
	"gets ARGS as argv (hpm-cc), and its exit code is hpmctl's.\n\n"
	"  -x, --field-separator S  CSV: level, area, parent, event, counter-value,\n"
	"                           percent of slots\n"
	"  -j, --json               one JSON object per area\n"
	RUN_OPTIONS_HELP;

int cmd_topdown(const struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		RUN_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	hpm_run_opts ro = { 0 };
	const char *sep = NULL;
	struct target t;
	hpm_run_result res;
	hpm_evlist *l = NULL;
	hpm_program *p = NULL;
	hpm_board *b = NULL;
	hpm_count cnt[NNODES + 1];
	struct progress pg = { 0 };
	int opt, rc, json = 0;
	size_t n;

	const struct cmd_opts co = { "topdown", topdown_help, ":x:jh", longopts, &ro };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		if (opt == 'x')
			sep = optarg;
		else
			json = 1;
	}
	if (!opt || (rc = program_operand("topdown", argc, argv, &t)))
		return rc;
	if (sep && json)
		return usage_error("topdown", "-x and -j cannot be combined");
	int unit;
	if ((rc = load_program(t.name, &p)) || (rc = program_setup("topdown", &t, p, &ro, &pg)) ||
	    (rc = open_board(c, &b)))
		goto out;
	if (hpm_topdown_present(b, &unit) != HPM_OK) {
		rc = fail("%s", hpm_errmsg(b));
		goto out;
	}
	/* the tree needs level 2: a board with level 1 only counts it all on counters */
	if ((rc = parse_events(unit == 2 ? events_unit : events_counters, &l)))
		goto out;
	progress_begin(&pg, "topdown %s", t.name);
	/* Ctrl-C stops the run at its next tick: the tree of the counts so far */
	catch_interrupt();
	interrupt_stops(b);
	int st = hpm_stat(b, p, l, &ro, cnt, NNODES + 1, &n, &res);
	progress_end(&pg);
	if (st == HPM_E_INTERRUPTED && n == NNODES + 1)
		fprintf(stderr, "hpmctl: topdown: partial: %s; the slots are up to there\n", hpm_errmsg(b));
	else if (st != HPM_OK && !(st == HPM_E_RUN && n == NNODES + 1)) {
		rc = fail("%s", hpm_errmsg(b));
		goto out;
	}

	uint64_t slots = cnt[0].value, v[NNODES], sum1 = 0;
	unsigned pct1[NLEVEL1], pct2[NNODES];     /* tenths of a percent */
	for (size_t i = 0; i < NNODES; i++)
		v[i] = cnt[1 + i].value;
	for (size_t i = 0; i < NLEVEL1; i++)
		sum1 += v[i];
	/* the catalogue promises a partition; say so if the counts break it */
	const char *broken = NULL;
	char why[200];
	if (sum1 != slots) {
		snprintf(why, sizeof why, "topdown: the level-1 events sum to %llu, not cycles %llu: the counters are inconsistent (see hpmctl validate)",
			 (unsigned long long)sum1, (unsigned long long)slots);
		broken = why;
	}
	td_largest_remainder(v, NLEVEL1, 1000, pct1);
	for (int parent = 0; parent < NLEVEL1; parent++) {
		uint64_t w[NNODES], sum = 0;
		size_t idx[NNODES], k = 0;
		for (size_t i = NLEVEL1; i < NNODES; i++)
			if (parent_of(i) == parent) {
				idx[k] = i;
				w[k++] = v[i];
				sum += v[i];
			}
		if (!k) {
			pct2[parent] = pct1[parent];   /* not split: its own level-2 leaf */
			continue;
		}
		if (sum != v[parent] && !broken) {
			snprintf(why, sizeof why, "topdown: the level-2 events under %s sum to %llu, not %llu: the counters are inconsistent (see hpmctl validate)",
				 nodes[parent].label, (unsigned long long)sum, (unsigned long long)v[parent]);
			broken = why;
		}
		unsigned share[NNODES];
		td_largest_remainder(w, k, pct1[parent], share);
		for (size_t j = 0; j < k; j++)
			pct2[idx[j]] = share[j];
	}

	char num[32];
	if (json || sep) {
		for (size_t i = 0; i < NLEVEL1; i++)
			emit_row(sep, 1, &nodes[i], "", v[i], pct1[i]);
		for (int parent = 0; parent < NLEVEL1; parent++) {
			if (!has_children(parent))
				emit_row(sep, 2, &nodes[parent], nodes[parent].area, v[parent], pct2[parent]);
			for (size_t i = NLEVEL1; i < NNODES; i++)
				if (parent_of(i) == parent)
					emit_row(sep, 2, &nodes[i], nodes[parent].area, v[i], pct2[i]);
		}
	} else {
		fprintf(stderr, "\n Top-down analysis for '%s'", hpm_program_name(p));
		if (ro.mode != HPM_MODE_USER)
			fprintf(stderr, " (%s-mode)", mode_name(ro.mode));
		fprintf(stderr, " (%s slots = cycles, issue width 1%s):\n\n", fmt_count(slots, num),
			st == HPM_E_INTERRUPTED ? "; partial: interrupted, up to there" : "");
		fprintf(stderr, " %-38s %12s %9s\n", "Level 1", "slots", "% slots");
		for (size_t i = 0; i < NLEVEL1; i++)
			fprintf(stderr, "   %-36s %12s %7u.%u\n", nodes[i].label, fmt_count(v[i], num),
				pct1[i] / 10, pct1[i] % 10);
		fprintf(stderr, "   %-36s %12s %9s\n", "", "-------", "-----");
		fprintf(stderr, "   %-36s %12s %9s\n\n", "", fmt_count(sum1, num), "100.0");
		fprintf(stderr, " %-38s %12s %9s\n", "Level 2", "slots", "% slots");
		for (int parent = 0; parent < NLEVEL1; parent++) {
			if (!has_children(parent)) {
				char label[64];
				snprintf(label, sizeof label, "%s (not split)", nodes[parent].label);
				fprintf(stderr, "   %-36s %12s %7u.%u\n", label, fmt_count(v[parent], num),
					pct2[parent] / 10, pct2[parent] % 10);
				continue;
			}
			fprintf(stderr, "   %s\n", nodes[parent].label);
			for (size_t i = NLEVEL1; i < NNODES; i++)
				if (parent_of(i) == parent)
					fprintf(stderr, "     %-34s %12s %7u.%u\n", nodes[i].label, fmt_count(v[i], num),
						pct2[i] / 10, pct2[i] % 10);
		}
		fprintf(stderr, "   %-36s %12s %9s\n", "", "-------", "-----");
		fprintf(stderr, "   %-36s %12s %9s\n\n", "", fmt_count(sum1, num), "100.0");
	}
	if (broken)
		rc = fail("%s", broken);
	else if (st == HPM_E_RUN)     /* a failing program: its breakdown, then why */
		rc = program_failed("topdown", p, &res);
out:
	interrupt_stops(NULL);
	hpm_close(b);
	hpm_program_free(p);
	hpm_evlist_free(l);
	return finish_interrupt(rc);
}
