# tests/suites/isa.sh: suite isa: the directed tests, tests/isa/*.S, each
# through model_vs_lockstep: hpm-ref, then hpm-sim --lockstep, both pass with
# the same UART output and the same signature (the hpm suite's first half too).
suite_isa() {   # suite_isa [NAME]: directed tests in $BUILD/tests/NAME (isa)
    local S=${1:-isa}
    suite_begin $S
    local elfs=("$BUILD/tests/$S"/*.elf) e name d
    if [ ! -e "${elfs[0]}" ]; then CHECK=$S; fail "$S: no tests built in $BUILD/tests/$S"; suite_end $S; return; fi
    d=$OUT/$S; mkdir -p "$d"
    for e in "${elfs[@]}"; do
        name=$(basename "$e" .elf); CHECK="$S $name"
        need "$REF" "$SIM" || continue
        if model_vs_lockstep "$d/$name" "$SIM" "$e" sig; then pass "$S $name ($(wc -l < "$d/$name.ref.sig") signature words)"
        else fail "$S $name: $WHY"; fi
    done
    suite_end $S
}
