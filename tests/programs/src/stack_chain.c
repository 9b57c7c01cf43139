/* A three-level call chain under main, its time in the innermost function:
 * main -> outer -> middle -> inner (a leaf with a hot loop). record -g must
 * give every sample in inner the chain middle, outer, main. Each call's
 * result is used after it, so no call is a tail call. */
#include <stdlib.h>

volatile unsigned sink;

__attribute__((noinline)) static unsigned inner(unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}

__attribute__((noinline)) static unsigned middle(unsigned n)
{
	unsigned r = inner(n);
	sink = r;
	return r + 1;
}

__attribute__((noinline)) static unsigned outer(unsigned n)
{
	unsigned r = middle(n);
	sink = r;
	return r * 3;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 20000;
	sink = outer(n);
	return 0;
}
