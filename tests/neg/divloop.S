/* divloop.S: a short program full of divisions and sltu; used with a
 * fault-injected model (div latency / sltu) to prove lockstep catches a
 * model/RTL disagreement. Passes normally. */
    .section .text.init, "ax"
    .globl _start
_start:
    li      a0, 1000
    li      a1, 7
    li      a2, 0
    li      a4, 0x80000000
1:  divu    a3, a0, a1
    rem     a3, a0, a1
    sltu    a5, x0, a4
    add     a2, a2, a5
    addi    a0, a0, -1
    bnez    a0, 1b
    li      t0, 1000
    bne     a2, t0, 2f
    li      t0, 1
    la      t1, tohost
    sw      t0, 0(t1)
2:  li      t0, 3
    la      t1, tohost
    sw      t0, 0(t1)
3:  j       3b
    .section .tohost, "aw", @progbits
    .balign 8
    .globl tohost
tohost: .word 0, 0
