// core_regfile: 32 x 32 integer register file plus 32 rows for the
// storage-only CSRs (hpm_core: rows 32-35 sscratch/sepc/-/stval, 48-51
// mscratch/mepc/-/mtval), two synchronous read ports and one write port; the
// rows cost nothing, the EBRs have 256 (only port 2 reads the CSR rows).
// Written as two copies of a read-before-write RAM so yosys maps
// each copy onto SB_RAM40_4K blocks (the read data is registered inside the
// EBR). x0 is never written and the array starts at zero, so it reads 0.
// Read-during-write to the same address is left undefined (no_rw_check, so
// yosys adds no collision logic); the core bypasses that case itself (hpm_core).
// re = 0 holds the read data (the EBRs' read enable): the core keeps a
// mul/div's operands there for all its X cycles.
module core_regfile (
    input  wire        clk,
    input  wire        re,
    input  wire [5:0]  raddr1,
    input  wire [5:0]  raddr2,
    output reg  [31:0] rdata1,
    output reg  [31:0] rdata2,
    input  wire        we,
    input  wire [5:0]  waddr,
    input  wire [31:0] wdata
);
    (* no_rw_check *) reg [31:0] bank1 [0:63];
    (* no_rw_check *) reg [31:0] bank2 [0:63];

    integer i;
    initial begin
        for (i = 0; i < 64; i = i + 1) begin
            bank1[i] = 32'd0;
            bank2[i] = 32'd0;
        end
    end

    wire write = we && (waddr != 6'd0);

    always @(posedge clk) begin
        if (write) begin
            bank1[waddr] <= wdata;
            bank2[waddr] <= wdata;
        end
        if (re) begin
            rdata1 <= bank1[raddr1];
            rdata2 <= bank2[raddr2];
        end
    end
endmodule
