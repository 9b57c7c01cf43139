// The selector's OP combination (docs/hpm.md): OR 000, AND 001, XOR 010,
// ADD 100 (legal OP fields only; the CSR write makes every other value OR).
// One copy for every evaluator: architecture 1's selector, the tables of
// architectures 2 and 3 and their refill evaluators.
function [2:0] combine(input [2:0] o, input [2:0] a, input [2:0] b);
    case (o)
        3'b001:  combine = a & b;
        3'b010:  combine = a ^ b;
        3'b100:  combine = a + b;
        default: combine = a | b;
    endcase
endfunction
