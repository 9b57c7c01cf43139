/* retire.c: comparing and formatting retire records.
 * Fields that are meaningless for a record are not compared: cause/tval only
 * when trap=1, rd/rd_val only when rd_we=1, csr_addr/csr_val only when
 * csr_we=1, mem_* only when mem_we=1, and store data only on the enabled byte
 * lanes. */
#include "hpmref.h"
#include <inttypes.h>
#include <stdarg.h>

static int diff(char *msg, size_t len, const char *field, uint64_t a, uint64_t b)
{
	if (msg && len)
		snprintf(msg, len, "%s: rtl=0x%" PRIx64 " ref=0x%" PRIx64, field, a, b);
	return 1;
}

static uint32_t be_mask(unsigned be)
{
	uint32_t mk = 0;
	for (unsigned i = 0; i < 4; i++)
		if (be & (1u << i))
			mk |= 0xFFu << (8 * i);
	return mk;
}

int hpm_retire_compare(const hpm_retire *rtl, const hpm_retire *ref,
		       char *msg, size_t msg_len)
{
#define CMP(f)                                                         \
	do {                                                           \
		if (rtl->f != ref->f)                                  \
			return diff(msg, msg_len, #f, rtl->f, ref->f); \
	} while (0)
	CMP(pc);
	CMP(insn);
	CMP(priv);
	CMP(trap);
	if (ref->trap) {
		CMP(cause);
		CMP(tval);
	}
	CMP(rd_we);
	if (ref->rd_we) {
		CMP(rd);
		CMP(rd_val);
	}
	CMP(csr_we);
	if (ref->csr_we) {
		CMP(csr_addr);
		CMP(csr_val);
	}
	CMP(mem_we);
	if (ref->mem_we) {
		CMP(mem_addr);
		CMP(mem_be);
		uint32_t mk = be_mask(ref->mem_be);
		if ((rtl->mem_wdata & mk) != (ref->mem_wdata & mk))
			return diff(msg, msg_len, "mem_wdata", rtl->mem_wdata & mk,
				    ref->mem_wdata & mk);
	}
	CMP(cycle);
#undef CMP
	if (msg && msg_len)
		msg[0] = '\0';
	return 0;
}

static void app(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	if (*pos >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

void hpm_retire_format(const hpm_retire *r, char *buf, size_t len)
{
	static const char prv[4] = { 'U', 'S', '?', 'M' };
	size_t pos = 0;
	if (!buf || !len)
		return;
	buf[0] = '\0';
	app(buf, len, &pos, "cycle=%" PRIu64 " pc=%08x insn=%08x %c",
	    r->cycle, (unsigned)r->pc, (unsigned)r->insn, prv[r->priv & 3]);
	if (r->trap)
		app(buf, len, &pos, " trap cause=%08x tval=%08x",
		    (unsigned)r->cause, (unsigned)r->tval);
	if (r->rd_we)
		app(buf, len, &pos, " x%u=%08x", (unsigned)r->rd, (unsigned)r->rd_val);
	if (r->csr_we)
		app(buf, len, &pos, " csr[%03x]=%08x", (unsigned)r->csr_addr,
		    (unsigned)r->csr_val);
	if (r->mem_we)
		app(buf, len, &pos, " mem[%08x]=%08x be=%x", (unsigned)r->mem_addr,
		    (unsigned)r->mem_wdata, (unsigned)r->mem_be);
}
