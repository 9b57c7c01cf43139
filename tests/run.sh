#!/usr/bin/env bash
# tests/run.sh: runs the hpm-overlay test suites and prints one line per
# check, a summary per suite, and finally "N passed, M failed".
# Exits non-zero if anything failed. Normally started by `make test`
# (which builds everything first and sets the variables below).
#
#   tests/run.sh [--seeds N] [--first S] [--length L] [--jobs J] [SUITE...]
#
# Suites (default: all, in this order; or set TEST_SUITES). isa, hpm, c and
# workloads run each program through model_vs_lockstep: hpm-ref, then
# hpm-sim --lockstep, both pass with the same UART output and the same
# signature or --stats line.
#   unit      make targets of unit tests (UNIT_TARGETS): lint (Verilator -Wall,
#             link cycles, C style), test-ref, test-proto,
#             the short fuzz runs, events-check, isa-gen-check, alu-equiv
#   isa       directed tests, tests/isa/*.S
#   hpm       directed HPM tests, tests/hpm/*.S, like isa on the default build;
#             then, reported as suite hpm-variants: the configuration-probing
#             subset (HPM_VARIANT_TESTS) on every variant
#             hpm-sim-<num>x<width> (HPM_VARIANTS) against hpm-ref --hpm-num N
#             --hpm-width W, HPM_RANDOM_SEEDS random programs (rvgen --lcofi:
#             LCOFI interrupts taken) in lockstep on each variant, every
#             directed HPM test and HPM_RANDOM_SEEDS random programs on
#             hpm-sim-v1 and hpm-sim-v3 (counting architectures 1 and 3,
#             docs/hpm.md), the subset, hpm_flush10 and the random programs
#             on hpm-sim-v3-10x64 (architecture 3 at 10 counters: 7-bit low
#             parts), HPM_LCOFI_SEEDS random programs on the default
#   random    rvgen seeds S..S+N-1, L instructions each, hpm-sim --lockstep
#   c         C programs, tests/c/*.c, each printing its result line
#   uart      hello.elf prints "hello, world" on both runners (the monitor's
#             UART protocol is the link suite's)
#   neg       failing program exits 1, hanging program exits 2, lockstep
#             against a fault-injected model exits 1
#   workloads the 13 workloads (fw/workloads) on a bare harness; entered in S
#             and M mode; their sabotaged builds fail their self-checks
#   link      tests/link/test_link.c: the firmware monitor and libhpm over
#             the link protocol on hpm-sim (full), hpm-ref, hpm-sim behind a
#             pseudo-terminal (the tty link) and the 29x8 and 1x40 variants
#             (quick): every command and error reply, runs, streams, and every
#             workload's counts equal to the reference; a bad cable
#             (faultproxy); the monitor under hostile frames
#   usb       the USB link (host/lib/link_usb.c) through an FT2232H emulated
#             under umockdev (build/tests/ftdi_emu, real libusb): divisor
#             table, discovery, loopback via cat, timeouts, unplug, PING to
#             the monitor on hpm-sim; and the emulator's checks failing a
#             driver with a wrong baud rate, unstripped status bytes, no
#             latency timer or no 8N1
#   cli       hpmctl (host/cli) on the simulated board, tests/cli/test_cli.py:
#             every subcommand and output format (CSV/JSON parsed), counts
#             equal to the reference, argument errors, validate --all, and
#             validate failing on build/bin/hpm-sim-fault (HPM_SIM_FAULT)
#   programs  users' own programs built by the installed hpm-cc, through the
#             installed hpmctl (tests/programs/run.py, one t_*.py module per
#             concern): programs that write where they should not, never end,
#             take arguments, fail or outlive the link's time-outs
#   net       the network links (tests/net/test_net.py): a real ser2net
#             exporting the simulated board's pseudo-terminal raw and with
#             RFC 2217; stat, record -c, validate, Ctrl-C and a dropped
#             connection through tcp: and rfc2217: equal to the reference
#             board; the links' one-line errors; tools/junit_merge.py on two
#             boards' reports; lab/test_board.py under labgrid's pytest
#             plugin with lab/env-local.yaml (validate --all)
#   board     the iCEBreaker bitstream (docs/board.md): make bitstream
#             BOARD=icebreaker, its report (.bin, Fmax >= the target clock,
#             utilization, no combinational path through a DSP, and that
#             check failing an unregistered multiplier), the SB_MAC16
#             counters against the counter semantics and core_muldiv's
#             netlist against RV32M (iverilog), the gate-level board
#             (validate --all, record -c and stat --regions against the
#             reference board; a netlist with a LUT of the counter store
#             broken failing validate; directed tests through the monitor,
#             GATE_ELF_TESTS, tests/link/elfrun.c, against the reference
#             board), make counter-equiv (hpm_counter's netlists proven
#             equal to the RTL), make prog without a board (one line,
#             non-zero, no hang) and
#             an unknown BOARD (one line)
#
# Environment: BUILD (build), RV_CC, RV_ASFLAGS, RV_LDFLAGS (to assemble
# random programs), RVGEN, FAULT_CHECK, UNIT_TARGETS, TEST_JOBS,
# HPM_VARIANTS ("0x64 1x40 29x1 29x8"), HPM_VARIANT_TESTS ("hpm_width
# hpm_config"), HPM_RANDOM_SEEDS (10), HPM_LCOFI_SEEDS (40).
set -u
cd "$(dirname "$0")/.."

# Started from a make -jN recipe that make did not see as recursive, the
# jobserver named in MAKEFLAGS is closed here: every nested make would print
# "jobserver unavailable" into the outputs the checks compare. Drop it then
# (nested makes keep -jN of their own).
if [[ ${MAKEFLAGS:-} =~ --jobserver-auth=([0-9]+),([0-9]+) ]] &&
   ! { : <&"${BASH_REMATCH[1]}" && : >&"${BASH_REMATCH[2]}"; } 2> /dev/null; then
    MAKEFLAGS=$(sed -E 's/ ?--jobserver-auth=[0-9]+,[0-9]+//' <<< "$MAKEFLAGS")
    export MAKEFLAGS
fi

BUILD=${BUILD:-build}
SIM=${HPM_SIM:-$BUILD/bin/hpm-sim}
BIN_DIR=$BUILD/bin
REF=${HPM_REF:-$BUILD/bin/hpm-ref}
RVGEN=${RVGEN:-$BUILD/tests/rvgen}
FAULT_CHECK=${FAULT_CHECK:-$BUILD/tests/fault_check}
RV_CC=${RV_CC:-riscv64-unknown-elf-gcc}
RV_ASFLAGS=${RV_ASFLAGS:--march=rv32im_zicsr_zifencei -mabi=ilp32 -mcmodel=medany}
RV_LDFLAGS=${RV_LDFLAGS:--march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -static -Wl,--no-warn-rwx-segments -T fw/common/ram.ld}
JOBS=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
OUT=$BUILD/tests/out
MAXC=20000000            # cycle budget for every program that should halt

SEEDS=200 FIRST=1 LENGTH=10000
SUITES=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seeds)  SEEDS=$2; shift 2 ;;
        --first)  FIRST=$2; shift 2 ;;
        --length) LENGTH=$2; shift 2 ;;
        --jobs|-j) JOBS=$2; shift 2 ;;
        --one-random) ONE_RANDOM=$2; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) SUITES+=("$1"); shift ;;
    esac
done
if [ ${#SUITES[@]} -eq 0 ]; then
    read -r -a SUITES <<< "${TEST_SUITES:-unit isa hpm random c uart neg workloads link usb cli programs net board}"
fi

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

# ---- one random program (run by xargs in parallel): prints one line ----
if [ -n "${ONE_RANDOM:-}" ]; then
    s=$ONE_RANDOM
    base=$OUT/random/seed$s
    if random_lockstep "$base" "$SIM" "$s" "$LENGTH"; then echo "PASS random seed $s"
    else echo "FAIL random seed $s: $WHY [reproduce: $RVGEN --seed $s --length $LENGTH -o $base.S; files kept in $(dirname "$base")]"; fi
    exit 0
fi

mkdir -p "$OUT"
: > "$OUT/failures.txt"
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

# ---- (a) unit tests: each make target in UNIT_TARGETS is one check ----
# (reference model, frame codec, short fuzz run, generated-docs freshness)
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

# ---- (b) directed ISA tests ----
suite_isa() {   # suite_isa [NAME]: directed tests in $BUILD/tests/NAME (isa)
    local S=${1:-isa}
    suite_begin $S
    local elfs=("$BUILD"/tests/$S/*.elf) e name d
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

# ---- (b') HPM: directed tests on the default build, the probing subset and
# a few random programs on every HPM_NUM x HPM_WIDTH variant ----
HPM_VARIANTS=${HPM_VARIANTS-0x64 1x40 29x1 29x8}      # "" skips the variants
HPM_VARIANT_TESTS=${HPM_VARIANT_TESTS-hpm_width hpm_config}
HPM_RANDOM_SEEDS=${HPM_RANDOM_SEEDS:-10}
HPM_LCOFI_SEEDS=${HPM_LCOFI_SEEDS:-40}
HPM_RANDOM_LENGTH=3000
# hpm_random_batch LABEL SIM N: rvgen --lcofi seeds 1..N in lockstep on SIM
# (uses $d of suite_hpm)
# hpm_lockstep_sig TEST LABEL SIM ELF [REF OPTIONS]: ELF on hpm-ref (with
# the options) and on SIM in lockstep (in $d): both pass, same signature
hpm_lockstep_sig() {
    local t=$1 v=$2 vsim=$3 e=$4
    shift 4
    if model_vs_lockstep "$d/$t-$v" "$vsim" "$e" sig "$@"; then pass "hpm $t on $v ($(wc -l < "$d/$t-$v.ref.sig") signature words)"
    else fail "hpm $t on $v: $WHY"; fi
}

hpm_random_batch() {
    local label=$1 sim=$2 n=$3 s ok=0 bad=""
    [ "$n" -gt 0 ] || return 0
    need "$RVGEN" "$sim" || return 0
    for s in $(seq 1 "$n"); do
        if random_lockstep "$d/random-$label-seed$s" "$sim" "$s" $HPM_RANDOM_LENGTH --lcofi; then ok=$((ok + 1))
        else bad="$bad $s"; fi
    done
    if [ -z "$bad" ]; then pass "hpm random --lcofi on $label: $ok seeds x $HPM_RANDOM_LENGTH in lockstep"
    else fail "hpm random --lcofi on $label: seeds$bad fail: $(grep -h -m1 '^lockstep: divergence' "$d"/random-"$label"-seed*.log 2>/dev/null | head -n 1) [reproduce: $RVGEN --seed N --length $HPM_RANDOM_LENGTH --lcofi; files in $d]"; fi
}
suite_hpm() {
    suite_isa hpm           # tests/hpm/*.S on hpm-ref and hpm-sim --lockstep (29 x 64)
    local S=hpm-variants d=$OUT/hpm-variants v num width vsim t e rr rs base
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
    # counting architectures 1 and 3 (hpm-sim-v1, hpm-sim-v3, 29 x 64; the
    # default board is architecture 2, docs/hpm.md): every directed HPM test
    # and the random HPM programs in lockstep, so all architectures stay exact.
    # hpm-sim-v3 is the board's form, without the top-down unit: its
    # reference model too (hpm_topdown checks that every CSR of it traps)
    if [ -n "$HPM_VARIANTS" ]; then
        for a in 1 3; do
            vsim=$BUILD/bin/hpm-sim-v$a
            CHECK="hpm architecture $a"
            if [ ! -x "$vsim" ]; then fail "hpm architecture $a: missing $vsim (run make sim-variants)"; continue; fi
            for e in "$BUILD"/tests/hpm/*.elf; do
                hpm_lockstep_sig "$(basename "$e" .elf)" v$a "$vsim" "$e" $([ $a = 3 ] && echo --no-topdown)
            done
            hpm_random_batch v$a "$vsim" "$HPM_RANDOM_SEEDS"
        done
        # architecture 3 with 7-bit low parts (hpm_estore,
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

# ---- (c) random programs in lockstep ----
suite_random() {
    suite_begin random
    CHECK=random
    if need "$RVGEN" "$SIM"; then
        mkdir -p "$OUT/random"
        rm -f "$OUT"/random/seed*      # leftovers of earlier failures
        local last=$((FIRST + SEEDS - 1)) line
        echo "(seeds $FIRST..$last, $LENGTH instructions each, $JOBS in parallel)"
        while IFS= read -r line; do
            case "$line" in
                PASS*) S_PASS=$((S_PASS + 1)) ;;
                FAIL*) echo "$line"; echo "$line" >> "$OUT/failures.txt"; S_FAIL=$((S_FAIL + 1)) ;;
                *) echo "$line" ;;
            esac
        done < <(seq "$FIRST" "$last" | xargs -P "$JOBS" -I{} env ONE_RANDOM_ENV=1 \
                    BUILD="$BUILD" HPM_SIM="$SIM" RVGEN="$RVGEN" RV_CC="$RV_CC" \
                    RV_ASFLAGS="$RV_ASFLAGS" RV_LDFLAGS="$RV_LDFLAGS" \
                    "$0" --length "$LENGTH" --one-random {})
        [ $((S_PASS + S_FAIL)) -eq "$SEEDS" ] || fail "random: only $((S_PASS + S_FAIL)) of $SEEDS seeds reported"
    fi
    suite_end random
}

# ---- (d) C programs: lockstep + stats equality ----
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

# ---- (e) UART ----
suite_uart() {
    suite_begin uart
    local hello=$BUILD/fw/examples/hello.elf out rc r
    for r in ref sim; do
        CHECK="uart hello on hpm-$r"
        need "$hello" || continue
        if [ $r = ref ]; then need "$REF" || continue; out=$("$REF" --elf "$hello" --max-cycles $MAXC); rc=$?
        else need "$SIM" || continue; out=$("$SIM" --lockstep --elf "$hello" --max-cycles $MAXC); rc=$?; fi
        if [ $rc -eq 0 ] && [ "$out" = "hello, world" ]; then pass "uart hello on hpm-$r"
        else fail "uart hello on hpm-$r: exit $rc, output '$(printf '%s' "$out" | head -c 100)'"; fi
    done
    suite_end uart
}

# ---- (f) negative tests: the checks can fail ----
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

# ---- (g) workloads (fw/workloads): the bare-harness builds pass on hpm-ref
# and in lockstep with identical --stats, pass (in lockstep) entered in S and
# M mode too, and the WL_SABOTAGE builds fail their self-checks on hpm-ref ----
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

# ---- (h) USB link: link_usb.c and real libusb against the umockdev FT2232H
# of tests/usb/ftdi_emu, channel B bridged to cat or to hpm-sim (docs/usb.md)
usb_check() {   # usb_check NAME pass|fail PATTERN TEXT CMD...: one check
    local name=$1 want=$2 pat=$3 text=$4 rc log; shift 4
    log=$OUT/usb/$name.log; CHECK="usb $name"
    timeout 300 "$@" > "$log" 2>&1; rc=$?
    if [ "$want" = pass ]; then
        if [ $rc -eq 0 ]; then pass "usb $name: $text ($(grep -E "$pat" "$log" | tail -n 1 | head -c 300))"
        else fail "usb $name: $text: exit $rc: $(grep -E '^FAIL|ftdi_emu' "$log" | head -n 4 | tr '\n' '|' | head -c 800) [$log]"; fi
    elif [ $rc -ne 0 ] && grep -qE "$pat" "$log"; then pass "usb $name: $text (exit $rc: $(grep -E "$pat" "$log" | head -n 1 | head -c 200))"
    else fail "usb $name: $text: exit $rc, no '$pat' in $log"; fi
}
# hpmctl boards and --link usb::SERIAL under the emulator: no board (an
# empty umockdev testbed), one board with its serial, and two (a second
# FT2232H with nothing behind it, enumerated first) with one picked by serial
usb_boards() {
    local emu=$1 h=$BIN_DIR/hpmctl d=$OUT/usb out n sim_info rc
    CHECK="usb boards"
    need "$h" "$SIM" || return
    if ! command -v umockdev-run > /dev/null; then fail "usb boards-none: umockdev-run missing (make deps: umockdev)"
    else
        umockdev-run -- "$h" boards > "$d/boards-none.log" 2>&1; rc=$?
        umockdev-run -- "$h" boards -j > "$d/boards-none.json" 2>&1
        if [ $rc -eq 0 ] && [ "$(cat "$d/boards-none.log")" = "no USB boards attached (FT2232H 0403:6010)" ] && [ ! -s "$d/boards-none.json" ]; then
            pass "usb boards-none: no FT2232H: 'no USB boards attached', exit 0, -j prints nothing"
        else fail "usb boards-none: exit $rc: $(first_lines "$d/boards-none.log") [-j: $(first_lines "$d/boards-none.json")]"; fi
    fi
    # what HELLO says on the simulated board, to compare with
    sim_info=$("$h" --link sim info -j 2>&1)
    want() { sed -n "s/.*\"$1\" : \"\{0,1\}\([^\",]*\).*/\1/p" <<< "$2"; }
    "$emu" --serial LAB-A7 -- "$h" boards -j > "$d/boards-one.json" 2>&1; rc=$?
    out=$(cat "$d/boards-one.json")
    if [ $rc -eq 0 ] && [ "$(grep -c . <<< "$out")" -eq 1 ] && [ "$(want serial "$out")" = LAB-A7 ] &&
       [ "$(want link "$out")" = usb::LAB-A7 ] && [ "$(want status "$out")" = ok ] && [ "$(want port "$out")" = 1-1 ] &&
       [ "$(want firmware "$out")" = "$(want firmware "$sim_info")" ] && [ -n "$(want firmware "$out")" ] &&
       [ "$(want hpm-num "$out")" = "$(want hpm-num "$sim_info")" ] && [ "$(want hpm-width "$out")" = "$(want hpm-width "$sim_info")" ] &&
       [ "$(want event-hash "$out")" = "$(want event-hash "$sim_info")" ]; then
        pass "usb boards-one: serial LAB-A7, port 1-1, firmware $(want firmware "$out"), $(want hpm-num "$out") x $(want hpm-width "$out") counters as HELLO on hpm-sim says, --link usb::LAB-A7"
    else fail "usb boards-one: exit $rc: $out [sim: $sim_info]"; fi
    "$emu" --mute-serial MUTE02 -- "$h" boards > "$d/boards-two.log" 2>&1; rc=$?
    n=$(grep -c 'port 1-[12] ' "$d/boards-two.log")
    if [ $rc -eq 0 ] && [ "$n" -eq 2 ] && head -n 1 "$d/boards-two.log" | grep -q '^2 USB boards' &&
       grep -Eq '^  HPMEMU01 +port 1-1 +bus 1 dev 4 +firmware [0-9]+\.[0-9]+, [0-9]+ x [0-9]+-bit counters.*--link usb::HPMEMU01$' "$d/boards-two.log" &&
       grep -Eq '^  MUTE02 +port 1-2 +bus 1 dev 3 +no-answer: .*--link usb::MUTE02$' "$d/boards-two.log"; then
        pass "usb boards-two: two FT2232H listed, the one without a board behind it 'no-answer' ($(grep -o 'no-answer: [^-]*' "$d/boards-two.log" | head -c 80))"
    else fail "usb boards-two: exit $rc: $(first_lines "$d/boards-two.log" 4)"; fi
    # the board without an answer comes first: usb::SERIAL must skip it
    env HPM_TIMEOUT_MS=3000 "$emu" --mute-serial MUTE02 -- "$h" --link usb::HPMEMU01 validate --junit "$d/pick.xml" crc > "$d/pick.log" 2>&1; rc=$?
    if [ $rc -eq 0 ] && grep -q 'crc: OK' "$d/pick.log" && grep -q 'name="board.link" value="usb 0403:6010 bus 1 dev 4 serial HPMEMU01"' "$d/pick.xml"; then
        pass "usb pick-serial: --link usb::HPMEMU01 validate crc with a mute FT2232H enumerated first: OK, the report names serial HPMEMU01"
    else fail "usb pick-serial: exit $rc: $(first_lines "$d/pick.log") [$d/pick.xml]"; fi
    "$emu" --mute-serial MUTE02 -- "$h" --link usb::NOPE info > "$d/pick-none.log" 2>&1; rc=$?
    if [ $rc -eq 1 ] && [ "$(grep -c . "$d/pick-none.log")" -eq 1 ] && grep -q 'no device 0403:6010 with serial NOPE found' "$d/pick-none.log"; then
        pass "usb pick-absent: --link usb::NOPE: exit 1, one line: $(cat "$d/pick-none.log")"
    else fail "usb pick-absent: exit $rc: $(first_lines "$d/pick-none.log")"; fi
}
# tools/hil.sh (make hil) on two emulated boards: a live one (hpm-sim behind
# it) and one with nothing behind it. make bitstream is replaced by `true`
# and openFPGALoader by a script that logs its arguments (nothing here can
# program an FPGA); BUILD is a scratch directory so build/hil is untouched.
usb_hil() {
    local emu=$1 d=$OUT/usb/hil rc fake bin hash
    CHECK="usb hil"
    need "$BIN_DIR/hpmctl" "$SIM" tools/hil.sh || return
    rm -rf "$d"; mkdir -p "$d/fakebin" "$d/build"
    fake=$d/fakebin/openFPGALoader bin=$d/fake.bin
    printf '#!/bin/sh\necho "$*" >> %s/prog-calls.log\n' "$d" > "$fake"; chmod +x "$fake"
    echo "bitstream one" > "$bin"; hash=$(sha256sum "$bin" | cut -d' ' -f1)
    hil_run() {   # label, emulator options...: tools/hil.sh under the emulator
        local label=$1; shift
        env PATH="$d/fakebin:$PATH" MAKE=true BOARD_BIN="$bin" BUILD="$d/build" HPMCTL="$BIN_DIR/hpmctl" \
            HPM_SIM="$SIM" HIL_WORKLOADS=crc HPM_TIMEOUT_MS=3000 BOARDS="${BOARDS_ARG:-all}" \
            "$emu" "$@" -- tools/hil.sh > "$d/$label.log" 2>&1
    }
    hil_run first --mute-serial MUTE02; rc=$?
    local s=$d/build/hil/summary.txt
    if [ $rc -eq 1 ] && grep -qx -- "-b ice40_generic --ftdi-serial HPMEMU01 $bin" "$d/prog-calls.log" &&
       grep -qx -- "-b ice40_generic --ftdi-serial MUTE02 $bin" "$d/prog-calls.log" &&
       grep -Eq '^HPMEMU01 +PASS +1 test cases, 0 failures' "$s" && grep -Eq '^MUTE02 +LOST no answer after flashing' "$s" &&
       [ "$(cat "$d/build/hil/HPMEMU01.flashed")" = "$hash" ] && [ ! -e "$d/build/hil/MUTE02.flashed" ] &&
       grep -q "name=\"bitstream.sha256\" value=\"$hash\"" "$d/build/hil/HPMEMU01.xml" &&
       grep -q 'name="board.serial" value="HPMEMU01"' "$d/build/hil/HPMEMU01.xml"; then
        pass "usb hil-flash: two boards: both flashed by serial, HPMEMU01 validated (PASS, JUnit with serial and bitstream hash), MUTE02 LOST after flashing, exit 1"
    else fail "usb hil-flash: exit $rc: $(first_lines "$d/first.log" 8) [$d]"; fi
    : > "$d/prog-calls.log"
    BOARDS_ARG=HPMEMU01 hil_run again; rc=$?
    if [ $rc -eq 0 ] && [ ! -s "$d/prog-calls.log" ] && grep -q 'HPMEMU01: already has this bitstream' "$d/again.log" &&
       [ "$(grep -c . "$s")" -eq 1 ] && grep -Eq '^HPMEMU01 +PASS' "$s"; then
        pass "usb hil-same: BOARDS=HPMEMU01, same bitstream: not flashed again, PASS, exit 0"
    else fail "usb hil-same: exit $rc, programmer calls: $(first_lines "$d/prog-calls.log"): $(first_lines "$d/again.log" 8)"; fi
    echo "bitstream two" > "$bin"
    BOARDS_ARG=HPMEMU01,GONE9 hil_run changed; rc=$?
    if [ $rc -eq 1 ] && [ "$(grep -c . "$d/prog-calls.log")" -eq 1 ] && grep -q 'HPMEMU01' "$d/prog-calls.log" &&
       grep -Eq '^GONE9 +LOST .*no device 0403:6010 with serial GONE9' "$s" && grep -Eq '^HPMEMU01 +PASS' "$s" &&
       [ "$(cat "$d/build/hil/HPMEMU01.flashed")" = "$(sha256sum "$bin" | cut -d' ' -f1)" ]; then
        pass "usb hil-changed: a new bitstream is flashed again; a board asked for but not attached is LOST, exit 1"
    else fail "usb hil-changed: exit $rc: $(first_lines "$d/changed.log" 8)"; fi
    # a chip without a serial number is not "no board": no simulated-board fallback
    rm -rf "$d/build/hil"
    hil_run noserial --serial ""; rc=$?
    if [ $rc -eq 1 ] && grep -q 'no usable board: every attached FT2232H lacks a readable serial number' "$d/noserial.log" &&
       grep -q 'left out (no serial number to pick it by): port 1-1' "$d/noserial.log" && [ ! -e "$d/build/hil/sim.xml" ]; then
        pass "usb hil-noserial: an FT2232H without serial number: said, exit 1, not replaced by the simulated board"
    else fail "usb hil-noserial: exit $rc: $(first_lines "$d/noserial.log" 4)"; fi
}
suite_usb() {
    suite_begin usb
    local emu=$BUILD/tests/ftdi_emu t=$BUILD/tests/usb_link_test
    mkdir -p "$OUT/usb"
    CHECK="usb"
    if need "$emu" "$t" "${t}_nostrip" "${t}_stripfirst" "${t}_nolatency" "${t}_nodata"; then
        usb_check divisor pass '^usb-divisor:' "FTDI divisors by hand (3M 2M 1M 115200 12M ..., 12.5M refused)" "$t" divisor
        usb_check open pass '^usb-open:' "discovery: present(), usb[:VID:PID[:serial]]" "$emu" --board cat -- "$t" open
        usb_check loopback pass '^loopback:' "1..65536 bytes through cat unchanged (status bytes stripped per 512-byte packet)" "$emu" --board cat -- "$t" loopback
        usb_check loopback-115200 pass '^loopback:' "the same at 115200 baud (fractional divisor)" "$emu" --baud 115200 --board cat -- "$t" --baud 115200 loopback
        usb_check timeout pass '^usb-timeout:' "read timeouts on a silent device (DISCARDURB), link usable after" "$emu" --hold-empty-in --board cat -- "$t" timeout
        usb_check unplug pass '^usb-unplug:' "unplug during writes: 'usb: board unplugged'" "$emu" --unplug-after 5000 --board cat -- "$t" unplug
        usb_check unplug-idle pass '^usb-unplug-idle:' "unplug during a read: 'usb: board unplugged'" "$emu" --unplug-at 500 --board cat -- "$t" unplug-idle
        if need "$SIM"; then
            usb_check ping pass '^ping:' "framed PINGs answered by the monitor on hpm-sim" "$emu" --board "$SIM" --board-log "$OUT/usb/ping.board.log" -- "$t" ping 20
            # the unmodified hpmctl through real libusb and the emulated FT2232H
            # (the simulated board behind it is slower than the protocol's USB
            # timeouts assume: HPM_TIMEOUT_MS)
            if need "$BIN_DIR/hpmctl"; then
                usb_check hpmctl-stat pass 'insn per cycle' "hpmctl --link usb stat crc" \
                    env HPM_TIMEOUT_MS=3000 "$emu" --board "$SIM" -- "$BIN_DIR/hpmctl" --link usb stat -e cycles,instructions,loads,branch-misses crc
                usb_check hpmctl-validate pass 'OK \(' "hpmctl --link usb validate crc: all events equal the reference" \
                    env HPM_TIMEOUT_MS=3000 "$emu" --board "$SIM" -- "$BIN_DIR/hpmctl" --link usb validate crc
                usb_check hpmctl-neg-baud fail 'hpmctl:' "hpmctl with the emulator expecting 2 Mbaud fails with one line" \
                    env HPM_TIMEOUT_MS=3000 "$emu" --baud 2000000 --board "$SIM" -- "$BIN_DIR/hpmctl" --link usb info
                # a bad cable inside the emulated FT2232H: 1 % of channel B's
                # bytes each way faulted (tests/link/faults.h); counts as on
                # the reference board, the watchdog (FAULT_WATCHDOG) ends a hang
                local ev=cycles,instructions,loads,branch-misses fd=$OUT/usb rc2 s
                for s in 11 12; do
                    CHECK="usb faults-stat-$s"
                    "$BIN_DIR/hpmctl" --link ref stat -x, -e "$ev" sort > "$fd/faults-$s.ref" 2>&1
                    "$emu" --board "$SIM" --fault-rate 0.01 --fault-seed "$s" --fault-stats "$fd/faults-$s.stats" \
                        --timeout "${FAULT_WATCHDOG:-900}" -- "$BIN_DIR/hpmctl" --link usb stat -x, -e "$ev" sort \
                        > "$fd/faults-$s.out" 2> "$fd/faults-$s.err"; rc2=$?
                    # the counts are on stderr, as perf's; stdout stays empty
                    if [ $rc2 -eq 0 ] && [ -n "$(fault_counts "$fd/faults-$s.ref")" ] && [ ! -s "$fd/faults-$s.out" ] &&
                       [ "$(fault_counts "$fd/faults-$s.err")" = "$(fault_counts "$fd/faults-$s.ref")" ] &&
                       fault_injected "$fd/faults-$s.stats"; then
                        pass "usb faults-stat seed $s: sort through an FT2232H faulting 1 % of the bytes: counts equal the reference board's"
                    else
                        fail "usb faults-stat seed $s: exit $rc2 (124: hang), $(tail -n 1 "$fd/faults-$s.err"); see $fd/faults-$s.*"
                    fi
                done
            fi
        fi
        usb_boards "$emu"
        usb_hil "$emu"
        usb_check neg-baud fail 'refusing bulk traffic: baud divisor' "emulator expecting 2000000 baud fails a 1500000 driver" "$emu" --baud 2000000 --board cat -- "$t" loopback
        usb_check neg-nostrip fail '^FAIL loopback' "a driver keeping the modem-status bytes fails the loopback" "$emu" --board cat -- "${t}_nostrip" loopback
        usb_check neg-stripfirst fail '^FAIL loopback' "a driver stripping them only at the start of a transfer fails too" "$emu" --board cat -- "${t}_stripfirst" loopback
        usb_check neg-nolatency fail 'latency timer was not set' "a driver without the latency timer is refused" "$emu" --board cat -- "${t}_nolatency" loopback
        usb_check neg-nodata fail 'data characteristics' "a driver without 8N1 is refused" "$emu" --board cat -- "${t}_nodata" loopback
    fi
    suite_end usb
}

# ---- a bad cable: tests/link/faultproxy.c between hpmctl --link tty: and
# hpm-sim, 1 % of the bytes in each direction flipped, dropped, duplicated,
# preceded by a random byte or lost in a burst of 32 (docs/testing.md). The
# counts must equal the reference board's, byte for byte; a run that does
# not end within the watchdog (FAULT_WATCHDOG s) fails as a hang.
FAULT_WATCHDOG=${FAULT_WATCHDOG:-900}
fault_counts() {   # the count,event pairs of perf -x, lines
    grep -E '^[0-9.]+,' "$1" | awk -F, 'NF >= 4 { print ($1 ~ /\./ ? $1 "," $2 "," $4 : $1 "," $3) }'
}
fault_injected() {   # stats file: faults in both directions
    awk '/->/ { n = 0; for (i = 6; i < NF; i += 2) n += $(i + 1); if (n == 0) bad = 1; dirs++ }
         END { exit !(dirs == 2 && !bad) }' "$1"
}
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

# ---- the firmware monitor and libhpm over the link (tests/link) ----
# test_link (ASan/UBSan) drives every protocol command and error reply,
# runs, streams and every workload (counts == reference): on the simulated
# board, on the reference board, and quickly on narrow-counter variants.
suite_link() {
    suite_begin link
    local t=$BUILD/tests/test_link d=$OUT/link line v
    mkdir -p "$d"
    CHECK="link test client"
    need "$t" "$SIM" "$REF" || { suite_end link; return; }
    link_run() {    # label, args...
        local label=$1; shift
        "$t" "$@" > "$d/$label.log" 2>&1
        while IFS= read -r line; do
            case "$line" in
                PASS*) pass "link $label: ${line#PASS }" ;;
                FAIL*) fail "link $label: ${line#FAIL }" ;;
            esac
        done < "$d/$label.log"
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
        while IFS= read -r line; do
            case "$line" in
                PASS*) pass "link abuse: ${line#PASS }" ;;
                FAIL*) fail "link abuse: ${line#FAIL }" ;;
            esac
        done < "$d/abuse.log"
        grep -q '^monitor_abuse .*passed' "$d/abuse.log" || fail "link abuse: $(tail -n 1 "$d/abuse.log")"
        # and a bounded run on the RTL board (hpm-sim: about 50 frames/s)
        HPM_SIM="$SIM" "$BUILD/tests/monitor_abuse" --link sim --frames "${ABUSE_RTL_FRAMES:-2000}" --seed 2 \
            > "$d/abuse-rtl.log" 2>&1
        while IFS= read -r line; do
            case "$line" in
                PASS*) pass "link abuse-rtl: ${line#PASS }" ;;
                FAIL*) fail "link abuse-rtl: ${line#FAIL }" ;;
            esac
        done < "$d/abuse-rtl.log"
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

# python_suite NAME SCRIPT: a Python test script that prints one "PASS what"
# or "FAIL what: why" line per check, run with --build, each line one check
python_suite() {
    local name=$1 script=$2 line log=$OUT/$1.log
    suite_begin "$name"
    CHECK=$name
    if need "$BUILD/bin/hpmctl" "$SIM" "$REF"; then
        if ! command -v python3 > /dev/null; then fail "$name: python3 not found"
        else
            while IFS= read -r line; do
                case "$line" in
                    PASS\ *) pass "$name ${line#PASS }" ;;
                    FAIL\ *) fail "$name ${line#FAIL }" ;;
                esac
            done < <(python3 "$script" --build "$BUILD" 2>&1 | tee "$log")
            grep -q '^\(PASS\|FAIL\) ' "$log" || fail "$name: $script printed no check: $(tail -n 3 "$log" | tr '\n' '|')"
        fi
    fi
    suite_end "$name"
}

# the gate-level board: the bitstream's own netlist, with the monitor in its
# EBR, serving the link (mk/board.mk sim-gate, docs/board.md): HELLO reports
# the board's configuration, the counters count, and a workload that uses
# the multiplier is validated exactly against the reference board with the
# board's HPM configuration (every event, every counter)
suite_board_gate() {
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
    suite_board_gate_runs "$d" "$gate"
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
# serving the same monitor) and on hpm-sim-gate; both pass (tohost = 1) with
# the same signature and the same cycles/instret of the RUN's window. Then
# the comparison on a board that differs (the reference board at 29 x 32
# against the gate's 29 x 64, hpm_width) must fail. GATE_ELF_TESTS is a
# sample that fits the board suite's time (docs/testing.md lists the tests
# that need a reset start; GATE_ELF_TESTS="isa/alu ..." runs others).
GATE_ELF_TESTS=${GATE_ELF_TESTS-isa/branch isa/deleg isa/fetch_fault isa/forward isa/priv isa/trap_misaligned isa/vec_irq hpm/hpm_identities hpm/hpm_width}
# elfrun_pair BASE ELF GATE: the program on the reference board and on
# GATE; 0 when both pass with the same signature and stats, else WHY says
# how they differ
elfrun_pair() {
    local base=$1 e=$2 gate=$3 rr rg sr sg
    env HPM_REF="$REF" timeout 600 "$BUILD/tests/elfrun" --link ref --elf "$e" --signature "$base.ref.sig" \
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
suite_board_elfrun() {
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
}

# ---- (board) the iCEBreaker bitstream: make bitstream and its report, the
# DSP counters against the counter semantics, make prog without a board ----
# the whole validation on the gate-level board (docs/board.md): validate
# --all, sampling and regions against the reference board, and a netlist
# with one LUT of the counter store wrong failing validate
suite_board_gate_runs() {
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
suite_board() {
    suite_begin board
    local d=$OUT/board bdir=$BUILD/icebreaker rc n fmax target r f datdir
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
    suite_board_gate "$d"
    suite_board_elfrun "$d"
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

for s in "${SUITES[@]}"; do
    case "$s" in
        unit) suite_unit ;;
        isa) suite_isa isa ;;
        hpm) suite_hpm ;;
        random) suite_random ;;
        c) suite_c ;;
        uart) suite_uart ;;
        neg) suite_neg ;;
        workloads) suite_workloads ;;
        link) suite_link ;;
        usb) suite_usb ;;
        cli) python_suite cli tests/cli/test_cli.py ;;           # hpmctl, every subcommand and format
        programs) python_suite programs tests/programs/run.py ;; # users' own programs
        net) python_suite net tests/net/test_net.py ;;           # network links, labgrid, JUnit merge
        board) suite_board ;;
        *) echo "run.sh: unknown suite $s" >&2; TOTAL_FAIL=$((TOTAL_FAIL + 1)) ;;
    esac
done

echo "== summary"
for l in "${SUMMARY[@]}"; do echo "  $l"; done
[ "$TOTAL_FAIL" -gt 0 ] && echo "failures listed in $OUT/failures.txt"
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]
