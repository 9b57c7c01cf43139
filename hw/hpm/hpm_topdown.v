// hpm_topdown: the top-down unit (docs/hpm.md, "Top-down unit"): Ice Lake's
// fixed SLOTS counter and PERF_METRICS register as RISC-V CSRs.
//
// HPM_TD = 1, the simulated board's unit:
//   mslots(h) 0x7C1/0x7C2, slots(h) 0xCC0/0xCC1   SLOTS (issue width 1)
//   mtopdown 0x7C3                                 OF; a write of 1 resets the unit
//   tdmetrics 0xCC2, tdmetrics2 0xCC3              fractions of SLOTS in 1/255
//   mtdretiring(h)..mtdmembound(h) 0xFC0..0xFC9    the five exact counts
// SLOTS and the counts advance in the cycles mcycle advances (on: its
// mcountinhibit bit and mcyclecfg filter), SLOTS by 1, each count by its
// catalogue event. A SLOTS wrap sets OF (no interrupt). A write follows
// mcycle's rule: it replaces that cycle's increment.
//
// The metrics are combinational from the counts (five 72-by-64-bit
// dividers), read like mcycle: a read in cycle t sees the counts at the
// start of t. They are computed only in a CSR instruction's cycles (csr_rd),
// so the simulated board pays the divisions only at a read.
//
// HPM_TD = 2, the iCE40 board's counts (no room for the unit, docs/hpm.md):
//   mtdfe16 0xFCA, mtdbad16 0xFCB   topdown-fe-bound, topdown-bad-spec mod 2^16
// counted in mcycle's cycles in the two 16-bit accumulators of one SB_MAC16.
// SLOTS is mcycle and retiring minstret, so these two give level 1; M-mode
// code widens them to 64 bits, exactly because a change of either count's
// bit 15 raises LCOFI (lcofi, the cycle after the increment, as a counter's
// wrap): it reads them at least every 2^15 increments. SLOTS being mcycle,
// a write of mcycle's low half resets both with it (mcycle's write rule:
// it replaces that cycle's increment; no LCOFI): the monitor writes mcycle
// at every run's start, so a run's LCOFIs do not depend on what the board
// ran before.
//
// HPM_TD = 0: no unit; its addresses are not claimed.
`include "hpm_map.vh"
module hpm_topdown #(
    parameter integer HPM_TD = 1,                  // 1: the unit, 2: the board's two counts, 0: none
    parameter integer EV_W   = `HPM_EVENTS_BUS_W   // event bus width
) (
    /* verilator lint_off UNUSEDSIGNAL */ // HPM_TD = 0: none; else the top-down events
    input  wire            clk,
    input  wire            rst,
    input  wire            on,         // mcycle counts this cycle
    input  wire            mcycle_we,  // mcycle's low half is written (HPM_TD = 2: the reset)
    input  wire [EV_W-1:0] ev,
    input  wire [31:0]     csr_wdata,
    input  wire            csr_we,     // commit strobe
    input  wire            csr_rd,     // a CSR instruction is in X
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [11:0]     csr_addr,
    output wire            hit,        // csr_addr is one of the unit's
    output reg  [31:0]     rdata,      // 0 when not hit
    output reg  [31:0]     wval,       // the value after a write (trace)
    output wire            lcofi       // HPM_TD = 2: a count's bit 15 changed in the previous cycle
);
/* verilator lint_off UNUSEDPARAM */ // the whole catalogue, not every index is used here
`include "hpm_events.vh"
/* verilator lint_on UNUSEDPARAM */
    wire is_m   = csr_addr >= `HPM_CSR_MSLOTS && csr_addr <= `HPM_CSR_MTOPDOWN;
    wire is_u   = csr_addr >= `HPM_CSR_SLOTS && csr_addr <= `HPM_CSR_TDMETRICS2;
    wire is_cnt = csr_addr >= `HPM_CSR_MTDRETIRING && csr_addr <= `HPM_CSR_MTDMEMBOUNDH;
    wire hit_d;
    assign hit = HPM_TD == 2 ? hit_d : HPM_TD != 0 && (is_m || is_u || is_cnt);

    generate if (HPM_TD == 2) begin : g_dsp
        // fe-bound in the bottom accumulator (B), bad-spec in the top (A)
        wire [15:0] a = {15'd0, on && ev[HPM_EV_TOPDOWN_BAD_SPEC]};
        wire [15:0] b = {15'd0, on && ev[HPM_EV_TOPDOWN_FE_BOUND]};
        wire        clear = mcycle_we;
        wire [31:0] q;
`ifdef SYNTHESIS
        SB_MAC16 #(
            .TOPOUTPUT_SELECT(2'd1), .BOTOUTPUT_SELECT(2'd1),
            .TOPADDSUB_LOWERINPUT(2'd0), .BOTADDSUB_LOWERINPUT(2'd0),
            .TOPADDSUB_UPPERINPUT(1'b0), .BOTADDSUB_UPPERINPUT(1'b0),
            .TOPADDSUB_CARRYSELECT(2'd0), .BOTADDSUB_CARRYSELECT(2'd0)
        ) u_mac (
            .CLK(clk), .CE(1'b1), .C(16'd0), .A(a), .B(b), .D(16'd0),
            .AHOLD(1'b0), .BHOLD(1'b0), .CHOLD(1'b0), .DHOLD(1'b0),
            .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(rst), .ORSTBOT(rst),
            .OLOADTOP(clear), .OLOADBOT(clear), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
            .OHOLDTOP(1'b0), .OHOLDBOT(1'b0), .CI(1'b0), .ACCUMCI(1'b0),
            .SIGNEXTIN(1'b0), .O(q), .CO(), .ACCUMCO(), .SIGNEXTOUT()
        );
`else
        reg [15:0] qa, qb;
        always @(posedge clk) begin
            qa <= rst || clear ? 16'd0 : qa + a;
            qb <= rst || clear ? 16'd0 : qb + b;
        end
        assign q = {qa, qb};
`endif
        // bit 15 of each count, a cycle late (0 with the clear: no LCOFI)
        reg  [1:0] msb_q;
        always @(posedge clk)
            msb_q <= rst || clear ? 2'd0 : {q[31], q[15]};
        assign lcofi = msb_q != {q[31], q[15]};
        localparam [11:0] A16 = `HPM_CSR_MTDFE16;       // mtdfe16, mtdbad16 = A16 + 1
        assign hit_d = csr_addr[11:1] == A16[11:1];
        always @(*) begin
            rdata = {16'd0, hit_d ? (csr_addr[0] ? q[31:16] : q[15:0]) : 16'd0};
            wval  = 32'd0;
        end
    end else if (HPM_TD != 0) begin : g_td
        assign hit_d = 1'b0;
        assign lcofi = 1'b0;
        // cnt[0] SLOTS, then retiring, bad spec, frontend bound, branch
        // mispredicts, memory bound (the order of mtdretiring..mtdmembound)
        reg  [63:0] cnt [0:5];
        reg         of;
        wire [5:0]  inc = {ev[HPM_EV_TOPDOWN_MEM_BOUND], ev[HPM_EV_TOPDOWN_BR_MISPREDICT],
                           ev[HPM_EV_TOPDOWN_FE_BOUND], ev[HPM_EV_TOPDOWN_BAD_SPEC],
                           ev[HPM_EV_TOPDOWN_RETIRING], 1'b1} & {6{on}};
        wire we_lo  = csr_we && csr_addr == `HPM_CSR_MSLOTS;
        wire we_hi  = csr_we && csr_addr == `HPM_CSR_MSLOTSH;
        wire clear  = csr_we && csr_addr == `HPM_CSR_MTOPDOWN && csr_wdata[`HPM_MTOPDOWN_OF];
        wire wrap   = inc[0] && cnt[0] == {64{1'b1}} && !we_lo && !we_hi;
        wire [63:0] slots_w = {we_hi ? csr_wdata : cnt[0][63:32], we_lo ? csr_wdata : cnt[0][31:0]};
        integer i;
        always @(posedge clk) begin
            if (rst || clear) begin
                for (i = 0; i < 6; i = i + 1)
                    cnt[i] <= 64'd0;
                of <= 1'b0;
            end else begin
                for (i = 1; i < 6; i = i + 1)
                    cnt[i] <= cnt[i] + {63'd0, inc[i]};
                cnt[0] <= we_lo || we_hi ? slots_w : cnt[0] + {63'd0, inc[0]};
                if (wrap)
                    of <= 1'b1;
            end
        end

        // q(x) = floor(255 * x / S), 0 when S = 0, at most 255
        function [7:0] q(input [63:0] x, input [63:0] s);
            reg [71:0] d;
            begin
                d = s == 64'd0 ? 72'd0 : ({8'd0, x} * 72'd255) / {8'd0, s};
                q = d > 72'd255 ? 8'd255 : d[7:0];
            end
        endfunction
        function [7:0] min8(input [7:0] a, input [7:0] b);
            min8 = a < b ? a : b;
        endfunction
        // each field clamped to what the ones before it left of 255
        reg [7:0] ret, bad, fe, be, br, mem;
        always @(*) begin
            {ret, bad, fe, be, br, mem} = 48'd0;
            if (csr_rd && (csr_addr == `HPM_CSR_TDMETRICS || csr_addr == `HPM_CSR_TDMETRICS2)) begin
                ret = q(cnt[1], cnt[0]);
                bad = min8(q(cnt[2], cnt[0]), 8'd255 - ret);
                fe  = min8(q(cnt[3], cnt[0]), 8'd255 - ret - bad);
                be  = 8'd255 - ret - bad - fe;
                br  = min8(q(cnt[4], cnt[0]), bad);
                mem = min8(q(cnt[5], cnt[0]), be);
            end
        end

        // mtd*: count 1 + (addr - 0xFC0) / 2, the half by the address' bit 0
        wire [2:0]  ci = 3'd1 + csr_addr[3:1];
        wire [63:0] cv = csr_addr[3:1] < 3'd5 ? cnt[ci] : 64'd0;
        always @(*) begin
            rdata = 32'd0;
            case (csr_addr)
                `HPM_CSR_MSLOTS, `HPM_CSR_SLOTS:   rdata = cnt[0][31:0];
                `HPM_CSR_MSLOTSH, `HPM_CSR_SLOTSH: rdata = cnt[0][63:32];
                `HPM_CSR_MTOPDOWN:                 rdata = {31'd0, of};
                `HPM_CSR_TDMETRICS:                rdata = {be, fe, bad, ret};
                `HPM_CSR_TDMETRICS2:               rdata = {of, 7'd0, mem, fe, br};
                default: if (is_cnt)               rdata = csr_addr[0] ? cv[63:32] : cv[31:0];
            endcase
            // mslots(h): the written half over the current value; mtopdown:
            // OF after the write (this cycle's wrap in it)
            wval = 32'd0;
            if (we_lo || we_hi)
                wval = we_hi ? slots_w[63:32] : slots_w[31:0];
            else if (csr_we && csr_addr == `HPM_CSR_MTOPDOWN)
                wval = {31'd0, !clear && (of || wrap)};
        end
    end else begin : g_none
        assign hit_d = 1'b0;
        assign lcofi = 1'b0;
        always @(*) begin
            rdata = 32'd0;
            wval  = 32'd0;
        end
    end endgenerate
endmodule
