/* hpmctl: perf-style measurement of an hpm-overlay board (or the simulated
 * board) from the command line. Global options, then one subcommand. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "hpmctl.h"

static const struct {
	const char *name;
	int (*run)(const struct cli *, int, char **);
	const char *brief;
} commands[] = {
	{ "info",     cmd_info,     "the board: link, versions, ISA, counters, clock" },
	{ "list",     cmd_list,     "the events (or --workloads); --json: perf pmu-events JSON" },
	{ "stat",     cmd_stat,     "count events on a workload, like perf stat" },
	{ "topdown",  cmd_topdown,  "top-down breakdown of a workload's slots, levels 1 and 2" },
	{ "record",   cmd_record,   "sample counters every N cycles into CSV/JSON, optional SVG plot" },
	{ "report",   cmd_report,   "a sampling profile (record -c) by symbol or pc, folded, JSON" },
	{ "annotate", cmd_annotate, "a profiled function's disassembly with samples per instruction" },
	{ "script",   cmd_script,   "a profile's samples one per line (and call chains), as perf script" },
	{ "validate", cmd_validate, "compare the board's counts with the reference model" },
	{ "csr",      cmd_csr,      "read or write a CSR on the board" },
	{ "run",      cmd_run,      "upload a workload or ELF and run it once" },
	{ "boards",   cmd_boards,   "list the USB boards attached (serial, port, firmware, HPM)" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
	fputs("usage: hpmctl [--link LINK] <command> [options] [workload]\n"
	      "       hpmctl --version | --help | <command> --help\n\n"
	      "global options:\n"
	      "  --link LINK    sim, usb, usb::SERIAL, usb:VID:PID[:serial], tty:PATH,\n"
	      "                 tcp:HOST:PORT, rfc2217:HOST:PORT, auto or ref\n"
	      "                 (hpmctl boards lists the serials)\n"
	      "                 (default $HPM_LINK, else auto: a USB board if one is\n"
	      "                 attached, else the simulated board)\n"
	      "  -q, --quiet    no 'link auto' notice on stderr\n"
	      "  --version      print versions and exit\n"
	      "  --help         this text\n\n"
	      "commands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].brief);
	fputs("\nA workload is a name from 'hpmctl list --workloads' or an RV32 ELF file.\n"
	      "See docs/hpmctl.md.\n", f);
}

int main(int argc, char **argv)
{
	enum { OPT_LINK = 0x200, OPT_VERSION };
	static const struct option longopts[] = {
		{ "link", required_argument, NULL, OPT_LINK },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli cli = { getenv("HPM_LINK"), 0 };
	int c;

	if (!cli.link || !*cli.link)
		cli.link = "auto";
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_LINK:
			cli.link = optarg;
			break;
		case OPT_VERSION:
			printf("hpmctl %s (libhpm %s, event catalogue 0x%016llx)\n", HPMCTL_VERSION,
			       HPM_LIB_VERSION, (unsigned long long)hpm_event_catalogue_hash());
			return EXIT_OK;
		case 'q':
			cli.quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return bad_option(NULL, c, argv);
		}
	}
	if (optind >= argc)
		return usage_error(NULL, "missing command");
	char err[512];
	if (strcmp(argv[optind], "list") && hpm_link_check(cli.link, err, sizeof err))   /* list needs no board */
		return usage_error(NULL, "%s", err);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[optind], commands[i].name)) {
			int sub_argc = argc - optind;
			char **sub_argv = argv + optind;
			optind = 0;     /* getopt starts afresh for the subcommand */
			int rc = commands[i].run(&cli, sub_argc, sub_argv);
			if ((fflush(stdout) || ferror(stdout)) && rc == EXIT_OK)
				return fail("writing the output failed");
			return rc;
		}
	return usage_error(NULL, "unknown command '%s'", argv[optind]);
}
