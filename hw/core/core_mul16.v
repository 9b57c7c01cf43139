// core_mul16: the 16x16 multiplier of core_muldiv, registered at both ends:
//   q = a * b - (x << 16)   (mod 2^32)
// of the a, b, x presented two cycles earlier (registered at the end of the
// cycle they are presented, the product-and-sum registered at the end of the
// next one). x is the signed-digit correction of core_muldiv.
// On the iCE40 it is one SB_MAC16 instantiated by hand (the board flow runs
// synth_ice40 without -dsp, docs/board.md): input registers A, B, C (C = ~x,
// D = 16'hFFFF, carry in 1: the adder adds {~x, FFFF} + 1 = -(x << 16)) and
// the accumulator register as output, loaded every cycle. No path runs
// through the multiplier without a register at both ends, so nextpnr, which
// treats every DSP port as registered, times every path in and out of it
// (hw/board/board_report.py checks this configuration). Elsewhere
// (Verilator, lint) the same two register stages around `*`.
module core_mul16 (
    input  wire        clk,
    input  wire [15:0] a,
    input  wire [15:0] b,
    input  wire [15:0] x,
    output wire [31:0] q
);
`ifdef SYNTHESIS
    SB_MAC16 #(
        .A_REG(1'b1), .B_REG(1'b1), .C_REG(1'b1), .D_REG(1'b1),
        .TOPOUTPUT_SELECT(2'd1), .BOTOUTPUT_SELECT(2'd1),          // accumulator registers
        .TOPADDSUB_LOWERINPUT(2'd2), .BOTADDSUB_LOWERINPUT(2'd2),  // the 16x16 product
        .TOPADDSUB_UPPERINPUT(1'b1), .BOTADDSUB_UPPERINPUT(1'b1),  // plus {C, D}
        .TOPADDSUB_CARRYSELECT(2'd2), .BOTADDSUB_CARRYSELECT(2'd1), // 32-bit add, carry in 1
        .MODE_8x8(1'b0), .A_SIGNED(1'b0), .B_SIGNED(1'b0)
    ) u_mac (
        .CLK(clk), .CE(1'b1), .A(a), .B(b), .C(~x), .D(16'hFFFF),
        .AHOLD(1'b0), .BHOLD(1'b0), .CHOLD(1'b0), .DHOLD(1'b0),
        .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(1'b0), .ORSTBOT(1'b0),
        .OLOADTOP(1'b0), .OLOADBOT(1'b0), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
        .OHOLDTOP(1'b0), .OHOLDBOT(1'b0), .CI(1'b0), .ACCUMCI(1'b0),
        .SIGNEXTIN(1'b0), .O(q), .CO(), .ACCUMCO(), .SIGNEXTOUT()
    );
`else
    reg [15:0] ra, rb, rx;
    reg [31:0] rq;
    always @(posedge clk) begin
        ra <= a;
        rb <= b;
        rx <= x;
        rq <= ra * rb - {rx, 16'd0};
    end
    assign q = rq;
`endif
endmodule
