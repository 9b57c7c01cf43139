// hpm_classes.vh: the cycle classes of both counting architectures
// (docs/hpm.md, "Counting architecture 2"). Included inside hpm_class, hpm_a2_store and
// hpm_a3_table, after hpm_events.vh (the HPM_EV_* indexes).
//
// This core's event vector takes one of 24 values per cycle: the top-down
// events partition every cycle (a bubble, a stall cycle, a trap cycle or the
// last X cycle of a retiring instruction) and at most one instruction class
// retires, so the vector is a function of a 5-bit kind. A cycle class is
// {priv, kind}: 7 bits, 128 table rows (priv 2 and kinds 24..31 never occur).
// The kinds are the reference model's segment kinds (host/ref/hpmref_int.h
// HK_*; HK_RESET and HK_BUB_FE, HK_R_ALU and HK_R_WFI have the same vector
// and share a kind here). The branch kinds start at a multiple of 4, so that
// hpm_class forms them from {miss, taken} without an adder (the class is on
// the board's event path, docs/decisions.md "The board's clock", cut E).
localparam [4:0] K_BUB_FE  = 5'd0,  K_BUB_MISP = 5'd1,  K_BUB_TRAP = 5'd2,
                 K_MEM     = 5'd3,  K_MD_STALL = 5'd4,  K_WFI_WAIT = 5'd5,
                 K_EXC     = 5'd6,  K_IRQ      = 5'd7,  K_R_ALU    = 5'd8,
                 K_R_LOAD  = 5'd9,  K_R_STORE  = 5'd10, K_R_JAL    = 5'd11,
                 K_R_BR    = 5'd12, // 12..15: + {miss, taken}, 4-aligned (no adder)
                 K_R_JALR  = 5'd16,
                 K_R_MUL   = 5'd17, K_R_DIV    = 5'd18, K_R_CSR    = 5'd19,
                 K_R_FENCE = 5'd20, K_R_FENCEI = 5'd21, K_R_XRET   = 5'd22,
                 K_SEL_WAIT = 5'd23;   // core-bound wait: a selector write's refill, a misaligned branch's first cycle

// the event vector of a kind (bit i = catalogue event i; bit 0 is 0)
function [63:0] kind_ev(input [4:0] k);
    reg [63:0] v, r;
    reg [1:0]  b;                                // a branch kind's {miss, taken}
    begin
        b = k[1:0] - K_R_BR[1:0];                // K_R_BR + {miss, taken}
        v = 64'd0;
        v[HPM_EV_CYCLES] = 1'b1;
        r = v;                                   // the last X cycle of a retiring instruction
        r[HPM_EV_INSTRUCTIONS] = 1'b1;
        r[HPM_EV_TOPDOWN_RETIRING] = 1'b1;
        case (k)
            K_BUB_FE, K_BUB_MISP, K_BUB_TRAP: begin
                v[HPM_EV_FETCH_STALL_CYCLES] = 1'b1;
                v[HPM_EV_TOPDOWN_FE_BOUND]       = k == K_BUB_FE;
                v[HPM_EV_TOPDOWN_FETCH_LATENCY]  = k == K_BUB_FE;
                v[HPM_EV_TOPDOWN_BAD_SPEC]       = k != K_BUB_FE;
                v[HPM_EV_TOPDOWN_BR_MISPREDICT]  = k == K_BUB_MISP;
                v[HPM_EV_TOPDOWN_MACHINE_CLEARS] = k == K_BUB_TRAP;
            end
            K_MEM: begin
                v[HPM_EV_MEM_STALL_CYCLES] = 1'b1;
                v[HPM_EV_TOPDOWN_BE_BOUND] = 1'b1;
                v[HPM_EV_TOPDOWN_MEM_BOUND] = 1'b1;
            end
            K_MD_STALL, K_WFI_WAIT, K_SEL_WAIT: begin
                v[HPM_EV_MULDIV_STALL_CYCLES] = k == K_MD_STALL;
                v[HPM_EV_WFI_CYCLES]          = k == K_WFI_WAIT;
                v[HPM_EV_TOPDOWN_BE_BOUND]    = 1'b1;
                v[HPM_EV_TOPDOWN_CORE_BOUND]  = 1'b1;
            end
            K_EXC, K_IRQ: begin
                v[HPM_EV_EXCEPTIONS] = k == K_EXC;
                v[HPM_EV_INTERRUPTS] = k == K_IRQ;
                v[HPM_EV_FLUSHES] = 1'b1;
                v[HPM_EV_TOPDOWN_BAD_SPEC] = 1'b1;
                v[HPM_EV_TOPDOWN_MACHINE_CLEARS] = 1'b1;
            end
            default: begin
                v = r;
                case (k)
                    K_R_LOAD:  v[HPM_EV_LOADS] = 1'b1;
                    K_R_STORE: v[HPM_EV_STORES] = 1'b1;
                    K_R_JAL:   v[HPM_EV_JUMPS] = 1'b1;
                    K_R_JALR:  begin v[HPM_EV_JUMPS] = 1'b1; v[HPM_EV_FLUSHES] = 1'b1; end
                    K_R_MUL:   v[HPM_EV_MUL] = 1'b1;
                    K_R_DIV:   v[HPM_EV_DIV] = 1'b1;
                    K_R_CSR:   v[HPM_EV_CSR_INSTRUCTIONS] = 1'b1;
                    K_R_FENCE: v[HPM_EV_FENCES] = 1'b1;
                    K_R_FENCEI: begin v[HPM_EV_FENCES] = 1'b1; v[HPM_EV_FLUSHES] = 1'b1; end
                    K_R_XRET:  v[HPM_EV_FLUSHES] = 1'b1;
                    default:
                        if (k >= K_R_BR && k < K_R_BR + 5'd4) begin
                            v[HPM_EV_BRANCHES] = 1'b1;
                            v[HPM_EV_BRANCHES_TAKEN] = b[0];
                            v[HPM_EV_BRANCH_MISSES] = b[1];
                            v[HPM_EV_FLUSHES] = b[1];   // a misprediction redirects
                        end
                endcase
            end
        endcase
        kind_ev = v;
    end
endfunction
