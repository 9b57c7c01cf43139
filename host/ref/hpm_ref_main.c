/* hpm-ref: runs a RISC-V ELF on the reference model, with the same options
 * and exit codes as the simulated board (hpm-sim).
 * Exit: 0 pass (tohost word 1), 1 fail (other tohost value), 2 out of cycles,
 * 3 usage or file error. */
#include "hpmref.h"
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_PASS 0
#define EXIT_FAIL 1
#define EXIT_TIMEOUT 2
#define EXIT_USAGE 3

/* the event catalogue, for --events */
static const struct {
	unsigned idx;
	const char *name;
} catalogue[] = {
#define HPM_EVENT(i, n, a, b, d) { i, n },
#include "../../hw/hpm/events.def"
#undef HPM_EVENT
};

static const char usage_text[] =
	"usage: hpm-ref --elf FILE [options]\n"
	"       hpm-ref [--fw FILE] [--hpm-num N] [--hpm-width W] [--no-topdown | --td-board]\n"
	"Runs a RV32IM program on the reference model of the hpm-overlay core.\n"
	"Without --elf it is the reference board: it boots the firmware monitor\n"
	"and serves the link protocol on stdin/stdout, like hpm-sim, until stdin\n"
	"closes.\n"
	"  --fw FILE          firmware ELF for the fw EBR when no --elf\n"
	"                     (default <bindir>/../fw/monitor.elf)\n"
	"  --elf FILE         program, loaded at its linked addresses (fw or ram)\n"
	"  --max-cycles N     run cycles 0..N-1 at most; exit 2 if the program has\n"
	"                     not halted by then (default 100000000)\n"
	"  --signature FILE   after a halt, write the words begin_signature..\n"
	"                     end_signature (one 8-digit hex word a line)\n"
	"  --print-memmap     print the memory map (name base size)\n"
	"  --events           print the event catalogue (index name)\n"
	"  --hpm-num N        implemented mhpmcounters, 0..29 (default 29), as the\n"
	"                     hpm-sim build's HPM_NUM\n"
	"  --hpm-width W      their width in bits, 1..64 (default 64), HPM_WIDTH\n"
	"  --no-topdown       no top-down unit (its CSRs trap), as hpm-sim-v3\n"
	"                     (HPM_TD = 0)\n"
	"  --td-board         the iCE40 board's top-down counts instead of the unit\n"
	"                     (HPM_TD = 2: mtdfe16, mtdbad16)\n"
	"  --stats            print 'hpm-stats: cycles=C instret=I' on stderr\n"
	"  --trace-log FILE   write one line per instruction\n"
	"  --help             this text\n"
	"A store to symbol tohost halts: value 1 exits 0, others exit 1.\n"
	"UART output goes to stdout.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "hpm-ref: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try --help)\n");
	return EXIT_USAGE;
}

static int model_writer(void *ctx, uint32_t addr, const void *src, size_t len)
{
	return hpmref_write_mem(ctx, addr, src, len);
}

static int write_signature(const hpmref *m, const hpm_elf_info *inf, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "hpm-ref: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (uint32_t a = inf->sig_begin; a + 4 <= inf->sig_end; a += 4) {
		uint32_t w = 0;
		if (hpmref_read_mem(m, a, &w, 4)) {
			fclose(f);
			fprintf(stderr, "hpm-ref: signature word 0x%08x outside fw/ram\n", (unsigned)a);
			return -1;
		}
		fprintf(f, "%08" PRIx32 "\n", w);
	}
	if (fclose(f)) {
		fprintf(stderr, "hpm-ref: %s: write error\n", path);
		return -1;
	}
	return 0;
}

static void drain_uart(hpmref *m)
{
	uint8_t buf[256];
	size_t n;
	while ((n = hpmref_uart_take(m, buf, sizeof buf)) > 0)
		fwrite(buf, 1, n, stdout);
}

static const char *default_fw(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 48);
	if (n <= 0)
		return "../fw/monitor.elf";
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	char *tail = slash ? slash + 1 : buf;
	/* the build tree, else an installed tree (make install) */
	strcpy(tail, "../fw/monitor.elf");
	if (access(buf, F_OK)) {
		strcpy(tail, "../share/hpm-overlay/fw/monitor.elf");
		if (access(buf, F_OK))
			strcpy(tail, "../fw/monitor.elf");
	}
	return buf;
}

/* The reference board: the monitor's UART on stdin/stdout. The model runs
 * in slices; between slices it hands over input and output, and when the
 * firmware only polls an empty receiver it blocks until input arrives. */
static int serve(hpmref *m, uint64_t max_cycles)
{
	uint8_t in[512];
	size_t in_len = 0, in_off = 0;
	int eof = 0;

	while (hpmref_cycle(m) < max_cycles) {
		for (int k = 0; k < 4096; k++)
			hpmref_step(m, NULL);
		drain_uart(m);
		if (in_off < in_len)
			in_off += hpmref_uart_put(m, in + in_off, in_len - in_off);
		if (in_off < in_len)
			continue;
		int waiting = hpmref_uart_waiting(m);
		if (waiting && eof)
			break;
		if (waiting)
			fflush(stdout);
		struct pollfd p = { .fd = 0, .events = POLLIN };
		if (!eof && poll(&p, 1, waiting ? -1 : 0) > 0) {
			ssize_t n = read(0, in, sizeof in);
			if (n <= 0) {
				eof = 1;
			} else {
				in_len = (size_t)n;
				in_off = hpmref_uart_put(m, in, in_len);
			}
		}
	}
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const char *elf = NULL, *sig = NULL, *trace = NULL, *fw = NULL;
	uint64_t max_cycles = 100000000ull;
	int max_cycles_set = 0;
	char fw_buf[4096];
	int memmap = 0, events = 0, stats = 0, no_topdown = 0, td_board = 0;
	unsigned hpm_num = HPMREF_HPM_NUM_DEFAULT, hpm_width = HPMREF_HPM_WIDTH_DEFAULT;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		char opt[32];
		const char *eq = strchr(a, '=');
		if (strncmp(a, "--", 2) == 0 && eq && (size_t)(eq - a) < sizeof opt) {
			memcpy(opt, a, (size_t)(eq - a));
			opt[eq - a] = '\0';
			val = eq + 1;
			a = opt;
		}
		int takes = !strcmp(a, "--elf") || !strcmp(a, "--max-cycles") ||
			    !strcmp(a, "--signature") || !strcmp(a, "--trace-log") ||
			    !strcmp(a, "--hpm-num") || !strcmp(a, "--hpm-width") ||
			    !strcmp(a, "--fw");
		if (takes && !val) {
			if (i + 1 >= argc)
				return usage_error("option %s needs an argument", a);
			val = argv[++i];
		} else if (!takes && val) {
			return usage_error("option %s takes no argument", a);
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(a, "--elf")) {
			elf = val;
		} else if (!strcmp(a, "--fw")) {
			fw = val;
		} else if (!strcmp(a, "--signature")) {
			sig = val;
		} else if (!strcmp(a, "--trace-log")) {
			trace = val;
		} else if (!strcmp(a, "--max-cycles")) {
			char *end;
			errno = 0;
			if (!*val || *val == '-' || *val == '+')
				return usage_error("bad --max-cycles value '%s'", val);
			unsigned long long v = strtoull(val, &end, 0);
			if (errno || *end)
				return usage_error("bad --max-cycles value '%s'", val);
			max_cycles = v;
			max_cycles_set = 1;
		} else if (!strcmp(a, "--hpm-num") || !strcmp(a, "--hpm-width")) {
			char *end;
			int num = !strcmp(a, "--hpm-num");
			errno = 0;
			unsigned long v = (*val >= '0' && *val <= '9') ? strtoul(val, &end, 0) : 0;
			if (!(*val >= '0' && *val <= '9') || errno || *end ||
			    (num ? v > 29 : (v < 1 || v > 64)))
				return usage_error(num ? "bad --hpm-num value '%s' (0..29)"
						       : "bad --hpm-width value '%s' (1..64)",
						   val);
			if (num)
				hpm_num = (unsigned)v;
			else
				hpm_width = (unsigned)v;
		} else if (!strcmp(a, "--print-memmap")) {
			memmap = 1;
		} else if (!strcmp(a, "--events")) {
			events = 1;
		} else if (!strcmp(a, "--stats")) {
			stats = 1;
		} else if (!strcmp(a, "--no-topdown")) {
			no_topdown = 1;
		} else if (!strcmp(a, "--td-board")) {
			td_board = 1;
		} else {
			return usage_error("unknown option '%s'", argv[i]);
		}
	}

	if (memmap)
		hpm_print_memmap(stdout);
	if (events)
		for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; i++)
			printf("%u %s\n", catalogue[i].idx, catalogue[i].name);
	if (elf && fw)
		return usage_error("%s", "--fw and --elf exclude each other");
	if (!elf && (memmap || events))
		return 0;
	int serving = !elf;
	if (serving) {
		elf = fw ? fw : default_fw(fw_buf, sizeof fw_buf);
		if (!max_cycles_set)
			max_cycles = UINT64_MAX;
	}

	hpmref_config cfg = { .boot_addr = 0, .uart_div = HPM_UART_DIV_DEFAULT, .fault = HPMREF_FAULT_NONE, .hpm_num = hpm_num, .hpm_width = hpm_width, .no_topdown = (unsigned)no_topdown, .td_board = (unsigned)td_board };
	hpmref *m = hpmref_new(&cfg);
	if (!m) {
		fprintf(stderr, "hpm-ref: out of memory\n");
		return EXIT_USAGE;
	}
	hpm_elf_info inf;
	char err[256];
	if (hpm_elf_load(elf, model_writer, m, &inf, err, sizeof err)) {
		fprintf(stderr, "hpm-ref: %s\n", err);
		hpmref_free(m);
		return EXIT_USAGE;
	}
	if (sig && !inf.has_sig) {
		fprintf(stderr, "hpm-ref: %s: no begin_signature/end_signature symbols\n", elf);
		hpmref_free(m);
		return EXIT_USAGE;
	}
	hpmref_set_pc(m, inf.entry);
	if (serving) {
		int src = serve(m, max_cycles);
		hpmref_free(m);
		return src;
	}

	FILE *tf = NULL;
	if (trace) {
		tf = fopen(trace, "w");
		if (!tf) {
			fprintf(stderr, "hpm-ref: %s: %s\n", trace, strerror(errno));
			hpmref_free(m);
			return EXIT_USAGE;
		}
	}

	hpm_retire r;
	uint64_t instret = 0, last_cycle = 0;
	int rc = EXIT_TIMEOUT, ran = 0;
	const uint32_t tohost_word = inf.tohost & ~3u;
	char line[256];
	while (hpmref_cycle(m) < max_cycles) {
		hpmref_step(m, &r);
		if (r.cycle >= max_cycles)
			break; /* does not complete within the N cycles 0..N-1 */
		ran = 1;
		last_cycle = r.cycle;
		if (!r.trap)
			instret++;
		if (tf) {
			hpm_retire_format(&r, line, sizeof line);
			fprintf(tf, "%s\n", line);
		}
		drain_uart(m);
		if (r.mem_we && inf.has_tohost && (r.mem_addr & ~3u) == tohost_word) {
			uint32_t v = 0;
			hpmref_read_mem(m, tohost_word, &v, 4);
			if (v == 1) {
				rc = EXIT_PASS;
			} else {
				fflush(stdout);
				fprintf(stderr, "hpm-ref: FAIL tohost=0x%08" PRIx32 "\n", v);
				rc = EXIT_FAIL;
			}
			break;
		}
	}
	fflush(stdout);
	if (rc == EXIT_TIMEOUT)
		fprintf(stderr, "hpm-ref: no halt within %" PRIu64 " cycles (pc=0x%08" PRIx32 ")\n",
			max_cycles, hpmref_pc(m));
	if (stats)
		fprintf(stderr, "hpm-stats: cycles=%" PRIu64 " instret=%" PRIu64 "\n",
			rc == EXIT_TIMEOUT ? max_cycles : ran ? last_cycle + 1
							      : 0,
			instret);
	if (tf && fclose(tf)) {
		fprintf(stderr, "hpm-ref: %s: write error\n", trace);
		rc = EXIT_USAGE;
	}
	if (sig && rc != EXIT_TIMEOUT && write_signature(m, &inf, sig))
		rc = EXIT_USAGE;
	hpmref_free(m);
	return rc;
}
