"""Programs as perf runs them (issue 30, items 4 to 6): arguments after
'--' in every command that runs a program, the program's own output on its
own streams, its exit code returned, profiles kept and honest about their
ELF, and the perf options users type next, each checked against the value it
must give."""
import csv
import io
import json
import os
import re
import shutil
import subprocess

from harness import short

SIM = ["--link", "sim"]


def counts_csv(text):
    """stat -x, lines: {event: value} (other lines skipped)."""
    out = {}
    for rec in csv.reader(io.StringIO(text)):
        if len(rec) >= 7 and rec[0].replace(".", "").isdigit():
            out[rec[2]] = rec[0]
    return out


def report_rows(text):
    """report's table rows: [(percent, rest...)]."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"^\s+(\d+\.\d\d)%\s+(.*)$", line)
        if m:
            rows.append((float(m.group(1)), m.group(2).split()))
    return rows


def tests(h):
    elf = h.cc("args_echo.c")
    if not elf:
        return
    echo = lambda *a: "args_echo: argc=%d%s\n" % (len(a) + 1, "".join(" [%s]" % x for x in a))

    # ---- record -c: arguments, streamed output, exit code, profile kept
    prof = os.path.join(h.work, "args.data")
    rc, out, err = h.run(SIM + ["record", "-c", "1000", "-o", prof, "--", elf, "7"])
    h.report(rc == 7 and out == echo("7") and "args_echo: to stderr" in err and os.path.exists(prof)
             and "hpmctl record:" in err,
             "record -c 1000 -- prog.elf 7: exit 7, the program's stdout alone on stdout, the summary on stderr, prof.data kept",
             "exit %s, stdout %r, stderr %r" % (rc, out, err[-300:]))
    rc, out, err = h.run(["report", "-n", "-i", prof])
    rows = report_rows(out)
    h.report(rc == 0 and not err and any(r[1][-1] == "main" for r in rows),
             "report of the failing program's profile: rows by symbol, main among them",
             "exit %s: %s %s" % (rc, out[-300:], err))

    # ---- topdown, validate, run, record -I, stat: argv reaches main, exit code is the program's
    rc, out, err = h.run(SIM + ["topdown", "--", elf, "a", "b"])
    h.report(rc == 0 and out == echo("a", "b") and "Top-down analysis" in err,
             "topdown -- prog.elf a b: argv reaches main, the table on stderr, stdout the program's only",
             "exit %s, stdout %r, stderr %r" % (rc, out, err[-300:]))
    rc, out, err = h.run(SIM + ["topdown", "-x", ",", "--", elf, "3"])
    lines = [l for l in err.splitlines() if l.count(",") == 5]
    h.report(rc == 3 and out == echo("3") and len(lines) >= 4 and "exited with code 3" in err,
             "topdown -x, -- prog.elf 3: exit 3, the breakdown printed (%d rows)" % len(lines),
             "exit %s, stdout %r, stderr %r" % (rc, out, err[-300:]))
    rc, out, err = h.run(SIM + ["validate", "-e", "cycles,instructions,loads", "--", elf, "x"])
    h.report(rc == 0 and out == echo("x") and err.count(" OK") >= 3,
             "validate -- prog.elf x: x reaches main (output once), every count OK, exit 0",
             "exit %s, stdout %r, stderr %r" % (rc, out, err[-300:]))
    rc, out, err = h.run(SIM + ["validate", "-e", "cycles,instructions", "--", elf, "5"])
    h.report(rc == 5 and out == echo("5") and err.count(" OK") >= 2 and "exited with code 5" in err,
             "validate -- prog.elf 5: compared on both sides all the same, exit 5",
             "exit %s, stdout %r, stderr %r" % (rc, out, err[-300:]))
    rc, out, err = h.run(SIM + ["run", "--", elf, "9", "z"])
    h.report(rc == 9 and out == echo("9", "z") and re.search(r"exit code:\s+9", err),
             "run -- prog.elf 9 z: exit 9, the summary on stderr", "exit %s, stdout %r, stderr %r" % (rc, out, err[-300:]))
    csvf = os.path.join(h.work, "args.csv")
    rc, out, err = h.run(SIM + ["record", "-I", "1", "-o", csvf, "--", elf, "4"])
    nrows = len(open(csvf).read().splitlines()) - 1 if os.path.exists(csvf) else 0
    h.report(rc == 4 and out == echo("4") and nrows > 0 and "record:" in err,
             "record -I 1 -- prog.elf 4: exit 4, %d rows kept, the summary on stderr" % nrows,
             "exit %s, stdout %r, stderr %r" % (rc, out, err[-300:]))
    # stdout holds only the program's output: stat -x, -- prog.elf > out
    rc, out, err = h.run(SIM + ["stat", "-x", ",", "-e", "cycles,instructions", "--", elf, "0"])
    c = counts_csv(err)
    h.report(rc == 0 and out == echo("0") and set(c) == {"cycles", "instructions"},
             "stat -x, -- prog.elf > out: out holds only the program's output, the counts are on stderr",
             "exit %s, stdout %r, stderr %r" % (rc, out, err[-300:]))

    # ---- stale and missing ELF in report (and annotate)
    work2 = os.path.join(h.work, "stale")
    os.makedirs(work2, exist_ok=True)
    shutil.copy(elf, os.path.join(work2, "prog.elf"))
    rc, out, err = h.run(SIM + ["record", "-c", "1000", "--", "prog.elf", "0"], cwd=work2)
    ok = rc == 0
    rc, good, err = h.run(["report", "--sort", "pc"], cwd=work2)
    pcs_good = sorted((r[1][-2], r[0]) for r in report_rows(good))
    # from another directory: the absolute path still finds the ELF
    rc2, other, err2 = h.run(["report", "-i", os.path.join(work2, "prof.data")])
    h.report(ok and rc == 0 and rc2 == 0 and not err2 and any(r[1][-1] == "main" for r in report_rows(other)),
             "report from another directory: prof.data's absolute path finds the ELF, symbols shown", short(other + err2))
    # the ELF moved: one line, then rows per pc (the same pcs as with the ELF)
    os.rename(os.path.join(work2, "prog.elf"), os.path.join(work2, "moved.elf"))
    rc, out, err = h.run(["report", "-i", os.path.join(work2, "prof.data")])
    rows = report_rows(out)
    pcs = sorted((r[1][0], r[0]) for r in rows)
    h.report(rc == 0 and len(err.splitlines()) == 1 and "missing" in err and len(rows) > 1 and pcs == pcs_good,
             "report with the ELF moved away: one line (%s), then %d rows per pc, as with the ELF" % (err.strip()[:80], len(rows)),
             "exit %s, stderr %r, rows %s vs %s" % (rc, err, pcs[:4], pcs_good[:4]))
    rc, out, err = h.run(["annotate", "-i", os.path.join(work2, "prof.data"), "main"])
    h.report(rc == 0 and len(err.splitlines()) == 1 and "missing" in err and len(re.findall(r"^\s*\d+\.\d\d% \|", out, re.M)) > 1,
             "annotate with the ELF moved away: one line, then the samples per pc", "exit %s: %s %s" % (rc, out[-200:], err))
    # rebuilt after the record: a different ELF at the same path
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src", "args_echo.c")
    p = subprocess.run([h.bin("hpm-cc"), "-O0", "-o", "prog.elf", src], cwd=work2, env=h.env, capture_output=True, text=True)
    rc, out, err = h.run(["report"], cwd=work2)
    rows = report_rows(out)
    h.report(p.returncode == 0 and rc == 0 and len(err.splitlines()) == 1 and "not the ELF that ran" in err
             and sorted((r[1][0], r[0]) for r in rows) == pcs_good,
             "report after a rebuild: one line (content hash differs), rows per pc, not the new symbols",
             "exit %s, stderr %r, %s" % (rc, err, short(out)))

    # ---- report -n, --percent-limit, --header
    rc, plain, _ = h.run(["report", "-i", prof])
    rc2, withn, _ = h.run(["report", "-n", "-i", prof])
    total = int(re.search(r"# Samples: (\d+)", withn).group(1)) if "# Samples:" in withn else -1
    nrows = report_rows(withn)
    h.report(rc == rc2 == 0 and "Samples" not in plain.split("# Overhead")[1].splitlines()[0]
             and sum(int(r[1][0]) for r in nrows) == total > 0
             and all(abs(r[0] - 100.0 * int(r[1][0]) / total) < 0.006 for r in nrows),
             "report -n: a samples column (summing to the %d samples, each matching its percent); without -n none" % total,
             short(withn))
    rc, lim, _ = h.run(["report", "-n", "--percent-limit", "1", "-i", prof])
    want = [r for r in nrows if r[0] >= 1.0]
    h.report(rc == 0 and report_rows(lim) == want and len(want) < len(nrows),
             "report --percent-limit 1: exactly the %d rows of at least 1%% (of %d)" % (len(want), len(nrows)),
             "%s vs %s" % (report_rows(lim), want))
    rc, hdr, _ = h.run(["report", "--header", "-i", prof])
    hv = dict(re.findall(r"^# (\w[\w ]*\w)\s+: (.*)$", hdr, re.M))
    ok = (rc == 0 and hv.get("program") == os.path.realpath(elf) and hv.get("arguments") == "7"
          and hv.get("content hash", "").startswith("0x%016x" % fnv1a(elf)))
    h.report(ok, "report --header: the ELF's absolute path, its content hash (FNV-1a 64 of the file), the arguments",
             str(hv))

    # ---- stat: task-clock, -D, --interval-count, -B / --no-big-num
    wl = ["--size", "3000", "alu"]
    rc, _, err = h.run(SIM + ["stat", "-x", ",", "-e", "task-clock,cpu-clock,cycles"] + wl)
    info = json.loads(h.run(SIM + ["info", "-j"])[1] or "{}")
    hz = info.get("clock-hz", 0)
    rows = list(csv.reader(io.StringIO(err)))
    byev = {r[2]: r for r in rows if len(r) >= 7}
    cyc = int(byev["cycles"][0]) if "cycles" in byev else -1
    ns = cyc * 10**9 // hz if hz else -1
    ok = (rc == 0 and set(byev) == {"task-clock", "cpu-clock", "cycles"}
          and all(byev[e][1] == "msec" and byev[e][0] == "%.2f" % (ns / 1e6) and byev[e][3] == str(ns) for e in ("task-clock", "cpu-clock")))
    h.report(ok, "stat -e task-clock,cpu-clock: msec of board time = cycles / clock (%d cycles: %.2f msec), perf's columns" % (cyc, ns / 1e6),
             short(err))
    rc, _, err = h.run(SIM + ["stat", "-e", "task-clock"] + wl)
    m = re.search(r"^\s+([\d.]+) msec task-clock\s+#\s+1\.000 CPUs utilized", err, re.M)
    secs = re.search(r"([\d.]+) seconds board time", err)
    h.report(rc == 0 and m and secs and abs(float(m.group(1)) - round(float(secs.group(1)) * 1000, 2)) < 1e-9
             and "cycles" not in err,
             "stat -e task-clock (table): the msec of the board time line, alone", short(err))
    # -D MS: the counts after MS of board time = the whole run's minus a run stopped at MS
    d_cycles = hz // 1000
    _, _, full = h.run(SIM + ["stat", "-x", ",", "-e", "cycles,instructions,branches"] + wl)
    _, _, upto = h.run(SIM + ["stat", "-x", ",", "--budget", str(d_cycles), "-e", "cycles,instructions,branches"] + wl)
    rc, _, dly = h.run(SIM + ["stat", "-x", ",", "-D", "1", "-e", "cycles,instructions,branches"] + wl)
    f, u, d = counts_csv(full), counts_csv(upto), counts_csv(dly)
    ok = rc == 0 and len(f) == 3 and all(int(d[e]) == int(f[e]) - int(u[e]) for e in f) and 0 < int(u["cycles"]) < int(f["cycles"])
    h.report(ok, "stat -D 1: every count is the whole run's minus the run's up to 1 ms of board time (%s cycles)" % u.get("cycles"),
             "full %s upto %s delayed %s" % (f, u, d))
    # --interval-count N: N intervals, then a normal end
    for n in (1, 3):
        rc, _, err = h.run(SIM + ["stat", "-I", "1", "--interval-count", str(n), "-x", ",", "-e", "cycles,instructions"] + wl)
        stamps = sorted({r[0] for r in csv.reader(io.StringIO(err)) if len(r) >= 8})
        h.report(rc == 0 and len(stamps) == n, "stat -I 1 --interval-count %d: %d intervals, exit 0" % (n, len(stamps)),
                 "exit %s: %s" % (rc, short(err)))
    rc, _, big = h.run(SIM + ["stat", "-B", "-e", "cycles"] + wl)
    rc2, _, nobig = h.run(SIM + ["stat", "--no-big-num", "-e", "cycles"] + wl)
    mb = re.search(r"^\s+([\d,]+)\s+cycles", big, re.M)
    mn = re.search(r"^\s+([\d,]+)\s+cycles", nobig, re.M)
    h.report(rc == rc2 == 0 and mb and mn and mb.group(1) == "{:,}".format(cyc) and mn.group(1) == str(cyc),
             "stat -B / --no-big-num: %s and %s" % (mb and mb.group(1), mn and mn.group(1)), short(big + nobig))

    # ---- a misspelt event, list cache
    rc, out, err = h.run(SIM + ["stat", "-e", "cycels", "alu"])
    h.report(rc == 1 and err.strip() == "hpmctl: unknown event 'cycels'; did you mean 'cycles'?",
             "stat -e cycels: one line with the nearest name", repr(err))
    rc, out, err = h.run(["list", "cache"])
    h.report(rc == 0 and "no cache" in out and "[event" not in out, "list cache: the core has no cache", short(out))

    # ---- a program file of 64 MiB: one line with its name and the limit
    big = os.path.join(h.work, "huge.elf")
    with open(big, "wb") as fh:
        fh.truncate(64 << 20)
    rc, out, err = h.run(SIM + ["stat", big])
    h.report(rc == 1 and len(err.splitlines()) == 1 and big in err and "64 MiB" in err,
             "stat of a 64 MiB file: one line naming it and the limit", repr(err))
    os.unlink(big)

    # ---- an entry point of 0x80000002: refused at load by both runners, one line each
    mis = h.cc("args_echo.c", out="misaligned.elf", flags=("-O2", "-Wl,--entry=0x80000002"))
    if mis:
        res = []
        for tool in ("hpm-sim", "hpm-ref"):
            try:
                p = subprocess.run([h.bin(tool), "--elf", mis], capture_output=True, text=True, env=h.env, timeout=60)
                res.append((tool, p.returncode, p.stderr))
            except subprocess.TimeoutExpired:
                res.append((tool, None, "timed out"))
        h.report(all(rc not in (0, None) and len(e.splitlines()) == 1 and "not 4-byte aligned" in e and "0x80000002" in e
                     for _, rc, e in res),
                 "--elf with entry 0x80000002: hpm-sim and hpm-ref both refuse it at load, one line", str(res))


def fnv1a(path):
    h = 0xcbf29ce484222325
    for b in open(path, "rb").read():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h
