# tests/suites/uart.sh: suite uart: hello.elf prints "hello, world" on both
# runners (the monitor's UART protocol is the link suite's).
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
