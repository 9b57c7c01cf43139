# hw.mk: RTL (hw/), the Verilator simulated board and synthesis. Owner: RTL.
#   make sim          -> build/bin/hpm-sim (HPM_NUM x HPM_WIDTH = 29 x 64; needs
#                        $(REF_LIB) from ref.mk) and build/bin/hpm-sim-trace,
#                        the same board built with VCD support (hpm-sim
#                        --trace runs it)
#   make sim-variants -> build/bin/hpm-sim-<num>x<width> for $(HW_SIM_VARIANTS)
#   make lint         -> verilator --lint-only -Wall over all RTL, every HPM
#                        configuration built here (zero warnings)
#   make synth        -> build/synth/core.stat (yosys, hpm_core alone) and
#                        build/synth/soc.log (nextpnr-ice40 --up5k, Fmax)
#   make synth-hpm    -> build/synth/hpm-{unit,cpu}-<num>x<width>.stat and
#                        build/synth/hpm-area.txt (HPM area per configuration)
#   make synth-modules -> build/synth/modules-<num>x<width>.txt: the board
#                        top synthesised as the board flow does but with the
#                        hierarchy kept (-noflatten), LUT4/CARRY/FF per module
#                        (SYNTH_HPM=<num>x<width>, default 0x32)
#   make alu-equiv    -> yosys sat: core_alu's word-level form (the simulated
#                        board) equals its SB_LUT4 form (the chip) for every input
#   make counter-equiv -> yosys equiv_induct: hpm_counter (64 bits, DSP and
#                        flip-flop forms) synthesised by the board flow equals
#                        its RTL cycle by cycle; a flipped LUT INIT fails

HW_CORE_SRCS := $(wildcard hw/core/*.v)
HW_HPM_SRCS  := $(wildcard hw/hpm/*.v)
HW_HPM_INCS  := $(wildcard hw/hpm/*.vh hw/core/*.vh)   # `include "hpm_classes.vh" (-Ihw/hpm -Ihw/core)
HW_SOC_SRCS  := $(wildcard hw/soc/*.v)
HW_RTL_SRCS  := $(HW_CORE_SRCS) $(HW_HPM_SRCS) $(HW_SOC_SRCS)
HW_BOARD_SRCS := hw/board/icebreaker_top.v
# port-compatible iCE40 primitives (the PLL) for lint only, never synthesised
HW_BOARD_LINT_SRCS := hw/board/ice40_lint_cells.v
HW_SIM_SRCS  := hw/sim/sim_main.cpp
HW_VDIR      := $(BUILD)/verilator
HW_SYNTH     := $(BUILD)/synth

# HPM configurations <num>x<width> of the test variants: widths 1, 8, 40 and
# counts 0, 1, 29 next to the default 29 x 64 (each build costs ~1 min)
HW_SIM_VARIANTS := 0x64 1x40 29x1 29x8
HW_SIM_VARIANT_BINS := $(patsubst %,$(BIN)/hpm-sim-%,$(HW_SIM_VARIANTS)) \
  $(BIN)/hpm-sim-v3 $(BIN)/hpm-sim-v3-10x64

# Counting architecture of the simulated board and its variants: 2, not the
# RTL's default 3 (the board's, hpm_unit): the same semantics, and Verilator
# runs it about 4 times faster (docs/hpm.md, docs/BENCHMARKS.md). hpm-sim-v3
# is the 29 x 64 board with architecture 3, kept tested (tests/run.sh hpm);
# hpm-sim-v3-10x64 is architecture 3 with 7-bit low parts (used up to 14
# counters). Each architecture 3 build reads the refill's event bits as the
# board does at its size (icebreaker_top): hpm-sim-v3 from the logic decoder
# (EV_ROM = 0), hpm-sim-v3-10x64 from the ROM.
HW_SIM_ARCH := 2
# The top-down unit (hw/hpm/hpm_topdown.v, docs/hpm.md): on the simulated
# board and its 29 x 64 / test variants (HPM_TD = 1, and the lockstep model
# with it). The iCE40 board, its gate-level board and hpm-sim-v3 (the
# board's form) have the board's two top-down counts instead (HPM_TD = 2);
# hpm-sim-v3-10x64 has neither (hpm_soc's default HPM_TD = 0).
HW_SIM_TD := -GHPM_TD=1 -CFLAGS -DHPM_TD=1
HW_BOARD_TD := -GHPM_TD=2 -CFLAGS -DHPM_TD=2

hw_num   = $(word 1,$(subst x, ,$(1)))
hw_width = $(word 2,$(subst x, ,$(1)))

VERILATOR       ?= verilator
# The simulated boards are built without --trace (it keeps every signal and
# costs ~8 % of the speed even with no VCD open); hpm-sim-trace is the
# default board with it, which hpm-sim --trace runs instead (sim_main.cpp).
# clang++ (with llvm-profdata) when present: its code runs the model ~12 %
# faster than g++'s. Either compiler builds hpm-sim and hpm-sim-0x64 twice
# (hw_verilate), the second time guided by a profile of the first running the
# firmware monitor until its
# UART idles (~1 M cycles, no input): another ~8 %, for any program (the
# model's code is the same whatever it runs). No -march: the binaries run on
# any x86-64. -fno-inline keeps each module's logic in functions of its own
# instead of flattening the hierarchy into the top's: the board runs about
# 15 % faster (docs/BENCHMARKS.md), and a profile names the module.
HW_SIM_CLANG := $(and $(shell command -v clang++),$(shell command -v llvm-profdata))
HW_SIM_CXX   := $(if $(HW_SIM_CLANG),clang++,$(CXX))
HW_PGO_GEN   := $(if $(HW_SIM_CLANG),-fprofile-instr-generate,-fprofile-generate)
HW_PGO_USE   := $(if $(HW_SIM_CLANG),-fprofile-instr-use=pgo.profdata,-fprofile-use -fprofile-correction -Wno-missing-profile)
HW_PGO_MERGE := $(if $(HW_SIM_CLANG),llvm-profdata merge -o pgo.profdata pgo.profraw,true)
HW_VERILATOR_FLAGS := --cc --exe -O3 -fno-inline --x-assign fast --x-initial fast \
  --top-module hpm_soc -I$(GEN) -Ihw/hpm -Ihw/core \
  -CFLAGS "-O2 -I$(abspath $(REF_DIR)) -I$(abspath hw/hpm) -I$(abspath $(GEN))" -LDFLAGS "$(abspath $(REF_LIB))"

.PHONY: sim sim-variants lint synth synth-hpm synth-modules alu-equiv counter-equiv

sim: $(BIN)/hpm-sim $(BIN)/hpm-sim-trace
sim-variants: $(HW_SIM_VARIANT_BINS)

HW_SIM_DEPS := $(HW_RTL_SRCS) $(HW_HPM_INCS) $(EV_VH) $(EV_H) $(EV_DEF) $(HW_SIM_SRCS) $(REF_LIB) $(REF_DIR)/hpmref.h
# the profile run's program (hw_verilate); its changes need no rebuild
HW_SIM_DEPS += | $(FW_MONITOR_ELF)

# hw_verilate(binary, mdir, num, width, arch[, extra verilator flags[, pgo]])
# With pgo (hpm-sim, the board everyone runs, and hpm-sim-0x64, its
# comparison in make bench) an instrumented build runs the monitor first and
# the real build uses its profile; the other boards, test variants, are
# built once (a second compile each would add minutes to make test).
define hw_verilate
	@mkdir -p $(dir $(1)) $(2)
	$(VERILATOR) $(HW_VERILATOR_FLAGS) $(6) -Mdir $(2) -GHPM_NUM=$(3) -GHPM_WIDTH=$(4) -GHPM_ARCH=$(5) \
	  -CFLAGS "-DHPM_NUM=$(3) -DHPM_WIDTH=$(4)" $(HW_RTL_SRCS) $(abspath $(HW_SIM_SRCS))
	rm -f $(2)/Vhpm_soc $(2)/*.o $(2)/*.a $(2)/*.gcda $(2)/pgo.*
	$(if $(7),$(MAKE) -s -C $(2) -f Vhpm_soc.mk -j2 CXX=$(HW_SIM_CXX) LINK=$(HW_SIM_CXX) \
	  OPT_FAST="-O2 $(HW_PGO_GEN)" OPT_SLOW="-O1 $(HW_PGO_GEN)" OPT_GLOBAL="-O2 $(HW_PGO_GEN)" \
	  USER_LDFLAGS="$(HW_PGO_GEN)" Vhpm_soc)
	$(if $(7),cd $(2) && LLVM_PROFILE_FILE=pgo.profraw ./Vhpm_soc --fw $(abspath $(FW_MONITOR_ELF)) < /dev/null > /dev/null)
	$(if $(7),cd $(2) && $(HW_PGO_MERGE) && rm -f Vhpm_soc *.o *.a)
	$(MAKE) -s -C $(2) -f Vhpm_soc.mk -j2 CXX=$(HW_SIM_CXX) LINK=$(HW_SIM_CXX) \
	  OPT_FAST="-O2 $(if $(7),$(HW_PGO_USE))" OPT_SLOW="-O1 $(if $(7),$(HW_PGO_USE))" \
	  OPT_GLOBAL="-O2 $(if $(7),$(HW_PGO_USE))" Vhpm_soc
	cp $(2)/Vhpm_soc $(1).tmp && mv -f $(1).tmp $(1)
endef

$(BIN)/hpm-sim: $(HW_SIM_DEPS)
	$(call hw_verilate,$@,$(HW_VDIR),29,64,$(HW_SIM_ARCH),$(HW_SIM_TD),pgo)

$(BIN)/hpm-sim-trace: $(HW_SIM_DEPS)
	$(call hw_verilate,$@,$(HW_VDIR)-trace,29,64,$(HW_SIM_ARCH),--trace $(HW_SIM_TD))

$(BIN)/hpm-sim-v3: $(HW_SIM_DEPS)
	$(call hw_verilate,$@,$(HW_VDIR)-v3,29,64,3,-GHPM_EV_ROM=0 $(HW_BOARD_TD))

$(BIN)/hpm-sim-v3-10x64: $(HW_SIM_DEPS)
	$(call hw_verilate,$@,$(HW_VDIR)-v3-10x64,10,64,3)

$(BIN)/hpm-sim-%: $(HW_SIM_DEPS)
	$(call hw_verilate,$@,$(HW_VDIR)-$*,$(call hw_num,$*),$(call hw_width,$*),$(HW_SIM_ARCH),$(HW_SIM_TD),$(filter 0x64,$*))

HW_LINT := $(VERILATOR) --lint-only -Wall -I$(GEN) -Ihw/hpm -Ihw/core
lint: $(EV_VH)
	@set -e; for a in 2 3; do \
	  echo "lint hpm_soc HPM 29x64 arch $$a"; \
	  $(HW_LINT) --top-module hpm_soc -GHPM_ARCH=$$a $(HW_RTL_SRCS); \
	  echo "lint hpm_soc HPM 29x64 arch $$a, top-down unit"; \
	  $(HW_LINT) --top-module hpm_soc -GHPM_ARCH=$$a -GHPM_TD=1 $(HW_RTL_SRCS); \
	  echo "lint hpm_soc HPM 29x64 arch $$a, the board's top-down counts"; \
	  $(HW_LINT) --top-module hpm_soc -GHPM_ARCH=$$a -GHPM_TD=2 $(HW_RTL_SRCS); \
	  for v in $(HW_SIM_VARIANTS); do \
	    echo "lint hpm_soc HPM $$v arch $$a"; \
	    $(HW_LINT) --top-module hpm_soc -GHPM_NUM=$${v%x*} -GHPM_WIDTH=$${v#*x} -GHPM_ARCH=$$a $(HW_RTL_SRCS); \
	  done; \
	done
	@echo "lint hpm_soc HPM 29x64 arch 3, refill events in logic"
	@$(HW_LINT) --top-module hpm_soc -GHPM_ARCH=3 -GHPM_EV_ROM=0 $(HW_RTL_SRCS)
	@echo "lint hpm_soc HPM 10x64 arch 3 (7-bit low parts)"
	@$(HW_LINT) --top-module hpm_soc -GHPM_NUM=10 -GHPM_ARCH=3 $(HW_RTL_SRCS)
	$(HW_LINT) --top-module icebreaker_top $(HW_BOARD_SRCS) $(HW_BOARD_LINT_SRCS) $(HW_RTL_SRCS)

# ---- synthesis (yosys + nextpnr-ice40); the fw EBR is initialised from the
# monitor image of fw.mk. Never -dsp: yosys' DSP pass rewrites the SB_MAC16
# accumulators that the RTL instantiates (hpm_counter) into unclocked
# multipliers; the RTL instantiates every DSP itself (docs/board.md).
HW_SYNTH_ICE40 := synth_ice40
# yosys' data (the iCE40 simulation models): yosys-config is in yosys-dev
YOSYS_DATDIR := $(abspath $(dir $(shell command -v yosys))../share/yosys)
HW_FW_HEX := $(FW_MONITOR_HEX)
HW_EV_W    = $$(sed -n 's/.*HPM_EV_BUS_W = \([0-9]*\);.*/\1/p' $(EV_VH))

synth: $(HW_SYNTH)/core.stat $(HW_SYNTH)/soc.log

alu-equiv:
	@mkdir -p $(HW_SYNTH)
	@yosys -q -l $(HW_SYNTH)/alu-equiv.log hw/board/alu_equiv.ys > /dev/null 2>&1 || \
	  { echo "alu-equiv: core_alu's simulated and chip forms differ ($(HW_SYNTH)/alu-equiv.log)" >&2; exit 1; }
	@echo "alu-equiv: core_alu's two forms are equal for every input"

counter-equiv:
	@hw/board/counter_equiv.sh $(BUILD)/icebreaker/counter-equiv $(YOSYS_DATDIR) "$(HW_SYNTH_ICE40)"

$(HW_SYNTH)/core.stat: $(HW_CORE_SRCS) $(EV_VH)
	@mkdir -p $(@D)
	yosys -q -l $(HW_SYNTH)/core.yosys.log -p "read_verilog -DSYNTHESIS -I$(GEN) $(HW_CORE_SRCS); \
	  chparam -set EV_W $(HW_EV_W) hpm_core; \
	  $(HW_SYNTH_ICE40) -top hpm_core; tee -o $@ stat"
	@grep -E 'SB_LUT4|SB_CARRY|SB_DFF|SB_RAM|SB_MAC|Number of cells' $@

$(HW_SYNTH)/soc.json: $(HW_RTL_SRCS) $(HW_HPM_INCS) $(EV_VH) $(HW_BOARD_SRCS) $(HW_FW_HEX)
	@mkdir -p $(@D)
	yosys -q -l $(HW_SYNTH)/soc.yosys.log -p "read_verilog -DSYNTHESIS -I$(GEN) -Ihw/hpm -Ihw/core $(HW_BOARD_SRCS) \
	  $(HW_RTL_SRCS); \
	  chparam -set FW_HEX \"$(HW_FW_HEX)\" icebreaker_top; \
	  $(HW_SYNTH_ICE40) -top icebreaker_top -json $@"

$(HW_SYNTH)/soc.log: $(HW_SYNTH)/soc.json constraints/icebreaker.pcf
	nextpnr-ice40 --up5k --package sg48 --freq 25 --timing-allow-fail --json $< \
	  --pcf constraints/icebreaker.pcf --asc $(HW_SYNTH)/soc.asc -l $@ -q
	@grep -E 'ICESTORM_LC|Max frequency' $@ | tail -n 4

# ---- HPM area: hpm_unit alone and hpm_cpu (core + HPM) per <num>x<width>
HW_HPM_CONFIGS := 29x64 29x40 29x32 8x64 4x32 0x64
HW_HPM_STATS := $(foreach c,$(HW_HPM_CONFIGS),$(HW_SYNTH)/hpm-unit-$(c).stat $(HW_SYNTH)/hpm-cpu-$(c).stat)

synth-hpm: $(HW_SYNTH)/hpm-area.txt
	@cat $<

$(HW_SYNTH)/hpm-unit-%.stat: $(HW_HPM_SRCS) $(HW_HPM_INCS) $(EV_VH)
	@mkdir -p $(@D)
	yosys -q -l $(@:.stat=.log) -p "read_verilog -DSYNTHESIS -I$(GEN) -Ihw/hpm -Ihw/core $(HW_HPM_SRCS); \
	  chparam -set HPM_NUM $(call hw_num,$*) -set HPM_WIDTH $(call hw_width,$*) \
	    -set EV_W $(HW_EV_W) hpm_unit; \
	  $(HW_SYNTH_ICE40) -top hpm_unit; tee -o $@ stat"

$(HW_SYNTH)/hpm-cpu-%.stat: $(HW_CORE_SRCS) $(HW_HPM_SRCS) $(HW_HPM_INCS) hw/soc/hpm_cpu.v $(EV_VH)
	@mkdir -p $(@D)
	yosys -q -l $(@:.stat=.log) -p "read_verilog -DSYNTHESIS -I$(GEN) -Ihw/hpm -Ihw/core $(HW_CORE_SRCS) $(HW_HPM_SRCS) \
	  hw/soc/hpm_cpu.v; \
	  chparam -set HPM_NUM $(call hw_num,$*) -set HPM_WIDTH $(call hw_width,$*) hpm_cpu; \
	  $(HW_SYNTH_ICE40) -top hpm_cpu; tee -o $@ stat"

# one line per configuration: SB_LUT4, SB_CARRY, flip-flops (all SB_DFF*)
$(HW_SYNTH)/hpm-area.txt: $(HW_HPM_STATS)
	@{ printf '%-8s %-5s %8s %8s %8s\n' config top LUT4 CARRY FF; \
	  for c in $(HW_HPM_CONFIGS); do for t in unit cpu; do \
	    f=$(HW_SYNTH)/hpm-$$t-$$c.stat; \
	    printf '%-8s %-5s %8s %8s %8s\n' $$c $$t \
	      "$$(awk '$$1 == "SB_LUT4" { print $$2 }' $$f)" \
	      "$$(awk '$$1 == "SB_CARRY" { print $$2 }' $$f)" \
	      "$$(awk '$$1 ~ /^SB_DFF/ { n += $$2 } END { print n + 0 }' $$f)"; \
	  done; done; } > $@

# ---- per-module area of the board build (hw/board/module_area.py): the
# board's yosys flow with -noflatten, the firmware EBR left empty (its image
# does not change the logic). Each module's own cells, per module type.
SYNTH_HPM ?= 0x32
HW_MOD_STAT := $(HW_SYNTH)/modules-$(SYNTH_HPM).stat

synth-modules: $(HW_SYNTH)/modules-$(SYNTH_HPM).txt
	@cat $<

$(HW_MOD_STAT): $(HW_RTL_SRCS) $(HW_BOARD_SRCS) $(EV_VH)
	@mkdir -p $(@D)
	yosys -q -l $(@:.stat=.log) -p "read_verilog -DSYNTHESIS -I$(GEN) $(HW_BOARD_SRCS) $(HW_RTL_SRCS); \
	  chparam -set HPM_NUM $(call hw_num,$(SYNTH_HPM)) -set HPM_WIDTH $(call hw_width,$(SYNTH_HPM)) icebreaker_top; \
	  $(HW_SYNTH_ICE40) -noflatten -top icebreaker_top; tee -q -o $@ stat"

$(HW_SYNTH)/modules-$(SYNTH_HPM).txt: $(HW_MOD_STAT) hw/board/module_area.py
	python3 hw/board/module_area.py $< > $@.tmp && mv -f $@.tmp $@

# A deliberately wrong board for validate's negative test: the RTL built with
# an event include in which 'loads' and 'stores' trade bus positions, while
# the monitor reports the true catalogue hash. It counts stores under the
# 'loads' selector, so hpmctl validate must report a mismatch on loads.
SIM_FAULT := $(BIN)/hpm-sim-fault
$(BUILD)/gen-fault/hpm_events.vh: $(EVGEN) $(EV_VH)
	@mkdir -p $(@D)
	$(EVGEN) --swap loads:stores vh > $@.tmp && mv $@.tmp $@
$(SIM_FAULT): $(BUILD)/gen-fault/hpm_events.vh $(HW_SIM_DEPS)
	@mkdir -p $(@D) $(HW_VDIR)-fault
	$(VERILATOR) -I$(BUILD)/gen-fault $(HW_VERILATOR_FLAGS) -Mdir $(HW_VDIR)-fault -GHPM_NUM=29 -GHPM_WIDTH=64 -GHPM_ARCH=$(HW_SIM_ARCH) \
	  -CFLAGS "-DHPM_NUM=29 -DHPM_WIDTH=64" $(HW_RTL_SRCS) $(abspath $(HW_SIM_SRCS))
	rm -f $(HW_VDIR)-fault/Vhpm_soc
	$(MAKE) -s -C $(HW_VDIR)-fault -f Vhpm_soc.mk -j2 CXX=$(HW_SIM_CXX) LINK=$(HW_SIM_CXX) \
	  OPT_FAST=-O2 OPT_SLOW=-O1 Vhpm_soc
	cp $(HW_VDIR)-fault/Vhpm_soc $@.tmp && mv -f $@.tmp $@
test-build: $(SIM_FAULT)
