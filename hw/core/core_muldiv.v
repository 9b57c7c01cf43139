// core_muldiv: RV32M with fixed latencies (docs/timing.md): mul* 4 cycles,
// div*/rem* 34 cycles for every operand. step counts the X cycles of the
// instruction (0 = the cycle its operands arrive); result is valid in the
// last cycle (step 3 resp. 33) and written back at the end of it. The
// operands a and b stay valid through all the steps (hpm_core holds the
// register file's read for a mul/div).
//
// mul: one 16x16 unsigned partial product per cycle (core_mul16: one SB_MAC16),
//      accumulated into acc; the signed high word is corrected by subtracting
//      the other operand for each negative signed operand.
// div: restoring division of |a| by |b|, one quotient bit per cycle in
//      steps 1..32, sign correction in step 33. |b| is never formed: a
//      negative divisor is added instead of subtracted. One negator serves
//      |a| (step 0) and the sign correction (step 33). Division by zero and
//      overflow fall out of the algorithm with the RISC-V results (q = -1,
//      r = a; and q = -2^31, r = 0).
module core_muldiv (
    input  wire        clk,
    input  wire        is_mul,
    input  wire        is_div,
    input  wire [5:0]  step,
    input  wire [1:0]  funct,        // funct
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire [31:0] result
);
    reg [63:0] acc;        // mul: partial sum; div: {remainder, quotient}
    reg [31:0] fix;        // mul: correction for signed high words
    reg        neg_a;      // div: dividend negative (signed ops)
    reg        neg_b;      // div: divisor negative (signed ops)
    reg        neg_q;      // div: quotient negative (signed, divisor != 0)

    wire first = step == 6'd0;

    // ---- multiplier: partial products a_lo*b_lo, a_lo*b_hi, a_hi*b_lo, a_hi*b_hi
    wire [15:0] pa = step[1] ? a[31:16] : a[15:0];
    wire [15:0] pb = step[0] ? b[31:16] : b[15:0];
    wire [31:0] prod;
    core_mul16 u_mul16 (.clk(clk), .a(pa), .b(pb), .p(prod));
    wire        a_signed = funct == 2'b01 || funct == 2'b10;  // mulh, mulhsu
    wire        b_signed = funct == 2'b01;                          // mulh
    wire [31:0] mul_hi = acc[63:32] + prod - fix;

    // ---- divider
    wire        dsigned  = !funct[0];
    wire        want_rem = funct[1];
    wire [31:0] div_mag  = want_rem ? acc[63:32] : acc[31:0];
    wire        div_neg  = want_rem ? neg_a : neg_q;
    wire [31:0] negated  = -(first ? a : div_mag);
    wire [32:0] rem_sh   = {acc[63:32], acc[31]};
    // rem_sh - |b|: a negative divisor (sign-extended) is added
    wire [32:0] diff     = rem_sh + (neg_b ? {1'b1, b} : {1'b1, ~b}) + {32'd0, !neg_b};

    always @(posedge clk) begin
        if (is_mul) begin
            if (first) begin
                acc <= {32'd0, prod};
            end else begin
                acc <= acc + {16'd0, prod, 16'd0};
                fix <= ((a_signed && a[31]) ? b : 32'd0) +
                       ((b_signed && b[31]) ? a : 32'd0);
            end
        end else if (is_div) begin
            if (first) begin
                acc   <= {32'd0, (dsigned && a[31]) ? negated : a};
                neg_a <= dsigned && a[31];
                neg_b <= dsigned && b[31];
                neg_q <= dsigned && (a[31] ^ b[31]) && b != 32'd0;
            end else if (!diff[32]) begin
                acc <= {diff[31:0], acc[30:0], 1'b1};
            end else begin
                acc <= {rem_sh[31:0], acc[30:0], 1'b0};
            end
        end
    end

    assign result = is_mul ? (funct == 2'b00 ? acc[31:0] : mul_hi)
                           : (div_neg ? negated : div_mag);
endmodule
