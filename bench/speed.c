/* speed: a long, mixed workload for measuring simulation speed (make bench).
 * CRC over a buffer, an insertion sort and a small matrix product, repeated;
 * self-checking so a broken run cannot report a speed. About 10 M cycles. */
#include <stdint.h>
#include "hpm_lib.h"
#include "kernels.h"

int main(void)
{
	uint32_t check = 0;
	kernels_init();
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
