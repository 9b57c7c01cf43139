/* mem.S: loads and stores of every width, sign/zero extension, byte lanes,
 * offsets (positive, negative), load-use, store-to-load, x0 as load target. */
#include "test_macros.h"
    RVTEST_CODE_BEGIN
    la      s0, tdata
    TEST 1
    lw      a0, 0(s0)
    SIGCHK  a0, 0x8899aabb
    TEST 2
    lb      a0, 0(s0)
    SIGCHK  a0, 0xffffffbb
    TEST 3
    lb      a0, 1(s0)
    SIGCHK  a0, 0xffffffaa
    TEST 4
    lbu     a0, 3(s0)
    SIGCHK  a0, 0x88
    TEST 5
    lh      a0, 0(s0)
    SIGCHK  a0, 0xffffaabb
    TEST 6
    lh      a0, 2(s0)
    SIGCHK  a0, 0xffff8899
    TEST 7
    lhu     a0, 2(s0)
    SIGCHK  a0, 0x8899
    TEST 8
    lw      a0, 4(s0)          /* 0x00ff7f01 */
    lb      a1, 4(s0)
    SIGCHK  a1, 1
    lb      a1, 5(s0)
    SIGCHK  a1, 0x7f
    lb      a1, 6(s0)
    SIGCHK  a1, 0xffffffff
    lbu     a1, 6(s0)
    SIGCHK  a1, 0xff
    lh      a1, 4(s0)
    SIGCHK  a1, 0x7f01
    lh      a1, 6(s0)
    SIGCHK  a1, 0x00ff
    /* negative offsets */
    TEST 9
    addi    s1, s0, 8
    lw      a0, -8(s1)
    SIGCHK  a0, 0x8899aabb
    lbu     a0, -5(s1)
    SIGCHK  a0, 0x88
    /* stores: byte lanes */
    TEST 10
    la      s1, wbuf
    li      a0, 0x11223344
    sw      a0, 0(s1)
    li      a1, 0xa5
    sb      a1, 1(s1)
    lw      a2, 0(s1)
    SIGCHK  a2, 0x1122a544
    TEST 11
    li      a1, 0xffffbeef
    sh      a1, 2(s1)
    lw      a2, 0(s1)
    SIGCHK  a2, 0xbeefa544
    TEST 12
    li      a1, 0x12345677
    sb      a1, 3(s1)
    sb      a1, 0(s1)
    lw      a2, 0(s1)
    SIGCHK  a2, 0x77efa577
    TEST 13
    sh      a1, 0(s1)
    lw      a2, 0(s1)
    SIGCHK  a2, 0x77ef5677
    /* negative store offsets */
    TEST 14
    addi    s2, s1, 16
    li      a1, 0xcafef00d
    sw      a1, -12(s2)
    lw      a2, 4(s1)
    SIGCHK  a2, 0xcafef00d
    sb      zero, -9(s2)
    lw      a2, 4(s1)
    SIGCHK  a2, 0x00fef00d
    /* load-use: consumer immediately after the load */
    TEST 15
    lw      a0, 0(s0)
    addi    a0, a0, 1
    SIGCHK  a0, 0x8899aabc
    lw      a1, 4(s0)
    add     a2, a1, a1
    SIGCHK  a2, 0x01fefe02
    /* load feeding an address */
    TEST 16
    la      a0, ptr
    lw      a1, 0(a0)
    lw      a2, 0(a1)
    SIGCHK  a2, 0x8899aabb
    /* store then load the same word, back to back */
    TEST 17
    li      a0, 0x5a5a1234
    sw      a0, 8(s1)
    lw      a1, 8(s1)
    SIGCHK  a1, 0x5a5a1234
    lhu     a1, 10(s1)
    SIGCHK  a1, 0x5a5a
    /* load into x0 is discarded */
    TEST 18
    lw      x0, 0(s0)
    mv      a0, x0
    SIGCHK  a0, 0
    /* store of a just-loaded value (load -> store data) */
    TEST 19
    lw      a0, 0(s0)
    sw      a0, 12(s1)
    lw      a1, 12(s1)
    SIGCHK  a1, 0x8899aabb
    /* base register overwritten by the load itself */
    TEST 20
    la      a0, ptr
    lw      a0, 0(a0)
    lw      a0, 0(a0)
    SIGCHK  a0, 0x8899aabb
    /* word at the very end and start of RAM */
    TEST 21
    li      a0, 0x8001fffc
    li      a1, 0x76543210
    lw      a2, 0(a0)
    sw      a1, 0(a0)
    lw      a3, 0(a0)
    sw      a2, 0(a0)
    SIGCHK  a3, 0x76543210
    li      a0, 0x80000000
    lw      a3, 0(a0)
    la      t0, _start
    lw      a4, 0(t0)
    CHECKR  a3, a4
    /* EBR (fw region) is readable and writable RAM too */
    TEST 22
    li      a0, 0x00001ff0
    li      a1, 0x0f1e2d3c
    sw      a1, 0(a0)
    lw      a2, 0(a0)
    SIGCHK  a2, 0x0f1e2d3c
    lbu     a2, 2(a0)
    SIGCHK  a2, 0x1e
    EXPECT_NO_TRAP
    j       pass
    RVTEST_CODE_END

    .data
    .balign 4
tdata:  .word 0x8899aabb, 0x00ff7f01
ptr:    .word tdata
wbuf:   .word 0, 0, 0, 0, 0
    RVTEST_DATA 40
