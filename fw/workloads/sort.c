/* sort: loads, stores and branch misses. Quicksort (median-of-three pivot,
 * recursion into the smaller part, insertion sort below CUTOFF elements) of
 * size random 32-bit keys (default 4500, at most MAX_KEYS). Self-check: the
 * keys are in order, and a multiset hash of them (sum of a mixing function)
 * is the one taken before sorting. */
#include "wl.h"

WL_TEST_SIZE(1000);

#define DEFAULT_KEYS 4500u
#define MAX_KEYS 16384u
#define CUTOFF 12

static uint32_t keys[MAX_KEYS];

static void insertion_sort(uint32_t *lo, uint32_t *hi)
{
	for (uint32_t *p = lo + 1; p <= hi; p++) {
		uint32_t x = *p;
		uint32_t *q = p;
		for (; q > lo && q[-1] > x; q--)
			*q = q[-1];
		*q = x;
	}
}

static void swap(uint32_t *x, uint32_t *y)
{
	uint32_t t = *x;
	*x = *y;
	*y = t;
}

/* sorts lo..hi inclusive */
static void quicksort(uint32_t *lo, uint32_t *hi)
{
	while (hi - lo >= CUTOFF) {
		/* median of three to *lo, then Hoare partition around it */
		uint32_t *mid = lo + (hi - lo) / 2;
		if (*mid < *lo)
			swap(mid, lo);
		if (*hi < *lo)
			swap(hi, lo);
		if (*hi < *mid)
			swap(hi, mid);
		swap(lo, mid);
		uint32_t pivot = *lo;
		uint32_t *i = lo, *j = hi + 1;
		for (;;) {
			do
				i++;
			while (*i < pivot);
			do
				j--;
			while (pivot < *j);
			if (i >= j)
				break;
			swap(i, j);
		}
		swap(lo, j);
		if (j - lo < hi - j) {
			quicksort(lo, j - 1);
			lo = j + 1;
		} else {
			quicksort(j + 1, hi);
			hi = j - 1;
		}
	}
	insertion_sort(lo, hi);
}

static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	return x;
}

uint32_t workload_main(uint32_t size)
{
	uint32_t n = size ? size : DEFAULT_KEYS;
	if (n > MAX_KEYS)
		n = MAX_KEYS;
	uint32_t seed = 0x243f6a88u, hash = 0;
	for (uint32_t i = 0; i < n; i++) {
		keys[i] = xs32(&seed);
		hash += mix(keys[i]);
	}
	quicksort(keys, keys + n - 1);
	SABOTAGE(keys[n / 2] ^= 1);

	for (uint32_t i = 1; i < n; i++)
		if (keys[i - 1] > keys[i])
			return 1;
	for (uint32_t i = 0; i < n; i++)
		hash -= mix(keys[i]);
	return hash != 0 ? 2 : 0;
}
