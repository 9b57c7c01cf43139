// hpm_counter: one HPM counter of WIDTH bits (1..64), as software sees it
// through the lo/hi CSR halves. A write in the same cycle as an increment
// wins: the written half replaces the value and that cycle's increment is
// dropped.
//
// The register is declared 64 bits wide and masked to WIDTH; the masked-off
// bits are constant zero and synthesis removes them.
//
// DSP = 1 (iCE40 synthesis only, WIDTH >= 3): the counter lives in the
// accumulators of SB_MAC16 blocks instead of logic cells, one DSP per 32
// bits (docs/board.md). The counter is kept left-aligned in the 32- or 64-bit
// accumulator (shifted up by S = 32 or 64 - WIDTH): the increment is added
// as inc << S, so the accumulator's carry out is the counter's wrap. A write
// loads the accumulator (OLOAD), the half not written holds (OHOLD). Same
// behaviour as the flip-flop counter (the board suite compares the two in
// simulation with yosys' SB_MAC16 model); elsewhere (Verilator) it is the
// flip-flop counter.
module hpm_counter #(
    parameter integer WIDTH = 64,
    /* verilator lint_off UNUSEDPARAM */ // only iCE40 synthesis looks at it
    parameter integer DSP   = 0
    /* verilator lint_on UNUSEDPARAM */
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

`ifdef SYNTHESIS
generate if (DSP != 0 && WIDTH >= 3) begin : g_dsp
    localparam integer NDSP = WIDTH > 32 ? 2 : 1;
    localparam integer S    = 32 * NDSP - WIDTH;       // 0..29
    wire        we = we_lo || we_hi;
    wire [63:0] addend = {61'd0, inc} << S;             // in accumulator bits
    wire [31:0] q_lo, q_hi;                             // accumulators
    wire        co_lo, co_hi;

    // Reset: the accumulators' output reset (ORST, asynchronous in the DSP)
    // driven by the synchronous rst, a register of the board top: the
    // accumulators read 0 from the cycle rst is set, the flip-flop counter
    // from the next one; nothing reads a counter while the core is in reset.

    // low accumulator: counter bits 31-S..0 (all when NDSP = 1)
    wire        load_lo = we_lo;
    wire [31:0] data_lo = wdata << S;
    wire        hold_lo = we && !load_lo;
    hpm_dsp_acc32 #(.CARRY_IN(0)) u_lo (
        .clk(clk), .rst(rst), .load(load_lo), .hold(hold_lo), .addend(addend[31:0]),
        .data(data_lo), .ci(1'b0), .q(q_lo), .co(co_lo)
    );

    if (NDSP == 2) begin : g_hi
        // high accumulator: counter bits WIDTH-1..32-S. A low-half write
        // replaces its bottom S bits (counter bits 31..32-S), a high-half
        // write the rest; with S = 0 it holds on a low-half write.
        wire        load_hi = we_hi || (we_lo && S != 0);
        wire [31:0] data_hi;
        if (S == 0) begin : g_s0
            assign data_hi = wdata;
        end else begin : g_sn
            wire [63:0] w_lo64 = {32'd0, wdata} << S;    // a low write, in accumulator bits
            wire [63:0] w_hi64 = {wdata, 32'd0} << S;    // a high write
            wire [63:0] own_lo = 64'hFFFF_FFFF << S;     // accumulator bits of the low half
            wire [31:0] m_lo   = own_lo[63:32];          // high-DSP bits owned by the low half
            assign data_hi = we_hi ? (w_hi64[63:32] & ~m_lo) | (q_hi & m_lo) :
                                     (w_lo64[63:32] &  m_lo) | (q_hi & ~m_lo);
        end
        wire        hold_hi = we && !load_hi;
        hpm_dsp_acc32 #(.CARRY_IN(1)) u_hi (
            .clk(clk), .rst(rst), .load(load_hi), .hold(hold_hi), .addend(addend[63:32]),
            .data(data_hi), .ci(co_lo), .q(q_hi), .co(co_hi)
        );
    end else begin : g_one
        assign q_hi  = 32'd0;
        assign co_hi = co_lo;
    end

    wire [63:0] acc = {q_hi, q_lo};
    assign value = (acc >> S) & MASK;
    assign wrap  = !we && co_hi;
end else begin : g_ff
`endif
    reg  [63:0] count;
    // Carry select: the increment arrives late in the cycle (it depends on
    // the instruction retiring in X), so only the low three bits add it; the
    // upper bits choose between count[63:3] and count[63:3] + 1, both
    // computed from the register alone.
    wire [3:0]  lo  = {1'b0, count[2:0]} + {1'b0, inc};
    wire [60:0] hi1 = count[63:3] + 61'd1;
    wire [63:0] sum = {lo[3] ? hi1 : count[63:3], lo[2:0]};
    // the carry out of bit WIDTH-1. Below 64 bits it shows in the sum above
    // the mask (a tiny counter can pass 2^WIDTH by more than 1). At 64 bits,
    // with inc <= 4: bits 63:3 all ones and a carry out of the low three (no
    // 64-bit compare).
    wire        carry = WIDTH < 64 ? (sum & ~MASK) != 64'd0 :
                        &count[63:3] && lo[3];

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
`ifdef SYNTHESIS
end endgenerate
`endif
endmodule

`ifdef SYNTHESIS
// One SB_MAC16 as a 32-bit accumulator: q <= load ? data : hold ? q :
// q + addend (+ ci, the lower block's carry out, with CARRY_IN), 0 from rst
// (the output reset); co is the carry out of bit 31.
module hpm_dsp_acc32 #(
    parameter integer CARRY_IN = 0
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        load,
    input  wire        hold,
    input  wire [31:0] addend,
    input  wire [31:0] data,
    input  wire        ci,
    output wire [31:0] q,
    output wire        co
);
    SB_MAC16 #(
        .TOPOUTPUT_SELECT(2'd1), .BOTOUTPUT_SELECT(2'd1),
        .TOPADDSUB_LOWERINPUT(2'd0), .BOTADDSUB_LOWERINPUT(2'd0),
        .TOPADDSUB_UPPERINPUT(1'b0), .BOTADDSUB_UPPERINPUT(1'b0),
        .TOPADDSUB_CARRYSELECT(2'd2), .BOTADDSUB_CARRYSELECT(CARRY_IN != 0 ? 2'd3 : 2'd0)
    ) u_mac (
        .CLK(clk), .CE(1'b1), .C(data[31:16]), .A(addend[31:16]), .B(addend[15:0]),
        .D(data[15:0]), .AHOLD(1'b0), .BHOLD(1'b0), .CHOLD(1'b0), .DHOLD(1'b0),
        .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(rst), .ORSTBOT(rst),
        .OLOADTOP(load), .OLOADBOT(load), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
        .OHOLDTOP(hold), .OHOLDBOT(hold), .CI(ci), .ACCUMCI(1'b0),
        .SIGNEXTIN(1'b0), .O(q), .CO(co), .ACCUMCO(), .SIGNEXTOUT()
    );
endmodule
`endif
