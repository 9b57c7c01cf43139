// tb_hpm_counter_dsp: the SB_MAC16 implementation of hpm_counter (DSP = 1,
// what the iCEBreaker build uses for mcycle, minstret and the first
// mhpmcounters) against a reference of the counter's semantics (docs/hpm.md),
// cycle by cycle, for widths 3..64: random increments 0..4, writes of either
// half (values near the wrap), reset. The DUT is dsp_counter_bank as the
// board flow synthesises it (yosys write_verilog), simulated with yosys'
// iCE40 cell models by the board suite (tests/run.sh board, iverilog);
// prints "PASS ..." or "FAIL ...".
`timescale 1ns/1ps
module tb_hpm_counter_dsp;
`include "dsp_widths.vh"
    localparam integer NW = DSP_NW;

    reg         clk = 1'b0, rst = 1'b1, rst_q = 1'b1;
    reg  [2:0]  inc = 3'd0;
    reg         we_lo = 1'b0, we_hi = 1'b0;
    reg  [31:0] wdata = 32'd0;
    wire [64*NW-1:0] values;
    wire [NW-1:0]    wraps;
    dsp_counter_bank u_bank (
        .clk(clk), .rst(rst), .inc(inc), .we_lo(we_lo), .we_hi(we_hi),
        .wdata(wdata), .value(values), .wrap(wraps)
    );
    integer     errors = 0, cyc, r, wraps64 = 0;

    genvar k;
    generate
        for (k = 0; k < NW; k = k + 1) begin : g_w
            localparam integer W = dsp_width(k);
            localparam [64:0] MASK65 = (65'd1 << W) - 65'd1;
            wire [63:0] dv = values[64*k +: 64];
            wire        dw = wraps[k];
            // the reference: docs/hpm.md "Counting", "Overflow"
            reg  [63:0] rv = 64'd0;
            wire [64:0] sum = {1'b0, rv} + {62'd0, inc};
            wire        rw  = !(we_lo || we_hi) && (sum & ~MASK65) != 65'd0;
            always @(posedge clk)
                if (rst)
                    rv <= 64'd0;
                else if (we_lo || we_hi)
                    rv <= {we_hi ? wdata : rv[63:32], we_lo ? wdata : rv[31:0]} & MASK65[63:0];
                else
                    rv <= sum[63:0] & MASK65[63:0];
            always @(negedge clk)
                if (!rst && !rst_q && (dv !== rv || dw !== rw)) begin
                    errors = errors + 1;
                    if (errors <= 5)
                        $display("FAIL hpm_counter DSP width %0d cycle %0d: value %h wrap %b, expected %h %b (inc %0d we %b%b wdata %h)",
                                 W, cyc, dv, dw, rv, rw, inc, we_hi, we_lo, wdata);
                end
        end
    endgenerate

    always @(posedge clk) if (g_w[NW-1].rw) wraps64 = wraps64 + 1;
    always #5 clk = !clk;
    always @(posedge clk) rst_q <= rst;

    initial begin
        @(negedge clk); @(negedge clk);
        rst = 1'b0;
        for (cyc = 0; cyc < 100000; cyc = cyc + 1) begin
            @(posedge clk); #1;
            r     = $random;
            inc   = (r & 7) > 4 ? 3'd4 : r[2:0];
            r     = $random & 63;
            we_lo = r == 1;
            we_hi = r == 2;
            case ($random & 3)
                0: wdata = $random;
                1: wdata = 32'hFFFF_FFFF - ($random & 3);
                2: wdata = ~(32'hFFFF_FFFF >> ($random & 31));
                default: wdata = $random & 15;
            endcase
            rst = ($random & 2047) == 0;
        end
        if (errors == 0 && wraps64 > 0)
            $display("PASS hpm_counter DSP netlist (board synthesis) = counter semantics, widths 3..64, %0d cycles, %0d 64-bit wraps",
                     cyc, wraps64);
        else if (errors == 0)
            $display("FAIL hpm_counter DSP: no 64-bit wrap exercised");
        $finish;
    end
endmodule
