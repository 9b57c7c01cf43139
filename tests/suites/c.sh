# tests/suites/c.sh: suite c: the C programs, tests/c/*.c, each printing
# its result line, through model_vs_lockstep (equal --stats lines).
suite_c() {
    suite_begin c
    local elfs=("$BUILD"/tests/c/*.elf) e name d
    if [ ! -e "${elfs[0]}" ]; then CHECK=c; fail "c: no programs built in $BUILD/tests/c"; suite_end c; return; fi
    d=$OUT/c; mkdir -p "$d"
    for e in "${elfs[@]}"; do
        name=$(basename "$e" .elf); CHECK="c $name"
        need "$REF" "$SIM" || continue
        if ! model_vs_lockstep "$d/$name" "$SIM" "$e" stats; then fail "c $name: $WHY"
        elif ! grep -q "^$name " "$d/$name.ref.out"; then fail "c $name: no result line on the UART"
        else pass "c $name: $STATS | $(head -n1 "$d/$name.ref.out")"; fi
    done
    suite_end c
}
