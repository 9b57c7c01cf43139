/* ftdi_emu: an FT2232H for libusb, emulated under umockdev (docs/usb.md).
 *
 *   ftdi_emu [options] [--] CLIENT [ARGS...]
 *
 * Builds a umockdev testbed holding one FT2232H (0403:6010, bcdDevice 0x0700,
 * two interfaces with a bulk IN and a bulk OUT endpoint each, 512-byte
 * packets), attaches an ioctl handler that plays the Linux usbdevfs side of
 * it, bridges channel B's UART to a board program over pipes (default
 * build/bin/hpm-sim; `--board cat` is a loopback) and runs CLIENT with the
 * testbed's environment (UMOCKDEV_DIR and the libumockdev preload, as
 * umockdev-wrapper does), so an unmodified binary using real libusb talks to
 * the emulated chip. The exit status is the client's.
 *
 * What the handler emulates: the FTDI vendor requests on endpoint 0 (reset
 * and purges, baud divisor, data characteristics, flow control, latency
 * timer, bit mode, modem status), string descriptors, and bulk URBs on
 * channel B: OUT bytes go to the board, IN transfers return board bytes with
 * the two modem-status bytes at the start of every 512-byte packet, and an
 * IN transfer with nothing to send completes when the latency timer runs out
 * with the status bytes alone, as the chip does. DISCARDURB cancels an
 * in-flight URB (-ENOENT), GETDRIVER/IOCTL fail with ENODATA (no kernel
 * driver bound).
 *
 * It also checks the driver: bulk traffic is refused (the URB stalls, one line
 * on stderr says why) until channel B was reset and set to the expected baud
 * rate (the nearest divisor the chip has, found here by brute force over all
 * divisors), 8N1, no flow control and a latency timer; requests addressed to
 * another channel are an error too.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "../link/faults.h"
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <linux/usbdevice_fs.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <umockdev.h>
#include <unistd.h>

/* the rate libhpm sets by default (host/lib/link.h), the iCEBreaker build's */
#define HPM_EMU_BAUD_DEFAULT 1500000u

extern char **environ;

#define DEVNODE       "/dev/bus/usb/001/004"
#define MPS           512
#define CHANNEL_B     2
#define EP_IN_B       0x83
#define EP_OUT_B      0x04
#define STATUS0       0x01   /* modem status: reserved bits */
#define STATUS1       0x60   /* line status: THRE | TEMT */
#define RX_MAX        (1u << 20)   /* board -> host bytes buffered at most */
#define EMPTY_WAIT_US 2000         /* --hold-empty-in: a reap waits this long */

/* ---- descriptors ---- */

static const uint8_t dev_desc[18] = {
	18, 1, 0x00, 0x02,         /* USB 2.0 */
	0, 0, 0, 64,               /* class per interface, EP0 64 bytes */
	0x03, 0x04, 0x10, 0x60,    /* 0403:6010 */
	0x00, 0x07,                /* bcdDevice 7.00: FT2232H */
	1, 2, 3, 1,                /* strings, one configuration */
};

#define EP(addr) 7, 5, (addr), 2, (MPS & 0xff), (MPS >> 8), 0
static const uint8_t cfg_desc[9 + 2 * (9 + 7 + 7)] = {
	9, 2, 9 + 2 * (9 + 7 + 7), 0, 2, 1, 0, 0x80, 0x4b,
	9, 4, 0, 0, 2, 0xff, 0xff, 0xff, 2, EP(0x81), EP(0x02),   /* channel A */
	9, 4, 1, 0, 2, 0xff, 0xff, 0xff, 2, EP(0x83), EP(0x04),   /* channel B */
};

/* ---- state ---- */

struct urb_rec {
	UMockdevIoctlClient *client;
	UMockdevIoctlData *urb;    /* struct usbdevfs_urb, local copy */
	UMockdevIoctlData *buf;    /* its buffer, or NULL */
	gulong addr;               /* the client's urb pointer (DISCARDURB) */
	uint8_t type, ep;
	int len;
	gint64 submitted;          /* monotonic us */
	int status, actual;
};

static struct emu {
	/* options */
	const char *board_cmd, *board_log, *serial;
	uint32_t want_baud;
	int hold_empty_in, verbose, timeout_s;
	long unplug_after;         /* OUT bytes, -1 = never */
	long unplug_ms;            /* ms after the client starts, -1 = never */
	double fault_rate;         /* a bad cable on channel B (tests/link/faults.h) */
	unsigned long fault_seed;
	const char *fault_kinds, *fault_stats;
	struct faults f_in, f_out; /* board -> host, host -> board */
	gint64 unplug_at;          /* monotonic us, 0 = never */

	GMutex m;
	GCond cv;
	/* board bridge */
	pid_t board_pid;
	int board_in, board_out;   /* our ends: write to its stdin, read its stdout */
	GByteArray *rx, *tx;       /* board -> host, host -> board */
	int board_eof, stopping;
	/* URBs */
	GQueue inflight, done;
	/* what the driver set */
	int reset, baud_set, data_set, flow_set, lat_set, bitmode_bad, unplugged;
	uint16_t baud_value, baud_index, data_value, flow_index, bitmode;
	unsigned latency;
	char chan_err[160];
	unsigned claimed;          /* bit per interface */
	double best_err;           /* nearest possible rate error for want_baud */
	char refused[256];         /* last refusal reported */
	/* counters */
	unsigned long long out_bytes, in_bytes, in_urbs, in_empty, ctrl_reqs, discards;
} E;

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ftdi_emu: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* ---- baud rate, decoded independently of the driver ---- */

/* Rate (baud) that wValue/wIndex select, or < 0 with why. */
static double decode_baud(uint16_t value, uint16_t index, char *why, size_t n)
{
	static const unsigned eighths[8] = { 0, 4, 2, 1, 3, 5, 6, 7 };  /* code -> k/8 */
	unsigned hi = index >> 8, code = (value >> 14 & 3) | (hi & 1) << 2;
	unsigned nint = value & 0x3fff;
	double base = (hi & 2) ? 12e6 : 3e6, div;

	if (hi & ~3u) {
		snprintf(why, n, "unknown bits 0x%02x in the baud wIndex high byte", hi & ~3u);
		return -1;
	}
	if (nint == 0 && code == 0)
		div = 1.0;
	else if (nint == 1 && code == 0)
		div = 1.5;
	else if (nint < 2) {
		snprintf(why, n, "divisor %u + %u/8 is below 2 (not allowed)", nint, eighths[code]);
		return -1;
	} else
		div = nint + eighths[code] / 8.0;
	return base / div;
}

/* smallest |rate - want| over every divisor of both clocks */
static double best_possible_err(double want)
{
	double best = INFINITY;

	for (int c = 0; c < 2; c++) {
		double base8 = (c ? 3e6 : 12e6) * 8;
		for (unsigned d8 = 8; d8 <= 0x3fff * 8 + 7; d8++) {
			if (d8 > 8 && d8 < 16 && d8 != 12)
				continue;
			double e = fabs(base8 / d8 - want);
			if (e < best)
				best = e;
		}
	}
	return best;
}

/* NULL if the driver configured channel B as required, else why not
 * (called with E.m held) */
static const char *config_problem(char *buf, size_t n)
{
	char why[128];

	if (E.unplugged)
		return NULL;
	if (E.chan_err[0])
		return E.chan_err;
	if (!(E.claimed & 2)) {
		snprintf(buf, n, "interface 1 (channel B) was not claimed");
		return buf;
	}
	if (!E.reset) {
		snprintf(buf, n, "channel B was never reset (SIO_RESET wValue 0)");
		return buf;
	}
	if (E.bitmode_bad) {
		snprintf(buf, n, "bit mode 0x%04x set: channel B is not a UART", E.bitmode);
		return buf;
	}
	if (!E.baud_set) {
		snprintf(buf, n, "no baud rate was set");
		return buf;
	}
	double rate = decode_baud(E.baud_value, E.baud_index, why, sizeof why);
	if (rate < 0) {
		snprintf(buf, n, "baud divisor wValue 0x%04x wIndex 0x%04x: %s", E.baud_value,
		         E.baud_index, why);
		return buf;
	}
	double err = fabs(rate - E.want_baud);
	if (err > 0.03 * E.want_baud || err > E.best_err + 1e-6 * E.want_baud) {
		snprintf(buf, n, "baud divisor wValue 0x%04x wIndex 0x%04x gives %.0f baud, not the nearest FT2232H rate to the expected %u baud",
		         E.baud_value, E.baud_index, rate, E.want_baud);
		return buf;
	}
	if (!E.data_set || E.data_value != 0x0008) {
		if (E.data_set)
			snprintf(buf, n, "data characteristics 0x%04x, want 0x0008 (8N1)", E.data_value);
		else
			snprintf(buf, n, "data characteristics (8N1) were not set");
		return buf;
	}
	if (!E.flow_set || (E.flow_index >> 8) != 0) {
		if (E.flow_set)
			snprintf(buf, n, "flow control 0x%02x, want none", E.flow_index >> 8);
		else
			snprintf(buf, n, "flow control was not set (want none)");
		return buf;
	}
	if (!E.lat_set) {
		snprintf(buf, n, "the latency timer was not set");
		return buf;
	}
	return NULL;
}

/* bulk traffic allowed? reports a new refusal once (E.m held) */
static int bulk_allowed(void)
{
	char buf[256];
	const char *p = config_problem(buf, sizeof buf);

	if (!p)
		return 1;
	if (strcmp(p, E.refused) != 0) {
		snprintf(E.refused, sizeof E.refused, "%s", p);
		logf_("refusing bulk traffic: %s", p);
	}
	return 0;
}

/* ---- control requests ---- */

static int string_desc(unsigned idx, const char *serial, uint8_t *out, int cap)
{
	const char *s;
	uint8_t d[2 + 2 * 64];
	int len;

	if (idx == 0) {
		d[0] = 4; d[1] = 3; d[2] = 0x09; d[3] = 0x04;   /* en-US */
		len = 4;
	} else {
		s = idx == 1 ? "FTDI" : idx == 2 ? "Dual RS232-HS" : idx == 3 ? serial : NULL;
		if (!s)
			return -EPIPE;
		len = 2;
		for (; *s && len < (int)sizeof d; s++) {
			d[len++] = (uint8_t)*s;
			d[len++] = 0;
		}
		d[0] = (uint8_t)len;
		d[1] = 3;
	}
	if (len > cap)
		len = cap;
	memcpy(out, d, (size_t)len);
	return len;
}

static const char *sio_name(unsigned req)
{
	static const char *const names[] = {
		"RESET", "SET_MODEM_CTRL", "SET_FLOW_CTRL", "SET_BAUDRATE", "SET_DATA",
		"GET_MODEM_STATUS", "SET_EVENT_CHAR", "SET_ERROR_CHAR", "?8",
		"SET_LATENCY_TIMER", "GET_LATENCY_TIMER", "SET_BITMODE", "READ_PINS",
	};
	return req < sizeof names / sizeof names[0] ? names[req] : "?";
}

/* Handles one control URB; returns the IN data length or -errno (stall). */
static int control(const uint8_t *setup, uint8_t *data, int cap)
{
	unsigned rt = setup[0], req = setup[1];
	unsigned value = setup[2] | setup[3] << 8, index = setup[4] | setup[5] << 8;
	unsigned wlen = setup[6] | setup[7] << 8;
	int n = (int)wlen < cap ? (int)wlen : cap;

	E.ctrl_reqs++;
	if ((rt & 0x60) == 0) {   /* standard */
		if (rt == 0x80 && req == 6) {   /* GET_DESCRIPTOR */
			unsigned type = value >> 8, idx = value & 0xff;
			const uint8_t *d = NULL;
			int dl = 0;
			if (type == 1) { d = dev_desc; dl = sizeof dev_desc; }
			else if (type == 2 && idx == 0) { d = cfg_desc; dl = sizeof cfg_desc; }
			else if (type == 3) return string_desc(idx, E.serial, data, n);
			if (!d)
				return -EPIPE;
			if (dl > n)
				dl = n;
			memcpy(data, d, (size_t)dl);
			return dl;
		}
		if (rt == 0x80 && req == 0 && n >= 2) {   /* GET_STATUS */
			data[0] = data[1] = 0;
			return 2;
		}
		if (E.verbose)
			logf_("standard request 0x%02x/0x%02x stalled", rt, req);
		return -EPIPE;
	}
	if ((rt & 0x60) != 0x40) {
		logf_("class request 0x%02x/0x%02x stalled", rt, req);
		return -EPIPE;
	}
	/* FTDI vendor requests: wIndex low byte = channel */
	if (E.verbose)
		logf_("%s %s wValue 0x%04x wIndex 0x%04x wLength %u", rt & 0x80 ? "IN " : "OUT",
		      sio_name(req), value, index, wlen);
	if ((index & 0xff) != CHANNEL_B && !E.chan_err[0])
		snprintf(E.chan_err, sizeof E.chan_err,
		         "request %s addressed to channel %u (wIndex 0x%04x); the board's UART is channel B (2)",
		         sio_name(req), index & 0xff, index);
	if (rt == 0x40) {
		switch (req) {
		case 0:   /* RESET */
			if (value == 0) {
				E.reset = 1;
				g_byte_array_set_size(E.rx, 0);
				g_byte_array_set_size(E.tx, 0);
			} else if (value == 1) {
				g_byte_array_set_size(E.rx, 0);   /* chip RX = board -> host */
			} else if (value == 2) {
				g_byte_array_set_size(E.tx, 0);
			} else
				return -EPIPE;
			return 0;
		case 1:   /* SET_MODEM_CTRL: DTR/RTS, not wired to the FPGA's UART */
			return 0;
		case 2:
			E.flow_set = 1;
			E.flow_index = (uint16_t)index;
			return 0;
		case 3:
			E.baud_set = 1;
			E.baud_value = (uint16_t)value;
			E.baud_index = (uint16_t)index;
			return 0;
		case 4:
			E.data_set = 1;
			E.data_value = (uint16_t)value;
			return 0;
		case 6: case 7:   /* event / error characters */
			return 0;
		case 9:
			if (value < 1 || value > 255)
				return -EPIPE;
			E.lat_set = 1;
			E.latency = value;
			return 0;
		case 0x0b:
			E.bitmode = (uint16_t)value;
			E.bitmode_bad = (value >> 8) != 0;
			return 0;
		}
	} else if (rt == 0xc0) {
		switch (req) {
		case 5:
			if (n < 2)
				return -EPIPE;
			data[0] = STATUS0 | 0x10 | 0x20;   /* CTS, DSR */
			data[1] = STATUS1;
			return 2;
		case 0x0a:
			if (n < 1)
				return -EPIPE;
			data[0] = (uint8_t)(E.lat_set ? E.latency : 16);
			return 1;
		case 0x0c:
			if (n < 1)
				return -EPIPE;
			data[0] = 0xff;
			return 1;
		}
	}
	logf_("unknown FTDI request 0x%02x/0x%02x stalled", rt, req);
	return -EPIPE;
}

/* ---- URBs ---- */

static void rec_free(struct urb_rec *r)
{
	if (r->buf)
		g_object_unref(r->buf);
	if (r->urb)
		g_object_unref(r->urb);
	g_object_unref(r->client);
	g_free(r);
}

/* payload bytes an IN buffer of len holds: 510 per full packet */
static size_t in_capacity(int len)
{
	size_t full = (size_t)len / MPS, rest = (size_t)len % MPS;

	return full * (MPS - 2) + (rest > 2 ? rest - 2 : 0);
}

/* Fills an IN URB from E.rx like the chip: status bytes at the start of
 * every packet; a packet shorter than MPS ends the transfer. (E.m held) */
static void fill_in(struct urb_rec *r)
{
	uint8_t *b = r->buf ? r->buf->data : NULL;
	int pos = 0;
	size_t taken = 0;

	while (b && pos + 2 <= r->len) {
		int room = r->len - pos < MPS ? r->len - pos : MPS;
		size_t pay = (size_t)(room - 2);
		if (pay > E.rx->len - taken)
			pay = E.rx->len - taken;
		b[pos] = STATUS0;
		b[pos + 1] = STATUS1;
		memcpy(b + pos + 2, E.rx->data + taken, pay);
		taken += pay;
		pos += 2 + (int)pay;
		if (2 + (int)pay < MPS)
			break;
	}
	g_byte_array_remove_range(E.rx, 0, (guint)taken);
	r->status = 0;
	r->actual = pos;
	E.in_bytes += taken;
	E.in_urbs++;
	if (taken == 0)
		E.in_empty++;
	g_cond_broadcast(&E.cv);   /* room in rx for the reader */
}

static struct urb_rec *find_rec(GQueue *q, UMockdevIoctlClient *c, int in_only)
{
	for (GList *l = q->head; l; l = l->next) {
		struct urb_rec *r = l->data;
		if (r->client == c && (!in_only || r->ep == EP_IN_B))
			return r;
	}
	return NULL;
}

/* the device disappears: in-flight URBs are given back as on a
 * disconnect, every later ioctl fails with ENODEV (E.m held) */
static void unplug(const char *why)
{
	E.unplugged = 1;
	logf_("unplugging the board (%s)", why);
	for (GList *l = E.inflight.head; l; l = l->next) {
		struct urb_rec *q = l->data;
		q->status = -ENODEV;
		q->actual = 0;
		g_queue_push_tail(&E.done, q);
	}
	g_queue_clear(&E.inflight);
	g_cond_broadcast(&E.cv);
}

static void unplug_on_time(gint64 now)
{
	if (!E.unplugged && E.unplug_at && now >= E.unplug_at)
		unplug("--unplug-at");
}

/* A control URB answered by ctl (its setup packet, then the data stage):
 * the status and length, and the URB done. */
static void control_urb(struct urb_rec *r, int (*ctl)(const uint8_t *setup, uint8_t *data, int cap),
			GQueue *done)
{
	int res = r->len >= 8 ? ctl(r->buf->data, r->buf->data + 8, r->len - 8) : -EINVAL;
	r->status = res < 0 ? res : 0;
	r->actual = res < 0 ? 0 : res;
	g_queue_push_tail(done, r);
}

/* A submitted URB and its buffer read from the client; NULL (answered
 * EFAULT) if they cannot be. */
static struct urb_rec *urb_read(UMockdevIoctlClient *c, UMockdevIoctlData *arg)
{
	GError *err = NULL;
	UMockdevIoctlData *u = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct usbdevfs_urb), &err);
	struct usbdevfs_urb *urb;
	struct urb_rec *r;

	if (!u) {
		logf_("SUBMITURB: cannot read the urb: %s", err ? err->message : "?");
		g_clear_error(&err);
		umockdev_ioctl_client_complete(c, -1, EFAULT);
		return NULL;
	}
	urb = (struct usbdevfs_urb *)u->data;
	r = g_new0(struct urb_rec, 1);
	r->client = g_object_ref(c);
	r->urb = u;
	r->addr = u->client_addr;
	r->type = urb->type;
	r->ep = urb->endpoint;
	r->len = urb->buffer_length;
	r->submitted = g_get_monotonic_time();
	if (r->len > 0) {
		r->buf = umockdev_ioctl_data_resolve(u, G_STRUCT_OFFSET(struct usbdevfs_urb, buffer),
		                                     (gsize)r->len, &err);
		if (!r->buf) {
			logf_("SUBMITURB: cannot read the buffer: %s", err ? err->message : "?");
			g_clear_error(&err);
			rec_free(r);
			umockdev_ioctl_client_complete(c, -1, EFAULT);
			return NULL;
		}
	}
	return r;
}

static void submit(UMockdevIoctlClient *c, UMockdevIoctlData *arg)
{
	struct urb_rec *r = urb_read(c, arg);

	if (!r)
		return;

	g_mutex_lock(&E.m);
	unplug_on_time(g_get_monotonic_time());
	if (E.unplugged) {
		g_mutex_unlock(&E.m);
		rec_free(r);
		umockdev_ioctl_client_complete(c, -1, ENODEV);
		return;
	}
	if (r->type == USBDEVFS_URB_TYPE_CONTROL) {
		control_urb(r, control, &E.done);
	} else if (r->type == USBDEVFS_URB_TYPE_BULK && r->ep == EP_OUT_B) {
		if (E.unplug_after >= 0 && E.out_bytes + (unsigned)r->len > (unsigned long long)E.unplug_after) {
			char why[64];
			snprintf(why, sizeof why, "after %llu bytes host -> board", E.out_bytes);
			unplug(why);
			g_mutex_unlock(&E.m);
			rec_free(r);
			umockdev_ioctl_client_complete(c, -1, ENODEV);
			return;
		}
		if (bulk_allowed()) {
			g_byte_array_append(E.tx, r->buf ? r->buf->data : NULL, (guint)r->len);
			E.out_bytes += (unsigned)r->len;
			r->status = 0;
			r->actual = r->len;
			g_cond_broadcast(&E.cv);
		} else {
			r->status = -EPIPE;
			r->actual = 0;
		}
		g_queue_push_tail(&E.done, r);
	} else if (r->type == USBDEVFS_URB_TYPE_BULK && r->ep == EP_IN_B) {
		if (bulk_allowed())
			g_queue_push_tail(&E.inflight, r);
		else {
			r->status = -EPIPE;
			r->actual = 0;
			g_queue_push_tail(&E.done, r);
		}
	} else {
		logf_("URB type %u on endpoint 0x%02x: only channel B's bulk endpoints 0x83/0x04 are wired",
		      r->type, r->ep);
		r->status = -EPIPE;
		r->actual = 0;
		g_queue_push_tail(&E.done, r);
	}
	g_mutex_unlock(&E.m);
	umockdev_ioctl_client_complete(c, 0, 0);
}

/* Hands the reaped URB r back to the client (its status and length) and
 * frees r. */
static void reaped(UMockdevIoctlClient *c, UMockdevIoctlData *arg, struct urb_rec *r)
{
	GError *err = NULL;
	struct usbdevfs_urb *urb = (struct usbdevfs_urb *)r->urb->data;

	urb->status = r->status;
	urb->actual_length = r->actual;
	UMockdevIoctlData *ptr = umockdev_ioctl_data_resolve(arg, 0, sizeof(void *), &err);
	if (!ptr) {
		logf_("REAPURB: cannot resolve the argument: %s", err ? err->message : "?");
		g_clear_error(&err);
		rec_free(r);
		umockdev_ioctl_client_complete(c, -1, EFAULT);
		return;
	}
	umockdev_ioctl_data_set_ptr(ptr, 0, r->urb);
	umockdev_ioctl_client_complete(c, 0, 0);
	g_object_unref(ptr);
	rec_free(r);
}

/* REAPURB(NDELAY): the first finished URB of this client; an IN URB
 * finishes when it can be filled, or with what there is when the latency
 * timer (counted from its submission) runs out. Waits at most that long. */
static void reap(UMockdevIoctlClient *c, UMockdevIoctlData *arg)
{
	gint64 start = g_get_monotonic_time();
	struct urb_rec *r;

	g_mutex_lock(&E.m);
	for (;;) {
		gint64 now = g_get_monotonic_time(), until;
		struct urb_rec *in;

		unplug_on_time(now);
		r = find_rec(&E.done, c, 0);
		if (r) {
			g_queue_remove(&E.done, r);
			break;
		}
		in = find_rec(&E.inflight, c, 1);
		if (!in) {
			g_mutex_unlock(&E.m);
			umockdev_ioctl_client_complete(c, -1, E.unplugged ? ENODEV : EAGAIN);
			return;
		}
		gint64 deadline = in->submitted + (gint64)(E.lat_set ? E.latency : 16) * 1000;
		int full = E.rx->len >= in_capacity(in->len);
		int empty = E.rx->len == 0;
		if (full || (now >= deadline && !(empty && E.hold_empty_in))) {
			g_queue_remove(&E.inflight, in);
			fill_in(in);
			r = in;
			break;
		}
		until = empty && E.hold_empty_in ? start + EMPTY_WAIT_US : deadline;
		if (E.unplug_at && !E.unplugged && E.unplug_at < until)
			until = E.unplug_at;   /* wake up to unplug (now < unplug_at) */
		else if (now >= until) {   /* --hold-empty-in: nothing yet */
			g_mutex_unlock(&E.m);
			umockdev_ioctl_client_complete(c, -1, EAGAIN);
			return;
		}
		g_cond_wait_until(&E.cv, &E.m, until);
	}
	g_mutex_unlock(&E.m);

	reaped(c, arg, r);
}

/* DISCARDURB: the client's URB at addr, if in flight, moves to done as
 * cancelled (-ENOENT, nothing transferred); NULL if there is none. */
static struct urb_rec *cancel(GQueue *inflight, GQueue *done, UMockdevIoctlClient *c, gulong addr)
{
	for (GList *l = inflight->head; l; l = l->next) {
		struct urb_rec *r = l->data;
		if (r->client == c && r->addr == addr) {
			g_queue_remove(inflight, r);
			r->status = -ENOENT;
			r->actual = 0;
			g_queue_push_tail(done, r);
			return r;
		}
	}
	return NULL;
}

static void discard(UMockdevIoctlClient *c, UMockdevIoctlData *arg)
{
	gulong addr = *(gulong *)arg->data;
	struct urb_rec *hit;

	g_mutex_lock(&E.m);
	if ((hit = cancel(&E.inflight, &E.done, c, addr)))
		E.discards++;
	g_mutex_unlock(&E.m);
	umockdev_ioctl_client_complete(c, hit ? 0 : -1, hit ? 0 : EINVAL);
}

static void set_u32_arg(UMockdevIoctlClient *c, UMockdevIoctlData *arg, uint32_t v)
{
	UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof v, NULL);

	if (!d) {
		umockdev_ioctl_client_complete(c, -1, EFAULT);
		return;
	}
	memcpy(d->data, &v, sizeof v);
	umockdev_ioctl_client_complete(c, 0, 0);
	g_object_unref(d);
}

static int get_u32_arg(UMockdevIoctlData *arg, uint32_t *v)
{
	UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof *v, NULL);

	if (!d)
		return -1;
	memcpy(v, d->data, sizeof *v);
	g_object_unref(d);
	return 0;
}

/* The FTDI chip's requests besides URBs and the common answers. */
static gboolean ftdi_other(UMockdevIoctlClient *c, gulong req, UMockdevIoctlData *arg)
{
	uint32_t v;

	switch (req) {
	case USBDEVFS_DISCARDURB:
		discard(c, arg);
		return TRUE;
	case USBDEVFS_CLAIMINTERFACE:
	case USBDEVFS_RELEASEINTERFACE:
		if (get_u32_arg(arg, &v) || v > 1) {
			umockdev_ioctl_client_complete(c, -1, EINVAL);
			return TRUE;
		}
		g_mutex_lock(&E.m);
		if (req == USBDEVFS_CLAIMINTERFACE)
			E.claimed |= 1u << v;
		else
			E.claimed &= ~(1u << v);
		g_mutex_unlock(&E.m);
		if (E.verbose)
			logf_("%s interface %u", req == USBDEVFS_CLAIMINTERFACE ? "claim" : "release", v);
		umockdev_ioctl_client_complete(c, E.unplugged ? -1 : 0, E.unplugged ? ENODEV : 0);
		return TRUE;
	case USBDEVFS_DISCONNECT_CLAIM: {
		UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct usbdevfs_disconnect_claim), NULL);
		if (!d) {
			umockdev_ioctl_client_complete(c, -1, EFAULT);
			return TRUE;
		}
		v = ((struct usbdevfs_disconnect_claim *)d->data)->interface;
		g_object_unref(d);
		if (v > 1) {
			umockdev_ioctl_client_complete(c, -1, EINVAL);
			return TRUE;
		}
		g_mutex_lock(&E.m);
		E.claimed |= 1u << v;
		g_mutex_unlock(&E.m);
		umockdev_ioctl_client_complete(c, 0, 0);
		return TRUE;
	}
	case USBDEVFS_RESET:
	case USBDEVFS_CLEAR_HALT:
	case USBDEVFS_RESETEP:
	case USBDEVFS_SETINTERFACE:
	case USBDEVFS_SETCONFIGURATION:
		umockdev_ioctl_client_complete(c, E.unplugged ? -1 : 0, E.unplugged ? ENODEV : 0);
		return TRUE;
	default:
		logf_("unhandled ioctl 0x%lx: ENOTTY", req);
		umockdev_ioctl_client_complete(c, -1, ENOTTY);
		return TRUE;
	}
}

/* ---- the board ---- */

static gpointer board_reader(gpointer p)
{
	uint8_t buf[4096];

	(void)p;
	for (;;) {
		ssize_t n = read(E.board_out, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		g_mutex_lock(&E.m);
		if (n <= 0) {
			E.board_eof = 1;
			g_cond_broadcast(&E.cv);
			g_mutex_unlock(&E.m);
			return NULL;
		}
		while (E.rx->len >= RX_MAX && !E.stopping)
			g_cond_wait(&E.cv, &E.m);
		uint8_t bad[2 * sizeof buf];
		size_t m = faults_apply(&E.f_in, buf, (size_t)n, bad);
		g_byte_array_append(E.rx, bad, (guint)m);
		g_cond_broadcast(&E.cv);
		g_mutex_unlock(&E.m);
	}
}

static gpointer board_writer(gpointer p)
{
	(void)p;
	g_mutex_lock(&E.m);
	for (;;) {
		while (E.tx->len == 0 && !E.stopping)
			g_cond_wait(&E.cv, &E.m);
		if (E.tx->len == 0)
			break;
		GByteArray *out = E.tx;
		E.tx = g_byte_array_new();
		if (E.fault_rate > 0) {
			GByteArray *bad = g_byte_array_sized_new(2 * out->len);
			g_byte_array_set_size(bad, 2 * out->len);
			g_byte_array_set_size(bad, (guint)faults_apply(&E.f_out, out->data, out->len, bad->data));
			g_byte_array_unref(out);
			out = bad;
		}
		g_mutex_unlock(&E.m);
		for (guint off = 0; off < out->len && E.board_in >= 0;) {
			ssize_t n = write(E.board_in, out->data + off, out->len - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {   /* the board has gone: bytes fall on the floor */
				if (E.verbose)
					logf_("board input closed: %s", strerror(errno));
				break;
			}
			off += (guint)n;
		}
		g_byte_array_unref(out);
		g_mutex_lock(&E.m);
	}
	g_mutex_unlock(&E.m);
	return NULL;
}

/* fork + exec before any thread exists; the board dies with us */
static int spawn_board(void)
{
	int in[2], out[2];
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		logf_("pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		logf_("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		char *cmd = g_strdup_printf("exec %s", E.board_cmd);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		dup2(in[0], 0);
		dup2(out[1], 1);
		if (E.board_log) {
			int fd = open(E.board_log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd >= 0)
				dup2(fd, 2);
		}
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	E.board_pid = pid;
	E.board_in = in[1];
	E.board_out = out[0];
	return 0;
}

static void stop_board(void)
{
	int st;

	g_mutex_lock(&E.m);
	E.stopping = 1;
	g_cond_broadcast(&E.cv);
	g_mutex_unlock(&E.m);
	if (E.board_pid > 0) {
		kill(-E.board_pid, SIGTERM);
		for (int i = 0; i < 200; i++) {   /* 2 s */
			if (waitpid(E.board_pid, &st, WNOHANG) != 0) {
				E.board_pid = 0;
				break;
			}
			g_usleep(10000);
		}
		if (E.board_pid > 0) {
			kill(-E.board_pid, SIGKILL);
			waitpid(E.board_pid, &st, 0);
		}
	}
}

/* ---- the testbed ---- */

/* one FT2232H on bus 1 at port `port`, device number devnum */
static char *device_string(unsigned port, unsigned devnum, const char *serial)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s,
		"P: /devices/pci0000:00/0000:00:14.0/usb1/1-%u\n"
		"N: bus/usb/001/%03u\n"
		"E: DEVNAME=/dev/bus/usb/001/%03u\n"
		"E: DEVTYPE=usb_device\n"
		"E: DRIVER=usb\n"
		"E: SUBSYSTEM=usb\n"
		"E: PRODUCT=403/6010/700\n"
		"E: TYPE=0/0/0\n"
		"E: BUSNUM=001\n"
		"E: DEVNUM=%03u\n"
		"E: MAJOR=189\n"
		"E: MINOR=%u\n"
		"E: ID_VENDOR_ID=0403\n"
		"E: ID_MODEL_ID=6010\n"
		"E: ID_SERIAL_SHORT=%s\n"
		"A: idVendor=0403\\n\n"
		"A: idProduct=6010\\n\n"
		"A: bcdDevice=0700\\n\n"
		"A: bDeviceClass=00\\n\n"
		"A: bNumConfigurations=1\\n\n"
		"A: bConfigurationValue=1\\n\n"
		"A: bNumInterfaces= 2\\n\n"
		"A: bMaxPacketSize0=64\\n\n"
		"A: busnum=1\\n\n"
		"A: devnum=%u\\n\n"
		"A: speed=480\\n\n"
		"A: version= 2.00\\n\n"
		"A: manufacturer=FTDI\\n\n"
		"A: product=Dual RS232-HS\\n\n"
		"A: serial=%s\\n\n"
		"H: descriptors=", port, devnum, devnum, devnum, devnum - 1, serial, devnum, serial);
	for (size_t i = 0; i < sizeof dev_desc; i++)
		g_string_append_printf(s, "%02X", dev_desc[i]);
	for (size_t i = 0; i < sizeof cfg_desc; i++)
		g_string_append_printf(s, "%02X", cfg_desc[i]);
	g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

/* ---- --mute-serial: a second FT2232H with nothing behind channel B ----
 * (a board without its bitstream): descriptors and FTDI requests are
 * answered, OUT bytes vanish, IN transfers return the status bytes alone
 * after the latency timer. It lets hpmctl boards list two boards and
 * --link usb::SERIAL pick one of them. */
#define MUTE_DEVNUM 3
#define MUTE_PORT   2

static struct {
	const char *serial;
	GMutex m;
	GQueue done, inflight;
} M;

static int mute_control(const uint8_t *setup, uint8_t *data, int cap)
{
	unsigned rt = setup[0], req = setup[1], value = setup[2] | setup[3] << 8;
	unsigned wlen = setup[6] | setup[7] << 8;
	int n = (int)wlen < cap ? (int)wlen : cap;

	if (rt == 0x80 && req == 6) {
		unsigned type = value >> 8, idx = value & 0xff;
		const uint8_t *d = type == 1 ? dev_desc : type == 2 && idx == 0 ? cfg_desc : NULL;
		int dl = type == 1 ? (int)sizeof dev_desc : (int)sizeof cfg_desc;
		if (type == 3)
			return string_desc(idx, M.serial, data, n);
		if (!d)
			return -EPIPE;
		dl = dl < n ? dl : n;
		memcpy(data, d, (size_t)dl);
		return dl;
	}
	if (rt == 0x40)
		return 0;                  /* FTDI settings: accepted */
	if (rt == 0xc0 && n >= 2) {        /* modem status, latency, pins */
		data[0] = STATUS0;
		data[1] = STATUS1;
		return req == 5 ? 2 : 1;
	}
	return -EPIPE;
}

static void mute_reap(UMockdevIoctlClient *c, UMockdevIoctlData *arg)
{
	struct urb_rec *r = NULL;

	g_mutex_lock(&M.m);
	for (GList *l = M.done.head; l && !r; l = l->next)
		if (((struct urb_rec *)l->data)->client == c)
			r = l->data;
	if (r)
		g_queue_remove(&M.done, r);
	for (GList *l = M.inflight.head; l && !r; l = l->next)
		if (((struct urb_rec *)l->data)->client == c)
			r = l->data;
	if (r && g_queue_find(&M.inflight, r)) {
		g_queue_remove(&M.inflight, r);
		g_mutex_unlock(&M.m);
		g_usleep(1000);            /* the latency timer runs out: status bytes only */
		if (r->buf && r->len >= 2) {
			r->buf->data[0] = STATUS0;
			r->buf->data[1] = STATUS1;
		}
		r->status = 0;
		r->actual = r->len >= 2 ? 2 : 0;
		g_mutex_lock(&M.m);
	}
	g_mutex_unlock(&M.m);
	if (!r) {
		umockdev_ioctl_client_complete(c, -1, EAGAIN);
		return;
	}
	reaped(c, arg, r);
}

static void mute_submit(UMockdevIoctlClient *c, UMockdevIoctlData *arg)
{
	struct urb_rec *r = urb_read(c, arg);

	if (!r)
		return;
	g_mutex_lock(&M.m);
	if (r->type == USBDEVFS_URB_TYPE_CONTROL) {
		control_urb(r, mute_control, &M.done);
	} else if (r->type == USBDEVFS_URB_TYPE_BULK && r->ep == EP_IN_B) {
		g_queue_push_tail(&M.inflight, r);
	} else {                           /* OUT: nobody listens */
		r->status = r->type == USBDEVFS_URB_TYPE_BULK && r->ep == EP_OUT_B ? 0 : -EPIPE;
		r->actual = r->status ? 0 : r->len;
		g_queue_push_tail(&M.done, r);
	}
	g_mutex_unlock(&M.m);
	umockdev_ioctl_client_complete(c, 0, 0);
}

/* The mute device's requests besides URBs and the common answers. */
static gboolean mute_other(UMockdevIoctlClient *c, gulong req, UMockdevIoctlData *arg)
{
	switch (req) {
	case USBDEVFS_DISCARDURB: {
		gulong addr = *(gulong *)arg->data;
		g_mutex_lock(&M.m);
		struct urb_rec *hit = cancel(&M.inflight, &M.done, c, addr);
		g_mutex_unlock(&M.m);
		umockdev_ioctl_client_complete(c, hit ? 0 : -1, hit ? 0 : EINVAL);
		return TRUE;
	}
	default:                           /* claim, release, reset...: fine */
		umockdev_ioctl_client_complete(c, 0, 0);
		return TRUE;
	}
}

/* What an emulated device does with URBs and the requests it treats its own
 * way; the rest is on_ioctl's, the same for both. */
struct dev_ops {
	void (*submit)(UMockdevIoctlClient *c, UMockdevIoctlData *arg);
	void (*reap)(UMockdevIoctlClient *c, UMockdevIoctlData *arg);
	gboolean (*other)(UMockdevIoctlClient *c, gulong req, UMockdevIoctlData *arg);
};
static const struct dev_ops ftdi_ops = { submit, reap, ftdi_other };
static const struct dev_ops mute_ops = { mute_submit, mute_reap, mute_other };

static gboolean on_ioctl(UMockdevIoctlBase *h, UMockdevIoctlClient *c, gpointer ud)
{
	const struct dev_ops *ops = ud;
	gulong req = umockdev_ioctl_client_get_request(c);
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(c);

	(void)h;
	switch (req) {
	case USBDEVFS_GET_CAPABILITIES:
		set_u32_arg(c, arg, USBDEVFS_CAP_NO_PACKET_SIZE_LIM | USBDEVFS_CAP_BULK_CONTINUATION |
		                    USBDEVFS_CAP_REAP_AFTER_DISCONNECT);
		return TRUE;
	case USBDEVFS_SUBMITURB:
		ops->submit(c, arg);
		return TRUE;
	case USBDEVFS_REAPURB:
	case USBDEVFS_REAPURBNDELAY:
		ops->reap(c, arg);
		return TRUE;
	case USBDEVFS_GETDRIVER:   /* no kernel driver bound */
	case USBDEVFS_IOCTL:       /* so nothing to disconnect / connect */
		umockdev_ioctl_client_complete(c, -1, ENODATA);
		return TRUE;
	default:
		return ops->other(c, req, arg);
	}
}

static char **client_env(const char *root)
{
	GPtrArray *env = g_ptr_array_new();
	const char *pre = getenv("LD_PRELOAD");

	for (char **e = environ; *e; e++)
		if (strncmp(*e, "UMOCKDEV_DIR=", 13) != 0 && strncmp(*e, "LD_PRELOAD=", 11) != 0)
			g_ptr_array_add(env, g_strdup(*e));
	g_ptr_array_add(env, g_strdup_printf("UMOCKDEV_DIR=%s", root));
	g_ptr_array_add(env, pre && *pre ? g_strdup_printf("LD_PRELOAD=libumockdev-preload.so.0:%s", pre)
	                                 : g_strdup("LD_PRELOAD=libumockdev-preload.so.0"));
	g_ptr_array_add(env, NULL);
	return (char **)g_ptr_array_free(env, FALSE);
}

static void summary(void)
{
	char why[128] = "";
	double rate = E.baud_set ? decode_baud(E.baud_value, E.baud_index, why, sizeof why) : -1;

	logf_("FT2232H channel B: baud %s0x%04x/0x%04x = %.0f (want %u), data 0x%04x, flow 0x%02x, latency %u ms; "
	      "host->board %llu B, board->host %llu B in %llu IN URBs (%llu status-only), %llu control, %llu discarded%s",
	      E.baud_set ? "" : "(unset) ", E.baud_value, E.baud_index, rate < 0 ? 0 : rate, E.want_baud,
	      E.data_value, E.flow_index >> 8, E.lat_set ? E.latency : 0, E.out_bytes, E.in_bytes,
	      E.in_urbs, E.in_empty, E.ctrl_reqs, E.discards, E.refused[0] ? "; bulk traffic was REFUSED" : "");
}

static void usage(FILE *f)
{
	fputs("usage: ftdi_emu [options] [--] CLIENT [ARGS...]\n"
	      "  --board CMD          board on channel B's UART (sh -c; default build/bin/hpm-sim,\n"
	      "                       or $HPM_SIM); `cat` is a loopback\n"
	      "  --board-log FILE     the board's stderr (default: ours)\n"
	      "  --baud N             rate the driver must set (default 1500000, libhpm's)\n"
	      "  --serial S           the chip's serial number string (default HPMEMU01)\n"
	      "  --mute-serial S      a second FT2232H, serial S, on port 1-2 with nothing\n"
	      "                       behind channel B (a board without its bitstream)\n"
	      "  --hold-empty-in      an IN transfer with no data never completes (a silent\n"
	      "                       device: the client's timeouts must discard it)\n"
	      "  --unplug-after N     the device disappears when more than N bytes were sent\n"
	      "  --unplug-at MS       the device disappears MS ms after the client starts\n"
	      "  --timeout S          kill the client after S seconds (exit 124)\n"
	      "  --fault-rate R       a bad cable: each byte of channel B's UART, both ways,\n"
	      "                       flipped, dropped, duplicated, preceded by a random byte\n"
	      "                       or lost in a burst of 32 with probability R\n"
	      "  --fault-seed N, --fault-kinds K,..., --fault-stats FILE  its RNG seed, kinds,\n"
	      "                       and where the counts of faults go at the end\n"
	      "  -v                   log every FTDI request and a summary\n"
	      "Runs CLIENT against an emulated FT2232H 0403:6010 (umockdev); exits with its status.\n", f);
}

int main(int argc, char **argv)
{
	int i, st = 0;
	GError *err = NULL;
	char *root, *dev, **env;
	pid_t client;
	posix_spawnattr_t attr;
	sigset_t def;

	E.board_cmd = getenv("HPM_SIM") ? getenv("HPM_SIM") : "build/bin/hpm-sim";
	E.serial = "HPMEMU01";
	E.want_baud = HPM_EMU_BAUD_DEFAULT;
	E.unplug_after = -1;
	E.unplug_ms = -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) { i++; break; }
		if (a[0] != '-') break;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
		if (!strcmp(a, "-v")) { E.verbose = 1; continue; }
		if (!strcmp(a, "--hold-empty-in")) { E.hold_empty_in = 1; continue; }
		if (i + 1 >= argc) { usage(stderr); return 2; }
		if (!strcmp(a, "--board")) E.board_cmd = argv[++i];
		else if (!strcmp(a, "--board-log")) E.board_log = argv[++i];
		else if (!strcmp(a, "--serial")) E.serial = argv[++i];
		else if (!strcmp(a, "--mute-serial")) M.serial = argv[++i];
		else if (!strcmp(a, "--baud")) E.want_baud = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--unplug-after")) E.unplug_after = strtol(argv[++i], NULL, 0);
		else if (!strcmp(a, "--unplug-at")) E.unplug_ms = strtol(argv[++i], NULL, 0);
		else if (!strcmp(a, "--timeout")) E.timeout_s = atoi(argv[++i]);
		else if (!strcmp(a, "--fault-rate")) E.fault_rate = atof(argv[++i]);
		else if (!strcmp(a, "--fault-seed")) E.fault_seed = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--fault-kinds")) E.fault_kinds = argv[++i];
		else if (!strcmp(a, "--fault-stats")) E.fault_stats = argv[++i];
		else { usage(stderr); return 2; }
	}
	if (i >= argc || E.want_baud == 0) {
		usage(stderr);
		return 2;
	}
	if (E.fault_rate < 0 || E.fault_rate > 1) {
		usage(stderr);
		return 2;
	}
	const char *kinds = E.fault_kinds ? E.fault_kinds : "flip,drop,dup,insert,burst";
	faults_init(&E.f_out, E.fault_rate, E.fault_seed, kinds);
	faults_init(&E.f_in, E.fault_rate, E.fault_seed ^ 0x5bd1e995u, kinds);
	signal(SIGPIPE, SIG_IGN);
	g_mutex_init(&E.m);
	g_cond_init(&E.cv);
	E.rx = g_byte_array_new();
	E.tx = g_byte_array_new();
	E.best_err = best_possible_err(E.want_baud);
	if (spawn_board())
		return 3;
	GThread *rd = g_thread_new("board-rx", board_reader, NULL);
	GThread *wr = g_thread_new("board-tx", board_writer, NULL);

	UMockdevTestbed *tb = umockdev_testbed_new();
	UMockdevIoctlBase *handler = umockdev_ioctl_base_new();
	g_signal_connect(handler, "handle-ioctl", G_CALLBACK(on_ioctl), (gpointer)&ftdi_ops);
	/* the handler must be in place before the node exists */
	if (!umockdev_testbed_attach_ioctl(tb, DEVNODE, handler, &err)) {
		logf_("attach_ioctl: %s", err->message);
		return 3;
	}
	dev = device_string(1, 4, E.serial);
	if (!umockdev_testbed_add_from_string(tb, dev, &err)) {
		logf_("add_from_string: %s", err->message);
		return 3;
	}
	g_free(dev);
	UMockdevIoctlBase *mute = NULL;
	if (M.serial) {
		char node[32];
		g_mutex_init(&M.m);
		snprintf(node, sizeof node, "/dev/bus/usb/001/%03u", MUTE_DEVNUM);
		mute = umockdev_ioctl_base_new();
		g_signal_connect(mute, "handle-ioctl", G_CALLBACK(on_ioctl), (gpointer)&mute_ops);
		dev = device_string(MUTE_PORT, MUTE_DEVNUM, M.serial);
		if (!umockdev_testbed_attach_ioctl(tb, node, mute, &err) ||
		    !umockdev_testbed_add_from_string(tb, dev, &err)) {
			logf_("the second device: %s", err->message);
			return 3;
		}
		g_free(dev);
	}
	root = umockdev_testbed_get_root_dir(tb);
	env = client_env(root);

	if (E.unplug_ms >= 0)
		E.unplug_at = g_get_monotonic_time() + (gint64)E.unplug_ms * 1000;
	posix_spawnattr_init(&attr);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	int r = posix_spawnp(&client, argv[i], NULL, &attr, argv + i, env);
	posix_spawnattr_destroy(&attr);
	if (r != 0) {
		logf_("cannot run %s: %s", argv[i], strerror(r));
		st = 127 << 8;
	} else {
		gint64 end = E.timeout_s > 0 ? g_get_monotonic_time() + (gint64)E.timeout_s * 1000000 : 0;
		for (;;) {
			pid_t w = waitpid(client, &st, end ? WNOHANG : 0);
			if (w == client)
				break;
			if (w < 0 && errno != EINTR) {
				st = 1 << 8;
				break;
			}
			if (end && g_get_monotonic_time() > end) {
				logf_("client still running after %d s: killed", E.timeout_s);
				kill(client, SIGKILL);
				waitpid(client, &st, 0);
				st = 124 << 8;
				break;
			}
			if (end)
				g_usleep(20000);
		}
	}
	stop_board();        /* the board is gone: the reader sees EOF */
	g_thread_join(wr);
	g_thread_join(rd);
	close(E.board_in);
	close(E.board_out);
	if (E.fault_stats) {
		FILE *fs = fopen(E.fault_stats, "w");
		for (int d = 0; fs && d < 2; d++) {
			const struct faults *f = d ? &E.f_in : &E.f_out;
			fprintf(fs, "%s bytes %llu out %llu", d ? "board->host" : "host->board",
				(unsigned long long)f->bytes_in, (unsigned long long)f->bytes_out);
			for (int k = 0; k < FK_N; k++)
				fprintf(fs, " %s %llu", fault_kind_name[k], (unsigned long long)f->count[k]);
			fprintf(fs, "\n");
		}
		if (fs)
			fclose(fs);
	}
	if (E.verbose || E.refused[0])
		summary();

	g_object_unref(handler);
	if (mute)
		g_object_unref(mute);
	g_object_unref(tb);
	g_strfreev(env);
	g_free(root);
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st)) {
		logf_("client killed by signal %d", WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	return 1;
}
