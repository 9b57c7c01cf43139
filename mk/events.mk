# events.mk: the catalogues generate the RTL includes, the C headers, the perf
# JSON and the generated docs (tools/evgen.c):
#   hw/hpm/events.def   events, top-down hierarchy, stat's metrics
#   hw/csr.def          CSR numbers, write masks, fields
#   hw/soc/memmap.def   regions, device registers, the SoC's clock and UART divisor
#   $(EV_VH)  build/gen/hpm_events.vh     (RTL: `include "hpm_events.vh", localparams)
#   $(MAP_VH) build/gen/hpm_map.vh        (RTL: `include "hpm_map.vh", `defines)
#   $(EV_H)   build/gen/hpm_events.h      (firmware, host, model; #define only)
#   $(MAP_H)  build/gen/hpm_map.h         (firmware, tests, host, model; #define only)
#   $(EV_JSON) $(EV_METRICS) $(EV_MAPFILE)  perf pmu-events
# Anything that needs $(EV_VH) or $(EV_H) gets the map headers with them.
# docs/events.md and docs/csr.md are generated, docs/memory-map.md has
# generated sections; `make events-check` fails when one of them is stale.

EV_DEF     := hw/hpm/events.def
MAP_DEFS   := hw/csr.def hw/soc/memmap.def
GEN        := $(BUILD)/gen
EVGEN      := $(BUILD)/tools/evgen
EV_VH      := $(GEN)/hpm_events.vh
EV_H       := $(GEN)/hpm_events.h
MAP_VH     := $(GEN)/hpm_map.vh
MAP_H      := $(GEN)/hpm_map.h
EV_JSON    := $(GEN)/pmu-events/hpm-overlay/core.json
EV_METRICS := $(GEN)/pmu-events/hpm-overlay/metrics.json
EV_MAPFILE := $(GEN)/pmu-events/mapfile.csv
# where the generated headers and the catalogues are found
MAP_INC    := -I$(GEN) -Ihw -Ihw/soc -Ihw/hpm
SPLICED_DOCS := docs/memory-map.md

.PHONY: events events-check isa-gen-check
events: $(EV_VH) $(EV_H) $(MAP_VH) $(MAP_H) $(EV_JSON) $(EV_METRICS) $(EV_MAPFILE)

$(EVGEN): tools/evgen.c $(EV_DEF) $(MAP_DEFS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Ihw/hpm -Ihw -Ihw/soc -o $@ $<

# evgen_rule(output, evgen arguments)
define evgen_rule
$(1): $(EVGEN)
	@mkdir -p $$(@D)
	$(EVGEN) $(2) > $$@.tmp && mv $$@.tmp $$@
endef
$(eval $(call evgen_rule,$(MAP_VH),map-vh))
$(eval $(call evgen_rule,$(MAP_H),map-h))
$(eval $(call evgen_rule,$(EV_JSON),json))
$(eval $(call evgen_rule,$(EV_METRICS),metrics))
$(eval $(call evgen_rule,$(EV_MAPFILE),mapfile))
$(EV_VH): $(EVGEN) $(MAP_VH)
	@mkdir -p $(@D)
	$(EVGEN) vh > $@.tmp && mv $@.tmp $@
$(EV_H): $(EVGEN) $(MAP_H)
	@mkdir -p $(@D)
	$(EVGEN) h > $@.tmp && mv $@.tmp $@

docs/events.md: $(EVGEN)
	$(EVGEN) md > $@
docs/csr.md: $(EVGEN)
	$(EVGEN) csr-md > $@
docs/memory-map.md: $(EVGEN)
	$(EVGEN) splice $@ > $@.tmp && mv $@.tmp $@

events-check: $(EVGEN)
	@$(EVGEN) md | diff -q - docs/events.md >/dev/null || \
	  { echo "docs/events.md is stale: run 'make docs/events.md'" >&2; exit 1; }
	@$(EVGEN) csr-md | diff -q - docs/csr.md >/dev/null || \
	  { echo "docs/csr.md is stale: run 'make docs/csr.md'" >&2; exit 1; }
	@for d in $(SPLICED_DOCS); do $(EVGEN) splice $$d | diff -q - $$d >/dev/null || \
	  { echo "$$d is stale: run 'make $$d'" >&2; exit 1; }; done

# The committed ISA tests written by tests/isa/gen_arith.py.
ISA_GEN := tests/isa/alu.S tests/isa/muldiv.S
isa-gen-check:
	@rm -rf $(BUILD)/isa-gen && mkdir -p $(BUILD)/isa-gen
	@cd $(BUILD)/isa-gen && python3 $(abspath tests/isa/gen_arith.py)
	@for f in $(ISA_GEN); do diff -q $(BUILD)/isa-gen/$$(basename $$f) $$f >/dev/null || \
	  { echo "$$f is stale: run 'cd tests/isa && python3 gen_arith.py'" >&2; exit 1; }; done

# the perf event and metric JSON, checked by the cli suite
test-build: $(EV_JSON) $(EV_METRICS)
