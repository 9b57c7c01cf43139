/* The tty link: a serial device (e.g. the FT2232H's channel B through the
 * kernel's ftdi_sio driver, /dev/ttyUSB1), raw 8N1, no flow control. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "link.h"

struct tty_link {
	struct hpm_link base;
	int fd;
};

static int tty_write(struct hpm_link *l, const uint8_t *buf, size_t len)
{
	struct tty_link *t = (struct tty_link *)l;
	while (len) {
		ssize_t n = write(t->fd, buf, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			snprintf(l->err, sizeof l->err, "%s: write: %s", l->name, strerror(errno));
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int tty_read(struct hpm_link *l, uint8_t *buf, size_t cap, int timeout_ms)
{
	struct tty_link *t = (struct tty_link *)l;
	struct pollfd p = { .fd = t->fd, .events = POLLIN };
	int r = poll(&p, 1, timeout_ms);
	if (r < 0 && errno == EINTR)
		return 0;
	if (r < 0 || (p.revents & (POLLERR | POLLHUP))) {
		snprintf(l->err, sizeof l->err, "%s: device gone", l->name);
		return -1;
	}
	if (r == 0)
		return 0;
	ssize_t n = read(t->fd, buf, cap);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		snprintf(l->err, sizeof l->err, "%s: device gone", l->name);
		return -1;
	}
	return (int)n;
}

static void tty_close(struct hpm_link *l)
{
	struct tty_link *t = (struct tty_link *)l;
	close(t->fd);
	free(t);
}

static const struct hpm_link_ops tty_ops = { tty_write, tty_read, tty_close };

static speed_t baud_constant(uint32_t baud)
{
	static const struct { uint32_t rate; speed_t c; } rates[] = {
		{ 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 },
		{ 921600, B921600 }, { 1000000, B1000000 }, { 1500000, B1500000 },
		{ 2000000, B2000000 }, { 3000000, B3000000 },
	};
	for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
		if (rates[i].rate == baud)
			return rates[i].c;
	return 0;
}

int hpm_link_tty_open(const char *path, uint32_t baud, struct hpm_link **out,
		      char *err, size_t errlen)
{
	struct termios tio;
	speed_t sp = baud_constant(baud);

	*out = NULL;
	if (!sp) {
		snprintf(err, errlen, "tty: unsupported baud rate %u", (unsigned)baud);
		return -1;
	}
	int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "tty:%s: %s", path, strerror(errno));
		return -1;
	}
	if (tcgetattr(fd, &tio)) {
		snprintf(err, errlen, "tty:%s: not a serial device", path);
		close(fd);
		return -1;
	}
	cfmakeraw(&tio);
	tio.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS);
	tio.c_cflag |= CLOCAL | CREAD | CS8;
	tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
	cfsetispeed(&tio, sp);
	cfsetospeed(&tio, sp);
	if (tcsetattr(fd, TCSANOW, &tio)) {
		snprintf(err, errlen, "tty:%s: cannot set %u baud: %s", path,
			 (unsigned)baud, strerror(errno));
		close(fd);
		return -1;
	}
	tcflush(fd, TCIOFLUSH);
	struct tty_link *t = calloc(1, sizeof *t);
	if (!t) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	t->fd = fd;
	t->base.ops = &tty_ops;
	t->base.kind = HPM_LINK_TTY;
	t->base.baud = baud;
	snprintf(t->base.name, sizeof t->base.name, "tty:%s", path);
	*out = &t->base;
	return 0;
}
