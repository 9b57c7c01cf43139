/* csr: csr-instructions. Each of size iterations (default 35000) reads the
 * eight user counter CSRs, cycle, time, instret and hpmcounter3 and their
 * high halves (8 csrrs of 20 instructions), and folds them into a value that
 * is stored once and otherwise ignored: counter values never steer control
 * flow or the result. Self-check: a sum of the loop index kept alongside
 * (hidden from the compiler), against its closed form. */
#include "wl.h"

WL_TEST_SIZE(10000);

#define DEFAULT_ITERS 35000u

/* volatile: every read happens, in program order */
#define CSR_READER(name)                           \
	static inline uint32_t read_##name(void)   \
	{                                          \
		uint32_t v;                        \
		__asm__ volatile("csrr %0, " #name \
				 : "=r"(v));       \
		return v;                          \
	}
CSR_READER(cycle)
CSR_READER(cycleh)
CSR_READER(time)
CSR_READER(timeh)
CSR_READER(instret)
CSR_READER(instreth)
CSR_READER(hpmcounter3)
CSR_READER(hpmcounter3h)

static volatile uint32_t counter_fold;

uint32_t workload_main(uint32_t size)
{
	uint32_t iters = size ? size : DEFAULT_ITERS;
	uint32_t fold = 0, sum = 0;
	for (uint32_t i = 0; i < iters; i++) {
		fold ^= read_cycle() + read_cycleh();
		fold += read_time() ^ read_timeh();
		fold ^= read_instret() - read_instreth();
		fold += read_hpmcounter3() ^ read_hpmcounter3h();
		uint32_t k = i;
		OPAQUE(k);
		sum += k;
	}
	counter_fold = fold;
	SABOTAGE(sum--);

	/* iters (iters - 1) / 2 with the even factor halved first, exact mod 2^32 */
	uint32_t want = (iters & 1) ? iters * ((iters - 1) / 2) : (iters / 2) * (iters - 1);
	return sum != want;
}
