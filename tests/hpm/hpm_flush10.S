/* hpm_flush10.S: hpm_flush.S for a board with 10 counters (architecture 3
 * keeps 7-bit low parts up to 14 counters, docs/hpm.md): counters 3..12
 * count 4 per cycle (ADD of cycles), so each low part carries every 32
 * cycles (7 bits) or 64 (8 bits), the counters at spread phases; counter
 * 4 wraps at 2^64 early, counters 11 and 12 during the run. A block of 20
 * back-to-back counter and selector accesses (a counter write and a
 * selector write among them) holds the store's read port in one cycle of
 * each read's three and two of each write's four, for about 65 cycles; it
 * runs 64 times, shifted by one cycle each time (a nop sled), so it meets
 * every counter's carry at every flush phase. Self-check: counter 3 read
 * before and after the block differs by 4 x (3 x 19 + 4 x 2) (19 reads of
 * three cycles, 2 writes of four); lockstep checks every value
 * read, and hpm-sim-v3-10x64 checks that the flush keeps up (hpm_estore).
 * Needs HPM_NUM >= 10, HPM_WIDTH = 64. */
#include "test_macros.h"
#include "hpm_common.h"
    .option norelax

    RVTEST_CODE_BEGIN
    HPM_QUIET
    TEST 1
    FLUSH_SETUP 11, 12, 3,4,5,6,7,8,9,10,11,12

    TEST 2
    FLUSH_SLED
    csrr    a0, mhpmcounter4
    csrr    a1, mhpmcounter5h
    csrr    a2, mhpmcounter6
    csrr    a3, mhpmevent7
    csrr    a4, mhpmcounter8
    csrw    mhpmcounter9, s2    /* a write among the reads */
    csrr    a5, mhpmcounter10
    csrr    a6, mhpmcounter11
    csrr    a7, mhpmcounter12
    csrr    a0, mhpmevent10h
    csrr    a1, mhpmcounter4h
    csrw    mhpmevent8h, s6     /* a selector write (same value) */
    csrr    a2, mhpmcounter5
    csrr    a3, mhpmcounter6h
    csrr    a4, mhpmcounter7
    csrr    a5, mhpmcounter11h
    csrr    a6, mhpmcounter12h
    csrr    a7, mhpmcounter10
    csrr    a0, mhpmcounter8h
    csrr    a1, mhpmcounter9
    FLUSH_NEXT (4*(3*19+4*2))

    TEST 3                  /* the wraps happened: OF of 4, 11, 12 */
    FLUSH_WRAPPED ((1<<4)|(1<<11)|(1<<12))
    j       pass
    RVTEST_CODE_END
    .data
    RVTEST_DATA 4
