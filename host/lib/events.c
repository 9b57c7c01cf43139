/* The event catalogue (from hw/hpm/events.def) and "-e" lists. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "hpm_int.h"
#include "hpm_events.h"
#include "hpm_map.h"

static const hpm_event_desc catalogue[] = {
#define HPM_EVENT(i, n, a, b, d) { i, n, a, b, d },
#include "events.def"
#undef HPM_EVENT
};
#define NEVENTS (sizeof catalogue / sizeof catalogue[0])

/* mhpmevent fields (hpm_map.h, from hw/csr.def) */
#define INH_BITS    (MHPMEVENT_MINH | MHPMEVENT_SINH | MHPMEVENT_UINH)
#define MODE_BITS   (MHPMEVENT_OF | INH_BITS)
#define ZERO_BITS   MHPMEVENT_ZERO     /* VSINH, VUINH, reserved: read 0 */

size_t hpm_event_count(void) { return NEVENTS; }

const hpm_event_desc *hpm_event_at(size_t i)
{
	return i < NEVENTS ? &catalogue[i] : NULL;
}

uint64_t hpm_event_catalogue_hash(void) { return HPM_EVENT_CATALOGUE_HASH; }

/* Is name one of the comma-separated aliases? Case-insensitive, as perf. */
static int in_aliases(const char *aliases, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = aliases; *p; ) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && !strncasecmp(p, name, n))
			return 1;
		p += len + (end ? 1 : 0);
	}
	return 0;
}

const hpm_event_desc *hpm_event_find(const char *name)
{
	for (size_t i = 0; i < NEVENTS; i++)
		if (!strcasecmp(catalogue[i].name, name) || in_aliases(catalogue[i].aliases, name))
			return &catalogue[i];
	return NULL;
}

struct hpm_evlist {
	size_t n;
	hpm_evspec ev[HPM_MAX_COUNTS];
};

size_t hpm_evlist_len(const hpm_evlist *l) { return l->n; }

const hpm_evspec *hpm_evlist_at(const hpm_evlist *l, size_t i)
{
	return i < l->n ? &l->ev[i] : NULL;
}

void hpm_evlist_free(hpm_evlist *l) { free(l); }

static int parse_base(const char *base, const char *tok, hpm_evspec *e, char *err, size_t errlen);

/* perf's modifiers after ':' select the privilege modes counted: u (U),
 * k (S, the kernel), m (M, RISC-V's extra level), in any combination; the
 * modes not named get their inhibit bit. Returns the inhibit bits (bits
 * 62..60), or -1 with err set. */
static int64_t parse_modifiers(const char *tok, const char *mod, char *err, size_t errlen)
{
	static const char modes[] = "mku";    /* MINH bit 62, SINH 61, UINH 60 */
	uint64_t named = 0;
	if (!*mod) {
		snprintf(err, errlen, "event '%s': empty modifier after ':' (u, k, m)", tok);
		return -1;
	}
	for (const char *c = mod; *c; c++) {
		const char *m = strchr(modes, *c);
		uint64_t bit = m ? MHPMEVENT_MINH >> (m - modes) : 0;
		if (!bit || (named & bit)) {
			snprintf(err, errlen, "event '%s': %s modifier '%c' (u, k, m, each once)", tok,
				 bit ? "repeated" : "unknown", *c);
			return -1;
		}
		named |= bit;
	}
	return (int64_t)(~named & INH_BITS);
}

static int parse_one(const char *tok, hpm_evspec *e, char *err, size_t errlen)
{
	char base[sizeof e->name];
	int64_t inhibit = 0;

	memset(e, 0, sizeof *e);
	e->fixed = -1;
	if (strlen(tok) >= sizeof e->name) {
		snprintf(err, errlen, "event name too long: '%.40s...'", tok);
		return HPM_E_EVENT;
	}
	strcpy(e->name, tok);
	strcpy(base, tok);
	char *colon = strchr(base, ':');
	if (colon) {
		*colon = '\0';
		if ((inhibit = parse_modifiers(tok, colon + 1, err, errlen)) < 0)
			return HPM_E_EVENT;
	}
	int rc = parse_base(base, tok, e, err, errlen);
	if (rc == HPM_OK && colon) {      /* mode-filtered: a programmable counter */
		e->selector |= (uint64_t)inhibit;
		e->fixed = -1;
	}
	return rc;
}

/* Edits between a and b, case-insensitive (a swap of neighbours is one):
 * the optimal string alignment distance, names up to 63 characters. */
static unsigned edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned d[64][64];
	if (la > 63 || lb > 63)
		return 64;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned ca = (unsigned char)tolower((unsigned char)a[i - 1]);
			unsigned cb = (unsigned char)tolower((unsigned char)b[j - 1]);
			unsigned best = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == (unsigned char)tolower((unsigned char)b[j - 2]) &&
			    cb == (unsigned char)tolower((unsigned char)a[i - 2]) && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/* The catalogue name (or alias) nearest to an unknown name: at most one
 * edit in three characters (at least one); an alias gives its event's
 * name. NULL if none is that near. */
static const char *nearest_event(const char *name)
{
	size_t len = strlen(name);
	unsigned best = (unsigned)(len / 3 ? len / 3 : 1) + 1;
	const char *found = NULL;
	for (size_t i = 0; i < hpm_event_count(); i++) {
		const hpm_event_desc *d = hpm_event_at(i);
		unsigned k = edit_distance(name, len, d->name, strlen(d->name));
		if (k < best) {
			best = k;
			found = d->name;
		}
		for (const char *a = d->aliases; *a; ) {
			size_t al = strcspn(a, ",");
			k = edit_distance(name, len, a, al);
			if (k < best) {
				best = k;
				found = d->name;
			}
			a += al + (a[al] == ',');
		}
	}
	return found;
}

/* An event without modifiers: a catalogue name or alias, or r<hex>. */
static int parse_base(const char *base, const char *tok, hpm_evspec *e, char *err, size_t errlen)
{
	const hpm_event_desc *d = hpm_event_find(base);
	if (!strcmp(base, "slots"))     /* the top-down group's SLOTS: mcycle without the unit */
		d = hpm_event_find("cycles");
	if (d) {
		e->index = d->index;
		e->selector = d->index;
		if (d->index == HPM_EV_CYCLES)
			e->fixed = 0;
		else if (d->index == HPM_EV_INSTRUCTIONS)
			e->fixed = 2;
		return HPM_OK;
	}
	/* r<hex> or r0x<hex> is raw; another name starting with r is unknown */
	const char *h = base + 1;
	int prefix = h[0] == '0' && (h[1] == 'x' || h[1] == 'X');
	size_t len = strlen(h + 2 * prefix);
	int hex = len >= 1;
	for (size_t i = 0; hex && i < len; i++)
		hex = isxdigit((unsigned char)h[2 * prefix + i]) != 0;
	if (base[0] == 'r' && (hex || prefix)) {
		h += 2 * prefix;
		if (!hex || len > 16) {
			snprintf(err, errlen, "bad raw event '%s': expected r<hex>, up to 16 hex digits", tok);
			return HPM_E_EVENT;
		}
		uint64_t v = strtoull(h, NULL, 16);
		if (v & MODE_BITS) {
			snprintf(err, errlen, "raw event '%s': bits %u..%u (OF, MINH, SINH, UINH) must be 0; use a :u, :k or :m modifier",
				 tok, (unsigned)MHPMEVENT_OF_SHIFT, (unsigned)MHPMEVENT_UINH_SHIFT);
			return HPM_E_EVENT;
		}
		if (v & ZERO_BITS) {
			snprintf(err, errlen, "raw event '%s': bits %u..%u are reserved and must be 0", tok,
				 (unsigned)(MHPMEVENT_ZERO_SHIFT + __builtin_popcountll(ZERO_BITS) - 1), (unsigned)MHPMEVENT_ZERO_SHIFT);
			return HPM_E_EVENT;
		}
		e->selector = v;
		return HPM_OK;
	}
	const char *near = nearest_event(base);
	if (near)
		snprintf(err, errlen, "unknown event '%s'; did you mean '%s'?", tok, near);
	else
		snprintf(err, errlen, "unknown event '%s' (hpmctl list shows the events)", tok);
	return HPM_E_EVENT;
}

/* "{a,b}:u": perf's modifiers after a group apply to each of its n events
 * (the last n of l), which must carry none of their own. *p is at the ':'. */
static int group_modifiers(hpm_evlist *l, unsigned group, int n, const char **p,
			   char *err, size_t errlen)
{
	size_t len = strcspn(*p, ",");
	for (size_t i = l->n - (size_t)n; i < l->n; i++) {
		hpm_evspec *e = &l->ev[i];
		char tok[sizeof e->name];
		if (e->group != group || strchr(e->name, ':')) {
			snprintf(err, errlen, "event '%s' has its own modifier; '%.*s' after its group cannot add one",
				 e->name, (int)len, *p);
			return HPM_E_EVENT;
		}
		if (strlen(e->name) + len >= sizeof tok) {
			snprintf(err, errlen, "event name too long: '%s%.*s'", e->name, (int)len, *p);
			return HPM_E_EVENT;
		}
		snprintf(tok, sizeof tok, "%s%.*s", e->name, (int)len, *p);
		if (parse_one(tok, e, err, errlen))
			return HPM_E_EVENT;
		e->group = group;
	}
	*p += len;
	return HPM_OK;
}

/* The top-down value a named event gives in the top-down group (0: none):
 * slots, then the catalogue's topdown-* events in order. */
static unsigned td_value(const hpm_evspec *e, const char *base)
{
	if (!strcmp(base, "slots"))
		return HPM_TD_SLOTS;
	if (e->index >= HPM_EV_TOPDOWN_RETIRING && e->index <= HPM_EV_TOPDOWN_CORE_BOUND)
		return HPM_TD_RETIRING + (e->index - HPM_EV_TOPDOWN_RETIRING);
	return HPM_TD_NONE;
}

/* A list that names slots: marks the top-down group, which must not be
 * split across "{...}" groups nor share one with other events (perf's
 * rule for Ice Lake), nor take modifiers. braced[i]: event i was in braces. */
static int topdown_group(hpm_evlist *l, const unsigned char *braced, char *err, size_t errlen)
{
	size_t slots = l->n, first_braced = l->n;
	for (size_t i = 0; i < l->n; i++) {
		char base[sizeof l->ev[i].name];
		snprintf(base, sizeof base, "%s", l->ev[i].name);
		base[strcspn(base, ":")] = '\0';
		l->ev[i].topdown = td_value(&l->ev[i], base);
		if (l->ev[i].topdown == HPM_TD_SLOTS && slots == l->n)
			slots = i;
	}
	if (slots == l->n) {                 /* no slots: ordinary events */
		for (size_t i = 0; i < l->n; i++)
			l->ev[i].topdown = HPM_TD_NONE;
		return HPM_OK;
	}
	for (size_t i = 0; i < l->n; i++) {
		const hpm_evspec *e = &l->ev[i];
		if (!e->topdown)
			continue;
		if (strchr(e->name, ':')) {
			snprintf(err, errlen, "'%s': slots and the topdown-* events count what cycles counts; they take no modifier",
				 e->name);
			return HPM_E_EVENT;
		}
		for (size_t j = 0; j < i; j++)
			if (l->ev[j].topdown == e->topdown) {
				snprintf(err, errlen, "'%s' is named twice in the top-down group", e->name);
				return HPM_E_EVENT;
			}
		if (braced[i] && first_braced == l->n)
			first_braced = i;
	}
	if (first_braced == l->n)
		return HPM_OK;
	unsigned g = l->ev[first_braced].group;
	for (size_t i = 0; i < l->n; i++) {
		const hpm_evspec *e = &l->ev[i];
		if (e->topdown && e->group != g) {
			snprintf(err, errlen, "'%s' is outside the group of '%s': slots and the topdown-* events are one group",
				 e->name, l->ev[first_braced].name);
			return HPM_E_EVENT;
		}
		if (!e->topdown && e->group == g) {
			snprintf(err, errlen, "'%s' cannot join the top-down group (slots and the topdown-* events only)",
				 e->name);
			return HPM_E_EVENT;
		}
	}
	return HPM_OK;
}

int hpm_evlist_parse(hpm_evlist **out, const char *spec, char *err, size_t errlen)
{
	unsigned char braced[HPM_MAX_COUNTS];
	char dummy[8];
	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	*out = NULL;
	hpm_evlist *l = calloc(1, sizeof *l);
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return HPM_E_NOMEM;
	}
	const char *p = spec ? spec : "";
	unsigned group = 0;
	for (size_t i = 0; p[i]; i++) {
		if (!isprint((unsigned char)p[i]) || p[i] == ' ') {
			snprintf(err, errlen, "event list: unexpected byte 0x%02x at offset %zu",
				 (unsigned char)p[i], i);
			goto bad;
		}
	}
	int in_group = 0, group_items = 0;
	for (;;) {
		char tok[128];
		size_t n = 0;
		if (*p == '{') {
			if (in_group) {
				snprintf(err, errlen, "event groups cannot nest: '%s'", spec);
				goto bad;
			}
			in_group = 1;
			group_items = 0;
			p++;
		}
		while (*p && *p != ',' && *p != '{' && *p != '}' && n + 1 < sizeof tok)
			tok[n++] = *p++;
		tok[n] = '\0';
		if (!n) {
			snprintf(err, errlen, "empty event name in '%s'", spec);
			goto bad;
		}
		if (*p == '{') {
			snprintf(err, errlen, "unexpected '{' in '%s'", spec);
			goto bad;
		}
		if (l->n == HPM_MAX_COUNTS) {
			snprintf(err, errlen, "too many events (at most %d)", HPM_MAX_COUNTS);
			goto bad;
		}
		if (parse_one(tok, &l->ev[l->n], err, errlen))
			goto bad;
		l->ev[l->n].group = group;
		braced[l->n] = (unsigned char)in_group;
		l->n++;
		group_items++;
		if (*p == '}') {
			if (!in_group) {
				snprintf(err, errlen, "unbalanced '}' in '%s'", spec);
				goto bad;
			}
			in_group = 0;
			p++;
			if (*p == ':' && group_modifiers(l, group, group_items, &p, err, errlen))
				goto bad;
		}
		if (!in_group)
			group++;
		if (!*p)
			break;
		if (*p != ',') {
			snprintf(err, errlen, "expected ',' after '}' in '%s'", spec);
			goto bad;
		}
		p++;
	}
	if (in_group) {
		snprintf(err, errlen, "unbalanced '{' in '%s'", spec);
		goto bad;
	}
	if (topdown_group(l, braced, err, errlen))
		goto bad;
	*out = l;
	return HPM_OK;
bad:
	free(l);
	return HPM_E_EVENT;
}
