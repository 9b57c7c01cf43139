/* fuzz_elf: libFuzzer target for the ELF loader (hpm_elf_load_buf).
 * Build and run: make fuzz-elf [FUZZ_TIME=60]. Checks that the loader never
 * crashes, and that an accepted image only writes inside fw/ram while a
 * rejected one writes nothing. */
#include "hpmref.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
	hpmref *m;
	unsigned writes;
} ctx_t;

static int writer(void *ctx, uint32_t addr, const void *src, size_t len)
{
	ctx_t *c = ctx;
	c->writes++;
	if (hpmref_write_mem(c->m, addr, src, len))
		abort(); /* the loader promised fw/ram only */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static hpmref *m;
	if (!m)
		m = hpmref_new(NULL);
	ctx_t c = { m, 0 };
	hpm_elf_info inf;
	char err[256];
	int rc = hpm_elf_load_buf(data, size, "fuzz", writer, &c, &inf, err, sizeof err);
	if (rc != 0 && c.writes != 0)
		abort();
	if (rc != 0 && (!err[0] || strchr(err, '\n')))
		abort();
	return 0;
}
