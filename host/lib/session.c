/* The host end of the link protocol: framing, stop-and-wait requests with
 * the documented timeouts and retries, and the frames that arrive in
 * between (docs/protocol.md sections 1, 2): BOOT here, the others with the
 * request's seq through b->on_frame (a run's, run.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "hpm_int.h"

const char *hpm_type_name(uint8_t type)
{
	static const char *const names[] = {
		"?", "HELLO", "PING", "CSR_READ", "CSR_WRITE", "MEM_READ", "MEM_WRITE",
		"RUN", "SNAPSHOT", "STREAM", "STREAM_STOP", "RESET", "FETCH",
	};
	return type < sizeof names / sizeof names[0] ? names[type] : "?";
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reply timeout in ms (-1: none), docs/protocol.md section 2. */
static int reply_timeout(const hpm_board *b, uint8_t type, size_t wire)
{
	const struct hpm_link *l = b->link;
	if (b->opts.timeout_ms && type != HPM_T_RUN)
		return (int)b->opts.timeout_ms;
	if (type == HPM_T_RUN)
		return -1;      /* bounded by the budget; a pipe loses nothing */
	if (!l->baud)
		return 5000;    /* sim, ref */
	return (int)(100 + 2 * (wire + HPM_MAX_WIRE) * 10 * 1000 / l->baud);
}

/* hpm_interrupt during a request that can be aborted (b->abortable: a run
 * with ticks): ABORT it at its next tick */
static void check_interrupt(hpm_board *b)
{
	if (b->interrupt && b->abortable)
		b->aborting = 1;
}

/* The next request's seq: never the one the monitor may have cached. */
static uint8_t next_seq(hpm_board *b)
{
	if (++b->seq == b->last_req_seq)
		++b->seq;
	return b->seq;
}

/* Refills b->rx if it is empty: > 0 bytes waiting, 0 on timeout, -1 on a
 * link error. Bytes after a frame stay buffered for the next caller. */
static int fill(hpm_board *b, int timeout_ms)
{
	if (b->rx_off < b->rx_len)
		return (int)(b->rx_len - b->rx_off);
	int n = b->link->ops->read(b->link, b->rx, sizeof b->rx, timeout_ms);
	b->rx_off = 0;
	b->rx_len = n > 0 ? (size_t)n : 0;
	return n;
}

int hpm_wait_boot(hpm_board *b, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct hpm_frame f;

	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return hpm_fail(b, HPM_E_TIMEOUT, "%s: no BOOT frame within %d ms (is it an hpm-overlay board?)",
					b->link->name, timeout_ms);
		int n = fill(b, (int)left);
		if (n < 0)
			return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
		while (b->rx_off < b->rx_len)
			if (hpm_decoder_feed(&b->dec, b->rx[b->rx_off++], &f) == HPM_PROTO_FRAME &&
			    f.type == HPM_T_BOOT)
				return HPM_OK;
	}
}

/* the timing of an exchange (docs/protocol.md 2.1) */
#define FETCH_SLICE    64    /* bytes per FETCH of a long reply: a damaged slice is cheap to ask again */
#define RTO_BYTES_X    3     /* the short time-out: 3 x the exchange's bytes at the measured cost per byte, */
#define RTO_FLOOR_MS   30    /*   plus this (host scheduling, USB latency) */
#define REPLY_GUESS    32    /* a reply's bytes when its length is not known in advance */
#define FRAME_COST     11    /* delimiters, headers and CRCs of a request and its reply */
#define RUN_PROBE_MS   1000  /* a RUN asks the reply cache no sooner than this */
#define BACKOFF_MAX    6     /* silent attempts double the time-out at most this often, up to 4 x rto */
#define POLL_MS        10    /* the link is read in slices this long: Ctrl-C and ABORT stay timely */
#define ABORT_EVERY_MS 10    /* ABORT is repeated this often until the run's reply comes (protocol 4) */

static int transact_pipe(hpm_board *b, uint8_t type, const void *body, size_t len,
		 uint8_t *rbody, size_t *rlen)
{
	uint8_t wire[HPM_MAX_WIRE + 1];
	struct hpm_frame f;
	uint8_t seq = b->last_req_seq = ++b->seq;
	int n = hpm_frame_build(type, seq, body, len, wire + 1, sizeof wire - 1);

	if (!b->link)
		return hpm_fail(b, HPM_E_LINK, "link is closed");
	if (n < 0)
		return hpm_fail(b, HPM_E_ARG, "%s: body too long", hpm_type_name(type));
	wire[0] = HPM_DELIM;
	int timeout = reply_timeout(b, type, (size_t)n + 1);

	for (int attempt = 1; attempt <= HPM_ATTEMPTS; attempt++) {
		if (b->link->ops->write(b->link, wire, (size_t)n + 1))
			return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
		int64_t deadline = timeout < 0 ? -1 : now_ms() + timeout;
		int64_t abort_at = 0;
		int retransmit = 0;
		while (!retransmit) {
			int wait = 10;
			if (deadline >= 0) {
				int64_t left = deadline - now_ms();
				if (left <= 0)
					break;
				wait = left < POLL_MS ? (int)left : POLL_MS;
			} else if (!b->aborting) {
				wait = 100;     /* a long run: look at hpm_interrupt now and then */
			}
			check_interrupt(b);
			if (b->aborting && now_ms() >= abort_at) {
				uint8_t ab = HPM_ABORT_BYTE;   /* repeated until the run ends */
				if (b->link->ops->write(b->link, &ab, 1))
					return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
				abort_at = now_ms() + ABORT_EVERY_MS;
			}
			int got = fill(b, wait);
			if (got < 0)
				return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
			while (b->rx_off < b->rx_len) {
				int st = hpm_decoder_feed(&b->dec, b->rx[b->rx_off++], &f);
				if (st != HPM_PROTO_FRAME)
					continue;       /* bad frames: wait for the timeout */
				if (f.type == HPM_T_BOOT && type == HPM_T_HELLO) {
					/* a board that just started may have lost the
					 * request while booting: send it again */
					retransmit = 1;
					break;
				}
				if (f.type == HPM_T_BOOT)
					return hpm_fail(b, HPM_E_RESET, "link: board reset during %s",
							hpm_type_name(type));
				if (f.seq != seq)
					continue;       /* late or duplicated reply */
				if (b->on_frame && b->on_frame(b, &f)) {
					if (deadline >= 0)
						deadline = now_ms() + timeout;
					continue;
				}
				if (f.type == HPM_T_ERROR) {
					struct hpm_msg_error e;
					if (hpm_unpack_error(f.body, f.len, &e) != HPM_PROTO_OK)
						continue;
					if (e.code == HPM_ERR_BAD_CRC) {
						retransmit = 1;
						break;
					}
					if (e.code == HPM_ERR_BUSY && type == HPM_T_RUN)
						continue;
					b->err_code = e.code;
					b->err_arg = e.arg;
					return hpm_fail(b, HPM_E_BOARD, "board: %s refused: error 0x%02x, arg 0x%x",
							hpm_type_name(type), e.code, (unsigned)e.arg);
				}
				if (f.type != (type | HPM_T_REPLY))
					continue;
				memcpy(rbody, f.body, f.len);
				*rlen = f.len;
				return HPM_OK;
			}
		}
	}
	return hpm_fail(b, HPM_E_TIMEOUT, "link: no reply to %s (seq %u) after %d attempts of %d ms (a slow link needs a longer HPM_TIMEOUT_MS)",
			hpm_type_name(type), seq, HPM_ATTEMPTS, timeout);
}


int64_t hpm_now_ms(void)
{
	return now_ms();
}

void hpm_repeat_begin(hpm_board *b)
{
	if (!b->repeat_depth++) {
		b->repeat_t0 = now_ms();
		b->repeat_lost0 = b->lost_ms;
	}
}

void hpm_repeat_end(hpm_board *b)
{
	if (b->repeat_depth && !--b->repeat_depth) {
		b->lost_ms = hpm_lost_ms(b);
		b->repeat_t0 = 0;
	}
}

/* Time lost counted whole since t0, when lost0 had been lost: the larger
 * of that and what is counted now (failures inside it are part of it, not
 * added to it). */
static int64_t lost_since(int64_t lost, int64_t t0, int64_t lost0)
{
	int64_t whole = lost0 + now_ms() - t0;
	return whole > lost ? whole : lost;
}

/* A repeat in progress is lost time, as far as it has run. */
int64_t hpm_lost_ms(const hpm_board *b)
{
	return b->repeat_t0 ? lost_since(b->lost_ms, b->repeat_t0, b->repeat_lost0) : b->lost_ms;
}

int hpm_budget_spent(const hpm_board *b)
{
	return hpm_lost_ms(b) > b->opts.link_budget_ms;
}

/* A FETCH of n bytes at off of the reply cached for seq s, with a seq of
 * its own. For a RUN its bytes avoid ABORT, which a monitor still running
 * it would read at a tick (section 4): the RUN's own seq, which the body
 * carries, is never ABORT (transact_lossy), and the FETCH's seq and CRC
 * vary until no byte is. */
static int build_fetch(hpm_board *b, uint8_t type, uint8_t s, size_t off, size_t n,
		       uint8_t *wire, uint8_t *fseq)
{
	uint8_t body[3] = { s, (uint8_t)(off / 4), (uint8_t)n };
	for (;;) {
		*fseq = next_seq(b);
		if (*fseq == s)
			continue;
		int w = hpm_frame_build(HPM_T_FETCH, *fseq, body, sizeof body, wire + 1, HPM_MAX_WIRE);
		int clean = 1;
		for (int i = 0; i < w && type == HPM_T_RUN; i++)
			if (wire[1 + i] == HPM_ABORT_BYTE)
				clean = 0;
		if (clean) {
			wire[0] = HPM_DELIM;
			return w + 1;
		}
	}
}

/* An ERROR reply to the outstanding request: < 0 the error to return,
 * 1 retransmit at once (BAD_CRC), 2 a RUN still running (BUSY), 0 ignore. */
static int error_reply(hpm_board *b, uint8_t type, const uint8_t *body, size_t len)
{
	struct hpm_msg_error e;
	if (hpm_unpack_error(body, len, &e) != HPM_PROTO_OK)
		return 0;
	if (e.code == HPM_ERR_BAD_CRC)
		return 1;
	if (e.code == HPM_ERR_BUSY && type == HPM_T_RUN)
		return 2;
	b->err_code = e.code;
	b->err_arg = e.arg;
	return hpm_fail(b, HPM_E_BOARD, "board: %s refused: error 0x%02x, arg 0x%x",
			hpm_type_name(type), e.code, (unsigned)e.arg);
}

/* A frame that only a running workload sends: its output, samples and
 * records, and BUSY for bytes that arrive while it runs. */
static int stale_run_frame(const struct hpm_frame *f)
{
	struct hpm_msg_error e;
	if (f->type == HPM_T_ERROR)
		return hpm_unpack_error(f->body, f->len, &e) == HPM_PROTO_OK && e.code == HPM_ERR_BUSY;
	return f->type == HPM_T_OUTPUT || f->type == HPM_T_OUTPUT + 1 || f->type == HPM_T_SAMPLE ||
	       f->type == HPM_T_PROFILE || f->type == HPM_T_REGION;
}

static int too_many_errors(hpm_board *b, uint8_t type, uint8_t seq, int64_t lost)
{
	return hpm_fail(b, HPM_E_TIMEOUT, "link: too many errors: %lld s lost to %lu retransmissions and %lu damaged frames, during %s (seq %u) (HPM_LINK_BUDGET_MS raises the limit)",
			(long long)(lost / 1000), b->retransmits + b->fetches, b->bad_frames,
			hpm_type_name(type), seq);
}

/* One exchange on a lossy link: what transact_lossy's steps share. */
struct xfer {
	uint8_t type, seq, fseq;       /* the request; the outstanding FETCH's seq */
	uint8_t wire[HPM_MAX_WIRE + 1], fwire[32];
	size_t n, fn;                  /* their bytes (fn 0: no FETCH built yet) */
	int base, probe, rto, big;     /* time-outs (ms); long replies come by FETCH */
	int send_request;              /* 1: (re)send the request, 0: FETCH a slice */
	size_t got_len;                /* bytes of the reply fetched so far */
	unsigned attempts, silent;     /* requests sent; attempts without a byte */
	int64_t progress, sent_at;     /* the last progress; this attempt's start */
	int64_t req_sent_at, req_lost0; /* the request's last sending, lost time then */
	int timeout, again;            /* this attempt's time-out; 1: it is over */
	int64_t deadline;
	int lost, heard, stale;        /* the attempt failed; a byte came; a stale run */
	uint8_t *rbody;
	size_t *rlen;
};

/* Before each attempt: the failed one's time is lost, and the limits. */
static int xfer_check(hpm_board *b, struct xfer *x)
{
	if (x->lost)
		b->lost_ms += now_ms() - x->sent_at;
	x->lost = 0;
	if (now_ms() - x->progress > (int64_t)b->opts.giveup_ms)
		return hpm_fail(b, HPM_E_TIMEOUT, "link: gave up on %s (seq %u) after %u s without progress: "
				"%u attempts, %lu damaged frames (HPM_GIVEUP_MS raises the limit)",
				hpm_type_name(x->type), x->seq, b->opts.giveup_ms / 1000, x->attempts, b->bad_frames);
	if (hpm_lost_ms(b) > (int64_t)b->opts.link_budget_ms)
		return too_many_errors(b, x->type, x->seq, hpm_lost_ms(b));
	/* not a byte back after many attempts of a session's first exchanges:
	 * nobody is there (a board without its bitstream, a wrong device);
	 * later, a slow or busy board gets the give-up time-out */
	if (x->type != HPM_T_RUN && !x->heard && !b->heard_any && x->attempts >= HPM_SILENT_ATTEMPTS)
		return hpm_fail(b, HPM_E_TIMEOUT, "link: no reply to %s (seq %u) after %u attempts: not a byte came back",
				hpm_type_name(x->type), x->seq, x->attempts);
	if (b->attempt_limit && x->attempts >= b->attempt_limit)
		return hpm_fail(b, HPM_E_TIMEOUT, "link: no reply to %s (seq %u) after %u attempts",
				hpm_type_name(x->type), x->seq, x->attempts);
	return HPM_OK;
}

/* One attempt: the request, or a FETCH of the reply's next slice. */
static int xfer_send(hpm_board *b, struct xfer *x)
{
	const uint8_t *out = x->wire;
	size_t outn = x->n;

	if (x->send_request) {
		x->attempts++;
		b->last_attempts = x->attempts;
		if (x->attempts > 1)
			b->retransmits++;
	} else {
		if (!x->fn)
			x->fn = (size_t)build_fetch(b, x->type, x->seq, x->got_len, FETCH_SLICE, x->fwire, &x->fseq);
		out = x->fwire;
		outn = x->fn;
		b->fetches++;
	}
	if (b->link->ops->write(b->link, out, outn))
		return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
	/* a RUN may take long: wait `probe` before asking the cache;
	 * otherwise back off from rto while nothing answers */
	int cap = x->type == HPM_T_RUN ? x->probe : 4 * x->rto;
	x->timeout = x->type == HPM_T_RUN && x->send_request ? x->probe :
		(x->silent > BACKOFF_MAX || x->rto << x->silent > cap ? cap : x->rto << x->silent);
	x->sent_at = now_ms();
	if (x->send_request) {
		x->req_sent_at = x->sent_at;
		x->req_lost0 = b->lost_ms;
	}
	x->deadline = x->sent_at + x->timeout;
	x->again = 0;
	return HPM_OK;
}

/* A slice of the cached reply (the FETCH's seq): 1 the reply is whole. */
static int xfer_slice(hpm_board *b, struct xfer *x, struct hpm_frame *f)
{
	x->silent = 0;
	x->fn = 0;
	if (!f->len && !x->got_len) {
		/* never executed: the request was lost, and all the time since
		 * it was sent (a RUN waits long before it asks) */
		b->lost_ms = lost_since(b->lost_ms, x->req_sent_at, x->req_lost0);
		x->lost = 0;        /* counted here, whole */
		x->send_request = 1;
		x->again = 1;
		return 0;
	}
	x->progress = now_ms();
	if (f->type == HPM_T_ERROR && f->len && f->body[0] == HPM_ERR_BAD_CRC) {
		x->again = 1;       /* the FETCH was damaged */
		x->lost = 1;
		return 0;
	}
	if (f->type == HPM_T_ERROR && !x->got_len) {
		memcpy(x->rbody, f->body, f->len);
		x->got_len = f->len;
		f->len = 0;
	} else if (f->type != (x->type | HPM_T_REPLY) || x->got_len + f->len > HPM_MAX_BODY) {
		return hpm_fail(b, HPM_E_PROTOCOL, "link: bad slice of the %s reply", hpm_type_name(x->type));
	}
	memcpy(x->rbody + x->got_len, f->body, f->len);
	x->got_len += f->len;
	if (f->len == FETCH_SLICE) {
		x->again = 1;       /* the next slice */
		return 0;
	}
	if (f->type == HPM_T_ERROR) {
		int r = error_reply(b, x->type, x->rbody, x->got_len);
		if (r < 0)
			return r;
		x->send_request = 1;        /* unreadable: ask again */
		x->got_len = 0;
		x->again = 1;
		return 0;
	}
	*x->rlen = x->got_len;
	return 1;
}

/* A frame with another seq: late or duplicated; or a run that an earlier
 * session left (its host was killed) streams or answers our bytes BUSY:
 * ABORT it at its next tick, then ask again. */
static void xfer_foreign(hpm_board *b, struct xfer *x, const struct hpm_frame *f)
{
	if (x->type != HPM_T_RUN && stale_run_frame(f)) {
		x->stale = 1;
		x->progress = now_ms();
	} else if (x->stale && f->type == (HPM_T_RUN | HPM_T_REPLY)) {
		x->stale = 0;
		b->stale_runs++;
		if (b->opts.trace)
			fprintf(stderr, "link-trace: a run of an earlier session (seq %u) was aborted\n", f->seq);
		x->send_request = 1;
		x->again = 1;
	}
}

/* One whole frame: < 0 an error, 1 the reply is in, 0 go on. */
static int xfer_frame(hpm_board *b, struct xfer *x, struct hpm_frame *f)
{
	if (f->type == HPM_T_BOOT && x->type == HPM_T_HELLO) {
		x->send_request = 1;
		x->again = 1;
		return 0;
	}
	if (f->type == HPM_T_BOOT)
		return hpm_fail(b, HPM_E_RESET, "link: board reset during %s", hpm_type_name(x->type));
	if (!x->send_request && f->seq == x->fseq)
		return xfer_slice(b, x, f);
	if (f->seq != x->seq) {
		xfer_foreign(b, x, f);
		return 0;
	}
	if (b->on_frame && b->on_frame(b, f)) {
		x->progress = now_ms();
		x->deadline = now_ms() + x->timeout;
		return 0;
	}
	if (f->type == HPM_T_ERROR) {
		int r = error_reply(b, x->type, f->body, f->len);
		if (r < 0)
			return r;
		if (r == 1) {
			x->send_request = 1;
			x->again = 1;
			x->lost = 1;
		} else if (r == 2) {
			x->progress = now_ms();     /* still running */
			x->deadline = now_ms() + x->timeout;
		}
		return 0;
	}
	if (f->type != (x->type | HPM_T_REPLY))
		return 0;
	if (x->send_request && x->attempts == 1 && x->type != HPM_T_RUN) {
		/* the cost per byte, smoothed over clean exchanges (7/8 old) */
		uint32_t us = (uint32_t)((now_ms() - x->sent_at) * 1000 / (int64_t)(x->n - 1 + FRAME_COST + f->len)) + 1;
		b->us_per_byte = b->us_per_byte ? (7 * b->us_per_byte + us) / 8 : us;
	}
	memcpy(x->rbody, f->body, f->len);
	*x->rlen = f->len;
	return 1;
}

/* The attempt's answer, until its time-out: < 0 an error, 1 the reply is
 * in, 0 the attempt is over. */
static int xfer_wait(hpm_board *b, struct xfer *x)
{
	struct hpm_frame f;
	int64_t abort_at = 0;

	while (!x->again) {
		int64_t left = x->deadline - now_ms();
		/* the budget is a hard bound: an attempt that would be lost, or
		 * a repeat, ends when it runs out, not after */
		int64_t spent = hpm_lost_ms(b) + (x->type != HPM_T_RUN || x->got_len ? now_ms() - x->sent_at : 0);
		if (spent > (int64_t)b->opts.link_budget_ms)
			return too_many_errors(b, x->type, x->seq, spent);
		if (left <= 0) {
			/* nothing usable in time: probe the reply cache for a long
			 * reply, else send again; back off while silent. A RUN
			 * waiting for its end loses nothing. */
			x->lost = x->type != HPM_T_RUN || x->got_len;
			if (x->big)
				x->send_request = 0;
			x->silent++;
			return 0;
		}
		check_interrupt(b);
		if ((b->aborting || x->stale) && now_ms() >= abort_at) {
			uint8_t ab = HPM_ABORT_BYTE;   /* repeated until the run ends */
			if (b->link->ops->write(b->link, &ab, 1))
				return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
			abort_at = now_ms() + ABORT_EVERY_MS;
		}
		int got = fill(b, left < POLL_MS ? (int)left : POLL_MS);
		if (got < 0)
			return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
		x->heard |= got > 0;
		b->heard_any |= got > 0;
		while (b->rx_off < b->rx_len && !x->again) {
			int st = hpm_decoder_feed(&b->dec, b->rx[b->rx_off++], &f);
			if (st == HPM_PROTO_FRAME) {
				int r = xfer_frame(b, x, &f);
				if (r)
					return r;
			} else if (st != HPM_PROTO_OK) {
				/* a damaged frame: most likely the answer; for a RUN,
				 * ask the cache whether the run has ended */
				b->bad_frames++;
				x->silent = 0;
				x->lost = 1;
				if (x->type == HPM_T_RUN && !x->big)
					continue;   /* wait: it may still run */
				if (x->type == HPM_T_RUN)
					x->send_request = 0;
				x->again = 1;
			}
		}
	}
	return 0;
}

/* Stop-and-wait over a link that loses, damages, duplicates and inserts
 * bytes (docs/protocol.md section 2.1): retransmits at once when a damaged
 * frame arrives, backs its time-out off while nothing arrives, fetches a
 * long reply (RUN, SNAPSHOT) in small slices from the monitor's reply cache
 * after a first attempt failed, and gives up after the give-up time-out
 * without progress. A reply is only ever used whole and CRC-checked. */
static int transact_lossy(hpm_board *b, uint8_t type, const void *body, size_t len,
			  uint8_t *rbody, size_t *rlen)
{
	struct xfer x = { .type = type, .send_request = 1, .rbody = rbody, .rlen = rlen };

	x.seq = next_seq(b);
	/* a RUN's seq goes into the body of the FETCHes that ask about it
	 * while it may still run: never ABORT (build_fetch) */
	while (type == HPM_T_RUN && x.seq == HPM_ABORT_BYTE)
		x.seq = next_seq(b);
	int n = hpm_frame_build(type, x.seq, body, len, x.wire + 1, sizeof x.wire - 1);
	if (n < 0)
		return hpm_fail(b, HPM_E_ARG, "%s: body too long", hpm_type_name(type));
	x.wire[0] = HPM_DELIM;
	x.n = (size_t)n + 1;
	b->last_req_seq = x.seq;
	x.base = reply_timeout(b, type == HPM_T_RUN ? HPM_T_PING : type, x.n);
	x.probe = type == HPM_T_RUN ? (x.base > RUN_PROBE_MS ? x.base : RUN_PROBE_MS) : x.base;
	x.big = (type == HPM_T_RUN || type == HPM_T_SNAPSHOT) && b->info.fw_version >= HPM_FW_FETCH;
	/* the short time-out, from the smoothed cost per byte of clean
	 * exchanges and the bytes this one moves (a reply's frame: 10 bytes
	 * around a SNAPSHOT, 14 around read memory) */
	size_t expect = x.n + (type == HPM_T_SNAPSHOT ? HPM_SNAPSHOT_LEN + 10 :
			       type == HPM_T_MEM_READ && len >= 8 ? hpm_get32((const uint8_t *)body + 4) + 14 :
			       REPLY_GUESS);
	x.rto = b->us_per_byte ? RTO_FLOOR_MS + (int)(RTO_BYTES_X * b->us_per_byte * expect / 1000) : x.base;
	if (x.rto > x.base)
		x.rto = x.base;
	x.progress = now_ms();
	for (;;) {
		int rc = xfer_check(b, &x);
		if (!rc)
			rc = xfer_send(b, &x);
		if (!rc)
			rc = xfer_wait(b, &x);
		if (rc)
			return rc < 0 ? rc : HPM_OK;
	}
}

int hpm_transact(hpm_board *b, uint8_t type, const void *body, size_t len,
		 uint8_t *rbody, size_t *rlen)
{
	if (!b->link)
		return hpm_fail(b, HPM_E_LINK, "link is closed");
	if (!b->link->baud)
		return transact_pipe(b, type, body, len, rbody, rlen);
	int trace = b->opts.trace;
	int64_t t0 = now_ms();
	unsigned long f0 = b->fetches, d0 = b->bad_frames;
	int rc = transact_lossy(b, type, body, len, rbody, rlen);
	if (trace)
		fprintf(stderr, "link-trace: %s %zu bytes: rc %d, %u attempts, %lu fetches, %lu damaged, %lld ms\n",
			hpm_type_name(type), len, rc, b->last_attempts, b->fetches - f0,
			b->bad_frames - d0, (long long)(now_ms() - t0));
	return rc;
}

