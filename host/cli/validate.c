/* hpmctl validate: count every catalogue event on the board and on the
 * reference model (hpm_validate) and compare them exactly. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* What the workloads of one validate share. */
struct vstate {
	hpm_board *b;
	const hpm_evlist *l;
	const struct vopts *vo;
	struct progress *pg;
	struct junit *junit;   /* --junit, else NULL */
	int lost;              /* the board stopped answering: nothing more runs */
	char lost_why[300];
	const struct target *t;   /* "-- prog.elf ARGS": its arguments, else NULL */
	int status;               /* that program's exit status (program_failed) */
};

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The end of the pack of events that starts at `start`: as hpm_stat packs
 * them (hpm.h), as many as the board's counters hold, a group never split. */
static size_t pack_end(const hpm_evlist *l, size_t start, unsigned hpm_num)
{
	size_t n = hpm_evlist_len(l), i = start;
	unsigned used = 0;

	while (i < n) {
		unsigned g = hpm_evlist_at(l, i)->group, need = 0;
		size_t j = i;
		for (; j < n && hpm_evlist_at(l, j)->group == g; j++)
			need += hpm_evlist_at(l, j)->fixed < 0;
		if (i > start && used + need > hpm_num)
			break;
		used += need;
		i = j;
	}
	return i;
}

/* Events [start, end) of l as one list "{a,b,...}" (names keep their
 * modifiers, so each parses to the same selector); NULL if out of memory. */
static char *pack_spec(const hpm_evlist *l, size_t start, size_t end)
{
	size_t len = 3;
	for (size_t i = start; i < end; i++)
		len += strlen(hpm_evlist_at(l, i)->name) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "{");
	for (size_t i = start; i < end; i++) {
		if (i > start)
			strcat(s, ",");
		strcat(s, hpm_evlist_at(l, i)->name);
	}
	strcat(s, "}");
	return s;
}

/* The JUnit test case of one pack that ran to the end: its mismatches. */
static void junit_pack(struct junit *j, const char *cls, const char *name, double secs,
		       const hpm_count *hw, const hpm_count *ref, size_t n)
{
	char msg[400] = "", *detail = NULL;
	size_t dlen = 0, bad = 0, mlen = 0;
	FILE *d = open_memstream(&detail, &dlen);

	for (size_t i = 0; i < n; i++) {
		if (hw[i].value == ref[i].value)
			continue;
		unsigned long long e = ref[i].value, a = hw[i].value;
		if (d)
			fprintf(d, "%s: expected %llu, actual %llu\n", hw[i].ev->name, e, a);
		if (mlen < sizeof msg)
			mlen += (size_t)snprintf(msg + mlen, sizeof msg - mlen, "%s%s expected %llu actual %llu",
						 bad ? "; " : "", hw[i].ev->name, e, a);
		bad++;
	}
	if (d)
		fclose(d);
	if (bad) {
		char m[520];
		snprintf(m, sizeof m, "%zu of %zu events differ from the reference: %s", bad, n, msg);
		junit_case(j, cls, name, secs, JUNIT_FAILURE, "mismatch", m, detail);
	} else {
		junit_case(j, cls, name, secs, JUNIT_PASS, NULL, NULL, NULL);
	}
	free(detail);
}

/* Validates one workload, pack by pack (each pack one JUnit test case);
 * prints its table. 0 OK, 1 mismatch, -1 error, -2 stopped by Ctrl-C. */
static int validate_one(struct vstate *v, const char *target)
{
	hpm_count hw[HPM_MAX_COUNTS], ref[HPM_MAX_COUNTS];
	const struct vopts *vo = v->vo;
	hpm_board *b = v->b;
	size_t n = hpm_evlist_len(v->l), npacks = 0;
	hpm_program *p = NULL;
	char a[32], e[32], cls[96], first_mismatch[512] = "";
	int failed = 0;

	for (size_t s = 0; s < n; s = pack_end(v->l, s, hpm_get_info(b)->hpm_num))
		npacks++;
	snprintf(cls, sizeof cls, "validate.%s", target);
	progress_set(v->pg, "validate %s", target);
	char lerr[512];
	int lrc = v->lost ? HPM_OK : hpm_program_load(&p, target, lerr, sizeof lerr);
	hpm_run_opts ro = vo->run;
	hpm_run_result res, first_res = { 0 };
	int ran_failing = 0;      /* the program failed the same way on both sides */
	if (lrc == HPM_OK && p && v->t && program_setup("validate", v->t, p, &ro, v->pg)) {
		hpm_program_free(p);
		return -1;
	}
	if (lrc != HPM_OK) {
		fail("%s", lerr);
		if (v->junit)
			junit_case(v->junit, cls, "load", 0, JUNIT_ERROR, hpm_strerror(lrc), lerr, NULL);
		return -1;
	}
	const char *wname = p ? hpm_program_name(p) : target;
	snprintf(cls, sizeof cls, "validate.%s", wname);
	memset(hw, 0, sizeof hw);
	memset(ref, 0, sizeof ref);
	size_t k = 0;
	for (size_t start = 0, end; start < n; start = end, k++) {
		end = pack_end(v->l, start, hpm_get_info(b)->hpm_num);
		char *spec = pack_spec(v->l, start, end);
		char *name = spec ? malloc(64 + strlen(spec)) : NULL;
		hpm_evlist *sub = NULL;
		struct timespec t0;
		size_t got = 0;
		int rc, parsed = 1;

		if (!name) {
			free(spec);
			free(name);
			progress_clear(v->pg);
			fail("out of memory");
			hpm_program_free(p);
			return -1;
		}
		sprintf(name, "pack %zu of %zu: %s", k + 1, npacks, spec);
		if (failed || v->lost) {
			if (v->junit)
				junit_case(v->junit, cls, name, 0, JUNIT_SKIPPED, NULL,
					   v->lost ? v->lost_why : "not run: an earlier pack of this workload failed", NULL);
			free(spec);
			free(name);
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		/* the whole list in one pack: as given, else the pack on its own */
		if (end - start < n)
			parsed = parse_events(spec, &sub) == EXIT_OK;
		rc = parsed ? HPM_OK : HPM_E_EVENT;
		if (rc == HPM_OK)
			rc = hpm_validate_run(b, p, sub ? sub : v->l, &ro, hw + start, ref + start,
					      HPM_MAX_COUNTS - start, &got, &res);
		ro.on_output = NULL;     /* the program's output once, from the first pack */
		if (rc == HPM_E_RUN && got == end - start) {   /* compared: equal */
			if (!ran_failing++)
				first_res = res;
			rc = HPM_OK;
		}
		double secs = seconds_since(&t0);
		if (rc == HPM_E_INTERRUPTED) {
			progress_clear(v->pg);
			fprintf(stderr, "hpmctl: validate: %s; not validated\n", hpm_errmsg(b));
			hpm_evlist_free(sub);
			free(spec);
			free(name);
			hpm_program_free(p);
			return -2;
		}
		/* counts to compare only when both sides counted every event: a
		 * replay that differs is HPM_E_MISMATCH too, without counts */
		int counted = got == end - start;
		for (size_t i = start; counted && i < end; i++)
			counted = hw[i].ev && ref[i].ev;
		if (rc == HPM_E_MISMATCH && counted) {
			if (!first_mismatch[0])
				snprintf(first_mismatch, sizeof first_mismatch, "%s", hpm_errmsg(b));
		} else if (rc != HPM_OK) {
			const char *why = parsed ? hpm_errmsg(b) : "the pack's event list did not parse";
			progress_clear(v->pg);
			fail("validate: %s", why);
			if (rc == HPM_E_LINK || rc == HPM_E_TIMEOUT) {
				v->lost = 1;
				snprintf(v->lost_why, sizeof v->lost_why, "not run: the board was lost (%s)", why);
			}
			if (v->junit)
				junit_case(v->junit, cls, name, secs, JUNIT_ERROR, hpm_strerror(rc), why, NULL);
			failed = 1;
		}
		if (!failed && v->junit)
			junit_pack(v->junit, cls, name, secs, hw + start, ref + start, end - start);
		for (size_t i = start; i < end; i++)    /* sub is freed: the same events of l */
			hw[i].ev = ref[i].ev = hpm_evlist_at(v->l, i);
		hpm_evlist_free(sub);
		free(spec);
		free(name);
	}
	progress_clear(v->pg);
	if (failed || !p) {   /* an error, or the board lost before it */
		hpm_program_free(p);
		return -1;
	}
	if (first_mismatch[0])
		fail("validate: %s", first_mismatch);
	unsigned bad = 0;
	if (!vo->json && !vo->sep)
		fprintf(stderr, "\n Validation of '%s' (%s-mode) on %s against the reference model:\n\n"
			"   %-32s %20s %20s\n", wname, mode_name(vo->run.mode), hpm_get_info(b)->link,
			"event", "expected", "actual");
	for (size_t i = 0; i < n; i++) {
		const char *st = hw[i].value == ref[i].value ? "OK" : "MISMATCH";
		bad += hw[i].value != ref[i].value;
		if (vo->json) {
			fprintf(stderr, "{\"workload\" : ");
			json_string(stderr, wname);
			fprintf(stderr, ", \"event\" : ");
			json_string(stderr, hw[i].ev->name);
			fprintf(stderr, ", \"expected\" : \"%llu\", \"actual\" : \"%llu\", \"status\" : \"%s\"}\n",
				(unsigned long long)ref[i].value, (unsigned long long)hw[i].value, st);
		} else if (vo->sep) {
			fprintf(stderr, "%s%s%s%s%llu%s%llu%s%s\n", wname, vo->sep, hw[i].ev->name, vo->sep,
				(unsigned long long)ref[i].value, vo->sep, (unsigned long long)hw[i].value,
				vo->sep, st);
		} else {
			fprintf(stderr, "   %-32s %20s %20s   %s\n", hw[i].ev->name, fmt_count(ref[i].value, e),
				fmt_count(hw[i].value, a), st);
		}
	}
	if (!vo->json && !vo->sep) {
		if (bad)
			fprintf(stderr, "\n %s: MISMATCH (%u of %zu events differ)\n", wname, bad, n);
		else
			fprintf(stderr, "\n %s: OK (%zu events equal)\n", wname, n);
	}
	fflush(stderr);
	if (ran_failing)
		v->status = program_failed("validate", p, &first_res);
	hpm_program_free(p);
	return bad ? 1 : 0;
}

/* The board's identity and the run's settings, as JUnit properties. */
static void junit_identity(struct junit *j, const hpm_info *in, const char *events,
			   const hpm_run_opts *o)
{
	junit_property(j, "hpmctl.version", "%s", HPMCTL_VERSION);
	junit_property(j, "host.catalogue_hash", "0x%016llx", (unsigned long long)hpm_event_catalogue_hash());
	junit_property(j, "board.link", "%s", in->link);
	junit_property(j, "board.protocol_version", "%u", in->proto_version);
	junit_property(j, "board.firmware_version", "%u.%u", in->fw_version >> 8, in->fw_version & 0xff);
	junit_property(j, "board.hpm_configuration", "%ux%u", in->hpm_num, in->hpm_width);
	junit_property(j, "board.hpm_num", "%u", in->hpm_num);
	junit_property(j, "board.hpm_width", "%u", in->hpm_width);
	junit_property(j, "board.catalogue_hash", "0x%016llx", (unsigned long long)in->event_hash);
	junit_property(j, "board.clock_hz", "%u", (unsigned)in->clock_hz);
	junit_property(j, "board.uart_baud", "%u", (unsigned)in->uart_baud);
	junit_property(j, "board.mvendorid", "0x%08x", (unsigned)in->mvendorid);
	junit_property(j, "board.marchid", "0x%08x", (unsigned)in->marchid);
	junit_property(j, "board.mimpid", "0x%08x", (unsigned)in->mimpid);
	junit_property(j, "board.misa", "0x%08x", (unsigned)in->misa);
	junit_property(j, "board.ram", "0x%08x+0x%x", (unsigned)in->ram_base, (unsigned)in->ram_size);
	junit_property(j, "board.min_interval", "%u", (unsigned)in->min_interval);
	junit_property(j, "board.features", "0x%08x", (unsigned)in->features);
	junit_property(j, "validate.events", "%s", events ? events : "all");
	junit_property(j, "validate.mode", "%s", mode_name(o->mode));
	junit_property(j, "validate.size", "%u", (unsigned)o->a0);
	junit_property(j, "validate.budget", "%llu", (unsigned long long)o->budget);
}

static const char validate_help[] =
	"usage: hpmctl validate [-e EVENTS] [-x SEP | -j] [--junit FILE] [--mode u|s|m]\n"
	"                       [--size N] [--budget N] <workload|file.elf>... | --all\n"
	"       hpmctl validate [options] -- <file.elf> [ARGS]\n\n"
	"Runs each workload on the board and on the reference model (hpm-ref, with\n"
	"the board's counter configuration) and compares every count exactly:\n"
	"expected (reference) and actual (board) per event, OK or MISMATCH.\n"
	"The events are compared in packs of as many as the board has counters.\n"
	"Exits 1 if any count differs or any run fails; after a lost board\n"
	"(no reply, unplugged) nothing more runs. Ctrl-C ends the workload in\n"
	"progress and prints the summary so far. The table goes to stderr (as\n"
	"perf stat's counts). After '--', one program and its arguments (argv of\n"
	"a program built with hpm-cc): its output appears once, as it runs, and a\n"
	"program that fails the same way on both sides is compared all the same,\n"
	"its exit code then hpmctl's.\n\n"
	"  --all                    every built-in workload (hpmctl list --workloads)\n"
	"  -e, --event EVENTS       events to compare, -e may be repeated (default:\n"
	"                           every catalogue event)\n"
	"  -x, --field-separator S  CSV: workload, event, expected, actual, status\n"
	"  -j, --json               one JSON object per event\n"
	"  --junit FILE             also write a JUnit XML report (CI test reporters):\n"
	"                           a test case per workload and event pack, the board\n"
	"                           in <properties>, mismatches as <failure>\n"
	"  --junit-property NAME=VALUE\n"
	"                           one more property in the report (repeatable)\n"
	RUN_OPTIONS_HELP;

#define MAX_USER_PROPS 16

int cmd_validate(const struct cli *c, int argc, char **argv)
{
	enum { OPT_ALL = OPT_FIRST_FREE, OPT_JUNIT, OPT_JUNIT_PROP };
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, OPT_ALL },
		{ "event", required_argument, NULL, 'e' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "junit", required_argument, NULL, OPT_JUNIT },
		{ "junit-property", required_argument, NULL, OPT_JUNIT_PROP },
		{ "help", no_argument, NULL, 'h' },
		RUN_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct vopts vo = { 0 };
	const char *events = NULL, *wl, *junit_path = NULL, *props[MAX_USER_PROPS];
	unsigned nprops = 0;
	char *every = NULL;
	hpm_evlist *l = NULL;
	hpm_board *b = NULL;
	struct junit *junit = NULL;
	struct progress pg;
	struct timespec t0;
	int opt, rc, all = 0, named = 0;   /* named: -e given */
	int dashdash = 0;                  /* "-- prog.elf ARGS": one program and its arguments */
	struct target t;

	for (int i = 1; i < argc && !dashdash; i++)
		dashdash = !strcmp(argv[i], "--");

	clock_gettime(CLOCK_MONOTONIC, &t0);
	const struct cmd_opts co = { "validate", validate_help, ":e:x:jh", longopts, &vo.run };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		switch (opt) {
		case OPT_ALL: all = 1; break;
		case 'e':
			if ((rc = add_events(&every, optarg)))
				goto out;
			events = every;
			named = 1;
			break;
		case 'x': vo.sep = optarg; break;
		case 'j': vo.json = 1; break;
		case OPT_JUNIT:
			if (!*optarg)
				return usage_error("validate", "--junit needs a file name");
			junit_path = optarg;
			break;
		case OPT_JUNIT_PROP: {
			const char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				return usage_error("validate", "--junit-property '%s': expected NAME=VALUE", optarg);
			if (nprops == MAX_USER_PROPS)
				return usage_error("validate", "at most %d --junit-property options", MAX_USER_PROPS);
			props[nprops++] = optarg;
			break;
		}
		}
	}
	if (!opt)
		goto out;
	if (all && optind < argc)
		return usage_error("validate", "--all and a workload ('%s') cannot be combined", argv[optind]);
	if (!all && optind >= argc)
		return usage_error("validate", "missing workload (or --all)");
	if (vo.sep && vo.json)
		return usage_error("validate", "-x and -j cannot be combined");
	if (nprops && !junit_path)
		return usage_error("validate", "--junit-property needs --junit");
	if (!events && !(events = every = all_events()))
		return fail("out of memory");
	if ((rc = parse_events(events, &l)))
		goto out;
	if (dashdash && !all && (rc = program_operand("validate", argc, argv, &t)))
		goto out;
	/* check the named programs before starting the board */
	for (int i = optind; i < (dashdash ? optind + 1 : argc); i++) {
		hpm_program *p;
		hpm_run_opts ro = vo.run;
		if ((rc = load_program(argv[i], &p)))
			goto out;
		rc = dashdash && !all ? program_setup("validate", &t, p, &ro, &pg) : EXIT_OK;
		hpm_program_free(p);
		if (rc)
			goto out;
	}
	if (junit_path && !(junit = junit_new(junit_path))) {
		rc = EXIT_FAIL;
		goto out;
	}
	for (unsigned i = 0; i < nprops; i++) {
		const char *eq = strchr(props[i], '=');
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)(eq - props[i]), props[i]);
		junit_property(junit, name, "%s", eq + 1);
	}
	hpm_open_opts oo = { .verbose = !c->quiet };    /* "auto" says what it picked */
	char err[512];
	if ((rc = hpm_open(&b, c->link, &oo, err, sizeof err)) != HPM_OK) {
		fail("%s", err[0] ? err : "cannot open the board");
		if (junit) {   /* the report says why nothing ran */
			junit_property(junit, "board.link", "%s", c->link);
			junit_case(junit, "validate", "open the board", seconds_since(&t0), JUNIT_ERROR,
				   hpm_strerror(rc), err, NULL);
			junit_write(junit, "hpmctl validate", seconds_since(&t0));
		}
		rc = EXIT_FAIL;
		goto out;
	}
	if (junit)
		junit_identity(junit, hpm_get_info(b), named ? events : NULL, &vo.run);

	unsigned total = 0, ok = 0, mismatch = 0, notrun = 0, asked = 0;
	if (all)
		while (hpm_workload_at(asked, NULL))
			asked++;
	else
		asked = dashdash ? 1 : (unsigned)(argc - optind);
	struct vstate v = { .b = b, .l = l, .vo = &vo, .pg = &pg, .junit = junit, .t = dashdash && !all ? &t : NULL };
	/* Ctrl-C: the run in progress is stopped at its next tick (its
	 * workload is not validated), then the summary so far */
	catch_interrupt();
	interrupt_stops(b);
	progress_begin(&pg, "validate");
	for (size_t i = 0; !interrupted && i < asked; i++) {
		wl = all ? hpm_workload_at(i, NULL) : argv[optind + i];
		notrun += v.lost;
		int r = validate_one(&v, wl);
		if (r == -2)
			break;
		total++;
		ok += r == 0;
		mismatch += r == 1;
	}
	progress_end(&pg);
	if (notrun)
		fail("validate: the board was lost: %u of %u workloads not run", notrun, total);
	if (interrupted && !vo.json && !vo.sep)
		fprintf(stderr, "\n validate: interrupted after %u of %u workloads: %u OK, %u MISMATCH, %u failed to run\n\n",
			total, asked, ok, mismatch, total - ok - mismatch);
	else if (total > 1 && !vo.json && !vo.sep)
		fprintf(stderr, "\n validate: %u workloads: %u OK, %u MISMATCH, %u failed to run\n\n", total, ok,
			mismatch, total - ok - mismatch);
	rc = ok == total ? EXIT_OK : EXIT_FAIL;
	if (rc == EXIT_OK && v.status)
		rc = v.status;        /* the program's exit code, its counts equal */
	if (junit) {
		char suite[200];
		snprintf(suite, sizeof suite, "hpmctl validate on %s", hpm_get_info(b)->link);
		hold_interrupts(1);
		if (junit_write(junit, suite, seconds_since(&t0)))
			rc = EXIT_FAIL;
		hold_interrupts(0);
	}
out:
	interrupt_stops(NULL);
	junit_free(junit);
	hpm_close(b);
	hpm_evlist_free(l);
	free(every);
	return finish_interrupt(rc);
}
