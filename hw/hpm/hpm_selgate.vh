// A selector write's legalisation as a gate per bit of the row written
// (the written half from the CSR data, the other half kept), for the
// counter banks' selector stores: 0 in a written field that is not legal
// (ok: EVENT0..3, OP_TYPE0..2 legal, hpm_unit; EVENT3 straddles the halves
// and is checked merged with the kept one) and in the read-only-zero
// bits (ZERO) of a write; 0 everywhere when clr; all ones when nothing is written.
function [63:0] sel_gate_of(input clr, input evw, input hi, input [6:0] ok);
    reg g_ev0, g_ev1, g_ev2, g_ev3, g_op0, g_op1, g_op2, g_rz;
    begin
        g_ev0 = !clr && (!evw || hi || ok[0]);
        g_ev1 = !clr && (!evw || hi || ok[1]);
        g_ev2 = !clr && (!evw || hi || ok[2]);
        g_ev3 = !clr && (!evw || ok[3]);
        g_op0 = !clr && (!evw || !hi || ok[4]);
        g_op1 = !clr && (!evw || !hi || ok[5]);
        g_op2 = !clr && (!evw || !hi || ok[6]);
        g_rz  = !clr && !evw;
        // the fields' widths from hpm_map.vh (hw/csr.def), high to low
        sel_gate_of = {{(64 - `HPM_MHPMEVENT_UINH_LSB){!clr}}, {`HPM_MHPMEVENT_ZERO_W{g_rz}},
                       {`HPM_MHPMEVENT_OP_TYPE2_W{g_op2}}, {`HPM_MHPMEVENT_OP_TYPE1_W{g_op1}},
                       {`HPM_MHPMEVENT_OP_TYPE0_W{g_op0}}, {`HPM_MHPMEVENT_EVENT3_W{g_ev3}},
                       {`HPM_MHPMEVENT_EVENT2_W{g_ev2}}, {`HPM_MHPMEVENT_EVENT1_W{g_ev1}},
                       {`HPM_MHPMEVENT_EVENT0_W{g_ev0}}};
    end
endfunction
