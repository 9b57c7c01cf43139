// core_fetch: the F and D stages (docs/timing.md).
//   F: the fetch address goes to the bus in the last cycle an instruction sits
//      in D (or in the cycle X redirects, or in cycle 0 after reset).
//   D: the instruction word arrives from the bus (and is held while X is busy);
//      its rs1/rs2 fields address the register file; static BTFN prediction:
//      jal and backward branches fetch their target instead of pc+4.
// The memories read every cycle, so a fetch is just the address on the bus
// (no request strobe: devices only see data accesses). A fetch outside fw/ram
// marks the instruction with a fault flag; it raises the access fault when it
// reaches X.
module core_fetch (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] boot_addr,

    // from X: a redirect to target_x (mret/sret, fence.i, a CSR refetch, a
    // mispredicted branch); the others are selected in hpm_core's bus mux,
    // by lateness: a jalr (the address adder), an exception (a misaligned
    // address: the adder's low bits), an interrupt
    input  wire        x_free,       // X is empty or finishes this cycle
    input  wire        redirect_x,
    input  wire [31:0] target_x,
    input  wire        jalr_redirect,
    input  wire        trap_redirect,
    input  wire        irq_redirect,  // an interrupt: the others are as if none were taken

    // bus (shared with the LSU; never both in one cycle)
    output wire [31:2] fetch_addr,   // word address, unless an exception, an interrupt or a jalr redirects
    output wire        redirect,     // X redirects (any): D is squashed
    input  wire [31:2] bus_addr,     // what the bus fetches: the next D pc when fetch_now
    input  wire        bus_exec_ok,  // bus_addr may be fetched from (hpm_core: the PMA check per mux input)
    input  wire [31:0] bus_rdata,

    // D stage outputs
    output reg         d_valid,
    output reg  [31:0] d_pc,
    output wire [31:0] d_insn,
    output reg         d_fault,
    output wire        d_pred_taken
);
    reg        boot;      // cycle 0: fetch boot_addr
    reg        d_fresh;   // the D word is on bus_rdata this cycle
    reg [31:0] d_insn_q;  // the D word, held while D waits

    assign d_insn = d_fault ? 32'd0 : (d_fresh ? bus_rdata : d_insn_q);

    // BTFN prediction: jal always, conditional branches when the offset is negative.
    wire        is_jal    = d_insn[6:0] == 7'b1101111;
    wire        is_branch = d_insn[6:0] == 7'b1100011;
    assign d_pred_taken = d_valid && (is_jal || (is_branch && d_insn[31]));
    wire [31:0] imm_j = {{12{d_insn[31]}}, d_insn[19:12], d_insn[20], d_insn[30:21], 1'b0};
    wire [31:0] imm_b = {{20{d_insn[31]}}, d_insn[7], d_insn[30:25], d_insn[11:8], 1'b0};
    // one adder for the next sequential pc and the predicted target: the
    // prediction selects its operand (4 or the offset)
    wire [31:0] d_next = d_pc + (d_pred_taken ? (is_jal ? imm_j : imm_b) : 32'd4);

    // The later a redirect is known, the later its mux level: a jalr's
    // target (the address adder), an exception's vector (a misaligned
    // address: the adder's low bits; the access fault is a register), then
    // the interrupt's (the interrupt decision) come last, in hpm_core's bus
    // mux. The address fetched is the bus address (a data access never
    // coincides with a fetch): D's pc takes it from there, the fault flag
    // from hpm_core's PMA check of each input of that mux (bus_exec_ok).
    assign redirect = irq_redirect || redirect_x || trap_redirect || jalr_redirect;
    wire fetch_now = boot || redirect || (d_valid && x_free);
    wire [31:0] early_pc = boot         ? boot_addr   :
                           redirect_x   ? target_x    :
                           d_next;
    assign fetch_addr = early_pc[31:2];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [1:0]  early_lo = early_pc[1:0];   // fetches are word-aligned (a misaligned target traps in X)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [31:0] next_pc  = {bus_addr, 2'b00};

    always @(posedge clk) begin
        if (rst) begin
            boot    <= 1'b1;
            d_valid <= 1'b0;
            d_fresh <= 1'b0;
            d_fault <= 1'b0;
        end else begin
            boot    <= 1'b0;
            d_fresh <= fetch_now;
            if (fetch_now) begin
                d_valid <= 1'b1;
                d_pc    <= next_pc;
                d_fault <= !bus_exec_ok;
            end
        end
        d_insn_q <= d_insn;
    end
endmodule
