/* A small printf: %d %i %u %x %X %s %c %p %%, flags '0' and '-', a width,
 * and the 'l' / 'll' length modifiers (ll uses libgcc's 64-bit division). */
#include "hpm_lib.h"

static int emit_padded(const char *s, int len, int width, int left, char pad)
{
	int n = 0;
	if (!left)
		for (; width > len; width--, n++)
			uart_putc(pad);
	for (int i = 0; i < len; i++, n++)
		uart_putc(s[i]);
	if (left)
		for (; width > len; width--, n++)
			uart_putc(' ');
	return n;
}

/* The digits of v. On rv32 a 64-bit division is a libgcc call per digit:
 * it is used only while v needs more than 32 bits. */
static int fmt_u(char *buf, unsigned long long v, unsigned base, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;
	for (; v > 0xffffffffu; v /= base)
		tmp[n++] = digits[v % base];
	unsigned w = (unsigned)v;
	do {
		tmp[n++] = digits[w % base];
		w /= base;
	} while (w);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

int vprintf(const char *fmt, va_list ap)
{
	int count = 0;
	char buf[26];
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			uart_putc(*fmt);
			count++;
			continue;
		}
		fmt++;
		int left = 0, width = 0, lng = 0;
		char pad = ' ';
		for (;; fmt++) {
			if (*fmt == '-')
				left = 1;
			else if (*fmt == '0')
				pad = '0';
			else
				break;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l') {
			lng++;
			fmt++;
		}
		int len = 0;
		switch (*fmt) {
		case 'd':
		case 'i': {
			long long v = lng >= 2 ? va_arg(ap, long long) : (long long)va_arg(ap, int);
			unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
			if (v < 0)
				buf[len++] = '-';
			len += fmt_u(buf + len, u, 10, 0);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			unsigned base = *fmt == 'u' ? 10 : 16;
			if (lng >= 2)
				len = fmt_u(buf, va_arg(ap, unsigned long long), base, *fmt == 'X');
			else
				len = fmt_u(buf, va_arg(ap, unsigned), base, *fmt == 'X');
			break;
		}
		case 'p':
			buf[0] = '0';
			buf[1] = 'x';
			len = 2 + fmt_u(buf + 2, (unsigned)(uintptr_t)va_arg(ap, void *), 16, 0);
			break;
		case 'c':
			buf[len++] = (char)va_arg(ap, int);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			count += emit_padded(s, (int)strlen(s), width, left, ' ');
			continue;
		}
		case '%':
			buf[len++] = '%';
			break;
		case '\0':
			return count;
		default:
			buf[len++] = '%';
			buf[len++] = *fmt;
			break;
		}
		/* zero padding goes after a sign */
		if (pad == '0' && !left && len > 0 && buf[0] == '-' && width > len) {
			uart_putc('-');
			count++;
			count += emit_padded(buf + 1, len - 1, width - 1, 0, '0');
		} else {
			count += emit_padded(buf, len, width, left, left ? ' ' : pad);
		}
	}
	return count;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}
