/* The monitor's end of the link (docs/protocol.md section 1): frames out
 * through the UART, UART bytes in through the frame decoder. */
#include "hpm_soc.h"
#include "monitor.h"

static struct hpm_decoder dec;

void uart_flush(void)
{
	while (UART_STATUS & UART_STATUS_TX_BUSY)
		;
}

static void uart_put(void *ctx, uint8_t c)
{
	(void)ctx;
	uart_flush();
	UART_DATA = c;
}

void link_init(void)
{
	hpm_decoder_init(&dec);
	uart_put(0, HPM_DELIM);
}

void send_frame(uint8_t type, uint8_t seq, const void *body, size_t len)
{
	hpm_frame_emit(type, seq, body, len, uart_put, 0);
}

void send_error(uint8_t seq, uint8_t code, uint8_t req_type)
{
	struct hpm_msg_error e = { .code = code, .req_type = req_type, .arg = 0 };
	uint8_t eb[HPM_ERROR_LEN];

	send_frame(HPM_T_ERROR, seq, eb, hpm_pack_error(eb, &e));
}

uint8_t run_flags;

void send_record(uint8_t type, uint8_t seq, const void *body, size_t len)
{
	for (unsigned k = 0; k <= (run_flags >> 1 & 1u); k++)
		send_frame(type, seq, body, len);
}

int link_byte(void)
{
	return UART_STATUS & UART_STATUS_RX_VALID ? (int)(uint8_t)UART_DATA : -1;
}

int link_receive(struct hpm_frame *f)
{
	int c = link_byte();
	return c < 0 ? HPM_PROTO_OK : hpm_decoder_feed(&dec, (uint8_t)c, f);
}
