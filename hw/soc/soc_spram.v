// soc_spram: 128 KiB work RAM (32K x 32), one cycle of read latency, byte
// write enables. On the UP5K it is the four SB_SPRAM256KA (16K x 16 each):
// two side by side for 32 bits, two deep for 32K words. Elsewhere a
// behavioural model with the same timing. rdata is 0 in the cycle after a
// cycle without re (hpm_soc ORs it into the read data).
module soc_spram (
    input  wire        clk,
    input  wire [14:0] addr,     // word address
    input  wire        re,       // the address is the RAM's: rdata next cycle
    input  wire        we,
    input  wire        we_bank,  // the bank written: addr[14] when we (given early)
    input  wire [3:0]  be,
    input  wire [31:0] wdata,
    output wire [31:0] rdata
);
`ifdef SYNTHESIS
    reg         rd0_q, rd1_q;    // the last cycle read bank 0 / bank 1
    wire [15:0] lo0, hi0, lo1, hi1;
    wire        we0 = we && !we_bank;
    wire        we1 = we &&  we_bank;
    wire [3:0]  mlo = {{2{be[1]}}, {2{be[0]}}};   // nibble masks
    wire [3:0]  mhi = {{2{be[3]}}, {2{be[2]}}};

    SB_SPRAM256KA u_lo0 (.ADDRESS(addr[13:0]), .DATAIN(wdata[15:0]), .MASKWREN(mlo),
        .WREN(we0), .CHIPSELECT(1'b1), .CLOCK(clk), .STANDBY(1'b0), .SLEEP(1'b0),
        .POWEROFF(1'b1), .DATAOUT(lo0));
    SB_SPRAM256KA u_hi0 (.ADDRESS(addr[13:0]), .DATAIN(wdata[31:16]), .MASKWREN(mhi),
        .WREN(we0), .CHIPSELECT(1'b1), .CLOCK(clk), .STANDBY(1'b0), .SLEEP(1'b0),
        .POWEROFF(1'b1), .DATAOUT(hi0));
    SB_SPRAM256KA u_lo1 (.ADDRESS(addr[13:0]), .DATAIN(wdata[15:0]), .MASKWREN(mlo),
        .WREN(we1), .CHIPSELECT(1'b1), .CLOCK(clk), .STANDBY(1'b0), .SLEEP(1'b0),
        .POWEROFF(1'b1), .DATAOUT(lo1));
    SB_SPRAM256KA u_hi1 (.ADDRESS(addr[13:0]), .DATAIN(wdata[31:16]), .MASKWREN(mhi),
        .WREN(we1), .CHIPSELECT(1'b1), .CLOCK(clk), .STANDBY(1'b0), .SLEEP(1'b0),
        .POWEROFF(1'b1), .DATAOUT(hi1));

    always @(posedge clk) begin
        rd0_q <= re && !addr[14];
        rd1_q <= re &&  addr[14];
    end
    assign rdata = ({32{rd1_q}} & {hi1, lo1}) | ({32{rd0_q}} & {hi0, lo0});
`else
    reg [31:0] mem [0:32767] /* verilator public */;
    reg [31:0] q;
    reg        rd_q;

    always @(posedge clk) begin
        if (we) begin
            if (be[0]) mem[addr][7:0]   <= wdata[7:0];
            if (be[1]) mem[addr][15:8]  <= wdata[15:8];
            if (be[2]) mem[addr][23:16] <= wdata[23:16];
            if (be[3]) mem[addr][31:24] <= wdata[31:24];
        end
        q <= mem[addr];
        rd_q <= re;
        if (we && we_bank != addr[14]) begin
            $display("soc_spram: we_bank %b disagrees with the address %h", we_bank, addr);
            $fatal;
        end
    end
    assign rdata = rd_q ? q : 32'd0;
`endif
endmodule
