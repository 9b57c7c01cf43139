/* timing.S: the cycle cost of every instruction class (docs/timing.md),
 * measured with mcycle around a sequence: delta = 1 (the first csrr) + the
 * sequence's cycles. Also minstret per class. */
#include "test_macros.h"

.macro TSTART
    csrr    a0, mcycle
.endm
.macro TEND n, exp
    csrr    a1, mcycle
    TEST    \n
    sub     a2, a1, a0
    SIGCHK  a2, \exp
.endm
.macro ISTART
    csrr    a0, minstret
.endm
.macro IEND n, exp
    csrr    a1, minstret
    TEST    \n
    sub     a2, a1, a0
    SIGCHK  a2, \exp
.endm

    RVTEST_CODE_BEGIN
    la      s0, tbuf
    /* nothing in between: the csrr itself */
    TSTART
    TEND    1, 1
    /* 10 ALU ops: 10 */
    TSTART
    .rept 10
    addi    a3, a3, 1
    .endr
    TEND    2, 11
    /* lui/auipc, reg-reg incl. shifts: 1 each */
    TSTART
    lui     a3, 0x12345
    auipc   a4, 0
    sll     a5, a3, a4
    sra     a5, a5, a3
    sltu    a5, a5, a3
    TEND    3, 6
    /* 5 loads: 2 each */
    TSTART
    lw      a3, 0(s0)
    lh      a3, 2(s0)
    lb      a3, 3(s0)
    lhu     a3, 0(s0)
    lbu     a3, 1(s0)
    TEND    4, 11
    /* 5 stores: 2 each */
    TSTART
    sw      a3, 4(s0)
    sh      a3, 8(s0)
    sb      a3, 9(s0)
    sw      a3, 12(s0)
    sb      a3, 15(s0)
    TEND    5, 11
    /* load-use: no extra penalty */
    TSTART
    lw      a3, 0(s0)
    addi    a3, a3, 1
    lw      a4, 0(s0)
    sw      a4, 4(s0)
    TEND    6, 8
    /* mul family: mul 5, mulh/mulhsu/mulhu 6, dependent or not */
    TSTART
    mul     a3, a0, a0
    mulh    a3, a3, a3
    mulhsu  a4, a3, a0
    mulhu   a5, a4, a4
    TEND    7, 24
    /* div family: div/divu 34, rem/remu 35, also /0 and overflow */
    li      a4, 0
    li      a5, -1
    li      a6, 0x80000000
    TSTART
    div     a3, a0, a5
    divu    a3, a0, a4
    rem     a3, a6, a5
    remu    a3, a0, a0
    TEND    8, 139
    /* jal: 1 */
    TSTART
    jal     x0, 1f
1:  jal     ra, 1f
1:
    TEND    9, 3
    /* jalr: 2 */
    TSTART
    la      a3, 1f          /* auipc + addi: 2 */
    jalr    x0, 0(a3)
1:
    TEND    10, 5
    /* forward branch not taken (predicted not taken): 1 */
    TSTART
    bne     x0, x0, fail
    beq     a0, x0, fail
    TEND    11, 3
    /* forward branch taken (mispredicted): 2 */
    TSTART
    beq     x0, x0, 1f
1:  bne     a0, x0, 1f
1:
    TEND    12, 5
    /* backward taken (predicted): j(1) + beq(1) + j(1) */
    TSTART
    j       2f
1:  j       3f
2:  beq     x0, x0, 1b
3:
    TEND    13, 4
    /* backward not taken (mispredicted): j(1) + bne(2) */
    TSTART
    j       2f
1:  j       fail
2:  bne     x0, x0, 1b
    TEND    14, 4
    /* a 3-instruction loop, 10 iterations: 1 + 10*3 + 1 */
    li      a4, 0
    TSTART
    li      a3, 10
1:  addi    a4, a4, 1
    addi    a3, a3, -1
    bnez    a3, 1b
    TEND    15, 33
    /* csr ops: 1 each; a write to a CSR kept in the register file EBR
     * (xscratch, xepc, xtval) with rd != x0: 2 (it refetches pc+4) */
    TSTART
    csrr    a3, mscratch
    csrw    mscratch, a3
    csrrsi  a3, mscratch, 0
    csrrci  a3, mscratch, 0
    TEND    16, 5
    TSTART
    csrr    a3, mcounteren
    csrw    mcounteren, a3
    csrrw   a3, mcounteren, a3
    csrrsi  a3, mcounteren, 0
    TEND    25, 5
    TSTART
    csrrw   a3, mtval, a3
    csrrw   a3, mtval, a3
    csrrs   a3, stval, x0
    csrrc   a3, sepc, a3
    csrw    mtval, a3
    csrrwi  x0, sscratch, 5
    TEND    26, 10
    /* fence: 1; fence.i: 2 */
    TSTART
    fence
    fence   rw, rw
    TEND    17, 3
    TSTART
    fence.i
    TEND    18, 3
    /* mret to the next instruction: 2 */
    li      a3, MSTATUS_MPP
    csrs    mstatus, a3
    la      a3, 1f
    csrw    mepc, a3
    TSTART
    mret
1:
    TEND    19, 3
    /* sfence.vma in M: 1 */
    TSTART
    sfence.vma
    TEND    20, 2
    /* branch after a load of its operand: no extra */
    TSTART
    lw      a3, 0(s0)
    beq     a3, x0, fail
    TEND    21, 4
    /* minstret: one per retired instruction, whatever its cost */
    ISTART
    lw      a3, 0(s0)
    div     a3, a3, a0
    mul     a3, a3, a3
    jal     x0, 1f
1:  beq     x0, x0, 1f
1:  nop
    IEND    22, 7
    /* an exception costs 2 cycles to the handler and does not retire.
     * M handler path for an ecall with s4 = s10 = 0: 17 instructions, of
     * which beqz s4 is a taken forward branch (2) and mret (2): 19 cycles */
    TRAP_CLEAR
    ISTART
    ecall
    IEND    23, 1 + 17
    EXPECT_TRAP 11
    TRAP_CLEAR
    TSTART
    ecall
    TEND    24, 1 + 2 + 19
    EXPECT_TRAP 11
    /* a load/store access fault traps in its second X cycle (the first
     * accesses nothing): 2 cycles + redirect to the handler, 3; a
     * misaligned one traps in its first, 2; none retires */
    li      a4, BAD_ADDR
    TRAP_CLEAR
    TSTART
    lw      a3, 0(a4)
    TEND    27, 1 + 3 + 19
    EXPECT_TRAP 5
    TRAP_CLEAR
    TSTART
    sb      a3, 1(a4)
    TEND    28, 1 + 3 + 19
    EXPECT_TRAP 7
    TRAP_CLEAR
    TSTART
    lh      a3, 1(s0)
    TEND    29, 1 + 2 + 19
    EXPECT_TRAP 4
    TRAP_CLEAR
    ISTART
    sw      a3, 0(a4)
    IEND    30, 1 + 17
    EXPECT_TRAP 7
    /* a conditional branch whose target has bit 1 set takes a second X
     * cycle (docs/timing.md): not taken it retires there, 2 (+1 if it was
     * predicted taken); taken it traps there, 2 + redirect */
    TRAP_CLEAR
    TSTART
    .word   0x00001363              /* bne x0, x0, .+6: not taken */
    TEND    31, 1 + 2
    TSTART
    .word   0xfe001de3              /* bne x0, x0, .-6: not taken, predicted taken */
    TEND    32, 1 + 3
    EXPECT_NO_TRAP
    TSTART
    .word   0x00000363              /* beq x0, x0, .+6: taken, traps */
    TEND    33, 1 + 3 + 19
    EXPECT_TRAP 0
    j       pass
    RVTEST_CODE_END
    .data
    .balign 4
tbuf:   .word 0x80402010, 0, 0, 0, 0
    RVTEST_DATA 34
