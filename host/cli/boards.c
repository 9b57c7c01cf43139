/* hpmctl boards: the USB boards attached to this host, each asked for its
 * firmware and HPM configuration (HELLO), with the --link that picks it. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "hpmctl.h"

#define MAX_BOARDS 64

static const char boards_help[] =
	"usage: hpmctl boards [-j|--json] [--no-hello]\n\n"
	"Lists the USB boards (FT2232H 0403:6010) attached to this host: serial\n"
	"number, port path (bus-port, stays with the socket), bus and device\n"
	"number, and from the board's handshake its firmware version, HPM counters\n"
	"and whether its event catalogue matches this hpmctl. The last column is\n"
	"the --link that picks the board (usb::SERIAL). A board that does not\n"
	"answer (no bitstream, or another program has it) is listed with the reason.\n"
	"Exits 0 whether or not boards are attached; 1 if USB cannot be read.\n\n"
	"  -j, --json     one JSON object per board\n"
	"  --no-hello     do not talk to the boards (serial numbers and ports only)\n";

struct hello {
	int rc;                /* hpm_open's result */
	char err[256];
	hpm_info in;           /* when rc == HPM_OK */
};

static void say_hello(const hpm_usb_board *u, struct hello *h)
{
	hpm_open_opts o = { 0 };
	hpm_board *b = NULL;

	h->err[0] = 0;
	h->rc = hpm_open(&b, u->link, &o, h->err, sizeof h->err);
	if (h->rc == HPM_OK) {
		h->in = *hpm_get_info(b);
		h->in.link = NULL;     /* owned by b */
		hpm_close(b);
	}
}

/* "ok", or why the board cannot be used */
static const char *status_of(const hpm_usb_board *u, const struct hello *h, int hello)
{
	if (u->why[0])
		return "no-access";
	if (!u->link[0])
		return "no-serial";
	if (!hello)
		return "not-asked";
	if (h->rc == HPM_E_CONFIG)
		return "refused";
	return h->rc == HPM_OK ? "ok" : "no-answer";
}

int cmd_boards(const struct cli *c, int argc, char **argv)
{
	enum { OPT_NO_HELLO = OPT_FIRST_FREE };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "no-hello", no_argument, NULL, OPT_NO_HELLO },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	hpm_usb_board *u;
	size_t n;
	int json = 0, hello = 1, opt, rc;
	char err[256];

	(void)c;
	const struct cmd_opts co = { "boards", boards_help, ":jh", longopts, NULL };
	while ((opt = next_option(&co, argc, argv, &rc)) > 0) {
		if (opt == 'j')
			json = 1;
		else
			hello = 0;    /* --no-hello */
	}
	if (!opt || (rc = no_operands("boards", argc, argv)))
		return rc;
	if (!(u = calloc(MAX_BOARDS, sizeof *u)))
		return fail("out of memory");
	if (hpm_usb_list(u, MAX_BOARDS, &n, err, sizeof err) != HPM_OK) {
		free(u);
		return fail("boards: %s", err);
	}
	if (n > MAX_BOARDS) {
		fprintf(stderr, "hpmctl: boards: %zu boards attached, only the first %d listed\n", n, MAX_BOARDS);
		n = MAX_BOARDS;
	}
	if (!json)
		printf(n ? "%zu USB board%s (FT2232H 0403:6010):\n" : "no USB boards attached (FT2232H 0403:6010)\n",
		       n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		struct hello h = { .rc = HPM_E_LINK };
		int asked = hello && !u[i].why[0] && u[i].link[0];
		if (asked)
			say_hello(&u[i], &h);
		const char *st = status_of(&u[i], &h, hello);
		const char *why = u[i].why[0] ? u[i].why : !u[i].link[0] ? "the chip reports no serial number" : h.err;
		if (json) {
			printf("{\"serial\" : ");
			json_string(stdout, u[i].serial);
			printf(", \"port\" : ");
			json_string(stdout, u[i].port);
			printf(", \"bus\" : %u, \"address\" : %u, \"link\" : ", u[i].bus, u[i].address);
			json_string(stdout, u[i].link);
			printf(", \"status\" : \"%s\"", st);
			if (h.rc == HPM_OK)
				printf(", \"firmware\" : \"%u.%u\", \"protocol\" : %u, \"hpm-num\" : %u, \"hpm-width\" : %u, "
				       "\"clock-hz\" : %u, \"event-hash\" : \"0x%016llx\"",
				       h.in.fw_version >> 8, h.in.fw_version & 0xff, h.in.proto_version,
				       h.in.hpm_num, h.in.hpm_width, (unsigned)h.in.clock_hz,
				       (unsigned long long)h.in.event_hash);
			else if (strcmp(st, "not-asked")) {
				printf(", \"error\" : ");
				json_string(stdout, why);
			}
			printf("}\n");
			continue;
		}
		printf("  %-16s port %-8s bus %u dev %-3u  ", u[i].serial[0] ? u[i].serial : "(no serial)",
		       u[i].port, u[i].bus, u[i].address);
		if (h.rc == HPM_OK)
			printf("firmware %u.%u, %u x %u-bit counters, %.6g MHz", h.in.fw_version >> 8,
			       h.in.fw_version & 0xff, h.in.hpm_num, h.in.hpm_width, h.in.clock_hz / 1e6);
		else if (!strcmp(st, "not-asked"))
			printf("(not asked)");
		else
			printf("%s: %s", st, why);
		printf(u[i].link[0] ? "  --link %s\n" : "\n", u[i].link);
	}
	free(u);
	return EXIT_OK;
}
