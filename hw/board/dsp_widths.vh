// The counter widths that the DSP counter check synthesises and simulates
// (hw/board/tb_hpm_counter_dsp.v): both sides of every DSP split.
localparam integer DSP_NW = 11;
function integer dsp_width(input integer k);
    case (k)
        0: dsp_width = 3;   1: dsp_width = 5;   2: dsp_width = 16;  3: dsp_width = 31;
        4: dsp_width = 32;  5: dsp_width = 33;  6: dsp_width = 34;  7: dsp_width = 40;
        8: dsp_width = 48;  9: dsp_width = 63;  default: dsp_width = 64;
    endcase
endfunction
