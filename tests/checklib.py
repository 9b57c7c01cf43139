"""What the python suites share: their command line and paths, one PASS or
FAIL line per check."""

import argparse
import os


def suite_setup(script, name):
    """The suite's command line (--build, --only) and paths: (ROOT, ARGS,
    BUILD, OUT), OUT = BUILD/tests/out/name, created."""
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(script)), "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--only", default="", help="comma-separated test names")
    args = ap.parse_args()
    build = args.build if os.path.isabs(args.build) else os.path.join(root, args.build)
    out = os.path.join(build, "tests", "out", name)
    os.makedirs(out, exist_ok=True)
    return root, args, build, out


def report(ok, what, why=""):
    """Prints the check's line (with why it failed) and returns ok."""
    print(("PASS " if ok else "FAIL ") + what + ("" if ok or not why else ": " + why), flush=True)
    return ok


def short(s, n=300):
    """s on one line, its lines joined by ' | ', cut at n characters."""
    s = " | ".join(l for l in s.strip().splitlines() if l.strip())
    return s if len(s) <= n else s[:n] + "..."


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
