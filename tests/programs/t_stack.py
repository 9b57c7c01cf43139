"""Call stacks (issue 32): hpmctl record -g walks the program's frame-pointer
chain at every sample (docs/monitor.md "Call stacks"). The simulated board's
profile equals the reference board's byte for byte (every sample's pc, time
and return addresses), the stacks name the callers the programs were written
with (a three-level chain, a recursion deeper than the 16 kept), a corrupt
frame pointer ends the stack where it points outside the program's RAM and
the board goes on exactly; -F FREQ samples cycles every clock/FREQ cycles.
"""
import json
import os
import struct
import subprocess

from harness import PtyBoard, short

LIMIT = 300                   # s: each run takes seconds; a hang is a failure
EPOCH = {"SOURCE_DATE_EPOCH": "1"}   # the profile's own time: files compare whole


def samples(path):
    """prof.data version 3 (docs/hpmctl.md "prof.data"): [(pc, time, [ret...])]."""
    b = open(path, "rb").read()
    if b[:8] != b"HPMPROF\0" or struct.unpack_from("<I", b, 8)[0] != 3:
        return None
    nev, ns = struct.unpack_from("<II", b, 32)
    off = 40

    def skip_str(off):
        return off + 2 + struct.unpack_from("<H", b, off)[0]
    off = skip_str(skip_str(off) + 16)
    for _ in range(nev):
        off = skip_str(off + 16)
    out = []
    for _ in range(ns):
        pc, _ev, _mode, nst = struct.unpack_from("<IBBB", b, off)
        t = struct.unpack_from("<Q", b, off + 8)[0]
        out.append((pc, t, list(struct.unpack_from("<%dI" % nst, b, off + 16))))
        off += 16 + 4 * nst
    return out


def symbols(elf):
    """[(start, end, name)] of the ELF's functions from nm (a symbol without
    a size ends at the next one; gcc's .constprop/.isra suffixes dropped)."""
    out = subprocess.run(["riscv64-unknown-elf-nm", "-S", "-n", elf], capture_output=True, text=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) in (3, 4) and f[-2] in "tTwW":
            size = int(f[1], 16) if len(f) == 4 else None
            syms.append([int(f[0], 16), size, f[-1].split(".")[0]])
    for i, sym in enumerate(syms):
        if sym[1] is None:
            sym[1] = syms[i + 1][0] - sym[0] if i + 1 < len(syms) else 0
    return [(a, a + n, name) for a, n, name in syms]


def name_of(syms, addr):
    for a, e, n in syms:
        if a <= addr < e:
            return n
    return "?"


def record(h, link, target, out, extra=()):
    args = ([] if link == "sim" else ["--link", link]) + ["record", "-g"] + list(extra) + ["-o", out, target]
    return h.run(args, env=EPOCH, timeout=LIMIT)


def same_on_both(h, what, target, period, stacks=True):
    """record -g on sim and ref: the samples if the files are equal (and,
    with stacks, some sample has a call chain), else None after a FAIL."""
    sim, ref = os.path.join(h.work, what + ".sim.data"), os.path.join(h.work, what + ".ref.data")
    rs, _, es = record(h, "sim", target, sim, ["-c", str(period)])
    rr, _, er = record(h, "ref", target, ref, ["-c", str(period)])
    ss = samples(sim) if rs == 0 else None
    sr = samples(ref) if rr == 0 else None
    same = ss is not None and ss == sr and open(sim, "rb").read() == open(ref, "rb").read()
    deep = ss is not None and (any(s[2] for s in ss) or not stacks)
    h.report(same and deep and len(ss) >= 10,
             "stack: record -g -c %d %s: %d samples%s, equal on sim and ref (pc, time, stack)"
             % (period, what, len(ss or []), " with call chains" if stacks else ""),
             "sim exit %s %s; ref exit %s %s; %s" % (rs, short(es, 200), rr, short(er, 200),
                                                  "differ" if ss != sr else "no stacks"))
    return ss if same else None


def check_chain(h, elf, ss):
    syms = symbols(elf)
    want = ["middle", "outer", "main", "_start"]
    inner = [s for s in ss if name_of(syms, s[0]) == "inner"]
    good = [s for s in inner if [name_of(syms, a) for a in s[2]] == want]
    times = [s[1] for s in ss]
    h.report(len(inner) >= 0.9 * len(ss) and len(good) >= 0.9 * len(inner) and
             times == sorted(times) and len(set(times)) == len(times),
             "stack: stack_chain: %d of %d samples in inner, %d of them with the chain middle, outer, main, "
             "_start; times increasing" % (len(inner), len(ss), len(good)),
             "first stacks: %s" % [(name_of(syms, s[0]), [name_of(syms, a) for a in s[2]]) for s in ss[:4]])


def check_rec(h, elf, ss):
    syms = symbols(elf)
    depths, ok = [], True
    for pc, _t, st in ss:
        if name_of(syms, pc) != "rec":
            continue
        names = [name_of(syms, a) for a in st]
        k = 0
        while k < len(names) and names[k] == "rec":
            k += 1
        # rec's own callers, then main and _start, unless cut at 16
        tail = ["main", "_start"] if len(names) < 16 else ["main", "_start"][:16 - k]
        ok &= names[k:] == tail
        depths.append(k)
    h.report(ok and len(depths) >= 0.9 * len(ss) and depths == sorted(depths) and
             depths and depths[0] <= 1 and depths[-1] == 16,
             "stack: stack_rec: %d samples in rec, recursion depth 0..16 non-decreasing over time, "
             "cut at 16 return addresses" % len(depths),
             "depths %s" % depths)


def check_leaf_main(h, elf, ss):
    syms = symbols(elf)
    inmain = [s for s in ss if name_of(syms, s[0]) == "main"]
    bad = [[name_of(syms, a) if name_of(syms, a) != "?" else "0x%x" % a for a in s[2]]
           for s in inmain if [name_of(syms, a) for a in s[2]] != ["_start"]]
    h.report(len(inmain) >= 0.9 * len(ss) and not bad,
             "stack: stack_leafmain: %d samples in a leaf main, each with the one caller _start "
             "(the start-up's s0 = 0 ends the chain)" % len(inmain),
             "%d of %d samples in main; wrong stacks %s" % (len(inmain), len(ss), bad[:4]))


def check_corrupt(h, elf, ss):
    syms = symbols(elf)
    want = {"spin_odd": [], "spin_monram": [], "spin_low": [], "spin_loop": ["0x1234"],
            "good": ["main", "_start"]}
    seen, bad = {}, []
    for pc, _t, st in ss:
        f = name_of(syms, pc)
        got = ["0x%x" % a if name_of(syms, a) == "?" else name_of(syms, a) for a in st]
        if f in want:
            seen[f] = seen.get(f, 0) + 1
            if got != want[f]:
                bad.append((f, got))
    h.report(not bad and all(seen.get(f, 0) >= 3 for f in want),
             "stack: stack_corrupt: s0 misaligned, above or below the RAM gives no stack, a frame "
             "pointing to itself one address, the good chain after it main, _start",
             "samples per function %s, wrong %s" % (seen, bad[:4]))


def check_survives(h, elf, chain, exact):
    """One hpm-sim board: record -g of the corrupt program, then stat crc
    and record -g of stack_chain exactly as on the reference board."""
    board = PtyBoard(h.bin("hpm-sim"))
    tty_data = os.path.join(h.work, "chain.tty.data")
    try:
        r1, _, e1 = h.run(board.link() + ["record", "-g", "-c", "1000", "-o", "corrupt.tty.data", elf],
                          env=EPOCH, timeout=LIMIT)
        r2, _, e2 = h.run(board.link() + ["stat", "-x,", "crc"], timeout=LIMIT)
        r3, _, e3 = h.run(board.link() + ["record", "-g", "-c", "1000", "-o", tty_data, chain],
                          env=EPOCH, timeout=LIMIT)
    finally:
        board.close()
    counts = "\n".join(l for l in e2.splitlines() if l[:1].isdigit())
    ref_chain = samples(os.path.join(h.work, "stack_chain.ref.data"))
    h.report(r1 == 0 and r2 == 0 and counts == exact and r3 == 0 and samples(tty_data) == ref_chain,
             "stack: on one hpm-sim board, after the corrupt chains, stat crc and record -g stack_chain "
             "are exactly the reference board's",
             "record exit %s %s; stat exit %s %s (want %s); chain exit %s %s"
             % (r1, short(e1, 200), r2, short(e2, 200), short(exact, 200), r3, short(e3, 200)))


def check_options(h, chain):
    """perf's spellings: --call-graph fp, dwarf and lbr refused, -F/-c."""
    info = json.loads(h.run(["--link", "ref", "info", "--json"], timeout=LIMIT)[1] or "{}")
    hz = info.get("clock-hz", 0)
    for mode, why in (("dwarf", "DWARF"), ("lbr", "last-branch")):
        rc, out, err = h.run(["--link", "ref", "record", "--call-graph", mode, chain], timeout=LIMIT)
        h.report(rc == 2 and why in err and len(err.strip().splitlines()) == 1 and not out,
                 "stack: record --call-graph %s is refused with a one-line reason" % mode,
                 "exit %s: %s" % (rc, short(err)))
    rc, _, err = h.run(["--link", "ref", "record", "-F", "1000", "-c", "5000", chain], timeout=LIMIT)
    h.report(rc == 2 and "exclusive" in err, "stack: record -F with -c is refused (one or the other)",
             "exit %s: %s" % (rc, short(err)))
    rc, _, err = h.run(["--link", "ref", "record", "-F", "1000", "-e", "instructions", chain], timeout=LIMIT)
    h.report(rc == 2 and "cycles only" in err, "stack: record -F of instructions is refused (cycles only)",
             "exit %s: %s" % (rc, short(err)))
    rc, _, err = h.run(["--link", "ref", "record", "-F", str(hz // 255 + 1), chain], timeout=LIMIT)
    h.report(rc != 0 and "at most %d samples per second" % (hz // 256) in err,
             "stack: record -F above clock/256 is refused with the board's limit",
             "exit %s: %s" % (rc, short(err)))
    for args, freq, g in ((["-F", "1000"], 1000, False), (["-F", "3000", "-g"], 3000, True),
                          (["-g"], 4000, True)):
        out = os.path.join(h.work, "freq.data")
        rc, _, err = h.run(["--link", "ref", "record"] + args + ["-o", out, chain], timeout=LIMIT)
        period = (hz + freq // 2) // freq
        ss = samples(out) if rc == 0 else None
        cyc = [l for l in err.splitlines() if "cycles" in l and "samples, 1 every" in l]
        # a sample's time is mcycle at the monitor's entry: the overflow
        # every period cycles, plus a skid of a few cycles
        gaps = [b[1] - a[1] for a, b in zip(ss or [], (ss or [])[1:])]
        h.report(ss is not None and cyc and ("1 every %d)" % period) in cyc[0] and len(ss) >= 5 and
                 all(bool(s[2]) == g for s in ss) and all(abs(d - period) <= 16 for d in gaps) and
                 abs(ss[-1][1] - ss[0][1] - (len(ss) - 1) * period) <= 16,
                 "stack: record %s samples cycles every clock/%d = %d cycles%s" %
                 (" ".join(args), freq, period, ", with stacks" if g else ", without stacks"),
                 "exit %s: %s; gaps %s" % (rc, short(err), gaps[:8]))


def tests(h):
    rc, _, err = h.run(["--link", "ref", "stat", "-x,", "crc"], timeout=LIMIT)
    exact = "\n".join(l for l in err.splitlines() if l[:1].isdigit())
    if not h.report(rc == 0 and exact, "stack: crc on the reference board (the exact counts)", short(err)):
        return
    # each program: its sampling period and what its stacks must show
    programs = (("stack_chain", 1000, check_chain), ("stack_rec", 2000, check_rec),
                ("stack_leafmain", 1000, check_leaf_main), ("stack_corrupt", 1000, check_corrupt))
    elfs = {n: h.cc(n + ".c") for n, _, _ in programs}
    if not all(elfs.values()):
        return
    for name, period, check in programs:
        ss = same_on_both(h, name, elfs[name], period)
        if ss:
            check(h, elfs[name], ss)
    # a workload built without frame pointers: whatever its s0 holds, the
    # same stacks on both boards
    same_on_both(h, "matmul", "matmul", 5000, stacks=False)
    check_survives(h, elfs["stack_corrupt"], elfs["stack_chain"], exact)
    check_options(h, elfs["stack_chain"])
