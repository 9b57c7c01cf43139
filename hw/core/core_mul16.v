// core_mul16: the 16x16 unsigned multiplier of core_muldiv (one partial
// product per cycle). On the iCE40 it is one SB_MAC16 in its combinational
// 16x16 mode, instantiated by hand: the board flow runs synth_ice40 without
// -dsp, because that pass rewrites hand-instantiated DSP accumulators (the
// counters) into unclocked multipliers (docs/board.md). CLK is the core
// clock although no register of the block is used: nextpnr then times the
// paths into and out of it in the clk domain instead of a constant-clocked
// one, and icetime times the path through it (mk/board.mk). Elsewhere
// (Verilator, lint) it is `*`.
module core_mul16 (
    /* verilator lint_off UNUSEDSIGNAL */ // only the iCE40 block takes a clock
    input  wire        clk,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [15:0] a,
    input  wire [15:0] b,
    output wire [31:0] p
);
`ifdef SYNTHESIS
    SB_MAC16 #(
        .TOPOUTPUT_SELECT(2'd3), .BOTOUTPUT_SELECT(2'd3),   // the 16x16 product, unregistered
        .MODE_8x8(1'b0), .A_SIGNED(1'b0), .B_SIGNED(1'b0)
    ) u_mac (
        .CLK(clk), .CE(1'b1), .A(a), .B(b), .C(16'd0), .D(16'd0),
        .AHOLD(1'b0), .BHOLD(1'b0), .CHOLD(1'b0), .DHOLD(1'b0),
        .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(1'b0), .ORSTBOT(1'b0),
        .OLOADTOP(1'b0), .OLOADBOT(1'b0), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
        .OHOLDTOP(1'b0), .OHOLDBOT(1'b0), .CI(1'b0), .ACCUMCI(1'b0),
        .SIGNEXTIN(1'b0), .O(p), .CO(), .ACCUMCO(), .SIGNEXTOUT()
    );
`else
    assign p = a * b;
`endif
endmodule
