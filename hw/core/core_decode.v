// core_decode: decodes the instruction in D and registers the result for X
// (load = the instruction moves from D to X), so that X starts from
// registered control signals. Classifies the instruction, builds its
// immediate and flags encodings that are not legal RV32IM + Zicsr + Zifencei
// (+ the privileged instructions). CSR-address and privilege checks are done
// by core_csr; this only checks the encoding.
module core_decode (
    input  wire        clk,
    input  wire        load,
    input  wire [31:0] insn,
    output reg         illegal,
    output reg         is_jal,
    output reg         is_jalr,
    output reg         is_branch,
    output reg         is_load,
    output reg         is_store,
    output reg         is_mul,
    output reg         is_div,
    output reg         is_csr,
    output reg         is_fence,
    output reg         is_fencei,
    output reg         is_ecall,
    output reg         is_ebreak,
    output reg         is_mret,
    output reg         is_sret,
    output reg         is_wfi,
    output reg         is_sfence,
    output reg         writes_rd,    // the instruction has an rd result
    output reg  [31:0] imm,
    // ALU controls
    output reg         alu_a_zero,   // operand a = 0 (lui)
    output reg         alu_a_pc,     // operand a = pc (auipc)
    output reg         alu_b_rs2,    // operand b = rs2 (else the immediate)
    output reg         alu_add,      // plain add (addresses, lui, auipc)
    output reg         alu_sub,      // the adder subtracts
    output reg         alu_alt       // sra/srai
);
    wire [6:0] opcode = insn[6:0];
    wire [2:0] funct3 = insn[14:12];
    wire [6:0] funct7 = insn[31:25];
    wire       rd_zero  = insn[11:7] == 5'd0;
    wire       rs1_zero = insn[19:15] == 5'd0;

    wire op_lui    = opcode == 7'b0110111;
    wire op_auipc  = opcode == 7'b0010111;
    wire op_jal    = opcode == 7'b1101111;
    wire op_jalr   = opcode == 7'b1100111;
    wire op_branch = opcode == 7'b1100011;
    wire op_load   = opcode == 7'b0000011;
    wire op_store  = opcode == 7'b0100011;
    wire op_imm    = opcode == 7'b0010011;
    wire op_reg    = opcode == 7'b0110011;
    wire op_misc   = opcode == 7'b0001111;
    wire op_system = opcode == 7'b1110011;

    wire d_is_lui    = op_lui;
    wire d_is_auipc  = op_auipc;
    wire d_is_jal    = op_jal;
    wire d_is_jalr   = op_jalr && funct3 == 3'b000;
    wire d_is_branch = op_branch && funct3[2:1] != 2'b01;
    wire d_is_load   = op_load && (funct3 == 3'b000 || funct3 == 3'b001 || funct3 == 3'b010 ||
                                   funct3 == 3'b100 || funct3 == 3'b101);
    wire d_is_store  = op_store && funct3[2] == 1'b0 && funct3[1:0] != 2'b11;
    // shifts by immediate: funct7 must be 0 (srai: 0x20)
    wire   shift_ok  = funct3 == 3'b001 ? funct7 == 7'b0000000 :
                       funct3 == 3'b101 ? (funct7 == 7'b0000000 || funct7 == 7'b0100000) : 1'b1;
    wire d_is_op_imm = op_imm && shift_ok;
    // add/sub and srl/sra take funct7 0x20; the others only 0
    wire   alt_ok    = funct3 == 3'b000 || funct3 == 3'b101;
    wire d_is_op     = op_reg && (funct7 == 7'b0000000 || (funct7 == 7'b0100000 && alt_ok));
    wire d_is_mul    = op_reg && funct7 == 7'b0000001 && !funct3[2];
    wire d_is_div    = op_reg && funct7 == 7'b0000001 &&  funct3[2];
    wire d_is_fence  = op_misc && funct3 == 3'b000;
    wire d_is_fencei = op_misc && funct3 == 3'b001;

    // SYSTEM: csr* (funct3 != 0, 4) and the fixed encodings with funct3 = 0
    wire sys0 = op_system && funct3 == 3'b000 && rd_zero;
    wire d_is_csr    = op_system && funct3[1:0] != 2'b00;
    wire d_is_ecall  = sys0 && rs1_zero && insn[31:20] == 12'h000;
    wire d_is_ebreak = sys0 && rs1_zero && insn[31:20] == 12'h001;
    wire d_is_sret   = sys0 && rs1_zero && insn[31:20] == 12'h102;
    wire d_is_mret   = sys0 && rs1_zero && insn[31:20] == 12'h302;
    wire d_is_wfi    = sys0 && rs1_zero && insn[31:20] == 12'h105;
    wire d_is_sfence = sys0 && funct7 == 7'b0001001;

    wire d_illegal = !(d_is_lui || d_is_auipc || d_is_jal || d_is_jalr || d_is_branch || d_is_load ||
                       d_is_store || d_is_op_imm || d_is_op || d_is_mul || d_is_div || d_is_csr ||
                       d_is_fence || d_is_fencei || d_is_ecall || d_is_ebreak || d_is_sret ||
                       d_is_mret || d_is_wfi || d_is_sfence);

    wire d_writes_rd = d_is_lui || d_is_auipc || d_is_jal || d_is_jalr || d_is_load || d_is_op_imm ||
                       d_is_op || d_is_mul || d_is_div || d_is_csr;

    wire d_alu_b_rs2 = d_is_op || d_is_branch;
    wire d_alu_add   = !(d_is_op || d_is_op_imm || d_is_branch);
    wire d_alu_sub   = d_is_branch || (d_is_op && funct3 == 3'b000 && insn[30]) ||
                       ((d_is_op || d_is_op_imm) && funct3[2:1] == 2'b01);
    wire d_alu_alt   = insn[30] && funct3 == 3'b101 && (d_is_op || d_is_op_imm);

    reg [31:0] d_imm;
    always @(*) begin
        if (op_store)
            d_imm = {{21{insn[31]}}, insn[30:25], insn[11:7]};
        else if (op_branch)
            d_imm = {{20{insn[31]}}, insn[7], insn[30:25], insn[11:8], 1'b0};
        else if (op_lui || op_auipc)
            d_imm = {insn[31:12], 12'd0};
        else if (op_jal)
            d_imm = {{12{insn[31]}}, insn[19:12], insn[20], insn[30:21], 1'b0};
        else
            d_imm = {{21{insn[31]}}, insn[30:20]};
    end

    always @(posedge clk) begin
        if (load) begin
            illegal   <= d_illegal;
            is_jal    <= d_is_jal;
            is_jalr   <= d_is_jalr;
            is_branch <= d_is_branch;
            is_load   <= d_is_load;
            is_store  <= d_is_store;
            is_mul    <= d_is_mul;
            is_div    <= d_is_div;
            is_csr    <= d_is_csr;
            is_fence  <= d_is_fence;
            is_fencei <= d_is_fencei;
            is_ecall  <= d_is_ecall;
            is_ebreak <= d_is_ebreak;
            is_mret   <= d_is_mret;
            is_sret   <= d_is_sret;
            is_wfi    <= d_is_wfi;
            is_sfence <= d_is_sfence;
            writes_rd <= d_writes_rd;
            imm       <= d_imm;
            alu_a_zero <= d_is_lui;
            alu_a_pc   <= d_is_auipc;
            alu_b_rs2  <= d_alu_b_rs2;
            alu_add    <= d_alu_add;
            alu_sub    <= d_alu_sub;
            alu_alt    <= d_alu_alt;
        end
    end
endmodule
