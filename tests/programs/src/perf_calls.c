/* A known call structure for the profile views (issue 32): main calls
 * outer, outer calls inner (the three-level chain main;outer;inner), and
 * main calls solo directly. Built with -g for annotate's source lines. */
#include <stdint.h>

volatile uint32_t sink;

__attribute__((noinline)) uint32_t inner(uint32_t n)
{
	uint32_t x = 1;
	for (uint32_t i = 0; i < n; i++)
		x = x * 31u + (i ^ (x >> 7));   /* the inner loop: most samples */
	return x;
}

__attribute__((noinline)) uint32_t outer(uint32_t n)
{
	uint32_t a = inner(n);
	for (uint32_t i = 0; i < n / 4; i++)
		a += i * a;
	return a;
}

__attribute__((noinline)) uint32_t solo(uint32_t n)
{
	uint32_t s = 0;
	for (uint32_t i = 0; i < n; i++)
		s += i & 3u ? i : s >> 1;
	return s;
}

int main(void)
{
	for (uint32_t r = 0; r < 40; r++)   /* r in the arguments: no call is hoisted */
		sink += outer(2000 + r) + solo(1500 + r);
	return 0;
}
