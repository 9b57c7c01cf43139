/* Runs argv[1] million iterations of a small loop and ends cleanly: a
 * program longer than the link's give-up time-out and than many keepalive
 * ticks, whose counts must still be exact. */
#include <stdlib.h>

volatile unsigned sink[64];

int main(int argc, char **argv)
{
	unsigned long n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 1) * 1000000ul;
	for (unsigned long i = 0; i < n; i++)
		sink[i & 63] += (unsigned)i;
	return 0;
}
