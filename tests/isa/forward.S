/* forward.S: dependency chains through the bypass: ALU->ALU, load->ALU,
 * load->store data, load->address, mul/div->use, csrr->use, jal link->use,
 * lui->addi->load address, and a long chain through every functional unit. */
#include "test_macros.h"
    RVTEST_CODE_BEGIN
    TEST 1
    li      a0, 1
    add     a1, a0, a0
    add     a2, a1, a0
    add     a3, a2, a1
    add     a4, a3, a2
    add     a5, a4, a3
    add     a6, a5, a4
    add     a7, a6, a5
    SIGCHK  a7, 34
    /* the same register rewritten back to back */
    TEST 2
    li      a0, 3
    addi    a0, a0, 1
    slli    a0, a0, 2
    xori    a0, a0, 0x55
    sub     a0, x0, a0
    SIGCHK  a0, -(((3 + 1) << 2) ^ 0x55)
    /* load -> use chains */
    TEST 3
    la      s0, fdata
    lw      a0, 0(s0)
    lw      a1, 4(s0)
    add     a2, a0, a1
    lw      a3, 0(s0)
    sw      a3, 12(s0)
    lw      a4, 12(s0)
    addi    a4, a4, 1
    SIGCHK  a2, 0x33
    SIGCHK  a4, 0x12
    /* load -> address -> load -> address */
    TEST 4
    la      a0, chain0
    lw      a0, 0(a0)
    lw      a0, 0(a0)
    lw      a0, 0(a0)
    SIGCHK  a0, 0xc0ffee
    /* mul/div results used at once */
    TEST 5
    li      a0, 12
    li      a1, 11
    mul     a2, a0, a1
    addi    a2, a2, 1
    divu    a3, a2, a1
    mul     a3, a3, a3
    remu    a4, a3, a0
    sub     a4, a4, a0
    SIGCHK  a2, 133
    SIGCHK  a3, 144
    SIGCHK  a4, -12
    /* csrr -> use, csrw of a just-computed value */
    TEST 6
    li      a0, 0x77
    addi    a0, a0, 1
    csrw    mscratch, a0
    csrr    a1, mscratch
    addi    a1, a1, 1
    csrrw   a2, mscratch, a1
    add     a2, a2, a1
    SIGCHK  a2, 0x78 + 0x79
    /* lui -> addi -> load */
    TEST 7
    lui     a0, %hi(fdata)
    addi    a0, a0, %lo(fdata)
    lw      a1, 4(a0)
    SIGCHK  a1, 0x22
    /* a store whose address and data both come from the instructions just
     * before */
    TEST 8
    la      a0, fdata
    addi    a0, a0, 8
    li      a1, 0x5a
    sw      a1, 0(a0)
    lw      a2, 8(s0)
    SIGCHK  a2, 0x5a
    /* branch comparing two just-loaded values */
    TEST 9
    lw      a0, 0(s0)
    lw      a1, 0(s0)
    bne     a0, a1, fail
    lw      a1, 4(s0)
    beq     a0, a1, fail
    /* x0 is never forwarded */
    TEST 10
    li      a0, 9
    add     x0, a0, a0
    add     a1, x0, x0
    SIGCHK  a1, 0
    lw      x0, 0(s0)
    add     a1, x0, a0
    SIGCHK  a1, 9
    j       pass
    RVTEST_CODE_END
    .data
    .balign 4
fdata:  .word 0x11, 0x22, 0, 0
chain0: .word chain1
chain1: .word chain2
chain2: .word 0xc0ffee
    RVTEST_DATA 24
