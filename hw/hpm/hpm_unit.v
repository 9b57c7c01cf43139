// hpm_unit: Zicntr + Zihpm + Sscofpmf + Smcntrpmf. Owns every counter CSR:
//   mcycle(h), minstret(h)             64-bit, filtered by mcyclecfg/minstretcfg
//   mhpmcounter3..31(h)                HPM_NUM of them implemented, HPM_WIDTH bits
//   mhpmevent3..31(h)                  their selectors (the bank: hpm_a3_bank or hpm_a2_bank)
//   mcountinhibit, mcyclecfg(h), minstretcfg(h), scountovf
//   cycle/instret/hpmcounterN(h)       the user-level read-only shadows
//   the top-down unit's, with HPM_TD   hpm_topdown (counts in mcycle's cycles)
// It claims these addresses on the core's CSR hook (docs/hpm.md, "Which
// addresses exist"); the core keeps the privilege, read-only and
// counter-enable checks and the time CSR.
//
// Timing (docs/hpm.md): a CSR read in cycle t sees the values at the start of
// t; a write in cycle t is visible from t+1 and replaces that cycle's increment
// of the written counter; mcountinhibit and the mode filters written in cycle
// t apply from cycle t+1.
//
// A write is legalised once, here, from the addressed register's current
// value (the other half) and the written half; the selectors and counters
// only store it.
`include "hpm_map.vh"
module hpm_unit #(
    parameter integer HPM_NUM    = 29,      // implemented mhpmcounters (0..29)
    parameter integer HPM_WIDTH  = 64,      // their width (1..64)
    parameter integer EV_W       = `HPM_EVENTS_BUS_W,   // event bus width: HPM_EV_BUS_W (hpm_events.vh)
    parameter integer EV_INSTRET = `HPM_EVENTS_INSTRET, // index of the "instructions" event
    // SB_MAC16 blocks mcycle and minstret may use on the iCE40 (hpm_counter
    // DSP, two each). 0: all flip-flops (what Verilator builds anyway)
    parameter integer DSP_BUDGET = 0,
    // counting architecture of mhpmcounter3.. (docs/hpm.md), the same
    // semantics and timing: 3, the board's (hpm_a3_bank: the increment table
    // and the counters' upper parts in EBR); 2, the simulated board's
    // (hpm_a2_bank: the table in flip-flops, the counters added a word at a
    // time, several times faster in Verilator)
    parameter integer HPM_ARCH   = 3,
    // architecture 3: 1 reads the refill's event bits from a ROM (hpm_a3_table
    // EV_ROM: 4 more EBR, the decoder's LUTs fewer), 0 decodes them in logic
    parameter integer EV_ROM     = 1,
    parameter integer HPM_TD     = 0        // 1: the top-down unit, 2: the board's two counts (hpm_topdown)
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [EV_W-1:0] ev,              // this cycle's events, bit i = event i
    /* verilator lint_off UNUSEDSIGNAL */ // HPM_NUM = 0: no cycle class
    input  wire [EV_W-1:0] ev_n,            // ... as if no interrupt were taken (the class)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [1:0]      priv,            // this cycle's privilege mode

    // CSR hook
    input  wire [11:0]     csr_addr,
    input  wire [31:0]     csr_wdata,       // the value software writes
    input  wire            csr_we,          // commit strobe
    input  wire [31:0]     mcounteren,      // masks scountovf when read from S
    output wire            csr_hit,
    output reg  [31:0]     csr_rdata,
    output reg  [31:0]     csr_wval,        // value after the write (WARL)
    input  wire            csr_op,          // a CSR instruction is in X (csr_addr is its CSR) ...
    input  wire            csr_write,       // ... and it writes
    output wire            csr_wait,        // it waits in X (docs/timing.md)

    output wire            lcofi            // a counter wrapped with OF clear in the previous cycle: set mip.LCOFIP
);
    localparam [1:0] PRIV_M = 2'b11;
    localparam [64:0] MASK65   = (65'd1 << HPM_WIDTH) - 65'd1;
    localparam [63:0] HPM_MASK = MASK65[63:0];

    // ---------------------------------------------------------- address decode
    wire [4:0] idx      = csr_addr[4:0];
    wire       ctr_lo_m = (csr_addr >> 5) == (`HPM_CSR_MCYCLE >> 5); // 0xB00-0xB1F
    wire       ctr_hi_m = (csr_addr >> 5) == (`HPM_CSR_MCYCLEH >> 5); // 0xB80-0xB9F
    wire       ctr_lo_u = (csr_addr >> 5) == (`HPM_CSR_CYCLE >> 5); // 0xC00-0xC1F
    wire       ctr_hi_u = (csr_addr >> 5) == (`HPM_CSR_CYCLEH >> 5); // 0xC80-0xC9F
    wire       ctr_lo   = ctr_lo_m || ctr_lo_u;
    wire       ctr_hi   = ctr_hi_m || ctr_hi_u;
    wire       sel_lo   = (csr_addr >> 5) == (`HPM_CSR_MCOUNTINHIBIT >> 5); // 0x320-0x33F
    wire       sel_hi   = (csr_addr >> 5) == (`HPM_CSR_MCYCLECFGH >> 5); // 0x720-0x73F
    wire       is_ovf   = csr_addr == `HPM_CSR_SCOUNTOVF;
    wire       is_evt   = (sel_lo || sel_hi) && idx >= 5'd3; // mhpmevent3..31(h)

    // mcountinhibit (0x320) and the Smcntrpmf filters (0x321/0x322, h 0x721/0x722)
    // live at the bottom of the selector space. Index 1 of the counter spaces
    // is time (the core's; 0xB01/0xB81 do not exist) and 0x720 does not exist
    // (mcountinhibit has no high half).
    wire       td_hit;
    wire [31:0] td_rdata, td_wval;
    wire        td_lcofi;      // HPM_TD = 2: a top-down count's bit 15 changed
    assign csr_hit = ((ctr_lo || ctr_hi) && idx != 5'd1) || sel_lo || (sel_hi && idx != 5'd0) ||
                     is_ovf || td_hit;

    // A write to a selector address (implemented or not) starts a refill
    // window of REFILL cycles; another one waits in X until it ends
    // (docs/hpm.md, "Selector writes wait for the refill"). The same rule in
    // both architectures; architecture 3 refills one table row per cycle,
    // each of the table's two copies in turn (72 rows each: 3 privileges x
    // 24 kinds). Reset opens a window too (cycles 0..143: architecture 3
    // clears its table).
    localparam [7:0] REFILL = 8'd144;
    reg [7:0] refill_left;
    always @(posedge clk)
        if (rst)                            // architecture 3 clears its table
            refill_left <= REFILL;
        else if (csr_we && is_evt)
            refill_left <= REFILL;
        else if (refill_left != 8'd0)
            refill_left <= refill_left - 8'd1;
    // Every access to a counter or selector 3..31 (mhpmcounter, hpmcounter,
    // mhpmevent, either half, implemented or not) waits in X: it reads the
    // register in a cycle of its own (rd_cyc, the value registered in
    // rd_q), and commits after it, where the core writes rd and forms the
    // write data from rd_q. A read commits in the next cycle (3 X cycles);
    // a write takes another cycle first (4 X cycles), a selector write not
    // before the refill window ends (docs/timing.md). The same rule in both
    // architectures; architecture 3 reads the memory row in the cycle before
    // the read cycle (take1) and, for a write, again in the cycle before
    // the commit (take2), never in two cycles in a row (hpm_a3_store).
    //   ph 0: before the read (take1 when it leaves), 1: the read cycle,
    //   2: a read's commit or a write's take2, 3: a write's commit
    wire       slow   = (ctr_lo || ctr_hi || sel_lo || sel_hi) && idx >= 5'd3;
    wire       acc    = csr_op && slow;
    reg  [1:0] ph;
    wire       take1  = acc && ph == 2'd0 && !(csr_write && is_evt && refill_left > 8'd3);
    wire       rd_cyc = acc && ph == 2'd1;      // (not after a trapped access's take1)
    assign csr_wait = acc && ph != 2'd3 && !(ph == 2'd2 && !csr_write);
    always @(posedge clk)
        if (rst || !csr_wait)
            ph <= 2'd0;
        else if (take1 || ph != 2'd0)
            ph <= ph + 2'd1;
    /* verilator lint_off UNUSEDSIGNAL */ // HPM_NUM = 0: no bank
    wire take      = take1 || (acc && ph == 2'd2 && csr_write);
    /* verilator lint_on UNUSEDSIGNAL */

    // the counter written, by index (the machine-level spaces only; the user
    // shadows are read-only and the core traps writes to them)
    wire ctr_we_lo = csr_we && ctr_lo_m;
    wire ctr_we_hi = csr_we && ctr_hi_m;

    // ------------------------------------------------ mcountinhibit, filters
    // bit 1 and the bits of counters that do not exist (3 + HPM_NUM ..) read 0
    localparam [32:0] INH_M33  = (33'd1 << (3 + HPM_NUM)) - 33'd1;
    localparam [31:0] INH_MASK = INH_M33[31:0] & 32'hFFFF_FFFD;
    reg  [31:0] inhibit;
    reg  [2:0]  cycle_inh, instret_inh;      // MINH, SINH, UINH of mcyclecfg / minstretcfg

    always @(posedge clk) begin
        if (rst) begin
            inhibit     <= 32'd0;
            cycle_inh   <= 3'd0;
            instret_inh <= 3'd0;
        end else if (csr_we) begin
            if (sel_lo && idx == 5'd0) inhibit     <= csr_wdata & INH_MASK;
            if (sel_hi && idx == 5'd1) cycle_inh   <= csr_wdata[30:28];
            if (sel_hi && idx == 5'd2) instret_inh <= csr_wdata[30:28];
        end
    end

`include "hpm_combine.vh"
`include "hpm_selgate.vh"

    // ------------------------------------------------------ mcycle, minstret
    wire [63:0] mcycle, minstret;
    /* verilator lint_off UNUSEDSIGNAL */ // mcycle and minstret have no overflow flag
    wire        mcycle_wrap, minstret_wrap;
    /* verilator lint_on UNUSEDSIGNAL */
    wire        cycle_on   = !inhibit[0] && !mode_inhibited(cycle_inh, priv);
    wire        instret_on = !inhibit[2] && !mode_inhibited(instret_inh, priv);

    wire        mcycle_we = ctr_we_lo && idx == 5'd0;   // also the board's top-down reset
    hpm_counter #(.WIDTH(64), .DSP(DSP_BUDGET >= 2 ? 1 : 0)) u_mcycle (
        .clk(clk), .rst(rst), .inc({2'b00, cycle_on}),
        .we_lo(mcycle_we), .we_hi(ctr_we_hi && idx == 5'd0),
        .wdata(csr_wdata), .value(mcycle), .wrap(mcycle_wrap)
    );
    hpm_counter #(.WIDTH(64), .DSP(DSP_BUDGET >= 4 ? 1 : 0)) u_minstret (
        .clk(clk), .rst(rst), .inc({2'b00, instret_on && ev[EV_INSTRET]}),
        .we_lo(ctr_we_lo && idx == 5'd2), .we_hi(ctr_we_hi && idx == 5'd2),
        .wdata(csr_wdata), .value(minstret), .wrap(minstret_wrap)
    );

    hpm_topdown #(.HPM_TD(HPM_TD), .EV_W(EV_W)) u_topdown (
        .clk(clk), .rst(rst), .on(cycle_on), .mcycle_we(mcycle_we),
        .ev(ev), .csr_addr(csr_addr), .csr_wdata(csr_wdata),
        .csr_we(csr_we), .csr_rd(csr_op), .hit(td_hit), .rdata(td_rdata), .wval(td_wval),
        .lcofi(td_lcofi)
    );

    // -------------------------------------------- mhpmcounter3.. / mhpmevent3..
    // the implemented mhpmcounters/mhpmevents, by index
    localparam [31:0] IMPL = ((32'd1 << (3 + HPM_NUM)) - 32'd1) & ~32'd7;   // HPM_NUM <= 29
    localparam integer TN = HPM_NUM > 0 ? HPM_NUM : 1;
    wire [63:0]   store_val;                // the accessed counter or selector (the bank's timing)
    wire [TN-1:0] store_of;                 // OF of mhpmevent 3 + n, as read
    wire          store_lcofi;              // a counter wrapped while its OF was clear
    // A selector loads only the fields of the half written, except EV3
    // (bits 39:30), which straddles the halves: it is merged with the
    // addressed selector's other half.
    wire [63:0] evt_cur   = IMPL[idx] ? store_val : 64'd0;
    wire [9:0]  ev3_w     = sel_hi ? {csr_wdata[7:0], evt_cur[31:30]} : {evt_cur[39:32], csr_wdata[31:30]};
    wire [63:0] w         = {csr_wdata[31:8], ev3_w, csr_wdata[29:0]};

    // an index beyond the catalogue is not legal (a lookup of the index's
    // low bits, no magnitude compare); OR, AND, XOR, ADD are the legal OPs
    localparam integer EVB = $clog2(EV_W);
    localparam [(1 << EVB)-1:0] EV_OK = {(1 << EVB){1'b1}} >> ((1 << EVB) - EV_W);
    function ev_ok(input [9:0] e);
        ev_ok = e[9:EVB] == 0 && EV_OK[e[EVB-1:0]];
    endfunction
    function op_ok(input [4:0] f);
        op_ok = f == 5'b00001 || f == 5'b00010 || f == 5'b00100;
    endfunction
    // which written fields are legal; the banks store an illegal one as 0
    // (hpm_selgate.vh)
    wire [6:0] wok = {op_ok(w[`HPM_MHPMEVENT_OP_TYPE2]), op_ok(w[`HPM_MHPMEVENT_OP_TYPE1]),
                      op_ok(w[`HPM_MHPMEVENT_OP_TYPE0]), ev_ok(ev3_w), ev_ok(w[`HPM_MHPMEVENT_EVENT2]),
                      ev_ok(w[`HPM_MHPMEVENT_EVENT1]), ev_ok(w[`HPM_MHPMEVENT_EVENT0])};

    // The counting architecture, chosen here: one bank of counters and
    // selectors, the same ports (and timing) in both.
    generate
        if (HPM_NUM == 0) begin : g_none    // no mhpmcounter3..: nothing counts, reads or wraps
            assign store_val   = 64'd0;
            assign store_of    = 1'b0;
            assign store_lcofi = 1'b0;
        end else if (HPM_ARCH == 3) begin : g_arch3
            hpm_a3_bank #(.N(TN), .W(HPM_WIDTH), .EV_W(EV_W), .ROWS(REFILL / 2), .EV_ROM(EV_ROM)) u_bank (
                .clk(clk), .rst(rst), .ev(ev), .ev_n(ev_n), .priv(priv), .inh(inhibit[3 +: TN]),
                .left(refill_left), .idx(idx), .impl(IMPL[idx]), .rsel(sel_lo || sel_hi), .sel_hi(sel_hi),
                .take(take), .rd(rd_cyc || csr_we), .we_lo(ctr_we_lo), .we_hi(ctr_we_hi),
                .sel_we(csr_we && is_evt), .wdata(csr_wdata), .wok(wok),
                .value(store_val), .of_rd(store_of), .lcofi(store_lcofi));
        end else begin : g_arch2
            hpm_a2_bank #(.N(TN), .W(HPM_WIDTH), .EV_W(EV_W)) u_bank (
                .clk(clk), .rst(rst), .ev(ev), .ev_n(ev_n), .priv(priv), .inh(inhibit[3 +: TN]),
                .left(refill_left), .idx(idx), .impl(IMPL[idx]), .rsel(sel_lo || sel_hi), .sel_hi(sel_hi),
                .take(take), .rd(rd_cyc || csr_we), .we_lo(ctr_we_lo), .we_hi(ctr_we_hi),
                .sel_we(csr_we && is_evt), .wdata(csr_wdata), .wok(wok),
                .value(store_val), .of_rd(store_of), .lcofi(store_lcofi));
        end
    endgenerate
    // OF of mhpmevent3..; LCOFI is the bank's (signalled in the cycle after
    // the wrap: core_csr sets LCOFIP at the end of that cycle, so it is seen
    // two cycles after the wrap, docs/hpm.md, "Overflow and LCOFI")
    wire [31:0] of_bits = {{(29 - TN){1'b0}}, store_of, 3'b000};
    assign lcofi = store_lcofi || td_lcofi;

    // ------------------------------------------------------------ read mux
    // 0 for an address the unit does not claim.
    wire [31:0] ovf = priv == PRIV_M ? of_bits : of_bits & mcounteren;
    // the word (csr_addr[7]: high half) of mcycle and minstret, then one
    // AND-OR with their decodes, instead of the word of the selected 64-bit
    // counter (fewer LUTs on the iCE40: the word is chosen before the
    // sources are combined)
    wire        rd_ctr = ctr_lo || ctr_hi;
    wire [31:0] cyc_wd = csr_addr[7] ? mcycle[63:32] : mcycle[31:0];
    wire [31:0] ins_wd = csr_addr[7] ? minstret[63:32] : minstret[31:0];
    // the bank's counter or selector (0 outside its read cycles)
    wire [31:0] st3_wd = ctr_hi || sel_hi ? store_val[63:32] : store_val[31:0];
    // hpm_rdata: the one-cycle counters (mcycle, minstret, their shadows);
    // slow_rdata: a counter or selector 3..31, which goes only to rd_q
    // (below): no path from a counter's value to the core's rd and write
    // data in one cycle
    wire [31:0] hpm_rdata  = ({32{rd_ctr && idx == 5'd0}} & cyc_wd) |
                             ({32{rd_ctr && idx == 5'd2}} & ins_wd);
    wire [31:0] slow_rdata = {32{(rd_ctr || sel_lo || sel_hi) && IMPL[idx]}} & st3_wd;
    // the read cycle's value of a counter or selector 3..31, for its
    // commit (and a write's take2 cycle); 0 in every other cycle, so that
    // it joins the read value as an OR
    reg  [31:0] rd_q;
    always @(posedge clk)
        if (rd_cyc)
            rd_q <= slow_rdata;
        else if (!(csr_wait && ph[1]))
            rd_q <= 32'd0;
    always @(*) begin
        csr_rdata = hpm_rdata | rd_q | td_rdata;
        if (is_ovf)                csr_rdata = csr_rdata | ovf;
        if (sel_lo && idx == 5'd0) csr_rdata = csr_rdata | inhibit;
        if (sel_hi && idx == 5'd1) csr_rdata = csr_rdata | {1'b0, cycle_inh, 28'd0};
        if (sel_hi && idx == 5'd2) csr_rdata = csr_rdata | {1'b0, instret_inh, 28'd0};
    end

    // ------------------------------------------- the value after a write (trace)
    // A counter's: the written half merged with the addressed counter's
    // other half; a selector's: the write's own legal value (an OF set by
    // a wrap in the same cycle is not in it). Only the trace reads it, in
    // the cycle of the write (Verilator evaluates every process in every
    // cycle: it costs nothing in the others).
    reg  [63:0] ctr64, ctr_w64, evt_wval;
    always @(*) begin
        csr_wval = 32'd0;
        ctr64    = 64'd0;
        ctr_w64  = 64'd0;
        evt_wval = 64'd0;
        if (csr_we) begin
            ctr64    = idx == 5'd0 ? mcycle : idx == 5'd2 ? minstret : evt_cur;
            ctr_w64  = {ctr_hi ? csr_wdata : ctr64[63:32], ctr_lo ? csr_wdata : ctr64[31:0]} &
                       (idx == 5'd0 || idx == 5'd2 ? {64{1'b1}} : IMPL[idx] ? HPM_MASK : 64'd0);
            evt_wval = IMPL[idx] ? w & sel_gate_of(1'b0, 1'b1, sel_hi, wok) : 64'd0;
            if (ctr_lo || ctr_hi)           csr_wval = ctr_hi ? ctr_w64[63:32] : ctr_w64[31:0];
            else if (is_evt)                csr_wval = sel_hi ? evt_wval[63:32] : evt_wval[31:0];
            else if (sel_lo && idx == 5'd0) csr_wval = csr_wdata & INH_MASK;
            else if (sel_hi)                csr_wval = {1'b0, csr_wdata[30:28], 28'd0};
        end
        csr_wval = csr_wval | td_wval;
    end
endmodule
