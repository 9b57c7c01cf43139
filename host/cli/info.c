/* hpmctl info (the board) and hpmctl list (events, workloads). */
#include <fnmatch.h>
#include <getopt.h>
#include <string.h>
#include "hpmctl.h"

/* misa -> "RV32IMSU": MXL, then one letter per extension bit. */
static void isa_string(uint32_t misa, char *buf, size_t len)
{
	static const unsigned xlen[4] = { 0, 32, 64, 128 };
	size_t n = (size_t)snprintf(buf, len, "RV%u", xlen[misa >> 30]);
	for (unsigned bit = 0; bit < 26 && n + 1 < len; bit++)
		if (misa >> bit & 1)
			buf[n++] = (char)('A' + bit);
	buf[n] = '\0';
}

static const char info_help[] =
	"usage: hpmctl info [-j|--json]\n\n"
	"Prints the board's identity and configuration from the handshake: link,\n"
	"protocol and firmware version, mvendorid/marchid/mimpid, misa decoded,\n"
	"HPM counters, clock, UART baud rate, event-catalogue hash (board and host),\n"
	"workload RAM and the smallest sampling interval.\n\n"
	"  -j, --json     one JSON object instead of the table\n";

int cmd_info(const struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, opt, rc;
	hpm_board *b;
	char isa[40];

	const struct cmd_opts co = { "info", info_help, ":jh", longopts, NULL };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0)
		json = 1;    /* -j, the only option */
	if (!opt || (rc = no_operands("info", argc, argv)) || (rc = open_board(c, &b)))
		return rc;
	const hpm_info *in = hpm_get_info(b);
	uint64_t host_hash = hpm_event_catalogue_hash();
	isa_string(in->misa, isa, sizeof isa);
	if (json) {
		printf("{\"link\" : ");
		json_string(stdout, in->link);
		printf(", \"protocol\" : %u, \"firmware\" : \"%u.%u\", \"mvendorid\" : %u, "
		       "\"marchid\" : %u, \"mimpid\" : %u, \"misa\" : %u, \"isa\" : \"%s\", "
		       "\"hpm-num\" : %u, \"hpm-width\" : %u, \"clock-hz\" : %u, \"uart-baud\" : %u, "
		       "\"event-hash\" : \"0x%016llx\", \"host-event-hash\" : \"0x%016llx\", "
		       "\"ram-base\" : %u, \"ram-size\" : %u, \"min-interval\" : %u, \"features\" : %u}\n",
		       in->proto_version, in->fw_version >> 8, in->fw_version & 0xff,
		       (unsigned)in->mvendorid, (unsigned)in->marchid, (unsigned)in->mimpid,
		       (unsigned)in->misa, isa, in->hpm_num, in->hpm_width, (unsigned)in->clock_hz,
		       (unsigned)in->uart_baud, (unsigned long long)in->event_hash,
		       (unsigned long long)host_hash, (unsigned)in->ram_base, (unsigned)in->ram_size,
		       (unsigned)in->min_interval, (unsigned)in->features);
	} else {
		printf("link:             %s\n", in->link);
		printf("protocol:         %u\n", in->proto_version);
		printf("firmware:         %u.%u\n", in->fw_version >> 8, in->fw_version & 0xff);
		printf("mvendorid:        0x%08x\n", (unsigned)in->mvendorid);
		printf("marchid:          0x%08x\n", (unsigned)in->marchid);
		printf("mimpid:           0x%08x\n", (unsigned)in->mimpid);
		printf("misa:             0x%08x (%s)\n", (unsigned)in->misa, isa);
		if (in->hpm_num)
			printf("hpm counters:     %u x %u bits (mhpmcounter3..%u), plus mcycle and minstret\n",
			       in->hpm_num, in->hpm_width, 2 + in->hpm_num);
		else
			printf("hpm counters:     none, only mcycle and minstret\n");
		printf("clock:            %u Hz\n", (unsigned)in->clock_hz);
		printf("uart:             %u baud\n", (unsigned)in->uart_baud);
		printf("event catalogue:  0x%016llx (host 0x%016llx: %s)\n",
		       (unsigned long long)in->event_hash, (unsigned long long)host_hash,
		       in->event_hash == host_hash ? "same" : "DIFFERENT");
		printf("ram:              0x%08x, %u bytes (%u KiB)\n", (unsigned)in->ram_base,
		       (unsigned)in->ram_size, (unsigned)in->ram_size / 1024);
		printf("min interval:     %u cycles\n", (unsigned)in->min_interval);
		printf("features:         0x%x (Sstc %s)\n", (unsigned)in->features,
		       in->features & 1 ? "yes" : "no");
	}
	hpm_close(b);
	return EXIT_OK;
}

/* The perf pmu-events JSON, in exactly the layout tools/evgen writes
 * (build/gen/pmu-events/hpm-overlay/core.json). */
static void list_json(void)
{
	size_t n = hpm_event_count();
	printf("[\n");
	for (size_t i = 0; i < n; i++) {
		const hpm_event_desc *e = hpm_event_at(i);
		printf("  {\n    \"EventName\": ");
		json_string(stdout, e->name);
		printf(",\n    \"EventCode\": \"0x%x\",\n    \"BriefDescription\": ", e->index);
		json_string(stdout, e->brief);
		printf(",\n    \"PublicDescription\": ");
		json_string(stdout, e->definition);
		printf("\n  }%s\n", i + 1 < n ? "," : "");
	}
	printf("]\n");
}

/* text at indent, words wrapped before column 79 */
static void print_wrapped(const char *text, int indent)
{
	int col = indent;
	printf("%*s", indent, "");
	for (const char *p = text; *p; ) {
		size_t w = strcspn(p, " ");
		if (col > indent && col + 1 + (int)w > 78) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			putchar(' ');
			col++;
		}
		printf("%.*s", (int)w, p);
		col += (int)w;
		p += w;
		p += strspn(p, " ");
	}
	putchar('\n');
}

/* perf list PATTERN: a glob (*, ?, [...]) matches whole names, a plain
 * word any name containing it; case-insensitive; no pattern lists all. */
static int matches(const char *name, char **pats, int npats)
{
	for (int i = 0; i < npats; i++) {
		if (strpbrk(pats[i], "*?[") ? !fnmatch(pats[i], name, FNM_CASEFOLD) :
		    strcasestr(name, pats[i]) != NULL)
			return 1;
	}
	return npats == 0;
}

static int event_matches(const hpm_event_desc *e, char **pats, int npats)
{
	char alias[64];
	if (matches(e->name, pats, npats))
		return 1;
	for (const char *a = e->aliases; *a; ) {
		size_t w = strcspn(a, ",");
		snprintf(alias, sizeof alias, "%.*s", (int)w, a);
		if (matches(alias, pats, npats))
			return 1;
		a += w + (a[w] == ',');
	}
	return 0;
}

/* perf's cache event names: this core has no cache and no TLB */
static int cache_word(const char *pat)
{
	static const char *const words[] = { "cache", "l1", "llc", "tlb", "dcache", "icache" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcasestr(pat, words[i]))
			return 1;
	return 0;
}

static void list_events(int verbose, char **pats, int npats)
{
	size_t shown = 0;
	printf("\nList of pre-defined events (to be used in -e):\n\n");
	for (size_t i = 0; i < hpm_event_count(); i++) {
		const hpm_event_desc *e = hpm_event_at(i);
		char names[160];
		if (!event_matches(e, pats, npats))
			continue;
		shown++;
		size_t n = (size_t)snprintf(names, sizeof names, "%s", e->name);
		/* aliases "A,B" -> " OR A OR B" */
		for (const char *a = e->aliases; *a && n < sizeof names; ) {
			size_t w = strcspn(a, ",");
			n += (size_t)snprintf(names + n, sizeof names - n, " OR %.*s", (int)w, a);
			a += w + (a[w] == ',');
		}
		printf("  %-48s [event %u: %s]\n", names, e->index, e->brief);
		if (verbose)
			print_wrapped(e->definition, 7);
	}
	if (!npats || matches("task-clock", pats, npats) || matches("cpu-clock", pats, npats)) {
		printf("  %-48s [software: the run's board time, in msec (stat)]\n", "task-clock OR cpu-clock");
		shown++;
	}
	for (int i = 0; !shown && i < npats; i++)
		if (cache_word(pats[i])) {
			printf("  (none: this core has no cache and no TLB, so it has no cache events;\n"
			       "   memory accesses are counted by loads, stores and mem-stall-cycles)\n");
			shown++;
		}
	if (!shown)
		printf("  (no event matches)\n");
	if (npats) {
		printf("\n");
		return;
	}
	printf("  %-48s [raw mhpmevent selector: EVENT0..3, OP_TYPE0..2]\n", "r<hex>");
	printf("\nGroups: {a,b} are counted in the same run. More events than counters are\n"
	       "counted by replaying the workload, which is exact.\n\n");
}

static void list_workloads(char **pats, int npats)
{
	const char *name, *desc;
	printf("\nWorkloads (hpmctl stat ... NAME; --size N sets their size):\n\n");
	for (size_t i = 0; (name = hpm_workload_at(i, &desc)); i++)
		if (matches(name, pats, npats))
			printf("  %-10s %s\n", name, desc);
	printf("\n");
}

static const char list_help[] =
	"usage: hpmctl list [-v|--long] [--json | --workloads] [PATTERN...]\n\n"
	"Lists the events of the catalogue: name OR aliases, [event index: brief].\n"
	"With PATTERNs (as perf list), only the events (or workloads) whose name or\n"
	"an alias contains one of them, or matches it as a glob (*, ?, [...]).\n\n"
	"  -v, --long     also print each event's exact definition\n"
	"  --json         the perf pmu-events JSON (EventName, EventCode,\n"
	"                 BriefDescription, PublicDescription), as generated into\n"
	"                 build/gen/pmu-events/hpm-overlay/core.json\n"
	"  --workloads    the built-in workloads with a description\n";

int cmd_list(const struct cli *c, int argc, char **argv)
{
	enum { OPT_JSON = OPT_FIRST_FREE, OPT_WORKLOADS };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "workloads", no_argument, NULL, OPT_WORKLOADS },
		{ "long", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, workloads = 0, verbose = 0, opt, rc;
	(void)c;     /* the catalogue is the host's: no board needed */

	const struct cmd_opts co = { "list", list_help, ":vh", longopts, NULL };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		switch (opt) {
		case OPT_JSON:      json = 1; break;
		case OPT_WORKLOADS: workloads = 1; break;
		case 'v':           verbose = 1; break;
		}
	}
	if (!opt)
		return rc;
	if (json && optind < argc)
		return usage_error("list", "--json lists the whole catalogue; no PATTERN ('%s')", argv[optind]);
	if (json && workloads)
		return usage_error("list", "--json and --workloads cannot be combined");
	if (json)
		list_json();
	else if (workloads)
		list_workloads(argv + optind, argc - optind);
	else
		list_events(verbose, argv + optind, argc - optind);
	return EXIT_OK;
}
