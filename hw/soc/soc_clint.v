// soc_clint: msip, mtimecmp and mtime (docs/memory-map.md). mtime counts
// clock cycles; a store to it replaces the written bytes and skips that
// edge's increment. A store in cycle t takes effect in cycle t+1; reads
// return the registered values of the cycle of the access.
//
// mtime is an hpm_counter (DSP = 1: two SB_MAC16 accumulators on the iCE40).
//
// mtip is registered (the 64-bit compare is off the interrupt path): in cycle
// t+1 it holds mtime(t) >= mtimecmp(t), the compare of the cycle before
// (docs/timing.md), 0 in cycle 0.
module soc_clint #(
    /* verilator lint_off UNUSEDPARAM */ // only iCE40 synthesis looks at it
    parameter integer DSP = 0      // 1: mtime in SB_MAC16 accumulators
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        sel,          // access to the CLINT region this cycle
    input  wire        we,
    input  wire [3:0]  be,
    input  wire [15:2] addr,         // word offset in the region
    input  wire [31:0] wdata,
    output reg  [31:0] rdata,        // one cycle after the access
    output wire        mtip,
    output wire        msip,
    output wire [63:0] mtime
);
    reg        msip_q;
    reg        mtip_q;
    // mtimecmp is stored inverted: mtime - mtimecmp is then mtime +
    // mtimecmp_n + 1, a bare carry chain (with mtimecmp itself yosys spends a
    // LUT per bit on the inversion) whose carry out is mtime >= mtimecmp; no
    // LUT reads the difference itself.
    reg [63:0] mtimecmp_n;
    wire [63:0] mtimecmp = ~mtimecmp_n;
    /* verilator lint_off UNUSEDSIGNAL */ // the carry out alone
    wire [64:0] cmp_sum  = {1'b0, mtime} + {1'b0, mtimecmp_n} + 65'd1;
    /* verilator lint_on UNUSEDSIGNAL */
    wire        mtip_d   = cmp_sum[64];

    wire [15:0] off = {addr, 2'b00};
    wire wr_msip  = sel && we && off == 16'h0000;
    wire wr_cmp   = sel && we && off == 16'h4000;
    wire wr_cmph  = sel && we && off == 16'h4004;
    wire wr_time  = sel && we && off == 16'hBFF8;
    wire wr_timeh = sel && we && off == 16'hBFFC;
    wire rd_time  = off[15:3] == 13'h17FF;      // 0xBFF8, 0xBFFC
    wire rd_cmp   = off[15:3] == 13'h0800;      // 0x4000, 0x4004
    // the addressed word of the two 64-bit registers (time or cmp, high or
    // low word): the read data, and the old bytes of an mtime store
    wire [31:0] rd_word = off[2] ? (rd_time ? mtime[63:32] : mtimecmp[63:32]) :
                                   (rd_time ? mtime[31:0] : mtimecmp[31:0]);
    // the mtimecmp bits a store writes
    wire [63:0] cmp_wm = {{8{wr_cmph && be[3]}}, {8{wr_cmph && be[2]}},
                          {8{wr_cmph && be[1]}}, {8{wr_cmph && be[0]}},
                          {8{wr_cmp && be[3]}}, {8{wr_cmp && be[2]}},
                          {8{wr_cmp && be[1]}}, {8{wr_cmp && be[0]}}};

    // byte-merge a store into a 32-bit register
    function [31:0] merge(input [31:0] old, input [31:0] val, input [3:0] m);
        merge = {m[3] ? val[31:24] : old[31:24], m[2] ? val[23:16] : old[23:16],
                 m[1] ? val[15:8]  : old[15:8],  m[0] ? val[7:0]   : old[7:0]};
    endfunction

    // a store to mtime replaces its bytes and drops that cycle's increment
    /* verilator lint_off UNUSEDSIGNAL */
    wire        mtime_wrap;           // mtime wraps silently
    /* verilator lint_on UNUSEDSIGNAL */
    hpm_counter #(.WIDTH(64), .DSP(DSP)) u_mtime (
        .clk(clk), .rst(rst), .inc(3'd1), .we_lo(wr_time), .we_hi(wr_timeh),
        .wdata(merge(rd_word, wdata, be)), .value(mtime), .wrap(mtime_wrap)
    );

    always @(posedge clk) begin
        if (rst) begin
            msip_q     <= 1'b0;
            mtip_q     <= 1'b0;
            mtimecmp_n <= 64'd0;              // mtimecmp all ones
        end else begin
            mtip_q <= mtip_d;
            if (wr_msip && be[0])
                msip_q <= wdata[0];
            // A byte lane each, written as AND/OR rather than an enable:
            // each bit is then one LUT (the inversion, the lane select and
            // the old value) that packs with its flip-flop, where an enable
            // leaves a shared inverter and 64 flip-flops alone in their cells.
            mtimecmp_n <= (~{wdata, wdata} & cmp_wm) | (mtimecmp_n & ~cmp_wm);
        end
        // the other offsets clear rdata
        if (rd_time || rd_cmp)
            rdata <= rd_word;
        else
            rdata <= {31'd0, off == 16'h0000 && msip_q};
    end

    assign msip = msip_q;
    assign mtip = mtip_q;
endmodule
