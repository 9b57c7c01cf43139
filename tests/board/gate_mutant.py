#!/usr/bin/env python3
"""gate_mutant.py NETLIST.v MUTANT.v: writes the gate-level board's netlist
with one LUT of the HPM counter store wrong, for the board suite's check that
validate on the netlist finds a broken bitstream. The LUT is the one that
makes bit 0 of the first programmable counter's lane (mhpmcounter3's low part
plus its increment, hw/hpm/hpm_a3_store.v: md[0]); its INIT bit for both
inputs 1 is flipped, so 1 + 1 leaves bit 0 set: the counter runs wrong
whenever it counts an odd increment from an odd value. Prints the cell and
its INIT before and after."""
import re
import sys

NET = r"\\u_soc\.u_cpu\.u_hpm\.\S*g_arch3\.u_bank\.u_store\.md\[0\] "
CELL = re.compile(r"SB_LUT4 #\(\n\s*\.LUT_INIT\(16'h([0-9a-f]{4})\)\n\s*\) (\S+)\s+\((.*?)\n\s*\);", re.S)


def main():
    src, dst = sys.argv[1:3]
    text = open(src).read()
    hits = [m for m in CELL.finditer(text) if re.search(r"\.O\(" + NET + r"\)", m.group(3))]
    if len(hits) != 1:
        sys.exit(f"gate_mutant: {len(hits)} SB_LUT4 drive u_store.md[0] in {src} (want 1)")
    m = hits[0]
    # the index with every input that is a net at 1 (the constant inputs at their value)
    idx = 0
    for k in range(4):
        pin = re.search(rf"\.I{k}\(([^)]*)\)", m.group(3)).group(1).strip()
        if pin not in ("1'h0", "1'b0"):
            idx |= 1 << k
    init = int(m.group(1), 16)
    new = init ^ (1 << idx)
    out = text[:m.start(1)] + f"{new:04x}" + text[m.end(1):]
    open(dst, "w").write(out)
    print(f"gate_mutant: {m.group(2)}: LUT_INIT 16'h{init:04x} -> 16'h{new:04x} (bit {idx})")


if __name__ == "__main__":
    main()
