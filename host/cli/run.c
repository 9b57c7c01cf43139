/* hpmctl run: upload a workload or ELF, run it once, report how it ended. */
#include <getopt.h>
#include "hpmctl.h"

static const char run_help[] =
	"usage: hpmctl run [--mode u|s|m] [--size N] [--budget N] <workload|file.elf> [-- ARGS]\n\n"
	"Uploads the program (verified by read-back CRC), runs it once in the given\n"
	"mode and prints the exit reason and code, the mode at exit, cycles and\n"
	"instructions (mcycle, minstret) and the elapsed time as the monitor\n"
	"measures it with mtime (docs/protocol.md 6.3), on stderr. The program's output\n"
	"appears as it runs; programs built with hpm-cc get ARGS as argv. Exits\n"
	"with the program's exit code (1 for a trap or the budget).\n\n"
	RUN_OPTIONS_HELP;

int cmd_run(const struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		RUN_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	hpm_run_opts ro = { 0 };
	hpm_program *p = NULL;
	hpm_board *b = NULL;
	hpm_run_result r;
	struct progress pg;
	struct target t;
	char num[32], why[200];
	int rc;

	const struct cmd_opts co = { "run", run_help, ":h", longopts, &ro };
	if (next_option(&co, argc, argv, &rc) >= 0 || (rc = program_operand("run", argc, argv, &t)))
		return rc;
	if ((rc = load_program(t.name, &p)) || (rc = program_setup("run", &t, p, &ro, &pg)) ||
	    (rc = open_board(c, &b)))
		goto out;
	progress_begin(&pg, "run %s", t.name);
	/* Ctrl-C stops the run at its next tick: its result (aborted) */
	catch_interrupt();
	interrupt_stops(b);
	int st = hpm_run(b, p, &ro, NULL, 0, &r);
	progress_end(&pg);
	if (st != HPM_OK) {
		rc = fail("%s", hpm_errmsg(b));
		goto out;
	}
	const hpm_info *in = hpm_get_info(b);
	if (hpm_program_takes_args(p))
		fprintf(stderr, "\n Run of '%s' (%s-mode, entry 0x%08x, %u argument%s) on %s:\n\n",
			hpm_program_name(p), mode_name(ro.mode), (unsigned)hpm_program_entry(p),
			(unsigned)t.argc - 1, t.argc == 2 ? "" : "s", in->link);
	else
		fprintf(stderr, "\n Run of '%s' (%s-mode, entry 0x%08x, size %u%s) on %s:\n\n", hpm_program_name(p),
			mode_name(ro.mode), (unsigned)hpm_program_entry(p), (unsigned)ro.a0,
			ro.a0 ? "" : " = default", in->link);
	fprintf(stderr, "   exit reason:     %s\n", exit_reason_name(r.reason));
	fprintf(stderr, "   exit code:       %u\n", (unsigned)r.code);
	fprintf(stderr, "   mode at exit:    %s\n", mode_name((enum hpm_privilege)r.priv));
	if (r.reason == HPM_EXIT_REASON_TRAP)
		fprintf(stderr, "   trap:            %s, pc 0x%08x (mcause 0x%x, mtval 0x%x)\n",
			trap_name(r.mcause, r.mtval, why, sizeof why), (unsigned)r.mepc,
			(unsigned)r.mcause, (unsigned)r.mtval);
	fprintf(stderr, "   cycles:          %s\n", fmt_count(r.snap.value[0], num));
	fprintf(stderr, "   instructions:    %s\n", fmt_count(r.snap.value[2], num));
	uint64_t sc, si;
	if (hpm_program_takes_args(p) && hpm_startup_cost(b, p, &sc, &si) == HPM_OK) {
		fprintf(stderr, "   start-up:        %s cycles", fmt_count(sc, num));
		fprintf(stderr, ", %s instructions before main (crt0: .bss clear, constructors)\n",
			fmt_count(si, num));
	}
	fprintf(stderr, "   elapsed (mtime): %s cycles (%.9f s board time)\n\n", fmt_count(r.elapsed, num),
		(double)r.elapsed / in->clock_hz);
	if (r.reason == HPM_EXIT_REASON_ABORTED && interrupted) {
		fprintf(stderr, "hpmctl: run: %s: interrupted: the run was stopped at %llu cycles\n",
			hpm_program_name(p), (unsigned long long)r.snap.value[0]);
	} else if (run_failure(&r, why, sizeof why)) {
		fail("run: %s: %s", hpm_program_name(p), why);
		rc = program_exit_status(&r);
	}
out:
	interrupt_stops(NULL);
	hpm_close(b);
	hpm_program_free(p);
	return finish_interrupt(rc);
}
