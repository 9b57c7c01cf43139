#!/usr/bin/env python3
"""board_report.py: the board build's report (mk/board.mk, docs/board.md).

Reads nextpnr-ice40's --report JSON and log, icetime's report, yosys' `stat`
output and netlist, and the board top's parameters; prints the report on
stdout. The line starting with "timing" says "met: ..." or "FAIL: ...";
mk/board.mk refuses to pack a bitstream unless it says "met". Timing is met
when all of these hold:
  - nextpnr's Fmax of the SoC clock reaches the target;
  - no clock domain is a constant net: nextpnr clocks a sequential cell whose
    clock input is tied off from $PACKER_GND_NET and leaves its paths out of
    the SoC clock's Fmax (that hid counters that never counted);
  - every sequential cell of the netlist (flip-flops, EBR, SPRAM, DSP) is
    clocked by the PLL output (an EBR's write clock only when it can write:
    a ROM's write clock enable WCLKE is tied to 0);
  - no path runs combinationally through an SB_MAC16: nextpnr treats every
    DSP port as registered, so such a path (9.05 ns through the 16x16
    multiplier in the icestorm timing data) is never timed. Each half's
    output must come from a register of the DSP (the accumulator, or the
    product register of the 8x8 or 16x16 mode) and a multiplier in use must
    start at the A and B input registers (dsp_paths).
"""
import argparse
import json
import re
import sys


def top_param(text, name):
    m = re.search(r"parameter\b[^;=]*?\b%s\s*=\s*(?:\d+'[dD])?(\d+)" % name, text)
    return int(m.group(1)) if m else None


def pll_hz(top):
    """The SB_PLL40 output the top's PLL_* parameters make from the 12 MHz
    oscillator, and why it is illegal ("" if it is not): PFD 10..133 MHz,
    VCO 533..1066 MHz (iCE40 sysCLOCK PLL, SIMPLE feedback)."""
    divr, divf, divq = (top_param(top, k) for k in ("PLL_DIVR", "PLL_DIVF", "PLL_DIVQ"))
    if None in (divr, divf, divq):
        return 0, "PLL_DIVR/DIVF/DIVQ not found in the top"
    pfd = 12e6 / (divr + 1)
    vco = pfd * (divf + 1)
    out = vco / 2 ** divq / (2 if top_param(top, "PLL_HALF") else 1)
    if not 10e6 <= pfd <= 133e6:
        return out, "PLL PFD %.3g MHz outside 10..133 MHz" % (pfd / 1e6)
    if not 533e6 <= vco <= 1066e6:
        return out, "PLL VCO %.4g MHz outside 533..1066 MHz" % (vco / 1e6)
    return out, ""


# the clock inputs of the iCE40 cells that have registers
CLOCK_PORTS = {"SB_RAM40_4K": ("RCLK", "WCLK"), "SB_SPRAM256KA": ("CLOCK",),
               "SB_MAC16": ("CLK",)}


def unclocked_cells(path):
    """Sequential cells of the netlist whose clock is not the PLL output,
    [(cell type, cell name, what drives the clock)], and the SB_MAC16 modes
    {"accumulator" | "multiplier": count}, and the SB_MAC16 cells with a
    combinational path through them [(cell name, why)]."""
    with open(path) as f:
        design = json.load(f)
    bad, clock, dsp, comb = [], None, {}, []
    for mod in design["modules"].values():
        cells = mod.get("cells", {})
        for cell in cells.values():
            if cell["type"] == "SB_PLL40_PAD":
                clock = cell["connections"]["PLLOUTGLOBAL"][0]
        for name, cell in cells.items():
            t = cell["type"]
            if t == "SB_MAC16":
                mode, why = dsp_paths(cell["parameters"])
                dsp[mode] = dsp.get(mode, 0) + 1
                if why:
                    comb.append((name, why))
            ports = ("C",) if t.startswith("SB_DFF") else CLOCK_PORTS.get(t, ())
            if t == "SB_RAM40_4K" and cell["connections"].get("WCLKE", ["x"])[0] == "0":
                ports = ("RCLK",)              # a ROM: the write port never writes
            for p in ports:
                bit = cell["connections"].get(p, ["x"])[0]
                if bit != clock:
                    bad.append((t, name, "constant %s" % bit if isinstance(bit, str) else "net %s" % bit))
    return bad, dsp, comb


def dsp_paths(params):
    """An SB_MAC16's mode ("multiplier" when its multiplier feeds anything,
    else "accumulator") and why a path runs combinationally through it ("" if
    none does): each output half must be a register of the DSP, and a
    multiplier in use must start at the A and B input registers."""
    def p(k):
        return int(str(params.get(k, "0")), 2)
    why, mult = [], False
    for half, mreg in (("TOP", "TOP_8x8_MULT_REG"), ("BOT", "BOT_8x8_MULT_REG")):
        sel, lower = p(half + "OUTPUT_SELECT"), p(half + "ADDSUB_LOWERINPUT")
        if sel == 0:
            why.append("%s output from the unregistered adder" % half.lower())
        elif sel == 2 and not p(mreg):
            why.append("%s output the unregistered 8x8 product" % half.lower())
        elif sel == 3 and not p("PIPELINE_16x16_MULT_REG2"):
            why.append("%s output the unregistered 16x16 product" % half.lower())
        mult = mult or sel in (2, 3) or (sel in (0, 1) and lower in (1, 2))
    if mult and not (p("A_REG") and p("B_REG")):
        why.append("multiplier inputs A/B not registered")
    return ("multiplier" if mult else "accumulator"), "; ".join(why)


def icetime_mhz(path):
    """icetime's estimate (MHz) from its -t report, None if it has none."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"Total path delay: ([\d.]+) ns \(([\d.]+) MHz\)", text)
    return float(m.group(2)) if m else None


def log_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nextpnr", required=True)
    ap.add_argument("--log", default="", help="nextpnr log, when it failed (no JSON report)")
    ap.add_argument("--stat", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--hpm", default="")
    ap.add_argument("--target-hz", type=int, required=True)
    ap.add_argument("--seed", default="")
    ap.add_argument("--netlist", required=True, help="yosys JSON netlist of the top")
    ap.add_argument("--icetime", default="", help="icetime -t report of the placed design")
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
    # clock domains clocked from a constant net (nextpnr: $PACKER_GND_NET...)
    const_clocks = sorted(set(k for k in fmax if "$PACKER_" in k) |
                          set(re.findall(r"posedge (\$PACKER_\w+)", log_text(a.log))))
    unclocked, dsp, comb = unclocked_cells(a.netlist)
    ice_mhz = icetime_mhz(a.icetime) if a.icetime else None
    if not failed and const_clocks:
        failed = "paths clocked from a constant net (%s), left out of Fmax" % ", ".join(const_clocks)
    if not failed and unclocked:
        t, n, why = unclocked[0]
        failed = "%d sequential cell(s) not clocked by the PLL output, e.g. %s %s (%s)" % (
            len(unclocked), t, n, why)
    if not failed and comb:
        failed = "%d SB_MAC16 with a combinational path through it, untimed by nextpnr, e.g. %s (%s)" % (
            len(comb), comb[0][0], comb[0][1])
    pll_out, pll_bad = pll_hz(top)
    if not failed and pll_bad:
        failed = pll_bad
    if not failed and round(pll_out) != a.target_hz:
        failed = "the PLL makes %.6g MHz, not CLOCK_HZ %g MHz" % (pll_out / 1e6, target)
    met = achieved >= target and not failed

    util = rep.get("utilization", {})
    ff = sum(v for k, v in stat.items() if k.startswith("SB_DFF"))

    out = []
    out.append("board       icebreaker (iCE40UP5K-SG48), top %s" % a.top)
    td = re.search(r"\.HPM_TD\((\d)\)", top)
    out.append("hpm         HPM_NUM %s x HPM_WIDTH %s, top-down %s" % (num, width, {
        "1": "unit (levels 1 and 2)",
        "2": "level 1 (HPM_TD 2: two 16-bit counts in an SB_MAC16, the unit's level 1 emulated by the monitor)",
    }.get(td.group(1) if td else "0", "none")))
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
    out.append("nextpnr     Fmax %.2f MHz, clock '%s'; constant-clocked domains: %s" % (
        achieved, name, ", ".join(const_clocks) or "none"))
    if a.icetime:
        out.append("icetime     %s (not checked: it misreads the accumulator DSPs, see docs/board.md)" % (
            "%.2f MHz" % ice_mhz if ice_mhz is not None else "no estimate"))
    out.append("clocking    %s" % (
        "every FF, EBR, SPRAM and DSP cell on the PLL output 'clk'" if not unclocked else
        "%d cell(s) not on the PLL output: %s" % (len(unclocked), ", ".join(
            "%s %s (%s)" % u for u in unclocked[:4]))))
    out.append("dsp         %s; %s" % (
        ", ".join("%d %s" % (n, m) for m, n in sorted(dsp.items())) or "none",
        "every DSP path enclosed by registers clocked by 'clk' (outputs from the DSP's "
        "registers, multipliers from its input registers)" if not comb else
        "%d with a combinational path: %s" % (len(comb), ", ".join(
            "%s (%s)" % c for c in comb[:4]))))
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
