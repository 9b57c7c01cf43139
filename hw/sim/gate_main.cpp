// hpm-sim-gate: the iCEBreaker build's own netlist as a simulated board.
// Verilator runs the gate-level netlist that yosys wrote for the board
// (icebreaker_top: SB_LUT4, SB_CARRY, SB_DFF*, SB_RAM40_4K, SB_SPRAM256KA and
// SB_MAC16 cells from yosys' iCE40 simulation models), with the monitor in
// the firmware EBR exactly as icebram puts it into the bitstream
// (docs/board.md, "Gate-level board"). The PLL is a pass-through: the
// oscillator pin is the SoC clock, one call of step() per SoC cycle. The UART
// pins are bridged to stdin/stdout at the board's divider, so libhpm drives
// it like hpm-sim (HPM_SIM=build/bin/hpm-sim-gate, --link sim).
#include "Vicebreaker_top.h"
#include "verilated.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

#include "uart_bridge.h"

#if !defined(GATE_UART_DIV) || !defined(HPM_NUM) || !defined(HPM_WIDTH)
#error "GATE_UART_DIV, HPM_NUM and HPM_WIDTH must be the board build's (mk/board.mk)"
#endif

static const uint64_t DRAIN_CYCLES = 200000; // idle cycles after stdin EOF

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hpm-sim-gate [options]\n"
		"  --max-cycles N   stop after N cycles (default: until stdin ends)\n"
		"  --stats          print 'hpm-stats: cycles=C' to stderr at exit\n"
		"  --hpm-config     print the netlist's HPM_NUM HPM_WIDTH and exit\n"
		"  --help           this text\n"
		"The board's UART is attached to stdin/stdout (the link protocol).\n"
		"exit status: 0 stdin ended and the board went idle, 2 out of cycles,\n"
		"3 usage error\n");
}

int main(int argc, char **argv)
{
	uint64_t max_cycles = UINT64_MAX;
	bool stats = false;
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		if (a == "--max-cycles" && i + 1 < argc) {
			char *end;
			max_cycles = strtoull(argv[++i], &end, 0);
			if (*end || !*argv[i]) {
				fprintf(stderr, "hpm-sim-gate: bad --max-cycles '%s'\n", argv[i]);
				return 3;
			}
		} else if (a == "--stats") {
			stats = true;
		} else if (a == "--hpm-config") {
			printf("%d %d\n", HPM_NUM, HPM_WIDTH);
			return 0;
		} else if (a == "--help" || a == "-h") {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "hpm-sim-gate: unknown option '%s' (see --help)\n", argv[i]);
			return 3;
		}
	}

	Verilated::commandArgs(1, argv);
	Vicebreaker_top *top = new Vicebreaker_top;
	UartTx utx{ GATE_UART_DIV };
	UartRx urx{ GATE_UART_DIV };
	fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);

	// the button released, reset comes from the top's own reset counter
	top->BTN_N = 1;
	top->BTN = 0;
	top->RX = 1;
	int rc = 2;
	uint64_t cycle = 0, idle = 0;
	for (; cycle < max_cycles; cycle++) {
		urx.tick(cycle);
		top->RX = (uint8_t)urx.line;
		top->CLK = 0;
		top->eval();
		utx.tick(top->TX);
		top->CLK = 1;
		top->eval();
		if (urx.drained()) {
			idle = top->TX ? idle + 1 : 0;
			if (idle >= DRAIN_CYCLES) {
				rc = 0;
				break;
			}
		}
	}
	if (stats)
		fprintf(stderr, "hpm-stats: cycles=%llu\n", (unsigned long long)cycle);
	top->final();
	delete top;
	return rc;
}
