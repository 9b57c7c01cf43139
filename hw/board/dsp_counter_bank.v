// dsp_counter_bank: one SB_MAC16 hpm_counter (DSP = 1) per width of
// dsp_widths.vh, side by side. The board suite synthesises it with the board
// flow's yosys command and simulates that netlist against the counter
// semantics (tb_hpm_counter_dsp.v): the counters as the chip gets them, not
// as the RTL describes them.
module dsp_counter_bank (
    input  wire                clk,
    input  wire                rst,
    input  wire [2:0]          inc,
    input  wire                we_lo,
    input  wire                we_hi,
    input  wire [31:0]         wdata,
    output wire [64*11-1:0]    value,    // counter k at [64k +: 64]
    output wire [10:0]         wrap
);
`include "dsp_widths.vh"
    genvar k;
    generate
        for (k = 0; k < DSP_NW; k = k + 1) begin : g_w
            hpm_counter #(.WIDTH(dsp_width(k)), .DSP(1)) u_cnt (
                .clk(clk), .rst(rst), .inc(inc), .we_lo(we_lo), .we_hi(we_hi),
                .wdata(wdata), .value(value[64*k +: 64]), .wrap(wrap[k])
            );
        end
    endgenerate
endmodule
