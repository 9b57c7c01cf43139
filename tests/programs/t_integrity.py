"""A board whose monitor changed never reports a number (issue 30, 2).

An M-mode program (hpmctl --mode m) may write anything, the monitor's code
in the firmware EBR included. integ_patch.c rewrites one word of it: a zero
at 0x100 (the issue's example: every count then read 0) and one bit of a
function that stat never runs (the counts would stay right: only the
checksum can tell). The board must outlive one hpmctl, so it is hpm-sim
behind a pseudo-terminal (tests/link/faultproxy at rate 0, the tty link):
the patching run itself, then stat, validate and record on the same board
refuse with one line and a non-zero exit, printing no count; a new board
is exact again (its counts equal the reference board's). On --link sim and
ref (a board per command) the patching run itself is refused alike.

The expected checksum is recomputed here from the installed monitor.elf
(docs/monitor.md "Integrity": word[i] x 3^i mod 2^32 below
__monitor_sum_end), and the refused board's checksum must be that of the
image with the patched word: the monitor sums exactly what it documents.
"""
import os
import re
import shutil
import subprocess
import tempfile

from harness import short

REFUSAL = re.compile(r"^hpmctl: the board's monitor was modified \(checksum 0x([0-9a-f]{8}), "
                     r"expected 0x([0-9a-f]{8})\): reset or reflash the board$")
# functions stat, validate and record never run (the first one the build kept)
RARE = ("cmd_snapshot", "counter_written", "cmd_reset", "cmd_stream")


def monitor_image(h):
    """(words of the EBR image, __monitor_sum_end, {symbol: address}) of the
    installed monitor, or None after a FAIL."""
    elf = os.path.join(h.prefix, "share", "hpm-overlay", "fw", "monitor.elf")
    nm = shutil.which("riscv64-unknown-elf-nm", path=h.env["PATH"])
    objcopy = shutil.which("riscv64-unknown-elf-objcopy", path=h.env["PATH"])
    if not (os.path.exists(elf) and nm and objcopy):
        h.report(False, "integrity: the installed monitor.elf and binutils", "%s %s %s" % (elf, nm, objcopy))
        return None
    syms = {}
    for line in subprocess.run([nm, elf], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3:
            syms[f[2]] = int(f[0], 16)
    with tempfile.NamedTemporaryFile(suffix=".bin") as t:
        subprocess.run([objcopy, "-O", "binary", "-j", ".text", "-j", ".rodata", elf, t.name], check=True)
        data = open(t.name, "rb").read()
    end = syms.get("__monitor_sum_end")
    if end is None or end > len(data) + 3:
        h.report(False, "integrity: __monitor_sum_end in the installed monitor.elf", "end %r, %d bytes" % (end, len(data)))
        return None
    data = data.ljust(end, b"\0")
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, end, 4)], end, syms


def monitor_sum(words):
    s = 0
    for w in reversed(words):
        s = (3 * s + w) & 0xFFFFFFFF
    return s


def on_tty_board(h, cmds, limit=600):
    """Runs hpmctl commands one after the other on one simulated board (the
    installed hpm-sim behind a pty, --link tty:). Returns [(rc, out, err)]."""
    d = tempfile.mkdtemp(prefix="integ-", dir=h.out)
    script = "; ".join("%s --link tty:@PTY@ %s > %s/out%d 2> %s/err%d; echo $? > %s/rc%d"
                       % (h.bin("hpmctl"), c, d, i, d, i, d, i) for i, c in enumerate(cmds))
    env = dict(h.env, HPM_SIM=h.bin("hpm-sim"))
    subprocess.run([os.path.join(h.build, "tests", "faultproxy"), "--rate", "0", "--timeout", str(limit), "--",
                    "sh", "-c", script], cwd=h.work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=limit + 60)
    res = []
    for i in range(len(cmds)):
        def rd(n):
            p = os.path.join(d, "%s%d" % (n, i))
            return open(p).read() if os.path.exists(p) else ""
        rc = rd("rc").strip()
        res.append((int(rc) if rc.isdigit() else None, rd("out"), rd("err")))
    return res


def counts(text):
    """{event: value} of stat -x , output."""
    out = {}
    for line in text.splitlines():
        f = line.split(",")
        if len(f) >= 3 and f[0].isdigit():
            out[f[2]] = int(f[0])
    return out


def refused(res, allow_out=False):
    """(the reported checksum, None) if the command was refused with the one
    line and printed no count, else (None, why)."""
    rc, out, err = res
    lines = [l for l in err.splitlines() if l.strip()]
    m = REFUSAL.match(lines[-1]) if lines else None
    if rc in (0, None) or not m or len(lines) != 1 or (out.strip() and not allow_out) \
            or re.search(r"\b(cycles|instructions|OK|MISMATCH)\b", out + err.replace(lines[-1], "")):
        return None, "exit %s, stdout %s, stderr %s" % (rc, short(out), short(err))
    return int(m.group(1), 16), int(m.group(2), 16)


def tests(h):
    if not os.path.exists(os.path.join(h.build, "tests", "faultproxy")):
        h.report(False, "integrity: build/tests/faultproxy (make test-build)")
        return
    patch = h.cc("integ_patch.c")
    img = monitor_image(h)
    if not patch or not img:
        return
    words, end, syms = img
    expected = monitor_sum(words)
    ev = "cycles,instructions,loads,stores"
    rc, out, err = h.run(["--link", "ref", "stat", "-x", ",", "-e", ev, "crc"])
    want = counts(err + out) if rc == 0 else {}
    if not h.report(len(want) == 4, "integrity: reference counts of crc", "exit %s %s" % (rc, short(err))):
        return
    rare = next((n for n in RARE if n in syms), None)
    variants = [("a zero stored at 0x100", 0x100, "zero")]
    if h.report(rare is not None, "integrity: a function stat never runs in the installed monitor (%s)" % (rare,),
                "none of %s in its symbols" % (RARE,)):
        variants.append(("bit 20 flipped in %s (a function stat never runs)" % rare, syms[rare] + 4, "flip"))
    for what, addr, how in variants:
        patched = list(words)
        patched[addr // 4] = 0 if how == "zero" else patched[addr // 4] ^ (1 << 20)
        bad = monitor_sum(patched)
        res = on_tty_board(h, ["stat -x , -e %s crc" % ev,
                               "stat --mode m -e cycles -- %s 0x%x %s" % (patch, addr, how),
                               "stat -x , -e %s crc" % ev,
                               "validate -e cycles crc",
                               "record -e cycles -c 10000 -o %s/integ-%s.data crc" % (h.work, how)])
        rc, out, err = res[0]
        h.report(rc == 0 and counts(err + out) == want,
                 "integrity: %s: before it, the board counts crc as the reference board" % what,
                 "exit %s, %s, want %s %s" % (rc, counts(err + out), want, short(err)))
        got, exp = refused(res[1], allow_out=True)
        h.report(got == bad and exp == expected and "0x%08x:" % addr in res[1][1],
                 "integrity: %s by an M-mode program: its own run is refused (checksum 0x%08x, expected 0x%08x), no count"
                 % (what, bad, expected), exp if got is None else "reported 0x%08x expected 0x%08x" % (got, exp))
        for i, cmd in ((2, "stat"), (3, "validate"), (4, "record")):
            got, exp = refused(res[i])
            h.report(got == bad and exp == expected,
                     "integrity: %s: the next %s on the same board refuses in one line, exit %s, no count"
                     % (what, cmd, res[i][0]), exp if got is None else "reported 0x%08x" % got)
        h.report(not os.path.exists(os.path.join(h.work, "integ-%s.data" % how)),
                 "integrity: %s: record wrote no profile" % what)
    # the reference board runs the same monitor: the same sum of the same patched image
    words0 = list(words)
    words0[0x100 // 4] = 0
    for link in ("sim", "ref"):
        got, exp = refused(h.run(["--link", link, "stat", "--mode", "m", "-e", "cycles", "--", patch, "0x100", "zero"]),
                           allow_out=True)
        h.report(got == monitor_sum(words0) and exp == expected,
                 "integrity: --link %s: the patching run refused with the patched image's checksum 0x%08x"
                 % (link, monitor_sum(words0)), exp if got is None else "reported 0x%08x" % got)
    res = on_tty_board(h, ["stat -x , -e %s crc" % ev])
    rc, out, err = res[0]
    h.report(rc == 0 and counts(err + out) == want,
             "integrity: a new board (the monitor as built) counts crc as the reference board",
             "exit %s, %s, want %s %s" % (rc, counts(err + out), want, short(err)))
