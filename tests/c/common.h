/* common.h: helpers for the self-checking C programs in tests/c/.
 * main() returns 0 on success or the number of the failed check; crt0
 * turns that into tohost (1 = pass, (n << 1) | 1 = fail). */
#ifndef TESTS_C_COMMON_H
#define TESTS_C_COMMON_H
#include <stdint.h>
#include "hpm_lib.h"
#include "hpm_rand.h"     /* xs32 */

#define CHECK(n, cond) do { if (!(cond)) { printf("check %d failed\n", (n)); return (n); } } while (0)
#endif
