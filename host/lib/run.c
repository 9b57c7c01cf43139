/* Runs (docs/protocol.md section 6): the upload, main's arguments, interval
 * streaming, RUN and its result, and the frames the running workload sends
 * (output, samples, profile samples, region markers), which the transport
 * hands over through b->on_frame. Counters narrower than 64 bits are
 * extended here from the monitor's wrap counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hpm_int.h"

uint64_t hpm_extend(const hpm_info *in, uint64_t raw, uint32_t wraps)
{
	if (in->hpm_width >= 64)
		return raw;
	return ((uint64_t)wraps << in->hpm_width) + raw;
}

/* value[] of a SAMPLE-layout frame, the counters of its mask extended */
static void extend_values(const hpm_board *b, const struct hpm_msg_sample *s, uint64_t *value)
{
	for (unsigned n = 0; n < HPM_NUM_VALUES; n++)
		if (s->mask >> n & 1)
			value[n] = n < 3 ? s->value[n] : hpm_extend(&b->info, s->value[n], s->wraps[n]);
}

/* A SAMPLE during a RUN: extend, detect gaps, hand to the caller. */
static void deliver_sample(hpm_board *b, const struct hpm_frame *f)
{
	struct hpm_msg_sample s;
	hpm_sample out;

	if (!b->run_opts || hpm_unpack_sample(f->body, f->len, &s) != HPM_PROTO_OK)
		return;
	if (s.sample_seq < b->next_sample_seq)
		return;                 /* duplicate */
	memset(&out, 0, sizeof out);
	out.seq = s.sample_seq;
	out.lost = s.sample_seq - b->next_sample_seq;
	b->lost_samples += out.lost;
	b->next_sample_seq = s.sample_seq + 1;
	out.mask = s.mask;
	extend_values(b, &s, out.value);
	if (b->run_opts->on_sample && b->run_opts->on_sample(b->run_opts->ctx, &out))
		b->aborting = 1;
}

/* The program's output, from the byte where an earlier try of the same
 * run stopped printing (hpm_run repeats a run that noise aborted). */
static void deliver_output(hpm_board *b, const struct hpm_frame *f)
{
	size_t at = b->output_seen;
	size_t skip = b->output_printed > at ? b->output_printed - at : 0;
	b->output_seen += f->len;
	if (skip < f->len && b->run_opts && b->run_opts->on_output)
		b->run_opts->on_output(b->run_opts->output_ctx, f->type - HPM_T_OUTPUT + 1,
				       f->body + skip, f->len - skip);
}

_Static_assert(HPM_MAX_STACK == HPM_PROF_STACK, "a PROFILE frame's return addresses fit a sample");

/* A PROFILE frame (docs/protocol.md 6.7): one sample, by record number. */
static void deliver_profile(hpm_board *b, const struct hpm_frame *f)
{
	hpm_prof_sample s = { 0 };

	/* 12 bytes up to firmware 1.4; then the time and 0..16 return addresses */
	if (!b->run_opts || (f->len != 12 && (f->len < HPM_PROF_LEN || f->len % 4 ||
					       f->len > HPM_PROF_LEN + 4 * HPM_PROF_STACK)))
		return;
	s.index = hpm_get32(f->body);
	if (s.index < b->next_record)
		return;                 /* duplicate */
	b->next_record = s.index + 1;
	b->records_seen++;
	s.pc = hpm_get32(f->body + 4);
	uint32_t w = hpm_get32(f->body + 8);
	s.counter = w & 31u;
	s.mode = w >> 11 & 3u;
	if (f->len >= HPM_PROF_LEN) {
		s.time = hpm_get64(f->body + 12);
		s.nstack = (f->len - HPM_PROF_LEN) / 4;
		for (unsigned k = 0; k < s.nstack; k++)
			s.stack[k] = hpm_get32(f->body + HPM_PROF_LEN + 4 * k);
	}
	if (b->run_opts->on_prof && b->run_opts->on_prof(b->run_opts->ctx, &s))
		b->aborting = 1;
}

/* A REGION frame (6.8): a marker's counters, extended. */
static void deliver_region(hpm_board *b, const struct hpm_frame *f)
{
	struct hpm_msg_sample s;
	hpm_region_mark m;

	if (!b->run_opts || hpm_unpack_sample(f->body, f->len, &s) != HPM_PROTO_OK)
		return;
	/* the second copy (HPM_RUN_TWICE): mcycle grows along a run */
	if (b->records_seen && s.value[0] == b->last_region_mcycle)
		return;
	b->last_region_mcycle = s.value[0];
	b->records_seen++;
	memset(&m, 0, sizeof m);
	m.marker = s.sample_seq;
	m.mask = s.mask;
	extend_values(b, &s, m.value);
	if (b->run_opts->on_region && b->run_opts->on_region(b->run_opts->ctx, &m))
		b->aborting = 1;
}

/* The RUN's frames besides its reply: 1 if f was one of them. */
static int run_frame(hpm_board *b, const struct hpm_frame *f)
{
	if (f->type == HPM_T_OUTPUT || f->type == HPM_T_OUTPUT + 1)
		deliver_output(b, f);
	else if (f->type == HPM_T_SAMPLE)
		deliver_sample(b, f);
	else if (f->type == HPM_T_PROFILE)
		deliver_profile(b, f);
	else if (f->type == HPM_T_REGION)
		deliver_region(b, f);
	else
		return 0;
	return 1;
}

static void convert_snapshot(const hpm_board *b, const struct hpm_msg_snapshot *s, hpm_snapshot *o)
{
	memset(o, 0, sizeof *o);
	o->present = s->present;
	o->overflowed = s->overflowed;
	for (unsigned n = 0; n < HPM_NUM_VALUES; n++) {
		if (n < 3) {
			o->value[n] = s->value[n];
			continue;
		}
		o->wraps[n] = s->wraps[n - 3];
		o->value[n] = hpm_extend(&b->info, s->value[n], s->wraps[n - 3]);
		if (b->info.hpm_width < 8 && s->wraps[n - 3])
			o->untrusted |= 1u << n;
	}
}

int hpm_snapshot_read(hpm_board *b, hpm_snapshot *s)
{
	uint8_t rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_snapshot raw;
	int rc = hpm_transact(b, HPM_T_SNAPSHOT, NULL, 0, rep, &rlen);
	if (rc)
		return rc;
	if (hpm_unpack_snapshot(rep, rlen, &raw) != HPM_PROTO_OK)
		return hpm_fail(b, HPM_E_PROTOCOL, "snapshot: malformed reply");
	convert_snapshot(b, &raw, s);
	return HPM_OK;
}

static int stream_arm(hpm_board *b, uint64_t interval, uint32_t mask, uint32_t flags)
{
	uint8_t req[HPM_STREAM_LEN], rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_stream s = { interval, mask, flags };
	if (!interval)
		return hpm_transact(b, HPM_T_STREAM_STOP, NULL, 0, rep, &rlen);
	if (interval < b->info.min_interval)
		return hpm_fail(b, HPM_E_ARG, "interval %llu cycles is below the board's minimum %u",
				(unsigned long long)interval, (unsigned)b->info.min_interval);
	return hpm_transact(b, HPM_T_STREAM, req, hpm_pack_stream(req, &s), rep, &rlen);
}

/* main's arguments for an SDK program (docs/monitor.md): the strings and
 * the argv[] array, NULL-terminated, at the top of the RAM; a0 = argc,
 * a1 = argv. crt0 puts the stack below them. */
static int write_args(hpm_board *b, const hpm_program *p, const hpm_run_opts *o,
		      uint32_t *a0, uint32_t *a1)
{
	uint8_t block[HPM_ARGS_MAX];
	const char *self[1] = { p->name };
	const char *const *argv = o->argc ? o->argv : self;
	unsigned argc = o->argc ? o->argc : 1;
	size_t strings = 0;

	for (unsigned i = 0; i < argc; i++) {
		if (!argv[i])
			return hpm_fail(b, HPM_E_ARG, "argv[%u] is NULL", i);
		strings += strlen(argv[i]) + 1;
	}
	size_t table = 4 * ((size_t)argc + 1);
	size_t size = (table + strings + 15) & ~(size_t)15;
	if (argc > HPM_ARGS_MAX / 4 || size > HPM_ARGS_MAX)
		return hpm_fail(b, HPM_E_ARG, "%s: the arguments take %zu bytes, at most %d fit",
				p->name, table + strings, HPM_ARGS_MAX);
	uint32_t top = b->info.ram_base + b->info.ram_size, base = top - (uint32_t)size;
	if (p->mem_end > base - HPM_ARGS_STACK_MIN)
		return hpm_fail(b, HPM_E_ARG, "%s: no room for the arguments above the program and its stack",
				p->name);
	memset(block, 0, size);
	uint32_t at = base + (uint32_t)table;
	for (unsigned i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;
		hpm_put32(block + 4 * i, at);
		memcpy(block + (at - base), argv[i], n);
		at += (uint32_t)n;
	}
	*a0 = argc;
	*a1 = base;
	return hpm_mem_write(b, base, block, size);
}

int hpm_startup_cost(hpm_board *b, const hpm_program *p, uint64_t *cycles, uint64_t *instret)
{
	uint8_t w[8];
	if (!p->startup)
		return hpm_fail(b, HPM_E_NOTFOUND, "%s: no start-up record (not built with hpm-cc)", p->name);
	int rc = hpm_mem_read(b, p->startup, w, sizeof w);
	if (rc)
		return rc;
	*cycles = hpm_get32(w);
	*instret = hpm_get32(w + 4);
	return HPM_OK;
}

/* One try of a run: upload, arguments, stream, RUN and its reply. */
static int run_once(hpm_board *b, const hpm_program *p, const hpm_run_opts *o,
		    const uint64_t *sel, unsigned nsel, struct hpm_msg_run_result *res,
		    hpm_topdown *td)
{
	uint8_t req[HPM_MAX_BODY], rep[HPM_MAX_BODY];
	size_t rlen;
	struct hpm_msg_run run;

	/* upload every time: a run changes the program's data */
	for (size_t i = 0; i < p->nseg; i++) {
		int rc = hpm_mem_write(b, p->seg[i].addr, p->seg[i].data, p->seg[i].len);
		if (rc)
			return rc;
	}
	uint32_t a0 = o->a0, a1 = o->a1;
	if (p->sdk_args) {
		int rc = write_args(b, p, o, &a0, &a1);
		if (rc)
			return rc;
	}
	uint32_t mask = 0x5u | (((1u << nsel) - 1u) << 3);
	/* every run has ticks: without interval streaming, silent ones every
	 * HPM_KEEPALIVE_CYCLES, at which the monitor reads ABORT and answers
	 * the host's probes BUSY (docs/protocol.md 4); the stream stays armed
	 * for the next run, which arms its own */
	int rc = o->interval ? stream_arm(b, o->interval, mask, 0) :
		stream_arm(b, HPM_KEEPALIVE_CYCLES, 1u, HPM_STREAM_SILENT);
	if (rc)
		return rc;

	/* the unit counts in mcycle's window: reset while frozen, before RUN */
	if (o->topdown && (rc = hpm_topdown_reset(b)))
		return rc;
	memset(&run, 0, sizeof run);
	run.entry = p->entry;
	run.mode = (uint8_t)o->mode;
	run.n_events = (uint8_t)nsel;
	run.budget = o->budget ? o->budget : 1ull << 40;
	run.tohost = p->tohost;
	run.mcountinhibit = 0;
	run.mcounteren = 0xffffffffu;
	run.a0 = a0;
	run.a1 = a1;
	for (unsigned i = 0; i < nsel; i++) {
		run.mhpmevent[i] = sel[i];
		run.period[i] = o->period ? o->period[i] : 0;
		if (run.period[i])
			run.flags = HPM_RUN_PROFILE;
	}
	if (o->call_graph && run.flags)
		run.flags |= HPM_RUN_STACK;     /* each sample's call chain (6.7) */
	/* a link that has damaged frames in this session gets every sample,
	 * profile and region frame twice: a frame of 60 bytes is lost about
	 * half the time at 1 % damaged bytes, both copies a quarter */
	if (b->link->baud && b->info.fw_version >= HPM_FW_TWICE && (b->bad_frames || b->retransmits))
		run.flags |= HPM_RUN_TWICE;
	b->run_opts = o;
	b->next_record = b->records_seen = 0;
	b->next_sample_seq = 0;
	b->lost_samples = 0;
	b->aborting = 0;
	b->output_seen = 0;
	b->on_frame = run_frame;
	b->abortable = 1;
	rc = hpm_transact(b, HPM_T_RUN, req, hpm_pack_run(req, &run), rep, &rlen);
	b->on_frame = NULL;
	b->abortable = 0;
	b->run_opts = NULL;
	if (rc)
		return rc;
	if (hpm_unpack_run_result(rep, rlen, res) != HPM_PROTO_OK)
		return hpm_fail(b, HPM_E_PROTOCOL, "run: malformed reply");
	if ((rc = hpm_check_monitor(b, res->monitor_sum)))
		return rc;
	if (o->topdown && (rc = hpm_topdown_read(b, td)))
		return rc;
	if (o->interval && (rc = stream_arm(b, 0, 0, 0)))
		return rc;
	return HPM_OK;
}

int hpm_run(hpm_board *b, const hpm_program *p, const hpm_run_opts *o,
	    const uint64_t *sel, unsigned nsel, hpm_run_result *r)
{
	static const hpm_run_opts defaults;
	struct hpm_msg_run_result res;
	hpm_topdown td = { 0 };

	if (!o)
		o = &defaults;
	if (nsel > b->info.hpm_num)
		return hpm_fail(b, HPM_E_ARG, "%u selectors, but the board has %u counters",
				nsel, b->info.hpm_num);
	if (o->mode != HPM_MODE_USER && o->mode != HPM_MODE_SUPERVISOR && o->mode != HPM_MODE_MACHINE)
		return hpm_fail(b, HPM_E_ARG, "bad privilege mode %d", (int)o->mode);
	for (size_t i = 0; i < p->nseg; i++) {
		const struct hpm_segment *s = &p->seg[i];
		if (s->addr < b->info.ram_base || s->addr - b->info.ram_base > b->info.ram_size ||
		    s->len > b->info.ram_size - (s->addr - b->info.ram_base))
			return hpm_fail(b, HPM_E_ELF, "%s: segment 0x%08x+0x%x does not fit the board's RAM (0x%08x+0x%x)",
					p->name, s->addr, s->len, b->info.ram_base, b->info.ram_size);
	}
	if (p->mem_end && p->mem_end - b->info.ram_base > b->info.ram_size)
		return hpm_fail(b, HPM_E_ELF, "%s: too big: it needs %u bytes of RAM (.bss included), the board has %u",
				p->name, p->mem_end - b->info.ram_base, b->info.ram_size);
	if (o->argc && !p->sdk_args)
		return hpm_fail(b, HPM_E_ARG, "%s: takes no arguments (only programs built with hpm-cc do)",
				p->name);
	for (unsigned i = 0; o->period && i < nsel; i++) {
		uint64_t per = o->period[i];
		if (per && b->info.fw_version < HPM_FW_SAMPLING)
			return hpm_fail(b, HPM_E_CONFIG, "the board's monitor (firmware %u.%u) cannot sample: it needs firmware 1.1 (make prog)",
					b->info.fw_version >> 8, b->info.fw_version & 0xff);
		if (per && o->call_graph && b->info.fw_version < HPM_FW_STACK)
			return hpm_fail(b, HPM_E_CONFIG, "the board's monitor (firmware %u.%u) cannot walk call stacks: it needs firmware 1.5 (make prog)",
					b->info.fw_version >> 8, b->info.fw_version & 0xff);
		if (HPM_RUN_PROFILE_LEN(nsel) > HPM_MAX_BODY)
			return hpm_fail(b, HPM_E_ARG, "a sampling run takes at most %u counters (the RUN request's size), not %u",
					(HPM_MAX_BODY - HPM_RUN_HDR_LEN) / 16, nsel);
		if (per && (per < HPM_MIN_PERIOD ||
			    (b->info.hpm_width < 64 && per > 1ull << b->info.hpm_width)))
			return hpm_fail(b, HPM_E_ARG, "sampling period %llu: it must be at least %u and at most 2^%u (the counters' width)",
					(unsigned long long)per, HPM_MIN_PERIOD, b->info.hpm_width);
	}
	/* On a lossy link an ABORT the host never sent is a byte damaged on
	 * the way, read at a tick: the run is deterministic, so it runs again
	 * from a fresh upload (samples, records and output of the first try
	 * are merged like a repeat's), while the session's error budget lasts. */
	b->output_printed = 0;
	for (int again = 0;; again = 1) {
		int64_t t0 = hpm_now_ms();
		if (again)
			hpm_repeat_begin(b);
		int rc = run_once(b, p, o, sel, nsel, &res, &td);
		if (again)
			hpm_repeat_end(b);
		if (rc)
			return rc;
		if (res.reason != HPM_EXIT_ABORTED || b->aborting || !b->link->baud || hpm_budget_spent(b))
			break;
		if (!again)
			b->lost_ms += hpm_now_ms() - t0;   /* the aborted first try */
		b->noise_aborts++;
		if (b->output_seen > b->output_printed)
			b->output_printed = b->output_seen;
		if (b->opts.trace)
			fprintf(stderr, "link-trace: %s: the run was aborted by noise on the link: it runs again\n",
				p->name);
	}
	memset(r, 0, sizeof *r);
	r->reason = (enum hpm_exit_reason)res.reason;
	r->priv = res.priv;
	r->code = res.code;
	r->mcause = res.mcause;
	r->mepc = res.mepc;
	r->mtval = res.mtval;
	r->ticks = res.ticks;
	r->samples = res.samples;
	r->lost_samples = b->lost_samples + (res.samples > b->next_sample_seq ?
					     res.samples - b->next_sample_seq : 0);
	r->elapsed = res.elapsed;
	r->records = res.records;
	if (b->records_seen > res.records)
		return hpm_fail(b, HPM_E_PROTOCOL, "run: %u profile and region frames for %u records (duplicated frames)",
				(unsigned)b->records_seen, (unsigned)res.records);
	r->lost_records = res.records - b->records_seen;
	convert_snapshot(b, &res.snap, &r->snap);
	if (o->topdown)
		r->td = td;
	return HPM_OK;
}
