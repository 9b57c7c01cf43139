/* monitor.h: what the monitor's parts share (fw/monitor). */
#ifndef MONITOR_H
#define MONITOR_H

#include <stddef.h>
#include <stdint.h>
#include "hpm_proto.h"

/* Workloads get the SPRAM below MONRAM, the top 4 KiB that holds the
 * monitor's bss and stack (fw/common/fw.ld). */
#define WL_RAM_SIZE (HPM_MONRAM_BASE - HPM_RAM_BASE)

/* funct3 of the patched instruction; READ is csrrs with rs1 = x0 */
enum { CSR_OP_READ = 0, CSR_OP_WRITE = 1, CSR_OP_SET = 2, CSR_OP_CLEAR = 3 };

/* link.c: frames over the UART (docs/protocol.md section 1) */
void link_init(void);            /* resets the decoder, sends a delimiter */
void send_frame(uint8_t type, uint8_t seq, const void *body, size_t len);
/* An ERROR frame (arg 0) that is no reply to cache: BAD_CRC, BUSY */
void send_error(uint8_t seq, uint8_t code, uint8_t req_type);
/* A record of the running workload (SAMPLE, PROFILE, REGION): sent twice
 * while the RUN's flags have HPM_RUN_TWICE */
void send_record(uint8_t type, uint8_t seq, const void *body, size_t len);
extern uint8_t run_flags;        /* the running RUN's flags */
/* One UART byte, if any, through the decoder: what hpm_decoder_feed
 * returns (HPM_PROTO_FRAME: *f filled), HPM_PROTO_OK if none waited. */
int  link_receive(struct hpm_frame *f);
int  link_byte(void);            /* the next UART byte, -1 if none waits */
void uart_flush(void);           /* waits until the last byte has left */

/* hpm.c: the board state, probed at boot (hpm_init); CSR numbers are
 * unsigned, not uint16_t: no zero-extension at every call (144 EBR bytes) */
struct board {
	uint32_t present;      /* value[] bits that exist: 0..2 and 3..2+hpm_num */
	uint32_t clock_hz;
	uint8_t hpm_num, hpm_width;
	uint8_t td_counts;     /* the iCE40 board's two top-down counts (HPM_TD = 2) */
};
extern struct board board;

int  csr_access(unsigned op, unsigned csr, uint32_t in, uint32_t *out);
void hpm_init(void);
uint32_t monitor_sum(void);      /* the checksum INFO and the RUN reply carry */
void counter_written(unsigned csr);
void take_snapshot(struct hpm_msg_snapshot *s);
void read_counters(uint32_t mask, uint64_t *value);   /* others 0 */
uint64_t read_counter(unsigned n);
void write_counter(unsigned n, uint64_t v);
uint32_t account_wraps(const uint64_t *period, uint8_t seq);
extern uint32_t records;     /* profile samples + region markers this run */
/* the wrap counts (live.wraps[n]), and the values of the frame being sent */
extern struct hpm_msg_sample live;
extern uint32_t final_of;

/* topdown.c: the top-down unit's level 1 from the board's counts */
void td_run_start(void);         /* after the run's mcycle write */
void td_widen(void);             /* at every entry from a run */
int  td_emulate(unsigned csr, uint32_t *out);   /* -1: not emulated */
int  td_trap(void);               /* an illegal instruction: 1 if emulated */

/* run.c: executes a RUN request; returns 0 with the 420-byte reply in out,
 * or an HPM_ERR_* code with its arg. stream: set by STREAM (main.c). */
int run_workload(const struct hpm_frame *f, uint8_t *out, uint32_t *arg);
struct stream_cfg {
	uint64_t interval;
	uint32_t mask;
	uint8_t armed, silent;
};
extern struct stream_cfg stream;

/* entry.S */
extern uint32_t wl_regs[33];
extern volatile uint32_t csr_trapped, mon_inhibit;
extern uint32_t csr_tramp[2];
void enter_workload(uint32_t inhibit);
/* The workload's return addresses from its frame-pointer chain into ret[]
 * (at most HPM_PROF_STACK); returns their size in bytes. */
size_t walk_stack(uint32_t *ret);

#endif
