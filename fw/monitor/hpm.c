/* The monitor's HPM driver: any CSR by number, boot-time probing of the
 * counter configuration (the board state), wrap accounting and counter
 * snapshots. */
#include "hpm_soc.h"
#include "monitor.h"

#define CSR_MHPMCOUNTER(n)  (CSR_MHPMCOUNTER3 - 3u + (n))
#define CSR_MHPMCOUNTERH(n) (CSR_MHPMCOUNTER3H - 3u + (n))
#define CSR_MHPMEVENT(n)    (CSR_MHPMEVENT3 - 3u + (n))
#define CSR_MHPMEVENTH(n)   (CSR_MHPMEVENT3H - 3u + (n))
#define GPIO_CLOCK_HZ_REG   HPM_REG32(HPM_GPIO_BASE + 0x8u)
#define CLOCK_HZ_DEFAULT    24000000u

struct board board;                  /* probed at boot */
struct hpm_msg_sample live;
uint32_t records;
uint32_t final_of;

/* Executes one "csrrX a0, csr, a1" through the patched trampoline, so any
 * CSR number can be reached. Returns -1 if the access trapped. */
int csr_access(unsigned op, unsigned csr, uint32_t in, uint32_t *out)
{
	uint32_t rs1 = op == CSR_OP_READ ? 0u : 11u;
	uint32_t funct3 = op == CSR_OP_READ ? CSR_OP_SET : op;
	register uint32_t a0 __asm__("a0");
	register uint32_t a1 __asm__("a1") = in;

	csr_tramp[0] = (uint32_t)(csr & 0xfffu) << 20 | rs1 << 15 | funct3 << 12 |
		       10u << 7 | 0x73u;
	mon_inhibit = csr_read(CSR_MCOUNTINHIBIT);
	csr_trapped = 0;
	__asm__ volatile("fence.i\n\tjalr ra, 0(%2)"
			 : "=r"(a0) : "r"(a1), "r"(csr_tramp) : "ra", "memory");
	if (csr_trapped)
		return -1;
	if (out)
		*out = a0;
	return 0;
}

static void csr_put(unsigned csr, uint32_t v)
{
	csr_access(CSR_OP_WRITE, csr, v, 0);
}

static uint32_t csr_get(unsigned csr)
{
	uint32_t v = 0;
	csr_access(CSR_OP_READ, csr, 0, &v);
	return v;
}

/* The integrity checksum (docs/monitor.md "Integrity"): the sum of word[i]
 * x 3^i (mod 2^32) over the EBR words below __monitor_sum_end (code and
 * constants; not the patched trampoline in .data). Address 0 is a word of
 * code here: the loop runs on an integer address. */
extern const uint32_t __monitor_sum_end[];
__attribute__((noinline)) uint32_t monitor_sum(void)
{
	uint32_t s = 0;
	for (uintptr_t a = (uintptr_t)__monitor_sum_end; a; ) {
		a -= 4;
		s = 3u * s + *(const volatile uint32_t *)a;
	}
	return s;
}

/* Reset state (docs/protocol.md 5.7) and the board's configuration. */
void hpm_init(void)
{
	csr_write(mscratch, 0xffffffffu);
	csr_write(CSR_MCOUNTINHIBIT, 0xffffffffu);
	csr_write(mie, 0);
	csr_write(medeleg, 0);
	csr_write(mideleg, 0);
	csr_write(mcounteren, 0);
	csr_write(scounteren, 0);
	csr_clear(mip, MIP_LCOFIP);
	CLINT_MTIMECMPH = 0xffffffffu;
	CLINT_MTIMECMP = 0xffffffffu;
	csr_write(CSR_MCYCLECFG, 0);   /* mcyclecfg(h), minstretcfg(h) */
	csr_write(CSR_MCYCLECFGH, 0);
	csr_write(CSR_MINSTRETCFG, 0);
	csr_write(CSR_MINSTRETCFGH, 0);
	csr_write(mcycle, 0);
	csr_write(mcycleh, 0);
	csr_write(minstret, 0);
	csr_write(minstreth, 0);

	board.hpm_num = 0;
	for (unsigned n = 3; n < HPM_NCOUNTERS; n++) {
		csr_put(CSR_MHPMEVENT(n), 0);
		csr_put(CSR_MHPMEVENTH(n), 0);
		csr_put(CSR_MHPMCOUNTER(n), 1);
		if (csr_get(CSR_MHPMCOUNTER(n)))
			board.hpm_num++;
		write_counter(n, 0);
	}
	board.hpm_width = 64;
	if (board.hpm_num) {
		/* the bits of each half that keep a 1, one half at a time */
		board.hpm_width = 0;
		for (unsigned c = CSR_MHPMCOUNTER(3); c <= CSR_MHPMCOUNTERH(3); c += 0x80) {
			csr_put(c, 0xffffffffu);
			board.hpm_width += (uint8_t)hpm_popcount32(csr_get(c));
			csr_put(c, 0);
		}
	}
	csr_get(CSR_MTDFE16);
	board.td_counts = !csr_trapped;
	board.present = 0x7u | ((1u << board.hpm_num) - 1u) << 3;
	board.clock_hz = GPIO_CLOCK_HZ_REG ? GPIO_CLOCK_HZ_REG : CLOCK_HZ_DEFAULT;
}

/* A host write to a counter restarts its wrap count. */
void counter_written(unsigned csr)
{
	unsigned n = csr & 0x1fu;
	if ((csr & ~0x9fu) == CSR_MCYCLE && n >= 3)       /* mhpmcounterN, N >= 3 */
		live.wraps[n] = 0;
}

_Static_assert(HPM_PROF_STACK == 16 && WL_RAM_SIZE == 0x1f000, "entry.S walk_stack has both");

/* Counts one wrap per OF bit set, clears them and LCOFIP. A counter with a
 * sampling period (period[n - 3] != 0) also gives a profile sample: mepc,
 * the mode the workload was in, mcycle and (RUN flag STACK) its call chain,
 * sent at once, and restarts its period from the wrap (docs/protocol.md
 * 6.7). Returns the OF bits seen. */
uint32_t account_wraps(const uint64_t *period, uint8_t seq)
{
	uint32_t of = csr_read(CSR_SCOUNTOVF) & board.present;
	for (unsigned n = 3; n < HPM_NCOUNTERS; n++) {
		if (of >> n & 1u) {
			uint64_t p = period[n - 3];
			live.wraps[n]++;
			csr_access(CSR_OP_CLEAR, CSR_MHPMEVENTH(n), 1u << 31, 0);
			if (p) {
				uint32_t rec[HPM_PROF_LEN / 4 + HPM_PROF_STACK];
				rec[0] = records++;
				rec[1] = csr_read(mepc);
				rec[2] = n | (csr_read(mstatus) & (3u << 11));
				rec[3] = csr_read(mcycle);
				rec[4] = csr_read(mcycleh);
				size_t len = HPM_PROF_LEN + (run_flags & HPM_RUN_STACK ? walk_stack(rec + 5) : 0);
				write_counter(n, read_counter(n) - p);
				send_record(HPM_T_PROFILE, seq, rec, len);
			}
		}
	}
	csr_clear(mip, MIP_LCOFIP);
	return of;
}

/* Counter n as 64 bits, read hi-lo-hi (the counters are stopped, but a host
 * may have enabled them while idle). */
uint64_t read_counter(unsigned n)
{
	uint32_t hi, lo;
	do {
		hi = csr_get(CSR_MHPMCOUNTERH(n));
		lo = csr_get(CSR_MHPMCOUNTER(n));
	} while (csr_get(CSR_MHPMCOUNTERH(n)) != hi);
	return (uint64_t)hi << 32 | lo;
}

void write_counter(unsigned n, uint64_t v)
{
	csr_put(CSR_MHPMCOUNTER(n), (uint32_t)v);
	csr_put(CSR_MHPMCOUNTERH(n), (uint32_t)(v >> 32));
}

/* value[n] for each set bit of mask, 0 for the others */
void read_counters(uint32_t mask, uint64_t *value)
{
	for (unsigned n = 0; n < HPM_NCOUNTERS; n++)
		value[n] = !(mask >> n & 1u) ? 0 : n == 1 ? hpm_mtime64() : read_counter(n);
}

void take_snapshot(struct hpm_msg_snapshot *s)
{
	s->present = board.present;
	s->overflowed = final_of | (csr_read(CSR_SCOUNTOVF) & board.present);
	read_counters(board.present, s->value);
	for (unsigned i = 0; i < HPM_NHPM; i++)
		s->wraps[i] = live.wraps[3 + i];
}
