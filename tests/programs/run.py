#!/usr/bin/env python3
"""The programs suite: users' own programs, however they behave.

Each tests/programs/t_*.py module has tests(h) (h: harness.Harness) and
prints one line per check, "PASS what" or "FAIL what: why" (tests/run.sh,
suite programs, counts them). The programs (tests/programs/src) are built by
the installed hpm-cc and run through the installed hpmctl, from a directory
outside the repository.

  tests/programs/run.py [--build DIR] [--only MODULE,...]
"""
import argparse
import glob
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--build", default="build")
ap.add_argument("--only", default="", help="comma-separated module names (t_guard, ...)")
args = ap.parse_args()
build = args.build if os.path.isabs(args.build) else os.path.join(harness.ROOT, args.build)
h = harness.Harness(build)
only = [m for m in args.only.split(",") if m]
if h.install():
    for path in sorted(glob.glob(os.path.join(HERE, "t_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        if only and name not in only:
            continue
        try:
            importlib.import_module(name).tests(h)
        except Exception as e:     # a crash is one failed check, not a lost suite
            h.report(False, "programs %s" % name, "exception %s: %s" % (type(e).__name__, e))
