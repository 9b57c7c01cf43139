# tests/suites/link.sh: suite link: tests/link/test_link.c: the firmware
# monitor and libhpm over the link protocol on hpm-sim (full), hpm-ref,
# hpm-sim behind a pseudo-terminal (the tty link), the reference board in the
# iCEBreaker's configuration and the 29x8 and 1x40 variants (quick): every
# command and error reply, runs, streams, and every workload's counts equal
# to the reference; a bad cable (faultproxy); the monitor under hostile
# frames (monitor_abuse).

# a bad cable: tests/link/faultproxy.c between hpmctl --link tty: and
# hpm-sim, 1 % of the bytes in each direction flipped, dropped, duplicated,
# preceded by a random byte or lost in a burst of 32 (docs/testing.md). The
# counts must equal the reference board's, byte for byte.
link_faults() {
    local d=$1 fp=$BUILD/tests/faultproxy h=$BIN_DIR/hpmctl ev=cycles,instructions,loads,branch-misses
    local w seed rc what
    CHECK="link faults"
    need "$fp" "$h" || return
    run_faulty() {   # label seed args...: hpmctl on the faulty tty link
        local label=$1 seed=$2; shift 2
        env HPM_SIM="$SIM" "$fp" --rate 0.01 --seed "$seed" --timeout "$FAULT_WATCHDOG" \
            --stats "$d/faults-$label.stats" -- "$h" --link tty:@PTY@ "$@" \
            > "$d/faults-$label.out" 2> "$d/faults-$label.err"
    }
    for what in "crc 1" "sort 2" "matmul 3"; do
        set -- $what; w=$1 seed=$2
        "$h" --link ref stat -x, -e "$ev" "$w" > "$d/faults-$w.ref" 2>&1
        run_faulty "$w" "$seed" stat -x, -e "$ev" "$w"; rc=$?
        if [ $rc -eq 124 ]; then fail "link faults stat $w seed $seed: no end within ${FAULT_WATCHDOG} s (hang)"
        elif [ $rc -eq 0 ] && [ -n "$(fault_counts "$d/faults-$w.ref")" ] && [ ! -s "$d/faults-$w.out" ] &&
             [ "$(fault_counts "$d/faults-$w.err")" = "$(fault_counts "$d/faults-$w.ref")" ] &&
             fault_injected "$d/faults-$w.stats"; then
            pass "link faults stat $w seed $seed at 1 %: counts equal the reference board's ($(head -c 60 "$d/faults-$w.stats")...)"
        else
            fail "link faults stat $w seed $seed at 1 %: exit $rc, $(tail -n 1 "$d/faults-$w.err"); see $d/faults-$w.*"
        fi
    done
    # stat -I and record: every interval as on the reference board (lost
    # samples are fetched again by repeating the run)
    "$h" --link ref stat -I 5 -x, -e "$ev" crc > "$d/faults-interval.ref" 2>&1
    run_faulty interval 4 stat -I 5 -x, -e "$ev" crc; rc=$?
    if [ $rc -eq 0 ] && [ "$(fault_counts "$d/faults-interval.err" | wc -l)" -gt 8 ] && [ ! -s "$d/faults-interval.out" ] &&
       [ "$(fault_counts "$d/faults-interval.err")" = "$(fault_counts "$d/faults-interval.ref")" ] &&
       fault_injected "$d/faults-interval.stats"; then
        pass "link faults stat -I 5 crc seed 4 at 1 %: every interval equals the reference board's"
    else
        fail "link faults stat -I 5 crc seed 4 at 1 %: exit $rc, $(tail -n 1 "$d/faults-interval.err")"
    fi
    "$h" --link ref record -I 1 -e loads,branch-misses -o "$d/faults-record.ref.csv" crc > /dev/null 2>&1
    run_faulty record 5 record -I 1 -e loads,branch-misses -o "$d/faults-record.csv" crc; rc=$?
    if [ $rc -eq 0 ] && [ "$(wc -l < "$d/faults-record.ref.csv")" -gt 10 ] &&
       cmp -s "$d/faults-record.csv" "$d/faults-record.ref.csv" && fault_injected "$d/faults-record.stats"; then
        pass "link faults record -I 1 crc seed 5 at 1 %: the CSV is byte-identical to the reference board's"
    else
        fail "link faults record -I 1 crc seed 5 at 1 %: exit $rc, $(tail -n 1 "$d/faults-record.err")"
    fi
    run_faulty validate 6 validate crc; rc=$?
    if [ $rc -eq 0 ] && grep -q 'crc: OK' "$d/faults-validate.err" && fault_injected "$d/faults-validate.stats"; then
        pass "link faults validate crc seed 6 at 1 %: every event equals the reference"
    else
        fail "link faults validate crc seed 6 at 1 %: exit $rc, $(tail -n 1 "$d/faults-validate.err")"
    fi
    # the board killed mid-run (hpm-sim gets SIGKILL after 1500 bytes, the
    # pty hangs up): the rows so far in a well-formed file, one line, exit 1
    env HPM_SIM="$SIM" "$fp" --rate 0 --kill-board-after 1500 --timeout "$FAULT_WATCHDOG" -- \
        "$h" --link tty:@PTY@ record -I 1 -e loads,branch-misses -o "$d/faults-killed.csv" crc \
        > "$d/faults-killed.out" 2> "$d/faults-killed.err"; rc=$?
    local rows bad
    rows=$(($(wc -l < "$d/faults-killed.csv") - 1))
    bad=$(awk -F, 'NR > 1 && NF != 9' "$d/faults-killed.csv" | wc -l)
    if [ $rc -eq 1 ] && [ "$rows" -gt 0 ] && [ "$bad" -eq 0 ] && [ ! -s "$d/faults-killed.out" ] &&
       head -n "$((rows + 1))" "$d/faults-record.ref.csv" | cmp -s - "$d/faults-killed.csv" &&
       [ "$(wc -l < "$d/faults-killed.err")" -eq 1 ] &&
       grep -q 'board was lost during the run; [0-9]* samples .* kept, the rest of the run is lost' "$d/faults-killed.err"; then
        pass "link faults board killed mid record: exit 1, $rows rows kept (the reference's first ones), one line: $(cat "$d/faults-killed.err")"
    else
        fail "link faults board killed mid record: exit $rc, $rows rows, $bad malformed, $(head -n 2 "$d/faults-killed.err" | tr '\n' '|')"
    fi
    # the same for stat -I: the intervals received before the board died
    # are printed (the reference's first ones), then one line, exit 1
    "$h" --link ref stat -I 1 -x, -e loads,branch-misses crc > "$d/faults-killed-I.ref" 2>&1
    env HPM_SIM="$SIM" "$fp" --rate 0 --kill-board-after 1500 --timeout "$FAULT_WATCHDOG" -- \
        "$h" --link tty:@PTY@ stat -I 1 -x, -e loads,branch-misses crc \
        > "$d/faults-killed-I.log" 2> "$d/faults-killed-I.all"; rc=$?
    # the intervals and the one line, both on stderr (as perf's)
    grep -v '^hpmctl: ' "$d/faults-killed-I.all" > "$d/faults-killed-I.out"
    grep '^hpmctl: ' "$d/faults-killed-I.all" > "$d/faults-killed-I.err"
    rows=$(grep -c . "$d/faults-killed-I.out")
    if [ $rc -eq 1 ] && [ "$rows" -gt 0 ] && [ "$rows" -lt "$(grep -c . "$d/faults-killed-I.ref")" ] && [ ! -s "$d/faults-killed-I.log" ] &&
       head -n "$rows" "$d/faults-killed-I.ref" | cmp -s - "$d/faults-killed-I.out" &&
       [ "$(wc -l < "$d/faults-killed-I.err")" -eq 1 ] &&
       grep -q 'board was lost during the run; [0-9]* samples .* kept, the rest of the run is lost' "$d/faults-killed-I.err"; then
        pass "link faults board killed mid stat -I: exit 1, $((rows / 2)) intervals printed (the reference's first ones), one line: $(cat "$d/faults-killed-I.err")"
    else
        fail "link faults board killed mid stat -I: exit $rc, $rows lines, $(head -n 2 "$d/faults-killed-I.err" | tr '\n' '|')"
    fi
    # lost PROFILE and REGION frames: the run is repeated until every
    # sample and marker is in (PROFILE frames by their number, REGION
    # frames by their mcycle), never a short profile: equal to the
    # reference board's, and the trace shows that frames were lost
    # (SOURCE_DATE_EPOCH: the same time recorded in both, so the files compare byte for byte)
    SOURCE_DATE_EPOCH=1 "$h" --link ref record -e cycles,branches -c 1000 -o "$d/faults-prof.ref.data" crc > /dev/null 2>&1
    SOURCE_DATE_EPOCH=1 HPM_LINK_TRACE=1 run_faulty prof 7 record -e cycles,branches -c 1000 -o "$d/faults-prof.data" crc; rc=$?
    if [ $rc -eq 0 ] && [ -s "$d/faults-prof.ref.data" ] && cmp -s "$d/faults-prof.data" "$d/faults-prof.ref.data" &&
       grep -q 'profile run repeated' "$d/faults-prof.err" && fault_injected "$d/faults-prof.stats"; then
        pass "link faults record -c 1000 crc seed 7 at 1 %: $(grep -c 'profile run repeated' "$d/faults-prof.err") repeats for lost PROFILE frames, prof.data byte-identical to the reference board's"
    else
        fail "link faults record -c 1000 crc seed 7 at 1 %: exit $rc, $(grep -c 'profile run repeated' "$d/faults-prof.err") repeats, $(grep -v link-trace "$d/faults-prof.err" | tail -n 1)"
    fi
    "$h" --link ref stat --regions -x, -e cycles,instructions,loads --size 2 regions > "$d/faults-regions.ref" 2>&1
    HPM_LINK_TRACE=1 run_faulty regions 8 stat --regions -x, -e cycles,instructions,loads --size 2 regions; rc=$?
    # (after the first damaged frame REGION frames come twice, so a repeat
    # is rare here; test_link corrupts one deterministically, both ways)
    if [ $rc -eq 0 ] && grep -q '^empty,' "$d/faults-regions.ref" && [ ! -s "$d/faults-regions.out" ] &&
       grep -v '^link-trace' "$d/faults-regions.err" | cmp -s - "$d/faults-regions.ref" &&
       fault_injected "$d/faults-regions.stats"; then
        pass "link faults stat --regions seed 8 at 1 %: $(grep -c 'repeated:' "$d/faults-regions.err") repeats of the run, every region equal to the reference board's"
    else
        fail "link faults stat --regions seed 8 at 1 %: exit $rc, $(grep -c 'repeated:' "$d/faults-regions.err") repeats, $(grep -v link-trace "$d/faults-regions.err" | tail -n 1)"
    fi
}

# test_link (ASan/UBSan) drives every protocol command and error reply,
# runs, streams and every workload (counts == reference): on the simulated
# board, on the reference board, and quickly on narrow-counter variants.
suite_link() {
    suite_begin link
    local t=$BUILD/tests/test_link d=$OUT/link v
    mkdir -p "$d"
    CHECK="link test client"
    need "$t" "$SIM" "$REF" || { suite_end link; return; }
    link_run() {    # label, args...
        local label=$1; shift
        "$t" "$@" > "$d/$label.log" 2>&1
        relay "link $label:" "$d/$label.log"
        grep -q '^link .*passed' "$d/$label.log" ||
            fail "link $label: test_link died: $(tail -n 3 "$d/$label.log" | tr '\n' '|')"
    }
    link_run sim --link sim
    link_run ref --link ref --quick
    link_run tty --link tty-sim --quick
    link_faults "$d"
    # the monitor under 100,000 hostile frames, on the reference board
    CHECK="link monitor abuse"
    if need "$BUILD/tests/monitor_abuse"; then
        "$BUILD/tests/monitor_abuse" --link ref --frames 100000 --seed 1 > "$d/abuse.log" 2>&1
        relay "link abuse:" "$d/abuse.log"
        grep -q '^monitor_abuse .*passed' "$d/abuse.log" || fail "link abuse: $(tail -n 1 "$d/abuse.log")"
        # and a bounded run on the RTL board (hpm-sim: about 50 frames/s)
        HPM_SIM="$SIM" "$BUILD/tests/monitor_abuse" --link sim --frames "${ABUSE_RTL_FRAMES:-2000}" --seed 2 \
            > "$d/abuse-rtl.log" 2>&1
        relay "link abuse-rtl:" "$d/abuse-rtl.log"
        grep -q '^monitor_abuse .*passed' "$d/abuse-rtl.log" || fail "link abuse-rtl: $(tail -n 1 "$d/abuse-rtl.log")"
    fi
    # the iCEBreaker's configuration (the board top's default, docs/board.md):
    # few narrow counters, so every multi-event measurement is a replay
    local bnum bwidth
    bnum=$(sed -n 's/.*parameter integer HPM_NUM *= *\([0-9]*\).*/\1/p' hw/board/icebreaker_top.v)
    bwidth=$(sed -n 's/.*parameter integer HPM_WIDTH *= *\([0-9]*\).*/\1/p' hw/board/icebreaker_top.v)
    link_run "ref-${bnum}x$bwidth" --link ref --hpm-num "$bnum" --hpm-width "$bwidth" --quick
    for v in 29x8 1x40; do
        [ -x "$BUILD/bin/hpm-sim-$v" ] && link_run "sim-$v" --link sim --quick --sim "$BUILD/bin/hpm-sim-$v"
    done
    suite_end link
}
