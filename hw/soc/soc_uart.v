// soc_uart: 8N1 UART with a fixed divisor of DIV clock cycles per bit
// (docs/memory-map.md). Registers: data (0x0), status (0x4: tx_busy,
// rx_valid, rx_overrun), div (0x8, read-only).
// tx: a store to data while idle in cycle t drives the start bit from t+1 and
// keeps tx_busy set through cycle t+10*DIV.
// rx: samples the synchronised line in the middle of each bit; a byte that
// arrives while rx_valid is set is dropped and sets rx_overrun.
`include "hpm_map.vh"
module soc_uart #(
    parameter DIV = `HPM_SOC_UART_DIV
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        sel,
    input  wire        re,           // load
    input  wire        we,           // store
    input  wire        be0,          // byte 0 written
    input  wire [7:2]  addr,         // word offset in the region
    input  wire [7:0]  wdata,
    output reg  [31:0] rdata,
    input  wire        rx,
    output wire        tx
);
    localparam CW = $clog2(DIV + 1);

    wire [5:0] reg_idx = addr;

    // ---- transmitter
    reg [9:0]    tx_sh;      // {stop, data, start}, LSB on the line
    reg [3:0]    tx_bits;    // bits still to send; busy while != 0
    reg [CW-1:0] tx_cnt;     // cycles left in the current bit
    wire tx_busy = tx_bits != 4'd0;
    assign tx = tx_busy ? tx_sh[0] : 1'b1;

    always @(posedge clk) begin
        if (rst) begin
            tx_bits <= 4'd0;
        end else if (!tx_busy) begin
            if (sel && we && reg_idx == 6'd0 && be0) begin
                tx_sh   <= {1'b1, wdata, 1'b0};
                tx_bits <= 4'd10;
                tx_cnt  <= DIV[CW-1:0] - 1'b1;
            end
        end else if (tx_cnt == {CW{1'b0}}) begin
            tx_sh   <= {1'b1, tx_sh[9:1]};
            tx_bits <= tx_bits - 4'd1;
            tx_cnt  <= DIV[CW-1:0] - 1'b1;
        end else begin
            tx_cnt  <= tx_cnt - 1'b1;
        end
    end

    // ---- receiver
    reg          rx_meta, rx_s;
    reg          rx_active;
    reg [3:0]    rx_bit;     // 0 start, 1..8 data, 9 stop
    reg [CW-1:0] rx_cnt;
    reg [7:0]    rx_sh;
    reg [7:0]    rx_data;
    reg          rx_valid, rx_overrun;
    wire         rd_data = sel && re && reg_idx == 6'd0;

    always @(posedge clk) begin
        rx_meta <= rx;
        rx_s    <= rx_meta;
        if (rst) begin
            rx_meta    <= 1'b1;
            rx_s       <= 1'b1;
            rx_active  <= 1'b0;
            rx_valid   <= 1'b0;
            rx_overrun <= 1'b0;
        end else begin
            if (rd_data) begin
                rx_valid   <= 1'b0;
                rx_overrun <= 1'b0;
            end
            if (!rx_active) begin
                if (!rx_s) begin                       // start bit edge
                    rx_active <= 1'b1;
                    rx_bit    <= 4'd0;
                    rx_cnt    <= DIV[CW-1:0] / 2 - 1'b1;
                end
            end else if (rx_cnt != {CW{1'b0}}) begin
                rx_cnt <= rx_cnt - 1'b1;
            end else begin                             // middle of a bit
                rx_cnt <= DIV[CW-1:0] - 1'b1;
                rx_bit <= rx_bit + 4'd1;
                if (rx_bit == 4'd0) begin
                    if (rx_s)
                        rx_active <= 1'b0;             // glitch, not a start bit
                end else if (rx_bit != 4'd9) begin
                    rx_sh <= {rx_s, rx_sh[7:1]};
                end else begin
                    rx_active <= 1'b0;
                    if (rx_s) begin                    // valid stop bit
                        if (rx_valid && !rd_data) begin
                            rx_overrun <= 1'b1;
                        end else begin
                            rx_data  <= rx_sh;
                            rx_valid <= 1'b1;
                        end
                    end
                end
            end
        end

        // 0 after a cycle without a UART access (hpm_soc ORs the read data)
        case (sel ? reg_idx : 6'd63)
            6'd0:    rdata <= {24'd0, rx_data};
            6'd1:    rdata <= {29'd0, rx_overrun, rx_valid, tx_busy};
            6'd2:    rdata <= DIV;
            default: rdata <= 32'd0;
        endcase
    end
endmodule
