// soc_gpio: five LEDs (read back), three buttons (read-only, synchronised) and
// clock_hz (read-only: the core clock in Hz, parameter CLOCK_HZ).
`include "hpm_map.vh"
module soc_gpio #(
    parameter [31:0] CLOCK_HZ = `HPM_SOC_CLOCK_HZ
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        sel,
    input  wire        we,
    input  wire        be0,          // byte 0 written
    input  wire [7:2]  addr,         // word offset in the region
    input  wire [4:0]  wdata,
    output reg  [31:0] rdata,
    output reg  [4:0]  leds,
    input  wire [2:0]  buttons
);
    reg [2:0] btn_meta, btn_q;

    always @(posedge clk) begin
        btn_meta <= buttons;
        btn_q    <= btn_meta;
        if (rst)
            leds <= 5'd0;
        else if (sel && we && addr == 6'd0 && be0)
            leds <= wdata;
        // 0 after a cycle without a GPIO access (hpm_soc ORs the read data)
        case (sel ? addr : 6'd63)
            6'd0:    rdata <= {27'd0, leds};
            6'd1:    rdata <= {29'd0, btn_q};
            6'd2:    rdata <= CLOCK_HZ;
            default: rdata <= 32'd0;
        endcase
    end
endmodule
