"""Profiles in perf's own tools and hpmctl's views of them (issue 32): a
program with a known call structure (src/perf_calls.c: main -> outer ->
inner, main -> solo), built with -g, profiled on the simulated board with
record --perf-data; Linux perf reads the perf.data with the figures hpmctl
gives (perf report, perf script, perf annotate), hotspot's parser reads it,
hpmctl script/annotate/report views check against each other, and bad input
gives one-line errors."""
import os
import re
import shutil
import subprocess

from harness import short

SIM = ["--link", "sim"]
PERFPARSER = "/usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser"


def perf(h, args):
    """Linux perf (make deps: linux-perf) from the work directory."""
    exe = shutil.which("perf", path=h.env["PATH"])
    if not exe:
        return None, "", "perf is not installed (make deps)"
    p = subprocess.run([exe] + args, cwd=h.work, env=h.env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def hpm_tables(text):
    """report --no-children --stdio: {event: {symbol: percent}}, {event: samples}."""
    rows, samples, ev = {}, {}, None
    for line in text.splitlines():
        m = re.match(r"^# Samples: (\d+) of event '([^']+)'", line)
        if m:
            ev = m.group(2)
            samples[ev] = int(m.group(1))
            rows[ev] = {}
            continue
        m = re.match(r"^\s+(\d+\.\d\d)%\s+(\S+)$", line)
        if m and ev:
            rows[ev][m.group(2)] = float(m.group(1))
    return rows, samples


def perf_tables(text):
    """perf report --stdio --no-children --sort sym -n: the same shape (the
    samples are the rows' sum: perf's header rounds them, "1K")."""
    rows, samples, ev = {}, {}, None
    for line in text.splitlines():
        m = re.match(r"^# Samples: \S+\s+of event '([^']+)'", line)
        if m:
            ev = m.group(1)
            samples[ev] = 0
            rows[ev] = {}
            continue
        m = re.match(r"^\s+(\d+\.\d\d)%\s+(\d+)\s+\[\.\] (\S+)\s*$", line)
        if m and ev:
            rows[ev][m.group(3)] = float(m.group(1))
            samples[ev] += int(m.group(2))
    return rows, samples


def annotate_pcts(text, perf_style):
    """{address: percent} of the annotated instructions with samples."""
    got = {}
    for line in text.splitlines():
        if perf_style and line.startswith(" Percent |") and got:
            break                      # the next event's section
        m = (re.match(r"^\s+(\d+\.\d\d) :\s+([0-9a-f]+):", line) if perf_style else
             re.match(r"^\s*(\d+\.\d\d)% \|\s+\d+ \| ([0-9a-f]{8}):", line))
        if m and float(m.group(1)) > 0:
            got[int(m.group(2), 16)] = float(m.group(1))
    return got


def chain_syms(text):
    """perf/hpmctl script with chains: [(header fields before the event,
    [symbol of each frame])] (perf prints a caller's address relative to its
    mapping, hpmctl the address: the symbols are what both must agree on)."""
    out = []
    for line in text.splitlines():
        if line.startswith("\t"):
            out[-1][1].append(line.split()[1].split("+")[0])
        elif line.strip():
            out.append((line.split(":")[0].split(), []))
    return out


def callgraph(h, elf):
    """record -g: the views of a profile with call chains, and perf's."""
    prof = os.path.join(h.work, "calls-g.data")
    pdata = os.path.join(h.work, "calls-g.perf.data")
    rc, out, err = h.run(SIM + ["record", "-g", "-e", "cycles", "-c", "997", "-o", prof, "--perf-data", pdata, elf])
    m = re.search(r"\((\d+) samples, 1 every", err)
    if not h.report(rc == 0 and m and os.path.exists(pdata), "record -g --perf-data: a profile with call chains",
                    short(err)):
        return
    n = int(m.group(1))
    # folded: the three-level chain is there, outermost first, every sample once
    rc, folded, err = h.run(["report", "-i", prof, "--folded"])
    lines = [l.rsplit(" ", 1) for l in folded.splitlines()]
    three = [f for f, c in lines if f.split(";")[-3:] == ["main", "outer", "inner"]]
    h.report(rc == 0 and three and sum(int(c) for _, c in lines) == n and
             all(f.split(";")[-2:] != ["inner", "outer"] for f, _ in lines),
             "report --folded of record -g: 'main;outer;inner N' lines (three frames, outermost first), %d samples" % n,
             short(folded))
    # Children and Self: hpmctl's equal perf report --children's, symbol by symbol
    rc1, hch, _ = h.run(["report", "-i", prof, "--children"])
    rc2, pch, perr = perf(h, ["report", "-i", pdata, "--stdio", "--children", "--sort", "sym", "-g", "none"])
    hrows = {m.group(3): (float(m.group(1)), float(m.group(2)))
             for m in re.finditer(r"^\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)$", hch, re.M)}
    prows = {m.group(3): (float(m.group(1)), float(m.group(2)))
             for m in re.finditer(r"^\s+([\d.]+)%\s+([\d.]+)%\s+\[\.\] (\S+)\s*$", pch, re.M)}
    h.report(rc1 == 0 and rc2 == 0 and hrows and hrows == prows and hrows.get("main", (0,))[0] > 90 and
             hrows["outer"][0] > hrows["outer"][1],
             "report --children: Children and Self of every symbol equal perf report --children's (main %s)" %
             (hrows.get("main"),), "hpmctl %r perf %r %s" % (hrows, prows, short(perr)))
    # the call graph: inner's callers in callee order, in hpmctl and in perf
    rc1, hg, _ = h.run(["report", "-i", prof, "-g", "--no-children"])
    rc2, pg, _ = perf(h, ["report", "-i", pdata, "--stdio", "--no-children", "--sort", "sym", "-g", "callee"])
    mh = re.search(r"^\s+[\d.]+%\s+inner\n(?:\s+\|.*\n)*?\s+(?:[| ]--([\d.]+)%--|---)outer\n\s+\|?\s+main$", hg, re.M)
    mp = re.search(r"^\s+[\d.]+%\s+\[\.\] inner\n(?:\s+\|.*\n)*?\s+(?:[| ]?--([\d.]+)%--|---)outer\n\s+\|?\s+main", pg, re.M)
    h.report(rc1 == 0 and rc2 == 0 and mh and mp and mh.group(1) == mp.group(1),
             "report -g --no-children: under inner's row its callers outer, then main (%s%%), as perf report -g draws them" %
             (mh.group(1) if mh else "?"), short(hg[:600]) + " / " + short(pg[:600]))
    # script: the samples and the symbols of each chain, perf script's
    rc1, hs, _ = h.run(["script", "-i", prof])
    rc2, ps, _ = perf(h, ["script", "-i", pdata])
    hc, pc = chain_syms(hs), chain_syms(ps)
    unaddressed = lambda t: re.sub(r"(?m)^\t *[0-9a-f]+ ", "\t", t)
    h.report(rc1 == 0 and rc2 == 0 and len(hc) == n and unaddressed(hs) == unaddressed(ps) and
             any(fr[:3] == ["inner", "outer", "main"] for _, fr in hc),
             "script of record -g: perf script's text but the callers' addresses (%d samples, board time, chains)" % n,
             "%d vs %d samples; %r / %r" % (len(hc), len(pc), hs[:300], ps[:300]))
    # --time: perf's seconds of board time select the same samples in both
    times = [float(hd[2]) for hd, _ in hc] if hc and len(hc[0][0]) > 2 else []
    if not h.report(len(times) == n and times == sorted(times) and times[0] > 0,
                    "script: the samples' board times, in order", "%r" % times[:5]):
        return
    mid = "%.6f" % ((times[n // 2] + times[n // 2 + 1]) / 2)   # between two samples: no rounding at the edge
    rc1, ht, _ = h.run(["script", "-i", prof, "--time", "," + mid])
    rc2, pt, _ = perf(h, ["script", "-i", pdata, "--time", "," + mid])
    rc3, hf, _ = h.run(["report", "-i", prof, "--folded", "--time", "," + mid])
    kept = chain_syms(ht)
    h.report(rc1 == 0 and rc2 == 0 and rc3 == 0 and kept == chain_syms(pt) and
             len(kept) == sum(1 for t in times if t <= float(mid)) and 0 < len(kept) < n and
             sum(int(l.rsplit(" ", 1)[1]) for l in hf.splitlines()) == len(kept),
             "--time ,%s: script keeps the %d samples up to then, as perf script --time does; report --folded the same" %
             (mid, len(kept)), "%d / %d" % (len(kept), len(chain_syms(pt))))


def tests(h):
    elf = h.cc("perf_calls.c", flags=("-O2", "-g"))
    if not elf:
        return
    prof = os.path.join(h.work, "calls.data")
    pdata = os.path.join(h.work, "calls.perf.data")
    rc, out, err = h.run(SIM + ["record", "-e", "cycles", "-c", "997", "-e", "branches", "-c", "499",
                                "-o", prof, "--perf-data", pdata, elf])
    m = re.findall(r"\((\d+) samples, 1 every", err)
    if not h.report(rc == 0 and os.path.exists(pdata) and len(m) == 2,
                    "record --perf-data: prof.data and perf.data written", short(err)):
        return
    nsamples = sum(int(x) for x in m)

    # ---- perf report: the same symbols and overheads as hpmctl report, per event
    rc1, hout, herr = h.run(["report", "-i", prof, "--no-children"])
    rc2, pout, perr = perf(h, ["report", "-i", pdata, "--stdio", "--no-children", "--sort", "sym", "-n"])
    hrows, hs = hpm_tables(hout)
    prows, ps = perf_tables(pout)
    h.report(rc1 == 0 and rc2 == 0 and hs == ps and set(hs) == {"cycles", "branches"} and hrows == prows
             and "inner" in hrows["cycles"] and len(hrows["cycles"]) >= 3,
             "perf report -i perf.data: per event the samples (%s) and every symbol's overhead equal hpmctl report's" % hs,
             "hpmctl %r / perf %r %s" % (hrows, prows, short(perr)))

    # ---- perf script: one line per sample, and hpmctl script prints the same text
    rc1, pscript, perr = perf(h, ["script", "-i", pdata])
    rc2, hscript, herr = h.run(["script", "-i", prof])
    heads = [l for l in pscript.splitlines() if l.strip() and not l.startswith("\t")]
    h.report(rc1 == 0 and len(heads) == nsamples and all("perf_calls.elf" in l for l in heads),
             "perf script -i perf.data: one line per sample (%d)" % nsamples, "%d lines: %s" % (len(heads), short(perr)))
    h.report(rc2 == 0 and hscript == pscript and len(hscript.splitlines()) == nsamples,
             "hpmctl script: the text of perf script, line for line (%d samples)" % nsamples,
             "hpmctl %r... perf %r..." % (hscript[:200], pscript[:200]))

    # ---- annotate: source lines, the function's own percentages, as perf annotate's
    rc1, hann, herr = h.run(["annotate", "-i", prof, "--stdio", "inner"])
    rc2, pann, perr = perf(h, ["annotate", "-i", pdata, "--stdio", "--objdump=riscv64-unknown-elf-objdump",
                               "-s", "cycles", "inner"])
    hp, pp = annotate_pcts(hann, False), annotate_pcts(pann, True)
    h.report(rc1 == 0 and "the inner loop: most samples" in hann and 99.9 < sum(hp.values()) < 100.1,
             "annotate inner (-g build): source lines between the instructions, percentages of inner's own samples (sum %.2f)"
             % sum(hp.values()), short(hann + herr))
    h.report(rc2 == 0 and hp and hp == pp and "the inner loop: most samples" in pann,
             "perf annotate --objdump=riscv64-unknown-elf-objdump inner: the same percentage at each instruction",
             "hpmctl %r perf %r %s" % (hp, pp, short(perr)))

    # ---- hotspot's parser (hotspot-perfparser, what the GUI runs) reads every
    # sample and names the functions from the ELF; the GUI itself needs a display
    if os.path.exists(PERFPARSER):
        b2 = os.path.join(h.work, "calls.b2qt")
        p = subprocess.run([PERFPARSER, "--input", pdata, "--print-stats"], capture_output=True, text=True,
                           timeout=120)
        st = re.search(r"^samples: (\d+)", p.stdout + p.stderr, re.M)
        q = subprocess.run([PERFPARSER, "--input", pdata, "--output", b2], capture_output=True, text=True,
                           timeout=120)
        stream = open(b2, "rb").read() if os.path.exists(b2) else b""
        h.report(p.returncode == 0 and q.returncode == 0 and st and int(st.group(1)) == nsamples and
                 all(name in stream for name in (b"inner", b"outer", b"solo")),
                 "hotspot-perfparser --input perf.data: all %d samples read, inner/outer/solo named" % nsamples,
                 short(p.stdout + p.stderr + q.stderr))
    else:
        h.report(False, "hotspot (make deps): %s missing" % PERFPARSER)

    # ---- report's views: --sort sym,pc, --children on a flat profile, folded
    rc, bypc, err = h.run(["report", "-i", prof, "--sort", "sym,pc", "-n"])
    rows = re.findall(r"^\s+[\d.]+%\s+(\d+)\s+0x([0-9a-f]{8})\s+(\S+)$", bypc, re.M)
    h.report(rc == 0 and sum(int(r[0]) for r in rows) == nsamples and any(r[2] == "inner" for r in rows),
             "report --sort sym,pc -n: rows per pc with their symbol, every sample once", short(bypc))
    rc, ch, err = h.run(["report", "-i", prof, "--children"])
    crow = re.findall(r"^\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)$", ch, re.M)
    h.report(rc == 0 and crow and all(a == b for a, b, _ in crow),
             "report --children of a flat profile: Children equals Self on every row", short(ch))

    callgraph(h, elf)

    # ---- bad input: one line, exit 1
    bad = os.path.join(h.work, "corrupt.data")
    with open(prof, "rb") as f:
        data = f.read()
    with open(bad, "wb") as f:
        f.write(data[:len(data) - 3])
    moved = os.path.join(h.work, "moved.data")
    gone = os.path.join(h.work, "gone.elf")
    shutil.copy(elf, gone)
    h.run(SIM + ["record", "-c", "5000", "-o", moved, gone])
    os.unlink(gone)
    for args, what in [(["script", "-i", bad], "script of a truncated prof.data"),
                       (["report", "-i", bad, "--to-perf-data", os.path.join(h.work, "x.perf.data")],
                        "report --to-perf-data of a truncated prof.data"),
                       (["report", "-i", moved, "--to-perf-data", os.path.join(h.work, "y.perf.data")],
                        "report --to-perf-data when the program's ELF is gone"),
                       (["report", "-i", prof, "--time", "1,x"], "report --time with a malformed range"),
                       (["report", "-i", prof, "--sort", "sym,dso"], "report --sort with an unknown key")]:
        rc, out, err = h.run(args)
        lines = [l for l in err.splitlines() if l.strip()]
        h.report(rc in (1, 2) and lines and lines[-1].startswith("hpmctl: ") and
                 not os.path.exists(os.path.join(h.work, "x.perf.data")) and
                 not os.path.exists(os.path.join(h.work, "y.perf.data")),
                 "%s: exit %s, one error line: %s" % (what, rc, lines[-1] if lines else ""), short(out + err))
