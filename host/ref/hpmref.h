/* hpmref: the reference model of the hpm-overlay core and SoC.
 *
 * An instruction-set simulator of RV32IM + Zicsr + Zifencei with M/S/U modes,
 * the SoC devices (CLINT, UART, GPIO, memories) and the core's timing
 * (docs/timing.md), so that it predicts every cycle count exactly.
 * No global state: every call takes the model handle.
 */
#ifndef HPMREF_H
#define HPMREF_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- memory map (docs/memory-map.md) ---- */
#include "hpm_map.h" /* generated from hw/soc/memmap.def: HPM_*_BASE/SIZE */
#define HPM_UART_DIV_DEFAULT HPM_SOC_UART_DIV

/* Prints the memory map as "name base size" lines (hex), as both runners do. */
void hpm_print_memmap(FILE *out);

/* ---- one retired (or trapped) instruction ----
 * Filled by the model for each instruction that reaches X, and by the
 * Verilator harness from the core's trace port; hpm_retire_compare() checks
 * them field by field. */
typedef struct hpm_retire {
	uint64_t cycle; /* cycle number of the instruction's last X cycle */
	uint32_t pc;
	uint32_t insn;  /* instruction word (0 if the fetch faulted) */
	uint8_t priv;   /* privilege it executed in: 0 U, 1 S, 3 M */
	uint8_t trap;   /* 1: an exception or interrupt was taken instead */
	uint32_t cause; /* mcause/scause value written (bit 31 = interrupt) */
	uint32_t tval;  /* mtval/stval value written */
	uint8_t rd_we;  /* 1: rd (!= x0) was written */
	uint8_t rd;
	uint32_t rd_val;
	uint8_t csr_we; /* 1: a CSR was written by this instruction */
	uint16_t csr_addr;
	uint32_t csr_val;   /* the CSR's value after the write (after WARL) */
	uint8_t mem_we;     /* 1: a store was performed */
	uint32_t mem_addr;  /* byte address of the store */
	uint32_t mem_wdata; /* store data, shifted to its byte lanes */
	uint8_t mem_be;     /* byte enables of the store */
} hpm_retire;

/* Returns 0 when a and b agree; else writes a one-line description of the
 * first differing field into msg and returns 1. */
int hpm_retire_compare(const hpm_retire *rtl, const hpm_retire *ref,
		       char *msg, size_t msg_len);
/* One human-readable line for a record (for divergence context). */
void hpm_retire_format(const hpm_retire *r, char *buf, size_t len);

/* ---- the model ---- */
typedef struct hpmref hpmref;

typedef struct hpmref_config {
	uint32_t boot_addr; /* pc after reset, in M-mode */
	uint32_t uart_div;  /* clock cycles per UART bit (HPM_UART_DIV_DEFAULT);
			     0 also means the default */
	unsigned fault;     /* TEST ONLY: HPMREF_FAULT_* deliberately breaks the
			     model so tests can prove the lockstep checker
			     catches a model/RTL disagreement. 0 = none. */
	unsigned hpm_num;   /* implemented mhpmcounters (0..29, the RTL's HPM_NUM) */
	unsigned hpm_width; /* their width in bits (1..64, the RTL's HPM_WIDTH).
			     hpm_num = hpm_width = 0 means the simulated
			     board's default 29 x 64; hpm_width = 0 with
			     hpm_num != 0 means 64. Larger values are clamped
			     to 29 / 64. */
	unsigned no_topdown; /* 1: no top-down unit (HPM_TD = 0);
			      0: present, as on the simulated board */
	unsigned td_board;   /* 1: instead of the unit, the iCE40 board's two
			      16-bit top-down counts (HPM_TD = 2: mtdfe16,
			      mtdbad16, LCOFI at a change of bit 15) */
} hpmref_config;

#define HPMREF_HPM_NUM_DEFAULT 29u
#define HPMREF_HPM_WIDTH_DEFAULT 64u

/* Fault injection values for hpmref_config.fault (test only; default NONE). */
#define HPMREF_FAULT_NONE 0u
#define HPMREF_FAULT_DIV_LATENCY 1u /* div/divu/rem/remu occupy X one cycle more */
#define HPMREF_FAULT_SLTU 2u        /* sltu (reg-reg only) compares signed when the
					operands' bit 31 differ: sltu(0, 0x80000000) = 0 */

hpmref *hpmref_new(const hpmref_config *cfg);
void hpmref_free(hpmref *m);

/* Memory access by the host/loader (no timing, no side effects).
 * Return 0, or -1 if [addr, addr+len) is not entirely inside fw or ram. */
int hpmref_write_mem(hpmref *m, uint32_t addr, const void *src, size_t len);
int hpmref_read_mem(const hpmref *m, uint32_t addr, void *dst, size_t len);

/* Executes one instruction (or takes one trap/interrupt, or finishes one wfi)
 * and advances the cycle count accordingly. Fills *out (may be NULL). */
void hpmref_step(hpmref *m, hpm_retire *out);

/* Sets the pc (M-mode) before the first step, e.g. to the ELF entry after
 * loading into a model created with another boot_addr. */
void hpmref_set_pc(hpmref *m, uint32_t pc);

uint64_t hpmref_cycle(const hpmref *m); /* cycle the next instruction enters X */
uint32_t hpmref_pc(const hpmref *m);
uint32_t hpmref_reg(const hpmref *m, unsigned i);
/* Reads a CSR as M-mode software would, without side effects; returns 0 and
 * stores the value, or -1 if the CSR does not exist. */
int hpmref_csr(const hpmref *m, uint16_t addr, uint32_t *val);

/* UART: bytes written by the program are collected; this drains them. */
size_t hpmref_uart_take(hpmref *m, uint8_t *buf, size_t cap);
/* UART receive: queues bytes for the program (available at once, a status
 * read shows rx_valid while any is queued); returns how many fit. */
size_t hpmref_uart_put(hpmref *m, const uint8_t *buf, size_t len);
/* 1 when the program is only polling an empty receiver (this many status
 * reads in a row with nothing received and nothing being sent), so a
 * runner may block until the next input byte. */
#define HPMREF_UART_IDLE_POLLS 256u
int hpmref_uart_waiting(const hpmref *m);

/* ---- ELF loading (shared by both runners) ---- */
typedef struct hpm_elf_info {
	uint32_t entry;
	int has_tohost;
	uint32_t tohost;
	int has_sig;
	uint32_t sig_begin, sig_end;
	uint32_t mem_end; /* end of the highest loaded byte, .bss included */
	/* the SDK (fw/sdk): __hpm_sdk_args marks a program that takes argc/argv
     * (docs/monitor.md), __hpm_startup is where crt0 notes its own cost */
	int has_sdk_args;
	uint32_t sdk_args;
	int has_startup;
	uint32_t startup;
} hpm_elf_info;

/* Loads a 32-bit little-endian RISC-V ELF's PT_LOAD segments through the
 * write callback. Returns 0, or -1 with a one-line reason in err. Segments
 * outside fw/ram are an error; nothing is written when the file is invalid. */
typedef int (*hpm_mem_writer)(void *ctx, uint32_t addr, const void *src, size_t len);
int hpm_elf_load(const char *path, hpm_mem_writer w, void *ctx,
		 hpm_elf_info *info, char *err, size_t err_len);
/* The same on an ELF image in memory (name prefixes the error message). */
int hpm_elf_load_buf(const uint8_t *buf, size_t len, const char *name,
		     hpm_mem_writer w, void *ctx, hpm_elf_info *info,
		     char *err, size_t err_len);

/* ---- lockstep ---- */
typedef struct hpm_lockstep hpm_lockstep;
/* The lockstep checker owns a model; history is the number of past records
 * printed as context on divergence. */
hpm_lockstep *hpm_lockstep_new(hpmref *m, unsigned history);
void hpm_lockstep_free(hpm_lockstep *ls);
/* Steps the model once and compares with the RTL's record. Returns 0 if equal;
 * on divergence prints the context and both records to out and returns 1. */
int hpm_lockstep_check(hpm_lockstep *ls, const hpm_retire *rtl, FILE *out);
uint64_t hpm_lockstep_count(const hpm_lockstep *ls);

#ifdef __cplusplus
}
#endif
#endif
