#!/usr/bin/env bash
# The fault table: hpmctl --link tty: through tests/link/faultproxy.c to the
# simulated board, at each per-byte fault rate, every run classified as
# exact (exit 0, counts equal to the reference board's), clear error (exit 1,
# one line), wrong (any count that differs) or hang (the watchdog ended it).
# Prints a Markdown section on stdout. Knobs (environment):
#   FAULT_RATES     "0.001 0.01 0.05"
#   FAULT_SEEDS     seeds per workload and command (default 5)
#   FAULT_WORKLOADS "crc sort matmul mul alu memcpy"
#   FAULT_COMMANDS  "stat stat-I record validate"
#   FAULT_WATCHDOG  seconds before a run counts as a hang (default 300)
set -uo pipefail
BUILD=${BUILD:-build}
H=$BUILD/bin/hpmctl
FP=$BUILD/tests/faultproxy
RATES=${FAULT_RATES:-0.001 0.01 0.05}
SEEDS=${FAULT_SEEDS:-5}
WORKLOADS=${FAULT_WORKLOADS:-crc sort matmul mul alu memcpy}
COMMANDS=${FAULT_COMMANDS:-stat stat-I record validate}
WATCHDOG=${FAULT_WATCHDOG:-300}
EV=cycles,instructions,loads,branch-misses
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

args() {   # command workload output-file -> hpmctl arguments
    case $1 in
        stat)     echo "stat -x, -e $EV $2" ;;
        stat-I)   echo "stat -I 5 -x, -e $EV $2" ;;
        record)   echo "record -I 1 -e $EV -o $3 $2" ;;
        validate) echo "validate $2" ;;
    esac
}
counts() {   # the numbers a run produced, comparable between boards
    # record: time, event, cumulative count (a merged interval keeps them)
    if [ -s "$2" ]; then awk -F, 'NR > 1 { print $1 "," $4 "," $9 }' "$2"; fi
    grep -E '^[0-9.]+,' "$1" | awk -F, 'NF >= 4 { print ($1 ~ /\./ ? $1 "," $2 "," $4 : $1 "," $3) }'
    grep -E '^ +[a-z-]+ +[0-9]+ +[0-9]+ ' "$1"
}
now() { date +%s.%N; }

cat <<HDR

## Link faults: exact counts through a bad cable

Command: \`bench/faults.sh\` (\`make bench-faults\`; \`FAULT_RATES="$RATES"\`,
\`FAULT_SEEDS=$SEEDS\`, \`FAULT_WORKLOADS="$WORKLOADS"\`, \`FAULT_COMMANDS="$COMMANDS"\`):
each run is \`build/tests/faultproxy --rate R --seed S -- build/bin/hpmctl --link
tty:@PTY@ ARGS\`, the simulated board behind a pseudo-terminal whose bytes, both
ways, are flipped, dropped, duplicated, preceded by a random byte or lost in a
burst of 32 with probability R each (tests/link/faults.h); ARGS is \`stat -x, -e
$EV W\`, \`stat -I 5 -x, ...\`, \`record -I 1 -e ... -o F W\` or \`validate W\`. *exact*:
exit 0 and every number equal to the same command on the reference board (\`--link
ref\`); *exact, intervals merged*: exit 0, samples still lost after 16 repeats of
the run, their intervals merged into the next with a warning (every cumulative
count equal to the reference's); *clear error*: exit 1 with one line (rows kept
before it must be the reference's); *wrong*: any other number that differs;
*hang*: not ended after ${WATCHDOG} s. *Goodput* is the bytes the fault-free run
moves (both ways) per second of the faulty run, over all its runs; the
fault-free goodput on this link is the first row. Default give-up time-out:
\`HPM_GIVEUP_MS\` = 60 s without progress per exchange (docs/protocol.md 2.1).

| fault rate | runs | exact | exact, intervals merged | clear error | wrong | hang | median s | goodput B/s |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
HDR

declare -A REF BYTES
for w in $WORKLOADS; do
    for c in $COMMANDS; do
        a=$(args "$c" "$w" "$T/ref.csv")
        rm -f "$T/ref.csv"
        "$H" --link ref $a > /dev/null 2> "$T/ref.out"    # the counts are on stderr (as perf's)
        REF[$c.$w]=$(counts "$T/ref.out" "$T/ref.csv")
        "$FP" --rate 0 --stats "$T/st" --timeout "$WATCHDOG" -- "$H" --link tty:@PTY@ $a > /dev/null 2>&1
        BYTES[$c.$w]=$(awk '/->/ { s += $3 } END { print s + 0 }' "$T/st")
    done
done

for r in 0 $RATES; do
    runs=0 exact=0 merged=0 clear=0 wrong=0 hang=0 bytes=0 secs=0
    : > "$T/times"
    for w in $WORKLOADS; do
        for c in $COMMANDS; do
            for s in $(seq "$SEEDS"); do
                [ "$r" = 0 ] && [ "$s" -gt 1 ] && continue
                a=$(args "$c" "$w" "$T/run.csv")
                rm -f "$T/run.csv"
                t0=$(now)
                "$FP" --rate "$r" --seed "$s" --timeout "$WATCHDOG" -- "$H" --link tty:@PTY@ $a \
                    > "$T/out" 2> "$T/err"
                rc=$?
                t1=$(now)
                dt=$(echo "$t1 - $t0" | bc -l)
                echo "$dt" >> "$T/times"
                runs=$((runs + 1))
                got=$(counts "$T/err" "$T/run.csv")
                # every number printed must be one the reference printed
                extra=$(comm -23 <(echo "$got" | sort) <(echo "${REF[$c.$w]}" | sort) | grep -c .)
                if [ $rc -eq 124 ]; then
                    hang=$((hang + 1))
                    echo "faults: HANG rate $r seed $s: hpmctl $a: $(tail -n 2 "$T/err" | tr '\n' '|')" >&2
                elif [ $rc -eq 0 ] && [ "$got" = "${REF[$c.$w]}" ]; then
                    exact=$((exact + 1))
                    bytes=$((bytes + BYTES[$c.$w])); secs=$(echo "$secs + $dt" | bc -l)
                elif [ $rc -eq 0 ] && [ "$c" = stat-I ] &&
                     grep -q 'merged' "$T/err"; then
                    merged=$((merged + 1))    # stat -I: a merged interval's delta is new, the rest equal
                    echo "faults: merged intervals rate $r seed $s: hpmctl $a: $(cat "$T/err")" >&2
                elif [ $rc -eq 0 ] && [ "$c" = record ] && [ "$extra" -eq 0 ] && grep -q 'samples lost' "$T/err"; then
                    merged=$((merged + 1))    # record: fewer rows, each cumulative count equal
                    echo "faults: merged intervals rate $r seed $s: hpmctl $a: $(cat "$T/err")" >&2
                elif [ -n "$got" ] && [ "$extra" -gt 0 ] && [ "$c" != stat-I ]; then
                    wrong=$((wrong + 1))
                    echo "faults: WRONG rate $r seed $s: hpmctl $a" >&2
                elif [ $rc -eq 1 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && [ ! -s "$T/out" ]; then
                    clear=$((clear + 1))
                    echo "faults: rate $r seed $s: hpmctl $a: $(cat "$T/err")" >&2
                else
                    wrong=$((wrong + 1))
                    echo "faults: rate $r seed $s: hpmctl $a: exit $rc, $(head -c 300 "$T/err")" >&2
                fi
            done
        done
    done
    med=$(sort -g "$T/times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    gp=$(if [ "$(echo "$secs > 0" | bc -l)" = 1 ]; then echo "$bytes / $secs" | bc -l; else echo 0; fi)
    printf '| %s %% | %d | %d | %d | %d | %d | %d | %.1f | %.0f |\n' "$(awk -v r="$r" 'BEGIN { printf "%g", r * 100 }')" \
        "$runs" "$exact" "$merged" "$clear" "$wrong" "$hang" "$med" "$gp"
done
