/* The top-down percentages shared by hpmctl topdown and stat --topdown. */
#include "hpmctl.h"

void td_largest_remainder(const uint64_t *w, size_t n, unsigned units, unsigned *out)
{
	uint64_t total = 0, rem[TD_MAX_ITEMS];
	unsigned given = 0;
	for (size_t i = 0; i < n; i++)
		total += w[i];
	if (!total) {          /* nothing counted (only if inconsistent): all to the first */
		for (size_t i = 0; i < n; i++)
			out[i] = i ? 0 : units;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		/* w * units / total in two parts (r * units fits below 2^54 slots) */
		uint64_t r = w[i] % total;
		out[i] = (unsigned)(w[i] / total * units + r * units / total);
		rem[i] = r * units % total;
		given += out[i];
	}
	while (given < units) {
		size_t best = 0;
		for (size_t i = 1; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		out[best]++;
		rem[best] = 0;
		given++;
	}
}
