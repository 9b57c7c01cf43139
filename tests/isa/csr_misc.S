/* csr_misc.S: satp/pmp/trigger CSRs read 0 and ignore writes without trapping,
 * sfence.vma in M, misa/mhartid/ID CSRs, mscratch/sscratch, the csrrw/s/c and
 * immediate forms (old value returned, WARL results), sstatus/sie/sip as views
 * of mstatus/mie/mip, mepc/sepc low bits, mtvec/stvec (BASE: the executable
 * regions' address bits, test 25), mcause/scause WARL. */
#include "test_macros.h"

.macro ZERO_CSR n, csr
    TEST    \n
    li      a0, -1
    csrw    \csr, a0
    csrr    a1, \csr
    CHECK   a1, 0
.endm

    RVTEST_CODE_BEGIN
    TRAP_CLEAR
    ZERO_CSR  1, satp
    ZERO_CSR  2, pmpcfg0
    ZERO_CSR  3, pmpcfg1
    ZERO_CSR  4, pmpcfg2
    ZERO_CSR  5, pmpcfg3
    ZERO_CSR  6, pmpaddr0
    ZERO_CSR  7, pmpaddr1
    ZERO_CSR  8, pmpaddr7
    ZERO_CSR  9, pmpaddr15
    ZERO_CSR 10, tselect
    ZERO_CSR 11, tdata1
    TEST 12
    sfence.vma
    sfence.vma a0, a1
    EXPECT_NO_TRAP
    /* misa: MXL = 1 (RV32), I, M, S, U set; no A/C/F/D */
    TEST 13
    csrr    a0, misa
    SIG     a0
    srli    a1, a0, 30
    CHECK   a1, 1
    li      t0, (1 << 8) | (1 << 12) | (1 << 18) | (1 << 20)
    and     a1, a0, t0
    CHECKR  a1, t0
    li      t0, (1 << 0) | (1 << 2) | (1 << 3) | (1 << 5)
    and     a1, a0, t0
    CHECK   a1, 0
    TEST 14
    csrr    a0, mvendorid
    SIG     a0
    csrr    a0, marchid
    SIG     a0
    csrr    a0, mimpid
    SIG     a0
    csrr    a0, mhartid
    SIGCHK  a0, 0
    /* mscratch: full read/write, csrrw returns the old value */
    TEST 15
    li      a0, 0x12345678
    csrw    mscratch, a0
    li      a1, 0x9abcdef0
    csrrw   a2, mscratch, a1
    SIGCHK  a2, 0x12345678
    csrrs   a2, mscratch, a0
    SIGCHK  a2, 0x9abcdef0
    csrrc   a2, mscratch, a1
    SIGCHK  a2, 0x9abcdef0 | 0x12345678
    csrr    a2, mscratch
    SIGCHK  a2, 0x12345678 & ~0x9abcdef0
    csrrwi  a2, mscratch, 0x1f
    csrrsi  a2, mscratch, 0x0
    SIGCHK  a2, 0x1f
    csrrci  a2, mscratch, 0x5
    csrr    a2, mscratch
    SIGCHK  a2, 0x1a
    /* rd = rs1 */
    li      a3, 0x55
    csrrw   a3, mscratch, a3
    SIGCHK  a3, 0x1a
    csrr    a3, mscratch
    SIGCHK  a3, 0x55
    TEST 16
    li      a0, 0xcafebabe
    csrw    sscratch, a0
    csrr    a1, sscratch
    SIGCHK  a1, 0xcafebabe
    /* sstatus is a view of mstatus */
    TEST 17
    csrsi   sstatus, MSTATUS_SIE
    csrr    a0, mstatus
    andi    a0, a0, MSTATUS_SIE
    SIGCHK  a0, MSTATUS_SIE
    csrci   mstatus, MSTATUS_SIE
    csrr    a0, sstatus
    andi    a0, a0, MSTATUS_SIE
    SIGCHK  a0, 0
    li      t0, MSTATUS_MPP | MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_TVM
    csrs    mstatus, t0
    csrr    a0, sstatus
    and     a0, a0, t0
    SIGCHK  a0, 0            /* M-only fields are not visible */
    csrc    mstatus, t0
    csrr    a0, mstatus
    SIG     a0
    csrr    a0, sstatus
    SIG     a0
    /* sie/sip: only the delegated bits are visible through the S views */
    TEST 18
    csrw    mideleg, zero
    li      t0, MIP_SSIP | MIP_STIP
    csrw    mie, t0
    csrr    a0, sie
    SIGCHK  a0, 0
    csrw    mideleg, t0
    csrr    a0, sie
    SIG     a0
    CHECK   a0, MIP_SSIP | MIP_STIP
    csrw    sie, zero
    csrr    a0, mie
    SIGCHK  a0, 0
    csrw    mideleg, zero
    csrw    mie, zero
    /* mip: SSIP/STIP writable from M, MTIP/MSIP not */
    TEST 19
    li      t0, MIP_SSIP | MIP_STIP | MIP_MTIP | MIP_MSIP
    csrs    mip, t0
    csrr    a0, mip
    and     a0, a0, t0
    SIGCHK  a0, MIP_SSIP | MIP_STIP
    csrc    mip, t0
    csrr    a0, mip
    and     a0, a0, t0
    SIGCHK  a0, 0
    /* mepc/sepc: bits 1:0 read 0 (IALIGN = 32) */
    TEST 20
    li      a0, 0x80001237
    csrw    mepc, a0
    csrr    a1, mepc
    SIGCHK  a1, 0x80001234
    csrw    sepc, a0
    csrr    a1, sepc
    SIGCHK  a1, 0x80001234
    /* mtvec/stvec: direct mode round trip */
    TEST 21
    la      a0, trap_m
    csrr    a1, mtvec
    CHECKR  a0, a1
    li      a0, 0x80000100
    csrrw   a2, stvec, a0
    csrr    a1, stvec
    CHECK   a1, 0x80000100
    csrw    stvec, a2
    /* mcause/scause/mtval/stval hold what is written (legal values) */
    TEST 22
    li      a0, 5
    csrw    mcause, a0
    csrr    a1, mcause
    SIGCHK  a1, 5
    li      a0, 0x80000007
    csrw    mcause, a0
    csrr    a1, mcause
    SIGCHK  a1, 0x80000007
    li      a0, 0x13579bdf
    csrw    mtval, a0
    csrr    a1, mtval
    SIGCHK  a1, 0x13579bdf
    csrw    stval, a0
    csrr    a1, stval
    SIGCHK  a1, 0x13579bdf
    li      a0, 9
    csrw    scause, a0
    csrr    a1, scause
    SIGCHK  a1, 9
    /* mstatush reads 0 (little-endian only) */
    TEST 23
    csrr    a0, mstatush
    SIGCHK  a0, 0
    /* mcounteren/scounteren read back */
    TEST 24
    li      a0, 7
    csrw    mcounteren, a0
    csrr    a1, mcounteren
    SIGCHK  a1, 7
    csrw    scounteren, a0
    csrr    a1, scounteren
    SIGCHK  a1, 7
    csrw    mcounteren, zero
    csrw    scounteren, zero
    /* mtvec/stvec BASE keeps the address bits of the executable regions
     * (fw 0x0-0x1fff, ram 0x80000000-0x8001ffff: bits 31, 16:2), the others
     * read 0 (a trap in between would go to the written value) */
    TEST 25
    li      a0, -4
    csrrw   a2, mtvec, a0
    csrr    a1, mtvec
    csrw    mtvec, a2
    SIGCHK  a1, 0x8001fffc
    li      a0, 0x12345678
    csrrw   a2, stvec, a0
    csrr    a1, stvec
    csrw    stvec, a2
    SIGCHK  a1, 0x00005678
    li      a0, -1              /* vectored: bits 5:2 read 0 too */
    csrrw   a2, stvec, a0
    csrr    a1, stvec
    csrw    stvec, a2
    SIGCHK  a1, 0x8001ffc1
    li      a0, 0x7ffe0001
    csrrw   a2, mtvec, a0
    csrr    a1, mtvec
    csrw    mtvec, a2
    SIGCHK  a1, 1
    EXPECT_NO_TRAP
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 52
