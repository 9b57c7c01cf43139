// hpm_cpu: the core with its HPM unit. The core's event bus (one wire per
// catalogue index, hw/hpm/events.def) and CSR hook go to hpm_unit, whose
// overflow pulse sets mip.LCOFIP in the core. HPM_NUM and HPM_WIDTH size the
// unit (docs/hpm.md).
module hpm_cpu #(
    parameter integer HPM_NUM   = 29,        // implemented mhpmcounters (0..29)
    parameter integer HPM_WIDTH = 64,        // their width (1..64)
    parameter integer HPM_DSP   = 0,         // SB_MAC16 blocks for mcycle, minstret (hpm_unit)
    parameter integer HPM_ARCH  = 3,         // counting architecture 3 or 2 (hpm_unit)
    parameter integer HPM_EV_ROM = 1,        // architecture 3's refill ROM (hpm_unit)
    parameter integer HPM_TD    = 0          // 1: the top-down unit, 2: the board's counts (hpm_topdown)
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] boot_addr,

    output wire        bus_we,
    output wire [3:0]  bus_be,
    output wire [31:2] bus_addr,
    output wire [31:2] bus_daddr,
    output wire [4:0]  bus_region,
    output wire [31:0] bus_wdata,
    input  wire [31:0] bus_rdata,

    input  wire        mtip,
    input  wire        msip,
    input  wire [31:0] time_word,
    output wire [1:0]  time_sel,     // {a CSR instruction is in X, its address bit 7}

`include "core_trace_ports.vh"
);
/* verilator lint_off UNUSEDPARAM */ // the whole catalogue, not every index is used here
`include "hpm_events.vh"
/* verilator lint_on UNUSEDPARAM */

    wire [HPM_EV_BUS_W-1:0] events, events_n;
    wire [1:0]  priv;
    wire [11:0] csr_addr;
    wire [31:0] csr_wdata, csr_rdata, csr_wval, mcounteren;
    wire        csr_we, csr_hit, csr_wait, csr_op, csr_write, lcofi;

    hpm_core #(.EV_W(HPM_EV_BUS_W), .HPM_NUM(HPM_NUM), .HPM_TD(HPM_TD)) u_core (
        .clk(clk), .rst(rst), .boot_addr(boot_addr),
        .bus_we(bus_we), .bus_be(bus_be), .bus_addr(bus_addr),
        .bus_daddr(bus_daddr), .bus_region(bus_region),
        .bus_wdata(bus_wdata), .bus_rdata(bus_rdata),
        .mtip(mtip), .msip(msip), .time_word(time_word),
        .events(events), .events_n(events_n), .priv(priv),
        .ext_csr_addr(csr_addr), .ext_csr_wdata(csr_wdata), .ext_csr_we(csr_we),
        .ext_csr_hit(csr_hit), .ext_csr_rdata(csr_rdata), .ext_csr_wval(csr_wval),
        .ext_csr_wait(csr_wait), .ext_csr_op(csr_op),
        .ext_csr_write(csr_write), .mcounteren(mcounteren), .lcofi(lcofi),
`include "core_trace_conn.vh"
    );

    hpm_unit #(
        .HPM_NUM(HPM_NUM), .HPM_WIDTH(HPM_WIDTH),
        .EV_W(HPM_EV_BUS_W), .EV_INSTRET(HPM_EV_INSTRUCTIONS), .DSP_BUDGET(HPM_DSP),
        .HPM_ARCH(HPM_ARCH), .EV_ROM(HPM_EV_ROM), .HPM_TD(HPM_TD)
    ) u_hpm (
        .clk(clk), .rst(rst), .ev(events), .ev_n(events_n), .priv(priv),
        .csr_addr(csr_addr), .csr_wdata(csr_wdata), .csr_we(csr_we),
        .mcounteren(mcounteren), .csr_hit(csr_hit), .csr_rdata(csr_rdata),
        .csr_wval(csr_wval), .csr_wait(csr_wait), .csr_op(csr_op),
        .csr_write(csr_write), .lcofi(lcofi)
    );
    assign time_sel = {csr_op, csr_addr[7]};
endmodule
