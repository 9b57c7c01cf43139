#!/usr/bin/env python3
"""hpmctl against the simulated board: every subcommand and output format.

Prints one line per check, "PASS what" or "FAIL what: why" (tests/run.sh,
suite cli, counts them). CSV and JSON outputs are parsed with the csv and
json modules and checked value by value; human output is parsed by its
fixed layout. Runs the simulated board (hpm-sim) and the reference model
(hpm-ref) through hpmctl; takes about two minutes, most of it in
`validate --all`.

  tests/cli/test_cli.py [--build DIR] [--only NAME,...]

The faulty board for the negative validate check is $HPM_SIM_FAULT, else
BUILD/bin/hpm-sim-fault ('loads' and 'stores' swapped, mk/host.mk); the check
fails if it is missing.
"""
import csv
import io
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from proctree import children, descendants  # noqa: E402
from checklib import one_line_error, report, short, suite_setup  # noqa: E402

ROOT, ARGS, BUILD, OUT = suite_setup(__file__, "cli")
HPMCTL = os.path.join(BUILD, "bin", "hpmctl")
FAULT_SIM = os.environ.get("HPM_SIM_FAULT") or os.path.join(BUILD, "bin", "hpm-sim-fault")

ENV = dict(os.environ)
ENV.pop("HPM_LINK", None)          # every check names its link (or needs none)
# subprocess does not pass make's jobserver pipe on: the makes started here
# (make hil) must not look for it, or they warn into the output checked
ENV["MAKEFLAGS"] = re.sub(r" ?--jobserver-(auth|fds)=\S+", "", ENV.get("MAKEFLAGS", ""))
SIM = ["--link", "sim"]

# the catalogue and the workloads, from their sources
CORE_JSON = os.path.join(BUILD, "gen", "pmu-events", "hpm-overlay", "core.json")
EVENTS = [e["EventName"] for e in json.load(open(CORE_JSON))]
WORKLOADS = re.findall(r"^HPM_WORKLOAD\((\w+),", open(os.path.join(ROOT, "fw", "workloads", "workloads.def")).read(), re.M)
PERF_JSON_KEYS = ["counter-value", "unit", "event", "event-runtime", "pcnt-running"]


def run(args, env=None, stderr_tty=False, timeout=900):
    """Runs hpmctl; returns (exit code, stdout, stderr)."""
    cmd = [HPMCTL] + args
    if not stderr_tty:
        p = subprocess.run(cmd, cwd=ROOT, env=env or ENV, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    # stderr on a pseudo-terminal (progress is shown only there), stdout a pipe
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, cwd=ROOT, env=env or ENV, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    err = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            err += data
        elif p.poll() is not None:
            break
    out = p.stdout.read()
    p.wait(timeout)
    os.close(master)
    return p.returncode, out.decode(), err.decode(errors="replace")


def cmdline(args):
    return "hpmctl " + " ".join(args) if args else "hpmctl (no arguments)"


def expect_ok(args, what=None, **kw):
    """Runs hpmctl, requires exit 0; returns stdout (None and a FAIL if not)."""
    rc, out, err = run(args, **kw)
    if rc != 0:
        report(False, what or cmdline(args), "exit %d, stderr: %s" % (rc, short(err)))
        return None
    return out


def expect_counts(args, what=None, **kw):
    """Runs a command that prints its counts on stderr (as perf stat does):
    requires exit 0 and nothing on stdout; returns stderr (None and a FAIL
    if not)."""
    rc, out, err = run(args, **kw)
    if rc != 0 or out:
        report(False, what or cmdline(args), "exit %d, stdout %r, stderr: %s" % (rc, out[:200], short(err)))
        return None
    return err


def split_err(err):
    """stderr of a command that prints its counts there: (the counts, the
    'hpmctl: ' message lines). A progress line erased on a terminal
    (\\r ESC [K) leaves only what follows it."""
    data, msgs = [], []
    for line in err.splitlines(True):
        line = line.split("\r\x1b[K")[-1]
        (msgs if line.startswith("hpmctl: ") else data).append(line)
    return "".join(data), [m.rstrip("\n") for m in msgs]


def parse_perf_csv(text, sep=","):
    """hpmctl stat -x: perf's columns; returns [{...}] in output order."""
    rows = []
    for rec in csv.reader(io.StringIO(text), delimiter=sep):
        if not rec:
            continue
        if len(rec) == 7:
            value, unit, event, runtime, pcnt, mval, munit = rec
            var = None
        elif len(rec) == 8:       # -r: perf 6.1 puts the variance after the event
            value, unit, event, var, runtime, pcnt, mval, munit = rec
        else:
            raise ValueError("CSV row with %d columns: %r" % (len(rec), rec))
        rows.append(dict(value=int(value), unit=unit, event=event, runtime=int(runtime), pcnt=pcnt,
                         variance=var, metric_value=mval, metric_unit=munit))
    return rows


def parse_jsonl(text):
    return [json.loads(l) for l in text.splitlines() if l.strip()]


def parse_human_stat(text):
    """The perf-style table: {event: count} in order, plus the seconds line."""
    counts = {}
    seconds = None
    for line in text.splitlines():
        m = re.match(r"^\s+([\d,]+)\s{6}(\S+)", line)
        if m:
            counts[m.group(2)] = int(m.group(1).replace(",", ""))
        m = re.match(r"^\s+([\d.]+)( \+- [\d.]+)? seconds board time", line)
        if m:
            seconds = float(m.group(1))
    return counts, seconds


# ---------------------------------------------------------------- checks ----

def test_help():
    out = expect_ok(["--version"])
    if out is not None:
        report(out.startswith("hpmctl ") and "libhpm" in out, "hpmctl --version: " + out.strip(), repr(out))
    out = expect_ok(["--help"])
    if out is not None:
        missing = [c for c in ["info", "list", "stat", "topdown", "record", "validate", "csr", "run"]
                   if not re.search(r"^  %s " % c, out, re.M)]
        report(not missing, "hpmctl --help lists every subcommand", "missing %s" % missing)
    for sub in ["info", "list", "stat", "topdown", "record", "validate", "csr", "run"]:
        out = expect_ok([sub, "--help"])
        if out is not None:
            report(out.startswith("usage: hpmctl %s" % sub), "hpmctl %s --help" % sub, short(out, 100))


def test_list():
    out = expect_ok(["list"])
    if out is not None:
        listed = re.findall(r"^  (\S+)(?: OR \S+)*\s+\[event (\d+): ", out, re.M)
        cat = json.load(open(CORE_JSON))
        want = [(e["EventName"], str(int(e["EventCode"], 16))) for e in cat]
        report(listed == want, "list: %d events with their index, in catalogue order" % len(listed),
               "got %s" % listed[:5])
        report("TOPDOWN.SLOTS" in out and "r<hex>" in out, "list: aliases and raw selectors shown")
    out = expect_ok(["list", "-v"])
    if out is not None:
        cat = json.load(open(CORE_JSON))
        first_words = [" ".join(e["PublicDescription"].split()[:4]) for e in cat]
        flat = " ".join(out.split())
        report(all(w in flat for w in first_words), "list -v: every event's definition")
    out = expect_ok(["list", "--json"])
    if out is not None:
        gen = open(CORE_JSON).read()
        report(out == gen, "list --json is byte-identical to %s" % os.path.relpath(CORE_JSON, ROOT),
               "differs (json equal: %s)" % (json.loads(out) == json.loads(gen)))
    out = expect_ok(["list", "--workloads"])
    if out is not None:
        names = re.findall(r"^  (\S+)\s{2,}\S", out, re.M)
        report(names == WORKLOADS, "list --workloads: the %d workloads of workloads.def" % len(WORKLOADS),
               "got %s" % names)


def test_info():
    out = expect_ok(SIM + ["info", "-j"])
    if out is None:
        return None
    info = json.loads(out)
    misa = info["misa"]
    isa = "RV%d" % {1: 32, 2: 64, 3: 128}[misa >> 30] + "".join(chr(65 + b) for b in range(26) if misa >> b & 1)
    evgen_hash = subprocess.run([os.path.join(BUILD, "tools", "evgen"), "hash"], capture_output=True,
                                text=True).stdout.strip()
    report(info["isa"] == isa == "RV32IMSU", "info -j: misa 0x%08x decodes to %s" % (misa, info["isa"]), "want %s" % isa)
    report(info["event-hash"] == info["host-event-hash"] == evgen_hash,
           "info -j: board and host event-catalogue hash %s = tools/evgen hash" % info["event-hash"],
           "board %s host %s evgen %s" % (info["event-hash"], info["host-event-hash"], evgen_hash))
    report(info["hpm-num"] == 29 and info["hpm-width"] == 64 and info["protocol"] == 2 and info["clock-hz"] > 0
           and info["link"].startswith("sim"), "info -j: sim link, protocol 2, 29 x 64 counters, clock %d Hz"
           % info["clock-hz"], json.dumps(info))
    out = expect_ok(SIM + ["info"])
    if out is not None:
        kv = dict(re.findall(r"^([a-z ]+):\s+(.*)$", out, re.M))
        ok = (kv.get("misa") == "0x%08x (%s)" % (misa, isa) and kv.get("clock") == "%d Hz" % info["clock-hz"]
              and kv.get("hpm counters", "").startswith("29 x 64 bits")
              and kv.get("min interval") == "%d cycles" % info["min-interval"])
        report(ok, "info: the table says what info -j says", short(out))
    return info


def stat_formats(info):
    """stat on memcpy with every catalogue event: -x, -j and the table agree,
    the reference agrees (validate), metrics and run times are right."""
    wl = ["--size", "4096", "memcpy"]
    ev = ",".join(EVENTS)
    rc, out, out_csv = run(SIM + ["stat", "-x", ",", "-e", ev] + wl)
    if not report(rc == 0 and out == "", "stat -x , memcpy (all %d events): exit 0, stdout empty, the counts alone on stderr (not a terminal: no progress)"
                  % len(EVENTS), "exit %d, stdout %r" % (rc, out[:300])):
        return None
    rows = parse_perf_csv(out_csv)
    csv_counts = {r["event"]: r["value"] for r in rows}
    cycles = csv_counts["cycles"]
    ns = cycles * 10**9 // info["clock-hz"]
    report([r["event"] for r in rows] == EVENTS and all(r["pcnt"] == "100.00" and r["unit"] == ""
                                                        and r["runtime"] == ns for r in rows),
           "stat -x: perf columns, events in order, unit empty, event-runtime = cycles in ns (%d), pcnt-running 100.00" % ns,
           short(out_csv))
    # the catalogue's identities hold on the board
    td = sum(csv_counts[e] for e in ["topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound"])
    report(td == cycles and csv_counts["topdown-retiring"] == csv_counts["instructions"]
           and csv_counts["topdown-bad-spec"] == csv_counts["topdown-br-mispredict"] + csv_counts["topdown-machine-clears"]
           and csv_counts["topdown-be-bound"] == csv_counts["topdown-mem-bound"] + csv_counts["topdown-core-bound"]
           and csv_counts["loads"] > 0 and csv_counts["stores"] > 0,
           "stat -x: topdown level 1 sums to cycles (%d), level 2 to its parents, loads %d stores %d"
           % (cycles, csv_counts["loads"], csv_counts["stores"]), str(csv_counts))
    m = {r["event"]: r for r in rows}
    ipc = csv_counts["instructions"] / cycles
    bm = 100.0 * csv_counts["branch-misses"] / csv_counts["branches"]
    report(m["instructions"]["metric_unit"] == "insn per cycle" and m["instructions"]["metric_value"] == "%.2f" % ipc
           and m["branch-misses"]["metric_unit"] == "of all branches" and m["branch-misses"]["metric_value"] == "%.2f" % bm
           and m["loads"]["metric_value"] == "" and m["loads"]["metric_unit"] == "",
           "stat -x: metrics (%.2f insn per cycle, %.2f%% of all branches) and none for loads" % (ipc, bm),
           str((m["instructions"], m["branch-misses"])))

    rc, out, out_json = run(SIM + ["stat", "-j", "-e", ev] + wl)
    if report(rc == 0 and out == "", "stat -j memcpy: exit 0, the counts on stderr", short(out + out_json)):
        objs = parse_jsonl(out_json)
        keys_ok = all(list(o.keys())[:5] == PERF_JSON_KEYS and isinstance(o["counter-value"], str)
                      and o["pcnt-running"] == 100.0 and o["event-runtime"] == ns for o in objs)
        j_counts = {o["event"]: int(o["counter-value"]) for o in objs}
        report(keys_ok and [o["event"] for o in objs] == EVENTS, "stat -j: perf's keys, counter-value a string",
               short(out_json))
        report(j_counts == csv_counts, "stat: -j counts equal -x counts (%d events)" % len(objs),
               str({k: (v, j_counts.get(k)) for k, v in csv_counts.items() if j_counts.get(k) != v}))
        o = {x["event"]: x for x in objs}
        report(abs(float(o["instructions"]["metric-value"]) - ipc) < 1e-5 and "metric-value" not in o["loads"],
               "stat -j: metric-value/metric-unit where perf has a metric only")

    out = expect_counts(SIM + ["stat", "-e", ev] + wl)
    if out is not None:
        h_counts, secs = parse_human_stat(out)
        report(h_counts == csv_counts and "Performance counter stats for 'memcpy':" in out
               and secs is not None and abs(secs - cycles / info["clock-hz"]) < 1e-9,
               "stat (table): same counts, perf's header, %.9f seconds board time = cycles / clock" % (secs or 0),
               short(out))

    rc, err, out = run(SIM + ["validate", "-j"] + wl)
    if report(rc == 0 and err == "", "validate -j memcpy: exit 0, the results on stderr", short(err + out)):
        objs = parse_jsonl(out)
        exp = {o["event"]: int(o["expected"]) for o in objs}
        act = {o["event"]: int(o["actual"]) for o in objs}
        report(exp == csv_counts and act == csv_counts and all(o["status"] == "OK" for o in objs)
               and all(o["workload"] == "memcpy" for o in objs),
               "validate -j: the reference's (expected) and the board's counts equal stat's, every event",
               str({k: (v, exp.get(k), act.get(k)) for k, v in csv_counts.items() if exp.get(k) != v}))
    return csv_counts


def stat_repeat_replay():
    rc, err, out = run(SIM + ["stat", "-x", ";", "-r", "3", "-e", "cycles,instructions,branches", "--size", "500", "alu"])
    if report(rc == 0, "stat -r 3 -x ';' alu: exit 0", short(err)):
        rows = parse_perf_csv(out, ";")
        report(all(r["variance"] == "0.00%" for r in rows) and len(rows) == 3,
               "stat -r 3 -x: variance column 0.00% (the core is deterministic)", short(out))
    rc, err, out = run(SIM + ["stat", "-r", "2", "-e", "cycles,instructions", "--size", "500", "alu"])
    if report(rc == 0, "stat -r 2 alu: exit 0", short(err)):
        report("(2 runs)" in out and out.count("( +-  0.00% )") == 3,
               "stat -r 2: '(2 runs)' and ( +-  0.00% ) on every count and on the time", short(out))
    # more programmable events than counters: replay; raw selectors; a group;
    # an ADD combination (EVENT0 loads + EVENT1 stores)
    add = (4 << 40) | (4 << 10) | 3
    ev = ",".join(EVENTS) + ",r1,r2,r0x3,r4,{loads,stores},r%x" % add
    rc, err, out = run(SIM + ["stat", "-x", ",", "-e", ev, "--size", "4096", "memcpy"])
    if report(rc == 0, "stat with %d events (%d programmable) on 29 counters: exit 0" % (len(ev.split(",")), len(ev.split(",")) - 2),
              short(err)):
        rows = parse_perf_csv(out)
        c = {}
        for r in rows:
            c.setdefault(r["event"], r["value"])
        ok = (c["r1"] == c["cycles"] and c["r2"] == c["instructions"] and c["r0x3"] == c["loads"]
              and c["r4"] == c["stores"] and c["r%x" % add] == c["loads"] + c["stores"]
              and all(r["pcnt"] == "100.00" for r in rows) and len(rows) == len(ev.split(",")))
        report(ok, "stat replay: raw r1/r2/r0x3/r4 equal cycles/instructions/loads/stores, r%x = loads + stores, pcnt-running 100.00" % add,
               str(c))


def stat_interval(info):
    """stat -I: perf's interval output in the three formats; the intervals
    add up to the run; merged replays on a one-counter board are exact."""
    wl = ["--size", "3000", "alu"]
    ev = "cycles,instructions,loads,branches,branch-misses"
    names = ev.split(",")
    csv_out = expect_counts(SIM + ["stat", "-I", "1", "-x", ",", "-e", ev] + wl)
    json_out = expect_counts(SIM + ["stat", "-I", "1ms", "-j", "-e", ev] + wl)
    human_out = expect_counts(SIM + ["stat", "-I", "1000us", "-e", ev] + wl)
    plain = expect_counts(SIM + ["stat", "-x", ",", "-e", ev] + wl)
    if None in (csv_out, json_out, human_out, plain):
        return
    rows = []
    for rec in csv.reader(io.StringIO(csv_out)):
        t, value, unit, event, runtime, pcnt, mval, munit = rec
        rows.append((round(float(t), 9), event, int(value), int(runtime), pcnt))
    stamps = sorted({r[0] for r in rows})
    per = [[r for r in rows if r[0] == t] for t in stamps]
    ok = (len(stamps) >= 3 and all([r[1] for r in p] == names for p in per)
          and all(r[4] == "100.00" for r in rows)
          and all(abs(r[3] / 1e9 - (t - p)) < 2e-9 for (p, t), grp in zip(zip([0.0] + stamps, stamps), per) for r in grp))
    report(ok, "stat -I 1 -x: %d intervals, every event in each in -e order, event-runtime = the interval's board time" % len(stamps),
           short(csv_out))
    # every sampling tick costs a U-mode run 2 cycles and nothing else
    plain_c = {r["event"]: r["value"] for r in parse_perf_csv(plain)}
    sums = {e: sum(r[2] for r in rows if r[1] == e) for e in names}
    ticks = len(stamps) - 1
    report(sums == dict(plain_c, cycles=plain_c["cycles"] + 2 * ticks),
           "stat -I: the intervals add up to stat's counts (cycles + 2 x %d ticks)" % ticks,
           "sums %s, stat %s" % (sums, plain_c))
    cycles = [r[2] for r in rows if r[1] == "cycles"]
    want_t, acc = [], 0
    for c in cycles:
        acc += c
        want_t.append(acc * 10**9 // info["clock-hz"] / 1e9)
    report(stamps == [round(x, 9) for x in want_t], "stat -I: time stamps are the board time at each interval's end (cycles / clock, in whole ns)",
           "%s vs %s" % (stamps[:4], want_t[:4]))
    jrows = parse_jsonl(json_out)
    report([(round(o["interval"], 9), o["event"], int(o["counter-value"])) for o in jrows]
           == [r[:3] for r in rows] and all(list(o)[0] == "interval" for o in jrows),
           "stat -I -j: 'interval' first, the same intervals and counts as -x")
    lines = human_out.splitlines()
    hrows = []
    for l in lines[1:]:
        m = re.match(r"^\s+(\d+\.\d{9})\s+([\d,]+)\s{6}(\S+)", l)
        if m:
            hrows.append((round(float(m.group(1)), 9), m.group(3), int(m.group(2).replace(",", ""))))
    report(lines[0] == "#           time             counts unit events" and hrows == [r[:3] for r in rows]
           and "insn per cycle" in human_out and "seconds board time" not in human_out,
           "stat -I (table): perf's header, the same rows, metrics per interval, no summary", short(human_out))
    # replay: a one-counter board merges 3 runs' samples into the same intervals
    one = dict(ENV, HPM_SIM=os.path.join(BUILD, "bin", "hpm-sim-1x40"))
    out1 = expect_counts(SIM + ["stat", "-I", "1", "-x", ",", "-e", ev] + wl, env=one)
    if out1 is not None:
        report(out1 == csv_out, "stat -I on a 1-counter board (hpm-sim-1x40, 3 replays): byte-identical to one run on 29 counters",
               short(out1))
    # an explicit --budget ends an interval measurement normally (on the
    # one-counter board too: every replay stops at the same cycle); plain
    # stat calls it a failure
    rc, err, out = run(SIM + ["stat", "-I", "1", "-x", ",", "--budget", "50000", "-e", ev] + wl, env=one)
    brows = [r.split(",") for r in out.splitlines()]
    full = {e: sum(r[2] for r in rows if r[1] == e) for e in names}
    got = {e: sum(int(r[1]) for r in brows if r[3] == e) for e in names}
    report(rc == 0 and not err and 0 < got["instructions"] < full["instructions"] and len(brows) >= 2 * len(names),
           "stat -I --budget 50000 on a 1-counter board: exit 0, the intervals up to the budget (instructions %d of %d)"
           % (got.get("instructions", -1), full["instructions"]), "exit %d: %s" % (rc, short(err)))
    # a run stopped by the budget is a failure, but its counts are exact and printed (issue 12)
    rc, out, err = run(SIM + ["stat", "--budget", "50000", "-e", ev] + wl)
    data, msgs = split_err(err)
    why = one_line_error(rc, out, "".join(m + "\n" for m in msgs), 1)
    counts, _ = parse_human_stat(data)
    err = "\n".join(msgs)
    report(why is None and "budget" in err and 0 < counts.get("instructions", 0) < full["instructions"],
           "stat --budget 50000 (no -I): exit 1, one line, the counts up to the budget (instructions %d of %d): %s"
           % (counts.get("instructions", -1), full["instructions"], err.strip()), why or short(out))
    for args, code, want in [
        (["stat", "-I", "5", "-r", "2", "alu"], 2, "cannot be combined"),
        (["stat", "-I", "5x", "alu"], 2, "expected milliseconds"),
        (["stat", "-I", "0", "alu"], 2, "expected milliseconds"),
        (["stat", "-I", "1us", "alu"], 1, "minimum"),
    ]:
        rc, out, err = run(SIM + args)
        why = one_line_error(rc, out, err, code)
        if why is None and want not in err:
            why = "stderr %r lacks %r" % (err.strip(), want)
        report(why is None, "%s: exit %d, one line: %s" % (cmdline(SIM + args), code, err.strip()), why)


def modifiers():
    """perf's :u/:k/:m: in a run in one mode, an event restricted to that mode
    counts what the plain event counts, restricted to another mode nothing;
    the board agrees with the reference."""
    ev = ["cycles", "instructions", "loads", "branches"]
    mods = {"u": "u", "s": "k", "m": "m"}
    for mode, own in mods.items():
        spec = ",".join(ev + ["%s:%s" % (e, m) for e in ev for m in "ukm"] + ["loads:%s" % "".join(sorted("ukm"))])
        out = expect_counts(SIM + ["stat", "-x", ",", "--mode", mode, "-e", spec, "--size", "1000", "memcpy"])
        if out is None:
            continue
        c = {r["event"]: r["value"] for r in parse_perf_csv(out)}
        want = {"%s:%s" % (e, m): (c[e] if m == own else 0) for e in ev for m in "ukm"}
        got = {k: c[k] for k in want}
        report(got == want and all(c[e] > 0 for e in ev) and c["loads:kmu"] == c["loads"],
               "stat --mode %s: e:%s = e, the other modes 0, loads:kmu = loads (cycles, instructions, loads, branches)" % (mode, own),
               "got %s want %s" % (got, want))
    out = expect_counts(SIM + ["validate", "-x", ",", "--mode", "s", "-e", "cycles:k,instructions:uk,loads:k,stores:u,r40000001003:km",
                           "--size", "1000", "memcpy"])
    if out is not None:
        rows = list(csv.reader(io.StringIO(out)))
        report(len(rows) == 5 and all("OK" in r for r in rows), "validate --mode s with modifiers: every event OK", short(out))


def narrow_replay():
    """On 8-bit counters, replays whose counters wrap differently take
    different numbers of ticks: refused in one line that says so."""
    env = dict(ENV, HPM_SIM=os.path.join(BUILD, "bin", "hpm-sim-29x8"))
    ev = "cycles" + ",branches,loads" * 15
    rc, out, err = run(SIM + ["stat", "-x", ",", "-e", ev, "--size", "2000", "alu"], env=env)
    why = one_line_error(rc, out, err, 1)
    report(why is None and "8-bit counters wrapped at different times" in err,
           "stat replays on 8-bit counters that wrap differently: exit 1, one line: " + err.strip(), why)


def main_job(info):
    """The issue's main job, stderr on a terminal: exact counts and progress."""
    args = ["stat", "-e", "cycles,instructions,loads,branch-misses", "matmul"]
    rc, out, err = run(SIM + args, stderr_tty=True)
    if not report(rc == 0 and out == "", "main job: hpmctl --link sim " + " ".join(args), "exit %d: %s" % (rc, short(err))):
        return
    counts, secs = parse_human_stat(split_err(err)[0])
    rc2, ref_err, ref_out = run(["--link", "ref", "stat", "-x", ","] + args[1:])
    ref = {r["event"]: r["value"] for r in parse_perf_csv(ref_out)} if rc2 == 0 else {}
    report(counts == ref and list(counts) == ["cycles", "instructions", "loads", "branch-misses"],
           "main job: counts %s equal the reference model's (--link ref)" % counts, "ref %s (%s)" % (ref, short(ref_err)))
    # 32 repeats (about 24 M board cycles: several seconds on the simulated
    # board at 5 M cycles/s) make sure the work lasts more than the second
    # after which progress appears
    rc, out, err = run(SIM + ["stat", "-r", "32"] + args[1:], stderr_tty=True)
    report(rc == 0 and "hpmctl: stat matmul" in err and "\r" in err and "hpmctl" not in out,
           "main job: progress on stderr when it is a terminal (stat -r 32 lasts > 1 s), not on stdout",
           "exit %d, stderr %r" % (rc, err[-200:]))


def topdown(info):
    rc, err, out = run(SIM + ["topdown", "matmul"])
    if not report(rc == 0 and err == "", "hpmctl --link sim topdown matmul: exit 0, the table on stderr", short(err + out)):
        return
    sec = out.split(" Level 2")
    row = r"^   (?:  )?(\S[\w ()]*?)\s+([\d,]+)\s+(\d+\.\d)$"
    lvl1, lvl2 = re.findall(row, sec[0], re.M), re.findall(row, sec[-1], re.M)
    totals = re.findall(r"^\s+([\d,]+)\s+100\.0$", out, re.M)
    tenths = lambda rows: sum(int(p.replace(".", "")) for _, _, p in rows)
    slots = lambda rows: sum(int(c.replace(",", "")) for _, c, _ in rows)
    ok = (len(sec) == 2 and len(lvl1) == 4 and len(lvl2) == 6 and tenths(lvl1) == 1000 and tenths(lvl2) == 1000
          and len(totals) == 2 and slots(lvl1) == slots(lvl2) == int(totals[0].replace(",", "")))
    report(ok, "topdown matmul (table): level 1 %s and level 2 %s each sum to 100.0 of %s slots"
           % ([p for _, _, p in lvl1], [p for _, _, p in lvl2], totals[:1]), short(out, 800))
    # machine-readable forms, on a smaller run: tenths sum exactly, and each
    # value is the exact share rounded by largest remainder
    wl = ["--size", "4096", "memcpy"]
    rc, err, out_j = run(SIM + ["topdown", "-j"] + wl)
    rc2, err2, out_c = run(SIM + ["topdown", "-x", ","] + wl)
    if not report(rc == 0 and rc2 == 0, "topdown -j and -x memcpy: exit 0", short(err + err2)):
        return
    objs = parse_jsonl(out_j)
    rows = [r for r in csv.reader(io.StringIO(out_c)) if r]
    as_csv = [[str(o["level"]), o["area"], o["parent"], o["event"], o["counter-value"], o["metric-value"]] for o in objs]
    report(as_csv == rows, "topdown: -j and -x give the same %d rows" % len(rows), short(out_c))
    why = topdown_check(objs)
    report(why is None, "topdown -j: level 1 and level 2 sum to 100.0, level 2 nests under level 1, each within rounding of counts/slots",
           "%s: %s" % (why, short(out_j, 600)))
    # the rounding on other distributions of the slots (the reference model
    # serves them in a fraction of a second)
    for w in ["ecall", "div", "branchy", "interp", "sort"]:
        rc, err, out_j = run(["--link", "ref", "topdown", "-j", w])
        why = topdown_check(parse_jsonl(out_j)) if rc == 0 else "exit %d: %s" % (rc, short(err))
        report(why is None, "topdown -j %s (--link ref): levels sum to 100.0, nest, round correctly" % w, why)


def topdown_check(objs):
    """Why the topdown JSON objects are wrong, or None."""
    l1 = [o for o in objs if o["level"] == 1]
    l2 = [o for o in objs if o["level"] == 2]
    if len(l1) != 4 or len(l2) != 6:
        return "%d level-1 and %d level-2 areas" % (len(l1), len(l2))
    slots = sum(int(o["counter-value"]) for o in l1)
    tenths = lambda o: int(o["metric-value"].replace(".", ""))
    if sum(map(tenths, l1)) != 1000 or sum(map(tenths, l2)) != 1000:
        return "sums %d and %d tenths" % (sum(map(tenths, l1)), sum(map(tenths, l2)))
    for p in l1:
        if sum(tenths(c) for c in l2 if c["parent"] == p["area"]) != tenths(p):
            return "level 2 under %s does not sum to %s" % (p["area"], p["metric-value"])
        if sum(int(c["counter-value"]) for c in l2 if c["parent"] == p["area"]) != int(p["counter-value"]):
            return "level-2 counts under %s do not sum to its count" % p["area"]
    for o in objs:
        exact = 100.0 * int(o["counter-value"]) / slots
        if abs(tenths(o) / 10 - exact) >= (0.1 if o["level"] == 1 else 0.2):
            return "%s %s%% is not %f rounded" % (o["area"], o["metric-value"], exact)
    return None


def record(info):
    wl = ["--size", "2000", "alu"]
    ev = "cycles,instructions,branches,branch-misses,loads"
    csvf, jsonf, svgf = (os.path.join(OUT, "record." + x) for x in ("csv", "json", "svg"))
    for f in (csvf, jsonf, svgf):
        if os.path.exists(f):
            os.remove(f)
    out = expect_counts(SIM + ["record", "-I", "10000cycles", "-e", ev, "-o", csvf, "--plot", svgf] + wl)
    out2 = expect_counts(SIM + ["record", "-I", "10000cycles", "-e", ev, "-o", jsonf] + wl)
    stat_out = expect_counts(SIM + ["stat", "-x", ",", "-e", ev] + wl)
    if out is None or out2 is None or stat_out is None:
        return
    with open(csvf, newline="") as f:
        rd = csv.DictReader(f)
        header = rd.fieldnames
        crows = list(rd)
    jrows = parse_jsonl(open(jsonf).read())
    report(header == ["interval", "counter-value", "unit", "event", "event-runtime", "pcnt-running", "sample",
                      "cycles", "cumulative"], "record CSV: header", str(header))
    norm_c = [(r["event"], int(r["sample"]), int(r["cycles"]), int(r["counter-value"]), int(r["cumulative"]),
               round(float(r["interval"]), 9)) for r in crows]
    norm_j = [(r["event"], r["sample"], int(r["cycles"]), int(r["counter-value"]), int(r["cumulative"]),
               round(r["interval"], 9)) for r in jrows]
    report(norm_c == norm_j and len(norm_c) > 0, "record: the CSV and JSON files hold the same %d rows" % len(norm_c))
    names = ev.split(",")
    samples = sorted({s for _, s, *_ in norm_c})
    stamps = [next(c for e, s, c, *_ in norm_c if s == k) for k in samples]
    steps = [b - a for a, b in zip(stamps, stamps[1:])]
    ok = (samples == list(range(len(samples))) and len(samples) >= 5
          and all(d > 0 for d in steps) and len(set(steps[:-1])) == 1
          and all(abs(float(r["interval"]) - int(r["cycles"]) / info["clock-hz"]) < 1e-9 for r in crows)
          and all([e for e, s, *_ in norm_c if s == k] == names for k in samples))
    report(ok, "record: samples 0..%d consecutive, every event in each, cycle stamps increasing by a constant %s between samples, interval = cycles / clock"
           % (len(samples) - 1, steps[0] if steps else "?"), "samples %s steps %s" % (samples, steps))
    cons = True
    for e in names:
        prev = 0
        for _, s, c, d, cum, _t in (r for r in norm_c if r[0] == e):
            cons &= cum >= prev and d == cum - prev
            prev = cum
    report(cons, "record: per event, counter-value = cumulative - previous cumulative, cumulative never decreases")
    # the end of the run: U-mode ticks cost 2 cycles each and nothing else
    # (docs/protocol.md 6.3), so the final cumulative counts are stat's
    stat = {r["event"]: r["value"] for r in parse_perf_csv(stat_out)}
    final = {e: cum for e, s, c, d, cum, _t in norm_c if s == samples[-1]}
    ticks = len(samples) - 1
    want = dict(stat, cycles=stat["cycles"] + 2 * ticks)
    report(final == want, "record: final cumulative counts = stat's, cycles + 2 x %d ticks (%d)" % (ticks, final.get("cycles", -1)),
           "final %s, stat %s" % (final, stat))
    m = re.search(r"(\d+) samples every 10000 cycles, 0 lost, (\d+) ticks", out)
    report(m is not None and int(m.group(1)) == ticks == int(m.group(2)), "record: summary says %d samples, 0 lost, %d ticks" % (ticks, ticks),
           short(out))
    try:
        svg = ET.parse(svgf).getroot()
        ns = "{http://www.w3.org/2000/svg}"
        paths = svg.findall(ns + "path")
        labels = [t.text for t in svg.findall(ns + "text")]
        report(svg.tag == ns + "svg" and len(paths) == len(names) and all(n in labels for n in names)
               and all(len(re.findall(r"H", p.get("d"))) == len(samples) for p in paths),
               "record --plot: an SVG with one line of %d intervals per event and a legend" % len(samples),
               "%d paths, labels %s" % (len(paths), labels))
    except ET.ParseError as e:
        report(False, "record --plot: the SVG parses", str(e))
    # more events than counters: the one-counter board replays the workload
    # once per programmable event and merges the samples; every row must be
    # the full board's
    one = dict(ENV, HPM_SIM=os.path.join(BUILD, "bin", "hpm-sim-1x40"))
    replayf = os.path.join(OUT, "record-1x40.csv")
    out3 = expect_counts(SIM + ["record", "-I", "10000cycles", "-e", ev, "-o", replayf] + wl, env=one)
    if out3 is not None:
        with open(replayf, newline="") as f:
            rrows = list(csv.DictReader(f))
        rc, err4, out4 = run(SIM + ["record", "-I", "10000cycles", "--budget", "30000", "-e", ev, "-o", replayf] + wl, env=one)
        with open(replayf, newline="") as f:
            brows = list(csv.DictReader(f))
        report(rc == 0 and "budget exhausted" in out4 and "3 replays merged" in out4
               and [r for r in brows if r["sample"] != brows[-1]["sample"]] == crows[:len(brows) - len(names)]
               and int(brows[-1]["cycles"]) < int(crows[-1]["cycles"]),
               "record --budget 30000 with replays: exit 0, the rows before the budget as in the full run, a last one at the stop",
               "exit %d %s %s" % (rc, short(out4), short(err4)))
        report(rrows == crows and "3 replays merged" in out3,
               "record on a 1-counter board (hpm-sim-1x40, 3 replays merged): the same %d rows as one run on 29 counters" % len(crows),
               "%d rows vs %d; %s" % (len(rrows), len(crows), short(out3)))
    rc, out, err = run(SIM + ["record", "-I", "10cycles", "-o", csvf] + wl)
    why = one_line_error(rc, out, err, 1)
    report(why is None and "minimum" in err, "record: -I below the board's min interval refused: " + err.strip(), why or err)


def validate_all():
    rc, err, out = run(SIM + ["validate", "--all", "-j"])
    objs = parse_jsonl(out)
    seen = {(o["workload"], o["event"]) for o in objs}
    want = {(w, e) for w in WORKLOADS for e in EVENTS}
    bad = [o for o in objs if o["status"] != "OK" or o["expected"] != o["actual"]]
    report(rc == 0 and seen == want and not bad and len(objs) == len(want),
           "validate --all: %d workloads x %d events, board = reference, exit 0" % (len(WORKLOADS), len(EVENTS)),
           "exit %d, %d of %d results, mismatches %s, missing workloads %s, stderr: %s"
           % (rc, len(objs), len(want), bad[:3], sorted({w for w, _ in want - seen}), short(err)))


def validate_fault():
    """A board whose 'loads' and 'stores' events trade places (built from an
    event include that swaps their bus positions, mk/host.mk) must fail."""
    args = ["--link", "sim", "validate", "memcpy"]
    if not os.access(FAULT_SIM, os.X_OK):
        report(False, "validate on a faulty board: HPM_SIM=%s hpmctl %s" % (os.path.relpath(FAULT_SIM, ROOT), " ".join(args)),
               "missing %s (the deliberately broken simulated board: 'loads' and 'stores' swapped)" % FAULT_SIM)
        return
    env = dict(ENV, HPM_SIM=FAULT_SIM)
    rc, pout, err = run(args, env=env)
    out, msgs = split_err(err)
    err = "\n".join(msgs)
    row = re.search(r"^   loads\s+([\d,]+)\s+([\d,]+)\s+(\w+)$", out, re.M)
    report(rc == 1 and row is not None and row.group(3) == "MISMATCH" and len(msgs) == 1 and pout == ""
           and "loads" in err and "MISMATCH (" in out,
           "validate on hpm-sim-fault: exit 1, loads MISMATCH (%s expected, %s actual): %s"
           % (row.group(1) if row else "?", row.group(2) if row else "?", err.strip()),
           "exit %d, stdout %s, stderr %s" % (rc, short(out, 600), short(err)))
    rc, pout, err = run(["--link", "sim", "validate", "-j", "--size", "4096", "memcpy"], env=env)
    r = {o["event"]: o for o in parse_jsonl(split_err(err)[0])} if pout == "" else {}
    if r:
        ld, st = int(r["loads"]["expected"]), int(r["stores"]["expected"])
        others = [e for e, o in r.items() if e not in ("loads", "stores") and o["status"] != "OK"]
        report(rc == 1 and r["loads"]["status"] == "MISMATCH" and int(r["loads"]["actual"]) == st
               and int(r["stores"]["actual"]) == ld and not others,
               "validate -j on hpm-sim-fault: loads and stores swapped (%d, %d), every other event OK" % (ld, st),
               "exit %d, loads %s, other mismatches %s" % (rc, r["loads"], others))
    else:
        report(False, "validate -j on hpm-sim-fault", "exit %d, no output, stderr %s" % (rc, short(err)))


JUNIT_XSD = os.path.join(ROOT, "tests", "cli", "junit.xsd")


def junit_parse(path):
    """A validate --junit report: None and the reason if it is not JUnit as CI
    reporters read it (tests/cli/junit.xsd via xmllint, then the counts in
    the attributes against the elements), else (suite, properties, cases)
    with cases as [(classname, name, time, kind or None, element)]."""
    if not os.path.exists(path):
        return None, "no report %s" % path
    p = subprocess.run(["xmllint", "--noout", "--schema", JUNIT_XSD, path], capture_output=True, text=True)
    if p.returncode != 0:
        return None, "xmllint --schema junit.xsd: " + short(p.stderr)
    root = ET.parse(path).getroot()
    suites = root.findall("testsuite")
    if root.tag != "testsuites" or len(suites) != 1:
        return None, "root <%s> with %d <testsuite>" % (root.tag, len(suites))
    suite = suites[0]
    props = {q.get("name"): q.get("value") for q in suite.findall("properties/property")}
    cases = []
    for c in suite.findall("testcase"):
        kids = list(c)
        cases.append((c.get("classname"), c.get("name"), float(c.get("time")),
                      kids[0].tag if kids else None, kids[0] if kids else None))
    n = {k: sum(1 for c in cases if c[3] == k) for k in ("failure", "error", "skipped")}
    for el in (root, suite):
        got = (int(el.get("tests")), int(el.get("failures")), int(el.get("errors")), int(el.get("skipped", "0")))
        if got != (len(cases), n["failure"], n["error"], n["skipped"]):
            return None, "<%s> says tests/failures/errors/skipped %s, its test cases %s" % (
                el.tag, got, (len(cases), n["failure"], n["error"], n["skipped"]))
    if float(suite.get("time")) + 0.002 < sum(c[2] for c in cases):
        return None, "suite time %s below the sum of its test cases' %.3f" % (suite.get("time"), sum(c[2] for c in cases))
    return (suite, props, cases), None


def junit_reports(info):
    """validate --junit: parsed by a real XML parser against the structure CI
    reporters expect; passing packs on a 1-counter board, the faulty board's
    mismatches as <failure>, a board lost mid-run as <error> then <skipped>,
    a board that cannot be opened, and the option's errors."""
    if not report(subprocess.run(["xmllint", "--version"], capture_output=True).returncode == 0,
                  "junit: xmllint (libxml2-utils) present", "xmllint missing: make deps"):
        return
    if "firmware" not in info:       # run alone (--only junit)
        info = dict(info, **json.loads(run(SIM + ["info", "-j"])[1]))
    version = run(["--version"])[1]
    host_hash = re.search(r"catalogue (0x[0-9a-f]{16})", version).group(1)
    # a 1 x 40-bit board: every programmable event is a pack of its own
    narrow = os.path.join(BUILD, "bin", "hpm-sim-1x40")
    path = os.path.join(OUT, "junit-1x40.xml")
    evs = "cycles,loads,{stores},branches:u"
    rc, out, err = run(["--link", "sim", "validate", "-j", "--junit", path, "--junit-property", "lab.serial=TEST<&>1",
                        "-e", evs, "crc", "alu"], env=dict(ENV, HPM_SIM=narrow))
    out = split_err(err)[0] if out == "" else "stdout: " + out
    rep, why = junit_parse(path)
    if rep:
        suite, props, cases = rep
        want = [("validate." + w, "pack %d of 3: %s" % (i + 1, p)) for w in ("crc", "alu")
                for i, p in enumerate(["{cycles,loads}", "{stores}", "{branches:u}"])]
        rows = parse_jsonl(out)
        why = None
        if rc != 0 or [(c[0], c[1]) for c in cases] != want or any(c[3] for c in cases):
            why = "exit %d, test cases %s" % (rc, [(c[0], c[1], c[3]) for c in cases])
        elif props.get("board.hpm_configuration") != "1x40" or props.get("board.catalogue_hash") != host_hash \
                or props.get("board.firmware_version") != info.get("firmware") or props.get("lab.serial") != "TEST<&>1" \
                or not props.get("board.link", "").startswith("sim (") or props.get("validate.events") != evs:
            why = "properties %s (want 1x40, catalogue %s, firmware %s)" % (props, host_hash, info.get("firmware"))
        elif len(rows) != 8 or any(r["status"] != "OK" for r in rows):
            why = "-j output next to --junit: %s" % rows
    report(why is None, "validate --junit on a 1x40 board: schema-valid, 2 workloads x 3 packs as test cases, "
           "properties from HELLO (1x40, catalogue, firmware %s) and --junit-property" % info.get("firmware"), why)
    # the faulty board: the pack holding loads and stores fails, with the counts -j prints
    path = os.path.join(OUT, "junit-fault.xml")
    rc, out, err = run(["--link", "sim", "validate", "-j", "--junit", path, "-e", "cycles,loads,stores,jumps",
                        "memcpy", "crc", "mul"], env=dict(ENV, HPM_SIM=FAULT_SIM))
    out = split_err(err)[0] if out == "" else "stdout: " + out
    rep, why = junit_parse(path)
    if rep:
        suite, props, cases = rep
        rows = {(r["workload"], r["event"]): r for r in parse_jsonl(out)}
        bad = sorted({w for (w, e), r in rows.items() if r["status"] != "OK"})
        fails = {c[0][len("validate."):]: c[4] for c in cases if c[3] == "failure"}
        why = None
        if rc != 1 or len(cases) != 3 or sorted(fails) != bad or not bad or any(c[3] not in (None, "failure") for c in cases):
            why = "exit %d, failures %s, mismatching workloads per -j %s" % (rc, sorted(fails), bad)
        for w, el in fails.items():
            detail = dict((m.group(1), (int(m.group(2)), int(m.group(3))))
                          for m in re.finditer(r"^(\S+): expected (\d+), actual (\d+)$", el.text or "", re.M))
            want = {e: (int(r["expected"]), int(r["actual"])) for (x, e), r in rows.items() if x == w and r["status"] != "OK"}
            if el.get("type") != "mismatch" or detail != want or "loads expected %d actual %d" % want.get("loads", (0, 0)) not in el.get("message"):
                why = "%s: <failure type=%s message=%r> %r, -j says %s" % (w, el.get("type"), el.get("message"), el.text, want)
    report(why is None, "validate --junit on hpm-sim-fault: exit 1, <failure type=mismatch> for exactly the "
           "workloads -j shows mismatching, each with the event, expected and actual counts", why)
    # a board lost during the run: its pack is an <error>, everything after it <skipped>
    dying = os.path.join(OUT, "dying-sim")
    with open(dying, "w") as f:
        f.write('#!/bin/sh\n# the simulated board, its UART dead after 800 bytes to the host\n'
                '"%s" "$@" | dd bs=1 count=800 status=none\n' % os.path.join(BUILD, "bin", "hpm-sim"))
    os.chmod(dying, 0o755)
    path = os.path.join(OUT, "junit-lost.xml")
    rc, out, err = run(["--link", "sim", "validate", "--junit", path, "-e", "cycles,loads", "alu", "crc", "memcpy", "sort"],
                       env=dict(ENV, HPM_SIM=dying))
    rep, why = junit_parse(path)
    if rep:
        suite, props, cases = rep
        kinds = [c[3] for c in cases]
        first = kinds.index("error") if "error" in kinds else -1
        why = None
        if rc != 1 or len(cases) != 4 or first < 0 or cases[first][4].get("type") != "link failure" \
                or any(k is not None for k in kinds[:first]) or any(k != "skipped" for k in kinds[first + 1:]) \
                or first == 3 or "board was lost" not in err:
            why = "exit %d, test cases %s, stderr %s" % (rc, kinds, short(err))
    report(why is None, "validate --junit, board lost mid-run: exit 1, <error type='link failure'> then only "
           "<skipped>: %s" % short(err), why)
    # a board that cannot be opened: one <error> test case says why
    path = os.path.join(OUT, "junit-noboard.xml")
    rc, out, err = run(["--link", "tty:/nonexistent/ttyUSB9", "validate", "--junit", path, "alu"])
    rep, why = junit_parse(path)
    if rep:
        suite, props, cases = rep
        why = None if rc == 1 and len(cases) == 1 and cases[0][3] == "error" and "/nonexistent/ttyUSB9" in \
            cases[0][4].get("message") else "exit %d, cases %s" % (rc, [(c[1], c[3]) for c in cases])
    report(why is None, "validate --junit without a board: exit 1, one <error> test case 'open the board'", why)
    for args, code, want in [(["validate", "--junit-property", "a=b", "alu"], 2, "needs --junit"),
                             (["validate", "--junit", "x.xml", "--junit-property", "novalue", "alu"], 2, "NAME=VALUE"),
                             (["validate", "--junit", "", "alu"], 2, "file name"),
                             (["--link", "sim", "validate", "--junit", "/nonexistent/dir/r.xml", "alu"], 1, "cannot write")]:
        rc, out, err = run(args)
        why = one_line_error(rc, out, err, code)
        if why is None and want not in err:
            why = "stderr %r lacks %r" % (err.strip(), want)
        report(why is None, "%s: exit %d, one line: %s" % (cmdline(args), code, err.strip()), why)


def hil_target():
    """make hil without a board (an empty umockdev testbed, so a board on this
    machine is not touched): the simulated board, said so, a JUnit file and
    a summary; and its argument errors. HIL_WORKLOADS keeps it short. MAKE
    for tools/hil.sh is `false`, so nothing here can start a bitstream build."""
    if subprocess.run(["which", "umockdev-run"], capture_output=True).returncode != 0:
        report(False, "make hil", "umockdev-run missing (make deps: umockdev)")
        return
    hil = os.path.join(BUILD, "hil")
    for f in ("sim.xml", "summary.txt"):
        if os.path.exists(os.path.join(hil, f)):
            os.unlink(os.path.join(hil, f))
    p = subprocess.run(["umockdev-run", "--", "make", "--no-print-directory", "-s", "hil", "BUILD=" + ARGS.build,
                        "HIL_WORKLOADS=crc,alu"], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=900)
    rep, why = junit_parse(os.path.join(hil, "sim.xml"))
    summary = open(os.path.join(hil, "summary.txt")).read() if os.path.exists(os.path.join(hil, "summary.txt")) else ""
    if rep:
        suite, props, cases = rep
        why = None
        if p.returncode != 0 or "no USB board attached: validating on the simulated board" not in p.stdout \
                or [c[0] for c in cases] != ["validate.crc", "validate.alu"] or any(c[3] for c in cases) \
                or not props.get("board.link", "").startswith("sim") \
                or re.search(r"^sim +PASS +2 test cases, 0 failures, 0 errors", summary, re.M) is None:
            why = "exit %d, stdout %s, cases %s, summary %r" % (p.returncode, short(p.stdout), [c[:2] for c in cases], summary)
    report(why is None, "make hil without a board: says it uses the simulated board, build/hil/sim.xml "
           "(schema-valid, crc and alu pass), summary 'sim PASS', exit 0", why)
    env = dict(ENV, MAKE="false", BUILD=ARGS.build)
    for args, code, want in [(["BOARDS=a b"], 2, "expected all or SERIAL"),
                             (["BOARDS=x,,y"], 2, "expected all or SERIAL"),
                             (["BOARDS="], 2, "expected all or SERIAL"),
                             (["all", "extra"], 2, "expected one argument"),
                             (["PROG=foo"], 2, "PROG=foo is not supported")]:
        e = dict(env)
        argv = []
        for a in args:
            if "=" in a:
                k, v = a.split("=", 1)
                e[k] = v
            else:
                argv.append(a)
        p = subprocess.run(["umockdev-run", "--", os.path.join(ROOT, "tools", "hil.sh")] + argv, cwd=ROOT, env=e,
                           capture_output=True, text=True, timeout=120)
        lines = p.stderr.splitlines()
        why = None
        if p.returncode != code or p.stdout.strip() or len(lines) != 1 or not lines[0].startswith("make hil: ") \
                or want not in p.stderr:
            why = "exit %d (want %d), stdout %r, stderr %r (want one 'make hil: ...%s' line)" % (
                p.returncode, code, short(p.stdout), p.stderr, want)
        report(why is None, "tools/hil.sh %s: exit %d, one line: %s" % (" ".join(args), code, p.stderr.strip()), why)
    # make passes BOARDS through; its own last line follows the script's
    p = subprocess.run(["make", "--no-print-directory", "hil", "BUILD=" + ARGS.build, "BOARDS=bad board"], cwd=ROOT,
                       env=ENV, capture_output=True, text=True, timeout=300)
    report(p.returncode != 0 and p.stderr.startswith("make hil: BOARDS='bad board': expected all or SERIAL"),
           "make hil BOARDS='bad board': non-zero, the reason first: " + short(p.stderr),
           "exit %d, stderr %s" % (p.returncode, short(p.stderr)))


def ci_files():
    """The CI definitions for a lab (.github/workflows/hil.yml, ci/gitlab-hil.yml):
    valid YAML with the keys their engines require, and every command they
    run one that make test exercises: make (all) and make hil, plus reading
    build/hil/."""
    try:
        import yaml
    except ImportError:
        report(False, "ci: python3-yaml", "missing (make deps)")
        return
    allowed_make = {(), ("hil",)}     # make test builds all; hil_target runs make hil

    def commands_ok(lines):
        bad = []
        for line in lines:
            for cmd in [c.strip() for c in re.split(r"&&|;", line) if c.strip()]:
                m = re.match(r"^(?:nice )?make((?: +[^ ]+)*)$", cmd)
                if m:
                    args = m.group(1).split()
                    targets = tuple(a for a in args if not a.startswith("-") and "=" not in a)
                    if targets not in allowed_make:
                        bad.append(cmd)
                elif not re.match(r"^cat build/hil/summary\.txt( >> \"\$GITHUB_STEP_SUMMARY\")?$", cmd):
                    bad.append(cmd)
        return bad

    path = os.path.join(ROOT, ".github", "workflows", "hil.yml")
    why = None
    try:
        wf = yaml.safe_load(open(path))
        on = wf.get("on", wf.get(True))       # YAML 1.1 reads a bare 'on' as true
        jobs = wf.get("jobs") or {}
        runs = []
        if not on or not isinstance(jobs, dict) or not jobs:
            why = "no 'on' or no jobs: %s" % list(wf)
        for name, job in jobs.items():
            ro = job.get("runs-on")
            labels = [ro] if isinstance(ro, str) else ro or []
            steps = job.get("steps") or []
            if "self-hosted" not in labels or "hil" not in labels:
                why = "job %s runs-on %r: want self-hosted and hil" % (name, ro)
            elif not steps or any(not isinstance(st, dict) or ("run" in st) == ("uses" in st) for st in steps):
                why = "job %s: every step needs exactly one of run/uses: %s" % (name, steps)
            elif any("uses" in st and not re.match(r"^[\w.-]+/[\w.-]+@v\d+$", st["uses"]) for st in steps):
                why = "job %s: an action not pinned to a major version: %s" % (name, [st.get("uses") for st in steps])
            runs += [l for st in steps if "run" in st for l in st["run"].splitlines() if l.strip()]
        if why is None and not any(re.search(r"\bmake hil\b", r) for r in runs):
            why = "no step runs make hil: %s" % runs
        elif why is None and commands_ok(runs):
            why = "commands make test does not exercise: %s" % commands_ok(runs)
    except (OSError, yaml.YAMLError, AttributeError) as e:
        why = "%s: %s" % (type(e).__name__, e)
    report(why is None, ".github/workflows/hil.yml: valid YAML, on/jobs/runs-on [self-hosted, hil]/steps with "
           "run or uses, runs only make and make hil", why)
    path = os.path.join(ROOT, "ci", "gitlab-hil.yml")
    why = None
    try:
        gl = yaml.safe_load(open(path))
        job = gl.get("hil") or {}
        script = job.get("script") or []
        junit = ((job.get("artifacts") or {}).get("reports") or {}).get("junit")
        if job.get("stage") not in (gl.get("stages") or []) or "hil" not in (job.get("tags") or []):
            why = "job hil: stage %r not in stages %r, or tags %r lack hil" % (job.get("stage"), gl.get("stages"), job.get("tags"))
        elif not isinstance(script, list) or not script or commands_ok(script) or not any("make hil" in c for c in script):
            why = "script %r (not exercised by make test: %s)" % (script, commands_ok(script) if isinstance(script, list) else "")
        elif junit != "build/hil/*.xml" or (job.get("artifacts") or {}).get("when") != "always":
            why = "artifacts %r: want reports:junit build/hil/*.xml, when: always" % job.get("artifacts")
        elif commands_ok(job.get("after_script") or []):
            why = "after_script %r" % job.get("after_script")
    except (OSError, yaml.YAMLError, AttributeError) as e:
        why = "%s: %s" % (type(e).__name__, e)
    report(why is None, "ci/gitlab-hil.yml: valid YAML, stage/tags [hil]/script/artifacts:reports:junit, "
           "runs only make and make hil", why)


def csr_cmds():
    a = expect_ok(SIM + ["csr", "read", "mcountinhibit"])
    b = expect_ok(SIM + ["csr", "read", "0x320"])
    if a is not None and b is not None:
        m = re.match(r"^mcountinhibit \(0x320\) = (0x[0-9a-f]{8}) \((\d+)\)$", a.strip())
        report(m is not None and a == b and int(m.group(1), 16) == int(m.group(2)),
               "csr read mcountinhibit (by name and by number): " + a.strip(), a + b)
    out = expect_ok(SIM + ["csr", "write", "mhpmevent3", "0x1c05"])
    if out is not None:
        report(re.match(r"^mhpmevent3 \(0x323\): old 0x[0-9a-f]{8}, new 0x00001c05$", out.strip()) is not None,
               "csr write mhpmevent3 0x1c05: " + out.strip(), out)
    out = expect_ok(SIM + ["csr", "write", "mhpmevent3h", "0x0f800000"])
    if out is not None:
        report(out.strip().endswith("new 0x00000000"), "csr write mhpmevent3h 0x0f800000: read-only bits 59..55 stay 0: "
               + out.strip(), out)
    for args, want in ((["csr", "write", "mtvec", "0"], "refuses"),
                       (["csr", "write", "mvendorid", "1"], "trapped"),
                       (["csr", "read", "0x7ff"], "trapped")):
        rc, out, err = run(SIM + args)
        why = one_line_error(rc, out, err, 1)
        report(why is None and want in err, "%s: exit 1, one line: %s" % (cmdline(args), err.strip()), why or err)


def csr_catalogue_names():
    """Every CSR name hw/csr.def gives, with its number: singles, and the
    first and last member of each range (PREFIX<n>[h])."""
    names = []
    for m in re.finditer(r"^HPM_CSR\((\w+),\s*(0x[0-9a-f]+),\s*(\d+),", open(os.path.join(ROOT, "hw", "csr.def")).read(), re.M):
        name, addr, count = m.group(1), int(m.group(2), 16), int(m.group(3))
        names.append((name, addr))
        if count > 1:
            r = re.match(r"^(\D+)(\d+)(h?)$", name)
            names.append(("%s%d%s" % (r.group(1), int(r.group(2)) + count - 1, r.group(3)), addr + count - 1))
    return names


# the iCE40 board's top-down counts (HPM_TD = 2): read on hpm-sim-v3, its form
BOARD_ONLY_CSRS = ("mtdfe16", "mtdbad16")


def csr_names_from_catalogue():
    """hpmctl csr knows every CSR of hw/csr.def by its name and labels it so
    (on the simulated board, the board's own ones on hpm-sim-v3)."""
    bad = []
    names = csr_catalogue_names()
    v3 = dict(ENV, HPM_SIM=os.path.join(BUILD, "bin", "hpm-sim-v3"))
    for name, addr in names:
        rc, out, err = run(SIM + ["csr", "read", name], env=v3 if name in BOARD_ONLY_CSRS else None)
        if rc != 0 or not out.startswith("%s (0x%03x) = " % (name, addr)):
            bad.append("%s: exit %d %s" % (name, rc, (out + err).strip()[:80]))
    report(len(names) > 60 and not bad and all(n in dict(names) for n in BOARD_ONLY_CSRS),
           "csr read: all %d names of hw/csr.def (first and last of each range) known and labelled with their "
           "number (%s on hpm-sim-v3)" % (len(names), ", ".join(BOARD_ONLY_CSRS)), "; ".join(bad[:4]))


def run_cmd(info):
    out = expect_counts(SIM + ["run", "--size", "2000", "alu"])
    outm = expect_counts(SIM + ["run", "--mode", "m", "--size", "2000", "alu"])
    if out is None or outm is None:
        return
    field = lambda t, k: re.search(r"^   %s:\s+(.*)$" % re.escape(k), t, re.M).group(1)
    num = lambda t, k: int(field(t, k).split()[0].replace(",", ""))
    rc, err, st = run(SIM + ["stat", "-x", ",", "-e", "cycles,instructions", "--size", "2000", "alu"])
    s = {r["event"]: r["value"] for r in parse_perf_csv(st)} if rc == 0 else {}
    report(field(out, "exit reason") == "exit ecall" and field(out, "exit code") == "0" and field(out, "mode at exit") == "U"
           and num(out, "cycles") == s.get("cycles") and num(out, "instructions") == s.get("instructions"),
           "run alu: exit ecall, code 0, U, cycles and instructions equal stat's", short(out))
    # docs/protocol.md 6.2: an M run adds 5 instructions and 8 cycles to a U run
    report(field(outm, "mode at exit") == "M" and num(outm, "instructions") == num(out, "instructions") + 5
           and num(outm, "cycles") == num(out, "cycles") + 8,
           "run --mode m alu: the monitor's fixed M-mode cost (+5 instructions, +8 cycles)", short(outm))
    rc, pout, err = run(SIM + ["run", "--budget", "3000", "alu"])
    out, msgs = split_err(err)
    err = "".join(m + "\n" for m in msgs)
    why = one_line_error(rc, pout, err, 1)
    report(why is None and "budget exhausted" in out, "run --budget 3000 alu: exit 1, 'budget exhausted': " + err.strip(),
           why or short(out))
    out = expect_counts(SIM + ["run", "--mode", "s", "--size", "100", "csr"])
    if out is not None:
        report(field(out, "exit reason") == "exit ecall" and field(out, "mode at exit") == "S",
               "run --mode s csr: passes in S-mode", short(out))
    elf = os.path.join(BUILD, "fw", "workloads", "alu.elf")
    rc, err, st2 = run(SIM + ["stat", "-x", ",", "-e", "cycles,instructions", "--size", "2000", elf])
    s2 = {r["event"]: r["value"] for r in parse_perf_csv(st2)} if rc == 0 else {}
    report(s2 == s and s, "stat on an ELF path counts what stat on the workload name counts", "%s vs %s %s" % (s2, s, short(err)))


def arg_errors():
    """Bad command lines: one stderr line, nothing on stdout, no board needed."""
    txt = os.path.join(OUT, "text.elf")
    open(txt, "w").write("this is a text file, not an ELF\n" * 10)
    trunc = os.path.join(OUT, "truncated.elf")
    open(trunc, "wb").write(open(os.path.join(BUILD, "fw", "workloads", "alu.elf"), "rb").read()[:200])
    x86 = "/bin/true"
    cases = [
        (["stat", "-e", "bogus", "alu"], 1, "unknown event"),
        (["stat", "-e", "rzz", "alu"], 1, "unknown event"),
        (["stat", "-e", "r0xzz", "alu"], 1, "bad raw event"),
        (["stat", "-e", "r12345678901234567", "alu"], 1, "bad raw event"),
        (["stat", "-e", "r8000000000000003", "alu"], 1, "must be 0"),
        (["stat", "-e", "cycles:x", "alu"], 1, "unknown modifier 'x'"),
        (["stat", "-e", "loads:uu", "alu"], 1, "repeated modifier"),
        (["stat", "-e", "{loads,stores", "alu"], 1, "unbalanced"),
        (["stat", "nosuchworkload"], 1, "neither a workload"),
        (["stat"], 2, "missing workload"),
        (["stat", "alu", "memcpy"], 2, "unexpected argument"),
        (["stat", txt], 1, "ELF"),
        (["stat", trunc], 1, "truncated"),
        (["stat", x86], 1, "32-bit"),
        (["stat", "/nonexistent/file.elf"], 1, "No such file"),
        (["frobnicate"], 2, "unknown command"),
        (["--frobnicate", "info"], 2, "unknown option"),
        ([], 2, "missing command"),
        (["stat", "--frobnicate", "alu"], 2, "unknown option"),
        (["stat", "-r"], 2, "needs a value"),
        (["stat", "-r", "x", "alu"], 2, "-r"),
        (["stat", "-x", ",", "-j", "alu"], 2, "cannot be combined"),
        (["stat", "--mode", "h", "alu"], 2, "--mode"),
        (["stat", "--size", "-5", "alu"], 2, "--size"),
        (["record", "-I", "1000", "-o", "out.txt", "alu"], 2, ".csv"),
        (["record", "-o", "out.csv", "alu"], 2, "missing -I"),
        (["record", "-I", "5xs", "-o", "out.csv", "alu"], 2, "-I"),
        (["validate"], 2, "missing workload"),
        (["validate", "--all", "alu"], 2, "cannot be combined"),
        (["csr", "read", "nosuchcsr"], 2, "unknown CSR"),
        (["csr", "write", "mtvec"], 2, "write needs"),
        (["csr", "frob", "mtvec"], 2, "unknown operation"),
        (["list", "--json", "--workloads"], 2, "cannot be combined"),
        (["--link", "bogus", "info"], 2, "unknown link"),
        (["stat", "-I", "99999999999", "alu"], 2, "too large"),
        (["record", "-I", "99999999999ms", "-o", "out.csv", "alu"], 2, "too large"),
        (["stat", "-e", "cycels", "alu"], 1, "did you mean 'cycles'?"),
        (["stat", "-e", "instructoins:u", "alu"], 1, "did you mean 'instructions'?"),
        (["stat", "--interval-count", "3", "alu"], 2, "needs -I"),
        (["stat", "-I", "1", "--interval-count", "0", "alu"], 2, "expected a number of intervals"),
        (["stat", "-D", "x", "alu"], 2, "expected milliseconds of board time"),
        (["stat", "-D", "-1", "alu"], 2, "expected milliseconds of board time"),
        (["stat", "-D", "5", "-I", "1", "alu"], 2, "cannot be combined"),
        (["report", "--percent-limit", "x"], 2, "expected a percentage"),
        (["report", "--percent-limit", "101"], 2, "expected a percentage"),
        (["topdown", "alu", "x"], 2, "'alu' takes no arguments"),
        (["record", "-c", "1000", "alu", "x"], 2, "'alu' takes no arguments"),
        (["record", "-I", "1", "-o", "out.csv", "alu", "x"], 2, "'alu' takes no arguments"),
        (["validate", "--", "alu", "x"], 2, "'alu' takes no arguments"),
    ]
    for args, code, want in cases:
        rc, out, err = run(args)
        why = one_line_error(rc, out, err, code)
        if why is None and want not in err:
            why = "stderr %r lacks %r" % (err.strip(), want)
        report(why is None, "%s: exit %d, one line: %s" % (cmdline(args), code, err.strip()), why)


# ---- issue 12: your own programs (SDK), perf habits, installation ----

PERF_FIXTURE = os.path.join(ROOT, "tests", "cli", "perf-6.1-stat.txt")


def perf_fixture():
    """{command: [lines]}: real perf stat output recorded as facts."""
    cmds, cur = {}, None
    for line in open(PERF_FIXTURE):
        line = line.rstrip("\n")
        if line.startswith("#"):
            continue
        if line.startswith("$ "):
            cur = line[2:]
            cmds[cur] = []
        elif cur:
            cmds[cur].append(line)
    return cmds


def perf_order():
    """-x, and -j field order and types as perf 6.1 prints them (fixture)."""
    fx = perf_fixture()
    pick = lambda fmt, rep: next(v for k, v in fx.items() if fmt in k and ("-r" in k) == rep)
    for rep in (False, True):
        prow = next(csv.reader([pick("-x,", rep)[0]]))
        pvar = [i for i, f in enumerate(prow) if f.endswith("%")]
        args = SIM + ["stat", "-x", ",", "-e", "cycles,instructions", "--size", "100", "alu"] + (["-r", "2"] if rep else [])
        rc, err, out = run(args)
        hrows = list(csv.reader(io.StringIO(out)))
        hvar = [[i for i, f in enumerate(r) if f.endswith("%")] for r in hrows]
        ok = rc == 0 and len(hrows) == 2 and all(len(r) == len(prow) for r in hrows) and all(v == pvar for v in hvar)
        # the fields after the variance (or the event): run time, then 100.00
        at = (pvar[0] if pvar else 2) + 1
        ok = ok and prow[at].isdigit() and all(r[at].isdigit() and r[at + 1] == prow[at + 1] == "100.00" for r in hrows)
        report(ok, "stat -x,%s: %d fields, variance at %s, then run time and 100.00, as perf 6.1 (%s)"
               % (" -r 2" if rep else "", len(prow), pvar or "none", PERF_FIXTURE.split("/")[-1]),
               "perf %r, hpmctl %r %s" % (prow, hrows, short(err)))
        pobj = json.loads(pick("-j", rep)[0], object_pairs_hook=list)
        rc, err, out = run(args[:2] + ["stat", "-j"] + args[5:])
        hobj = [json.loads(l, object_pairs_hook=list) for l in out.splitlines() if l.strip()]
        ins = hobj[1] if rc == 0 and len(hobj) == 2 else []
        keys = lambda o: [k for k, _ in o]
        types = lambda o: [type(v).__name__ for _, v in o]
        report(keys(ins) == keys(pobj) and types(ins) == types(pobj),
               "stat -j%s: keys and value types in perf 6.1's order (metric-value a number)" % (" -r 2" if rep else ""),
               "perf %s, hpmctl %s %s" % (list(zip(keys(pobj), types(pobj))), list(zip(keys(ins), types(ins))), short(err)))
    # the fixture is a fact about perf: where perf runs here, it still holds
    try:
        p = subprocess.run(["perf", "stat", "-x,", "-r", "2", "-e", "task-clock", "true"], capture_output=True, text=True, timeout=60)
        live = next(csv.reader([p.stderr.strip().splitlines()[-1]])) if p.returncode == 0 else None
    except (OSError, IndexError, subprocess.TimeoutExpired):
        live = None
    if live is not None:
        rec = next(csv.reader([pick("-x,", True)[0]]))
        report(len(live) == len(rec) and live[3].endswith("%") and rec[3].endswith("%"),
               "the installed perf prints -x, -r like the fixture: " + ",".join(live), repr(rec))


def run_interrupted(args, ready, env=None, limit=600):
    """hpmctl with stderr on a pseudo-terminal (progress shows there); SIGINT
    once ready(stdout, stderr). Returns (rc, stdout, stderr, children seen,
    whether SIGINT was sent). limit only bounds a hung run."""
    master, slave = pty.openpty()
    p = subprocess.Popen([HPMCTL] + args, cwd=ROOT, env=env or ENV, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    out, err, sent, kids = b"", b"", False, set()
    fds = [p.stdout.fileno(), master]
    deadline = time.monotonic() + limit
    while fds and time.monotonic() < deadline:
        for fd in select.select(fds, [], [], 0.1)[0]:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                fds.remove(fd)
            elif fd == master:
                err += data
            else:
                out += data
        if not sent and p.poll() is None:
            kids |= children(p.pid)
            if ready(out.decode(errors="replace"), err.decode(errors="replace")):
                os.kill(p.pid, signal.SIGINT)
                sent = True
    if p.poll() is None:
        p.kill()
    p.wait(60)
    os.close(master)
    return p.returncode, out.decode(), err.decode(errors="replace"), kids, sent


def reaped(kids):
    """None if every child seen is gone (not running, not a zombie)."""
    left = [k for k in kids if os.path.exists("/proc/%d" % k)]
    return "children left: %s" % [open("/proc/%d/stat" % k).read().split()[2] + ":%d" % k for k in left] if left else None


def interrupts():
    """Ctrl-C: stat (-r), stat -I and validate print what they have, die of SIGINT, reap hpm-sim."""
    rc, err, ref = run(SIM + ["stat", "-x", ",", "-e", "cycles,instructions", "--size", "2000", "alu"])
    want = {r["event"]: r["value"] for r in parse_perf_csv(ref)} if rc == 0 else None
    rc, pout, err, kids, sent = run_interrupted(SIM + ["stat", "-r", "50", "-e", "cycles,instructions", "--size", "2000", "alu"],
                                                lambda o, e: any(int(k) >= 3 for k in re.findall(r"run (\d+) of 50", e)))
    out = split_err(err)[0] if pout == "" else "stdout: " + pout
    m = re.search(r"Performance counter stats for 'alu' \((\d+) runs\)", out)
    counts, _ = parse_human_stat(out)
    report(sent and rc == -signal.SIGINT and m and 3 <= int(m.group(1)) < 50 and counts == want and "( +-  0.00% )" in out
           and kids and reaped(kids) is None,
           "stat -r 50, Ctrl-C during run 3 or later (the progress line shows after 1 s): the %s runs so far printed, exact, killed by SIGINT, hpm-sim reaped" % (m.group(1) if m else "?"),
           "sent %s rc %s kids %s %s; %s | %s" % (sent, rc, kids, reaped(kids), short(out), short(err)))
    rc, pout, err, kids, sent = run_interrupted(SIM + ["stat", "-I", "1", "-x", ",", "-e", "cycles", "--size", "300000", "alu"],
                                                lambda o, e: split_err(e)[0].count("\n") >= 3)
    out = split_err(err)[0] if pout == "" else "stdout: " + pout
    rows = [r for r in csv.reader(io.StringIO(out)) if r]
    full = 300000 * 49 // 24000        # alu runs about 49 cycles per size unit: far more intervals
    report(sent and rc == -signal.SIGINT and 3 <= len(rows) < full and all(r[3] == "cycles" for r in rows)
           and kids and reaped(kids) is None,
           "stat -I 1, Ctrl-C: the %d intervals so far, the run aborted at its next tick, SIGINT, hpm-sim reaped" % len(rows),
           "sent %s rc %s %s; %s | %s" % (sent, rc, reaped(kids), short(out), short(err)))
    wls = ["alu", "mul", "div", "crc", "sort", "interp", "branchy", "ptrchase"]
    rc, pout, err, kids, sent = run_interrupted(SIM + ["validate", "-e", "cycles,loads", "--size", "100"] + wls,
                                                lambda o, e: " alu: OK" in e)
    out = split_err(err)[0] if pout == "" else "stdout: " + pout
    m = re.search(r"validate: interrupted after (\d+) of 8 workloads: (\d+) OK, 0 MISMATCH, 0 failed to run", out)
    report(sent and rc == -signal.SIGINT and m and m.group(1) == m.group(2) and 1 <= int(m.group(1)) < 8
           and kids and reaped(kids) is None,
           "validate, Ctrl-C after the first workload: summary so far (%s of 8), SIGINT, reference and board reaped"
           % (m.group(1) if m else "?"), "sent %s rc %s %s; %s | %s" % (sent, rc, reaped(kids), short(out), short(err)))


def on_board(link, cmds, ready=None, rate=0.0, seed=1, limit=900, sig=signal.SIGINT,
             env_extra=None):
    """Runs hpmctl commands one after the other on one board behind a link:
    "tty" (tests/link/faultproxy: a pseudo-terminal to hpm-sim) or "usb"
    (tests/usb/ftdi_emu: an emulated FT2232H under umockdev), with a fault
    rate per byte. Once ready(stderr of the first command, where stat and
    record print, bytes the board has written) holds, the first hpmctl
    (only it) gets sig. Returns
    ([(rc, stdout, stderr)], sig sent, processes seen, wrapper's rc)."""
    d = tempfile.mkdtemp(prefix="board-", dir=OUT)
    lk = "tty:@PTY@" if link == "tty" else "usb"
    script = "; ".join("%s --link %s %s > %s/out%d 2> %s/err%d; echo $? > %s/rc%d" % (HPMCTL, lk, c, d, i, d, i, d, i)
                       for i, c in enumerate(cmds))
    env = dict(ENV, HPM_SIM=os.path.join(BUILD, "bin", "hpm-sim"), **(env_extra or {}))
    if link == "tty":
        wrap = [os.path.join(BUILD, "tests", "faultproxy"), "--rate", str(rate), "--seed", str(seed),
                "--timeout", str(limit), "--"]
    else:
        env["HPM_TIMEOUT_MS"] = "3000"   # the emulated board is slower than USB timeouts assume
        wrap = [os.path.join(BUILD, "tests", "ftdi_emu"), "--fault-rate", str(rate), "--fault-seed", str(seed),
                "--timeout", str(limit), "--"]
    w = subprocess.Popen(wrap + ["sh", "-c", script], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    sent, seen = False, set()
    deadline = time.monotonic() + limit + 60
    global BOARD_BYTES
    BOARD_BYTES = [None, None]     # the board's bytes out at SIGINT and once the first hpmctl ended
    while w.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
        seen |= descendants(w.pid)
        board = 0
        for k in descendants(w.pid):
            try:
                if open("/proc/%d/comm" % k).read().strip() == "hpm-sim":
                    board = int(re.search(r"wchar: (\d+)", open("/proc/%d/io" % k).read()).group(1))
            except (OSError, AttributeError):
                pass
        if sent and BOARD_BYTES[1] is None and os.path.exists(os.path.join(d, "rc0")):
            BOARD_BYTES[1] = board
        if sent or not ready:
            continue
        try:
            out0 = open(os.path.join(d, "err0")).read()
        except OSError:
            continue
        if ready(out0, board):
            BOARD_BYTES[0] = board
            for k in descendants(w.pid):
                try:
                    if open("/proc/%d/comm" % k).read().strip() == "hpmctl" and \
                       " ".join(cmds[0].split()[:2]) in open("/proc/%d/cmdline" % k).read().replace("\0", " "):
                        os.kill(k, sig)
                        sent = True
                except OSError:
                    pass
    if w.poll() is None:
        w.kill()
    wrc = w.wait(60)
    res = []
    for i in range(len(cmds)):
        try:
            rc = int(open(os.path.join(d, "rc%d" % i)).read())
        except (OSError, ValueError):
            rc = None
        res.append((rc, open(os.path.join(d, "out%d" % i)).read() if os.path.exists(os.path.join(d, "out%d" % i)) else "",
                    open(os.path.join(d, "err%d" % i)).read() if os.path.exists(os.path.join(d, "err%d" % i)) else ""))
    return res, sent, seen, wrc


def cumulative(rows):
    """stat -I -x, rows (time, delta, event): [(time, event, cumulative)]."""
    acc, out = {}, []
    for r in rows:
        acc[r[3]] = acc.get(r[3], 0) + int(r[1])
        out.append((r[0], r[3], acc[r[3]]))
    return out


def interrupts_link():
    """Ctrl-C on stat -I and record through the tty and usb links: the
    intervals arrive while the run goes on, SIGINT aborts the run on the
    board at its next tick, what was printed is exactly the reference
    board's, hpmctl dies of SIGINT, and the next command on the same board
    counts exactly."""
    wl = "--size 1000000 alu"
    ev = "cycles,instructions,branches"
    rc, _, ref = run(["--link", "ref", "stat", "-I", "1", "-x", ",", "-e", ev] + wl.split())
    ref_rows = [r for r in csv.reader(io.StringIO(ref)) if r]
    rc2, _, small = run(["--link", "ref", "stat", "-x", ",", "-e", "cycles,instructions", "--size", "2000", "alu"])
    if rc or rc2 or len(ref_rows) < 300:
        report(False, "interrupts on links: reference runs", "exit %s %s, %d rows" % (rc, rc2, len(ref_rows)))
        return
    csvpath = os.path.join(OUT, "interrupt-record.csv")
    rc, refrec, _ = run(["--link", "ref", "record", "-I", "1", "-e", ev, "-o", csvpath] + wl.split())
    ref_csv = open(csvpath).read().splitlines() if rc == 0 else []
    nxt = "stat -x , -e cycles,instructions --size 2000 alu"
    for link in ("tty", "usb"):
        # stat -I: SIGINT once 10 intervals are out
        res, sent, seen, wrc = on_board(link, ["stat -I 1 -x , -e %s %s" % (ev, wl), nxt],
                                        lambda o, _: o.count("\n") >= 30)
        (rc1, pout1, err1), (rc2, pout2, out2) = res
        out1 = split_err(err1)[0] if pout1 == "" else "stdout: " + pout1
        out2, err2 = (out2, "") if pout2 == "" else ("stdout: " + pout2, out2)
        rows = [r for r in csv.reader(io.StringIO(out1)) if r]
        left = [k for k in seen if os.path.exists("/proc/%d" % k)]
        report(sent and rc1 == 130 and 30 <= len(rows) < len(ref_rows) - 30 and len(rows) % 3 == 0
               and rows == ref_rows[:len(rows)] and "stopping the run at its next tick" in err1
               and rc2 == 0 and out2 == small and wrc == 0 and not left,
               "%s link: stat -I 1, Ctrl-C after 10 intervals: %d intervals printed live, each exactly the reference board's, "
               "run aborted on the board, SIGINT (130); the next stat on the same board exact; no process left" % (link, len(rows) // 3),
               "sent %s rc %s/%s wrapper %s, %d rows (ref %d), first differing %s, left %s; %s | %s | %s" % (
                   sent, rc1, rc2, wrc, len(rows), len(ref_rows),
                   next((i for i, (a, b) in enumerate(zip(rows, ref_rows)) if a != b), None), left,
                   short(err1), short(out2), short(err2)))
        # record: SIGINT once rows are in the file
        path = os.path.join(OUT, "interrupt-%s.csv" % link)
        if os.path.exists(path):
            os.remove(path)

        def rows_in_file(*_):
            try:
                return open(path).read().count("\n") >= 40
            except OSError:
                return False
        res, sent, seen, wrc = on_board(link, ["record -I 1 -e %s -o %s %s" % (ev, path, wl), nxt], rows_in_file)
        (rc1, pout1, out1), (rc2, pout2, out2) = res
        err1, err2 = pout1, pout2
        got = open(path).read().splitlines() if os.path.exists(path) else []
        m = re.search(r"interrupted: the run stopped at (\d+) cycles, samples every \d+ cycles, 0 lost; (\d+) intervals x 3 events", out1)
        last_cycles = int(got[-1].split(",")[7]) if len(got) > 1 else -1
        report(sent and rc1 == 130 and len(got) > 40 and len(got) < len(ref_csv) - 30 and got == ref_csv[:len(got)]
               and all(len(l.split(",")) == 9 for l in got) and m and int(m.group(2)) * 3 == len(got) - 1
               and int(m.group(1)) == last_cycles and rc2 == 0 and out2 == small and pout1 == pout2 == "" and wrc == 0,
               "%s link: record -I 1, Ctrl-C: the CSV holds %d complete rows, the reference board's first ones; "
               "the summary says interrupted at the last row's cycles; SIGINT; the next stat exact" % (link, len(got) - 1),
               "sent %s rc %s/%s wrapper %s, %d lines (ref %d), first differing %s; %s | %s | %s" % (
                   sent, rc1, rc2, wrc, len(got), len(ref_csv),
                   next((i for i, (a, b) in enumerate(zip(got, ref_csv)) if a != b), None),
                   short(out1), short(err1), short(out2 + err2)))
    # plain stat through the usb link: it prints nothing until the end, so
    # SIGINT goes 3 s in; the run stops at its next keepalive tick, the
    # counts so far are printed and marked, and the next stat is exact
    big = "--size 3000000 alu"
    rc, _, full = run(["--link", "ref", "stat", "-x", ",", "-e", "cycles"] + big.split())
    full_cycles = int(full.split(",")[0]) if rc == 0 and full[:1].isdigit() else 0
    t0 = time.monotonic()
    res, sent, seen, wrc = on_board("usb", ["stat -x , -e cycles %s" % big, nxt], lambda *_: time.monotonic() - t0 > 3)
    (rc1, pout1, err1), (rc2, pout2, out2) = res
    got = re.search(r"^(\d+),,cycles,", err1, re.M)
    left = [k for k in seen if os.path.exists("/proc/%d" % k)]
    report(sent and rc1 == 130 and got and 0 < int(got.group(1)) < full_cycles // 2 and "interrupted" in err1
           and rc2 == 0 and out2 == small and pout1 == pout2 == "" and wrc == 0 and not left,
           "usb link: plain stat, Ctrl-C 3 s in: the run stopped on the board at %s of its %d cycles, counts so far "
           "printed and marked, SIGINT (130); the next stat on the same board exact; no process left"
           % (got.group(1) if got else "?", full_cycles),
           "sent %s rc %s/%s wrapper %s, full %d, left %s; %s | %s" % (sent, rc1, rc2, wrc, full_cycles, left,
                                                                       short(err1), short(out2 + pout2)))
    # a lossy link: 1 % of the bytes faulted each way; the run must end
    # without a hang and every number printed must be the reference's
    # (an interval whose sample was lost merges into the next: cumulative
    # counts still equal the reference's at the same board time)
    # (SIGINT once the board has streamed 30 kB, about a fifth of the run:
    # rows are printed live only up to the first lost sample, which a
    # repeat of the run would bring)
    refcum = {(t, e): c for t, e, c in cumulative(ref_rows)}
    for seed in (21, 22):
        res, sent, seen, wrc = on_board("tty", ["stat -I 1 -x , -e %s %s" % (ev, wl), nxt],
                                        lambda o, board: board >= 30000, rate=0.01, seed=seed)
        (rc1, pout1, err1), (rc2, pout2, out2) = res
        out1 = split_err(err1)[0] if pout1 == "" else "stdout: " + pout1
        out2, err2 = (out2, "") if pout2 == "" else ("stdout: " + pout2, out2)
        rows = [r for r in csv.reader(io.StringIO(out1)) if r]
        cum = cumulative(rows)
        wrong = [c for c in cum if refcum.get((c[0], c[1])) != c[2]]
        # promptly in board time: after SIGINT the board streamed less than
        # 400 samples' worth (a sample frame is about 70 bytes; the whole
        # run streams over 140 kB), though the watch above samples the
        # board's bytes only every 0.2 s and the next command adds its own
        after = BOARD_BYTES[1] - BOARD_BYTES[0] if None not in BOARD_BYTES else None
        report(sent and rc1 == 130 and len(rows) >= 3 and not wrong and float(cum[-1][0]) < float(ref_rows[-1][0])
               and after is not None and after < 400 * 70 and rc2 == 0 and out2 == small and wrc == 0,
               "tty link at 1 %% faults (seed %d): stat -I 1, Ctrl-C: ends, SIGINT (130), %d rows whose cumulative counts "
               "are the reference board's, stopped at board time %s of %s (%s bytes from the board after SIGINT); "
               "the next stat exact" % (seed, len(rows), cum[-1][0] if cum else "?", ref_rows[-1][0], after),
               "sent %s rc %s/%s wrapper %s, %d rows, wrong %s, board bytes %s; %s | %s" % (
                   sent, rc1, rc2, wrc, len(rows), wrong[:3], BOARD_BYTES, short(err1), short(out2 + err2)))


def killed_host():
    """hpmctl killed hard (SIGKILL) in the middle of stat -I leaves its run
    going on the board: the next command, on tty and on usb, aborts it at
    its next tick (its HELLO is answered BUSY) and then counts exactly."""
    small = run(["--link", "ref", "stat", "-x", ",", "-e", "cycles,instructions", "--size", "2000", "alu"])[2]
    for link in ("tty", "usb"):
        res, sent, seen, wrc = on_board(link, ["stat -I 1 -x , -e cycles,instructions --size 10000000 alu",
                                               "stat -x , -e cycles,instructions --size 2000 alu"],
                                        lambda o, _: o.count("\n") >= 20, sig=signal.SIGKILL,
                                        env_extra={"HPM_LINK_TRACE": "1"})
        (rc1, _, out1), (rc2, pout2, err2) = res
        # the counts, apart from the link trace and the notice on stderr
        out2 = "".join(l for l in err2.splitlines(True) if not l.startswith(("link-trace:", "hpmctl: ")))
        report(sent and rc1 == 137 and rc2 == 0 and out2 == small and pout2 == "" and wrc == 0
               and re.search(r"a run of an earlier session \(seq \d+\) was aborted", err2),
               "%s link: hpmctl stat -I killed with SIGKILL after %d rows; the next stat aborts the run it left "
               "on the board and counts exactly" % (link, out1.count("\n")),
               "sent %s rc %s/%s wrapper %s; %s | %s" % (sent, rc1, rc2, wrc, short(out2),
                                                        short("\n".join(l for l in err2.splitlines() if "FETCH" not in l))))


def perf_habits(info):
    """-e twice, perf's generic aliases, list PATTERN, -o, -q, -I units, messages."""
    wl = ["--size", "2000", "alu"]
    rc, err, out = run(SIM + ["stat", "-x", ",", "-e", "cycles", "-e", "instructions,loads"] + wl)
    rows = parse_perf_csv(out) if rc == 0 else []
    report([r["event"] for r in rows] == ["cycles", "instructions", "loads"], "stat -e cycles -e instructions,loads: -e accumulates",
           short(out + err))
    alias = {"cpu-cycles": "cycles", "branch-instructions": "branches", "stalled-cycles-frontend": "fetch-stall-cycles",
             "stalled-cycles-backend": "topdown-be-bound"}
    rc, err, out = run(SIM + ["stat", "-x", ",", "-e", ",".join(list(alias) + list(alias.values()))] + ["--size", "2000", "matmul"])
    v = {r["event"]: r["value"] for r in parse_perf_csv(out)} if rc == 0 else {}
    report(v and all(v[a] == v[n] for a, n in alias.items()) and v["branch-instructions"] > 0 and v["stalled-cycles-backend"] > 0,
           "perf's generic names count exactly their catalogue events: " + ", ".join("%s=%s" % (a, n) for a, n in alias.items()),
           short(out + err))
    out = expect_ok(["list"])
    if out is not None:
        lines = {l.split()[0]: l for l in out.splitlines() if l.startswith("  ")}
        report(all(" OR %s " % a in lines.get(n, "") + " " for a, n in alias.items()),
               "hpmctl list shows the perf aliases (name OR alias)", short(out))
    out = expect_ok(["list", "stalled", "topdown-*-bound"])
    if out is not None:
        names = [l.split()[0] for l in out.splitlines() if l.startswith("  ")]
        report(names == ["fetch-stall-cycles", "topdown-fe-bound", "topdown-be-bound", "topdown-mem-bound", "topdown-core-bound"],
               "hpmctl list stalled 'topdown-*-bound': only matching names or aliases", repr(names))
    rc, out, err = run(SIM + ["stat", "-e", "rcycles", "alu"])
    report(rc == 1 and "unknown event 'rcycles'" in err, "stat -e rcycles: an unknown event, not a bad raw one", err.strip())
    # -o FILE: the counts go to the file, stdout stays empty
    f = os.path.join(OUT, "stat-o.csv")
    rc, out, err = run(SIM + ["stat", "-o", f, "-x", ",", "-e", "cycles"] + wl)
    fv = parse_perf_csv(open(f).read()) if rc == 0 and os.path.exists(f) else []
    report(rc == 0 and out == "" and err == "" and [r["event"] for r in fv] == ["cycles"] and rows and fv[0]["value"] == rows[0]["value"],
           "stat -o FILE -x,: the CSV in FILE, nothing on stdout or stderr", short(out + err))
    # -q: no 'link auto' notice (the default link is auto)
    rc, out, err = run(["stat", "-e", "cycles"] + wl)
    rcq, outq, errq = run(["-q", "stat", "-e", "cycles"] + wl)
    rcq2, outq2, errq2 = run(["stat", "-q", "-e", "cycles"] + wl)
    notice = [l for l in err.splitlines(True) if l.startswith("hpmctl: link auto")]
    rest = "".join(l for l in err.splitlines(True) if l not in notice)
    report(rc == rcq == rcq2 == 0 and len(notice) == 1 and errq == errq2 == rest and "cycles" in rest and out == outq == outq2 == "",
           "hpmctl -q stat / stat -q: no 'link auto' notice, the counts alone (without -q: %s)" % "".join(notice).strip(), errq + errq2)
    # -I means milliseconds in stat and record alike (perf)
    csvf = os.path.join(OUT, "units.csv")
    hz = info.get("clock-hz", 24000000)
    rc, err, out = run(SIM + ["record", "-I", "1", "-e", "cycles", "-o", csvf] + wl)
    m = re.search(r"samples every (\d+) cycles", out)
    rc2, err2, out2 = run(SIM + ["stat", "-I", "1", "-x", ",", "-e", "cycles"] + wl)
    firsts = [r for r in csv.reader(io.StringIO(out2))][:1]
    rec = list(csv.DictReader(open(csvf))) if rc == 0 else []
    report(m and int(m.group(1)) == hz // 1000 and firsts and rec and firsts[0][0] == rec[0]["interval"]
           and int(firsts[0][1]) == int(rec[0]["counter-value"]),
           "-I 1 is 1 ms in record and stat alike (%s cycles at %d Hz; same first interval)" % (m.group(1) if m else "?", hz),
           short(out + err + out2 + err2))
    rc, err, out = run(SIM + ["record", "-I", "20000cycles", "-e", "cycles", "-o", csvf] + wl)
    report(rc == 0 and "samples every 20000 cycles" in out and err == "", "record -I 20000cycles: cycles need their unit", short(out + err))
    # messages that name what to change
    env = dict(ENV, HPM_SIM="/nonexistent/hpm-sim")
    rc, out, err = run(["--link", "sim", "stat", "alu"], env=env)
    why = one_line_error(rc, out, err, 1)
    report(why is None and "HPM_SIM" in err, "a missing simulator names HPM_SIM: " + err.strip(), why)
    mute = os.path.join(OUT, "mute-board.py")
    open(mute, "w").write(MUTE_BOARD)
    os.chmod(mute, 0o755)
    rc, out, err = run(["--link", "sim", "info"], env=dict(ENV, HPM_SIM=mute, HPM_TIMEOUT_MS="100"))
    why = one_line_error(rc, out, err, 1)
    report(why is None and "HPM_TIMEOUT_MS" in err and "100 ms" in err, "a reply time-out names HPM_TIMEOUT_MS: " + err.strip(), why)
    for size in (130000, 200000):
        big = os.path.join(OUT, "big%d.elf" % size)
        open(big, "wb").write(tiny_elf(size))
        rc, out, err = run(["stat", big])
        why = one_line_error(rc, out, err, 1)
        report(why is None and "needs %d bytes" % size in err and "the board has 126976" in err,
               "a program too big for the RAM says both sizes: " + err.strip(), why)


# A board that boots and then never answers (for the time-out message).
MUTE_BOARD = r"""#!/usr/bin/env python3
import struct, sys, zlib
def cobs(data):
    out, block = bytearray(), bytearray()
    for x in data:
        if x == 0:
            out += bytes([len(block) + 1]) + block
            block = bytearray()
        else:
            block.append(x)
            if len(block) == 254:
                out += b"\xff" + block
                block = bytearray()
    return bytes(out + bytes([len(block) + 1]) + block)
frame = bytes([0xC1, 0]) + struct.pack("<HH", 1, 0x100)
sys.stdout.buffer.write(b"\0" + cobs(frame + struct.pack("<I", zlib.crc32(frame))) + b"\0")
sys.stdout.buffer.flush()
while sys.stdin.buffer.read1(4096):
    pass
"""


def tiny_elf(memsz):
    """An RV32 executable at 0x80000000 whose one segment needs memsz bytes."""
    code = struct.pack("<I", 0x0000006f)                      # j .
    ehdr = b"\x7fELF" + bytes([1, 1, 1]) + bytes(9) + struct.pack(
        "<HHIIIIIHHHHHH", 2, 243, 1, 0x80000000, 52, 0, 0, 52, 32, 1, 40, 0, 0)
    phdr = struct.pack("<IIIIIIII", 1, 84, 0x80000000, 0x80000000, len(code), memsz, 7, 4)
    return ehdr + phdr + code


HELLO_C = r"""#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    printf("hello from the board: %d arguments\n", argc - 1);
    for (int i = 1; i < argc; i++)
        printf("arg %d: %s\n", i, argv[i]);
    fprintf(stderr, "to stderr\n");
    return argc > 1 && !strcmp(argv[1], "fail") ? 3 : 0;
}
"""

TRAP_C = r"""#include <stdio.h>
int main(int argc, char **argv)
{
    printf("before the trap\n");
    if (argc > 1 && argv[1][0] == 'b')
        __asm__ volatile("ebreak");
    return *(volatile int *)0x40000000;
}
"""


def installed():
    """make install into a temporary PREFIX, then from another directory with
    no HPM_* variables: hpm-cc builds printf programs, hpmctl runs and counts
    them (exact against the reference board), pkg-config links libhpm.so.2,
    the hpm.h example finds hpm-sim and the workloads, man renders."""
    prefix = os.path.join(OUT, "prefix")
    shutil.rmtree(prefix, ignore_errors=True)
    p = subprocess.run(["make", "-s", "install", "PREFIX=" + prefix], cwd=ROOT, capture_output=True, text=True)
    if not report(p.returncode == 0, "make install PREFIX=" + prefix, short(p.stdout + p.stderr)):
        return
    work = tempfile.mkdtemp(prefix="hpm-user-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HPM_")}
    env["PATH"] = os.path.join(prefix, "bin") + ":/usr/bin:/bin"
    sh = lambda cmd, **kw: subprocess.run(cmd, cwd=work, env=dict(env, **kw), capture_output=True, text=True, timeout=900)
    open(os.path.join(work, "hello.c"), "w").write(HELLO_C)
    open(os.path.join(work, "trap.c"), "w").write(TRAP_C)
    p = sh(["hpm-cc", "-O2", "-o", "hello.elf", "hello.c"])
    p2 = sh(["hpm-cc", "-O2", "-o", "trap.elf", "trap.c"])
    if not report(p.returncode == p2.returncode == 0, "installed hpm-cc builds hello.c and trap.c (printf, picolibc) in one command",
                  short(p.stderr + p2.stderr)):
        return
    p = sh(["hpmctl", "--link", "sim", "run", "--", "hello.elf", "a", "b c"])
    out_lines = "hello from the board: 2 arguments\narg 1: a\narg 2: b c\n"
    report(p.returncode == 0 and p.stdout == out_lines and "to stderr\n" in p.stderr and "start-up:" in p.stderr,
           "hpmctl run -- hello.elf a 'b c': argv reaches main, stdout and stderr shown, exit 0", short(p.stdout + p.stderr))
    p = sh(["hpmctl", "--link", "sim", "run", "--", "hello.elf", "fail"])
    report(p.returncode == 3 and "arg 1: fail" in p.stdout and "exited with code 3" in p.stderr,
           "hpmctl run -- hello.elf fail: hpmctl's exit code is the program's (3)", "exit %d %s" % (p.returncode, short(p.stderr)))
    ev = ",".join(EVENTS)
    res = {}
    for link in ("sim", "ref"):
        f = os.path.join(work, "counts-%s.csv" % link)
        p = sh(["hpmctl", "--link", link, "stat", "-x", ",", "-o", f, "-e", ev, "--", "hello.elf", "fail", "x"])
        rows = parse_perf_csv(open(f).read()) if os.path.exists(f) else []
        res[link] = (p.returncode, p.stdout, {r["event"]: r["value"] for r in rows})
    (rs, os_, cs), (rr, or_, cr) = res["sim"], res["ref"]
    report(rs == rr == 3 and os_ == or_ == "hello from the board: 2 arguments\narg 1: fail\narg 2: x\n"
           and len(cs) == len(EVENTS) and cs == cr and cs["instructions"] > 0,
           "stat -o -x, -e <all %d events> -- hello.elf fail x: output as it runs, exit 3, counts equal the reference board's" % len(EVENTS),
           "sim exit %d %r %s / ref exit %d %r" % (rs, os_, {k: (cs.get(k), cr.get(k)) for k in cs if cs.get(k) != cr.get(k)}, rr, or_))
    human = {}
    for link in ("sim", "ref"):
        p = sh(["hpmctl", "--link", link, "stat", "-e", "cycles,instructions", "hello.elf"])
        m = re.findall(r"^\s+([\d,]+)\s+start-up (cycles|instructions) before main", p.stderr, re.M)
        human[link] = (p.returncode, m)
    report(human["sim"][0] == 0 and len(human["sim"][1]) == 2 and human["sim"] == human["ref"],
           "stat shows the start-up's own cycles and instructions (crt0) before main, as the reference board does: %s" % (human["sim"][1],),
           repr(human))
    p = sh(["hpmctl", "--link", "sim", "validate", "hello.elf"])
    report(p.returncode == 0 and "hello.elf: OK (%d events equal)" % len(EVENTS) in p.stderr,
           "validate hello.elf: every event equal on the board and the reference", short(p.stdout + p.stderr))
    for arg, want in ((None, "load access fault at 0x40000000"), ("b", "breakpoint")):
        p = sh(["hpmctl", "--link", "sim", "stat", "-e", "cycles,exceptions", "--", "trap.elf"] + ([arg] if arg else []))
        counts, _ = parse_human_stat(p.stderr)
        # exceptions: the write system call of the printf, then the trap
        report(p.returncode == 1 and want in p.stderr and counts.get("exceptions") == 2 and counts.get("cycles", 0) > 0
               and p.stdout == "before the trap\n",
               "stat on a program that traps: counts printed, the reason named (%s), exit 1" % want,
               "exit %d %s | %s" % (p.returncode, short(p.stdout), short(p.stderr)))
    # pkg-config: the shared library, and the hpm.h usage example, from another directory
    so = os.path.join(prefix, "lib", "libhpm.so.2")
    p = sh(["readelf", "-d", so])
    report(os.path.islink(so) and "Library soname: [libhpm.so.2]" in p.stdout, "installed lib/libhpm.so.2 has soname libhpm.so.2",
           short(p.stdout))
    hdr = open(os.path.join(prefix, "include", "hpm.h")).read()
    body = re.search(r"^ \* EXAMPLE\n(.*?)^ \* END", hdr, re.S | re.M)
    src = os.path.join(work, "example.c")
    open(src, "w").write("#include <stdio.h>\n#include <hpm.h>\nint main(void)\n{\n%s\treturn 0;\n}\n"
                         % "".join(l[3:] + "\n" for l in (body.group(1).splitlines() if body else [])))
    pc = sh(["pkg-config", "--cflags", "--libs", "libhpm"], PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
    p = sh(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", "example", "example.c"] + pc.stdout.split())
    needed = sh(["readelf", "-d", "example"]).stdout if p.returncode == 0 else ""
    report(body and pc.returncode == 0 and p.returncode == 0 and "Shared library: [libhpm.so.2]" in needed,
           "cc example.c $(pkg-config --cflags --libs libhpm): hpm.h's usage example compiles and links libhpm.so.2",
           short(pc.stdout + p.stderr))
    if p.returncode == 0:
        r = sh([os.path.join(work, "example")])
        got = {l.split()[1]: int(l.split()[0]) for l in r.stdout.splitlines() if len(l.split()) == 2}
        q = sh(["hpmctl", "--link", "ref", "stat", "-x", ",", "-e", "cycles,instructions,loads", "matmul"])
        want = {x["event"]: x["value"] for x in parse_perf_csv(q.stderr)} if q.returncode == 0 and not q.stdout else None
        report(r.returncode == 0 and got == want, "the example, run with no HPM_* variables, finds the installed hpm-sim and "
               "workloads: matmul's counts equal the reference's", "exit %d %r vs %r %s" % (r.returncode, got, want, short(r.stderr)))
    installed_regions(sh, work)
    page = os.path.join(prefix, "share", "man", "man1", "hpmctl.1")
    p = sh(["man", "--warnings", "-l", page], MANWIDTH="80")
    p2 = sh(["man", "hpmctl"], MANPATH=os.path.join(prefix, "share", "man"), MANWIDTH="80")
    report(p.returncode == 0 and p.stderr == "" and "SYNOPSIS" in p.stdout and "hpm-cc" in p.stdout and p2.stdout == p.stdout,
           "man -l share/man/man1/hpmctl.1 renders without warnings; MANPATH=PREFIX/share/man man hpmctl finds it",
           short(p.stderr + p2.stderr))
    shutil.rmtree(work, ignore_errors=True)


REGIONS_C = r"""#include <stdio.h>
#include <hpm_region.h>
static volatile unsigned sink;
int main(int argc, char **argv)
{
    for (int i = 0; i < 3; i++) {
        HPM_REGION_BEGIN("work");
        for (unsigned k = 0; k < 200u * (unsigned)argc; k++)
            sink += k;
        HPM_REGION_END("work");
    }
    HPM_REGION_BEGIN("empty");
    HPM_REGION_END("empty");
    printf("done %s\n", argv[argc - 1]);
    return argc > 2 ? 5 : 0;
}
"""


def installed_regions(sh, work):
    """An SDK program with the installed hpm_region.h: stat --regions with
    argv and output, board equal to the reference board, the empty region
    exactly the markers' cost."""
    open(os.path.join(work, "regions.c"), "w").write(REGIONS_C)
    p = sh(["hpm-cc", "-O2", "-o", "regions.elf", "regions.c"])
    if not report(p.returncode == 0, "installed hpm-cc builds a program with <hpm_region.h>", short(p.stderr)):
        return
    res = {}
    for link in ("sim", "ref"):
        p = sh(["hpmctl", "--link", link, "stat", "--regions", "-x", ",", "-e", "cycles,instructions,exceptions",
                "--", "regions.elf", "x"])
        res[link] = (p.returncode, p.stdout, p.stderr)
    rc, pout, out = res["sim"]
    rows = [r for r in csv.reader(io.StringIO(out)) if len(r) == 9]
    got = {(r[0], r[4]): (int(r[1]), int(r[2])) for r in rows}
    report(rc == 0 and res["sim"] == res["ref"] and pout == "done x\n" and got.get(("work", "cycles"), (0,))[0] == 3
           and got.get(("empty", "cycles")) == (1, 6) and got.get(("empty", "instructions")) == (1, 4)
           and got.get(("empty", "exceptions")) == (1, 1),
           "stat --regions -- regions.elf x (SDK program): output, 3 calls of 'work', the empty region 6 cycles and 4 instructions, board = reference",
           "sim %r ref %r" % (res["sim"], res["ref"][2][:200]))
    # a failing program keeps its counts and regions, as plain stat does
    p = sh(["hpmctl", "--link", "sim", "stat", "--regions", "-x", ",", "-e", "cycles", "--", "regions.elf", "x", "fail"])
    rows = [r for r in csv.reader(io.StringIO(p.stderr)) if len(r) == 9]
    got = {r[0]: (int(r[1]), int(r[2])) for r in rows}
    report(p.returncode == 5 and p.stdout == "done fail\n" and "exited with code 5" in p.stderr and got.get("work", (0,))[0] == 3 and got.get("empty") == (1, 6),
           "stat --regions -- regions.elf x fail: exit 5 (the program's), its regions still printed",
           "exit %d %s | %s" % (p.returncode, short(p.stdout), short(p.stderr)))


def plot_many(info):
    """record --plot with 31 series: a distinct style and a legend row for each, inside the chart; lines drawn over the frame."""
    svgf, csvf = os.path.join(OUT, "plot31.svg"), os.path.join(OUT, "plot31.csv")
    ev = ",".join(EVENTS + ["r3", "r4"])
    out = expect_counts(SIM + ["record", "-I", "10000cycles", "-e", ev, "-o", csvf, "--plot", svgf, "--size", "2000", "alu"])
    if out is None:
        return
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(svgf).getroot()
    height = float(root.get("height"))
    kids = list(root)
    frame = next(i for i, e in enumerate(kids) if e.tag == ns + "rect" and e.get("fill") == "none")
    paths = [(i, e) for i, e in enumerate(kids) if e.tag == ns + "path"]
    style = lambda e: (e.get("stroke"), e.get("stroke-dasharray"))
    legend = [e for e in kids if e.tag == ns + "line" and e.get("stroke-width") == "3"]
    texts = [e for e in kids if e.tag == ns + "text" and float(e.get("y", 0)) <= height]
    fr = kids[frame]
    bottom = float(fr.get("y")) + float(fr.get("height"))
    # wfi-cycles is 0 throughout: its line must lie above the bottom edge, drawn after the frame
    wfi = paths[EVENTS.index("wfi-cycles")][1]
    ys = [float(y) for y in re.findall(r"M[\d.]+,([\d.]+)|V([\d.]+)", wfi.get("d")) for y in y if y]
    report(len(paths) == 31 and len({style(e) for _, e in paths}) == 31 and [style(e) for e in legend] == [style(e) for _, e in paths]
           and all(float(e.get("y1")) < height - 20 for e in legend) and len(texts) >= 31 and fr.get("stroke") != "black"
           and all(i > frame for i, _ in paths) and ys and all(bottom - 8 <= y < bottom - 1 for y in ys),
           "record --plot with 31 events: 31 distinct colour/dash styles, a legend row each inside the chart, lines over a grey frame and off its edge",
           "paths %d styles %d legend %d height %s frame %s wfi y %s" % (len(paths), len({style(e) for _, e in paths}), len(legend), height, fr.get("stroke"), ys[:3]))


# ---- sampling profiles (record -c, report, annotate) and regions ----

PROF_CASES = [("matmul", "16"), ("sort", "512"), ("crc", "4096")]


def parse_record_counts(out):
    """record -c's summary: {event: (count, samples or None, period or None)}, ticks."""
    counts = {}
    m = re.search(r"(\d+) ticks \]", out)
    for line in out.splitlines():
        m2 = re.match(r"^\s+([\d,]+)  (\S+)(?:  \((\d+) samples, 1 every (\d+)\))?$", line)
        if m2:
            counts[m2.group(2)] = (int(m2.group(1).replace(",", "")),
                                   int(m2.group(3)) if m2.group(3) else None,
                                   int(m2.group(4)) if m2.group(4) else None)
    return counts, int(m.group(1)) if m else None


def profile():
    for wl, size in PROF_CASES:
        files = {}
        outs = {}
        for link in ("sim", "ref"):
            f = os.path.join(OUT, "prof-%s-%s.data" % (wl, link))
            args = ["--link", link, "record", "-e", "cycles", "-c", "997", "-e", "branches", "-c", "300",
                    "-e", "instructions", "-o", f, "--size", size, wl]
            out = expect_counts(args, env=dict(ENV, SOURCE_DATE_EPOCH="1700000000"))   # the same time in both files
            if out is None:
                break
            files[link] = open(f, "rb").read()
            outs[link] = out
        if len(files) < 2:
            continue
        report(files["sim"] == files["ref"] and len(files["sim"]) > 200,
               "record -c %s: the sample list (pc, mode, event of every sample) of the board equals the reference board's" % wl,
               "prof.data differs (%d vs %d bytes)" % (len(files["sim"]), len(files["ref"])))
        counts, ticks = parse_record_counts(outs["sim"])
        st = expect_counts(SIM + ["stat", "-x,", "-e", "cycles,branches,instructions", "--size", size, wl])
        if st is None or ticks is None or set(counts) != {"cycles", "branches", "instructions"}:
            report(False, "record -c %s: summary" % wl, short(outs["sim"]))
            continue
        plain = {r["event"]: r["value"] for r in parse_perf_csv(st)}
        # docs/hpm.md Sampling: each sample's entry costs a U-mode run 2 cycles, 0 instructions
        c, b, i = counts["cycles"], counts["branches"], counts["instructions"]
        report(c[0] == plain["cycles"] + 2 * ticks and b[0] == plain["branches"] and i[0] == plain["instructions"],
               "record -c %s: exact counts = stat's + 2 cycles per tick (%d ticks)" % (wl, ticks),
               "record %r, stat %r" % (counts, plain))
        report(c[1] == c[0] // c[2] and b[1] == b[0] // b[2] and ticks <= c[1] + b[1],
               "record -c %s: samples = count / period for each sampled event (%d, %d)" % (wl, c[1], b[1]),
               "%r" % counts)
    # M mode: samples in M, each costs 10 cycles and 5 instructions (protocol 6.3)
    files = {}
    for link in ("sim", "ref"):
        f = os.path.join(OUT, "prof-m-%s.data" % link)
        mout = expect_counts(["--link", link, "record", "--mode", "m", "-e", "instructions", "-c", "500", "-e", "cycles",
                              "-o", f, "--size", "2048", "crc"], env=dict(ENV, SOURCE_DATE_EPOCH="1700000000"))
        files[link] = open(f, "rb").read() if mout is not None else None
        if link == "sim":
            mcounts, mticks = parse_record_counts(mout or "")
    st = expect_counts(SIM + ["stat", "-x,", "-e", "instructions,cycles", "--mode", "m", "--size", "2048", "crc"])
    if files["sim"] and st is not None and mticks:
        plain = {r["event"]: r["value"] for r in parse_perf_csv(st)}
        i, c = mcounts["instructions"], mcounts["cycles"]
        report(files["sim"] == files["ref"] and i[0] == plain["instructions"] + 5 * mticks and
               c[0] == plain["cycles"] + 10 * mticks and i[1] == i[0] // 500 == mticks and
               all(b == 3 for b in files["sim"][-3 * 16 + 5::16]),   # prof.data 3: 16 bytes a sample without -g
               "record -c --mode m: board = reference, M-mode samples, 10 cycles and 5 instructions per tick (%d)" % mticks,
               "record %r stat %r" % (mcounts, plain))
    # report, folded, JSON and annotate of the last profile
    f = os.path.join(OUT, "prof-crc-sim.data")
    table = expect_ok(["report", "-n", "-i", f])
    folded = expect_ok(["report", "-i", f, "--folded"])
    js = expect_ok(["report", "-i", f, "--json", "--sort", "pc"])
    if None in (table, folded, js):
        return
    counts, _ = parse_record_counts(outs.get("sim", ""))
    rows = [re.match(r"^\s+([\d.]+)%\s+(\d+)\s+(\S+)$", l) for l in table.splitlines() if not l.startswith("#")]
    rows = [m for m in rows if m]
    per_event = [l for l in table.splitlines() if l.startswith("# Samples:")]
    want = [counts["cycles"][1], counts["branches"][1]]
    got = [int(re.match(r"# Samples: (\d+)", l).group(1)) for l in per_event]
    syms = set(m.group(3) for m in rows)
    report(got == want and syms <= {"workload_main", "_start", "update_table", "update_bitwise", "gf2_mul", "x_pow", "times_x"} and
           abs(sum(float(m.group(1)) for m in rows) - 200.0) < 0.1 and sum(int(m.group(2)) for m in rows) == sum(want),
           "report: one table per sampled event, %r samples, symbols %s, overheads add to 100%%" % (want, sorted(syms)),
           short(table))
    fl = [l.rsplit(" ", 1) for l in folded.splitlines()]
    report(all(len(x) == 2 and x[1].isdigit() and x[0].split(";")[0] in ("cycles", "branches") for x in fl) and
           sum(int(x[1]) for x in fl) == sum(want), "report --folded: 'event;symbol count' lines, %d samples" % sum(want),
           short(folded))
    objs = parse_jsonl(js)
    report([o["samples"] for o in objs] == want and all(sum(r["samples"] for r in o["rows"]) == o["samples"] and
                                                        all(r["pc"].startswith("0x8") for r in o["rows"]) for o in objs),
           "report --json --sort pc: one object per event, rows by pc add up", short(js))
    rc, out, err = run(["annotate", "-i", f, "workload_main"])
    if rc == 0:
        m = re.search(r"workload_main: (\d+) of (\d+) samples", out)
        per_insn = sum(int(x) for x in re.findall(r"^\s*[\d.]+% \|\s+(\d+) \| [0-9a-f]{8}:", out, re.M))
        report(m is not None and int(m.group(1)) == per_insn and int(m.group(2)) == want[0] and per_insn > 0,
               "annotate workload_main: %s samples next to the disassembly" % (m.group(1) if m else "?"), short(out))
    else:
        report(False, "annotate workload_main", short(err))
    for args, code, what in [
            (["record", "-e", "cycles", "-c", "255", "-o", os.path.join(OUT, "x.data"), "crc"], 2, "a period below 256"),
            (["record", "-e", "cycles", "-c", "1000", "-c", "2000", "crc"], 2, "a second -c without a new -e"),
            (["report", "-i", os.path.join(ROOT, "README.md")], 1, "report of a file that is not prof.data"),
            (["annotate", "-i", f, "no_such_function"], 1, "annotate of an unknown symbol")]:
        rc, out, err = run(SIM + args)
        why = one_line_error(rc, out, err, code)
        report(why is None, "%s: %s exits %d with one line: %s" % (cmdline(args), what, code, err.strip()), why)


def region_rows(text):
    """stat --regions -x,: {region or '': {event: value}}, {region: calls}."""
    vals, calls = {}, {}
    for rec in csv.reader(io.StringIO(text)):
        if not rec:
            continue
        region = ""
        if len(rec) == 9:
            region, n = rec[0], int(rec[1])
            calls[region] = n
            rec = rec[2:]
        vals.setdefault(region, {})[rec[2]] = int(rec[0])
    return vals, calls


def regions():
    many = ",".join(EVENTS + ["r3", "r4", "r5"])    # 30 programmable events: two replays
    outs = {}
    for link in ("sim", "ref"):
        outs[link] = expect_counts(["--link", link, "stat", "--regions", "-x,", "-e", many, "--size", "2", "regions"])
    if None in outs.values():
        return
    report(outs["sim"] == outs["ref"] and outs["sim"].count("\n") == 5 * len(many.split(",")),
           "stat --regions: every region's count of %d events on the board equals the reference board's" % len(many.split(",")),
           short(outs["sim"]))
    vals, calls = region_rows(outs["sim"])
    report(set(calls) == {"empty", "fill", "scan", "divide"} and all(c == 2 for c in calls.values()),
           "stat --regions: regions empty, fill, scan, divide with 2 calls each", "%r" % calls)
    e = vals.get("empty", {})
    # docs/hpm.md Regions: a U-mode marker pair costs 6 cycles, 4 instructions, 1 exception
    report(e.get("cycles") == 12 and e.get("instructions") == 8 and e.get("exceptions") == 2 and e.get("loads") == 0,
           "stat --regions: an empty region counts exactly its markers (6 cycles, 4 instructions, 1 exception per call)",
           "%r" % e)
    sc, dv = vals.get("scan", {}), vals.get("divide", {})
    report(sc.get("cycles", 0) > dv.get("cycles", 0) > 0 and dv.get("div", 0) > 0 and sc.get("div") == dv.get("div"),
           "stat --regions: the nested region 'divide' is inside 'scan' (all divisions of scan are in divide)",
           "scan %r divide %r" % (sc, dv))
    st = expect_counts(SIM + ["stat", "-x,", "-e", many, "--size", "2", "regions"])
    if st is not None:
        plain = {r["event"]: r["value"] for r in parse_perf_csv(st)}
        report(plain == vals.get(""), "stat --regions: the whole program's counts equal plain stat's",
               "%r vs %r" % (plain, vals.get("")))
    js = expect_counts(SIM + ["stat", "--regions", "-j", "-e", "cycles,instructions", "--mode", "m", "--size", "2", "regions"])
    if js is not None:
        objs = parse_jsonl(js)
        empty = {o["event"]: int(o["counter-value"]) for o in objs if o.get("region") == "empty"}
        report(empty == {"cycles": 28, "instructions": 18} and sum(1 for o in objs if "region" not in o) == 2,
               "stat --regions -j --mode m: region and calls keys; an M-mode marker pair costs 14 cycles, 9 instructions",
               short(js))
    human = expect_counts(SIM + ["stat", "--regions", "-e", "cycles,instructions", "--size", "2", "regions"])
    if human is not None:
        report(re.search(r"Region 'fill' \(2 calls\):", human) is not None and "insn per cycle" in human,
               "stat --regions (human): a table per region with its calls and metrics", short(human))


TESTS = ["help", "list", "info", "stat", "repeat", "interval", "modifiers", "narrow", "main", "topdown", "record", "validate_all", "fault", "csr", "csr-names", "run", "errors",
         "junit", "hil", "ci", "perf_order", "habits", "interrupts", "interrupts_link", "killed_host", "plot_many", "installed", "profile", "regions"]


def main():
    only = [t for t in ARGS.only.split(",") if t]
    if not os.access(HPMCTL, os.X_OK):
        report(False, "hpmctl", "missing %s (run make host)" % HPMCTL)
        return
    info = {"clock-hz": 24000000, "min-interval": 1000}
    steps = {
        "help": test_help, "list": test_list, "errors": arg_errors,
        "info": lambda: info.update(test_info() or {}),
        "stat": lambda: stat_formats(info), "repeat": stat_repeat_replay,
        "interval": lambda: stat_interval(info), "modifiers": modifiers, "narrow": narrow_replay, "main": lambda: main_job(info),
        "topdown": lambda: topdown(info), "record": lambda: record(info), "validate_all": validate_all,
        "fault": validate_fault, "csr": csr_cmds, "csr-names": csr_names_from_catalogue, "run": lambda: run_cmd(info),
        "junit": lambda: junit_reports(info), "hil": hil_target, "ci": ci_files,
        "perf_order": perf_order, "habits": lambda: perf_habits(info), "interrupts": interrupts,
        "interrupts_link": interrupts_link, "killed_host": killed_host,
        "plot_many": lambda: plot_many(info), "installed": installed,
        "profile": profile, "regions": regions,
    }
    for name in TESTS:
        if only and name not in only:
            continue
        try:
            steps[name]()
        except Exception as e:     # a crash is one failed check, not a lost suite
            report(False, "cli %s" % name, "exception %s: %s" % (type(e).__name__, e))


if __name__ == "__main__":
    main()
