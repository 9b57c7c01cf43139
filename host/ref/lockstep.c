/* lockstep.c: steps the model with the RTL and compares every record; keeps
 * a ring of the last `history` agreeing records as context for a divergence. */
#include "hpmref.h"
#include <inttypes.h>
#include <stdlib.h>

struct hpm_lockstep {
	hpmref *m;
	unsigned history;
	hpm_retire *ring; /* history entries */
	uint64_t count;   /* records compared and equal */
	int diverged;
};

hpm_lockstep *hpm_lockstep_new(hpmref *m, unsigned history)
{
	hpm_lockstep *ls = calloc(1, sizeof *ls);
	if (!ls)
		return NULL;
	ls->m = m;
	ls->history = history;
	if (history) {
		ls->ring = calloc(history, sizeof *ls->ring);
		if (!ls->ring) {
			free(ls);
			return NULL;
		}
	}
	return ls;
}

void hpm_lockstep_free(hpm_lockstep *ls)
{
	if (!ls)
		return;
	free(ls->ring);
	free(ls);
}

uint64_t hpm_lockstep_count(const hpm_lockstep *ls)
{
	return ls->count;
}

int hpm_lockstep_check(hpm_lockstep *ls, const hpm_retire *rtl, FILE *out)
{
	hpm_retire ref;
	char msg[160], line[256];
	hpmref_step(ls->m, &ref);
	if (!hpm_retire_compare(rtl, &ref, msg, sizeof msg)) {
		if (ls->history)
			ls->ring[ls->count % ls->history] = ref;
		ls->count++;
		return 0;
	}
	ls->diverged = 1;
	if (out) {
		uint64_t n = ls->count < ls->history ? ls->count : ls->history;
		fprintf(out, "lockstep: divergence at instruction %" PRIu64 ": %s\n",
			ls->count, msg);
		if (n)
			fprintf(out, "lockstep: last %" PRIu64 " matching instructions:\n", n);
		for (uint64_t i = ls->count - n; i < ls->count; i++) {
			hpm_retire_format(&ls->ring[i % ls->history], line, sizeof line);
			fprintf(out, "  %s\n", line);
		}
		hpm_retire_format(rtl, line, sizeof line);
		fprintf(out, "lockstep: rtl: %s\n", line);
		hpm_retire_format(&ref, line, sizeof line);
		fprintf(out, "lockstep: ref: %s\n", line);
	}
	return 1;
}
