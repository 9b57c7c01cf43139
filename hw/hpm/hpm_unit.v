// hpm_unit: Zicntr + Zihpm + Sscofpmf + Smcntrpmf. Owns every counter CSR:
//   mcycle(h), minstret(h)             64-bit, filtered by mcyclecfg/minstretcfg
//   mhpmcounter3..31(h)                HPM_NUM of them implemented, HPM_WIDTH bits
//   mhpmevent3..31(h)                  one hpm_selector each
//   mcountinhibit, mcyclecfg(h), minstretcfg(h), scountovf
//   cycle/instret/hpmcounterN(h)       the user-level read-only shadows
// It claims these addresses on the core's CSR hook; the core keeps the
// privilege, read-only and counter-enable checks and the time CSR.
//
// Timing (docs/hpm.md): a CSR read in cycle t sees the values at the start of
// t; a write in cycle t is visible from t+1 and replaces that cycle's increment
// of the written counter; mcountinhibit and the mode filters written in cycle
// t apply from cycle t+1.
module hpm_unit #(
    parameter integer HPM_NUM   = 29,       // implemented mhpmcounters (0..29)
    parameter integer HPM_WIDTH = 64,       // their width (1..64)
    parameter integer EV_W      = 32,       // event bus width
    parameter integer EV_INSTRET = 2        // index of the "instructions" event
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [EV_W-1:0] ev,              // this cycle's events, bit i = event i
    input  wire [1:0]      priv,            // this cycle's privilege mode

    // CSR hook
    input  wire [11:0]     csr_addr,
    input  wire [31:0]     csr_wdata,       // the value software writes
    input  wire            csr_we,          // commit strobe
    input  wire [31:0]     mcounteren,      // masks scountovf when read from S
    output wire            csr_hit,
    output reg  [31:0]     csr_rdata,
    output reg  [31:0]     csr_wval,        // value after the write (WARL)

    output wire            lcofi            // a counter wrapped with OF clear: set mip.LCOFIP
);
    localparam [1:0] PRIV_M = 2'b11, PRIV_S = 2'b01, PRIV_U = 2'b00;

    // ---------------------------------------------------------- address decode
    wire [4:0] idx      = csr_addr[4:0];
    wire       ctr_lo_m = csr_addr[11:5] == 7'b1011_000;   // 0xB00-0xB1F
    wire       ctr_hi_m = csr_addr[11:5] == 7'b1011_100;   // 0xB80-0xB9F
    wire       ctr_lo_u = csr_addr[11:5] == 7'b1100_000;   // 0xC00-0xC1F
    wire       ctr_hi_u = csr_addr[11:5] == 7'b1100_100;   // 0xC80-0xC9F
    wire       ctr_lo   = ctr_lo_m || ctr_lo_u;
    wire       ctr_hi   = ctr_hi_m || ctr_hi_u;
    wire       sel_lo   = csr_addr[11:5] == 7'b0011_001;   // 0x320-0x33F
    wire       sel_hi   = csr_addr[11:5] == 7'b0111_001;   // 0x720-0x73F
    wire       is_time  = (ctr_lo_u || ctr_hi_u) && idx == 5'd1;
    wire       is_ovf   = csr_addr == 12'hDA0;

    // mcountinhibit (0x320) and the Smcntrpmf filters (0x321/0x322, h 0x721/0x722)
    // live at the bottom of the selector space; mhpmevent3..31 above them.
    wire       sel_cfg  = (sel_lo || sel_hi) && idx <= 5'd2;
    assign csr_hit = ((ctr_lo || ctr_hi) && !is_time) || sel_lo || sel_hi || is_ovf;

    // ------------------------------------------------ mcountinhibit, filters
    reg  [31:0] inhibit;                     // bit 1 reads 0
    reg  [2:0]  cycle_inh, instret_inh;      // MINH, SINH, UINH of mcyclecfg / minstretcfg

    wire we_inhibit    = csr_we && sel_lo && idx == 5'd0;
    wire we_cyclecfg   = csr_we && sel_hi && idx == 5'd1;
    wire we_instretcfg = csr_we && sel_hi && idx == 5'd2;

    always @(posedge clk) begin
        if (rst) begin
            inhibit     <= 32'd0;
            cycle_inh   <= 3'd0;
            instret_inh <= 3'd0;
        end else begin
            if (we_inhibit)    inhibit     <= csr_wdata & 32'hFFFF_FFFD;
            if (we_cyclecfg)   cycle_inh   <= csr_wdata[30:28];
            if (we_instretcfg) instret_inh <= csr_wdata[30:28];
        end
    end

    function mode_inhibited(input [2:0] inh, input [1:0] p);
        mode_inhibited = (p == PRIV_M && inh[2]) || (p == PRIV_S && inh[1]) ||
                         (p == PRIV_U && inh[0]);
    endfunction

    // ------------------------------------------------------ mcycle, minstret
    wire [63:0] mcycle, minstret, mcycle_w, minstret_w;
    /* verilator lint_off UNUSEDSIGNAL */ // mcycle and minstret have no overflow flag
    wire        mcycle_wrap, minstret_wrap;
    /* verilator lint_on UNUSEDSIGNAL */
    wire        cycle_on   = !inhibit[0] && !mode_inhibited(cycle_inh, priv);
    wire        instret_on = !inhibit[2] && !mode_inhibited(instret_inh, priv);

    hpm_counter #(.WIDTH(64)) u_mcycle (
        .clk(clk), .rst(rst), .inc({2'b00, cycle_on}),
        .we_lo(csr_we && ctr_lo_m && idx == 5'd0), .we_hi(csr_we && ctr_hi_m && idx == 5'd0),
        .wdata(csr_wdata), .value(mcycle), .wval(mcycle_w), .wrap(mcycle_wrap)
    );
    hpm_counter #(.WIDTH(64)) u_minstret (
        .clk(clk), .rst(rst), .inc({2'b00, instret_on && ev[EV_INSTRET]}),
        .we_lo(csr_we && ctr_lo_m && idx == 5'd2), .we_hi(csr_we && ctr_hi_m && idx == 5'd2),
        .wdata(csr_wdata), .value(minstret), .wval(minstret_w), .wrap(minstret_wrap)
    );

    // -------------------------------------------- mhpmcounter3.. / mhpmevent3..
    wire [63:0] hpm_value [0:31], hpm_wval [0:31];
    wire [63:0] evt_value [0:31], evt_wval [0:31];
    wire [31:0] of_bits, wrap_new;

    genvar n;
    generate
        for (n = 0; n < 32; n = n + 1) begin : g_ctr
            if (n >= 3 && n < 3 + HPM_NUM) begin : g_impl
                wire [2:0] inc;
                wire       wrap;
                hpm_selector #(.EV_W(EV_W)) u_sel (
                    .clk(clk), .rst(rst),
                    .we_lo(csr_we && sel_lo && idx == n), .we_hi(csr_we && sel_hi && idx == n),
                    .wdata(csr_wdata), .set_of(wrap), .value(evt_value[n]), .wval(evt_wval[n]),
                    .of(of_bits[n]),
                    .ev(ev), .priv(priv), .inc(inc)
                );
                hpm_counter #(.WIDTH(HPM_WIDTH)) u_ctr (
                    .clk(clk), .rst(rst), .inc(inhibit[n] ? 3'd0 : inc),
                    .we_lo(csr_we && ctr_lo_m && idx == n), .we_hi(csr_we && ctr_hi_m && idx == n),
                    .wdata(csr_wdata), .value(hpm_value[n]), .wval(hpm_wval[n]), .wrap(wrap)
                );
                assign wrap_new[n] = wrap && !of_bits[n];
            end else begin : g_none
                assign hpm_value[n] = 64'd0;
                assign hpm_wval[n]  = 64'd0;
                assign evt_value[n] = 64'd0;
                assign evt_wval[n]  = 64'd0;
                assign of_bits[n]   = 1'b0;
                assign wrap_new[n]  = 1'b0;
            end
        end
    endgenerate

    assign lcofi = |wrap_new;

    // ------------------------------------------------------------ read mux
    wire [63:0] ctr64 = idx == 5'd0 ? mcycle : idx == 5'd2 ? minstret : hpm_value[idx];
    wire [31:0] ovf   = priv == PRIV_M ? of_bits : of_bits & mcounteren;

    always @(*) begin
        csr_rdata = 32'd0;
        if (ctr_lo)               csr_rdata = ctr64[31:0];
        else if (ctr_hi)          csr_rdata = ctr64[63:32];
        else if (is_ovf)          csr_rdata = ovf;
        else if (sel_cfg) begin
            case ({sel_hi, idx[1:0]})
                3'b000:  csr_rdata = inhibit;
                3'b101:  csr_rdata = {1'b0, cycle_inh, 28'd0};
                3'b110:  csr_rdata = {1'b0, instret_inh, 28'd0};
                default: csr_rdata = 32'd0;
            endcase
        end
        else if (sel_lo)          csr_rdata = evt_value[idx][31:0];
        else if (sel_hi)          csr_rdata = evt_value[idx][63:32];
    end

    // the value after a write, as the next cycle will read it (WARL applied)
    wire [63:0] ctr64_w = idx == 5'd0 ? mcycle_w : idx == 5'd2 ? minstret_w : hpm_wval[idx];
    always @(*) begin
        csr_wval = 32'd0;
        if (ctr_lo_m)             csr_wval = ctr64_w[31:0];
        else if (ctr_hi_m)        csr_wval = ctr64_w[63:32];
        else if (sel_cfg) begin
            case ({sel_hi, idx[1:0]})
                3'b000:  csr_wval = csr_wdata & 32'hFFFF_FFFD;
                3'b101,
                3'b110:  csr_wval = {1'b0, csr_wdata[30:28], 28'd0};
                default: csr_wval = 32'd0;
            endcase
        end
        else if (sel_lo)          csr_wval = evt_wval[idx][31:0];
        else if (sel_hi)          csr_wval = evt_wval[idx][63:32];
    end
endmodule
