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
				wait = left < 10 ? (int)left : 10;
			} else if (!b->aborting) {
				wait = 100;     /* a long run: look at hpm_interrupt now and then */
			}
			check_interrupt(b);
			if (b->aborting && now_ms() >= abort_at) {
				uint8_t ab = HPM_ABORT_BYTE;   /* repeated until the run ends */
				if (b->link->ops->write(b->link, &ab, 1))
					return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
				abort_at = now_ms() + 10;
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

/* Stop-and-wait over a link that loses, damages, duplicates and inserts
 * bytes (docs/protocol.md section 2.1): retransmits at once when a damaged
 * frame arrives, backs its time-out off while nothing arrives, fetches a
 * long reply (RUN, SNAPSHOT) in small slices from the monitor's reply cache
 * after a first attempt failed, and gives up after the give-up time-out
 * without progress. A reply is only ever used whole and CRC-checked. */
static int transact_lossy(hpm_board *b, uint8_t type, const void *body, size_t len,
			  uint8_t *rbody, size_t *rlen)
{
	uint8_t wire[HPM_MAX_WIRE + 1], fwire[32];
	struct hpm_frame f;
	uint8_t seq = next_seq(b), fseq = 0;
	/* a RUN's seq goes into the body of the FETCHes that ask about it
	 * while it may still run: never ABORT (build_fetch) */
	while (type == HPM_T_RUN && seq == HPM_ABORT_BYTE)
		seq = next_seq(b);
	int n = hpm_frame_build(type, seq, body, len, wire + 1, sizeof wire - 1);
	int fn = 0;

	if (n < 0)
		return hpm_fail(b, HPM_E_ARG, "%s: body too long", hpm_type_name(type));
	wire[0] = HPM_DELIM;
	b->last_req_seq = seq;
	const int base = reply_timeout(b, type == HPM_T_RUN ? HPM_T_PING : type, (size_t)n + 1);
	const int probe = type == HPM_T_RUN ? (base > 1000 ? base : 1000) : base;
	const int giveup = (int)b->opts.giveup_ms;
	/* long replies are fetched in slices from monitors that know FETCH */
	const int big = (type == HPM_T_RUN || type == HPM_T_SNAPSHOT) &&
			b->info.fw_version >= HPM_FW_FETCH;
	const size_t slice = 64;
	/* the short time-out: 3 x the exchange's bytes at the smoothed cost per
	 * byte of clean exchanges, plus 30 ms */
	size_t expect = n + 1 + (type == HPM_T_SNAPSHOT ? HPM_SNAPSHOT_LEN + 10 :
				 type == HPM_T_MEM_READ && len >= 8 ? hpm_get32((const uint8_t *)body + 4) + 14 : 32);
	int rto = b->us_per_byte ? 30 + (int)(3 * b->us_per_byte * expect / 1000) : base;
	if (rto > base)
		rto = base;
	int send_request = 1;
	size_t got_len = 0;
	unsigned attempts = 0, silent = 0;
	int64_t progress = now_ms(), sent_at = 0;
	int64_t req_sent_at = 0, req_lost0 = 0;   /* the request's last sending */

	const int64_t budget = b->opts.link_budget_ms;
	int lost = 0, heard = 0, stale = 0;

	for (;;) {
		/* the time an attempt that failed took is lost to the errors */
		if (lost)
			b->lost_ms += now_ms() - sent_at;
		lost = 0;
		if (now_ms() - progress > giveup)
			return hpm_fail(b, HPM_E_TIMEOUT, "link: gave up on %s (seq %u) after %d s without progress: "
					"%u attempts, %lu damaged frames (HPM_GIVEUP_MS raises the limit)",
					hpm_type_name(type), seq, giveup / 1000, attempts, b->bad_frames);
		if (hpm_lost_ms(b) > budget)
			return too_many_errors(b, type, seq, hpm_lost_ms(b));
		/* not a byte back after many attempts of a session's first
		 * exchanges: nobody is there (a board without its bitstream, a
		 * wrong device); later, a slow or busy board gets the give-up
		 * time-out */
		if (type != HPM_T_RUN && !heard && !b->heard_any && attempts >= HPM_SILENT_ATTEMPTS)
			return hpm_fail(b, HPM_E_TIMEOUT, "link: no reply to %s (seq %u) after %u attempts: not a byte came back",
					hpm_type_name(type), seq, attempts);
		if (b->attempt_limit && attempts >= b->attempt_limit)
			return hpm_fail(b, HPM_E_TIMEOUT, "link: no reply to %s (seq %u) after %u attempts",
					hpm_type_name(type), seq, attempts);
		const uint8_t *out = wire;
		size_t outn = (size_t)n + 1;
		if (send_request) {
			attempts++;
			b->last_attempts = attempts;
			if (attempts > 1)
				b->retransmits++;
		} else {
			if (!fn)
				fn = build_fetch(b, type, seq, got_len, slice, fwire, &fseq);
			out = fwire;
			outn = (size_t)fn;
			b->fetches++;
		}
		if (b->link->ops->write(b->link, out, outn))
			return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
		/* a RUN may take long: wait `probe` before asking the cache;
		 * otherwise back off from rto while nothing answers */
		int cap = type == HPM_T_RUN ? probe : 4 * rto;
		int timeout = type == HPM_T_RUN && send_request ? probe :
			(silent > 6 || rto << silent > cap ? cap : rto << silent);
		sent_at = now_ms();
		if (send_request) {
			req_sent_at = sent_at;
			req_lost0 = b->lost_ms;
		}
		int64_t deadline = sent_at + timeout;
		int64_t abort_at = 0;
		int again = 0;
		while (!again) {
			int64_t left = deadline - now_ms();
			/* the budget is a hard bound: an attempt that would be
			 * lost, or a repeat, ends when it runs out, not after */
			int64_t spent = hpm_lost_ms(b) + (type != HPM_T_RUN || got_len ? now_ms() - sent_at : 0);
			if (spent > budget)
				return too_many_errors(b, type, seq, spent);
			if (left <= 0) {
				/* nothing usable in time: probe the reply cache for a
				 * long reply, else send again; back off while silent */
				/* a RUN waiting for its end loses nothing */
				lost = type != HPM_T_RUN || got_len;
				if (big)
					send_request = 0;
				silent++;
				break;
			}
			check_interrupt(b);
			if ((b->aborting || stale) && now_ms() >= abort_at) {
				uint8_t ab = HPM_ABORT_BYTE;   /* repeated until the run ends */
				if (b->link->ops->write(b->link, &ab, 1))
					return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
				abort_at = now_ms() + 10;
			}
			int got = fill(b, left < 10 ? (int)left : 10);
			if (got < 0)
				return hpm_fail(b, HPM_E_LINK, "%s", b->link->err);
			heard |= got > 0;
			b->heard_any |= got > 0;
			while (b->rx_off < b->rx_len && !again) {
				int st = hpm_decoder_feed(&b->dec, b->rx[b->rx_off++], &f);
				if (st != HPM_PROTO_FRAME) {
					if (st == HPM_PROTO_OK)
						continue;
					/* a damaged frame: most likely the answer; for a
					 * RUN, ask the cache whether the run has ended */
					b->bad_frames++;
					silent = 0;
					lost = 1;
					if (type == HPM_T_RUN && !big)
						continue;   /* wait: it may still run */
					if (type == HPM_T_RUN)
						send_request = 0;
					again = 1;
					continue;
				}
				if (f.type == HPM_T_BOOT && type == HPM_T_HELLO) {
					send_request = 1;
					again = 1;
					continue;
				}
				if (f.type == HPM_T_BOOT)
					return hpm_fail(b, HPM_E_RESET, "link: board reset during %s",
							hpm_type_name(type));
				if (!send_request && f.seq == fseq) {
					/* a slice of the cached reply */
					silent = 0;
					fn = 0;
					if (!f.len && !got_len) {
						/* never executed: the request was lost,
						 * and all the time since it was sent (a
						 * RUN waits long before it asks) */
						b->lost_ms = lost_since(b->lost_ms, req_sent_at, req_lost0);
						lost = 0;   /* counted here, whole */
						send_request = 1;
						again = 1;
						continue;
					}
					progress = now_ms();
					if (f.type == HPM_T_ERROR && f.len && f.body[0] == HPM_ERR_BAD_CRC) {
						again = 1;          /* the FETCH was damaged */
						lost = 1;
						continue;
					}
					if (f.type == HPM_T_ERROR && !got_len) {
						memcpy(rbody, f.body, f.len);
						got_len = f.len;
						f.len = 0;
					} else if (f.type != (type | HPM_T_REPLY) || got_len + f.len > HPM_MAX_BODY) {
						return hpm_fail(b, HPM_E_PROTOCOL, "link: bad slice of the %s reply",
								hpm_type_name(type));
					}
					memcpy(rbody + got_len, f.body, f.len);
					got_len += f.len;
					if (f.len == slice) {
						again = 1;          /* the next slice */
						continue;
					}
					if (f.type == HPM_T_ERROR) {
						int r = error_reply(b, type, rbody, got_len);
						if (r < 0)
							return r;
						send_request = 1;   /* unreadable: ask again */
						got_len = 0;
						again = 1;
						continue;
					}
					*rlen = got_len;
					return HPM_OK;
				}
				if (f.seq != seq) {
					/* late or duplicated; or a run that an earlier
					 * session left (its host was killed) streams or
					 * answers our bytes BUSY: ABORT it at its next
					 * tick, then ask again */
					if (type != HPM_T_RUN && stale_run_frame(&f)) {
						stale = 1;
						progress = now_ms();
					} else if (stale && f.type == (HPM_T_RUN | HPM_T_REPLY)) {
						stale = 0;
						b->stale_runs++;
						if (b->opts.trace)
							fprintf(stderr, "link-trace: a run of an earlier session (seq %u) was aborted\n", f.seq);
						send_request = 1;
						again = 1;
					}
					continue;
				}
				if (b->on_frame && b->on_frame(b, &f)) {
					progress = now_ms();
					deadline = now_ms() + timeout;
					continue;
				}
				if (f.type == HPM_T_ERROR) {
					int r = error_reply(b, type, f.body, f.len);
					if (r < 0)
						return r;
					if (r == 1) {
						send_request = 1;
						again = 1;
						lost = 1;
					} else if (r == 2) {
						progress = now_ms();    /* still running */
						deadline = now_ms() + timeout;
					}
					continue;
				}
				if (f.type != (type | HPM_T_REPLY))
					continue;
				if (send_request && attempts == 1 && type != HPM_T_RUN) {
					uint32_t us = (uint32_t)((now_ms() - sent_at) * 1000 / (int64_t)(n + 11 + f.len)) + 1;
					b->us_per_byte = b->us_per_byte ? (7 * b->us_per_byte + us) / 8 : us;
				}
				memcpy(rbody, f.body, f.len);
				*rlen = f.len;
				return HPM_OK;
			}
		}
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

