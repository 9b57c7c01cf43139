/* topdown_phases: a program's own top-down breakdown of two phases, read
 * from U-mode with hpm_topdown.h (docs/hpm.md, "Top-down unit"): a
 * memory-bound loop, then a branchy one. It resets nothing (hpmctl resets
 * the unit before a run); it reads three points and prints them, then each
 * phase's slots per metric (the delta of two points, topdown.txt's way).
 * Needs a board with the unit (the simulated board) or the iCE40 board,
 * whose monitor emulates level 1 (there it prints no level 2).
 *
 *   hpm-cc -O2 -o topdown_phases.elf topdown_phases.c && hpmctl run topdown_phases.elf */
#include <stdio.h>
#include <stdint.h>
#include "hpm_topdown.h"

#define N 256

static volatile uint32_t buf[N];

/* loads and stores: each one's first cycle waits for memory */
static uint32_t memory_phase(void)
{
	uint32_t s = 0;
	for (unsigned r = 0; r < 8; r++)
		for (unsigned i = 0; i < N; i++) {
			s += buf[i];
			buf[(i * 7u) % N] = s;
		}
	return s;
}

/* data-dependent branches and indirect calls: mispredictions and refetches */
static uint32_t inc(uint32_t x) { return x + 1; }
static uint32_t dbl(uint32_t x) { return x << 1; }
static uint32_t (*const volatile op[2])(uint32_t) = { inc, dbl };

static uint32_t branchy_phase(void)
{
	uint32_t x = 12345, s = 0;
	for (unsigned i = 0; i < 1500; i++) {
		x = x * 1103515245u + 12345u;
		if (x & 0x10000u)
			s += x >> 20;
		else
			s ^= x;
		s = op[(x >> 17) & 1u](s);
	}
	return s;
}

/* x of slots in 0.1 % (x may be slightly negative: rounding) */
static void pct(const char *name, int64_t x, int64_t slots)
{
	long p = slots ? (long)(x * 1000 / slots) : 0;
	printf(" %s %ld (%s%ld.%ld%%)", name, (long)x, p < 0 ? "-" : "", (p < 0 ? -p : p) / 10,
	       (p < 0 ? -p : p) % 10);
}

static void phase(const char *name, const hpm_td_point *a, const hpm_td_point *b)
{
	hpm_td_slots d;
	hpm_td_delta(a, b, &d);
	printf("%s: slots %ld", name, (long)d.slots);
	pct("retiring", d.retiring, d.slots);
	pct("bad-spec", d.bad_spec, d.slots);
	pct("fe-bound", d.fe_bound, d.slots);
	pct("be-bound", d.be_bound, d.slots);
	hpm_td_fields f;
	hpm_td_decode(b, &f);
	if (!f.level2) {
		printf("\n%s: level 2 not kept on this board\n", name);
		return;
	}
	printf("\n%s: level 2", name);
	pct("br-mispredict", d.br_mispredict, d.slots);
	pct("machine-clears", d.machine_clears, d.slots);
	pct("fetch-latency", d.fetch_lat, d.slots);
	pct("mem-bound", d.mem_bound, d.slots);
	pct("core-bound", d.core_bound, d.slots);
	printf("\n");
}

int main(void)
{
	hpm_td_point p[3];
	hpm_td_read(&p[0]);
	uint32_t r = memory_phase();
	hpm_td_read(&p[1]);
	r += branchy_phase();
	hpm_td_read(&p[2]);
	for (unsigned i = 0; i < 3; i++)
		printf("point %u: slots %lu tdmetrics 0x%08lx tdmetrics2 0x%08lx\n", i, (unsigned long)p[i].slots,
		       (unsigned long)p[i].metrics, (unsigned long)p[i].metrics2);
	phase("memory", &p[0], &p[1]);
	phase("branchy", &p[1], &p[2]);
	return r == 0; /* keeps the phases' work */
}
