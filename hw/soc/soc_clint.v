// soc_clint: msip, mtimecmp and mtime (docs/memory-map.md). mtime counts
// clock cycles; a store to it replaces the written bytes and skips that
// edge's increment. A store in cycle t takes effect in cycle t+1; reads
// return the registered values of the cycle of the access.
//
// mtip is registered (the 64-bit compare is off the interrupt path): in cycle
// t+1 it holds mtime(t) + 1 >= mtimecmp(t), which is mtime(t+1) >=
// mtimecmp(t+1) unless a store wrote the CLINT in cycle t. In that case the
// value of cycle t+1 is stale, but nothing observes mip in t+1: the store is
// then in its second X cycle (no interrupt check, no wfi, no CSR read), and
// from t+2 on mtip is exact again.
module soc_clint (
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
    output reg  [63:0] mtime
);
    reg        msip_q;
    reg        mtip_q;
    reg [63:0] mtimecmp;
    wire [63:0] mtime_inc = mtime + 64'd1;

    wire [15:0] off = {addr, 2'b00};
    wire wr_msip  = sel && we && off == 16'h0000;
    wire wr_cmp   = sel && we && off == 16'h4000;
    wire wr_cmph  = sel && we && off == 16'h4004;
    wire wr_time  = sel && we && off == 16'hBFF8;
    wire wr_timeh = sel && we && off == 16'hBFFC;

    // byte-merge a store into a 32-bit register
    function [31:0] merge(input [31:0] old, input [31:0] val, input [3:0] m);
        merge = {m[3] ? val[31:24] : old[31:24], m[2] ? val[23:16] : old[23:16],
                 m[1] ? val[15:8]  : old[15:8],  m[0] ? val[7:0]   : old[7:0]};
    endfunction

    integer i;
    always @(posedge clk) begin
        if (rst) begin
            msip_q   <= 1'b0;
            mtip_q   <= 1'b0;
            mtimecmp <= 64'hFFFF_FFFF_FFFF_FFFF;
            mtime    <= 64'd0;
        end else begin
            mtip_q <= mtime_inc >= mtimecmp;
            if (wr_msip && be[0])
                msip_q <= wdata[0];
            // a byte lane each: clock enables, no merge muxes
            for (i = 0; i < 4; i = i + 1) begin
                if (wr_cmp && be[i])
                    mtimecmp[8*i +: 8] <= wdata[8*i +: 8];
                if (wr_cmph && be[i])
                    mtimecmp[32 + 8*i +: 8] <= wdata[8*i +: 8];
            end
            if (wr_time)
                mtime[31:0] <= merge(mtime[31:0], wdata, be);
            else if (wr_timeh)
                mtime[63:32] <= merge(mtime[63:32], wdata, be);
            else
                mtime <= mtime_inc;
        end
        case (off)
            16'h0000: rdata <= {31'd0, msip_q};
            16'h4000: rdata <= mtimecmp[31:0];
            16'h4004: rdata <= mtimecmp[63:32];
            16'hBFF8: rdata <= mtime[31:0];
            16'hBFFC: rdata <= mtime[63:32];
            default:  rdata <= 32'd0;
        endcase
    end

    assign msip = msip_q;
    assign mtip = mtip_q;
endmodule
