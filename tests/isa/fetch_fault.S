/* fetch_fault.S: a fetch access fault from each source of the fetch
 * address (the bus address mux of hw/core/hpm_core.v, whose PMA check is
 * made per source): an xret's target, a mispredicted branch's target and
 * its pc+4, a predicted jal's target, the next sequential pc, an
 * exception's vector and an interrupt's vector. The fault is cause 1 with
 * mepc = mtval = the address fetched (trap_access.S covers jalr). */
#include "test_macros.h"

#define RAM_END   (HPM_RAM_BASE + HPM_RAM_SIZE)
#define NO_VECTOR 0x00004000        /* a legal xtvec BASE in no region */

/* run the instruction word `insn` from the last word of RAM; it fetches
 * `addr`, which faults */
.macro LAST_WORD_AF n, insn, addr
    TEST    \n
    TRAP_CLEAR
    li      a0, (RAM_END - 4)
    li      a1, \insn
    sw      a1, 0(a0)
    fence.i
    la      s10, 2f
    jalr    ra, 0(a0)
2:  EXPECT_TRAP 1
    CHECK   s6, \addr
    CHECK   s7, \addr
.endm

    RVTEST_CODE_BEGIN
    /* mret to an mepc in no region */
    TEST 1
    TRAP_CLEAR
    li      t0, MSTATUS_MPP
    csrs    mstatus, t0
    li      t0, BAD_ADDR
    csrw    mepc, t0
    la      s10, 2f
    mret
2:  EXPECT_TRAP 1
    CHECK   s6, BAD_ADDR
    CHECK   s7, BAD_ADDR
    CHECK   s5, PRV_M
    /* beq x0, x0, +8: predicted not taken, taken past the end of RAM */
    LAST_WORD_AF 2, 0x00000463, (RAM_END + 4)
    /* bne x0, x0, -4: predicted taken, not taken: pc+4 is the end of RAM */
    LAST_WORD_AF 3, 0xfe001ee3, RAM_END
    /* jal x0, +8: the predicted target, fetched from D */
    LAST_WORD_AF 4, 0x0080006f, (RAM_END + 4)
    /* addi x0, x0, 0 (nop): the next sequential pc */
    LAST_WORD_AF 5, 0x00000013, RAM_END
    /* an exception delegated to S with stvec in no region: the fetch at
     * the vector faults in S, to M (cause 1 is not delegated) */
    TEST 6
    li      t0, (1 << 8)
    csrw    medeleg, t0
    li      t0, NO_VECTOR
    csrw    stvec, t0
    TRAP_CLEAR
    la      s10, 2f
    li      s4, 1
    ENTER_MODE PRV_U
    ecall
2:  EXPECT_TRAP 1
    CHECK   s3, 3
    CHECK   s6, NO_VECTOR
    CHECK   s7, NO_VECTOR
    CHECK   s5, PRV_S
    csrr    a0, scause
    SIGCHK  a0, 8
    csrw    medeleg, zero
    /* a supervisor software interrupt delegated to S, stvec vectored in no
     * region: the fetch at BASE + 4 * 1 faults */
    TEST 7
    li      t0, MIP_SSIP
    csrw    mideleg, t0
    csrs    mie, t0
    li      t0, (NO_VECTOR | 1)
    csrw    stvec, t0
    csrsi   mip, MIP_SSIP
    TRAP_CLEAR
    la      s10, 2f
    li      s4, 1
    ENTER_MODE PRV_U
1:  j       1b
2:  EXPECT_TRAP 1
    CHECK   s6, (NO_VECTOR + 4)
    CHECK   s7, (NO_VECTOR + 4)
    CHECK   s5, PRV_S
    csrr    a0, scause
    SIGCHK  a0, (CAUSE_IRQ | 1)
    csrci   mip, MIP_SSIP
    csrw    mideleg, zero
    la      t0, trap_s
    csrw    stvec, t0
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 16
