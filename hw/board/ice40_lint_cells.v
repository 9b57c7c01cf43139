// ice40_lint_cells: port-compatible stand-ins for the iCE40 primitives that
// hw/board uses, for `make lint` only (yosys uses its own cell library; never
// synthesise this file). The PLL passes its reference clock through.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off DECLFILENAME */
/* verilator lint_off UNUSEDSIGNAL */
module SB_PLL40_PAD #(
    parameter FEEDBACK_PATH = "SIMPLE",
    parameter PLLOUT_SELECT = "GENCLK",
    parameter [3:0] DIVR = 4'd0,
    parameter [6:0] DIVF = 7'd0,
    parameter [2:0] DIVQ = 3'd0,
    parameter [2:0] FILTER_RANGE = 3'd0
) (
    input  wire PACKAGEPIN,
    output wire PLLOUTGLOBAL,
    output wire LOCK,
    input  wire RESETB,
    input  wire BYPASS
);
    assign PLLOUTGLOBAL = PACKAGEPIN;
    assign LOCK = RESETB;
endmodule
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on DECLFILENAME */
/* verilator lint_on UNUSEDPARAM */
