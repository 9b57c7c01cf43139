// core_trace_conn.vh: the trace port connected to the same names one level
// up (core_trace_ports.vh); included as the last connections of an instance.
        .trace_valid(trace_valid), .trace_pc(trace_pc), .trace_insn(trace_insn),
        .trace_priv(trace_priv), .trace_trap(trace_trap), .trace_cause(trace_cause),
        .trace_tval(trace_tval), .trace_rd_we(trace_rd_we), .trace_rd(trace_rd),
        .trace_rd_val(trace_rd_val), .trace_csr_we(trace_csr_we),
        .trace_csr_addr(trace_csr_addr), .trace_csr_val(trace_csr_val),
        .trace_mem_we(trace_mem_we), .trace_mem_addr(trace_mem_addr),
        .trace_mem_wdata(trace_mem_wdata), .trace_mem_be(trace_mem_be)
