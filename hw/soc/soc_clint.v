// soc_clint: msip, mtimecmp and mtime (docs/memory-map.md). mtime counts
// clock cycles; a store to it replaces the written bytes and skips that
// edge's increment. A store in cycle t takes effect in cycle t+1; reads
// return the registered values of the cycle of the access. rdata is 0 in the
// cycle after any cycle without a CLINT access (sel), so hpm_soc ORs it into
// the read data without a select.
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
    output reg  [31:0] rdata,        // one cycle after the access, else 0
    output wire        mtip,
    output wire        msip,
    input  wire [1:0]  time_sel,     // a CSR instruction in X, its address bit 7 (the time CSRs)
    output wire [31:0] time_word     // the addressed word of mtime
);
    reg        msip_q;
    reg        mtip_q;
    // mtimecmp is stored inverted: mtime - mtimecmp is then mtime +
    // mtimecmp_n + 1, a bare carry chain whose carry out is mtime >=
    // mtimecmp; no LUT reads the difference itself.
    wire [63:0] mtimecmp_n;
    wire        mtip_d;

    wire [15:0] off = {addr, 2'b00};
    wire wr_msip  = sel && we && off == 16'h0000;
    wire wr_cmp   = sel && we && off == 16'h4000;
    wire wr_cmph  = sel && we && off == 16'h4004;
    wire wr_time  = sel && we && off == 16'hBFF8;
    wire wr_timeh = sel && we && off == 16'hBFFC;
    wire rd_time  = sel && off[15:3] == 13'h17FF;   // 0xBFF8, 0xBFFC
    wire rd_cmp   = sel && off[15:3] == 13'h0800;   // 0x4000, 0x4004
    wire rd_msip  = sel && off == 16'h0000;
    // the addressed word of mtime (the read data, and the old bytes of an
    // mtime store) and of mtimecmp
    wire [63:0] mtime;
    wire        word_hi   = time_sel[1] ? time_sel[0] : off[2];
    assign      time_word = word_hi ? mtime[63:32] : mtime[31:0];
    wire [31:0] cmp_word  = ~(off[2] ? mtimecmp_n[63:32] : mtimecmp_n[31:0]);
    // the byte lanes of mtimecmp a store writes (and reset, which sets it)
    wire [7:0]  cmp_ce = {{4{wr_cmph}} & be, {4{wr_cmp}} & be} | {8{rst}};

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
        .wdata(merge(time_word, wdata, be)), .value(mtime), .wrap(mtime_wrap)
    );

    // mtimecmp and the compare. Bit i: mtimecmp_n[i] <= rst ? 0 : ~wdata,
    // enabled by its byte lane's cmp_ce; carry i+1 = maj(mtime[i],
    // mtimecmp_n[i], carry i), carry 0 = 1.
`ifdef SYNTHESIS
    // On the iCE40 each bit is one logic cell: the carry, a flip-flop with
    // an enable and a synchronous reset, and its LUT (~wdata) whose I1/I2
    // are the carry's operands and I3 the carry in, so that nextpnr packs
    // the three together (an enable per byte lane; the chain's eight cells
    // per tile are a lane, the tile's shared enable). Written as RTL, the
    // flip-flops' LUTs and the chain take a cell each.
    wire [64:0] cy;
    assign cy[0] = 1'b1;
    genvar i;
    generate
        for (i = 0; i < 64; i = i + 1) begin : g_cmp
            wire d;
            // a tile takes 32 LUT inputs (nextpnr): its first cell, the
            // lane's bit 0, leaves the carry alone in its cell (2 inputs)
            if (i % 8 == 0) begin : g_own
                SB_LUT4 #(.LUT_INIT(16'h5555)) u_lut (    // O = ~I0
                    .I0(wdata[i % 32]), .I1(1'b0), .I2(1'b0), .I3(1'b0), .O(d));
            end else begin : g_packed
                SB_LUT4 #(.LUT_INIT(16'h5555)) u_lut (    // O = ~I0
                    .I0(wdata[i % 32]), .I1(mtime[i]), .I2(mtimecmp_n[i]), .I3(cy[i]), .O(d));
            end
            SB_CARRY u_cy (.I0(mtime[i]), .I1(mtimecmp_n[i]), .CI(cy[i]), .CO(cy[i + 1]));
            SB_DFFESR u_ff (.C(clk), .E(cmp_ce[i / 8]), .R(rst), .D(d), .Q(mtimecmp_n[i]));
        end
    endgenerate
    assign mtip_d = cy[64];
`else
    reg [63:0] cmp_q;
    integer k;
    always @(posedge clk)
        for (k = 0; k < 64; k = k + 1)
            if (cmp_ce[k / 8])
                cmp_q[k] <= !rst && !wdata[k % 32];
    assign mtimecmp_n = cmp_q;
    /* verilator lint_off UNUSEDSIGNAL */ // the carry out alone
    wire [64:0] cmp_sum = {1'b0, mtime} + {1'b0, mtimecmp_n} + 65'd1;
    /* verilator lint_on UNUSEDSIGNAL */
    assign mtip_d = cmp_sum[64];
`endif

    always @(posedge clk) begin
        if (rst) begin
            msip_q <= 1'b0;
            mtip_q <= 1'b0;
        end else begin
            mtip_q <= mtip_d;
            if (wr_msip && be[0])
                msip_q <= wdata[0];
        end
        // the other offsets, and a cycle without a CLINT access, read 0
        rdata <= (rd_time ? time_word : 32'd0) | (rd_cmp ? cmp_word : 32'd0) |
                 {31'd0, rd_msip && msip_q};
    end

    assign msip = msip_q;
    assign mtip = mtip_q;
endmodule
