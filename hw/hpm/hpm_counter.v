// hpm_counter: one HPM counter of WIDTH bits (1..64), as software sees it
// through the lo/hi CSR halves. A write in the same cycle as an increment
// wins: the written half replaces the value and that cycle's increment is
// dropped.
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
    output wire        wrap       // this cycle's increment reaches 2^WIDTH
);
    localparam [64:0] MASK65 = (65'd1 << WIDTH) - 65'd1;
    localparam [63:0] MASK   = MASK65[63:0];

    reg  [63:0] count;
    wire [63:0] sum = count + {61'd0, inc};
    // the carry out of bit WIDTH-1. Below 64 bits it shows in the sum above
    // the mask (a tiny counter can pass 2^WIDTH by more than 1). At 64 bits,
    // with inc <= 4: bits 63:3 all ones and a carry out of the low three (no
    // 64-bit compare).
    wire        carry = WIDTH < 64 ? (sum & ~MASK) != 64'd0 :
                        &count[63:3] && {1'b0, count[2:0]} + {1'b0, inc} >= 4'd8;

    always @(posedge clk) begin
        if (rst)
            count <= 64'd0;
        else if (we_lo || we_hi)
            count <= {we_hi ? wdata : count[63:32], we_lo ? wdata : count[31:0]} & MASK;
        else
            count <= sum & MASK;
    end

    assign value = count;
    assign wrap  = !(we_lo || we_hi) && carry;
endmodule
