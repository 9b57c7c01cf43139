/* speed: a long, mixed workload for measuring simulation speed (make bench).
 * CRC over a buffer, an insertion sort and a small matrix product, repeated;
 * self-checking so a broken run cannot report a speed. About 10 M cycles. */
#include <stdint.h>
#include "hpm_lib.h"

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

int main(void)
{
	uint32_t s = 1, check = 0;
	for (unsigned i = 0; i < 1024; i++)
		buf[i] = s = s * 1103515245u + 12345u;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			m1[i][j] = i - j;
			m2[i][j] = i + 2 * j;
		}
	for (int round = 0; round < 40; round++) {
		check ^= crc(buf, 1024);
		for (unsigned i = 0; i < N; i++)
			a[i] = (int32_t)(buf[(i * 7 + round) & 1023] >> 3);
		sort(a, N);
		for (unsigned i = 1; i < N; i++)
			if (a[i - 1] > a[i]) return 1;
		matmul();
		check += (uint32_t)m3[round & 7][(round >> 3) & 7];
	}
	printf("speed: check %x\n", (unsigned)check);
	return 0;
}
