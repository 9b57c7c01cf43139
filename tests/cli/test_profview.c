/* test_profview: hpmctl's views of a profile with call chains (host/cli/
 * views.c) and its perf.data export (perfdata.c), on a profile built here
 * over perf_calls.elf's functions (tests/programs/src), independent of
 * record -g: the
 * folded stacks, Children/Self, the call graph, --time, and what Linux
 * perf reads back from the perf.data (perf script's chains, perf report's
 * Children and Self). argv[1]: a scratch directory, argv[2]: perf_calls.elf. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hpmctl.h"
#include "profview.h"

static int passes, failures;

#define CHECK(cond, ...) do { \
	if (cond) passes++; \
	else { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
	} while (0)

static char out[1 << 16];

/* what f printed on stdout, into out[] */
#define CAPTURE(dir, call) do { \
	char cap[512]; \
	snprintf(cap, sizeof cap, "%s/capture.txt", dir); \
	fflush(stdout); \
	int keep = dup(1), fd = open(cap, O_CREAT | O_TRUNC | O_WRONLY, 0644); \
	dup2(fd, 1); \
	close(fd); \
	call; \
	fflush(stdout); \
	dup2(keep, 1); \
	close(keep); \
	FILE *cf = fopen(cap, "r"); \
	size_t cn = cf ? fread(out, 1, sizeof out - 1, cf) : 0; \
	out[cn] = '\0'; \
	if (cf) \
		fclose(cf); \
	} while (0)

/* a shell command's stdout into out[] */
static int run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	FILE *f = popen(cmd, "r");
	size_t n = f ? fread(out, 1, sizeof out - 1, f) : 0;
	out[n] = '\0';
	return f ? pclose(f) : -1;
}

static uint32_t addr_in(const hpm_program *p, const char *name, uint32_t off)
{
	const hpm_symbol *s;
	size_t n = hpm_program_symbols(p, &s);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].name, name))
			return s[i].addr + off;
	printf("FAIL: no symbol %s\n", name);
	exit(1);
}

int main(int argc, char **argv)
{
	char err[512], path[512];
	hpm_program *p;
	if (argc != 3 || hpm_program_load(&p, argv[2], err, sizeof err) != HPM_OK) {
		printf("usage: test_profview DIR perf_calls.elf (%s)\n", argc == 3 ? err : "");
		return 1;
	}
	/* 6 samples in inner called by outer called by main, 3 in outer, 1 in
	 * solo called by solo (a recursion) called by main;
	 * sample i at board time (i + 1) * 1000 cycles */
	uint32_t wm = addr_in(p, "main", 12), fill = addr_in(p, "outer", 8), sum = addr_in(p, "inner", 4);
	uint32_t div = addr_in(p, "solo", 12);
	hpm_prof_sample s[10];
	memset(s, 0, sizeof s);
	for (int i = 0; i < 10; i++) {
		s[i].index = (uint32_t)i;
		s[i].time = (uint64_t)(i + 1) * 1000;
		if (i < 6) {
			s[i].pc = sum;
			s[i].nstack = 2;
			s[i].stack[0] = fill + 8;
			s[i].stack[1] = wm;
		} else if (i < 9) {
			s[i].pc = fill;
			s[i].nstack = 1;
			s[i].stack[0] = wm;
		} else {
			s[i].pc = div;
			s[i].nstack = 2;
			s[i].stack[0] = div + 16;
			s[i].stack[1] = wm;
		}
	}
	hpm_profdata d = { .version = 2, .clock_hz = 1000000, .cycles = 10000, .nevents = 1, .nsamples = 10,
			   .samples = s };
	char *abs = realpath(hpm_program_path(p), NULL);    /* as record keeps it */
	snprintf(d.program, sizeof d.program, "%s", abs ? abs : "");
	free(abs);
	snprintf(d.event[0].name, sizeof d.event[0].name, "cycles");
	d.event[0].period = 1000;
	d.event[0].count = 10000;

	struct report_opts o = { 0 };
	int rc;
	CAPTURE(argv[1], rc = report_folded(&d, p, 0, &o));
	CHECK(rc == 0 && !strcmp(out, "main;outer 3\nmain;outer;inner 6\nmain;solo;solo 1\n"),
	      "folded:\n%s", out);

	o.children = 1;
	CAPTURE(argv[1], rc = report_table(&d, p, 0, &o));
	CHECK(rc == 0 && strstr(out, "# Children      Self  Symbol\n") &&
	      strstr(out, "\n   100.00%     0.00%  main\n    90.00%    30.00%  outer\n"
			  "    60.00%    60.00%  inner\n    10.00%    10.00%  solo\n"),
	      "children (solo once for its recursion):\n%s", out);

	o.children = 0;
	o.graph = 1;
	CAPTURE(argv[1], rc = report_table(&d, p, 0, &o));
	CHECK(rc == 0 && strstr(out, "    60.00%  inner\n            |\n            ---outer\n               main\n\n"),
	      "no-children graph: inner's callers in callee order:\n%s", out);

	o.children = 1;
	CAPTURE(argv[1], rc = report_table(&d, p, 0, &o));
	CHECK(rc == 0 && strstr(out, "    90.00%    30.00%  outer\n            |\n             --60.00%--inner\n\n"
			       "    60.00%    60.00%  inner\n    10.00%    10.00%  solo\n            |\n"
			       "            ---solo\n\n"),
	      "children graph: outer's callees in caller order:\n%s", out);

	/* --time: 0%-50% of 10000 cycles keeps samples 0..4 (at 1000..5000) */
	o.graph = 0;
	CHECK(time_range_parse("report", "0%-50%", &d, &o.time) == 0, "time percent");
	CAPTURE(argv[1], rc = report_folded(&d, p, 0, &o));
	CHECK(!strcmp(out, "main;outer;inner 5\n"), "--time 0%%-50%%:\n%s", out);
	memset(&o.time, 0, sizeof o.time);
	CHECK(time_range_parse("report", "0.0055,0.0095", &d, &o.time) == 0, "time seconds");
	CAPTURE(argv[1], rc = report_folded(&d, p, 0, &o));
	CHECK(!strcmp(out, "main;outer 3\nmain;outer;inner 1\n"), "--time 0.0055,0.0095:\n%s", out);
	memset(&o.time, 0, sizeof o.time);
	CHECK(time_range_parse("report", "2,1", &d, &o.time) == EXIT_USAGE, "an empty range");

	/* perf reads the chains back */
	snprintf(path, sizeof path, "%s/chains.perf.data", argv[1]);
	CHECK(perf_data_write(&d, path, err, sizeof err) == 0, "perf_data_write: %s", err);
	rc = run("perf script -i '%s' -F comm,time,event,ip,sym 2>&1", path);
	const char *at = strstr(out, "perf_calls.elf     0.006000: cycles: \n");
	const char *a = at ? strstr(at, " inner\n") : NULL, *b = a ? strstr(a, " outer\n") : NULL;
	const char *m = b ? strstr(b, " main\n") : NULL, *end = at ? strstr(at, "\n\n") : NULL;
	CHECK(rc == 0 && m && end && m < end, "perf script: the sixth sample at 6 ms of board time, its chain:\n%s", out);
	rc = run("perf report -i '%s' --stdio --children --sort sym 2>&1 | grep '%%'", path);
	CHECK(rc == 0 && strstr(out, "90.00%    30.00%  [.] outer") && strstr(out, "100.00%     0.00%  [.] main") &&
	      strstr(out, "10.00%    10.00%  [.] solo"), "perf report --children:\n%s", out);

	hpm_program_free(p);
	printf("test_profview: %d passed, %d failed\n", passes, failures);
	return failures != 0;
}
