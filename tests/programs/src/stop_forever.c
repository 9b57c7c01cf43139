/* Never ends: counts up forever, with a little of everything (loads,
 * stores, branches) so that the partial counts of a stopped run are
 * telling. Only Ctrl-C, --timeout or --budget stop it. */
volatile unsigned sink[64];

int main(void)
{
	for (unsigned i = 0;; i++)
		sink[i & 63] += i;
}
