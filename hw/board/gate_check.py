#!/usr/bin/env python3
"""gate_check.py SHIPPED.v GATE.v: the gate-level board's netlist (GATE.v,
synthesised with the monitor in the firmware EBR) must be the netlist that
is placed and flashed (SHIPPED.v, synthesised with the placeholder image that
icebram later replaces) but for the INIT values of the firmware EBR cells.
Both are yosys write_verilog output, so equal netlists are equal line by
line. Prints one line; exits 1 on any other difference."""
import re
import sys

FW_CELL = re.compile(r"^\s*\) \\u_soc\.u_fwram\.\S+\s+\($")
CELL_START = re.compile(r"^\s*(\w+) #\($")
INIT = re.compile(r"^\s*\.INIT_[0-9A-F]\(")


def main():
    shipped, gate = (open(p).read().splitlines() for p in sys.argv[1:3])
    if len(shipped) != len(gate):
        sys.exit(f"gate_check: {sys.argv[2]} has {len(gate)} lines, the placed netlist "
                 f"{len(shipped)}: the netlists differ beyond the firmware EBR")
    pending = []          # differing INIT lines of the cell being read
    fw_cells = changed = 0
    cell_type = ""
    for n, (a, b) in enumerate(zip(shipped, gate), 1):
        m = CELL_START.match(a)
        if m:
            cell_type = m.group(1)
        if a != b:
            if not (INIT.match(a) and INIT.match(b)):
                sys.exit(f"gate_check: line {n} differs beyond the firmware EBR contents:\n"
                         f"  placed: {a.strip()[:100]}\n  gate:   {b.strip()[:100]}")
            pending.append(n)
        if a.lstrip().startswith(") \\"):            # the end of a cell's parameters
            if cell_type == "SB_RAM40_4K" and FW_CELL.match(a):
                fw_cells += 1
                changed += bool(pending)
            elif pending:
                sys.exit(f"gate_check: INIT of {a.strip()[2:].split()[0]} differs "
                         f"(line {pending[0]}): only the firmware EBR may")
            pending = []
    if not changed:
        sys.exit("gate_check: the firmware EBR has the same contents in both netlists "
                 "(the monitor is not in the gate-level netlist)")
    print(f"gate_check: {len(gate)} lines equal but the INIT of {changed} of "
          f"{fw_cells} firmware EBR cells")


if __name__ == "__main__":
    main()
