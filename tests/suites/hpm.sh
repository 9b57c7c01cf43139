# tests/suites/hpm.sh: suite hpm: the directed HPM tests, tests/hpm/*.S,
# like isa on the default build; then, reported as suite hpm-variants: the
# configuration-probing subset (HPM_VARIANT_TESTS) on every variant
# hpm-sim-<num>x<width> (HPM_VARIANTS) against hpm-ref --hpm-num N
# --hpm-width W, HPM_RANDOM_SEEDS random programs (rvgen --lcofi: LCOFI
# interrupts taken) in lockstep on each variant, every directed HPM test
# and HPM_RANDOM_SEEDS random programs on hpm-sim-v3 (counting
# architecture 3, the board's; the other builds are architecture 2,
# docs/hpm.md), the subset, hpm_flush10
# and the random programs on hpm-sim-v3-10x64 (architecture 3 at 10
# counters: 7-bit low parts), HPM_LCOFI_SEEDS random programs on the
# default build.
HPM_VARIANTS=${HPM_VARIANTS-0x64 1x40 29x1 29x8}      # "" skips the variants
HPM_VARIANT_TESTS=${HPM_VARIANT_TESTS-hpm_width hpm_config}
HPM_RANDOM_SEEDS=${HPM_RANDOM_SEEDS:-10}
HPM_LCOFI_SEEDS=${HPM_LCOFI_SEEDS:-40}
HPM_RANDOM_LENGTH=3000
# hpm_lockstep_sig TEST LABEL SIM ELF [REF OPTIONS]: ELF on hpm-ref (with
# the options) and on SIM in lockstep (in $d): both pass, same signature
hpm_lockstep_sig() {
    local t=$1 v=$2 vsim=$3 e=$4
    shift 4
    if model_vs_lockstep "$d/$t-$v" "$vsim" "$e" sig "$@"; then pass "hpm $t on $v ($(wc -l < "$d/$t-$v.ref.sig") signature words)"
    else fail "hpm $t on $v: $WHY"; fi
}

# hpm_random_batch LABEL SIM N: rvgen --lcofi seeds 1..N in lockstep on SIM
# (in $d), one check
hpm_random_batch() {
    local label=$1 sim=$2 n=$3 s out ok bad=""
    [ "$n" -gt 0 ] || return 0
    need "$RVGEN" "$sim" || return 0
    out=$(lockstep_seeds "$sim" "$d/random-$label-seed" 1 "$n" $HPM_RANDOM_LENGTH --lcofi)
    ok=$(grep -c '^PASS' <<< "$out")
    for s in $(seq 1 "$n"); do grep -qx "PASS seed $s" <<< "$out" || bad="$bad $s"; done
    if [ -z "$bad" ]; then pass "hpm random --lcofi on $label: $ok seeds x $HPM_RANDOM_LENGTH in lockstep"
    else fail "hpm random --lcofi on $label: seeds$bad fail: $(grep -m1 '^FAIL' <<< "$out") [reproduce: $RVGEN --seed N --length $HPM_RANDOM_LENGTH --lcofi; files in $d]"; fi
}
suite_hpm() {
    suite_isa hpm           # tests/hpm/*.S on hpm-ref and hpm-sim --lockstep (29 x 64)
    local S=hpm-variants d=$OUT/hpm-variants v num width vsim t e
    suite_begin $S
    mkdir -p "$d"
    rm -f "$d"/random-*         # leftovers of earlier failures
    # the default board and the default model have the top-down unit: there
    # hpm_topdown took its present branch (the absent one signs 17 traps)
    CHECK="hpm top-down unit present"
    local tds=$OUT/hpm/hpm_topdown.sim.sig
    if [ ! -s "$tds" ]; then fail "hpm: the top-down unit: no signature of hpm_topdown on the default board ($tds)"
    elif [ "$(head -n 1 "$tds")" = 00000011 ]; then fail "hpm: the default board has no top-down unit (hpm_topdown: every CSR of it trapped)"
    else pass "hpm: the default board has the top-down unit (hpm_topdown's present branch, SLOTS after a reset $(head -n 1 "$tds"))"; fi
    # started by make test (MAKE set): build the variants that are missing
    # or stale (make sim-variants, ~1 min each the first time)
    if [ -n "$HPM_VARIANTS" ] && [ -n "${MAKE:-}" ]; then
        ${MAKE} --no-print-directory sim-variants > "$d/build.log" 2>&1 ||
            echo "hpm: make sim-variants failed, see $d/build.log"
    fi
    for v in $HPM_VARIANTS; do
        num=${v%x*} width=${v#*x} vsim=$BUILD/bin/hpm-sim-$v
        CHECK="hpm variant $v"
        if [ ! -x "$vsim" ]; then fail "hpm variant $v: missing $vsim (run make sim-variants)"; continue; fi
        if [ "$("$vsim" --hpm-config 2>/dev/null | tr -s ' \t' ' ')" != "$num $width" ]; then
            fail "hpm variant $v: $vsim --hpm-config says '$("$vsim" --hpm-config 2>&1 | head -c 80)', want '$num $width'"; continue
        fi
        for t in $HPM_VARIANT_TESTS; do
            e=$BUILD/tests/hpm/$t.elf
            need "$e" || continue
            hpm_lockstep_sig "$t" "$v" "$vsim" "$e" --hpm-num "$num" --hpm-width "$width"
        done
        # random programs (HPM selectors, counter preloads near the wrap of
        # every width, LCOFI) in lockstep on the variant
        hpm_random_batch "$v" "$vsim" "$HPM_RANDOM_SEEDS"
    done
    # counting architecture 3 (hpm-sim-v3, 29 x 64, the board's; the other
    # builds are architecture 2, docs/hpm.md): every directed HPM test and
    # the random HPM programs in lockstep, so both architectures stay exact.
    # hpm-sim-v3 is the board's form, with the board's top-down counts
    # instead of the unit: its reference model too (hpm_topdown checks that
    # every CSR of the unit traps, hpm_td_board the counts)
    if [ -n "$HPM_VARIANTS" ]; then
        vsim=$BUILD/bin/hpm-sim-v3
        CHECK="hpm architecture 3"
        if [ ! -x "$vsim" ]; then fail "hpm architecture 3: missing $vsim (run make sim-variants)"
        else
            for e in "$BUILD"/tests/hpm/*.elf; do
                hpm_lockstep_sig "$(basename "$e" .elf)" v3 "$vsim" "$e" --td-board
            done
            hpm_random_batch v3 "$vsim" "$HPM_RANDOM_SEEDS"
        fi
        # architecture 3 with 7-bit low parts (hpm_a3_store,
        # up to 14 counters), their flush at every phase (hpm_flush10)
        vsim=$BUILD/bin/hpm-sim-v3-10x64
        CHECK="hpm architecture 3 10x64"
        if [ ! -x "$vsim" ]; then fail "hpm architecture 3 10x64: missing $vsim (run make sim-variants)"
        else
            for t in $HPM_VARIANT_TESTS hpm_flush10; do
                e=$BUILD/tests/hpm/$t.elf
                need "$e" || continue
                hpm_lockstep_sig "$t" v3-10x64 "$vsim" "$e" --hpm-num 10 --hpm-width 64 --no-topdown
            done
            hpm_random_batch v3-10x64 "$vsim" "$HPM_RANDOM_SEEDS"
        fi
    fi
    CHECK="hpm random default"
    hpm_random_batch default "$SIM" "$HPM_LCOFI_SEEDS"
    suite_end $S
}
