/* hpm_sys.c: the SDK's system layer under picolibc. stdout and stderr are
 * line-buffered and leave through the monitor's write system call (a7 = 64,
 * docs/monitor.md), so `hpmctl run` and `hpmctl stat` show them as the
 * program runs; stdin is empty; _exit() flushes both and ends the run with
 * the exit system call (a7 = 93). */
#include <stdio.h>
#include <unistd.h>
#include "hpm_sdk.h"

#define SYS_WRITE 64
#define SYS_EXIT  93

long hpm_syscall_write(int fd, const void *buf, size_t len)
{
	register long a0 __asm__("a0") = fd;
	register const void *a1 __asm__("a1") = buf;
	register size_t a2 __asm__("a2") = len;
	register long a7 __asm__("a7") = SYS_WRITE;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
	return a0;
}

ssize_t write(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	size_t done = 0;
	while (done < len) {
		long n = hpm_syscall_write(fd, p + done, len - done);
		if (n <= 0)
			return done ? (ssize_t)done : -1;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

struct line_buf {
	int fd;
	unsigned n;
	char b[HPM_SDK_LINE_BUF];
};
static struct line_buf out_buf = { .fd = 1 }, err_buf = { .fd = 2 };

static int flush_buf(struct line_buf *lb)
{
	int rc = lb->n && write(lb->fd, lb->b, lb->n) != (ssize_t)lb->n ? EOF : 0;
	lb->n = 0;
	return rc;
}

static int put_buf(struct line_buf *lb, char c)
{
	lb->b[lb->n++] = c;
	if (c == '\n' || lb->n == sizeof lb->b)
		return flush_buf(lb) ? EOF : (unsigned char)c;
	return (unsigned char)c;
}

static int put_out(char c, FILE *f) { (void)f; return put_buf(&out_buf, c); }
static int flush_out(FILE *f) { (void)f; return flush_buf(&out_buf); }
/* stderr keeps its order relative to stdout */
static int put_err(char c, FILE *f) { (void)f; flush_buf(&out_buf); return put_buf(&err_buf, c); }
static int flush_err(FILE *f) { (void)f; return flush_buf(&err_buf); }
static int get_none(FILE *f) { (void)f; return _FDEV_EOF; }

static FILE out_file = FDEV_SETUP_STREAM(put_out, NULL, flush_out, _FDEV_SETUP_WRITE);
static FILE err_file = FDEV_SETUP_STREAM(put_err, NULL, flush_err, _FDEV_SETUP_WRITE);
static FILE in_file = FDEV_SETUP_STREAM(NULL, get_none, NULL, _FDEV_SETUP_READ);
FILE *const stdout = &out_file;
FILE *const stderr = &err_file;
FILE *const stdin = &in_file;

ssize_t read(int fd, void *buf, size_t len)
{
	(void)fd;
	(void)buf;
	(void)len;
	return 0;
}

void _exit(int code)
{
	flush_buf(&out_buf);
	flush_buf(&err_buf);
	register long a0 __asm__("a0") = code;
	register long a7 __asm__("a7") = SYS_EXIT;
	__asm__ volatile("ecall" : : "r"(a0), "r"(a7) : "memory");
	for (;;)
		;
}
