// The selector's OP combination (docs/hpm.md): OR 000, AND 001, XOR 010,
// ADD 100 (legal OP fields only; the CSR write makes every other value OR).
// One copy for every evaluator: the tables of architectures 2 and 3 and
// their refill evaluators; and the mode filter,
// which the cfg registers of mcycle/minstret share.
function [2:0] combine(input [2:0] o, input [2:0] a, input [2:0] b);
    case (o)
        3'b001:  combine = a & b;
        3'b010:  combine = a ^ b;
        3'b100:  combine = a + b;
        default: combine = a | b;
    endcase
endfunction

// MINH/SINH/UINH (inh[2:0]) inhibit privilege p (M 3, S 1, U 0)
function mode_inhibited(input [2:0] inh, input [1:0] p);
    mode_inhibited = (p == 2'b11 && inh[2]) || (p == 2'b01 && inh[1]) || (p == 2'b00 && inh[0]);
endfunction
