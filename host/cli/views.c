/* report's views of a profile with call chains (record -g): the table
 * with perf's Children and Self columns, the call graph under each row,
 * folded stacks; and what report, script and annotate share: the --time
 * filter and frame names. Flat profiles are the case of chains of one
 * frame (the pc). */
#include <stdlib.h>
#include <string.h>
#include "hpmctl.h"
#include "profview.h"

unsigned sample_frames(const hpm_prof_sample *s, uint32_t *f)
{
	unsigned n = s->nstack < HPM_MAX_STACK ? s->nstack : HPM_MAX_STACK;
	f[0] = s->pc;
	memcpy(f + 1, s->stack, n * sizeof *f);
	return n + 1;
}

const char *frame_name(const hpm_program *p, uint32_t addr, char *buf, size_t len, uint32_t *off)
{
	const hpm_symbol *sym = p ? hpm_program_symbol(p, addr) : NULL;
	*off = sym ? addr - sym->addr : 0;
	if (sym)
		return sym->name;
	snprintf(buf, len, "0x%08x", (unsigned)addr);
	return buf;
}

int profile_has_stacks(const hpm_profdata *d)
{
	for (size_t i = 0; i < d->nsamples; i++)
		if (d->samples[i].nstack)
			return 1;
	return 0;
}

/* ---- --time ---- */

/* seconds ("1.5", "" = open) to board cycles */
static int seconds(const char *s, size_t n, uint32_t hz, uint64_t open, uint64_t *c)
{
	char tmp[64], *end;
	if (!n) {
		*c = open;
		return 0;
	}
	if (n >= sizeof tmp)
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	double v = strtod(tmp, &end);
	if (end == tmp || *end || !(v >= 0 && v < 1e9))
		return -1;
	*c = (uint64_t)(v * hz + 0.5);
	return 0;
}

static int percent(const char *s, size_t n, uint64_t cycles, uint64_t *c)
{
	char tmp[64], *end;
	if (n < 2 || n >= sizeof tmp || s[n - 1] != '%')
		return -1;
	memcpy(tmp, s, n - 1);
	tmp[n - 1] = '\0';
	double v = strtod(tmp, &end);
	if (end == tmp || *end || !(v >= 0 && v <= 100))
		return -1;
	*c = (uint64_t)((double)cycles * v / 100.0 + 0.5);
	return 0;
}

int time_range_parse(const char *cmd, const char *arg, const hpm_profdata *d, struct time_range *t)
{
	const char *sep = strchr(arg, '%') ? strchr(arg, '-') : strchr(arg, ',');
	int bad = !sep;
	if (!bad && strchr(arg, '%'))
		bad = percent(arg, (size_t)(sep - arg), d->cycles, &t->lo) ||
		      percent(sep + 1, strlen(sep + 1), d->cycles, &t->hi);
	else if (!bad)
		bad = seconds(arg, (size_t)(sep - arg), d->clock_hz, 0, &t->lo) ||
		      seconds(sep + 1, strlen(sep + 1), d->clock_hz, UINT64_MAX, &t->hi);
	if (bad || t->lo > t->hi)
		return usage_error(cmd, "--time '%s': expected START,END in seconds of board time (either may be empty) or P%%-Q%% of the run",
				   arg);
	for (size_t i = 0; i < d->nsamples; i++)
		if (!d->samples[i].time)
			return fail("%s: --time: the profile has no board time for its samples (record it again with this hpmctl)",
				    cmd);
	t->set = 1;
	return 0;
}

int time_range_has(const struct time_range *t, const hpm_prof_sample *s)
{
	return !t->set || (s->time >= t->lo && s->time <= t->hi);
}

/* ---- rows: one per symbol (or pc), found through a hash of their key ---- */

struct row {
	uint32_t key;          /* pc, or the symbol's address */
	const char *sym;       /* NULL: no symbol */
	uint64_t self, children;
	uint32_t seen;         /* the last sample that counted it in children, + 1 */
};

struct rows {
	struct row *r;
	size_t n, cap;
	size_t *slot;          /* hash: row index + 1, 0 empty */
	size_t nslot;
};

static struct row *row_of(struct rows *t, const hpm_program *p, uint32_t addr, int by_pc)
{
	const hpm_symbol *sym = p ? hpm_program_symbol(p, addr) : NULL;
	uint32_t key = by_pc || !sym ? addr : sym->addr;
	if (2 * (t->n + 1) > t->nslot) {
		size_t ns = t->nslot ? 2 * t->nslot : 1024;
		size_t *s = calloc(ns, sizeof *s);
		struct row *r = realloc(t->r, ns / 2 * sizeof *r);
		if (!s || !r) {
			free(s);
			if (r)
				t->r = r;
			return NULL;
		}
		t->r = r;
		for (size_t i = 0; i < t->n; i++) {
			size_t h = t->r[i].key * 2654435761u % ns;
			while (s[h])
				h = (h + 1) % ns;
			s[h] = i + 1;
		}
		free(t->slot);
		t->slot = s;
		t->nslot = ns;
	}
	size_t h = key * 2654435761u % t->nslot;
	for (; t->slot[h]; h = (h + 1) % t->nslot)
		if (t->r[t->slot[h] - 1].key == key)
			return &t->r[t->slot[h] - 1];
	t->r[t->n] = (struct row){ key, sym ? sym->name : NULL, 0, 0, 0 };
	t->slot[h] = ++t->n;
	return &t->r[t->n - 1];
}

static int row_order(const void *a, const void *b, void *children)
{
	const struct row *x = a, *y = b;
	int by_children = *(const int *)children;
	uint64_t vx = by_children ? x->children : x->self, vy = by_children ? y->children : y->self;
	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* ---- call graph ---- */

struct node {
	uint32_t key;
	const char *sym;
	uint64_t count;
	struct node *child, *next;
};

static void free_tree(struct node *n)
{
	while (n) {
		struct node *next = n->next;
		free_tree(n->child);
		free(n);
		n = next;
	}
}

/* adds one sample's path (keys k[0..n)) under root; -1 out of memory */
static int tree_add(struct node *root, const struct row *const *k, unsigned n)
{
	root->count++;
	struct node *at = root;
	for (unsigned i = 1; i < n; i++) {
		struct node *c = at->child;
		while (c && c->key != k[i]->key)
			c = c->next;
		if (!c) {
			if (!(c = calloc(1, sizeof *c)))
				return -1;
			c->key = k[i]->key;
			c->sym = k[i]->sym;
			c->next = at->child;
			at->child = c;
		}
		c->count++;
		at = c;
	}
	return 0;
}

static void node_name(const struct node *n, char *buf, size_t len)
{
	if (n->sym)
		snprintf(buf, len, "%s", n->sym);
	else
		snprintf(buf, len, "0x%08x", (unsigned)n->key);
}

/* the children of n, most samples first, as perf's --stdio graph draws
 * them: a chain of one child continues under the name, branches are
 * "|--P%--name" (the last " --P%--name"); P of all the event's samples */
static void tree_print(const struct node *n, uint64_t total, char *pfx, size_t plen)
{
	char name[64];
	for (;;) {
		const struct node *c = n->child;
		if (!c)
			return;
		if (!c->next && c->count == n->count) {
			node_name(c, name, sizeof name);
			printf("%s%s\n", pfx, name);
			n = c;
			continue;
		}
		break;
	}
	size_t nc = 0;
	for (const struct node *c = n->child; c; c = c->next)
		nc++;
	const struct node **v = malloc(nc * sizeof *v);
	if (!v)
		return;
	nc = 0;
	for (const struct node *c = n->child; c; c = c->next)
		v[nc++] = c;
	for (size_t i = 0; i < nc; i++)     /* most samples first, then by address */
		for (size_t j = i + 1; j < nc; j++)
			if (v[j]->count > v[i]->count || (v[j]->count == v[i]->count && v[j]->key < v[i]->key)) {
				const struct node *x = v[i];
				v[i] = v[j];
				v[j] = x;
			}
	for (size_t i = 0; i < nc; i++) {
		int last = i + 1 == nc;
		char lead[32];
		node_name(v[i], name, sizeof name);
		int w = snprintf(lead, sizeof lead, "--%.2f%%--", 100.0 * (double)v[i]->count / (double)total);
		printf("%s|\n%s%s%s%s\n", pfx, pfx, last ? " " : "|", lead, name);
		if (plen + (size_t)w + 2 < 2048) {
			memset(pfx + plen, ' ', (size_t)w + 1);
			pfx[plen] = last ? ' ' : '|';
			pfx[plen + (size_t)w + 1] = '\0';
			tree_print(v[i], total, pfx, plen + (size_t)w + 1);
			pfx[plen] = '\0';
		}
	}
	free(v);
}

/* The graph under row w: the callers of its own samples (no-children:
 * callee order, its caller, that one's caller, ...) or the calls below it
 * in every sample that has it (children: caller order, its callee, ...
 * the pc). */
static int row_graph(const hpm_profdata *d, const hpm_program *p, size_t ev, const struct report_opts *o,
		     struct rows *t, const struct row *w, uint64_t total)
{
	struct node root = { w->key, w->sym, 0, NULL, NULL };
	uint32_t f[HPM_MAX_STACK + 1];
	const struct row *k[HPM_MAX_STACK + 1], *path[HPM_MAX_STACK + 1];
	int rc = 0;
	for (size_t i = 0; i < d->nsamples && !rc; i++) {
		const hpm_prof_sample *s = &d->samples[i];
		if (s->counter != ev || !time_range_has(&o->time, s))
			continue;
		unsigned n = sample_frames(s, f), m = 0;
		for (unsigned j = 0; j < n; j++)
			if (!(k[j] = row_of(t, p, f[j], o->by_pc)))
				return -1;
		if (!o->children) {
			if (k[0]->key != w->key)
				continue;
			for (unsigned j = 0; j < n; j++)
				path[m++] = k[j];
		} else {
			int at = -1;              /* the outermost frame of w */
			for (unsigned j = 0; j < n; j++)
				if (k[j]->key == w->key)
					at = (int)j;
			if (at < 0)
				continue;
			for (int j = at; j >= 0; j--)
				path[m++] = k[j];
		}
		rc = tree_add(&root, path, m);
	}
	/* as perf: the row is the root, the graph starts below it ("---" when
	 * one chain goes on from it, else its branches); nothing without one */
	char pfx[2048];
	const struct node *top = root.child;
	memset(pfx, ' ', 15);
	pfx[12] = '\0';
	if (top && !top->next && top->count == root.count) {
		node_name(top, pfx + 16, 64);
		printf("            |\n            ---%s\n", pfx + 16);
		pfx[12] = ' ';
		pfx[15] = '\0';
		tree_print(top, total, pfx, 15);
	} else if (top)
		tree_print(&root, total, pfx, 12);
	if (top)
		printf("\n");
	free_tree(root.child);
	return rc;
}

int report_table(const hpm_profdata *d, const hpm_program *p, size_t ev, const struct report_opts *o)
{
	const hpm_profdata_event *e = &d->event[ev];
	struct rows t = { 0 };
	uint32_t f[HPM_MAX_STACK + 1];
	uint64_t total = 0;
	int rc = 0;
	for (size_t i = 0; i < d->nsamples; i++) {
		const hpm_prof_sample *s = &d->samples[i];
		if (s->counter != ev || !time_range_has(&o->time, s))
			continue;
		total++;
		unsigned n = sample_frames(s, f);
		for (unsigned j = 0; j < n; j++) {
			struct row *w = row_of(&t, p, f[j], o->by_pc);
			if (!w) {
				rc = -1;
				goto out;
			}
			if (!j)
				w->self++;
			if (w->seen != i + 1) {      /* once per sample, however deep the recursion */
				w->seen = (uint32_t)(i + 1);
				w->children++;
			}
		}
	}
	/* the rows: before any call graph, which adds none (every frame has one) */
	size_t nrows = t.n;
	struct row *sorted = malloc((nrows ? nrows : 1) * sizeof *sorted);
	if (!sorted) {
		rc = -1;
		goto out;
	}
	memcpy(sorted, t.r, nrows * sizeof *sorted);
	int children = o->children;
	qsort_r(sorted, nrows, sizeof *sorted, row_order, &children);
	char num[32], pcbuf[16];
	printf("# Samples: %llu of event '%s' (1 every %llu)\n# Event count (exact): %s\n",
	       (unsigned long long)total, e->name, (unsigned long long)e->period, fmt_count(e->count, num));
	printf("# Program: %s (%s-mode, %llu cycles)\n#\n", d->program, mode_name((enum hpm_privilege)d->mode),
	       (unsigned long long)d->cycles);
	printf("# %s%s%s\n# %s%s  ....................\n#\n", o->children ? "Children      Self" : "Overhead",
	       o->show_nr ? "  Samples" : "", o->by_pc || !p ? "  PC        Symbol" : "  Symbol",
	       o->children ? "........  ........" : "........", o->show_nr ? "  ......." : "");
	for (size_t i = 0; i < nrows; i++) {
		const struct row *w = &sorted[i];
		double self = total ? 100.0 * (double)w->self / (double)total : 0;
		double all = total ? 100.0 * (double)w->children / (double)total : 0;
		if ((o->children ? all : self) < o->limit || (!o->children && !w->self))
			continue;
		snprintf(pcbuf, sizeof pcbuf, "0x%08x", (unsigned)w->key);
		if (o->children)
			printf("%9.2f%% %8.2f%%", all, self);
		else
			printf("%9.2f%%", self);
		if (o->show_nr)
			printf("  %7llu", (unsigned long long)(o->children ? w->children : w->self));
		if (o->by_pc || !p)
			printf("  %s  %s\n", pcbuf, w->sym ? w->sym : "[unknown]");
		else
			printf("  %s\n", w->sym ? w->sym : pcbuf);
		if (o->graph && row_graph(d, p, ev, o, &t, w, total)) {
			rc = -1;
			break;
		}
	}
	printf("\n");
	free(sorted);
out:
	free(t.r);
	free(t.slot);
	return rc ? fail("out of memory") : 0;
}

/* ---- folded stacks ---- */

struct stack_line {
	char *text;
	uint64_t count;
};

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct stack_line *)a)->text, ((const struct stack_line *)b)->text);
}

int report_folded(const hpm_profdata *d, const hpm_program *p, size_t ev, const struct report_opts *o)
{
	struct stack_line *v = calloc(d->nsamples + 1, sizeof *v);
	uint32_t f[HPM_MAX_STACK + 1];
	size_t n = 0;
	int nomem = !v;
	for (size_t i = 0; i < d->nsamples && !nomem; i++) {
		const hpm_prof_sample *s = &d->samples[i];
		if (s->counter != ev || !time_range_has(&o->time, s))
			continue;
		char line[HPM_MAX_STACK * 80 + 160], buf[16];
		size_t len = 0;
		if (d->nevents > 1)
			len += (size_t)snprintf(line, sizeof line, "%s;", d->event[ev].name);
		unsigned nf = sample_frames(s, f);
		for (unsigned j = nf; j-- > 0;) {       /* outermost first */
			uint32_t off;
			const char *name = frame_name(p, f[j], buf, sizeof buf, &off);
			if (o->by_pc)
				name = (snprintf(buf, sizeof buf, "0x%08x", (unsigned)f[j]), buf);
			len += (size_t)snprintf(line + len, sizeof line - len, "%s%s", name, j ? ";" : "");
		}
		if (!(v[n].text = strdup(line)))
			nomem = 1;
		v[n++].count = 1;
	}
	if (!nomem) {
		qsort(v, n, sizeof *v, by_text);
		for (size_t i = 0, j; i < n; i = j) {
			uint64_t c = 0;
			for (j = i; j < n && !strcmp(v[j].text, v[i].text); j++)
				c += v[j].count;
			printf("%s %llu\n", v[i].text, (unsigned long long)c);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
	return nomem ? fail("out of memory") : 0;
}
