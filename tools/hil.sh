#!/usr/bin/env bash
# tools/hil.sh: hardware-in-the-loop regression (make hil, docs/hil.md).
#
#   tools/hil.sh [all | SERIAL[,SERIAL...]]      (default: $BOARDS if set, else all)
#
# With USB boards attached: builds the bitstream (make bitstream, which only
# reruns what changed), flashes every chosen board whose last flashed image
# (build/hil/SERIAL.flashed) differs from it or that does not answer, then
# validates every workload and every event on each board against the
# reference model: build/hil/SERIAL.xml (JUnit), SERIAL.log, and
# build/hil/summary.txt, one line per board. Without a board (and "all") it
# validates the simulated board instead and says so (build/hil/sim.xml).
# Exit status: 0 every board exact; 1 a mismatch, a lost or missing board,
# a failed flash or build; 2 bad arguments.
#
# Environment (make hil sets it): BUILD (build), HPMCTL, MAKE, BOARD_BIN (the
# bitstream), PROG (openfpgaloader | iceprog), HIL_WORKLOADS (workloads
# instead of --all, comma separated), HIL_FLASH_TIMEOUT (120 s), HIL_FLASH
# (always: flash every board, e.g. after someone flashed one by hand).
set -u
cd "$(dirname "$0")/.." || exit 2

BUILD=${BUILD:-build}
HPMCTL=${HPMCTL:-$BUILD/bin/hpmctl}
MAKE=${MAKE:-make}
BOARD_BIN=${BOARD_BIN:-$BUILD/icebreaker/icebreaker.bin}
PROG=${PROG:-openfpgaloader}
OUT=$BUILD/hil
SERIAL_RE='[A-Za-z0-9._-]+'

say() { echo "make hil: $*"; }
die() { echo "make hil: $1" >&2; exit "${2:-1}"; }

[ $# -le 1 ] || die "expected one argument, all or SERIAL[,SERIAL...] (got $#)" 2
if [ $# -eq 1 ]; then want=$1; else want=${BOARDS-all}; fi
[[ $want =~ ^(all|$SERIAL_RE(,$SERIAL_RE)*)$ ]] ||
    die "BOARDS='$want': expected all or SERIAL[,SERIAL...] (serials: letters, digits, . _ -)" 2
case "$PROG" in openfpgaloader|iceprog) ;; *) die "PROG=$PROG is not supported (openfpgaloader, iceprog)" 2 ;; esac
[ -x "$HPMCTL" ] || die "$HPMCTL missing (make all)"
workloads=(--all)
if [ -n "${HIL_WORKLOADS:-}" ]; then IFS=, read -r -a workloads <<< "$HIL_WORKLOADS"; fi
mkdir -p "$OUT"
summary=$OUT/summary.txt
: > "$summary.tmp"
trap 'rm -f "$summary.tmp"' EXIT

# counts of a JUnit report: "tests failures errors skipped"
counts() {
    local f=$1
    [ -s "$f" ] || { echo "0 0 0 0"; return; }
    echo "$(grep -c '<testcase ' "$f") $(grep -c '<failure ' "$f") $(grep -c '<error ' "$f") $(grep -c '<skipped ' "$f")"
}

# validate NAME LINK [--junit-property ...]: one board; appends its summary line
failed=0
validate() {
    local name=$1 link=$2 rc t f e s verdict; shift 2
    local xml=$OUT/$name.xml log=$OUT/$name.log
    rm -f "$xml"
    "$HPMCTL" --link "$link" validate "${workloads[@]}" --junit "$xml" "$@" > "$log" 2>&1; rc=$?
    read -r t f e s < <(counts "$xml")
    if [ $rc -eq 0 ]; then verdict=PASS
    elif grep -q 'board was lost\|^hpmctl: usb:\|^hpmctl: link:' "$log"; then verdict=LOST
    else verdict=FAIL; fi
    [ $rc -eq 0 ] || failed=1
    printf '%-16s %-4s %4d test cases, %d failures, %d errors, %d skipped  %s%s\n' "$name" "$verdict" "$t" "$f" "$e" "$s" "$xml" \
        "$( [ $rc -eq 0 ] || echo "  ($(grep -m1 '^hpmctl:' "$log" | cut -c9-160))")" >> "$summary.tmp"
}

finish() {
    mv -f "$summary.tmp" "$summary"
    echo "== make hil summary ($summary)"
    cat "$summary"
    [ $failed -eq 0 ] && say "every board exact" || say "FAILED (logs and JUnit files in $OUT)"
    exit $failed
}

# ---- the attached boards ----
list=$("$HPMCTL" boards -j 2>&1) || die "cannot list the USB boards: $list"
attached=$(sed -n 's/.*"serial" : "\([^"][^"]*\)".*/\1/p' <<< "$list")
# an FT2232H without a readable serial (none set, or no permission) cannot be
# picked: said, and never mistaken for "no board"
unusable=$(grep '"serial" : ""' <<< "$list" | sed -n 's/.*"port" : "\([^"]*\)".*"error" : "\([^"]*\)".*/port \1: \2/p')
[ -z "$unusable" ] || say "warning: left out (no serial number to pick it by): $(echo $unusable)"

if [ "$want" = all ]; then
    chosen=$(grep . <<< "$attached")
    [ -n "$chosen" ] || [ -z "$unusable" ] ||
        die "no usable board: every attached FT2232H lacks a readable serial number (docs/hil.md)"
    if [ -z "$chosen" ]; then
        say "no USB board attached: validating on the simulated board (hpm-sim) instead"
        validate sim sim
        finish
    fi
else
    chosen=$(tr , '\n' <<< "$want")
fi

# boards asked for but not attached are lost; nothing is built for none
present=()
for serial in $chosen; do
    if grep -qx -- "$serial" <<< "$attached"; then present+=("$serial")
    else   # its JUnit file says so too ("open the board" fails)
        say "$serial: not attached (attached: $(echo ${attached:-none}))"
        validate "$serial" "usb::$serial"
    fi
done
[ ${#present[@]} -gt 0 ] || finish

# ---- the bitstream: make decides whether anything changed ----
say "boards: ${present[*]}"
$MAKE --no-print-directory bitstream > "$OUT/bitstream.log" 2>&1 ||
    die "make bitstream failed: $(grep -v '^$' "$OUT/bitstream.log" | tail -n 1)"
[ -s "$BOARD_BIN" ] || die "$BOARD_BIN missing after make bitstream"
hash=$(sha256sum "$BOARD_BIN" | cut -d' ' -f1)
say "bitstream $BOARD_BIN sha256 ${hash:0:16}"

for serial in "${present[@]}"; do
    flashed=$(cat "$OUT/$serial.flashed" 2>/dev/null)
    status=$(grep "\"serial\" : \"$serial\"" <<< "$list" | sed -n 's/.*"status" : "\([^"]*\)".*/\1/p')
    if [ "$flashed" != "$hash" ] || [ "$status" != ok ] || [ "${HIL_FLASH:-}" = always ]; then
        say "$serial: flashing (${flashed:+was ${flashed:0:16}, }board ${status:-unknown})"
        rm -f "$OUT/$serial.flashed"
        case "$PROG" in
            openfpgaloader) cmd=(openFPGALoader -b ice40_generic --ftdi-serial "$serial" "$BOARD_BIN") ;;
            iceprog) cmd=(iceprog -d "s:0x0403:0x6010:$serial" "$BOARD_BIN") ;;
        esac
        timeout "${HIL_FLASH_TIMEOUT:-120}" "${cmd[@]}" > "$OUT/$serial.prog.log" 2>&1; rc=$?
        if [ $rc -ne 0 ]; then
            failed=1
            printf '%-16s %-4s flashing failed: %s exit %d (%s)\n' "$serial" FAIL "${cmd[0]}" $rc "$OUT/$serial.prog.log" >> "$summary.tmp"
            say "$serial: flashing failed (exit $rc, $OUT/$serial.prog.log)"
            continue
        fi
        sleep 1     # the FPGA configures itself and the monitor boots
        if ! "$HPMCTL" --link "usb::$serial" info > "$OUT/$serial.info" 2>&1; then
            failed=1
            printf '%-16s %-4s no answer after flashing: %s\n' "$serial" LOST "$(head -n 1 "$OUT/$serial.info")" >> "$summary.tmp"
            say "$serial: no answer after flashing"
            continue
        fi
        echo "$hash" > "$OUT/$serial.flashed"
    else
        say "$serial: already has this bitstream"
    fi
    say "$serial: validating"
    validate "$serial" "usb::$serial" --junit-property "board.serial=$serial" --junit-property "bitstream.sha256=$hash"
done
finish
