// hpm_soc: the hpm-overlay SoC (docs/memory-map.md): hpm_cpu (the core and its
// HPM unit) on one bus with the firmware EBR (fw), the SPRAM work RAM (ram),
// CLINT, UART and GPIO.
// Every target answers a read in the cycle after the request (zero wait
// states); each target's read data is 0 unless it was read in the cycle
// before, and the read data is their OR.
// The core's trace port is routed out for the simulated board.
`include "hpm_map.vh"
module hpm_soc #(
    parameter UART_DIV  = `HPM_SOC_UART_DIV,
    parameter CLOCK_HZ  = `HPM_SOC_CLOCK_HZ,  // core clock, read from GPIO clock_hz
    parameter FW_HEX    = "",
    parameter HPM_NUM   = 29,    // implemented mhpmcounters (0..29)
    parameter HPM_WIDTH = 64,    // their width (1..64)
    parameter HPM_DSP   = 0,     // iCE40: SB_MAC16 blocks mcycle and minstret may use
    parameter CLINT_DSP = 0,     // iCE40: 1 keeps mtime in two SB_MAC16 blocks
    parameter HPM_ARCH  = 3,     // counting architecture 3 (the board's) or 2 (docs/hpm.md)
    parameter HPM_EV_ROM = 1,    // architecture 3: the refill's event bits from a ROM (hpm_a3_table)
    parameter HPM_TD    = 0      // 1: the top-down unit (the simulated board), 2: the iCE40 board's counts (hpm_topdown)
) (
    input  wire        clk,
    input  wire        rst,          // synchronous, active high
    input  wire [31:0] boot_addr,
    input  wire        uart_rx,
    output wire        uart_tx,
    output wire [4:0]  leds,
    input  wire [2:0]  buttons,

`include "core_trace_ports.vh"
);
    wire        bus_we;
    wire [3:0]  bus_be;
    wire [4:0]  bus_region;       // data access to {gpio, uart, clint, ram, fw}
    // partial address decode below: some upper address bits are not looked at
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:2] bus_addr, bus_daddr;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [31:0] bus_wdata;
    reg  [31:0] bus_rdata;
    wire        mtip, msip;
    wire [31:0] time_word;
    wire [1:0]  time_sel;

    hpm_cpu #(.HPM_NUM(HPM_NUM), .HPM_WIDTH(HPM_WIDTH), .HPM_DSP(HPM_DSP),
             .HPM_ARCH(HPM_ARCH), .HPM_EV_ROM(HPM_EV_ROM), .HPM_TD(HPM_TD)) u_cpu (
        .clk(clk), .rst(rst), .boot_addr(boot_addr),
        .bus_we(bus_we), .bus_be(bus_be), .bus_addr(bus_addr),
        .bus_daddr(bus_daddr), .bus_region(bus_region),
        .bus_wdata(bus_wdata), .bus_rdata(bus_rdata),
        .mtip(mtip), .msip(msip), .time_word(time_word), .time_sel(time_sel),
`include "core_trace_conn.vh"
    );

    // ---- address decode. The memories read bus_addr (the fetch or the data
    // address); a data access comes with its region (bus_region, the core's
    // exact decode of the data address bus_daddr), which selects the device
    // or memory written (an access outside every region faults in the core
    // and selects none). The read data is selected by the region of bus_addr,
    // registered with the request: the core checks every access against the
    // memory map (core_pma: fetches only read fw/ram), so a partial decode on
    // the bits that tell the five regions apart suffices and keeps it shallow:
    // ram 0x8..., uart/gpio 0x1000_0xxx/0x1000_1xxx, clint 0x02..., fw 0x0000_xxxx.
    localparam [31:0] FW_B = `HPM_FW_BASE, RAM_B = `HPM_RAM_BASE, CLINT_B = `HPM_CLINT_BASE,
                      UART_B = `HPM_UART_BASE, GPIO_B = `HPM_GPIO_BASE;
    generate
        if (!RAM_B[31] || FW_B[31] || CLINT_B[31] || UART_B[31] || GPIO_B[31] ||
            !UART_B[28] || !GPIO_B[28] || FW_B[28] || CLINT_B[28] ||
            UART_B[12] || !GPIO_B[12] || `HPM_UART_SIZE > 32'h1000 || `HPM_GPIO_SIZE > 32'h1000 ||
            !CLINT_B[25] || FW_B[25]) begin : g_bad_map
            // elaboration error: hw/soc/memmap.def moved a region off the bits decoded here
            memory_map_breaks_the_read_decode u_error ();
        end
    endgenerate
    wire sel_ram   = bus_addr[31];
    wire sel_uart  = !bus_addr[31] && bus_addr[28] && !bus_addr[12];
    wire sel_gpio  = !bus_addr[31] && bus_addr[28] &&  bus_addr[12];
    wire sel_clint = !bus_addr[31] && !bus_addr[28] && bus_addr[25];

    // The targets' read data is 0 in the cycle after a cycle that did not
    // read them (the RAM and fw by the partial decode of bus_addr, the
    // devices by their region), so the read data is their OR: one LUT level
    // per two sources instead of a multiplexer on a registered select.
    reg rd_fw;
    always @(posedge clk)
        rd_fw <= !sel_ram && !sel_clint && !sel_uart && !sel_gpio;

    wire [31:0] fw_rdata, ram_rdata, clint_rdata, uart_rdata, gpio_rdata;

    soc_fwram #(.WORDS(2048), .FW_HEX(FW_HEX)) u_fwram (
        .clk(clk), .addr(bus_addr[12:2]), .we(bus_region[0] && bus_we), .be(bus_be),
        .wdata(bus_wdata), .rdata(fw_rdata)
    );

    soc_spram u_ram (
        .clk(clk), .addr(bus_addr[16:2]), .re(sel_ram), .we(bus_region[1] && bus_we),
        .we_bank(bus_daddr[16]), .be(bus_be),
        .wdata(bus_wdata), .rdata(ram_rdata)
    );

    soc_clint #(.DSP(CLINT_DSP)) u_clint (
        .clk(clk), .rst(rst), .sel(bus_region[2]), .we(bus_we), .be(bus_be),
        .addr(bus_daddr[15:2]), .wdata(bus_wdata), .rdata(clint_rdata),
        .mtip(mtip), .msip(msip), .time_sel(time_sel), .time_word(time_word)
    );

    soc_uart #(.DIV(UART_DIV)) u_uart (
        .clk(clk), .rst(rst), .sel(bus_region[3]), .re(!bus_we), .we(bus_we),
        .be0(bus_be[0]), .addr(bus_daddr[7:2]), .wdata(bus_wdata[7:0]), .rdata(uart_rdata),
        .rx(uart_rx), .tx(uart_tx)
    );

    soc_gpio #(.CLOCK_HZ(CLOCK_HZ)) u_gpio (
        .clk(clk), .rst(rst), .sel(bus_region[4]), .we(bus_we), .be0(bus_be[0]),
        .addr(bus_daddr[7:2]), .wdata(bus_wdata[4:0]), .rdata(gpio_rdata),
        .leds(leds), .buttons(buttons)
    );

    always @(*)
        bus_rdata = ({32{rd_fw}} & fw_rdata) | ram_rdata | clint_rdata | uart_rdata | gpio_rdata;
endmodule
