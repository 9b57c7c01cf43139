#!/usr/bin/env python3
"""module_area.py: per-module area of the board build from yosys' `stat` of a
hierarchical synth_ice40 (-noflatten) run (mk/hw.mk, `make synth-modules`).

Prints one row per module instance type: LUT4, CARRY, FF (all SB_DFF*), RAM
(SB_RAM40_4K), DSP (SB_MAC16) of the module itself (its submodules not
included), and a total. -noflatten keeps yosys from optimising across module
boundaries, so the total is a little above the flattened board build's; the
board's packed LC count is nextpnr's (`make bitstream`, report.txt).
"""
import re
import sys


def parse(path):
    """Cells per module type, and each type's instance count in the design
    (yosys' `design hierarchy`, multiplied down the tree)."""
    mods, mult = {}, {}
    cur = None
    hier = False
    stack = []          # (indent, multiplicity) of the enclosing instances
    for line in open(path):
        if line.startswith("=== design hierarchy ==="):
            cur, hier = None, True
            continue
        m = re.match(r"^=== (\S+) ===", line)
        if m:
            cur, hier = m.group(1), False
            mods[cur] = {}
            continue
        if hier:
            m = re.match(r"^( +)(\S+)\s+(\d+)\s*$", line)
            if not m or m.group(2) == "Number":
                if line.strip().startswith("Number"):
                    hier = False
                continue
            ind = len(m.group(1))
            while stack and stack[-1][0] >= ind:
                stack.pop()
            n = int(m.group(3)) * (stack[-1][1] if stack else 1)
            mult[m.group(2)] = mult.get(m.group(2), 0) + n
            stack.append((ind, n))
            continue
        if cur is None:
            continue
        m = re.match(r"^\s+(SB_\w+|\$\w+|\\?\w+)\s+(\d+)\s*$", line)
        if m:
            mods[cur][m.group(1)] = int(m.group(2))
    return mods, mult


def short_name(name):
    name = name.lstrip("\\")
    m = re.match(r"^\$paramod\$[0-9a-f]+\\(\w+)$", name)
    if m:
        return m.group(1)
    m = re.match(r"^\$paramod\\(\w+)\\(.*)$", name)
    if m:
        params = re.sub(r"s32'([01]+)", lambda x: str(int(x.group(1), 2)), m.group(2))
        if m.group(1) in ("hpm_core", "soc_fwram", "soc_gpio", "soc_uart", "core_pma"):
            return m.group(1)
        return m.group(1) + " " + params
    return name


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: module_area.py <yosys stat output>")
    mods, mult = parse(sys.argv[1])
    rows = {}
    for name, cells in mods.items():
        n = mult.get(name, 1)
        lut = cells.get("SB_LUT4", 0) * n
        car = cells.get("SB_CARRY", 0) * n
        ff = sum(v for c, v in cells.items() if c.startswith("SB_DFF")) * n
        ram = cells.get("SB_RAM40_4K", 0) * n
        dsp = cells.get("SB_MAC16", 0) * n
        if lut + car + ff + ram + dsp == 0:
            continue
        key = short_name(name)
        old = rows.get(key, (0, 0, 0, 0, 0, 0))
        rows[key] = tuple(a + b for a, b in zip(old, (n, lut, car, ff, ram, dsp)))
    print(f"{'module (own cells x instances)':<36} {'n':>3} {'LUT4':>6} {'CARRY':>6} {'FF':>6} {'EBR':>4} {'DSP':>4}")
    tot = [0] * 5
    for key, r in sorted(rows.items(), key=lambda kv: -kv[1][1]):
        print(f"{key:<36} {r[0]:>3} {r[1]:>6} {r[2]:>6} {r[3]:>6} {r[4]:>4} {r[5]:>4}")
        tot = [a + b for a, b in zip(tot, r[1:])]
    print(f"{'total':<36} {'':>3} {tot[0]:>6} {tot[1]:>6} {tot[2]:>6} {tot[3]:>4} {tot[4]:>4}")


main()
