# hpm-overlay: top-level build. Each part lives in its own fragment under mk/.
# Build outputs go to build/; user programs land in build/bin/.

BUILD   := build
BIN     := $(BUILD)/bin
LIBDIR  := $(BUILD)/lib

HOST_CC     ?= cc
HOST_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE
RV_PREFIX   := riscv64-unknown-elf-

# Debian packages the project needs (make deps installs them, idempotently).
DEB_PACKAGES := build-essential pkg-config python3 bc \
  verilator iverilog yosys nextpnr-ice40 fpga-icestorm fpga-icestorm-chipdb openfpgaloader \
  gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf picolibc-riscv64-unknown-elf \
  libusb-1.0-0-dev umockdev libumockdev-dev clang libclang-rt-14-dev llvm \
  libxml2-utils python3-yaml linux-perf hotspot ser2net python3-labgrid shellcheck

.PHONY: all deps sim fw host lint test test-long bench bitstream prog hil clean
.DEFAULT_GOAL := all

all: sim fw host

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "deps: all packages present"; else \
	  echo "deps: installing$$(echo $$missing | sed 's/^/ /')"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; fi

include mk/events.mk
include mk/ref.mk
include mk/fw.mk
include mk/hw.mk
include mk/tests.mk
include mk/bench.mk
include mk/proto.mk
include mk/workloads.mk
include mk/sdk.mk
include mk/host.mk
include mk/link.mk
include mk/board.mk
include mk/usb.mk

# make lint also fails on a dependency cycle between the object files of one
# library (tools/linkcycles.py: nm's defined and undefined symbols)
.PHONY: lint-cycles
lint: lint-cycles
lint-cycles: $(HPM_LIB_OBJS) $(REF_LIB_OBJS) $(FW_MONITOR_OBJS)
	@python3 tools/linkcycles.py libhpm $(HPM_LIB_OBJS)
	@python3 tools/linkcycles.py libhpmref $(REF_LIB_OBJS)
	@python3 tools/linkcycles.py --nm $(RV_PREFIX)gcc-nm monitor $(FW_MONITOR_OBJS)

# and on C that breaks the part of .clang-format's style no tool argues
# about: indentation by tabs (a line starts with a tab, or with ' *' inside
# a block comment) and no trailing blanks
C_STYLE_DIRS := host fw hw proto tests tools bench
.PHONY: lint-style
lint: lint-style
lint-style:
	@bad=$$(find $(C_STYLE_DIRS) \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) -print0 | \
	  xargs -0 grep -n -E '^ +[^ *]|[[:space:]]$$' | head -n 5); \
	if [ -n "$$bad" ]; then echo "lint-style: indent with tabs, no trailing blanks (.clang-format):"; \
	  echo "$$bad"; exit 1; fi; echo "lint-style: C sources indented with tabs, no trailing blanks"

# and on shell scripts shellcheck warns about (warnings and errors; the
# test suites' shared globals are declared in tests/.shellcheckrc)
SHELL_SCRIPTS := tests/run.sh $(wildcard tests/suites/*.sh bench/*.sh tools/*.sh) \
                 hw/board/counter_equiv.sh fw/sdk/hpm-cc.in .ci/run
.PHONY: lint-shell
lint: lint-shell
lint-shell:
	@shellcheck -S warning $(SHELL_SCRIPTS) && echo "lint-shell: $(words $(SHELL_SCRIPTS)) shell scripts without shellcheck warnings"

# hardware-in-the-loop (docs/hil.md): every workload and event on each USB
# board (BOARDS=all or SERIAL,...), flashed first when its bitstream differs,
# against the reference model; JUnit per board in build/hil/. Without a board
# the simulated board. tools/hil.sh runs make bitstream only for boards.
BOARDS ?= all
hil: all
	@BUILD=$(BUILD) HPMCTL=$(BIN)/hpmctl MAKE="$(MAKE)" BOARD_BIN=$(BOARD_BIN) PROG=$(PROG) tools/hil.sh "$(BOARDS)"

clean:
	rm -rf $(BUILD)
