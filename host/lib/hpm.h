/* libhpm: measure a RISC-V hpm-overlay board from the host.
 *
 * Usage (the lines between EXAMPLE and END compile as the body of main();
 * tests/run.sh, suite install, builds and runs them against the installed
 * library: cc my.c $(pkg-config --cflags --libs libhpm)):
 *
 * EXAMPLE
 *   hpm_board *b;  hpm_evlist *ev;  hpm_program *p;
 *   hpm_count c[HPM_MAX_COUNTS];  size_t n;  char err[256];
 *   if (hpm_open(&b, "auto", NULL, err, sizeof err) != HPM_OK)    // USB board, else simulated
 *       return fprintf(stderr, "%s\n", err), 1;
 *   if (hpm_evlist_parse(&ev, "cycles,instructions,loads", err, sizeof err) != HPM_OK ||
 *       hpm_program_load(&p, "matmul", err, sizeof err) != HPM_OK)
 *       return fprintf(stderr, "%s\n", err), 1;
 *   if (hpm_stat(b, p, ev, NULL, c, HPM_MAX_COUNTS, &n, NULL) != HPM_OK)  // exact 64-bit counts
 *       return fprintf(stderr, "%s\n", hpm_errmsg(b)), 1;
 *   for (size_t i = 0; i < n; i++)
 *       printf("%llu %s\n", (unsigned long long)c[i].value, c[i].ev->name);
 *   hpm_program_free(p);  hpm_evlist_free(ev);  hpm_close(b);
 * END
 *
 * Every function returns HPM_OK (0) or a negative enum hpm_errcode;
 * hpm_errmsg(b) then holds one line saying what went wrong. There is no
 * global state: everything hangs off the handle. Every array of counts
 * (hpm_count) the library fills comes with its capacity: HPM_E_ARG, before
 * anything runs, if it cannot hold one count per event. The shared
 * library's soname is libhpm.so.1.
 */
#ifndef HPM_H
#define HPM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HPM_LIB_VERSION "0.3.0"

enum hpm_errcode {
	HPM_OK            =   0,
	HPM_E_ARG         =  -1,  /* bad argument from the caller */
	HPM_E_NOMEM       =  -2,
	HPM_E_LINK        =  -3,  /* cannot open, or lost, the link */
	HPM_E_TIMEOUT     =  -4,  /* no valid reply after every retry */
	HPM_E_PROTOCOL    =  -5,  /* malformed or unexpected reply */
	HPM_E_BOARD       =  -6,  /* the board answered ERROR (see hpm_board_error) */
	HPM_E_CONFIG      =  -7,  /* board and host disagree (catalogue hash, version) */
	HPM_E_ELF         =  -8,  /* not a loadable RV32 ELF for this board */
	HPM_E_EVENT       =  -9,  /* unknown event name or bad raw selector */
	HPM_E_NOTFOUND    = -10,  /* no such workload, file or device */
	HPM_E_RUN         = -11,  /* the workload did not exit cleanly (trap, budget) */
	HPM_E_MISMATCH    = -12,  /* hpm_validate: board and reference differ */
	HPM_E_RESET       = -13,  /* the board restarted during the operation */
	HPM_E_INTERRUPTED = -14,  /* stopped by hpm_interrupt (what was measured was delivered) */
};

const char *hpm_strerror(int err);          /* static text for an error code */

/* ---- opening a board ---- */

typedef struct hpm_board hpm_board;

typedef struct hpm_open_opts {
	uint32_t baud;        /* tty/usb: 0 = 1500000 (the iCEBreaker build) */
	const char *sim_path; /* hpm-sim to spawn; NULL = $HPM_SIM, else next to
	                         the running program, else build/bin/hpm-sim */
	const char *ref_path; /* hpm-ref for the "ref" link and hpm_validate; NULL
	                         = $HPM_REF, else next to the program */
	unsigned hpm_num;     /* "ref" link only: configuration to model */
	unsigned hpm_width;   /*   (0, 0 = the simulated board's 29 x 64) */
	int td_board;         /* "ref" link only: 1 = the iCE40 board's two top-down
	                         counts instead of the unit (hpm-ref --td-board) */
	int verbose;          /* 1: say on stderr which link "auto" picked */
	unsigned timeout_ms;  /* reply timeout per attempt, 0 = $HPM_TIMEOUT_MS or
	                         the protocol's (docs/protocol.md section 2); raise
	                         it for slow links such as the emulated USB board */
	unsigned giveup_ms;   /* a lossy link: one exchange gives up after this
	                         long without an answer; 0 = $HPM_GIVEUP_MS or 60 s */
	unsigned link_budget_ms; /* a lossy link: the time a session may lose to
	                         errors before it gives up; 0 = $HPM_LINK_BUDGET_MS
	                         or 120 s */
	int trace;            /* 1: each recovery from a link error on stderr;
	                         0 = 1 if $HPM_LINK_TRACE is set */
} hpm_open_opts;
/* hpm_open reads the environment variables named above once, for the
 * fields left 0 (docs/libhpm.md, "Environment"); nothing else in libhpm
 * reads the environment. */

/* link: "sim", "usb", "usb::SERIAL", "usb:VID:PID[:serial]", "tty:/dev/ttyUSB1",
 * "tcp:HOST:PORT" (a serial line exported raw over TCP, e.g. by ser2net),
 * "rfc2217:HOST:PORT" (telnet with RFC 2217: the line set to the baud rate,
 * 8N1, no flow control), "auto" (a USB board if one is attached, else sim;
 * says which on stderr), or "ref" (the reference model serving the same
 * protocol). Handshakes (HELLO) and
 * refuses a board whose protocol or event catalogue differs from the host's
 * (HPM_E_CONFIG). On failure *out is NULL; the reason is copied into err. */
int  hpm_open(hpm_board **out, const char *link, const hpm_open_opts *opts,
	      char *err, size_t errlen);
void hpm_close(hpm_board *b);

/* Checks a link name's syntax without opening anything (hpm_open does the
 * same first): HPM_OK, or HPM_E_ARG with one line in err ("unknown link
 * ...", "tcp:HOST: expected tcp:HOST:PORT", a port out of 1..65535). */
int  hpm_link_check(const char *link, char *err, size_t errlen);

const char *hpm_errmsg(const hpm_board *b);   /* last error, one line */

/* Asks the measurement in progress on b to stop as soon as it can, e.g. from
 * a SIGINT handler or a timer (async-signal-safe: it only sets flags). The
 * run in progress is aborted at its next tick (docs/protocol.md section 4,
 * ABORT; every run has ticks: HPM_KEEPALIVE_CYCLES), no further run,
 * replay or repeat starts, and the measurement returns HPM_E_INTERRUPTED
 * after delivering what it has: hpm_stat, hpm_stat_regions and
 * hpm_validate the counts where the run stopped (below), hpm_stat_interval
 * the intervals received so far, then the counts at the abort, hpm_profile
 * the samples and counts up to the abort, hpm_run its ABORTED result. The
 * request is consumed by the measurement that returns HPM_E_INTERRUPTED
 * (hpm_validate: also the reference's run in progress is stopped). */
void hpm_interrupt(hpm_board *b);

/* Runs without interval streaming tick every HPM_KEEPALIVE_CYCLES workload
 * cycles, silently (docs/protocol.md 6.4, SILENT): at a tick the monitor
 * reads ABORT and answers any other byte BUSY, which keeps a lossy link's
 * exchange alive however long the program runs. A run shorter than this has
 * no tick and its counts are untouched; a longer one pays each tick's cost
 * (6.3: U/S 2 cycles and one interrupt, M 10 cycles and 5 instructions;
 * hpm_run_result.ticks says how many), on the board and on the reference
 * alike. */
#define HPM_KEEPALIVE_CYCLES (1ull << 22)

/* A USB board (FT2232H 0403:6010) attached to this host. */
typedef struct hpm_usb_board {
	uint16_t vid, pid;
	unsigned bus, address;   /* where libusb sees it now */
	char port[32];           /* port path "1-1.4": stays with the socket */
	char serial[64];         /* the chip's serial number, "" if none or unreadable */
	char link[80];           /* "usb::SERIAL" for hpm_open, "" without a serial */
	char why[160];           /* why it could not be opened, "" if it could */
} hpm_usb_board;

/* Lists the attached boards without talking to them: up to cap into out[],
 * *n = how many are attached (may exceed cap). HPM_OK, or HPM_E_LINK with
 * the reason in err (libusb unusable). */
int hpm_usb_list(hpm_usb_board *out, size_t cap, size_t *n, char *err, size_t errlen);
/* For HPM_E_BOARD: the protocol error code (docs/protocol.md section 7) and
 * its arg. */
void hpm_board_error(const hpm_board *b, unsigned *code, uint32_t *arg);

typedef struct hpm_info {
	unsigned proto_version, fw_version;  /* fw_version = major << 8 | minor */
	uint32_t mvendorid, marchid, mimpid, misa;
	unsigned hpm_num;                    /* mhpmcounter3 .. 2+hpm_num exist */
	unsigned hpm_width;                  /* their width in bits */
	uint32_t clock_hz, uart_baud;
	uint64_t event_hash;                 /* board's event catalogue */
	uint32_t ram_base, ram_size, min_interval, features;
	const char *link;                    /* which link, human readable */
} hpm_info;

const hpm_info *hpm_get_info(const hpm_board *b);

/* ---- raw access ---- */

int hpm_ping(hpm_board *b, const void *data, size_t len);
int hpm_csr_read(hpm_board *b, uint16_t csr, uint32_t *value);
/* op: 0 write, 1 set bits, 2 clear bits. old/new_value may be NULL. */
int hpm_csr_write(hpm_board *b, uint16_t csr, unsigned op, uint32_t value,
		  uint32_t *old_value, uint32_t *new_value);
int hpm_mem_read(hpm_board *b, uint32_t addr, void *buf, size_t len);
int hpm_mem_write(hpm_board *b, uint32_t addr, const void *buf, size_t len);
int hpm_reset(hpm_board *b);

/* ---- the event catalogue (hw/hpm/events.def) ---- */

typedef struct hpm_event_desc {
	unsigned index;          /* EVENTn field value */
	const char *name;        /* what users type after -e */
	const char *aliases;     /* comma separated, "" if none */
	const char *brief;       /* one line */
	const char *definition;  /* exactly what is counted */
} hpm_event_desc;

size_t hpm_event_count(void);
const hpm_event_desc *hpm_event_at(size_t i);            /* NULL past the end */
const hpm_event_desc *hpm_event_find(const char *name);  /* name or alias */
uint64_t hpm_event_catalogue_hash(void);

/* ---- event lists: what follows "-e" ---- */

/* One requested event. Named events are counted by the fixed counters where
 * possible (cycles -> mcycle, instructions -> minstret) and otherwise by a
 * programmable counter with selector EVENT0 = index, other fields 0;
 * "r<hex>" is a raw 64-bit mhpmevent value (OF bit 63 and MINH/SINH/UINH
 * bits 62..60 must be 0). perf's modifiers ":u", ":k" (S-mode), ":m" and
 * combinations (":uk") count only in the modes named: the others' inhibit
 * bits are set in the selector, and the event takes a programmable counter. */
typedef struct hpm_evspec {
	char name[64];        /* as the user wrote it (aliases kept) */
	uint64_t selector;    /* mhpmevent value (EVENT0 = index for named events) */
	unsigned index;       /* catalogue index, 0 for raw selectors */
	int fixed;            /* -1 programmable, 0 mcycle, 2 minstret */
	unsigned group;       /* 0.. : "{a,b}" groups run together */
	unsigned topdown;     /* enum hpm_td_value: in the top-down group (below) */
} hpm_evspec;

typedef struct hpm_evlist hpm_evlist;

/* "a,b,{c,d},r3f": returns HPM_OK or HPM_E_EVENT with a one-line reason in
 * err (unknown name, bad raw code, empty group...).
 *
 * The top-down group (Linux's rules for Ice Lake): a list that names `slots`
 * puts slots and every topdown-* event in it into one group, counted by the
 * board's top-down unit when it has one (no programmable counter taken,
 * beside any other events; hpm_topdown_present), else slots by mcycle and
 * the topdown-* events by programmable counters, in the same run as every
 * other event of the list (no replay: HPM_E_EVENT if they do not fit).
 * A "{...}" group that holds some of them must hold all of them and nothing
 * else, and none takes a modifier (HPM_E_EVENT). Without `slots` the
 * topdown-* events are ordinary events on programmable counters. */
int  hpm_evlist_parse(hpm_evlist **out, const char *spec, char *err, size_t errlen);
void hpm_evlist_free(hpm_evlist *l);
size_t hpm_evlist_len(const hpm_evlist *l);
const hpm_evspec *hpm_evlist_at(const hpm_evlist *l, size_t i);

/* ---- programs (workloads) ---- */

typedef struct hpm_program hpm_program;

/* name_or_path: a workload name (hpm_workload_at) or an ELF file. The ELF
 * must be RV32 little-endian executable, every loadable segment inside the
 * workload RAM, and it must define the entry; else HPM_E_ELF with the reason
 * in err. */
int  hpm_program_load(hpm_program **out, const char *name_or_path, char *err, size_t errlen);
void hpm_program_free(hpm_program *p);
const char *hpm_program_name(const hpm_program *p);
uint32_t hpm_program_entry(const hpm_program *p);
/* 1 if p was built with the SDK (hpm-cc): its main takes argc/argv
 * (hpm_run_opts.argc/argv), not a workload size. */
int hpm_program_takes_args(const hpm_program *p);

/* Built-in workloads (fw/workloads): name, one-line description, NULL past
 * the end. They are found in $HPM_WORKLOADS, next to the program
 * (../fw/workloads) or in the install prefix. */
const char *hpm_workload_at(size_t i, const char **description);

/* ---- runs ---- */

enum hpm_privilege { HPM_MODE_USER = 0, HPM_MODE_SUPERVISOR = 1, HPM_MODE_MACHINE = 3 };

enum hpm_exit_reason {
	HPM_EXIT_REASON_ECALL = 1, HPM_EXIT_REASON_TOHOST = 2, HPM_EXIT_REASON_TRAP = 3,
	HPM_EXIT_REASON_BUDGET = 4, HPM_EXIT_REASON_ABORTED = 5,
};

#define HPM_NUM_VALUES 32   /* 0 mcycle, 1 mtime, 2 minstret, 3..31 mhpmcounter */

/* Counter values, each exact and 64-bit (narrow counters already extended). */
typedef struct hpm_snapshot {
	uint32_t present;     /* bit n: value[n] is implemented */
	uint32_t overflowed;  /* OF bits when taken */
	uint64_t value[HPM_NUM_VALUES];
	uint32_t wraps[HPM_NUM_VALUES]; /* wraps of counter n during the run (n >= 3) */
	uint32_t untrusted;   /* bit n: counter narrower than 8 bits wrapped, so
	                         value[n] may have missed wraps (docs/protocol.md 6.5) */
} hpm_snapshot;

/* One interval sample (interval streaming). lost = samples missing before
 * this one (0 normally). */
typedef struct hpm_sample {
	uint32_t seq, lost;
	uint32_t mask;                   /* which value[] are filled (0: mcycle, always) */
	uint64_t value[HPM_NUM_VALUES];  /* cumulative since the run started */
} hpm_sample;

typedef int (*hpm_sample_cb)(void *ctx, const hpm_sample *s);  /* non-zero: abort the run */

/* What the program writes to fd 1 (stdout) or 2 (stderr) with the write
 * system call (docs/monitor.md), as it arrives during the run. */
typedef void (*hpm_output_cb)(void *ctx, int fd, const void *data, size_t len);

/* One profile sample (docs/protocol.md 6.7): a sampled counter overflowed
 * and the monitor was entered with mepc = pc, the next instruction the
 * workload would have executed, in mode `mode`. */
#define HPM_MAX_STACK 16    /* return addresses kept per sample (record -g) */

typedef struct hpm_prof_sample {
	uint32_t index;       /* record number in the run (samples and region markers) */
	uint32_t pc;
	unsigned mode;        /* enum hpm_privilege */
	unsigned counter;     /* hpm_run: value[] index 3..31; hpm_profile: event position in l */
	uint64_t time;        /* board cycles since the run started, at the sample: mcycle (0: unknown) */
	unsigned nstack;      /* call chain (record -g): 0 without one */
	uint32_t stack[HPM_MAX_STACK]; /* return addresses, innermost caller first */
} hpm_prof_sample;

typedef int (*hpm_prof_cb)(void *ctx, const hpm_prof_sample *s);  /* non-zero: abort */

/* A region marker ecall (hpm_region.h): the run's counters, stopped at the
 * marker, extended to 64 bits: value[0] mcycle, value[2] minstret, value[3..]
 * the run's selectors. */
typedef struct hpm_region_mark {
	uint32_t marker;      /* a0 of the ecall: name address, bit 0 set for END */
	uint32_t mask;        /* which value[] are filled */
	uint64_t value[HPM_NUM_VALUES];
} hpm_region_mark;

typedef int (*hpm_region_cb)(void *ctx, const hpm_region_mark *m);  /* non-zero: abort */

/* ---- the top-down unit (docs/csr.md "Top-down unit") ---- */

/* What the top-down unit counts: SLOTS (cycles x issue width, 1 here) and
 * the slots of each top-down event, exact 64-bit counts. */
enum hpm_td_value {
	HPM_TD_NONE = 0,
	HPM_TD_SLOTS,
	HPM_TD_RETIRING, HPM_TD_BAD_SPEC, HPM_TD_FE_BOUND, HPM_TD_BE_BOUND,   /* level 1 */
	HPM_TD_BR_MISPREDICT, HPM_TD_MACHINE_CLEARS, HPM_TD_FETCH_LATENCY,
	HPM_TD_MEM_BOUND, HPM_TD_CORE_BOUND,                                  /* level 2 */
	HPM_TD_N
};

typedef struct hpm_topdown {
	uint64_t value[HPM_TD_N];  /* by enum hpm_td_value; level 1 sums to SLOTS */
	int overflow;              /* SLOTS wrapped since the reset (mtopdown OF) */
	int levels;                /* 2; 1 on the iCE40 board: level 2 values are 0 */
} hpm_topdown;

/* *levels: the levels of the unit the board has, probed once per handle:
 * 0 none (a CSR_READ of `slots` traps), 1 on the iCE40 board (its monitor
 * emulates level 1 from two counts, docs/hpm.md), 2 the whole unit. */
int hpm_topdown_present(hpm_board *b, int *levels);
/* Resets SLOTS, every count and OF together (mtopdown = 1); outside a run.
 * With level 1 only nothing: the monitor starts every run from zero.
 * HPM_E_CONFIG on a board without the unit. */
int hpm_topdown_reset(hpm_board *b);
/* Reads SLOTS and the five counts the unit keeps (retiring, bad speculation,
 * frontend bound, branch mispredicts, memory bound) and derives the others
 * exactly: backend bound = SLOTS - retiring - bad speculation - frontend
 * bound, machine clears = bad speculation - branch mispredicts, fetch
 * latency = frontend bound, core bound = backend bound - memory bound. */
int hpm_topdown_read(hpm_board *b, hpm_topdown *t);

typedef struct hpm_run_opts {
	enum hpm_privilege mode;        /* default U */
	uint64_t budget;           /* workload cycles; 0 = 2^40 */
	uint32_t a0, a1;           /* arguments; a0 is the workload size, 0 = default */
	uint64_t interval;         /* 0: no streaming; else cycles between samples */
	hpm_sample_cb on_sample;   /* called for each sample (interval != 0) */
	void *ctx;
	hpm_output_cb on_output;   /* the program's output; NULL: dropped */
	void *output_ctx;
	/* Programs built with the SDK (hpm_program_takes_args): main's argv.
	 * argc 0 gives argv = { the program's name }. a0/a1 are then argc and
	 * argv's address, set by hpm_run. */
	unsigned argc;
	const char *const *argv;
	const uint64_t *period;    /* NULL, or per selector: sample its counter every
	                              period[i] events (0: not sampled; else at least
	                              HPM_MIN_PERIOD and at most 2^hpm_width) */
	hpm_prof_cb on_prof;       /* each profile sample, in order (ctx, as on_sample's) */
	hpm_region_cb on_region;   /* each region marker, in order (ctx, as on_sample's) */
	int call_graph;            /* with period: each sample's call chain (firmware 1.5) */
	int topdown;               /* 1: reset the top-down unit before the run and
	                              read it after, into hpm_run_result.td (the run's
	                              window is mcycle's); HPM_E_CONFIG without the unit */
} hpm_run_opts;

#define HPM_MIN_PERIOD 256         /* longer than any skid (docs/hpm.md) */

typedef struct hpm_run_result {
	enum hpm_exit_reason reason;
	unsigned priv;                 /* mode at exit */
	uint32_t code;                 /* a0 of the exit ecall (0 = workload passed) */
	uint32_t mcause, mepc, mtval;
	uint32_t ticks, samples, lost_samples;
	uint32_t records;              /* profile samples + region markers the board took */
	uint32_t lost_records;         /* of these, not received (link) */
	uint64_t elapsed;              /* workload cycles */
	hpm_snapshot snap;             /* sampled counters: raw (hpm_profile corrects) */
	hpm_topdown td;                /* with hpm_run_opts.topdown: the unit's counts */
} hpm_run_result;

/* Uploads p's file-backed bytes (every time, verified by read-back CRC; .bss
 * is left to the program's start-up code), then runs it once with the
 * selectors sel[0..nsel) on counters 3.. (the rest count nothing). Counting
 * follows docs/protocol.md 6.2 (nothing the monitor executes is counted in
 * U/S runs). */
int hpm_run(hpm_board *b, const hpm_program *p, const hpm_run_opts *o,
	    const uint64_t *sel, unsigned nsel, hpm_run_result *r);

int hpm_snapshot_read(hpm_board *b, hpm_snapshot *s);

/* After a run of an SDK program: the cycles and instructions its start-up
 * code (crt0: .bss clear, constructors) counted before calling main, read
 * from the board's RAM. HPM_E_NOTFOUND for other programs. */
int hpm_startup_cost(hpm_board *b, const hpm_program *p, uint64_t *cycles, uint64_t *instret);

/* ---- perf-stat style measurement ---- */

#define HPM_MAX_COUNTS 128

typedef struct hpm_count {
	const hpm_evspec *ev;     /* points into the evlist */
	uint64_t value;           /* exact */
	uint64_t cycles;          /* workload cycles of the run that counted it */
	unsigned run;             /* which replay run (0..) counted it */
	int unit;                 /* 1: counted by the top-down unit */
} hpm_count;

/* Counts every event of l on p. Events are packed into as few runs as the
 * board has counters (a "{...}" group always shares a run); the workload is
 * replayed once per run, which is exact because the core is deterministic
 * (every run's cycles and instructions are checked equal). out[] follows the
 * order of l (cap: out[]'s length, at least hpm_evlist_len(l)). r (may be
 * NULL) gets the first run's result. A program that
 * fails (HPM_E_RUN: a non-zero exit code, a trap, the budget) the same way
 * in every replay still gets out[], *nout and r filled: exact counts of the
 * failing run. Stopped by hpm_interrupt (HPM_E_INTERRUPTED) during a run,
 * out[] and *nout get the counts of that run where it stopped, r its result
 * (ABORTED, snap.value[0] its cycles); the events of the other replays get
 * value 0 and cycles 0 (not counted up to that point). */
int hpm_stat(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
	     const hpm_run_opts *o, hpm_count *out, size_t cap, size_t *nout,
	     hpm_run_result *r);

/* perf stat -I: hpm_stat with the counters sampled every o->interval
 * workload cycles (o->on_sample is not used). cb gets the intervals in
 * order, each with the cumulative count of every event of l at its end, all
 * taken at the same workload cycle; the last one ends with the run. With
 * more events than counters the replays' samples are merged by sample
 * number: every replay must take each sample at the same cycle with the same
 * instruction count (else HPM_E_MISMATCH), so the merged counts are exact. A
 * sample lost in any replay merges its interval into the next (lost > 0).
 * cb is called while the last (or only) run goes on, for each interval
 * whose sample has arrived in it and in every earlier replay, in order; on
 * a lossy link (tty, usb) a lost sample holds the later ones back until a
 * repeat of the run brings it (docs/protocol.md 2.1). A mismatch between
 * replays found at the end comes after the intervals before it were
 * delivered. cb returning non-zero stops the measurement (HPM_E_RUN);
 * hpm_interrupt stops it with HPM_E_INTERRUPTED after the intervals
 * received so far and, with one run, the counts where it was aborted. A
 * stop at an explicit o->budget is a normal end here. out[] gets the final counts as from
 * hpm_stat; each interval's sampling tick perturbs them (docs/protocol.md
 * 6.3: 2 cycles and one interrupt per tick in U and S runs). */
typedef struct hpm_interval {
	uint32_t seq;              /* sample number; an interval that ends with the run
	                              between samples: the run's sample count */
	uint32_t lost;             /* sample periods lost just before this one */
	uint64_t cycles;           /* workload cycles at its end, since the start */
	const uint64_t *value;     /* cumulative count of event i of l, i < its length */
} hpm_interval;

typedef int (*hpm_interval_cb)(void *ctx, const hpm_interval *iv);  /* non-zero: stop */

int hpm_stat_interval(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		      const hpm_run_opts *o, hpm_interval_cb cb, void *ctx,
		      hpm_count *out, size_t cap, size_t *nout, hpm_run_result *r);

/* Runs the same measurement on the board and on the reference model (the
 * "ref" link with the board's HPM configuration). HPM_OK if every count is
 * equal, HPM_E_MISMATCH otherwise; hw[] and ref[] (cap counts each) get
 * both sets. */
int hpm_validate(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		 const hpm_run_opts *o, hpm_count *hw, hpm_count *ref, size_t cap,
		 size_t *nout);
/* The same, with r (may be NULL) getting the board's run. A program that
 * fails (exit code, trap, budget) is compared all the same: it must end
 * the same way on both (else HPM_E_MISMATCH); with every count equal the
 * result is then HPM_E_RUN, the counts filled. The program's output
 * (o->on_output) is the board's only. */
int hpm_validate_run(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		     const hpm_run_opts *o, hpm_count *hw, hpm_count *ref, size_t cap,
		     size_t *nout, hpm_run_result *r);

/* ---- sampling profiles (perf record -c) ---- */

/* Runs p once with event i of l sampled every period[i] events (0: only
 * counted). Every event takes a programmable counter when sampled (cycles
 * and instructions too), so the sampled and counted events must fit the
 * board's counters together (no replay). cb gets each sample in order, with
 * counter = the event's position in l, once the run has ended. out[] gets
 * the exact count of every event, the sampling's own cost included
 * (docs/hpm.md "Sampling"). Samples lost on a lossy link are recovered by
 * repeating the run (up to 16 times; every copy must be equal); if some
 * are still missing: HPM_E_PROTOCOL, never a short profile. A program that
 * fails (exit code, trap) still gets its samples, out[], *nout and r, then
 * HPM_E_RUN. A stop at an explicit o->budget is a normal end (the samples
 * up to it, its counts). Stopped by hpm_interrupt: cb gets the samples
 * taken up to the abort, out[] and r the counts there, and
 * HPM_E_INTERRUPTED is returned. */
int hpm_profile(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		const uint64_t *period, const hpm_run_opts *o, hpm_prof_cb cb,
		void *ctx, hpm_count *out, size_t cap, size_t *nout, hpm_run_result *r);

/* prof.data (docs/hpmctl.md "prof.data"): a profile as hpmctl record -c
 * writes it. Samples carry counter = the event's position. */
typedef struct hpm_profdata_event {
	char name[64];
	uint64_t period;       /* 0: counted, not sampled */
	uint64_t count;        /* exact count of the run */
} hpm_profdata_event;

typedef struct hpm_profdata {
	unsigned version;      /* of the file read (1: no elf_hash, time, args; 2: no sample times and call chains); 1 and 2 are written so, 0 as 3 */
	char program[1024];    /* the ELF file that ran (for its symbols), an absolute path */
	uint64_t elf_hash;     /* hpm_file_hash of that file when it ran (0: unknown) */
	uint64_t time;         /* when it was recorded, seconds since 1970 (0: unknown) */
	char args[1024];       /* the program's arguments, space separated */
	uint32_t clock_hz;
	unsigned mode;         /* enum hpm_privilege of the run */
	uint64_t cycles;       /* mcycle of the run */
	size_t nevents;
	hpm_profdata_event event[HPM_MAX_COUNTS];
	size_t nsamples;
	hpm_prof_sample *samples;
} hpm_profdata;

/* Parses a prof.data image (any bytes: a malformed one gives HPM_E_ARG and
 * a one-line reason in err, *out NULL). */
int  hpm_profdata_parse(hpm_profdata **out, const void *buf, size_t len, char *err, size_t errlen);
int  hpm_profdata_load(hpm_profdata **out, const char *path, char *err, size_t errlen);
int  hpm_profdata_save(const hpm_profdata *d, const char *path, char *err, size_t errlen);
void hpm_profdata_free(hpm_profdata *d);
/* 64-bit FNV-1a of a file's bytes (prof.data's elf_hash). */
int  hpm_file_hash(const char *path, uint64_t *hash, char *err, size_t errlen);

/* ---- regions (hpm_region.h) ---- */

#define HPM_MAX_REGIONS   32      /* distinct region names per program */
#define HPM_REGION_NAME   64      /* longest name kept, NUL included */

typedef struct hpm_region {
	char name[HPM_REGION_NAME];
	uint64_t calls;                   /* outermost BEGIN..END pairs */
	uint64_t cycles;                  /* workload cycles inside (mcycle) */
	uint64_t value[HPM_MAX_COUNTS];   /* event i of l inside the region */
} hpm_region;

/* hpm_stat with the workload's region markers: regions[0..*nregions) get,
 * in order of first BEGIN, each region's calls and counts of every event of
 * l between its BEGIN and END markers, summed over the calls (a nested or
 * recursive BEGIN of an open region only deepens it). Replays (more events
 * than counters) must agree on every region's calls, cycles and
 * instructions. The markers' own cost is included (docs/hpm.md "Regions").
 * An END without BEGIN, a region left open or more than maxregions regions:
 * HPM_E_RUN with the reason. A program that fails (as for hpm_stat) still
 * gets out[], *nout, the regions it closed and r filled, and HPM_E_RUN.
 * On a lossy link a run that lost markers is repeated (up to 16 times) and
 * the markers merged by their mcycle until every one is in; if some are
 * still missing: HPM_E_PROTOCOL. */
int hpm_stat_regions(hpm_board *b, const hpm_program *p, const hpm_evlist *l,
		     const hpm_run_opts *o, hpm_count *out, size_t cap, size_t *nout,
		     hpm_region *regions, size_t maxregions, size_t *nregions,
		     hpm_run_result *r);

/* The symbol table of p's ELF file (empty for a program without one):
 * functions and objects sorted by address. hpm_program_symbol returns the
 * symbol that contains addr (NULL if none). */
typedef struct hpm_symbol {
	const char *name;
	uint32_t addr, size;
} hpm_symbol;

size_t hpm_program_symbols(const hpm_program *p, const hpm_symbol **syms);
const hpm_symbol *hpm_program_symbol(const hpm_program *p, uint32_t addr);
const char *hpm_program_path(const hpm_program *p);   /* the ELF file loaded */

#ifdef __cplusplus
}
#endif
#endif
