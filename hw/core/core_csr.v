// core_csr: the M/S/U CSR file, privilege state, interrupt selection and
// trap entry/return. The counters (mcycle, minstret, mhpmcounter*, their
// selectors and shadows) live in the HPM unit behind the CSR hook; the core
// keeps time(h) and the access checks.
//
// A CSR instruction reads the CSR as it is at the start of its X cycle and
// writes it at the end of it.
//
// The storage-only CSRs mscratch, mepc, mtval, sscratch, sepc and stval are
// not here: they live in spare rows of the register file's EBR (hpm_core),
// read in D through the second read port (a CSR instruction, mret and sret
// have no rs2) and arriving here as ebr_rdata. This module says whether the
// addressed CSR is one of them (csr_ebr) and computes its value after the
// write as for any CSR; hpm_core writes the rows: a trap writes xepc in its
// cycle and xtval in the bubble after it, a CSR instruction writes the CSR in
// its cycle (rd = x0) or in the bubble of the refetch that follows it
// (docs/timing.md). The registers load their writable fields from
// the operation result w; the value reported on the trace (the CSR's value
// after the write) is w merged with the WARL write mask of the addressed CSR:
// wval = (w & mask) | (old & ~mask).
//
// CSR hook: an external unit (hw/hpm/hpm_unit.v) sees the CSR address, the
// operation result and the commit strobe, and claims addresses with ext_hit;
// it then supplies the read value and the value after a write. A hit makes
// the address exist. Privilege, read-only and counter-enable checks stay in
// the core, so they apply to the unit's CSRs as well.
`include "hpm_map.vh"
module core_csr #(
    parameter [31:0] MISA    = 32'h4014_1100,   // RV32 I M S U
    parameter integer HPM_NUM = 29,             // implemented mhpmcounters (0..29)
    parameter integer HPM_TD  = 0               // 1: the top-down unit's CSRs exist (hpm_unit); 2: its board form, M-mode only
) (
    input  wire        clk,
    input  wire        rst,

    // CSR instruction in X (first cycle)
    input  wire        csr_op,       // a csr* instruction is in X
    input  wire [11:0] csr_addr,
    input  wire [1:0]  csr_funct,    // funct3[1:0]: 01 rw, 10 set, 11 clear
    input  wire [31:0] csr_src,      // rs1 value, or the zero-extended uimm
    input  wire        csr_src_nz,   // rs1 field / uimm != 0
    input  wire        csr_commit,   // the instruction completes without a trap
    output reg  [31:0] csr_rdata,    // old value, for rd
    output wire        csr_illegal,
    output wire        csr_write,    // the instruction writes the CSR
    output wire [31:0] csr_wval,     // the CSR's value after the write
    output wire        csr_ebr,      // csr_addr is a CSR kept in the register file EBR
    input  wire [31:0] ebr_rdata,    // its value (register file port 2)
    output wire [31:0] ebr_wval,     // its value after the write

    // privileged instructions in X
    input  wire        is_mret,
    input  wire        is_sret,
    input  wire        is_wfi,
    input  wire        is_sfence,
    output wire        sys_illegal,  // their privilege checks
    input  wire        mret_commit,
    input  wire        sret_commit,

    // traps, by how late they are known (hpm_core); at most one per cycle
    input  wire        trap_irq,     // the interrupt irq_code is taken
    input  wire        trap_exc_e,   // an early exception: code_e
    input  wire        trap_exc_l,   // a late one (misaligned): code_l
    input  wire        trap_fault,   // the load/store access fault: code_f
    input  wire [3:0]  code_e,
    input  wire [3:0]  code_l,
    input  wire [3:0]  code_f,
    output wire [31:0] vec_i,        // target of the interrupt
    output wire [31:2] tvec_m,       // an exception's target: tvec_s if its class's
    output wire [31:2] tvec_s,       // tvec_to_s bit {fault, late, early} is set (hpm_core selects)
    output wire [2:0]  tvec_to_s,
    output wire        trap_take,    // one of the four trap inputs
    output wire        trap_to_s,    // the trap is taken in S (writes sepc/stval)

    // interrupts
    input  wire        mtip,
    input  wire        msip,
    output wire        irq_pending,  // an enabled interrupt is to be taken
    output reg  [3:0]  irq_code,
    output wire        wfi_wake,     // (mip & mie) != 0

    // time(h), and the HPM unit's overflow interrupt
    input  wire [31:0] time_word,   // mtime's word csr_addr[7] picks (soc_clint)
    input  wire        lcofi,        // a counter wrapped in the previous cycle: set mip.LCOFIP
    output wire [31:0] mcounteren_out,

    output reg  [1:0]  priv,
    output wire        guard_f,      // mguard is set and the core runs below M
    output wire        guard_d,      // ... and its loads/stores do (MPRV: at MPP)

    // CSR hook for an external unit
    output wire [11:0] ext_addr,
    output wire [31:0] ext_wdata,    // the operation result before WARL
    output wire        ext_we,
    input  wire        ext_hit,
    input  wire [31:0] ext_rdata,
    input  wire [31:0] ext_wval
);
    localparam [1:0] PRV_U = 2'd0, PRV_S = 2'd1, PRV_M = 2'd3;

    // ---------------------------------------------------------------- state
    reg        st_sie, st_mie, st_spie, st_mpie, st_spp, st_mprv, st_tvm, st_tw, st_tsr;
    reg [1:0]  st_mpp;
    reg        mguard;           // sticky: a write sets it, only reset clears it
    reg [15:0] medeleg;
    reg [13:0] mideleg;          // bits 1, 5, 9, 13 writable
    reg [13:0] mie;              // mask 0x2AAA
    reg        ssip, stip, seip, lcofip;
    // bit 1 reads 0; in vectored mode (bit 0) BASE is 64-byte aligned, bits
    // 5:2 read 0, so the interrupt vector needs no adder. BASE keeps only
    // the address bits of the executable regions (fw, ram: bits 31 and
    // 16:2 with today's map), the rest read 0 (WARL, docs/architecture-core.md):
    // no flip-flops for them, and the trap targets have constant bits there.
    localparam [31:0] TVEC_KEEP = `HPM_FW_BASE | (`HPM_FW_SIZE - 32'd1) |
                                  `HPM_RAM_BASE | (`HPM_RAM_SIZE - 32'd1) | 32'd1;
    /* verilator lint_off UNUSEDSIGNAL */ // the bits TVEC_KEEP clears
    reg [31:0] mtvec, stvec;
    /* verilator lint_on UNUSEDSIGNAL */
    // xcause keeps the interrupt bit and a 4-bit code (the legal values;
    // the code field is WLRL): bits 30:4 read 0
    reg        mcause_irq, scause_irq;
    reg [3:0]  mcause_code, scause_code;
    wire [31:0] mcause = {mcause_irq, 27'd0, mcause_code};
    wire [31:0] scause = {scause_irq, 27'd0, scause_code};
    // mcounteren/scounteren: a bit per implemented counter (0..2 and
    // 3..2+HPM_NUM); the counters that do not exist (they read 0) share one
    // enable, stored in bit 31, set by a write that sets any of their bits
    // and read in all of them (WARL, docs/hpm.md). Bits 3+HPM_NUM..30 of
    // the registers are never read: no flip-flops.
    localparam integer  CTR_K    = 3 + HPM_NUM;
    localparam [32:0]   CTR_M33  = (33'd1 << CTR_K) - 33'd1;
    localparam [31:0]   CTR_IMPL = CTR_M33[31:0];   // the counters that exist (time too)
    function [31:0] cen_view(input [31:0] q);
        cen_view = (q & CTR_IMPL) | (q[31] ? ~CTR_IMPL : 32'd0);
    endfunction
    /* verilator lint_off UNUSEDSIGNAL */ // bits CTR_K..30 when HPM_NUM < 29
    reg [31:0] mcen_q, scen_q;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [31:0] mcounteren = cen_view(mcen_q);
    wire [31:0] scounteren = cen_view(scen_q);

    wire [31:0] mstatus = {9'd0, st_tsr, st_tw, st_tvm, 2'b00, st_mprv, 4'd0, st_mpp,
                           2'b00, st_spp, st_mpie, 1'b0, st_spie, 1'b0, st_mie, 1'b0, st_sie, 1'b0};
    wire [31:0] sstatus = {23'd0, st_spp, 2'b00, st_spie, 3'b000, st_sie, 1'b0};
    // LCOFIP is read from its flip-flop only (no path from the HPM unit's
    // adders to the interrupt decision): a wrap in cycle c is seen from c+2
    wire [13:0] mip     = {lcofip, 1'b0, 1'b0, 1'b0, seip, 1'b0, mtip, 1'b0, stip, 1'b0,
                           msip, 1'b0, ssip, 1'b0};

    // ------------------------------------------------------------- read mux
    // time(h) 0xC01/0xC81 is the core's; the rest of the counter spaces
    // (0xB00-0xB1F/0xB80-0xB9F, 0xC00-0xC1F/0xC80-0xC9F) is the HPM unit's.
    wire [4:0]  cidx     = csr_addr[4:0];
    // xscratch, xepc, xtval: 0x140/0x141/0x143 and 0x340/0x341/0x343
    assign csr_ebr = csr_addr[11:10] == 2'b00 && csr_addr[8] && csr_addr[7:2] == 6'b010000 &&
                     csr_addr[1:0] != 2'b10;
    wire        is_time  = csr_addr == `HPM_CSR_TIME || csr_addr == `HPM_CSR_TIMEH;
    // read-as-zero, write-ignored space: pmpcfg0-15, pmpaddr0-63
    wire [3:0]  pmp_n    = csr_addr[7:4];       // 0x3A0-0x3EF, as logic (no compare chain)
    wire        pmp_zero = csr_addr[11:8] == 4'h3 &&
                           (pmp_n == 4'hA || pmp_n == 4'hB || pmp_n == 4'hC ||
                            pmp_n == 4'hD || pmp_n == 4'hE);
    reg         exists;
    reg  [31:0] wmask;            // WARL write mask of the addressed CSR
    reg  [31:0] core_rdata;
    always @(*) begin
        exists     = 1'b1;
        wmask      = 32'd0;
        core_rdata = 32'd0;
        if (is_time)
            core_rdata = time_word;
        else if (!pmp_zero) begin
            case (csr_addr)
                // supervisor
                `HPM_CSR_SSTATUS: begin core_rdata = sstatus;                wmask = `HPM_CSR_SSTATUS_WMASK; end
                `HPM_CSR_SIE: begin core_rdata = {18'd0, mie & mideleg};  wmask = {18'd0, mideleg}; end
                `HPM_CSR_STVEC: begin core_rdata = stvec;                  wmask = `HPM_CSR_STVEC_WMASK; end
                `HPM_CSR_SCOUNTEREN: begin core_rdata = scounteren;             wmask = `HPM_CSR_SCOUNTEREN_WMASK; end
                `HPM_CSR_SENVCFG: ;                                          // senvcfg
                `HPM_CSR_SSCRATCH, `HPM_CSR_STVAL: begin core_rdata = ebr_rdata;     wmask = `HPM_CSR_SSCRATCH_WMASK; end
                `HPM_CSR_SEPC: begin core_rdata = ebr_rdata;              wmask = `HPM_CSR_SEPC_WMASK; end
                `HPM_CSR_SCAUSE: begin core_rdata = scause;                 wmask = `HPM_CSR_SCAUSE_WMASK; end
                `HPM_CSR_SIP: begin core_rdata = {18'd0, mip & mideleg};  wmask = {18'd0, mideleg} & `HPM_CSR_SIP_WMASK; end
                `HPM_CSR_SATP: ;                                          // satp: no paging
                // machine
                `HPM_CSR_MVENDORID, `HPM_CSR_MARCHID, `HPM_CSR_MIMPID, `HPM_CSR_MHARTID, `HPM_CSR_MCONFIGPTR: ;    // ids, mconfigptr: 0
                `HPM_CSR_MSTATUS: begin core_rdata = mstatus;                wmask = `HPM_CSR_MSTATUS_WMASK; end
                `HPM_CSR_MISA: core_rdata = MISA;
                `HPM_CSR_MEDELEG: begin core_rdata = {16'd0, medeleg};       wmask = `HPM_CSR_MEDELEG_WMASK; end
                `HPM_CSR_MIDELEG: begin core_rdata = {18'd0, mideleg};       wmask = `HPM_CSR_MIDELEG_WMASK; end
                `HPM_CSR_MIE: begin core_rdata = {18'd0, mie};           wmask = `HPM_CSR_MIE_WMASK; end
                `HPM_CSR_MTVEC: begin core_rdata = mtvec;                  wmask = `HPM_CSR_MTVEC_WMASK; end
                `HPM_CSR_MCOUNTEREN: begin core_rdata = mcounteren;             wmask = `HPM_CSR_MCOUNTEREN_WMASK; end
                `HPM_CSR_MENVCFG, `HPM_CSR_MSTATUSH, `HPM_CSR_MENVCFGH: ;                        // menvcfg(h), mstatush
                `HPM_CSR_MSCRATCH, `HPM_CSR_MTVAL: begin core_rdata = ebr_rdata;     wmask = `HPM_CSR_MSCRATCH_WMASK; end
                `HPM_CSR_MEPC: begin core_rdata = ebr_rdata;              wmask = `HPM_CSR_MEPC_WMASK; end
                `HPM_CSR_MCAUSE: begin core_rdata = mcause;                 wmask = `HPM_CSR_MCAUSE_WMASK; end
                `HPM_CSR_MIP: begin core_rdata = {18'd0, mip};           wmask = `HPM_CSR_MIP_WMASK; end
                `HPM_CSR_MGUARD: begin core_rdata = {31'd0, mguard};    wmask = `HPM_CSR_MGUARD_WMASK; end
                `HPM_CSR_TSELECT, `HPM_CSR_TDATA1, `HPM_CSR_TDATA1 + 12'd1, `HPM_CSR_TDATA1 + 12'd2: ;               // tselect, tdata1-3
                default: exists = 1'b0;
            endcase
        end
    end

    // the HPM unit reads 0 at the addresses it does not claim, the core at
    // those it does (none of its cases): an OR, no select
    always @(*) csr_rdata = ext_rdata | core_rdata;

    // ------------------------------------------------------- access checks
    wire op_rw     = csr_funct == 2'b01;
    assign csr_write = op_rw || csr_src_nz;
    wire is_counter  = csr_addr[11:10] == 2'b11 && csr_addr[9:8] == 2'b00 &&
                       csr_addr[6:5] == 2'b00;        // 0xC00-0xC1F, 0xC80-0xC9F
    // the top-down unit's user CSRs (0xCC0-0xCC3, the unit claims them)
    // follow bit CY
    wire is_td_user  = HPM_TD == 1 && (csr_addr >> 2) == (`HPM_CSR_SLOTS >> 2);
    wire [4:0] cen_i = is_td_user ? 5'd0 : cidx;
    wire counter_ok  = priv == PRV_M ||
                       (mcounteren[cen_i] && (priv == PRV_S || scounteren[cen_i]));
    wire satp_trap   = csr_addr == `HPM_CSR_SATP && priv == PRV_S && st_tvm;
    assign csr_illegal = csr_op && (!(exists || ext_hit) ||
                                    priv < csr_addr[9:8] ||
                                    (csr_write && csr_addr[11:10] == 2'b11) ||
                                    ((is_counter || is_td_user) && !counter_ok) ||
                                    satp_trap);

    assign sys_illegal = (is_mret && priv != PRV_M) ||
                         ((is_sret || is_sfence || is_wfi) && priv == PRV_U) ||
                         (is_sret && priv == PRV_S && st_tsr) ||
                         (is_sfence && priv == PRV_S && st_tvm) ||
                         (is_wfi && priv == PRV_S && st_tw);

    // ------------------------------------------------------------- write data
    wire [31:0] w = op_rw ? csr_src :
                    csr_funct == 2'b10 ? (csr_rdata | csr_src) : (csr_rdata & ~csr_src);
    wire [31:0] merged = (w & wmask) | (core_rdata & ~wmask);
    // mstatus.MPP: a write of 2 (reserved) leaves it unchanged
    wire        keep_mpp = csr_addr == `HPM_CSR_MSTATUS && w[12:11] == 2'b10;
    // xtvec: a vectored BASE is legalised to 64-byte alignment
    wire [31:0] tvec_w   = {w[31:6], w[0] ? 4'd0 : w[5:2], 1'b0, w[0]} & TVEC_KEEP;
    wire        is_tvec  = csr_addr == `HPM_CSR_MTVEC || csr_addr == `HPM_CSR_STVEC;
    // x counteren: any bit of a counter that does not exist sets them all
    wire        cen_any  = (w & ~CTR_IMPL) != 32'd0;
    wire [31:0] cen_w    = w | (cen_any ? ~CTR_IMPL : 32'd0);
    wire        is_cen   = csr_addr == `HPM_CSR_MCOUNTEREN || csr_addr == `HPM_CSR_SCOUNTEREN;
    // (merged is w for them: only the shared bits differ; 0 when all exist)
    wire [31:0] cen_set  = (is_cen && cen_any) ? ~CTR_IMPL : 32'd0;
    // mguard: a write of 0 leaves a set bit set (merged has w's bit)
    wire [31:0] keep_set = cen_set | {31'd0, csr_addr == `HPM_CSR_MGUARD && mguard};
    assign csr_wval = ext_hit ? ext_wval :
                      keep_mpp ? {merged[31:13], st_mpp, merged[10:0]} :
                      is_tvec ? tvec_w : merged | keep_set;

    // the CSRs of the register file EBR take all bits but xepc[1:0]
    assign ebr_wval  = {w[31:2], csr_addr[1:0] == 2'b01 ? 2'b00 : w[1:0]};

    assign ext_addr  = csr_addr;
    assign ext_wdata = w;
    assign ext_we    = csr_commit && csr_write;
    assign mcounteren_out = mcounteren;
    assign guard_f = mguard && priv != PRV_M;
    assign guard_d = mguard && (priv != PRV_M || (st_mprv && st_mpp != PRV_M));

    wire we = csr_commit && csr_write && !ext_hit;

    // ------------------------------------------------------------ interrupts
    wire [13:0] pending = mip & mie;
    wire        m_en    = priv != PRV_M || st_mie;
    wire        s_en    = priv == PRV_U || (priv == PRV_S && st_sie);
    wire [13:0] m_set   = pending & ~mideleg & {14{m_en}};
    wire [13:0] s_set   = pending &  mideleg & {14{s_en}};
    wire [13:0] irqs    = m_set != 14'd0 ? m_set : s_set;
    assign irq_pending = irqs != 14'd0;
    assign wfi_wake    = pending != 14'd0;
    always @(*) begin
        // priority MEI > MSI > MTI > SEI > SSI > STI > LCOFI
        if      (irqs[11]) irq_code = 4'd11;
        else if (irqs[3])  irq_code = 4'd3;
        else if (irqs[7])  irq_code = 4'd7;
        else if (irqs[9])  irq_code = 4'd9;
        else if (irqs[1])  irq_code = 4'd1;
        else if (irqs[5])  irq_code = 4'd5;
        else               irq_code = 4'd13;
    end

    // ------------------------------------------------------------------ traps
    // The trap targets are on the path from the X datapath to the fetch
    // address, so each is prepared from early signals: the interrupt target
    // from registered state only (irq_code in the aligned BASE's bits 5:2), and
    // each exception class (early, late, access fault) with its own
    // delegation lookup; the late trap signals only select.
    wire        irq_to_s   = m_set == 14'd0;
    wire [31:2] irq_base   = irq_to_s ? stvec[31:2] : mtvec[31:2];
    wire        irq_vect   = irq_to_s ? stvec[0] : mtvec[0];
    wire [31:2] irq_vec    = {irq_base[31:6], irq_base[5:2] | (irq_vect ? irq_code : 4'd0)};
    wire        below_m    = priv != PRV_M;
    wire        to_s_e     = below_m && medeleg[code_e];
    wire        to_s_l     = below_m && medeleg[code_l];
    wire        to_s_f     = below_m && medeleg[code_f];
    assign vec_i = {irq_vec, 2'b00};
    assign tvec_m    = mtvec[31:2];
    assign tvec_s    = stvec[31:2];
    assign tvec_to_s = {to_s_f, to_s_l, to_s_e};

    assign trap_take = trap_irq || trap_exc_e || trap_exc_l || trap_fault;
    // the four exclude one another: the latest (the access fault, the late
    // exceptions, then the interrupt) select in the outer mux levels
    assign trap_to_s = trap_fault ? to_s_f : trap_exc_l ? to_s_l : trap_irq ? irq_to_s : to_s_e;
    wire [3:0]  trap_code  = trap_fault ? code_f : trap_exc_l ? code_l : trap_irq ? irq_code : code_e;

    // ---------------------------------------------------------- register update
    always @(posedge clk) begin
        if (rst) begin
            priv       <= PRV_M;
            st_sie     <= 1'b0; st_mie  <= 1'b0; st_spie <= 1'b0; st_mpie <= 1'b0;
            st_spp     <= 1'b0; st_mpp  <= PRV_U; st_mprv <= 1'b0;
            st_tvm     <= 1'b0; st_tw   <= 1'b0; st_tsr  <= 1'b0;
            medeleg    <= 16'd0;
            mideleg    <= 14'd0;
            mie        <= 14'd0;
            ssip       <= 1'b0; stip <= 1'b0; seip <= 1'b0; lcofip <= 1'b0;
            mtvec      <= 32'd0; stvec <= 32'd0;
            mcause_irq <= 1'b0; mcause_code <= 4'd0;
            scause_irq <= 1'b0; scause_code <= 4'd0;
            mcen_q     <= 32'd0; scen_q <= 32'd0;
            mguard     <= 1'b0;
        end else begin
            if (trap_take) begin
                if (trap_to_s) begin
                    scause_irq  <= trap_irq;
                    scause_code <= trap_code;
                    st_spp  <= priv[0];
                    st_spie <= st_sie;
                    st_sie  <= 1'b0;
                    priv    <= PRV_S;
                end else begin
                    mcause_irq  <= trap_irq;
                    mcause_code <= trap_code;
                    st_mpp  <= priv;
                    st_mpie <= st_mie;
                    st_mie  <= 1'b0;
                    priv    <= PRV_M;
                end
            end else if (mret_commit) begin
                priv    <= st_mpp;
                st_mie  <= st_mpie;
                st_mpie <= 1'b1;
                st_mpp  <= PRV_U;
                if (st_mpp != PRV_M)
                    st_mprv <= 1'b0;
            end else if (sret_commit) begin
                priv    <= {1'b0, st_spp};
                st_sie  <= st_spie;
                st_spie <= 1'b1;
                st_spp  <= 1'b0;
                st_mprv <= 1'b0;
            end else if (we) begin
                case (csr_addr)
                    `HPM_CSR_MSTATUS: begin
                        st_sie <= w[1]; st_mie <= w[3]; st_spie <= w[5]; st_mpie <= w[7];
                        st_spp <= w[8]; st_mprv <= w[17];
                        st_tvm <= w[20]; st_tw <= w[21]; st_tsr <= w[22];
                        if (!keep_mpp)
                            st_mpp <= w[12:11];
                    end
                    `HPM_CSR_SSTATUS: begin st_sie <= w[1]; st_spie <= w[5]; st_spp <= w[8]; end
                    `HPM_CSR_MEDELEG: medeleg <= w[15:0] & 16'hB3FF;
                    `HPM_CSR_MIDELEG: mideleg <= w[13:0] & 14'h2222;
                    `HPM_CSR_MIE: mie <= w[13:0] & 14'h2AAA;
                    `HPM_CSR_SIE: mie <= (mie & ~mideleg) | (w[13:0] & mideleg);
                    `HPM_CSR_MIP: begin ssip <= w[1]; stip <= w[5]; seip <= w[9]; lcofip <= w[13]; end
                    `HPM_CSR_SIP: begin
                        if (mideleg[1])  ssip   <= w[1];
                        if (mideleg[13]) lcofip <= w[13];
                    end
                    `HPM_CSR_MTVEC: mtvec <= tvec_w;
                    `HPM_CSR_STVEC: stvec <= tvec_w;
                    `HPM_CSR_MCOUNTEREN: mcen_q <= cen_w;
                    `HPM_CSR_SCOUNTEREN: scen_q <= cen_w;
                    `HPM_CSR_MGUARD: if (w[0]) mguard <= 1'b1;
                    `HPM_CSR_MCAUSE: begin mcause_irq <= w[31]; mcause_code <= w[3:0]; end
                    `HPM_CSR_SCAUSE: begin scause_irq <= w[31]; scause_code <= w[3:0]; end
                    default: ;
                endcase
            end
            // the HPM unit's overflow wins over a software clear in the same
            // cycle (which read LCOFIP as 0: the set would be lost otherwise)
            if (lcofi)
                lcofip <= 1'b1;
        end
    end
endmodule
