// tb_muldiv_netlist: core_muldiv as the board flow synthesises it (its
// SB_MAC16 multiplier registered at both ends) against the RV32M results,
// for every mul/div/rem operation: operands near the signed and unsigned
// edges (0, 1, -1, +-2^31, 0xffff digits) and random ones, each operation
// run over its whole step sequence as hpm_core drives it (a and b held,
// the result taken in the step that raises last). The DUT is the netlist
// of make board-muldiv-netlist (yosys write_verilog), simulated with yosys'
// iCE40 cell models by the board suite (iverilog); prints "PASS ..." or
// "FAIL ...".
`timescale 1ns/1ps
module tb_muldiv_netlist;
    parameter integer NRAND = 400;      // random operations after the edges
    reg         clk = 1'b0;
    reg         is_mul = 1'b0, is_div = 1'b0;
    reg  [5:0]  step = 6'd0;
    reg  [1:0]  funct = 2'd0;
    reg  [31:0] a = 32'd0, b = 32'd0;
    wire        last;
    wire [31:0] result;
    core_muldiv u_dut (
        .clk(clk), .is_mul(is_mul), .is_div(is_div), .step(step), .funct(funct),
        .a(a), .b(b), .last(last), .result(result)
    );
    always #5 clk = !clk;

    // the RV32M result of op (0..3 mul mulh mulhsu mulhu, 4..7 div divu rem remu)
    function [31:0] rv32m(input [2:0] op, input [31:0] x, input [31:0] y);
        reg [63:0] p;
        begin
            case (op)
            3'd0: p = x * y;
            3'd1: p = $signed({{32{x[31]}}, x}) * $signed({{32{y[31]}}, y});
            3'd2: p = $signed({{32{x[31]}}, x}) * $signed({32'd0, y});
            3'd3: p = {32'd0, x} * {32'd0, y};
            default: p = 64'd0;
            endcase
            if (op < 3'd4)
                rv32m = op == 3'd0 ? p[31:0] : p[63:32];
            else if (y == 32'd0)
                rv32m = op[1] ? x : 32'hffffffff;
            else if (!op[0] && x == 32'h80000000 && y == 32'hffffffff)
                rv32m = op[1] ? 32'd0 : x;
            else if (op == 3'd4)
                rv32m = $signed(x) / $signed(y);
            else if (op == 3'd5)
                rv32m = x / y;
            else if (op == 3'd6)
                rv32m = $signed(x) % $signed(y);
            else
                rv32m = x % y;
        end
    endfunction

    // the step in which each operation ends (docs/timing.md: latency - 1)
    function [5:0] last_step(input [2:0] op);
        last_step = op == 3'd0 ? 6'd4 : op < 3'd4 ? 6'd5 : op < 3'd6 ? 6'd33 : 6'd34;
    endfunction

    integer errors = 0, runs = 0, i, j, k;
    reg [31:0] got, want;
    reg [31:0] edges [0:7];
    reg        seen;

    task run(input [2:0] op, input [31:0] x, input [31:0] y);
        begin
            @(negedge clk);
            a = x; b = y; funct = op[1:0]; is_mul = !op[2]; is_div = op[2];
            step = 6'd0; seen = 1'b0;
            while (!seen) begin
                #1;
                if (last) begin
                    seen = 1'b1;
                    got = result;
                    if (step != last_step(op)) begin
                        if (errors < 10) $display("FAIL op %0d: last in step %0d, not %0d", op, step, last_step(op));
                        errors = errors + 1;
                    end
                end else if (step == 6'd40) begin
                    seen = 1'b1;
                    got = 32'hx;
                end
                @(negedge clk);
                step = step + 6'd1;
            end
            is_mul = 1'b0; is_div = 1'b0;
            want = rv32m(op, x, y);
            runs = runs + 1;
            if (got !== want) begin
                if (errors < 10) $display("FAIL op %0d a %h b %h: %h, want %h", op, x, y, got, want);
                errors = errors + 1;
            end
        end
    endtask

    initial begin
        edges[0] = 32'd0;          edges[1] = 32'd1;          edges[2] = 32'hffffffff;
        edges[3] = 32'h80000000;   edges[4] = 32'h7fffffff;   edges[5] = 32'h0000ffff;
        edges[6] = 32'hffff8000;   edges[7] = 32'hfffffff9;
        // a few idle cycles first: the DSP registers start at 0 in the model
        repeat (3) @(negedge clk);
        for (k = 0; k < 8; k = k + 1)
            for (i = 0; i < 8; i = i + 1)
                for (j = 0; j < 8; j = j + 1)
                    run(k[2:0], edges[i], edges[j]);
        for (i = 0; i < NRAND; i = i + 1)
            run($random & 7, $random, (i & 3) == 0 ? ($random & 32'hff) : $random);
        if (errors == 0)
            $display("PASS muldiv netlist (SB_MAC16 registered): %0d operations exact (all 8 RV32M ops, edges and random)", runs);
        else
            $display("FAIL muldiv netlist: %0d of %0d operations wrong", errors, runs);
        $finish;
    end
endmodule
