// core_trace_ports.vh: the core's trace port (docs/architecture-core.md,
// "Trace port"): one record per instruction, in its last X cycle. Declared
// by hpm_core and passed up unchanged by hpm_cpu and hpm_soc; included as
// the last entries of their port lists.
    output wire        trace_valid,
    output wire [31:0] trace_pc,
    output wire [31:0] trace_insn,
    output wire [1:0]  trace_priv,
    output wire        trace_trap,
    output wire [31:0] trace_cause,
    output wire [31:0] trace_tval,
    output wire        trace_rd_we,
    output wire [4:0]  trace_rd,
    output wire [31:0] trace_rd_val,
    output wire        trace_csr_we,
    output wire [11:0] trace_csr_addr,
    output wire [31:0] trace_csr_val,
    output wire        trace_mem_we,
    output wire [31:0] trace_mem_addr,
    output wire [31:0] trace_mem_wdata,
    output wire [3:0]  trace_mem_be
