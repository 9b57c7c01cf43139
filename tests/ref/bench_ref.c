/* bench_ref: measures hpmref_step speed on a plain loop (instructions/s).
 * Not a test: speed is reported, never asserted. */
#include "hpmref.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 200000000ull;
    /* 0x80000000: li a0, 0x7fffffff (lui+addi); loop: addi a1,a1,1; xor a2,a2,a1;
     * lw a3,0(sp); addi a0,a0,-1; bnez a0, loop */
    const uint32_t prog[] = {
        0x80000537, /* lui a0, 0x80000 */
        0xfff50513, /* addi a0, a0, -1 */
        0x80000137, /* lui sp, 0x80000 */
        0x00158593, /* loop: addi a1, a1, 1 */
        0x00b64633, /* xor a2, a2, a1 */
        0x00012683, /* lw a3, 0(sp) */
        0xfff50513, /* addi a0, a0, -1 */
        0xfe0518e3, /* bnez a0, loop (-16) */
    };
    hpmref_config cfg = { .boot_addr = HPM_RAM_BASE, .uart_div = 8, .fault = 0 };
    hpmref *m = hpmref_new(&cfg);
    hpmref_write_mem(m, HPM_RAM_BASE, prog, sizeof prog);
    hpm_retire r;
    struct timespec a, b, ca, cb;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
    for (uint64_t i = 0; i < n; i++)
        hpmref_step(m, &r);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    double c = (double)(cb.tv_sec - ca.tv_sec) + 1e-9 * (double)(cb.tv_nsec - ca.tv_nsec);
    printf("bench-ref: %llu steps: wall %.3f s = %.1f M instructions/s, "
           "cpu %.3f s = %.1f M instructions/s (cycle %llu)\n",
           (unsigned long long)n, s, (double)n / s / 1e6, c, (double)n / c / 1e6,
           (unsigned long long)hpmref_cycle(m));
    hpmref_free(m);
    return 0;
}
