/* bench/link: link round trips on a board through libhpm, as Markdown.
 *
 *   link [--link sim|ref|usb|tty:PATH] [--count N] [--deep ELF]
 *
 * Ping, CSR read, full snapshot and upload: wall time per request (best of
 * three batches) and board cycles (the monitor's mtime, read with CSR_READ
 * of `time` around the request, minus a bare CSR_READ's own cost); then
 * interval streaming at shrinking intervals: samples per second and lost
 * samples; then sampling profiles (record -c) at shrinking periods: samples
 * per second, board cycles per sample, and the exact cost per sample in
 * workload cycles (against the same run without sampling); with --deep
 * (bench/deep.c: every sample 16 return addresses deep) the same without and
 * with call chains (record -g).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hpm.h"

#define CSR_TIME 0xc01

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum op { OP_NONE, OP_PING, OP_CSR, OP_SNAPSHOT, OP_UPLOAD };

static uint8_t blob[4096];

static int do_op(hpm_board *b, enum op op)
{
	uint32_t v;
	hpm_snapshot s;
	switch (op) {
	case OP_NONE:     return 0;
	case OP_PING:     return hpm_ping(b, "ping", 4);
	case OP_CSR:      return hpm_csr_read(b, 0xb00, &v);
	case OP_SNAPSHOT: return hpm_snapshot_read(b, &s);
	case OP_UPLOAD:   return hpm_mem_write(b, 0x80000000u, blob, sizeof blob);
	}
	return -1;
}

/* board cycles of one op: time read, op, time read; minus the same without op */
static int op_cycles(hpm_board *b, enum op op, uint32_t *cycles)
{
	uint32_t t0, t1;
	if (hpm_csr_read(b, CSR_TIME, &t0) || do_op(b, op) || hpm_csr_read(b, CSR_TIME, &t1))
		return -1;
	*cycles = t1 - t0;
	return 0;
}

static int measure(hpm_board *b, const char *what, enum op op, int count)
{
	double best = 1e9;
	uint32_t c_op, c_none;
	for (int rep = 0; rep < 3; rep++) {
		double t0 = now();
		for (int i = 0; i < count; i++)
			if (do_op(b, op))
				return -1;
		double dt = (now() - t0) / count;
		if (dt < best)
			best = dt;
	}
	if (op_cycles(b, op, &c_op) || op_cycles(b, OP_NONE, &c_none))
		return -1;
	printf("| %s | %.3f | %.0f | %u |\n", what, best * 1e3, 1.0 / best,
	       (unsigned)(c_op - c_none));
	return 0;
}

struct stream_stats { unsigned n, lost; };

static int on_sample(void *ctx, const hpm_sample *s)
{
	struct stream_stats *st = ctx;
	st->n++;
	st->lost += s->lost;
	return 0;
}

struct prof_stats { unsigned n; };

static int on_prof(void *ctx, const hpm_prof_sample *s)
{
	(void)s;
	((struct prof_stats *)ctx)->n++;
	return 0;
}

/* `cycles` sampled on p (argument a0) every P cycles, with call chains or
 * not; board time around each run with CSR_READ of `time`, against the same
 * run unsampled */
static int profile_rates(hpm_board *b, const hpm_program *p, const char *what, uint32_t a0,
			 int call_graph)
{
	static const uint64_t periods[] = { 20000, 5000, 1000, 256 };
	hpm_evlist *l;
	char err[256];
	hpm_count c[1];
	size_t n;
	hpm_run_result r;
	uint32_t t0, t1;
	hpm_run_opts o = { .a0 = a0 };

	if (hpm_evlist_parse(&l, "cycles", err, sizeof err))
		return -1;
	if (hpm_csr_read(b, CSR_TIME, &t0) || hpm_stat(b, p, l, &o, c, 1, &n, &r) ||
	    hpm_csr_read(b, CSR_TIME, &t1))
		goto fail;
	uint32_t base_board = t1 - t0;
	uint64_t plain_cycles = c[0].value;
	o.call_graph = call_graph;
	printf("\nSampling profiles (`record %s`) of `cycles` on %s (%" PRIu64
	       " cycles unsampled), one PROFILE frame per sample:\n\n"
	       "| period (cycles) | samples | samples per wall second | board cycles per sample | samples per board second | workload cycles per sample | run wall s |\n"
	       "|---:|---:|---:|---:|---:|---:|---:|\n", call_graph ? "-g -c" : "-c", what, plain_cycles);
	for (size_t i = 0; i < sizeof periods / sizeof periods[0]; i++) {
		struct prof_stats st = { 0 };
		double w0 = now();
		if (hpm_csr_read(b, CSR_TIME, &t0) ||
		    hpm_profile(b, p, l, &periods[i], &o, on_prof, &st, c, 1, &n, &r) ||
		    hpm_csr_read(b, CSR_TIME, &t1))
			goto fail;
		double dt = now() - w0;
		double per = st.n ? (double)((t1 - t0) - base_board) / st.n : 0.0;
		printf("| %" PRIu64 " | %u | %.0f | %.0f | %.0f | %.3f | %.2f |\n", periods[i], st.n, st.n / dt,
		       per, per > 0 ? hpm_get_info(b)->clock_hz / per : 0.0,
		       r.ticks ? (double)(c[0].value - plain_cycles) / r.ticks : 0.0, dt);
	}
	hpm_evlist_free(l);
	return 0;
fail:
	hpm_evlist_free(l);
	return -1;
}

int main(int argc, char **argv)
{
	const char *link = "sim", *deep = NULL;
	int count = 50;
	char err[512];
	hpm_board *b;
	hpm_program *p;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--link") && i + 1 < argc) link = argv[++i];
		else if (!strcmp(argv[i], "--count") && i + 1 < argc) count = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--deep") && i + 1 < argc) deep = argv[++i];
		else {
			fprintf(stderr, "usage: link [--link sim|ref|usb|tty:PATH] [--count N] [--deep ELF]\n");
			return 2;
		}
	}
	for (size_t i = 0; i < sizeof blob; i++)
		blob[i] = (uint8_t)(i * 31 + 7);
	if (hpm_open(&b, link, NULL, err, sizeof err)) {
		fprintf(stderr, "bench link: %s\n", err);
		return 1;
	}
	const hpm_info *in = hpm_get_info(b);
	printf("Link `%s`: %u x %u-bit counters, UART %u baud at %u Hz.\n\n", in->link,
	       in->hpm_num, in->hpm_width, (unsigned)in->uart_baud, (unsigned)in->clock_hz);
	printf("| request | wall ms | per second | board cycles |\n|---|---:|---:|---:|\n");
	if (measure(b, "ping (4 bytes)", OP_PING, count) ||
	    measure(b, "CSR read", OP_CSR, count) ||
	    measure(b, "full snapshot (32 counters, 380 bytes)", OP_SNAPSHOT, count) ||
	    measure(b, "upload 4 KiB (9 MEM_WRITEs, CRC-checked)", OP_UPLOAD, count / 10 + 1)) {
		fprintf(stderr, "bench link: %s\n", hpm_errmsg(b));
		hpm_close(b);
		return 1;
	}
	if (hpm_program_load(&p, "alu", err, sizeof err)) {
		fprintf(stderr, "bench link: %s\n", err);
		hpm_close(b);
		return 1;
	}
	printf("\nInterval streaming of the `alu` workload (cycles, instructions and 4\n"
	       "programmable counters per sample):\n\n"
	       "| interval (cycles) | samples | lost | samples per wall second | run wall s |\n"
	       "|---:|---:|---:|---:|---:|\n");
	static const uint64_t intervals[] = { 100000, 20000, 5000, 2000, 1000 };
	uint64_t sel[4] = { 3, 4, 6, 8 };
	unsigned nsel = in->hpm_num < 4 ? in->hpm_num : 4;
	for (size_t i = 0; i < sizeof intervals / sizeof intervals[0]; i++) {
		struct stream_stats st = { 0, 0 };
		hpm_run_opts o = { .interval = intervals[i], .on_sample = on_sample, .ctx = &st };
		hpm_run_result r;
		if (intervals[i] < in->min_interval)
			continue;
		double t0 = now();
		if (hpm_run(b, p, &o, sel, nsel, &r)) {
			fprintf(stderr, "bench link: %s\n", hpm_errmsg(b));
			break;
		}
		double dt = now() - t0;
		printf("| %" PRIu64 " | %u | %u | %.0f | %.2f |\n", intervals[i], st.n,
		       r.lost_samples, st.n / dt, dt);
	}
	if (profile_rates(b, p, "`alu --size 4000`", 4000, 0))
		fprintf(stderr, "bench link: %s\n", hpm_errmsg(b));
	hpm_program_free(p);
	if (deep && hpm_program_load(&p, deep, err, sizeof err)) {
		fprintf(stderr, "bench link: %s\n", err);
		deep = NULL;
	}
	for (int g = 0; deep && g < 2; g++)
		if (profile_rates(b, p, "`deep` (bench/deep.c, 16 return addresses per sample)", 0, g)) {
			fprintf(stderr, "bench link: %s\n", hpm_errmsg(b));
			break;
		}
	if (deep)
		hpm_program_free(p);
	hpm_close(b);
	return 0;
}
