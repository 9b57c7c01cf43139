// hpm_bank_ports.vh: the port list of a counter bank, hpm_a2_bank and
// hpm_a3_bank (one port list, one semantics; hpm_unit chooses the bank).
// Included between a bank's "module ... #(...) (" and ");".
    input  wire            clk,
    input  wire            rst,
    input  wire [EV_W-1:0] ev,                // this cycle's events, bit i = event i
    input  wire [EV_W-1:0] ev_n,              // ... as if no interrupt were taken (the class)
    input  wire [1:0]      priv,              // this cycle's privilege mode
    input  wire [N-1:0]    inh,               // counter n's mcountinhibit bit
    input  wire [7:0]      left,              // the refill window: cycles left (0: closed)
    // the CSR access to a counter or selector (hpm_unit, docs/timing.md)
    input  wire [4:0]      idx,               // its index (mhpmcounter/mhpmevent idx, 3..)
    input  wire            impl,              // idx is implemented (3 .. 2 + N)
    input  wire            rsel,              // a selector (else a counter)
    input  wire            sel_hi,            // the selector's high half
    /* verilator lint_off UNUSEDSIGNAL */ // architecture 3's store reads at take, 2's at rd
    input  wire            take,              // the cycles before its read and before a write's commit
    input  wire            rd,                // its read cycle or its commit
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire            we_lo,             // a counter write of bits 31:0 (any index)
    input  wire            we_hi,             // ... of bits 63:32
    input  wire            sel_we,            // a selector write (any index, either half)
    input  wire [31:0]     wdata,
    input  wire [6:0]      wok,               // the written fields are legal (hpm_selgate.vh)
    output wire [63:0]     value,             // the counter or selector accessed (read cycle, commit)
    output wire [N-1:0]    of_rd,             // OF as read
    output wire            lcofi              // a counter wrapped with OF clear (mip.LCOFIP)
