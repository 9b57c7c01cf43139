# bench.mk: make bench measures speed, CPI and FPGA area/Fmax and writes
# docs/BENCHMARKS.md (bench/bench.sh says how each figure was produced).

BENCH_BUILD := $(BUILD)/bench
BENCH_SPEED := $(BENCH_BUILD)/speed.elf
BENCH_LCOFI := $(BENCH_BUILD)/lcofi.elf

$(BENCH_BUILD)/%.o: bench/%.c bench/kernels.h $(FW_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@

$(BENCH_BUILD)/%.elf: $(BENCH_BUILD)/%.o $(FW_RT_OBJS) $(FW_RAM_LD)
	$(FW_CC) $(FW_LDFLAGS) -T $(FW_RAM_LD) -o $@ $(FW_RT_OBJS) $< $(FW_LIBS)

.PHONY: bench
bench: all sim-variants $(TEST_C_ELFS) $(BENCH_SPEED) $(BENCH_LCOFI) $(BENCH_CONFIGS) $(REF_BENCH_BIN) synth synth-hpm bitstream sim-gate test-build
	BUILD=$(BUILD) REF_BENCH=$(REF_BENCH_BIN) LCOFI_ELF=$(BENCH_LCOFI) DEEP_ELF=$(BENCH_DEEP) bench/bench.sh $(BENCH_SPEED) $(TEST_C_ELFS) \
	  > docs/BENCHMARKS.md.tmp
	mv docs/BENCHMARKS.md.tmp docs/BENCHMARKS.md
	@cat docs/BENCHMARKS.md


# bench_splice(new sections, sections replaced, anchor): docs/BENCHMARKS.md
# with the "## " sections whose titles match the alternatives of the second
# argument (an awk regex) left out and the new file's text (its blank lines
# at the start dropped) in place where the section titled by the third began
bench_splice = awk -v f=$(1) 'BEGIN { while ((getline l < f) > 0) if (new != "" || l != "") new = new l "\n" } \
	  /^\#\# / { skip = ($$0 ~ /^\#\# ($(2))/) } \
	  /^\#\# $(3)/ { print new } !skip { print }' docs/BENCHMARKS.md > docs/BENCHMARKS.md.tmp && \
	mv docs/BENCHMARKS.md.tmp docs/BENCHMARKS.md

# the FPGA sections alone (core and SoC area, the board build, HPM area):
# bench.sh --fpga, spliced into docs/BENCHMARKS.md in place of its FPGA
# sections (from "## FPGA" up to the next section that is not the board's or
# the HPM area's); the board build's report whether or not it meets the clock
.PHONY: bench-fpga
bench-fpga: synth synth-hpm $(BUILD)/icebreaker/report.txt sim-gate $(BIN)/hpm-sim
	@mkdir -p $(BENCH_BUILD)
	BUILD=$(BUILD) bench/bench.sh --fpga > $(BENCH_BUILD)/fpga.md
	$(call bench_splice,$(BENCH_BUILD)/fpga.md,FPGA|The board build|HPM area|HPM configurations,FPGA)

# the simulation speed section alone (bench.sh --sim: the simulated boards
# with and without counters, both counting architectures, and the reference
# model), spliced into docs/BENCHMARKS.md in place of its own
.PHONY: bench-sim
bench-sim: $(BIN)/hpm-sim $(BIN)/hpm-sim-0x64 $(BIN)/hpm-sim-v3 $(BIN)/hpm-ref $(BENCH_SPEED) $(REF_BENCH_BIN)
	@mkdir -p $(BENCH_BUILD)
	BUILD=$(BUILD) REF_BENCH=$(REF_BENCH_BIN) bench/bench.sh --sim $(BENCH_SPEED) > $(BENCH_BUILD)/sim.md
	$(call bench_splice,$(BENCH_BUILD)/sim.md,Simulation speed,Simulation speed)

# the board build per HPM configuration (bench/fpga-configs.sh: LC, FF,
# LUT4, EBR, DSP, Fmax of 0, 2, 8, 16, 29 x 64); make bench includes it, make bench-configs
# splices it into docs/BENCHMARKS.md alone (after the HPM area section)
BENCH_CONFIGS := $(BENCH_BUILD)/configs.md
$(BENCH_CONFIGS): $(HW_RTL_SRCS) $(HW_HPM_INCS) $(HW_BOARD_SRCS) $(EV_VH) $(BOARD_PCF) bench/fpga-configs.sh
	@mkdir -p $(@D)
	BUILD=$(BUILD) MAKE="$(MAKE)" bench/fpga-configs.sh > $@.tmp
	mv -f $@.tmp $@

.PHONY: bench-configs
bench-configs: $(BENCH_CONFIGS)
	awk -v f=$(BENCH_CONFIGS) 'BEGIN { while ((getline l < f) > 0) if (new != "" || l != "") new = new l "\n" } \
	  /^## / { if (skip == 2) { printf "%s\n", new; done = 1 } skip = ($$0 ~ /^## HPM configurations/) ? 1 : ($$0 ~ /^## HPM area/) ? 2 : 0 } \
	  skip != 1 { print } END { if (!done) printf "\n%s", new }' docs/BENCHMARKS.md > docs/BENCHMARKS.md.tmp
	mv docs/BENCHMARKS.md.tmp docs/BENCHMARKS.md

# the fault table alone (bench/faults.sh: exact / clear error / wrong / hang
# and goodput per fault rate through tests/link/faultproxy.c)
.PHONY: bench-faults
bench-faults: all test-build
	BUILD=$(BUILD) bench/faults.sh
