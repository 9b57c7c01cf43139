# workloads.mk: the benchmark workloads the host uploads into work RAM
# (fw/workloads/, docs/workloads.md).
#   make workloads        -> $(WL_ELFS) (build/fw/workloads/NAME.elf, for the
#                            monitor) and the bare-harness flavour
#                            build/fw/workloads/bare/NAME.elf (hpm-ref, hpm-sim)
#   make workloads-stats  -> cycles/instret of every workload on hpm-ref, at
#                            its test size (bare/) and its default size
#                            (bare-default/)
# The test suite (tests/run.sh workloads) also needs $(WL_TEST_ELFS): the bare
# flavour entering S and M mode, and the WL_SABOTAGE builds, whose self-checks
# must fail.
# Other fragments may use: WL_NAMES, WL_ELFS, WL_DIR, WL_DEF.

WL_SRC   := fw/workloads
WL_DIR   := $(BUILD)/fw/workloads
WL_DEF   := $(WL_SRC)/workloads.def
# the names, in the order of workloads.def
WL_NAMES := $(shell sed -n 's/^HPM_WORKLOAD.\([a-z0-9_]*\),.*/\1/p' $(WL_DEF))
WL_ELFS  := $(patsubst %,$(WL_DIR)/%.elf,$(WL_NAMES))
WL_BARE_ELFS := $(patsubst %,$(WL_DIR)/bare/%.elf,$(WL_NAMES))
WL_DEFAULT_ELFS := $(patsubst %,$(WL_DIR)/bare-default/%.elf,$(WL_NAMES))
WL_TEST_ELFS := $(patsubst %,$(WL_DIR)/bare-s/%.elf,$(WL_NAMES)) \
                $(patsubst %,$(WL_DIR)/bare-m/%.elf,$(WL_NAMES)) \
                $(patsubst %,$(WL_DIR)/sabotage/%.elf,$(WL_NAMES))

WL_LD      := $(WL_SRC)/wl.ld
# no calls to memcpy/memset (there is no library), C11, headers tracked
WL_CFLAGS  := $(FW_CFLAGS) -std=c11 -fno-builtin -fno-tree-loop-distribute-patterns \
              -I$(WL_SRC) -MMD -MP
WL_LINK    = $(FW_CC) $(FW_LDFLAGS) -T $(WL_LD) -o $@ $(1) $(FW_LIBS)
WL_CRT     := $(WL_DIR)/obj/wl_crt.o

.PHONY: workloads workloads-stats
workloads: $(WL_ELFS) $(WL_BARE_ELFS)
fw: workloads
test test-long: workloads $(WL_TEST_ELFS)

$(WL_DIR)/obj/%.o: $(WL_SRC)/%.c
	@mkdir -p $(@D)
	$(FW_CC) $(WL_CFLAGS) -c $< -o $@

$(WL_DIR)/obj/%.sab.o: $(WL_SRC)/%.c
	@mkdir -p $(@D)
	$(FW_CC) $(WL_CFLAGS) -DWL_SABOTAGE -c $< -o $@

$(WL_CRT): $(WL_SRC)/wl_crt.S fw/include/hpm_crt.h
	@mkdir -p $(@D)
	$(FW_CC) $(FW_ASFLAGS) -c $< -o $@

# the harness: entering U (bare-u), S, M, or U with size 0 (bare-default)
$(WL_DIR)/obj/bare-u.o: WL_BARE_DEFS := -DWL_BARE_MPP=0
$(WL_DIR)/obj/bare-s.o: WL_BARE_DEFS := -DWL_BARE_MPP=1
$(WL_DIR)/obj/bare-m.o: WL_BARE_DEFS := -DWL_BARE_MPP=3
$(WL_DIR)/obj/bare-default.o: WL_BARE_DEFS := -DWL_BARE_MPP=0 -DWL_BARE_DEFAULT
$(WL_DIR)/obj/bare-%.o: $(WL_SRC)/bare.S fw/include/hpm_crt.h
	@mkdir -p $(@D)
	$(FW_CC) $(FW_ASFLAGS) $(WL_BARE_DEFS) -c $< -o $@

$(WL_ELFS): $(WL_DIR)/%.elf: $(WL_DIR)/obj/%.o $(WL_CRT) $(WL_LD)
	$(call WL_LINK,$(WL_CRT) $<)

# bare flavours: the harness owns the entry (0x80000000)
WL_BARE_LINK = $(FW_CC) $(FW_LDFLAGS) -Wl,-e,bare_start -T $(WL_LD) -o $@ $(1) $(FW_LIBS)

$(WL_BARE_ELFS): $(WL_DIR)/bare/%.elf: $(WL_DIR)/obj/%.o $(WL_DIR)/obj/bare-u.o $(WL_CRT) $(WL_LD)
	@mkdir -p $(@D)
	$(call WL_BARE_LINK,$(WL_DIR)/obj/bare-u.o $(WL_CRT) $<)

$(WL_DIR)/bare-s/%.elf: $(WL_DIR)/obj/%.o $(WL_DIR)/obj/bare-s.o $(WL_CRT) $(WL_LD)
	@mkdir -p $(@D)
	$(call WL_BARE_LINK,$(WL_DIR)/obj/bare-s.o $(WL_CRT) $<)

$(WL_DIR)/bare-m/%.elf: $(WL_DIR)/obj/%.o $(WL_DIR)/obj/bare-m.o $(WL_CRT) $(WL_LD)
	@mkdir -p $(@D)
	$(call WL_BARE_LINK,$(WL_DIR)/obj/bare-m.o $(WL_CRT) $<)

$(WL_DIR)/bare-default/%.elf: $(WL_DIR)/obj/%.o $(WL_DIR)/obj/bare-default.o $(WL_CRT) $(WL_LD)
	@mkdir -p $(@D)
	$(call WL_BARE_LINK,$(WL_DIR)/obj/bare-default.o $(WL_CRT) $<)

$(WL_DIR)/sabotage/%.elf: $(WL_DIR)/obj/%.sab.o $(WL_DIR)/obj/bare-u.o $(WL_CRT) $(WL_LD)
	@mkdir -p $(@D)
	$(call WL_BARE_LINK,$(WL_DIR)/obj/bare-u.o $(WL_CRT) $<)

.PRECIOUS: $(WL_DIR)/obj/%.o $(WL_DIR)/obj/%.sab.o

# one line per workload: cycles, instructions and CPI on hpm-ref at the test
# size (bare/) and at the default size (bare-default/)
workloads-stats: $(WL_BARE_ELFS) $(WL_DEFAULT_ELFS) $(BIN)/hpm-ref
	@printf '%-9s%29s%29s\n' workload 'test size: cycles instret CPI' 'default: cycles instret CPI'
	@for n in $(WL_NAMES); do \
	  line=$$(printf '%-9s' $$n); \
	  for f in bare bare-default; do \
	    out=$$($(BIN)/hpm-ref --elf $(WL_DIR)/$$f/$$n.elf --stats 2>&1 >/dev/null); rc=$$?; \
	    if [ $$rc -ne 0 ]; then line="$$line  $$f: FAIL (exit $$rc)"; continue; fi; \
	    line="$$line $$(echo "$$out" | sed -n 's/^hpm-stats: cycles=\([0-9]*\) instret=\([0-9]*\)/\1 \2/p' | \
	      awk '{ printf "%12d %9d %5.2f", $$1, $$2, $$1 / $$2 }')"; \
	  done; \
	  echo "$$line"; \
	done

-include $(wildcard $(WL_DIR)/obj/*.d)
