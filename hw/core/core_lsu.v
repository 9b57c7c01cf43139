// core_lsu: loads and stores. In the first X cycle the address (from the ALU)
// is checked (alignment first, then the memory map) and, if fine, the access
// goes to the bus (hpm_core): stores write at the end of that cycle, loads get
// their word in the second cycle, where it is aligned and extended here.
module core_lsu (
    input  wire        clk,
    input  wire        first,        // first X cycle of the instruction in X
    input  wire        is_load,
    input  wire        is_store,
    input  wire [2:0]  funct3,
    input  wire [31:0] addr,
    input  wire [31:0] store_val,    // rs2
    input  wire        guard,        // the access is below M with mguard set (core_csr)

    output wire        misaligned,
    output wire        fault,        // access fault (outside every region, or M-only and guard)
    output wire [4:0]  region,       // the region of addr (core_pma): 0 when it faults

    output wire        bus_we,
    output reg  [3:0]  bus_be,
    output wire [31:0] bus_wdata,
    input  wire [31:0] bus_rdata,

    output reg  [31:0] load_data,    // second cycle of a load

    // the store just performed, held for the trace record (second cycle)
    output reg  [31:0] st_addr,
    output reg  [31:0] st_wdata,
    output reg  [3:0]  st_be
);
    wire mem = is_load || is_store;

    assign misaligned = mem && ((funct3[1:0] == 2'b01 && addr[0]) ||
                                (funct3[1:0] == 2'b10 && addr[1:0] != 2'b00));
    /* verilator lint_off UNUSEDSIGNAL */
    wire data_ok, data_monly;   // region says it all
    /* verilator lint_on UNUSEDSIGNAL */
    core_pma #(.EXEC(0)) u_pma (.addr(addr), .guard(guard), .ok(data_ok), .region(region),
                                .monly(data_monly));
    assign fault = mem && !misaligned && region == 5'd0;

    assign bus_we    = is_store;
    // the store data replicated into every byte lane (sb: 4 copies, sh: 2):
    // bus_be selects the lanes written, so no shifter is needed; the trace
    // record gets the enabled lanes only (st_wdata)
    assign bus_wdata = funct3[1:0] == 2'b00 ? {4{store_val[7:0]}} :
                       funct3[1:0] == 2'b01 ? {2{store_val[15:0]}} : store_val;
    wire [31:0] be_bits = {{8{bus_be[3]}}, {8{bus_be[2]}}, {8{bus_be[1]}}, {8{bus_be[0]}}};
    always @(*) begin
        case (funct3[1:0])
            2'b00:   bus_be = 4'b0001 << addr[1:0];
            2'b01:   bus_be = addr[1] ? 4'b1100 : 4'b0011;
            default: bus_be = 4'b1111;
        endcase
    end

    reg [1:0] ofs;   // byte offset of the load, for the second cycle
    always @(posedge clk) begin
        if (first) begin
            ofs      <= addr[1:0];
            st_addr  <= addr;
            st_wdata <= bus_wdata & be_bits;
            st_be    <= bus_be;
        end
    end

    // load alignment: a lw is aligned (ofs = 0) and a lh/lhu has ofs 0 or 2,
    // so the low byte is a 4:1 lane select, the second byte a 2:1 one, and
    // the upper half is the word's or the extension
    wire [7:0]  b0  = ofs == 2'd0 ? bus_rdata[7:0] : ofs == 2'd1 ? bus_rdata[15:8] :
                      ofs == 2'd2 ? bus_rdata[23:16] : bus_rdata[31:24];
    wire [7:0]  b1  = ofs[1] ? bus_rdata[31:24] : bus_rdata[15:8];
    wire        ext = !funct3[2] && (funct3[0] ? b1[7] : b0[7]);   // lb/lh sign
    always @(*) begin
        case (funct3[1:0])
            2'b00:   load_data = {{24{ext}}, b0};
            2'b01:   load_data = {{16{ext}}, b1, b0};
            default: load_data = {bus_rdata[31:16], b1, b0};
        endcase
    end
endmodule
