/* Programs: workload names and ELF files, validated before any upload.
 * The ELF parser is the reference model's (host/ref/elf.c), so the board
 * and the model load programs identically. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hpm_int.h"
#include "hpmref.h"

/* The workload RAM as every board reports it (INFO ram_base/ram_size);
 * hpm_run checks again against the connected board. */
#define WL_RAM_BASE 0x80000000u
#define WL_RAM_SIZE 0x1f000u

static const struct { const char *name, *desc; } workloads[] = {
#define HPM_WORKLOAD(n, d) { #n, d },
#include "workloads.def"
#undef HPM_WORKLOAD
};
#define NWORKLOADS (sizeof workloads / sizeof workloads[0])

const char *hpm_workload_at(size_t i, const char **description)
{
	if (i >= NWORKLOADS)
		return NULL;
	if (description)
		*description = workloads[i].desc;
	return workloads[i].name;
}

/* hpm_elf_load_buf's writer: only checks that every byte, .bss included, lands
 * in the workload RAM; the segments are taken from the file afterwards. */
static int check_range(void *ctx, uint32_t addr, const void *src, size_t len)
{
	(void)ctx;
	(void)src;
	return addr < WL_RAM_BASE || addr - WL_RAM_BASE > WL_RAM_SIZE ||
	       len > WL_RAM_SIZE - (addr - WL_RAM_BASE) ? -1 : 0;
}

/* The end of the highest PT_LOAD (.bss included) of an image the loader
 * refused, if its headers can be read: how much RAM it would need. */
static uint64_t image_end(const uint8_t *buf, size_t len)
{
	uint64_t end = 0;
	if (len < 52 || memcmp(buf, "\177ELF", 4) || buf[4] != 1 || buf[5] != 1)
		return 0;
	uint32_t phoff = hpm_get32(buf + 28);
	unsigned phentsize = hpm_get16(buf + 42), phnum = hpm_get16(buf + 44);
	if (phentsize != 32 || phoff > len || (uint64_t)phnum * 32 > len - phoff)
		return 0;
	for (unsigned i = 0; i < phnum; i++) {
		const uint8_t *ph = buf + phoff + (size_t)i * 32;
		uint64_t e = (uint64_t)hpm_get32(ph + 12) + hpm_get32(ph + 20);
		if (hpm_get32(ph) == 1 && hpm_get32(ph + 12) >= WL_RAM_BASE && e > end)
			end = e;
	}
	return end;
}

/* Reads the whole file (less than 64 MiB, the limit for a program). */
static int read_file(const char *path, uint8_t **out, size_t *out_len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return HPM_E_NOTFOUND;
	}
	for (;;) {
		if (len == cap) {
			uint8_t *nb = cap < (64u << 20) ? realloc(buf, cap = cap ? cap * 2 : 65536) : NULL;
			if (!nb) {
				int big = cap >= (64u << 20);
				if (big)
					snprintf(err, errlen, "%s: too large for a program (the limit is 64 MiB)", path);
				else
					snprintf(err, errlen, "%s: out of memory reading it", path);
				free(buf);
				fclose(f);
				return big ? HPM_E_ELF : HPM_E_NOMEM;
			}
			buf = nb;
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	*out = buf;
	*out_len = len;
	return HPM_OK;
}

/* The file-backed bytes of every PT_LOAD (p_filesz) of an ELF image that
 * hpm_elf_load_buf has validated. The zero-filled rest (.bss) is not
 * uploaded: start-up code clears it (fw/workloads/wl_crt.S,
 * fw/common/crt0.S), and a program that relied on loader-zeroed memory
 * would show up as a replay whose counts differ, never as a wrong count. */
static int take_segments(hpm_program *p, const uint8_t *buf, const char *path,
			 char *err, size_t errlen)
{
	uint32_t phoff = hpm_get32(buf + 28);
	unsigned phentsize = hpm_get16(buf + 42), phnum = hpm_get16(buf + 44);

	for (unsigned i = 0; i < phnum; i++) {
		const uint8_t *ph = buf + phoff + (size_t)i * phentsize;
		uint32_t off = hpm_get32(ph + 4), paddr = hpm_get32(ph + 12), filesz = hpm_get32(ph + 16);
		if (hpm_get32(ph) != 1 || !filesz)
			continue;
		if (p->nseg == sizeof p->seg / sizeof p->seg[0]) {
			snprintf(err, errlen, "%s: more than %zu loadable segments", path,
				 sizeof p->seg / sizeof p->seg[0]);
			return HPM_E_ELF;
		}
		uint8_t *d = malloc(filesz);
		if (!d) {
			snprintf(err, errlen, "out of memory");
			return HPM_E_NOMEM;
		}
		memcpy(d, buf + off, filesz);
		p->seg[p->nseg++] = (struct hpm_segment){ paddr, filesz, d };
	}
	return HPM_OK;
}

static int sym_cmp(const void *a, const void *b)
{
	const hpm_symbol *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : strcmp(x->name, y->name);
}

/* The defined function and untyped symbols in executable sections of an
 * image hpm_elf_load_buf has validated (its section headers and symbol table
 * lie inside the file; each entry is checked again here). */
static int take_symbols(hpm_program *p, const uint8_t *buf, size_t len)
{
	uint32_t shoff = hpm_get32(buf + 32);
	unsigned shnum = hpm_get16(buf + 48);

	if (!shoff || (uint64_t)shoff + (uint64_t)shnum * 40 > len)
		return HPM_OK;
	for (unsigned i = 0; i < shnum; i++) {
		const uint8_t *sh = buf + shoff + (size_t)i * 40;
		if (hpm_get32(sh + 4) != 2)             /* SHT_SYMTAB */
			continue;
		uint32_t off = hpm_get32(sh + 16), size = hpm_get32(sh + 20), link = hpm_get32(sh + 24);
		if (link >= shnum || (uint64_t)off + size > len)
			return HPM_OK;
		const uint8_t *st = buf + shoff + (size_t)link * 40;
		uint32_t stroff = hpm_get32(st + 16), strsz = hpm_get32(st + 20);
		if ((uint64_t)stroff + strsz > len || !strsz)
			return HPM_OK;
		p->symstr = malloc(strsz + 1);
		p->sym = calloc(size / 16 + 1, sizeof *p->sym);
		if (!p->symstr || !p->sym)
			return HPM_E_NOMEM;
		memcpy(p->symstr, buf + stroff, strsz);
		p->symstr[strsz] = '\0';
		for (uint32_t k = 0; k + 16 <= size; k += 16) {
			const uint8_t *e = buf + off + k;
			uint32_t name = hpm_get32(e), shndx = hpm_get16(e + 14);
			unsigned type = e[12] & 15;
			if (!name || name >= strsz || (type != 0 && type != 2) || !shndx || shndx >= shnum)
				continue;
			if (!(hpm_get32(buf + shoff + (size_t)shndx * 40 + 8) & 4))   /* SHF_EXECINSTR */
				continue;
			const char *nm = p->symstr + name;
			if (nm[0] == '$' || !strncmp(nm, ".L", 2))
				continue;
			p->sym[p->nsym++] = (hpm_symbol){ nm, hpm_get32(e + 4), hpm_get32(e + 8) };
		}
		qsort(p->sym, p->nsym, sizeof *p->sym, sym_cmp);
		break;
	}
	return HPM_OK;
}

size_t hpm_program_symbols(const hpm_program *p, const hpm_symbol **syms)
{
	*syms = p->sym;
	return p->nsym;
}

/* The sized symbol that contains addr, else an unsized one (an assembly
 * label such as _start) at or below it with no other symbol in between. */
const hpm_symbol *hpm_program_symbol(const hpm_program *p, uint32_t addr)
{
	const hpm_symbol *sized = NULL, *label = NULL;
	for (size_t i = 0; i < p->nsym && p->sym[i].addr <= addr; i++) {
		const hpm_symbol *s = &p->sym[i];
		if (!s->size) {
			label = s;
		} else {
			label = NULL;
			if (addr - s->addr < s->size)
				sized = s;
		}
	}
	return sized ? sized : label;
}

const char *hpm_program_path(const hpm_program *p) { return p->path; }

int hpm_program_string(const hpm_program *p, uint32_t addr, char *buf, size_t len)
{
	for (size_t i = 0; i < p->nseg; i++) {
		const struct hpm_segment *s = &p->seg[i];
		if (addr - s->addr >= s->len)
			continue;
		const char *str = (const char *)s->data + (addr - s->addr);
		size_t max = s->len - (addr - s->addr);
		const char *nul = memchr(str, '\0', max);
		if (!nul)
			return -1;
		snprintf(buf, len, "%.*s", (int)(nul - str), str);
		return 0;
	}
	return -1;
}

void hpm_program_free(hpm_program *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nseg; i++)
		free(p->seg[i].data);
	free(p->sym);
	free(p->symstr);
	free(p);
}

const char *hpm_program_name(const hpm_program *p) { return p->name; }
int hpm_program_takes_args(const hpm_program *p) { return p->sdk_args != 0; }
uint32_t hpm_program_entry(const hpm_program *p) { return p->entry; }

static int is_workload(const char *s)
{
	for (size_t i = 0; i < NWORKLOADS; i++)
		if (!strcmp(workloads[i].name, s))
			return 1;
	return 0;
}

int hpm_program_load(hpm_program **out, const char *name_or_path, char *err, size_t errlen)
{
	char path[1200], dir[1024];
	hpm_elf_info inf;
	char dummy[8];

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	*out = NULL;
	if (is_workload(name_or_path)) {
		if (hpm_find_path("HPM_WORKLOADS", "../fw/workloads\0../share/hpm-overlay/workloads\0",
				  "build/fw/workloads", dir, sizeof dir)) {
			snprintf(err, errlen, "workload %s: workload directory not found (set HPM_WORKLOADS or run 'make fw')",
				 name_or_path);
			return HPM_E_NOTFOUND;
		}
		snprintf(path, sizeof path, "%s/%s.elf", dir, name_or_path);
	} else if (strchr(name_or_path, '/') || strstr(name_or_path, ".elf") ||
		   access(name_or_path, F_OK) == 0) {
		snprintf(path, sizeof path, "%s", name_or_path);
	} else {
		snprintf(err, errlen, "'%s' is neither a workload (hpmctl list --workloads) nor a file",
			 name_or_path);
		return HPM_E_NOTFOUND;
	}
	uint8_t *image;
	size_t len;
	int rc = read_file(path, &image, &len, err, errlen);
	if (rc)
		return rc;
	hpm_program *p = calloc(1, sizeof *p);
	if (!p) {
		snprintf(err, errlen, "out of memory");
		free(image);
		return HPM_E_NOMEM;
	}
	if (hpm_elf_load_buf(image, len, path, check_range, NULL, &inf, err, errlen)) {
		uint64_t end = image_end(image, len);
		if (end > WL_RAM_BASE + WL_RAM_SIZE)
			snprintf(err, errlen, "%s: too big: it needs %llu bytes of RAM from 0x%08x (.bss included), the board has %u",
				 path, (unsigned long long)(end - WL_RAM_BASE), WL_RAM_BASE, WL_RAM_SIZE);
		else if (strstr(err, "write") || !err[0])
			snprintf(err, errlen, "%s: a segment lies outside the workload RAM 0x%08x..0x%08x",
				 path, WL_RAM_BASE, WL_RAM_BASE + WL_RAM_SIZE - 1);
		rc = HPM_E_ELF;
	} else if (inf.entry < WL_RAM_BASE || inf.entry - WL_RAM_BASE >= WL_RAM_SIZE || (inf.entry & 3u)) {
		snprintf(err, errlen, "%s: entry 0x%08x is not a word inside the workload RAM", path,
			 (unsigned)inf.entry);
		rc = HPM_E_ELF;
	} else if (!(rc = take_segments(p, image, path, err, errlen)) &&
		   (rc = take_symbols(p, image, len))) {
		snprintf(err, errlen, "out of memory");
	}
	free(image);
	if (rc) {
		hpm_program_free(p);
		return rc;
	}
	if (!p->nseg) {
		snprintf(err, errlen, "%s: no loadable segment", path);
		hpm_program_free(p);
		return HPM_E_ELF;
	}
	snprintf(p->name, sizeof p->name, "%s", name_or_path);
	snprintf(p->path, sizeof p->path, "%s", path);
	p->entry = inf.entry;
	p->tohost = inf.has_tohost ? inf.tohost & ~3u : 0;
	p->mem_end = inf.mem_end;
	p->sdk_args = inf.has_sdk_args ? inf.sdk_args : 0;
	p->startup = inf.has_startup ? inf.startup : 0;
	*out = p;
	return HPM_OK;
}
