// hpm_a2_bank: mhpmcounter3.. and mhpmevent3.. in counting architecture 2,
// the simulated board's (docs/hpm.md, "Counting architecture 2"): a cycle
// class (hpm_class) reads one row of an increment table for every counter,
// and the counters keep their low bits in lanes added a word at a time
// (hpm_a2_store); the selectors are registers read only by CSR accesses
// (hpm_a2_selstore). Same ports (hpm_bank_ports.vh) and semantics as
// hpm_a3_bank; hpm_unit chooses one. Verilator evaluates every process in every cycle, so the
// values only a CSR access uses are computed only in the cycles that use
// them (rd) and are 0 in the others (docs/hpm.md, "Simulation cost").
`include "hpm_map.vh"
module hpm_a2_bank #(
    parameter integer N    = 1,               // counters (1..29)
    parameter integer W    = 64,              // their width (1..64)
    parameter integer EV_W = `HPM_EVENTS_BUS_W
) (
`include "hpm_bank_ports.vh"
);
`include "hpm_selgate.vh"
    wire [6:0] cls;
    hpm_class #(.EV_W(EV_W)) u_class (
        .clk(clk), .rst(rst), .ev(ev), .ev_n(ev_n), .priv(priv), .cls(cls)
    );
    wire [4:0] n   = idx - 5'd3;            // the counter's number
    wire       evw = sel_we && impl;
    // the selector after this cycle's write: the written half from wdata,
    // the other from the current value, legalised by the gate (0 when no write)
    wire [63:0] cur;
    wire [63:0] sel_new = evw ? (sel_hi ? {wdata, cur[31:0]} : {cur[63:32], wdata}) &
                                sel_gate_of(1'b0, 1'b1, sel_hi, wok) : 64'd0;
    reg  [N-1:0] col_we;                    // the selector written, one-hot
    integer i;
    always @(*)
        for (i = 0; i < N; i = i + 1)
            col_we[i] = evw && n == i[4:0];
    // the table and the counters; mcountinhibit gates the row (immediate)
    wire [N-1:0] wr;
    wire [63:0]  ctr;
    hpm_a2_store #(.N(N), .W(W)) u_store (
        .clk(clk), .rst(rst), .cls(cls), .on(~inh),
        .sel_we(sel_we), .col_we(col_we), .sel(sel_new),
        .window(left != 8'd0), .idx(n),
        .we_lo(we_lo && impl), .we_hi(we_hi && impl),
        .wdata(wdata), .rd(rd), .rvalue(ctr), .wrap(wr)
    );
    hpm_a2_selstore #(.N(N)) u_selstore (
        .clk(clk), .rst(rst), .we(evw), .we_hi(sel_hi),
        .widx(n), .wval(sel_new), .ridx(n),
        .rd(rd), .rvalue(cur), .set_of(wr), .of(of_rd)
    );
    assign value = rsel ? cur : ctr;
    // LCOFI in the cycle after the wrap, as architecture 3 finds it
    reg lcofi_q;
    always @(posedge clk)
        lcofi_q <= !rst && (wr & ~of_rd) != {N{1'b0}};
    assign lcofi = lcofi_q;
endmodule
