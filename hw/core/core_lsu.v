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

    output wire        misaligned,
    output wire        fault,        // access fault (outside every region)
    output wire [4:0]  region,       // the region of addr (core_pma)

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
    wire data_ok;
    core_pma #(.EXEC(0)) u_pma (.addr(addr), .ok(data_ok), .region(region));
    assign fault = mem && !misaligned && !data_ok;

    assign bus_we    = is_store;
    // the store data in its byte lanes, other lanes zero
    wire [31:0] st_size = funct3[1:0] == 2'b00 ? {24'd0, store_val[7:0]} :
                          funct3[1:0] == 2'b01 ? {16'd0, store_val[15:0]} : store_val;
    assign bus_wdata = st_size << {addr[1:0], 3'b000};
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
            st_wdata <= bus_wdata;
            st_be    <= bus_be;
        end
    end

    wire [31:0] word = bus_rdata >> {ofs, 3'b000};
    always @(*) begin
        case (funct3)
            3'b000:  load_data = {{24{word[7]}}, word[7:0]};
            3'b001:  load_data = {{16{word[15]}}, word[15:0]};
            3'b100:  load_data = {24'd0, word[7:0]};
            3'b101:  load_data = {16'd0, word[15:0]};
            default: load_data = word;
        endcase
    end
endmodule
