/* hpm_topdown.h: a program's own top-down breakdown, read from the top-down
 * unit (docs/hpm.md, "Top-down unit") the way Linux's
 * tools/perf/Documentation/topdown.txt reads Ice Lake's SLOTS and
 * PERF_METRICS: no counter is taken, one CSR read each, from U-mode.
 *
 *   hpm_td_point a, b;
 *   hpm_td_slots d;
 *   hpm_td_read(&a);
 *   phase();
 *   hpm_td_read(&b);
 *   hpm_td_delta(&a, &b, &d);     d.retiring, d.bad_spec, ...: the phase's slots
 *
 * The metrics are fractions (in 1/255, field sum 0xff) of the slots since
 * the unit's last reset; a metric's slots at a point are field * SLOTS / 255
 * (rounded down), and a phase's are the difference of two points, which
 * rounding can make slightly negative. The fractions lose precision as
 * SLOTS grows: hpmctl resets the unit before a run (the program cannot, it
 * runs below M), and the exact counts are M-mode CSRs that hpmctl stat
 * --topdown reads. Level 2: machine clears = bad speculation - branch
 * mispredicts, core bound = backend bound - memory bound, fetch latency =
 * frontend bound.
 *
 * On a board with the unit (the simulated board, HPM_TD = 1) and on the
 * iCE40 board, whose monitor emulates level 1 from two counts (docs/hpm.md,
 * "Top-down on the board"; every run starts from zero there): tdmetrics2
 * then reads only its NA bit (fields.level2 = 0, the level 2 slots 0).
 * Elsewhere the reads are illegal instructions. The monitor lets a run read
 * them (bit CY of mcounteren/scounteren, as for cycle). */
#ifndef HPM_TOPDOWN_H
#define HPM_TOPDOWN_H

#include <stdint.h>

/* the CSR numbers (hw/csr.def) */
#define HPM_TD_CSR_SLOTS      0xcc0
#define HPM_TD_CSR_SLOTSH     0xcc1
#define HPM_TD_CSR_TDMETRICS  0xcc2
#define HPM_TD_CSR_TDMETRICS2 0xcc3
#ifdef HPM_MAP_H /* the catalogue is at hand (the SDK's own build): they agree */
_Static_assert(HPM_TD_CSR_SLOTS == CSR_SLOTS && HPM_TD_CSR_SLOTSH == CSR_SLOTSH &&
		       HPM_TD_CSR_TDMETRICS == CSR_TDMETRICS && HPM_TD_CSR_TDMETRICS2 == CSR_TDMETRICS2,
	       "hpm_topdown.h: CSR numbers differ from hw/csr.def");
#endif

#define HPM_TD_STR_(x) #x
#define HPM_TD_STR(x) HPM_TD_STR_(x)
#define HPM_TD_CSRR(csr) ({ uint32_t v_; __asm__ volatile("csrr %0, " HPM_TD_STR(csr) : "=r"(v_)); v_; })

/* one point: SLOTS (hi, lo, hi), then both metrics registers right after */
typedef struct hpm_td_point {
	uint64_t slots;
	uint32_t metrics;  /* tdmetrics: level 1 */
	uint32_t metrics2; /* tdmetrics2: level 2, bit 31 OF */
} hpm_td_point;

static inline void hpm_td_read(hpm_td_point *p)
{
	uint32_t hi, lo, hi2;
	do {
		hi = HPM_TD_CSRR(HPM_TD_CSR_SLOTSH);
		lo = HPM_TD_CSRR(HPM_TD_CSR_SLOTS);
		hi2 = HPM_TD_CSRR(HPM_TD_CSR_SLOTSH);
	} while (hi != hi2);
	p->metrics = HPM_TD_CSRR(HPM_TD_CSR_TDMETRICS);
	p->metrics2 = HPM_TD_CSRR(HPM_TD_CSR_TDMETRICS2);
	p->slots = (uint64_t)hi << 32 | lo;
}

/* the fields of a point, in 1/255 of its SLOTS */
typedef struct hpm_td_fields {
	uint8_t retiring, bad_spec, fe_bound, be_bound; /* sum 255 */
	uint8_t br_mispredict, fetch_lat, mem_bound;
	uint8_t of; /* SLOTS wrapped since the reset: the point is useless */
	uint8_t level2; /* 0: level 2 is not kept (tdmetrics2 bit 30, NA) */
} hpm_td_fields;

static inline void hpm_td_decode(const hpm_td_point *p, hpm_td_fields *f)
{
	f->retiring = (uint8_t)p->metrics;
	f->bad_spec = (uint8_t)(p->metrics >> 8);
	f->fe_bound = (uint8_t)(p->metrics >> 16);
	f->be_bound = (uint8_t)(p->metrics >> 24);
	f->br_mispredict = (uint8_t)p->metrics2;
	f->fetch_lat = (uint8_t)(p->metrics2 >> 8);
	f->mem_bound = (uint8_t)(p->metrics2 >> 16);
	f->of = (uint8_t)(p->metrics2 >> 31);
	f->level2 = !(p->metrics2 >> 30 & 1u);
}

/* slots per metric, at a point or between two */
typedef struct hpm_td_slots {
	int64_t slots;
	int64_t retiring, bad_spec, fe_bound, be_bound;
	int64_t br_mispredict, machine_clears, fetch_lat, mem_bound, core_bound;
} hpm_td_slots;

/* floor(field * slots / 255), without a 72-bit product */
static inline int64_t hpm_td_scale(uint8_t field, uint64_t slots)
{
	return (int64_t)((slots / 255u) * field + (slots % 255u) * field / 255u);
}

static inline void hpm_td_at(const hpm_td_point *p, hpm_td_slots *s)
{
	hpm_td_fields f;
	hpm_td_decode(p, &f);
	s->slots = (int64_t)p->slots;
	s->retiring = hpm_td_scale(f.retiring, p->slots);
	s->bad_spec = hpm_td_scale(f.bad_spec, p->slots);
	s->fe_bound = hpm_td_scale(f.fe_bound, p->slots);
	s->be_bound = hpm_td_scale(f.be_bound, p->slots);
	s->br_mispredict = hpm_td_scale(f.br_mispredict, p->slots);
	s->machine_clears = f.level2 ? s->bad_spec - s->br_mispredict : 0;
	s->fetch_lat = hpm_td_scale(f.fetch_lat, p->slots);
	s->mem_bound = hpm_td_scale(f.mem_bound, p->slots);
	s->core_bound = f.level2 ? s->be_bound - s->mem_bound : 0;
}

/* d = b - a, metric by metric (a before b, no reset between) */
static inline void hpm_td_delta(const hpm_td_point *a, const hpm_td_point *b, hpm_td_slots *d)
{
	hpm_td_slots x, y;
	hpm_td_at(a, &x);
	hpm_td_at(b, &y);
	d->slots = y.slots - x.slots;
	d->retiring = y.retiring - x.retiring;
	d->bad_spec = y.bad_spec - x.bad_spec;
	d->fe_bound = y.fe_bound - x.fe_bound;
	d->be_bound = y.be_bound - x.be_bound;
	d->br_mispredict = y.br_mispredict - x.br_mispredict;
	d->machine_clears = y.machine_clears - x.machine_clears;
	d->fetch_lat = y.fetch_lat - x.fetch_lat;
	d->mem_bound = y.mem_bound - x.mem_bound;
	d->core_bound = y.core_bound - x.core_bound;
}

#endif
