// hpm_a2_store: the increment table and the counters of counting architecture
// 2 (docs/hpm.md, "Counting architecture 2"): N counters of W bits
// (1..64) without a selector or a W-bit adder per counter.
//
// Table. Row c holds, for every counter n, inc_n = RESULT2 of selector n on
// class c's event vector, or 0 when the selector inhibits class c's mode
// (MINH/SINH/UINH fold into the table, the class contains the mode). One
// row is read per cycle for all counters. A write to selector n in cycle t
// refills column n from the new (legal) selector at the end of t.
// mcountinhibit is not in the table: it gates the row (on), so its timing
// stays immediate.
//
// Refill window. The counter whose selector was written last counts, while
// the window is open, the increment of the cycle before (the rule of
// architecture 3's two-stage live evaluator, docs/hpm.md, "Selector writes
// wait for the refill"): none in the window's first cycle (the write's own
// cycle counted with the old selector), and the window's last one is
// dropped.
//
// Counters. Each counter keeps its low LW = min(W, 8) bits here, added
// every cycle with its increment (0..4), and its upper UW = W - LW bits in
// a memory. A carry out of the low part sets the counter's pending-carry
// bit pc; a round-robin flush visits one counter per cycle and, if its pc
// is set, adds it into the upper part. The flush visits every counter
// within N <= 29 cycles and a low part needs at least 64 cycles (256 / 4)
// to carry again, so no carry is lost (checked in simulation). full =
// (upper == all ones), kept with the upper part, makes the wrap exact in
// the cycle of the low part's carry: the counter wraps when the low part
// carries, full is set and no carry is pending (pc set means the low part
// carried less than 64 cycles ago, so it cannot carry). The value software
// sees is {upper + pc, low}: the flush schedule is invisible (same
// semantics as hpm_counter). A write in cycle t (one counter, one half)
// replaces the value from the value at the start of t: the increment of t
// is dropped, pc cleared, full recomputed; it wins over a flush of the
// same counter in t.
//
// Lanes. A counter's table column and its low part share a lane of LL =
// LW + CB bits (CB = 1 from LW = 3 on: a lane's sum, at most 2^LW - 1 + 7,
// is below 2^(LW+CB)); LPW = 64 / LL lanes fill a 64-bit word (7 lanes of
// 9 bits), and the table's rows and the low parts are words of those. The
// simulated board, which evaluates this every cycle, adds a row into the
// low parts with one 64-bit add per word (5 for 29 counters); no carry
// crosses a lane, and the lanes' top bits are the carries, looked at only
// when one is set.
//
// Architecture 3 (the board's) has its own table and store, hpm_a3_table
// and hpm_a3_store.
`include "hpm_map.vh"
module hpm_a2_store #(
    // counters (>= 1). The default is 1 on purpose: yosys elaborates every
    // module it reads with its defaults, and the refill loop at 29 columns
    // (128 x 29 selector evaluations) takes minutes and GBs; hpm_unit
    // always sets N.
    parameter integer N  = 1,
    parameter integer W  = 64,                // their width (1..64)
    parameter integer LL = (W < 8 ? W : 8) + (W < 3 ? 4 - W : 1)   // lane width (do not override)
) (
    input  wire           clk,
    input  wire           rst,
    // the table
    input  wire [6:0]     cls,                // this cycle's class
    input  wire [N-1:0]   on,                 // counter n counts (its mcountinhibit bit is clear)
    input  wire           sel_we,             // a selector is written in this cycle (implemented or not) ...
    input  wire [N-1:0]   col_we,             // ... implemented selector n (one-hot or 0)
    input  wire [63:0]    sel,                // its value after the write (legal)
    input  wire           window,             // the refill window is open in this cycle
    // the counters
    input  wire [4:0]     idx,                // the counter written or read, and the selector written (0..N-1)
    input  wire           we_lo,              // CSR write of bits 31:0
    input  wire           we_hi,              // CSR write of bits 63:32
    input  wire [31:0]    wdata,
    input  wire           rd,                 // rvalue is used in this cycle (a read or a write)
    output reg  [63:0]    rvalue,             // its value at the start of this cycle; 0 unless rd
    output reg  [N-1:0]   wrap                // counter n wraps in this cycle
);
/* verilator lint_off UNUSEDPARAM */ // the whole catalogue, not every index is used here
`include "hpm_events.vh"
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_off UNUSEDPARAM */ // kind_ev reads the kinds it needs
`include "hpm_classes.vh"
/* verilator lint_on UNUSEDPARAM */

`include "hpm_combine.vh"

    localparam integer LW  = W < 8 ? W : 8;
    localparam integer UW  = W - LW;          // 0..56
    localparam integer UB  = UW > 0 ? UW : 1; // storage width of an upper part
    localparam integer CB  = LL - LW;         // a lane's carry bits
    localparam integer LPW = 64 / LL;         // lanes per word
    localparam integer NW  = (N + LPW - 1) / LPW;    // words
    localparam [64:0] MASK65 = (65'd1 << W) - 65'd1;
    localparam [63:0] MASK   = MASK65[63:0];
    localparam [UB-1:0] ONES   = {UB{1'b1}};
    localparam [UB-1:0] ONES_1 = ONES - {{(UB - 1){1'b0}}, 1'b1};
    // the carry bits of every lane of a word
    function [63:0] lane_tops(input integer unused);
        integer l;
        begin
            lane_tops = 64'd0;
            for (l = 0; l < LPW; l = l + 1)
                lane_tops[LL * l + LW +: CB] = {CB{1'b1}};
        end
    endfunction
    localparam [63:0] TOPS = lane_tops(0);
    localparam [31:0] LAST32 = N - 1;
    localparam [4:0]  LAST   = LAST32[4:0];
    localparam [31:0] LPW32  = LPW;
    localparam [31:0] LL32   = LL;
    localparam [4:0]  LPW5   = LPW32[4:0];
    localparam [5:0]  LL6    = LL32[5:0];

    // the increment of selector s in class c
    /* verilator lint_off UNUSEDSIGNAL */ // OF, the high event-index bits, the OP bits 4:3
    function [2:0] row_inc(input [63:0] s, input [6:0] c);
        reg [63:0] v;
        reg [2:0]  e0, e1, e2, e3;
        reg        inh;
        begin
            v   = kind_ev(c[4:0]);
            // legal indexes are < EV_W <= 64: the low 6 bits address the vector
            e0  = {2'b00, v[s[`HPM_MHPMEVENT_EVENT0_LSB +: 6]]};
            e1  = {2'b00, v[s[`HPM_MHPMEVENT_EVENT1_LSB +: 6]]};
            e2  = {2'b00, v[s[`HPM_MHPMEVENT_EVENT2_LSB +: 6]]};
            e3  = {2'b00, v[s[`HPM_MHPMEVENT_EVENT3_LSB +: 6]]};
            inh = mode_inhibited(s[`HPM_MHPMEVENT_MINH_LSB:`HPM_MHPMEVENT_UINH_LSB], c[6:5]);
            row_inc = inh ? 3'd0 : combine(s[`HPM_MHPMEVENT_OP_TYPE2_LSB +: 3], combine(s[`HPM_MHPMEVENT_OP_TYPE0_LSB +: 3], e0, e1),
                                                     combine(s[`HPM_MHPMEVENT_OP_TYPE1_LSB +: 3], e2, e3));
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // word and bit of counter j's lane
    function [2:0] wd(input [4:0] j);
        /* verilator lint_off UNUSEDSIGNAL */ // j / LPW <= 4
        reg [4:0] q;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            q  = j / LPW5;
            wd = q[2:0];
        end
    endfunction
    function [5:0] bt(input [4:0] j);
        bt = LL6 * {1'b0, j % LPW5};
    endfunction

    // (rows of 8 words and 8 words of low parts, NW <= 5 of them used:
    // a row's words are addressed by {class, word})
    reg  [63:0]   tab [0:1023];               // row c: words 8c ..; a lane's bits above 2 are 0
    reg  [63:0]   low [0:7];                  // lane n: {CB zeros, low part of counter n}
    reg  [UB-1:0] upper [0:31];               // one word per access; N and up unused
    /* verilator lint_off UNUSEDSIGNAL */ // bits N and up stay 0
    reg  [31:0]   pc, full;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [4:0]    fptr;                       // the counter the flush visits
    // the counter whose window is open: its lane (word, bit), whether it
    // exists, and its increment of the cycle before
    reg  [2:0]    lag_w;
    reg  [5:0]    lag_b;
    reg           lag_ok;
    reg  [2:0]    lag_inc;

    // the value of counter j at the start of this cycle
    function [63:0] value(input [4:0] j);
        reg [UB-1:0]  u;
        reg [LW-1:0]  l;
        /* verilator lint_off UNUSEDSIGNAL */ // lw: the other lanes; zero-extended, then truncated to 64
        reg [63:0]    lw;
        reg [63+UB+LW:0] t1;
        reg [63+LW:0]    t0;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            lw = low[wd(j)] >> bt(j);
            l  = lw[LW-1:0];
            u  = upper[j] + {{(UB - 1){1'b0}}, pc[j]};
            t1 = {64'd0, u, l};
            t0 = {64'd0, l};
            value = (UW > 0 ? t1[63:0] : t0[63:0]) & MASK;
        end
    endfunction
    always @(*) begin                         // only when used: the simulated board's cost
        rvalue = 64'd0;
        if (rd)
            rvalue = value(idx);
    end

    // the written value (the other half from the value at the start of t)
    /* verilator lint_off UNUSEDSIGNAL */ // the bits at and above W are 0
    wire [63:0] wval = {we_hi ? wdata : rvalue[63:32], we_lo ? wdata : rvalue[31:0]} & MASK;
    /* verilator lint_on UNUSEDSIGNAL */
    wire        we   = we_lo || we_hi;

    // this cycle's row as counted, added into the low parts
    reg  [63:0]  inc [0:7];
    reg  [63:0]  sum [0:7];
    reg  [63:0]  tops;
    reg  [N-1:0] carry;
    integer k, n;
    always @(*) begin
        for (k = 0; k < NW; k = k + 1)
            inc[k] = tab[{cls, k[2:0]}];
        if (window && lag_ok)
            inc[lag_w][lag_b +: 3] = lag_inc;
        if (on != {N{1'b1}})
            for (n = 0; n < N; n = n + 1)
                if (!on[n])
                    inc[wd(n[4:0])][bt(n[4:0]) +: 3] = 3'd0;
        tops = 64'd0;
        for (k = 0; k < NW; k = k + 1) begin
            sum[k] = low[k] + inc[k];
            tops   = tops | (sum[k] & TOPS);
        end
        carry = {N{1'b0}};
        if (tops != 64'd0)
            for (n = 0; n < N; n = n + 1)
                carry[n] = sum[wd(n[4:0])][{26'd0, bt(n[4:0])} + LW +: CB] != {CB{1'b0}} &&
                           !(we && idx == n[4:0]);
        // with an upper part a counter wraps when its low part carries into
        // an all-ones upper part; without one, on the carry itself. A written
        // counter neither carries nor wraps (the write wins).
        wrap = UW > 0 ? carry & full[N-1:0] & ~pc[N-1:0] : carry;
    end

    // The table is written with blocking assignments: this block is the
    // only process that reads it at the clock edge (lag_inc, read first),
    // and the row read above sees the refilled table from the next cycle
    // on, as with non-blocking ones (which Verilator does not take for a
    // memory inside a loop).
    integer r, c;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        if (rst) begin
            for (r = 0; r < 1024; r = r + 1)
                tab[r] = 64'd0;                 // every selector resets to 0: counts nothing
            lag_ok  <= 1'b0;
            lag_inc <= 3'd0;
        end else begin
            lag_inc <= sel_we || !lag_ok ? 3'd0 : tab[{cls, lag_w}][lag_b +: 3];
            if (sel_we) begin
                lag_ok <= col_we != {N{1'b0}};
                lag_w  <= wd(idx);
                lag_b  <= bt(idx);
            end
            if (col_we != {N{1'b0}})
                for (c = 0; c < N; c = c + 1)
                    if (col_we[c])
                        for (r = 0; r < 128; r = r + 1)
                            tab[{r[6:0], wd(c[4:0])}][bt(c[4:0]) +: 3] = row_inc(sel, r[6:0]);
        end
    end
    /* verilator lint_on BLKSEQ */

    integer i;
    always @(posedge clk) begin
        if (rst) begin
            for (i = 0; i < NW; i = i + 1)
                low[i] <= 64'd0;
            for (i = 0; i < N; i = i + 1)
                upper[i] <= {UB{1'b0}};
            pc    <= 32'd0;
            full  <= 32'd0;
            fptr  <= 5'd0;
        end else begin
            for (i = 0; i < NW; i = i + 1)
                low[i] <= sum[i] & ~TOPS;
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
                low[wd(idx)][bt(idx) +: LL] <= {{CB{1'b0}}, wval[LW-1:0]};
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
            $display("hpm_a2_store: a carry while one is pending (pc %h, carry %h)", pc, carry);
            $fatal;
        end
`endif
endmodule
