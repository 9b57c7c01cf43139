/* prof.data: a sampling profile on disk (docs/hpmctl.md "prof.data").
 * Little-endian, fixed layout; the parser takes any bytes and either
 * accepts a well-formed file or says in one line what is wrong. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hpm_int.h"

#define MAGIC     "HPMPROF\0"
/* version 2 added the ELF's content hash, the time, the arguments; 3 each
 * sample's board time and call chain */
#define VERSION   3u
#define HDR_LEN   40u
#define SAMPLE_LEN 8u        /* versions 1 and 2 */
#define SAMPLE3_LEN 16u      /* version 3, before the return addresses */

static int bad(char *err, size_t errlen, const char *what, hpm_profdata *d)
{
	if (err && errlen)
		snprintf(err, errlen, "not a valid prof.data file: %s", what);
	hpm_profdata_free(d);
	return HPM_E_ARG;
}

void hpm_profdata_free(hpm_profdata *d)
{
	if (!d)
		return;
	free(d->samples);
	free(d);
}

/* a length-prefixed string (u16) at *off into buf[cap] */
static int get_str(const uint8_t *b, size_t len, size_t *off, char *buf, size_t cap)
{
	if (len - *off < 2)
		return -1;
	size_t n = hpm_get16(b + *off);
	*off += 2;
	if (n >= cap || len - *off < n || memchr(b + *off, '\0', n))
		return -1;
	memcpy(buf, b + *off, n);
	buf[n] = '\0';
	*off += n;
	return 0;
}

int hpm_profdata_parse(hpm_profdata **out, const void *buf, size_t len, char *err, size_t errlen)
{
	const uint8_t *b = buf;
	size_t off = HDR_LEN;

	*out = NULL;
	if (len < HDR_LEN || memcmp(b, MAGIC, 8))
		return bad(err, errlen, "no HPMPROF header", NULL);
	uint32_t version = hpm_get32(b + 8);
	if (version < 1 || version > VERSION)
		return bad(err, errlen, "unknown version", NULL);
	hpm_profdata *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return HPM_E_NOMEM;
	}
	d->version = version;
	d->clock_hz = hpm_get32(b + 16);
	d->mode = hpm_get32(b + 20);
	d->cycles = hpm_get64(b + 24);
	d->nevents = hpm_get32(b + 32);
	d->nsamples = hpm_get32(b + 36);
	if (hpm_get32(b + 12) || !d->clock_hz || (d->mode != 0 && d->mode != 1 && d->mode != 3))
		return bad(err, errlen, "bad header field", d);
	if (!d->nevents || d->nevents > HPM_MAX_COUNTS)
		return bad(err, errlen, "bad number of events", d);
	if (get_str(b, len, &off, d->program, sizeof d->program))
		return bad(err, errlen, "bad program name", d);
	if (version >= 2) {
		if (len - off < 16)
			return bad(err, errlen, "truncated program identity", d);
		d->elf_hash = hpm_get64(b + off);
		d->time = hpm_get64(b + off + 8);
		off += 16;
		if (get_str(b, len, &off, d->args, sizeof d->args))
			return bad(err, errlen, "bad program arguments", d);
	}
	for (size_t i = 0; i < d->nevents; i++) {
		hpm_profdata_event *e = &d->event[i];
		if (len - off < 16)
			return bad(err, errlen, "truncated event table", d);
		e->period = hpm_get64(b + off);
		e->count = hpm_get64(b + off + 8);
		off += 16;
		if (get_str(b, len, &off, e->name, sizeof e->name) || !e->name[0])
			return bad(err, errlen, "bad event name", d);
	}
	/* every sample takes at least SAMPLE_LEN bytes: a count beyond the
	 * bytes left is wrong before anything is allocated */
	if ((len - off) / SAMPLE_LEN < d->nsamples ||
	    (version < 3 && (len - off) != (size_t)d->nsamples * SAMPLE_LEN))
		return bad(err, errlen, "the sample table does not match its count", d);
	d->samples = calloc(d->nsamples ? d->nsamples : 1, sizeof *d->samples);
	if (!d->samples) {
		hpm_profdata_free(d);
		snprintf(err, errlen, "out of memory");
		return HPM_E_NOMEM;
	}
	for (size_t i = 0; i < d->nsamples; i++) {
		hpm_prof_sample *s = &d->samples[i];
		size_t slen = version < 3 ? SAMPLE_LEN : SAMPLE3_LEN;
		if (len - off < slen)
			return bad(err, errlen, "the sample table does not match its count", d);
		s->index = (uint32_t)i;
		s->pc = hpm_get32(b + off);
		s->counter = b[off + 4];
		s->mode = b[off + 5];
		unsigned pad = hpm_get16(b + off + 6);
		if (version >= 3) {
			s->nstack = b[off + 6];
			pad = b[off + 7];
			s->time = hpm_get64(b + off + 8);
			if (s->nstack > HPM_MAX_STACK || (len - off - slen) / 4 < s->nstack)
				return bad(err, errlen, "bad call chain", d);
			for (unsigned k = 0; k < s->nstack; k++)
				s->stack[k] = hpm_get32(b + off + slen + 4 * k);
			slen += 4 * s->nstack;
		}
		if (s->counter >= d->nevents || !d->event[s->counter].period ||
		    (s->mode != 0 && s->mode != 1 && s->mode != 3) || pad)
			return bad(err, errlen, "bad sample", d);
		off += slen;
	}
	if (off != len)
		return bad(err, errlen, "the sample table does not match its count", d);
	*out = d;
	return HPM_OK;
}

int hpm_profdata_load(hpm_profdata **out, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	*out = NULL;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return HPM_E_NOTFOUND;
	}
	do {
		if (len == cap) {
			uint8_t *nb = cap < (256u << 20) ? realloc(buf, cap = cap ? 2 * cap : 65536) : NULL;
			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: too large or out of memory", path);
				return HPM_E_NOMEM;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	int rc = hpm_profdata_parse(out, buf, len, err, errlen);
	free(buf);
	if (rc == HPM_E_ARG) {
		char why[256];
		snprintf(why, sizeof why, "%s", err);
		snprintf(err, errlen, "%s: %s", path, why);
	}
	return rc;
}

static void put_str(FILE *f, const char *s)
{
	uint8_t l[2];
	size_t n = strlen(s);
	hpm_put16(l, (uint16_t)n);
	fwrite(l, 1, 2, f);
	fwrite(s, 1, n, f);
}

int hpm_profdata_save(const hpm_profdata *d, const char *path, char *err, size_t errlen)
{
	uint8_t h[HDR_LEN] = { 0 }, e[16], s[SAMPLE3_LEN + 4 * HPM_MAX_STACK];

	/* a profile read from an older version stays one (0: a new profile) */
	unsigned version = d->version && d->version < VERSION ? d->version : VERSION;
	int bad_sample = 0;
	for (size_t i = 0; i < d->nsamples; i++)
		bad_sample |= d->samples[i].nstack > HPM_MAX_STACK ||
			      (version < 3 && (d->samples[i].nstack || d->samples[i].time));
	if (!d->nevents || d->nevents > HPM_MAX_COUNTS || strlen(d->program) >= sizeof d->program ||
	    strlen(d->args) >= sizeof d->args || bad_sample ||
	    (version == 1 && (d->elf_hash || d->time || d->args[0]))) {
		snprintf(err, errlen, "prof.data: bad profile");
		return HPM_E_ARG;
	}
	/* written whole under another name, then renamed: a reader (or a
	 * kill) never sees part of a profile */
	char tmp[4200];
	if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
		snprintf(err, errlen, "%s: name too long", path);
		return HPM_E_ARG;
	}
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return HPM_E_NOTFOUND;
	}
	memcpy(h, MAGIC, 8);
	hpm_put32(h + 8, version);
	hpm_put32(h + 16, d->clock_hz);
	hpm_put32(h + 20, d->mode);
	hpm_put64(h + 24, d->cycles);
	hpm_put32(h + 32, (uint32_t)d->nevents);
	hpm_put32(h + 36, (uint32_t)d->nsamples);
	fwrite(h, 1, sizeof h, f);
	put_str(f, d->program);
	if (version >= 2) {
		hpm_put64(e, d->elf_hash);
		hpm_put64(e + 8, d->time);
		fwrite(e, 1, sizeof e, f);
		put_str(f, d->args);
	}
	for (size_t i = 0; i < d->nevents; i++) {
		hpm_put64(e, d->event[i].period);
		hpm_put64(e + 8, d->event[i].count);
		fwrite(e, 1, sizeof e, f);
		put_str(f, d->event[i].name);
	}
	for (size_t i = 0; i < d->nsamples; i++) {
		const hpm_prof_sample *ps = &d->samples[i];
		size_t slen = SAMPLE_LEN;
		hpm_put32(s, ps->pc);
		s[4] = (uint8_t)ps->counter;
		s[5] = (uint8_t)ps->mode;
		s[6] = s[7] = 0;
		if (version >= 3) {
			s[6] = (uint8_t)ps->nstack;
			hpm_put64(s + 8, ps->time);
			for (unsigned k = 0; k < ps->nstack; k++)
				hpm_put32(s + SAMPLE3_LEN + 4 * k, ps->stack[k]);
			slen = SAMPLE3_LEN + 4 * ps->nstack;
		}
		fwrite(s, 1, slen, f);
	}
	if (ferror(f) | fclose(f)) {
		unlink(tmp);
		snprintf(err, errlen, "%s: write failed", path);
		return HPM_E_ARG;
	}
	if (rename(tmp, path)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return HPM_E_NOTFOUND;
	}
	return HPM_OK;
}

/* 64-bit FNV-1a of the file's bytes: whether a profile's ELF is the one
 * that ran (not a defence against a forged file). */
int hpm_file_hash(const char *path, uint64_t *hash, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t buf[65536];
	uint64_t h = 0xcbf29ce484222325ull;
	size_t n;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return HPM_E_NOTFOUND;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		for (size_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
	int bad_read = ferror(f);
	fclose(f);
	if (bad_read) {
		snprintf(err, errlen, "%s: read failed", path);
		return HPM_E_NOTFOUND;
	}
	*hash = h;
	return HPM_OK;
}
