# host.mk: libhpm (host/lib) and hpmctl (host/cli). Owner: host runtime.
#   make host          -> build/lib/libhpm.a, build/bin/hpmctl (also via `make`)
#   make install PREFIX=/usr/local
#                      -> include/hpm.h, lib/libhpm.a, lib/libhpm.so.2.0 (soname
#                         libhpm.so.2) and its links, lib/pkgconfig/libhpm.pc,
#                         bin/hpmctl, bin/hpm-sim(-trace), bin/hpm-ref, bin/hpm-cc,
#                         share/hpm-overlay/{fw,workloads,sdk}, share/man/man1/hpmctl.1
# Variables for other fragments: HPM_LIB, HPM_LIB_ASAN, HPM_LIB_CFLAGS,
# HPM_LIB_LIBS, HPMCTL.
# libhpm also compiles the frame codec (proto/) and the reference model's
# ELF loader (host/ref/elf.c): one parser for the board and the model.
# Messages are cut to their buffers on purpose: -Wno-format-truncation.

HPM_LIB_DIR     := host/lib
HPM_OBJDIR      := $(BUILD)/obj/libhpm
HPM_ASAN_OBJDIR := $(BUILD)/obj/libhpm-asan
HPM_LIB         := $(LIBDIR)/libhpm.a
HPM_LIB_ASAN    := $(LIBDIR)/libhpm-asan.a
HPMCTL          := $(BIN)/hpmctl
USB_CFLAGS      := $(shell pkg-config --cflags libusb-1.0 2>/dev/null)
USB_LIBS        := $(shell pkg-config --libs libusb-1.0 2>/dev/null || echo -lusb-1.0)
HPM_LIB_CFLAGS  := $(HOST_CFLAGS) -Wno-format-truncation -I$(HPM_LIB_DIR) -Iproto -I$(GEN) -Ihw/hpm -Ifw/workloads \
                   -I$(REF_DIR) $(USB_CFLAGS) -MMD -MP
HPM_LIB_LIBS    := $(USB_LIBS) -lpthread
HPM_SAN         := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

HPM_LIB_SRCS := $(wildcard $(HPM_LIB_DIR)/*.c) proto/hpm_proto.c $(REF_DIR)/elf.c
hpm_obj = $(addprefix $(1)/,$(notdir $(HPM_LIB_SRCS:.c=.o)))
HPM_LIB_OBJS      := $(call hpm_obj,$(HPM_OBJDIR))
HPM_LIB_ASAN_OBJS := $(call hpm_obj,$(HPM_ASAN_OBJDIR))
vpath %.c $(HPM_LIB_DIR) proto $(REF_DIR)

HPMCTL_SRCS := $(wildcard host/cli/*.c)

.PHONY: libhpm install
host: $(HPM_LIB) $(if $(HPMCTL_SRCS),$(HPMCTL))
libhpm: $(HPM_LIB)

$(HPM_OBJDIR)/%.o: %.c $(EV_H) | $(HPM_OBJDIR)
	$(HOST_CC) $(HPM_LIB_CFLAGS) -c $< -o $@
$(HPM_ASAN_OBJDIR)/%.o: %.c $(EV_H) | $(HPM_ASAN_OBJDIR)
	$(HOST_CC) $(HPM_LIB_CFLAGS) -O1 $(HPM_SAN) -c $< -o $@
$(HPM_OBJDIR) $(HPM_ASAN_OBJDIR):
	@mkdir -p $@

# the shared library: position-independent objects, soname libhpm.so.2,
# only the functions of hpm.h exported (a version script made from it)
HPM_PIC_OBJDIR := $(BUILD)/obj/libhpm-pic
HPM_SO_NAME    := libhpm.so.2
HPM_SO         := $(LIBDIR)/libhpm.so.2.0
HPM_SO_MAP     := $(BUILD)/obj/libhpm.map
HPM_LIB_PIC_OBJS := $(call hpm_obj,$(HPM_PIC_OBJDIR))
$(HPM_PIC_OBJDIR)/%.o: %.c $(EV_H) | $(HPM_PIC_OBJDIR)
	$(HOST_CC) $(HPM_LIB_CFLAGS) -fPIC -c $< -o $@
$(HPM_PIC_OBJDIR):
	@mkdir -p $@
$(HPM_SO_MAP): $(HPM_LIB_DIR)/hpm.h
	@mkdir -p $(@D)
	{ echo '{ global:'; sed -n 's/.*[^a-z_]\(hpm_[a-z0-9_]*\)(.*/  \1;/p' $< | sort -u; echo 'local: *; };'; } > $@
$(HPM_SO): $(HPM_LIB_PIC_OBJS) $(HPM_SO_MAP)
	@mkdir -p $(@D)
	$(HOST_CC) -shared -Wl,-soname,$(HPM_SO_NAME) -Wl,--version-script,$(HPM_SO_MAP) -Wl,-z,defs \
	  -o $@ $(HPM_LIB_PIC_OBJS) $(HPM_LIB_LIBS)
	ln -sf $(notdir $@) $(LIBDIR)/$(HPM_SO_NAME)
	ln -sf $(HPM_SO_NAME) $(LIBDIR)/libhpm.so
host: $(HPM_SO)
-include $(HPM_LIB_PIC_OBJS:.o=.d)

$(HPM_LIB): $(HPM_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
$(HPM_LIB_ASAN): $(HPM_LIB_ASAN_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(HPMCTL): $(HPMCTL_SRCS) $(wildcard host/cli/*.h) $(HPM_LIB) $(HPM_LIB_DIR)/hpm.h $(EV_DEF) hw/csr.def
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(HPM_LIB_DIR) -Ihw/hpm -Ihw -o $@ $(HPMCTL_SRCS) $(HPM_LIB) $(HPM_LIB_LIBS) -lm

-include $(HPM_LIB_OBJS:.o=.d) $(HPM_LIB_ASAN_OBJS:.o=.d)
# board.c checks the monitor's checksum against the build's (mk/fw.mk)
$(HPM_OBJDIR)/board.o $(HPM_ASAN_OBJDIR)/board.o $(HPM_PIC_OBJDIR)/board.o: $(MON_SUM_H)

PREFIX ?= /usr/local
HPM_MAN := $(BUILD)/man/hpmctl.1
$(HPM_MAN): docs/hpmctl.md tools/md2man.py
	@mkdir -p $(@D)
	python3 tools/md2man.py $< > $@.tmp && mv $@.tmp $@
host: $(HPM_MAN)

# the SDK (mk/sdk.mk) goes to share/hpm-overlay/sdk, hpm-cc to bin
install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/share/hpm-overlay/fw $(DESTDIR)$(PREFIX)/share/hpm-overlay/workloads \
	  $(DESTDIR)$(PREFIX)/share/hpm-overlay/sdk/include $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(HPM_LIB_DIR)/hpm.h $(DESTDIR)$(PREFIX)/include/hpm.h
	install -m 644 $(HPM_LIB) $(DESTDIR)$(PREFIX)/lib/libhpm.a
	install -m 755 $(HPM_SO) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(notdir $(HPM_SO)) $(DESTDIR)$(PREFIX)/lib/$(HPM_SO_NAME)
	ln -sf $(HPM_SO_NAME) $(DESTDIR)$(PREFIX)/lib/libhpm.so
	install -m 755 $(HPMCTL) $(BIN)/hpm-sim $(BIN)/hpm-sim-trace $(BIN)/hpm-ref $(HPM_CC) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(FW_MONITOR_ELF) $(DESTDIR)$(PREFIX)/share/hpm-overlay/fw/
	install -m 644 $(WL_ELFS) $(DESTDIR)$(PREFIX)/share/hpm-overlay/workloads/
	install -m 644 $(filter-out $(SDK_DIR)/include/%,$(SDK_FILES)) $(DESTDIR)$(PREFIX)/share/hpm-overlay/sdk/
	install -m 644 $(filter $(SDK_DIR)/include/%,$(SDK_FILES)) $(DESTDIR)$(PREFIX)/share/hpm-overlay/sdk/include/
	install -m 644 $(HPM_MAN) $(DESTDIR)$(PREFIX)/share/man/man1/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(shell sed -n 's/^#define HPM_LIB_VERSION "\(.*\)"/\1/p' $(HPM_LIB_DIR)/hpm.h)|' \
	  -e 's|@LIBS@|$(HPM_LIB_LIBS)|' $(HPM_LIB_DIR)/libhpm.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libhpm.pc

# libhpm unit tests (ASan/UBSan) and the event-string fuzzer (libFuzzer)
TEST_LIB    := $(BUILD)/tests/test_lib
FUZZ_EVENTS := $(BUILD)/tests/fuzz_events
.PHONY: test-lib fuzz-events fuzz-events-short
$(TEST_LIB): tests/lib/test_lib.c $(HPM_LIB_ASAN) $(wildcard $(HPM_LIB_DIR)/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(HPM_LIB_CFLAGS) -O1 $(HPM_SAN) -o $@ $< $(HPM_LIB_ASAN) $(HPM_LIB_LIBS) -lutil
test-lib: $(TEST_LIB) $(WL_ELFS)
	@mkdir -p $(BUILD)/tests/lib
	$(TEST_LIB) $(BUILD)/tests/lib $(WL_DIR)

# the fuzzer links the library sources themselves, instrumented by clang
$(FUZZ_EVENTS): tests/lib/fuzz_events.c $(HPM_LIB_SRCS) $(wildcard $(HPM_LIB_DIR)/*.h) $(EV_H) $(MON_SUM_H)
	@mkdir -p $(@D)
	clang $(filter-out -MMD -MP -Wno-format-truncation,$(HPM_LIB_CFLAGS)) -O1 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all -o $@ $< $(HPM_LIB_SRCS) $(HPM_LIB_LIBS)
define events_fuzz_run
	@mkdir -p $(BUILD)/tests/fuzz-events-corpus
	@printf 'cycles,{loads,stores},r3f' > $(BUILD)/tests/fuzz-events-corpus/seed
	@printf '{slots,topdown-retiring},loads:u' > $(BUILD)/tests/fuzz-events-corpus/seed-topdown
	@$(FUZZ_EVENTS) -max_total_time=$(1) -max_len=256 $(BUILD)/tests/fuzz-events-corpus \
	  > $(BUILD)/tests/fuzz-events.log 2>&1 || { tail -30 $(BUILD)/tests/fuzz-events.log; exit 1; }
	@awk '/^Done [0-9]+ runs/ { print "fuzz-events: " $$2 " executions in " $$5 " s, no failure" }' $(BUILD)/tests/fuzz-events.log
endef
fuzz-events: $(FUZZ_EVENTS)
	$(call events_fuzz_run,$(or $(FUZZ_SECONDS),60))
fuzz-events-short: $(FUZZ_EVENTS)
	$(call events_fuzz_run,5)
test-build: $(TEST_LIB) $(FUZZ_EVENTS)
fuzz: fuzz-events

# libhpm's ELF path (hpm_program_load: the shared validator, then libhpm's
# own segment pass) under libFuzzer, seeded with the workloads and with
# one moved onto the memory boundaries (tests/lib/elf_seeds.py)
FUZZ_PROGRAM := $(BUILD)/tests/fuzz_program
FUZZ_PROGRAM_CORPUS := $(BUILD)/tests/fuzz-program-corpus
.PHONY: fuzz-program fuzz-program-short
$(FUZZ_PROGRAM): tests/lib/fuzz_program.c $(HPM_LIB_SRCS) $(wildcard $(HPM_LIB_DIR)/*.h) $(EV_H) $(MON_SUM_H)
	@mkdir -p $(@D)
	clang $(filter-out -MMD -MP -Wno-format-truncation,$(HPM_LIB_CFLAGS)) -O1 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all -o $@ $< $(HPM_LIB_SRCS) $(HPM_LIB_LIBS)
define program_fuzz_run
	@mkdir -p $(FUZZ_PROGRAM_CORPUS)
	@cp -n $(WL_ELFS) $(FUZZ_PROGRAM_CORPUS)/
	@python3 tests/lib/elf_seeds.py $(firstword $(WL_ELFS)) $(FUZZ_PROGRAM_CORPUS)
	@$(FUZZ_PROGRAM) -max_total_time=$(1) -max_len=16384 -print_final_stats=1 $(FUZZ_PROGRAM_CORPUS) \
	  > $(BUILD)/tests/fuzz-program.log 2>&1 || { tail -30 $(BUILD)/tests/fuzz-program.log; exit 1; }
	@awk '/^Done [0-9]+ runs/ { printf "fuzz-program: %s executions in %s s (%d/s), no failure\n", $$2, $$5, $$2 / ($$5 ? $$5 : 1) }' \
	  $(BUILD)/tests/fuzz-program.log
endef
fuzz-program: $(FUZZ_PROGRAM) $(WL_ELFS)
	$(call program_fuzz_run,$(or $(FUZZ_SECONDS),60))
fuzz-program-short: $(FUZZ_PROGRAM) $(WL_ELFS)
	$(call program_fuzz_run,5)
fuzz: fuzz-program
test-build: $(FUZZ_PROGRAM)

# the prof.data reader (hpmctl report, annotate) on arbitrary bytes
FUZZ_PROFDATA := $(BUILD)/tests/fuzz_profdata
.PHONY: fuzz-profdata fuzz-profdata-short
$(FUZZ_PROFDATA): tests/lib/fuzz_profdata.c $(HPM_LIB_SRCS) $(wildcard $(HPM_LIB_DIR)/*.h) $(EV_H) $(MON_SUM_H)
	@mkdir -p $(@D)
	clang $(filter-out -MMD -MP -Wno-format-truncation,$(HPM_LIB_CFLAGS)) -O1 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all -o $@ $< $(HPM_LIB_SRCS) $(HPM_LIB_LIBS)
define profdata_fuzz_run
	@mkdir -p $(BUILD)/tests/fuzz-profdata-corpus
	@$(BIN)/hpmctl --link ref record -e cycles -c 256 -e loads -c 300 -e stores --size 64 -o $(BUILD)/tests/fuzz-profdata-corpus/seed crc \
	  2> $(BUILD)/tests/fuzz-profdata-seed.log || { cat $(BUILD)/tests/fuzz-profdata-seed.log; exit 1; }
	@# the same profile as a version-1 file (no ELF hash, time, arguments): old files are read too
	@python3 -c 'import sys; b = open(sys.argv[1], "rb").read(); o = 42 + int.from_bytes(b[40:42], "little"); \
	  a = int.from_bytes(b[o + 16:o + 18], "little"); \
	  open(sys.argv[2], "wb").write(b[:8] + (1).to_bytes(4, "little") + b[12:o] + b[o + 18 + a:])' \
	  $(BUILD)/tests/fuzz-profdata-corpus/seed $(BUILD)/tests/fuzz-profdata-corpus/seed-v1
	@$(FUZZ_PROFDATA) -max_total_time=$(1) -max_len=4096 $(BUILD)/tests/fuzz-profdata-corpus \
	  > $(BUILD)/tests/fuzz-profdata.log 2>&1 || { tail -30 $(BUILD)/tests/fuzz-profdata.log; exit 1; }
	@awk '/^Done [0-9]+ runs/ { print "fuzz-profdata: " $$2 " executions in " $$5 " s, no failure" }' $(BUILD)/tests/fuzz-profdata.log
endef
fuzz-profdata: $(FUZZ_PROFDATA) host $(WL_ELFS)
	$(call profdata_fuzz_run,$(or $(FUZZ_SECONDS),60))
fuzz-profdata-short: $(FUZZ_PROFDATA) host $(WL_ELFS)
	$(call profdata_fuzz_run,5)
fuzz: fuzz-profdata
test-build: $(FUZZ_PROFDATA)


# hpmctl's views of profiles with call chains and their perf.data export,
# on a profile built in the test over perf_calls.elf's functions (built by
# the build tree's hpm-cc; needs Linux perf: make deps)
TEST_PROFVIEW := $(BUILD)/tests/test_profview
TEST_PROFVIEW_SRCS := tests/cli/test_profview.c host/cli/views.c host/cli/perfdata.c host/cli/common.c \
  host/cli/progress.c
.PHONY: test-profview
$(TEST_PROFVIEW): $(TEST_PROFVIEW_SRCS) $(wildcard host/cli/*.h) $(HPM_LIB_ASAN) hw/csr.def
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -O1 $(HPM_SAN) -I$(HPM_LIB_DIR) -Ihw/hpm -Ihw -Ihost/cli -o $@ $(TEST_PROFVIEW_SRCS) \
	  $(HPM_LIB_ASAN) $(HPM_LIB_LIBS)
test-profview: $(TEST_PROFVIEW) $(HPM_CC) $(SDK_FILES)
	@mkdir -p $(BUILD)/tests/profview
	$(HPM_CC) -O2 -o $(BUILD)/tests/profview/perf_calls.elf tests/programs/src/perf_calls.c
	$(TEST_PROFVIEW) $(BUILD)/tests/profview $(BUILD)/tests/profview/perf_calls.elf
