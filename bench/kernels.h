/* kernels.h: the mixed kernels of the bench programs (speed.c, lcofi.c):
 * a CRC over a buffer, an insertion sort and a small matrix product. */
#ifndef BENCH_KERNELS_H
#define BENCH_KERNELS_H
#include <stdint.h>

#define N 64
static uint32_t buf[1024];
static int32_t a[N], m1[8][8], m2[8][8], m3[8][8];

static uint32_t crc(const uint32_t *p, unsigned n)
{
	uint32_t c = ~0u;
	for (unsigned i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 32; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
	}
	return ~c;
}

static void sort(int32_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		int32_t x = v[i];
		unsigned j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void matmul(void)
{
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			int32_t s = 0;
			for (int k = 0; k < 8; k++)
				s += m1[i][k] * m2[k][j];
			m3[i][j] = s;
		}
}

static void kernels_init(void)
{
	uint32_t s = 1;
	for (unsigned i = 0; i < 1024; i++)
		buf[i] = s = s * 1103515245u + 12345u;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			m1[i][j] = i - j;
			m2[i][j] = i + 2 * j;
		}
}
#endif
