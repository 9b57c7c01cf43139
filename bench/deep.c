/* deep: a hot loop 20 calls deep, built with frame pointers (make bench,
 * bench/link.c): every sample of record -g walks the 16 return addresses a
 * sample keeps, the walk's longest. */
#include <stdint.h>

volatile uint32_t deep_sink;

static uint32_t __attribute__((noinline)) down(unsigned d)
{
	if (!d) {
		uint32_t s = 0;
		for (unsigned i = 0; i < 50000; i++)
			s = s * 33 + i;
		return s;
	}
	uint32_t r = down(d - 1);
	deep_sink = r;          /* used after the call: no tail call */
	return r + d;
}

int main(void)
{
	deep_sink = down(20);
	return 0;
}
