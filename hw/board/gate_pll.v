// SB_PLL40_PAD for the gate-level board (hpm-sim-gate) only: yosys' iCE40
// simulation library has the PLL as an empty black box. This one passes the
// oscillator through and is locked from the start, so the simulated SoC
// clock is the CLK pin and one simulated cycle is one SoC cycle; the PLL's
// frequency is the timing analysis' business (docs/board.md).
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
module SB_PLL40_PAD #(
    parameter       FEEDBACK_PATH = "SIMPLE",
    parameter       PLLOUT_SELECT = "GENCLK",
    parameter [3:0] DIVR = 4'd0,
    parameter [6:0] DIVF = 7'd0,
    parameter [2:0] DIVQ = 3'd0,
    parameter [2:0] FILTER_RANGE = 3'd0
) (
    input  wire       PACKAGEPIN,
    output wire       PLLOUTCORE,
    output wire       PLLOUTGLOBAL,
    input  wire       EXTFEEDBACK,
    input  wire [7:0] DYNAMICDELAY,
    output wire       LOCK,
    input  wire       BYPASS,
    input  wire       RESETB,
    input  wire       LATCHINPUTVALUE,
    output wire       SDO,
    input  wire       SDI,
    input  wire       SCLK
);
    assign PLLOUTCORE   = PACKAGEPIN;
    assign PLLOUTGLOBAL = PACKAGEPIN;
    assign LOCK         = 1'b1;
    assign SDO          = 1'b0;
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
