/* hpmctl.h: what the hpmctl subcommands share (common.c, progress.c).
 * hpmctl uses only libhpm's public API (hpm.h). */
#ifndef HPMCTL_H
#define HPMCTL_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "hpm.h"

#define HPMCTL_VERSION HPM_LIB_VERSION

/* Exit codes (docs/hpmctl.md, EXIT STATUS). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Global options, given before the subcommand. */
struct cli {
	const char *link;     /* --link, else $HPM_LINK, else "auto" */
	int quiet;            /* -q: no "link auto" notice */
};

/* Subcommands: argv[0] is the subcommand's name. */
int cmd_info(const struct cli *c, int argc, char **argv);
int cmd_list(const struct cli *c, int argc, char **argv);
int cmd_stat(const struct cli *c, int argc, char **argv);
int cmd_topdown(const struct cli *c, int argc, char **argv);
int cmd_record(const struct cli *c, int argc, char **argv);
int cmd_record_profile(const struct cli *c, int argc, char **argv);   /* record -c */
int cmd_report(const struct cli *c, int argc, char **argv);
int cmd_annotate(const struct cli *c, int argc, char **argv);
int cmd_script(const struct cli *c, int argc, char **argv);
int cmd_validate(const struct cli *c, int argc, char **argv);
int cmd_csr(const struct cli *c, int argc, char **argv);
int cmd_run(const struct cli *c, int argc, char **argv);
int cmd_boards(const struct cli *c, int argc, char **argv);

/* ---- errors: exactly one line on stderr, "hpmctl: ..." ---- */

/* Prints the message; returns EXIT_FAIL. */
int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A malformed command line: prints the message and where help is;
 * returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* getopt_long returned '?' or ':'. */
int bad_option(const char *cmd, int c, char **argv);

/* ---- command-line values ---- */

int parse_u64(const char *s, uint64_t *v);     /* decimal or 0x...; 0 = ok */
/* An interval "N" or "Nms" (milliseconds, as perf), "Nus" or "Ncycles":
 * *v = N and *per_second = 1000, 1000000 or 0 (N is in cycles). 0 = ok,
 * -1 malformed, -2 too large. */
int parse_interval(const char *s, uint64_t *v, unsigned *per_second);
/* The same with the usage error printed (returns EXIT_USAGE, or 0). */
int interval_option(const char *cmd, const char *s, uint64_t *v, unsigned *per_second);
/* That interval in board cycles (at least 1: below the board's minimum the
 * board itself refuses it, with its minimum in the message). */
uint64_t interval_cycles(uint64_t v, unsigned per_second, uint32_t clock_hz);

/* --mode, --size, --budget: the options every measuring subcommand takes. */
enum { OPT_MODE = 0x100, OPT_SIZE, OPT_BUDGET, OPT_FIRST_FREE };
#define RUN_LONG_OPTIONS \
	{ "mode", required_argument, NULL, OPT_MODE }, \
	{ "size", required_argument, NULL, OPT_SIZE }, \
	{ "budget", required_argument, NULL, OPT_BUDGET }
#define RUN_OPTIONS_HELP \
	"  --mode u|s|m   privilege mode of the workload (default u)\n" \
	"  --size N       workload size argument (a0; 0 = the workload's default)\n" \
	"  --budget N     stop the workload after N cycles (default 2^40)\n"

/* A subcommand's options. */
struct option;
struct cmd_opts {
	const char *cmd;                  /* its name, for errors */
	const char *help;                 /* what -h and --help print */
	const char *shortopts;            /* getopt_long's: ':' first, 'h' */
	const struct option *longopts;    /* with "help" (and RUN_LONG_OPTIONS if ro) */
	hpm_run_opts *ro;                 /* takes --mode, --size, --budget; NULL: not */
};
/* The next of the command's own options (getopt_long's value, optarg set);
 * -1 after the last, *rc EXIT_OK. 0 when the command ends with *rc: EXIT_OK
 * after printing its help, EXIT_USAGE after a bad option or value. */
int next_option(const struct cmd_opts *o, int argc, char **argv, int *rc);
/* EXIT_OK when no operand follows the options, else a usage error. */
int no_operands(const char *cmd, int argc, char **argv);
const char *mode_name(enum hpm_privilege m);   /* "U", "S", "M" */

/* The one positional operand of a subcommand (workload or ELF). */
int one_operand(const char *cmd, int argc, char **argv, const char **out);

/* The program operand and the arguments after it ("-- prog.elf a b"). */
struct target {
	const char *name;
	int argc;                    /* argv[0] is the program as given */
	const char *const *argv;
};
int program_operand(const char *cmd, int argc, char **argv, struct target *t);
struct progress;
/* After loading: main's arguments for SDK programs (others take none), and
 * the program's output shown as it comes (clearing the progress line). */
int program_setup(const char *cmd, const struct target *t, const hpm_program *p,
		  hpm_run_opts *ro, struct progress *pg);
/* perf's exit status for a program: its exit code (1 if above 255, or
 * for a trap, the budget or an abort). */
int program_exit_status(const hpm_run_result *r);
/* "load access fault at 0x00000000", "breakpoint", ... */
char *trap_name(uint32_t mcause, uint32_t mtval, char *buf, size_t len);

/* ---- libhpm with errors reported ---- */

int open_board(const struct cli *c, hpm_board **b);
int load_program(const char *name, hpm_program **p);
int parse_events(const char *spec, hpm_evlist **l);
/* Why the run did not end cleanly (NULL if it did: exit ecall 0 or tohost 1). */
const char *run_failure(const hpm_run_result *r, char *buf, size_t len);
const char *exit_reason_name(enum hpm_exit_reason r);

/* -e given again: appends spec to *acc (malloc'd), comma separated. */
int add_events(char **acc, const char *spec);
/* A program that ran and failed: one line (exit code, decoded trap),
 * returns program_exit_status. */
int program_failed(const char *cmd, const hpm_program *p, const hpm_run_result *r);

/* Ctrl-C: catch_interrupt() makes the first SIGINT set `interrupted`;
 * with interrupt_stops(b) it also stops the run on b (hpm_interrupt: ABORT
 * at its next tick; NULL before b is closed); the command prints what it
 * has, marked as partial, and finish_interrupt(rc) then dies of SIGINT as
 * perf does, after the board (and a spawned simulator) is closed. A second
 * SIGINT kills at once, except while hold_interrupts(1) defers it, around
 * the writing of a file, so that no file is left empty or torn. */
#include <signal.h>
extern volatile sig_atomic_t interrupted;
void catch_interrupt(void);
void interrupt_stops(hpm_board *b);
void hold_interrupts(int hold);
/* stat --timeout: after ms of wall time the run on the interrupt_stops
 * board is stopped as by Ctrl-C, with `timed_out` set instead. */
extern volatile sig_atomic_t timed_out;
int stop_after_ms(unsigned ms);
int finish_interrupt(int rc);

/* ---- output ---- */

/* 1234567 -> "1,234,567" into buf (at least 27 bytes); returns buf. */
char *fmt_count(uint64_t v, char *buf);

/* tdsplit.c. Splits units among n <= TD_MAX_ITEMS items in proportion to
 * w[] (largest remainder: floors first, then one unit each to the largest
 * remainders, earlier items first on ties); the results sum to units. */
#define TD_MAX_ITEMS 16
void td_largest_remainder(const uint64_t *w, size_t n, unsigned units, unsigned *out);
/* Board time of c cycles: nanoseconds, exact integer arithmetic. */
uint64_t cycles_to_ns(uint64_t c, uint32_t clock_hz);
/* A JSON string literal, quotes included. */
void json_string(FILE *f, const char *s);

/* ---- JUnit XML reports (junit.c) ---- */

enum junit_result { JUNIT_PASS, JUNIT_FAILURE, JUNIT_ERROR, JUNIT_SKIPPED };
struct junit;
/* NULL (the reason printed) if PATH.tmp cannot be written. */
struct junit *junit_new(const char *path);
void junit_property(struct junit *j, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* One test case; type, message and detail (element text) only when it did
 * not pass. */
void junit_case(struct junit *j, const char *classname, const char *name, double seconds,
		enum junit_result res, const char *type, const char *message, const char *detail);
/* Writes the report (PATH.tmp renamed to PATH); EXIT_OK or EXIT_FAIL. */
int junit_write(struct junit *j, const char *suite, double seconds);
void junit_free(struct junit *j);

/* ---- progress on stderr: only if it is a terminal and after 1 s ---- */

struct progress {
	int enabled;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int done, shown;
	struct timespec start;
	char what[160];
};
void progress_begin(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void progress_set(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Erases the line before other output; it reappears after another second. */
void progress_clear(struct progress *p);
void progress_end(struct progress *p);   /* erases the line if it was shown */

#endif
