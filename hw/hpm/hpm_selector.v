// hpm_selector: one mhpmevent register (Kunminghu-style, SPEC §4) and the
// per-cycle combination of its four events into the counter increment.
//
//   63 OF | 62 MINH | 61 SINH | 60 UINH | 59:55 0 | 54:50 OP2 | 49:45 OP1 |
//   44:40 OP0 | 39:30 EV3 | 29:20 EV2 | 19:10 EV1 | 9:0 EV0
//
// A write of a half stores that half's fields from wlegal, which hpm_unit
// builds once for the addressed selector (WARL applied: OP fields are
// OR/AND/XOR/ADD, event indexes < EV_W; EV3, which straddles the halves,
// merged with the other half), so that half merging needs no 64-bit mux. An
// event index fits in EVB bits and an OP field in its low 3. OF is set by
// hardware on a wrap (set_of) and wins over a software write in that cycle.
`include "hpm_map.vh"
module hpm_selector #(
    parameter integer EV_W = `HPM_EVENTS_BUS_W               // event bus width: bit i = event i
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            we_lo,             // CSR write of bits 31:0
    input  wire            we_hi,             // CSR write of bits 63:32
    input  wire [63:0]     wlegal,            // the written half (and EV3) after that write
    input  wire            set_of,            // the counter wrapped this cycle
    output wire [63:0]     value,             // as software reads it
    output wire            of,
    input  wire [EV_W-1:0] ev,                // this cycle's events (bit 0 unused)
    input  wire [1:0]      priv,              // this cycle's privilege mode
    output wire [2:0]      inc                // this cycle's increment, mode-filtered
);
    localparam integer EVB = $clog2(EV_W);
    localparam [9-EVB:0] EV_PAD = 0;

    reg            of_q;
    reg  [2:0]     inh_q;                      // MINH, SINH, UINH
    reg  [2:0]     op0, op1, op2;
    reg  [EVB-1:0] ev0, ev1, ev2, ev3;

    /* verilator lint_off UNUSEDSIGNAL */ // the read-only-0 bits and the event bits above EVB
    wire [63:0] w = wlegal;
    /* verilator lint_on UNUSEDSIGNAL */

    always @(posedge clk) begin
        if (rst) begin
            of_q  <= 1'b0;
            inh_q <= 3'd0;
            op0 <= 3'd0; op1 <= 3'd0; op2 <= 3'd0;
            ev0 <= {EVB{1'b0}}; ev1 <= {EVB{1'b0}}; ev2 <= {EVB{1'b0}}; ev3 <= {EVB{1'b0}};
        end else begin
            if (we_hi) begin
                inh_q <= w[`HPM_MHPMEVENT_MINH_LSB:`HPM_MHPMEVENT_UINH_LSB];
                op2   <= w[`HPM_MHPMEVENT_OP_TYPE2_LSB +: 3];
                op1   <= w[`HPM_MHPMEVENT_OP_TYPE1_LSB +: 3];
                op0   <= w[`HPM_MHPMEVENT_OP_TYPE0_LSB +: 3];
            end
            if (we_lo || we_hi)
                ev3   <= w[30 +: EVB];
            if (we_lo) begin
                ev2   <= w[20 +: EVB];
                ev1   <= w[10 +: EVB];
                ev0   <= w[0 +: EVB];
            end
            of_q <= set_of || (we_hi ? w[`HPM_MHPMEVENT_OF_LSB] : of_q);
        end
    end

    assign value = {of_q, inh_q, 5'd0, 2'b00, op2, 2'b00, op1, 2'b00, op0,
                    EV_PAD, ev3, EV_PAD, ev2, EV_PAD, ev1, EV_PAD, ev0};
    assign of    = of_q;

    // ---- per-cycle combination: RESULT2 = (E0 op0 E1) op2 (E2 op1 E3)
`include "hpm_combine.vh"

    // index 0 is "no event" (bus bit 0 is 0); indexes are < EV_W by construction
    wire [2:0] e0 = {2'b00, ev[ev0]}, e1 = {2'b00, ev[ev1]};
    wire [2:0] e2 = {2'b00, ev[ev2]}, e3 = {2'b00, ev[ev3]};
    wire [2:0] r2 = combine(op2, combine(op0, e0, e1), combine(op1, e2, e3));

    assign inc = mode_inhibited(inh_q, priv) ? 3'd0 : r2;
endmodule
