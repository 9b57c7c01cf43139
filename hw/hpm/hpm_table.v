// hpm_table: the increment table of counting architecture v2 (docs/hpm.md,
// "Counting architecture v2"). Row c holds, for every implemented counter n,
// inc_n = RESULT2 of selector n on class c's event vector, or 0 when the
// selector inhibits class c's mode (MINH/SINH/UINH fold into the table, the
// class contains the mode). One row is read per cycle for all counters;
// mcountinhibit is not in the table (hpm_unit gates after it, so its
// timing stays immediate).
//
// A write to selector n in cycle t refills column n from the new (legal)
// selector at the end of t, so the new selector counts from t+1 exactly as
// a per-counter selector does: no blind window, the same semantics as
// architecture 1. This table is read combinationally (flip-flops): in the
// simulated board, one array read per cycle instead of 29 selector
// evaluations.
module hpm_table #(
    // columns: implemented counters (>= 1). The default is 1 on purpose:
    // yosys elaborates every module it reads with its defaults, and the
    // refill loop at 29 columns (128 x 29 selector evaluations into an
    // 11k-bit vector) takes minutes and GBs; hpm_unit always sets N.
    parameter integer N    = 1,
    // bits per column in a row (>= 3): the increment sits in the low 3 bits
    // of its lane, the rest is 0, so the row is already in hpm_store's lane
    // layout (one wide add for all counters)
    parameter integer LANE = 3
) (
    input  wire           clk,
    input  wire           rst,
    input  wire [6:0]     cls,                // this cycle's class
    output wire [LANE*N-1:0] inc,             // counter n's increment in bits LANE*n+2:LANE*n
    input  wire [N-1:0]   we,                 // selector n is written in this cycle
    input  wire [63:0]    sel                 // its value after the write (legal)
);
/* verilator lint_off UNUSEDPARAM */ // the whole catalogue, not every index is used here
`include "hpm_events.vh"
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_off UNUSEDPARAM */ // kind_ev reads the kinds it needs
`include "hpm_classes.vh"
/* verilator lint_on UNUSEDPARAM */

`include "hpm_combine.vh"

    // the increment of selector s in class c
    /* verilator lint_off UNUSEDSIGNAL */ // OF, the high event-index bits, the OP bits 4:3
    function [2:0] row_inc(input [63:0] s, input [6:0] c);
        reg [63:0] v;
        reg [2:0]  e0, e1, e2, e3;
        reg        inh;
        begin
            v   = kind_ev(c[4:0]);
            // legal indexes are < EV_W <= 64: the low 6 bits address the vector
            e0  = {2'b00, v[s[5:0]]};
            e1  = {2'b00, v[s[15:10]]};
            e2  = {2'b00, v[s[25:20]]};
            e3  = {2'b00, v[s[35:30]]};
            inh = mode_inhibited(s[62:60], c[6:5]);
            row_inc = inh ? 3'd0 : combine(s[52:50], combine(s[42:40], e0, e1),
                                                     combine(s[47:45], e2, e3));
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // 128 rows of LANE*N bits, row c at bits RP*c; one packed vector so that
    // the refill's loop can use non-blocking assignments. A row takes RP bits,
    // a multiple of 32 (the rest 0): the simulated board's row read is then
    // a copy of whole words instead of a shift across them.
    localparam integer RW = LANE * N;
    localparam integer RP = (RW + 31) / 32 * 32;
    reg [128*RP-1:0] tab;
    integer r, n;
    always @(posedge clk) begin
        if (rst)
            /* verilator lint_off WIDTHCONCAT */ // 128 rows x RP bits, on purpose
            tab <= {128*RP{1'b0}};              // every selector resets to 0: counts nothing
            /* verilator lint_on WIDTHCONCAT */
        else if (we != {N{1'b0}}) begin
            for (n = 0; n < N; n = n + 1)
                if (we[n])
                    for (r = 0; r < 128; r = r + 1)
                        tab[RP * r + LANE * n +: 3] <= row_inc(sel, r[6:0]);
        end
    end
    assign inc = tab[RP * cls +: RW];
endmodule
