# tests/suites/neg.sh: suite neg: the checks can fail: a failing program
# exits 1, a hanging one 2, lockstep against a fault-injected model exits 1;
# hpm-sim --trace keeps the exit status and writes the VCD.
suite_neg() {
    suite_begin neg
    local n=$BUILD/tests/neg rc r
    for r in ref sim; do
        local bin=$REF extra=""
        [ $r = sim ] && bin=$SIM && extra=--lockstep
        CHECK="neg fail.elf on hpm-$r"
        if need "$bin" "$n/fail.elf"; then
            "$bin" $extra --elf "$n/fail.elf" --max-cycles 100000 > /dev/null 2>&1; rc=$?
            if [ $rc -eq 1 ]; then pass "neg fail.elf exits 1 on hpm-$r"; else fail "neg fail.elf on hpm-$r: exit $rc, want 1"; fi
        fi
        CHECK="neg hang.elf on hpm-$r"
        if need "$bin" "$n/hang.elf"; then
            "$bin" $extra --elf "$n/hang.elf" --max-cycles 10000 > /dev/null 2>&1; rc=$?
            if [ $rc -eq 2 ]; then pass "neg hang.elf exits 2 on hpm-$r"; else fail "neg hang.elf on hpm-$r: exit $rc, want 2"; fi
        fi
        CHECK="neg divloop.elf on hpm-$r"
        if need "$bin" "$n/divloop.elf"; then
            "$bin" $extra --elf "$n/divloop.elf" --max-cycles $MAXC > /dev/null 2>&1; rc=$?
            if [ $rc -eq 0 ]; then pass "neg divloop.elf (control) passes on hpm-$r"; else fail "neg divloop.elf on hpm-$r: exit $rc, want 0"; fi
        fi
    done
    # lockstep against a model with an injected fault must diverge (exit 1)
    local f
    for f in 1 2; do
        CHECK="neg lockstep fault $f"
        need "$SIM" "$n/divloop.elf" || continue
        "$SIM" --lockstep --ref-fault "$f" --elf "$n/divloop.elf" --max-cycles $MAXC > "$OUT/fault$f.log" 2>&1; rc=$?
        if [ $rc -eq 1 ]; then pass "neg hpm-sim --lockstep --ref-fault $f exits 1: $(grep -m1 -i diverg "$OUT/fault$f.log" | head -c 200)"
        else fail "neg hpm-sim --lockstep --ref-fault $f: exit $rc, want 1"; fi
    done
    CHECK="neg lockstep fault 0 (control)"
    if need "$FAULT_CHECK" "$n/divloop.elf"; then
        "$FAULT_CHECK" "$n/divloop.elf" 0 > "$OUT/fault0.log" 2>&1; rc=$?
        if [ $rc -eq 0 ]; then pass "neg lockstep checker without fault exits 0"; else fail "neg fault_check fault 0: exit $rc, want 0"; fi
    fi
    # hpm-sim has no VCD support of its own: --trace runs hpm-sim-trace, which
    # keeps the exit status and writes a cycle's two edges per cycle
    CHECK="neg hpm-sim --trace"
    if need "$SIM" "$SIM-trace" "$n/hang.elf"; then
        rm -f "$OUT/hang.vcd"
        "$SIM" --elf "$n/hang.elf" --max-cycles 100 --trace "$OUT/hang.vcd" > /dev/null 2>&1; rc=$?
        if [ $rc -eq 2 ] && grep -q '^\$enddefinitions' "$OUT/hang.vcd" && grep -q '^#207$' "$OUT/hang.vcd"; then
            pass "neg hpm-sim --trace (via hpm-sim-trace) exits 2, VCD to time 207 (4 reset and 100 cycles)"
        else fail "neg hpm-sim --trace: exit $rc (want 2), VCD $(grep -c '^#' "$OUT/hang.vcd" 2>/dev/null) time steps"; fi
    fi
    suite_end neg
}
