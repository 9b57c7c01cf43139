// hpm_a3_table: the increment table of counting architecture 3, the iCE40
// form of architecture 2 (docs/hpm.md, "Architecture 3"). Row {priv, k}
// holds, for every counter n, RESULT2 of selector n on kind k's event vector
// (3 bits), 0 where the selector's MINH/SINH/UINH inhibits privilege priv:
// the rows are indexed by the cycle class (and a copy bit), so the mode
// filter costs no logic per counter. The rows live in a memory with a
// synchronous read (SB_RAM40_4K on the iCE40, one per 5 counters): the row
// of cycle t arrives in t+1, so every increment reaches the counters one
// cycle late (hpm_a3_store adds them a cycle later).
//
// The table is kept twice (rows {copy, priv, kind}), so that the row read in
// a cycle is never the row written then (a read of a row being written
// would need bypass logic on the increment path): a selector write that
// commits in cycle c rewrites its column, one row per cycle, in copy 0 in
// c+2..c+73 while the rows are read from copy 1, then in copy 1 in
// c+74..c+145 while they are read from copy 0 (hpm_unit holds any other
// selector write meanwhile: the next commits in c+145 at the earliest);
// each copy gets the 72 rows the core can address (privileges U, S, M of
// kind 0, then of kind 1, ...; privilege 2 does not exist). For the rows
// read in c+1..c+144 a live evaluator of the new selector on the event bus
// and the privilege gives that counter's increment, a cycle late (below;
// docs/hpm.md, "Selector writes wait for the refill"). The writes trail the
// window (c+1..c+144, hpm_unit's refill counter) by a cycle so that a
// column's write enable is a flip-flop, the same one that selects the live
// evaluator for that column. Reset clears those rows in cycles 1..144,
// where every selector is 0 and nothing counts.
`include "hpm_map.vh"
module hpm_a3_table #(
    parameter integer N    = 1,               // counters (>= 1)
    parameter integer LANE = 9,               // hpm_a2_store's lane width (>= 3)
    parameter integer EV_W = `HPM_EVENTS_BUS_W,
    parameter integer ROWS = 72,              // rows refilled per copy, 3 per kind (hpm_unit's REFILL / 2)
    // the refill's event bits: 1 from a ROM (4 EBR, the decoder's LUTs saved),
    // 0 from a kind decoder and two 32:1 multiplexers in logic
    parameter integer EV_ROM = 1
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [4:0]      kind,              // this cycle's kind (hpm_class)
    input  wire [1:0]      priv,              // this cycle's privilege
    input  wire [EV_W-1:0] ev,                // this cycle's events (the live evaluator)
    input  wire [N-1:0]    on,                // counter n counts in this cycle (mcountinhibit, no write)
    input  wire [7:0]      left,              // hpm_unit's refill window: cycles left (0: none)
    input  wire            we,                // a selector write commits in this cycle
    input  wire [4:0]      widx,              // its counter (0..N-1; N.. for no counter)
    input  wire [63:0]     sel,               // its value after the write (legal)
    output wire [LANE*N-1:0] inc              // the increments of the previous cycle, in lanes
);
/* verilator lint_off UNUSEDPARAM */ // the whole catalogue, not every index is used here
`include "hpm_events.vh"
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_off UNUSEDPARAM */ // kind_ev reads the kinds it needs
`include "hpm_classes.vh"
/* verilator lint_on UNUSEDPARAM */
    localparam [31:0] R32 = ROWS;
    localparam [7:0]  R8  = R32[7:0];
    localparam [31:0] K32 = ROWS / 3;         // kinds refilled
    localparam [1:0] PRIV_M = 2'b11, PRIV_U = 2'b00;

`include "hpm_combine.vh"
    // RESULT2 of the selector fields f (their OPs) on its four event bits e
    /* verilator lint_off UNUSEDSIGNAL */ // the event indexes
    function [2:0] result2(input [28:0] f, input [3:0] e);
    /* verilator lint_on UNUSEDSIGNAL */
        begin
            result2 = combine(f[28:26], combine(f[22:20], {2'b00, e[0]}, {2'b00, e[1]}),
                                        combine(f[25:23], {2'b00, e[2]}, {2'b00, e[3]}));
        end
    endfunction

    // the refilling selector: event indexes and OPs (EV_W <= 32: 5-bit
    // indexes), and its mode filter
    reg  [28:0]    fsel;                      // {op2, op1, op0, e3, e2, e1, e0}
    reg  [2:0]     finh;                      // {MINH, SINH, UINH}
    reg  [4:0]     fcol;                      // its counter
    reg            clr;                       // the reset window: rows are being cleared
    /* verilator lint_off UNUSEDSIGNAL */ // OF, the OP bits 4:3, the high index bits
    wire [63:0]    s = sel;
    /* verilator lint_on UNUSEDSIGNAL */
    // the selector of the next cycle (fsel's next value)
    wire [28:0]    fsel_d = we ? {s[`HPM_MHPMEVENT_OP_TYPE2_LSB +: 3], s[`HPM_MHPMEVENT_OP_TYPE1_LSB +: 3], s[`HPM_MHPMEVENT_OP_TYPE0_LSB +: 3],
                                   s[`HPM_MHPMEVENT_EVENT3_LSB +: 5], s[`HPM_MHPMEVENT_EVENT2_LSB +: 5], s[`HPM_MHPMEVENT_EVENT1_LSB +: 5], s[`HPM_MHPMEVENT_EVENT0_LSB +: 5]} :
                                 fsel;
    always @(posedge clk) begin
        if (rst) begin
            fsel <= 29'd0;
            finh <= 3'd0;
            fcol <= 5'd0;
            clr  <= 1'b1;
        end else begin
            if (left == 8'd0)                 // after the window's last row
                clr <= 1'b0;
            fsel <= fsel_d;
            if (we) begin
                finh <= s[`HPM_MHPMEVENT_MINH_LSB:`HPM_MHPMEVENT_UINH_LSB];
                fcol <= widx;
            end
        end
    end

    // ---- the table: a synchronous read of this cycle's row, one row write
    // per cycle a cycle behind the window: copy 0 while ROWS cycles or more
    // are left (rows read from copy 1), then copy 1; the read and the
    // written row are never the same (no_rw_check: no bypass logic)
    (* no_rw_check *) reg [3*N-1:0] mem [0:255];
    reg  [3*N-1:0] row_q;
    wire           first = left >= R8;        // copy 0 is being written
    // bit n clear: column n is written in this cycle, and its row read in
    // the previous cycle is replaced by the live evaluator's value (live_q,
    // below); all of them in the reset window. The EBR's write mask (active
    // low) as it is.
    reg  [N-1:0]   nwe_q;
    // the row written in this cycle: privileges U, S, M of a kind, then the
    // next kind, from kind 0 after a selector write and again for copy 1
    reg            act;                       // a row is written in this cycle
    reg  [4:0]     kstep;
    reg  [1:0]     pstep;
    wire           kdone   = pstep == PRIV_M; // the kind's last row
    // their next values: U of kind 0 outside a window, then U, S, M of
    // kinds 0..ROWS/3-1 in each copy
    wire [1:0]     pstep_d = !act || kdone ? PRIV_U : {pstep[0], 1'b1};
    wire [4:0]     kstep_d = !act ? 5'd0 : !kdone ? kstep :
                             kstep == K32[4:0] - 5'd1 ? 5'd0 : kstep + 5'd1;
    always @(posedge clk) begin
        act   <= !rst && left != 8'd0;
        kstep <= rst ? 5'd0 : kstep_d;
        pstep <= rst ? PRIV_U : pstep_d;
    end
    wire [7:0]     wrow  = {!first, pstep, kstep};

    /* verilator lint_off UNUSEDSIGNAL */ // events 32..63 do not exist
    function [1023:0] rom_bits(input integer unused);
        integer k;
        reg [63:0] v;
        begin
            rom_bits = 1024'd0;
            for (k = 0; k < 32; k = k + 1) begin
                v = kind_ev(k[4:0]);
                rom_bits[32 * k +: 32] = v[31:0];
            end
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    localparam [1023:0] ROM_BITS = rom_bits(0);   // kind k's event e at bit {k, e}

    // the refill's event bits for the selector's 4 event indexes, of the
    // kind written in this cycle (kstep)
    wire [3:0]     eb;
    generate
        if (EV_ROM != 0) begin : g_rom
            // kind k's event e at {k, e} of a ROM (four EBR on the iCE40: no
            // kind decode and no 32:1 event multiplexers in logic), read a
            // cycle ahead
            (* rom_style = "block" *) reg rom [0:1023];
            reg  [3:0] eb_q;
            integer ri;
            initial
                for (ri = 0; ri < 1024; ri = ri + 1)
                    rom[ri] = ROM_BITS[ri];
            always @(posedge clk) begin
                eb_q[0] <= rom[{kstep_d, fsel_d[4:0]}];
                eb_q[1] <= rom[{kstep_d, fsel_d[9:5]}];
                eb_q[2] <= rom[{kstep_d, fsel_d[14:10]}];
                eb_q[3] <= rom[{kstep_d, fsel_d[19:15]}];
            end
            assign eb = eb_q;
        end else begin : g_decode
            // a kind decoder and two 32:1 event multiplexers (not four): a
            // kind's three rows take three cycles, so the multiplexers give
            // events 2 and 3 of this cycle's kind in its first row's cycle
            // (used at once, and held), and in every other cycle events 0
            // and 1 of the next cycle's kind, registered. Their indexes come
            // from the registered selector only (the written one reaches the
            // row write through no multiplexer): the cycle after the
            // selector write, the window's first, writes no row.
            wire        row0 = act && pstep == PRIV_U;  // a kind's first row
            wire [31:0] kev  = ROM_BITS[32 * kstep_d +: 32];
            wire        a    = kev[row0 ? fsel[14:10] : fsel[4:0]];
            wire        b    = kev[row0 ? fsel[19:15] : fsel[9:5]];
            reg  [3:0]  h;                    // the kind's events 0..3 (2 and 3 from its first row)
            always @(posedge clk)
                if (row0)
                    h[3:2] <= {b, a};
                else
                    h[1:0] <= {b, a};
            assign eb = {row0 ? {b, a} : h[3:2], h[1:0]};
        end
    endgenerate
    wire [2:0]     rval = result2(fsel, eb);
    // the row's value: 0 in the reset window and where the mode filter
    // inhibits the row's privilege
    wire [2:0]     wval = clr || mode_inhibited(finh, pstep) ? 3'd0 : rval;
    always @(posedge clk)
        row_q <= mem[{first, priv, kind}];
    genvar c;
    generate
        for (c = 0; c < N; c = c + 1) begin : g_wcol
            always @(posedge clk)
                if (!nwe_q[c])
                    mem[wrow][3 * c +: 3] <= wval;
        end
    endgenerate

    // ---- this cycle's gates and the live evaluator, for the row of t+1
    /* verilator lint_off UNUSEDSIGNAL */ // catalogue indexes above EV_W are never selected
    wire [31:0]    ev32 = {{(32 - EV_W){1'b0}}, ev};
    /* verilator lint_on UNUSEDSIGNAL */
    // The live evaluator in two stages (the event bus is late): the four
    // selected event bits and the mode filter of cycle t are registered and
    // combined in t+1, so live_q holds in t+2 the increment of t. The
    // refilling column counts a cycle late: nothing for the first row of
    // the window (the write's cycle, we, counted with the old selector),
    // and the increment of the window's last cycle is never used.
    reg  [N-1:0]   on_q;
    reg  [3:0]     lev_q;                     // events e3..e0 of the previous cycle
    reg            lnone_q;                   // ... counted as 0 (mode filter, the write's cycle)
    reg  [2:0]     live_q;
    integer n;
    always @(posedge clk) begin
        on_q    <= clr ? {N{1'b0}} : on;
        for (n = 0; n < N; n = n + 1)
            nwe_q[n] <= !(left != 8'd0 && (clr || fcol == n[4:0]));
        lev_q   <= {ev32[fsel[19:15]], ev32[fsel[14:10]], ev32[fsel[9:5]], ev32[fsel[4:0]]};
        lnone_q <= we || mode_inhibited(finh, priv);
        live_q  <= lnone_q ? 3'd0 : result2(fsel, lev_q);
    end

    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_lane
            wire [2:0] v = !nwe_q[g] ? live_q : row_q[3 * g +: 3];
            assign inc[LANE * g +: LANE] = {{(LANE - 3){1'b0}}, on_q[g] ? v : 3'd0};
        end
    endgenerate
endmodule
