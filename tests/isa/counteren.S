/* counteren.S: mcounteren gates S/U reads of cycle/time/instret/hpmcounterN
 * (and their h halves), scounteren additionally gates U; a blocked read is an
 * illegal instruction and does not write rd. M-mode reads are never gated. */
#include "test_macros.h"

/* read csr in `mode` with the given enables; expect a trap if ill = 1 */
.macro TRY n, mode, men, sen, csr, ill
    TEST    \n
    li      t0, \men
    csrw    mcounteren, t0
    li      t0, \sen
    csrw    scounteren, t0
    ENTER_MODE \mode
    TRAP_CLEAR
    li      a0, 0x4444
    csrr    a0, \csr
    mv      a1, s9
    mv      a2, s8
    mv      a3, a0
    ENTER_M
    CHECK   a1, \ill
    .if \ill
    CHECK   a2, 2
    CHECK   a3, 0x4444
    .else
    li      t6, 0x4444
    beq     a3, t6, fail
    .endif
.endm

    RVTEST_CODE_BEGIN
    /* S-mode, mcounteren = 0: everything blocked */
    TRY  1, PRV_S, 0, 7, cycle, 1
    TRY  2, PRV_S, 0, 7, time, 1
    TRY  3, PRV_S, 0, 7, instret, 1
    TRY  4, PRV_S, 0, 7, cycleh, 1
    TRY  5, PRV_S, 0, 7, timeh, 1
    TRY  6, PRV_S, 0, 7, instreth, 1
    /* S-mode, one bit each */
    TRY 10, PRV_S, 1, 0, cycle, 0
    TRY 11, PRV_S, 1, 0, time, 1
    TRY 12, PRV_S, 1, 0, instret, 1
    TRY 13, PRV_S, 2, 0, time, 0
    TRY 14, PRV_S, 2, 0, cycle, 1
    TRY 15, PRV_S, 4, 0, instret, 0
    TRY 16, PRV_S, 4, 0, instreth, 0
    TRY 17, PRV_S, 4, 0, cycleh, 1
    TRY 18, PRV_S, 7, 0, cycle, 0
    /* U-mode needs both */
    TRY 20, PRV_U, 7, 0, cycle, 1
    TRY 21, PRV_U, 0, 7, cycle, 1
    TRY 22, PRV_U, 7, 7, cycle, 0
    TRY 23, PRV_U, 7, 7, time, 0
    TRY 24, PRV_U, 7, 7, instret, 0
    TRY 25, PRV_U, 7, 7, timeh, 0
    TRY 26, PRV_U, 1, 1, cycle, 0
    TRY 27, PRV_U, 1, 1, instret, 1
    TRY 28, PRV_U, 4, 1, cycle, 1
    TRY 29, PRV_U, 5, 4, instret, 0
    TRY 30, PRV_U, 5, 4, cycleh, 1
    /* hpmcounter3 (bit 3) */
    TRY 40, PRV_S, 7, 0, hpmcounter3, 1
    TRY 41, PRV_U, 8, 7, hpmcounter3, 1
    TRY 42, PRV_U, 0xfffffff7, 0xffffffff, hpmcounter3, 1
    /* M-mode: never gated */
    TEST 50
    csrw    mcounteren, zero
    csrw    scounteren, zero
    TRAP_CLEAR
    csrr    a0, cycle
    csrr    a0, time
    csrr    a0, instret
    csrr    a0, hpmcounter3
    EXPECT_NO_TRAP
    /* the S-mode value of cycle is mcycle */
    TEST 51
    li      t0, 1
    csrw    mcounteren, t0
    ENTER_MODE PRV_S
    csrr    a1, cycle
    ENTER_M
    SIG     a1
    csrw    mcounteren, zero
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 16
