/* tests/programs t_args: prints its arguments on stdout, a note on stderr,
 * works for a while (a loop worth profiling) and exits with argv[1] as its
 * code when that is a number. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

static unsigned spin(unsigned n)
{
	unsigned x = 1;
	for (unsigned i = 0; i < n; i++)
		x = x * 1103515245u + 12345u;
	return x;
}

int main(int argc, char **argv)
{
	printf("args_echo: argc=%d", argc);
	for (int i = 1; i < argc; i++)
		printf(" [%s]", argv[i]);
	printf("\n");
	fprintf(stderr, "args_echo: to stderr\n");
	sink = spin(20000);
	return argc > 1 ? atoi(argv[1]) : 0;
}
