/* hpm_counts.S: every event of hw/hpm/events.def counted over small blocks
 * whose counts are known by construction (docs/timing.md, events.def).
 * Counter n counts event n - 2 (mhpmcounter3 = cycles ... mhpmcounter31 =
 * wfi-cycles); all 29 count at once, started and stopped by mcountinhibit:
 * the write of 0 in cycle t counts from t + 1, the write of all-ones in cycle
 * u still counts cycle u, so every window also holds that one csrw (1 cycle,
 * 1 instruction, 1 csr-instruction, 1 retiring slot).
 * Then: the combining ops on a loop (OR/AND/XOR/ADD in each of op0/op1/op2,
 * chosen so every result differs), WARL legalisation of the selector, a
 * counter write in the cycle of an event (the write wins), and a counter in
 * its selector's refill window, which counts a cycle late (docs/hpm.md).
 * Needs HPM_NUM = 29, HPM_WIDTH >= 32 (default build only). */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

/* all 29 counters: counter n counts event n - 2 */
.macro SETUP_ALL
    csrw    mcountinhibit, s1
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    SELN    \n, (\n - 2)
    .endr
.endm
.macro ZERO_ALL
    csrw    mcountinhibit, s1
    .irp n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    csrw    mhpmcounter\n, zero
    .endr
.endm
.macro START
    csrw    mcountinhibit, zero
.endm
.macro STOP
    csrw    mcountinhibit, s1
.endm
/* expected count of every event, in catalogue order */
.macro ALL cyc, ins, ld, st, jmp, br, tk, ms, mul, div, mds, fs, mems, hz, exc, irq, csr, fen, fl, ret, bad, fe, be, brm, clr, flat, memb, coreb, wfi
    CNT     3, \cyc
    CNT     4, \ins
    CNT     5, \ld
    CNT     6, \st
    CNT     7, \jmp
    CNT     8, \br
    CNT     9, \tk
    CNT     10, \ms
    CNT     11, \mul
    CNT     12, \div
    CNT     13, \mds
    CNT     14, \fs
    CNT     15, \mems
    CNT     16, \hz
    CNT     17, \exc
    CNT     18, \irq
    CNT     19, \csr
    CNT     20, \fen
    CNT     21, \fl
    CNT     22, \ret
    CNT     23, \bad
    CNT     24, \fe
    CNT     25, \be
    CNT     26, \brm
    CNT     27, \clr
    CNT     28, \flat
    CNT     29, \memb
    CNT     30, \coreb
    CNT     31, \wfi
.endm

/* block A: 10 loads in a loop (lw 2 + addi 1 + bnez 1 = 4 cycles an
 * iteration, the exit mispredicted: + 1 bubble), + the STOP csrw:
 * 42 cycles, 31 instructions, 10 loads, 10 branches (9 taken, 1 miss),
 * mem-stall 10 (first X cycle of each lw), 1 bubble (bad-spec). */
.macro BLOCK_A
    li      t3, 10
    START
1:  lw      t1, 0(s0)
    addi    t3, t3, -1
    bnez    t3, 1b
    STOP
.endm

    RVTEST_CODE_BEGIN
    la      s0, hdata
    li      s1, -1
    li      s2, 7
    csrw    mie, zero
    SETUP_ALL

    /* ---- A: loads ---- */
    TEST 1
    BLOCK_A
    /*  cyc ins ld st jmp br tk ms mul div mds fs mems hz exc irq csr fen fl ret bad fe be brm clr flat memb coreb wfi */
    ALL 42, 31, 10, 0, 0, 10, 9, 1, 0, 0, 0, 1, 10, 0, 0, 0, 1, 0, 1, 31, 1, 0, 10, 1, 0, 0, 10, 0, 0

    /* ---- B: 8 stores in a loop: 8 x 4 + 1 bubble + STOP = 34 cycles ---- */
    TEST 2
    ZERO_ALL
    li      t3, 8
    START
1:  sw      t3, 4(s0)
    addi    t3, t3, -1
    bnez    t3, 1b
    STOP
    ALL 34, 25, 0, 8, 0, 8, 7, 1, 0, 0, 0, 1, 8, 0, 0, 0, 1, 0, 1, 25, 1, 0, 8, 1, 0, 0, 8, 0, 0

    /* ---- C: branches with BTFN prediction and jumps ----
     * beq fwd taken (miss), bne fwd not taken (hit), jal, beq bwd taken
     * (hit), beq fwd taken (miss), bne bwd not taken (miss), la (2),
     * jalr (not predicted: fe-bound bubble), STOP: 10 instructions,
     * 4 bubbles (3 bad-spec, 1 fe-bound) = 14 cycles */
    TEST 3
    ZERO_ALL
    START
    beq     x0, x0, 1f
1:  bne     x0, x0, 2f
2:  jal     x0, 4f
3:  beq     x0, x0, 5f
4:  beq     x0, x0, 3b
5:  bne     x0, x0, 3b
    la      t4, 6f
    jalr    x0, 0(t4)
6:  STOP
    ALL 14, 10, 0, 0, 2, 5, 3, 3, 0, 0, 0, 4, 0, 0, 0, 0, 1, 0, 4, 10, 3, 1, 0, 3, 0, 1, 0, 0, 0

    /* ---- D: mul (5), mulh (6), div (34), remu (35) + STOP = 81 ---- */
    TEST 4
    ZERO_ALL
    li      t1, 12345
    START
    mul     t2, t1, t1
    mulh    t2, t1, t1
    div     t2, t1, s2
    remu    t2, t1, zero
    STOP
    ALL 81, 5, 0, 0, 0, 0, 0, 0, 2, 2, 76, 0, 0, 0, 0, 0, 1, 0, 0, 5, 0, 0, 76, 0, 0, 0, 0, 76, 0

    /* ---- E: fence, fence.i (redirect: fe-bound bubble), 3 CSR
     * instructions + STOP: 6 instructions, 8 cycles. The csrrw of mscratch
     * (a CSR in the register file EBR, with an rd) refetches pc+4: a second
     * fe-bound bubble, but not a flush ---- */
    TEST 5
    ZERO_ALL
    START
    fence
    fence.i
    csrr    a0, mscratch
    csrrw   a0, mscratch, a0
    csrrs   x0, mscratch, x0
    STOP
    ALL 8, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 4, 2, 1, 6, 0, 2, 0, 0, 0, 2, 0, 0, 0

    /* ---- F: exceptions (ebreak, ecall, misaligned lw) through the M
     * handler: exact counts of the exception events, and the identities
     * for the rest (the handler's own instructions count too) ---- */
    TEST 6
    ZERO_ALL
    TRAP_CLEAR
    START
    ebreak
    ecall
    lw      t1, 1(s0)
    STOP
    CHECK   s9, 3
    CNT     5, 0            /* the misaligned lw does not retire */
    CNT     15, 0           /* ... nor touch the bus */
    CNT     17, 3           /* exceptions */
    CNT     18, 0           /* interrupts */
    CNT     27, 6           /* machine-clears: X cycle + bubble each */
    csrr    a3, mhpmcounter3    /* cycles */
    csrr    a4, mhpmcounter22   /* retiring */
    csrr    a5, mhpmcounter23   /* bad-spec */
    csrr    a6, mhpmcounter24   /* fe-bound */
    csrr    a7, mhpmcounter25   /* be-bound */
    csrr    t1, mhpmcounter26   /* br-mispredict */
    csrr    t2, mhpmcounter14   /* fetch-stall */
    csrr    t3, mhpmcounter21   /* flushes */
    .irp r, a3, a4, a5, a6, a7, t1, t2, t3
    SIG     \r
    .endr
    TEST 7                  /* cycles = retiring + bad-spec + fe + be */
    add     t0, a4, a5
    add     t0, t0, a6
    add     t0, t0, a7
    CHECKR  t0, a3
    TEST 8                  /* bad-spec = br-mispredict + machine-clears */
    addi    t0, t1, 6
    CHECKR  t0, a5
    TEST 9                  /* fetch-stall = flushes = brm + exc + fe */
    addi    t0, t1, 3
    add     t0, t0, a6
    CHECKR  t0, t2
    CHECKR  t0, t3
    TEST 10                 /* retiring = instructions */
    csrr    t0, mhpmcounter4
    CHECKR  t0, a4

    /* ---- G: a load and a store access fault through the M handler.
     * Each spends its first X cycle as any load/store does (cycles,
     * mem-stall-cycles, topdown-be-bound, topdown-mem-bound; it accesses
     * nothing) and traps in its second (exceptions, flushes,
     * machine-clears, then the bubble); neither retires. The handler has
     * no stall cycle and no load/store (docs/timing.md) ---- */
    TEST 11
    ZERO_ALL
    TRAP_CLEAR
    li      t4, BAD_ADDR
    START
    lw      t1, 0(t4)
    sw      t1, 0(t4)
    STOP
    CHECK   s9, 2
    CNT     5, 0            /* loads */
    CNT     6, 0            /* stores */
    CNT     15, 2           /* mem-stall-cycles: the first X cycle of each */
    CNT     17, 2           /* exceptions */
    CNT     25, 2           /* be-bound: the same two cycles */
    CNT     27, 4           /* machine-clears: trap cycle + bubble each */
    CNT     29, 2           /* mem-bound */

    /* ---- the combining ops, on counter 3 over block A. Per cycle of A:
     * load 1st X: cyc; load 2nd X: cyc instr load; addi: cyc instr;
     * bnez: cyc instr branch; bubble: cyc; STOP: cyc instr ---- */
.macro OPRUN n, lo, hi, expected
    TEST    \n
    ZERO_ALL
    li      t0, \lo
    csrw    mhpmevent3, t0
    li      t0, \hi
    csrw    mhpmevent3h, t0
    BLOCK_A
    CNT     3, \expected
.endm
    /* op0 on E0 = cycles (42), E1 = loads (10) */
    OPRUN 20, SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, 0, 0), SEL_HI(0, OP_OR, OP_OR, OP_OR), 42
    OPRUN 21, SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, 0, 0), SEL_HI(0, OP_AND, OP_OR, OP_OR), 10
    OPRUN 22, SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, 0, 0), SEL_HI(0, OP_XOR, OP_OR, OP_OR), 32
    OPRUN 23, SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, 0, 0), SEL_HI(0, OP_ADD, OP_OR, OP_OR), 52
    /* op1 on E2 = instructions (31), E3 = branches (10) */
    OPRUN 24, SEL_LO(0, 0, HPM_EV_INSTRUCTIONS, HPM_EV_BRANCHES), SEL_HI(HPM_EV_BRANCHES, OP_OR, OP_OR, OP_OR), 31
    OPRUN 25, SEL_LO(0, 0, HPM_EV_INSTRUCTIONS, HPM_EV_BRANCHES), SEL_HI(HPM_EV_BRANCHES, OP_OR, OP_AND, OP_OR), 10
    OPRUN 26, SEL_LO(0, 0, HPM_EV_INSTRUCTIONS, HPM_EV_BRANCHES), SEL_HI(HPM_EV_BRANCHES, OP_OR, OP_XOR, OP_OR), 21
    OPRUN 27, SEL_LO(0, 0, HPM_EV_INSTRUCTIONS, HPM_EV_BRANCHES), SEL_HI(HPM_EV_BRANCHES, OP_OR, OP_ADD, OP_OR), 41
    /* op2 on R0 = cycles ADD loads (1 or 2), R1 = instr ADD branches
     * (0, 1 or 2), bitwise on the counts: per cycle kind (x10 each:
     * load 1st, load 2nd, addi, bnez; x1: bubble, STOP)
     *   R0 1,2,1,1,1,1  R1 0,1,1,2,0,1
     *   ADD 1,3,2,3,1,2 = 93   OR 1,3,1,3,1,1 = 82
     *   AND 0,0,1,0,0,1 = 11   XOR 1,3,0,3,1,0 = 71 */
    OPRUN 28, SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, HPM_EV_INSTRUCTIONS, HPM_EV_BRANCHES), SEL_HI(HPM_EV_BRANCHES, OP_ADD, OP_ADD, OP_ADD), 93
    OPRUN 29, SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, HPM_EV_INSTRUCTIONS, HPM_EV_BRANCHES), SEL_HI(HPM_EV_BRANCHES, OP_ADD, OP_ADD, OP_OR), 82
    OPRUN 30, SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, HPM_EV_INSTRUCTIONS, HPM_EV_BRANCHES), SEL_HI(HPM_EV_BRANCHES, OP_ADD, OP_ADD, OP_AND), 11
    OPRUN 31, SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, HPM_EV_INSTRUCTIONS, HPM_EV_BRANCHES), SEL_HI(HPM_EV_BRANCHES, OP_ADD, OP_ADD, OP_XOR), 71
    /* illegal op encodings are stored as OR (read back 0) and count as OR */
    OPRUN 32, SEL_LO(HPM_EV_CYCLES, HPM_EV_LOADS, 0, 0), SEL_HI(0, 3, 5, 31), 42
    TEST 33
    csrr    a0, mhpmevent3h
    SIGCHK  a0, 0
    .irp op, 3, 5, 6, 7, 8, 16, 31
    li      t0, SEL_HI(0, \op, \op, \op)
    csrw    mhpmevent3h, t0
    csrr    a0, mhpmevent3h
    SIGCHK  a0, 0
    .endr

    /* ---- WARL of the event fields and bits 59..55 ---- */
    TEST 40                 /* every valid index reads back (incl. the last) */
    li      t0, SEL_LO(HPM_EVENT_MAX_INDEX, 17, 1, 2)
    csrw    mhpmevent4, t0
    li      t0, SEL_HI(2, OP_XOR, OP_AND, OP_ADD) | MINH | UINH
    csrw    mhpmevent4h, t0
    csrr    a0, mhpmevent4
    csrr    a1, mhpmevent4h
    SIGCHK  a0, SEL_LO(HPM_EVENT_MAX_INDEX, 17, 1, 2)
    SIGCHK  a1, SEL_HI(2, OP_XOR, OP_AND, OP_ADD) | MINH | UINH
    TEST 41                 /* indexes above the catalogue are stored as 0 */
    csrw    mhpmevent4h, zero
    li      t0, SEL_LO(HPM_EVENT_MAX_INDEX + 1, 1023, 3, 0)
    csrw    mhpmevent4, t0
    csrr    a0, mhpmevent4
    SIGCHK  a0, SEL_LO(0, 0, 3, 0)
    li      t0, SEL_LO(512, 100, 64, 0)
    csrw    mhpmevent4, t0
    csrr    a0, mhpmevent4
    SIGCHK  a0, 0
    TEST 42                 /* bits 59..55 read 0; OF and the inhibits stay */
    li      t0, 0x0f800000 | OF | MINH | SINH | UINH
    csrw    mhpmevent4h, t0
    csrr    a0, mhpmevent4h
    SIGCHK  a0, OF | MINH | SINH | UINH
    li      t0, 0x0f800000
    csrw    mhpmevent4h, t0
    csrr    a0, mhpmevent4h
    SIGCHK  a0, 0
    TEST 43                 /* all ones: ops -> OR, E3 = 1020 -> 0 */
    csrw    mhpmevent4, zero
    li      t0, -1
    csrw    mhpmevent4h, t0
    csrr    a0, mhpmevent4h
    csrr    a1, mhpmevent4
    SIGCHK  a0, OF | MINH | SINH | UINH
    SIGCHK  a1, 0
    csrw    mhpmevent4h, zero
    li      t0, HPM_EV_INSTRUCTIONS
    csrw    mhpmevent4, t0
    TEST 44                 /* an invalid index counts nothing */
    ZERO_ALL
    li      t0, SEL_LO(HPM_EVENT_MAX_INDEX + 1, 0, 0, 0)
    csrw    mhpmevent3, t0
    csrw    mhpmevent3h, zero
    BLOCK_A
    CNT     3, 0
    CNT     4, 31

    /* ---- a counter write in the cycle of an event: the write wins.
     * counter 3 = cycles + instructions + csr + cycles (ADD): 4 in the
     * commit cycle of every CSR instruction, 2 in each wait cycle of a
     * counter access (cycles only; a read waits two cycles and reads at
     * the start of the second, a write waits three, docs/timing.md) ---- */
    TEST 50
    csrw    mcountinhibit, zero
    li      t0, SEL_LO(HPM_EV_CYCLES, HPM_EV_INSTRUCTIONS, HPM_EV_CSR_INSTRUCTIONS, HPM_EV_CYCLES)
    csrw    mhpmevent3, t0
    li      t0, SEL_HI(HPM_EV_CYCLES, OP_ADD, OP_ADD, OP_ADD)
    csrw    mhpmevent3h, t0
    li      t1, 100
    li      t2, 7
    .rept 144
    nop                             /* the selector write's refill window ends */
    .endr
    csrw    mhpmcounter3, t1        /* commits in t: its increment (4) is dropped */
    csrr    a0, mhpmcounter3        /* t+1 wait (2), reads at t+2: 102 */
    csrr    a1, mhpmcounter3        /* t+2 (2), t+3 (4), t+4 (2), reads at t+5: 110 */
    SIGCHK  a0, 102
    SIGCHK  a1, 110
    TEST 51                         /* a write of the high half also drops the increment */
    csrw    mhpmcounter3, t1        /* t */
    csrw    mhpmcounter3h, t2       /* t+1 .. t+3 (2 each), t+4: dropped */
    csrr    a0, mhpmcounter3        /* t+5 (2), reads at t+6: 108 */
    csrr    a1, mhpmcounter3h       /* reads at t+9: 7 */
    csrr    a2, mhpmcounter3        /* t+6 .. t+11 (2 + 4 + 2 + 2 + 4 + 2), reads at t+12: 124 */
    SIGCHK  a0, 108
    SIGCHK  a1, 7
    SIGCHK  a2, 124
    TEST 52                         /* a write while inhibited: exact value */
    csrwi   mcountinhibit, 8
    csrw    mhpmcounter3, t2
    csrw    mhpmcounter3h, zero
    csrr    a0, mhpmcounter3
    csrwi   mcountinhibit, 0        /* u: counts from the next cycle */
    csrr    a1, mhpmcounter3        /* u+1 (2), reads at u+2: 9 */
    csrr    a2, mhpmcounter3        /* u+2 (2), u+3 (4), u+4 (2), reads at u+5: 17 */
    SIGCHK  a0, 7
    SIGCHK  a1, 9
    SIGCHK  a2, 17

    /* ---- the refill window c+1 .. c+144 of a selector write committing in
     * c: its counter counts each cycle's increment in the next cycle,
     * nothing in c+1, and the increment of c+144 never (docs/hpm.md) ---- */
    TEST 53                         /* reads and a write in the window */
    csrw    mhpmevent3h, t0         /* the same selector: commits in c */
    csrw    mhpmcounter3, t1        /* c+1 (adds 0), c+2, c+3 (add c+1's, c+2's:
                                     * 2 each), c+4: drops c+3's (2), writes 100 */
    csrr    a0, mhpmcounter3        /* c+5 adds c+4's (4), reads at c+6: 104 */
    csrr    a1, mhpmcounter3        /* c+6 .. c+8 add c+5's (2), c+6's (2),
                                     * c+7's (4); enters c+8, reads at c+9: 112 */
    SIGCHK  a0, 104
    SIGCHK  a1, 112
    TEST 54                         /* cycles over the window: c+144 is not counted */
    li      t0, HPM_EV_CYCLES
    csrw    mhpmevent3h, zero
    csrw    mhpmevent3, zero        /* counts nothing */
    .rept 144
    nop
    .endr
    csrw    mhpmcounter3, zero
    csrr    a0, mcycle              /* m */
    csrw    mhpmevent3, t0          /* m+1 .. m+3, commits in c = m+4 */
    .rept 200
    nop
    .endr
    csrr    a1, mcycle              /* u */
    csrr    a2, mhpmcounter3        /* u+1, reads at u+2: cycles c+1 .. u+1 but c+144 */
    sub     a1, a1, a0
    sub     a1, a1, a2              /* u - m - (u - c) = 4 */
    SIGCHK  a1, 4
    csrw    mcountinhibit, s1
    j       pass
    RVTEST_CODE_END
    .data
    .balign 4
hdata:  .word 0x1234, 0
    RVTEST_DATA 240
