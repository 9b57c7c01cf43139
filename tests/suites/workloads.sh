# tests/suites/workloads.sh: suite workloads: the workloads (fw/workloads)
# on a bare harness: on hpm-ref and in lockstep with identical --stats,
# entered in S and M mode (in lockstep), and their WL_SABOTAGE builds failing
# their self-checks on hpm-ref.
suite_workloads() {
    suite_begin workloads
    local wd=$BUILD/fw/workloads d=$OUT/workloads names n e m rc entry th bad
    names=$(sed -n 's/^HPM_WORKLOAD(\([a-z0-9_]*\),.*/\1/p' fw/workloads/workloads.def)
    if [ -z "$names" ]; then CHECK=workloads; fail "workloads: no names in fw/workloads/workloads.def"; suite_end workloads; return; fi
    mkdir -p "$d"
    for n in $names; do
        CHECK="workloads $n"
        e=$wd/bare/$n.elf
        need "$REF" "$SIM" "$e" "$wd/$n.elf" || continue
        entry=$(od -An -t x4 -j 24 -N 4 "$wd/$n.elf" | tr -d ' ')
        if [ "$entry" != 80000000 ]; then fail "workloads $n: $wd/$n.elf has entry 0x$entry, want 0x80000000"
        elif ! model_vs_lockstep "$d/$n" "$SIM" "$e" stats; then fail "workloads $n: $WHY"
        else pass "workloads $n: $STATS"; fi
    done
    for n in $names; do
        CHECK="workloads $n S/M"
        need "$SIM" "$wd/bare-s/$n.elf" "$wd/bare-m/$n.elf" || continue
        bad=""
        for m in s m; do
            "$SIM" --lockstep --elf "$wd/bare-$m/$n.elf" --max-cycles $MAXC > "$d/$n.$m.log" 2>&1; rc=$?
            [ $rc -eq 0 ] || bad="$bad ${m^^}-mode: hpm-sim --lockstep exit $rc: $(grep -v '^$' "$d/$n.$m.log" | tail -n 6 | tr '\n' '|' | head -c 1000)"
        done
        if [ -z "$bad" ]; then pass "workloads $n entered in S and M mode (lockstep)"; else fail "workloads $n:$bad"; fi
    done
    # a self-check failure is tohost = (code << 1) | 1 with 0 < code < 0x400
    # (the harness reports unexpected traps as 0x400 | mcause)
    for n in $names; do
        CHECK="workloads $n sabotage"
        e=$wd/sabotage/$n.elf
        need "$REF" "$e" || continue
        "$REF" --elf "$e" --max-cycles $MAXC > "$d/$n.sabotage.log" 2>&1; rc=$?
        th=$(sed -n 's/.*FAIL tohost=\(0x[0-9a-fA-F]*\).*/\1/p' "$d/$n.sabotage.log" | head -n 1)
        if [ $rc -eq 1 ] && [ -n "$th" ] && [ $((th)) -gt 1 ] && [ $((th)) -lt $((0x800)) ]; then
            pass "workloads $n: sabotaged result fails its self-check (code $((th >> 1)))"
        else fail "workloads $n: the WL_SABOTAGE build exits $rc ($(first_lines "$d/$n.sabotage.log" 2)), want 1 with a self-check code"; fi
    done
    suite_end workloads
}
