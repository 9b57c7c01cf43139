/* link_usb.c: the "usb" link: libusb-1.0 straight to channel B of the
 * iCEBreaker's FT2232H, the UART wired to the FPGA (docs/usb.md).
 *
 * Channel B is USB interface 1 with bulk endpoints 0x83 (IN) and 0x04 (OUT).
 * The chip is configured with FTDI's vendor requests on endpoint 0, whose
 * wIndex low byte names the channel (1 = A, 2 = B). Every bulk IN packet
 * starts with two modem-status bytes; they are stripped here at every
 * wMaxPacketSize boundary of a transfer. No global state: each link has its
 * own libusb context.
 *
 * Test-only builds (never in libhpm): -DHPM_USB_TEST_NO_STRIP keeps the
 * status bytes, -DHPM_USB_TEST_STRIP_FIRST strips them only at the start of
 * a transfer, -DHPM_USB_TEST_NO_LATENCY / -DHPM_USB_TEST_NO_DATA skip the
 * latency-timer / data-characteristics requests, so that the umockdev test
 * can show its checks fail (tests/usb/).
 */
#include "link.h"
#include "hpm.h"

#include <errno.h>
#include <inttypes.h>
#include <libusb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the FT2232H ---- */

#define FT_IFACE_B        1      /* USB interface of channel B */
#define FT_CHANNEL_B      2      /* channel number in wIndex (A = 1, B = 2) */
#define FT_EP_IN          0x83
#define FT_EP_OUT         0x04

#define FT_REQ_OUT        0x40   /* vendor, device, host-to-device */
#define FT_SIO_RESET      0x00   /* wValue: 0 reset, 1 purge RX, 2 purge TX */
#define FT_SIO_SET_FLOW   0x02   /* wIndex high byte: 0 = no flow control */
#define FT_SIO_SET_BAUD   0x03
#define FT_SIO_SET_DATA   0x04   /* wValue: bits 0-7 data bits, 8-10 parity, 11-13 stop, 14 break */
#define FT_SIO_SET_LATENCY 0x09  /* wValue: 1..255 ms */
#define FT_SIO_SET_BITMODE 0x0b  /* wValue: mode << 8 | mask; 0 = UART */

#define FT_RESET_SIO      0
#define FT_PURGE_RX       1
#define FT_PURGE_TX       2
#define FT_DATA_8N1       0x0008
#define FT_LATENCY_MS     1      /* a partly filled packet waits at most 1 ms */
#define FT_STATUS_BYTES   2      /* modem status at the start of every IN packet */

#define XFER_PACKETS      8      /* bulk IN transfer = 8 max-size packets */
#define WRITE_CHUNK       16384u
#define CTRL_TIMEOUT_MS   1000

/* ---- baud-rate divisor ----
 * The 2232H family divides either the 120 MHz clock by 10 (base 12 MHz,
 * flag bit 17 of the divisor) or the legacy 48 MHz / 16 (base 3 MHz). The
 * divisor is n + k/8: n (14 bits) in bits 0..13, k encoded in bits 14..16
 * (AN232B-05: 0, 1/2, 1/4, 1/8, 3/8, 5/8, 3/4, 7/8 for codes 0..7). Below 2
 * only two divisors exist: code 0 (n = 0) means 1, code 1 (n = 1) means 1.5.
 * The request carries bits 0..15 in wValue and bits 16..23 in the high byte
 * of wIndex, whose low byte is the channel (added by the caller). */

/* sub-integer eighths -> 3-bit code */
static const uint8_t ft_frac_code[8] = { 0, 3, 2, 4, 1, 5, 6, 7 };

#define FT_MAX_DIV8 (0x3fffu * 8u + 7u)   /* 16383.875 */

/* |rate - baud| for divisor d8 (eighths) on base */
static double ft_err(uint32_t base, uint32_t d8, uint32_t baud)
{
	double rate = (double)base * 8.0 / d8;

	return rate > baud ? rate - baud : baud - rate;
}

/* the allowed divisor, in eighths, whose rate is nearest to baud on base */
static uint32_t ft_best_div8(uint32_t base, uint32_t baud)
{
	uint64_t f = (uint64_t)base * 8u / baud;   /* ideal divisor, rounded down */
	uint32_t cand[5], best = 8;
	int nc = 0;
	double best_err = 0;

	if (f < 17) {   /* below 2 only 1 (code 0) and 1.5 (code 1) exist */
		cand[nc++] = 8;
		cand[nc++] = 12;
		cand[nc++] = 16;
		cand[nc++] = 17;
	} else if (f >= FT_MAX_DIV8) {
		cand[nc++] = FT_MAX_DIV8;
	} else {
		cand[nc++] = (uint32_t)f;
		cand[nc++] = (uint32_t)f + 1;
	}
	for (int i = 0; i < nc; i++) {
		double e = ft_err(base, cand[i], baud);
		if (i == 0 || e < best_err) {
			best_err = e;
			best = cand[i];
		}
	}
	return best;
}

static uint32_t ft_encode(uint32_t d8, int hi_clock)
{
	uint32_t enc;

	if (d8 == 8)
		enc = 0;
	else if (d8 == 12)
		enc = 1;
	else
		enc = (d8 >> 3) | (uint32_t)(ft_frac_code[d8 & 7] & 3) << 14 |
		      (uint32_t)(ft_frac_code[d8 & 7] >> 2) << 16;
	if (hi_clock)
		enc |= 1u << 17;
	return enc;
}

int hpm_ftdi_baud_divisor(uint32_t baud, uint16_t *value, uint16_t *index,
			  uint32_t *actual)
{
	static const uint32_t bases[2] = { 12000000u, 3000000u };  /* 120 MHz / 10, 48 MHz / 16 */
	uint32_t best_d8 = 8, best_enc = 0, best_base = bases[0];
	double best_err = 0;

	if (baud == 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		uint32_t d8 = ft_best_div8(bases[i], baud);
		double e = ft_err(bases[i], d8, baud);
		if (i == 0 || e < best_err) {   /* a tie keeps the 120 MHz clock */
			best_err = e;
			best_d8 = d8;
			best_base = bases[i];
			best_enc = ft_encode(d8, i == 0);
		}
	}
	if (value)
		*value = (uint16_t)(best_enc & 0xffffu);
	if (index)
		*index = (uint16_t)((best_enc >> 16) << 8);
	if (actual)
		*actual = (uint32_t)(((uint64_t)best_base * 8u + best_d8 / 2u) / best_d8);
	return best_err <= 0.03 * baud ? 0 : -1;
}

/* ---- the link ---- */

struct usb_link {
	struct hpm_link base;      /* first: the link layer casts */
	libusb_context *ctx;
	libusb_device_handle *h;
	int claimed, detached;
	int dead;                  /* unplugged or failed: every op errors */
	unsigned mps;              /* wMaxPacketSize of the IN endpoint */
	uint8_t *xfer;             /* one bulk IN transfer, XFER_PACKETS * mps */
	size_t xfer_len;
	uint8_t *pend;             /* payload received but not yet returned */
	size_t pend_off, pend_len;
};

static void seterr(struct hpm_link *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void seterr(struct hpm_link *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->err, sizeof l->err, fmt, ap);
	va_end(ap);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* a libusb error on an open link: unplug gets one fixed line */
static int usb_fail(struct usb_link *u, const char *what, int r)
{
	u->dead = 1;
	if (r == LIBUSB_ERROR_NO_DEVICE)
		seterr(&u->base, "usb: board unplugged");
	else
		seterr(&u->base, "usb: %s failed: %s", what, libusb_strerror(r));
	return -1;
}

/* Copies the payload of a bulk IN transfer of n bytes to out: every
 * mps-sized chunk (the last one may be short) starts with the two
 * modem-status bytes. Returns the payload length. */
static size_t ft_strip(const uint8_t *in, size_t n, unsigned mps, uint8_t *out)
{
	size_t len = 0;

#if defined(HPM_USB_TEST_NO_STRIP)
	(void)mps;
	memcpy(out, in, n);
	len = n;
#elif defined(HPM_USB_TEST_STRIP_FIRST)
	(void)mps;
	if (n > FT_STATUS_BYTES) {
		len = n - FT_STATUS_BYTES;
		memcpy(out, in + FT_STATUS_BYTES, len);
	}
#else
	for (size_t off = 0; off < n; off += mps) {
		size_t chunk = n - off < mps ? n - off : mps;
		if (chunk > FT_STATUS_BYTES) {
			memcpy(out + len, in + off + FT_STATUS_BYTES, chunk - FT_STATUS_BYTES);
			len += chunk - FT_STATUS_BYTES;
		}
	}
#endif
	return len;
}

static int usb_write(struct hpm_link *l, const uint8_t *buf, size_t len)
{
	struct usb_link *u = (struct usb_link *)l;
	size_t done = 0;

	if (u->dead)
		return -1;
	while (done < len) {
		size_t chunk = len - done < WRITE_CHUNK ? len - done : WRITE_CHUNK;
		/* the chip drains at the wire rate: allow twice that, plus 0.5 s */
		unsigned timeout = (unsigned)(chunk * 10u * 2000u / (l->baud ? l->baud : 9600u)) + 500u;
		int n = 0;
		int r = libusb_bulk_transfer(u->h, FT_EP_OUT, (unsigned char *)buf + done,
		                             (int)chunk, &n, timeout);
		if (n > 0)
			done += (size_t)n;
		if (r == LIBUSB_ERROR_TIMEOUT) {
			if (n > 0)
				continue;   /* slow but moving */
			u->dead = 1;
			seterr(l, "usb: write timed out (%zu of %zu bytes sent)", done, len);
			return -1;
		}
		if (r == LIBUSB_ERROR_INTERRUPTED)
			continue;
		if (r != 0)
			return usb_fail(u, "bulk write", r);
	}
	return 0;
}

static size_t take_pending(struct usb_link *u, uint8_t *buf, size_t cap)
{
	size_t n = u->pend_len < cap ? u->pend_len : cap;

	memcpy(buf, u->pend + u->pend_off, n);
	u->pend_off += n;
	u->pend_len -= n;
	if (u->pend_len == 0)
		u->pend_off = 0;
	return n;
}

static int usb_read(struct hpm_link *l, uint8_t *buf, size_t cap, int timeout_ms)
{
	struct usb_link *u = (struct usb_link *)l;
	int64_t deadline = timeout_ms < 0 ? 0 : now_ms() + timeout_ms;

	if (u->dead)
		return -1;
	if (cap == 0)
		return 0;
	if (u->pend_len)
		return (int)take_pending(u, buf, cap > INT32_MAX ? INT32_MAX : cap);
	for (int tries = 0;; tries++) {
		unsigned t = 1000;   /* forever: 1 s transfers, again and again */
		int n = 0, r;

		if (timeout_ms >= 0) {
			int64_t left = deadline - now_ms();
			if (left <= 0 && tries > 0)
				return 0;
			/* at least 1: libusb reads 0 as "no timeout" */
			t = left > 0 ? (unsigned)left : 1;
		}
		/* An FT2232H answers every IN transfer within its latency timer,
		 * with the status bytes alone when it has no data. */
		r = libusb_bulk_transfer(u->h, FT_EP_IN, u->xfer, (int)u->xfer_len, &n, t);
		if (r != 0 && r != LIBUSB_ERROR_TIMEOUT && r != LIBUSB_ERROR_INTERRUPTED)
			return usb_fail(u, "bulk read", r);
		if (n > 0) {
			/* even a timed-out transfer keeps the packets it got */
			u->pend_off = 0;
			u->pend_len = ft_strip(u->xfer, (size_t)n, u->mps, u->pend);
			if (u->pend_len)
				return (int)take_pending(u, buf, cap > INT32_MAX ? INT32_MAX : cap);
		}
	}
}

static void usb_close(struct hpm_link *l)
{
	struct usb_link *u = (struct usb_link *)l;

	if (!u)
		return;
	if (u->h) {
		if (u->claimed)
			libusb_release_interface(u->h, FT_IFACE_B);
		if (u->detached)   /* give channel B back to ftdi_sio */
			libusb_attach_kernel_driver(u->h, FT_IFACE_B);
		libusb_close(u->h);
	}
	if (u->ctx)
		libusb_exit(u->ctx);
	free(u->xfer);
	free(u->pend);
	free(u);
}

static const struct hpm_link_ops usb_ops = {
	.write = usb_write,
	.read = usb_read,
	.close = usb_close,
};

/* ---- opening ---- */

struct usb_spec {
	uint16_t vid, pid;
	char serial[48];   /* "" = any */
};

static int parse_hex16(const char *s, size_t n, uint16_t *out)
{
	unsigned v = 0;

	if (n == 0 || n > 4)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
		        c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		        c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | (unsigned)d;
	}
	*out = (uint16_t)v;
	return 0;
}

/* "" or ":VID:PID[:serial]" (the leading ':' may be left out), or
 * "::serial" (the default VID:PID) */
static int parse_spec(const char *spec, struct usb_spec *s)
{
	const char *p = spec ? spec : "", *c1, *c2;

	s->vid = HPM_USB_VID_DEFAULT;
	s->pid = HPM_USB_PID_DEFAULT;
	s->serial[0] = 0;
	if (p[0] == ':' && p[1] == ':') {
		if (p[2] == 0 || strchr(p + 2, ':') || strlen(p + 2) >= sizeof s->serial)
			return -1;
		strcpy(s->serial, p + 2);
		return 0;
	}
	if (*p == ':')
		p++;
	if (*p == 0)
		return 0;
	c1 = strchr(p, ':');
	if (!c1 || parse_hex16(p, (size_t)(c1 - p), &s->vid))
		return -1;
	c2 = strchr(c1 + 1, ':');
	if (parse_hex16(c1 + 1, c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1), &s->pid))
		return -1;
	if (c2) {
		if (c2[1] == 0 || strlen(c2 + 1) >= sizeof s->serial)
			return -1;
		strcpy(s->serial, c2 + 1);
	}
	return 0;
}

static int ctrl_out(struct usb_link *u, uint8_t req, uint16_t value, uint16_t index,
		    const char *what)
{
	int r = libusb_control_transfer(u->h, FT_REQ_OUT, req, value, index, NULL, 0,
	                                CTRL_TIMEOUT_MS);
	if (r < 0)
		return usb_fail(u, what, r);
	return 0;
}

/* Finds and opens the device; returns 0, or -1 with the reason in u->base.err. */
static int find_device(struct usb_link *u, const struct usb_spec *s)
{
	libusb_device **list = NULL;
	ssize_t n = libusb_get_device_list(u->ctx, &list);
	int found = 0, last_err = 0;
	char last_where[32] = "";

	if (n < 0) {
		seterr(&u->base, "usb: cannot list USB devices: %s", libusb_strerror((int)n));
		return -1;
	}
	for (ssize_t i = 0; i < n && !u->h; i++) {
		struct libusb_device_descriptor d;
		libusb_device_handle *h = NULL;
		int r;

		if (libusb_get_device_descriptor(list[i], &d) != 0 ||
		    d.idVendor != s->vid || d.idProduct != s->pid)
			continue;
		found++;
		snprintf(last_where, sizeof last_where, "bus %u dev %u",
		         libusb_get_bus_number(list[i]), libusb_get_device_address(list[i]));
		r = libusb_open(list[i], &h);
		if (r != 0) {
			last_err = r;
			continue;
		}
		if (s->serial[0]) {
			char sn[128] = "";
			if (d.iSerialNumber == 0 ||
			    libusb_get_string_descriptor_ascii(h, d.iSerialNumber,
			                                       (unsigned char *)sn, sizeof sn) < 0 ||
			    strcmp(sn, s->serial) != 0) {
				libusb_close(h);
				found--;
				continue;
			}
		}
		u->h = h;
		snprintf(u->base.name, sizeof u->base.name, "usb %04x:%04x %s%s%s",
		         s->vid, s->pid, last_where, s->serial[0] ? " serial " : "", s->serial);
	}
	libusb_free_device_list(list, 1);
	if (u->h)
		return 0;
	if (found == 0)
		seterr(&u->base, "usb: no device %04x:%04x%s%s found", s->vid, s->pid,
		       s->serial[0] ? " with serial " : "", s->serial);
	else if (last_err == LIBUSB_ERROR_ACCESS)
		seterr(&u->base, "usb: no permission to open %04x:%04x at %s (a udev rule or the plugdev group is needed)",
		       s->vid, s->pid, last_where);
	else
		seterr(&u->base, "usb: cannot open %04x:%04x at %s: %s", s->vid, s->pid,
		       last_where, libusb_strerror(last_err));
	return -1;
}

/* The configuration: channel B's interface with both bulk endpoints. */
static int check_endpoints(struct usb_link *u)
{
	libusb_device *dev = libusb_get_device(u->h);
	struct libusb_config_descriptor *cfg = NULL;
	int in = 0, out = 0, r = libusb_get_active_config_descriptor(dev, &cfg);

	if (r != 0) {
		seterr(&u->base, "usb: %s: cannot read the configuration: %s", u->base.name,
		       libusb_strerror(r));
		return -1;
	}
	if (cfg->bNumInterfaces > FT_IFACE_B) {
		const struct libusb_interface *itf = &cfg->interface[FT_IFACE_B];
		for (int a = 0; a < itf->num_altsetting && a < 1; a++) {
			const struct libusb_interface_descriptor *id = &itf->altsetting[a];
			for (int e = 0; e < id->bNumEndpoints; e++) {
				const struct libusb_endpoint_descriptor *ep = &id->endpoint[e];
				if ((ep->bmAttributes & 3) != LIBUSB_TRANSFER_TYPE_BULK)
					continue;
				if (ep->bEndpointAddress == FT_EP_IN) {
					in = 1;
					u->mps = ep->wMaxPacketSize & 0x7ff;
				} else if (ep->bEndpointAddress == FT_EP_OUT) {
					out = 1;
				}
			}
		}
	}
	libusb_free_config_descriptor(cfg);
	if (!in || !out || u->mps <= FT_STATUS_BYTES) {
		seterr(&u->base, "usb: %s has no bulk endpoints 0x%02x/0x%02x on interface %d (not an FT2232H?)",
		       u->base.name, FT_EP_IN, FT_EP_OUT, FT_IFACE_B);
		return -1;
	}
	return 0;
}

static int setup_chip(struct usb_link *u, uint16_t bvalue, uint16_t bindex)
{
	int r = libusb_kernel_driver_active(u->h, FT_IFACE_B);

	if (r == 1) {
		r = libusb_detach_kernel_driver(u->h, FT_IFACE_B);
		if (r == 0)
			u->detached = 1;
		else if (r != LIBUSB_ERROR_NOT_FOUND) {
			seterr(&u->base, "usb: %s: cannot detach the kernel driver from interface %d: %s",
			       u->base.name, FT_IFACE_B, libusb_strerror(r));
			return -1;
		}
	}
	r = libusb_claim_interface(u->h, FT_IFACE_B);
	if (r == LIBUSB_ERROR_BUSY) {
		seterr(&u->base, "usb: %s: interface %d is busy (another program has the board's UART open?)",
		       u->base.name, FT_IFACE_B);
		return -1;
	}
	if (r != 0)
		return usb_fail(u, "claiming interface 1", r);
	u->claimed = 1;

	if (ctrl_out(u, FT_SIO_SET_BITMODE, 0x0000, FT_CHANNEL_B, "FTDI set bit mode (UART)") ||
	    ctrl_out(u, FT_SIO_RESET, FT_RESET_SIO, FT_CHANNEL_B, "FTDI reset") ||
	    ctrl_out(u, FT_SIO_SET_BAUD, bvalue, (uint16_t)(bindex | FT_CHANNEL_B), "FTDI set baud rate") ||
#ifndef HPM_USB_TEST_NO_DATA
	    ctrl_out(u, FT_SIO_SET_DATA, FT_DATA_8N1, FT_CHANNEL_B, "FTDI set 8N1") ||
#endif
	    ctrl_out(u, FT_SIO_SET_FLOW, 0, FT_CHANNEL_B, "FTDI disable flow control") ||
#ifndef HPM_USB_TEST_NO_LATENCY
	    ctrl_out(u, FT_SIO_SET_LATENCY, FT_LATENCY_MS, FT_CHANNEL_B, "FTDI set latency timer") ||
#endif
	    ctrl_out(u, FT_SIO_RESET, FT_PURGE_RX, FT_CHANNEL_B, "FTDI purge RX") ||
	    ctrl_out(u, FT_SIO_RESET, FT_PURGE_TX, FT_CHANNEL_B, "FTDI purge TX"))
		return -1;
	return 0;
}

int hpm_link_usb_open(const char *spec, uint32_t baud, struct hpm_link **out,
		      char *err, size_t errlen)
{
	struct usb_spec s;
	struct usb_link *u;
	uint16_t bvalue, bindex;
	uint32_t actual;
	int r;

	*out = NULL;
	if (baud == 0)
		baud = HPM_USB_BAUD_DEFAULT;
	if (parse_spec(spec, &s)) {
		snprintf(err, errlen, "usb: bad device 'usb%s' (want usb, usb::SERIAL, or usb:VID:PID[:serial] in hex)",
		         spec ? spec : "");
		return -1;
	}
	if (hpm_ftdi_baud_divisor(baud, &bvalue, &bindex, &actual)) {
		snprintf(err, errlen, "usb: %" PRIu32 " baud is not within 3%% of a rate the FT2232H can make (nearest %" PRIu32 ")",
		         baud, actual);
		return -1;
	}
	u = calloc(1, sizeof *u);
	if (!u) {
		snprintf(err, errlen, "usb: out of memory");
		return -1;
	}
	u->base.ops = &usb_ops;
	u->base.kind = HPM_LINK_USB;
	u->base.baud = actual;
	snprintf(u->base.name, sizeof u->base.name, "usb %04x:%04x", s.vid, s.pid);
	r = libusb_init(&u->ctx);
	if (r != 0) {
		u->ctx = NULL;
		seterr(&u->base, "usb: libusb_init failed: %s", libusb_strerror(r));
		goto fail;
	}
	if (find_device(u, &s) || check_endpoints(u) || setup_chip(u, bvalue, bindex))
		goto fail;
	u->xfer_len = (size_t)XFER_PACKETS * u->mps;
	u->xfer = malloc(u->xfer_len);
	u->pend = malloc(u->xfer_len);
	if (!u->xfer || !u->pend) {
		seterr(&u->base, "usb: out of memory");
		goto fail;
	}
	*out = &u->base;
	return 0;
fail:
	snprintf(err, errlen, "%s", u->base.err);
	usb_close(&u->base);
	return -1;
}

int hpm_link_usb_present(void)
{
	libusb_context *ctx = NULL;
	libusb_device **list = NULL;
	ssize_t n;
	int found = 0;

	if (libusb_init(&ctx) != 0)
		return 0;
	n = libusb_get_device_list(ctx, &list);
	for (ssize_t i = 0; i < n && !found; i++) {
		struct libusb_device_descriptor d;
		if (libusb_get_device_descriptor(list[i], &d) == 0 &&
		    d.idVendor == HPM_USB_VID_DEFAULT && d.idProduct == HPM_USB_PID_DEFAULT)
			found = 1;
	}
	if (n >= 0)
		libusb_free_device_list(list, 1);
	libusb_exit(ctx);
	return found;
}

/* The port path "bus-p1.p2..." of a device, as the kernel names it. */
static void port_path(libusb_device *dev, char *out, size_t len)
{
	uint8_t ports[8];
	int n = libusb_get_port_numbers(dev, ports, (int)sizeof ports);
	size_t at = (size_t)snprintf(out, len, "%u", libusb_get_bus_number(dev));

	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%c%u", i ? '.' : '-', ports[i]);
}

int hpm_usb_list(hpm_usb_board *out, size_t cap, size_t *n, char *err, size_t errlen)
{
	libusb_context *ctx = NULL;
	libusb_device **list = NULL;
	ssize_t nd;
	int r = libusb_init(&ctx);

	*n = 0;
	if (r != 0) {
		snprintf(err, errlen, "usb: libusb_init failed: %s", libusb_strerror(r));
		return HPM_E_LINK;
	}
	nd = libusb_get_device_list(ctx, &list);
	if (nd < 0) {
		snprintf(err, errlen, "usb: cannot list USB devices: %s", libusb_strerror((int)nd));
		libusb_exit(ctx);
		return HPM_E_LINK;
	}
	for (ssize_t i = 0; i < nd; i++) {
		struct libusb_device_descriptor d;
		libusb_device_handle *h = NULL;

		if (libusb_get_device_descriptor(list[i], &d) != 0 ||
		    d.idVendor != HPM_USB_VID_DEFAULT || d.idProduct != HPM_USB_PID_DEFAULT)
			continue;
		if (*n < cap) {
			hpm_usb_board *o = &out[*n];
			memset(o, 0, sizeof *o);
			o->vid = d.idVendor;
			o->pid = d.idProduct;
			o->bus = libusb_get_bus_number(list[i]);
			o->address = libusb_get_device_address(list[i]);
			port_path(list[i], o->port, sizeof o->port);
			r = libusb_open(list[i], &h);
			if (r != 0)
				snprintf(o->why, sizeof o->why, r == LIBUSB_ERROR_ACCESS ?
					 "no permission to open it (a udev rule or the plugdev group is needed)" :
					 "cannot open it: %s", libusb_strerror(r));
			else if (d.iSerialNumber == 0 ||
				 libusb_get_string_descriptor_ascii(h, d.iSerialNumber, (unsigned char *)o->serial,
								    (int)sizeof o->serial) <= 0)
				o->serial[0] = 0;
			if (h)
				libusb_close(h);
			if (o->serial[0])
				snprintf(o->link, sizeof o->link, "usb::%s", o->serial);
		}
		(*n)++;
	}
	libusb_free_device_list(list, 1);
	libusb_exit(ctx);
	return HPM_OK;
}
