// hpm_unit: Zicntr + Zihpm + Sscofpmf + Smcntrpmf. Owns every counter CSR:
//   mcycle(h), minstret(h)             64-bit, filtered by mcyclecfg/minstretcfg
//   mhpmcounter3..31(h)                HPM_NUM of them implemented, HPM_WIDTH bits
//   mhpmevent3..31(h)                  one hpm_selector each
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
    // SB_MAC16 blocks the counters may use on the iCE40 (hpm_counter DSP):
    // mcycle and minstret first (two each), then mhpmcounter3 upward, one
    // per 32 bits of HPM_WIDTH. 0: all flip-flops (what Verilator builds anyway)
    parameter integer DSP_BUDGET = 0,
    // counting architecture (docs/hpm.md): 1 one selector evaluated per counter
    // per cycle; 2 a cycle-class encoder and one increment table for all
    // counters (hpm_class, hpm_store); 3 the same with the table in a
    // synchronous memory (hpm_ktable, the iCE40 form). Same semantics and timing.
    parameter integer HPM_ARCH   = 1,
    // architecture 3: 1 reads the refill's event bits from a ROM (hpm_ktable
    // EV_ROM: 4 more EBR, the decoder's LUTs fewer), 0 decodes them in logic
    parameter integer EV_ROM     = 1,
    parameter integer HPM_TD     = 0        // 1: the top-down unit (hpm_topdown)
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [EV_W-1:0] ev,              // this cycle's events, bit i = event i
    /* verilator lint_off UNUSEDSIGNAL */ // architecture 1: no cycle class
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
    // Architecture 2 is the simulated board's, and Verilator evaluates every
    // process in every cycle: with counters, the values only a CSR access
    // uses (a write's legal value, the read of a counter or selector, the
    // trace's value after a write) are computed only in the cycles that use
    // them, and are 0 in the others (docs/hpm.md, "Simulation cost"). The
    // other architectures keep the plain form.
    localparam LAZY = HPM_ARCH == 2 && HPM_NUM > 0;
    localparam integer HPM_NDSP = HPM_WIDTH > 32 ? 2 : 1;   // DSPs per mhpmcounter
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
    assign csr_hit = ((ctr_lo || ctr_hi) && idx != 5'd1) || sel_lo || (sel_hi && idx != 5'd0) ||
                     is_ovf || td_hit;

    // A write to a selector address (implemented or not) starts a refill
    // window of REFILL cycles; another one waits in X until it ends
    // (docs/hpm.md, "Selector writes wait for the refill"). The same rule in
    // every architecture; architecture 3 refills one table row per cycle,
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
    // before the refill window ends (docs/timing.md). The same rule in every
    // architecture; architecture 3 reads the memory row in the cycle before
    // the read cycle (take1) and, for a write, again in the cycle before
    // the commit (take2), never in two cycles in a row (hpm_estore).
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
    /* verilator lint_off UNUSEDSIGNAL */ // architectures 1 and 2 read any cycle
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

    // ------------------------------------------------------ mcycle, minstret
    wire [63:0] mcycle, minstret;
    /* verilator lint_off UNUSEDSIGNAL */ // mcycle and minstret have no overflow flag
    wire        mcycle_wrap, minstret_wrap;
    /* verilator lint_on UNUSEDSIGNAL */
    wire        cycle_on   = !inhibit[0] && !mode_inhibited(cycle_inh, priv);
    wire        instret_on = !inhibit[2] && !mode_inhibited(instret_inh, priv);

    hpm_counter #(.WIDTH(64), .DSP(DSP_BUDGET >= 2 ? 1 : 0)) u_mcycle (
        .clk(clk), .rst(rst), .inc({2'b00, cycle_on}),
        .we_lo(ctr_we_lo && idx == 5'd0), .we_hi(ctr_we_hi && idx == 5'd0),
        .wdata(csr_wdata), .value(mcycle), .wrap(mcycle_wrap)
    );
    hpm_counter #(.WIDTH(64), .DSP(DSP_BUDGET >= 4 ? 1 : 0)) u_minstret (
        .clk(clk), .rst(rst), .inc({2'b00, instret_on && ev[EV_INSTRET]}),
        .we_lo(ctr_we_lo && idx == 5'd2), .we_hi(ctr_we_hi && idx == 5'd2),
        .wdata(csr_wdata), .value(minstret), .wrap(minstret_wrap)
    );

    hpm_topdown #(.HPM_TD(HPM_TD), .EV_W(EV_W)) u_topdown (
        .clk(clk), .rst(rst), .on(cycle_on), .ev(ev), .csr_addr(csr_addr), .csr_wdata(csr_wdata),
        .csr_we(csr_we), .csr_rd(csr_op), .hit(td_hit), .rdata(td_rdata), .wval(td_wval)
    );

    // -------------------------------------------- mhpmcounter3.. / mhpmevent3..
    // the implemented mhpmcounters/mhpmevents, by index
    localparam [31:0] IMPL = ((32'd1 << (3 + HPM_NUM)) - 32'd1) & ~32'd7;   // HPM_NUM <= 29
    // the addressed selector after this cycle's write, WARL applied
    wire [63:0] evt_value [0:31];
    // A selector loads only the fields of the half written, except EV3
    // (bits 39:30), which straddles the halves: it is merged with the
    // addressed selector's other half. The other half of evt_w64 is unused.
    /* verilator lint_off UNUSEDSIGNAL */ // only EV3 of the current value
    wire [63:0] sel_rvalue;                 // architectures 2 and 3: the addressed selector
    wire [63:0] evt_cur   = HPM_ARCH >= 2 ? (IMPL[idx] ? sel_rvalue : 64'd0) : evt_value[idx];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [9:0]  ev3_w     = sel_hi ? {csr_wdata[7:0], evt_cur[31:30]} : {evt_cur[39:32], csr_wdata[31:30]};
    wire [63:0] evt_w64   = {csr_wdata[31:8], ev3_w, csr_wdata[29:0]};

    function [4:0] op_legal(input [4:0] f);  // OR, AND, XOR, ADD; anything else is OR
        op_legal = (f == 5'b00001 || f == 5'b00010 || f == 5'b00100) ? f : 5'b00000;
    endfunction
    // an index beyond the catalogue is 0 (a lookup of the index's low bits,
    // no magnitude compare)
    localparam integer EVB = $clog2(EV_W);
    localparam [(1 << EVB)-1:0] EV_OK = {(1 << EVB){1'b1}} >> ((1 << EVB) - EV_W);
    function ev_ok(input [9:0] e);
        ev_ok = e[9:EVB] == 0 && EV_OK[e[EVB-1:0]];
    endfunction
    function [9:0] ev_legal(input [9:0] e);
        ev_legal = ev_ok(e) ? e : 10'd0;
    endfunction
    function op_ok(input [4:0] f);          // op_legal keeps f
        op_ok = f == 5'b00001 || f == 5'b00010 || f == 5'b00100;
    endfunction
    /* verilator lint_off UNUSEDSIGNAL */ // bits 59:55 are read-only zero
    wire [63:0] w = evt_w64;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [63:0] evt_legal;
    always @(*) begin
        evt_legal = 64'd0;
        if (csr_we || !LAZY)
            evt_legal = {w[63:60], 5'd0, op_legal(w[`HPM_MHPMEVENT_OP_TYPE2]), op_legal(w[`HPM_MHPMEVENT_OP_TYPE1]),
                         op_legal(w[`HPM_MHPMEVENT_OP_TYPE0]), ev_legal(w[`HPM_MHPMEVENT_EVENT3]), ev_legal(w[`HPM_MHPMEVENT_EVENT2]),
                         ev_legal(w[`HPM_MHPMEVENT_EVENT1]), ev_legal(w[`HPM_MHPMEVENT_EVENT0])};
    end

    wire [63:0] hpm_value [0:31];
    wire [31:0] of_bits, wrap_bits;

    // ---- architecture 2: every counter's increment from one table row
    localparam integer TN = HPM_NUM > 0 ? HPM_NUM : 1;     // table columns
    wire [63:0] store_val;                                 // the addressed counter (architecture 3: or selector)
    /* verilator lint_off UNUSEDSIGNAL */ // bits 2:0, and all of it in architecture 1
    wire [31:0] store_wrap;                                // bit n: mhpmcounter n wraps
    wire [31:0] store_of;                                  // bit n: OF of mhpmevent n (as read)
    /* verilator lint_on UNUSEDSIGNAL */
    wire        lcofi3;                                    // architecture 3's LCOFI
    // Architecture 1: counter n's increment of this cycle (3 bits at 3n,
    // mode-filtered, before mcountinhibit) and as counted. The counter
    // whose refill window is open counts a cycle late, as architecture 3's
    // two-stage live evaluator makes it (docs/hpm.md, "Selector writes wait
    // for the refill"): in the window the increment of the previous cycle,
    // none in its first cycle (the write's own counted with the old
    // selector), and the window's last one is dropped. lag_idx is the last
    // selector write's index (0 after reset, an unimplemented one: no counter).
    // Architecture 2 applies the same rule in its store (hpm_store).
    /* verilator lint_off UNUSEDSIGNAL */ // indexes 0..2 and the unimplemented; architectures 2, 3: unused
    wire [95:0] inc_now, inc_cnt;
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (HPM_ARCH == 1) begin : g_lag
            reg  [4:0] lag_idx;
            reg  [2:0] lag_inc;
            always @(posedge clk) begin
                if (rst)
                    lag_idx <= 5'd0;
                else if (csr_we && is_evt)
                    lag_idx <= idx;
                lag_inc <= csr_we && is_evt ? 3'd0 : inc_now[3 * lag_idx +: 3];
            end
            genvar q;
            for (q = 0; q < 32; q = q + 1) begin : g_q
                assign inc_cnt[3 * q +: 3] = refill_left != 8'd0 && lag_idx == q ? lag_inc :
                                                                                   inc_now[3 * q +: 3];
            end
        end else begin : g_nolag
            assign inc_cnt = inc_now;
        end
    endgenerate
    generate
        if (HPM_ARCH == 2 && HPM_NUM > 0) begin : g_arch2
            wire [6:0] cls;
            hpm_class #(.EV_W(EV_W)) u_class (
                .clk(clk), .rst(rst), .ev(ev), .ev_n(ev_n), .priv(priv), .cls(cls)
            );
            // the selector after this cycle's write: the written half (and
            // EV3) from evt_legal, the rest from the current value
            reg  [63:0] sel_new;
            always @(*) begin
                sel_new = 64'd0;
                if (csr_we)
                    sel_new = sel_hi ? {evt_legal[63:30], evt_cur[29:0]} :
                                       {evt_cur[63:40], evt_legal[39:0]};
            end
            /* verilator lint_off UNUSEDSIGNAL */ // bits 2:0: no selector
            wire [31:0] sel_we  = (csr_we && is_evt) ? (32'd1 << idx) & IMPL : 32'd0;
            /* verilator lint_on UNUSEDSIGNAL */
            // the table and the counters; mcountinhibit gates the row
            // (immediate, as in architecture 1)
            wire [TN-1:0] wr;
            hpm_store #(.N(TN), .W(HPM_WIDTH)) u_store (
                .clk(clk), .rst(rst), .cls(cls), .on(~inhibit[3 +: TN]),
                .sel_we(csr_we && is_evt), .col_we(sel_we[3 +: TN]), .sel(sel_new),
                .window(refill_left != 8'd0), .idx(idx - 5'd3),
                .we_lo(ctr_we_lo && IMPL[idx]), .we_hi(ctr_we_hi && IMPL[idx]),
                .wdata(csr_wdata), .rd(rd_cyc || csr_we), .rvalue(store_val), .wrap(wr)
            );
            assign store_wrap = {{(29 - TN){1'b0}}, wr, 3'b000};
            wire [TN-1:0] of;
            hpm_selstore #(.N(TN)) u_selstore (
                .clk(clk), .rst(rst), .we(csr_we && is_evt && IMPL[idx]), .we_hi(sel_hi),
                .widx(idx - 5'd3), .wval({evt_legal[63], sel_new[62:0]}), .ridx(idx - 5'd3),
                .rd(rd_cyc || csr_we), .rvalue(sel_rvalue), .set_of(wr), .of(of)
            );
            assign store_of = {{(29 - TN){1'b0}}, of, 3'b000};
            assign lcofi3   = 1'b0;
        end else if (HPM_ARCH == 3 && HPM_NUM > 0) begin : g_arch3
            // The table's row arrives a cycle late (hpm_ktable): the store
            // adds the previous cycle's increments, and a wrap seen in t is
            // the wrap of t-1. Its OF is read as set from t on (OF | wrap),
            // it sets OF at the end of t (a selector write in t wins), and
            // LCOFI, when OF was clear at the start of t-1, goes to the core
            // in t, which sets LCOFIP at the end of t (core_csr). Counter
            // and selector values are read from hpm_estore's memory in the
            // read cycle of a CSR access (the row taken in the cycle before).
            wire [6:0] cls;
            hpm_class #(.EV_W(EV_W)) u_class (
                .clk(clk), .rst(rst), .ev(ev), .ev_n(ev_n), .priv(priv), .cls(cls)
            );
            // A selector write's legalisation as a gate per field on the row
            // hpm_estore writes (the written half from csr_wdata, the other
            // kept): a written field that is not legal, EVENT3 (which
            // straddles the halves) when its merged value is not, and the
            // read-only-zero bits (ZERO) become 0; the other bits pass. All
            // ones in every other cycle (the store also writes counters and
            // the flush through it) but reset's (the store clears its rows).
            // (not for an unimplemented selector: the flush may write then)
            wire evw = csr_we && is_evt && IMPL[idx];
            wire g_ev0 = !rst && (!evw || sel_hi || ev_ok(w[`HPM_MHPMEVENT_EVENT0]));
            wire g_ev1 = !rst && (!evw || sel_hi || ev_ok(w[`HPM_MHPMEVENT_EVENT1]));
            wire g_ev2 = !rst && (!evw || sel_hi || ev_ok(w[`HPM_MHPMEVENT_EVENT2]));
            wire g_ev3 = !rst && (!evw || ev_ok(ev3_w));
            wire g_op0 = !rst && (!evw || !sel_hi || op_ok(w[`HPM_MHPMEVENT_OP_TYPE0]));
            wire g_op1 = !rst && (!evw || !sel_hi || op_ok(w[`HPM_MHPMEVENT_OP_TYPE1]));
            wire g_op2 = !rst && (!evw || !sel_hi || op_ok(w[`HPM_MHPMEVENT_OP_TYPE2]));
            wire g_rz  = !rst && !evw;      // ZERO, read-only zero
            // the fields' widths from hpm_map.vh (hw/csr.def), high to low
            wire [63:0] sel_gate = {{(64 - `HPM_MHPMEVENT_UINH_LSB){!rst}}, {`HPM_MHPMEVENT_ZERO_W{g_rz}},
                                    {`HPM_MHPMEVENT_OP_TYPE2_W{g_op2}}, {`HPM_MHPMEVENT_OP_TYPE1_W{g_op1}},
                                    {`HPM_MHPMEVENT_OP_TYPE0_W{g_op0}}, {`HPM_MHPMEVENT_EVENT3_W{g_ev3}},
                                    {`HPM_MHPMEVENT_EVENT2_W{g_ev2}}, {`HPM_MHPMEVENT_EVENT1_W{g_ev1}},
                                    {`HPM_MHPMEVENT_EVENT0_W{g_ev0}}};
            wire [62:0] sel_new;                // the selector after the write (hpm_estore)
            /* verilator lint_off UNUSEDSIGNAL */ // bits 2:0 and above 3 + TN: no counter
            wire [31:0] written = ((ctr_we_lo || ctr_we_hi) && IMPL[idx]) ? 32'd1 << idx : 32'd0;
            wire [31:0] inh_n   = inhibit;
            /* verilator lint_on UNUSEDSIGNAL */
            // hpm_estore's lanes: 7 low bits up to 14 counters, else 8
            localparam integer LB3 = TN <= 14 ? 7 : 8;
            localparam integer LL3 = (HPM_WIDTH < LB3 ? HPM_WIDTH : LB3) + (HPM_WIDTH < 3 ? 4 - HPM_WIDTH : 1);
            wire [LL3*TN-1:0] tab_inc;
            // (an unimplemented selector's write, widx N.., leaves no column live)
            hpm_ktable #(.N(TN), .LANE(LL3), .EV_W(EV_W), .ROWS(REFILL / 2), .EV_ROM(EV_ROM)) u_table (
                .clk(clk), .rst(rst), .kind(cls[4:0]), .priv(cls[6:5]), .ev(ev),
                .on(~inh_n[3 +: TN] & ~written[3 +: TN]), .left(refill_left),
                .we(csr_we && is_evt), .widx(idx - 5'd3), .sel({1'b0, sel_new}),
                .inc(tab_inc)
            );
            wire [TN-1:0] wr, of;
            wire [63:0]   st_value;
            hpm_estore #(.N(TN), .W(HPM_WIDTH)) u_store (
                .clk(clk), .rst(rst), .inc(tab_inc),
                .take(take && IMPL[idx]), .rsel(sel_lo || sel_hi), .ridx(idx - 5'd3),
                .we_lo(ctr_we_lo && IMPL[idx]), .we_hi(ctr_we_hi && IMPL[idx]), .wdata(csr_wdata),
                .sel_we(csr_we && is_evt && IMPL[idx]), .sel_we_hi(sel_hi), .sel_gate(sel_gate),
                .value(st_value), .sel_new(sel_new), .wrap(wr), .of(of)
            );
            assign store_wrap = {{(29 - TN){1'b0}}, wr, 3'b000};
            assign sel_rvalue = st_value;       // the commit's counter or selector
            assign store_val  = st_value;
            assign store_of   = {{(29 - TN){1'b0}}, of | wr, 3'b000};
            reg [TN-1:0] of_q;                  // OF at the start of the previous cycle
            always @(posedge clk)
                of_q <= of;
            assign lcofi3 = (wr & ~of_q) != {TN{1'b0}};
        end else begin : g_arch1
            assign store_val  = 64'd0;
            assign store_wrap = 32'd0;
            assign store_of   = 32'd0;
            assign sel_rvalue = 64'd0;
            assign lcofi3     = 1'b0;
        end
    endgenerate

    genvar n;
    generate
        for (n = 0; n < 32; n = n + 1) begin : g_ctr
            if (n >= 3 && n < 3 + HPM_NUM) begin : g_impl
                if (HPM_ARCH >= 2) begin : g_sel2    // the register lives in hpm_selstore
                    assign evt_value[n] = 64'd0;
                    assign of_bits[n]   = store_of[n];
                    assign inc_now[3 * n +: 3] = 3'd0;
                end else begin : g_sel1             // the selector and its increment
                    hpm_selector #(.EV_W(EV_W)) u_sel (
                        .clk(clk), .rst(rst),
                        .we_lo(csr_we && is_evt && sel_lo && idx == n),
                        .we_hi(csr_we && is_evt && sel_hi && idx == n), .wlegal(evt_legal),
                        .set_of(wrap_bits[n]), .value(evt_value[n]), .of(of_bits[n]),
                        .ev(ev), .priv(priv), .inc(inc_now[3 * n +: 3])
                    );
                end
                if (HPM_ARCH >= 2) begin : g_v2     // the value lives in hpm_store
                    assign hpm_value[n] = 64'd0;
                    assign wrap_bits[n] = store_wrap[n];
                end else begin : g_v1
                    hpm_counter #(
                        .WIDTH(HPM_WIDTH), .DSP(4 + (n - 2) * HPM_NDSP <= DSP_BUDGET ? 1 : 0)
                    ) u_ctr (
                        .clk(clk), .rst(rst), .inc(inhibit[n] ? 3'd0 : inc_cnt[3 * n +: 3]),
                        .we_lo(ctr_we_lo && idx == n), .we_hi(ctr_we_hi && idx == n),
                        .wdata(csr_wdata), .value(hpm_value[n]), .wrap(wrap_bits[n])
                    );
                end
            end else begin : g_none
                assign inc_now[3 * n +: 3] = 3'd0;
                assign hpm_value[n] = 64'd0;
                assign evt_value[n] = 64'd0;
                assign of_bits[n]   = 1'b0;
                assign wrap_bits[n] = 1'b0;
            end
        end
    endgenerate

    // LCOFI: a wrap while OF is still clear, signalled in the cycle after
    // the wrap in every architecture (architecture 3 finds it then, 1 and 2
    // register it); core_csr sets LCOFIP at the end of that cycle, so it is
    // seen two cycles after the wrap (docs/hpm.md, "Overflow and LCOFI")
    reg lcofi_q;
    always @(posedge clk)
        lcofi_q <= !rst && (wrap_bits & ~of_bits) != 32'd0;
    assign lcofi = HPM_ARCH == 3 ? lcofi3 : lcofi_q;

    // ------------------------------------------------------------ read mux
    // Architecture 1: a flat AND-OR: each register's word is gated by its own
    // decode and the words are ORed (fewer LUTs on the iCE40 than a chain
    // of index muxes). Architecture 2: one indexed read of the counter
    // and selector arrays (in the simulated board the AND-OR, which depends
    // on every counter, was re-evaluated in every cycle). 0 for an address the
    // unit does not claim.
    wire [31:0] ovf = priv == PRIV_M ? of_bits : of_bits & mcounteren;
    // architecture 2: the word (csr_addr[7]: high half) of mcycle, minstret
    // and the store's counter, then one AND-OR with their decodes, instead of
    // the word of the selected 64-bit counter (fewer LUTs on the iCE40:
    // the word is chosen before the sources are combined)
    wire        rd_ctr = ctr_lo || ctr_hi;
    wire [31:0] cyc_wd = csr_addr[7] ? mcycle[63:32] : mcycle[31:0];
    wire [31:0] ins_wd = csr_addr[7] ? minstret[63:32] : minstret[31:0];
    wire [31:0] sto_wd = csr_addr[7] ? store_val[63:32] : store_val[31:0];
    // architecture 3: store_val is the taken counter or selector (hpm_estore)
    wire [31:0] st3_wd = ctr_hi || sel_hi ? store_val[63:32] : store_val[31:0];
    // hpm_rdata: the one-cycle counters (mcycle, minstret, their shadows);
    // slow_rdata: a counter or selector 3..31, which goes only to rd_q
    // (below): no path from a counter's value to the core's rd and write
    // data in one cycle
    reg  [31:0] hpm_rdata, slow_rdata;
    integer r;
    always @(*) begin
        hpm_rdata  = ({32{rd_ctr && idx == 5'd0}} & cyc_wd) |
                     ({32{rd_ctr && idx == 5'd2}} & ins_wd);
        slow_rdata = 32'd0;
        if (HPM_ARCH == 3) begin
            // one value for the taken counter or selector (hpm_estore)
            slow_rdata = {32{(rd_ctr || sel_lo || sel_hi) && IMPL[idx]}} & st3_wd;
        end else if (HPM_ARCH == 2) begin
            if (rd_cyc || !LAZY) begin
                slow_rdata = {32{rd_ctr && IMPL[idx]}} & sto_wd;
                if (IMPL[idx]) begin              // mhpmevent3..(h)
                    if (sel_lo) slow_rdata = evt_cur[31:0];
                    if (sel_hi) slow_rdata = evt_cur[63:32];
                end
            end
        end else begin
            for (r = 3; r < 32; r = r + 1)
                if (idx == r[4:0]) begin
                    if (ctr_lo) slow_rdata = slow_rdata | hpm_value[r][31:0];
                    if (ctr_hi) slow_rdata = slow_rdata | hpm_value[r][63:32];
                    if (IMPL[r] && sel_lo) slow_rdata = slow_rdata | evt_value[r][31:0];
                    if (IMPL[r] && sel_hi) slow_rdata = slow_rdata | evt_value[r][63:32];
                end
        end
    end
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
    // a wrap in the same cycle is not in it). Only the trace reads it.
    reg  [63:0] ctr64, ctr_w64, evt_wval;
    always @(*) begin
        csr_wval = 32'd0;
        ctr64    = 64'd0;
        ctr_w64  = 64'd0;
        evt_wval = 64'd0;
        if (csr_we || !LAZY) begin
            ctr64    = idx == 5'd0 ? mcycle : idx == 5'd2 ? minstret :
                       HPM_ARCH >= 2 ? (IMPL[idx] ? store_val : 64'd0) : hpm_value[idx];
            ctr_w64  = {ctr_hi ? csr_wdata : ctr64[63:32], ctr_lo ? csr_wdata : ctr64[31:0]} &
                       (idx == 5'd0 || idx == 5'd2 ? {64{1'b1}} : IMPL[idx] ? HPM_MASK : 64'd0);
            evt_wval = IMPL[idx] ? evt_legal : 64'd0;
            if (ctr_lo || ctr_hi)           csr_wval = ctr_hi ? ctr_w64[63:32] : ctr_w64[31:0];
            else if (is_evt)                csr_wval = sel_hi ? evt_wval[63:32] : evt_wval[31:0];
            else if (sel_lo && idx == 5'd0) csr_wval = csr_wdata & INH_MASK;
            else if (sel_hi)                csr_wval = {1'b0, csr_wdata[30:28], 28'd0};
        end
        csr_wval = csr_wval | td_wval;
    end
endmodule
