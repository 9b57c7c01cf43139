/* usb_link_test: tests of the USB link (host/lib/link_usb.c), docs/usb.md.
 *
 *   usb_link_test divisor            FTDI divisor table and option parsing (no device)
 *   usb_link_test open               discovery: present(), VID:PID[:serial] specs
 *   usb_link_test [opts] loopback    bytes of many sizes come back unchanged (board = cat)
 *   usb_link_test [opts] timeout     a read with nothing to read returns 0 in time,
 *                                    and the link still works afterwards
 *   usb_link_test [opts] unplug      the device disappears during round trips (a
 *                                    write fails): "usb: board unplugged"
 *   usb_link_test [opts] unplug-idle it disappears while a read waits
 *   usb_link_test [opts] ping [N]    N framed PINGs to the firmware monitor (hpm-sim)
 *   opts: --spec S (after "usb", default ""), --baud N (default 0: libhpm's 1500000)
 *
 * Run the device tests under tests/usb/ftdi_emu (umockdev). The last line is
 * "usb-MODE: N passed, M failed"; the exit status is 0 only if all passed.
 */
#include "link.h"
#include "hpm_proto.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int npass, nfail;

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("%s ", ok ? "ok  " : "FAIL");
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	if (ok)
		npass++;
	else
		nfail++;
	fflush(stdout);
}

static int finish(const char *mode)
{
	printf("usb-%s: %d passed, %d failed\n", mode, npass, nfail);
	return nfail || !npass;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- divisor: expected values worked out by hand (docs/usb.md) ---- */

static void div_case(uint32_t baud, int ok, uint16_t value, uint16_t index, uint32_t actual)
{
	uint16_t v = 0xdead, i = 0xdead;
	uint32_t a = 0;
	int r = hpm_ftdi_baud_divisor(baud, &v, &i, &a);

	if (!ok)
		check(r == -1, "divisor %u baud: not within 3%% (got %d, nearest %u)", baud, r, a);
	else
		check(r == 0 && v == value && i == index && a == actual,
		      "divisor %u baud: wValue 0x%04x wIndex 0x%04x actual %u (want 0x%04x 0x%04x %u)",
		      baud, v, i, a, value, index, actual);
}

static int test_divisor(void)
{
	/* 120 MHz / 10 = 12 MHz base (wIndex bit 9), divisor n + k/8:
	 * 3 M: 12/3 = 4        -> n 4, k 0                     */
	div_case(3000000, 1, 0x0004, 0x0200, 3000000);
	/* 2 M: 12/2 = 6 (the 3 MHz clock's code 1 is exact too: the tie keeps 120 MHz) */
	div_case(2000000, 1, 0x0006, 0x0200, 2000000);
	/* 1 M: 12 */
	div_case(1000000, 1, 0x000c, 0x0200, 1000000);
	/* 115200: 12e6/115200 = 104.1667 -> 104 + 1/8 (code 3 = bits 14,15):
	 * 12e6 / 104.125 = 115246.1 (+0.04 %); the 3 MHz clock gives 26.0 -> 115384.6 */
	div_case(115200, 1, 0xc068, 0x0200, 115246);
	/* 12 M: divisor 1 is code 0 (wValue 0) */
	div_case(12000000, 1, 0x0000, 0x0200, 12000000);
	/* 8 M: divisor 1.5 is code 1 with n = 1 -> wValue 0x0001 */
	div_case(8000000, 1, 0x0001, 0x0200, 8000000);
	/* 2.9 M: 4.1379 -> 4 + 1/8 (code 3) -> 2909091 (+0.31 %) */
	div_case(2900000, 1, 0xc004, 0x0200, 2909091);
	/* 921600: 13.0208 -> 13 -> 923077 (+0.16 %) */
	div_case(921600, 1, 0x000d, 0x0200, 923077);
	/* 1.8 M: 6.6667 -> 6 + 5/8 (code 5: bit 14 in wValue, bit 16 = wIndex bit 8) -> 1811321 */
	div_case(1800000, 1, 0x4006, 0x0300, 1811321);
	/* 2.4 M: 5.0 exactly */
	div_case(2400000, 1, 0x0005, 0x0200, 2400000);
	/* 500000: 24 */
	div_case(500000, 1, 0x0018, 0x0200, 500000);
	/* 300 baud: below the 120 MHz clock's reach (n <= 16383): 3 MHz clock,
	 * 3e6/300 = 10000 = 0x2710, no wIndex bit 9 */
	div_case(300, 1, 0x2710, 0x0000, 300);
	/* not representable within 3 %: 12.5 M (nearest 12 M, -4 %), 10 M
	 * (8 M or 12 M, 20 %), 9 M, above 12 M, 100 baud (3 MHz clock's
	 * slowest is 183 baud), 0 */
	div_case(12500000, 0, 0, 0, 0);
	div_case(10000000, 0, 0, 0, 0);
	div_case(9000000, 0, 0, 0, 0);
	div_case(20000000, 0, 0, 0, 0);
	div_case(100, 0, 0, 0, 0);
	div_case(0, 0, 0, 0, 0);
	/* 12.36 M is +3.0 %: just inside; 12.4 M (3.2 %) outside */
	div_case(12360000, 1, 0x0000, 0x0200, 12000000);
	div_case(12400000, 0, 0, 0, 0);

	/* open refuses before touching USB */
	struct hpm_link *l = (struct hpm_link *)1;
	char err[256] = "";
	int r = hpm_link_usb_open("", 12500000, &l, err, sizeof err);
	check(r == -1 && l == NULL && strstr(err, "3%") != NULL,
	      "open at 12500000 baud refused: '%s'", err);
	const char *bad[] = { ":zz:6010", ":0403", "0403:", ":0403:6010:", ":12345:6010", ":0403:6010x" };
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		err[0] = 0;
		r = hpm_link_usb_open(bad[k], 0, &l, err, sizeof err);
		check(r == -1 && strstr(err, "bad device") != NULL, "spec 'usb%s' refused: '%s'", bad[k], err);
	}
	return finish("divisor");
}

/* ---- device tests ---- */

static const char *spec = "";
static uint32_t baud = 0;

static struct hpm_link *open_link(void)
{
	struct hpm_link *l = NULL;
	char err[256];

	if (hpm_link_usb_open(spec, baud, &l, err, sizeof err)) {
		check(0, "open usb%s: %s", spec, err);
		return NULL;
	}
	check(l->kind == HPM_LINK_USB && l->baud > 0, "open usb%s: %s at %u baud", spec, l->name, l->baud);
	return l;
}

/* discovery: present(), the VID:PID:serial spec, errors that name the device */
static int test_open(void)
{
	struct hpm_link *l = NULL;
	char err[256];

	check(hpm_link_usb_present() == 1, "hpm_link_usb_present() finds the 0403:6010");
	static const char *const good[] = { "", ":0403:6010", "0403:6010", ":403:6010:HPMEMU01" };
	for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
		err[0] = 0;
		int r = hpm_link_usb_open(good[k], 0, &l, err, sizeof err);
		check(r == 0 && l && l->baud == 1500000 && strstr(l->name, "0403:6010 bus 1 dev 4"),
		      "open 'usb%s': %s", good[k], r ? err : l->name);
		if (r == 0)
			l->ops->close(l);
		l = NULL;
	}
	static const struct { const char *spec, *want; } bad[] = {
		{ ":0403:6010:NOSUCH", "usb: no device 0403:6010 with serial NOSUCH found" },
		{ ":0403:6011", "usb: no device 0403:6011 found" },
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		err[0] = 0;
		int r = hpm_link_usb_open(bad[k].spec, 0, &l, err, sizeof err);
		check(r == -1 && l == NULL && strcmp(err, bad[k].want) == 0,
		      "open 'usb%s' fails: '%s'", bad[k].spec, err);
	}
	return finish("open");
}

/* reads exactly n bytes (or fails after timeout_ms without progress) */
static int read_n(struct hpm_link *l, uint8_t *buf, size_t n, int timeout_ms)
{
	size_t got = 0;

	while (got < n) {
		int r = l->ops->read(l, buf + got, n - got, timeout_ms);
		if (r <= 0)
			return (int)got ? (int)got : r;
		got += (size_t)r;
	}
	return (int)got;
}

static int test_loopback(void)
{
	static const size_t sizes[] = {
		1, 2, 3, 62, 63, 64, 255, 256, 508, 509, 510, 511, 512, 513, 1019, 1020,
		1021, 1022, 1024, 1530, 2048, 4080, 4096, 4097, 8192, 16384, 65536,
	};
	struct hpm_link *l = open_link();
	uint8_t *tx = malloc(65536), *rx = malloc(65536 + 64);
	unsigned seed = 12345;
	size_t total = 0;
	double t0;

	if (!l)
		return finish("loopback");
	t0 = now_s();
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		size_t n = sizes[k];
		for (size_t j = 0; j < n; j++) {   /* counting bytes, then noise */
			seed = seed * 1103515245u + 12345u;
			tx[j] = k & 1 ? (uint8_t)(seed >> 16) : (uint8_t)(j + k);
		}
		if (l->ops->write(l, tx, n)) {
			check(0, "loopback %zu bytes: write: %s", n, l->err);
			break;
		}
		int got = read_n(l, rx, n, 5000);
		if (got < 0) {
			check(0, "loopback %zu bytes: read: %s", n, l->err);
			break;
		}
		size_t bad = 0;
		while (bad < (size_t)got && rx[bad] == tx[bad])
			bad++;
		check((size_t)got == n && bad == n,
		      "loopback %zu bytes: got %d back%s", n, got,
		      bad < (size_t)got ? ", first difference at byte" : "");
		if (bad < (size_t)got)
			printf("     byte %zu: sent 0x%02x got 0x%02x\n", bad, tx[bad], rx[bad]);
		total += n;
	}
	double dt = now_s() - t0;
	/* nothing more may arrive (e.g. a status byte taken for data), and an
	 * idle read times out on time */
	double t1 = now_s();
	int r = l->ops->read(l, rx, 64, 300);
	double idle = now_s() - t1;
	check(r == 0 && idle >= 0.29 && idle < 2.0,
	      "idle read: %d bytes after %.0f ms (want 0 after 300 ms)", r, idle * 1000);
	printf("loopback: %zu bytes each way in %.2f s\n", total, dt);
	l->ops->close(l);
	free(tx);
	free(rx);
	return finish("loopback");
}

static int test_timeout(void)
{
	struct hpm_link *l = open_link();
	uint8_t buf[64];

	if (!l)
		return finish("timeout");
	for (int t = 50; t <= 400; t *= 2) {
		double t0 = now_s();
		int r = l->ops->read(l, buf, sizeof buf, t);
		double dt = (now_s() - t0) * 1000;
		check(r == 0 && dt >= t - 1 && dt < t + 1000,
		      "read with %d ms timeout on a silent device: %d after %.0f ms", t, r, dt);
	}
	/* the timed-out transfers were cancelled: nothing eats the next bytes */
	const uint8_t msg[] = "after the timeouts";
	int r = l->ops->write(l, msg, sizeof msg);
	int got = r ? -1 : read_n(l, buf, sizeof msg, 5000);
	check(got == (int)sizeof msg && memcmp(buf, msg, sizeof msg) == 0,
	      "link still works after timeouts: %d of %zu bytes back", got, sizeof msg);
	l->ops->close(l);
	return finish("timeout");
}

static int test_unplug(void)
{
	struct hpm_link *l = open_link();
	uint8_t tx[100], rx[100];
	int i;

	if (!l)
		return finish("unplug");
	memset(tx, 0x5a, sizeof tx);
	for (i = 0; i < 1000; i++) {
		if (l->ops->write(l, tx, sizeof tx) || read_n(l, rx, sizeof tx, 5000) != (int)sizeof tx)
			break;
	}
	check(i < 1000 && strcmp(l->err, "usb: board unplugged") == 0,
	      "after %d round trips: '%s' (want 'usb: board unplugged')", i, l->err);
	int r = l->ops->read(l, rx, sizeof rx, 100);
	check(r == -1, "the link stays dead: read returns %d", r);
	l->ops->close(l);
	return finish("unplug");
}

/* The device disappears while a read waits (ftdi_emu --unplug-at). */
static int test_unplug_idle(void)
{
	struct hpm_link *l = open_link();
	uint8_t buf[64];
	const uint8_t msg[] = "before";

	if (!l)
		return finish("unplug-idle");
	int r = l->ops->write(l, msg, sizeof msg);
	int got = r ? -1 : read_n(l, buf, sizeof msg, 5000);
	check(got == (int)sizeof msg, "round trip before the unplug: %d bytes", got);
	double t0 = now_s();
	r = l->ops->read(l, buf, sizeof buf, 10000);
	check(r == -1 && strcmp(l->err, "usb: board unplugged") == 0,
	      "idle read: %d after %.0f ms, '%s' (want 'usb: board unplugged')", r,
	      (now_s() - t0) * 1000, l->err);
	r = l->ops->write(l, msg, sizeof msg);
	check(r == -1, "the link stays dead: write returns %d", r);
	l->ops->close(l);
	return finish("unplug-idle");
}

/* Sends PINGs (0x00 first, as the host does) and waits for each reply.
 * Like the host library: a PING that gets no reply is sent again (same seq,
 * 2 s apart, 5 attempts; 15 for the first, which may meet a booting board:
 * bytes that arrive before the monitor listens are lost); a BOOT frame
 * means the board (re)started: send again at once. */
static int test_ping(int count)
{
	struct hpm_link *l = open_link();
	static struct hpm_decoder dec;
	uint8_t wire[HPM_MAX_WIRE + 1], body[HPM_MAX_BODY], rx[1024];
	double rtt_sum = 0, rtt_max = 0;
	int replies = 0, echoes = 0, resent = 0, boots = 0;

	if (!l)
		return finish("ping");
	hpm_decoder_init(&dec);
	for (int k = 0; k < count; k++) {
		size_t len = k == 0 ? 8 : (size_t)(k * 37) % (HPM_MAX_BODY + 1);
		uint8_t seq = (uint8_t)(k + 1);
		int done = 0, attempts = k == 0 ? 15 : 5, a;
		double t0 = 0;

		for (size_t j = 0; j < len; j++)
			body[j] = (uint8_t)(j * 7 + k);
		wire[0] = HPM_DELIM;
		int n = hpm_frame_build(HPM_T_PING, seq, body, len, wire + 1, sizeof wire - 1);
		if (n < 0) {
			check(0, "ping %d: cannot build: %s", k, hpm_proto_status_str(n));
			break;
		}
		for (a = 0; a < attempts && !done; a++) {
			if (l->ops->write(l, wire, (size_t)n + 1)) {
				check(0, "ping %d: write: %s", k, l->err);
				done = -1;
				break;
			}
			resent += a > 0;
			t0 = now_s();
			while (!done && now_s() - t0 < 2.0) {
				int r = l->ops->read(l, rx, sizeof rx, 200);
				if (r < 0) {
					check(0, "ping %d: read: %s", k, l->err);
					done = -1;
					break;
				}
				size_t off = 0;
				while (off < (size_t)r && !done) {
					struct hpm_frame f;
					int st;
					off += hpm_decoder_push(&dec, rx + off, (size_t)r - off, &f, &st);
					if (st != HPM_PROTO_FRAME)
						continue;
					if (f.type == HPM_T_PING) {
						echoes++;   /* our own frame: the firmware just echoes */
					} else if (f.type == HPM_T_BOOT) {
						boots++;
						t0 = -10;   /* the board (re)started: send again now */
						break;
					} else if (f.type == (HPM_T_PING | HPM_T_REPLY) && f.seq == seq) {
						double rtt = now_s() - t0;
						int same = f.len == len && memcmp(f.body, body, len) == 0;
						check(same, "ping %d: reply 0x82 seq %u, %u-byte body %s, %.1f ms%s",
						      k, seq, f.len, same ? "echoed" : "DIFFERS", rtt * 1000,
						      a ? " (after a retransmission)" : "");
						if (same) {
							replies++;
							rtt_sum += rtt;
							rtt_max = rtt > rtt_max ? rtt : rtt_max;
						}
						done = 1;
					} else {
						printf("     ping %d: frame type 0x%02x seq %u (%u bytes) ignored\n",
						       k, f.type, f.seq, f.len);
					}
				}
				if (t0 < 0)
					break;
			}
		}
		if (done == -1)
			break;
		if (!done) {
			check(0, "ping %d: no PING reply after %d attempts%s", k, attempts,
			      echoes ? " (the PING itself came back: the firmware echoes bytes, no monitor answers frames)" : "");
			break;
		}
	}
	if (replies)
		printf("ping: %d replies, round trip mean %.2f ms, max %.2f ms; %d retransmissions, %d BOOT frames\n",
		       replies, rtt_sum * 1000 / replies, rtt_max * 1000, resent, boots);
	l->ops->close(l);
	return finish("ping");
}

static void usage(void)
{
	fputs("usage: usb_link_test divisor\n"
	      "       usb_link_test open\n"
	      "       usb_link_test [--spec S] [--baud N] loopback|timeout|unplug|unplug-idle|ping [N]\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	int i = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--spec"))
			spec = argv[++i];
		else if (!strcmp(argv[i], "--baud"))
			baud = (uint32_t)strtoul(argv[++i], NULL, 0);
		else
			usage();
	}
	if (i >= argc)
		usage();
	if (!strcmp(argv[i], "divisor"))
		return test_divisor();
	if (!strcmp(argv[i], "open"))
		return test_open();
	if (!strcmp(argv[i], "loopback"))
		return test_loopback();
	if (!strcmp(argv[i], "timeout"))
		return test_timeout();
	if (!strcmp(argv[i], "unplug"))
		return test_unplug();
	if (!strcmp(argv[i], "unplug-idle"))
		return test_unplug_idle();
	if (!strcmp(argv[i], "ping"))
		return test_ping(i + 1 < argc ? atoi(argv[i + 1]) : 20);
	usage();
	return 2;
}
