# tests/suites/board.sh: suite board: the iCEBreaker bitstream
# (docs/board.md): make bitstream BOARD=icebreaker, its report (.bin, Fmax >=
# the target clock, utilization, no combinational path through a DSP, and
# that check failing an unregistered multiplier or a PLL that does not make
# CLOCK_HZ), the SB_MAC16 counters against the counter semantics and
# core_muldiv's netlist against RV32M (iverilog), the gate-level board
# (validate --all, record -c and stat --regions against the reference board;
# a netlist with a LUT of the counter store broken failing validate;
# directed tests through the monitor, GATE_ELF_TESTS, tests/link/elfrun.c,
# against the reference board), make counter-equiv (hpm_counter's netlists
# proven equal to the RTL), make prog without a board (one line, non-zero,
# no hang) and an unknown BOARD (one line).

# the gate-level board: the bitstream's own netlist, with the monitor in its
# EBR, serving the link (mk/board.mk sim-gate, docs/board.md): HELLO reports
# the board's configuration, the counters count, and a workload that uses
# the multiplier is validated exactly against the reference board with the
# board's HPM configuration (every event, every counter)
board_gate() {
    local d=$1 gate=$BIN_DIR/hpm-sim-gate num width
    CHECK="board gate build"
    if ${MAKE:-make} --no-print-directory sim-gate > "$d/gate-build.log" 2>&1; then
        pass "board: gate-level board: $(grep -m1 '^gate_check' "$d/gate-build.log" || echo "$gate up to date")"
    else
        fail "board: make sim-gate failed: $(grep -v '^$' "$d/gate-build.log" | tail -n 2 | tr '\n' '|')"
        return
    fi
    read -r num width < <("$gate" --hpm-config)
    local hpm=(env HPM_SIM="$gate" HPM_TIMEOUT_MS=30000 "$BIN_DIR/hpmctl" --link sim)
    CHECK="board gate hello"
    "${hpm[@]}" info > "$d/gate-info.out" 2> "$d/gate-info.err"
    if grep -Eq "^hpm counters: +$num x $width bits" "$d/gate-info.out" &&
       grep -Eq "^clock: +$(sed -n 's/.*parameter integer CLOCK_HZ *= *\([0-9]*\).*/\1/p' hw/board/icebreaker_top.v) Hz" "$d/gate-info.out"; then
        pass "board: gate-level board answers HELLO: $(grep -m1 '^hpm counters' "$d/gate-info.out" | cut -c1-40 | tr -s ' '), $(grep -m1 '^clock' "$d/gate-info.out" | tr -s ' ')"
    else fail "board: gate-level board info: $(cat "$d/gate-info.out" "$d/gate-info.err" | head -n 12 | tr '\n' '|')"; fi
    # every counter CSR written through the monitor reads back (an
    # accumulator DSP that lost its load or clock reads 0)
    CHECK="board gate csr"
    local bad="" n=0 c v want
    for c in mcycle minstret $(seq -f 'mhpmcounter%g' 3 $((num + 2))); do
        v=$(printf '0x%08x' $(( (0x5a5a0000 + n * 0x1111) & ((1 << (width < 32 && n > 1 ? width : 32)) - 1) )))
        want=$(printf 'new 0x%08x' $((v)))
        "${hpm[@]}" csr write $c "$v" > "$d/gate-csr-$c.out" 2>&1
        grep -q "$want" "$d/gate-csr-$c.out" || bad="$bad $c: $(head -c 120 "$d/gate-csr-$c.out")"
        n=$((n + 1))
    done
    if [ -z "$bad" ]; then pass "board: gate-level board: $n counter CSRs written and read back through the monitor"
    else fail "board: gate-level board CSR write/read:$bad"; fi
    board_gate_runs "$d" "$gate"
    # mguard in the netlist: a U-mode store into MONRAM is an access fault
    # (docs/memory-map.md, Protection), counted as on the reference board
    # (the counts are on stderr with the trap; field 4, the run time in ns,
    # follows each board's clock)
    CHECK="board gate guard"
    local g=$d/guard_monram want="trapped: store access fault at 0x8001f800" rg rr
    if ${MAKE:-make} --no-print-directory sdk > "$g.cc.log" 2>&1 &&
       "$BUILD/sdk/bin/hpm-cc" -O2 -o "$g.elf" tests/programs/src/guard_monram.c >> "$g.cc.log" 2>&1; then
        "${hpm[@]}" stat -x, "$g.elf" > "$g.out" 2> "$g.err"; rg=$?
        "$BIN_DIR/hpmctl" --link ref stat -x, "$g.elf" > "$g.ref.out" 2> "$g.ref.err"; rr=$?
        grep -E '^[0-9]+,' "$g.err" | cut -d, -f1-3,5- > "$g.counts"
        grep -E '^[0-9]+,' "$g.ref.err" | cut -d, -f1-3,5- > "$g.ref.counts"
        if [ $rg -ne 0 ] && [ $rr -ne 0 ] && grep -q "$want" "$g.err" && grep -q "$want" "$g.ref.err" &&
           [ -s "$g.counts" ] && cmp -s "$g.counts" "$g.ref.counts"; then
            pass "board: gate-level board: a U-mode store into MONRAM ends the run with '${want#trapped: }', the reference board's counts"
        else fail "board: gate-level board guard: exit $rg/$rr: $(head -c 300 "$g.err") | $(diff "$g.counts" "$g.ref.counts" | head -n 4 | tr '\n' '|')"; fi
    else fail "board: gate-level board guard: hpm-cc failed: $(tail -n 3 "$g.cc.log" | tr '\n' '|')"; fi
}

# directed tests on the gate-level board through its monitor
# (tests/link/elfrun.c, docs/testing.md "Directed tests on the netlist"):
# each program of GATE_ELF_TESTS runs on the reference board (hpm-ref
# serving the same monitor, with the board's top-down counts: hpm_td_board
# reads them and takes their LCOFIs) and on hpm-sim-gate; both pass (tohost = 1) with
# the same signature and the same cycles/instret of the RUN's window. Then
# the comparison on a board that differs (the reference board at 29 x 32
# against the gate's 29 x 64, hpm_width) must fail. GATE_ELF_TESTS is a
# sample that fits the board suite's time (docs/testing.md lists the tests
# that need a reset start; GATE_ELF_TESTS="isa/alu ..." runs others).
GATE_ELF_TESTS=${GATE_ELF_TESTS-isa/branch isa/deleg isa/fetch_fault isa/forward isa/priv isa/trap_misaligned isa/vec_irq hpm/hpm_identities hpm/hpm_width hpm/hpm_td_board}
# elfrun_pair BASE ELF GATE: the program on the reference board and on
# GATE; 0 when both pass with the same signature and stats, else WHY says
# how they differ
elfrun_pair() {
    local base=$1 e=$2 gate=$3 rr rg sr sg
    env HPM_REF="$REF" timeout 600 "$BUILD/tests/elfrun" --link ref --ref-td-board --elf "$e" --signature "$base.ref.sig" \
        --stats > "$base.ref.out" 2> "$base.ref.err"; rr=$?
    env HPM_SIM="$gate" HPM_TIMEOUT_MS=30000 timeout 1200 "$BUILD/tests/elfrun" --link sim --elf "$e" \
        --signature "$base.gate.sig" --stats > "$base.gate.out" 2> "$base.gate.err"; rg=$?
    sr=$(grep '^hpm-stats:' "$base.ref.err"); sg=$(grep '^hpm-stats:' "$base.gate.err")
    WHY=""
    if [ $rr -ne 0 ]; then WHY="reference board: exit $rr: $(first_lines "$base.ref.err")"
    elif [ $rg -ne 0 ]; then WHY="gate-level board: exit $rg: $(first_lines "$base.gate.err")"
    elif [ ! -s "$base.ref.sig" ]; then WHY="empty signature"
    elif ! cmp -s "$base.ref.sig" "$base.gate.sig"; then WHY="signatures differ: $(diff "$base.ref.sig" "$base.gate.sig" | head -n 6 | tr '\n' ' ')"
    elif [ -z "$sr" ] || [ "$sr" != "$sg" ]; then WHY="stats differ: reference '$sr' gate '$sg'"
    fi
    STATS=${sr#hpm-stats: }
    [ -z "$WHY" ]
}
board_elfrun() {
    local d=$1/elfrun gate=$BIN_DIR/hpm-sim-gate t e
    mkdir -p "$d"
    rm -f "$d"/*.sig
    for t in $GATE_ELF_TESTS; do
        CHECK="board gate elf $t"; e=$BUILD/tests/$t.elf
        need "$BUILD/tests/elfrun" "$REF" "$gate" "$e" || continue
        if elfrun_pair "$d/${t#*/}" "$e" "$gate"; then
            pass "board: gate-level board = reference board: $t through the monitor ($(wc -l < "$d/${t#*/}.ref.sig") signature words, $STATS)"
        else fail "board: gate-level board $t: $WHY"; fi
    done
    # the gate's hpm_width signature against a 29 x 32 reference board's
    CHECK="board gate elf differs"; e=$BUILD/tests/hpm/hpm_width.elf
    local g=$d/hpm_width.gate.sig r=$d/differs.ref.sig rr
    if [ ! -s "$g" ]; then fail "board: a board that differs: no gate-level hpm_width signature (hpm/hpm_width not in GATE_ELF_TESTS)"; return 0; fi
    env HPM_REF="$REF" timeout 600 "$BUILD/tests/elfrun" --link ref --ref-hpm 29x32 --elf "$e" --signature "$r" \
        > "$d/differs.out" 2> "$d/differs.err"; rr=$?
    if [ $rr -ne 0 ]; then fail "board: hpm_width on a 29 x 32 reference board: exit $rr: $(first_lines "$d/differs.err")"
    elif cmp -s "$g" "$r"; then fail "board: hpm_width on a 29 x 32 reference board = the gate-level board: the comparison cannot fail"
    else pass "board: a board that differs is detected: hpm_width's signature on a 29 x 32 reference board: $(diff "$r" "$g" | head -n 4 | tr '\n' ' ')"; fi
    # the gate's hpm_td_board signature against a reference board with the
    # simulated board's top-down unit instead of the board's counts
    CHECK="board gate td differs"; e=$BUILD/tests/hpm/hpm_td_board.elf
    g=$d/hpm_td_board.gate.sig r=$d/td-differs.ref.sig
    if [ ! -s "$g" ]; then fail "board: no gate-level hpm_td_board signature (hpm/hpm_td_board not in GATE_ELF_TESTS)"; return 0; fi
    env HPM_REF="$REF" timeout 600 "$BUILD/tests/elfrun" --link ref --elf "$e" --signature "$r" \
        > "$d/td-differs.out" 2> "$d/td-differs.err"; rr=$?
    if [ $rr -ne 0 ]; then fail "board: hpm_td_board on a reference board with the unit: exit $rr: $(first_lines "$d/td-differs.err")"
    elif cmp -s "$g" "$r"; then fail "board: hpm_td_board with the unit = the gate-level board: the comparison cannot fail"
    else pass "board: the board's top-down counts are the gate-level board's: hpm_td_board's signature differs on a reference board with the unit ($(wc -l < "$g") against $(wc -l < "$r") words)"; fi
}

# the whole validation on the gate-level board (docs/board.md): validate
# --all, sampling and regions against the reference board, and a netlist
# with one LUT of the counter store wrong failing validate
board_gate_runs() {
    local d=$1 gate=$2 t0 rc wl size m=$1/mutant n ev l
    local hpm=(env HPM_SIM="$gate" HPM_TIMEOUT_MS=30000 "$BIN_DIR/hpmctl" --link sim)
    CHECK="board gate lut proof"
    if [ -s "$BUILD/icebreaker/gate/lut-proof.txt" ]; then pass "board: $(cat "$BUILD/icebreaker/gate/lut-proof.txt")"
    else fail "board: no $BUILD/icebreaker/gate/lut-proof.txt (make sim-gate)"; fi
    # the proof fails a model with two inputs swapped
    CHECK="board gate lut proof fail"
    sed 's/{I3, I2, I1, I0}/{I2, I3, I1, I0}/' hw/board/gate_lut.v > "$d/lut-swapped.v"
    if ! cmp -s hw/board/gate_lut.v "$d/lut-swapped.v" &&
       ! python3 hw/board/gate_lut_proof.py "$BUILD/icebreaker/gate/icebreaker-gate-bits.v" \
           "$(dirname "$(command -v yosys)")/../share/yosys/ice40/cells_sim.v" "$d/lut-swapped.v" "$d" > "$d/lut-swapped.log" 2>&1 &&
       grep -q 'differs from yosys' "$d/lut-swapped.log"; then
        pass "board: the LUT proof fails a model with I2 and I3 swapped"
    else fail "board: a LUT model with I2 and I3 swapped passes the proof: $(first_lines "$d/lut-swapped.log" 2)"; fi
    # (validate's table is on stderr, as perf's counts; errors too)
    CHECK="board gate validate"
    t0=$SECONDS
    if "${hpm[@]}" validate --all -x, > "$d/gate-validate.out" 2> "$d/gate-validate.csv"; then
        pass "board: gate-level board = reference board (HPM ${num}x$width): validate --all: $(cut -d, -f1 "$d/gate-validate.csv" | sort -u | wc -l) workloads, $(grep -c ',OK$' "$d/gate-validate.csv") counts exact ($((SECONDS - t0)) s)"
    else fail "board: gate-level board validate --all: $(grep -v ',OK$' "$d/gate-validate.csv" | head -n 4 | tr '\n' '|') $(head -c 300 "$d/gate-validate.out")"; fi
    # sampling: record -c's profile equal to the reference board's but for
    # its clock_hz (bytes 16..19, docs/hpmctl.md: the board's 15 MHz), its
    # summary but for the file name
    for wl in matmul:16 crc:1024; do
        size=${wl#*:}; wl=${wl%:*}
        CHECK="board gate record $wl"
        for l in gate ref; do
            if [ $l = gate ]; then set -- "${hpm[@]}"; else set -- "$BIN_DIR/hpmctl" --link ref; fi
            SOURCE_DATE_EPOCH=1700000000 "$@" record -e cycles -c 997 -e branches -c 300 -e instructions \
                -o "$d/prof-$wl-$l.data" --size "$size" "$wl" > "$d/prof-$wl-$l.out" 2> "$d/prof-$wl-$l.err"
            echo $? > "$d/prof-$wl-$l.rc"
        done
        n=$(grep -o '([0-9]* samples' "$d/prof-$wl-gate.err" | tr -dc '0-9\n' | paste -sd+ | bc)
        if [ "$(cat "$d/prof-$wl-gate.rc" "$d/prof-$wl-ref.rc" | tr -d '\n')" = 00 ] &&
           [ "$(wc -c < "$d/prof-$wl-gate.data")" -gt 200 ] && cmp -s -n 16 "$d/prof-$wl-gate.data" "$d/prof-$wl-ref.data" &&
           cmp -s -i 20 "$d/prof-$wl-gate.data" "$d/prof-$wl-ref.data" &&
           [ "$(sed 's/ in [^ ]*-gate.data,/,/' "$d/prof-$wl-gate.err")" = "$(sed 's/ in [^ ]*-ref.data,/,/' "$d/prof-$wl-ref.err")" ]; then
            pass "board: gate-level board: record -c $wl --size $size: the profile ($n samples) and counts equal the reference board's"
        else fail "board: gate-level board record $wl: exit $(cat "$d/prof-$wl-gate.rc")/$(cat "$d/prof-$wl-ref.rc"), $(cmp -l "$d/prof-$wl-gate.data" "$d/prof-$wl-ref.data" 2>&1 | head -n 3 | tr '\n' '|') $(diff "$d/prof-$wl-gate.err" "$d/prof-$wl-ref.err" | head -n 4 | tr '\n' '|')"; fi
    done
    # regions: every region's count of every event (one run on 29 counters)
    # equal to the reference board's; the run time in ns (field 4 of the
    # whole run's rows, 6 of a region's) follows each board's clock
    CHECK="board gate regions"
    ev=$("$BIN_DIR/hpm-sim" --events | awk '{ print $2 }' | paste -sd,)
    "${hpm[@]}" stat --regions -x, -e "$ev" --size 2 regions > "$d/regions-gate.out" 2> "$d/regions-gate.csv"; rc=$?
    "$BIN_DIR/hpmctl" --link ref stat --regions -x, -e "$ev" --size 2 regions > "$d/regions-ref.out" 2> "$d/regions-ref.csv"
    for l in gate ref; do
        awk -F, -v OFS=, '{ if ($1 ~ /^[0-9]+$/) $4 = ""; else $6 = ""; print }' "$d/regions-$l.csv" > "$d/regions-$l.counts"
    done
    n=$(grep -c '^[a-z]' "$d/regions-gate.counts")
    if [ $rc -eq 0 ] && [ "$n" -ge 100 ] && cmp -s "$d/regions-gate.counts" "$d/regions-ref.counts"; then
        pass "board: gate-level board: stat --regions regions: $n region counts ($(echo "$ev" | tr , '\n' | wc -l) events) equal the reference board's"
    else fail "board: gate-level board regions: exit $rc: $(diff "$d/regions-gate.counts" "$d/regions-ref.counts" | head -n 4 | tr '\n' '|')"; fi
    # top-down (issue 33): the board's monitor emulates the unit's level 1
    # from its two 16-bit counts, widened at every entry; stat --topdown over
    # 3 of their bit-15 LCOFIs, and the SDK's topdown_phases reading slots
    # and tdmetrics from U-mode, equal to the reference board with the
    # board's counts (hpm-ref --td-board); run times (field 4) aside
    CHECK="board gate topdown"
    printf '#!/bin/sh\nexec "%s" --td-board "$@"\n' "$BIN_DIR/hpm-ref" > "$d/hpm-ref-td-board"
    chmod +x "$d/hpm-ref-td-board"
    for l in gate ref; do
        if [ $l = gate ]; then set -- "${hpm[@]}"; else set -- env HPM_REF="$d/hpm-ref-td-board" "$BIN_DIR/hpmctl" --link ref; fi
        "$@" stat --topdown -x, -e interrupts --size 20000 branchy > "$d/td-$l.out" 2> "$d/td-$l.csv"
        echo $? > "$d/td-$l.rc"
        "$@" run -- "$BUILD/sdk-examples/topdown_phases.elf" > "$d/tdp-$l.out" 2> "$d/tdp-$l.err"
        echo $? >> "$d/td-$l.rc"
        awk -F, -v OFS=, '{ $4 = ""; print }' "$d/td-$l.csv" > "$d/td-$l.counts"
    done
    n=$(awk -F, '$3 == "topdown-bad-spec" { print $1 }' "$d/td-gate.csv")
    if [ "$(cat "$d/td-gate.rc" "$d/td-ref.rc" | tr -d '\n')" = 0000 ] && [ "${n:-0}" -gt 98304 ] &&
       [ "$(cut -d, -f3 "$d/td-gate.csv" | paste -sd' ')" = "slots topdown-retiring topdown-bad-spec topdown-fe-bound topdown-be-bound interrupts" ] &&
       cmp -s "$d/td-gate.counts" "$d/td-ref.counts" && grep -q '^point 2: slots [0-9]* tdmetrics 0x' "$d/tdp-gate.out" &&
       grep -q 'level 2 not kept on this board' "$d/tdp-gate.out" && cmp -s "$d/tdp-gate.out" "$d/tdp-ref.out"; then
        pass "board: gate-level board: stat --topdown branchy ($n bad-speculation slots, the monitor's widened counts) and topdown_phases' U-mode reads equal the reference board's"
    else fail "board: gate-level board top-down: exit $(cat "$d/td-gate.rc" "$d/td-ref.rc" | tr '\n' /) $(diff "$d/td-gate.counts" "$d/td-ref.counts" | head -n 4 | tr '\n' '|') $(diff "$d/tdp-gate.out" "$d/tdp-ref.out" | head -n 4 | tr '\n' '|') $(head -c 200 "$d/tdp-gate.err")"; fi
    # a broken netlist (one LUT INIT bit of the counter store flipped) fails validate
    CHECK="board gate mutant"
    mkdir -p "$m"
    if python3 tests/board/gate_mutant.py "$BUILD/icebreaker/gate/icebreaker-gate-bits.v" "$m/icebreaker-gate-bits.v" > "$m/mutate.log" 2>&1 &&
       ${MAKE:-make} --no-print-directory sim-gate BOARD_GATE_DIR="$m" BOARD_GATE_BIN="$m/hpm-sim-gate" > "$m/build.log" 2>&1; then
        env HPM_SIM="$m/hpm-sim-gate" HPM_TIMEOUT_MS=30000 "$BIN_DIR/hpmctl" --link sim validate --size 64 -x, mul \
            > "$m/validate.out" 2> "$m/validate.csv"; rc=$?
        if [ $rc -eq 1 ] && grep -q ',MISMATCH$' "$m/validate.csv" &&
           grep -q '^hpmctl: validate: mul: .*: board [0-9]*, reference [0-9]*' "$m/validate.csv" &&
           ! grep -qi 'lost\|no reply\|failed to run' "$m/validate.out" "$m/validate.csv"; then
            pass "board: a netlist with one LUT INIT bit of the counter store flipped ($(sed 's/^gate_mutant: //' "$m/mutate.log" | cut -c1-120)) fails validate mul: $(grep -m1 '^hpmctl: validate: mul:' "$m/validate.csv" | cut -c 23-90)"
        else fail "board: the mutant netlist: validate exit $rc: $(grep -v ',OK$' "$m/validate.csv" | head -n 3 | tr '\n' '|') $(head -c 200 "$m/validate.out")"; fi
    else fail "board: the mutant netlist: $(first_lines "$m/mutate.log" 2) $(tail -n 3 "$m/build.log" | tr '\n' '|')"; fi
}

# the bitstream and its report, the DSP counters and the multiplier as the
# board flow synthesises them, the gate-level board, make prog, BOARD
suite_board() {
    suite_begin board
    local d=$OUT/board bdir=$BUILD/icebreaker rc n fmax target r datdir
    local rep=$bdir/report.txt bin=$bdir/icebreaker.bin
    mkdir -p "$d"
    CHECK="board bitstream"
    if ${MAKE:-make} --no-print-directory bitstream BOARD=icebreaker > "$d/bitstream.log" 2>&1; then
        pass "board: make bitstream BOARD=icebreaker ($(sed -n 's/^timing *//p' "$rep" | cut -c1-60))"
    else fail "board: make bitstream BOARD=icebreaker failed: $(grep -v '^$' "$d/bitstream.log" | tail -n 3 | tr '\n' '|')"; fi
    CHECK="board bin"
    if [ -s "$bin" ]; then pass "board: $bin ($(wc -c < "$bin") bytes)"
    else fail "board: $bin missing or empty"; fi
    CHECK="board timing"
    read -r fmax target < <(sed -n 's/^timing *met: Fmax \([0-9.]*\) MHz >= \([0-9.]*\) MHz.*/\1 \2/p' "$rep" 2>/dev/null)
    if [ -n "${fmax:-}" ] && awk -v f="$fmax" -v t="$target" 'BEGIN { exit !(f >= t) }'; then
        pass "board: Fmax $fmax MHz >= target $target MHz"
    else fail "board: $rep: $(grep -m1 '^timing' "$rep" 2>/dev/null || echo 'no report')"; fi
    # no path runs combinationally through a DSP (nextpnr does not time one):
    # the report says so for the build, and the check fails a netlist whose
    # SB_MAC16 outputs its unregistered 16x16 product (the multiplier before
    # issue 15)
    CHECK="board dsp paths"
    if grep -q "^dsp .*every DSP path enclosed by registers clocked by 'clk'" "$rep" 2>/dev/null; then
        pass "board: $(grep -m1 '^dsp' "$rep" | sed 's/^dsp *//' | cut -c1-90)"
    else fail "board: $rep: $(grep -m1 '^dsp' "$rep" 2>/dev/null || echo 'no dsp line')"; fi
    CHECK="board dsp paths fail"
    printf '%s' '{"modules": {"t": {"cells": {
        "pll": {"type": "SB_PLL40_PAD", "parameters": {}, "connections": {"PLLOUTGLOBAL": [2]}},
        "mac": {"type": "SB_MAC16", "parameters": {"TOPOUTPUT_SELECT": "11", "BOTOUTPUT_SELECT": "11"},
                "connections": {"CLK": [2]}}}}}}' > "$d/comb-dsp.json"
    python3 hw/board/board_report.py --nextpnr "$bdir/nextpnr-report.json" --log "$bdir/nextpnr.log" \
        --stat "$bdir/yosys-stat.txt" --top hw/board/icebreaker_top.v --netlist "$d/comb-dsp.json" \
        --target-hz 1 > "$d/comb-dsp.txt" 2>&1
    if grep -q '^timing *FAIL: 1 SB_MAC16 with a combinational path through it.*mac (top output the unregistered 16x16 product' "$d/comb-dsp.txt"; then
        pass "board: the timing check fails an unregistered SB_MAC16 multiplier: $(sed -n 's/^timing *//p' "$d/comb-dsp.txt" | cut -c1-100)"
    else fail "board: an unregistered SB_MAC16 multiplier passes the timing check: $(grep -m1 '^timing' "$d/comb-dsp.txt" || head -n 2 "$d/comb-dsp.txt" | tr '\n' '|')"; fi
    # CLOCK_HZ (the timing target, the clock the SoC reports) must be what
    # the PLL settings make: a top whose DIVF disagrees fails the check
    CHECK="board pll fail"
    sed 's/\(parameter \[6:0\] *PLL_DIVF *= *\)[0-9]*.d[0-9]*/\17'"'"'d63/' hw/board/icebreaker_top.v > "$d/pll-top.v"
    python3 hw/board/board_report.py --nextpnr "$bdir/nextpnr-report.json" --log "$bdir/nextpnr.log" \
        --stat "$bdir/yosys-stat.txt" --top "$d/pll-top.v" --netlist "$bdir/icebreaker.json" \
        --target-hz "$(sed -n 's/.*parameter integer CLOCK_HZ *= *\([0-9]*\).*/\1/p' hw/board/icebreaker_top.v)" \
        > "$d/pll.txt" 2>&1
    if ! cmp -s hw/board/icebreaker_top.v "$d/pll-top.v" && grep -q '^timing *FAIL: the PLL makes 12 MHz, not CLOCK_HZ' "$d/pll.txt"; then
        pass "board: the timing check fails a PLL that does not make CLOCK_HZ: $(sed -n 's/^timing *//p' "$d/pll.txt" | cut -c1-80)"
    else fail "board: a PLL (DIVF 63) that does not make CLOCK_HZ passes the check: $(grep -m1 '^timing' "$d/pll.txt" || head -n 2 "$d/pll.txt" | tr '\n' '|')"; fi
    CHECK="board utilization"
    n=0
    for r in LC EBR SPRAM DSP PLL; do grep -Eq "^$r +[0-9]+ +[0-9]+" "$rep" 2>/dev/null && n=$((n + 1)); done
    if [ $n -eq 5 ]; then pass "board: report lists LC/EBR/SPRAM/DSP/PLL use ($(awk '$1 == "LC" { print $2 "/" $3 }' "$rep") LC)"
    else fail "board: $rep lacks utilization lines ($n of 5)"; fi
    # the SB_MAC16 counters as the board flow synthesises them (yosys'
    # netlist of hw/board/dsp_counter_bank.v, simulated with yosys' cell models)
    CHECK="board dsp counters"
    datdir=$(dirname "$(command -v yosys || echo /usr/bin/yosys)")/../share/yosys
    if ! command -v iverilog > /dev/null || [ ! -f "$datdir/ice40/cells_sim.v" ]; then
        fail "board: iverilog or yosys' ice40/cells_sim.v missing (make deps)"
    elif ! ${MAKE:-make} --no-print-directory board-dsp-netlist > "$d/tb_dsp.log" 2>&1; then
        fail "board: DSP counters: synthesis failed: $(tail -n 2 "$d/tb_dsp.log" | tr '\n' '|')"
    else
        if iverilog -g2012 -DNO_ICE40_DEFAULT_ASSIGNMENTS -Ihw/board -o "$d/tb_dsp.vvp" hw/board/tb_hpm_counter_dsp.v \
               "$bdir/dsp_counter_bank.v" "$datdir/ice40/cells_sim.v" >> "$d/tb_dsp.log" 2>&1 &&
           timeout 300 vvp -n "$d/tb_dsp.vvp" >> "$d/tb_dsp.log" 2>&1 && grep -q '^PASS' "$d/tb_dsp.log"; then
            pass "board: $(grep -m1 '^PASS' "$d/tb_dsp.log" | sed 's/^PASS //')"
        else fail "board: DSP counters: $(grep -v -i warning "$d/tb_dsp.log" | grep -v '^$' | head -n 3 | tr '\n' '|')"; fi
    fi
    # the multiplier/divider as the board flow synthesises it (its SB_MAC16
    # registered at both ends), every RV32M operation against its result
    CHECK="board muldiv netlist"
    if ! command -v iverilog > /dev/null || [ ! -f "$datdir/ice40/cells_sim.v" ]; then
        fail "board: iverilog or yosys' ice40/cells_sim.v missing (make deps)"
    elif ! ${MAKE:-make} --no-print-directory board-muldiv-netlist > "$d/tb_muldiv.log" 2>&1; then
        fail "board: muldiv netlist: synthesis failed: $(tail -n 2 "$d/tb_muldiv.log" | tr '\n' '|')"
    elif iverilog -g2012 -DNO_ICE40_DEFAULT_ASSIGNMENTS -o "$d/tb_muldiv.vvp" hw/board/tb_muldiv_netlist.v \
             "$bdir/core_muldiv.v" "$datdir/ice40/cells_sim.v" >> "$d/tb_muldiv.log" 2>&1 &&
         timeout 600 vvp -n "$d/tb_muldiv.vvp" >> "$d/tb_muldiv.log" 2>&1 && grep -q '^PASS' "$d/tb_muldiv.log"; then
        pass "board: $(grep -m1 '^PASS' "$d/tb_muldiv.log" | sed 's/^PASS //')"
    else fail "board: muldiv netlist: $(grep -v -i warning "$d/tb_muldiv.log" | grep -v '^$' | head -n 3 | tr '\n' '|')"; fi
    board_gate "$d"
    board_elfrun "$d"
    # hpm_counter's synthesised netlists proven equal to the RTL, and the
    # proof failing a netlist with a flipped LUT INIT (make counter-equiv)
    CHECK="board counter-equiv"
    if ${MAKE:-make} --no-print-directory counter-equiv > "$d/counter-equiv.log" 2>&1; then
        pass "board: $(grep -c 'proven (' "$d/counter-equiv.log") counter netlists proven equal to the RTL: $(grep 'proven (' "$d/counter-equiv.log" | sed 's/.*DSP=\([01]\).*proven (\(.*\))/DSP=\1 \2/' | tr '\n' ';') a flipped LUT INIT fails"
    else fail "board: make counter-equiv: $(grep -v '^$' "$d/counter-equiv.log" | tail -n 3 | tr '\n' '|')"; fi
    # make prog without a board: non-zero, one line, quickly (an attached
    # FT2232H would be programmed: skipped then)
    for r in openfpgaloader iceprog; do
        CHECK="board prog $r"
        if grep -qsx 0403 /sys/bus/usb/devices/*/idVendor && grep -qsx 6010 /sys/bus/usb/devices/*/idProduct; then
            pass "board: make prog PROG=$r: skipped, an FT2232H is attached"; continue
        fi
        timeout 120 ${MAKE:-make} --no-print-directory prog BOARD=icebreaker PROG=$r > "$d/prog-$r.out" 2>&1; rc=$?
        n=$(grep -c . "$d/prog-$r.out")
        if [ $rc -eq 124 ]; then fail "board: make prog PROG=$r hangs (killed after 120 s)"
        elif [ $rc -ne 0 ] && [ "$n" -eq 1 ]; then pass "board: make prog PROG=$r without a board: exit $rc, one line: $(cut -c1-140 "$d/prog-$r.out")"
        else fail "board: make prog PROG=$r without a board: exit $rc, $n lines: $(head -n 3 "$d/prog-$r.out" | tr '\n' '|')"; fi
    done
    CHECK="board unknown"
    ${MAKE:-make} --no-print-directory bitstream BOARD=nosuchboard > "$d/unknown.out" 2>&1; rc=$?
    n=$(grep -c . "$d/unknown.out")
    if [ $rc -ne 0 ] && [ "$n" -eq 1 ]; then pass "board: BOARD=nosuchboard: exit $rc, one line"
    else fail "board: BOARD=nosuchboard: exit $rc, $n lines: $(head -n 3 "$d/unknown.out" | tr '\n' '|')"; fi
    suite_end board
}
