// uart_bridge.h: the UART pins of a Verilator board <-> stdin/stdout, 8N1 at
// `div` clock cycles per bit. Shared by hpm-sim (sim_main.cpp) and the
// gate-level board hpm-sim-gate (gate_main.cpp).
#ifndef UART_BRIDGE_H
#define UART_BRIDGE_H

#include <cstdint>
#include <cstdio>
#include <unistd.h>

struct UartTx {         // decodes uart_tx, writes bytes to stdout
	unsigned div;   // clock cycles per bit
	int state = -1; // -1 idle, else cycles since the start bit began
	unsigned byte = 0;
	void tick(int line)
	{
		if (state < 0) {
			if (!line)
				state = 0;
			return;
		}
		state++;
		int bit = (state - (int)div / 2) / (int)div;
		if ((state - (int)div / 2) % (int)div == 0 && bit >= 1 && bit <= 8)
			byte |= (unsigned)line << (bit - 1);
		if (bit == 9 && (state - (int)div / 2) % (int)div == 0) {
			putchar((int)byte);
			fflush(stdout);
			byte = 0;
			state = -1;
		}
	}
};

struct UartRx {       // feeds stdin bytes into uart_rx, one frame at a time
	unsigned div; // clock cycles per bit
	bool eof = false;
	int bit = -1; // -1 idle, 0 start, 1..8 data, 9 stop
	unsigned cnt = 0, byte = 0;
	int line = 1;
	unsigned char buf[4096];
	size_t head = 0, len = 0;
	uint64_t next_poll = 0;
	bool drained() const
	{
		return eof && head == len && bit < 0;
	}
	void tick(uint64_t cycle)
	{
		if (bit < 0) {
			if (head == len) { // buffer empty: poll stdin
				if (eof || cycle < next_poll)
					return;
				ssize_t n = read(0, buf, sizeof buf);
				if (n <= 0) {
					eof = n == 0;
					next_poll = cycle + 1024; // nothing there: look again later
					return;
				}
				head = 0;
				len = (size_t)n;
			}
			byte = buf[head++];
			bit = 0;
			cnt = 0;
		}
		line = bit == 0 ? 0 : bit == 9 ? 1
					       : (int)((byte >> (bit - 1)) & 1u);
		if (++cnt == div) {
			cnt = 0;
			if (++bit == 10) {
				bit = -1;
				line = 1;
			}
		}
	}
};

#endif
