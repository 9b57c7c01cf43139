# events.mk: the event catalogue (hw/hpm/events.def) generates the Verilog
# include, the C header, the perf JSON and mapfile row, and docs/events.md.
#   $(EV_VH)  build/gen/hpm_events.vh     (RTL: `include "hpm_events.vh")
#   $(EV_H)   build/gen/hpm_events.h      (firmware, host, reference model)
#   $(EV_JSON) $(EV_MAPFILE)              perf pmu-events
# docs/events.md is committed; `make events-check` fails when it is stale.

EV_DEF     := hw/hpm/events.def
GEN        := $(BUILD)/gen
EVGEN      := $(BUILD)/tools/evgen
EV_VH      := $(GEN)/hpm_events.vh
EV_H       := $(GEN)/hpm_events.h
EV_JSON    := $(GEN)/pmu-events/hpm-overlay/core.json
EV_MAPFILE := $(GEN)/pmu-events/mapfile.csv

.PHONY: events events-check
events: $(EV_VH) $(EV_H) $(EV_JSON) $(EV_MAPFILE)

$(EVGEN): tools/evgen.c $(EV_DEF)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Ihw/hpm -o $@ $<

$(EV_VH): $(EVGEN)
	@mkdir -p $(@D)
	$(EVGEN) vh > $@.tmp && mv $@.tmp $@
$(EV_H): $(EVGEN)
	@mkdir -p $(@D)
	$(EVGEN) h > $@.tmp && mv $@.tmp $@
$(EV_JSON): $(EVGEN)
	@mkdir -p $(@D)
	$(EVGEN) json > $@.tmp && mv $@.tmp $@
$(EV_MAPFILE): $(EVGEN)
	@mkdir -p $(@D)
	$(EVGEN) mapfile > $@.tmp && mv $@.tmp $@

docs/events.md: $(EVGEN)
	$(EVGEN) md > $@

events-check: $(EVGEN)
	@$(EVGEN) md | diff -q - docs/events.md >/dev/null || \
	  { echo "docs/events.md is stale: run 'make docs/events.md'" >&2; exit 1; }
