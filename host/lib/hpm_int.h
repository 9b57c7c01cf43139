/* hpm_int.h: libhpm internals shared by its source files (not installed). */
#ifndef HPM_INT_H
#define HPM_INT_H

#include <signal.h>
#include <stdarg.h>
#include "hpm.h"
#include "hpm_proto.h"
#include "link.h"

#define HPM_ATTEMPTS 5
#define HPM_ARGS_MAX 2048        /* bytes of main's arguments (docs/monitor.md) */
#define HPM_ARGS_STACK_MIN 1024  /* stack left between the program and them */
#define HPM_FW_SAMPLING 0x0101     /* the first monitor with PROFILE and REGION */
#define HPM_FW_FETCH 0x0102        /* the first monitor with FETCH */
#define HPM_FW_TWICE 0x0103        /* the first monitor with the RUN flag TWICE */
#define HPM_FW_STACK 0x0105        /* the first monitor with sample times and the RUN flag STACK */

struct hpm_board {
	struct hpm_link *link;
	hpm_info info;
	hpm_open_opts opts;        /* as given (paths copied below) */
	char sim_path[1024], ref_path[1024];
	char link_name[160];
	uint8_t seq;
	struct hpm_decoder dec;
	uint8_t rx[1024];          /* bytes read from the link, not yet decoded */
	size_t rx_off, rx_len;
	unsigned err_code;         /* last ERROR reply */
	uint32_t err_arg;
	char err[512];
	/* the transport (session.c): frames with the outstanding request's seq
	 * other than its reply go to on_frame (1: taken); while abortable,
	 * hpm_interrupt makes it send ABORT until the request ends */
	int (*on_frame)(hpm_board *b, const struct hpm_frame *f);
	int abortable;
	int aborting;              /* the host sends ABORT for this run */
	volatile sig_atomic_t interrupt;   /* hpm_interrupt was called */
	hpm_board *volatile also;  /* hpm_validate's reference board: interrupted with b */
	/* the RUN in progress (run.c) */
	const hpm_run_opts *run_opts;
	uint32_t next_sample_seq, lost_samples;
	uint32_t next_record, records_seen;   /* PROFILE and REGION frames */
	uint64_t last_region_mcycle;    /* the last REGION frame's (its second copy: the same) */
	size_t output_seen;        /* the program's output bytes in this try of the run */
	size_t output_printed;     /* ... and printed by earlier tries */
	/* lossy links (tty, usb): docs/protocol.md section 2.1 */
	uint8_t last_req_seq;      /* the only seq the monitor may have cached */
	unsigned attempt_limit;    /* 0: retry until the give-up time-out */
	unsigned last_attempts;    /* attempts the last exchange took */
	uint32_t mem_chunk;        /* adaptive MEM_READ/MEM_WRITE size */
	unsigned mem_clean;        /* chunks in a row that needed no retry */
	uint32_t us_per_byte;      /* smoothed round trip per byte of clean exchanges, 0: none yet */
	unsigned long bad_frames, retransmits, fetches;   /* link statistics */
	unsigned noise_aborts;     /* runs that noise aborted and that ran again */
	unsigned stale_runs;       /* runs of an earlier session that were aborted */
	int64_t lost_ms;           /* time lost to failed attempts this session */
	int64_t repeat_t0;         /* start of the repeat of a run in progress, 0: none */
	int64_t repeat_lost0;      /* lost_ms when it started */
	unsigned repeat_depth;     /* repeats nest: a stat refill repeats hpm_run */
	int heard_any;             /* a byte came back in this session */
	/* probed CSRs (topdown.c): 0 not asked, 1 absent, 2 present */
	int td_unit;    /* the top-down unit (slots) */
	int td_counts;  /* the iCE40 board's top-down counts (mtdfe16) */
};

#define HPM_GIVEUP_MS 60000      /* default give-up time-out of one exchange */
#define HPM_LINK_BUDGET_MS 120000 /* default time a session may lose to errors */
#define HPM_SILENT_ATTEMPTS 8    /* attempts without a byte back: nobody there */

/* util.c. Formats the handle's error message; returns err. */
int hpm_fail(hpm_board *b, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* board.c. HPM_OK if sum (INFO's or a RUN reply's monitor_sum) is the
 * checksum of the monitor the build made, else HPM_E_CONFIG: the monitor
 * was modified, no count from it may be used. */
int hpm_check_monitor(hpm_board *b, uint32_t sum);
int hpm_td_board_present(hpm_board *b, int *present);

/* One request/reply exchange with retries (docs/protocol.md section 2).
 * On HPM_OK the reply body is in rbody (cap HPM_MAX_BODY) with *rlen. */
int hpm_transact(hpm_board *b, uint8_t type, const void *body, size_t len,
		 uint8_t *rbody, size_t *rlen);

/* Lossy links: a repeat of a run that lost frames is time lost to the
 * link's errors, like a failed attempt. hpm_repeat_begin/_end bracket one;
 * hpm_lost_ms counts a repeat in progress as lost up to now, so the
 * session's budget (HPM_LINK_BUDGET_MS) ends it in the middle of a repeat
 * too (docs/protocol.md 2.1: the total time-out). */
int64_t hpm_now_ms(void);
void hpm_repeat_begin(hpm_board *b);
void hpm_repeat_end(hpm_board *b);
int64_t hpm_lost_ms(const hpm_board *b);
int hpm_budget_spent(const hpm_board *b);

/* Waits for the BOOT frame a freshly started board sends. */
int hpm_wait_boot(hpm_board *b, int timeout_ms);

const char *hpm_type_name(uint8_t type);

/* util.c. Finds a helper program (hpm-sim, hpm-ref) or data directory: env var,
 * then relative to the running executable's directory (rel holds one or
 * more NUL-separated candidates, ending with an empty string), then, for a
 * program, $PATH, then fallback (the build tree). Writes into buf and
 * returns 0, or -1 if not found. */
int hpm_find_path(const char *env, const char *rel, const char *fallback,
		  char *buf, size_t len);

/* program.c */
struct hpm_segment {
	uint32_t addr, len;
	uint8_t *data;
};
struct hpm_program {
	char name[256];
	char path[1200];
	uint32_t entry, tohost;
	uint32_t mem_end;          /* end of the loaded image, .bss included */
	uint32_t sdk_args;         /* __hpm_sdk_args, 0: not an SDK program */
	uint32_t startup;          /* __hpm_startup, 0: none */
	size_t nseg;
	struct hpm_segment seg[16];
	size_t nsym;
	hpm_symbol *sym;           /* code symbols by address; names in symstr */
	char *symstr;
};

/* The NUL-terminated string at addr in p's file-backed bytes, or -1. */
int hpm_program_string(const hpm_program *p, uint32_t addr, char *buf, size_t len);

/* run.c: a raw counter value extended to 64 bits by its wrap count */
uint64_t hpm_extend(const hpm_info *in, uint64_t raw, uint32_t wraps);

/* stat.c */
int hpm_check_exit(hpm_board *b, const hpm_program *p, const hpm_run_result *r);
/* HPM_OK if an output array of cap counts holds n, else HPM_E_ARG with the
 * message set. */
int hpm_check_out(hpm_board *b, size_t n, size_t cap);

#endif
