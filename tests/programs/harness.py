"""Shared helpers of the programs suite (tests/programs/run.py).

The suite runs users' own programs, built by the *installed* hpm-cc, through
the installed hpmctl, from a directory outside the repository, as a user
would. Each t_*.py module defines tests(h) and reports one line per check
with h.report(ok, what, why).
"""
import os
import pty
import re
import shutil
import signal
import subprocess
import tempfile
import time
import tty

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SRC = os.path.join(ROOT, "tests", "programs", "src")


def short(s, n=400):
    s = " | ".join(l for l in s.strip().splitlines() if l.strip())
    return s if len(s) <= n else s[:n] + "..."


def text(b):
    return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")


class Harness:
    def __init__(self, build):
        self.build = build
        self.out = os.path.join(build, "tests", "out", "programs")
        shutil.rmtree(self.out, ignore_errors=True)
        os.makedirs(self.out)
        self.prefix = os.path.join(self.out, "prefix")
        self.work = tempfile.mkdtemp(prefix="hpm-programs-")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("HPM_")}
        self.env["PATH"] = os.path.join(self.prefix, "bin") + ":/usr/bin:/bin"
        self.env["MAKEFLAGS"] = re.sub(r" ?--jobserver-(auth|fds)=\S+", "", self.env.get("MAKEFLAGS", ""))
        self.installed = False

    # ---- reporting ----
    def report(self, ok, what, why=""):
        print(("PASS " if ok else "FAIL ") + what + ("" if ok or not why else ": " + why), flush=True)
        return ok

    # ---- the installed tree ----
    def install(self):
        """make install into BUILD/tests/out/programs/prefix (once)."""
        if self.installed:
            return True
        p = subprocess.run(["make", "-s", "install", "PREFIX=" + self.prefix], cwd=ROOT,
                           capture_output=True, text=True, env=dict(os.environ, MAKEFLAGS=self.env["MAKEFLAGS"]))
        self.installed = self.report(p.returncode == 0, "programs: make install PREFIX=" + self.prefix,
                                     short(p.stdout + p.stderr))
        return self.installed

    def bin(self, name):
        return os.path.join(self.prefix, "bin", name)

    def ref_with(self, flag):
        """An hpm-ref that always gets FLAG (--td-board, --no-topdown), for HPM_REF."""
        path = os.path.join(self.work, "hpm-ref" + flag)
        with open(path, "w") as f:
            f.write('#!/bin/sh\nexec "%s" %s "$@"\n' % (self.bin("hpm-ref"), flag))
        os.chmod(path, 0o755)
        return path

    def cc(self, src, out=None, flags=("-O2",)):
        """Builds tests/programs/src/SRC with the installed hpm-cc into the
        work directory; returns the ELF's path, or None after a FAIL."""
        out = out or os.path.splitext(os.path.basename(src))[0] + ".elf"
        p = subprocess.run([self.bin("hpm-cc")] + list(flags) + ["-o", out, os.path.join(SRC, src)],
                           cwd=self.work, env=self.env, capture_output=True, text=True)
        if p.returncode != 0:
            self.report(False, "programs: hpm-cc %s" % src, short(p.stdout + p.stderr))
            return None
        return os.path.join(self.work, out)

    # ---- running hpmctl ----
    def run(self, args, env=None, timeout=600, cwd=None):
        """Runs the installed hpmctl from the work directory; returns
        (exit code, stdout, stderr); exit code None when it timed out."""
        e = dict(self.env, **(env or {}))
        try:
            p = subprocess.run([self.bin("hpmctl")] + args, cwd=cwd or self.work, env=e,
                               capture_output=True, text=True, timeout=timeout)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as t:   # its output comes as bytes
            return None, text(t.stdout), text(t.stderr)

    def run_interrupted(self, args, ready, env=None, limit=300, sig=signal.SIGINT, cwd=None):
        """Starts hpmctl, sends SIG once ready(elapsed_s, stderr_so_far) is
        true, waits for it to end (at most LIMIT s, then SIGKILL). Returns
        (exit code or None, stdout, stderr, seconds from the signal to the
        end)."""
        e = dict(self.env, **(env or {}))
        errf = open(os.path.join(self.out, "interrupted.err"), "w+")
        outf = open(os.path.join(self.out, "interrupted.out"), "w+")
        p = subprocess.Popen([self.bin("hpmctl")] + args, cwd=cwd or self.work, env=e,
                             stdout=outf, stderr=errf, start_new_session=True)
        t0 = time.monotonic()
        sent = None
        rc = None
        while True:
            rc = p.poll()
            if rc is not None:
                break
            now = time.monotonic()
            if sent is None:
                errf.seek(0)
                if ready(now - t0, errf.read()):
                    p.send_signal(sig)
                    sent = now
            if now - t0 > limit:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                rc = None
                break
            time.sleep(0.05)
        outf.seek(0)
        errf.seek(0)
        dt = time.monotonic() - sent if sent is not None else -1.0
        return rc, outf.read(), errf.read(), dt


class PtyBoard:
    """A board that outlives one hpmctl: the installed hpm-sim or hpm-ref
    (no --elf: it boots the monitor) with its stdin/stdout on a pseudo-
    terminal's master side; hpmctl --link tty:PATH talks to it, one session
    after another, the board keeping its state. The slave stays open here, so
    the board sees no hang-up between sessions."""

    def __init__(self, exe):
        master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.proc = subprocess.Popen([exe], stdin=master, stdout=master, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        os.close(master)

    def link(self):
        return ["--link", "tty:" + self.path]

    def close(self):
        self.proc.kill()
        self.proc.wait()
        os.close(self.slave)
