/* hpmctl script: a profile's samples one by one in perf script's text
 * (comm, pid, board time, period, event, ip, symbol+offset, the ELF), the
 * call chain of each below it, for flame-graph tools and scripts. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "hpmctl.h"
#include "profview.h"

static const char script_help[] =
	"usage: hpmctl script [-i prof.data] [--time START,END]\n\n"
	"Prints the samples of a profile (hpmctl record -c) in their order, as\n"
	"perf script prints a perf.data file: the program's name and pid (1),\n"
	"the board time in seconds since the run started (with a profile that\n"
	"has it), the event's period and name, the pc, its symbol+offset and the\n"
	"ELF. With call chains (record -g): the pc and each caller's return\n"
	"address on a line of its own under the sample, then an empty line.\n\n"
	"  -i, --input FILE   the profile (default prof.data)\n"
	"  --time START,END   only the samples in that board time: seconds since the\n"
	"                     run started (either may be empty), or P%-Q% of the run\n";

/* "update_table+0x12 (/path/prog.elf)" or "[unknown] ([unknown])" */
static void where(const hpm_program *p, const char *elf, uint32_t addr)
{
	char buf[16];
	uint32_t off;
	const char *name = frame_name(p, addr, buf, sizeof buf, &off);
	if (name == buf)
		printf("[unknown] (%s)", elf);
	else
		printf("%s+0x%x (%s)", name, (unsigned)off, elf);
}

int cmd_script(const struct cli *c, int argc, char **argv)
{
	enum { OPT_TIME = OPT_FIRST_FREE };
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *in = "prof.data", *elf_state, *time_arg = NULL;
	struct time_range tr = { 0 };
	hpm_profdata *d = NULL;
	hpm_program *p = NULL;
	int opt, rc;

	(void)c;
	const struct cmd_opts co = { "script", script_help, ":i:h", longopts, NULL };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		if (opt == 'i')
			in = optarg;
		else
			time_arg = optarg;    /* --time */
	}
	if (!opt || (rc = no_operands("script", argc, argv)) ||
	    (rc = load_profile("script", in, &d, &p, &elf_state)))
		return rc;
	if (time_arg && (rc = time_range_parse("script", time_arg, d, &tr)))
		goto out;
	const char *base = strrchr(d->program, '/');
	char comm[16];
	snprintf(comm, sizeof comm, "%.15s", base ? base + 1 : d->program);   /* as the kernel keeps it */
	const char *elf = p ? d->program : "[unknown]";
	int timed = 0, width = 0;            /* event names right-aligned to the longest, as perf */
	for (size_t i = 0; i < d->nsamples; i++)
		timed |= d->samples[i].time != 0;
	for (size_t i = 0; i < d->nevents; i++)
		if (d->event[i].period && (int)strlen(d->event[i].name) > width)
			width = (int)strlen(d->event[i].name);
	uint32_t f[HPM_MAX_STACK + 1];
	int chains = profile_has_stacks(d);   /* perf: the name unpadded, the chain below */
	for (size_t i = 0; i < d->nsamples; i++) {
		const hpm_prof_sample *s = &d->samples[i];
		if (!time_range_has(&tr, s))
			continue;
		printf(chains ? "%s %5u" : "%16s %5u", comm, 1u);
		if (timed) {
			uint64_t ns = cycles_to_ns(s->time, d->clock_hz);
			printf(" %5llu.%06llu:", (unsigned long long)(ns / 1000000000u),
			       (unsigned long long)(ns % 1000000000u / 1000u));
		}
		printf(" %10llu %*s:", (unsigned long long)d->event[s->counter].period, width,
		       d->event[s->counter].name);
		if (!chains) {
			printf("  %16x ", (unsigned)s->pc);
			where(p, elf, s->pc);
			printf("\n");
			continue;
		}
		printf(" \n");
		unsigned n = sample_frames(s, f);
		for (unsigned j = 0; j < n; j++) {
			printf("\t%16x ", (unsigned)f[j]);
			where(p, elf, f[j]);
			printf("\n");
		}
		printf("\n");
	}
	if (fflush(stdout) || ferror(stdout))
		rc = fail("script: writing the output failed");
out:
	hpm_profdata_free(d);
	hpm_program_free(p);
	return rc;
}
