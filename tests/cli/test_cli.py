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
import argparse
import csv
import io
import json
import os
import pty
import re
import select
import subprocess
import xml.etree.ElementTree as ET

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ap = argparse.ArgumentParser()
ap.add_argument("--build", default="build")
ap.add_argument("--only", default="", help="comma-separated test names")
ARGS = ap.parse_args()
BUILD = os.path.join(ROOT, ARGS.build) if not os.path.isabs(ARGS.build) else ARGS.build
HPMCTL = os.path.join(BUILD, "bin", "hpmctl")
FAULT_SIM = os.environ.get("HPM_SIM_FAULT") or os.path.join(BUILD, "bin", "hpm-sim-fault")
OUT = os.path.join(BUILD, "tests", "out", "cli")
os.makedirs(OUT, exist_ok=True)

ENV = dict(os.environ)
ENV.pop("HPM_LINK", None)          # every check names its link (or needs none)
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


def report(ok, what, why=""):
    print(("PASS " if ok else "FAIL ") + what + ("" if ok or not why else ": " + why), flush=True)
    return ok


def short(s, n=300):
    s = " | ".join(l for l in s.strip().splitlines() if l.strip())
    return s if len(s) <= n else s[:n] + "..."


def cmdline(args):
    return "hpmctl " + " ".join(args) if args else "hpmctl (no arguments)"


def expect_ok(args, what=None, **kw):
    """Runs hpmctl, requires exit 0; returns stdout (None and a FAIL if not)."""
    rc, out, err = run(args, **kw)
    if rc != 0:
        report(False, what or cmdline(args), "exit %d, stderr: %s" % (rc, short(err)))
        return None
    return out


def parse_perf_csv(text, sep=","):
    """hpmctl stat -x: perf's columns; returns [{...}] in output order."""
    rows = []
    for rec in csv.reader(io.StringIO(text), delimiter=sep):
        if not rec:
            continue
        if len(rec) == 7:
            value, unit, event, runtime, pcnt, mval, munit = rec
            var = None
        elif len(rec) == 8:
            value, unit, event, runtime, pcnt, var, mval, munit = rec
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


def one_line_error(rc, out, err, want_rc=None):
    """Non-zero exit, nothing on stdout, exactly one stderr line 'hpmctl: ...'."""
    lines = err.splitlines()
    if rc == 0:
        return "exit 0"
    if want_rc is not None and rc != want_rc:
        return "exit %d, want %d (stderr: %s)" % (rc, want_rc, short(err))
    if out.strip():
        return "output on stdout: %s" % short(out)
    if len(lines) != 1 or not lines[0].startswith("hpmctl: "):
        return "stderr is %d lines, want one 'hpmctl: ...' line: %r" % (len(lines), err[:400])
    return None


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
    report(info["hpm-num"] == 29 and info["hpm-width"] == 64 and info["protocol"] == 1 and info["clock-hz"] > 0
           and info["link"].startswith("sim"), "info -j: sim link, protocol 1, 29 x 64 counters, clock %d Hz"
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
    rc, out_csv, err = run(SIM + ["stat", "-x", ",", "-e", ev] + wl)
    if not report(rc == 0 and err == "", "stat -x , memcpy (all %d events): exit 0, stderr empty (not a terminal: no progress)"
                  % len(EVENTS), "exit %d, stderr %r" % (rc, err[:300])):
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

    rc, out_json, err = run(SIM + ["stat", "-j", "-e", ev] + wl)
    if report(rc == 0, "stat -j memcpy: exit 0", short(err)):
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

    out = expect_ok(SIM + ["stat", "-e", ev] + wl)
    if out is not None:
        h_counts, secs = parse_human_stat(out)
        report(h_counts == csv_counts and "Performance counter stats for 'memcpy':" in out
               and secs is not None and abs(secs - cycles / info["clock-hz"]) < 1e-9,
               "stat (table): same counts, perf's header, %.9f seconds board time = cycles / clock" % (secs or 0),
               short(out))

    rc, out, err = run(SIM + ["validate", "-j"] + wl)
    if report(rc == 0, "validate -j memcpy: exit 0", short(err)):
        objs = parse_jsonl(out)
        exp = {o["event"]: int(o["expected"]) for o in objs}
        act = {o["event"]: int(o["actual"]) for o in objs}
        report(exp == csv_counts and act == csv_counts and all(o["status"] == "OK" for o in objs)
               and all(o["workload"] == "memcpy" for o in objs),
               "validate -j: the reference's (expected) and the board's counts equal stat's, every event",
               str({k: (v, exp.get(k), act.get(k)) for k, v in csv_counts.items() if exp.get(k) != v}))
    return csv_counts


def stat_repeat_replay():
    rc, out, err = run(SIM + ["stat", "-x", ";", "-r", "3", "-e", "cycles,instructions,branches", "--size", "500", "alu"])
    if report(rc == 0, "stat -r 3 -x ';' alu: exit 0", short(err)):
        rows = parse_perf_csv(out, ";")
        report(all(r["variance"] == "0.00%" for r in rows) and len(rows) == 3,
               "stat -r 3 -x: variance column 0.00% (the core is deterministic)", short(out))
    rc, out, err = run(SIM + ["stat", "-r", "2", "-e", "cycles,instructions", "--size", "500", "alu"])
    if report(rc == 0, "stat -r 2 alu: exit 0", short(err)):
        report("(2 runs)" in out and out.count("( +-  0.00% )") == 3,
               "stat -r 2: '(2 runs)' and ( +-  0.00% ) on every count and on the time", short(out))
    # more programmable events than counters: replay; raw selectors; a group;
    # an ADD combination (EVENT0 loads + EVENT1 stores)
    add = (4 << 40) | (4 << 10) | 3
    ev = ",".join(EVENTS) + ",r1,r2,r0x3,r4,{loads,stores},r%x" % add
    rc, out, err = run(SIM + ["stat", "-x", ",", "-e", ev, "--size", "4096", "memcpy"])
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
    csv_out = expect_ok(SIM + ["stat", "-I", "1", "-x", ",", "-e", ev] + wl)
    json_out = expect_ok(SIM + ["stat", "-I", "1ms", "-j", "-e", ev] + wl)
    human_out = expect_ok(SIM + ["stat", "-I", "1000us", "-e", ev] + wl)
    plain = expect_ok(SIM + ["stat", "-x", ",", "-e", ev] + wl)
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
    out1 = expect_ok(SIM + ["stat", "-I", "1", "-x", ",", "-e", ev] + wl, env=one)
    if out1 is not None:
        report(out1 == csv_out, "stat -I on a 1-counter board (hpm-sim-1x40, 3 replays): byte-identical to one run on 29 counters",
               short(out1))
    # an explicit --budget ends an interval measurement normally (on the
    # one-counter board too: every replay stops at the same cycle); plain
    # stat calls it a failure
    rc, out, err = run(SIM + ["stat", "-I", "1", "-x", ",", "--budget", "50000", "-e", ev] + wl, env=one)
    brows = [r.split(",") for r in out.splitlines()]
    full = {e: sum(r[2] for r in rows if r[1] == e) for e in names}
    got = {e: sum(int(r[1]) for r in brows if r[3] == e) for e in names}
    report(rc == 0 and not err and 0 < got["instructions"] < full["instructions"] and len(brows) >= 2 * len(names),
           "stat -I --budget 50000 on a 1-counter board: exit 0, the intervals up to the budget (instructions %d of %d)"
           % (got.get("instructions", -1), full["instructions"]), "exit %d: %s" % (rc, short(err)))
    rc, out, err = run(SIM + ["stat", "--budget", "50000", "-e", ev] + wl)
    why = one_line_error(rc, out, err, 1)
    report(why is None and "budget" in err, "stat --budget 50000 (no -I): exit 1, one line: " + err.strip(), why)
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
        out = expect_ok(SIM + ["stat", "-x", ",", "--mode", mode, "-e", spec, "--size", "1000", "memcpy"])
        if out is None:
            continue
        c = {r["event"]: r["value"] for r in parse_perf_csv(out)}
        want = {"%s:%s" % (e, m): (c[e] if m == own else 0) for e in ev for m in "ukm"}
        got = {k: c[k] for k in want}
        report(got == want and all(c[e] > 0 for e in ev) and c["loads:kmu"] == c["loads"],
               "stat --mode %s: e:%s = e, the other modes 0, loads:kmu = loads (cycles, instructions, loads, branches)" % (mode, own),
               "got %s want %s" % (got, want))
    out = expect_ok(SIM + ["validate", "-x", ",", "--mode", "s", "-e", "cycles:k,instructions:uk,loads:k,stores:u,r40000001003:km",
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
    if not report(rc == 0, "main job: hpmctl --link sim " + " ".join(args), "exit %d: %s" % (rc, short(err))):
        return
    counts, secs = parse_human_stat(out)
    rc2, ref_out, ref_err = run(["--link", "ref", "stat", "-x", ","] + args[1:])
    ref = {r["event"]: r["value"] for r in parse_perf_csv(ref_out)} if rc2 == 0 else {}
    report(counts == ref and list(counts) == ["cycles", "instructions", "loads", "branch-misses"],
           "main job: counts %s equal the reference model's (--link ref)" % counts, "ref %s (%s)" % (ref, short(ref_err)))
    # four repeats make sure the work lasts more than the second after which
    # progress appears
    rc, out, err = run(SIM + ["stat", "-r", "4"] + args[1:], stderr_tty=True)
    report(rc == 0 and "hpmctl: stat matmul" in err and "\r" in err and "hpmctl" not in out,
           "main job: progress on stderr when it is a terminal (stat -r 4 lasts > 1 s), not on stdout",
           "exit %d, stderr %r" % (rc, err[-200:]))


def topdown(info):
    rc, out, err = run(SIM + ["topdown", "matmul"])
    if not report(rc == 0, "hpmctl --link sim topdown matmul: exit 0", short(err)):
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
    rc, out_j, err = run(SIM + ["topdown", "-j"] + wl)
    rc2, out_c, err2 = run(SIM + ["topdown", "-x", ","] + wl)
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
        rc, out_j, err = run(["--link", "ref", "topdown", "-j", w])
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
    out = expect_ok(SIM + ["record", "-I", "10000", "-e", ev, "-o", csvf, "--plot", svgf] + wl)
    out2 = expect_ok(SIM + ["record", "-I", "10000", "-e", ev, "-o", jsonf] + wl)
    stat_out = expect_ok(SIM + ["stat", "-x", ",", "-e", ev] + wl)
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
    out3 = expect_ok(SIM + ["record", "-I", "10000", "-e", ev, "-o", replayf] + wl, env=one)
    if out3 is not None:
        with open(replayf, newline="") as f:
            rrows = list(csv.DictReader(f))
        rc, out4, err4 = run(SIM + ["record", "-I", "10000", "--budget", "30000", "-e", ev, "-o", replayf] + wl, env=one)
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
    rc, out, err = run(SIM + ["record", "-I", "10", "-o", csvf] + wl)
    why = one_line_error(rc, out, err, 1)
    report(why is None and "minimum" in err, "record: -I below the board's min interval refused: " + err.strip(), why or err)


def validate_all():
    rc, out, err = run(SIM + ["validate", "--all", "-j"])
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
    rc, out, err = run(args, env=env)
    row = re.search(r"^   loads\s+([\d,]+)\s+([\d,]+)\s+(\w+)$", out, re.M)
    report(rc == 1 and row is not None and row.group(3) == "MISMATCH" and len(err.splitlines()) == 1
           and "loads" in err and "MISMATCH (" in out,
           "validate on hpm-sim-fault: exit 1, loads MISMATCH (%s expected, %s actual): %s"
           % (row.group(1) if row else "?", row.group(2) if row else "?", err.strip()),
           "exit %d, stdout %s, stderr %s" % (rc, short(out, 600), short(err)))
    rc, out, err = run(["--link", "sim", "validate", "-j", "--size", "4096", "memcpy"], env=env)
    r = {o["event"]: o for o in parse_jsonl(out)}
    if r:
        ld, st = int(r["loads"]["expected"]), int(r["stores"]["expected"])
        others = [e for e, o in r.items() if e not in ("loads", "stores") and o["status"] != "OK"]
        report(rc == 1 and r["loads"]["status"] == "MISMATCH" and int(r["loads"]["actual"]) == st
               and int(r["stores"]["actual"]) == ld and not others,
               "validate -j on hpm-sim-fault: loads and stores swapped (%d, %d), every other event OK" % (ld, st),
               "exit %d, loads %s, other mismatches %s" % (rc, r["loads"], others))
    else:
        report(False, "validate -j on hpm-sim-fault", "exit %d, no output, stderr %s" % (rc, short(err)))


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


def run_cmd(info):
    out = expect_ok(SIM + ["run", "--size", "2000", "alu"])
    outm = expect_ok(SIM + ["run", "--mode", "m", "--size", "2000", "alu"])
    if out is None or outm is None:
        return
    field = lambda t, k: re.search(r"^   %s:\s+(.*)$" % re.escape(k), t, re.M).group(1)
    num = lambda t, k: int(field(t, k).split()[0].replace(",", ""))
    rc, st, err = run(SIM + ["stat", "-x", ",", "-e", "cycles,instructions", "--size", "2000", "alu"])
    s = {r["event"]: r["value"] for r in parse_perf_csv(st)} if rc == 0 else {}
    report(field(out, "exit reason") == "exit ecall" and field(out, "exit code") == "0" and field(out, "mode at exit") == "U"
           and num(out, "cycles") == s.get("cycles") and num(out, "instructions") == s.get("instructions"),
           "run alu: exit ecall, code 0, U, cycles and instructions equal stat's", short(out))
    # docs/protocol.md 6.2: an M run adds 5 instructions and 6 cycles to a U run
    report(field(outm, "mode at exit") == "M" and num(outm, "instructions") == num(out, "instructions") + 5
           and num(outm, "cycles") == num(out, "cycles") + 6,
           "run --mode m alu: the monitor's fixed M-mode cost (+5 instructions, +6 cycles)", short(outm))
    rc, out, err = run(SIM + ["run", "--budget", "3000", "alu"])
    why = one_line_error(rc, "", err, 1)
    report(why is None and "budget exhausted" in out, "run --budget 3000 alu: exit 1, 'budget exhausted': " + err.strip(),
           why or short(out))
    out = expect_ok(SIM + ["run", "--mode", "s", "--size", "100", "csr"])
    if out is not None:
        report(field(out, "exit reason") == "exit ecall" and field(out, "mode at exit") == "S",
               "run --mode s csr: passes in S-mode", short(out))
    elf = os.path.join(BUILD, "fw", "workloads", "alu.elf")
    rc, st2, err = run(SIM + ["stat", "-x", ",", "-e", "cycles,instructions", "--size", "2000", elf])
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
        (["stat", "-e", "rzz", "alu"], 1, "bad raw event"),
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
        (["--link", "bogus", "info"], 1, "unknown link"),
    ]
    for args, code, want in cases:
        rc, out, err = run(args)
        why = one_line_error(rc, out, err, code)
        if why is None and want not in err:
            why = "stderr %r lacks %r" % (err.strip(), want)
        report(why is None, "%s: exit %d, one line: %s" % (cmdline(args), code, err.strip()), why)


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
            out = expect_ok(args)
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
        st = expect_ok(SIM + ["stat", "-x,", "-e", "cycles,branches,instructions", "--size", size, wl])
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
    # M mode: samples in M, each costs 8 cycles and 5 instructions (protocol 6.3)
    files = {}
    for link in ("sim", "ref"):
        f = os.path.join(OUT, "prof-m-%s.data" % link)
        mout = expect_ok(["--link", link, "record", "--mode", "m", "-e", "instructions", "-c", "500", "-e", "cycles",
                          "-o", f, "--size", "2048", "crc"])
        files[link] = open(f, "rb").read() if mout is not None else None
        if link == "sim":
            mcounts, mticks = parse_record_counts(mout or "")
    st = expect_ok(SIM + ["stat", "-x,", "-e", "instructions,cycles", "--mode", "m", "--size", "2048", "crc"])
    if files["sim"] and st is not None and mticks:
        plain = {r["event"]: r["value"] for r in parse_perf_csv(st)}
        i, c = mcounts["instructions"], mcounts["cycles"]
        report(files["sim"] == files["ref"] and i[0] == plain["instructions"] + 5 * mticks and
               c[0] == plain["cycles"] + 8 * mticks and i[1] == i[0] // 500 == mticks and
               all(b == 3 for b in files["sim"][-3 * 8 + 5::8]),
               "record -c --mode m: board = reference, M-mode samples, 8 cycles and 5 instructions per tick (%d)" % mticks,
               "record %r stat %r" % (mcounts, plain))
    # report, folded, JSON and annotate of the last profile
    f = os.path.join(OUT, "prof-crc-sim.data")
    table = expect_ok(["report", "-i", f])
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
        outs[link] = expect_ok(["--link", link, "stat", "--regions", "-x,", "-e", many, "--size", "2", "regions"])
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
    st = expect_ok(SIM + ["stat", "-x,", "-e", many, "--size", "2", "regions"])
    if st is not None:
        plain = {r["event"]: r["value"] for r in parse_perf_csv(st)}
        report(plain == vals.get(""), "stat --regions: the whole program's counts equal plain stat's",
               "%r vs %r" % (plain, vals.get("")))
    js = expect_ok(SIM + ["stat", "--regions", "-j", "-e", "cycles,instructions", "--mode", "m", "--size", "2", "regions"])
    if js is not None:
        objs = parse_jsonl(js)
        empty = {o["event"]: int(o["counter-value"]) for o in objs if o.get("region") == "empty"}
        report(empty == {"cycles": 24, "instructions": 18} and sum(1 for o in objs if "region" not in o) == 2,
               "stat --regions -j --mode m: region and calls keys; an M-mode marker pair costs 12 cycles, 9 instructions",
               short(js))
    human = expect_ok(SIM + ["stat", "--regions", "-e", "cycles,instructions", "--size", "2", "regions"])
    if human is not None:
        report(re.search(r"Region 'fill' \(2 calls\):", human) is not None and "insn per cycle" in human,
               "stat --regions (human): a table per region with its calls and metrics", short(human))


TESTS = ["help", "list", "info", "stat", "repeat", "interval", "modifiers", "narrow", "main", "topdown", "record", "validate_all", "fault", "csr", "run", "errors", "profile", "regions"]


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
        "fault": validate_fault, "csr": csr_cmds, "run": lambda: run_cmd(info),
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
