/* wl.h: shared helpers for the benchmark workloads (fw/workloads/).
 * Each workload defines workload_main(), called by wl_crt.S with the size
 * parameter (0 = its default), returning 0 when its self-check passed and a
 * small non-zero failure code otherwise, and wl_test_size, the size the bare
 * harness (bare.S) runs it with. */
#ifndef WL_H
#define WL_H
#include <stdint.h>
#include "hpm_rand.h"     /* xs32: deterministic data */

uint32_t workload_main(uint32_t size);
extern const uint32_t wl_test_size;

/* the harness reads wl_test_size; the uploaded ELF drops it (gc-sections) */
#define WL_TEST_SIZE(n) const uint32_t wl_test_size = (n)

/* WL_SABOTAGE builds corrupt their own result before checking it, so the
 * tests can show that every self-check is able to fail */
#ifdef WL_SABOTAGE
#define SABOTAGE(stmt) \
	do {           \
		stmt;  \
	} while (0)
#else
#define SABOTAGE(stmt) \
	do {           \
	} while (0)
#endif

static inline uint32_t rotl32(uint32_t x, unsigned k)
{
	return (x << k) | (x >> (32 - k));
}

static inline uint32_t rotr32(uint32_t x, unsigned k)
{
	return (x >> k) | (x << (32 - k));
}

/* keeps the compiler from computing loop results in closed form */
#define OPAQUE(v) __asm__("" \
			  : "+r"(v))
#endif
