/* UART polling driver (docs/memory-map.md: data, status, div).
 *
 * The UART holds one received byte. While uart_putc waits for the
 * transmitter it keeps draining the receiver into a small ring buffer, so
 * bytes that arrive while the firmware is printing (at 3 Mbaud a byte every
 * 80 cycles) are not lost to rx_overrun; uart_getc reads the ring first. */
#include "hpm_soc.h"
#include "hpm_lib.h"

#define RX_RING 64u /* power of two */
static uint8_t rx_ring[RX_RING];
static unsigned rx_head, rx_tail; /* head: next write, tail: next read */

static void rx_stash(uint8_t c)
{
	unsigned next = (rx_head + 1u) & (RX_RING - 1u);
	if (next != rx_tail) { /* full: drop the newest byte */
		rx_ring[rx_head] = c;
		rx_head = next;
	}
}

void uart_putc(char c)
{
	/* A write while tx_busy is ignored by the UART, so wait for idle first. */
	for (;;) {
		uint32_t st = UART_STATUS;
		if (st & UART_STATUS_RX_VALID)
			rx_stash((uint8_t)UART_DATA);
		if (!(st & UART_STATUS_TX_BUSY))
			break;
	}
	UART_DATA = (uint8_t)c;
}

void uart_puts(const char *s)
{
	while (*s)
		uart_putc(*s++);
}

int uart_getc(void)
{
	if (rx_tail != rx_head) {
		int c = rx_ring[rx_tail];
		rx_tail = (rx_tail + 1u) & (RX_RING - 1u);
		return c;
	}
	if (!(UART_STATUS & UART_STATUS_RX_VALID))
		return -1;
	return (int)(UART_DATA & 0xffu);
}

int uart_getc_blocking(void)
{
	int c;
	while ((c = uart_getc()) < 0)
		;
	return c;
}

int putchar(int c)
{
	uart_putc((char)c);
	return (unsigned char)c;
}

int puts(const char *s)
{
	uart_puts(s);
	uart_putc('\n');
	return 0;
}
