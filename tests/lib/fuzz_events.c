/* libFuzzer target: hpm_evlist_parse on arbitrary strings (what users type
 * after -e). It must never crash, and it either fails with a one-line
 * message and no list, or returns a list whose every entry is a catalogue
 * event, the top-down group's `slots` (counted as cycles) or a raw selector:
 * OF and the reserved bits clear, mode inhibit bits only with a ':'
 * modifier, and never all three modes inhibited. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hpm.h"
#include "hpm_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[512], err[256];
	hpm_evlist *l;

	if (size >= sizeof spec)
		size = sizeof spec - 1;
	memcpy(spec, data, size);
	spec[size] = '\0';
	err[0] = '\0';
	int rc = hpm_evlist_parse(&l, spec, err, sizeof err);
	if (rc != HPM_OK) {
		if (l || !err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	for (size_t i = 0; i < hpm_evlist_len(l); i++) {
		const hpm_evspec *e = hpm_evlist_at(l, i);
		char base[sizeof e->name];
		strcpy(base, e->name);
		char *colon = strchr(base, ':');
		unsigned inh = (unsigned)(e->selector >> MHPMEVENT_UINH_SHIFT);
		if (colon)
			*colon = '\0';
		if (e->selector & (MHPMEVENT_OF | MHPMEVENT_ZERO) || (inh && !colon) || inh == 7)
			abort();
		if (!strcmp(base, "slots")) {
			if (e->index != hpm_event_find("cycles")->index)
				abort();
		} else if (e->index && !hpm_event_find(base))
			abort();
	}
	hpm_evlist_free(l);
	return 0;
}
