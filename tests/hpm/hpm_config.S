/* hpm_config.S: HPM behaviour that depends on HPM_NUM / HPM_WIDTH, written
 * to run on every configuration (hpm-sim and hpm-sim-<num>x<width>): it
 * finds the number of implemented counters and their width by reading back,
 * signs both, and then checks wrap, OF, LCOFIP, scountovf on mhpmcounter3 at
 * the configured width. Also: which counter addresses exist, mcountinhibit
 * and mcounteren/scounteren WARL for the counters that do not exist (test
 * 12), an overflow in the cycle of a mip clear (the hardware set wins), the
 * LCOFI interrupt delegated to S, scountovf from U (illegal) and S (masked
 * by mcounteren), minstretcfg.UINH. */
#include "test_macros.h"
#include "hpm_common.h"

#define LCOF     MIP_LCOFIP

    RVTEST_CODE_BEGIN
    csrw    mie, zero
    csrw    mcountinhibit, zero
    /* mcountinhibit: bits 0 and 2 are writable, bit 1 reads 0 (those of
     * mhpmcounterN: test 12) */
    TEST 1
    li      t0, -1
    csrw    mcountinhibit, t0
    csrr    a0, mcountinhibit
    csrw    mcountinhibit, zero
    andi    a0, a0, 7
    SIGCHK  a0, 5
    /* mcyclecfg / minstretcfg low halves exist and read 0 */
    TEST 2
    TRAP_CLEAR
    li      t0, -1
    csrw    0x321, t0
    csrw    0x322, t0
    csrr    a0, 0x321
    csrr    a1, 0x322
    EXPECT_NO_TRAP
    SIGCHK  a0, 0
    SIGCHK  a1, 0
    /* 0xB01, 0xB81, 0x720 do not exist; scountovf is read-only */
    TEST 3
    TRAP_CLEAR
    csrr    a0, 0xb01
    EXPECT_TRAP 2, 1
    csrr    a0, 0xb81
    EXPECT_TRAP 2, 2
    csrr    a0, 0x720
    EXPECT_TRAP 2, 3
    csrw    0xda0, zero
    EXPECT_TRAP 2, 4
    /* HPM_NUM: the selectors that keep an event index */
    TEST 4
    li      t0, -1
    csrw    mcountinhibit, t0       /* nothing counts while selectors change */
    li      s0, 0
    li      a7, 7                   /* the counters that exist: 0..2, then by readback */
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    li      t0, HPM_EV_CYCLES
    csrw    mhpmevent\n, t0
    csrr    a0, mhpmevent\n
    add     s0, s0, a0
    snez    t1, a0
    slli    t1, t1, \n
    or      a7, a7, t1
    csrw    mhpmevent\n, zero
    csrr    a0, mhpmcounter\n
    bnez    a0, fail            /* nothing counted */
    .endr
    csrw    mcountinhibit, zero
    SIG     s0
    SIG     a7
    /* the enables and inhibits of counters that do not exist (a7 clear):
     * mcountinhibit's bits read 0; mcounteren/scounteren keep one shared
     * enable for them, set by a write of any of their bits, read in all */
    TEST 12
    li      t0, -1
    csrw    mcountinhibit, t0
    csrr    a0, mcountinhibit
    csrw    mcountinhibit, zero
    SIG     a0
    andi    t1, a7, -3
    bne     a0, t1, fail
    not     a6, a7                  /* the counters that do not exist */
    li      t2, 0x80000000
    or      t2, t2, a6              /* bit 31 written: bit 31 and those */
    .irp csr, mcounteren, scounteren
    li      t0, 0x80000000
    csrw    \csr, t0
    csrr    a0, \csr
    SIG     a0
    bne     a0, t2, fail
    li      t0, 7
    csrw    \csr, t0
    csrr    a0, \csr
    SIGCHK  a0, 7
    li      t0, -1
    csrw    \csr, t0
    csrr    a0, \csr
    SIGCHK  a0, -1
    /* one absent counter's bit other than 31 (the lowest) sets the shared
     * enable too: every absent counter's bit reads 1, the others 0 */
    neg     t0, a6
    and     t0, t0, a6
    li      t1, 0x7fffffff
    and     t0, t0, t1
    beqz    t0, 1f                  /* only counter 31 (or none) is absent */
    csrw    \csr, t0
    csrr    a0, \csr
    SIG     a0
    bne     a0, a6, fail
1:
    .endr
    /* with bits 0..2 and 31 enabled, hpmcounter3 and hpmcounter31 read
     * from U: legal (and 0) when they do not exist, illegal when they do */
    li      t0, 0x80000007
    csrw    mcounteren, t0
    csrw    scounteren, t0
    TRAP_CLEAR
    ENTER_MODE PRV_U
    csrr    a1, hpmcounter3
    csrr    a2, hpmcounter31h
    ENTER_M
    csrw    mcounteren, zero
    csrw    scounteren, zero
    SIG     s9
    srli    t1, a7, 3
    andi    t1, t1, 1               /* hpmcounter3 exists: one trap */
    addi    t1, t1, 1               /* and the ecall of ENTER_M */
    bne     s9, t1, fail
    andi    t1, a7, 8
    bnez    t1, 1f
    CHECK   a1, 0
    CHECK   a2, 0
1:
    beqz    s0, pass            /* HPM_NUM = 0: nothing more to see */
    /* HPM_WIDTH: the mask that reads back */
    TEST 5
    li      t0, -1
    csrw    mhpmcounter3h, t0
    csrw    mhpmcounter3, t0
    csrr    s1, mhpmcounter3
    csrr    s2, mhpmcounter3h
    SIG     s1
    SIG     s2
    beqz    s1, fail
    /* a0 = low half 10 below the wrap (0 for widths below 4) */
    li      a0, 0
    li      t0, 10
    bltu    s1, t0, 1f
    addi    a0, s1, -9
1:
    /* wrap: OF, LCOFIP, scountovf; the counter keeps the low bits */
    TEST 6
    li      t0, LCOF
    csrc    mip, t0
    li      t0, HPM_EV_CYCLES
    csrw    mhpmevent3, t0
    csrw    mhpmevent3h, zero
    csrw    mhpmcounter3h, s2
    csrw    mhpmcounter3, a0
    .rept 20
    nop
    .endr
    csrr    a1, mhpmevent3h
    csrr    a2, mip
    csrr    a3, scountovf
    csrr    a4, mhpmcounter3
    csrr    a5, mhpmcounter3h
    srli    a1, a1, 31
    SIGCHK  a1, 1
    li      t0, LCOF
    and     a2, a2, t0
    SIGCHK  a2, LCOF
    SIGCHK  a3, 8
    SIG     a4
    SIGCHK  a5, 0
    /* with OF set, another wrap raises no LCOFIP (ADD: 2 per cycle) */
    TEST 7
    li      t0, LCOF
    csrc    mip, t0
    li      t0, HPM_EV_CYCLES | (HPM_EV_CYCLES << MHPMEVENT_EVENT1_SHIFT)
    csrw    mhpmevent3, t0
    li      t0, OF | (OP_ADD << (MHPMEVENT_OP_TYPE0_SHIFT - 32))
    csrw    mhpmevent3h, t0
    csrw    mhpmcounter3h, s2
    csrw    mhpmcounter3, a0
    .rept 20
    nop
    .endr
    csrr    a1, mip
    csrr    a2, mhpmcounter3
    li      t0, LCOF
    and     a1, a1, t0
    SIGCHK  a1, 0
    SIG     a2
    /* mip clears in the wrap cycle and in the next one (where the overflow
     * sets LCOFIP): LCOFIP ends up set */
    TEST 8
    csrwi   mcountinhibit, 8        /* frozen while set up (HPM_WIDTH 1 wraps every 2 cycles) */
    li      t0, HPM_EV_CYCLES
    csrw    mhpmevent3, t0
    csrw    mhpmevent3h, zero
    li      t0, LCOF
    csrw    mhpmcounter3h, s2
    csrw    mhpmcounter3, s1        /* all ones ... */
    csrc    mip, t0
    csrwi   mcountinhibit, 0        /* ... counting from the next cycle, */
    csrrc   a1, mip, t0             /* ... which wraps */
    csrrc   a3, mip, t0             /* LCOFIP set at the end of this one */
    csrr    a2, mip
    and     a1, a1, t0
    and     a2, a2, t0
    and     a3, a3, t0
    SIGCHK  a1, 0
    CHECK   a3, 0
    SIGCHK  a2, LCOF
    /* the LCOFI interrupt, delegated, taken in S from U (scause 0x8000000d) */
    TEST 9
    li      t0, LCOF
    csrc    mip, t0
    csrw    mideleg, t0
    csrw    mie, t0
    csrwi   mcountinhibit, 8        /* frozen while set up: OF clear at the first wrap */
    csrw    mhpmevent3h, zero
    csrw    mhpmcounter3h, s2
    csrw    mhpmcounter3, a0
    csrwi   mcountinhibit, 0
    TRAP_CLEAR
    ENTER_MODE PRV_U
    li      a1, 0
    li      a2, 200
1:  addi    a1, a1, 1
    bnez    s9, 2f
    blt     a1, a2, 1b
2:  mv      a3, s8
    mv      a4, s3
    ENTER_M
    csrw    mie, zero
    csrw    mideleg, zero
    li      t0, LCOF
    csrc    mip, t0
    CHECK   a3, 0x8000000d
    CHECK   a4, 1
    SIG     a1
    /* scountovf: illegal from U, masked by mcounteren from S */
    TEST 10
    li      t0, OF
    csrw    mhpmevent3h, t0
    li      t0, -1
    csrw    mcounteren, t0
    csrw    scounteren, t0
    TRAP_CLEAR
    ENTER_MODE PRV_U
    csrr    a1, scountovf
    mv      a2, s8
    ENTER_M
    CHECK   a2, 2
    SCOUNTOVF_S ~8, 0
    SCOUNTOVF_S 8, 8
    csrw    mcounteren, zero
    csrw    scounteren, zero
    csrw    mhpmevent3h, zero
    /* minstretcfg.UINH: minstret does not count the 11 instructions in U
     * (10 nops and the li of ENTER_M); mhpmcounter3 counting instructions
     * with UINH likewise */
.macro URUN
    csrr    a1, minstret
    csrr    a2, mhpmcounter3
    ENTER_MODE PRV_U
    .rept 10
    nop
    .endr
    ENTER_M
    csrr    a3, minstret
    csrr    a4, mhpmcounter3
    sub     a3, a3, a1
    sub     a4, a4, a2
.endm
    TEST 11
    li      t0, 2
    csrw    mhpmevent3, t0
    csrw    mhpmevent3h, zero
    URUN
    mv      a5, a3
    li      t0, UINH
    csrw    mhpmevent3h, t0
    csrw    0x722, t0
    URUN
    csrw    0x722, zero
    csrw    mhpmevent3h, zero
    csrw    mhpmevent3, zero
    sub     a5, a5, a3
    SIGCHK  a5, 11
    SIG     a3
    SIG     a4
    j       pass
    RVTEST_CODE_END
    .data
    RVTEST_DATA 40
