// hpm_class: the cycle-class encoder of both counting architectures
// (docs/hpm.md, "Counting architecture 2"). Names this cycle's event vector
// and privilege mode with a 7-bit class {priv, kind}; every counter's
// increment is then a table lookup (hpm_a2_store, hpm_a3_table) instead of a
// per-counter selector.
//
// The kind is decoded from the few events that tell the cycle types apart,
// in the order the core's structure gives them: a bubble (its cause), a
// stall cycle (its cause), a trap cycle, else the last X cycle of a retiring
// instruction (its class). That holds for every vector the core can produce
// (the top-down events partition every cycle, at most one instruction class
// retires); in simulation every cycle also checks that the whole vector is
// exactly the class's (hpm_classes.vh kind_ev), so a core change that adds a
// vector stops the simulation instead of miscounting.
`include "hpm_map.vh"
module hpm_class #(
    parameter integer EV_W = `HPM_EVENTS_BUS_W               // event bus width: bit i = event i
) (
    /* verilator lint_off UNUSEDSIGNAL */     // clk/rst: the simulation check only
    input  wire            clk,
    input  wire            rst,
    /* verilator lint_on UNUSEDSIGNAL */
    /* verilator lint_off UNUSEDSIGNAL */     // the decode needs a few events; the check reads all
    input  wire [EV_W-1:0] ev,
    input  wire [EV_W-1:0] ev_n,              // ev as if no interrupt were taken
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [1:0]      priv,
    output wire [6:0]      cls
);
/* verilator lint_off UNUSEDPARAM */ // the whole catalogue, not every index is used here
`include "hpm_events.vh"
/* verilator lint_on UNUSEDPARAM */
`include "hpm_classes.vh"

    // The interrupt decision is the core's deepest early signal (hpm_core),
    // so the kind is decoded from ev_n and an interrupt cycle's kind
    // selected at the end.
    reg [4:0] k_n;
    wire [4:0] k = ev[HPM_EV_INTERRUPTS] ? K_IRQ : k_n;
    always @(*) begin
        if (ev_n[HPM_EV_FETCH_STALL_CYCLES])
            k_n = ev_n[HPM_EV_TOPDOWN_BR_MISPREDICT]  ? K_BUB_MISP :
                  ev_n[HPM_EV_TOPDOWN_MACHINE_CLEARS] ? K_BUB_TRAP : K_BUB_FE;
        else if (ev_n[HPM_EV_MEM_STALL_CYCLES])    k_n = K_MEM;
        else if (ev_n[HPM_EV_MULDIV_STALL_CYCLES]) k_n = K_MD_STALL;
        else if (ev_n[HPM_EV_WFI_CYCLES])          k_n = K_WFI_WAIT;
        else if (ev_n[HPM_EV_TOPDOWN_CORE_BOUND])  k_n = K_SEL_WAIT;
        else if (ev_n[HPM_EV_EXCEPTIONS])          k_n = K_EXC;
        else if (ev_n[HPM_EV_LOADS])               k_n = K_R_LOAD;
        else if (ev_n[HPM_EV_STORES])              k_n = K_R_STORE;
        else if (ev_n[HPM_EV_JUMPS])               k_n = ev_n[HPM_EV_FLUSHES] ? K_R_JALR : K_R_JAL;
        else if (ev_n[HPM_EV_BRANCHES])
            k_n = {K_R_BR[4:2], ev_n[HPM_EV_BRANCH_MISSES], ev_n[HPM_EV_BRANCHES_TAKEN]};
        else if (ev_n[HPM_EV_MUL])                 k_n = K_R_MUL;
        else if (ev_n[HPM_EV_DIV])                 k_n = K_R_DIV;
        else if (ev_n[HPM_EV_CSR_INSTRUCTIONS])    k_n = K_R_CSR;
        else if (ev_n[HPM_EV_FENCES])              k_n = ev_n[HPM_EV_FLUSHES] ? K_R_FENCEI : K_R_FENCE;
        else if (ev_n[HPM_EV_FLUSHES])             k_n = K_R_XRET;
        else                                       k_n = K_R_ALU;
    end
    assign cls = {priv, k};

`ifndef SYNTHESIS
    // every vector the core produces must be exactly its class's vector; the
    // vectors of all kinds are a constant table (in the simulated board a
    // lookup per cycle, not kind_ev's logic)
    function [64*32-1:0] kind_table(input integer unused);
        integer i;
        begin
            kind_table = {64*32{1'b0}};
            for (i = 0; i < 32; i = i + 1)
                kind_table[64 * i +: 64] = kind_ev(i[4:0]);
        end
    endfunction
    localparam [64*32-1:0] KIND_EV = kind_table(0);
    wire [63:0] ev64 = {{(64 - EV_W){1'b0}}, ev};
    wire [63:0] want = KIND_EV[64 * k +: 64];
    always @(posedge clk)
        if (!rst && ev64 != want) begin
            $display("hpm_class: event vector %h has no cycle class (decoded kind %0d, vector %h)",
                     ev64, k, want);
            $fatal;
        end
`endif
endmodule
