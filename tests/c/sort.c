/* sort: quicksort, merge sort and insertion sort of the same pseudo-random
 * array; all three must agree, be ordered, and keep the checksum. */
#include "common.h"

#define N 1500
static int32_t a[N], b[N], c[N], tmp[N];

static void quicksort(int32_t *v, int lo, int hi)
{
	while (lo < hi) {
		int32_t p = v[(lo + hi) / 2];
		int i = lo, j = hi;
		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j) {
				int32_t t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		}
		if (j - lo < hi - i) {
			quicksort(v, lo, j);
			lo = i;
		} else {
			quicksort(v, i, hi);
			hi = j;
		}
	}
}

static void mergesort(int32_t *v, int n)
{
	for (int w = 1; w < n; w *= 2) {
		for (int lo = 0; lo < n; lo += 2 * w) {
			int mid = lo + w < n ? lo + w : n;
			int hi = lo + 2 * w < n ? lo + 2 * w : n;
			int i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = v[i] <= v[j] ? v[i++] : v[j++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, (size_t)n * sizeof v[0]);
	}
}

static void insertion(int32_t *v, int n)
{
	for (int i = 1; i < n; i++) {
		int32_t x = v[i];
		int j = i - 1;
		while (j >= 0 && v[j] > x) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
}

int main(void)
{
	uint32_t s = 0xdeadbeef, sum = 0;
	for (int i = 0; i < N; i++) {
		a[i] = (int32_t)xs32(&s) >> (i & 7);
		sum += (uint32_t)a[i];
	}
	memcpy(b, a, sizeof a);
	memcpy(c, a, sizeof a);
	quicksort(a, 0, N - 1);
	mergesort(b, N);
	insertion(c, 400);
	uint32_t sum2 = 0;
	for (int i = 0; i < N; i++) {
		sum2 += (uint32_t)a[i];
		if (i)
			CHECK(1, a[i - 1] <= a[i]);
		CHECK(2, a[i] == b[i]);
	}
	CHECK(3, sum == sum2);
	for (int i = 1; i < 400; i++)
		CHECK(4, c[i - 1] <= c[i]);
	printf("sort %d %d %d\n", (int)a[0], (int)a[N / 2], (int)a[N - 1]);
	return 0;
}
