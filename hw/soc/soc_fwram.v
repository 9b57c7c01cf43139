// soc_fwram: firmware memory, WORDS x 32 bits of EBR with byte write enables
// and a registered read port (one cycle of latency). Initialised from FW_HEX
// ($readmemh, one 32-bit word a line) when FW_HEX is not empty.
//
// The read port is disabled in a write cycle (rdata holds): nobody uses the
// data of a store's cycle (the SPRAM's is undefined too), and a read of the
// old word under the write would make yosys emulate read-first on the EBR
// with flip-flops and LUTs of write delay and bypass.
module soc_fwram #(
    parameter WORDS  = 2048,
    parameter FW_HEX = ""
) (
    input  wire                     clk,
    input  wire [$clog2(WORDS)-1:0] addr,     // word address
    input  wire                     we,
    input  wire [3:0]               be,
    input  wire [31:0]              wdata,
    output reg  [31:0]              rdata
);
    reg [31:0] mem [0:WORDS-1] /* verilator public */;

    initial begin
        if (FW_HEX != "")
            $readmemh(FW_HEX, mem);
    end

    always @(posedge clk) begin
        if (we) begin
            if (be[0]) mem[addr][7:0]   <= wdata[7:0];
            if (be[1]) mem[addr][15:8]  <= wdata[15:8];
            if (be[2]) mem[addr][23:16] <= wdata[23:16];
            if (be[3]) mem[addr][31:24] <= wdata[31:24];
        end else
            rdata <= mem[addr];
    end
endmodule
