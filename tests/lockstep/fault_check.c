/* fault_check: proves the lockstep checker (hpm_lockstep_check, the code
 * hpm-sim --lockstep uses) reports a disagreement. One model plays the RTL
 * and feeds its retire records to a lockstep checker that owns a second
 * model built with a deliberately injected fault (hpmref_config.fault).
 *   fault_check ELF FAULT   FAULT: 0 none, 1 div latency, 2 sltu
 * Exit 1 at the first divergence (printed), 0 if the program halted with
 * no divergence, 2 if it ran out of steps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hpmref.h"

static int writer(void *ctx, uint32_t addr, const void *src, size_t len)
{
	return hpmref_write_mem((hpmref *)ctx, addr, src, len);
}

static hpmref *load(const char *path, unsigned fault, hpm_elf_info *info)
{
	hpmref_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.uart_div = HPM_UART_DIV_DEFAULT;
	cfg.fault = fault;
	hpmref *m = hpmref_new(&cfg);
	char err[256];
	if (!m || hpm_elf_load(path, writer, m, info, err, sizeof err) != 0) {
		fprintf(stderr, "fault_check: %s: %s\n", path, m ? err : "out of memory");
		exit(3);
	}
	hpmref_set_pc(m, info->entry);
	return m;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: fault_check ELF FAULT\n");
		return 3;
	}
	unsigned fault = (unsigned)strtoul(argv[2], NULL, 0);
	hpm_elf_info info;
	hpmref *rtl = load(argv[1], HPMREF_FAULT_NONE, &info);
	hpmref *ref = load(argv[1], fault, &info);
	hpm_lockstep *ls = hpm_lockstep_new(ref, 4);
	if (!info.has_tohost) {
		fprintf(stderr, "fault_check: no tohost\n");
		return 3;
	}
	for (long step = 0; step < 10000000; step++) {
		hpm_retire r;
		hpmref_step(rtl, &r);
		if (hpm_lockstep_check(ls, &r, stdout) != 0) {
			printf("fault_check: divergence after %llu instructions\n",
			       (unsigned long long)hpm_lockstep_count(ls));
			return 1;
		}
		if (r.mem_we && r.mem_addr == info.tohost) {
			printf("fault_check: halted, no divergence\n");
			return 0;
		}
	}
	return 2;
}
