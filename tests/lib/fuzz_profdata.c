/* libFuzzer target: hpm_profdata_parse on arbitrary bytes (a prof.data file
 * is outside input to hpmctl report and annotate). It must never crash, and
 * it either fails with a one-line message and no profile, or returns one
 * whose every field is in range: 1..HPM_MAX_COUNTS named events, every
 * sample's event sampled (period != 0), modes U/S/M, at most
 * HPM_MAX_STACK return addresses, version 1, 2 or 3 (1: no ELF hash, time or
 * arguments; 1 and 2: no sample times or call chains); and saving it gives
 * back the same bytes (a profile of an older version stays one). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hpm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[300] = "", path[64];
	hpm_profdata *d;

	int rc = hpm_profdata_parse(&d, data, size, err, sizeof err);
	if (rc != HPM_OK) {
		if (d || !err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	if (!d->nevents || d->nevents > HPM_MAX_COUNTS || (d->mode != 0 && d->mode != 1 && d->mode != 3) ||
	    d->version < 1 || d->version > 3 || !memchr(d->args, '\0', sizeof d->args) ||
	    (d->version == 1 && (d->elf_hash || d->time || d->args[0])))
		abort();
	for (size_t i = 0; i < d->nevents; i++)
		if (!d->event[i].name[0] || memchr(d->event[i].name, '\0', sizeof d->event[i].name) == NULL)
			abort();
	for (size_t i = 0; i < d->nsamples; i++) {
		const hpm_prof_sample *s = &d->samples[i];
		if (s->counter >= d->nevents || !d->event[s->counter].period || s->mode == 2 || s->mode > 3 ||
		    s->nstack > HPM_MAX_STACK || (d->version < 3 && (s->nstack || s->time)))
			abort();
	}
	/* round trip: the writer produces exactly the bytes the parser accepted */
	snprintf(path, sizeof path, "/tmp/fuzz_profdata.%d", (int)getpid());
	if (hpm_profdata_save(d, path, err, sizeof err) != HPM_OK)
		abort();
	FILE *f = fopen(path, "rb");
	uint8_t *back = malloc(size + 1);
	size_t n = f && back ? fread(back, 1, size + 1, f) : 0;
	if (f)
		fclose(f);
	unlink(path);
	if (n != size || memcmp(back, data, size))
		abort();
	free(back);
	hpm_profdata_free(d);
	return 0;
}
