/* devices.S: MMIO details from docs/memory-map.md: GPIO leds read back bits
 * 4:0, buttons read 0 in simulation and ignore writes, clock_hz reads the
 * simulated board's 24 MHz and ignores writes; CLINT byte/half
 * accesses with byte enables, undefined offsets read 0 and ignore writes. */
#include "test_macros.h"
    RVTEST_CODE_BEGIN
    li      s0, GPIO_BASE
    li      s1, CLINT_BASE
    TEST 1
    li      t1, -1
    sw      t1, 0(s0)
    lw      a0, 0(s0)
    SIGCHK  a0, 0x1f
    sb      zero, 0(s0)
    lw      a0, 0(s0)
    SIGCHK  a0, 0
    li      t1, 0x15
    sw      t1, 0(s0)
    lbu     a0, 0(s0)
    SIGCHK  a0, 0x15
    TEST 2
    lw      a0, 4(s0)
    SIGCHK  a0, 0
    li      t1, 7
    sw      t1, 4(s0)
    lw      a0, 4(s0)
    SIGCHK  a0, 0
    sw      t1, 8(s0)
    lw      a0, 8(s0)
    SIGCHK  a0, 24000000
    lw      a0, 12(s0)
    SIGCHK  a0, 0
    /* CLINT: mtimecmp byte lanes (mie = 0: no interrupt) */
    TEST 3
    csrw    mie, zero
    li      s2, CLINT_MTIMECMP
    li      t1, 0x11223344
    sw      t1, 0(s2)
    li      t1, 0xaa
    sb      t1, 1(s2)
    lw      a0, 0(s2)
    SIGCHK  a0, 0x1122aa44
    li      t1, 0xbeef
    sh      t1, 2(s2)
    lw      a0, 0(s2)
    SIGCHK  a0, 0xbeefaa44
    lbu     a0, 3(s2)
    SIGCHK  a0, 0xbe
    lh      a0, 2(s2)
    SIGCHK  a0, 0xffffbeef
    lw      a0, 4(s2)
    SIGCHK  a0, 0xffffffff
    TIMER_OFF
    /* msip by byte */
    TEST 4
    li      t1, 0x01
    sb      t1, 0(s1)
    lw      a0, 0(s1)
    SIGCHK  a0, 1
    sb      zero, 0(s1)
    lw      a0, 0(s1)
    SIGCHK  a0, 0
    /* undefined CLINT offsets */
    TEST 5
    li      t1, -1
    sw      t1, 4(s1)
    lw      a0, 4(s1)
    SIGCHK  a0, 0
    li      t0, CLINT_BASE + 0x8000
    sw      t1, 0(t0)
    lw      a0, 0(t0)
    SIGCHK  a0, 0
    li      t0, CLINT_BASE + 0xbff0
    lw      a0, 0(t0)
    SIGCHK  a0, 0
    li      t0, CLINT_BASE + 0xfffc
    lw      a0, 0(t0)
    SIGCHK  a0, 0
    /* mtimeh reads 0 in a short program; mtime counts */
    TEST 6
    li      t0, CLINT_MTIMEH
    lw      a0, 0(t0)
    SIGCHK  a0, 0
    lw      a0, -4(t0)
    lw      a1, -4(t0)
    sub     a2, a1, a0
    SIGCHK  a2, 2
    EXPECT_NO_TRAP
    j       pass
    RVTEST_CODE_END
    RVTEST_DATA 32
