#!/usr/bin/env bash
# What-if timing of a deeper core (docs/board.md, "24 MHz: what a deeper
# core would buy"): applies deeper-core.patch to a copy of HEAD's tree, which
# puts a register (`ifdef WHATIF_<CUT>`) where a deeper pipeline would have
# one, and for each cut, cumulatively in the order below, runs the board's
# yosys and nextpnr-ice40 at the goal clock. The netlists are functionally
# wrong (a register is not a pipeline stage: nothing stalls or bypasses for
# it); they measure only what the logic between registers would cost.
# Prints one markdown row per step: LCs, Fmax, worst slack, and how many
# endpoints still fail the clock.
# Arguments: cut names to measure at (default: base and every cut).
# Environment: HPM (24x64: the cuts do not fit at 29x64), MHZ (24), SEED (2),
# LOGS (a directory to keep each step's nextpnr log in, <cut>-<HPM>.log).
set -euo pipefail
HPM=${HPM:-24x64}
MHZ=${MHZ:-24}
SEED=${SEED:-2}
CUTS="BUS LATE REDIR EV FETCH OPS CSR DEC MD CSRRD WB STORE"
AT=${*:-base $CUTS}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive HEAD | tar -x -C "$tmp"
patch -s -d "$tmp" -p1 < "$root/bench/whatif/deeper-core.patch" ||
    { echo "deeper-core.sh: the patch no longer applies to HEAD's RTL (it was made on e406a65)" >&2; exit 1; }
cd "$tmp"

echo "| cuts (cumulative) | LC | Fmax (MHz) | worst slack at $MHZ MHz (ns) | failing endpoints (at least) |"
echo "|---|---:|---:|---:|---:|"
defs=""
for step in base $CUTS; do
    [ "$step" = base ] || defs="$defs $step"
    case " $AT " in *" $step "*) ;; *) continue ;; esac
    for d in $defs; do echo "\`define WHATIF_$d"; done > hw/hpm/whatif.vh
    # the board flow (mk/board.mk) up to place and route, at the goal clock
    b=$tmp/build-$step
    dir=$b/icebreaker/hpm-$HPM
    make -s BUILD="$b" BOARD_HPM="$HPM" BOARD_SEED="$SEED" BOARD_MHZ="$MHZ" \
        "$dir/icebreaker-pnr.asc" > /dev/null
    log=$dir/nextpnr.log
    [ -z "${LOGS:-}" ] || cp "$log" "$LOGS/$step-$HPM.log"
    # LCs placed, or the demand when the design does not fit
    lc=$(grep -o 'ICESTORM_LC: *[0-9]*/' "$log" | tail -1 | grep -o '[0-9]*')
    if grep -q '^ERROR' "$log"; then
        echo "| ${defs} | $lc (does not fit) | | | |"
        continue
    fi
    fmax=$(grep -o "Max frequency for clock '[^']*': [0-9.]*" "$log" | tail -1 | awk '{print $NF}')
    worst=$(awk -v f="$fmax" -v m="$MHZ" 'BEGIN { printf "%.1f", 1000 / m - 1000 / f }')
    # nextpnr's post-route slack histogram draws a * per 16 endpoints and a
    # + for 1 to 15 more: a lower bound on the endpoints whose whole bucket
    # is below zero slack (the last histogram: after routing)
    fail=$(awk '/Slack histogram/ { h = 1; f = 0; next }
        h && /\[ *-?[0-9]+, *-?[0-9]+\)/ {
            split($0, a, /[\[,)]/); hi = a[3] + 0
            bar = substr($0, index($0, "|") + 1)
            n = gsub(/\*/, "", bar) * 16 + (index(bar, "+") ? 1 : 0)
            if (hi <= 0) f += n }
        END { print f + 0 }' "$log")
    echo "| ${defs:-base} | $lc | $fmax | $worst | $fail |"
done
