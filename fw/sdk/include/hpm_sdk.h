/* hpm_sdk.h: what the hpm-overlay SDK adds to picolibc for programs built
 * with hpm-cc (docs/hpmctl.md, "Your own programs").
 *
 * stdout and stderr are line-buffered (HPM_SDK_LINE_BUF bytes) and reach
 * the host through the monitor's write system call; each write costs the
 * counts what a null system call costs (docs/monitor.md). Reading the
 * counters from the program: hpm_rdcycle() and hpm_rdinstret() (every
 * counter is readable in every mode during a run). */
#ifndef HPM_SDK_H
#define HPM_SDK_H

#include <stddef.h>
#include <stdint.h>

#define HPM_SDK_VERSION  1
#define HPM_SDK_LINE_BUF 256

/* One write system call: at most 512 bytes leave per call; returns the
 * number sent, or -1 (bad fd: only 1 and 2; buffer outside the RAM). */
long hpm_syscall_write(int fd, const void *buf, size_t len);

/* 64-bit counter reads, race-free on RV32 (hi, lo, hi again). */
#define HPM_SDK_READ64(name) ({ \
	uint32_t hi_, lo_, hi2_; \
	do { \
		__asm__ volatile("csrr %0, " #name "h" : "=r"(hi_)); \
		__asm__ volatile("csrr %0, " #name : "=r"(lo_)); \
		__asm__ volatile("csrr %0, " #name "h" : "=r"(hi2_)); \
	} while (hi_ != hi2_); \
	((uint64_t)hi_ << 32) | lo_; })

static inline uint64_t hpm_rdcycle(void) { return HPM_SDK_READ64(cycle); }
static inline uint64_t hpm_rdinstret(void) { return HPM_SDK_READ64(instret); }

#endif
