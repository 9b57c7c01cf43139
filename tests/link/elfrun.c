/* elfrun: runs a directed test program (tests/isa, tests/hpm, rvgen; linked
 * with fw/common/ram.ld: tohost, fromhost, begin_signature..end_signature)
 * on a board through its firmware monitor, as hpm-sim --elf runs it from
 * reset (docs/testing.md, "Directed tests through the monitor"):
 *
 *   elfrun [--link L] [--ref-hpm NxW] [--ref-td-board] --elf FILE [--signature FILE] [--stats]
 *
 * It reads the monitor's trap entry (CSR mtvec) and hands it to the program
 * in its fromhost word (a patched copy of the ELF), uploads it with MEM
 * writes and runs it in M-mode (RUN, with the program's tohost). The
 * program's end code (tests/isa/test_macros.h, rvgen) stores tohost, then,
 * since fromhost is not 0, restores mtvec and mscratch and returns to the
 * monitor with the exit ecall, a0 = the tohost value. elfrun then reads
 * tohost and the signature back with MEM reads.
 *
 * The same program on two boards (the gate-level board and the reference
 * board, hpm-ref serving the same monitor) gives the same signature and the
 * same --stats line (mcycle and minstret of the RUN's counted window): the
 * board suite compares them (tests/run.sh). Exit status as hpm-sim's: 0
 * tohost = 1, 1 any other value (or the run did not end with the exit
 * ecall), 3 usage, file or link error. A program that never gives the
 * monitor its mtvec back hangs: run elfrun under timeout(1).
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hpm.h"
#include "hpmref.h"   /* hpm_elf_load: tohost and the signature's bounds */

enum { EXIT_PASS = 0, EXIT_FAIL = 1, EXIT_USAGE = 3 };
#define CSR_MTVEC 0x305

static int no_write(void *ctx, uint32_t addr, const void *src, size_t len)
{
	(void)ctx, (void)addr, (void)src, (void)len;
	return 0;
}

/* The file offset of symbol `name`'s address in a PT_LOAD segment of the
 * ELF image f (n bytes), or -1. The image was checked by hpm_elf_load. */
static long sym_offset(const uint8_t *f, size_t n, const char *name)
{
	const Elf32_Ehdr *eh = (const Elf32_Ehdr *)f;
	if (eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf32_Shdr) > n)
		return -1;
	const Elf32_Shdr *sh = (const Elf32_Shdr *)(f + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		const Elf32_Shdr *str = &sh[sh[i].sh_link];
		if (sh[i].sh_offset + (uint64_t)sh[i].sh_size > n || str->sh_offset + (uint64_t)str->sh_size > n)
			return -1;
		const Elf32_Sym *sym = (const Elf32_Sym *)(f + sh[i].sh_offset);
		for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++) {
			if (sym[k].st_name >= str->sh_size ||
			    strncmp((const char *)f + str->sh_offset + sym[k].st_name, name, str->sh_size - sym[k].st_name))
				continue;
			const Elf32_Phdr *ph = (const Elf32_Phdr *)(f + eh->e_phoff);
			for (unsigned j = 0; j < eh->e_phnum; j++) {
				uint32_t a = sym[k].st_value;
				if (ph[j].p_type == PT_LOAD && a >= ph[j].p_vaddr && a + 4 <= ph[j].p_vaddr + ph[j].p_filesz)
					return (long)(ph[j].p_offset + (a - ph[j].p_vaddr));
			}
			return -1;
		}
	}
	return -1;
}

/* A copy of the ELF in path with the word `fromhost` = value, in a temporary
 * file whose name goes to tmp (removed by the caller). */
static int patched_copy(const char *path, uint32_t value, char *tmp, size_t tmplen, char *err, size_t errlen)
{
	FILE *in = fopen(path, "rb");
	uint8_t *f = NULL;
	size_t n = 0;
	int rc = -1, fd = -1;
	if (!in) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fseek(in, 0, SEEK_END) || (n = (size_t)ftell(in)) == 0 || fseek(in, 0, SEEK_SET) ||
	    !(f = malloc(n)) || fread(f, 1, n, in) != n) {
		snprintf(err, errlen, "%s: cannot read it", path);
		goto out;
	}
	long off = sym_offset(f, n, "fromhost");
	if (off < 0) {
		snprintf(err, errlen, "%s: no fromhost word in a loaded segment (link with fw/common/ram.ld)", path);
		goto out;
	}
	for (int i = 0; i < 4; i++)
		f[off + i] = (uint8_t)(value >> (8 * i));
	snprintf(tmp, tmplen, "%s/elfrun-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(tmp)) < 0 || write(fd, f, n) != (ssize_t)n) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(f);
	fclose(in);
	return rc;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: elfrun [--link L] [--ref-hpm NxW] [--ref-td-board] --elf FILE [--signature FILE] [--stats]\n"
		"  --link L          the board (libhpm link name: sim, ref, tty:..., usb; default sim,\n"
		"                    the board HPM_SIM names: build/bin/hpm-sim-gate for the netlist)\n"
		"  --ref-hpm NxW     the ref link models N counters of W bits (default 29x64)\n"
		"  --ref-td-board    the ref link models the iCE40 board's top-down counts\n"
		"  --elf FILE        the program (fw/common/ram.ld: tohost, fromhost, signature)\n"
		"  --signature FILE  write begin_signature..end_signature words after the run\n"
		"  --stats           print 'hpm-stats: cycles=C instret=I' (the RUN's window) to stderr\n"
		"exit status: 0 tohost = 1, 1 other tohost or no exit ecall, 3 usage/file/link error\n");
}

int main(int argc, char **argv)
{
	const char *link = "sim", *elf = NULL, *sig = NULL;
	int stats = 0;
	hpm_open_opts oo;
	memset(&oo, 0, sizeof oo);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--link") && i + 1 < argc)
			link = argv[++i];
		else if (!strcmp(argv[i], "--ref-hpm") && i + 1 < argc) {
			char *x;
			oo.hpm_num = (unsigned)strtoul(argv[++i], &x, 10);
			oo.hpm_width = *x == 'x' ? (unsigned)strtoul(x + 1, &x, 10) : 0;
			if (*x || !oo.hpm_width) {
				fprintf(stderr, "elfrun: bad --ref-hpm '%s' (NxW)\n", argv[i]);
				return EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--ref-td-board"))
			oo.td_board = 1;
		else if (!strcmp(argv[i], "--elf") && i + 1 < argc)
			elf = argv[++i];
		else if (!strcmp(argv[i], "--signature") && i + 1 < argc)
			sig = argv[++i];
		else if (!strcmp(argv[i], "--stats"))
			stats = 1;
		else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return EXIT_PASS;
		} else {
			fprintf(stderr, "elfrun: unknown option or missing argument '%s' (see --help)\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (!elf) {
		usage(stderr);
		return EXIT_USAGE;
	}

	char err[512], tmp[4096];
	hpm_elf_info inf;
	memset(&inf, 0, sizeof inf);
	if (hpm_elf_load(elf, no_write, NULL, &inf, err, sizeof err)) {
		fprintf(stderr, "elfrun: %s\n", err);
		return EXIT_USAGE;
	}
	if (!inf.has_tohost || (sig && !inf.has_sig)) {
		fprintf(stderr, "elfrun: %s has no %s\n", elf, inf.has_tohost ? "begin_signature/end_signature" : "tohost");
		return EXIT_USAGE;
	}

	hpm_board *b = NULL;
	hpm_program *p = NULL;
	int rc = EXIT_USAGE;
	uint32_t mtvec = 0, tohost = 0;
	hpm_run_result r;
	hpm_run_opts o;
	memset(&o, 0, sizeof o);
	o.mode = HPM_MODE_MACHINE;
	if (hpm_open(&b, link, &oo, err, sizeof err) != HPM_OK) {
		fprintf(stderr, "elfrun: %s\n", err);
		return EXIT_USAGE;
	}
	if (hpm_csr_read(b, CSR_MTVEC, &mtvec) != HPM_OK) {
		fprintf(stderr, "elfrun: reading mtvec: %s\n", hpm_errmsg(b));
		goto out;
	}
	if (patched_copy(elf, mtvec, tmp, sizeof tmp, err, sizeof err)) {
		fprintf(stderr, "elfrun: %s\n", err);
		goto out;
	}
	int lrc = hpm_program_load(&p, tmp, err, sizeof err);
	unlink(tmp);
	if (lrc != HPM_OK) {
		fprintf(stderr, "elfrun: %s\n", err);
		goto out;
	}
	int runrc = hpm_run(b, p, &o, NULL, 0, &r);
	if (runrc != HPM_OK && runrc != HPM_E_RUN) {
		fprintf(stderr, "elfrun: %s\n", hpm_errmsg(b));
		goto out;
	}
	if (hpm_mem_read(b, inf.tohost & ~3u, &tohost, 4) != HPM_OK) {
		fprintf(stderr, "elfrun: reading tohost: %s\n", hpm_errmsg(b));
		goto out;
	}
	if (r.reason != HPM_EXIT_REASON_ECALL || r.priv != HPM_MODE_MACHINE || r.code != tohost) {
		fprintf(stderr, "elfrun: FAIL: the run ended with reason %d in mode %u (code 0x%08x, mcause 0x%08x, "
			"mepc 0x%08x), tohost=0x%08x: not the end code's exit ecall\n", (int)r.reason, r.priv,
			(unsigned)r.code, (unsigned)r.mcause, (unsigned)r.mepc, (unsigned)tohost);
		rc = EXIT_FAIL;
	} else if (tohost != 1) {
		fprintf(stderr, "elfrun: FAIL tohost=0x%08x\n", (unsigned)tohost);
		rc = EXIT_FAIL;
	} else
		rc = EXIT_PASS;
	if (sig) {
		size_t n = inf.sig_end > inf.sig_begin ? inf.sig_end - inf.sig_begin : 0;
		uint8_t *w = malloc(n + 4);
		FILE *f = w ? fopen(sig, "w") : NULL;
		if (!w || !f || (n && hpm_mem_read(b, inf.sig_begin, w, n) != HPM_OK)) {
			fprintf(stderr, "elfrun: signature: %s\n", !w ? "out of memory" : !f ? strerror(errno) : hpm_errmsg(b));
			rc = EXIT_USAGE;
		} else {
			for (size_t i = 0; i + 4 <= n; i += 4)
				fprintf(f, "%08" PRIx32 "\n", (uint32_t)(w[i] | w[i + 1] << 8 | w[i + 2] << 16 | (uint32_t)w[i + 3] << 24));
		}
		if (f && fclose(f)) {
			fprintf(stderr, "elfrun: %s: %s\n", sig, strerror(errno));
			rc = EXIT_USAGE;
		}
		free(w);
	}
	if (stats)
		fprintf(stderr, "hpm-stats: cycles=%" PRIu64 " instret=%" PRIu64 "\n", r.snap.value[0], r.snap.value[2]);
out:
	hpm_program_free(p);
	hpm_close(b);
	return rc;
}
