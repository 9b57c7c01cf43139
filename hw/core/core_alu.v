// core_alu: the integer ALU and the branch comparator, sharing one
// adder/subtractor. funct3 selects the RV32I operation (alt = the sra bit);
// force_add makes it a plain adder (addresses, lui/auipc, jalr); sub makes
// the adder subtract (sub, slt, sltu, branches: funct3 = the condition). The
// controls come registered from the decoder.
module core_alu (
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire [2:0]  funct3,
    input  wire        alt,
    input  wire        force_add,
    input  wire        sub,
    output reg  [31:0] result,
    output wire [31:0] sum_out,     // the adder alone (addresses: short path)
    output wire        taken        // branch condition (valid when cmp)
);
    // Everything reads b through the subtractor's inversion: sub is 0 for the
    // shifts and logic operations and 1 for the branches, so b itself is not
    // needed (on the chip the inversion joins the operand mux's LUT).
    wire [31:0] bx  = b ^ {32{sub}};
    wire [32:0] sum = {1'b0, a} + {1'b0, bx} + {32'd0, sub};
    assign      sum_out = sum[31:0];
    wire        eq  = &(a ^ bx);                    // a == b when sub
    wire        ltu = !sum[32];
    wire        lt  = (a[31] ^ bx[31]) ? sum[31] : a[31];

`ifndef SYNTHESIS
    // The simulated board evaluates the ALU on whole words: a bit-level loop
    // (the chip's form) costs Verilator an operation per bit, which made this
    // module about 15 % of the board's simulation time. Same function.
    function [31:0] rev32(input [31:0] x);      // bit reversal in five swaps
        reg [31:0] y;
        begin
            y = {x[15:0], x[31:16]};
            y = ((y & 32'h00FF00FF) << 8) | ((y >> 8) & 32'h00FF00FF);
            y = ((y & 32'h0F0F0F0F) << 4) | ((y >> 4) & 32'h0F0F0F0F);
            y = ((y & 32'h33333333) << 2) | ((y >> 2) & 32'h33333333);
            rev32 = ((y & 32'h55555555) << 1) | ((y >> 1) & 32'h55555555);
        end
    endfunction
`endif

    // one arithmetic right shifter for all shifts: sll shifts the bit-reversed
    // operand right and reverses the result back. Its input is 0 for the
    // logic operations so that its output can be or-ed with theirs.
    wire        rshift = funct3[1:0] == 2'b01;
    reg  [31:0] sh_a;
`ifdef SYNTHESIS
    integer i;
    always @(*) for (i = 0; i < 32; i = i + 1)
        sh_a[i] = funct3[2] ? rshift && a[i] : a[31 - i];
`else
    always @(*) sh_a = funct3[2] ? a & {32{rshift}} : rev32(a);
`endif
    wire [32:0] sh_in = {alt && a[31], sh_a};
    /* verilator lint_off UNUSEDSIGNAL */ // bit 32, the sign, unused
    wire [32:0] sh_q  = $signed(sh_in) >>> bx[4:0];
    /* verilator lint_on UNUSEDSIGNAL */

    // the result as three levels a LUT4 each: the logic operations (0 for
    // the shifts), or-ed with the shifter's output in its direction, then
    // the sum or that (0 for slt/sltu but bit 0). Explicit LUTs on the
    // iCE40 (abc's own mapping of the three took more LUTs, docs/decisions.md).
    wire        sel_sum = force_add || funct3 == 3'b000;
    wire        sel_slt = funct3[2:1] == 2'b01;
    wire [31:0] res_hi;
`ifdef SYNTHESIS
    genvar g;
    generate
        for (g = 0; g < 32; g = g + 1) begin : g_res
            wire lg, sl;
            SB_LUT4 #(.LUT_INIT(16'h8E06)) u_lg (    // f1 ? (f0 ? & : |) : !f0 && ^
                .O(lg), .I0(a[g]), .I1(bx[g]), .I2(funct3[0]), .I3(funct3[1]));
            SB_LUT4 #(.LUT_INIT(16'hFFAC)) u_sl (    // (f2 ? I0 : I1) | I3
                .O(sl), .I0(sh_q[g]), .I1(sh_q[31 - g]), .I2(funct3[2]), .I3(lg));
            SB_LUT4 #(.LUT_INIT(16'hA0AC)) u_rs (    // I2 ? I0 : !I3 && I1
                .O(res_hi[g]), .I0(sum[g]), .I1(sl), .I2(sel_sum), .I3(sel_slt));
        end
    endgenerate
`else
    wire [31:0] lg = funct3[1] ? (funct3[0] ? a & bx : a | bx) : (funct3[0] ? 32'd0 : a ^ bx);
    wire [31:0] sl = (funct3[2] ? sh_q[31:0] : rev32(sh_q[31:0])) | lg;
    assign res_hi = sel_sum ? sum[31:0] : sel_slt ? 32'd0 : sl;
`endif
    always @(*)
        result = {res_hi[31:1], res_hi[0] || (!sel_sum && sel_slt && (funct3[0] ? ltu : lt))};

    assign taken = funct3[2] ? ((funct3[1] ? ltu : lt) ^ funct3[0]) : (eq ^ funct3[0]);
endmodule
