// hpm_store: the counter store of counting architecture v2 (docs/hpm.md,
// "Counting architecture v2"): N counters of W bits (1..64) without a W-bit
// adder per counter.
//
// Each counter keeps its low LW = min(W, 8) bits in flip-flops, added every
// cycle with its increment (0..4), and its upper UW = W - LW bits in a
// memory (an EBR on the iCE40). A carry out of the low part sets the
// counter's pending-carry bit pc; a round-robin flush visits one counter per
// cycle and, if its pc is set, adds it into the upper part. The flush
// visits every counter within N <= 29 cycles and a low part needs at least
// 64 cycles (256 / 4) to carry again, so no carry is lost (checked in
// simulation). full = (upper == all ones), kept with the upper part, makes
// the wrap exact in the cycle of the low part's carry: the counter wraps
// when the low part carries, full is set and no carry is pending (pc set
// means the low part carried less than 64 cycles ago, so it cannot carry).
// The value software sees is {upper + pc, low}: the flush schedule is
// invisible (same semantics as hpm_counter).
//
// A write in cycle t (one counter, one half) replaces the value from the
// value at the start of t: the increment of t is dropped, pc cleared, full
// recomputed; it wins over a flush of the same counter in t.
//
// The low parts are lanes of LL = LW + CB bits in one vector, the top CB
// bits of each lane 0 between cycles (CB = 1 from LW = 3 on: a lane's sum,
// at most 2^LW - 1 + 7, is below 2^(LW+CB)): all counters add their increments (given
// in the same lanes) in one wide add, no carry crosses a lane (a lane's sum
// is below 2^LL), and the carries are the lanes' top bits, looked at only
// when one is set (the simulated board does a few wide operations per
// cycle instead of one per counter).
//
// Architecture 3 (the iCE40 form) has its own store, hpm_estore.
module hpm_store #(
    parameter integer N  = 29,                // counters (>= 1)
    parameter integer W  = 64,                // their width (1..64)
    parameter integer LL = (W < 8 ? W : 8) + (W < 3 ? 4 - W : 1)   // lane width (do not override)
) (
    input  wire           clk,
    input  wire           rst,
    input  wire [N*LL-1:0] inc,               // lane n: counter n's increment (0..4), filtered
    input  wire [4:0]     idx,                // the counter written and read (0..N-1)
    input  wire           we_lo,              // CSR write of bits 31:0
    input  wire           we_hi,              // CSR write of bits 63:32
    input  wire [31:0]    wdata,
    output wire [63:0]    rvalue,             // its value at the start of this cycle
    output reg  [N-1:0]   wrap                // counter n wraps in this cycle
);
    localparam integer LW = W < 8 ? W : 8;
    localparam integer UW = W - LW;           // 0..56
    localparam integer UB = UW > 0 ? UW : 1;  // storage width of an upper part
    localparam [64:0] MASK65 = (65'd1 << W) - 65'd1;
    localparam [63:0] MASK   = MASK65[63:0];
    localparam [UB-1:0] ONES = {UB{1'b1}};
    localparam integer CB = LL - LW;          // a lane's carry bits
    localparam [LL-1:0] LANE_TOP = {{CB{1'b1}}, {LW{1'b0}}};
    localparam [N*LL-1:0] TOPS = {N{LANE_TOP}};    // the carry bits of every lane

    reg  [N*LL-1:0] low;                      // lane n: {CB zeros, low part of counter n}
    reg  [UB-1:0]   upper [0:31];             // an array (one word per access); N and up unused
    /* verilator lint_off UNUSEDSIGNAL */ // bits N and up stay 0
    reg  [31:0]     pc, full;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [4:0]      fptr;                     // the counter the flush visits
    localparam [31:0] LAST32 = N - 1;
    localparam [4:0]  LAST   = LAST32[4:0];

    // ---- low parts: one add of all lanes
    wire [N*LL-1:0] sum  = low + inc;
    wire [N*LL-1:0] tops = sum & TOPS;

    // the value of counter j at the start of this cycle
    function [63:0] value(input [4:0] j);
        reg [UB-1:0]  u;
        reg [LW-1:0]  l;
        /* verilator lint_off UNUSEDSIGNAL */ // zero-extended, then truncated to 64
        reg [63+UB+LW:0] t1;
        reg [63+LW:0]    t0;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            l  = low[LL * j +: LW];
            u  = upper[j] + {{(UB - 1){1'b0}}, pc[j]};
            t1 = {64'd0, u, l};
            t0 = {64'd0, l};
            value = (UW > 0 ? t1[63:0] : t0[63:0]) & MASK;
        end
    endfunction
    assign rvalue = value(idx);

    // the written value (the other half from the value at the start of t)
    /* verilator lint_off UNUSEDSIGNAL */ // the bits at and above W are 0
    wire [63:0] wval = {we_hi ? wdata : rvalue[63:32], we_lo ? wdata : rvalue[31:0]} & MASK;
    /* verilator lint_on UNUSEDSIGNAL */
    wire        we   = we_lo || we_hi;

    reg  [N-1:0]    carry;
    integer n;
    always @(*) begin
        carry = {N{1'b0}};
        if (tops != {N*LL{1'b0}})
            for (n = 0; n < N; n = n + 1)
                carry[n] = tops[LL * n + LW +: CB] != {CB{1'b0}} && !(we && idx == n[4:0]);
        // with an upper part a counter wraps when its low part carries into
        // an all-ones upper part; without one, on the carry itself. A written
        // counter neither carries nor wraps (the write wins).
        wrap = UW > 0 ? carry & full[N-1:0] & ~pc[N-1:0] : carry;
    end

    localparam [UB-1:0] ONES_1 = ONES - {{(UB - 1){1'b0}}, 1'b1};
    integer r;
    always @(posedge clk) begin
        if (rst) begin
            low   <= {N*LL{1'b0}};
            for (r = 0; r < N; r = r + 1)
                upper[r] <= {UB{1'b0}};
            pc    <= 32'd0;
            full  <= 32'd0;
            fptr  <= 5'd0;
        end else begin
            low  <= sum & ~TOPS;
            fptr <= fptr == LAST ? 5'd0 : fptr + 5'd1;
            if (UW > 0) begin
                // the flush: counter fptr's pending carry into its upper part
                if (carry != {N{1'b0}})
                    pc <= pc | {{(32 - N){1'b0}}, carry};
                if (pc[fptr]) begin
                    upper[fptr]            <= upper[fptr] + {{(UB - 1){1'b0}}, 1'b1};
                    full[fptr]             <= upper[fptr] == ONES_1;   // all ones after the add
                    pc[fptr]               <= 1'b0;
                end
            end
            if (we) begin
                low[LL * idx +: LL] <= {{CB{1'b0}}, wval[LW-1:0]};
                if (UW > 0) begin
                    upper[idx]            <= wval[LW +: UB];
                    full[idx]             <= wval[LW +: UB] == ONES;
                    pc[idx]               <= 1'b0;
                end
            end
        end
    end

`ifndef SYNTHESIS
    // the flush keeps up: no low part carries while its previous carry waits
    always @(posedge clk)
        if (!rst && UW > 0 && (carry & pc[N-1:0]) != {N{1'b0}}) begin
            $display("hpm_store: a carry while one is pending (pc %h, carry %h)", pc, carry);
            $fatal;
        end
`endif
endmodule
