// icebreaker_top: hpm_soc on the iCEBreaker (iCE40UP5K-SG48), docs/board.md.
//
// Clock: the 12 MHz oscillator (pin 35) feeds the PLL (SB_PLL40_PAD), whose
// output clocks the whole SoC. Fout = 12 MHz * (DIVF + 1) / (2^DIVQ * (DIVR + 1))
// (settings from `icepll -i 12 -o <MHz>`; VCO 533..1066 MHz, PFD 10..133 MHz),
// halved again with PLL_HALF (PLLOUT_SELECT "GENCLK_HALF"). CLOCK_HZ must be
// that frequency: the SoC reports it (GPIO clock_hz), the board build takes
// its timing target from it (mk/board.mk) and UART_DIV = CLOCK_HZ / baud.
//
// Reset: held while the PLL is not locked or the user button (BTN_N, pin 10)
// is pressed, synchronised to the SoC clock, then released 2^RST_BITS cycles
// later (synchronous, active high, as hpm_soc expects).
//
// UART on the FT2232H channel B (RX pin 6, TX pin 9). LED[4:0] (snap-off
// PMOD2) are the GPIO leds, BTN[2:0] its buttons; the on-board green LED is
// on once reset is released, the red one while it is held.
module icebreaker_top #(
    parameter        FW_HEX     = "",
    // the core clock and the PLL settings that make it (must agree)
    parameter integer CLOCK_HZ  = 15000000,
    parameter [3:0]  PLL_DIVR   = 4'd0,
    parameter [6:0]  PLL_DIVF   = 7'd79,
    parameter [2:0]  PLL_DIVQ   = 3'd5,
    parameter [2:0]  PLL_FILTER = 3'd1,
    parameter        PLL_HALF   = 1,
    parameter integer UART_BAUD = 1500000,
    parameter integer RST_BITS  = 8,
    // the full HPM (docs/board.md): 29 64-bit mhpmcounters beside the
    // core, the simulated board's configuration (figures: docs/BENCHMARKS.md)
    parameter integer HPM_NUM   = 29,
    parameter integer HPM_WIDTH = 64,
    // counting architecture (docs/hpm.md): 3, the increment table and the
    // counters' upper parts in EBR (hpm_unit's default)
    parameter integer HPM_ARCH  = 3,
    // SB_MAC16 blocks for mcycle and minstret (two each; the programmable
    // counters are in EBR)
    parameter integer HPM_DSP   = 4
) (
    input  wire       CLK,       // 12 MHz oscillator
    input  wire       BTN_N,     // user button, active low: reset
    input  wire       RX,        // from the FT2232H channel B
    output wire       TX,
    output wire [4:0] LED,
    input  wire [2:0] BTN,
    output wire       LEDR_N,    // on-board red LED, active low
    output wire       LEDG_N     // on-board green LED, active low
);
    localparam integer UART_DIV = CLOCK_HZ / UART_BAUD;
    // EBR (30 on the UP5K): firmware 16, register file 4, architecture 3's
    // store 4 and table one per 5 counters; its refill ROM (4) saves the
    // decoder's LUTs where the EBR are left (up to 10 counters), else the refill
    // decodes its events in logic (docs/hpm.md)
    localparam integer HPM_EV_ROM = 24 + (HPM_NUM + 4) / 5 + 4 <= 30 ? 1 : 0;

    generate
        if (UART_DIV * UART_BAUD != CLOCK_HZ || UART_DIV < 2) begin : g_bad_div
            // elaboration error: the UART divider must be an integer >= 2
            illegal_uart_divider_for_clock u_error ();
        end
    endgenerate

    // ---------------------------------------------------------------- clock
    wire clk, pll_lock;
    // yosys maps the iCE40 primitive; lint reads hw/board/ice40_lint_cells.v
    SB_PLL40_PAD #(
        .FEEDBACK_PATH("SIMPLE"),
        .PLLOUT_SELECT(PLL_HALF ? "GENCLK_HALF" : "GENCLK"),
        .DIVR(PLL_DIVR),
        .DIVF(PLL_DIVF),
        .DIVQ(PLL_DIVQ),
        .FILTER_RANGE(PLL_FILTER)
    ) u_pll (
        .PACKAGEPIN(CLK),
        .PLLOUTGLOBAL(clk),
        .LOCK(pll_lock),
        .RESETB(1'b1),
        .BYPASS(1'b0)
    );

    // ---------------------------------------------------------------- reset
    // asynchronous assertion (PLL unlocked or button), synchronous release
    wire       rst_async = !pll_lock || !BTN_N;
    reg  [1:0] rst_sync = 2'b11;
    always @(posedge clk or posedge rst_async)
        if (rst_async) rst_sync <= 2'b11;
        else           rst_sync <= {rst_sync[0], 1'b0};

    reg [RST_BITS:0] rst_cnt = 0;     // MSB set: reset released
    always @(posedge clk)
        if (rst_sync[1])
            rst_cnt <= 0;
        else if (!rst_cnt[RST_BITS])
            rst_cnt <= rst_cnt + 1'b1;
    reg rst = 1'b1;
    always @(posedge clk)
        rst <= !rst_cnt[RST_BITS];

    assign LEDR_N = !rst;
    assign LEDG_N = rst;

    // ------------------------------------------------------------------ SoC
    /* verilator lint_off PINCONNECTEMPTY */
    // the trace port is for the simulated board only
    hpm_soc #(
        .UART_DIV(UART_DIV), .CLOCK_HZ(CLOCK_HZ), .FW_HEX(FW_HEX),
        .HPM_NUM(HPM_NUM), .HPM_WIDTH(HPM_WIDTH), .HPM_DSP(HPM_DSP),
        .CLINT_DSP(1), .HPM_ARCH(HPM_ARCH), .HPM_EV_ROM(HPM_EV_ROM),
        .HPM_TD(2)      // the top-down counts; the unit does not fit (docs/hpm.md)
    ) u_soc (
        .clk(clk), .rst(rst), .boot_addr(32'h0000_0000),
        .uart_rx(RX), .uart_tx(TX), .leds(LED), .buttons(BTN),
        .trace_valid(), .trace_pc(), .trace_insn(), .trace_priv(), .trace_trap(),
        .trace_cause(), .trace_tval(), .trace_rd_we(), .trace_rd(), .trace_rd_val(),
        .trace_csr_we(), .trace_csr_addr(), .trace_csr_val(), .trace_mem_we(),
        .trace_mem_addr(), .trace_mem_wdata(), .trace_mem_be()
    );
    /* verilator lint_on PINCONNECTEMPTY */
endmodule
