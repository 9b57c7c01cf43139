// hpm_counter: one HPM counter of WIDTH bits (1..64), as software sees it
// through the lo/hi CSR halves. A write in the same cycle as an increment
// wins: the written value is kept and that cycle's increment is dropped.
//
// The register is declared 64 bits wide and masked to WIDTH; the masked-off
// bits are constant zero and synthesis removes them.
module hpm_counter #(
    parameter integer WIDTH = 64
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [2:0]  inc,       // this cycle's increment (0..4), already filtered
    input  wire        we_lo,     // CSR write of bits 31:0
    input  wire        we_hi,     // CSR write of bits 63:32
    input  wire [31:0] wdata,
    output wire [63:0] value,     // zero-extended to 64 bits
    output wire [63:0] wval,      // the value after this cycle's write (WIDTH applied)
    output wire        wrap       // this cycle's increment carries out of bit WIDTH-1
);
    localparam [64:0] MASK65 = (65'd1 << WIDTH) - 65'd1;
    localparam [63:0] MASK   = MASK65[63:0];

    reg  [63:0] count;
    wire [64:0] sum     = {1'b0, count} + {62'd0, inc};
    wire        written = we_lo || we_hi;
    wire [63:0] w64     = {we_hi ? wdata : count[63:32], we_lo ? wdata : count[31:0]};

    always @(posedge clk) begin
        if (rst)
            count <= 64'd0;
        else
            count <= (written ? w64 : sum[63:0]) & MASK;
    end

    assign value = count;
    assign wval  = w64 & MASK;
    assign wrap  = !written && (sum & ~{1'b0, MASK}) != 65'd0;
endmodule
