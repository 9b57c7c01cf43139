/* warl.S: WARL/read-only behaviour of the M/S CSRs: write all ones, then
 * all zeros, then a pattern, and dump what reads back (the signature and the
 * lockstep compare RTL and model field by field). Self-checked: the fields
 * the contract fixes (misa.MXL, mstatus.MPP never 2, satp/pmp 0, mepc/sepc
 * bits 1:0, mcountinhibit bit 1, mideleg M-level bits, medeleg bit 11). */
#include "test_macros.h"

/* read-back of csr after writing v; result in a0 (csr restored) */
.macro PROBE csr, v
    csrr    a5, \csr
    li      t0, \v
    csrw    \csr, t0
    csrr    a0, \csr
    csrw    \csr, a5
    SIG     a0
.endm
.macro PROBE3 n, csr
    TEST    \n
    PROBE   \csr, 0xffffffff
    mv      a1, a0
    PROBE   \csr, 0
    mv      a2, a0
    PROBE   \csr, 0x5a5a5a5a
    mv      a3, a0
.endm

    RVTEST_CODE_BEGIN
    csrw    mie, zero
    TRAP_CLEAR
    PROBE3  1, mstatus
    srli    t1, a1, 11
    andi    t1, t1, 3
    li      t2, 2
    beq     t1, t2, fail      /* MPP is WARL: never the reserved 2 */
    PROBE3  2, sstatus
    PROBE3  3, misa
    srli    t1, a1, 30
    CHECK   t1, 1
    PROBE3  4, medeleg
    srli    t1, a1, 11
    andi    t1, t1, 1
    CHECK   t1, 0
    PROBE3  5, mideleg
    li      t2, 0x888          /* MSI, MTI, MEI */
    and     t1, a1, t2
    CHECK   t1, 0
    PROBE3  6, mie
    PROBE3  7, sie
    PROBE3  8, mip
    PROBE3  9, sip
    PROBE3 10, mtvec
    PROBE3 11, stvec
    PROBE3 12, mcounteren
    PROBE3 13, scounteren
    PROBE3 14, mcountinhibit
    andi    t1, a1, 2
    CHECK   t1, 0
    PROBE3 15, mepc
    andi    t1, a1, 3
    CHECK   t1, 0
    PROBE3 16, sepc
    andi    t1, a1, 3
    CHECK   t1, 0
    PROBE3 17, mcause
    PROBE3 18, scause
    PROBE3 19, mtval
    PROBE3 20, stval
    PROBE3 21, mscratch
    CHECK   a1, 0xffffffff
    PROBE3 22, sscratch
    CHECK   a3, 0x5a5a5a5a
    PROBE3 23, satp
    CHECK   a1, 0
    PROBE3 24, pmpcfg0
    CHECK   a1, 0
    PROBE3 25, pmpaddr3
    CHECK   a1, 0
    PROBE3 26, tselect
    CHECK   a1, 0
    PROBE3 27, tdata1
    CHECK   a1, 0
    PROBE3 28, mstatush
    EXPECT_NO_TRAP
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 90
