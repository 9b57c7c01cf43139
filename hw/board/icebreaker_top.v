// icebreaker_top: hpm_soc on the iCEBreaker (iCE40UP5K-SG48). For now the
// 12 MHz oscillator clocks the SoC directly (no PLL) and a power-on counter
// holds reset for the first 2^RST_BITS cycles. The trace port is left open.
module icebreaker_top #(
    parameter FW_HEX   = "",
    parameter UART_DIV = 8,
    parameter RST_BITS = 8,
    // the flip-flop HPM unit does not fit next to the core (docs/hpm.md):
    // only mcycle/minstret until the EBR-backed counters
    parameter HPM_NUM   = 0,
    parameter HPM_WIDTH = 64
) (
    input  wire       CLK,
    input  wire       RX,        // from the FT2232H channel B
    output wire       TX,
    output wire [4:0] LED,
    input  wire [2:0] BTN
);
    reg [RST_BITS:0] por = 0;    // MSB set: reset released
    always @(posedge CLK)
        if (!por[RST_BITS])
            por <= por + 1'b1;

    /* verilator lint_off PINCONNECTEMPTY */
    // the trace port is for the simulated board only
    hpm_soc #(.UART_DIV(UART_DIV), .FW_HEX(FW_HEX), .HPM_NUM(HPM_NUM), .HPM_WIDTH(HPM_WIDTH)) u_soc (
        .clk(CLK), .rst(!por[RST_BITS]), .boot_addr(32'h0000_0000),
        .uart_rx(RX), .uart_tx(TX), .leds(LED), .buttons(BTN),
        .trace_valid(), .trace_pc(), .trace_insn(), .trace_priv(), .trace_trap(),
        .trace_cause(), .trace_tval(), .trace_rd_we(), .trace_rd(), .trace_rd_val(),
        .trace_csr_we(), .trace_csr_addr(), .trace_csr_val(), .trace_mem_we(),
        .trace_mem_addr(), .trace_mem_wdata(), .trace_mem_be()
    );
    /* verilator lint_on PINCONNECTEMPTY */
endmodule
