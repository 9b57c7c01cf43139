// core_pma: physical memory attributes of the SoC memory map
// (docs/memory-map.md). EXEC = 1: may the address be fetched from (fw, ram)?
// EXEC = 0: may it be loaded/stored (any region)? region: the region the
// address is in, one-hot {gpio, uart, clint, ram, fw} (exact decode), with
// the M-only parts cleared when guard is set (an access below M with
// mguard set: such an access goes nowhere and faults). monly: the address
// is in an M-only region or window (memmap.def); with EXEC = 1 only among
// the executable regions (a fetch from the others faults anyway).
`include "hpm_map.vh"
module core_pma #(
    parameter        EXEC       = 1,
    parameter [31:0] FW_BASE    = `HPM_FW_BASE,
    parameter [31:0] FW_SIZE    = `HPM_FW_SIZE,
    parameter [31:0] CLINT_BASE = `HPM_CLINT_BASE,
    parameter [31:0] CLINT_SIZE = `HPM_CLINT_SIZE,
    parameter [31:0] UART_BASE  = `HPM_UART_BASE,
    parameter [31:0] UART_SIZE  = `HPM_UART_SIZE,
    parameter [31:0] GPIO_BASE  = `HPM_GPIO_BASE,
    parameter [31:0] GPIO_SIZE  = `HPM_GPIO_SIZE,
    parameter [31:0] RAM_BASE   = `HPM_RAM_BASE,
    parameter [31:0] RAM_SIZE   = `HPM_RAM_SIZE
) (
    input  wire [31:0] addr,
    input  wire        guard,
    output wire        ok,
    output wire [4:0]  region,
    output wire        monly
);
    // Sizes are powers of two and bases are size-aligned: compare the upper bits.
    wire in_fw    = (addr & ~(FW_SIZE - 1))    == FW_BASE;
    wire in_ram   = (addr & ~(RAM_SIZE - 1))   == RAM_BASE;
    wire in_clint = (addr & ~(CLINT_SIZE - 1)) == CLINT_BASE;
    wire in_uart  = (addr & ~(UART_SIZE - 1))  == UART_BASE;
    wire in_gpio  = (addr & ~(GPIO_SIZE - 1))  == GPIO_BASE;
    wire in_win   = `HPM_MONLY_WIN(addr);

    wire [4:0] in_r  = {in_gpio, in_uart, in_clint, in_ram, in_fw};
    wire [4:0] mo_r  = {`HPM_GPIO_MONLY, `HPM_UART_MONLY, `HPM_CLINT_MONLY, `HPM_RAM_MONLY, `HPM_FW_MONLY};
    // a window lies inside one region: it clears only that region's bit
    assign region = in_r & ~({5{guard}} & (mo_r | {5{in_win}}));
    wire [4:0] ex_r  = EXEC ? 5'b00011 : 5'b11111;   // fw, ram
    assign monly  = (in_r & mo_r & ex_r) != 5'd0 || in_win;
    wire mem = in_fw || in_ram;
    assign ok = EXEC ? mem : (mem || in_clint || in_uart || in_gpio);
endmodule
