# ref.mk: the reference model library (host/ref), the hpm-ref runner and its
# unit tests (tests/ref). Owner: reference model.

REF_DIR       := host/ref
REF_OBJDIR    := $(BUILD)/obj/ref
REF_ASAN_DIR  := $(BUILD)/obj/ref-asan
REF_LIB       := $(LIBDIR)/libhpmref.a
REF_CFLAGS    := $(HOST_CFLAGS) -I$(REF_DIR) $(MAP_INC) -MMD -MP
REF_ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

REF_LIB_SRCS  := $(filter-out $(REF_DIR)/hpm_ref_main.c,$(wildcard $(REF_DIR)/*.c))
REF_LIB_OBJS  := $(patsubst $(REF_DIR)/%.c,$(REF_OBJDIR)/%.o,$(REF_LIB_SRCS))
REF_MAIN_OBJ  := $(REF_OBJDIR)/hpm_ref_main.o
REF_ASAN_OBJS := $(patsubst $(REF_DIR)/%.c,$(REF_ASAN_DIR)/%.o,$(REF_LIB_SRCS) $(REF_DIR)/hpm_ref_main.c)

REF_TEST_DIR  := tests/ref
REF_TEST_BIN  := $(BUILD)/tests/ref/test_ref

.PHONY: host ref ref-asan test-ref bench-ref fuzz-elf

host: $(BIN)/hpm-ref
ref: $(REF_LIB) $(BIN)/hpm-ref
ref-asan: $(BIN)/hpm-ref-asan

$(REF_OBJDIR)/%.o: $(REF_DIR)/%.c | $(EV_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(REF_CFLAGS) -c $< -o $@

$(REF_ASAN_DIR)/%.o: $(REF_DIR)/%.c | $(EV_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(REF_CFLAGS) -O1 $(REF_ASAN_FLAGS) -c $< -o $@

# one relocatable object with the internals (hidden, hpmref_int.h) made
# local: the archive exports only the API of hpmref.h
REF_LIB_OBJ := $(REF_OBJDIR)/hpmref-lib.o
$(REF_LIB_OBJ): $(REF_LIB_OBJS)
	$(HOST_CC) -r -nostdlib -o $@.tmp $^
	objcopy --localize-hidden $@.tmp $@ && rm -f $@.tmp

$(REF_LIB): $(REF_LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(BIN)/hpm-ref: $(REF_MAIN_OBJ) $(REF_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $^

$(BIN)/hpm-ref-asan: $(REF_ASAN_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(REF_ASAN_FLAGS) -o $@ $^

# Unit tests (hand-encoded programs, cycle counts from docs/timing.md, ELF
# loader rejections), built with ASan/UBSan against the library sources.
$(REF_TEST_BIN): $(REF_TEST_DIR)/test_ref.c $(REF_LIB_SRCS) $(wildcard $(REF_DIR)/*.h) fw/monitor/td_rule.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -O1 $(REF_ASAN_FLAGS) -I$(REF_DIR) -Ifw/monitor $(MAP_INC) -o $@ \
	  $(REF_TEST_DIR)/test_ref.c $(REF_LIB_SRCS)

# Speed of hpmref_step on a plain loop (reported, never asserted).
REF_BENCH_BIN := $(BUILD)/tests/ref/bench_ref
$(REF_BENCH_BIN): $(REF_TEST_DIR)/bench_ref.c $(REF_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(REF_DIR) $(MAP_INC) -o $@ $< $(REF_LIB)
bench-ref: $(REF_BENCH_BIN)
	$(REF_BENCH_BIN)

# libFuzzer target for the ELF loader (clang), the model's writer behind it:
# make fuzz-elf for FUZZ_TIME seconds (default FUZZ_SECONDS, 60), fuzz-elf-short
# for 5 (make test). The corpus starts from the built workloads (and one moved
# onto the memory boundaries, tests/lib/elf_seeds.py) and grows.
FUZZ_TIME ?= $(or $(FUZZ_SECONDS),60)
REF_FUZZ_BIN := $(BUILD)/tests/ref/fuzz_elf
REF_FUZZ_CORPUS := $(BUILD)/tests/ref/fuzz-corpus
$(REF_FUZZ_BIN): $(REF_TEST_DIR)/fuzz_elf.c $(REF_LIB_SRCS) $(wildcard $(REF_DIR)/*.h)
	@mkdir -p $(@D)
	clang -std=c11 -O1 -g -D_GNU_SOURCE -I$(REF_DIR) $(MAP_INC) -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all -o $@ $(REF_TEST_DIR)/fuzz_elf.c $(REF_LIB_SRCS)
define ref_fuzz_run
	@mkdir -p $(REF_FUZZ_CORPUS)
	@$(if $(wildcard $(WL_ELFS)),cp -n $(wildcard $(WL_ELFS)) $(REF_FUZZ_CORPUS)/ && \
	  python3 tests/lib/elf_seeds.py $(firstword $(wildcard $(WL_ELFS))) $(REF_FUZZ_CORPUS))
	@$(REF_FUZZ_BIN) -max_total_time=$(1) -max_len=16384 -print_final_stats=1 $(REF_FUZZ_CORPUS) \
	  > $(BUILD)/tests/ref/fuzz.log 2>&1 || { tail -30 $(BUILD)/tests/ref/fuzz.log; exit 1; }
	@awk '/^Done [0-9]+ runs/ { printf "fuzz-elf: %s executions in %s s (%d/s), no failure\n", $$2, $$5, $$2 / ($$5 ? $$5 : 1) }' \
	  $(BUILD)/tests/ref/fuzz.log
endef
.PHONY: fuzz-elf-short
fuzz-elf: $(REF_FUZZ_BIN)
	$(call ref_fuzz_run,$(FUZZ_TIME))
fuzz-elf-short: $(REF_FUZZ_BIN)
	$(call ref_fuzz_run,5)
fuzz: fuzz-elf

test-ref: $(REF_TEST_BIN)
	@mkdir -p $(BUILD)/tests/ref
	$(REF_TEST_BIN) $(BUILD)/tests/ref

-include $(REF_LIB_OBJS:.o=.d) $(REF_MAIN_OBJ:.o=.d) $(REF_ASAN_OBJS:.o=.d)
