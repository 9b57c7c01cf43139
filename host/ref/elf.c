/* elf.c: hpm_elf_load, shared by hpm-ref and hpm-sim.
 * The whole file is read and validated (header, program headers, segment
 * placement, symbol table) before anything is written through the callback. */
#include "hpmref.h"
#include <errno.h>
#include <string.h>
#include <stdlib.h>

#define ELF_MAX_FILE (64u << 20)
#define EM_RISCV_ 243u
#define PT_LOAD_ 1u
#define SHT_SYMTAB_ 2u
#define SHT_STRTAB_ 3u
#define EHDR_SIZE 52u
#define PHDR_SIZE 32u
#define SHDR_SIZE 40u
#define SYM_SIZE 16u

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}
static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* [off, off+len) inside a file of size n? */
static int in_file(uint64_t off, uint64_t len, size_t n)
{
	return off <= n && len <= n - off;
}

/* [addr, addr+len) entirely inside fw or ram? */
static int in_mem(uint32_t addr, uint32_t len)
{
	uint64_t a = addr, e = (uint64_t)addr + len;
	return (a - HPM_FW_BASE < HPM_FW_SIZE && e <= (uint64_t)HPM_FW_BASE + HPM_FW_SIZE) ||
	       (a >= HPM_RAM_BASE && e <= (uint64_t)HPM_RAM_BASE + HPM_RAM_SIZE);
}

static int fail(char *err, size_t len, const char *path, const char *why, unsigned long v, int hasv)
{
	if (err && len) {
		if (hasv)
			snprintf(err, len, "%s: %s 0x%lx", path, why, v);
		else
			snprintf(err, len, "%s: %s", path, why);
	}
	return -1;
}
#define FAIL(why)                                         \
	do {                                              \
		rc = fail(err, err_len, path, why, 0, 0); \
		goto out;                                 \
	} while (0)
#define FAILV(why, v)                                                      \
	do {                                                               \
		rc = fail(err, err_len, path, why, (unsigned long)(v), 1); \
		goto out;                                                  \
	} while (0)

static int read_file(const char *path, uint8_t **buf, size_t *n, char *err, size_t err_len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 1u << 16, len = 0;
	uint8_t *b = malloc(cap);
	if (!b) {
		fclose(f);
		snprintf(err, err_len, "%s: out of memory", path);
		return -1;
	}
	for (;;) {
		if (len == cap) {
			if (cap >= ELF_MAX_FILE) {
				free(b);
				fclose(f);
				snprintf(err, err_len, "%s: file too large (max %u bytes)", path, ELF_MAX_FILE);
				return -1;
			}
			uint8_t *nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				fclose(f);
				snprintf(err, err_len, "%s: out of memory", path);
				return -1;
			}
			b = nb;
			cap *= 2;
		}
		size_t got = fread(b + len, 1, cap - len, f);
		len += got;
		if (got == 0) {
			if (ferror(f)) {
				free(b);
				fclose(f);
				snprintf(err, err_len, "%s: read error", path);
				return -1;
			}
			break;
		}
	}
	fclose(f);
	*buf = b;
	*n = len;
	return 0;
}

int hpm_elf_load(const char *path, hpm_mem_writer w, void *ctx,
		 hpm_elf_info *info, char *err, size_t err_len)
{
	uint8_t *f = NULL;
	size_t n = 0;
	if (err && err_len)
		err[0] = '\0';
	if (read_file(path, &f, &n, err, err_len))
		return -1;
	int rc = hpm_elf_load_buf(f, n, path, w, ctx, info, err, err_len);
	free(f);
	return rc;
}

/* A PT_LOAD program header: where its bytes are in the file and memory. */
struct segment {
	uint32_t off, paddr, filesz, memsz;
};

/* Program header i: 1 and *s if it is a PT_LOAD segment, else 0. */
static int load_segment(const uint8_t *f, uint32_t phoff, unsigned i, struct segment *s)
{
	const uint8_t *ph = f + phoff + (size_t)i * PHDR_SIZE;
	if (le32(ph) != PT_LOAD_)
		return 0;
	s->off = le32(ph + 4);
	s->paddr = le32(ph + 12);
	s->filesz = le32(ph + 16);
	s->memsz = le32(ph + 20);
	return 1;
}

int hpm_elf_load_buf(const uint8_t *f, size_t n, const char *path,
		     hpm_mem_writer w, void *ctx, hpm_elf_info *info,
		     char *err, size_t err_len)
{
	static const uint8_t zeros[256];
	int rc = -1;
	hpm_elf_info inf;
	memset(&inf, 0, sizeof inf);
	if (err && err_len)
		err[0] = '\0';
	if (!path)
		path = "ELF";
	if (n < EHDR_SIZE)
		FAIL("not an ELF file (too short)");
	if (memcmp(f, "\177ELF", 4) != 0)
		FAIL("not an ELF file (bad magic)");
	if (f[4] != 1)
		FAIL("not a 32-bit ELF (ELFCLASS32 required)");
	if (f[5] != 1)
		FAIL("not a little-endian ELF");
	if (f[6] != 1)
		FAIL("unsupported ELF version");
	if (le16(f + 16) != 2)
		FAIL("not an executable ELF (e_type must be ET_EXEC)");
	if (le16(f + 18) != EM_RISCV_)
		FAILV("not a RISC-V ELF: e_machine", le16(f + 18));
	if (le32(f + 20) != 1)
		FAIL("unsupported ELF version");
	inf.entry = le32(f + 24);
	uint32_t phoff = le32(f + 28), shoff = le32(f + 32);
	unsigned phentsize = le16(f + 42), phnum = le16(f + 44);
	unsigned shentsize = le16(f + 46), shnum = le16(f + 48);

	if (phnum == 0)
		FAIL("no program headers");
	if (phentsize != PHDR_SIZE)
		FAILV("bad program header size", phentsize);
	if (!in_file(phoff, (uint64_t)phnum * PHDR_SIZE, n))
		FAIL("program headers outside the file (truncated?)");

	unsigned nload = 0;
	for (unsigned i = 0; i < phnum; i++) {
		struct segment s;
		if (!load_segment(f, phoff, i, &s))
			continue;
		if (s.filesz > s.memsz)
			FAILV("segment with p_filesz > p_memsz at", s.paddr);
		if (!in_file(s.off, s.filesz, n))
			FAILV("segment data outside the file (truncated?) at", s.paddr);
		if (s.memsz == 0)
			continue;
		if (!in_mem(s.paddr, s.memsz))
			FAILV("segment outside fw/ram at", s.paddr);
		if (s.paddr + s.memsz > inf.mem_end)
			inf.mem_end = s.paddr + s.memsz;
		nload++;
	}
	if (nload == 0)
		FAIL("no loadable segments");
	if (!in_mem(inf.entry, 4))
		FAILV("entry point outside fw/ram:", inf.entry);
	/* no C extension (IALIGN=32): a jump there would trap on the jump
	 * itself, and a start there has no jump to trap on */
	if (inf.entry & 3u)
		FAILV("entry point not 4-byte aligned (RV32IM, no C extension):", inf.entry);

	/* symbols (optional: a stripped file just has no tohost) */
	if (shoff != 0 && shnum != 0) {
		if (shentsize != SHDR_SIZE)
			FAILV("bad section header size", shentsize);
		if (!in_file(shoff, (uint64_t)shnum * SHDR_SIZE, n))
			FAIL("section headers outside the file (truncated?)");
		for (unsigned i = 0; i < shnum; i++) {
			const uint8_t *sh = f + shoff + (size_t)i * SHDR_SIZE;
			if (le32(sh + 4) != SHT_SYMTAB_)
				continue;
			uint32_t symoff = le32(sh + 16), symsz = le32(sh + 20);
			uint32_t link = le32(sh + 24);
			if (!in_file(symoff, symsz, n))
				FAIL("symbol table outside the file (truncated?)");
			if (link >= shnum)
				FAIL("symbol table has a bad string table link");
			const uint8_t *st = f + shoff + (size_t)link * SHDR_SIZE;
			if (le32(st + 4) != SHT_STRTAB_)
				FAIL("symbol table has a bad string table link");
			uint32_t stroff = le32(st + 16), strsz = le32(st + 20);
			if (!in_file(stroff, strsz, n))
				FAIL("string table outside the file (truncated?)");
			const char *strs = (const char *)f + stroff;
			int has_b = 0, has_e = 0;
			uint32_t vb = 0, ve = 0;
			for (uint32_t k = 0; k + SYM_SIZE <= symsz; k += SYM_SIZE) {
				const uint8_t *sym = f + symoff + k;
				uint32_t name = le32(sym);
				if (name == 0 || name >= strsz)
					continue;
				const char *s = strs + name;
				size_t maxl = strsz - name;
				if (!memchr(s, '\0', maxl))
					continue;
				uint32_t val = le32(sym + 4);
				if (strcmp(s, "tohost") == 0) {
					inf.has_tohost = 1;
					inf.tohost = val;
				} else if (strcmp(s, "__hpm_sdk_args") == 0) {
					inf.has_sdk_args = 1;
					inf.sdk_args = val;
				} else if (strcmp(s, "__hpm_startup") == 0) {
					inf.has_startup = 1;
					inf.startup = val;
				} else if (strcmp(s, "begin_signature") == 0) {
					has_b = 1;
					vb = val;
				} else if (strcmp(s, "end_signature") == 0) {
					has_e = 1;
					ve = val;
				}
			}
			if (has_b && has_e) {
				if (ve < vb)
					FAIL("end_signature is below begin_signature");
				inf.has_sig = 1;
				inf.sig_begin = vb;
				inf.sig_end = ve;
			}
			break;
		}
	}

	/* everything is valid: write */
	for (unsigned i = 0; i < phnum; i++) {
		struct segment s;
		if (!load_segment(f, phoff, i, &s))
			continue;
		if (s.memsz == 0)
			continue;
		if (s.filesz && w(ctx, s.paddr, f + s.off, s.filesz))
			FAILV("cannot write segment at", s.paddr);
		for (uint32_t z = s.filesz; z < s.memsz;) {
			uint32_t chunk = s.memsz - z < sizeof zeros ? s.memsz - z : (uint32_t)sizeof zeros;
			if (w(ctx, s.paddr + z, zeros, chunk))
				FAILV("cannot write segment at", s.paddr);
			z += chunk;
		}
	}
	if (info)
		*info = inf;
	rc = 0;
out:
	return rc;
}
