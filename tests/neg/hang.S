/* hang.S: negative test: never halts. With --max-cycles both runners must
 * exit 2. */
    .section .text.init, "ax"
    .globl _start
_start:
    li      t0, 0
1:  addi    t0, t0, 1
    j       1b
    .section .tohost, "aw", @progbits
    .balign 8
    .globl tohost
tohost: .word 0, 0
