/* rvgen: seeded random RV32IM + Zicsr program generator for lockstep tests.
 *
 *   rvgen --seed N [--length L] [--lcofi] [-o out.S]
 *
 * --lcofi also enables the LCOFI interrupt (mie/sie bit 13); without it
 * overflows only set OF and mip.LCOFIP (the same program otherwise).
 *
 * L (default 10000) is the number of generated items (an item is one
 * instruction, or a short group such as li+sw or a bounded loop). At most
 * 16000 items are distinct (the 128 KiB RAM holds about 24k); a longer
 * program runs its body ceil(L / 16000) times.
 *
 * Writes one self-contained assembly program (link with fw/common/ram.ld)
 * that is the same for the same seed and length, always terminates and ends
 * by storing 1 to tohost. The stream mixes:
 *   - ALU reg-reg / reg-imm ops incl. mul/div/rem on random registers,
 *   - loads/stores of every width inside a 4 KiB data area (base sp),
 *     occasionally misaligned or outside every region (they trap),
 *   - forward branches, short bounded backward loops (counter gp),
 *     jal/jalr to forward labels, calls to leaf functions,
 *   - CSR reads/writes (scratch-safe CSRs, counters, mstatus safe bits,
 *     mie, counter enables; some trap depending on the current mode),
 *   - HPM programming: mhpmevent selectors (random events incl. indexes
 *     beyond the catalogue, ops incl. illegal encodings, MINH/SINH/UINH/OF),
 *     counter writes near the wrap of every width (64, 40, 32, 8, 1 bits),
 *     counter/selector/scountovf reads, mcountinhibit, mcyclecfg and
 *     minstretcfg, random mcounteren/scounteren, the LCOFI interrupt
 *     (mie/sie bit 13, sometimes delegated through mideleg bit 13; the M
 *     handler clears mip.LCOFIP, every OF bit and mie.LCOFIE, the S handler
 *     sip.LCOFIP and sie.LCOFIE),
 *   - ecall (the handler switches to a pseudo-random mode M/S/U),
 *     ebreak and illegal instructions (skipped by the handler),
 *   - timer (mtimecmp near now), msip and mip.SSIP interrupts, wfi,
 *   - device register loads, UART bytes, LED writes,
 *   - self-modifying code (a later addi patched, with or without fence.i).
 * medeleg/mideleg are set up per seed, so some traps go to the S handler.
 *
 * Register use: sp = data pointer, gp = loop counter, tp and s11 = scratch
 * for addresses, t3..t6 belong to the trap handlers (t4 holds the LFSR that
 * picks the next mode; the M handler uses t3/t5, the S handler t6 only, so
 * an M interrupt taken inside the S handler is harmless). Every other register (ra, t0-t2, s0-s10, a0-a7) is
 * random. The handlers clear every interrupt source they take, so nothing
 * storms; no fetch faults are generated (they could not be skipped).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdarg.h>
#include "hpm_map.h" /* the memory map (hw/soc/memmap.def) */

#define MSIP_A (HPM_CLINT_BASE + CLINT_MSIP_OFF)
#define MTIMECMP_A (HPM_CLINT_BASE + CLINT_MTIMECMP_OFF)
#define MTIME_A (HPM_CLINT_BASE + CLINT_MTIME_OFF)

#define MAX_BODY 16000L /* distinct items that fit in RAM with room to spare */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	/* xorshift64* */
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Dull;
}
static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)((rnd64() >> 32) % n) : 0;
}
static uint32_t rnd32(void)
{
	return (uint32_t)(rnd64() >> 32);
}
static int chance(unsigned pct)
{
	return rnd(100) < pct;
}

/* random-use registers */
static const int RAND_REGS[] = { 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
				 18, 19, 20, 21, 22, 23, 24, 25, 26 };
#define N_RAND_REGS (int)(sizeof RAND_REGS / sizeof RAND_REGS[0])

static FILE *out;
static long emitted; /* instructions (items) emitted */
static int label_seq;

/* forward labels waiting to be placed */
#define MAX_PENDING 64
static struct {
	int id;
	int left;
	int slot_reg;
} pending[MAX_PENDING];
static int n_pending;

static int rreg(void)
{
	return RAND_REGS[rnd(N_RAND_REGS)];
}
static int rreg_no_ra(void)
{
	int r;
	do
		r = rreg();
	while (r == 1);
	return r;
}
/* a source register: mostly random regs, sometimes x0 or sp */
static int sreg(void)
{
	unsigned c = rnd(40);
	if (c == 0) return 0;
	if (c == 1) return 2;
	return rreg();
}

static uint32_t interesting(void)
{
	static const uint32_t v[] = { 0, 1, 2, 0xffffffffu, 0x80000000u, 0x7fffffffu,
				      0x80000001u, 0xfffffffeu, 31, 32, 0x55555555u, 0xaaaaaaaau };
	if (chance(40))
		return v[rnd(sizeof v / sizeof v[0])];
	return rnd32();
}

static void ins(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void ins(const char *fmt, ...)
{
	va_list ap;
	fputs("    ", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

static void place_labels(int all)
{
	for (int i = 0; i < n_pending;) {
		if (all || pending[i].left <= 0) {
			fprintf(out, ".Lf%d:\n", pending[i].id);
			if (pending[i].slot_reg > 0) /* a patchable instruction */
				ins("addi x%d, x%d, 1", pending[i].slot_reg, pending[i].slot_reg);
			pending[i] = pending[--n_pending];
		} else {
			i++;
		}
	}
}
static void tick(void)
{
	emitted++;
	for (int i = 0; i < n_pending; i++)
		pending[i].left--;
	place_labels(0);
}
static int new_forward_label(void)
{
	if (n_pending == MAX_PENDING)
		place_labels(1);
	int id = label_seq++;
	pending[n_pending].id = id;
	pending[n_pending].left = 1 + (int)rnd(8);
	pending[n_pending].slot_reg = 0;
	n_pending++;
	return id;
}

static const char *RR_OPS[] = { "add", "sub", "and", "or", "xor", "slt", "sltu", "sll", "srl", "sra" };
static const char *MD_OPS[] = { "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu" };
static const char *RI_OPS[] = { "addi", "andi", "ori", "xori", "slti", "sltiu" };
static const char *SH_OPS[] = { "slli", "srli", "srai" };
static const char *BR_OPS[] = { "beq", "bne", "blt", "bge", "bltu", "bgeu" };
#define NELEM(a) (int)(sizeof(a) / sizeof((a)[0]))

static int rimm12(void)
{
	switch (rnd(4)) {
	case 0: return (int)rnd(4096) - 2048;
	case 1: return (int)rnd(33) - 16;
	case 2: return rnd(2) ? 2047 : -2048;
	default: return (int)rnd(256);
	}
}

static void gen_alu(int allow_ra)
{
	int rd = allow_ra ? rreg() : rreg_no_ra();
	if (chance(3))
		rd = 0; /* x0 destination */
	switch (rnd(4)) {
	case 0:
	case 1:
		ins("%s x%d, x%d, x%d", RR_OPS[rnd(NELEM(RR_OPS))], rd, sreg(), sreg());
		break;
	case 2:
		ins("%s x%d, x%d, %d", RI_OPS[rnd(NELEM(RI_OPS))], rd, sreg(), rimm12());
		break;
	default:
		ins("%s x%d, x%d, %u", SH_OPS[rnd(NELEM(SH_OPS))], rd, sreg(), rnd(32));
		break;
	}
}

static void gen_muldiv(int allow_ra)
{
	ins("%s x%d, x%d, x%d", MD_OPS[rnd(NELEM(MD_OPS))], allow_ra ? rreg() : rreg_no_ra(),
	    sreg(), sreg());
}

static void gen_upper(void)
{
	ins("%s x%d, 0x%x", rnd(2) ? "lui" : "auipc", rreg(), rnd(1u << 20));
}

static void gen_load_store(void)
{
	static const char *LD[] = { "lb", "lbu", "lh", "lhu", "lw" };
	static const char *ST[] = { "sb", "sh", "sw" };
	int store = rnd(2);
	int w = store ? (int)rnd(3) : (int)rnd(5);
	int size = store ? (1 << w) : (w < 2 ? 1 : w < 4 ? 2
							 : 4);
	unsigned kind = rnd(100);
	if (kind < 3 && size > 1) {
		/* misaligned: traps (cause 4/6) */
		int off = ((int)rnd(512) - 256) * 4 + 1 + (int)rnd((unsigned)size - 1);
		if (store)
			ins("%s x%d, %d(sp)", ST[w], sreg(), off);
		else
			ins("%s x%d, %d(sp)", LD[w], rreg(), off);
	} else if (kind < 5) {
		/* outside every region: access fault (cause 5/7) */
		static const uint32_t bad[] = { 0x40000000u, HPM_FW_BASE + HPM_FW_SIZE, HPM_RAM_BASE + HPM_RAM_SIZE,
						HPM_UART_BASE + HPM_UART_SIZE, 0xf0000000u };
		ins("li x27, 0x%08x", bad[rnd(NELEM(bad))]);
		if (store)
			ins("%s x%d, 0(x27)", ST[w], sreg());
		else
			ins("%s x%d, 0(x27)", LD[w], rreg());
	} else {
		int off = ((int)rnd(4096) - 2048) & ~(size - 1);
		if (store)
			ins("%s x%d, %d(sp)", ST[w], sreg(), off);
		else
			ins("%s x%d, %d(sp)", LD[w], rreg(), off);
	}
}

static void gen_branch(void)
{
	int id = new_forward_label();
	ins("%s x%d, x%d, .Lf%d", BR_OPS[rnd(NELEM(BR_OPS))], sreg(), sreg(), id);
}

static void gen_jump(void)
{
	int id = new_forward_label();
	int rd = chance(30) ? 0 : rreg();
	if (rnd(2)) {
		ins("jal x%d, .Lf%d", rd, id);
	} else {
		int off = (int)rnd(5) * 4 - 8;
		ins("la x4, .Lf%d%+d", id, -off);
		ins("jalr x%d, %d(x4)", rd, off);
	}
}

static int opt_lcofi; /* --lcofi: mie/sie.LCOFIE may be set */

static int n_leaves;
static void gen_call(void)
{
	ins("jal ra, leaf%u", rnd((uint32_t)n_leaves));
}

/* CSRs that any test may read (some trap in S/U or do not exist) */
static const char *CSR_RD[] = {
	"mcycle", "minstret", "mcycleh", "minstreth", "cycle", "instret", "time",
	"cycleh", "instreth", "timeh", "mscratch", "sscratch", "mstatus", "sstatus",
	"mie", "mip", "sie", "sip", "mepc", "sepc", "mcause", "scause", "mtval",
	"stval", "misa", "mhartid", "mvendorid", "medeleg", "mideleg", "mcounteren",
	"scounteren", "satp", "mcountinhibit", "mtvec", "stvec", "pmpcfg0",
	"pmpaddr0", "tselect", "tdata1", "0x7c4", "hpmcounter3", "mhpmcounter3",
	"0xcc0", "0xcc2", "0xcc3", "0x7c3", "0xfc8" /* the top-down unit's (where present) */
};
/* CSRs whose value the handlers never depend on */
static const char *CSR_WR[] = {
	"mscratch", "sscratch", "mepc", "sepc", "mtval", "stval", "satp",
	"mcycle", "minstret", "mcycleh", "minstreth", "pmpaddr0", "tselect"
};

/* HPM unit (SPEC section 4): event selectors with random events, combining
 * ops and privilege inhibits, counter writes and reads, mcountinhibit,
 * Smcntrpmf filters, LCOFI enables. The counter preloads sit just below the
 * wrap of a 64-, 40-, 32-, 8- or 1-bit counter, so the hpm-sim-<num>x<width>
 * variants overflow too (a write above HPM_WIDTH is masked). */
static void gen_hpm(void)
{
	unsigned n = 3 + rnd(29);
	unsigned c = rnd(opt_lcofi ? 8 : 6);
	if (opt_lcofi && c >= 3 && c < 6 && chance(50))
		c = 2; /* --lcofi: more preloads near the wrap */
	switch (c) {
	case 7: {
		/* --lcofi: a selector write that starts a table refill (144 cycles,
         * architecture 3 counts the counter live meanwhile; every
         * architecture makes another selector write wait, docs/hpm.md),
         * on a counter preloaded just below its low 8 bits' carry or the
         * wrap (a 64-bit one too: a wrap inside the window, where the
         * counter counts a cycle late), then after 0..149 idle cycles
         * (every phase of the refill) a second selector write, a counter
         * write or read, OF read, scountovf or mcountinhibit on it */
		static const unsigned evs[] = { 1, 2, 20, 12, 23 };
		const int top = chance(50);
		ins("li x4, 0x%08x", top ? 0xffffffffu : rnd32());
		ins("csrw mhpmcounter%uh, x4", n);
		ins("li x4, 0x%08x", (top && chance(50) ? 0xffffffffu : rnd32() | 0xffu) - rnd(24));
		ins("csrw mhpmcounter%u, x4", n);
		ins("li x4, %u", evs[rnd(NELEM(evs))] | (chance(20) ? 2u << 10 : 0u));
		ins("csrw mhpmevent%u, x4", n);
		for (unsigned d = rnd(150); d; d--)
			ins("addi x0, x0, 0");
		switch (rnd(7)) {
		case 0:
			ins("csrw mhpmevent%u, x0", chance(50) ? n : 3 + rnd(29));
			break;
		case 1:
			ins("li x4, 0x%08x", (rnd32() | 0xffu) - rnd(12));
			ins("csrw mhpmcounter%u%s, x4", n, rnd(3) ? "" : "h");
			break;
		case 2:
			ins("csrr x%d, mhpmcounter%u%s", rreg(), n, rnd(3) ? "" : "h");
			break;
		case 3:
			ins("csrr x%d, mhpmevent%uh", rreg(), n);
			break;
		case 4:
			ins("csrr x%d, scountovf", rreg());
			break;
		case 5:
			ins("li x4, 0x%08x", 1u << 31);
			ins("csrc mhpmevent%uh, x4", n);
			break;
		default:
			ins("li x4, 0x%08x", 1u << n);
			ins("csrs mcountinhibit, x4");
			ins("csrc mcountinhibit, x4");
			break;
		}
		break;
	}
	case 6: {
		/* --lcofi: a counter just below a carry out of its low 8 bits
         * (architecture 2 keeps them apart from the upper bits and flushes
         * the carry later, one counter per cycle round-robin, docs/hpm.md),
         * often with the upper bits all ones (the wrap), read or written
         * back after 0..39 idle cycles, maybe stopped by mcountinhibit
         * meanwhile: the carry, the read and the write meet every phase of
         * the flush schedule */
		static const unsigned evs[] = { 1, 2, 20, 12, 23 };
		ins("li x4, %u", evs[rnd(NELEM(evs))]);
		ins("csrw mhpmevent%u, x4", n);
		ins("csrw mhpmevent%uh, x0", n);
		ins("li x4, 0x%08x", chance(50) ? 0xffffffffu : rnd32());
		ins("csrw mhpmcounter%uh, x4", n);
		ins("li x4, 0x%08x", (rnd32() | 0xffu) - rnd(12));
		ins("csrw mhpmcounter%u, x4", n);
		int inh = chance(30);
		if (inh) {
			ins("li x4, 0x%08x", 1u << n);
			ins("csrs mcountinhibit, x4");
		}
		for (unsigned d = rnd(40); d; d--)
			ins("addi x0, x0, 0");
		if (inh)
			ins("csrc mcountinhibit, x4");
		switch (rnd(10)) {
		case 0:
		case 1:
			ins("li x4, 0x%08x", (rnd32() | 0xffu) - rnd(12));
			ins("csrw mhpmcounter%u, x4", n);
			break;
		case 2:
			/* a read-modify-write of the counter: the value read
			 * is the write data's, and the row written sets full a
			 * cycle late (hpm_estore) */
			ins("li x4, 0x%08x", rnd(2) ? rnd32() : 1u << rnd(32));
			ins("%s x%d, mhpmcounter%u%s, x4", rnd(2) ? "csrrs" : "csrrc", rreg(), n,
			    rnd(3) ? "" : "h");
			break;
		case 3:
			ins("%s x%d, mhpmcounter%u%s, %u", rnd(2) ? "csrrsi" : "csrrci", rreg(), n,
			    rnd(3) ? "" : "h", 1 + rnd(31));
			break;
		default:
			ins("csrr x%d, mhpmcounter%u%s", rreg(), n, rnd(3) ? "" : "h");
			break;
		}
		break;
	}
	case 0:
	case 1: {
		uint32_t lo = 0, hi = 0;
		uint32_t ev[4];
		for (int i = 0; i < 4; i++)
			ev[i] = chance(70) ? rnd(32) : chance(50) ? 0
								  : rnd(1024);
		lo = ev[0] | (ev[1] << 10) | ((ev[2] & 0x3ffu) << 20) | ((ev[3] & 3u) << 30);
		static const uint32_t ops[] = { 0, 1, 2, 4 };
		uint32_t op0 = chance(90) ? ops[rnd(4)] : rnd(32);
		uint32_t op1 = chance(90) ? ops[rnd(4)] : rnd(32);
		uint32_t op2 = chance(90) ? ops[rnd(4)] : rnd(32);
		hi = (ev[3] >> 2) | (op0 << 8) | (op1 << 13) | (op2 << 18) | (rnd(16) << 28);
		if (chance(10))
			hi |= rnd(8) << 23; /* read-only-0 bits 57:55 */
		ins("li x4, 0x%08x", lo);
		ins("csrw mhpmevent%u, x4", n);
		ins("li x4, 0x%08x", hi);
		ins("csrw mhpmevent%uh, x4", n);
		break;
	}
	case 2: {
		/* counter write: often just below the wrap of some width */
		uint32_t lo, hi;
		switch (rnd(6)) {
		case 0:
			hi = 0xffffffffu;
			lo = 0xffffffffu - rnd(200);
			break; /* 64 */
		case 1:
			hi = 0x000000ffu;
			lo = 0xffffffffu - rnd(200);
			break; /* 40 */
		case 2:
			hi = rnd32();
			lo = 0xffffffffu - rnd(200);
			break; /* 32 */
		case 3:
			hi = rnd32();
			lo = 0xffffff00u | (0xffu - rnd(40));
			break; /* 8 */
		case 4:
			hi = rnd32();
			lo = rnd32() | 1u;
			break; /* 1 */
		default:
			hi = rnd32();
			lo = rnd32();
			break;
		}
		int wrap = chance(50);
		if (wrap) {
			/* make it count something frequent, OF clear, so it wraps */
			ins("li x4, %u", 1 + rnd(2));
			ins("csrw mhpmevent%u, x4", n);
			ins("csrw mhpmevent%uh, x0", n);
		}
		if (chance(60) || wrap) {
			ins("li x4, 0x%08x", hi);
			ins("csrw mhpmcounter%uh, x4", n);
		}
		ins("li x4, 0x%08x", lo);
		ins("csrw mhpmcounter%u, x4", n);
		if (chance(50) && opt_lcofi) {
			ins("li x4, 0x2000");
			ins("csrs %s, x4", rnd(2) ? "mie" : "sie");
		}
		break;
	}
	case 3:
		switch (rnd(4)) {
		case 0:
			ins("csrr x%d, mhpmevent%u%s", rreg(), n, rnd(2) ? "" : "h");
			break;
		case 1:
			ins("csrr x%d, %s", rreg(), rnd(2) ? "0x721" : "0x722");
			break;
		default:
			ins("csrr x%d, %s%u%s", rreg(), rnd(2) ? "mhpmcounter" : "hpmcounter", n, rnd(3) ? "" : "h");
			break;
		}
		break;
	case 4:
		if (rnd(2)) {
			ins("li x4, 0x%08x", rnd32() & rnd32() & rnd32());
			ins("csrw mcountinhibit, x4");
		} else if (chance(70)) {
			ins("csrr x%d, %s", rreg(), rnd(2) ? "scountovf" : "mip");
		} else {
			/* counter enables with every HPM bit (scountovf masking,
             * hpmcounterN from S/U) */
			ins("li x4, 0x%08x", rnd32());
			ins("csrw %s, x4", rnd(2) ? "mcounteren" : "scounteren");
		}
		break;
	default:
		/* Smcntrpmf: MINH/SINH/UINH in bits 62..60 of mcyclecfg/minstretcfg */
		ins("li x4, 0x%08x", (rnd(8) << 28) | (chance(20) ? rnd32() & 0x0fffffffu : 0));
		ins("csrw %s, x4", rnd(2) ? "0x721" : "0x722");
		break;
	}
}

static void gen_csr(void)
{
	if (chance(opt_lcofi ? 60 : 30)) {
		gen_hpm();
		return;
	}
	switch (rnd(10)) {
	case 0:
	case 1:
	case 2:
		ins("csrr x%d, %s", rreg(), CSR_RD[rnd(NELEM(CSR_RD))]);
		break;
	case 3:
	case 4:
		ins("csrrw x%d, %s, x%d", chance(50) ? 0 : rreg(), CSR_WR[rnd(NELEM(CSR_WR))], sreg());
		break;
	case 5:
		ins("%s x%d, %s, %u", rnd(2) ? "csrrsi" : "csrrci", rreg(),
		    rnd(2) ? "mscratch" : "sscratch", rnd(32));
		break;
	case 6: {
		/* safe mstatus bits: SIE MIE SPIE MPIE SPP MPP MPRV SUM MXR TVM TW
         * (never TSR: the S handler needs sret; SPP/MPP are rewritten by
         * every trap before the handlers' sret/mret use them) */
		static const uint32_t bits[] = { 0x2, 0x8, 0x20, 0x80, 0x100, 0x800, 0x1000, 0x20000,
						 0x40000, 0x80000, 0x100000, 0x200000 };
		uint32_t m = bits[rnd(NELEM(bits))] | (chance(30) ? bits[rnd(NELEM(bits))] : 0);
		ins("li x4, 0x%x", m);
		ins("%s x%d, %s, x4", rnd(2) ? "csrrs" : "csrrc", rreg(), rnd(3) ? "mstatus" : "sstatus");
		break;
	}
	case 7: {
		/* mie: SSIE MSIE STIE MTIE LCOFIE subsets */
		static const uint32_t bits[] = { 0x2, 0x8, 0x20, 0x80, 0x2000 };
		uint32_t m = 0;
		for (int i = 0; i < 5; i++)
			if (chance(40))
				m |= bits[i];
		if (!opt_lcofi)
			m &= ~0x2000u;
		/* mie.MTIE stays set so that every wfi has a timer to wake it */
		if (rnd(4)) {
			ins("li x4, 0x%x", m | 0x80);
			ins("csrw mie, x4");
		} else {
			ins("li x4, 0x%x", m);
			ins("csrw sie, x4");
		}
		break;
	}
	case 8:
		if (chance(25)) {
			/* delegation changes (M only) */
			static const int ex[] = { 2, 3, 4, 5, 6, 7, 8, 9 };
			uint32_t d = 0;
			for (int i = 0; i < NELEM(ex); i++)
				if (chance(30))
					d |= 1u << ex[i];
			ins("li x4, 0x%x", d);
			ins("csrw medeleg, x4");
			ins("li x4, 0x%x", (chance(50) ? 2u : 0u) | (chance(40) ? 0x2000u : 0u));
			ins("csrw mideleg, x4");
		} else {
			ins("csrwi %s, %u", rnd(2) ? "mcounteren" : "scounteren", rnd(8));
		}
		break;
	default:
		ins("csrwi mcountinhibit, %u", rnd(2) ? 0 : (rnd(2) ? 1 : 4));
		break;
	}
}

static void gen_trap(void)
{
	switch (rnd(6)) {
	case 0:
	case 1:
	case 2:
		ins("ecall");
		break;
	case 3:
		ins("ebreak");
		break;
	case 4: {
		static const uint32_t ill[] = { 0x00000000u, 0xffffffffu, 0x0000007fu, 0x08a58533u,
						0x00053503u, 0x0005252fu, 0x00200073u, 0x02051513u };
		ins(".word 0x%08x", ill[rnd(NELEM(ill))]);
		break;
	}
	default:
		/* traps in S with TVM = 1 and in U (no mret/sret: in M they would
         * jump to whatever mepc/sepc hold) */
		ins("sfence.vma");
		break;
	}
}

static void gen_irq(void)
{
	switch (rnd(4)) {
	case 0:
	case 1: {
		/* machine timer in 10..300 cycles */
		ins("li x27, 0x%08x", MTIMECMP_A);
		ins("li x4, -1");
		ins("sw x4, 4(x27)");
		ins("li x4, 0x%08x", MTIME_A);
		ins("lw x4, 0(x4)");
		ins("addi x4, x4, %u", 10 + rnd(290));
		ins("sw x4, 0(x27)");
		ins("sw zero, 4(x27)");
		ins("li x4, 0x80");
		ins("csrs mie, x4");
		break;
	}
	case 2:
		ins("li x27, 0x%08x", MSIP_A);
		ins("li x4, 1");
		ins("sw x4, 0(x27)");
		break;
	default:
		ins("csrsi mip, 2");
		break;
	}
}

/* wfi right after arming the timer 10..100 cycles ahead: always wakes (mie.MTIE
 * is always set; illegal in U, and in S with mstatus.TW). With --lcofi
 * 60..150 cycles: an LCOFI taken while the timer is armed runs the long M
 * handler (~45 cycles); the timer must not fire before the wfi (it would be
 * taken and disarmed, and the wfi would wait for ever). */
static void gen_wfi(void)
{
	ins("li x27, 0x%08x", MTIMECMP_A);
	ins("li x4, -1");
	ins("sw x4, 4(x27)");
	ins("li x4, 0x%08x", MTIME_A);
	ins("lw x4, 0(x4)");
	ins("addi x4, x4, %u", (opt_lcofi ? 60 : 10) + rnd(90));
	ins("sw x4, 0(x27)");
	ins("sw zero, 4(x27)");
	ins("wfi");
}

/* device registers: loads of any width (timing-dependent values), UART
 * bytes, LEDs */
static void gen_device(void)
{
	static const uint32_t regs[] = { MTIME_A, MTIME_A + 4, MTIMECMP_A, MTIMECMP_A + 4,
					 MSIP_A, MSIP_A + 8, HPM_UART_BASE + UART_STATUS_OFF,
					 HPM_UART_BASE + UART_DIV_OFF, HPM_UART_BASE + UART_DATA_OFF,
					 HPM_UART_BASE + 0x10, HPM_GPIO_BASE + GPIO_LEDS_OFF,
					 HPM_GPIO_BASE + GPIO_BUTTONS_OFF };
	static const char *LD[] = { "lw", "lh", "lhu", "lb", "lbu" };
	switch (rnd(5)) {
	case 0:
	case 1:
	case 2: {
		uint32_t a = regs[rnd(NELEM(regs))];
		int w = (int)rnd(NELEM(LD));
		uint32_t off = w == 0 ? 0 : w < 3 ? 2 * rnd(2)
						  : rnd(4);
		ins("li x27, 0x%08x", a);
		ins("%s x%d, %u(x27)", LD[w], rreg(), off);
		break;
	}
	case 3:
		ins("li x27, 0x%08x", HPM_UART_BASE + UART_DATA_OFF);
		ins("li x4, %u", 'a' + rnd(26));
		ins("sb x4, 0(x27)");
		break;
	default:
		ins("li x27, 0x%08x", HPM_GPIO_BASE + GPIO_LEDS_OFF);
		ins("sw x%d, 0(x27)", sreg());
		break;
	}
}

/* self-modifying code: an `addi xR, xR, 1` slot 1..8 items ahead (often the
 * very next instruction) is overwritten with `addi xR, xR, imm`, with or
 * without fence.i; which version executes follows the fetch timing of
 * docs/timing.md (clarifications), and lockstep compares xR */
static void gen_patch(void)
{
	int id = new_forward_label();
	int r = rreg_no_ra();
	pending[n_pending - 1].slot_reg = r;
	if (chance(50))
		pending[n_pending - 1].left = 1;
	int imm = (int)rnd(4096) - 2048;
	uint32_t word = ((uint32_t)imm << 20) | ((uint32_t)r << 15) | ((uint32_t)r << 7) | 0x13u;
	ins("la x27, .Lf%d", id);
	ins("li x4, 0x%08x", word);
	ins("sw x4, 0(x27)");
	if (chance(30))
		ins("fence.i");
}

/* jalr to a target with bit 1 set: instruction-address-misaligned on the
 * jalr itself (mepc = the jalr), which the handler skips */
static uint32_t enc_branch(int off, int rs1, int rs2, int f3)
{
	uint32_t i = (uint32_t)off & 0x1fffu;
	return (((i >> 12) & 1u) << 31) | (((i >> 5) & 0x3fu) << 25) | ((uint32_t)rs2 << 20) |
	       ((uint32_t)rs1 << 15) | ((uint32_t)f3 << 12) | (((i >> 1) & 0xfu) << 8) |
	       (((i >> 11) & 1u) << 7) | 0x63u;
}
static uint32_t enc_jal(int off, int rd)
{
	uint32_t i = (uint32_t)off & 0x1fffffu;
	return (((i >> 20) & 1u) << 31) | (((i >> 1) & 0x3ffu) << 21) | (((i >> 11) & 1u) << 20) |
	       (((i >> 12) & 0xffu) << 12) | ((uint32_t)rd << 7) | 0x6fu;
}

static void gen_misaligned_jump(void)
{
	static const int offs[] = { -10, -6, -2, 2, 6, 10, 14 };
	static const int f3s[] = { 0, 1, 4, 5, 6, 7 };
	switch (rnd(3)) {
	case 0: {
		int id = new_forward_label();
		ins("la x4, .Lf%d+2", id);
		ins("jalr x%d, 0(x4)", rreg());
		break;
	}
	case 1:
		/* conditional branch to pc +- 2 mod 4: traps only when taken */
		ins(".word 0x%08x", enc_branch(offs[rnd(NELEM(offs))], sreg(), sreg(), f3s[rnd(NELEM(f3s))]));
		break;
	default:
		/* jal to pc +- 2 mod 4: always traps, rd not written */
		ins(".word 0x%08x", enc_jal(offs[rnd(NELEM(offs))], rreg()));
		break;
	}
}

static void gen_item(int in_loop, int in_leaf)
{
	unsigned c = rnd(1000);
	if (in_leaf) {
		if (c < 200)
			gen_muldiv(0);
		else
			gen_alu(0);
		return;
	}
	/* the mix, per mille */
	if (c < 450)
		gen_alu(1);
	else if (c < 480)
		gen_upper();
	else if (c < 560)
		gen_muldiv(1);
	else if (c < 720)
		gen_load_store();
	else if (c < 800)
		gen_branch();
	else if (c < 830)
		gen_jump();
	else if (c < 840)
		gen_call();
	else if (c < 900)
		gen_csr();
	else if (c < 940)
		gen_trap();
	else if (c < 946)
		gen_irq();
	else if (c < 950)
		gen_wfi();
	else if (c < 957)
		gen_device();
	else if (c < 958)
		gen_misaligned_jump();
	else if (c < 966 && !in_loop)
		gen_patch();
	else if (c < 968)
		ins(rnd(2) ? "fence" : "fence.i");
	else if (c < 990 && !in_loop) {
		/* bounded backward loop */
		place_labels(1);
		int id = label_seq++;
		int body = 1 + (int)rnd(10);
		ins("li gp, %u", 1 + rnd(8));
		fprintf(out, ".Lloop%d:\n", id);
		for (int i = 0; i < body; i++) {
			gen_item(1, 0);
			tick();
		}
		place_labels(1);
		ins("addi gp, gp, -1");
		ins("bnez gp, .Lloop%d", id);
	} else {
		gen_alu(1);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: rvgen --seed N [--length L] [--lcofi] [-o out.S]\n"
			"  writes a random RV32IM program that ends by storing 1 to tohost\n");
}

int main(int argc, char **argv)
{
	unsigned long long seed = 0;
	long length = 10000;
	const char *path = NULL;
	int have_seed = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			char *end;
			errno = 0;
			seed = strtoull(argv[++i], &end, 0);
			if (errno || *end) {
				fprintf(stderr, "rvgen: bad seed '%s'\n", argv[i]);
				return 2;
			}
			have_seed = 1;
		} else if (!strcmp(argv[i], "--length") && i + 1 < argc) {
			char *end;
			length = strtol(argv[++i], &end, 0);
			if (*end || length < 1 || length > 1000000) {
				fprintf(stderr, "rvgen: bad length '%s' (1..1000000)\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--lcofi")) {
			opt_lcofi = 1;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			path = argv[++i];
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage();
			return 0;
		} else {
			usage();
			return 2;
		}
	}
	if (!have_seed) {
		usage();
		return 2;
	}
	out = path ? fopen(path, "w") : stdout;
	if (!out) {
		fprintf(stderr, "rvgen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	rng_state = (seed + 1) * 0x9E3779B97F4A7C15ull;
	if (!rng_state)
		rng_state = 1;
	for (int i = 0; i < 4; i++)
		rnd64();

	/* RAM holds about 24k items: longer programs run a body of at most
     * MAX_BODY distinct items several times */
	long passes = (length + MAX_BODY - 1) / MAX_BODY;
	long body = (length + passes - 1) / passes;
	fprintf(out, "/* generated by: rvgen --seed %llu --length %ld (%ld x %ld items) */\n",
		seed, length, passes, body);
	fprintf(out, "    .section .text.init, \"ax\"\n    .globl _start\n_start:\n");
	ins("la x28, trap_m");
	ins("csrw mtvec, x28");
	ins("la x28, trap_s");
	ins("csrw stvec, x28");
	ins("li x29, 0x%08x", rnd32() | 1u);
	{
		/* delegation: a random subset of the skippable exceptions; ecalls
         * from U and S are rarely both delegated (M would be unreachable) */
		static const int ex[] = { 2, 3, 4, 5, 6, 7, 8, 9 };
		uint32_t medeleg = 0;
		if (chance(60))
			for (int i = 0; i < NELEM(ex); i++)
				if (chance(35))
					medeleg |= 1u << ex[i];
		if ((medeleg & 0x300) == 0x300 && chance(80))
			medeleg &= ~(1u << (8 + rnd(2)));
		ins("li x28, 0x%x", medeleg);
		ins("csrw medeleg, x28");
		ins("li x28, 0x%x", (chance(50) ? 2u : 0u) | (chance(40) ? 0x2000u : 0u));
		ins("csrw mideleg, x28");
		ins("csrwi mcounteren, %u", rnd(8));
		ins("csrwi scounteren, %u", rnd(8));
	}
	ins("li x28, 0x%x", chance(50) && opt_lcofi ? 0x2080u : 0x80u);
	ins("csrw mie, x28");
	ins("la sp, data_area + 2048");
	for (int i = 0; i < N_RAND_REGS; i++)
		ins("li x%d, 0x%08x", RAND_REGS[i], interesting());
	ins("j main_body");

	/* M handler: exceptions skip the instruction; ecalls also pick the next
     * mode from the LFSR in t4 (x29); interrupts clear every source. */
	fputs("    .balign 4\n"
	      "trap_m:\n"
	      "    csrr x28, mcause\n"
	      "    bltz x28, 3f\n"
	      "    li x30, 8\n"
	      "    beq x28, x30, 2f\n"
	      "    li x30, 9\n"
	      "    beq x28, x30, 2f\n"
	      "    li x30, 11\n"
	      "    beq x28, x30, 2f\n"
	      "1:  csrr x28, mepc\n"
	      "    addi x28, x28, 4\n"
	      "    csrw mepc, x28\n"
	      "    mret\n"
	      "2:  andi x30, x29, 1\n"
	      "    neg x30, x30\n"
	      "    li x28, 0xedb88320\n"
	      "    and x30, x30, x28\n"
	      "    srli x29, x29, 1\n"
	      "    xor x29, x29, x30\n"
	      "    li x28, 3\n"
	      "    remu x30, x29, x28\n"
	      "    li x28, 2\n"
	      "    bne x30, x28, 4f\n"
	      "    li x30, 3\n"
	      "4:  li x28, 0x1800\n"
	      "    csrc mstatus, x28\n"
	      "    slli x30, x30, 11\n"
	      "    csrs mstatus, x30\n"
	      "    j 1b\n"
	      /* interrupt: clear the source that was taken (MSI: msip,
           * MTI: mtimecmp = max, SSI: mip.SSIP; others: all of them) */
	      "3:  slli x28, x28, 1\n"
	      "    srli x28, x28, 1\n"
	      "    li x30, 3\n"
	      "    beq x28, x30, 6f\n"
	      "    li x30, 1\n"
	      "    beq x28, x30, 8f\n"
	      "    li x30, 7\n"
	      "    beq x28, x30, 7f\n"
	      "    li x30, 13\n"
	      "    beq x28, x30, 9f\n"
	      "    csrci mip, 2\n",
	      out);
	fprintf(out, "    li x28, 0x%08x\n"
		     "    sw zero, 0(x28)\n"
		     "    j 7f\n"
		     "6:  li x28, 0x%08x\n"
		     "    sw zero, 0(x28)\n"
		     "    mret\n"
		     "7:  li x28, 0x%08x\n",
		MSIP_A, MSIP_A, MTIMECMP_A);
	fputs(
		"    li x30, -1\n"
		"    sw x30, 4(x28)\n"
		"    sw x30, 0(x28)\n"
		"    mret\n"
		"8:  csrci mip, 2\n"
		"    mret\n"
		/* LCOFI: clear mip.LCOFIP, every OF and mie.LCOFIE (a narrow
           * counter may wrap again at once: the program re-enables it) */
		"9:  li x28, 0x2000\n"
		"    csrc mip, x28\n"
		"    csrc mie, x28\n"
		"    li x30, 0x80000000\n"
		"    csrc mhpmevent3h, x30\n"
		"    csrc mhpmevent4h, x30\n"
		"    csrc mhpmevent5h, x30\n"
		"    csrc mhpmevent6h, x30\n"
		"    csrc mhpmevent7h, x30\n"
		"    csrc mhpmevent8h, x30\n"
		"    csrc mhpmevent9h, x30\n"
		"    csrc mhpmevent10h, x30\n"
		"    csrc mhpmevent11h, x30\n"
		"    csrc mhpmevent12h, x30\n"
		"    csrc mhpmevent13h, x30\n"
		"    csrc mhpmevent14h, x30\n"
		"    csrc mhpmevent15h, x30\n"
		"    csrc mhpmevent16h, x30\n"
		"    csrc mhpmevent17h, x30\n"
		"    csrc mhpmevent18h, x30\n"
		"    csrc mhpmevent19h, x30\n"
		"    csrc mhpmevent20h, x30\n"
		"    csrc mhpmevent21h, x30\n"
		"    csrc mhpmevent22h, x30\n"
		"    csrc mhpmevent23h, x30\n"
		"    csrc mhpmevent24h, x30\n"
		"    csrc mhpmevent25h, x30\n"
		"    csrc mhpmevent26h, x30\n"
		"    csrc mhpmevent27h, x30\n"
		"    csrc mhpmevent28h, x30\n"
		"    csrc mhpmevent29h, x30\n"
		"    csrc mhpmevent30h, x30\n"
		"    csrc mhpmevent31h, x30\n"
		"    mret\n"
		/* S handler: same for delegated traps; ecalls pick S or U. It
           * only uses x31: an M interrupt may arrive in the middle of it
           * and the M handler uses x28/x30. */
		"    .balign 4\n"
		"trap_s:\n"
		"    csrr x31, scause\n"
		"    bltz x31, 3f\n"
		"    addi x31, x31, -8\n"
		"    beqz x31, 2f\n"
		"    addi x31, x31, -1\n"
		"    beqz x31, 2f\n"
		"1:  csrr x31, sepc\n"
		"    addi x31, x31, 4\n"
		"    csrw sepc, x31\n"
		"    sret\n"
		"2:  andi x31, x29, 1\n"
		"    srli x29, x29, 1\n"
		"    beqz x31, 4f\n"
		"    li x31, 0xedb88320\n"
		"    xor x29, x29, x31\n"
		"4:  li x31, 0x100\n"
		"    csrc sstatus, x31\n"
		"    andi x31, x29, 1\n"
		"    slli x31, x31, 8\n"
		"    csrs sstatus, x31\n"
		"    j 1b\n"
		"3:  csrci sip, 2\n"
		"    li x31, 0x2000\n" /* delegated LCOFI: sip.LCOFIP, sie.LCOFIE */
		"    csrc sip, x31\n"
		"    csrc sie, x31\n"
		"    sret\n"
		"main_body:\n",
		out);

	n_leaves = 4;
	while (emitted < body) {
		gen_item(0, 0);
		tick();
	}
	place_labels(1);
	/* repeat the body until `length` items have been executed */
	ins("la x27, passes_left");
	ins("lw x4, 0(x27)");
	ins("addi x4, x4, -1");
	ins("sw x4, 0(x27)");
	ins("beqz x4, end_of_test");
	ins("j main_body");
	fputs("end_of_test:\n"
	      "    li x4, 1\n"
	      "    la x27, tohost\n"
	      "    sw x4, 0(x27)\n"
	      "5:  j 5b\n",
	      out);
	for (int l = 0; l < n_leaves; l++) {
		fprintf(out, "leaf%d:\n", l);
		int n = 1 + (int)rnd(6);
		for (int i = 0; i < n; i++)
			gen_item(0, 1);
		ins("ret");
	}
	fputs("    .section .tohost, \"aw\", @progbits\n"
	      "    .balign 8\n"
	      "    .globl tohost\n"
	      "tohost: .word 0, 0\n"
	      "    .globl fromhost\n"
	      "fromhost: .word 0, 0\n"
	      "    .data\n"
	      "    .balign 4\n",
	      out);
	fprintf(out, "passes_left: .word %ld\n", passes);
	fputs("    .balign 16\n"
	      "data_area:\n",
	      out);
	for (int i = 0; i < 1024; i++)
		fprintf(out, "    .word 0x%08x\n", interesting());
	fputs("    .globl begin_signature\nbegin_signature:\n    .word 0\n"
	      "    .globl end_signature\nend_signature:\n",
	      out);
	if (out != stdout && fclose(out) != 0) {
		fprintf(stderr, "rvgen: %s: write error\n", path);
		return 1;
	}
	return 0;
}
