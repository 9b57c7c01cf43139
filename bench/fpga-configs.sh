#!/usr/bin/env bash
# The board build for each HPM configuration (make bench-configs): runs
# `make BOARD_HPM=<n>x<w>` up to the report (synthesis, place and route; a
# configuration that does not fit stops at placement with nextpnr's LC
# demand) and prints one markdown section. Arguments: none; FPGA_CONFIGS
# overrides the list.
set -euo pipefail
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
CONFIGS=${FPGA_CONFIGS:-0x64 2x64 8x64 16x64 29x64}
# the board's clock and seed list, as make bitstream uses them
MHZ=$($MAKE -s --no-print-directory --eval='print-mhz: ; @echo $(BOARD_MHZ)' print-mhz)
SEEDS=$($MAKE -s --no-print-directory --eval='print-seeds: ; @echo $(board_seeds)' print-seeds)

# field REPORT LABEL -> the "used" column of a resource line
used() { awk -v l="$2" 'index($0, l " ") == 1 { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $i; exit } }' "$1"; }

cat <<HDR

## HPM configurations on the board

Command: \`make bench-configs\` (\`bench/fpga-configs.sh\`): for each
configuration \`make BOARD_HPM=<num>x<width>
build/icebreaker/hpm-<num>x<width>/report.txt\`, the board flow of
\`make bitstream\` (yosys $(yosys -V | awk '{print $2}') without \`-dsp\`, nextpnr-ice40 at the board's
clock, ${MHZ} MHz, trying seeds ${SEEDS} in turn until one meets it) up to
the report; the Fmax column names the seed it was measured at. Counting
architecture 3, the board's (the cycle-class table in EBR, docs/hpm.md); the
simulated board's architecture 2 reads its table combinationally, which
synthesis cannot map to EBR, so it has no board row.
LC: nextpnr's packed logic cells (of 5280); for a configuration that does
not fit, the demand nextpnr reports before it gives up. FF, LUT4: yosys.
Measured on $(date -u +%Y-%m-%d).

| HPM | LC | FF | LUT4 | EBR | DSP | Fmax, timing |
|---|---:|---:|---:|---:|---:|---|
HDR
for cfg in $CONFIGS; do
    rep=$BUILD/icebreaker/hpm-$cfg/report.txt
    $MAKE -s BUILD="$BUILD" BOARD_HPM="$cfg" "$rep" >/dev/null 2>&1 || true
    if [ ! -s "$rep" ]; then
        printf '| %s | | | | | | no report (synthesis failed: %s) |\n' \
            "${cfg/x/ x }" "$(dirname "$rep")/yosys.log"
        continue
    fi
    timing=$(sed -n 's/^timing  *//p' "$rep")
    case $timing in
        met:*) t=$(echo "$timing" | sed 's/^met: Fmax \([0-9.]*\) MHz.*seed \([0-9]*\).*/\1 MHz, met (seed \2)/') ;;
        *"not fit"*) t="does not fit" ;;
        *"timing not met"*) t=$(echo "$timing" | sed 's/.*Fmax \([0-9.]*\) MHz.*seed \([0-9]*\).*/\1 MHz, not met (last seed \2)/') ;;
        *) t=$(echo "$timing" | cut -c1-100) ;;
    esac
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "${cfg/x/ x }" \
        "$(used "$rep" LC)" "$(used "$rep" 'FF (yosys)')" "$(used "$rep" 'LUT4 (yosys)')" \
        "$(used "$rep" EBR)" "$(used "$rep" DSP)" "$t"
done
