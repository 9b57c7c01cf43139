# board.mk: the FPGA board flow (docs/board.md). Owner: board.
#   make bitstream BOARD=icebreaker -> build/icebreaker/icebreaker.{json,asc,bin}
#       and build/icebreaker/report.txt (utilization, Fmax against the target
#       clock). yosys synth_ice40 -> nextpnr-ice40 (fixed --seed) ->
#       icebram (the firmware monitor $(FW_MONITOR_HEX) into the fw EBR) ->
#       icepack. Fails with one line when the target clock (CLOCK_HZ of
#       hw/board/icebreaker_top.v) is not met; then no .bin is written.
#       Incremental: the RTL reruns yosys + nextpnr, the monitor only icebram.
#   make prog BOARD=icebreaker      -> flashes the .bin (openFPGALoader -b
#       ice40_generic, the FT2232H channel A; PROG=iceprog for iceprog).
#       Without a board: one line, non-zero exit.
# Variables: BOARD (icebreaker, the only board), PROG (openfpgaloader |
#   iceprog), BOARD_SEEDS (nextpnr --seed values tried in order until one
#   meets the clock, "7 1 2 3": 7 first, the one that meets it on today's
#   netlist (docs/board.md); the report names the seed; a miss at one seed
#   costs one more nextpnr run, docs/board.md), BOARD_SEED=n (that seed
#   only), BOARD_HPM=<num>x<width> (another
#   HPM configuration than the top's default, into build/icebreaker/hpm-<n>x<w>/:
#   for measurements, docs/board.md).

BOARD       ?= icebreaker
PROG        ?= openfpgaloader
BOARD_SEEDS ?= 7 1 2 3
BOARD_SEED  ?=
board_seeds := $(or $(BOARD_SEED),$(BOARD_SEEDS))
BOARD_HPM   ?=

BOARD_TOP_V := hw/board/icebreaker_top.v
BOARD_PCF   := constraints/icebreaker.pcf
BOARD_DIR   := $(BUILD)/icebreaker$(if $(BOARD_HPM),/hpm-$(BOARD_HPM))
BOARD_NAME  := $(BOARD_DIR)/icebreaker
BOARD_BIN   := $(BOARD_NAME).bin
BOARD_REPORT := $(BOARD_DIR)/report.txt

# the target clock is the top's CLOCK_HZ (the PLL output; one source of truth)
board_param = $(shell sed -n 's/.*parameter integer $(1) *= *\([0-9]*\).*/\1/p' $(BOARD_TOP_V))
BOARD_CLOCK_HZ := $(call board_param,CLOCK_HZ)
BOARD_MHZ      := $(shell awk 'BEGIN { printf "%g", $(BOARD_CLOCK_HZ) / 1e6 }')

# Synthesis and place-and-route see a random placeholder image in the fw EBR;
# icebram swaps the monitor in afterwards, so a firmware change repacks the
# bitstream in seconds without re-running yosys and nextpnr.
BOARD_FW_PH := $(BUILD)/icebreaker/fw-placeholder.hex
BOARD_CHPARAM_HPM := \
  $(if $(BOARD_HPM),-set HPM_NUM $(call hw_num,$(BOARD_HPM)) -set HPM_WIDTH $(call hw_width,$(BOARD_HPM)))

.PHONY: bitstream prog

# any other BOARD: one line, before anything is built
ifneq ($(filter bitstream prog,$(MAKECMDGOALS)),)
ifneq ($(BOARD),icebreaker)
$(error make $(filter bitstream prog,$(MAKECMDGOALS)): BOARD=$(BOARD) is not supported (boards: icebreaker))
endif
endif

bitstream: $(BOARD_BIN)
	@cat $(BOARD_REPORT)

$(BOARD_FW_PH):
	@mkdir -p $(@D)
	@icebram -g -s 1 32 2048 > $@.tmp && mv -f $@.tmp $@

# ---- synthesis: yosys, the placeholder image in the fw EBR.
# No -dsp: that pass rewrites the hand-instantiated SB_MAC16 accumulators of
# the counters into unclocked multipliers (counters that never count on the
# chip, docs/board.md); the one multiplier is instantiated by hand too
# (hw/core/core_mul16.v). board_yosys(fw hex, log, write command)
board_yosys = yosys -q -l $(2) -p "read_verilog -DSYNTHESIS -I$(GEN) -Ihw/hpm -Ihw/core $(HW_BOARD_SRCS) $(HW_RTL_SRCS); \
	  chparam $(BOARD_CHPARAM_HPM) -set FW_HEX \"$(1)\" icebreaker_top; \
	  $(HW_SYNTH_ICE40) -top icebreaker_top; $(3)"

$(BOARD_NAME).json: $(HW_RTL_SRCS) $(HW_HPM_INCS) $(HW_BOARD_SRCS) $(EV_VH) $(BOARD_FW_PH)
	@mkdir -p $(@D)
	@echo "yosys synth_ice40 -> $@"
	@$(call board_yosys,$(BOARD_FW_PH),$(@D)/yosys.log,write_json $@.tmp; tee -q -o $(@D)/yosys-stat.txt stat) \
	  > /dev/null 2>&1 || { echo "make bitstream: yosys failed: $$(grep -m1 'ERROR' $(@D)/yosys.log) ($(@D)/yosys.log)" >&2; exit 1; }
	@mv -f $@.tmp $@

# the report (hw/board/board_report.py): nextpnr's and icetime's timing, the
# netlist's clocking, utilization
BOARD_REPORT_CMD = python3 hw/board/board_report.py --nextpnr $(BOARD_DIR)/nextpnr-report.json \
	  --log $(BOARD_DIR)/nextpnr.log --stat $(BOARD_DIR)/yosys-stat.txt --top $(BOARD_TOP_V) \
	  --netlist $(BOARD_NAME).json --icetime $(BOARD_DIR)/icetime.txt \
	  --hpm "$(BOARD_HPM)" --target-hz $(BOARD_CLOCK_HZ) --seed "$$(cat $(BOARD_DIR)/seed 2>/dev/null)"

# ---- place and route: nextpnr at each of the seeds in turn until the clock
# is met (nextpnr is deterministic for a netlist and a seed, so the build is
# reproducible; the seed that met is in $(BOARD_DIR)/seed and the report).
# The report is written whether or not the clock is met (for the last seed
# tried); when nextpnr fails (the design does not fit) the placed design is
# left empty. The check comes with the next step.
$(BOARD_NAME)-pnr.asc: $(BOARD_NAME).json $(BOARD_PCF)
	@rm -f $@ $(BOARD_REPORT) $(@D)/seed
	@for s in $(board_seeds); do \
	  echo "nextpnr-ice40 --up5k --package sg48 --freq $(BOARD_MHZ) --seed $$s -> $@"; \
	  rm -f $(@D)/nextpnr-report.json $(@D)/icetime.txt; echo $$s > $(@D)/seed; \
	  nextpnr-ice40 --up5k --package sg48 --pcf $(BOARD_PCF) --json $< --asc $@.tmp \
	    --freq $(BOARD_MHZ) --seed $$s --timing-allow-fail \
	    --report $(@D)/nextpnr-report.json -l $(@D)/nextpnr.log -q > /dev/null 2>&1; \
	  rc=$$?; \
	  if [ $$rc -eq 0 ]; then icetime -d up5k -t -r $(@D)/icetime.txt $@.tmp \
	    > $(@D)/icetime.log 2>&1; fi; \
	  $(BOARD_REPORT_CMD) > $(BOARD_REPORT).tmp && mv -f $(BOARD_REPORT).tmp $(BOARD_REPORT); \
	  if [ $$rc -ne 0 ]; then : > $@.tmp; break; fi; \
	  if grep -q '^timing  *met:' $(BOARD_REPORT); then break; fi; \
	done
	@mv -f $@.tmp $@

# the report again when only its script changed (nextpnr does not rerun)
$(BOARD_REPORT): $(BOARD_NAME)-pnr.asc hw/board/board_report.py
	@$(BOARD_REPORT_CMD) > $@.tmp
	@mv -f $@.tmp $@

# ---- the firmware into the placed design, and the bitstream, only when the
# target clock is met: a failing check (or a design that does not fit) stops
# make with one line, at recipe expansion, so no .asc/.bin is written
board_timing = $(shell sed -n 's/^timing  *//p' $(BOARD_REPORT))
$(BOARD_NAME).asc: $(BOARD_NAME)-pnr.asc $(BOARD_REPORT) $(BOARD_FW_PH) $(FW_MONITOR_HEX)
	$(if $(filter met:,$(firstword $(board_timing))),,$(error make bitstream: $(BOARD): $(or $(subst FAIL: ,,$(board_timing)),no report) (see $(BOARD_REPORT))))
	@icebram $(BOARD_FW_PH) $(FW_MONITOR_HEX) < $< > $@.tmp 2> $(@D)/icebram.log || \
	  { echo "make bitstream: icebram failed: $$(head -n 1 $(@D)/icebram.log)" >&2; exit 1; }
	@mv -f $@.tmp $@
	@echo "icebram $(FW_MONITOR_HEX) -> $@"

$(BOARD_BIN): $(BOARD_NAME).asc
	@icepack $< $@.tmp && mv -f $@.tmp $@
	@echo "icepack -> $@"

# ---- programming: one line whatever the tool says (its output in prog.log)
BOARD_PROG_CMD_openfpgaloader := openFPGALoader -b ice40_generic $(BOARD_BIN)
BOARD_PROG_CMD_iceprog        := iceprog $(BOARD_BIN)
BOARD_PROG_CMD := $(BOARD_PROG_CMD_$(PROG))
BOARD_PROG_LOG := $(BOARD_DIR)/prog.log
# the tool runs when the recipe is expanded; its status decides between
# $(info) and $(error) (one line either way, no make "Error" line)
board_prog_run = $(shell timeout 60 $(BOARD_PROG_CMD) > $(BOARD_PROG_LOG) 2>&1; echo $$?)
board_prog_why = $(shell { grep -iE 'not found|unable|can.t find|error|abort|fail' $(BOARD_PROG_LOG) || \
  grep . $(BOARD_PROG_LOG); } | tr -d '\r' | head -n 1 | cut -c1-160)

prog: $(BOARD_BIN)
	$(if $(BOARD_PROG_CMD),,$(error make prog: PROG=$(PROG) is not supported (openfpgaloader, iceprog)))
	$(eval board_prog_rc := $(board_prog_run))
	$(if $(filter 0,$(board_prog_rc)),$(info make prog: $(PROG): programmed $(BOARD_BIN)),$(if \
	  $(filter 124,$(board_prog_rc)),$(error make prog: $(PROG) timed out after 60 s (log $(BOARD_PROG_LOG))),$(if \
	  $(filter 127,$(board_prog_rc)),$(error make prog: $(word 1,$(BOARD_PROG_CMD)) is not installed),$(error \
	  make prog: no board programmed: $(PROG) exit $(board_prog_rc): $(board_prog_why) (log $(BOARD_PROG_LOG))))))
	@:

# ---- the gate-level board (docs/board.md, "Gate-level board"): the board's
# synthesised netlist as a simulated board, build/bin/hpm-sim-gate.
#   make sim-gate    -> the netlist of make bitstream, synthesised again with
#       the monitor in the fw EBR (what icebram puts into the bitstream),
#       checked equal to the placed netlist but for those INIT values
#       (hw/board/gate_check.py), its multi-bit nets split into single-bit
#       ones (yosys splitnets: a renaming, so Verilator sees no false
#       combinational loops through a vector), and Verilator over it with
#       yosys' iCE40 cell models but SB_LUT4 (hw/board/gate_lut.v, proven
#       equal to yosys' for each LUT_INIT of the netlist by
#       hw/board/gate_lut_proof.py) and a pass-through PLL (hw/board/gate_pll.v)
#   make hil-netlist -> hpmctl validate --all on it
BOARD_GATE_DIR := $(BOARD_DIR)/gate
BOARD_GATE_V   := $(BOARD_GATE_DIR)/icebreaker-gate-bits.v
BOARD_GATE_BIN := $(BIN)/hpm-sim-gate$(if $(BOARD_HPM),-$(BOARD_HPM))
BOARD_GATE_CELLS := $(BOARD_GATE_DIR)/cells_sim_gate.v
BOARD_UART_DIV := $(shell awk 'BEGIN { print int($(BOARD_CLOCK_HZ) / $(call board_param,UART_BAUD)) }')
BOARD_HPM_NUM   := $(if $(BOARD_HPM),$(call hw_num,$(BOARD_HPM)),$(call board_param,HPM_NUM))
BOARD_HPM_WIDTH := $(if $(BOARD_HPM),$(call hw_width,$(BOARD_HPM)),$(call board_param,HPM_WIDTH))

.PHONY: sim-gate hil-netlist

sim-gate: $(BOARD_GATE_BIN)

$(BOARD_GATE_V): $(BOARD_NAME).json $(FW_MONITOR_HEX) hw/board/gate_check.py
	@mkdir -p $(@D)
	@echo "yosys synth_ice40 (monitor in the fw EBR) -> $@"
	@$(call board_yosys,$(FW_MONITOR_HEX),$(@D)/yosys.log,write_json $(@D)/icebreaker-gate.json) \
	  > /dev/null 2>&1 || { echo "make sim-gate: yosys failed: $$(grep -m1 'ERROR' $(@D)/yosys.log) ($(@D)/yosys.log)" >&2; exit 1; }
	@# both netlists through the same writer, so equal netlists are equal text
	@yosys -q -p "read_json $<; write_verilog -noattr $(@D)/placed.v" > /dev/null
	@yosys -q -p "read_json $(@D)/icebreaker-gate.json; write_verilog -noattr $(@D)/gate.v" > /dev/null
	@python3 hw/board/gate_check.py $(@D)/placed.v $(@D)/gate.v
	@yosys -q -p "read_json $(@D)/icebreaker-gate.json; splitnets; write_verilog -noattr $@.tmp" > /dev/null
	@mv -f $@.tmp $@

# yosys' iCE40 models without the PLL black box (hw/board/gate_pll.v
# instead) and without SB_LUT4 (hw/board/gate_lut.v instead)
$(BOARD_GATE_CELLS):
	@mkdir -p $(@D)
	@awk '/^module (SB_PLL40_PAD|SB_LUT4) \(/ { skip = 1 } !skip { print } skip && /^endmodule/ { skip = 0 }' \
	  $(YOSYS_DATDIR)/ice40/cells_sim.v > $@.tmp && mv -f $@.tmp $@

# hw/board/gate_lut.v = yosys' SB_LUT4 for every LUT_INIT of the netlist
BOARD_GATE_LUT_PROOF := $(BOARD_GATE_DIR)/lut-proof.txt
$(BOARD_GATE_LUT_PROOF): $(BOARD_GATE_V) hw/board/gate_lut.v hw/board/gate_lut_proof.py
	@python3 hw/board/gate_lut_proof.py $(BOARD_GATE_V) $(YOSYS_DATDIR)/ice40/cells_sim.v \
	  hw/board/gate_lut.v $(@D) > $@.tmp || { cat $@.tmp >&2; exit 1; }
	@cat $@.tmp
	@mv -f $@.tmp $@

BOARD_GATE_VFLAGS := --cc --exe -O3 --x-assign fast --x-initial fast \
  --top-module icebreaker_top -DNO_ICE40_DEFAULT_ASSIGNMENTS -DICE40_U \
  -Wno-TIMESCALEMOD -Wno-UNOPTFLAT -Wno-lint -Wno-style \
  -CFLAGS "-O1 -DGATE_UART_DIV=$(BOARD_UART_DIV) -DHPM_NUM=$(BOARD_HPM_NUM) -DHPM_WIDTH=$(BOARD_HPM_WIDTH) -I$(abspath hw/sim)"

$(BOARD_GATE_BIN): $(BOARD_GATE_V) $(BOARD_GATE_CELLS) $(BOARD_GATE_LUT_PROOF) hw/board/gate_lut.v hw/board/gate_pll.v \
  hw/sim/gate_main.cpp hw/sim/uart_bridge.h
	@mkdir -p $(@D) $(BOARD_GATE_DIR)/obj
	@echo "verilator (gate-level board, UART /$(BOARD_UART_DIV), HPM $(BOARD_HPM_NUM)x$(BOARD_HPM_WIDTH)) -> $@"
	@$(VERILATOR) $(BOARD_GATE_VFLAGS) -Mdir $(BOARD_GATE_DIR)/obj $(BOARD_GATE_V) $(BOARD_GATE_CELLS) \
	  hw/board/gate_lut.v hw/board/gate_pll.v $(abspath hw/sim/gate_main.cpp) > $(BOARD_GATE_DIR)/verilator.log 2>&1 || \
	  { echo "make sim-gate: verilator failed: $$(grep -m1 '%Error' $(BOARD_GATE_DIR)/verilator.log)" >&2; exit 1; }
	@$(MAKE) -s -C $(BOARD_GATE_DIR)/obj -f Vicebreaker_top.mk -j2 OPT_FAST=-O1 OPT_SLOW=-O1 Vicebreaker_top > $(BOARD_GATE_DIR)/cc.log 2>&1 || \
	  { echo "make sim-gate: C++ build failed ($(BOARD_GATE_DIR)/cc.log)" >&2; exit 1; }
	@cp $(BOARD_GATE_DIR)/obj/Vicebreaker_top $@.tmp && mv -f $@.tmp $@

hil-netlist: $(BOARD_GATE_BIN) all
	HPM_SIM=$(BOARD_GATE_BIN) $(BIN)/hpmctl --link sim validate --all

# ---- the DSP counters alone (hw/board/dsp_counter_bank.v, every width split)
# through the board's synthesis, for the board suite's netlist simulation
.PHONY: board-dsp-netlist
board-dsp-netlist: $(BUILD)/icebreaker/dsp_counter_bank.v

$(BUILD)/icebreaker/dsp_counter_bank.v: hw/hpm/hpm_counter.v hw/board/dsp_counter_bank.v hw/board/dsp_widths.vh
	@mkdir -p $(@D)
	@yosys -q -l $(@D)/dsp_counter_bank.log -p "read_verilog -DSYNTHESIS -Ihw/board hw/hpm/hpm_counter.v \
	  hw/board/dsp_counter_bank.v; $(HW_SYNTH_ICE40) -top dsp_counter_bank; write_verilog -noattr $@.tmp" > /dev/null
	@mv -f $@.tmp $@
	@echo "yosys $(HW_SYNTH_ICE40) (board flow) -> $@"

# ---- core_muldiv alone (its SB_MAC16 multiplier) through the board's
# synthesis, for the board suite's netlist simulation (hw/board/tb_muldiv_netlist.v)
.PHONY: board-muldiv-netlist
board-muldiv-netlist: $(BUILD)/icebreaker/core_muldiv.v

$(BUILD)/icebreaker/core_muldiv.v: hw/core/core_mul16.v hw/core/core_muldiv.v
	@mkdir -p $(@D)
	@yosys -q -l $(@D)/core_muldiv.log -p "read_verilog -DSYNTHESIS hw/core/core_mul16.v hw/core/core_muldiv.v; \
	  $(HW_SYNTH_ICE40) -top core_muldiv; write_verilog -noattr $@.tmp" > /dev/null
	@mv -f $@.tmp $@
	@echo "yosys $(HW_SYNTH_ICE40) (board flow) -> $@"
