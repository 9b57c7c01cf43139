#!/usr/bin/env bash
# counter_equiv.sh OUTDIR YOSYS_DATDIR SYNTH: formal equivalence of one HPM
# counter (hw/hpm/hpm_counter.v, 64 bits) synthesised by the board flow
# (SYNTH, e.g. synth_ice40) against its RTL as the simulated board runs it
# (the flip-flop form, no SYNTHESIS), with yosys' iCE40 cell models
# (docs/board.md, "What the netlist checks cannot see"):
#   dsp  DSP=1: two SB_MAC16 accumulators, the board's mcycle and minstret
#   ff   DSP=0: SB_LUT4, SB_CARRY, SB_DFFESR
# equiv_make pairs the ports (value, wrap; the netlist's internal names are
# hidden), equiv_simple and equiv_induct prove that from any state in which
# both agree, every input sequence keeps value and wrap equal, cycle by
# cycle. rst is tied to 0: the reset cycle differs by design (the DSP's
# output reset is immediate, hw/hpm/hpm_counter.v) and both read 0 after it.
# Then one LUT INIT bit of the ff netlist is flipped: that proof must fail.
# Prints one line per proof; exit 0 when all three come out as they must.
set -u
out=$1 dat=$2 synth=$3
mkdir -p "$out"
# the cell models the netlists use, without the rest of cells_sim.v
{ sed -n '1,/^`endif/p' "$dat/ice40/cells_sim.v"
  awk '/^module / { m = $2; sub(/[ (#;].*/, "", m); keep = (m ~ /^SB_(LUT4|CARRY|MAC16|DFF[A-Z]*)$/) }
       keep { print } /^endmodule/ { keep = 0 }' "$dat/ice40/cells_sim.v"; } > "$out/cells.v"

prove() {   # prove NAME NETLIST FORM: 0 when the netlist equals the RTL
    yosys -q -l "$out/$1.log" -p "
        read_verilog $2
        read_verilog -DNO_ICE40_DEFAULT_ASSIGNMENTS $out/cells.v
        read_verilog hw/hpm/hpm_counter.v
        chparam -set WIDTH 64 hpm_counter
        rename hpm_counter rtl
        hierarchy -check; proc; flatten; async2sync; opt_clean
        rename -hide gate/w:g_$3.*
        delete -port rtl/w:rst gate/w:rst
        cd rtl; connect -set rst 1'b0; cd gate; connect -set rst 1'b0; cd
        equiv_make rtl gate equiv
        hierarchy -top equiv
        equiv_simple -seq 2
        equiv_induct -seq 2
        equiv_status -assert" > /dev/null 2>&1
}
cpu_now() {   # CPU = seconds (user + system) of this shell's finished children
    times > "$out/times.txt"
    CPU=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$out/times.txt")
}
rc=0
for f in dsp ff; do
    dsp=$([ $f = dsp ] && echo 1 || echo 0)
    if ! yosys -q -l "$out/synth-$f.log" -p "read_verilog -DSYNTHESIS hw/hpm/hpm_counter.v
            chparam -set WIDTH 64 -set DSP $dsp hpm_counter; $synth -top hpm_counter
            rename hpm_counter gate; tee -q -o $out/stat-$f.txt stat; write_verilog -noattr $out/counter-$f.v" > /dev/null 2>&1; then
        echo "counter-equiv: $f: synthesis failed ($out/synth-$f.log)"; rc=1; continue
    fi
    cells=$(awk '/Number of cells/ { n = $NF } /SB_/ { c = c " " $2 "x" $1 } END { print n " cells:" c }' "$out/stat-$f.txt")
    cpu_now; t0=$CPU
    if prove "$f" "$out/counter-$f.v" "$f"; then
        cpu_now
        echo "counter-equiv: hpm_counter WIDTH=64 DSP=$dsp ($cells) = RTL: proven ($(grep -m1 -o 'Of those cells [0-9]* are proven' "$out/$f.log" | sed 's/Of those cells //;s/are //') equivalences, $(awk -v a="$t0" -v b="$CPU" 'BEGIN { printf "%.1f", b - a }') s of CPU)"
    else echo "counter-equiv: hpm_counter WIDTH=64 DSP=$dsp: NOT proven ($out/$f.log)"; rc=1; fi
done
# one LUT INIT bit of the first SB_LUT4 of the ff netlist flipped (the
# lowest bit that is set): the proof must fail
python3 -c '
import re, sys
src = open(sys.argv[1]).read()
m = re.search(r"\.LUT_INIT\(16.h([0-9a-fA-F]{4})\)", src)
if m:
    v = int(m.group(1), 16)
    v ^= (v & -v) or 1
    src = src[:m.start(1)] + "%04x" % v + src[m.end(1):]
open(sys.argv[2], "w").write(src)' "$out/counter-ff.v" "$out/counter-ff-broken.v"
if cmp -s "$out/counter-ff.v" "$out/counter-ff-broken.v"; then
    echo "counter-equiv: no LUT INIT to flip in $out/counter-ff.v"; rc=1
elif prove ff-broken "$out/counter-ff-broken.v" ff || ! grep -q "unproven \$equiv cells" "$out/ff-broken.log"; then
    echo "counter-equiv: the ff netlist with a LUT INIT bit flipped is proven equal, or failed for another reason ($out/ff-broken.log)"; rc=1
else echo "counter-equiv: the ff netlist with one LUT INIT bit flipped: not proven (as it must)"; fi
exit $rc
