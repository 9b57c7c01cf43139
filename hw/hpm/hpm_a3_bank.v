// hpm_a3_bank: mhpmcounter3.. and mhpmevent3.. in counting architecture 3,
// the board's (docs/hpm.md, "Counting architecture 3"): a cycle class
// (hpm_class) reads one row of an increment table in EBR (hpm_a3_table) for
// every counter; the counters' upper parts and the selectors share one EBR
// memory (hpm_a3_store). Same ports (hpm_bank_ports.vh) and semantics as
// hpm_a2_bank; hpm_unit chooses one.
//
// The table's row arrives a cycle late: the store adds the previous cycle's
// increments, and a wrap seen in t is the wrap of t-1. Its OF is read as
// set from t on (OF | wrap), it sets OF at the end of t (a selector write in
// t wins), and LCOFI, when OF was clear at the start of t-1, goes to the
// core in t, which sets LCOFIP at the end of t (core_csr). Counter and
// selector values are read from the store's memory in the read cycle of a
// CSR access (the row taken in the cycle before, take).
`include "hpm_map.vh"
module hpm_a3_bank #(
    parameter integer N      = 1,             // counters (1..29)
    parameter integer W      = 64,            // their width (1..64)
    parameter integer EV_W   = `HPM_EVENTS_BUS_W,
    parameter integer ROWS   = 72,            // table rows refilled per copy (hpm_unit's REFILL / 2)
    parameter integer EV_ROM = 1              // the refill's event bits from a ROM (hpm_a3_table)
) (
`include "hpm_bank_ports.vh"
);
`include "hpm_selgate.vh"
    wire [6:0] cls;
    hpm_class #(.EV_W(EV_W)) u_class (
        .clk(clk), .rst(rst), .ev(ev), .ev_n(ev_n), .priv(priv), .cls(cls)
    );
    // The selector write's gate on the row the store writes; all ones in
    // every other cycle (the store also writes counters and the flush
    // through it) but reset's (the store clears its rows). Not for an
    // unimplemented selector: the flush may write then.
    wire evw = sel_we && impl;
    wire [63:0] sel_gate = sel_gate_of(rst, evw, sel_hi, wok);
    wire [62:0] sel_new;                    // the selector after the write (hpm_a3_store)
    /* verilator lint_off UNUSEDSIGNAL */ // bits 2:0 and above 2 + N: no counter
    wire [31:0] written = ((we_lo || we_hi) && impl) ? 32'd1 << idx : 32'd0;
    /* verilator lint_on UNUSEDSIGNAL */
    // the store's lanes: 7 low bits up to 14 counters, else 8
    localparam integer LB3 = N <= 14 ? 7 : 8;
    localparam integer LL3 = (W < LB3 ? W : LB3) + (W < 3 ? 4 - W : 1);
    wire [LL3*N-1:0] tab_inc;
    // (an unimplemented selector's write, widx N.., leaves no column live)
    hpm_a3_table #(.N(N), .LANE(LL3), .EV_W(EV_W), .ROWS(ROWS), .EV_ROM(EV_ROM)) u_table (
        .clk(clk), .rst(rst), .kind(cls[4:0]), .priv(cls[6:5]), .ev(ev),
        .on(~inh & ~written[3 +: N]), .left(left),
        .we(sel_we), .widx(idx - 5'd3), .sel({1'b0, sel_new}),
        .inc(tab_inc)
    );
    wire [N-1:0] wr, of;
    wire [63:0]  st_value;
    hpm_a3_store #(.N(N), .W(W)) u_store (
        .clk(clk), .rst(rst), .inc(tab_inc),
        .take(take && impl), .rsel(rsel), .ridx(idx - 5'd3),
        .we_lo(we_lo && impl), .we_hi(we_hi && impl), .wdata(wdata),
        .sel_we(evw), .sel_we_hi(sel_hi), .sel_gate(sel_gate),
        .value(st_value), .sel_new(sel_new), .wrap(wr), .of(of)
    );
    assign value = st_value;
    assign of_rd = of | wr;
    reg [N-1:0] of_q;                       // OF at the start of the previous cycle
    always @(posedge clk)
        of_q <= of;
    assign lcofi = (wr & ~of_q) != {N{1'b0}};
endmodule
