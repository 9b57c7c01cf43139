/* fail.S: negative test: stores 3 to tohost (fail, code 1). Both runners
 * must exit 1; proves a failing program is reported as failing. */
    .section .text.init, "ax"
    .globl _start
_start:
    li      t0, 3
    la      t1, tohost
    sw      t0, 0(t1)
1:  j       1b
    .section .tohost, "aw", @progbits
    .balign 8
    .globl tohost
tohost: .word 0, 0
