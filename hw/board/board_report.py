#!/usr/bin/env python3
"""board_report.py: the board build's report (mk/board.mk, docs/board.md).

Reads nextpnr-ice40's --report JSON, yosys' `stat` output and the board top's
parameters; prints the report on stdout. The line starting with "timing" says
"met: ..." or "FAIL: ..."; mk/board.mk refuses to pack a bitstream unless it
says "met".
"""
import argparse
import json
import re
import sys


def top_param(text, name):
    m = re.search(r"parameter\b[^;=]*?\b%s\s*=\s*(?:\d+'[dD])?(\d+)" % name, text)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nextpnr", required=True)
    ap.add_argument("--log", default="", help="nextpnr log, when it failed (no JSON report)")
    ap.add_argument("--stat", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--hpm", default="")
    ap.add_argument("--target-hz", type=int, required=True)
    ap.add_argument("--seed", default="")
    a = ap.parse_args()

    failed = ""
    try:
        with open(a.nextpnr) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        # nextpnr failed (typically: the design does not fit): utilization
        # from its log, no timing
        rep = {"fmax": {}, "utilization": {}}
        failed = "nextpnr failed"
        if a.log:
            with open(a.log) as f:
                text = f.read()
            for m in re.finditer(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)", text, re.M):
                rep["utilization"][m.group(1)] = {"used": int(m.group(2)),
                                                  "available": int(m.group(3))}
            m = re.search(r"^ERROR: (.*)$", text, re.M)
            if m and ("no BELs remaining" in m.group(1) or "Failed to expand region" in m.group(1)):
                failed = "does not fit (nextpnr: %s)" % (
                    "no BELs remaining" if "no BELs" in m.group(1) else "failed to expand region")
            elif m:
                failed = "nextpnr: " + m.group(1).strip()[:120]
    with open(a.top) as f:
        top = f.read()
    stat = {}
    with open(a.stat) as f:
        for line in f:
            m = re.match(r"\s+(SB_\w+)\s+(\d+)\s*$", line)
            if m:
                stat[m.group(1)] = stat.get(m.group(1), 0) + int(m.group(2))

    if a.hpm:
        num, width = a.hpm.split("x")
    else:
        num, width = top_param(top, "HPM_NUM"), top_param(top, "HPM_WIDTH")
    baud = top_param(top, "UART_BAUD")
    target = a.target_hz / 1e6
    fmax = rep.get("fmax", {})
    # the SoC clock domain: the only one (the PLL output); take the slowest
    clocks = sorted(fmax.items(), key=lambda kv: kv[1]["achieved"])
    if clocks:
        name, fm = clocks[0]
        achieved = fm["achieved"]
    else:
        name, achieved = "-", 0.0
    met = achieved >= target and not failed

    util = rep.get("utilization", {})
    ff = sum(v for k, v in stat.items() if k.startswith("SB_DFF"))

    out = []
    out.append("board       icebreaker (iCE40UP5K-SG48), top %s" % a.top)
    out.append("hpm         HPM_NUM %s x HPM_WIDTH %s" % (num, width))
    out.append("clock       %g MHz (PLL DIVR %s DIVF %s DIVQ %s FILTER_RANGE %s%s), "
               "UART %d baud (UART_DIV %d)" % (
                   target, top_param(top, "PLL_DIVR"), top_param(top, "PLL_DIVF"),
                   top_param(top, "PLL_DIVQ"), top_param(top, "PLL_FILTER"),
                   ", halved" if top_param(top, "PLL_HALF") else "",
                   baud or 0, (a.target_hz // baud) if baud else 0))
    if failed:
        lc = rep["utilization"].get("ICESTORM_LC")
        out.append("timing      FAIL: %s%s" % (
            failed, " (LC %d of %d)" % (lc["used"], lc["available"]) if lc else ""))
    elif met:
        out.append("timing      met: Fmax %.2f MHz >= %g MHz target (margin %+.1f %%), clock '%s', seed %s"
                   % (achieved, target, 100.0 * (achieved - target) / target, name, a.seed))
    else:
        out.append("timing      FAIL: timing not met: Fmax %.2f MHz < %g MHz target, clock '%s', seed %s"
                   % (achieved, target, name, a.seed))
    out.append("")
    out.append("%-16s %6s %6s %5s" % ("resource", "used", "of", "%"))
    for key, label in (("ICESTORM_LC", "LC"), ("ICESTORM_RAM", "EBR"),
                       ("ICESTORM_SPRAM", "SPRAM"), ("ICESTORM_DSP", "DSP"),
                       ("ICESTORM_PLL", "PLL"), ("SB_GB", "global buffers"),
                       ("SB_IO", "IO")):
        u = util.get(key)
        if u:
            out.append("%-16s %6d %6d %5.0f" % (label, u["used"], u["available"],
                                                100.0 * u["used"] / max(u["available"], 1)))
    out.append("%-16s %6d" % ("FF (yosys)", ff))
    out.append("%-16s %6d" % ("LUT4 (yosys)", stat.get("SB_LUT4", 0)))
    out.append("%-16s %6d" % ("CARRY (yosys)", stat.get("SB_CARRY", 0)))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
