/* fencei.S: self-modifying code made visible by fence.i: patch a function,
 * patch the instruction right after the fence.i, patch a loop body. */
#include "test_macros.h"
    RVTEST_CODE_BEGIN
    TEST 1
    call    func
    SIGCHK  a0, 1
    la      t1, func
    li      t2, 0x00200513      /* addi a0, x0, 2 */
    sw      t2, 0(t1)
    fence.i
    call    func
    SIGCHK  a0, 2
    /* the instruction right after fence.i */
    TEST 2
    la      t1, 1f
    li      t2, 0x00700593      /* addi a1, x0, 7 */
    sw      t2, 0(t1)
    fence.i
1:  addi    a1, x0, 3
    SIGCHK  a1, 7
    /* rewrite a loop body between two runs (byte and half stores) */
    TEST 3
    li      a2, 0
3:  li      a3, 4
    li      a4, 0
2:  addi    a4, a4, 1           /* patched to addi a4, a4, 5 */
    addi    a3, a3, -1
    bnez    a3, 2b
    bnez    a2, 4f
    SIGCHK  a4, 4
    la      t1, 2b
    li      t2, 0x57            /* byte 2 = imm[3:0] << 4 | rs1[4:1] (a4 = x14) */
    sb      t2, 2(t1)
    fence.i
    li      a2, 1
    j       3b
4:  SIGCHK  a4, 20
    /* restore func for determinism of a second run, then patch via sh */
    TEST 4
    la      t1, func
    li      t2, 0x0513          /* low half of addi a0, x0, imm */
    sh      t2, 0(t1)
    li      t2, 0x0090          /* high half: imm = 9 */
    sh      t2, 2(t1)
    fence.i
    call    func
    SIGCHK  a0, 9
    /* without fence.i (docs/timing.md, clarifications): the instruction
     * right after a store was already fetched and runs unchanged; the one
     * after it is fetched late enough to see the new word */
    TEST 5
    la      t1, 5f
    li      t2, 0x00b00593      /* addi a1, x0, 11 */
    li      t3, 0x00c00613      /* addi a2, x0, 12 */
    sw      t3, 4(t1)
    sw      t2, 0(t1)
5:  addi    a1, x0, 1           /* already fetched: stays 1 */
    addi    a2, x0, 2           /* patched before it was fetched: 12 */
    SIGCHK  a1, 1
    SIGCHK  a2, 12
    EXPECT_NO_TRAP
    j       pass
func:
    addi    a0, x0, 1
    ret
    RVTEST_CODE_END
    RVTEST_DATA 16
