/* hpm_counteren.S: mcounteren / scounteren gate every user counter
 * (cycle, time, instret, hpmcounter3..31 and their h halves) from S and U,
 * one bit at a time: with mcounteren[b] = 0 a read is illegal in S and U;
 * with mcounteren[b] = 1 and scounteren[b] = 0 it is legal in S only; with
 * both set, legal in both. scountovf: illegal from U whatever the enables,
 * from S each OF bit masked by mcounteren, from M unmasked.
 * Needs HPM_NUM = 29 for the scountovf values (default build only). */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

/* read user CSR `lo` and `hi` in `mode`; s9 ends as 1 (the ecall back) + the
 * number of illegal reads */
.macro TRY mode, lo, hi, traps
    TRAP_CLEAR
    ENTER_MODE \mode
    csrr    a1, \lo
    csrr    a2, \hi
    ENTER_M
    CHECK   s9, (1 + \traps)
.endm
/* mcounteren = m, scounteren = s: the reads of user counter b from U and
 * from S take ut and st illegal reads */
.macro TRY_US b, m, s, ut, st
    csrw    mcounteren, \m
    csrw    scounteren, \s
    TRY     PRV_U, (0xC00 + \b), (0xC80 + \b), \ut
    TRY     PRV_S, (0xC00 + \b), (0xC80 + \b), \st
.endm
/* bit b of the enables, user counter CSR address 0xC00 + b */
.macro BIT b
    TEST    (10 + \b)
    li      t1, (1 << \b)
    not     t2, t1
    TRY_US  \b, t1, t1, 0, 0       /* m = s = 1 << b: legal in S and U */
    /* m = ~(1 << b), s = all: illegal in S and U */
    csrw    mcounteren, t2
    csrw    scounteren, s1
    TRY     PRV_U, (0xC00 + \b), (0xC80 + \b), 2
    CHECK   s8, 8           /* the last trap: the ecall from U */
    TRY     PRV_S, (0xC00 + \b), (0xC80 + \b), 2
    TRY_US  \b, s1, t2, 2, 0       /* m = all, s = ~(1 << b): illegal in U only */
    /* m = 0: illegal; from M always legal */
    csrw    mcounteren, zero
    csrw    scounteren, zero
    TRY     PRV_S, (0xC00 + \b), (0xC80 + \b), 2
    TRY     PRV_M, (0xC00 + \b), (0xC80 + \b), 0
.endm

    RVTEST_CODE_BEGIN
    li      s1, -1
    csrw    mie, zero
    TEST 1                  /* the illegal read's cause is 2 */
    csrw    mcounteren, zero
    TRAP_CLEAR
    ENTER_MODE PRV_U
    csrr    a1, cycle
    mv      a3, s8
    ENTER_M
    CHECK   a3, 2
    .irp b, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    BIT     \b
    .endr

    /* ---- scountovf ---- */
    TEST 50                 /* OF set by software in every selector */
    OF_SET  3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    csrr    a0, scountovf
    SIGCHK  a0, 0xfffffff8
    TEST 51                 /* from S: masked by mcounteren (not scounteren) */
    li      t0, 0xa5a5a5a5
    csrw    mcounteren, t0
    csrw    scounteren, zero
    TRAP_CLEAR
    ENTER_MODE PRV_S
    csrr    a1, scountovf
    ENTER_M
    CHECK   s9, 1
    SIGCHK  a1, 0xa5a5a5a0
    li      t0, 0x5a5a5a5a
    csrw    mcounteren, t0
    csrw    scounteren, s1
    ENTER_MODE PRV_S
    csrr    a1, scountovf
    ENTER_M
    SIGCHK  a1, 0x5a5a5a58
    TEST 52                 /* from U: illegal whatever the enables */
    csrw    mcounteren, s1
    csrw    scounteren, s1
    TRAP_CLEAR
    li      a1, 0x1234
    ENTER_MODE PRV_U
    csrr    a1, scountovf
    mv      a3, s8
    ENTER_M
    CHECK   s9, 2
    CHECK   a3, 2
    CHECK   a1, 0x1234
    TEST 53                 /* OF bits clear one by one */
    csrw    mhpmevent3h, zero
    csrw    mhpmevent17h, zero
    csrw    mhpmevent31h, zero
    csrr    a0, scountovf
    SIGCHK  a0, 0x7ffdfff0
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    csrw    mhpmevent\n\()h, zero
    .endr
    csrr    a0, scountovf
    SIGCHK  a0, 0
    TEST 54                 /* scountovf is read-only: a write is illegal, also from M */
    TRAP_CLEAR
    csrrs   a0, scountovf, s1
    CHECK   s9, 1
    CHECK   s8, 2
    csrw    mcounteren, zero
    csrw    scounteren, zero
    j       pass
    RVTEST_CODE_END
    .data
    RVTEST_DATA 16
