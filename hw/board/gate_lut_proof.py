#!/usr/bin/env python3
"""gate_lut_proof.py NETLIST.v YOSYS_CELLS.v GATE_LUT.v WORKDIR: proves the
gate-level board's SB_LUT4 (GATE_LUT.v) equal to yosys' iCE40 model
(YOSYS_CELLS.v) for every LUT_INIT the netlist uses: a miter of the two
models per INIT value on shared inputs, flattened, and yosys' SAT solver
proving that every pair agrees for all inputs. Prints one line; exits 1 when
the proof fails (or yosys does)."""
import re
import subprocess
import sys


def lut_block(cells):
    """yosys' SB_LUT4 module, renamed yosys_SB_LUT4"""
    m = re.search(r"^module SB_LUT4 \(.*?^endmodule", cells, re.S | re.M)
    if not m:
        sys.exit("gate_lut_proof: no SB_LUT4 module in the yosys cell library")
    return m.group(0).replace("module SB_LUT4 (", "module yosys_SB_LUT4 (", 1)


def main():
    netlist, cells, lut, work = sys.argv[1:5]
    inits = sorted(set(re.findall(r"\.LUT_INIT\(16'h([0-9a-f]{4})\)", open(netlist).read())))
    if not inits:
        sys.exit(f"gate_lut_proof: no SB_LUT4 with a defined LUT_INIT in {netlist}")
    pairs = "\n".join(
        f"  wire a{n}, b{n};\n"
        f"  yosys_SB_LUT4 #(.LUT_INIT(16'h{v})) y{n} (.O(a{n}), .I0(i[0]), .I1(i[1]), .I2(i[2]), .I3(i[3]));\n"
        f"  SB_LUT4 #(.LUT_INIT(16'h{v})) g{n} (.O(b{n}), .I0(i[0]), .I1(i[1]), .I2(i[2]), .I3(i[3]));"
        for n, v in enumerate(inits))
    same = " & ".join(f"(a{n} == b{n})" for n in range(len(inits)))
    with open(f"{work}/lut_miter.v", "w") as f:
        # (its port default macro empty: every input is connected)
        f.write(f"`define ICE40_DEFAULT_ASSIGNMENT_0\n{lut_block(open(cells).read())}\n"
                f"module lut_miter (input [3:0] i, output ok);\n{pairs}\n"
                f"  assign ok = {same};\nendmodule\n")
    log = f"{work}/lut_proof.log"
    r = subprocess.run(["yosys", "-q", "-l", log, "-p",
                        f"read_verilog {work}/lut_miter.v {lut}; "
                        "hierarchy -top lut_miter; proc; flatten; opt_clean; "
                        "sat -verify -prove ok 1 -show-inputs"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode != 0:
        sys.exit(f"gate_lut_proof: {lut} differs from yosys' SB_LUT4 for some LUT_INIT of the netlist ({log})")
    print(f"gate_lut_proof: {lut} = yosys' SB_LUT4 for all 16 inputs of each of the "
          f"netlist's {len(inits)} LUT_INIT values (yosys sat)")


if __name__ == "__main__":
    main()
