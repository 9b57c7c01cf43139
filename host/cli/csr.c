/* hpmctl csr read|write: raw CSR access through the monitor (CSR_READ,
 * CSR_WRITE); the monitor refuses writes that would break it. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "hpmctl.h"

/* Every CSR of hw/csr.def, the catalogue the RTL and the model use. A range
 * (count > 1) is named by its first member: PREFIX<first>[h]. */
static const struct { const char *name; uint16_t csr, count; } csrs[] = {
#define HPM_CSR(name, addr, count, wmask, brief) { #name, addr, count },
#include "csr.def"
#undef HPM_CSR
};

/* A range's name split into prefix, first index and suffix ("" or "h"). */
struct csr_range { size_t plen; unsigned first; const char *suffix; };

static void csr_split(const char *name, struct csr_range *r)
{
	const char *d = name + strcspn(name, "0123456789");
	r->plen = (size_t)(d - name);
	r->first = (unsigned)strtoul(d, NULL, 10);
	r->suffix = d + strspn(d, "0123456789");
}

/* "mhpmevent3", "0x323" or "803" -> CSR number; -1 if neither. */
static int csr_number(const char *s)
{
	uint64_t v;
	if (!parse_u64(s, &v))
		return v <= 0xfff ? (int)v : -1;
	for (size_t i = 0; i < sizeof csrs / sizeof csrs[0]; i++) {
		struct csr_range r;
		const char *d;
		char *end;
		if (csrs[i].count == 1) {
			if (!strcasecmp(s, csrs[i].name))
				return csrs[i].csr;
			continue;
		}
		csr_split(csrs[i].name, &r);
		d = s + r.plen;
		if (strncasecmp(s, csrs[i].name, r.plen) || *d < '0' || *d > '9')
			continue;
		unsigned long n = strtoul(d, &end, 10);
		if (!strcasecmp(end, r.suffix) && n >= r.first && n < r.first + csrs[i].count &&
		    (d[0] != '0' || end == d + 1))
			return csrs[i].csr + (int)(n - r.first);
	}
	return -1;
}

/* The display name of a CSR number: "mhpmevent3 (0x323)". */
static void csr_label(uint16_t csr, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof csrs / sizeof csrs[0]; i++) {
		struct csr_range r;
		if (csr < csrs[i].csr || csr >= csrs[i].csr + csrs[i].count)
			continue;
		if (csrs[i].count == 1) {
			snprintf(buf, len, "%s (0x%03x)", csrs[i].name, csr);
			return;
		}
		csr_split(csrs[i].name, &r);
		snprintf(buf, len, "%.*s%u%s (0x%03x)", (int)r.plen, csrs[i].name,
			 r.first + (csr - csrs[i].csr), r.suffix, csr);
		return;
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

	const struct cmd_opts co = { "csr", csr_help, ":h", longopts, NULL };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0)
		op = opt == OPT_SET ? 1 : 2;     /* --set, --clear */
	if (!opt)
		return rc;
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
