# tests/suites/random.sh: suite random: rvgen seeds FIRST..FIRST+SEEDS-1
# (--first, --seeds), LENGTH instructions each (--length), in lockstep on
# hpm-sim (lockstep_seeds), JOBS at a time; one check per seed, the passing
# ones counted but not printed.
suite_random() {
    suite_begin random
    CHECK=random
    if need "$RVGEN" "$SIM"; then
        mkdir -p "$OUT/random"
        rm -f "$OUT"/random/seed*      # leftovers of earlier failures
        local last=$((FIRST + SEEDS - 1)) line s
        echo "(seeds $FIRST..$last, $LENGTH instructions each, $JOBS in parallel)"
        while IFS= read -r line; do
            case "$line" in
                PASS*) S_PASS=$((S_PASS + 1)) ;;
                FAIL*) line=${line#FAIL seed }; s=${line%%:*}
                       fail "random seed $s: ${line#*: } [reproduce: $RVGEN --seed $s --length $LENGTH -o $OUT/random/seed$s.S; files kept in $OUT/random]" ;;
            esac
        done < <(lockstep_seeds "$SIM" "$OUT/random/seed" "$FIRST" "$last" "$LENGTH")
        [ $((S_PASS + S_FAIL)) -eq "$SEEDS" ] || fail "random: only $((S_PASS + S_FAIL)) of $SEEDS seeds reported"
    fi
    suite_end random
}
