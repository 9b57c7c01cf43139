/* vec_irq.S: vectored trap vectors (xtvec.MODE = 1): an interrupt enters at
 * BASE + 4 * cause, an exception at BASE, in M and in S. In vectored mode
 * BASE is 64-byte aligned (a write with MODE 1 clears bits 5:2; in direct
 * mode they are kept): test 1 checks the rule on read-back, and the tables
 * are installed by writes with bits 5:2 set, so a vector that kept them
 * would enter another slot. Each table slot n sets s2 = n and enters the
 * ordinary handler. */
#include "test_macros.h"

/* A vectored table on a 64-byte boundary: slot n sets s2 = n, then the
 * test's handler records the trap. */
.macro VEC_TABLE name, handler
    .balign 64
\name:
    .irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    j       \name\()_slot\n
    .endr
    .irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
\name\()_slot\n:
    li      s2, \n
    j       \handler
    .endr
.endm
/* tvec <- table + bits, read back as an offset from the table into a1 */
.macro TVEC_PROBE csr, table, bits
    la      t1, \table
    ori     t0, t1, \bits
    csrw    \csr, t0
    csrr    a1, \csr
    sub     a1, a1, t1
.endm
    RVTEST_CODE_BEGIN
    csrw    mie, zero
    /* the WARL rule: direct mode keeps bits 5:2, vectored mode clears them
     * (also when MODE is set on a value that has them), bit 1 reads 0 */
    TEST 1
    TVEC_PROBE mtvec, mvec, 0x30
    SIGCHK  a1, 0x30
    csrsi   mtvec, 1
    csrr    a1, mtvec
    sub     a1, a1, t1
    SIGCHK  a1, 1
    TVEC_PROBE mtvec, mvec, 0x3e
    SIGCHK  a1, 0x3c
    TVEC_PROBE stvec, svec, 0x3f
    SIGCHK  a1, 1
    TVEC_PROBE mtvec, mvec, 0x31
    SIGCHK  a1, 1
    /* MSI: slot 3 */
    TEST 2
    TRAP_CLEAR
    li      s2, -1
    li      s0, CLINT_MSIP
    li      t0, MIP_MSIP
    csrw    mie, t0
    li      t1, 1
    sw      t1, 0(s0)
    csrsi   mstatus, MSTATUS_MIE
    nop
    csrci   mstatus, MSTATUS_MIE
    sw      zero, 0(s0)
    CHECK   s9, 1
    CHECK   s8, 0x80000003
    SIGCHK  s2, 3
    /* MTI: slot 7 */
    TEST 3
    TRAP_CLEAR
    li      s2, -1
    li      t0, CLINT_MTIMECMP
    sw      zero, 4(t0)
    sw      zero, 0(t0)
    li      t0, MIP_MTIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    nop
    csrci   mstatus, MSTATUS_MIE
    TIMER_OFF
    CHECK   s9, 1
    CHECK   s8, 0x80000007
    SIGCHK  s2, 7
    /* SEI and LCOFI not delegated: slots 9 and 13 of the M table, SEI first */
    TEST 4
    TRAP_CLEAR
    li      s2, -1
    li      t0, MIP_SEIP | MIP_LCOFIP
    csrs    mip, t0
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    nop
    csrci   mstatus, MSTATUS_MIE
    CHECK   s8, 0x80000009
    SIGCHK  s2, 9
    li      s2, -1
    li      t0, MIP_SEIP
    csrc    mip, t0
    li      t0, MIP_LCOFIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    nop
    csrci   mstatus, MSTATUS_MIE
    li      t0, MIP_LCOFIP
    csrc    mip, t0
    CHECK   s9, 2
    CHECK   s8, 0x8000000d
    SIGCHK  s2, 13
    /* an exception in M: BASE (slot 0) */
    TEST 5
    TRAP_CLEAR
    li      s2, -1
    ebreak
    CHECK   s9, 1
    CHECK   s8, 3
    SIGCHK  s2, 0
    /* SSI delegated, taken in S: slot 1 of the S table */
    TEST 6
    TRAP_CLEAR
    li      t0, MIP_SSIP | MIP_STIP
    csrw    mideleg, t0
    li      s2, -1
    li      t0, MIP_SSIP
    csrw    mie, t0
    csrsi   mip, MIP_SSIP
    csrsi   mstatus, MSTATUS_SIE
    ENTER_MODE PRV_S
    nop
    mv      a1, s2
    mv      a2, s8
    csrc    sip, MIP_SSIP
    ENTER_M
    csrci   mstatus, MSTATUS_SIE
    CHECK   a2, 0x80000001
    SIGCHK  a1, 1
    /* STI delegated, taken in S from U: slot 5 of the S table */
    TEST 7
    TRAP_CLEAR
    li      s2, -1
    li      t0, MIP_STIP
    csrw    mie, t0
    csrs    mip, t0
    ENTER_MODE PRV_U
    nop
    mv      a1, s2
    mv      a2, s8
    ENTER_M
    li      t0, MIP_STIP
    csrc    mip, t0
    CHECK   a2, 0x80000005
    SIGCHK  a1, 5
    /* an ecall from U delegated to S: BASE of the S table */
    TEST 8
    TRAP_CLEAR
    li      t0, 1 << 8
    csrw    medeleg, t0
    li      s2, -1
    ENTER_MODE PRV_U
    ecall
    mv      a1, s2
    mv      a2, s8
    ENTER_M_BRK
    csrw    medeleg, zero
    csrw    mideleg, zero
    csrw    mie, zero
    CHECK   a2, 8
    SIGCHK  a1, 0
    la      t0, trap_m
    csrw    mtvec, t0
    la      t0, trap_s
    csrw    stvec, t0
    j       pass

    VEC_TABLE mvec, trap_m
    VEC_TABLE svec, trap_s
    RVTEST_CODE_END
    RVTEST_DATA 16
