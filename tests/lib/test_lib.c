/* test_lib: libhpm unit tests that need no board (built with ASan/UBSan):
 * the event catalogue, "-e" lists, narrow-counter extension, program
 * loading and its refusals, the workload list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hpm_int.h"
#include "hpm_events.h"

static int passes, failures;

#define CHECK(cond, ...) do { \
	if (cond) passes++; \
	else { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
	} while (0)

static void test_catalogue(void)
{
	CHECK(hpm_event_count() == HPM_EVENT_COUNT, "count %zu", hpm_event_count());
	CHECK(hpm_event_at(hpm_event_count()) == NULL, "past the end");
	const hpm_event_desc *d = hpm_event_find("branch-misses");
	CHECK(d && d->index == HPM_EV_BRANCH_MISSES, "branch-misses");
	d = hpm_event_find("TOPDOWN.SLOTS");
	CHECK(d && d->index == HPM_EV_CYCLES, "alias TOPDOWN.SLOTS -> cycles");
	d = hpm_event_find("Retiring.Slots");
	CHECK(d && d->index == HPM_EV_TOPDOWN_RETIRING, "aliases are case-insensitive");
	CHECK(!hpm_event_find("branch-mis"), "prefixes are not names");
	CHECK(!hpm_event_find(""), "empty name");
	CHECK(hpm_event_catalogue_hash() == HPM_EVENT_CATALOGUE_HASH, "hash");
}

static hpm_evlist *parse_ok(const char *spec, size_t n)
{
	hpm_evlist *l = NULL;
	char err[256] = "";
	int rc = hpm_evlist_parse(&l, spec, err, sizeof err);
	CHECK(rc == HPM_OK && l && hpm_evlist_len(l) == n, "'%s': rc %d len %zu (%s)", spec, rc,
	      l ? hpm_evlist_len(l) : 0, err);
	return l;
}

static void parse_bad(const char *spec, const char *why)
{
	hpm_evlist *l = (hpm_evlist *)1;
	char err[256] = "";
	int rc = hpm_evlist_parse(&l, spec, err, sizeof err);
	CHECK(rc == HPM_E_EVENT && l == NULL && strstr(err, why) && !strchr(err, '\n'),
	      "'%s': rc %d err '%s', want '%s'", spec, rc, err, why);
}

static void test_evlist(void)
{
	hpm_evlist *l = parse_ok("cycles,instructions,loads,r3f,{stores,branches},r0x0000000000100402", 7);
	if (l) {
		CHECK(hpm_evlist_at(l, 0)->fixed == 0 && hpm_evlist_at(l, 1)->fixed == 2, "fixed counters");
		CHECK(hpm_evlist_at(l, 2)->fixed == -1 && hpm_evlist_at(l, 2)->selector == HPM_EV_LOADS, "loads");
		CHECK(hpm_evlist_at(l, 3)->selector == 0x3f && hpm_evlist_at(l, 3)->index == 0, "raw");
		CHECK(hpm_evlist_at(l, 4)->group == hpm_evlist_at(l, 5)->group &&
		      hpm_evlist_at(l, 3)->group != hpm_evlist_at(l, 4)->group &&
		      hpm_evlist_at(l, 6)->group != hpm_evlist_at(l, 5)->group, "groups");
		CHECK(hpm_evlist_at(l, 6)->selector == 0x100402ull, "raw with 0x and OP_TYPE0 ADD");
		CHECK(!strcmp(hpm_evlist_at(l, 5)->name, "branches"), "name kept");
		CHECK(hpm_evlist_at(l, 7) == NULL, "past the end");
		hpm_evlist_free(l);
	}
	l = parse_ok("TOPDOWN.SLOTS,{mul}", 2);
	if (l) {
		CHECK(hpm_evlist_at(l, 0)->fixed == 0, "an alias of cycles uses mcycle");
		hpm_evlist_free(l);
	}
	/* perf's modifiers: the modes not named are inhibited (MINH 62, SINH 61,
	 * UINH 60), and the event leaves the fixed counters */
	l = parse_ok("cycles:u,instructions:k,loads:m,r3:uk,TOPDOWN.SLOTS:mku,{branches:ku}", 6);
	if (l) {
		CHECK(hpm_evlist_at(l, 0)->fixed == -1 && hpm_evlist_at(l, 0)->selector == (HPM_EV_CYCLES | 3ull << 61) &&
		      !strcmp(hpm_evlist_at(l, 0)->name, "cycles:u") && hpm_evlist_at(l, 0)->index == HPM_EV_CYCLES,
		      "cycles:u: programmable, MINH and SINH, name kept");
		CHECK(hpm_evlist_at(l, 1)->fixed == -1 && hpm_evlist_at(l, 1)->selector == (HPM_EV_INSTRUCTIONS | 5ull << 60),
		      "instructions:k: MINH and UINH");
		CHECK(hpm_evlist_at(l, 2)->selector == (HPM_EV_LOADS | 3ull << 60), "loads:m: SINH and UINH");
		CHECK(hpm_evlist_at(l, 3)->selector == (3 | 1ull << 62) && hpm_evlist_at(l, 3)->index == 0, "r3:uk: MINH");
		CHECK(hpm_evlist_at(l, 4)->selector == HPM_EV_CYCLES && hpm_evlist_at(l, 4)->fixed == -1,
		      "an alias with every mode: nothing inhibited, still a programmable counter");
		CHECK(hpm_evlist_at(l, 5)->selector == (HPM_EV_BRANCHES | 1ull << 62), "branches:ku in a group: MINH");
		hpm_evlist_free(l);
	}
	l = parse_ok("{loads,stores}:uk,cycles", 3);
	if (l) {
		CHECK(hpm_evlist_at(l, 0)->selector == (HPM_EV_LOADS | 1ull << 62) &&
		      hpm_evlist_at(l, 1)->selector == (HPM_EV_STORES | 1ull << 62) &&
		      !strcmp(hpm_evlist_at(l, 1)->name, "stores:uk") &&
		      hpm_evlist_at(l, 0)->group == hpm_evlist_at(l, 1)->group &&
		      hpm_evlist_at(l, 2)->group != hpm_evlist_at(l, 1)->group && hpm_evlist_at(l, 2)->fixed == 0,
		      "{loads,stores}:uk: the modifier on each member, still one group; cycles after it plain");
		hpm_evlist_free(l);
	}
	parse_bad("{loads:u,stores}:k", "has its own modifier");
	parse_bad("{loads}:x", "unknown modifier 'x'");
	parse_bad("cycles:", "empty modifier");
	parse_bad("cycles:x", "unknown modifier 'x'");
	parse_bad("loads:uu", "repeated modifier 'u'");
	parse_bad("loads:u:k", "unknown modifier ':'");
	parse_bad("bogus:u", "unknown event 'bogus:u'");
	parse_bad("r8000000000000001:u", "bits 63..60");
	parse_bad("{a,b}", "unknown event 'a'");
	parse_bad("cycles,,loads", "empty event name");
	parse_bad("", "empty event name");
	parse_bad("rzz", "unknown event 'rzz'");          /* not hex: a name, unknown */
	parse_bad("rcycles", "unknown event 'rcycles'");
	parse_bad("r0xzz", "bad raw event 'r0xzz'");
	parse_bad("r", "unknown event 'r'");
	parse_bad("r12345678901234567", "bad raw event");
	parse_bad("r8000000000000001", "bits 63..60");
	parse_bad("r0080000000000001", "bits 59..55");
	parse_bad("{loads,stores", "unbalanced '{'");
	parse_bad("loads}", "unbalanced '}'");
	parse_bad("{loads,{stores}}", "cannot nest");
	parse_bad("{loads}x", "expected ','");
	parse_bad("loads{stores}", "unexpected '{'");
	char many[4096] = "loads";
	for (int i = 0; i < HPM_MAX_COUNTS; i++)
		strcat(many, ",loads");
	parse_bad(many, "too many events");
	char longname[200];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	parse_bad(longname, "");
}

static void test_extend(void)
{
	hpm_info in = { .hpm_width = 64 };
	CHECK(hpm_extend(&in, 123, 7) == 123, "64-bit counters are not extended");
	in.hpm_width = 8;
	CHECK(hpm_extend(&in, 0x12, 3) == 3 * 256 + 0x12, "8-bit");
	in.hpm_width = 40;
	CHECK(hpm_extend(&in, 5, 2) == (2ull << 40) + 5, "40-bit");
	in.hpm_width = 1;
	CHECK(hpm_extend(&in, 1, 9) == 19, "1-bit");
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

static void load_bad(const char *path, int want, const char *why)
{
	hpm_program *p = (hpm_program *)1;
	char err[512] = "";
	int rc = hpm_program_load(&p, path, err, sizeof err);
	CHECK(rc == want && p == NULL && strstr(err, why) && !strchr(err, '\n'),
	      "%s: rc %d err '%s', want %d '%s'", path, rc, err, want, why);
}

static void test_programs(const char *dir, const char *wl_dir)
{
	char path[512], elf[512];
	hpm_program *p;
	char err[512];

	const char *desc = NULL;
	CHECK(hpm_workload_at(0, &desc) && desc && *desc, "workload 0");
	size_t n = 0;
	while (hpm_workload_at(n, NULL))
		n++;
	CHECK(n >= 10, "%zu workloads", n);

	snprintf(elf, sizeof elf, "%s/alu.elf", wl_dir);
	int rc = hpm_program_load(&p, elf, err, sizeof err);
	CHECK(rc == HPM_OK && hpm_program_entry(p) == 0x80000000u && p->nseg >= 1, "alu.elf: %s", err);
	if (rc == HPM_OK) {
		for (size_t i = 0; i < p->nseg; i++)
			CHECK(p->seg[i].addr >= 0x80000000u && p->seg[i].addr + p->seg[i].len <= 0x8001f000u,
			      "segment %zu inside the workload RAM", i);
		hpm_program_free(p);
	}
	setenv("HPM_WORKLOADS", wl_dir, 1);
	rc = hpm_program_load(&p, "matmul", err, sizeof err);
	CHECK(rc == HPM_OK && !strcmp(hpm_program_name(p), "matmul"), "by name: %s", err);
	if (rc == HPM_OK)
		hpm_program_free(p);

	load_bad("no-such-workload", HPM_E_NOTFOUND, "neither a workload");
	load_bad("/nonexistent/x.elf", HPM_E_NOTFOUND, "No such file");
	snprintf(path, sizeof path, "%s/text.elf", dir);
	write_file(path, "hello, I am not an ELF\n", 23);
	load_bad(path, HPM_E_ELF, "text.elf");
	/* a truncated copy of a real workload */
	FILE *f = fopen(elf, "rb");
	static uint8_t buf[1 << 16];
	size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
	if (f)
		fclose(f);
	snprintf(path, sizeof path, "%s/trunc.elf", dir);
	write_file(path, buf, len > 200 ? 200 : len);
	load_bad(path, HPM_E_ELF, "trunc.elf");
	load_bad("/bin/true", HPM_E_ELF, "/bin/true");
	/* a program linked for the whole 128 KiB (ram.ld) with data in MONRAM:
	 * move the first segment's address into MONRAM by patching p_paddr */
	if (len > 52 + 32) {
		uint32_t phoff = hpm_get32(buf + 28);
		if (phoff + 32 <= len) {
			hpm_put32(buf + phoff + 12, 0x8001f800u);
			hpm_put32(buf + phoff + 8, 0x8001f800u);
			snprintf(path, sizeof path, "%s/monram.elf", dir);
			write_file(path, buf, len);
			load_bad(path, HPM_E_ELF, "monram.elf");
		}
	}
}

/* code symbols of a workload: functions by their extent, _start (a label)
 * up to the next symbol, nothing past the code */
static void test_symbols(const char *wl_dir)
{
	char elf[512], err[512];
	hpm_program *p;
	const hpm_symbol *syms, *fill = NULL, *start = NULL;

	snprintf(elf, sizeof elf, "%s/regions.elf", wl_dir);
	int rc = hpm_program_load(&p, elf, err, sizeof err);
	CHECK(rc == HPM_OK, "regions.elf: %s", err);
	if (rc)
		return;
	size_t n = hpm_program_symbols(p, &syms);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(syms[i].name, "fill"))
			fill = &syms[i];
		if (!strcmp(syms[i].name, "_start"))
			start = &syms[i];
		CHECK(!i || syms[i - 1].addr <= syms[i].addr, "symbols sorted by address (%s)", syms[i].name);
		CHECK(strcmp(syms[i].name, "arr") && strcmp(syms[i].name, "__bss_start"), "no data symbol (%s)",
		      syms[i].name);
	}
	CHECK(fill && fill->size >= 8 && start && start->addr == hpm_program_entry(p) && !start->size,
	      "fill (sized) and _start (a label at the entry) among %zu symbols", n);
	if (fill && start) {
		const hpm_symbol *s = hpm_program_symbol(p, fill->addr + fill->size - 4);
		CHECK(s && !strcmp(s->name, "fill"), "the last word of fill is fill (%s)", s ? s->name : "NULL");
		s = hpm_program_symbol(p, start->addr + 8);
		CHECK(s && !strcmp(s->name, "_start"), "start-up code is _start (%s)", s ? s->name : "NULL");
		s = hpm_program_symbol(p, 0x8001e000u);
		CHECK(!s, "an address past the code has no symbol (%s)", s ? s->name : "NULL");
		s = hpm_program_symbol(p, 0x7ffffffcu);
		CHECK(!s, "an address below the program has no symbol");
	}
	hpm_program_free(p);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_lib TMPDIR WORKLOAD_DIR\n");
		return 2;
	}
	test_catalogue();
	test_evlist();
	test_extend();
	test_programs(argv[1], argv[2]);
	test_symbols(argv[2]);
	printf("libhpm: %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
