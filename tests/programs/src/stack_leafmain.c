/* main is a leaf (it calls nothing, so GCC saves only s0 and keeps its
 * return address in ra): every sample in it must name _start as its caller,
 * the outermost frame, and nothing beyond. */
volatile unsigned sink[64];

int main(void)
{
	for (unsigned i = 0; i < 400000u; i++)
		sink[i & 63] += i;
	return 0;
}
