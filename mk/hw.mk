# hw.mk: RTL (hw/), the Verilator simulated board and synthesis. Owner: RTL.
#   make sim    -> build/bin/hpm-sim (needs $(REF_LIB) from ref.mk)
#   make lint   -> verilator --lint-only -Wall over all RTL (zero warnings)
#   make synth  -> build/synth/core.stat (yosys, hpm_core alone) and
#                  build/synth/soc.log (nextpnr-ice40 --up5k, Fmax)

HW_CORE_SRCS := $(wildcard hw/core/*.v)
HW_SOC_SRCS  := $(wildcard hw/soc/*.v)
HW_BOARD_SRCS := hw/board/icebreaker_top.v
HW_SIM_SRCS  := hw/sim/sim_main.cpp
HW_VDIR      := $(BUILD)/verilator
HW_SYNTH     := $(BUILD)/synth

VERILATOR       ?= verilator
HW_VERILATOR_FLAGS := --cc --exe -O3 --x-assign fast --x-initial fast --trace \
  --top-module hpm_soc -Mdir $(HW_VDIR) \
  -CFLAGS "-O2 -I$(abspath $(REF_DIR))" -LDFLAGS "$(abspath $(REF_LIB))"

.PHONY: sim lint synth

sim: $(BIN)/hpm-sim

$(BIN)/hpm-sim: $(HW_CORE_SRCS) $(HW_SOC_SRCS) $(HW_SIM_SRCS) $(REF_LIB) $(REF_DIR)/hpmref.h
	@mkdir -p $(@D) $(HW_VDIR)
	$(VERILATOR) $(HW_VERILATOR_FLAGS) $(HW_CORE_SRCS) $(HW_SOC_SRCS) $(abspath $(HW_SIM_SRCS))
	$(MAKE) -s -C $(HW_VDIR) -f Vhpm_soc.mk -j2 OPT_FAST=-O2 OPT_SLOW=-O1 Vhpm_soc
	cp $(HW_VDIR)/Vhpm_soc $@.tmp && mv -f $@.tmp $@

lint:
	$(VERILATOR) --lint-only -Wall --top-module hpm_soc $(HW_CORE_SRCS) $(HW_SOC_SRCS)
	$(VERILATOR) --lint-only -Wall --top-module icebreaker_top \
	  $(HW_BOARD_SRCS) $(HW_CORE_SRCS) $(HW_SOC_SRCS)

# ---- synthesis (yosys + nextpnr-ice40); the fw EBR is initialised from the
# monitor image of fw.mk
HW_FW_HEX := $(FW_MONITOR_HEX)

synth: $(HW_SYNTH)/core.stat $(HW_SYNTH)/soc.log

$(HW_SYNTH)/core.stat: $(HW_CORE_SRCS)
	@mkdir -p $(@D)
	yosys -q -l $(HW_SYNTH)/core.yosys.log -p "read_verilog $(HW_CORE_SRCS); \
	  synth_ice40 -dsp -top hpm_core; tee -o $@ stat"
	@grep -E 'SB_LUT4|SB_CARRY|SB_DFF|SB_RAM|SB_MAC|Number of cells' $@

$(HW_SYNTH)/soc.json: $(HW_CORE_SRCS) $(HW_SOC_SRCS) $(HW_BOARD_SRCS) $(HW_FW_HEX)
	@mkdir -p $(@D)
	yosys -q -l $(HW_SYNTH)/soc.yosys.log -p "read_verilog -DSYNTHESIS $(HW_BOARD_SRCS) \
	  $(HW_CORE_SRCS) $(HW_SOC_SRCS); \
	  chparam -set FW_HEX \"$(HW_FW_HEX)\" icebreaker_top; \
	  synth_ice40 -dsp -top icebreaker_top -json $@"

$(HW_SYNTH)/soc.log: $(HW_SYNTH)/soc.json constraints/icebreaker.pcf
	nextpnr-ice40 --up5k --package sg48 --freq 25 --timing-allow-fail --json $< \
	  --pcf constraints/icebreaker.pcf --asc $(HW_SYNTH)/soc.asc -l $@ -q
	@grep -E 'ICESTORM_LC|Max frequency' $@ | tail -n 4
