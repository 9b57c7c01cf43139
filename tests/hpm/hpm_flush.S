/* hpm_flush.S: counter and selector accesses at every phase of the carry
 * flush (docs/hpm.md, "Counting architecture 3"). Every counter counts 4 per
 * cycle (ADD of cycles), so each low part (8 bits) carries every 64 cycles,
 * the counters at spread phases; counter 4's upper part is all ones (a wrap
 * at its low part's carry), counters 30 and 31 wrap at 2^64 during the run.
 * A block of 32 back-to-back counter and selector accesses (a selector
 * write, a counter write among them) holds the store's read port in one
 * cycle of each read's three and two of each write's four, for about 95
 * cycles; it runs 64 times, shifted by one cycle each time (a nop sled), so
 * it meets every counter's carry at every flush phase. Self-check: counter
 * 3 read before and after the block differs by 4 x (3 x 29 + 4 x 2) (29
 * reads of three cycles, 2 writes of four); lockstep checks every value
 * read, and hpm-sim-v3 checks that the flush keeps up (hpm_estore).
 * Needs HPM_NUM = 29, HPM_WIDTH = 64 (default build only). */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

    RVTEST_CODE_BEGIN
    HPM_QUIET
    TEST 1
    FLUSH_SETUP 30, 31, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31

    TEST 2
    FLUSH_SLED
    csrr    a0, mhpmcounter4
    csrr    a1, mhpmcounter5h
    csrr    a2, mhpmcounter6
    csrr    a3, mhpmevent7
    csrr    a4, mhpmcounter8
    csrr    a5, mhpmcounter9
    csrr    a6, mhpmcounter10
    csrr    a7, mhpmcounter11
    csrw    mhpmcounter12, s2   /* a write among the reads */
    csrr    a0, mhpmcounter13
    csrr    a1, mhpmcounter14
    csrr    a2, mhpmevent15h
    csrr    a3, mhpmcounter16
    csrr    a4, mhpmcounter4h
    csrr    a5, mhpmcounter18
    csrw    mhpmevent19h, s6    /* a selector write (same value) */
    csrr    a6, mhpmcounter20
    csrr    a7, mhpmcounter21
    csrr    a0, mhpmcounter22
    csrr    a1, mhpmcounter23
    csrr    a2, mhpmcounter24
    csrr    a3, mhpmcounter25
    csrr    a4, mhpmcounter26
    csrr    a5, mhpmcounter27
    csrr    a6, mhpmcounter28
    csrr    a7, mhpmcounter29
    csrr    a0, mhpmcounter30
    csrr    a1, mhpmcounter31h
    csrr    a2, mhpmcounter30h
    csrr    a3, mhpmcounter31
    FLUSH_NEXT (4*(3*29+4*2))

    TEST 3                  /* the wraps happened: OF of 4, 30, 31 */
    FLUSH_WRAPPED ((1<<4)|(1<<30)|(1<<31))
    j       pass
    RVTEST_CODE_END
    .data
    RVTEST_DATA 4
