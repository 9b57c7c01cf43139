// hpm_a3_store: the counter and selector store of counting architecture 3, the
// iCE40 form (docs/hpm.md, "Counting architecture 3"). N counters of W bits
// (1..64) and their mhpmevent values; the counters' upper parts and the
// selectors live in one memory of 64 rows x 64 bits (four SB_RAM40_4K):
// row n bits W-1:LW of counter n at the same bit positions, row 32 + n
// bits 62:0 of selector n. A row's bit b is written from bit b % 32 of
// the CSR data, or kept, so one multiplexer per bit serves counter writes,
// selector writes (legalised by a gate per field) and the flush. Low parts
// (LW bits: 8, or 7 up to 14 counters), pending carries (pc), full and OF
// are flip-flops, as in hpm_a2_store (architecture 2).
//
// The memory has one synchronous read port and one write port, shared by
//  - a CSR access (take): hpm_unit reads the row of an access to a
//    counter or selector in its first X cycle, and a write's again in the
//    cycle before its commit (three X cycles, a write four, docs/timing.md);
//    in the cycle after a take the value is read and the row written
//    back: at a write's commit the written value, else for a counter its
//    own value (upper part plus a pending carry: a counter access also
//    flushes its counter);
//  - the flush: in a cycle without a take the flush pointer moves to the
//    next counter and its upper part is read; if its carry is pending in
//    the next cycle, it is written back plus one then (not when a take
//    reads that counter then: the access's write-back flushes it).
// A take is never followed by a take (the access's read cycle or its
// commit follows, or a bubble after a trap), so the flush pointer visits every counter within 2N
// cycles, and its pending carry is cleared at the end of cycle 2N + 2 after
// the carry at the latest. A low part of LW bits is at most 3 after a carry
// and adds at most 4 per cycle, so it carries again at least 2^LW / 4
// cycles later: 2N + 2 < 2^LW / 4, 60 < 64 for 8 bits at N = 29, 30 < 32
// for 7 bits up to N = 14 (checked in simulation, with the read-write
// collisions the schedule rules out).
//
// Increments arrive a cycle late (hpm_a3_table): inc is the previous cycle's,
// so the value at the start of a cycle adds it (the lane sums exist), and
// a carry found in t is the wrap of t-1 (a counter write in t keeps it).
// Reset clears every row while rst is held (the board holds it for 256
// cycles; the simulators reset the memory's initial zeros for 4 cycles).
module hpm_a3_store #(
    parameter integer N  = 29,                // counters (1..29)
    parameter integer W  = 64,                // their width (1..64)
    // low part: 8 bits, 7 up to 14 counters (the flush's bound below; do
    // not override), and its lane width (hpm_a2_store)
    parameter integer LB = N <= 14 ? 7 : 8,
    parameter integer LL = (W < LB ? W : LB) + (W < 3 ? 4 - W : 1)
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [N*LL-1:0] inc,               // lane n: counter n's increment of the previous cycle
    input  wire            take,              // read the row of this access; it commits next cycle
    input  wire            rsel,              // ... a selector (else a counter)
    input  wire [4:0]      ridx,              // ... number 0..N-1
    // the cycle after a take, the same access (writes only at its commit):
    input  wire            we_lo,             // a write of the counter's bits 31:0
    input  wire            we_hi,             // ... of its bits 63:32
    input  wire [31:0]     wdata,
    input  wire            sel_we,            // a write of the selector
    input  wire            sel_we_hi,         // ... of its high half (OF: wdata[31])
    // the selector's legalisation and reset's clear: bit b of the row
    // written is ANDed with sel_gate[b] (hpm_unit: 0 where a field written,
    // or EVENT3 merged with the kept half, is not legal, for the
    // read-only-zero bits, and all of it in reset; all ones in every other
    // cycle that is not a selector write's commit)
    input  wire [63:0]     sel_gate,
    // the commit's counter (its value at the start of this cycle) or
    // selector (OF as read): one value for both
    output reg  [63:0]     value,
    output wire [62:0]     sel_new,           // a selector write's commit: the selector after it
    output wire [N-1:0]    wrap,              // counter n wrapped in the previous cycle
    output wire [N-1:0]    of
);
    localparam integer LW = W < LB ? W : LB;
    localparam integer UW = W - LW;           // 0..57
    localparam integer UB = UW > 0 ? UW : 1;
    localparam integer CB = LL - LW;          // a lane's carry bits
    localparam [31:0] LAST32 = N - 1;
    localparam [4:0]  LAST   = LAST32[4:0];

    // ---- the memory: synchronous read, one write port. Collisions (a read
    // of the row written in the same cycle) are never used (no_rw_check:
    // no bypass logic; the simulation check below).
    (* no_rw_check *) reg [63:0] mem [0:63];
    integer i;
    initial
        for (i = 0; i < 64; i = i + 1)
            mem[i] = 64'd0;

    reg  [N*LW-1:0] low;                      // the low part of counter n at bits LW*n
    reg  [N-1:0]    pc, full, of_q;
    reg  [4:0]      fptr;                     // the counter the flush visits next
    reg             tk;                       // take in the previous cycle: this is the commit cycle
    reg             tsel;
    // the counter of this cycle: the commit's (tk), else the flush's. Binary
    // for the addresses, and one-hot by index bits 4:3 (wh) and 2:0 (wl), so
    // that a counter's select, wh & wl, is two inputs of the LUT that uses it
    // (a 5-bit compare per counter and use took about two LUTs).
    reg  [4:0]      wi;
    /* verilator lint_off UNUSEDSIGNAL */ // the bits of counters past N - 1
    reg  [3:0]      wh;
    reg  [7:0]      wl;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [5:0]      clr_row;                  // the row reset clears
    reg  [63:0]     rdata;

    wire [5:0]  raddr = take ? {rsel, ridx} : {1'b0, fptr};
    always @(posedge clk)
        rdata <= mem[raddr];

    // ---- low parts: each lane its own add (one carry chain per counter)
    // With LW >= 4 an increment (3 bits, at most 4) is below 2^(LW-1), so
    // a lane carries where its top bit falls (TOPC): the carry out of its
    // chain then feeds one LUT only, counter n's pending carry, which
    // nextpnr places at the chain's end (otherwise a cell of its own passed
    // the carry out to the wrap, the multiplexer and that LUT).
    localparam integer TOPC = LW >= 4 ? 1 : 0;
    reg  [N*LL-1:0] lane;                     // lane n: low part n + its increment
    reg  [N-1:0]    carry, cb;                // cb: the bit the multiplexer takes for the carry
    integer n;
    always @(*)
        for (n = 0; n < N; n = n + 1) begin
            lane[LL * n +: LL] = {{CB{1'b0}}, low[LW * n +: LW]} + inc[LL * n +: LL];
            carry[n] = TOPC == 1 ? low[LW * n + LW - 1] && !lane[LL * n + LW - 1]
                            : lane[LL * n + LW +: CB] != {CB{1'b0}};
            cb[n]    = TOPC == 1 ? low[LW * n + LW - 1] : carry[n];
        end
    // a wrap: on the iCE40 one SB_LUT4 per counter (with TOPC and an upper
    // part), so that OF as read (of_q | wrap) is one LUT more (from the
    // lane's bits abc made the two three LUTs)
    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_wrap
`ifdef SYNTHESIS
            if (TOPC == 1 && UW > 0) begin : g_lut
                SB_LUT4 #(.LUT_INIT(16'h0020)) u_w (   // I0 & !I1 & I2 & !I3
                    .O(wrap[g]), .I0(low[LW * g + LW - 1]), .I1(lane[LL * g + LW - 1]),
                    .I2(full[g]), .I3(pc[g]));
            end else
`endif
            begin : g_rtl
                assign wrap[g] = UW > 0 ? carry[g] && full[g] && !pc[g] : carry[g];
            end
        end
    endgenerate

    // counter wi's lane, pending carry and OF as read (OF | wrap): an AND-OR
    // over the one-hot selects. Its first level, counters 2j and 2j + 1 of
    // a group of 8 in one LUT, (wl & d) | (wl & d), is explicit SB_LUT4
    // cells on the iCE40 (abc's form of the multiplexer took several times
    // the LUTs, docs/decisions.md); wh and the pairs' OR are left to abc.
    localparam integer MW = LW + 3;           // multiplexed bits per counter
    localparam integer NP = (N + 1) / 2;      // pairs of counters
    wire [N-1:0]    ofw = of_q | wrap;        // OF as read
    reg  [N*MW-1:0] md;                       // counter n's bits at MW*n
    always @(*)
        for (n = 0; n < N; n = n + 1)
            md[MW * n +: MW] = {ofw[n], pc[n], cb[n], lane[LL * n +: LW]};
    wire [NP*MW-1:0] mp;                      // pair j's bits at MW*j
    genvar b3;
    generate
        for (g = 0; g < NP; g = g + 1) begin : g_pair
            for (b3 = 0; b3 < MW; b3 = b3 + 1) begin : g_bit
                // the pair's second counter (none past N - 1: 0)
                wire s1 = 2 * g + 1 < N ? wl[(2 * g + 1) % 8] : 1'b0;
                wire d1 = 2 * g + 1 < N ? md[MW * (2 * g + 1 < N ? 2 * g + 1 : 0) + b3] : 1'b0;
`ifdef SYNTHESIS
                SB_LUT4 #(.LUT_INIT(16'hF888)) u_p (   // (I0 & I1) | (I2 & I3)
                    .O(mp[MW * g + b3]), .I0(wl[(2 * g) % 8]), .I1(md[MW * 2 * g + b3]),
                    .I2(s1), .I3(d1));
`else
                assign mp[MW * g + b3] = (wl[(2 * g) % 8] && md[MW * 2 * g + b3]) || (s1 && d1);
`endif
            end
        end
    endgenerate
    reg  [LW:0]   sl;
    reg           psel, osel;
    integer j;
    always @(*) begin
        {osel, psel, sl} = {MW{1'b0}};
        for (j = 0; j < NP; j = j + 1)
            if (wh[j / 4])
                {osel, psel, sl} = {osel, psel, sl} | mp[MW * j +: MW];
    end

    // one incrementer: a counter commit's upper part plus its pending carry
    // (or this cycle's carry; never both), a selector's row as it is, else
    // the flush's plus one. The carry of this cycle (after the lane add)
    // only selects: the increment of the memory's output does not wait for it.
    // With TOPC the carry is sl[LW] && !sl[LW-1], the latter at the end of
    // the lane's chain and the multiplexer: it enters the last LUT only
    // (cin_a, cin_b from the earlier bits), on the board's critical path.
    wire          cin_a = !tk || (!tsel && psel);
    wire          cin_b = tk && !tsel && sl[LW];
    wire          cin;
    generate
        if (TOPC == 1) begin : g_cin
`ifdef SYNTHESIS
            SB_LUT4 #(.LUT_INIT(16'hAAEE)) u_cin (   // I0 | (I1 & !I3)
                .O(cin), .I0(cin_a), .I1(cin_b), .I2(1'b0), .I3(sl[LW-1]));
`else
            assign cin = cin_a || (cin_b && !sl[LW-1]);
`endif
        end else begin : g_cin
            assign cin = cin_a || cin_b;
        end
    endgenerate
    // u_sum bit b = row bit ^ (uc[b] && cin), uc[b] the carry into bit b
    // of the upper part plus one (its bits below b all ones). On the iCE40
    // an SB_CARRY chain and one SB_LUT4 per bit, packed in one logic cell
    // with its carry (the LUT's I1/I2 are the carry's I0/I1, I3 its CI):
    // left to yosys and abc, the sum bits took two or three LUTs each, or
    // cin went through the carry chain, on the board's critical path. In
    // simulation the same logic.
    /* verilator lint_off UNUSEDSIGNAL */ // the last carry
    wire [UB:0]   uc;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [UB-1:0] u_sum;
    assign uc[0] = 1'b1;
    generate
        for (g = 0; g < UB; g = g + 1) begin : g_uc
`ifdef SYNTHESIS
            SB_CARRY u_c (.CO(uc[g + 1]), .I0(rdata[LW + g]), .I1(1'b0), .CI(uc[g]));
            SB_LUT4 #(.LUT_INIT(16'h66CC)) u_s (   // O = I1 ^ (I0 & I3)
                .O(u_sum[g]), .I0(cin), .I1(rdata[LW + g]), .I2(1'b0), .I3(uc[g]));
`else
            assign uc[g + 1] = &rdata[LW +: g + 1];
            assign u_sum[g]  = rdata[LW + g] ^ (uc[g] && cin);
`endif
        end
    endgenerate
    // the row as kept: the read row, the counter's upper part incremented
    reg  [63:0]   keep;
    integer b;
    always @(*) begin
        keep = rdata;
        if (UW > 0)
            for (b = 0; b < UB; b = b + 1)
                keep[LW + b] = u_sum[b];
    end
    // the value read: bits LW up are the row as kept (a selector's: cin is
    // 0), below LW a counter's low part, a counter's bits from W up 0
    always @(*) begin
        value = keep;
        for (b = 0; b < LW; b = b + 1)
            value[b] = tsel ? rdata[b] : sl[b];
        for (b = W; b < 63; b = b + 1)
            value[b] = tsel && keep[b];
        value[63] = tsel ? osel : W == 64 && keep[63];
    end
    assign of        = of_q;

    // the row written: each half the CSR data if the commit writes it, else
    // kept (a counter's upper part with its carry added, a selector's row;
    // in a flush cycle the flush's sum), gated by the selector's
    // legalisation and reset (sel_gate). Bits of a counter row at and above W
    // and below LW are never read.
    wire        wlo    = we_lo || (sel_we && !sel_we_hi);
    wire        whi    = we_hi || (sel_we && sel_we_hi);
    wire [63:0] wrow   = {whi ? wdata : keep[63:32], wlo ? wdata : keep[31:0]} & sel_gate;
    assign sel_new = wrow[62:0];
    wire        ctr_wb = tk && !tsel && UW > 0;   // a counter's write-back
    // the flush's write: no take in the previous cycle (the flush read row
    // wi then), wi's carry pending now (set before or in that cycle: the
    // row read has not added it; a write-back of the row in that cycle
    // cleared it) and the row not taken now
    wire        fw     = !tk && UW > 0 && psel && !(take && !rsel && ridx == wi);

    // counter wi's upper part written (cw), its low part (lw), its OF (ow):
    // gated on wh, so that counter n's is wh-gated & wl[n % 8]
    wire        sel_wr = tk && tsel && sel_we;
    wire        cw     = ctr_wb || fw;
    /* verilator lint_off UNUSEDSIGNAL */ // as wh
    wire [3:0]  hc     = cw ? wh : 4'd0;
    wire [3:0]  hl     = tk && !tsel && we_lo ? wh : 4'd0;
    wire [3:0]  ho     = sel_wr && sel_we_hi ? wh : 4'd0;
    /* verilator lint_on UNUSEDSIGNAL */

    // The upper part written (a flush's sum: no counter write then) is all
    // ones: full takes it a cycle late. In the write cycle the compare's
    // first level (an AND of 4 bits each, a LUT that packs with its
    // flip-flop) is registered (wq), in the next the rest of the compare
    // loads full of the counter written then (hq, lq: its select). This
    // keeps the compare off the board's critical path (the counter's value,
    // the core's CSR write data, the row written, full), and is exact:
    // full is read only by a wrap, when the counter's lane carries, and a
    // counter whose full a row written in t changes does not carry in t+1.
    // A CSR write drops the counter's increment of t+1; otherwise the row
    // changes only by a carry added, of t or pending (the last less than
    // 2N + 3 cycles back), and the next carry is 2^LW / 4 cycles after it;
    // a read's write-back without one rewrites the row read (checked in
    // simulation below).
    localparam integer NQ = (UB + 3) / 4;
    reg  [4*NQ-1:0] wpad;                     // the upper part, ones above it
    reg  [NQ-1:0]   wq;
    reg  [3:0]      hq;
    reg  [7:0]      lq;
    integer q;
    always @(*) begin
        wpad = {4*NQ{1'b1}};
        wpad[UB-1:0] = wrow[LW +: UB];
    end
    always @(posedge clk) begin
        for (q = 0; q < NQ; q = q + 1)
            wq[q] <= &wpad[4 * q +: 4];
        hq <= rst ? 4'd0 : hc;
        lq <= wl;
    end
    /* verilator lint_off UNUSEDSIGNAL */ // no upper part (W <= LW): no full
    wire        wfull  = &wq;
    /* verilator lint_on UNUSEDSIGNAL */

    // one write: reset's clear, a counter's upper part (write-back or
    // flush), a selector
    wire        mwe    = rst || ctr_wb || sel_wr || fw;
    wire [5:0]  waddr  = rst ? clr_row : {tk && tsel, wi};
    always @(posedge clk)
        if (mwe)
            mem[waddr] <= wrow;

    // Per counter, each flip-flop's next state in one LUT of its own, which
    // takes counter n's select as wh-gated & wl[n % 8], so that the
    // flip-flop packs with it: left to yosys and abc, full became a
    // flip-flop with an enable (a cell of its own, the enable in another
    // LUT) and the selects were LUTs of their own. A write-back (commit) or
    // the flush's write of counter n clears its pending carry (never set
    // together with a carry: the write-back adds this cycle's; a carry
    // sets it) and loads full in the next cycle (above). OF: set by a
    // wrap; a write of the high half in the same cycle comes after it (the
    // wrap found now is of the previous cycle) and wins. A low part: the
    // write's data or its lane. On the iCE40 explicit SB_LUT4 cells, in
    // simulation the same logic.
`ifdef SYNTHESIS
    localparam [15:0] PC_LUT  = 16'h7770;     // !(I0 & I1) & (I2 | I3)
    localparam [15:0] MUX_LUT = 16'hF780;     // I0 & I1 ? I2 : I3
    genvar b2;
`endif
    wire [N-1:0]    pc_d, full_d, of_d;
    wire [N*LW-1:0] low_d;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_ctr
            if (UW > 0) begin : g_up
`ifdef SYNTHESIS
                SB_LUT4 #(.LUT_INIT(PC_LUT)) u_pc (
                    .O(pc_d[g]), .I0(hc[g / 8]), .I1(wl[g % 8]), .I2(pc[g]),
                    .I3(TOPC == 1 ? lane[LL * g + LW] : carry[g]));
                SB_LUT4 #(.LUT_INIT(MUX_LUT)) u_full (
                    .O(full_d[g]), .I0(hq[g / 8]), .I1(lq[g % 8]), .I2(wfull), .I3(full[g]));
`else
                assign pc_d[g]   = !(hc[g / 8] && wl[g % 8]) && (pc[g] || carry[g]);
                assign full_d[g] = hq[g / 8] && lq[g % 8] ? wfull : full[g];
`endif
            end else begin : g_noup
                assign pc_d[g]   = 1'b0;
                assign full_d[g] = 1'b0;
            end
`ifdef SYNTHESIS
            SB_LUT4 #(.LUT_INIT(MUX_LUT)) u_of (
                .O(of_d[g]), .I0(ho[g / 8]), .I1(wl[g % 8]), .I2(wdata[31]), .I3(ofw[g]));
            for (b2 = 0; b2 < LW; b2 = b2 + 1) begin : g_low
                SB_LUT4 #(.LUT_INIT(MUX_LUT)) u_low (
                    .O(low_d[LW * g + b2]), .I0(hl[g / 8]), .I1(wl[g % 8]), .I2(wdata[b2]),
                    .I3(lane[LL * g + b2]));
            end
`else
            assign of_d[g] = ho[g / 8] && wl[g % 8] ? wdata[31] : ofw[g];
            assign low_d[LW * g +: LW] = hl[g / 8] && wl[g % 8] ? wdata[LW-1:0] : lane[LL * g +: LW];
`endif
        end
    endgenerate

    wire [4:0]  wi_n   = take ? ridx : fptr;
    always @(posedge clk) begin
        if (rst) begin
            low     <= {N*LW{1'b0}};
            pc      <= {N{1'b0}};
            full    <= {N{1'b0}};
            of_q    <= {N{1'b0}};
            fptr    <= 5'd0;
            tk      <= 1'b0;
            clr_row <= clr_row + 6'd1;
        end else begin
            low  <= low_d;
            pc   <= pc_d;
            full <= full_d;
            of_q <= of_d;
            tk   <= take;
            wi   <= wi_n;
            wh   <= 4'd1 << wi_n[4:3];
            wl   <= 8'd1 << wi_n[2:0];
            if (take)
                tsel <= rsel;
            else
                fptr <= fptr == LAST ? 5'd0 : fptr + 5'd1;
        end
    end

`ifndef SYNTHESIS
    // the schedule the flush relies on, and the reads it may use
    reg col;                                  // rdata is a row written while it was read
    always @(posedge clk) begin
        col <= mwe && waddr == raddr;
        if (!rst) begin
            for (i = 0; i < N; i = i + 1)
                if (inc[LL * i +: LL] > 4) begin
                    $display("hpm_a3_store: an increment above 4 (lane %0d: %0d)", i, inc[LL * i +: LL]);
                    $fatal;
                end
            if (UW > 0 && (carry & pc) != {N{1'b0}}) begin
                $display("hpm_a3_store: a carry while one is pending (pc %h, carry %h)", pc, carry);
                $fatal;
            end
            for (i = 0; i < N; i = i + 1)
                if (UW > 0 && hq[i / 8] && lq[i % 8] && carry[i] && full[i] != wfull) begin
                    $display("hpm_a3_store: counter %0d carries the cycle after a write that changes its full", i);
                    $fatal;
                end
            if (take && tk) begin
                $display("hpm_a3_store: two takes in a row");
                $fatal;
            end
            if (col && (ctr_wb || fw || (tk && tsel))) begin
                $display("hpm_a3_store: a collided read used (row %0d)", waddr);
                $fatal;
            end
        end
    end
`endif
endmodule
