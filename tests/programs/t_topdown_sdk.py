"""A program's own top-down breakdown (issue 33): the SDK's example
fw/sdk/examples/topdown_phases.c, built by the installed hpm-cc with
hpm_topdown.h, reads SLOTS and the metrics registers from U-mode at three
points around two phases and prints them and each phase's slots per metric.
It prints the same on the simulated board and on the reference board; every
point's level 1 fields sum to 0xff; the phase lines are topdown.txt's delta
of the printed points (each metric's slots = field * SLOTS / 255 at both
points, subtracted), recomputed here. On the iCE40 board's form
(hpm-sim-v3, whose monitor emulates level 1 from the board's two counts) it
prints the same as the reference board with those counts (hpm-ref
--td-board): level 1 sums to 0xff, tdmetrics2 reads only its NA bit, and
each phase's level 1 is the delta of its points; on a board without the
unit (hpm-ref --no-topdown) its first read is an illegal instruction."""
import os
import re

from harness import ROOT, short

EXAMPLE = os.path.join(ROOT, "fw", "sdk", "examples", "topdown_phases.c")
POINT = re.compile(r"^point (\d): slots (\d+) tdmetrics 0x([0-9a-f]{8}) tdmetrics2 0x([0-9a-f]{8})$")
L1 = ("retiring", "bad-spec", "fe-bound", "be-bound")
L2 = ("br-mispredict", "machine-clears", "fetch-latency", "mem-bound", "core-bound")


def at(slots, m1, m2):
    """each metric's slots at a point (hpm_td_at)"""
    f = lambda v, i: (v >> (8 * i)) & 0xff
    s = lambda x: x * slots // 255
    r = {n: s(f(m1, i)) for i, n in enumerate(L1)}
    r["br-mispredict"] = s(f(m2, 0))
    r["machine-clears"] = r["bad-spec"] - r["br-mispredict"]
    r["fetch-latency"] = s(f(m2, 1))
    r["mem-bound"] = s(f(m2, 2))
    r["core-bound"] = r["be-bound"] - r["mem-bound"]
    r["slots"] = slots
    return r


def pct(x, slots):
    p = int(x * 1000 / slots) if slots else 0     # C's division truncates
    return "%s%d.%d%%" % ("-" if p < 0 else "", abs(p) // 10, abs(p) % 10)


def expected_phase(name, a, b, level2=True):
    d = {k: b[k] - a[k] for k in a}
    l1 = "%s: slots %d" % (name, d["slots"]) + "".join(" %s %d (%s)" % (n, d[n], pct(d[n], d["slots"])) for n in L1)
    l2 = "%s: level 2" % name + "".join(" %s %d (%s)" % (n, d[n], pct(d[n], d["slots"])) for n in L2)
    return [l1, l2 if level2 else "%s: level 2 not kept on this board" % name], d


def run_both(h, elf, what, env=None):
    """topdown_phases on sim and ref: their output, the same on both"""
    outs = {}
    for link in ("sim", "ref"):
        rc, out, err = h.run(["--link", link, "run", "--", elf], env=env)
        h.report(rc == 0 and "exit code:       0" in err, "topdown_phases on %s (--link %s): runs, exit 0"
                 % (what, link), "exit %s: %s" % (rc, short(out + err)))
        outs[link] = out
    h.report(outs["sim"] != "" and outs["sim"] == outs["ref"],
             "topdown_phases on %s: the simulated board and the reference board print the same" % what,
             "sim %r ref %r" % (short(outs["sim"]), short(outs["ref"])))
    return outs["sim"].splitlines()


def points(h, lines, what, m2_ok, m2_says):
    """the three point lines: each metric's slots, level 1 summing to 0xff,
    tdmetrics2 as m2_ok allows"""
    pts, bad = [], []
    for line in lines[:3]:
        m = POINT.match(line)
        if not m:
            bad.append("not a point line: %r" % line)
            continue
        slots, m1, m2 = int(m.group(2)), int(m.group(3), 16), int(m.group(4), 16)
        if sum((m1 >> (8 * i)) & 0xff for i in range(4)) != 0xff:
            bad.append("point %s: tdmetrics 0x%08x does not sum to 0xff" % (m.group(1), m1))
        if not m2_ok(m2):
            bad.append("point %s: tdmetrics2 0x%08x: not %s" % (m.group(1), m2, m2_says))
        pts.append(at(slots, m1, m2 & 0xffffff))
    h.report(len(pts) == 3 and not bad and pts[0]["slots"] < pts[1]["slots"] < pts[2]["slots"],
             "topdown_phases on %s: three points, SLOTS growing, level 1 sums to 0xff, tdmetrics2 %s"
             % (what, m2_says), "; ".join(bad) or short("\n".join(lines)))
    return pts if len(pts) == 3 else None


def board_form(h, elf):
    """hpm-sim-v3 against hpm-ref --td-board"""
    v3 = os.path.join(h.build, "bin", "hpm-sim-v3")
    wrap = h.ref_with("--td-board")
    what = "the board's emulation (hpm-sim-v3, hpm-ref --td-board)"
    lines = run_both(h, elf, what, {"HPM_SIM": v3, "HPM_REF": wrap})
    pts = points(h, lines, what, lambda m2: m2 == 1 << 30, "NA alone")
    if pts:
        want = expected_phase("memory", pts[0], pts[1], False)[0] + expected_phase("branchy", pts[1], pts[2], False)[0]
        h.report(lines[3:] == want, "topdown_phases on hpm-sim-v3: each phase's level 1 = the delta of its points, "
                 "level 2 not kept", "printed %r, want %r" % (lines[3:], want))


def tests(h):
    elf = h.cc(EXAMPLE)
    if not elf:
        return
    lines = run_both(h, elf, "the unit")
    pts = points(h, lines, "the unit", lambda m2: not m2 >> 24, "without OF")
    if not pts:
        return
    want_m, dm = expected_phase("memory", pts[0], pts[1])
    want_b, db = expected_phase("branchy", pts[1], pts[2])
    h.report(lines[3:] == want_m + want_b,
             "topdown_phases: each phase's slots per metric = the delta of its two points (field * SLOTS / 255)",
             "printed %r, want %r" % (lines[3:], want_m + want_b))
    h.report(dm["mem-bound"] > dm["slots"] // 20 and db["br-mispredict"] > 0 and db["fetch-latency"] > 0
             and dm["br-mispredict"] == 0,
             "topdown_phases: the memory phase is memory bound (%d of %d slots), the branchy one mispredicts (%d)"
             % (dm["mem-bound"], dm["slots"], db["br-mispredict"]), short("\n".join(lines)))

    board_form(h, elf)

    # the counter enables: a U-mode read of slots with scounteren.CY clear is
    # an illegal instruction, with the unit and with the board's emulation
    en = h.cc("td_enable.c")
    v3 = os.path.join(h.build, "bin", "hpm-sim-v3")
    for env, what in (({}, "the unit (hpm-sim)"), ({"HPM_SIM": v3}, "the emulation (hpm-sim-v3)")):
        if not en:
            break
        rc0, out0, err0 = h.run(["--link", "sim", "run", "--mode", "s", "--", en, "0"], env=env)
        rc1, out1, err1 = h.run(["--link", "sim", "run", "--mode", "s", "--", en, "1"], env=env)
        h.report(rc0 == 1 and "S: slots counting, scounteren 0" in out0
                 and re.search(r"trap:\s+illegal instruction 0xcc002573", err0) and "mode at exit:    U" in err0
                 and rc1 == 7 and "exit code:       7" in err1,
                 "topdown: slots from S reads (mcounteren.CY); from U with scounteren.CY clear an illegal "
                 "instruction, with it set read: %s" % what, "%s | %s" % (short(out0 + err0), short(out1 + err1)))

    # a board without the unit: the first read traps
    wrap = h.ref_with("--no-topdown")
    rc, out, err = h.run(["--link", "ref", "run", "--", elf], env={"HPM_REF": wrap})
    h.report(rc != 0 and out == "" and re.search(r"illegal instruction", err, re.I),
             "topdown_phases on a reference board without the unit (hpm-ref --no-topdown): an illegal instruction, "
             "nothing printed", "exit %s: %s" % (rc, short(out + err)))
