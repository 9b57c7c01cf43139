/* link.h: the byte-stream links under libhpm (internal, not installed).
 *
 * A link moves raw bytes between the host and the firmware monitor; the
 * protocol (proto/hpm_proto.h, docs/protocol.md) runs on top of it. Every
 * link kind fills a struct hpm_link whose first member is the ops table.
 */
#ifndef HPM_LINK_H
#define HPM_LINK_H

#include <stddef.h>
#include <stdint.h>

struct hpm_link;

struct hpm_link_ops {
	/* Writes all len bytes. 0, or -1 with a one-line reason in l->err. */
	int (*write)(struct hpm_link *l, const uint8_t *buf, size_t len);
	/* Waits up to timeout_ms (-1: forever) for at least one byte. Returns
	 * the number of bytes read (> 0), 0 on timeout, -1 on error (reason in
	 * l->err; the link is unusable afterwards, e.g. unplugged or the
	 * simulator exited). */
	int (*read)(struct hpm_link *l, uint8_t *buf, size_t cap, int timeout_ms);
	/* Releases everything the link holds and frees l. */
	void (*close)(struct hpm_link *l);
};

enum hpm_link_kind { HPM_LINK_SIM, HPM_LINK_REF, HPM_LINK_TTY, HPM_LINK_USB, HPM_LINK_TCP,
		     HPM_LINK_RFC2217 };

struct hpm_link {
	const struct hpm_link_ops *ops;
	enum hpm_link_kind kind;
	uint32_t baud;      /* wire rate for timeouts; 0 for sim/ref (no wire) */
	char name[128];     /* what the user sees: "sim (build/bin/hpm-sim)", "usb 0403:6010 bus 1 dev 4" */
	char err[256];      /* last error, one line, no trailing newline */
};

/* Link constructors. Each returns 0 and *out, or -1 with a one-line reason
 * in err (nothing left open). */

/* sim / ref: spawns the simulated board or the reference board (a program
 * path and argv tail), talking over its stdin/stdout pipes. */
int hpm_link_spawn_open(enum hpm_link_kind kind, const char *prog,
			const char *const *args, struct hpm_link **out,
			char *err, size_t errlen);

/* tty:PATH, raw 8N1 at baud. */
int hpm_link_tty_open(const char *path, uint32_t baud, struct hpm_link **out,
		      char *err, size_t errlen);

/* tcp:HOST:PORT (raw TCP, ser2net's raw mode) or rfc2217:HOST:PORT (telnet
 * with RFC 2217: the line set to baud, 8N1, no flow control); HOST a name,
 * an IPv4 address or [IPv6]. */
int hpm_link_net_open(const char *link, uint32_t baud, struct hpm_link **out,
		      char *err, size_t errlen);

/* The HOST and PORT of a network link's name: 0, or -1 with a one-line
 * reason in err. */
int hpm_link_net_parse(const char *link, char *host, size_t hostlen, char *port,
		       size_t portlen, char *err, size_t errlen);

/* usb[:VID:PID[:serial]] (spec is the part after "usb", "" or ":0403:6010..."):
 * libusb-1.0 straight to the FT2232H's channel B (interface 1). */
#define HPM_USB_VID_DEFAULT 0x0403u
#define HPM_USB_PID_DEFAULT 0x6010u
#define HPM_USB_BAUD_DEFAULT 1500000u
int hpm_link_usb_open(const char *spec, uint32_t baud, struct hpm_link **out,
		      char *err, size_t errlen);

/* 1 if a device matching VID:PID (defaults above) is attached, else 0. */
int hpm_link_usb_present(void);

/* FTDI baud-rate divisor for the 2232H family (120 MHz / 10 base clock, and
 * the 3 MHz legacy clock when that is closer): fills the wValue/wIndex of
 * the SET_BAUDRATE request and the achieved rate. Returns 0, or -1 when no
 * divisor is within 3 % of baud. Exposed for the unit tests. */
int hpm_ftdi_baud_divisor(uint32_t baud, uint16_t *value, uint16_t *index,
			  uint32_t *actual);

#endif
