/* integ_patch: run in M-mode (hpmctl --mode m), it rewrites one word of the
 * firmware monitor's code in the EBR, as a buggy or hostile M-mode program
 * may: "integ_patch ADDR zero" stores 0 at ADDR, "integ_patch ADDR flip"
 * flips bit 20 of the word there (tests/programs/t_integrity.py). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[2], "zero") && strcmp(argv[2], "flip"))) {
		fprintf(stderr, "usage: integ_patch ADDR zero|flip\n");
		return 2;
	}
	uintptr_t addr = (uintptr_t)strtoul(argv[1], NULL, 0);
	volatile uint32_t *w = (volatile uint32_t *)addr;
	uint32_t before = *w;
	*w = argv[2][0] == 'z' ? 0u : before ^ (1u << 20);
	printf("0x%08lx: 0x%08lx -> 0x%08lx\n", (unsigned long)addr, (unsigned long)before,
	       (unsigned long)*w);
	return 0;
}
