/* libFuzzer target: hpm_program_load on arbitrary files, i.e. libhpm's ELF
 * path: the shared validator (hpm_elf_load_buf with libhpm's RAM-only range
 * check) and then its own pass over the program headers (take_segments).
 * The bytes reach it as a file (a memfd, through /proc/self/fd), as
 * `hpmctl stat FILE.elf` does. It must never crash or leak; a rejected file
 * gives a one-line message and no program; an accepted one has 1..16
 * segments, each inside the workload RAM, and a word-aligned entry there. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "hpm.h"
#include "hpm_int.h"

/* the workload RAM (docs/memory-map.md) */
#define RAM_BASE 0x80000000u
#define RAM_SIZE 0x1f000u

static int in_ram(uint32_t addr, size_t len)
{
	return addr >= RAM_BASE && addr - RAM_BASE <= RAM_SIZE && len <= RAM_SIZE - (addr - RAM_BASE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	char err[512];
	hpm_program *p = (hpm_program *)&err;   /* must become NULL on failure */

	if (fd < 0) {
		fd = memfd_create("fuzz.elf", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	err[0] = '\0';
	int rc = hpm_program_load(&p, path, err, sizeof err);
	if (rc != HPM_OK) {
		if (p || !err[0] || strchr(err, '\n') || (rc != HPM_E_ELF && rc != HPM_E_NOMEM))
			abort();
		return 0;
	}
	if (!p || p->nseg < 1 || p->nseg > 16 || (p->entry & 3u) || !in_ram(p->entry, 4))
		abort();
	for (size_t i = 0; i < p->nseg; i++)
		if (!p->seg[i].len || !in_ram(p->seg[i].addr, p->seg[i].len))
			abort();
	hpm_program_free(p);
	return 0;
}
