/* hpmctl validate: count every catalogue event on the board and on the
 * reference model (hpm_validate) and compare them exactly. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "hpmctl.h"

/* Every catalogue event by name, comma separated (replay packs them). */
static char *all_events(void)
{
	size_t len = 1;
	for (size_t i = 0; i < hpm_event_count(); i++)
		len += strlen(hpm_event_at(i)->name) + 1;
	char *s = calloc(1, len);
	for (size_t i = 0; s && i < hpm_event_count(); i++) {
		if (i)
			strcat(s, ",");
		strcat(s, hpm_event_at(i)->name);
	}
	return s;
}

struct vopts {
	const char *sep;       /* -x */
	int json;              /* -j */
	hpm_run_opts run;
};

/* Validates one workload; prints its table. 0 OK, 1 mismatch, -1 error. */
static int validate_one(hpm_board *b, const hpm_evlist *l, const struct vopts *vo,
			const char *target, struct progress *pg)
{
	hpm_count hw[HPM_MAX_COUNTS], ref[HPM_MAX_COUNTS];
	hpm_program *p;
	size_t n;
	char a[32], e[32];

	progress_set(pg, "validate %s", target);
	if (load_program(target, &p))
		return -1;
	int rc = hpm_validate(b, p, l, &vo->run, hw, ref, &n);
	progress_clear(pg);
	if (rc != HPM_OK && rc != HPM_E_MISMATCH) {
		fail("validate: %s", hpm_errmsg(b));
		hpm_program_free(p);
		return -1;
	}
	if (rc == HPM_E_MISMATCH)
		fail("validate: %s", hpm_errmsg(b));
	const char *name = hpm_program_name(p);
	unsigned bad = 0;
	if (!vo->json && !vo->sep)
		printf("\n Validation of '%s' (%s-mode) on %s against the reference model:\n\n"
		       "   %-32s %20s %20s\n", name, mode_name(vo->run.mode), hpm_get_info(b)->link,
		       "event", "expected", "actual");
	for (size_t i = 0; i < n; i++) {
		const char *st = hw[i].value == ref[i].value ? "OK" : "MISMATCH";
		bad += hw[i].value != ref[i].value;
		if (vo->json) {
			printf("{\"workload\" : ");
			json_string(stdout, name);
			printf(", \"event\" : ");
			json_string(stdout, hw[i].ev->name);
			printf(", \"expected\" : \"%llu\", \"actual\" : \"%llu\", \"status\" : \"%s\"}\n",
			       (unsigned long long)ref[i].value, (unsigned long long)hw[i].value, st);
		} else if (vo->sep) {
			printf("%s%s%s%s%llu%s%llu%s%s\n", name, vo->sep, hw[i].ev->name, vo->sep,
			       (unsigned long long)ref[i].value, vo->sep, (unsigned long long)hw[i].value,
			       vo->sep, st);
		} else {
			printf("   %-32s %20s %20s   %s\n", hw[i].ev->name, fmt_count(ref[i].value, e),
			       fmt_count(hw[i].value, a), st);
		}
	}
	if (!vo->json && !vo->sep) {
		if (bad)
			printf("\n %s: MISMATCH (%u of %zu events differ)\n", name, bad, n);
		else
			printf("\n %s: OK (%zu events equal)\n", name, n);
	}
	fflush(stdout);
	hpm_program_free(p);
	return bad ? 1 : 0;
}

static const char validate_help[] =
	"usage: hpmctl validate [-e EVENTS] [-x SEP | -j] [--mode u|s|m] [--size N]\n"
	"                       [--budget N] <workload|file.elf>... | --all\n\n"
	"Runs each workload on the board and on the reference model (hpm-ref, with\n"
	"the board's counter configuration) and compares every count exactly:\n"
	"expected (reference) and actual (board) per event, OK or MISMATCH.\n"
	"Exits 1 if any count differs or any run fails. Ctrl-C ends the workload in\n"
	"progress and prints the summary so far.\n\n"
	"  --all                    every built-in workload (hpmctl list --workloads)\n"
	"  -e, --event EVENTS       events to compare, -e may be repeated (default:\n"
	"                           every catalogue event)\n"
	"  -x, --field-separator S  CSV: workload, event, expected, actual, status\n"
	"  -j, --json               one JSON object per event\n"
	RUN_OPTIONS_HELP;

int cmd_validate(const struct cli *c, int argc, char **argv)
{
	enum { OPT_ALL = OPT_FIRST_FREE };
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, OPT_ALL },
		{ "event", required_argument, NULL, 'e' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		RUN_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct vopts vo = { 0 };
	const char *events = NULL, *wl;
	char *every = NULL;
	hpm_evlist *l = NULL;
	hpm_board *b = NULL;
	struct progress pg;
	int opt, rc, all = 0;

	while ((opt = getopt_long(argc, argv, ":e:x:jh", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_ALL: all = 1; break;
		case 'e':
			if ((rc = add_events(&every, optarg)))
				goto out;
			events = every;
			break;
		case 'x': vo.sep = optarg; break;
		case 'j': vo.json = 1; break;
		case 'h': fputs(validate_help, stdout); return EXIT_OK;
		case OPT_MODE: case OPT_SIZE: case OPT_BUDGET:
			if ((rc = run_option("validate", opt, optarg, &vo.run)))
				return rc;
			break;
		default:
			return bad_option("validate", opt, argv);
		}
	}
	if (all && optind < argc)
		return usage_error("validate", "--all and a workload ('%s') cannot be combined", argv[optind]);
	if (!all && optind >= argc)
		return usage_error("validate", "missing workload (or --all)");
	if (vo.sep && vo.json)
		return usage_error("validate", "-x and -j cannot be combined");
	if (!events && !(events = every = all_events()))
		return fail("out of memory");
	if ((rc = parse_events(events, &l)))
		goto out;
	/* check the named programs before starting the board */
	for (int i = optind; i < argc; i++) {
		hpm_program *p;
		if ((rc = load_program(argv[i], &p)))
			goto out;
		hpm_program_free(p);
	}
	if ((rc = open_board(c, &b)))
		goto out;

	unsigned total = 0, ok = 0, mismatch = 0, asked = 0;
	if (all)
		while (hpm_workload_at(asked, NULL))
			asked++;
	else
		asked = (unsigned)(argc - optind);
	/* Ctrl-C: the workload in progress ends, then the summary so far */
	catch_interrupt();
	progress_begin(&pg, "validate");
	if (all) {
		for (size_t i = 0; !interrupted && (wl = hpm_workload_at(i, NULL)); i++) {
			int r = validate_one(b, l, &vo, wl, &pg);
			total++;
			ok += r == 0;
			mismatch += r == 1;
		}
	} else {
		for (int i = optind; !interrupted && i < argc; i++) {
			int r = validate_one(b, l, &vo, argv[i], &pg);
			total++;
			ok += r == 0;
			mismatch += r == 1;
		}
	}
	progress_end(&pg);
	if (interrupted && !vo.json && !vo.sep)
		printf("\n validate: interrupted after %u of %u workloads: %u OK, %u MISMATCH, %u failed to run\n\n",
		       total, asked, ok, mismatch, total - ok - mismatch);
	else if (total > 1 && !vo.json && !vo.sep)
		printf("\n validate: %u workloads: %u OK, %u MISMATCH, %u failed to run\n\n", total, ok,
		       mismatch, total - ok - mismatch);
	rc = ok == total ? EXIT_OK : EXIT_FAIL;
out:
	hpm_close(b);
	hpm_evlist_free(l);
	free(every);
	return finish_interrupt(rc);
}
