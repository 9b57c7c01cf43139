/* soft_irq.S: CLINT msip -> mip.MSIP, machine software interrupt (mcause
 * 0x80000003) taken at the instruction after the store; MSI has priority
 * over MTI; msip from U; mip.MSIP is read-only through the CSR. */
#include "test_macros.h"
/* MSI and MTI enabled for one instruction: exactly one interrupt, mcause */
.macro TAKE_ONE mcause
    li      t0, MIP_MSIP | MIP_MTIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    nop
    csrci   mstatus, MSTATUS_MIE
    CHECK   s9, 1
    CHECK   s8, \mcause
.endm
    RVTEST_CODE_BEGIN
    csrw    mie, zero
    TEST 1
    li      s0, CLINT_MSIP
    lw      a0, 0(s0)
    SIGCHK  a0, 0
    li      t1, -1
    sw      t1, 0(s0)
    lw      a0, 0(s0)
    SIGCHK  a0, 1            /* only bit 0 exists */
    csrr    a0, mip
    andi    a0, a0, MIP_MSIP
    SIGCHK  a0, MIP_MSIP
    li      t1, MIP_MSIP
    csrc    mip, t1
    csrr    a0, mip
    andi    a0, a0, MIP_MSIP
    SIGCHK  a0, MIP_MSIP     /* read-only in mip */
    sw      zero, 0(s0)
    csrr    a0, mip
    andi    a0, a0, MIP_MSIP
    SIGCHK  a0, 0
    /* taken at the instruction after the store that raises it */
    TEST 2
    TRAP_CLEAR
    li      t0, MIP_MSIP
    csrw    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    li      t1, 1
    sw      t1, 0(s0)
1:  nop
    nop
    csrci   mstatus, MSTATUS_MIE
    sw      zero, 0(s0)
    CHECK   s9, 1
    CHECK   s8, 0x80000003
    EXPECT_EPC 1b
    /* MSI before MTI when both are pending */
    TEST 3
    TRAP_CLEAR
    li      t1, 1
    sw      t1, 0(s0)
    li      t0, CLINT_MTIMECMP
    sw      zero, 4(t0)
    sw      zero, 0(t0)
    TAKE_ONE 0x80000003
    /* then MTI alone */
    sw      zero, 0(s0)
    TRAP_CLEAR
    TAKE_ONE 0x80000007
    TIMER_OFF
    /* msip from U (MIE = 0): taken into M */
    TEST 4
    li      t0, MIP_MSIP
    csrw    mie, t0
    ENTER_MODE PRV_U
    TRAP_CLEAR
    li      t1, 1
    /* no PMP: U-mode can store to the CLINT */
    li      t0, CLINT_MSIP
    sw      t1, 0(t0)
1:  nop
    mv      a1, s8
    mv      a2, s5
    mv      a3, s6
    ENTER_M
    CHECK   a1, 0x80000003
    CHECK   a2, PRV_U
    la      t0, 1b
    CHECKR  a3, t0
    sw      zero, 0(s0)
    csrw    mie, zero
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 16
