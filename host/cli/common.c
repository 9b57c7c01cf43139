/* Helpers shared by the subcommands: one-line errors, option values, opening
 * the board and loading programs with their errors reported, number and JSON
 * formatting. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "hpmctl.h"

int fail(const char *fmt, ...)
{
	va_list ap;
	fputs("hpmctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAIL;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fputs("hpmctl: ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'hpmctl %s%s--help')\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

int bad_option(const char *cmd, int c, char **argv)
{
	const char *arg = argv[optind - 1];
	if (c == ':') {
		if (optopt && optopt < 0x100)
			return usage_error(cmd, "option '-%c' needs a value", optopt);
		return usage_error(cmd, "option '%s' needs a value", arg);
	}
	if (optopt && optopt < 0x100)
		return usage_error(cmd, "unknown option '-%c'", optopt);
	return usage_error(cmd, "unknown option '%s'", arg);
}

int parse_u64(const char *s, uint64_t *v)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *d = s + 2 * hex;
	char *end;
	if (!*d)
		return -1;
	for (const char *q = d; *q; q++)
		if (!(hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q)))
			return -1;
	errno = 0;
	unsigned long long x = strtoull(d, &end, hex ? 16 : 10);
	if (errno)
		return -1;
	*v = x;
	return 0;
}

int parse_interval(const char *s, uint64_t *v, unsigned *per_second)
{
	char num[32];
	size_t d = strspn(s, "0123456789");
	const char *unit = s + d;
	if (!*unit || !strcmp(unit, "ms"))
		*per_second = 1000;
	else if (!strcmp(unit, "us"))
		*per_second = 1000000;
	else if (!strcmp(unit, "cycles"))
		*per_second = 0;
	else
		return -1;
	if (!d)
		return -1;
	if (d >= sizeof num)
		return -2;
	memcpy(num, s, d);
	num[d] = '\0';
	if (parse_u64(num, v))
		return -2;          /* all digits: only too large fails */
	if (!*v)
		return -1;
	/* a time is at most 10^9 units, so that N x clock_hz cannot overflow */
	return *per_second && *v > 1000000000u ? -2 : 0;
}

int interval_option(const char *cmd, const char *s, uint64_t *v, unsigned *per_second)
{
	int rc = parse_interval(s, v, per_second);
	if (rc == -2)
		return usage_error(cmd, "-I '%s': too large (at most 1000000000 ms or us, 2^64-1 cycles)", s);
	if (rc)
		return usage_error(cmd, "-I '%s': expected milliseconds (as perf), or a time like 5ms, 200us or 20000cycles", s);
	return EXIT_OK;
}

int add_events(char **acc, const char *spec)
{
	size_t old = *acc ? strlen(*acc) : 0;
	char *s = realloc(*acc, old + strlen(spec) + 2);
	if (!s)
		return fail("out of memory");
	if (old)
		s[old++] = ',';
	strcpy(s + old, spec);
	*acc = s;
	return EXIT_OK;
}

int program_failed(const char *cmd, const hpm_program *p, const hpm_run_result *r)
{
	char why[200];
	if (!run_failure(r, why, sizeof why))
		return EXIT_OK;
	fail("%s: %s: %s", cmd, hpm_program_name(p), why);
	return program_exit_status(r);
}

/* ---- Ctrl-C: the command prints what it has, then dies of SIGINT (perf) ---- */

volatile sig_atomic_t interrupted, timed_out;
static hpm_board *volatile stop_board;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
	if (stop_board)
		hpm_interrupt(stop_board);
	static const char msg[] = "\nhpmctl: interrupted: printing what there is (^C again to quit)\n";
	static const char stop[] = "\nhpmctl: interrupted: stopping the run at its next tick (^C again to quit)\n";
	ssize_t w = stop_board ? write(STDERR_FILENO, stop, sizeof stop - 1) : write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)w;
}

static void on_timeout(int sig)
{
	(void)sig;
	timed_out = 1;
	if (stop_board)
		hpm_interrupt(stop_board);
}

void interrupt_stops(hpm_board *b)
{
	stop_board = b;
	if (b && (interrupted || timed_out))
		hpm_interrupt(b);    /* ^C came before the board was open */
}

void catch_interrupt(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_interrupt;
	sa.sa_flags = SA_RESETHAND | SA_RESTART;   /* a second ^C quits */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

int stop_after_ms(unsigned ms)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 0 }, { ms / 1000, (long)(ms % 1000) * 1000 } };
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_timeout;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL))
		return fail("--timeout: %s", strerror(errno));
	return EXIT_OK;
}

void hold_interrupts(int hold)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigprocmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL);
}

int finish_interrupt(int rc)
{
	if (!interrupted)
		return rc;
	fflush(stdout);
	signal(SIGINT, SIG_DFL);
	raise(SIGINT);
	return rc;
}

uint64_t interval_cycles(uint64_t v, unsigned per_second, uint32_t clock_hz)
{
	uint64_t c = per_second ? v * clock_hz / per_second : v;
	return c ? c : 1;
}

const char *mode_name(enum hpm_privilege m)
{
	return m == HPM_MODE_MACHINE ? "M" : m == HPM_MODE_SUPERVISOR ? "S" : "U";
}

/* --mode, --size or --budget into o */
static int run_option(const char *cmd, int opt, const char *arg, hpm_run_opts *o)
{
	uint64_t v;
	switch (opt) {
	case OPT_MODE:
		if (!strcasecmp(arg, "u") || !strcasecmp(arg, "user"))
			o->mode = HPM_MODE_USER;
		else if (!strcasecmp(arg, "s") || !strcasecmp(arg, "supervisor"))
			o->mode = HPM_MODE_SUPERVISOR;
		else if (!strcasecmp(arg, "m") || !strcasecmp(arg, "machine"))
			o->mode = HPM_MODE_MACHINE;
		else
			return usage_error(cmd, "--mode '%s': expected u, s or m", arg);
		return EXIT_OK;
	case OPT_SIZE:
		if (parse_u64(arg, &v) || v > UINT32_MAX)
			return usage_error(cmd, "--size '%s': expected a 32-bit number", arg);
		o->a0 = (uint32_t)v;
		return EXIT_OK;
	default:
		if (parse_u64(arg, &v) || !v)
			return usage_error(cmd, "--budget '%s': expected a number of cycles > 0", arg);
		o->budget = v;
		return EXIT_OK;
	}
}

int next_option(const struct cmd_opts *o, int argc, char **argv, int *rc)
{
	int opt;
	*rc = EXIT_OK;
	while ((opt = getopt_long(argc, argv, o->shortopts, o->longopts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(o->help, stdout);
			return 0;
		}
		if (opt == ':' || opt == '?') {
			*rc = bad_option(o->cmd, opt, argv);
			return 0;
		}
		if (!o->ro || opt < OPT_MODE || opt > OPT_BUDGET)
			return opt;
		if ((*rc = run_option(o->cmd, opt, optarg, o->ro)))
			return 0;
	}
	return -1;
}

int no_operands(const char *cmd, int argc, char **argv)
{
	if (optind < argc)
		return usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	return EXIT_OK;
}

int program_operand(const char *cmd, int argc, char **argv, struct target *t)
{
	if (optind >= argc)
		return usage_error(cmd, "missing workload (a name from 'hpmctl list --workloads' or an ELF file)");
	t->name = argv[optind];
	t->argc = argc - optind;
	t->argv = (const char *const *)argv + optind;
	return EXIT_OK;
}

static void show_output(void *ctx, int fd, const void *data, size_t len)
{
	struct progress *pg = ctx;
	FILE *f = fd == 2 ? stderr : stdout;
	progress_clear(pg);
	fwrite(data, 1, len, f);
	fflush(f);
}

int program_setup(const char *cmd, const struct target *t, const hpm_program *p,
		  hpm_run_opts *ro, struct progress *pg)
{
	if (hpm_program_takes_args(p)) {
		if (ro->a0)
			return usage_error(cmd, "--size is for workloads; '%s' takes arguments after '--'",
					   t->name);
		ro->argc = (unsigned)t->argc;
		ro->argv = t->argv;
	} else if (t->argc > 1) {
		return usage_error(cmd, "unexpected argument '%s' ('%s' takes no arguments; programs built with hpm-cc do)",
				   t->argv[1], t->name);
	}
	ro->on_output = show_output;
	ro->output_ctx = pg;
	return EXIT_OK;
}

int one_operand(const char *cmd, int argc, char **argv, const char **out)
{
	if (optind >= argc)
		return usage_error(cmd, "missing workload (a name from 'hpmctl list --workloads' or an ELF file)");
	if (optind + 1 < argc)
		return usage_error(cmd, "unexpected argument '%s'", argv[optind + 1]);
	*out = argv[optind];
	return EXIT_OK;
}

int open_board(const struct cli *c, hpm_board **b)
{
	hpm_open_opts o = { .verbose = !c->quiet };    /* "auto" says what it picked */
	char err[512];
	if (hpm_open(b, c->link, &o, err, sizeof err) != HPM_OK)
		return fail("%s", err[0] ? err : "cannot open the board");
	return EXIT_OK;
}

int load_program(const char *name, hpm_program **p)
{
	char err[512];
	if (hpm_program_load(p, name, err, sizeof err) != HPM_OK)
		return fail("%s", err);
	return EXIT_OK;
}

int parse_events(const char *spec, hpm_evlist **l)
{
	char err[512];
	if (hpm_evlist_parse(l, spec, err, sizeof err) != HPM_OK)
		return fail("%s", err);
	return EXIT_OK;
}

const char *exit_reason_name(enum hpm_exit_reason r)
{
	switch (r) {
	case HPM_EXIT_REASON_ECALL:   return "exit ecall";
	case HPM_EXIT_REASON_TOHOST:  return "tohost";
	case HPM_EXIT_REASON_TRAP:    return "trap";
	case HPM_EXIT_REASON_BUDGET:  return "budget exhausted";
	case HPM_EXIT_REASON_ABORTED: return "aborted";
	}
	return "unknown";
}

/* The trap codes of hw/csr.def (mcause constants): the privileged spec's
 * names, interrupts named int_*. */
static const struct { const char *csr, *name; unsigned code; const char *what; } causes[] = {
#define HPM_CONST(csr, name, value, brief) { #csr, #name, value, brief },
#include "csr.def"
#undef HPM_CONST
};

char *trap_name(uint32_t mcause, uint32_t mtval, char *buf, size_t len)
{
	int irq = (int)(mcause >> 31);
	uint32_t code = mcause & 0x7fffffffu;
	for (size_t i = 0; i < sizeof causes / sizeof causes[0]; i++) {
		const char *what = causes[i].what;
		if (strcmp(causes[i].csr, "mcause") || causes[i].code != code ||
		    (strncmp(causes[i].name, "int_", 4) == 0) != irq)
			continue;
		if (!strcmp(causes[i].name, "illegal_insn"))
			snprintf(buf, len, "%s 0x%08x", what, (unsigned)mtval);
		else if (strstr(what, "misaligned") || strstr(what, "fault"))  /* mtval = the address */
			snprintf(buf, len, "%s at 0x%08x", what, (unsigned)mtval);
		else
			snprintf(buf, len, "%s", what);
		return buf;
	}
	snprintf(buf, len, irq ? "interrupt %u" : "exception %u", (unsigned)code);
	return buf;
}

int program_exit_status(const hpm_run_result *r)
{
	if (r->reason == HPM_EXIT_REASON_ECALL)
		return r->code <= 255 ? (int)r->code : EXIT_FAIL;
	if (r->reason == HPM_EXIT_REASON_TOHOST)
		return r->code == 1 ? EXIT_OK : EXIT_FAIL;
	return EXIT_FAIL;
}

const char *run_failure(const hpm_run_result *r, char *buf, size_t len)
{
	char trap[96];
	switch (r->reason) {
	case HPM_EXIT_REASON_ECALL:
		if (!r->code)
			return NULL;
		snprintf(buf, len, "exited with code %u", (unsigned)r->code);
		break;
	case HPM_EXIT_REASON_TOHOST:
		if (r->code == 1)
			return NULL;
		snprintf(buf, len, "the program failed (tohost = 0x%x)", (unsigned)r->code);
		break;
	case HPM_EXIT_REASON_TRAP:
		snprintf(buf, len, "trapped: %s, pc 0x%08x (mcause 0x%x, mtval 0x%x)",
			 trap_name(r->mcause, r->mtval, trap, sizeof trap), (unsigned)r->mepc,
			 (unsigned)r->mcause, (unsigned)r->mtval);
		break;
	case HPM_EXIT_REASON_BUDGET:
		snprintf(buf, len, "stopped by the budget after %llu cycles (mtime)",
			 (unsigned long long)r->elapsed);
		break;
	default:
		snprintf(buf, len, "the run ended with reason %s", exit_reason_name(r->reason));
		break;
	}
	return buf;
}

char *fmt_count(uint64_t v, char *buf)
{
	char digits[24];
	int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), o = 0;
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

uint64_t cycles_to_ns(uint64_t c, uint32_t clock_hz)
{
	return c / clock_hz * 1000000000ull + c % clock_hz * 1000000000ull / clock_hz;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}
