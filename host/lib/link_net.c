/* The network links: a board's serial line exported over TCP by a terminal
 * server such as ser2net, on this machine or another.
 *
 *   tcp:HOST:PORT      the port carries the line's bytes as they are
 *                      (ser2net's raw mode); the server sets the line.
 *   rfc2217:HOST:PORT  telnet (RFC 854) with the COM-PORT-OPTION of RFC
 *                      2217: the line is set here to the baud rate, 8N1,
 *                      no flow control; byte 0xFF is doubled both ways.
 *
 * Both are lossy links to libhpm (a baud rate, so session.c's section 2.1
 * path): a server's buffers can overflow and the serial line behind it is
 * the same UART as the tty link's. A closed connection ends the link with
 * one line saying so. No global state: everything is in the link.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "link.h"

#define CONNECT_MS     5000   /* a host that does not answer SYN */
#define NEGOTIATE_MS   3000   /* telnet options and the line settings */

/* telnet (RFC 854) */
#define T_IAC   255
#define T_DONT  254
#define T_DO    253
#define T_WONT  252
#define T_WILL  251
#define T_SB    250
#define T_SE    240
#define OPT_BINARY 0          /* RFC 856 */
#define OPT_SGA    3          /* RFC 858: suppress go-ahead */
#define OPT_COM    44         /* RFC 2217: COM-PORT-OPTION */

/* RFC 2217 commands, client to server; the server acknowledges each with
 * the same command + 100 and the value it put in force */
#define COM_SET_BAUDRATE 1
#define COM_SET_DATASIZE 2
#define COM_SET_PARITY   3
#define COM_SET_STOPSIZE 4
#define COM_SET_CONTROL  5
#define COM_ACK          100
#define PARITY_NONE      1
#define STOPSIZE_1       1
#define CONTROL_NONE_OUT 1    /* no flow control (outbound, or both) */
#define CONTROL_NONE_IN  14   /* no flow control inbound */

enum tstate { TS_DATA, TS_IAC, TS_OPT, TS_SB, TS_SB_IAC };

struct net_link {
	struct hpm_link base;
	int fd;
	int telnet;
	/* the first bytes the server sent: a server that refuses a second
	 * client says why in text before it closes the connection */
	char greeting[64];
	size_t greeting_len;
	int framed;                 /* a frame delimiter came: the board talks */
	int dead;                   /* the connection is gone: nothing is sent */
	/* telnet receive state */
	enum tstate ts;
	uint8_t verb;               /* WILL/WONT/DO/DONT waiting for its option */
	uint8_t sb[16];
	size_t sblen;
	int sb_long;                /* the subnegotiation overran sb: ignored */
	/* options: on, and asked for by us without an answer yet */
	uint8_t us_on[64], us_asked[64], him_on[64], him_asked[64];
	/* RFC 2217 acknowledgements: bit n for command n + 100 */
	unsigned acked;
	uint32_t ack_baud;
	uint8_t ack_value[6];
	int control_acks;
	uint8_t control_ack[2];
};

/* "Connection refused" as "connection refused": the message goes after a
 * colon in a line of ours */
static void lower_errno(char *buf, size_t len, int e)
{
	snprintf(buf, len, "%s", strerror(e));
	buf[0] = (char)tolower((unsigned char)buf[0]);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int hpm_link_net_parse(const char *link, char *host, size_t hostlen, char *port,
		       size_t portlen, char *err, size_t errlen)
{
	const char *p = strchr(link, ':');
	const char *hs, *he, *ps;

	if (!p || (strncmp(link, "tcp:", 4) && strncmp(link, "rfc2217:", 8))) {
		snprintf(err, errlen, "'%s' is not a network link (tcp:HOST:PORT, rfc2217:HOST:PORT)", link);
		return -1;
	}
	int kind = (int)(p - link);
	hs = p + 1;
	if (*hs == '[') {           /* an IPv6 address: [ADDR]:PORT */
		he = strchr(hs, ']');
		if (!he || he[1] != ':') {
			snprintf(err, errlen, "%s: expected %.*s:[ADDRESS]:PORT", link, kind, link);
			return -1;
		}
		hs++;
		ps = he + 2;
	} else {
		he = strrchr(hs, ':');
		if (!he) {
			snprintf(err, errlen, "%s: expected %.*s:HOST:PORT", link, kind, link);
			return -1;
		}
		if (memchr(hs, ':', (size_t)(he - hs))) {
			snprintf(err, errlen, "%s: an IPv6 address goes in brackets: %.*s:[ADDRESS]:PORT", link, kind, link);
			return -1;
		}
		ps = he + 1;
	}
	if (he == hs) {
		snprintf(err, errlen, "%s: expected %.*s:HOST:PORT (no host)", link, kind, link);
		return -1;
	}
	if ((size_t)(he - hs) >= hostlen) {
		snprintf(err, errlen, "%s: host name too long", link);
		return -1;
	}
	unsigned long v = 0;
	const char *q = ps;
	while (*q >= '0' && *q <= '9' && v <= 65535)
		v = v * 10 + (unsigned long)(*q++ - '0');
	if (q == ps || *q || v < 1 || v > 65535) {
		snprintf(err, errlen, "%s: the port must be a number 1..65535, not '%s'", link, ps);
		return -1;
	}
	snprintf(host, hostlen, "%.*s", (int)(he - hs), hs);
	snprintf(port, portlen, "%lu", v);
	return 0;
}

static int telnet_in(struct net_link *n, uint8_t *buf, size_t len);

/* Keeps the start of what the server sends until the board's first frame
 * delimiter: a refusal from the server is text without one. */
static void keep_greeting(struct net_link *n, const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len && !n->framed; i++) {
		if (!buf[i])
			n->framed = 1;
		else if (n->greeting_len + 1 < sizeof n->greeting)
			n->greeting[n->greeting_len++] = (char)buf[i];
	}
}

/* The connection ended: one line, with what the server said if it was a
 * refusal (ser2net to a second client: "Port already in use", "Port's
 * device already in use"). What it sent before closing is still there to
 * read after a send saw the reset. */
static void closed(struct net_link *n)
{
	char said[sizeof n->greeting];
	uint8_t buf[512];
	size_t k = 0;
	int letters = 0;
	ssize_t got;

	n->dead = 1;
	while ((got = recv(n->fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
		int d = n->telnet ? telnet_in(n, buf, (size_t)got) : (int)got;
		if (d > 0)
			keep_greeting(n, buf, (size_t)d);
	}

	for (size_t i = 0; i < n->greeting_len; i++) {
		unsigned char c = (unsigned char)n->greeting[i];
		if (c == '\r' || c == '\n') {
			if (k && said[k - 1] != ' ')
				said[k++] = ' ';
		} else if (c >= 0x20 && c < 0x7f) {
			said[k++] = (char)c;
			letters += isalpha(c) != 0;
		}
	}
	while (k && said[k - 1] == ' ')
		k--;
	said[k] = '\0';
	if (!n->framed && letters >= 4)
		snprintf(n->base.err, sizeof n->base.err, "%s: refused by the server: \"%s\"%s",
			 n->base.name, said, strstr(said, "in use") ? " (another client holds the port)" : "");
	else
		snprintf(n->base.err, sizeof n->base.err, "%s: the connection was closed by the server",
			 n->base.name);
}

/* Sends len raw bytes (telnet commands already built). */
static int send_all(struct net_link *n, const uint8_t *buf, size_t len)
{
	char why[96];
	while (len) {
		ssize_t w = send(n->fd, buf, len, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = { .fd = n->fd, .events = POLLOUT };
			if (poll(&p, 1, 1000) < 0 && errno != EINTR)
				goto broken;
			continue;
		}
		if (w < 0)
			goto broken;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
broken:
	if (errno == EPIPE || errno == ECONNRESET) {
		n->dead = 1;        /* the caller says why: closed() */
		snprintf(n->base.err, sizeof n->base.err, "%s: the connection was closed", n->base.name);
	} else {
		lower_errno(why, sizeof why, errno);
		snprintf(n->base.err, sizeof n->base.err, "%s: send: %s", n->base.name, why);
	}
	return -1;
}

/* After a send failed: the server's last words if it closed on us. Never
 * called inside telnet_in (it reads on). */
static int send_failed(struct net_link *n)
{
	if (n->dead)
		closed(n);
	return -1;
}

static int net_write(struct hpm_link *l, const uint8_t *buf, size_t len)
{
	struct net_link *n = (struct net_link *)l;
	uint8_t out[512];
	size_t k = 0;

	if (!n->telnet)
		return send_all(n, buf, len) ? send_failed(n) : 0;
	for (size_t i = 0; i < len; i++) {
		if (k + 2 > sizeof out) {
			if (send_all(n, out, k))
				return send_failed(n);
			k = 0;
		}
		out[k++] = buf[i];
		if (buf[i] == T_IAC)
			out[k++] = T_IAC;
	}
	return send_all(n, out, k) ? send_failed(n) : 0;
}

static int send_cmd(struct net_link *n, uint8_t verb, uint8_t opt)
{
	uint8_t c[3] = { T_IAC, verb, opt };
	return n->dead ? 0 : send_all(n, c, sizeof c);
}

/* The options we take: binary both ways, no go-ahead, and the com port. */
static int option_ok(uint8_t opt)
{
	return opt == OPT_BINARY || opt == OPT_SGA || opt == OPT_COM;
}

/* One WILL/WONT/DO/DONT from the server (RFC 854's rules, without loops:
 * an answer to our own request is not answered again). */
static int negotiate(struct net_link *n, uint8_t verb, uint8_t opt)
{
	int him = verb == T_WILL || verb == T_WONT;
	int yes = verb == T_WILL || verb == T_DO;
	uint8_t *on = him ? n->him_on : n->us_on, *asked = him ? n->him_asked : n->us_asked;
	uint8_t accept = him ? T_DO : T_WILL, refuse = him ? T_DONT : T_WONT;

	if (opt >= sizeof n->us_on)    /* no option of ours: refuse it */
		return yes ? send_cmd(n, refuse, opt) : 0;
	if (asked[opt]) {               /* the answer to our request */
		asked[opt] = 0;
		on[opt] = (uint8_t)yes;
		return 0;
	}
	if (yes && !on[opt]) {
		if (!option_ok(opt))
			return send_cmd(n, refuse, opt);
		on[opt] = 1;
		return send_cmd(n, accept, opt);
	}
	if (!yes && on[opt]) {
		on[opt] = 0;
		return send_cmd(n, refuse, opt);
	}
	return 0;
}

/* A COM-PORT-OPTION subnegotiation from the server: the acknowledgements
 * of our settings; notifications of line and modem state are dropped. */
static void com_port_sb(struct net_link *n)
{
	if (n->sb_long || n->sblen < 2 || n->sb[0] != OPT_COM)
		return;
	unsigned cmd = n->sb[1];
	if (cmd < COM_ACK + COM_SET_BAUDRATE || cmd > COM_ACK + COM_SET_CONTROL)
		return;
	cmd -= COM_ACK;
	if (cmd == COM_SET_BAUDRATE && n->sblen == 6)
		n->ack_baud = (uint32_t)n->sb[2] << 24 | (uint32_t)n->sb[3] << 16 |
			      (uint32_t)n->sb[4] << 8 | n->sb[5];
	else if (cmd == COM_SET_CONTROL && n->sblen == 3 && n->control_acks < 2)
		n->control_ack[n->control_acks++] = n->sb[2];
	else if (n->sblen == 3)
		n->ack_value[cmd] = n->sb[2];
	else
		return;
	n->acked |= 1u << cmd;
}

/* Takes the telnet commands out of the len bytes at buf, answers them, and
 * leaves the data bytes at the start of buf: their number (an answer that
 * could not be sent marks the link dead, the bytes are still taken). */
static int telnet_in(struct net_link *n, uint8_t *buf, size_t len)
{
	size_t k = 0;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = buf[i];
		switch (n->ts) {
		case TS_DATA:
			if (c == T_IAC)
				n->ts = TS_IAC;
			else
				buf[k++] = c;
			break;
		case TS_IAC:
			n->ts = TS_DATA;
			if (c == T_IAC) {
				buf[k++] = c;           /* an escaped 0xFF */
			} else if (c >= T_WILL && c <= T_DONT) {
				n->verb = c;
				n->ts = TS_OPT;
			} else if (c == T_SB) {
				n->sblen = 0;
				n->sb_long = 0;
				n->ts = TS_SB;
			}                               /* NOP, GA, ...: nothing */
			break;
		case TS_OPT:
			n->ts = TS_DATA;
			if (negotiate(n, n->verb, c))
				n->dead = 1;
			break;
		case TS_SB:
			if (c == T_IAC)
				n->ts = TS_SB_IAC;
			else if (n->sblen < sizeof n->sb)
				n->sb[n->sblen++] = c;
			else
				n->sb_long = 1;
			break;
		case TS_SB_IAC:
			if (c == T_SE) {
				com_port_sb(n);
				n->ts = TS_DATA;
			} else {                        /* IAC IAC: a 0xFF in it */
				if (n->sblen < sizeof n->sb)
					n->sb[n->sblen++] = c;
				else
					n->sb_long = 1;
				n->ts = TS_SB;
			}
			break;
		}
	}
	return (int)k;
}

/* Reads what is there (waiting up to timeout_ms): the number of data bytes
 * left in buf (0: none yet; *heard set if bytes came), or -1 with the
 * reason in err. */
static int net_recv(struct net_link *n, uint8_t *buf, size_t cap, int timeout_ms, int *heard)
{
	struct pollfd p = { .fd = n->fd, .events = POLLIN };
	char why[96];
	int r = poll(&p, 1, timeout_ms);

	if (r < 0 && errno == EINTR)
		return 0;
	if (r < 0) {
		lower_errno(why, sizeof why, errno);
		snprintf(n->base.err, sizeof n->base.err, "%s: poll: %s", n->base.name, why);
		return -1;
	}
	if (r == 0)
		return 0;
	*heard = 1;
	ssize_t got = recv(n->fd, buf, cap, 0);
	if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (got == 0 || (got < 0 && errno == ECONNRESET)) {
		closed(n);
		return -1;
	}
	if (got < 0) {
		lower_errno(why, sizeof why, errno);
		snprintf(n->base.err, sizeof n->base.err, "%s: recv: %s", n->base.name, why);
		return -1;
	}
	int k = n->telnet ? telnet_in(n, buf, (size_t)got) : (int)got;
	if (k > 0)
		keep_greeting(n, buf, (size_t)k);
	if (n->dead) {          /* an answer to the server could not be sent */
		closed(n);
		return -1;
	}
	return k;
}

static int net_read(struct hpm_link *l, uint8_t *buf, size_t cap, int timeout_ms)
{
	struct net_link *n = (struct net_link *)l;
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;

	/* telnet commands alone are no bytes: wait on until data or the time */
	for (;;) {
		int left = timeout_ms, heard = 0;
		if (deadline >= 0) {
			int64_t d = deadline - now_ms();
			left = d > 0 ? (int)d : 0;
		}
		int k = net_recv(n, buf, cap, left, &heard);
		if (k != 0 || !heard || left == 0)
			return k;
	}
}

static void net_close(struct hpm_link *l)
{
	struct net_link *n = (struct net_link *)l;
	close(n->fd);
	free(n);
}

static const struct hpm_link_ops net_ops = { net_write, net_read, net_close };

/* Connects to host:port within CONNECT_MS: the socket (non-blocking), or
 * -1 with the reason in err. */
static int connect_to(const char *name, const char *host, const char *port, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai, *a;
	char why[96] = "no address";
	int fd = -1;

	int g = getaddrinfo(host, port, &hints, &ai);
	if (g) {
		if (g == EAI_NONAME || g == EAI_NODATA || g == EAI_AGAIN || g == EAI_FAIL)
			snprintf(err, errlen, "%s: unknown host '%s' (%s)", name, host, gai_strerror(g));
		else
			snprintf(err, errlen, "%s: %s", name, g == EAI_SYSTEM ? strerror(errno) : gai_strerror(g));
		return -1;
	}
	for (a = ai; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0) {
			lower_errno(why, sizeof why, errno);
			continue;
		}
		int e = 0;
		if (connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
			e = errno;
			if (e == EINPROGRESS) {
				struct pollfd p = { .fd = fd, .events = POLLOUT };
				int64_t end = now_ms() + CONNECT_MS;
				int r;
				do
					r = poll(&p, 1, (int)(end - now_ms() > 0 ? end - now_ms() : 0));
				while (r < 0 && errno == EINTR);
				socklen_t sl = sizeof e;
				if (r == 0)
					e = ETIMEDOUT;
				else if (r < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &sl))
					e = errno;
			}
		}
		if (e) {
			if (e == ETIMEDOUT)
				snprintf(why, sizeof why, "no answer within %d s", CONNECT_MS / 1000);
			else
				lower_errno(why, sizeof why, e);
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", name, why);
		return -1;
	}
	int one = 1;       /* a frame goes out at once, not after the last ACK */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
	return fd;
}

/* Waits until want(n) or the negotiation time-out; the board's bytes that
 * arrive meanwhile are dropped (as the tty link flushes its input). */
static int wait_for(struct net_link *n, int (*want)(const struct net_link *), int64_t deadline)
{
	uint8_t junk[512];
	while (!want(n)) {
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return 1;
		int heard;
		if (net_recv(n, junk, sizeof junk, (int)left, &heard) < 0)
			return -1;
	}
	return 0;
}

static int com_answered(const struct net_link *n)
{
	return !n->us_asked[OPT_COM];
}

static int all_acked(const struct net_link *n)
{
	const unsigned every = 1u << COM_SET_BAUDRATE | 1u << COM_SET_DATASIZE | 1u << COM_SET_PARITY |
			       1u << COM_SET_STOPSIZE | 1u << COM_SET_CONTROL;
	return (n->acked & every) == every && n->control_acks == 2;
}

static int com_set(struct net_link *n, uint8_t cmd, const uint8_t *v, size_t len)
{
	uint8_t sb[16];
	size_t k = 0;
	sb[k++] = T_IAC;
	sb[k++] = T_SB;
	sb[k++] = OPT_COM;
	sb[k++] = cmd;
	for (size_t i = 0; i < len; i++) {
		sb[k++] = v[i];
		if (v[i] == T_IAC)
			sb[k++] = T_IAC;
	}
	sb[k++] = T_IAC;
	sb[k++] = T_SE;
	return send_all(n, sb, k);
}

/* Telnet options, then the line: baud, 8 data bits, no parity, 1 stop bit,
 * no flow control either way; every setting as the server acknowledged it. */
static int rfc2217_setup(struct net_link *n, uint32_t baud, char *err, size_t errlen)
{
	static const uint8_t opts[][2] = {
		{ T_WILL, OPT_BINARY }, { T_DO, OPT_BINARY }, { T_WILL, OPT_SGA },
		{ T_DO, OPT_SGA }, { T_WILL, OPT_COM },
	};
	const char *name = n->base.name;
	int64_t deadline = now_ms() + NEGOTIATE_MS;
	int r;

	n->telnet = 1;
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		uint8_t verb = opts[i][0], opt = opts[i][1];
		if (verb == T_WILL)
			n->us_asked[opt] = n->us_on[opt] = 1;
		else
			n->him_asked[opt] = n->him_on[opt] = 1;
		if (send_cmd(n, verb, opt))
			goto link_err;
	}
	if ((r = wait_for(n, com_answered, deadline)) < 0)
		goto link_err;
	if (r) {
		snprintf(err, errlen, "%s: no telnet answer within %d s (a raw port? use tcp:)", name,
			 NEGOTIATE_MS / 1000);
		return -1;
	}
	if (!n->us_on[OPT_COM]) {
		snprintf(err, errlen, "%s: the server refuses RFC 2217 (DONT COM-PORT-OPTION): not a com port server", name);
		return -1;
	}
	uint8_t b[4] = { (uint8_t)(baud >> 24), (uint8_t)(baud >> 16), (uint8_t)(baud >> 8), (uint8_t)baud };
	uint8_t v8 = 8, vnone = PARITY_NONE, v1 = STOPSIZE_1, vout = CONTROL_NONE_OUT, vin = CONTROL_NONE_IN;
	if (com_set(n, COM_SET_BAUDRATE, b, 4) || com_set(n, COM_SET_DATASIZE, &v8, 1) ||
	    com_set(n, COM_SET_PARITY, &vnone, 1) || com_set(n, COM_SET_STOPSIZE, &v1, 1) ||
	    com_set(n, COM_SET_CONTROL, &vout, 1) || com_set(n, COM_SET_CONTROL, &vin, 1))
		goto link_err;
	if ((r = wait_for(n, all_acked, deadline)) < 0)
		goto link_err;
	if (r) {
		snprintf(err, errlen, "%s: the server did not acknowledge the line settings within %d s",
			 name, NEGOTIATE_MS / 1000);
		return -1;
	}
	if (n->ack_baud != baud) {
		snprintf(err, errlen, "%s: the server set %u baud, not %u", name, (unsigned)n->ack_baud, (unsigned)baud);
		return -1;
	}
	if (n->ack_value[COM_SET_DATASIZE] != 8 || n->ack_value[COM_SET_PARITY] != PARITY_NONE ||
	    n->ack_value[COM_SET_STOPSIZE] != STOPSIZE_1 || n->control_ack[0] != CONTROL_NONE_OUT ||
	    n->control_ack[1] != CONTROL_NONE_IN) {
		snprintf(err, errlen, "%s: the server did not set 8N1 without flow control (data %u, parity %u, stop %u, control %u/%u)",
			 name, n->ack_value[COM_SET_DATASIZE], n->ack_value[COM_SET_PARITY],
			 n->ack_value[COM_SET_STOPSIZE], n->control_ack[0], n->control_ack[1]);
		return -1;
	}
	return 0;
link_err:
	if (n->dead)
		closed(n);
	snprintf(err, errlen, "%s", n->base.err);
	return -1;
}

int hpm_link_net_open(const char *link, uint32_t baud, struct hpm_link **out,
		      char *err, size_t errlen)
{
	char host[256], port[8];

	*out = NULL;
	if (hpm_link_net_parse(link, host, sizeof host, port, sizeof port, err, errlen))
		return -1;
	struct net_link *n = calloc(1, sizeof *n);
	if (!n) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	n->base.ops = &net_ops;
	n->base.baud = baud;
	n->base.kind = link[0] == 't' ? HPM_LINK_TCP : HPM_LINK_RFC2217;
	snprintf(n->base.name, sizeof n->base.name, "%s", link);
	n->fd = connect_to(n->base.name, host, port, err, errlen);
	if (n->fd < 0 || (n->base.kind == HPM_LINK_RFC2217 && rfc2217_setup(n, baud, err, errlen))) {
		if (n->fd >= 0)
			close(n->fd);
		free(n);
		return -1;
	}
	*out = &n->base;
	return 0;
}
