#!/usr/bin/env python3
"""hpmctl through the network links (tcp:HOST:PORT, rfc2217:HOST:PORT) to a
real ser2net on this machine, and the labgrid test module on it.

The simulated board (hpm-sim) runs on a pseudo-terminal that outlives every
session; ser2net (4.x, a YAML configuration written here) exports it twice,
raw and telnet with RFC 2217, on free ports of localhost, and a third time
on the port of lab/env-local.yaml for lab/test_board.py. Every count is
compared with the reference board's (--link ref) and with the tty link to
the same board. Prints one line per check, "PASS what" or "FAIL what: why"
(tests/run.sh, suite net).

  tests/net/test_net.py [--build DIR] [--only NAME,...]
"""
import csv
import io
import os
import pty
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
import tty
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checklib import one_line_error, report, short, suite_setup  # noqa: E402

ROOT, ARGS, BUILD, OUT = suite_setup(__file__, "net")
HPMCTL = os.path.join(BUILD, "bin", "hpmctl")
SIM_EXE = os.path.join(BUILD, "bin", "hpm-sim")
FAULT_SIM = os.environ.get("HPM_SIM_FAULT") or os.path.join(BUILD, "bin", "hpm-sim-fault")
JUNIT_XSD = os.path.join(ROOT, "tests", "cli", "junit.xsd")
MERGE = os.path.join(ROOT, "tools", "junit_merge.py")
LAB_ENV = os.path.join(ROOT, "lab", "env-local.yaml")
LAB_PORT = int(re.search(r"^\s+port:\s*(\d+)", open(LAB_ENV).read(), re.M).group(1))

ENV = dict(os.environ)
ENV.pop("HPM_LINK", None)
ENV["MAKEFLAGS"] = re.sub(r" ?--jobserver-(auth|fds)=\S+", "", ENV.get("MAKEFLAGS", ""))


LAST = [None]      # the board's link of the last session


def settle(args):
    """ser2net frees the board's device a few milliseconds after its client
    left: a session through another of its ports (or the tty) waits a
    little first. Returns the link."""
    link = args[1] if len(args) > 1 and args[0] == "--link" else None
    if link in LINKS.values():
        if LAST[0] not in (None, link):
            time.sleep(0.3)
        LAST[0] = link
    return link


def run(args, env=None, timeout=600):
    link = settle(args)
    for wait in (1, 2, 0):
        p = subprocess.run([HPMCTL] + args, cwd=ROOT, env=env or ENV, capture_output=True, text=True, timeout=timeout)
        # still closing the last session's device (a loaded machine): again
        if not wait or link is None or "Port's device already in use" not in p.stderr or HOLDING[0]:
            break
        time.sleep(wait)
    return p.returncode, p.stdout, p.stderr


def split_trace(err):
    """stderr with HPM_LINK_TRACE: (the other lines, damaged frames in total)."""
    rest, damaged = [], 0
    for line in err.splitlines(True):
        m = re.match(r"link-trace: .* (\d+) damaged", line)
        if m:
            damaged += int(m.group(1))
        elif not line.startswith("link-trace:"):
            rest.append(line)
    return "".join(rest), damaged


def free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def listening(port):
    """True once something listens on TCP port (IPv4 or IPv6)."""
    for f in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            for line in open(f).readlines()[1:]:
                local, state = line.split()[1], line.split()[3]
                if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:
                    return True
        except OSError:
            pass
    return False


def remember(name, pid):
    """Notes a child's pid, so that a later run ends it if this one is
    killed before it could (leftovers)."""
    with open(os.path.join(OUT, name + ".pid"), "w") as f:
        f.write("%d %s\n" % (pid, open("/proc/%d/cmdline" % pid).read().split("\0")[0]))


def leftovers():
    """Ends the board and ser2net an earlier run left (killed itself): each
    pid of ours whose process still runs the same program."""
    for name in ("ser2net", "board"):
        try:
            pid, exe = open(os.path.join(OUT, name + ".pid")).read().split()
            if open("/proc/%s/cmdline" % pid).read().split("\0")[0] == exe:
                os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError):
            pass


class Board:
    """The simulated board on a pseudo-terminal's master side; the slave
    stays open here, so the board sees no hang-up between sessions."""

    def __init__(self):
        master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.proc = subprocess.Popen([SIM_EXE], stdin=master, stdout=master, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        remember("board", self.proc.pid)
        os.close(master)

    def close(self):
        self.proc.kill()
        self.proc.wait()
        os.close(self.slave)


class Ser2net:
    """ser2net exporting the board's pseudo-terminal: raw on self.raw, telnet
    with RFC 2217 on self.telnet and on the labgrid environment's port."""

    def __init__(self, board):
        self.exe = shutil.which("ser2net") or "/usr/sbin/ser2net"
        self.raw, self.telnet = free_port(), free_port()
        self.conf = os.path.join(OUT, "ser2net.yaml")
        dev = "serialdev,%s,1500000n81,local" % board.path
        with open(self.conf, "w") as f:
            f.write("%%YAML 1.1\n---\n"
                    "connection: &raw\n  accepter: tcp,localhost,%d\n  connector: %s\n"
                    "connection: &rfc2217\n  accepter: telnet(rfc2217),tcp,localhost,%d\n  connector: %s\n"
                    "connection: &labgrid\n  accepter: telnet(rfc2217),tcp,localhost,%d\n  connector: %s\n"
                    % (self.raw, dev, self.telnet, dev, LAB_PORT, dev))
        self.proc = None
        self.why = None

    def start(self):
        """True once every port listens; else self.why says why."""
        if not os.path.exists(self.exe):
            self.why = "ser2net is not installed (make deps)"
            return False
        if listening(LAB_PORT):
            self.why = "port %d of %s is taken by another program" % (LAB_PORT, os.path.relpath(LAB_ENV, ROOT))
            return False
        self.log = open(os.path.join(OUT, "ser2net.log"), "a")
        self.proc = subprocess.Popen([self.exe, "-n", "-d", "-c", self.conf],
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        remember("ser2net", self.proc.pid)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.proc.poll() is None:
            if all(listening(p) for p in (self.raw, self.telnet, LAB_PORT)):
                return True
            time.sleep(0.05)
        self.why = "ser2net did not listen on %d, %d, %d (exit %s, log %s)" % (
            self.raw, self.telnet, LAB_PORT, self.proc.poll(), self.log.name)
        self.stop()
        return False

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


BOARD = SER = None
LINKS = {}
HOLDING = [False]  # a client of ours holds the board's port on purpose


def counts_equal(what, args, links=("tty", "tcp", "rfc2217")):
    """args (a stat printing CSV counts on stderr) through each link: the
    reference board's counts; on the network links no damaged frame."""
    rc, out, ref = run(["--link", "ref"] + args)
    if rc != 0 or not ref.strip():
        return report(False, what + ": the reference board", "exit %d: %s" % (rc, short(ref)))
    for name in links:
        rc, out, err = run(["--link", LINKS[name]] + args, env=dict(ENV, HPM_LINK_TRACE="1"))
        got, damaged = split_trace(err)
        report(rc == 0 and out == "" and got == ref and damaged == 0,
               "%s through %s: %d counts equal to the reference board's%s" % (
                   what, LINKS[name], len(ref.splitlines()), ", no damaged frame" if name != "tty" else ""),
               "exit %d, damaged %d, stdout %r, stderr %s (reference %s)" % (rc, damaged, out[:100], short(got), short(ref)))


def stat():
    counts_equal("stat -x, crc --size 4096 (9 events)",
                 ["stat", "-x,", "-e", "cycles,instructions,loads,stores,branches,branch-misses,mul,div,"
                  "mem-stall-cycles", "--size", "4096", "crc"])


def escape():
    """Byte 0xFF both ways through rfc2217 (telnet doubles it): a CSR
    written with all ones reads back all ones, no damaged frame."""
    for value in ("0xffffffff", "0x00ff00ff"):
        rc, out, err = run(["--link", LINKS["rfc2217"], "csr", "write", "mhpmcounter3", value],
                           env=dict(ENV, HPM_LINK_TRACE="1"))
        rest, damaged = split_trace(err)
        report(rc == 0 and ("new %s" % value) in out and damaged == 0 and rest == "",
               "rfc2217: csr write mhpmcounter3 %s: byte 0xFF escaped both ways, the value read back, no damaged frame"
               % value, "exit %d, damaged %d: %s | %s" % (rc, damaged, short(out), short(rest)))


def record():
    """record -c (a sampling profile) through tcp and rfc2217: prof.data
    equal to the reference board's, byte for byte."""
    args = ["record", "-e", "cycles", "-c", "997", "-e", "branches", "-c", "300", "-e", "instructions",
            "--size", "512", "sort"]
    env = dict(ENV, SOURCE_DATE_EPOCH="1700000000")
    files = {}
    for name, link in [("ref", "ref")] + [(n, LINKS[n]) for n in ("tcp", "rfc2217")]:
        f = os.path.join(OUT, "prof-%s.data" % name)
        if os.path.exists(f):
            os.unlink(f)
        rc, out, err = run(["--link", link] + args + ["-o", f], env=env)
        files[name] = open(f, "rb").read() if rc == 0 and os.path.exists(f) else None
        if name != "ref":
            report(files[name] is not None and files[name] == files["ref"] and len(files[name]) > 200,
                   "record -c sort through %s: prof.data (%d bytes) equal to the reference board's" % (
                       link, len(files[name] or b"")),
                   "exit %d, %s bytes vs %s: %s" % (rc, len(files[name] or b""), len(files["ref"] or b""), short(err)))


def validate():
    """validate crc mul through tcp and rfc2217: every event equal, the
    JUnit report names the link (kept for the merge check)."""
    for name in ("tcp", "rfc2217"):
        path = os.path.join(OUT, "validate-%s.xml" % name)
        rc, out, err = run(["--link", LINKS[name], "validate", "crc", "mul", "--junit", path,
                            "--junit-property", "board.serial=SIM-%s" % name.upper()])
        props = {}
        if os.path.exists(path):
            props = {q.get("name"): q.get("value") for q in ET.parse(path).findall("testsuite/properties/property")}
        report(rc == 0 and "validate: 2 workloads: 2 OK, 0 MISMATCH, 0 failed to run" in err
               and props.get("board.link") == LINKS[name],
               "validate crc mul through %s: 2 OK, the JUnit report's board.link is the link" % LINKS[name],
               "exit %d, properties %s: %s" % (rc, props.get("board.link"), short(err)))


def run_until(args, ready, limit=300):
    """hpmctl args; once ready(stderr so far) holds, returns the process and
    what it printed so far (stdout, stderr), else None."""
    settle(args)
    p = subprocess.Popen([HPMCTL] + args, cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = b"", b""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and p.poll() is None:
        for fd in select.select([p.stdout, p.stderr], [], [], 0.1)[0]:
            data = os.read(fd.fileno(), 65536)
            if fd is p.stdout:
                out += data
            else:
                err += data
        if ready(err.decode(errors="replace")):
            return p, out, err
    return None, out, err


def finish(p, out, err, limit=300):
    o, e = p.communicate(timeout=limit)
    return p.returncode, (out + o).decode(errors="replace"), (err + e).decode(errors="replace")


STOP_EV = "cycles,instructions,branches"          # stat -I that is cut short
STOP_WL = ["--size", "1000000", "alu"]
NEXT_STAT = ["stat", "-x", ",", "-e", "cycles,instructions", "--size", "2000", "alu"]


def reference_rows():
    """The reference board's rows of the long stat -I that drop() and
    interrupt() cut short, and its counts of the next, small stat."""
    rc, _, ref = run(["--link", "ref", "stat", "-I", "1", "-x", ",", "-e", STOP_EV] + STOP_WL)
    small = run(["--link", "ref"] + NEXT_STAT)[2]
    return rc, [r for r in csv.reader(io.StringIO(ref)) if r], small


def drop():
    """The connection dropped in the middle of stat -I (ser2net restarted):
    one line saying so, exit 1, every row printed before it the reference
    board's; the next stat on a new connection exact, after it aborted the
    run the dropped session left on the board."""
    rc, ref_rows, small = reference_rows()
    if rc != 0 or len(ref_rows) < 300:
        report(False, "drop: the reference board's stat -I", "exit %d, %d rows" % (rc, len(ref_rows)))
        return
    for name in ("tcp", "rfc2217"):
        link = LINKS[name]
        p, out, err = run_until(["--link", link, "stat", "-I", "1", "-x", ",", "-e", STOP_EV] + STOP_WL,
                                lambda e: e.count("\n") >= 30)
        if p is None:
            report(False, "%s: connection dropped mid-run" % link, "no 10 intervals: %s" % short(err.decode()))
            continue
        SER.stop()
        rc, out, err = finish(p, out, err)
        lines = err.splitlines()
        msgs = [l for l in lines if l.startswith("hpmctl:")]
        rows = [r for r in csv.reader(io.StringIO("\n".join(l for l in lines if not l.startswith("hpmctl:")))) if r]
        started = SER.start()
        rc2, out2, err2 = run(["--link", link] + NEXT_STAT)
        want = "hpmctl: %s: the connection was closed by the server" % link
        report(rc == 1 and out == "" and len(msgs) == 1 and msgs[0].startswith(want)
               and 30 <= len(rows) < len(ref_rows) and len(rows) % 3 == 0
               and rows == ref_rows[:len(rows)] and started and rc2 == 0 and err2 == small,
               "%s: connection dropped during stat -I (ser2net restarted): exit 1, one line '%s', the %d intervals "
               "printed before it the reference board's; the next stat on a new connection exact" % (
                   link, msgs[0][8:] if len(msgs) == 1 else want[8:], len(rows) // 3),
               "exit %d, messages %s, %d rows (ref %d), first differing %s, ser2net back %s (%s); next: exit %d %s" % (
                   rc, msgs, len(rows), len(ref_rows),
                   next((i for i, (a, b) in enumerate(zip(rows, ref_rows)) if a != b), None), started, SER.why,
                   rc2, short(err2)))


def interrupt():
    """Ctrl-C through rfc2217 during stat -I: the run is aborted on the board
    at its next tick, the rows printed are the reference board's, hpmctl
    dies of SIGINT; the next stat exact."""
    rc, ref_rows, small = reference_rows()
    link = LINKS["rfc2217"]
    p, out, err = run_until(["--link", link, "stat", "-I", "1", "-x", ",", "-e", STOP_EV] + STOP_WL,
                            lambda e: e.count("\n") >= 30)
    if p is None:
        report(False, "%s: Ctrl-C during stat -I" % link, "no 10 intervals: %s" % short(err.decode()))
        return
    p.send_signal(signal.SIGINT)
    rc, out, err = finish(p, out, err)
    rows = [r for r in csv.reader(io.StringIO("\n".join(l for l in err.splitlines() if not l.startswith("hpmctl:"))))
            if r]
    rc2, out2, err2 = run(["--link", link] + NEXT_STAT)
    report(rc == -signal.SIGINT and out == "" and 30 <= len(rows) < len(ref_rows) - 30 and rows == ref_rows[:len(rows)]
           and "stopping the run at its next tick" in err and rc2 == 0 and err2 == small,
           "%s: Ctrl-C during stat -I: %d intervals, each the reference board's, the run aborted on the board, "
           "SIGINT; the next stat exact" % (link, len(rows) // 3),
           "exit %s, %d rows (ref %d): %s; next: exit %d %s" % (rc, len(rows), len(ref_rows), short(err), rc2, short(err2)))


def errors():
    """One line and the exit status for each way a network link fails."""
    closed = free_port()
    cases = [(["--link", "tcp:localhost:%d" % closed, "info"], 1, "hpmctl: tcp:localhost:%d: connection refused" % closed),
             (["--link", "rfc2217:127.0.0.1:%d" % closed, "info"], 1, "connection refused"),
             (["--link", "tcp:nosuchhost.invalid:2000", "info"], 1, "unknown host 'nosuchhost.invalid'")]
    for spec, why in [("tcp:localhost", "expected tcp:HOST:PORT"), ("rfc2217:localhost:0", "1..65535"),
                      ("tcp:localhost:65536", "1..65535"), ("tcp::2000", "no host"), ("tcp:::1:2000", "in brackets"),
                      ("rfc2217:[::1]2000", "expected rfc2217:[ADDRESS]:PORT"), ("tcp:host:20x", "1..65535"),
                      ("udp:localhost:2000", "unknown link")]:
        cases.append((["--link", spec, "stat", "alu"], 2, why))
    for args, code, want in cases:
        t0 = time.monotonic()
        rc, out, err = run(args, timeout=120)
        why = one_line_error(rc, out, err, code)
        if why is None and want not in err:
            why = "stderr %r lacks %r" % (err.strip(), want)
        report(why is None, "%s: exit %d, one line: %s (%.1f s)" % (" ".join(args), code, err.strip(), time.monotonic() - t0),
               why)
    # the port held by another client: ser2net says so and closes
    settle(["--link", LINKS["tcp"]])
    with socket.create_connection(("localhost", SER.raw)) as holder:
        HOLDING[0] = True
        time.sleep(0.2)
        for name, said in (("tcp", "Port already in use"), ("rfc2217", "Port's device already in use")):
            rc, out, err = run(["--link", LINKS[name], "info"], timeout=120)
            want = 'hpmctl: %s: refused by the server: "%s" (another client holds the port)' % (LINKS[name], said)
            why = one_line_error(rc, out, err, 1)
            if why is None and err.strip() != want:
                why = "stderr %r, want %r" % (err.strip(), want)
            report(why is None, "%s while another client holds the board's port: exit 1, one line: %s" % (
                LINKS[name], err.strip()), why)
        holder.close()
        HOLDING[0] = False
    # nobody answers behind the port (a server with no board): the tty
    # link's time-out, one line
    with socket.socket() as silent:
        silent.bind(("localhost", 0))
        silent.listen(1)
        port = silent.getsockname()[1]
        t0 = time.monotonic()
        rc, out, err = run(["--link", "tcp:localhost:%d" % port, "info"], timeout=300)
        secs = time.monotonic() - t0
        why = one_line_error(rc, out, err, 1)
        if why is None and "not a byte came back" not in err:
            why = "stderr %r" % err.strip()
        report(why is None, "tcp to a port where nobody answers: exit 1 after %.0f s, one line: %s" % (secs, err.strip()),
               why)
    # rfc2217 to a raw port: no telnet answer
    rc, out, err = run(["--link", "rfc2217:localhost:%d" % SER.raw, "info"], timeout=120)
    why = one_line_error(rc, out, err, 1)
    if why is None and "no telnet answer" not in err:
        why = "stderr %r" % err.strip()
    report(why is None, "rfc2217 to ser2net's raw port: exit 1, one line: %s" % err.strip(), why)
    # and the board is still fine after all of it
    counts_equal("after the errors: stat -x, alu --size 2000",
                 ["stat", "-x,", "-e", "cycles,instructions", "--size", "2000", "alu"], links=("tcp",))


def junit_parse(path):
    """(root, [suites]) of a schema-valid report, or None and why."""
    p = subprocess.run(["xmllint", "--noout", "--schema", JUNIT_XSD, path], capture_output=True, text=True)
    if p.returncode != 0:
        return None, "xmllint --schema junit.xsd: " + short(p.stderr)
    root = ET.parse(path).getroot()
    return (root, root.findall("testsuite")), None


def merge():
    """tools/junit_merge.py: two simulated boards' reports (one through tcp,
    one the faulty board through sim) in one schema-valid report, every test
    case once, under its board and host, the failures under the faulty one."""
    a = os.path.join(OUT, "validate-tcp.xml")
    b = os.path.join(OUT, "FAULTY-7.xml")       # no board.serial: the file name names it
    rc, _, err = run(["--link", "sim", "validate", "crc", "memcpy", "--junit", b, "-e", "cycles,loads,stores"],
                     env=dict(ENV, HPM_SIM=FAULT_SIM))
    parts = []
    for path in (a, b):
        rep, why = junit_parse(path) if os.path.exists(path) else (None, "missing")
        if rep is None:
            report(False, "junit merge: input %s" % path, why)
            return
        parts.append(rep[1][0])
    merged = os.path.join(OUT, "merged.xml")
    p = subprocess.run([sys.executable, MERGE, "-o", merged, a, b], capture_output=True, text=True)
    rep, why = junit_parse(merged) if p.returncode == 0 else (None, "exit %d: %s" % (p.returncode, short(p.stderr)))
    if rep:
        root, suites = rep
        want = {}
        for s, (serial, host) in zip(parts, (("SIM-TCP", "localhost"), ("FAULTY-7", parts[1].get("hostname")))):
            for c in s.findall("testcase"):
                kind = list(c)[0].tag if list(c) else None
                want["%s@%s.%s" % (serial, host, c.get("classname")), c.get("name")] = (kind, serial, host)
        got = {}
        for s in suites:
            props = {q.get("name"): q.get("value") for q in s.findall("properties/property")}
            for c in s.findall("testcase"):
                key = (c.get("classname"), c.get("name"))
                got[key] = got.get(key, ()) + ((list(c)[0].tag if list(c) else None,
                                                props.get("board.serial"), props.get("board.host")),)
        dup = [k for k, v in got.items() if len(v) > 1]
        fails = sum(1 for v in want.values() if v[0] == "failure")
        why = None
        if dup or {k: v[0] for k, v in got.items()} != want or len(suites) != 2 or fails == 0 \
                or int(root.get("failures")) != fails or int(root.get("tests")) != len(want):
            why = "suites %d, duplicates %s, got %s, want %s, root %s" % (
                len(suites), dup, sorted(got.items())[:4], sorted(want.items())[:4], root.attrib)
    report(why is None, "junit merge of two simulated boards: schema-valid, each of the %d test cases once with its "
           "board serial and host, the faulty board's %d failures under it" % (
               len(want) if rep else 0, fails if rep else 0), why)
    p = subprocess.run([sys.executable, MERGE, "-o", merged + ".2", a, a], capture_output=True, text=True)
    report(p.returncode == 1 and len(p.stderr.splitlines()) == 1 and "both board SIM-TCP on localhost" in p.stderr
           and not os.path.exists(merged + ".2"),
           "junit merge of the same board twice: exit 1, one line: %s" % p.stderr.strip(),
           "exit %d: %r" % (p.returncode, p.stderr))


def labgrid():
    """lab/test_board.py under labgrid's pytest plugin with lab/env-local.yaml:
    the place is the ser2net port in front of the simulated board; flashing
    skipped with its reason, validate passes."""
    py = None
    for cand in (sys.executable, "/usr/bin/python3"):
        if cand and subprocess.run([cand, "-c", "import labgrid, pytest"], capture_output=True).returncode == 0:
            py = cand
            break
    if not report(py is not None, "labgrid: a python3 with labgrid and pytest (python3-labgrid)",
                  "none of %s imports labgrid: make deps" % [sys.executable, "/usr/bin/python3"]):
        return
    # a lab's environment: the place the module acquires, no local flashing
    p = subprocess.run([py, "-c", "import sys; sys.path.insert(0, 'lab'); import test_board; from labgrid import "
                        "Environment; e = Environment('lab/env-remote.yaml'); print(test_board.remote_place(e), "
                        "repr(e.config.get_option('hpm_flash', 'unset')))"], cwd=ROOT, capture_output=True, text=True,
                       env=dict(ENV, LG_PLACE="ice-7"))
    report(p.returncode == 0 and p.stdout.strip() == "ice-7 ''",
           "labgrid: lab/env-remote.yaml with LG_PLACE=ice-7: lab/test_board.py finds the RemotePlace ice-7 to "
           "acquire and no local flashing (hpm_flash empty)", "exit %d: %s %s" % (p.returncode, p.stdout, short(p.stderr)))
    junit = os.path.join(OUT, "lab-board.xml")
    env = dict(ENV, HPMCTL=HPMCTL, HPM_LAB_JUNIT=junit, HPM_LAB_WORKLOADS=os.environ.get("HPM_LAB_WORKLOADS", "--all"))
    t0 = time.monotonic()
    p = subprocess.run([py, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "-s", "--lg-env", LAB_ENV,
                        os.path.join(ROOT, "lab", "test_board.py")], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=1800)
    secs = time.monotonic() - t0
    open(os.path.join(OUT, "labgrid.log"), "w").write(p.stdout + p.stderr)
    skip = re.search(r"SKIPPED \[1\] \S+: (.*)", p.stdout)
    summary = re.search(r"=+ (1 passed, 1 skipped) in", p.stdout)
    cases = re.search(r"(\d+) test cases passed \((rfc2217:localhost:%d)\)" % LAB_PORT, p.stdout)
    report(p.returncode == 0 and summary and skip and "simulated board" in skip.group(1) and cases,
           "labgrid: pytest --lg-env lab/env-local.yaml lab/test_board.py: validate %s through the place's "
           "NetworkSerialPort (%s), %s test cases passed; flashing skipped: %s (%.0f s)" % (
               env["HPM_LAB_WORKLOADS"], cases.group(2) if cases else "?", cases.group(1) if cases else "?",
               skip.group(1) if skip else "?", secs),
           "exit %d: %s" % (p.returncode, short(p.stdout[-1500:] + p.stderr[-500:], 1500)))


CHECKS = [("errors", errors), ("stat", stat), ("escape", escape), ("record", record), ("validate", validate),
          ("interrupt", interrupt), ("drop", drop), ("merge", merge), ("labgrid", labgrid)]


def main():
    global BOARD, SER
    only = [o for o in ARGS.only.split(",") if o]
    leftovers()
    BOARD = Board()
    SER = Ser2net(BOARD)
    try:
        if not report(SER.start(), "ser2net %s exports the simulated board's pseudo-terminal raw on port %d and with "
                      "RFC 2217 on ports %d and %d" % (subprocess.run([SER.exe, "-v"], capture_output=True, text=True)
                                                       .stdout.strip() if os.path.exists(SER.exe) else "",
                                                       SER.raw, SER.telnet, LAB_PORT), SER.why):
            return
        LINKS.update(tty="tty:" + BOARD.path, tcp="tcp:localhost:%d" % SER.raw,
                     rfc2217="rfc2217:localhost:%d" % SER.telnet)
        for name, fn in CHECKS:
            if not only or name in only:
                t0 = time.monotonic()
                fn()
                print("(%s: %.1f s)" % (name, time.monotonic() - t0), flush=True)
    finally:
        SER.stop()
        BOARD.close()


if __name__ == "__main__":
    main()
