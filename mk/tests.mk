# tests.mk: the test suites (tests/, except tests/ref which ref.mk owns).
#   make test       build everything, then tests/run.sh: model unit tests,
#                   directed ISA tests (hpm-ref and hpm-sim --lockstep,
#                   signatures compared), 200 random programs x 10k in
#                   lockstep, C programs (lockstep + --stats equality), UART,
#                   negative tests
#   make test-long  the same with 2000 random programs x 50k instructions
# Knobs: TEST_JOBS (parallel runs, default: nproc), TEST_SEEDS, TEST_LENGTH,
#        TEST_SUITES (e.g. "isa random"; "hpm" runs tests/hpm, not yet in the
#        default list); see docs/testing.md.

TESTS_BUILD := $(BUILD)/tests
TEST_RUN    := tests/run.sh
TEST_JOBS   ?= $(shell nproc 2>/dev/null || echo 2)

TEST_ISA_SRCS := $(wildcard tests/isa/*.S)
TEST_ISA_ELFS := $(patsubst tests/isa/%.S,$(TESTS_BUILD)/isa/%.elf,$(TEST_ISA_SRCS))
TEST_HPM_ELFS := $(patsubst tests/hpm/%.S,$(TESTS_BUILD)/hpm/%.elf,$(wildcard tests/hpm/*.S))
TEST_C_SRCS   := $(filter-out tests/c/common.h,$(wildcard tests/c/*.c))
TEST_C_ELFS   := $(patsubst tests/c/%.c,$(TESTS_BUILD)/c/%.elf,$(TEST_C_SRCS))
TEST_NEG_ELFS := $(patsubst tests/neg/%.S,$(TESTS_BUILD)/neg/%.elf,$(wildcard tests/neg/*.S))
TEST_RVGEN    := $(TESTS_BUILD)/rvgen
TEST_FAULT_CHECK := $(TESTS_BUILD)/fault_check

TEST_ASFLAGS  := $(FW_MARCH) -mcmodel=medany -Itests/isa -Ifw/include -I$(GEN)
TEST_LDFLAGS  := $(FW_LDFLAGS) -T $(FW_RAM_LD)

.PHONY: test test-long test-build

test-build: $(TEST_ISA_ELFS) $(TEST_HPM_ELFS) $(TEST_C_ELFS) $(TEST_NEG_ELFS) $(TEST_RVGEN) $(TEST_FAULT_CHECK)

# everything the runner needs, as variables it reads from the environment
TEST_ENV = BUILD=$(BUILD) RV_CC="$(FW_CC)" RV_ASFLAGS="$(TEST_ASFLAGS)" \
  RV_LDFLAGS="$(TEST_LDFLAGS)" RVGEN=$(TEST_RVGEN) FAULT_CHECK=$(TEST_FAULT_CHECK) \
  TEST_JOBS=$(TEST_JOBS) MAKE="$(MAKE)" UNIT_TARGETS="lint test-ref test-proto fuzz-short events-check isa-gen-check alu-equiv test-lib fuzz-events-short fuzz-elf-short fuzz-program-short fuzz-profdata-short test-profview" \
  $(if $(TEST_SUITES),TEST_SUITES="$(TEST_SUITES)")

# The suites run make again (unit targets, sim-variants, bitstream, prog);
# under make -jN, tests/run.sh keeps them from looking for a jobserver they
# cannot reach. (Not a recursive recipe: make -n test must not run the tests.)
test: all sim-variants test-build
	$(TEST_ENV) $(TEST_RUN) --seeds $(or $(TEST_SEEDS),200) --length $(or $(TEST_LENGTH),10000)

test-long: all sim-variants test-build
	$(TEST_ENV) $(TEST_RUN) --seeds $(or $(TEST_SEEDS),2000) --length $(or $(TEST_LENGTH),50000)

$(TESTS_BUILD)/isa/%.elf: tests/isa/%.S tests/isa/test_macros.h fw/include/hpm_crt.h $(FW_RAM_LD) $(MAP_H) $(EV_H)
	@mkdir -p $(@D)
	$(FW_CC) $(TEST_LDFLAGS) $(TEST_ASFLAGS) -o $@ $<

$(TESTS_BUILD)/hpm/%.elf: tests/hpm/%.S tests/isa/test_macros.h fw/include/hpm_crt.h $(wildcard tests/hpm/*.h) $(FW_RAM_LD) $(MAP_H) $(EV_H)
	@mkdir -p $(@D)
	$(FW_CC) $(TEST_LDFLAGS) $(TEST_ASFLAGS) -o $@ $<

$(TESTS_BUILD)/neg/%.elf: tests/neg/%.S $(FW_RAM_LD)
	@mkdir -p $(@D)
	$(FW_CC) $(TEST_LDFLAGS) $(TEST_ASFLAGS) -o $@ $<

# C programs: -O2, freestanding, crt0 + fw/lib
$(TESTS_BUILD)/c/%.o: tests/c/%.c tests/c/common.h $(FW_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@

$(TESTS_BUILD)/c/%.elf: $(TESTS_BUILD)/c/%.o $(FW_RT_OBJS) $(FW_RAM_LD)
	$(FW_CC) $(TEST_LDFLAGS) -o $@ $(FW_RT_OBJS) $< $(FW_LIBS)

.PRECIOUS: $(TESTS_BUILD)/c/%.o

$(TEST_RVGEN): tests/gen/rvgen.c $(MAP_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(GEN) -o $@ $<

$(TEST_FAULT_CHECK): tests/lockstep/fault_check.c $(REF_LIB) $(REF_DIR)/hpmref.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(REF_DIR) $(MAP_INC) -o $@ $< $(REF_LIB)
