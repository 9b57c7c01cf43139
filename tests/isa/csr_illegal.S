/* csr_illegal.S: CSR accesses that must raise illegal instruction:
 * nonexistent CSRs, writes to read-only CSRs (also with a zero value), and
 * privilege violations from S and U; and the legal forms that must not trap
 * (csrrs/csrrc with rs1 = x0 and csrrsi/csrrci with uimm = 0 on read-only
 * CSRs: no write). The destination register is not written on a trap. */
#include "test_macros.h"

.macro ILLCSR n, insn:vararg
    TEST    \n
    TRAP_CLEAR
    li      a0, 0x3333
1:  \insn
    CHECK   s9, 1
    CHECK   s8, 2
    EXPECT_EPC 1b
    CHECK   a0, 0x3333
    SIG     s7
.endm
.macro OKCSR n, insn:vararg
    TEST    \n
    TRAP_CLEAR
    \insn
    EXPECT_NO_TRAP
.endm

    RVTEST_CODE_BEGIN
    /* nonexistent */
    ILLCSR  1, csrr a0, 0x8ff
    ILLCSR  2, csrr a0, 0x7c4       /* custom, after the top-down unit's */
    ILLCSR  3, csrr a0, 0x003       /* fcsr: no F */
    ILLCSR  4, csrr a0, 0x001       /* fflags */
    ILLCSR  5, csrw 0x5c0, a0
    ILLCSR  6, csrr a0, 0xfff
    ILLCSR  7, csrr a0, 0x200       /* hypervisor vsstatus: no H */
    ILLCSR  8, csrr a0, 0x7b0       /* dcsr: debug-mode only */
    /* writes to read-only CSRs (0xC00-0xFFF) */
    ILLCSR 10, csrw mvendorid, a0
    ILLCSR 11, csrw mhartid, x0
    ILLCSR 12, csrrwi a0, marchid, 0
    ILLCSR 13, csrrs a0, mimpid, a0  /* a0 != 0: a write */
    ILLCSR 14, csrrsi a0, mhartid, 1
    ILLCSR 15, csrw cycle, a0
    ILLCSR 16, csrw instret, a0
    ILLCSR 17, csrw time, a0
    ILLCSR 18, csrrci a0, cycleh, 3
    /* the non-writing forms are legal */
    OKCSR  20, csrrs a1, mvendorid, x0
    OKCSR  21, csrrc a1, mhartid, x0
    OKCSR  22, csrrsi a1, marchid, 0
    OKCSR  23, csrrci a1, mimpid, 0
    OKCSR  24, csrr a1, cycle
    OKCSR  25, csrr a1, time
    TEST 26
    csrr    a1, mhartid
    SIGCHK  a1, 0
    /* S-mode touching M-mode CSRs */
    ENTER_MODE PRV_S
    ILLCSR 30, csrr a0, mstatus
    ILLCSR 31, csrw mscratch, a0
    ILLCSR 32, csrr a0, mepc
    ILLCSR 33, csrr a0, mcycle
    ILLCSR 34, csrr a0, mhartid
    ILLCSR 35, csrr a0, medeleg
    ILLCSR 36, csrr a0, mcountinhibit
    ILLCSR 37, csrs mie, a0
    OKCSR  38, csrr a1, sstatus
    OKCSR  39, csrw sscratch, a1
    OKCSR  40, csrr a1, stvec
    ENTER_M
    /* U-mode touching S- and M-mode CSRs */
    ENTER_MODE PRV_U
    ILLCSR 50, csrr a0, sstatus
    ILLCSR 51, csrw sscratch, a0
    ILLCSR 52, csrr a0, mstatus
    ILLCSR 53, csrr a0, satp
    ILLCSR 54, csrr a0, sepc
    ILLCSR 55, csrr a0, scounteren
    ENTER_M
    TEST 60
    CHECK   s8, 8
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 40
