# tests/suites/common.sh: what the suites share, sourced by tests/run.sh
# (which sets BUILD, SIM, REF, RVGEN, RV_CC, RV_ASFLAGS, RV_LDFLAGS, MAXC,
# JOBS and OUT): one line per check and the per-suite counts, the two
# lockstep flows (a program on hpm-ref and on hpm-sim --lockstep; a random
# program generated, assembled and run in lockstep), the relay of a test
# program's own PASS/FAIL lines, and the fault-injection helpers of the
# link and usb suites.

TOTAL_PASS=0 TOTAL_FAIL=0
S_PASS=0 S_FAIL=0

pass() { echo "PASS $*"; S_PASS=$((S_PASS + 1)); }
fail() { echo "FAIL $*"; echo "FAIL $*" >> "$OUT/failures.txt"; S_FAIL=$((S_FAIL + 1)); }
suite_begin() { echo "== suite $1"; S_PASS=0; S_FAIL=0; }
suite_end() {
    echo "== suite $1: $S_PASS passed, $S_FAIL failed"
    TOTAL_PASS=$((TOTAL_PASS + S_PASS)); TOTAL_FAIL=$((TOTAL_FAIL + S_FAIL))
    SUMMARY+=("$(printf '%-9s %5d passed, %d failed' "$1" $S_PASS $S_FAIL)")
}
SUMMARY=()
need() {   # need FILE...: fail the check if a prerequisite is missing
    local f
    for f in "$@"; do
        if [ ! -x "$f" ] && [ ! -f "$f" ]; then fail "$CHECK: missing $f (run make all test-build)"; return 1; fi
    done
}
first_lines() { grep -v '^$' "$1" | head -n "${2:-4}" | tr '\n' '|' | head -c 800; }

# model_vs_lockstep BASE SIM ELF sig|stats [REF OPTIONS]: runs ELF on hpm-ref
# (with the options) and on SIM --lockstep (files BASE.{ref,sim}.{out,err,sig});
# both must pass and print the same UART output, and either write the same
# non-empty signature (sig) or the same hpm-stats line (stats, left in
# STATS). Returns 1 with the reason in WHY.
model_vs_lockstep() {
    local base=$1 sim=$2 e=$3 kind=$4 rr rs sref ssim
    shift 4
    local -a rarg=(--stats) sarg=(--stats)
    [ "$kind" = sig ] && rarg=(--signature "$base.ref.sig") sarg=(--signature "$base.sim.sig")
    "$REF" "$@" --elf "$e" --max-cycles $MAXC "${rarg[@]}" > "$base.ref.out" 2> "$base.ref.err"; rr=$?
    "$sim" --lockstep --elf "$e" --max-cycles $MAXC "${sarg[@]}" > "$base.sim.out" 2> "$base.sim.err"; rs=$?
    sref=$(grep '^hpm-stats:' "$base.ref.err"); ssim=$(grep '^hpm-stats:' "$base.sim.err")
    STATS=${sref#hpm-stats: } WHY=""
    if [ $rr -ne 0 ]; then WHY="hpm-ref${*:+ $*} exit $rr: $(first_lines "$base.ref.out") $(first_lines "$base.ref.err")"
    elif [ $rs -ne 0 ]; then WHY="$(basename "$sim") --lockstep exit $rs: $(grep -v '^$' "$base.sim.err" | tail -n 12 | tr '\n' '|' | head -c 2000)"
    elif [ "$kind" = stats ] && { [ -z "$sref" ] || [ "$sref" != "$ssim" ]; }; then WHY="stats differ: ref '$sref' sim '$ssim'"
    elif [ "$kind" = sig ] && ! cmp -s "$base.ref.sig" "$base.sim.sig"; then WHY="signatures differ: $(diff "$base.ref.sig" "$base.sim.sig" | head -n 6 | tr '\n' ' ')"
    elif [ "$kind" = sig ] && [ ! -s "$base.ref.sig" ]; then WHY="empty signature"
    elif ! cmp -s "$base.ref.out" "$base.sim.out"; then WHY="UART output differs (ref: $(head -c 80 "$base.ref.out" | od -c | head -2 | tr '\n' ' '))"
    fi
    [ -z "$WHY" ]
}

# the link and usb suites' bad cables (tests/link/faults.h): a run that
# does not end within FAULT_WATCHDOG s fails as a hang
FAULT_WATCHDOG=${FAULT_WATCHDOG:-900}
fault_counts() {   # the count,event pairs of perf -x, lines
    grep -E '^[0-9.]+,' "$1" | awk -F, 'NF >= 4 { print ($1 ~ /\./ ? $1 "," $2 "," $4 : $1 "," $3) }'
}
fault_injected() {   # stats file: faults in both directions
    awk '/->/ { n = 0; for (i = 6; i < NF; i += 2) n += $(i + 1); if (n == 0) bad = 1; dirs++ }
         END { exit !(dirs == 2 && !bad) }' "$1"
}

# relay PREFIX FILE: a test program's own "PASS what" and "FAIL what: why"
# lines in FILE, each one check named "PREFIX what"
relay() {
    local line
    while IFS= read -r line; do
        case "$line" in
            PASS\ *) pass "$1 ${line#PASS }" ;;
            FAIL\ *) fail "$1 ${line#FAIL }" ;;
        esac
    done < "$2"
}

# python_suite NAME SCRIPT: a Python test script that prints one "PASS what"
# or "FAIL what: why" line per check, run with --build, each line one check
python_suite() {
    local name=$1 script=$2 log=$OUT/$1.log
    suite_begin "$name"
    CHECK=$name
    if need "$BUILD/bin/hpmctl" "$SIM" "$REF"; then
        if ! command -v python3 > /dev/null; then fail "$name: python3 not found"
        else
            relay "$name" <(python3 "$script" --build "$BUILD" 2>&1 | tee "$log")
            grep -q '^\(PASS\|FAIL\) ' "$log" || fail "$name: $script printed no check: $(tail -n 3 "$log" | tr '\n' '|')"
        fi
    fi
    suite_end "$name"
}

# random_lockstep BASE SIM SEED LENGTH [RVGEN OPTIONS]: rvgen's program for
# SEED, assembled, on SIM --lockstep; its files (BASE.S, .elf, .log) are
# kept only when it fails, WHY says how
random_lockstep() {
    local base=$1 sim=$2 s=$3 len=$4 rc
    shift 4
    if ! "$RVGEN" --seed "$s" --length "$len" "$@" -o "$base.S" 2> "$base.log"; then
        WHY="rvgen failed: $(head -c 300 "$base.log")"; return 1
    fi
    # shellcheck disable=SC2086
    if ! $RV_CC $RV_LDFLAGS $RV_ASFLAGS -o "$base.elf" "$base.S" > "$base.log" 2>&1; then
        WHY="assembler: $(head -c 300 "$base.log")"; return 1
    fi
    "$sim" --lockstep --elf "$base.elf" --max-cycles $MAXC > "$base.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then rm -f "$base.S" "$base.elf" "$base.log"; return 0; fi
    WHY="hpm-sim --lockstep exit $rc: $(grep -E '^lockstep: (divergence|rtl|ref)|out of cycles|FAIL|rror' "$base.log" | head -n 4 | tr '\n' '|' | head -c 800)"
    return 1
}

# lockstep_seeds SIM PREFIX FIRST LAST LENGTH [RVGEN OPTIONS]: random_lockstep
# for seeds FIRST..LAST (files PREFIX<seed>.*), JOBS at a time; prints
# "PASS seed S" or "FAIL seed S: why" per seed, in the order they end
lockstep_seeds() {
    local sim=$1 prefix=$2 first=$3 last=$4 len=$5 s
    shift 5
    for s in $(seq "$first" "$last"); do
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
        if random_lockstep "$prefix$s" "$sim" "$s" "$len" "$@"; then echo "PASS seed $s"
        else echo "FAIL seed $s: $WHY"; fi &
    done
    wait
}
