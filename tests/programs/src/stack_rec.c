/* A recursive function deeper than the 16 return addresses a sample keeps:
 * rec(d) works a while at every depth, then calls rec(d - 1). Samples in
 * rec have chains of rec return addresses, then main; the deepest are cut
 * at 16. The call's result is used after it: no tail call. */
#include <stdlib.h>

volatile unsigned sink;

__attribute__((noinline)) static unsigned rec(unsigned d, unsigned n)
{
	unsigned s = d;
	for (unsigned i = 0; i < n; i++)
		s = s * 33 + i;
	if (!d)
		return s;
	unsigned r = rec(d - 1, n);
	sink = r;
	return r ^ s;
}

int main(int argc, char **argv)
{
	unsigned depth = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 24;
	sink = rec(depth, 400);
	return 0;
}
