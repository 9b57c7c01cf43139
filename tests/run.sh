#!/usr/bin/env bash
# tests/run.sh: runs the hpm-overlay test suites and prints one line per
# check, a summary per suite, and finally "N passed, M failed".
# Exits non-zero if anything failed. Normally started by `make test`
# (which builds everything first and sets the variables below).
#
#   tests/run.sh [--seeds N] [--first S] [--length L] [--jobs J] [SUITE...]
#
# Suites (default: all, in this order; or set TEST_SUITES): unit isa hpm
# random c uart neg workloads link usb cli programs net board. Suite NAME is
# the function suite_NAME in tests/suites/NAME.sh, whose head says what it
# checks (printed below by --help); what they share (the check lines, the
# lockstep flows) is in tests/suites/common.sh.
#
# Environment: BUILD (build), RV_CC, RV_ASFLAGS, RV_LDFLAGS (to assemble
# random programs), RVGEN, FAULT_CHECK, UNIT_TARGETS, TEST_JOBS,
# HPM_VARIANTS ("0x64 1x40 29x1 29x8"), HPM_VARIANT_TESTS ("hpm_width
# hpm_config"), HPM_RANDOM_SEEDS (10), HPM_LCOFI_SEEDS (40).
set -u
cd "$(dirname "$0")/.." || exit 2

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
DEFAULT_SUITES="unit isa hpm random c uart neg workloads link usb cli programs net board"

SEEDS=200 FIRST=1 LENGTH=10000
SUITES=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seeds)  SEEDS=$2; shift 2 ;;
        --first)  FIRST=$2; shift 2 ;;
        --length) LENGTH=$2; shift 2 ;;
        --jobs|-j) JOBS=$2; shift 2 ;;
        -h|--help)
            for f in "$0" $(printf 'tests/suites/%s.sh ' $DEFAULT_SUITES); do
                awk '/^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next } { print ""; exit }' "$f"
            done
            exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) SUITES+=("$1"); shift ;;
    esac
done
if [ ${#SUITES[@]} -eq 0 ]; then
    read -r -a SUITES <<< "${TEST_SUITES:-$DEFAULT_SUITES}"
fi

for f in tests/suites/*.sh; do
    # shellcheck source=/dev/null
    . "$f"
done
mkdir -p "$OUT"
: > "$OUT/failures.txt"

for s in "${SUITES[@]}"; do
    if declare -F "suite_$s" > /dev/null; then "suite_$s"
    else echo "run.sh: unknown suite $s" >&2; TOTAL_FAIL=$((TOTAL_FAIL + 1)); fi
done

echo "== summary"
for l in "${SUMMARY[@]}"; do echo "  $l"; done
[ "$TOTAL_FAIL" -gt 0 ] && echo "failures listed in $OUT/failures.txt"
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]
