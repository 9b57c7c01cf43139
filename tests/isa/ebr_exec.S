/* ebr_exec.S: the fw region (8 KiB EBR at 0) is read/write/execute: copy a
 * function there, fence.i, call it from M, S and U; timing of EBR fetches is
 * the same as RAM (zero wait states: same mcycle delta); falling off the end
 * of the EBR is a fetch access fault. */
#include "test_macros.h"

#define EBR_FN 0x1000

    RVTEST_CODE_BEGIN
    /* copy fn (8 words) to EBR_FN */
    la      a0, fn
    li      a1, EBR_FN
    li      a2, 8
1:  lw      t1, 0(a0)
    sw      t1, 0(a1)
    addi    a0, a0, 4
    addi    a1, a1, 4
    addi    a2, a2, -1
    bnez    a2, 1b
    fence.i
    /* call in RAM and in EBR: same result, same cycles */
    TEST 1
    li      a0, 5
    csrr    s0, mcycle
    jal     ra, fn
    csrr    s1, mcycle
    sub     s2, s1, s0
    SIGCHK  a0, 5 * 9 + 3
    li      a0, 5
    li      t1, EBR_FN
    csrr    s0, mcycle
    jalr    ra, 0(t1)
    csrr    s1, mcycle
    sub     s3, s1, s0
    SIGCHK  a0, 5 * 9 + 3
    SIG     s2
    SIG     s3
    addi    s2, s2, 1       /* jal (1 cycle) vs jalr (2 cycles) */
    CHECKR  s2, s3
    /* from S and U */
    TEST 2
    ENTER_MODE PRV_S
    li      a0, 2
    li      t1, EBR_FN
    jalr    ra, 0(t1)
    mv      a1, a0
    ENTER_M
    CHECK   a1, 2 * 9 + 3
    TEST 3
    ENTER_MODE PRV_U
    li      a0, 3
    li      t1, EBR_FN
    jalr    ra, 0(t1)
    mv      a1, a0
    ENTER_M
    CHECK   a1, 3 * 9 + 3
    /* the last EBR word, then 0x2000: fetch access fault */
    TEST 4
    TRAP_CLEAR
    li      a0, 0x1ffc
    li      t1, 0x00000013     /* nop */
    sw      t1, 0(a0)
    fence.i
    la      s10, 2f
    jalr    ra, 0(a0)
2:  EXPECT_TRAP 1
    CHECK   s7, 0x2000
    CHECK   s6, 0x2000
    j       pass

fn:                             /* a0 = a0 * 9 + 3, position independent */
    slli    t2, a0, 3
    add     a0, a0, t2
    addi    a0, a0, 3
    ret
    nop
    nop
    nop
    nop
    RVTEST_CODE_END
    RVTEST_DATA 16
