"""What the python suites share: one PASS or FAIL line per check."""


def report(ok, what, why=""):
    """Prints the check's line (with why it failed) and returns ok."""
    print(("PASS " if ok else "FAIL ") + what + ("" if ok or not why else ": " + why), flush=True)
    return ok


def short(s, n=300):
    """s on one line, its lines joined by ' | ', cut at n characters."""
    s = " | ".join(l for l in s.strip().splitlines() if l.strip())
    return s if len(s) <= n else s[:n] + "..."
