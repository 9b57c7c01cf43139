// SB_LUT4 for the gate-level board (hpm-sim-gate): the truth table indexed
// by the inputs, one expression that Verilator compiles to a shift, where
// yosys' model (a tree of 2:1 multiplexers, written for event simulators)
// costs three intermediate nets per LUT and a branch per level.
// hw/board/gate_lut_proof.py proves it equal to yosys' model for every
// LUT_INIT of the netlist (make sim-gate).
/* verilator lint_off DECLFILENAME */ // yosys' cell name
module SB_LUT4 (
    output wire O,
    input  wire I0,
    input  wire I1,
    input  wire I2,
    input  wire I3
);
    parameter [15:0] LUT_INIT = 16'h0000;
    assign O = LUT_INIT[{I3, I2, I1, I0}];
endmodule
/* verilator lint_on DECLFILENAME */
