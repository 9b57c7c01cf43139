/* perf.data (PERFILE2, tools/perf/Documentation/perf.data-file-format.txt)
 * from a prof.data profile, so that Linux perf and hotspot read it: one
 * attribute per sampled event, a COMM and one MMAP per executable segment
 * of the program's RV32 ELF, then one SAMPLE per sample (ip, pid/tid,
 * board time in ns when known, period, call chain when recorded), and the
 * features perf reads for the architecture, the CPUs and the event names.
 * Little-endian, as the host and the board are. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hpmctl.h"
#include "profview.h"

/* perf_event_attr.sample_type bits, record types, header features */
enum {
	S_IP = 1 << 0, S_TID = 1 << 1, S_TIME = 1 << 2, S_CALLCHAIN = 1 << 5,
	S_PERIOD = 1 << 8, S_IDENTIFIER = 1 << 16,
};
enum { R_MMAP = 1, R_COMM = 3, R_SAMPLE = 9 };
enum { MISC_USER = 2 };
enum { F_HOSTNAME = 3, F_NRCPUS = 7, F_CPUDESC = 8, F_CMDLINE = 11, F_EVENT_DESC = 12 };
#define ATTR_SIZE 128u               /* PERF_ATTR_SIZE_VER7, perf 5.13 .. 6.2 */
#define FILE_HDR  104u
#define CONTEXT_USER 0xfffffffffffffe00ull   /* PERF_CONTEXT_USER: user-space frames follow */
#define PID 1u                       /* the program: the board runs one */

struct buf {
	uint8_t *p;
	size_t n, cap;
	int nomem;
};

static uint8_t *grow(struct buf *b, size_t n)
{
	if (b->nomem)
		return NULL;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1 << 16;
		while (cap < b->n + n)
			cap *= 2;
		uint8_t *q = realloc(b->p, cap);
		if (!q) {
			b->nomem = 1;
			return NULL;
		}
		b->p = q;
		b->cap = cap;
	}
	uint8_t *at = b->p + b->n;
	memset(at, 0, n);
	b->n += n;
	return at;
}

static void put(uint8_t *at, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		at[i] = (uint8_t)(v >> 8 * i);
}

static void u64(struct buf *b, uint64_t v)
{
	uint8_t *at = grow(b, 8);
	if (at)
		put(at, v, 8);
}

static void u32(struct buf *b, uint32_t v)
{
	uint8_t *at = grow(b, 4);
	if (at)
		put(at, v, 4);
}

/* a NUL-terminated string padded with NULs to a multiple of align */
static void str(struct buf *b, const char *s, size_t align)
{
	size_t n = (strlen(s) + 1 + align - 1) / align * align;
	uint8_t *at = grow(b, n);
	if (at)
		memcpy(at, s, strlen(s));
}

/* a feature's perf_header_string: u32 length (padded to 64), the bytes */
static void hstr(struct buf *b, const char *s)
{
	u32(b, (uint32_t)((strlen(s) + 1 + 63) / 64 * 64));
	str(b, s, 64);
}

/* a record header; the size is patched by end_record */
static size_t begin_record(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->n;
	u32(b, type);
	u32(b, misc);
	return at;
}

static void end_record(struct buf *b, size_t at)
{
	if (!b->nomem)
		put(b->p + at + 6, b->n - at, 2);
}

/* perf_event_attr (VER7) of sampled event ev */
static void attr(struct buf *b, const hpm_profdata_event *e, uint64_t sample_type)
{
	static const char *const hw[] = { "cycles", "instructions", "cache-references", "cache-misses",
					  "branches", "branch-misses" };
	uint32_t type = 4;                   /* PERF_TYPE_RAW: the board's selector */
	uint64_t config = 0;
	for (unsigned i = 0; i < sizeof hw / sizeof *hw; i++)
		if (!strcmp(e->name, hw[i])) {
			type = 0;            /* PERF_TYPE_HARDWARE */
			config = i;
		}
	hpm_evlist *l;
	char err[200];
	if (type && hpm_evlist_parse(&l, e->name, err, sizeof err) == HPM_OK) {
		config = hpm_evlist_at(l, 0)->selector;
		hpm_evlist_free(l);
	}
	size_t start = b->n;
	u32(b, type);
	u32(b, ATTR_SIZE);
	u64(b, config);
	u64(b, e->period);               /* sample_period */
	u64(b, sample_type);
	u64(b, 0);                       /* read_format */
	/* flags: exclude_kernel (5), exclude_hv (6), mmap (8), comm (9) */
	u64(b, 1u << 5 | 1u << 6 | 1u << 8 | 1u << 9);
	grow(b, ATTR_SIZE - (b->n - start));
}

/* The program's executable PT_LOAD segments: (vaddr, memsz, offset)
 * triples into seg[]; how many, or -1 with the reason in err. */
static int exec_segments(const char *path, uint32_t seg[][3], int cap, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t eh[52], ph[32];
	int n = 0;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fread(eh, 1, sizeof eh, f) != sizeof eh || memcmp(eh, "\177ELF\1\1", 6)) {
		fclose(f);
		snprintf(err, errlen, "%s: not a 32-bit little-endian ELF file", path);
		return -1;
	}
	uint32_t phoff = (uint32_t)eh[28] | (uint32_t)eh[29] << 8 | (uint32_t)eh[30] << 16 | (uint32_t)eh[31] << 24;
	unsigned phentsize = eh[42] | eh[43] << 8, phnum = eh[44] | eh[45] << 8;
	for (unsigned i = 0; i < phnum && n < cap; i++) {
		if (phentsize < sizeof ph || fseek(f, (long)(phoff + i * phentsize), SEEK_SET) ||
		    fread(ph, 1, sizeof ph, f) != sizeof ph) {
			fclose(f);
			snprintf(err, errlen, "%s: truncated program headers", path);
			return -1;
		}
		uint32_t w[8];
		for (int k = 0; k < 8; k++)
			w[k] = (uint32_t)ph[4 * k] | (uint32_t)ph[4 * k + 1] << 8 | (uint32_t)ph[4 * k + 2] << 16 |
			       (uint32_t)ph[4 * k + 3] << 24;
		if (w[0] == 1 && (w[6] & 1) && w[5]) {    /* PT_LOAD, PF_X */
			seg[n][0] = w[2];
			seg[n][1] = w[5];
			seg[n][2] = w[1];
			n++;
		}
	}
	fclose(f);
	return n;
}

int perf_data_write(const hpm_profdata *d, const char *path, char *err, size_t errlen)
{
	struct buf b = { 0 };
	uint32_t seg[8][3];
	int nseg = exec_segments(d->program, seg, 8, err, errlen);
	if (nseg < 0)
		return -1;
	uint64_t st = S_IDENTIFIER | S_IP | S_TID | S_PERIOD;
	for (size_t i = 0; i < d->nsamples; i++) {
		if (d->samples[i].time)
			st |= S_TIME;
		if (d->samples[i].nstack)
			st |= S_CALLCHAIN;
	}
	/* event i of the profile, if sampled, is attribute id[i] (1..) */
	uint64_t id[HPM_MAX_COUNTS] = { 0 }, nattr = 0;
	for (size_t i = 0; i < d->nevents; i++)
		if (d->event[i].period)
			id[i] = ++nattr;

	/* header, then attrs, then their ids */
	grow(&b, FILE_HDR);
	uint64_t attrs_at = b.n, ids_at = attrs_at + nattr * (ATTR_SIZE + 16);
	for (size_t i = 0; i < d->nevents; i++)
		if (id[i]) {
			attr(&b, &d->event[i], st);
			u64(&b, ids_at + 8 * (id[i] - 1));
			u64(&b, 8);
		}
	for (size_t i = 0; i < d->nevents; i++)
		if (id[i])
			u64(&b, id[i]);

	/* data: the program's name and mappings, then the samples */
	uint64_t data_at = b.n;
	const char *base = strrchr(d->program, '/');
	char comm[16];
	snprintf(comm, sizeof comm, "%.15s", base ? base + 1 : d->program);   /* as the kernel keeps it */
	size_t r = begin_record(&b, R_COMM, 0);
	u32(&b, PID);
	u32(&b, PID);
	str(&b, comm, 8);
	end_record(&b, r);
	for (int i = 0; i < nseg; i++) {
		r = begin_record(&b, R_MMAP, MISC_USER);
		u32(&b, PID);
		u32(&b, PID);
		u64(&b, seg[i][0]);
		u64(&b, seg[i][1]);
		u64(&b, seg[i][2]);
		str(&b, d->program, 8);
		end_record(&b, r);
	}
	for (size_t i = 0; i < d->nsamples; i++) {
		const hpm_prof_sample *s = &d->samples[i];
		r = begin_record(&b, R_SAMPLE, MISC_USER);
		u64(&b, id[s->counter]);
		u64(&b, s->pc);
		u32(&b, PID);
		u32(&b, PID);
		if (st & S_TIME)
			u64(&b, cycles_to_ns(s->time, d->clock_hz));
		u64(&b, d->event[s->counter].period);
		if (st & S_CALLCHAIN) {
			u64(&b, 2 + s->nstack);
			u64(&b, CONTEXT_USER);
			u64(&b, s->pc);
			for (unsigned k = 0; k < s->nstack; k++)
				u64(&b, s->stack[k]);
		}
		end_record(&b, r);
	}
	uint64_t data_len = b.n - data_at;

	/* features: their (offset, size) table right after the data, then each */
	/* hotspot's parser trusts the feature bits only with HOSTNAME or CMDLINE */
	/* No ARCH: perf annotate knows riscv64 (not riscv32) and hotspot's
	 * parser no RISC-V at all; without one each takes the host's, which
	 * reads the chains given (nothing to unwind) and the RISC-V objdump */
	static const int feats[] = { F_HOSTNAME, F_NRCPUS, F_CPUDESC, F_CMDLINE, F_EVENT_DESC };
	const unsigned nf = sizeof feats / sizeof *feats;
	size_t table = b.n;
	grow(&b, 16 * nf);
	for (unsigned f = 0; f < nf; f++) {
		size_t at = b.n;
		switch (feats[f]) {
		case F_HOSTNAME: hstr(&b, "hpm-overlay"); break;
		case F_NRCPUS: u32(&b, 1); u32(&b, 1); break;
		case F_CPUDESC: hstr(&b, "hpm-overlay RV32IM (iCE40)"); break;
		case F_CMDLINE: {        /* the program and its arguments */
			char args[sizeof d->args], *save;
			uint32_t n = 1;
			snprintf(args, sizeof args, "%s", d->args);
			for (const char *a = strtok_r(args, " ", &save); a; a = strtok_r(NULL, " ", &save))
				n++;
			u32(&b, n);
			hstr(&b, d->program);
			snprintf(args, sizeof args, "%s", d->args);
			for (const char *a = strtok_r(args, " ", &save); a; a = strtok_r(NULL, " ", &save))
				hstr(&b, a);
			break;
		}
		case F_EVENT_DESC:
			u32(&b, (uint32_t)nattr);
			u32(&b, ATTR_SIZE);
			for (size_t i = 0; i < d->nevents; i++)
				if (id[i]) {
					attr(&b, &d->event[i], st);
					u32(&b, 1);
					hstr(&b, d->event[i].name);
					u64(&b, id[i]);
				}
			break;
		}
		if (!b.nomem) {
			put(b.p + table + 16 * f, at, 8);
			put(b.p + table + 16 * f + 8, b.n - at, 8);
		}
	}
	if (b.nomem) {
		free(b.p);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	uint8_t *h = b.p;
	memcpy(h, "PERFILE2", 8);
	put(h + 8, FILE_HDR, 8);
	put(h + 16, ATTR_SIZE + 16, 8);
	put(h + 24, attrs_at, 8);
	put(h + 32, nattr * (ATTR_SIZE + 16), 8);
	put(h + 40, data_at, 8);
	put(h + 48, data_len, 8);
	/* event_types (48..64 of the sections) stays empty; the feature bits: */
	for (unsigned f = 0; f < nf; f++)
		h[72 + feats[f] / 8] |= (uint8_t)(1u << feats[f] % 8);
	int rc = write_whole(path, b.p, b.n, err, errlen);
	free(b.p);
	return rc;
}

/* Written under another name and renamed, with a second Ctrl-C held off:
 * never an empty or torn file. 0, or -1 with the reason in err. */
int write_whole(const char *path, const void *p, size_t n, char *err, size_t errlen)
{
	char tmp[4200];
	if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
		snprintf(err, errlen, "%s: name too long", path);
		return -1;
	}
	hold_interrupts(1);
	errno = 0;
	FILE *f = fopen(tmp, "wb");
	int bad = !f || fwrite(p, 1, n, f) != n;
	if (f)
		bad |= fclose(f) != 0;
	if (bad || rename(tmp, path)) {
		snprintf(err, errlen, "%s: %s", path, errno ? strerror(errno) : "write failed");
		unlink(tmp);
		bad = 1;
	}
	hold_interrupts(0);
	return bad ? -1 : 0;
}
