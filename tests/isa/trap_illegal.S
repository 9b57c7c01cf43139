/* trap_illegal.S: illegal-instruction exceptions (cause 2, mepc = the
 * instruction) for reserved opcodes and encodings outside RV32IM + Zicsr +
 * Zifencei + the privileged instructions. mtval holds either the instruction
 * bits or 0 (docs: which one the core chose); it is checked to be one of the
 * two and dumped to the signature, which hpm-ref and hpm-sim must agree on. */
#include "test_macros.h"

.macro ILL n, word
    TEST    \n
    TRAP_CLEAR
1:  .word   \word
    EXPECT_TRAP 2
    EXPECT_EPC 1b
    SIG     s7
    beqz    s7, 2f
    CHECK   s7, \word
2:
.endm

    RVTEST_CODE_BEGIN
    ILL  1, 0x00000000      /* all zeros */
    ILL  2, 0xffffffff      /* all ones */
    ILL  3, 0x00000001      /* 16-bit encoding (no C extension) */
    ILL  4, 0x00004002      /* 16-bit encoding, quadrant 2 */
    ILL  5, 0x0000007f      /* reserved >32-bit encoding */
    ILL  6, 0x08a58533      /* OP with funct7 0000100 */
    ILL  7, 0x40a5f533      /* and with funct7 0100000 */
    ILL  8, 0x40a59533      /* sll with funct7 0100000 */
    ILL  9, 0x02051513      /* slli a0, a0, 32 (shamt[5] set) */
    ILL 10, 0x40051513      /* slli with funct7 0100000 */
    ILL 11, 0x60055513      /* srli/srai with funct7 0110000 */
    ILL 12, 0x00053503      /* ld (RV64) */
    ILL 13, 0x00057503      /* load funct3 111 */
    ILL 14, 0x00a53023      /* sd (RV64) */
    ILL 15, 0x00a54023      /* store funct3 100 */
    ILL 16, 0x00002063      /* branch funct3 010 */
    ILL 17, 0x00003063      /* branch funct3 011 */
    ILL 18, 0x000010e7      /* jalr funct3 001 */
    ILL 19, 0x0000251b      /* OP-IMM-32 (RV64 addiw) */
    ILL 20, 0x00a5053b      /* OP-32 (RV64 addw) */
    ILL 21, 0x00b5252f      /* amoadd.w (no A) */
    ILL 22, 0x1005252f      /* lr.w (no A) */
    ILL 23, 0x00052007      /* flw (no F) */
    ILL 24, 0x00a52027      /* fsw (no F) */
    ILL 25, 0x00b50553      /* fadd.s (no F) */
    ILL 26, 0x00200073      /* uret (removed) */
    ILL 27, 0x7b200073      /* dret (no debug mode) */
    ILL 28, 0x00004073      /* SYSTEM funct3 100 */
    ILL 29, 0x0000200f      /* MISC-MEM funct3 010 */
    ILL 30, 0x0000000b      /* custom-0 */
    ILL 31, 0x0000005b      /* custom-2 */
    ILL 32, 0x0030200b      /* custom-0 with fields */
    ILL 33, 0x00100077      /* reserved opcode 1110111 (OP-V) */
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 40
