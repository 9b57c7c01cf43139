// tb_hpm_counter_dsp: the SB_MAC16 implementation of hpm_counter (DSP = 1,
// what the iCEBreaker build uses for mcycle, minstret and the first
// mhpmcounters) against a reference of the counter's semantics (the
// flip-flop hpm_counter, docs/hpm.md), cycle by cycle, for widths 3..64:
// random increments 0..4, writes of either half (values near the wrap), reset.
// Run by the board suite (tests/run.sh board) with iverilog -DSYNTHESIS and
// yosys' SB_MAC16 simulation model; prints "PASS ..." or "FAIL ...".
`timescale 1ns/1ps
module tb_hpm_counter_dsp;
    localparam integer NW = 11;
    function integer width_of(input integer k);
        case (k)
            0: width_of = 3;   1: width_of = 5;   2: width_of = 16;  3: width_of = 31;
            4: width_of = 32;  5: width_of = 33;  6: width_of = 34;  7: width_of = 40;
            8: width_of = 48;  9: width_of = 63;  default: width_of = 64;
        endcase
    endfunction

    reg         clk = 1'b0, rst = 1'b1, rst_q = 1'b1;
    reg  [2:0]  inc = 3'd0;
    reg         we_lo = 1'b0, we_hi = 1'b0;
    reg  [31:0] wdata = 32'd0;
    reg  [NW-1:0] bad = 0;
    integer     errors = 0, cyc, r, wraps64 = 0;

    genvar k;
    generate
        for (k = 0; k < NW; k = k + 1) begin : g_w
            localparam integer W = width_of(k);
            localparam [64:0] MASK65 = (65'd1 << W) - 65'd1;
            wire [63:0] dv;
            wire        dw;
            hpm_counter #(.WIDTH(W), .DSP(1)) u_dut (
                .clk(clk), .rst(rst), .inc(inc), .we_lo(we_lo), .we_hi(we_hi),
                .wdata(wdata), .value(dv), .wrap(dw)
            );
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
            $display("PASS hpm_counter DSP = flip-flop semantics, widths 3..64, %0d cycles, %0d 64-bit wraps",
                     cyc, wraps64);
        else if (errors == 0)
            $display("FAIL hpm_counter DSP: no 64-bit wrap exercised");
        $finish;
    end
endmodule
