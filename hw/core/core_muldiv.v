// core_muldiv: RV32M with fixed latencies (docs/timing.md): mul 5 cycles,
// mulh/mulhsu/mulhu 6, div/divu 34, rem/remu 35, for every operand. step
// counts the X cycles of the instruction (0 = the cycle its operands arrive);
// last marks the final step, in which result is valid (written back at the
// end of it). The operands a and b stay valid through all the steps
// (hpm_core holds the register file's read for a mul/div).
//
// One 34-bit adder (sum = y + x + cin) serves both:
// mul: core_mul16 (registered at both ends: a product appears two steps after
//      its digits) multiplies one pair of 16-bit digits per step 0..3:
//      al*bl, al*bh, ah*bl, ah*bh. The high digit of a signed operand counts
//      as signed (ah - 2^16 a31): the DSP subtracts the digit product's
//      correction (x << 16), so each digit product fits 32 signed bits and
//      no high-word correction is left. The adder accumulates the products
//      (steps 2..5) in h: for mulh* shifted right by 16 where the weight
//      grows; for mul (the low word) the cross products enter shifted left
//      by 16, so the last sum is the result.
// div: non-restoring division of |a| by |b|: |a| (step 0, through the adder)
//      shifts out of l while the quotient bits shift in; h is the signed
//      partial remainder, to which |b| is added or from which it is
//      subtracted (a negative divisor is added instead of subtracted, so
//      |b| is never formed), steps 1..32. The quotient bits are those of the
//      restoring division. rem/remu restore a negative remainder (step 33).
//      The last step negates the result through the adder when its sign
//      asks for it. Division by zero and overflow fall out of the algorithm
//      with the RISC-V results (q = -1, r = a; q = -2^31, r = 0); a signed
//      quotient is only all ones (bits 31 and 30 set) when b = 0, which
//      keeps its sign.
module core_muldiv (
    input  wire        clk,
    input  wire        is_mul,
    input  wire        is_div,
    input  wire [5:0]  step,
    input  wire [1:0]  funct,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire        last,
    output wire [31:0] result
);
    reg [33:0] h;          // mul: column sum; div: partial remainder (signed)
    reg [31:0] l;          // div: dividend / quotient
    reg        neg_a;      // div: dividend negative (signed ops)
    reg        neg_b;      // div: divisor negative (signed ops)
    reg        neg_q;      // div: operand signs differ (signed ops)

    wire want_rem = funct[1];
    assign last = is_mul ? step == (funct == 2'b00 ? 6'd4 : 6'd5)
                         : step == (want_rem ? 6'd34 : 6'd33);

    // ---- the digit products
    wire        a_signed = funct == 2'b01 || funct == 2'b10;   // mulh, mulhsu
    wire        b_signed = funct == 2'b01;                      // mulh
    wire [15:0] pa = step[1] ? a[31:16] : a[15:0];
    wire [15:0] pb = step[0] ? b[31:16] : b[15:0];
    // a signed high digit times the other digit, less the other digit << 16
    wire [15:0] corr = ((a_signed && a[31] && step[1]) ? pb : 16'd0) +
                      ((b_signed && b[31] && step[0]) ? pa : 16'd0);
    wire [31:0] prod;
    core_mul16 u_mul16 (.clk(clk), .a(pa), .b(pb), .x(corr), .q(prod));
    // a digit product is signed when it has a signed digit: al*bh (step 3
    // here) when b is, ah*bl (step 4) when a is; al*bl (step 2) never
    wire        prod_neg = prod[31] && (step[2] ? a_signed : step[0] && b_signed);

    // ---- the shared adder
    wire        dsigned = !funct[0];
    wire        d_first = step == 6'd0;
    wire        d_sign   = step == (want_rem ? 6'd34 : 6'd33);   // sign correction
    wire        d_rest  = want_rem && step == 6'd33;            // restore remainder
    wire        inv     = neg_b ^ !h[33];                       // subtract |b|
    wire        sign_neg = want_rem ? neg_a : neg_q && !(l[31] && l[30]);   // q = -1 for b = 0
    wire        m_shift = step[0] && funct != 2'b00;             // steps 3, 5

    // x: a digit product (mul); |a| (step 0), the result to negate (last
    // step) or +-|b| (div)
    wire        d_zero = d_first || d_sign;
    wire [31:0] d_src  = d_first ? a : d_sign ? (want_rem ? h[31:0] : l) : b;
    wire        d_ext  = !d_zero && neg_b;
    wire        d_inv  = d_first ? dsigned && a[31] : d_sign ? sign_neg : inv;
    wire        mul_lo = funct == 2'b00;
    wire        lo_shl = mul_lo && step != 6'd2;          // al*bh, ah*bl: << 16
    wire [33:0] x = is_mul ? (lo_shl ? {2'b00, prod[15:0], 16'd0} : {{2{prod_neg}}, prod}) :
                    {d_ext, d_ext, d_src} ^ {34{d_inv}};
    // y: the column sum, shifted down a digit when the weight grows (mul);
    // the partial remainder (div: h holds it already shifted up by the next
    // dividend bit, below)
    wire [33:0] y = is_mul ? (m_shift ? {{16{h[33]}}, h[33:16]} : h) :
                    d_zero ? 34'd0 : h;
    wire        cin = !is_mul && d_inv;
    wire [33:0] sum = y + x + {33'd0, cin};   // the shared adder

    // h: cleared before a mul's first product; held while a rem/remu
    // remainder is not negative (restore step). Division steps 0..31 store
    // the partial remainder r shifted up by the dividend bit the next step
    // takes (2r + l[30]; 2*0 + |a|[31] at step 0), step 32 and the restore
    // step r itself: the shift sits in front of h, where each bit's LUT packs
    // with its flip-flop, instead of in y beside the adder's other inputs
    // (r fits 33 bits signed, so h[33] is r's sign either way).
    wire h_clr = is_mul && step[5:1] == 5'd0;
    wire h_en  = is_mul || (is_div && !(d_rest && !h[33]));
    wire h_shl = is_div && !step[5];                         // steps 0..31
    always @(posedge clk) begin
        if (h_clr)
            h <= 34'd0;
        else if (h_en)
            h <= d_first ? {33'd0, sum[31]} : h_shl ? {sum[32:0], l[30]} : sum;
    end
    // l: the dividend |a| (step 0), then quotient bits shifting in
    wire l_div = is_div && !d_rest && !d_sign;
    always @(posedge clk) begin
        if (l_div)
            l <= d_first ? sum[31:0] : {l[30:0], !sum[33]};
    end
    always @(posedge clk) begin
        if (is_div && d_first) begin
            neg_a <= dsigned && a[31];
            neg_b <= dsigned && b[31];
            neg_q <= dsigned && (a[31] ^ b[31]);
        end
    end

    assign result = sum[31:0];
endmodule
