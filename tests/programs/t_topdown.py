"""stat --topdown (issue 33): perf's slots and topdown-* rows, exact, equal
to hpmctl topdown's level 1 for every workload on the simulated board (its
top-down unit), on the reference board and on the iCE40 board's form
(hpm-sim-v3: level 1 emulated by its monitor, while hpmctl topdown counts
on programmable counters); with the unit or the emulation beside 29 other
events in one run; level 2 on hpm-sim-v3 and everything without the unit
(hpm-ref --no-topdown) the same numbers on programmable counters, and 29
other events refused in one line without it; perf's group and sampling
rules; -x, -j, -I."""
import csv
import io
import json
import os

SIM = ["--link", "sim"]
REF = ["--link", "ref"]
LEVEL1 = ["topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound"]
LEVEL2 = ["topdown-br-mispredict", "topdown-machine-clears", "topdown-fetch-latency",
          "topdown-mem-bound", "topdown-core-bound"]
# beside the top-down group: cycles (fixed) and 29 events on the 29 counters
OTHERS = ["cycles", "loads", "stores", "jumps", "branches", "branches-taken",
          "branch-misses", "mul", "div", "muldiv-stall-cycles", "fetch-stall-cycles",
          "mem-stall-cycles", "hazard-stall-cycles", "exceptions", "interrupts",
          "csr-instructions", "fences", "flushes", "wfi-cycles", "loads:u", "stores:u",
          "branches:u", "jumps:u", "mul:u", "div:u", "flushes:u", "fences:u", "exceptions:u",
          "instructions:u", "cycles:u"]


def short(s, n=300):
    s = " | ".join(l for l in (s or "").strip().splitlines() if l.strip())
    return s if len(s) <= n else s[:n] + "..."


def stat_rows(text):
    """stat -x , lines: {event: (count, metric value, metric unit)}, in order."""
    rows = {}
    for r in csv.reader(io.StringIO(text)):
        if len(r) >= 7 and r[0].isdigit():
            rows[r[2]] = (int(r[0]), r[5], r[6])
    return rows


def topdown_rows(text):
    """hpmctl topdown -x , level-1 lines: {event: (count, percent)}."""
    return {r[3]: (int(r[4]), r[5]) for r in csv.reader(io.StringIO(text))
            if len(r) == 6 and r[0] == "1"}


def interval_rows(text):
    """stat -I -x , lines: [(time, event, count, metric value)]."""
    return [(r[0], r[3], int(r[1]), r[6]) for r in csv.reader(io.StringIO(text))
            if len(r) >= 8 and r[1].isdigit()]


def tenths(s):
    a, b = s.split(".")
    return int(a) * 10 + int(b)


def split_ok(rows, events):
    """The percentages of events add up to exactly 100.0 and each is within
    rounding (0.1) of its exact count over slots."""
    slots = rows["slots"][0]
    if sum(tenths(rows[e][1]) for e in events) != 1000:
        return False
    return all(abs(tenths(rows[e][1]) - 1000.0 * rows[e][0] / slots) < 1.0 for e in events)


def workloads(h):
    rc, out, err = h.run(["list", "--workloads"])
    return [l.split()[0] for l in out.splitlines() if l.startswith("  ")] if rc == 0 else []


def tests(h):
    wl = workloads(h)
    v3 = os.path.join(h.build, "bin", "hpm-sim-v3")
    nounit = {"HPM_SIM": v3}
    board_ref = {"HPM_REF": h.ref_with("--td-board")}

    # ---- stat --topdown = hpmctl topdown's level 1, every workload, both boards ----
    # (on hpm-sim-v3 the first is the monitor's emulation from the widened
    # 16-bit counts, the second four programmable counters)
    for link, name, env in ((SIM, "sim", None), (REF, "ref", None), (SIM, "sim, hpm-sim-v3", nounit)):
        bad = []
        for w in wl:
            rc, out, err = h.run(link + ["stat", "--topdown", "-x", ",", w], env=env)
            rc2, out2, err2 = h.run(link + ["topdown", "-x", ",", w], env=env)
            s, t = stat_rows(err), topdown_rows(err2)
            if rc or rc2 or list(s) != ["slots"] + LEVEL1:
                bad.append("%s: rc %s/%s %s" % (w, rc, rc2, short(err + err2)))
            elif any(s[e][0] != t[e][0] or s[e][1] != t[e][1] for e in LEVEL1) \
                    or sum(s[e][0] for e in LEVEL1) != s["slots"][0] or not split_ok(s, LEVEL1):
                bad.append("%s: stat %s topdown %s" % (w, s, t))
        h.report(not bad and len(wl) == 13, "topdown: stat --topdown -x, equals hpmctl topdown's level 1 (counts "
                 "and percentages) for all %d workloads of list --workloads (--link %s), slots = their sum"
                 % (len(wl), name), "; ".join(bad[:3]) or repr(wl))

    # ---- the iCE40 board's form: level 1 emulated, exact over many wraps ----
    # of its 16-bit counts (branchy --size 20000: 119,517 bad-speculation
    # slots), equal to the same events on programmable counters and to the
    # reference board with the board's counts
    big = ["--size", "20000", "branchy"]
    rc, out, err = h.run(SIM + ["stat", "--topdown", "-x", ",", "-e", "interrupts"] + big, env=nounit)
    rc2, out2, err2 = h.run(SIM + ["stat", "-x", ",", "-e", "cycles,instructions,topdown-bad-spec,topdown-fe-bound"]
                            + big, env=nounit)
    rc3, out3, err3 = h.run(REF + ["stat", "--topdown", "-x", ",", "-e", "interrupts"] + big, env=board_ref)
    s, c = stat_rows(err), stat_rows(err2)
    h.report(rc == 0 and rc2 == 0 and rc3 == 0 and list(s) == ["slots"] + LEVEL1 + ["interrupts"]
             and s["topdown-bad-spec"][0] > 3 * 65536 // 2 and s["interrupts"][0] > 0
             and (s["slots"][0], s["topdown-retiring"][0], s["topdown-bad-spec"][0], s["topdown-fe-bound"][0])
             == (c["cycles"][0], c["instructions"][0], c["topdown-bad-spec"][0], c["topdown-fe-bound"][0])
             and stat_rows(err3) == s,
             "topdown: hpm-sim-v3 stat --topdown branchy --size 20000: the monitor's widened counts (%s bad "
             "speculation, %s LCOFIs) equal programmable counters' and the reference board's (--td-board)"
             % (s.get("topdown-bad-spec", ("?",))[0], s.get("interrupts", ("?",))[0]),
             "%s | %s | %s" % (short(err), short(err2), short(err3)))

    # ---- the board without the unit gives the same numbers ----
    zero = {"HPM_SIM": os.path.join(h.build, "bin", "hpm-sim-0x64")}
    noref = {"HPM_REF": h.ref_with("--no-topdown")}
    rc, out, err = h.run(SIM + ["stat", "--topdown", "--td-level", "2", "-x", ",", "-e", "loads", "sort"])
    unit = stat_rows(err)
    for env, link, what in ((nounit, SIM, "hpm-sim-v3 (level 1 only)"), (noref, REF, "hpm-ref --no-topdown")):
        if not os.path.exists(v3) and env is nounit:
            h.report(False, "topdown: %s exists (make sim-variants)" % v3)
            continue
        rc2, out2, err2 = h.run(link + ["stat", "--topdown", "--td-level", "2", "-x", ",", "-e", "loads", "sort"],
                                env=env)
        h.report(rc == 0 and rc2 == 0 and unit and stat_rows(err2) == unit
                 and list(unit) == ["slots"] + LEVEL1 + LEVEL2 + ["loads"],
                 "topdown: stat --topdown --td-level 2 -e loads sort: %s gives the unit's rows exactly" % what,
                 "%s | %s" % (short(err), short(err2)))
        # the unit's table: hpm-sim-0x64 has the unit and no counter at all
        rc3, out3, err3 = h.run(link + ["topdown", "matmul"], env=env)
        rc4, out4, err4 = h.run(SIM + ["topdown", "matmul"], env=zero)
        h.report(rc3 == 0 and rc4 == 0 and err3 == err4 and "Level 2" in err4,
                 "topdown: hpmctl topdown matmul: %s (counters) prints byte for byte the table of the unit on a "
                 "board with 0 counters (hpm-sim-0x64)" % what, "%s | %s" % (short(err3), short(err4)))
        rc7, out7, err7 = h.run(link + ["stat", "--topdown", "--td-level", "2", "matmul"], env=env)
        why = "the board's top-down unit has level 1 only" if env is nounit else "the board has no top-down unit"
        h.report(rc7 == 0 and "Top-down on 9 programmable counters, slots = cycles: %s." % why in err7,
                 "topdown: %s: stat --topdown --td-level 2 says in one line that top-down took 9 counters, and why"
                 % what, short(err7))
        if env is nounit:
            continue
        rc5, out5, err5 = h.run(link + ["stat", "--topdown", "-e", ",".join(OTHERS), "crc"], env=env)
        lines = err5.strip().splitlines()
        h.report(rc5 not in (0, None) and len(lines) == 1 and "no top-down unit" in err5 and "no replay" in err5,
                 "topdown: %s: stat --topdown with 29 other events is refused in one line" % what,
                 short(err5))
        rc6, out6, err6 = h.run(link + ["stat", "--topdown", "matmul"], env=env)
        h.report(rc6 == 0 and "Top-down on 4 programmable counters, slots = cycles: the board has no top-down unit." in err6,
                 "topdown: %s: the human table says in one line that top-down took 4 counters" % what, short(err6))

    # ---- the unit takes no counter: a board with none (hpm-sim-0x64) ----
    rc, out, err = h.run(SIM + ["topdown", "matmul"], env=zero)
    rc2, out2, err2 = h.run(SIM + ["topdown", "matmul"])
    h.report(rc == 0 and rc2 == 0 and err == err2,
             "topdown: hpmctl topdown matmul on a board with 0 counters and the unit (hpm-sim-0x64): the same "
             "table as on 29 counters", "%s | %s" % (short(err), short(err2)))
    rc, out, err = h.run(SIM + ["stat", "--topdown", "--td-level", "2", "-x", ",", "-e", "cycles", "sort"], env=zero)
    s = stat_rows(err)
    h.report(rc == 0 and list(s) == ["slots"] + LEVEL1 + LEVEL2 + ["cycles"]
             and all(s[e] == unit[e] for e in ["slots"] + LEVEL1 + LEVEL2) and s["cycles"][0] == s["slots"][0],
             "topdown: stat --topdown --td-level 2 on 0 counters (hpm-sim-0x64): the unit's 10 rows, as on 29",
             short(err))

    # ---- with the unit or the board's emulation: 29 other events beside it, one run ----
    for env, link, what in ((None, SIM, "the unit"), (nounit, SIM, "hpm-sim-v3's emulation"),
                            (board_ref, REF, "hpm-ref --td-board")):
        rc, out, err = h.run(link + ["stat", "--topdown", "-x", ",", "-e", ",".join(OTHERS), "crc"], env=env)
        s = stat_rows(err)
        h.report(rc == 0 and list(s) == ["slots"] + LEVEL1 + OTHERS and s["slots"][0] == s["cycles"][0]
                 and split_ok(s, LEVEL1),
                 "topdown: stat --topdown -e <29 events> crc on %s: 35 rows, slots = cycles, the split exact" % what,
                 short(err))
        if env is nounit:
            v3_29 = s
        if env is board_ref:
            h.report(s == v3_29, "topdown: stat --topdown -e <29 events> crc: hpm-sim-v3 = the reference board "
                     "with the board's counts, every row", "%s | %s" % (v3_29, s))
    rc, out, err = h.run(SIM + ["stat", "--topdown", "matmul"], env=nounit)
    h.report(rc == 0 and "slots" in err and "% retiring" in err and "Top-down on" not in err,
             "topdown: hpm-sim-v3 stat --topdown matmul (human): perf's rows, no counter note", short(err))
    forever = h.cc("stop_forever.c")
    if forever:
        # stopped by --timeout in its first run: with a replay the second
        # run's events would be <not counted>; in one run all are counted
        rc, out, err = h.run(SIM + ["stat", "--timeout", "1500", "--topdown", "-x", ",", "-e", ",".join(OTHERS),
                                    forever], timeout=300)
        s = stat_rows(err)
        h.report(rc == 0 and list(s) == ["slots"] + LEVEL1 + OTHERS and "<not counted>" not in err
                 and s["slots"][0] == s["cycles"][0] > 0 and "partial counts" in err,
                 "topdown: stat --topdown with 29 events, stopped by --timeout: one run (every event counted "
                 "up to the stop, none <not counted>), slots = cycles", short(err))
    rc, out, err = h.run(SIM + ["stat", "--topdown", "matmul"])
    h.report(rc == 0 and "slots" in err and "#" in err and "Top-down on" not in err
             and all(e in err for e in LEVEL1) and "% retiring" in err,
             "topdown: stat --topdown matmul (human): perf's rows, no counter note on the board with the unit",
             short(err))

    # ---- -j parses; -I: the intervals sum to the counts of the same run ----
    rc, out, err = h.run(SIM + ["stat", "--topdown", "--td-level", "2", "-j", "memcpy"])
    try:
        objs = [json.loads(l) for l in err.splitlines() if l.startswith("{")]
    except ValueError as e:
        objs = []
        err += " %s" % e
    ok = [o["event"] for o in objs] == ["slots"] + LEVEL1 + LEVEL2 and \
        sum(round(10 * o["metric-value"]) for o in objs[1:5]) == 1000
    h.report(rc == 0 and ok, "topdown: stat --topdown --td-level 2 -j: one JSON object per row, level 1 sums to 100.0",
             short(err))
    rc, out, err = h.run(SIM + ["stat", "--topdown", "-I", "2", "-x", ",", "sort"])
    rc2, out2, err2 = h.run(SIM + ["stat", "-I", "2", "-x", ",", "-e", ",".join(["cycles"] + LEVEL1), "sort"])
    iv, iv2 = interval_rows(err), interval_rows(err2)
    same = len(iv) == len(iv2) and len(iv) > 10 and \
        all(a[2] == b[2] and (a[1] == b[1] or (a[1], b[1]) == ("slots", "cycles")) for a, b in zip(iv, iv2))
    stamps = sorted(set(r[0] for r in iv))
    per = {t: [r for r in iv if r[0] == t] for t in stamps}
    each = all(sum(tenths(r[3]) for r in rows if r[1] in LEVEL1) == 1000 and
               sum(r[2] for r in rows if r[1] in LEVEL1) == sum(r[2] for r in rows if r[1] == "slots")
               for rows in per.values())
    h.report(rc == 0 and rc2 == 0 and same and each,
             "topdown: stat --topdown -I 2 (counters): %d intervals, each the same counts as stat -I of cycles and "
             "the 4 events, each level 1 = slots and 100.0" % len(stamps), "%s | %s" % (short(err), short(err2)))
    total = stat_rows(h.run(SIM + ["stat", "--topdown", "-x", ",", "sort"])[2])
    sums = {e: sum(r[2] for r in iv if r[1] == e) for e in ["slots"] + LEVEL1}
    h.report(total and sum(sums[e] for e in LEVEL1) == sums["slots"]
             and sums["slots"] - total["slots"][0] == 2 * (len(stamps) - 1),
             "topdown: stat --topdown -I 2: the intervals' slots sum to the run's, which is the one-run count "
             "plus 2 per sampling tick (docs/protocol.md 6.3; %d ticks)" % (len(stamps) - 1), "%s %s" % (sums, total))

    # ---- --regions: the split per region ----
    rc, out, err = h.run(SIM + ["stat", "--regions", "--topdown", "-x", ",", "regions"])
    regs = {}
    for r in csv.reader(io.StringIO(err)):
        if len(r) >= 9 and r[2].isdigit():
            regs.setdefault(r[0], {})[r[4]] = (int(r[2]), r[7], r[8])
    ok = len(regs) >= 3 and all(list(v) == ["slots"] + LEVEL1 and split_ok(v, LEVEL1) and
                                sum(v[e][0] for e in LEVEL1) == v["slots"][0] for v in regs.values())
    h.report(rc == 0 and ok, "topdown: stat --regions --topdown: each of %d regions split exactly, level 1 = slots"
             % len(regs), short(err))

    # ---- perf's rules: one group, no sampling, no duplicates ----
    for args, want in (
            (["stat", "-e", "{slots,topdown-retiring,loads}", "crc"], "cannot join the top-down group"),
            (["stat", "-e", "{slots,topdown-retiring},topdown-fe-bound", "crc"], "outside the group"),
            (["stat", "-e", "slots:u,topdown-retiring", "crc"], "take no modifier"),
            (["stat", "--topdown", "-e", "topdown-retiring", "crc"], "-e cannot name"),
            (["stat", "--td-level", "2", "crc"], "needs --topdown"),
            (["stat", "--topdown", "--td-level", "3", "crc"], "expected 1 or 2"),
            (["record", "-e", "topdown-retiring", "-c", "1000", "crc"], "cannot be sampled"),
            (["record", "-e", "slots", "-c", "1000", "crc"], "cannot be sampled")):
        rc, out, err = h.run(SIM + args)
        h.report(rc not in (0, None) and len(err.strip().splitlines()) == 1 and want in err,
                 "topdown: hpmctl %s: refused in one line (%s)" % (" ".join(args), want), short(err))
