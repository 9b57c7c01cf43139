// hpm_a2_selstore: the mhpmevent registers of counting architecture 2
// (docs/hpm.md, "Counting architecture 2"). The legal selector values live
// in a memory (spare EBR rows on the iCE40), written only by CSR writes; the
// OF bits, which hardware sets on a wrap, are flip-flops. The increment does
// not come from here (the table in hpm_a2_store holds every selector's
// increment per cycle class), so nothing reads the selectors per cycle.
//
// A write stores the value after the write (hpm_a2_bank merges the half and
// legalises it); OF is set on a wrap, which wins over a software write of
// the high half in that cycle.
// Architecture 3 keeps its selectors in hpm_a3_store.
module hpm_a2_selstore #(
    parameter integer N = 29                  // selectors (>= 1)
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         we,                   // a write of selector widx (either half)
    input  wire         we_hi,                // ... of its high half (OF written)
    input  wire [4:0]   widx,                 // 0..N-1
    input  wire [63:0]  wval,                 // the selector after the write, legal
    input  wire [4:0]   ridx,                 // 0..N-1
    input  wire         rd,                   // rvalue is used in this cycle (a read or a write)
    output wire [63:0]  rvalue,               // selector ridx at the start of this cycle; 0 unless rd
    input  wire [N-1:0] set_of,               // counter n wraps in this cycle
    output wire [N-1:0] of
);
    reg [62:0]     sel [0:31];                // bits 62:0 of each selector; N and up unused
    /* verilator lint_off UNUSEDSIGNAL */ // bits N and up stay 0
    reg [31:0]     of_q;
    /* verilator lint_on UNUSEDSIGNAL */

    integer i;
    always @(posedge clk) begin
        if (rst) begin
            for (i = 0; i < N; i = i + 1)
                sel[i] <= 63'd0;
            of_q <= 32'd0;
        end else begin
            if (we)
                sel[widx] <= wval[62:0];
            if (we && we_hi)
                of_q[widx] <= wval[63];
            // a wrap sets OF whatever the write says (after it: wins)
            if (set_of != {N{1'b0}})
                of_q <= (we && we_hi ? (of_q & ~(32'd1 << widx)) | ({31'd0, wval[63]} << widx) : of_q) |
                        {{(32 - N){1'b0}}, set_of};
        end
    end

    assign rvalue = rd ? {of_q[ridx], sel[ridx]} : 64'd0;
    assign of     = of_q[N-1:0];
endmodule
