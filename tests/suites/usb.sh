# tests/suites/usb.sh: suite usb: the USB link (host/lib/link_usb.c, real
# libusb) through an FT2232H emulated under umockdev (build/tests/ftdi_emu),
# channel B bridged to cat or to hpm-sim (docs/usb.md): divisor table,
# discovery, loopback via cat, timeouts, unplug, PING to the monitor on
# hpm-sim, hpmctl through it (with a bad cable too), hpmctl boards,
# tools/hil.sh; and the emulator's checks failing a driver with a wrong baud
# rate, unstripped status bytes, no latency timer or no 8N1.
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
