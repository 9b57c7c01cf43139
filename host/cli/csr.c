/* hpmctl csr read|write: raw CSR access through the monitor (CSR_READ,
 * CSR_WRITE); the monitor refuses writes that would break it. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "hpmctl.h"

static const struct { const char *name; uint16_t csr; } csr_names[] = {
	{ "sstatus", 0x100 }, { "sie", 0x104 }, { "stvec", 0x105 }, { "scounteren", 0x106 },
	{ "sscratch", 0x140 }, { "sepc", 0x141 }, { "scause", 0x142 }, { "stval", 0x143 },
	{ "sip", 0x144 }, { "stimecmp", 0x14d }, { "stimecmph", 0x15d }, { "satp", 0x180 },
	{ "mstatus", 0x300 }, { "misa", 0x301 }, { "medeleg", 0x302 }, { "mideleg", 0x303 },
	{ "mie", 0x304 }, { "mtvec", 0x305 }, { "mcounteren", 0x306 }, { "mstatush", 0x310 },
	{ "mcountinhibit", 0x320 }, { "mcyclecfg", 0x321 }, { "minstretcfg", 0x322 },
	{ "mcyclecfgh", 0x721 }, { "minstretcfgh", 0x722 },
	{ "mscratch", 0x340 }, { "mepc", 0x341 }, { "mcause", 0x342 }, { "mtval", 0x343 },
	{ "mip", 0x344 }, { "tselect", 0x7a0 }, { "tdata1", 0x7a1 },
	{ "mcycle", 0xb00 }, { "minstret", 0xb02 }, { "mcycleh", 0xb80 }, { "minstreth", 0xb82 },
	{ "cycle", 0xc00 }, { "time", 0xc01 }, { "instret", 0xc02 },
	{ "cycleh", 0xc80 }, { "timeh", 0xc81 }, { "instreth", 0xc82 }, { "scountovf", 0xda0 },
	{ "mvendorid", 0xf11 }, { "marchid", 0xf12 }, { "mimpid", 0xf13 }, { "mhartid", 0xf14 },
};

/* Numbered families: PREFIXn[h] for n in [first, last]. */
static const struct { const char *prefix; unsigned first, last; uint16_t base, hbase; } csr_families[] = {
	{ "mhpmcounter", 3, 31, 0xb00, 0xb80 },
	{ "hpmcounter",  3, 31, 0xc00, 0xc80 },
	{ "mhpmevent",   3, 31, 0x320, 0x720 },
	{ "pmpcfg",      0, 3,  0x3a0, 0 },
	{ "pmpaddr",     0, 15, 0x3b0, 0 },
};

/* "mhpmevent3", "0x323" or "803" -> CSR number; -1 if neither. */
static int csr_number(const char *s)
{
	uint64_t v;
	if (!parse_u64(s, &v))
		return v <= 0xfff ? (int)v : -1;
	for (size_t i = 0; i < sizeof csr_names / sizeof csr_names[0]; i++)
		if (!strcasecmp(s, csr_names[i].name))
			return csr_names[i].csr;
	for (size_t i = 0; i < sizeof csr_families / sizeof csr_families[0]; i++) {
		size_t pl = strlen(csr_families[i].prefix);
		char *end;
		if (strncasecmp(s, csr_families[i].prefix, pl) || s[pl] < '0' || s[pl] > '9')
			continue;
		unsigned long n = strtoul(s + pl, &end, 10);
		int high = (*end == 'h' || *end == 'H') && end[1] == '\0';
		if ((*end && !high) || n < csr_families[i].first || n > csr_families[i].last ||
		    (high && !csr_families[i].hbase))
			continue;
		return (high ? csr_families[i].hbase : csr_families[i].base) + (int)n;
	}
	return -1;
}

/* The display name of a CSR number: "mhpmevent3 (0x323)". */
static void csr_label(uint16_t csr, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof csr_names / sizeof csr_names[0]; i++)
		if (csr_names[i].csr == csr) {
			snprintf(buf, len, "%s (0x%03x)", csr_names[i].name, csr);
			return;
		}
	for (size_t i = 0; i < sizeof csr_families / sizeof csr_families[0]; i++) {
		unsigned f = csr_families[i].first, l = csr_families[i].last;
		if (csr >= csr_families[i].base + f && csr <= csr_families[i].base + l) {
			snprintf(buf, len, "%s%u (0x%03x)", csr_families[i].prefix, csr - csr_families[i].base, csr);
			return;
		}
		if (csr_families[i].hbase && csr >= csr_families[i].hbase + f && csr <= csr_families[i].hbase + l) {
			snprintf(buf, len, "%s%uh (0x%03x)", csr_families[i].prefix, csr - csr_families[i].hbase, csr);
			return;
		}
	}
	snprintf(buf, len, "0x%03x", csr);
}

static const char csr_help[] =
	"usage: hpmctl csr read <csr>\n"
	"       hpmctl csr write [--set | --clear] <csr> <value>\n\n"
	"Reads or writes a CSR on the board, in M-mode, through the monitor.\n"
	"<csr> is a name (mcountinhibit, mhpmevent3, mhpmevent3h, mhpmcounter4,\n"
	"cycle, mcyclecfg, mstatus, ...) or a number (0x320, 800). write prints the\n"
	"old value and the new one read back (WARL-legalised). The monitor refuses\n"
	"writes to the CSRs it owns (mtvec, mie, mscratch, medeleg, mideleg, satp,\n"
	"mstatush, and mstatus.MIE/MPRV): that is an error, nothing is changed.\n\n"
	"  --set    set the bits of <value> (csrrs) instead of writing it\n"
	"  --clear  clear the bits of <value> (csrrc)\n";

int cmd_csr(const struct cli *c, int argc, char **argv)
{
	enum { OPT_SET = OPT_FIRST_FREE, OPT_CLEAR };
	static const struct option longopts[] = {
		{ "set", no_argument, NULL, OPT_SET },
		{ "clear", no_argument, NULL, OPT_CLEAR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned op = 0;
	int opt, rc;
	uint64_t value = 0;
	hpm_board *b;
	char label[48];

	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_SET:   op = 1; break;
		case OPT_CLEAR: op = 2; break;
		case 'h':       fputs(csr_help, stdout); return EXIT_OK;
		default:        return bad_option("csr", opt, argv);
		}
	}
	int nargs = argc - optind;
	if (nargs < 1)
		return usage_error("csr", "missing 'read' or 'write'");
	const char *what = argv[optind];
	int write = !strcmp(what, "write");
	if (!write && strcmp(what, "read"))
		return usage_error("csr", "unknown operation '%s' (read or write)", what);
	if (nargs != (write ? 3 : 2))
		return usage_error("csr", write ? "write needs <csr> <value>" : "read needs <csr>");
	if (op && !write)
		return usage_error("csr", "--set and --clear apply to write");
	int csr = csr_number(argv[optind + 1]);
	if (csr < 0)
		return usage_error("csr", "unknown CSR '%s' (a name or a number up to 0xfff)", argv[optind + 1]);
	if (write && (parse_u64(argv[optind + 2], &value) || value > UINT32_MAX))
		return usage_error("csr", "value '%s': expected a 32-bit number", argv[optind + 2]);
	if ((rc = open_board(c, &b)))
		return rc;
	csr_label((uint16_t)csr, label, sizeof label);
	if (write) {
		uint32_t old, now;
		if (hpm_csr_write(b, (uint16_t)csr, op, (uint32_t)value, &old, &now) != HPM_OK)
			rc = fail("%s", hpm_errmsg(b));
		else
			printf("%s: old 0x%08x, new 0x%08x\n", label, (unsigned)old, (unsigned)now);
	} else {
		uint32_t v;
		if (hpm_csr_read(b, (uint16_t)csr, &v) != HPM_OK)
			rc = fail("%s", hpm_errmsg(b));
		else
			printf("%s = 0x%08x (%u)\n", label, (unsigned)v, (unsigned)v);
	}
	hpm_close(b);
	return rc;
}
