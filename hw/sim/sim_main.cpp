// hpm-sim: the simulated board. A thin Verilator harness around hpm_soc:
// loads an ELF (or the firmware monitor) into the memories, runs the clock,
// turns trace-port records into hpm_retire (halting on tohost, optional
// lockstep against the reference model) and connects the UART pins to
// stdin/stdout. Built per HPM configuration: HPM_NUM and HPM_WIDTH are the
// hpm_soc parameters of this binary (mk/hw.mk), passed on to the model.
#include "Vhpm_soc.h"
#include "Vhpm_soc__Syms.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

extern "C" {
#include "hpmref.h"
}

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

#include "uart_bridge.h"
#include "hpm_map.h"

enum { EXIT_PASS = 0,
	EXIT_FAIL = 1,
	EXIT_CYCLES = 2,
	EXIT_USAGE = 3 };

static const unsigned UART_DIV = HPM_SOC_UART_DIV; // hpm_soc's default (hw/soc/memmap.def)
#if !defined(HPM_NUM) || !defined(HPM_WIDTH)
#error "HPM_NUM and HPM_WIDTH must be the hpm_soc parameters of this build"
#endif
#ifndef HPM_TD
#define HPM_TD 0 // hpm_soc's default: no top-down unit (mk/hw.mk HW_SIM_TD)
#endif

// the event catalogue, "index name" per line
static void print_events(FILE *out)
{
#define HPM_EVENT(index, name, aliases, brief, definition) fprintf(out, "%d %s\n", index, name);
#include "events.def"
#undef HPM_EVENT
}
static const uint64_t DRAIN_CYCLES = 1000000; // idle cycles after stdin EOF

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hpm-sim [options]\n"
		"  --elf FILE         run FILE from RAM (core starts at its entry in M-mode)\n"
		"  --fw FILE          firmware ELF for the fw EBR when no --elf\n"
		"                     (default <bindir>/../fw/monitor.elf)\n"
		"  --max-cycles N     stop after N cycles (default 100000000 with --elf)\n"
		"  --signature FILE   write begin_signature..end_signature words after halt\n"
		"  --lockstep         compare every instruction with the reference model\n"
		"  --ref-fault N      (test only) break the lockstep model with fault N\n"
		"                     (HPMREF_FAULT_*), to show a divergence is caught\n"
		"  --stats            print 'hpm-stats: cycles=C instret=I' to stderr at exit\n"
		"  --trace FILE.vcd   dump a VCD waveform\n"
		"  --print-memmap     print the memory map and exit\n"
		"  --events           print the event catalogue (index name) and exit\n"
		"  --hpm-config       print this build's HPM_NUM HPM_WIDTH and exit\n"
		"  --help             this text\n"
		"A store of 1 to the ELF's tohost passes, any other value fails.\n"
		"Without --elf the UART is attached to stdin/stdout.\n"
		"exit status: 0 pass, 1 fail, 2 out of cycles, 3 usage or file error\n");
}

[[noreturn]] static void die_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "hpm-sim: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(EXIT_USAGE);
}

// ---- memories of the Verilator model (word arrays, see soc_fwram/soc_spram)
struct Board {
	Vhpm_soc *top;
	uint32_t *word(uint32_t addr)
	{
		Vhpm_soc__Syms *s = top->rootp->vlSymsp;
		if (addr - HPM_FW_BASE < HPM_FW_SIZE)
			return &s->TOP__hpm_soc__u_fwram.mem[(addr - HPM_FW_BASE) >> 2];
		if (addr - HPM_RAM_BASE < HPM_RAM_SIZE)
			return &s->TOP__hpm_soc__u_ram.mem[(addr - HPM_RAM_BASE) >> 2];
		return nullptr;
	}
};

static int board_write(void *ctx, uint32_t addr, const void *src, size_t len)
{
	Board *b = static_cast<Board *>(ctx);
	const uint8_t *p = static_cast<const uint8_t *>(src);
	for (size_t i = 0; i < len; i++) {
		uint32_t a = addr + (uint32_t)i;
		uint32_t *w = b->word(a);
		if (!w)
			return -1;
		unsigned sh = 8 * (a & 3u);
		*w = (*w & ~(0xFFu << sh)) | ((uint32_t)p[i] << sh);
	}
	return 0;
}

static int model_write(void *ctx, uint32_t addr, const void *src, size_t len)
{
	return hpmref_write_mem(static_cast<hpmref *>(ctx), addr, src, len);
}

static uint64_t parse_u64(const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || !*s || *end || *s == '-')
		die_usage("bad number", s);
	return v;
}

// this binary's path, "" if unknown
static std::string self_path()
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return "";
	buf[n] = 0;
	return buf;
}

static std::string default_fw()
{
	std::string dir = self_path();
	if (dir.empty())
		return "../fw/monitor.elf";
	dir = dir.substr(0, dir.rfind('/'));
	// the build tree, else an installed tree (make install)
	std::string installed = dir + "/../share/hpm-overlay/fw/monitor.elf";
	if (access((dir + "/../fw/monitor.elf").c_str(), F_OK) && !access(installed.c_str(), F_OK))
		return installed;
	return dir + "/../fw/monitor.elf";
}

int main(int argc, char **argv)
{
	const char *elf = nullptr, *sig = nullptr, *vcd = nullptr;
	std::string fw;
	uint64_t max_cycles = 0;
	bool have_max = false, lockstep = false, stats = false;
	unsigned ref_fault = HPMREF_FAULT_NONE;

	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		auto val = [&]() -> const char * {
			if (i + 1 >= argc)
				die_usage("missing argument for", argv[i]);
			return argv[++i];
		};
		if (a == "--elf")
			elf = val();
		else if (a == "--fw")
			fw = val();
		else if (a == "--max-cycles") {
			max_cycles = parse_u64(val());
			have_max = true;
		} else if (a == "--signature")
			sig = val();
		else if (a == "--trace")
			vcd = val();
		else if (a == "--lockstep")
			lockstep = true;
		else if (a == "--ref-fault")
			ref_fault = (unsigned)parse_u64(val());
		else if (a == "--stats")
			stats = true;
		else if (a == "--print-memmap") {
			hpm_print_memmap(stdout);
			return EXIT_PASS;
		} else if (a == "--events") {
			print_events(stdout);
			return EXIT_PASS;
		} else if (a == "--hpm-config") {
			printf("%d %d\n", HPM_NUM, HPM_WIDTH);
			return EXIT_PASS;
		} else if (a == "--help" || a == "-h") {
			usage(stdout);
			return EXIT_PASS;
		} else
			die_usage("unknown option (see --help)", argv[i]);
	}
	if (!elf && (lockstep || sig))
		die_usage("--lockstep and --signature need --elf", nullptr);
	if (elf && !fw.empty())
		die_usage("--fw and --elf exclude each other", nullptr);
	if (!have_max && elf)
		max_cycles = 100000000;
#if !VM_TRACE
	// built without VCD support for speed: the same board built with it,
	// <this binary>-trace beside it (make sim), runs with the same arguments
	if (vcd) {
		std::string traced = self_path() + "-trace";
		execv(traced.c_str(), argv);
		fprintf(stderr, "hpm-sim: --trace needs %s (make sim builds hpm-sim-trace): %s\n", traced.c_str(),
			strerror(errno));
		return EXIT_USAGE;
	}
#endif

	Verilated::commandArgs(1, argv);
	Board board{ new Vhpm_soc };
	Vhpm_soc *top = board.top;

	hpm_elf_info info;
	memset(&info, 0, sizeof info);
	char err[256];
	const char *image = elf;
	if (!elf) {
		if (fw.empty())
			fw = default_fw();
		image = fw.c_str();
	}
	if (hpm_elf_load(image, board_write, &board, &info, err, sizeof err)) {
		fprintf(stderr, "hpm-sim: %s\n", err);
		return EXIT_USAGE;
	}
	uint32_t boot_addr = elf ? info.entry : HPM_FW_BASE;

	hpmref *model = nullptr;
	hpm_lockstep *ls = nullptr;
	if (lockstep) {
		hpmref_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cfg.boot_addr = boot_addr;
		cfg.uart_div = UART_DIV;
		cfg.fault = ref_fault;
		cfg.hpm_num = HPM_NUM; // this build's hpm_soc parameters
		cfg.hpm_width = HPM_WIDTH;
		cfg.no_topdown = !HPM_TD;
		cfg.td_board = HPM_TD == 2;
		model = hpmref_new(&cfg);
		if (!model || hpm_elf_load(elf, model_write, model, &info, err, sizeof err)) {
			fprintf(stderr, "hpm-sim: %s\n", model ? err : "out of memory");
			return EXIT_USAGE;
		}
		ls = hpm_lockstep_new(model, 16);
	}

#if VM_TRACE
	VerilatedVcdC *tfp = nullptr;
	uint64_t simtime = 0;
	if (vcd) {
		Verilated::traceEverOn(true);
		tfp = new VerilatedVcdC;
		top->trace(tfp, 99);
		tfp->open(vcd);
		if (!tfp->isOpen()) {
			fprintf(stderr, "hpm-sim: cannot open %s\n", vcd);
			return EXIT_USAGE;
		}
	}
	auto step = [&](int clk) {
		top->clk = clk;
		top->eval();
		if (tfp)
			tfp->dump(simtime++);
	};
#else
	auto step = [&](int clk) {
		top->clk = clk;
		top->eval();
	};
#endif

	UartTx utx{ UART_DIV };
	UartRx urx{ UART_DIV };
	if (!elf)
		fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);

	top->boot_addr = boot_addr;
	top->uart_rx = 1;
	top->buttons = 0;
	top->rst = 1;
	for (int i = 0; i < 4; i++) {
		step(0);
		step(1);
	}
	top->rst = 0;

	int rc = EXIT_CYCLES;
	uint64_t cycle = 0, instret = 0, end_cycle = 0, idle = 0;
	for (;; cycle++) {
		if (have_max || elf) {
			if (cycle >= max_cycles)
				break;
		}
		if (!elf) {
			urx.tick(cycle);
			top->uart_rx = (uint8_t)urx.line;
		}
		step(0);
		utx.tick(top->uart_tx);
		if (top->trace_valid) {
			if (!top->trace_trap)
				instret++;
			// the whole record only for the lockstep (a plain run reads two fields)
			if (ls) {
				hpm_retire r;
				r.cycle = cycle;
				r.pc = top->trace_pc;
				r.insn = top->trace_insn;
				r.priv = top->trace_priv;
				r.trap = top->trace_trap;
				r.cause = top->trace_cause;
				r.tval = top->trace_tval;
				r.rd_we = top->trace_rd_we;
				r.rd = top->trace_rd_we ? top->trace_rd : 0;
				r.rd_val = top->trace_rd_we ? top->trace_rd_val : 0;
				r.csr_we = top->trace_csr_we;
				r.csr_addr = top->trace_csr_we ? top->trace_csr_addr : 0;
				r.csr_val = top->trace_csr_we ? top->trace_csr_val : 0;
				r.mem_we = top->trace_mem_we;
				r.mem_addr = r.mem_we ? top->trace_mem_addr : 0;
				r.mem_wdata = r.mem_we ? top->trace_mem_wdata : 0;
				r.mem_be = r.mem_we ? top->trace_mem_be : 0;
				if (hpm_lockstep_check(ls, &r, stderr)) {
					rc = EXIT_FAIL;
					end_cycle = cycle + 1;
					break;
				}
			}
			if (top->trace_mem_we && info.has_tohost && (top->trace_mem_addr & ~3u) == info.tohost) {
				uint32_t v = top->trace_mem_wdata;
				rc = v == 1 ? EXIT_PASS : EXIT_FAIL;
				if (rc != EXIT_PASS)
					fprintf(stderr, "hpm-sim: FAIL tohost=0x%08x\n", (unsigned)v);
				end_cycle = cycle + 1;
				break;
			}
		}
		step(1);
		if (!elf && urx.drained()) {
			idle = top->uart_tx ? idle + 1 : 0;
			if (idle >= DRAIN_CYCLES) {
				rc = EXIT_PASS;
				break;
			}
		}
	}
	if (rc == EXIT_CYCLES || (!elf && rc == EXIT_PASS))
		end_cycle = cycle;

	if (sig && rc != EXIT_CYCLES) {
		FILE *f = fopen(sig, "w");
		if (!f) {
			fprintf(stderr, "hpm-sim: cannot write %s: %s\n", sig, strerror(errno));
			rc = EXIT_USAGE;
		} else if (!info.has_sig) {
			fprintf(stderr, "hpm-sim: %s has no begin_signature/end_signature\n", elf);
			fclose(f);
			rc = EXIT_USAGE;
		} else {
			for (uint32_t a = info.sig_begin; a < info.sig_end; a += 4) {
				uint32_t *w = board.word(a);
				fprintf(f, "%08x\n", w ? *w : 0u);
			}
			fclose(f);
		}
	}
	if (stats)
		fprintf(stderr, "hpm-stats: cycles=%llu instret=%llu\n",
			(unsigned long long)end_cycle, (unsigned long long)instret);
	if (rc == EXIT_CYCLES)
		fprintf(stderr, "hpm-sim: out of cycles after %llu\n", (unsigned long long)cycle);

#if VM_TRACE
	if (tfp) {
		tfp->close();
		delete tfp;
	}
#endif
	if (ls)
		hpm_lockstep_free(ls);
	if (model)
		hpmref_free(model);
	top->final();
	delete top;
	return rc;
}
