# tests/suites/unit.sh: suite unit: each make target of UNIT_TARGETS is one
# check: lint (Verilator -Wall, link cycles, C style), test-ref, test-proto,
# the short fuzz runs, events-check, isa-gen-check, alu-equiv, ...
suite_unit() {
    suite_begin unit
    local t
    for t in ${UNIT_TARGETS:-}; do
        CHECK="unit $t"
        if ${MAKE:-make} --no-print-directory "$t" > "$OUT/unit-$t.log" 2>&1; then pass "unit: make $t"
        else fail "unit: make $t failed: $(tail -n 5 "$OUT/unit-$t.log" | tr '\n' '|')"; fi
    done
    suite_end unit
}
