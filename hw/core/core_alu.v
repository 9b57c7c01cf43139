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
    wire [32:0] sum = {1'b0, a} + {1'b0, sub ? ~b : b} + {32'd0, sub};
    assign      sum_out = sum[31:0];
    wire        eq  = a == b;
    wire        ltu = !sum[32];
    wire        lt  = (a[31] ^ b[31]) ? a[31] : sum[31];

    // one arithmetic right shifter for all shifts: sll shifts the bit-reversed
    // operand right and reverses the result back
    wire        left  = funct3 == 3'b001;
    reg  [31:0] a_rev, sh_rev;
    integer i;
    always @(*) for (i = 0; i < 32; i = i + 1) a_rev[i] = a[31 - i];
    wire [32:0] sh_in = {alt && a[31], left ? a_rev : a};
    wire [32:0] sh_q  = $signed(sh_in) >>> b[4:0];
    always @(*) for (i = 0; i < 32; i = i + 1) sh_rev[i] = sh_q[31 - i];

    // the result as three levels a LUT4 each: the logic operations in one
    // LUT per bit, the shift direction, then the operation class
    wire [31:0] logic_r = funct3[1] ? (funct3[0] ? a & b : a | b) : a ^ b;
    wire [31:0] shift_r = funct3[2] ? sh_q[31:0] : sh_rev;
    always @(*) begin
        if (force_add || funct3 == 3'b000)
            result = sum[31:0];
        else if (funct3[1:0] == 2'b01)
            result = shift_r;
        else if (funct3[2:1] == 2'b01)
            result = {31'd0, funct3[0] ? ltu : lt};
        else
            result = logic_r;
    end

    assign taken = funct3[2] ? ((funct3[1] ? ltu : lt) ^ funct3[0]) : (eq ^ funct3[0]);
endmodule
