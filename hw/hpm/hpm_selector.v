// hpm_selector: one mhpmevent register (Kunminghu-style, SPEC §4) and the
// per-cycle combination of its four events into the counter increment.
//
//   63 OF | 62 MINH | 61 SINH | 60 UINH | 59:55 0 | 54:50 OP2 | 49:45 OP1 |
//   44:40 OP0 | 39:30 EV3 | 29:20 EV2 | 19:10 EV1 | 9:0 EV0
//
// WARL: an OP field other than OR (0), AND (1), XOR (2), ADD (4) is stored
// as OR; an event index above EV_MAX is stored as 0 (no event). OF is set by
// hardware on a wrap (set_of) and wins over a software write in that cycle.
module hpm_selector #(
    parameter integer EV_W   = 32,          // event bus width: bit i = event i
    parameter integer EV_MAX = EV_W - 1     // largest valid event index
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            we_lo,           // CSR write of bits 31:0
    input  wire            we_hi,           // CSR write of bits 63:32
    input  wire [31:0]     wdata,
    input  wire            set_of,          // the counter wrapped this cycle
    output wire [63:0]     value,           // as software reads it
    output wire [63:0]     wval,            // as it will read after this cycle's write
    output wire            of,
    input  wire [EV_W-1:0] ev,              // this cycle's events (bit 0 unused)
    input  wire [1:0]      priv,            // this cycle's privilege mode
    output wire [2:0]      inc              // this cycle's increment, mode-filtered
);
    // op encodings as stored (2 bits) and as read back (5 bits)
    localparam [1:0] OP_OR = 2'd0, OP_AND = 2'd1, OP_XOR = 2'd2, OP_ADD = 2'd3;

    reg        of_q;
    reg  [2:0] inh_q;                        // MINH, SINH, UINH
    reg  [1:0] op_q [0:2];
    reg  [9:0] ev_q [0:3];

    function [1:0] op_legal(input [4:0] f);
        case (f)
            5'b00001: op_legal = OP_AND;
            5'b00010: op_legal = OP_XOR;
            5'b00100: op_legal = OP_ADD;
            default:  op_legal = OP_OR;
        endcase
    endfunction

    function [4:0] op_field(input [1:0] o);
        op_field = o == OP_ADD ? 5'b00100 : {3'b000, o};
    endfunction

    function [9:0] ev_legal(input [9:0] e);
        ev_legal = {22'd0, e} > EV_MAX ? 10'd0 : e;
    endfunction

    // the 64-bit write, halves merged with the current value, then legalized
    /* verilator lint_off UNUSEDSIGNAL */ // bits 59:55 are read-only zero
    wire [63:0] w64 = {we_hi ? wdata : value[63:32], we_lo ? wdata : value[31:0]};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [63:0] legal = {w64[63:60], 5'd0, op_field(op_legal(w64[54:50])),
                         op_field(op_legal(w64[49:45])), op_field(op_legal(w64[44:40])),
                         ev_legal(w64[39:30]), ev_legal(w64[29:20]), ev_legal(w64[19:10]),
                         ev_legal(w64[9:0])};
    wire        written = we_lo || we_hi;

    integer i;
    always @(posedge clk) begin
        if (rst) begin
            of_q  <= 1'b0;
            inh_q <= 3'd0;
            for (i = 0; i < 3; i = i + 1) op_q[i] <= OP_OR;
            for (i = 0; i < 4; i = i + 1) ev_q[i] <= 10'd0;
        end else begin
            if (written) begin
                inh_q   <= legal[62:60];
                op_q[2] <= op_legal(legal[54:50]);
                op_q[1] <= op_legal(legal[49:45]);
                op_q[0] <= op_legal(legal[44:40]);
                ev_q[3] <= legal[39:30];
                ev_q[2] <= legal[29:20];
                ev_q[1] <= legal[19:10];
                ev_q[0] <= legal[9:0];
            end
            of_q <= set_of || (written ? legal[63] : of_q);
        end
    end

    assign wval = {set_of || legal[63], legal[62:0]};
    assign value = {of_q, inh_q, 5'd0, op_field(op_q[2]), op_field(op_q[1]), op_field(op_q[0]),
                    ev_q[3], ev_q[2], ev_q[1], ev_q[0]};
    assign of    = of_q;

    // ---- per-cycle combination: RESULT2 = (E0 op0 E1) op2 (E2 op1 E3)
    function [2:0] combine(input [1:0] o, input [2:0] a, input [2:0] b);
        case (o)
            OP_AND:  combine = a & b;
            OP_XOR:  combine = a ^ b;
            OP_ADD:  combine = a + b;
            default: combine = a | b;
        endcase
    endfunction

    function [2:0] event_count(input [9:0] e);
        // index 0 is "no event"; indexes are legal (< EV_W) by construction
        event_count = {2'b00, e != 10'd0 && ev[e[$clog2(EV_W)-1:0]]};
    endfunction

    wire [2:0] r0 = combine(op_q[0], event_count(ev_q[0]), event_count(ev_q[1]));
    wire [2:0] r1 = combine(op_q[1], event_count(ev_q[2]), event_count(ev_q[3]));
    wire [2:0] r2 = combine(op_q[2], r0, r1);

    wire inhibited = (priv == 2'b11 && inh_q[2]) || (priv == 2'b01 && inh_q[1]) ||
                     (priv == 2'b00 && inh_q[0]);
    assign inc = inhibited ? 3'd0 : r2;
endmodule
