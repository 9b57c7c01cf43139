"""Every command stops when asked, and runs as long as the program does
(issue 30): a program that never ends (src/stop_forever.c), stopped by
Ctrl-C in each command, by stat --timeout and by record --budget; files
left whole by a second Ctrl-C and by SIGKILL; a program that runs several
times the link's give-up time-out through the tty link, counted exactly."""
import csv
import io
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from proctree import alive, descendants  # noqa: E402

LIMIT = 20.0          # seconds from SIGINT to the end: generous ("it ended")


def stop(h, args, ready, sigs=(signal.SIGINT,), gap=0.05, limit=90, grace=0.0):
    """Runs the installed hpmctl; once ready(elapsed) holds, sends sigs (gap
    s apart). Returns (rc, out, err, seconds from the first signal to the
    end, processes seen below it that are still there at its end, or grace
    s later: hpm-sim ends by itself at the end of its input once a second
    Ctrl-C killed hpmctl)."""
    outf = open(os.path.join(h.out, "stop.out"), "w+")
    errf = open(os.path.join(h.out, "stop.err"), "w+")
    p = subprocess.Popen([h.bin("hpmctl")] + args, cwd=h.work, env=h.env, stdout=outf, stderr=errf,
                         start_new_session=True)
    t0, sent, seen = time.monotonic(), None, set()
    while p.poll() is None:
        now = time.monotonic()
        seen |= descendants(p.pid)
        if sent is None and ready(now - t0):
            for i, s in enumerate(sigs):
                if i:
                    time.sleep(gap)
                p.send_signal(s)
            sent = now
        if now - t0 > limit:
            os.killpg(p.pid, signal.SIGKILL)
            break
        time.sleep(0.05)
    rc = p.wait()
    dt = time.monotonic() - sent if sent is not None else -1.0
    end = time.monotonic() + grace
    while alive(seen) and time.monotonic() < end:
        time.sleep(0.1)
    left = alive(seen)
    outf.seek(0)
    errf.seek(0)
    return rc, outf.read(), errf.read(), dt, left


def human_counts(text):
    got = {}
    for line in text.splitlines():
        m = re.match(r"\s+([\d,]+)\s+(\S+)", line)
        if m:
            got[m.group(2)] = int(m.group(1).replace(",", ""))
    return got


def counts_csv(text, events):
    """The -x , lines of these events (hpmctl prints counts on stderr, as
    perf stat does; other lines there are messages)."""
    return [r for r in csv.reader(io.StringIO(text)) if len(r) > 2 and r[2] in events]


def csv_rows_whole(text, fields):
    """Every line ends with a newline and has `fields` fields."""
    if text and not text.endswith("\n"):
        return False
    return all(len(r) == fields for r in csv.reader(io.StringIO(text)) if r)


def tests(h):
    forever = h.cc("stop_forever.c")
    long_elf = h.cc("stop_long.c")
    if not forever or not long_elf:
        return
    after = lambda t: t >= 4.0      # well into the run: several ticks
    ev = "cycles,instructions,loads"

    # ---- stat: Ctrl-C stops the board's run; partial counts, marked ----
    rc, out, err, dt, left = stop(h, ["stat", "-e", ev, forever], after)
    c = human_counts(out + err)
    h.report(rc == -signal.SIGINT and 0 <= dt < LIMIT and c.get("cycles", 0) > 0 and c.get("loads", 0) > 0
             and "Partial: interrupted: the run was stopped at" in out + err and not left,
             "stop: stat of a program that never ends, Ctrl-C: partial counts printed and marked, "
             "SIGINT, ended %.1f s after it, no process left" % dt,
             "rc %s dt %.1f left %s; %s | %s" % (rc, dt, left, h_short(out), h_short(err)))
    rc, out, err, dt, left = stop(h, ["stat", "-x", ",", "-e", ev, forever], after)
    rows = counts_csv(out + err, ev.split(","))
    h.report(rc == -signal.SIGINT and dt < LIMIT and [r[2] for r in rows] == ev.split(",")
             and all(int(r[0]) > 0 for r in rows) and "partial counts" in err and not left,
             "stop: stat -x, Ctrl-C: every event's count so far, the partial mark on stderr",
             "rc %s dt %.1f left %s; %s | %s" % (rc, dt, left, h_short(out), h_short(err)))
    rc, out, err, dt, left = stop(h, ["stat", "-r", "3", "-e", ev, forever], after)
    h.report(rc == -signal.SIGINT and dt < LIMIT and human_counts(out + err).get("cycles", 0) > 0
             and "Partial: interrupted" in out + err and not left,
             "stop: stat -r 3, Ctrl-C in the first run: that run's counts so far, marked",
             "rc %s dt %.1f left %s; %s | %s" % (rc, dt, left, h_short(out), h_short(err)))
    rc, out, err, dt, left = stop(h, ["stat", "--regions", "-e", ev, forever], after)
    h.report(rc == -signal.SIGINT and dt < LIMIT and human_counts(out + err).get("cycles", 0) > 0
             and "Partial: interrupted" in out + err and not left,
             "stop: stat --regions, Ctrl-C: the whole program's counts so far, marked",
             "rc %s dt %.1f left %s; %s | %s" % (rc, dt, left, h_short(out), h_short(err)))

    # ---- stat --timeout (perf's): the counts so far, exit 0 ----
    t0 = time.monotonic()
    rc, out, err = h.run(["stat", "--timeout", "2000", "-e", ev, forever], timeout=120)
    took = time.monotonic() - t0
    h.report(rc == 0 and human_counts(out + err).get("cycles", 0) > 0 and "stopped by --timeout 2000" in out + err,
             "stop: stat --timeout 2000 of a program that never ends: the counts up to the stop, marked, exit 0 (%.1f s)" % took,
             "rc %s; %s | %s" % (rc, h_short(out), h_short(err)))

    # ---- record -c: the profile up to the stop, readable by report ----
    prof = os.path.join(h.work, "stop.data")
    rc, out, err, dt, left = stop(h, ["record", "-e", "cycles", "-c", "100000", "-o", prof, forever], after)
    rrc, rout, rerr = h.run(["report", "--stdio", "-i", prof])
    h.report(rc == -signal.SIGINT and dt < LIMIT and "partial: interrupted" in out + err and rrc == 0
             and "main" in rout + rerr
             and not left,
             "stop: record -c, Ctrl-C: prof.data of the samples so far, which report reads; SIGINT",
             "rc %s dt %.1f left %s report %s; %s | %s | %s" % (rc, dt, left, rrc, h_short(out), h_short(err),
                                                                 h_short(rout + rerr)))
    # ---- record -c --budget: a normal end, profile kept ----
    if os.path.exists(prof):
        os.remove(prof)
    rc, out, err = h.run(["record", "-e", "cycles", "-c", "100000", "--budget", "3000000", "-o", prof, forever])
    rrc, rout, rerr = h.run(["report", "--stdio", "-i", prof])
    m = re.search(r"(\d+) samples in .*, (\d+) cycles", out + err)
    h.report(rc == 0 and m and int(m.group(1)) >= 29 and 2900000 < int(m.group(2)) <= 3000000 and rrc == 0
             and "main" in rout + rerr,
             "stop: record -c --budget 3000000: a normal end, the profile kept (%s samples), report reads it"
             % (m.group(1) if m else "?"),
             "rc %s report %s; %s | %s | %s" % (rc, rrc, h_short(out), h_short(err), h_short(rout + rerr)))

    # ---- record -I: rows whole, chart whole, after one or two Ctrl-C ----
    csvp, svgp = os.path.join(h.work, "stop.csv"), os.path.join(h.work, "stop.svg")
    for sigs, what in (((signal.SIGINT,), "Ctrl-C"), ((signal.SIGINT, signal.SIGINT), "Ctrl-C twice")):
        for f in (csvp, svgp):
            if os.path.exists(f):
                os.remove(f)
        rc, out, err, dt, left = stop(h, ["record", "-I", "50", "-e", ev, "-o", csvp, "--plot", svgp, forever],
                                      after, sigs=sigs, grace=10.0 * (len(sigs) - 1))
        text = open(csvp).read() if os.path.exists(csvp) else ""
        svg = open(svgp).read() if os.path.exists(svgp) else None
        rows = [r for r in csv.reader(io.StringIO(text)) if r][1:]
        svg_ok = svg.rstrip().endswith("</svg>") if svg is not None else len(sigs) > 1
        h.report(rc == -signal.SIGINT and dt < LIMIT and text.startswith("interval,") and csv_rows_whole(text, 9)
                 and len(rows) % 3 == 0 and all(int(r[8]) > 0 for r in rows) and svg_ok
                 and (len(sigs) > 1 or (rows and "interrupted" in out + err)) and not left,
                 "stop: record -I, %s: the CSV's %d rows whole, the chart %s, SIGINT, no process left"
                 % (what, len(rows), "whole" if svg else "absent"),
                 "rc %s dt %.1f left %s, csv %d bytes ends %r, svg %s; %s | %s" % (
                     rc, dt, left, len(text), text[-40:], None if svg is None else len(svg), h_short(out), h_short(err)))
    # SIGKILL: whatever the file holds is whole rows, written an interval at a time
    if os.path.exists(csvp):
        os.remove(csvp)

    def rows_in(_):
        try:
            return open(csvp).read().count("\n") >= 4
        except OSError:
            return False
    rc, out, err, dt, left = stop(h, ["record", "-I", "50", "-e", ev, "-o", csvp, forever], rows_in,
                                  sigs=(signal.SIGKILL,))
    text = open(csvp).read() if os.path.exists(csvp) else ""
    rows = [r for r in csv.reader(io.StringIO(text)) if r][1:]
    h.report(rc == -signal.SIGKILL and csv_rows_whole(text, 9) and len(rows) >= 3 and len(rows) % 3 == 0,
             "stop: record -I killed with SIGKILL once rows are in the file: %d rows, every interval whole "
             "(written as they arrive)" % len(rows),
             "rc %s, %d bytes, ends %r" % (rc, len(text), text[-60:]))

    # ---- topdown, run, validate ----
    for args, mark, what in ((["topdown", forever], "partial: interrupted", "topdown: the tree of the slots so far"),
                             (["run", forever], "exit reason:     aborted", "run: its result, aborted"),
                             (["validate", "-e", "cycles", forever], "interrupted after 0 of 1", "validate: the summary, nothing validated")):
        rc, out, err, dt, left = stop(h, args, after)
        h.report(rc == -signal.SIGINT and dt < LIMIT and mark in out + err and not left,
                 "stop: %s of a program that never ends, Ctrl-C: %s, SIGINT, ended %.1f s after it" % (args[0], what, dt),
                 "rc %s dt %.1f left %s; %s | %s" % (rc, dt, left, h_short(out), h_short(err)))

    # ---- the tty link: Ctrl-C stops plain stat; a long run is exact ----
    tty_stop(h, forever, long_elf)
    long_run(h, long_elf)


def h_short(s, n=400):
    s = " | ".join(l for l in s.strip().splitlines() if l.strip())
    return s if len(s) <= n else s[:n] + "..."


def tty_stop(h, forever, long_elf):
    """Through the tty link (hpm-sim behind a pseudo-terminal): SIGINT to
    plain stat of the endless program stops its run on the board; the next
    hpmctl on the same board then counts exactly (stop_long.c, 10 M cycles:
    2 keepalive ticks, as the reference board)."""
    ev = "cycles,instructions,interrupts"
    rrc, rout, rerr = h.run(["--link", "ref", "stat", "-x", ",", "-e", ev, long_elf, "1"])
    ref = rout + rerr
    d = os.path.join(h.out, "tty-stop")
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    script = ("{0} --link tty:@PTY@ stat -x , -e {1} {2} > {4}/out0 2> {4}/err0; echo $? > {4}/rc0; "
              "{0} --link tty:@PTY@ stat -x , -e {1} {3} 1 > {4}/out1 2> {4}/err1; echo $? > {4}/rc1").format(
                  h.bin("hpmctl"), ev, forever, long_elf, d)
    env = dict(h.env, HPM_SIM=h.bin("hpm-sim"))
    w = subprocess.Popen([os.path.join(h.build, "tests", "faultproxy"), "--rate", "0", "--timeout", "300", "--",
                          "sh", "-c", script], cwd=h.work, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    t0, sent, seen = time.monotonic(), None, set()
    while w.poll() is None and time.monotonic() - t0 < 400:
        time.sleep(0.2)
        seen |= descendants(w.pid)
        if sent is None and time.monotonic() - t0 > 8:
            for k in descendants(w.pid):
                try:
                    if open("/proc/%d/comm" % k).read().strip() == "hpmctl" and \
                       "stop_forever" in open("/proc/%d/cmdline" % k).read():
                        os.kill(k, signal.SIGINT)
                        sent = time.monotonic()
                except OSError:
                    pass
        if sent and not os.path.exists(os.path.join(d, "rc0")) and time.monotonic() - sent > LIMIT:
            break
    ended = os.path.exists(os.path.join(d, "rc0"))
    if w.poll() is None:
        w.kill()
    w.wait(60)
    read = lambda n: open(os.path.join(d, n)).read() if os.path.exists(os.path.join(d, n)) else ""
    rows0 = counts_csv(read("out0") + read("err0"), ev.split(","))
    rows1 = counts_csv(read("out1") + read("err1"), ev.split(","))
    left = alive(seen)
    h.report(sent and ended and read("rc0").strip() == "130" and [r[2] for r in rows0] == ev.split(",")
             and int(rows0[0][0]) > 0 and "partial counts" in read("err0") and read("rc1").strip() == "0"
             and rrc == 0 and rows1 == counts_csv(ref, ev.split(",")) and not left,
             "stop: tty link: Ctrl-C stops plain stat's endless run on the board (partial counts, 130); "
             "the next stat on the same board equals the reference board's, keepalive ticks included",
             "sent %s ended %s rc %r/%r left %s; %s | %s | %s | ref %s" % (
                 sent is not None, ended, read("rc0"), read("rc1"), left, h_short(read("out0")), h_short(read("err0")),
                 h_short(read("out1") + read("err1")), h_short(ref)))


def long_run(h, elf):
    """stop_long.c (80 million cycles, 30 s or more of the simulated board)
    through the tty link (hpm-sim behind a pseudo-terminal) with a give-up
    time-out of 8 s: the link lives on the ticks' BUSY answers; the counts,
    ticks included, equal the reference board's."""
    ev = "cycles,instructions,loads,interrupts"
    rrc, ref, rerr = h.run(["--link", "ref", "stat", "-x", ",", "-e", ev, elf, "8"])
    proxy = os.path.join(h.build, "tests", "faultproxy")
    env = dict(h.env, HPM_SIM=h.bin("hpm-sim"), HPM_GIVEUP_MS="8000")
    t0 = time.monotonic()
    p = subprocess.run([proxy, "--rate", "0", "--timeout", "600", "--", h.bin("hpmctl"), "--link", "tty:@PTY@",
                        "stat", "-x", ",", "-e", ev, elf, "8"], cwd=h.work, env=env, capture_output=True, text=True,
                       timeout=700)
    took = time.monotonic() - t0
    get = lambda text: {r[2]: r[0] for r in counts_csv(text, ev.split(","))}
    hw, rf = get(p.stdout + p.stderr), get(ref + rerr)
    h.report(rrc == 0 and p.returncode == 0 and hw == rf and int(rf.get("interrupts", "0")) > 0,
             "stop: a %s-cycle program through the tty link with a give-up time-out of 8 s (%.0f s): "
             "counts equal to the reference board's, its %s ticks included" % (rf.get("cycles"), took, rf.get("interrupts")),
             "rc %s/%s, took %.0f s; board %s ref %s; %s | %s" % (rrc, p.returncode, took, hw, rf,
                                                                  h_short(p.stderr), h_short(rerr)))
