// hpm_core: RV32IM + Zicsr + Zifencei, M/S/U, three stages F/D/X with the
// exact timing of docs/timing.md. One von Neumann bus (fetch and data),
// synchronous memories with one cycle of read latency, zero wait states. The
// memories read the bus address every cycle (that is the fetch); bus_region
// marks data accesses (with their region), the only ones devices act on.
//
// Outputs besides the bus: a trace record of every instruction that reaches X
// (valid in its last X cycle), the event bus of the catalogue
// (hw/hpm/events.def: bit i = event index i) and a CSR hook through which the
// HPM unit claims its CSR addresses (core_csr).
`include "hpm_map.vh"
module hpm_core #(
    parameter integer EV_W    = `HPM_EVENTS_BUS_W, // event bus width: HPM_EV_BUS_W (hpm_events.vh)
    parameter integer HPM_NUM = 29,                // implemented mhpmcounters (core_csr's counter enables)
    parameter integer HPM_TD  = 0                  // 1: the top-down unit (core_csr's gating of its user CSRs); 2: its board form
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] boot_addr,

    // memory bus: address in cycle t, read data in cycle t+1
    output wire        bus_we,       // with a bus_region bit: a store
    output wire [3:0]  bus_be,
    output wire [31:2] bus_addr,     // word address (bytes by bus_be): memories
    output wire [31:2] bus_daddr,    // the data address: devices, memory writes
    output wire [4:0]  bus_region,   // data access to {gpio, uart, clint, ram, fw}
    output wire [31:0] bus_wdata,
    input  wire [31:0] bus_rdata,

    // CLINT
    input  wire        mtip,
    input  wire        msip,
    input  wire [31:0] time_word,


    // event bus (hw/hpm/events.def) and the current privilege mode
    output wire [EV_W-1:0] events,
    output wire [EV_W-1:0] events_n,   // the same as if no interrupt were taken (hpm_class)
    output wire [1:0]  priv,

    // CSR hook (see core_csr), mcounteren for scountovf, the overflow interrupt
    output wire [11:0] ext_csr_addr,
    output wire [31:0] ext_csr_wdata,
    output wire        ext_csr_we,
    input  wire        ext_csr_hit,
    input  wire [31:0] ext_csr_rdata,
    input  wire [31:0] ext_csr_wval,
    input  wire        ext_csr_wait,    // the CSR instruction in X waits (HPM unit)
    output wire        ext_csr_op,      // a CSR instruction is in X ...
    output wire        ext_csr_write,   // ... and it writes the CSR
    output wire [31:0] mcounteren,
    input  wire        lcofi,
    // trace port (one record per instruction reaching X, in its last X cycle)
`include "core_trace_ports.vh"
);
/* verilator lint_off UNUSEDPARAM */ // the whole catalogue, not every index is used here
`include "hpm_events.vh"
/* verilator lint_on UNUSEDPARAM */

    // ------------------------------------------------------------ F / D
    wire        x_free, redirect_l, fetch_redirect;
    wire        irq_take, redir_t_n, trap_n, jalr_go_n;
    wire [31:0] target_t;
    wire [31:2] tvec_m, tvec_s;
    wire [2:0]  tvec_to_s;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] vec_i;   // a word address: bits 1:0 are 0
    /* verilator lint_on UNUSEDSIGNAL */
    wire [31:2] fetch_addr;
    wire        bus_exec_ok;
    wire        d_valid, d_fault, d_pred_taken;
    wire [31:0] d_pc, d_insn;
    // mguard (core_csr): guard_f, the core runs below M; guard_d, so do its
    // loads and stores (MPRV). An instruction whose pc is M-only then has a
    // fetch fault, found in D from D's pc (registers) and taken into X with
    // it: x_fault set, x_insn 0, as for a fetch outside every region, while
    // the D word itself (the fetch path: prediction, next fetch address) is
    // left alone (docs/architecture-core.md).
    wire        guard_f, guard_d;
    wire        d_monly;
    /* verilator lint_off UNUSEDSIGNAL */
    wire        d_ok;
    wire [4:0]  d_rg;
    /* verilator lint_on UNUSEDSIGNAL */
    core_pma #(.EXEC(1)) u_pma_d (.addr(d_pc), .guard(1'b0), .ok(d_ok), .region(d_rg), .monly(d_monly));
    wire        d_guard = guard_f && d_monly;

    core_fetch u_fetch (
        .clk(clk), .rst(rst), .boot_addr(boot_addr),
        .x_free(x_free), .redirect_x(redir_t_n), .target_x(target_t),
        .jalr_redirect(jalr_go_n), .trap_redirect(trap_n), .irq_redirect(irq_take),
        .fetch_addr(fetch_addr), .redirect(fetch_redirect),
        .bus_addr(bus_addr), .bus_exec_ok(bus_exec_ok), .bus_rdata(bus_rdata),
        .d_valid(d_valid), .d_pc(d_pc), .d_insn(d_insn), .d_fault(d_fault),
        .d_pred_taken(d_pred_taken)
    );

    // register file: read in D (every cycle), data in X; write at the end of X.
    // Rows 32-63 hold the storage-only CSRs (core_csr): port 2 reads the row
    // of the CSR a CSR instruction addresses, or xepc for mret/sret (none of
    // them has an rs2). Row {1, csr[9], 00, csr[1:0]}: sscratch 32, sepc 33,
    // stval 35, mscratch 48, mepc 49, mtval 51.
    wire        rf_we;
    wire [31:0] rf_wdata;
    wire [31:0] rf_rdata1, rf_rdata2;
    wire [4:0]  rd;
    wire        wp_we;         // the write port: rd, or a CSR row
    wire [5:0]  wp_addr;
    wire [31:0] wp_data;

    wire [11:0] d_csr   = d_insn[31:20];
    wire        d_sys   = d_insn[6:0] == 7'b1110011;
    wire        d_row   = d_sys && d_csr[11:10] == 2'b00 && d_csr[8] &&
                          ((d_csr[7:2] == 6'b010000 && d_csr[1:0] != 2'b10) ||   // CSR
                           (d_csr[7:0] == 8'h02 && d_insn[14:12] == 3'b000));   // xret
    wire [1:0]  d_row_lo = d_csr[7:0] == 8'h02 ? 2'b01 : d_csr[1:0];
    wire [5:0]  raddr2  = d_row ? {1'b1, d_csr[9], 2'b00, d_row_lo} : {1'b0, d_insn[24:20]};

    // md_hold: a mul/div (or a waiting HPM CSR access) holds X (not its last
    // cycle, no interrupt): the register file and the bypass keep its
    // operands (rs1/rs2 stay valid for core_muldiv, which then needs no
    // operand registers). Exactly the cycles in which x_free is 0 for them,
    // from early signals only.
    wire md_hold;
    wire md_last;            // the last X cycle of a mul/div (core_muldiv)
    core_regfile u_regfile (
        .clk(clk), .re(!md_hold), .raddr1({1'b0, d_insn[19:15]}), .raddr2(raddr2),
        .rdata1(rf_rdata1), .rdata2(rf_rdata2),
        .we(wp_we), .waddr(wp_addr), .wdata(wp_data)
    );

    // ------------------------------------------------------------ X
    reg        x_valid;
    reg        x_first;      // first X cycle of the instruction (X entry)
    reg [5:0]  x_cnt;        // X cycles spent so far
    reg [31:0] x_pc, x_insn;
    reg        x_fault;      // fetch access fault
    reg        x_pred;       // predicted taken in D

    wire [2:0]  funct3 = x_insn[14:12];
    assign rd = x_insn[11:7];

    wire dec_illegal, is_jal, is_jalr, is_branch, is_load, is_store;
    wire is_mul, is_div, is_csr, is_fence, is_fencei;
    wire is_ecall, is_ebreak, is_mret, is_sret, is_wfi, is_sfence, writes_rd;
    wire [31:0] imm;
    wire        alu_a_zero, alu_a_pc, alu_b_rs2, alu_add, alu_sub, alu_alt;

    core_decode u_decode (
        .clk(clk), .load(x_free), .insn(d_insn), .illegal(dec_illegal),
        .is_jal(is_jal), .is_jalr(is_jalr),
        .is_branch(is_branch), .is_load(is_load), .is_store(is_store),
        .is_mul(is_mul), .is_div(is_div),
        .is_csr(is_csr), .is_fence(is_fence), .is_fencei(is_fencei),
        .is_ecall(is_ecall), .is_ebreak(is_ebreak), .is_mret(is_mret),
        .is_sret(is_sret), .is_wfi(is_wfi), .is_sfence(is_sfence),
        .writes_rd(writes_rd), .imm(imm),
        .alu_a_zero(alu_a_zero), .alu_a_pc(alu_a_pc), .alu_b_rs2(alu_b_rs2),
        .alu_add(alu_add), .alu_sub(alu_sub), .alu_alt(alu_alt)
    );

    // Operands. The register file's data arrive late in the first X cycle
    // (EBR output), so everything that does not depend on them is prepared
    // from registers: the bypass value (the register written at the edge
    // that ended the read cycle) and the ALU's other operand sources. Each
    // operand is then one 2:1 mux after the EBR.
    reg        byp1, byp2;
    reg [31:0] byp_val;
    always @(posedge clk) begin
        if (!md_hold) begin
            byp1    <= wp_we && wp_addr == {1'b0, d_insn[19:15]};
            byp2    <= wp_we && wp_addr == raddr2;
            byp_val <= wp_data;
        end
    end
    wire [31:0] rs1 = byp1 ? byp_val : rf_rdata1;
    wire [31:0] rs2 = byp2 ? byp_val : rf_rdata2;

    wire        a_rf  = !byp1 && !alu_a_zero && !alu_a_pc;
    wire [31:0] a_alt = alu_a_zero ? 32'd0 : alu_a_pc ? x_pc : byp_val;
    wire        b_rf  = alu_b_rs2 && !byp2;
    wire [31:0] b_alt = alu_b_rs2 ? byp_val : imm;
    wire [31:0] alu_a = a_rf ? rf_rdata1 : a_alt;
    wire [31:0] alu_b = b_rf ? rf_rdata2 : b_alt;
    wire [31:0] alu_result, alu_sum;
    wire        br_cond;
    core_alu u_alu (
        .a(alu_a), .b(alu_b), .funct3(funct3),
        .alt(alu_alt), .force_add(alu_add), .sub(alu_sub),
        .result(alu_result), .sum_out(alu_sum), .taken(br_cond)
    );

    wire [31:0] pc4         = x_pc + 32'd4;
    wire [31:0] pc_imm      = x_pc + imm;              // jal and branch target
    wire [31:0] jalr_target = {alu_sum[31:1], 1'b0};   // xtval of a misaligned jalr (the bus takes alu_sum)
    wire        br_taken    = is_branch && br_cond;

    // LSU
    wire        lsu_misaligned, lsu_fault, lsu_we, mem_go;
    wire [3:0]  lsu_be;
    wire [31:0] lsu_wdata, load_data, st_addr, st_wdata;
    wire [3:0]  st_be;
    wire [4:0]  lsu_region;
    core_lsu u_lsu (
        .clk(clk), .first(x_first), .is_load(is_load), .is_store(is_store),
        .funct3(funct3), .addr(alu_sum), .store_val(rs2), .guard(guard_d),
        .misaligned(lsu_misaligned), .fault(lsu_fault), .region(lsu_region),
        .bus_we(lsu_we), .bus_be(lsu_be), .bus_wdata(lsu_wdata),
        .bus_rdata(bus_rdata), .load_data(load_data),
        .st_addr(st_addr), .st_wdata(st_wdata), .st_be(st_be)
    );

    // mul/div
    wire [31:0] md_result;
    core_muldiv u_muldiv (
        .clk(clk), .is_mul(is_mul), .is_div(is_div), .step(x_cnt), .funct(funct3[1:0]),
        .a(rs1), .b(rs2), .last(md_last), .result(md_result)
    );

    // ---- traps. Ordered by how late they are known in the first X cycle:
    //   early: an interrupt, a fetch fault, an illegal instruction, ecall,
    //          ebreak, a misaligned jal target (registered state, decode, CSR
    //          checks);
    //   late:  a misaligned jalr target or load/store address (the adder's
    //          low bits); a branch's (compare registered: its 2nd X cycle);
    //   fault: the load/store access fault (the whole address), registered:
    //          it traps in the load/store's second X cycle.
    // They exclude one another (decode is one-hot; an instruction with a
    // fetch fault decodes as nothing, or, for mguard's, is stopped by its
    // early trap as one an interrupt is taken on), so each class has its own trap
    // cause and delegation prepared early (core_csr) and the late signals
    // only select (one xtvec for every exception, below).
    wire        csr_illegal, sys_illegal, csr_write, irq_pending, wfi_wake;
    wire        csr_ebr, trap_take, trap_to_s;
    wire [31:0] csr_rdata, csr_wval, ebr_wval;
    wire [3:0]  irq_code;
    wire        retire;

    wire x_go      = x_valid && x_first;
    assign irq_take = x_go && irq_pending;
    wire illegal   = dec_illegal || (is_csr && csr_illegal) || sys_illegal;
    wire jal_mis   = is_jal && pc_imm[1];
    wire exc_e_why = x_fault || illegal || is_ecall || is_ebreak || jal_mis;
    wire exc_e     = x_go && !irq_take && exc_e_why;
    wire trap_e    = irq_take || exc_e;
    wire mem       = is_load || is_store;
    // A branch whose target is not 4-byte aligned (known from pc + imm, early)
    // holds X for a second cycle: its compare is registered in the first and
    // a taken one traps in the second, so no trap waits for the compare
    // (docs/timing.md; docs/decisions.md "The board's clock").
    wire br_hold   = is_branch && pc_imm[1];
    reg  br_taken_q;
    always @(posedge clk)
        br_taken_q <= br_cond;
    wire br_mis    = x_valid && !x_first && br_hold && br_taken_q;
    // a branch's redirect (a misprediction) comes in the cycle X frees
    wire br_go     = x_valid && (x_first != br_hold);
    wire jalr_mis  = is_jalr && alu_sum[1];
    wire exc_l_why = jalr_mis || lsu_misaligned;
    wire exc_l     = (x_go && !trap_e && exc_l_why) || br_mis;
    wire xret_fencei = x_valid && (is_mret || is_sret || is_fencei);   // an early redirect
    wire late_why  = is_jalr || lsu_misaligned;                      // a late redirect
    // an HPM counter or selector access waits in X for the HPM unit (until
    // its commit: 3 X cycles, a write 4, a selector write longer while the
    // refill lasts; docs/timing.md)
    wire csr_wait  = is_csr && ext_csr_wait;
    assign ext_csr_op    = x_valid && is_csr;
    assign ext_csr_write = csr_write;
    // a mul/div has no late exception, so x_free is 0 exactly when this holds
    // (and for a waiting HPM CSR access, which holds its operands the same way)
    assign md_hold = x_valid && !trap_e && ((is_mul || is_div) ? !md_last :
                                            is_branch ? br_hold && x_first : csr_wait);
    // The access fault is found at the end of the first X cycle (the PMA
    // check of the whole address) and registered: the load/store traps in
    // its second X cycle, 2 cycles + redirect (docs/timing.md). Its first
    // cycle is a load/store's first cycle that accesses nothing (the address
    // is in no region: bus_region 0). fault_trap is 1 only in that second
    // cycle, in which X holds the load/store (x_valid).
    reg fault_trap;
    always @(posedge clk)
        fault_trap <= !rst && x_go && !trap_e && lsu_fault;   // lsu_fault excludes misaligned
    wire exc       = exc_e || exc_l || fault_trap;
    wire trap      = irq_take || exc;
    // the data access of a load/store's first cycle, unless it traps; whether
    // its address is in a region (it is not: the access fault) is up to the
    // region selects
    assign mem_go  = x_go && mem && !trap_e && !lsu_misaligned;
    // The interrupt decision is the deepest of the early ones (core_csr:
    // mip & mie, the enables, delegation and priority), so the fetch and bus
    // addresses are prepared as if no interrupt were taken (the *_n
    // signals) and the interrupt's vector comes in at their last mux level.
    // The access fault needs no such form: it is a register.
    wire exc_e_n   = x_go && exc_e_why;
    wire mem_go_n  = x_go && mem && !exc_e_n && !lsu_misaligned;
    // a jalr with an aligned target: the bus takes its target (the adder's
    // sum) in the level of the data address, core_fetch does not see it
    assign jalr_go_n = x_go && is_jalr && !exc_e_n && !jalr_mis;

    reg  [3:0]  code_e;
    reg  [31:0] tval_e;
    always @(*) begin
        // synchronous exception priority (privileged spec, table 3.7)
        if (x_fault)        begin code_e = 4'd1; tval_e = x_pc;   end
        else if (illegal)   begin code_e = 4'd2; tval_e = x_insn; end
        else if (is_ecall)  begin code_e = {2'b10, priv}; tval_e = 32'd0; end
        else if (is_ebreak) begin code_e = 4'd3; tval_e = x_pc;   end
        else                begin code_e = 4'd0; tval_e = pc_imm; end   // jal misaligned
    end
    // late exceptions: a jump (code 0, mtval the target) or a misaligned
    // load/store (4/6, the address); the access fault: 5/7, the address
    wire [3:0]  code_l  = is_load ? 4'd4 : is_store ? 4'd6 : 4'd0;
    wire [3:0]  code_f  = is_store ? 4'd7 : 4'd5;
    wire [31:0] tval_l  = is_branch ? pc_imm : is_jalr ? jalr_target : alu_sum;
    wire [3:0]  exc_code = exc_e ? code_e : exc_l ? code_l : code_f;

    // xtval of a trap, as two levels: a value chosen by early signals (0,
    // the pc, the instruction, or the jal/branch target), then the address
    // adder's sum for a misaligned jalr (bit 0 cleared) or load/store, the
    // only ones that are neither early nor branches. The access fault's
    // xtval (the address) is the sum of the load/store's first cycle, which
    // wb2_val loads then and holds (below).
    reg  [31:0] tval_early;
    always @(*) begin
        if (irq_take)       tval_early = 32'd0;
        else if (x_fault)   tval_early = x_pc;
        else if (illegal)   tval_early = x_insn;
        else if (is_ecall)  tval_early = 32'd0;
        else if (is_ebreak) tval_early = x_pc;
        else                tval_early = pc_imm;    // jal, branch
    end
    wire        tval_sum  = !irq_take && !exc_e && !is_branch;
    wire [31:0] trap_tval = tval_sum ? {alu_sum[31:1], alu_sum[0] && !is_jalr} : tval_early;

    // a CSR, mret or sret instruction can only trap early: its commit does
    // not wait for the adder
    wire csr_commit = x_valid && is_csr && !trap_e && !csr_wait;
    wire csr_commit_n = x_valid && is_csr && !exc_e_n && !csr_wait;
    core_csr #(.HPM_NUM(HPM_NUM), .HPM_TD(HPM_TD)) u_csr (
        .clk(clk), .rst(rst),
        .csr_op(x_valid && is_csr), .csr_addr(x_insn[31:20]), .csr_funct(funct3[1:0]),
        .csr_src(funct3[2] ? {27'd0, x_insn[19:15]} : rs1),
        .csr_src_nz(x_insn[19:15] != 5'd0), .csr_commit(csr_commit),
        .csr_rdata(csr_rdata), .csr_illegal(csr_illegal), .csr_write(csr_write),
        .csr_wval(csr_wval), .csr_ebr(csr_ebr), .ebr_rdata(rs2),
        .ebr_wval(ebr_wval),
        .is_mret(is_mret), .is_sret(is_sret), .is_wfi(is_wfi), .is_sfence(is_sfence),
        .sys_illegal(sys_illegal),
        .mret_commit(x_valid && is_mret && !trap_e), .sret_commit(x_valid && is_sret && !trap_e),
        .trap_irq(irq_take), .trap_exc_e(exc_e), .trap_exc_l(exc_l), .trap_fault(fault_trap),
        .code_e(code_e), .code_l(code_l), .code_f(code_f),
        .vec_i(vec_i), .tvec_m(tvec_m), .tvec_s(tvec_s), .tvec_to_s(tvec_to_s),
        .trap_take(trap_take), .trap_to_s(trap_to_s),
        .mtip(mtip), .msip(msip), .irq_pending(irq_pending), .irq_code(irq_code),
        .wfi_wake(wfi_wake), .time_word(time_word), .lcofi(lcofi),
        .mcounteren_out(mcounteren),
        .priv(priv), .guard_f(guard_f), .guard_d(guard_d),
        .ext_addr(ext_csr_addr), .ext_wdata(ext_csr_wdata), .ext_we(ext_csr_we),
        .ext_hit(ext_csr_hit), .ext_rdata(ext_csr_rdata), .ext_wval(ext_csr_wval)
    );

    // completion of the instruction in X. A trap happens in the first X
    // cycle, except two registered ones in the second: the access fault
    // (where the load/store would complete) and a held branch's (where it
    // would retire); each stops the retire. No late signal decides whether
    // an instruction retires or frees X.
    wire x_cond = (is_load || is_store) ? x_cnt == 6'd1 :
                  (is_mul || is_div) ? md_last :
                  is_wfi ? wfi_wake :
                  is_csr ? !csr_wait :
                  is_branch ? !(br_hold && x_first) : 1'b1;
    // Of the late exceptions only a load/store's (a misaligned address: the
    // adder's low bits) can come with x_cond clear; a jalr (the whole
    // target) has x_cond set, a branch no late one. So X's hand-over and the
    // stall events leave the branch compare out (exact: decode is one-hot).
    wire exc_l_hold = x_go && !trap_e && lsu_misaligned;
    wire x_done = x_valid && (irq_take || exc_e || exc_l_hold || fault_trap || x_cond);
    assign x_free = !x_valid || trap_e || exc_l_hold || x_cond;
    assign retire = x_valid && x_cond && !trap_e && !fault_trap && !(x_first && jalr_mis) && !br_mis;

    // ---- redirects of the fetch from X (one bubble). The fetch and bus
    // addresses are prepared as if no interrupt were taken (the *_n
    // signals); by lateness:
    //   target_t (core_fetch): mret, sret (xepc), fence.i and a CSR refetch
    //          (pc+4), a mispredicted branch (its target or pc+4, chosen
    //          by the prediction);
    //   jalr:  its target, the adder's sum (in the bus mux's data level);
    //   exception: every class (early, late, the access fault) to one
    //          vector, xtvec of the mode its class is delegated to;
    //   interrupt: its vector (the bus address selects it last).
    // A CSR instruction that writes a CSR of the register file EBR writes the
    // row in its own cycle when rd is x0 (csr_row_now); with an rd it writes
    // rd and refetches pc+4 like fence.i, and the bubble's free write port
    // takes the CSR row (wb2). The refetch is not a flush event.
    wire mispredict = is_branch && (br_taken != x_pred);
    wire csr_row_wr  = csr_commit && csr_ebr && csr_write;
    wire csr_row_now = csr_row_wr && rd == 5'd0;
    wire csr_row_2nd = csr_row_wr && rd != 5'd0;
    wire redirect_x = trap_e || xret_fencei;
    assign redirect_l  = (x_go && !trap_e && late_why) || (br_go && !trap_e && mispredict) || br_mis;
    wire csr_row_2nd_n = csr_commit_n && csr_ebr && csr_write && rd != 5'd0;
    assign redir_t_n   = xret_fencei || csr_row_2nd_n || (br_go && !exc_e_n && mispredict);
    // mret/sret: xepc arrives on register file port 2 (rs2); a mispredicted
    // branch goes to its target if it was predicted not taken, else to pc+4
    assign target_t    = (is_mret || is_sret) ? rs2 : (is_branch && !x_pred) ? pc_imm : pc4;
    wire exc_l_n       = (x_go && !exc_e_n && exc_l_why) || br_mis;
    assign trap_n      = exc_e_n || exc_l_n || fault_trap;
    // the class's delegation: early, else the access fault (its second
    // cycle), else late (a misaligned jalr/branch target or load/store)
    wire tvec_sel_s    = exc_e_why ? tvec_to_s[0] : fault_trap ? tvec_to_s[2] : tvec_to_s[1];
    wire [31:2] tvec_x = tvec_sel_s ? tvec_s : tvec_m;

    // write-back
    assign rf_we    = retire && writes_rd && rd != 5'd0;
    assign rf_wdata = is_load ? load_data :
                      (is_mul || is_div) ? md_result :
                      is_csr ? (rd == 5'd0 ? ebr_wval : csr_rdata) :
                      (is_jal || is_jalr) ? pc4 : alu_result;

    // The CSR rows' second write (wb2): a trap writes xepc (the pc) in its
    // cycle and xtval in the next one; a CSR instruction with an rd writes rd
    // in its cycle and the CSR row in the next. Both next cycles are X
    // bubbles (the trap's redirect, the CSR's refetch), so the port is free.
    // A CSR instruction with rd = x0 writes the row in its own cycle
    // (rf_wdata is then the CSR's new value). A load/store's first cycle
    // loads its address (trap_tval is the adder's sum then), which the
    // access fault's trap in the second cycle holds for its xtval.
    reg        wb2_v;
    reg [2:0]  wb2_row;        // {csr[9], csr[1:0]}
    reg [31:0] wb2_val;
    always @(posedge clk) begin
        if (rst)
            wb2_v <= 1'b0;
        else
            wb2_v <= trap_take || csr_row_2nd;
        if (trap_take)
            wb2_row <= {!trap_to_s, 2'b11};
        else
            wb2_row <= {x_insn[29], x_insn[21:20]};
        if (!fault_trap)
            wb2_val <= (trap_take || mem) ? trap_tval : ebr_wval;
    end
    assign wp_we   = rf_we || csr_row_now || trap_take || wb2_v;
    assign wp_addr = wb2_v ? {1'b1, wb2_row[2], 2'b00, wb2_row[1:0]} :
                     trap_take ? {1'b1, !trap_to_s, 4'b0001} :
                     csr_row_now ? {1'b1, x_insn[29], 2'b00, x_insn[21:20]} : {1'b0, rd};
    assign wp_data = wb2_v ? wb2_val : trap_take ? x_pc : rf_wdata;

    always @(posedge clk) begin
        if (rst) begin
            x_valid <= 1'b0;
            x_first <= 1'b1;
            x_cnt   <= 6'd0;
        end else begin
            x_first <= x_free;
            x_cnt   <= x_free ? 6'd0 : x_cnt + 6'd1;
            if (x_free)
                x_valid <= d_valid && !fetch_redirect;
            if (x_free) begin
                x_pc    <= d_pc;
                x_insn  <= d_guard ? 32'd0 : d_insn;
                x_fault <= d_fault || d_guard;
                x_pred  <= d_pred_taken;
            end
        end
    end

    // ------------------------------------------------------------ bus
    // The memories see bus_addr: the data address in a load/store's first
    // cycle or a jalr's target, else the fetch address; then an exception's
    // vector (xtvec of its class's mode), the interrupt's last.
    // Devices and memory writes use the data address and the exact region
    // (bus_region): an address in a region never faults, so they do not wait
    // for the access fault.
    assign bus_we     = lsu_we;
    assign bus_be     = lsu_be;
    assign bus_addr   = irq_take ? vec_i[31:2] : trap_n ? tvec_x :
                        (mem_go_n || jalr_go_n) ? alu_sum[31:2] : fetch_addr;
    // the fetch's PMA check of bus_addr (core_fetch's fault flag), made on
    // each input of its mux: the selects are late, so it runs beside them
    wire        ok_irq, ok_tvec, ok_sum, ok_fetch;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [4:0]  rg_irq, rg_tvec, rg_sum, rg_fetch;   // only ok is needed here
    wire        mo_irq, mo_tvec, mo_sum, mo_fetch;
    /* verilator lint_on UNUSEDSIGNAL */
    core_pma #(.EXEC(1)) u_pma_irq   (.addr(vec_i),                   .guard(1'b0), .ok(ok_irq),   .region(rg_irq),   .monly(mo_irq));
    core_pma #(.EXEC(1)) u_pma_tvec  (.addr({tvec_x, 2'b00}),         .guard(1'b0), .ok(ok_tvec),  .region(rg_tvec),  .monly(mo_tvec));
    core_pma #(.EXEC(1)) u_pma_sum   (.addr({alu_sum[31:2], 2'b00}),  .guard(1'b0), .ok(ok_sum),   .region(rg_sum),   .monly(mo_sum));
    core_pma #(.EXEC(1)) u_pma_fetch (.addr({fetch_addr, 2'b00}),     .guard(1'b0), .ok(ok_fetch), .region(rg_fetch), .monly(mo_fetch));
    assign bus_exec_ok = irq_take ? ok_irq : trap_n ? ok_tvec :
                         (mem_go_n || jalr_go_n) ? ok_sum : ok_fetch;
    assign bus_daddr  = alu_sum[31:2];
    assign bus_region = mem_go ? lsu_region : 5'd0;
    assign bus_wdata  = lsu_wdata;

    // ------------------------------------------------------------ trace
    wire store_done = retire && is_store;
    assign trace_valid     = x_done;
    assign trace_pc        = x_pc;
    assign trace_insn      = x_insn;
    assign trace_priv      = priv;
    assign trace_trap      = trap;
    assign trace_cause     = {irq_take, 27'd0, irq_take ? irq_code : exc_code};
    assign trace_tval      = irq_take ? 32'd0 : exc_e ? tval_e : exc_l ? tval_l : wb2_val;
    assign trace_rd_we     = rf_we;
    assign trace_rd        = rd;
    assign trace_rd_val    = rf_wdata;
    assign trace_csr_we    = csr_commit && csr_write;
    assign trace_csr_addr  = x_insn[31:20];
    assign trace_csr_val   = csr_wval;
    assign trace_mem_we    = store_done;
    assign trace_mem_addr  = st_addr;
    assign trace_mem_wdata = st_wdata;
    assign trace_mem_be    = st_be;

    // ------------------------------------------------------------ events
    // Every cycle is exactly one top-down slot: X empty (a bubble: bad
    // speculation after a mispredict or trap, else frontend bound), the last X
    // cycle of a retiring instruction, of a trapping one (bad speculation), or
    // an earlier X cycle (backend bound). The cause of a bubble is the redirect
    // of the cycle before it; after reset it is frontend bound.
    reg  bubble_br, bubble_clear;
    always @(posedge clk) begin
        if (rst) begin
            bubble_br    <= 1'b0;
            bubble_clear <= 1'b0;
        end else begin
            bubble_br    <= retire && mispredict;
            bubble_clear <= trap;
        end
    end

    wire bubble    = !x_valid;
    wire br_bub    = bubble && bubble_br;
    wire fe_bound  = bubble && !bubble_br && !bubble_clear;

    // The event vector of a cycle from the X-stage outcome; computed for the
    // cycle and for the same cycle without the interrupt (events_n: the
    // interrupt is the latest of the inputs, so the cycle class selects
    // between an interrupt cycle's and events_n's class last).
    function [HPM_EV_BUS_W-1:0] ev_vec(input ret, input trp, input exc_any, input irq,
                                       input flush, input done);
        reg st, clr;
        begin
            st  = x_valid && !done;
            clr = trp || (bubble && bubble_clear);
            ev_vec = {HPM_EV_BUS_W{1'b0}};
            ev_vec[HPM_EV_CYCLES]                 = 1'b1;
            ev_vec[HPM_EV_INSTRUCTIONS]           = ret;
            ev_vec[HPM_EV_LOADS]                  = ret && is_load;
            ev_vec[HPM_EV_STORES]                 = ret && is_store;
            ev_vec[HPM_EV_JUMPS]                  = ret && (is_jal || is_jalr);
            ev_vec[HPM_EV_BRANCHES]               = ret && is_branch;
            ev_vec[HPM_EV_BRANCHES_TAKEN]         = ret && br_taken;
            ev_vec[HPM_EV_BRANCH_MISSES]          = ret && mispredict;
            ev_vec[HPM_EV_MUL]                    = ret && is_mul;
            ev_vec[HPM_EV_DIV]                    = ret && is_div;
            ev_vec[HPM_EV_MULDIV_STALL_CYCLES]    = st && (is_mul || is_div);
            ev_vec[HPM_EV_FETCH_STALL_CYCLES]     = bubble;
            ev_vec[HPM_EV_MEM_STALL_CYCLES]       = st && (is_load || is_store);
            ev_vec[HPM_EV_HAZARD_STALL_CYCLES]    = 1'b0;          // every operand is bypassed
            ev_vec[HPM_EV_EXCEPTIONS]             = exc_any;
            ev_vec[HPM_EV_INTERRUPTS]             = irq;
            ev_vec[HPM_EV_CSR_INSTRUCTIONS]       = ret && is_csr;
            ev_vec[HPM_EV_FENCES]                 = ret && (is_fence || is_fencei || is_sfence);
            ev_vec[HPM_EV_FLUSHES]                = flush;
            ev_vec[HPM_EV_TOPDOWN_RETIRING]       = ret;
            ev_vec[HPM_EV_TOPDOWN_BAD_SPEC]       = br_bub || clr;
            ev_vec[HPM_EV_TOPDOWN_FE_BOUND]       = fe_bound;
            ev_vec[HPM_EV_TOPDOWN_BE_BOUND]       = st;
            ev_vec[HPM_EV_TOPDOWN_BR_MISPREDICT]  = br_bub;
            ev_vec[HPM_EV_TOPDOWN_MACHINE_CLEARS] = clr;
            ev_vec[HPM_EV_TOPDOWN_FETCH_LATENCY]  = fe_bound;
            ev_vec[HPM_EV_TOPDOWN_MEM_BOUND]      = st && (is_load || is_store);
            ev_vec[HPM_EV_TOPDOWN_CORE_BOUND]     = st && (is_mul || is_div || is_wfi || is_csr || is_branch);
            ev_vec[HPM_EV_WFI_CYCLES]             = st && is_wfi;
        end
    endfunction
    wire [HPM_EV_BUS_W-1:0] ev = ev_vec(retire, trap, exc, irq_take,
                                        redirect_x || redirect_l || fault_trap, x_done);   // width checked against EV_W by lint
    // without the interrupt: the *_n signals above
    wire exc_n     = trap_n;
    wire retire_n  = x_valid && x_cond && !exc_e_n && !fault_trap && !(x_first && jalr_mis) && !br_mis;
    wire flush_n   = exc_e_n || xret_fencei || (x_go && !exc_e_n && late_why) ||
                     (br_go && !exc_e_n && mispredict) || br_mis || fault_trap;
    wire x_done_n  = x_valid && (exc_e_n || (x_go && !exc_e_n && lsu_misaligned) || fault_trap || x_cond);
    assign events   = ev;
    assign events_n = ev_vec(retire_n, exc_n, exc_n, 1'b0, flush_n, x_done_n);

`ifndef SYNTHESIS
    // the top-down slots partition every cycle
    wire clear = trap || (bubble && bubble_clear);
    wire stall = x_valid && !x_done;
    always @(posedge clk)
        if (!rst && {1'b0, retire} + {1'b0, br_bub || clear} + {1'b0, fe_bound} +
                    {1'b0, stall} != 2'd1) begin
            $display("hpm_core: top-down slots do not partition cycle (pc %08x)", x_pc);
            $fatal;
        end
`endif
endmodule
