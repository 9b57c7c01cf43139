"""The monitor and the devices belong to M-mode (issue 30, deliverable 1;
docs/memory-map.md, Protection): a U-mode program's store into the monitor's
EBR (at 0, and over an instruction it runs for every counter read), MONRAM,
the UART or mtimecmp, or a jump into the monitor, ends its run with the
access fault reported decoded, a non-zero exit and the same counts on the
simulated and the reference board; and the next run on that same board (a
board behind a pseudo-terminal, kept between hpmctl sessions) is exact.
"""
import re

from harness import PtyBoard, short

# program, the trap hpmctl must report
CASES = [
    ("guard_fw.c", "store access fault at 0x00000000"),
    ("guard_code.c", "store access fault at 0x00000100"),
    ("guard_monram.c", "store access fault at 0x8001f800"),
    ("guard_uart.c", "store access fault at 0x10000000"),
    ("guard_mtimecmp.c", "store access fault at 0x02004000"),
    ("guard_jump.c", "instruction access fault at 0x00000000"),
]
LIMIT = 60   # s: these runs take well under a second; a hang is a failure


def counts(err):
    """stat -x,'s CSV rows (on stderr, as perf's)."""
    return "\n".join(l for l in err.splitlines() if re.match(r"[0-9]+,", l))


def trapped(rc, err, want):
    return rc is not None and rc != 0 and ("trapped: " + want) in err


def tests(h):
    rc, _, err = h.run(["--link", "ref", "stat", "-x,", "crc"], timeout=LIMIT)
    exact = counts(err)
    if not h.report(rc == 0 and exact, "guard: crc on the reference board (the exact counts)", short(err)):
        return
    for src, want in CASES:
        elf = h.cc(src)
        if not elf:
            continue
        name = src[:-2]
        runs = {}
        for link in ("sim", "ref"):
            args = ([] if link == "sim" else ["--link", "ref"]) + ["stat", "-x,", elf]
            runs[link] = h.run(args, timeout=LIMIT)
        (rs, _, es), (rr, _, er) = runs["sim"], runs["ref"]
        os_, or_ = counts(es), counts(er)
        h.report(trapped(rs, es, want) and trapped(rr, er, want) and os_ and os_ == or_,
                 "guard: stat %s (U-mode) ends with '%s', exit %s, the same counts on sim and ref"
                 % (name, want, rs),
                 "sim exit %s: %s | %s; ref exit %s: %s | %s"
                 % (rs, short(es, 200), short(os_, 200), rr, short(er, 200), short(or_, 200)))
        for exe in ("hpm-sim", "hpm-ref"):
            board = PtyBoard(h.bin(exe))
            try:
                r1, _, e1 = h.run(board.link() + ["stat", "-x,", elf], timeout=LIMIT)
                r2, o2, e2 = h.run(board.link() + ["stat", "-x,", "crc"], timeout=LIMIT)
            finally:
                board.close()
            h.report(trapped(r1, e1, want) and counts(e1) == os_ and r2 == 0 and counts(e2) == exact,
                     "guard: on one %s board, %s traps, then crc counts exactly as on the reference board"
                     % (exe, name),
                     "%s: exit %s %s; crc: exit %s %s (want %s)"
                     % (name, r1, short(e1, 200), r2, short(o2 + e2, 300), short(exact, 200)))
