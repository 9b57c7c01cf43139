/* JUnit XML for CI test reporters (Jenkins, GitLab, GitHub): one
 * <testsuite> with <properties>, one <testcase> per check, and <failure>,
 * <error> or <skipped> inside a test case that did not pass. The file is
 * written as FILE.tmp and renamed at the end, so a reader never sees half a
 * report. Layout: docs/hpmctl.md (validate --junit). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "hpmctl.h"

struct junit {
	char *path, *tmp;
	FILE *props, *cases;         /* open_memstream: rendered XML */
	char *props_buf, *cases_buf;
	size_t props_len, cases_len;
	unsigned tests, failures, errors, skipped;
	char timestamp[32];
};

/* Text as XML attribute value or element content: markup characters as
 * entities, control characters (not allowed in XML 1.0) as '?'. */
static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\n': case '\t': fputc(c, f); break;
		default: fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
		}
	}
}

struct junit *junit_new(const char *path)
{
	struct junit *j = calloc(1, sizeof *j);
	size_t n = strlen(path) + 5;
	FILE *probe;

	if (!j || !(j->path = strdup(path)) || !(j->tmp = malloc(n)) ||
	    !(j->props = open_memstream(&j->props_buf, &j->props_len)) ||
	    !(j->cases = open_memstream(&j->cases_buf, &j->cases_len))) {
		fail("out of memory");
		junit_free(j);
		return NULL;
	}
	snprintf(j->tmp, n, "%s.tmp", path);
	/* a report that cannot be written is found before the board runs */
	if (!(probe = fopen(j->tmp, "w"))) {
		fail("validate: cannot write %s: %s", j->tmp, strerror(errno));
		junit_free(j);
		return NULL;
	}
	fclose(probe);
	time_t now = time(NULL);
	struct tm tm;
	strftime(j->timestamp, sizeof j->timestamp, "%Y-%m-%dT%H:%M:%S", gmtime_r(&now, &tm));
	return j;
}

void junit_property(struct junit *j, const char *name, const char *fmt, ...)
{
	char value[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof value, fmt, ap);
	va_end(ap);
	fputs("      <property name=\"", j->props);
	xml_text(j->props, name);
	fputs("\" value=\"", j->props);
	xml_text(j->props, value);
	fputs("\"/>\n", j->props);
}

void junit_case(struct junit *j, const char *classname, const char *name, double seconds,
		enum junit_result res, const char *type, const char *message, const char *detail)
{
	static const char *const tag[] = { NULL, "failure", "error", "skipped" };

	j->tests++;
	j->failures += res == JUNIT_FAILURE;
	j->errors += res == JUNIT_ERROR;
	j->skipped += res == JUNIT_SKIPPED;
	fputs("    <testcase classname=\"", j->cases);
	xml_text(j->cases, classname);
	fputs("\" name=\"", j->cases);
	xml_text(j->cases, name);
	fprintf(j->cases, "\" time=\"%.3f\"", seconds);
	if (res == JUNIT_PASS) {
		fputs("/>\n", j->cases);
		return;
	}
	fprintf(j->cases, ">\n      <%s message=\"", tag[res]);
	xml_text(j->cases, message ? message : "");
	fputc('"', j->cases);
	if (type && res != JUNIT_SKIPPED) {
		fputs(" type=\"", j->cases);
		xml_text(j->cases, type);
		fputc('"', j->cases);
	}
	if (detail && *detail) {
		fputc('>', j->cases);
		xml_text(j->cases, detail);
		fprintf(j->cases, "</%s>\n", tag[res]);
	} else {
		fputs("/>\n", j->cases);
	}
	fputs("    </testcase>\n", j->cases);
}

int junit_write(struct junit *j, const char *suite, double seconds)
{
	char host[256] = "localhost";
	FILE *f;

	if (fflush(j->props) || fflush(j->cases) || ferror(j->props) || ferror(j->cases))
		return fail("validate: out of memory for the JUnit report");
	gethostname(host, sizeof host - 1);
	if (!(f = fopen(j->tmp, "w")))
		return fail("validate: cannot write %s: %s", j->tmp, strerror(errno));
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\">\n",
		j->tests, j->failures, j->errors, j->skipped, seconds);
	fputs("  <testsuite name=\"", f);
	xml_text(f, suite);
	fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\" timestamp=\"%s\" hostname=\"",
		j->tests, j->failures, j->errors, j->skipped, seconds, j->timestamp);
	xml_text(f, host);
	fputs("\" id=\"0\">\n    <properties>\n", f);
	fwrite(j->props_buf, 1, j->props_len, f);
	fputs("    </properties>\n", f);
	fwrite(j->cases_buf, 1, j->cases_len, f);
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (ferror(f) | fclose(f) || rename(j->tmp, j->path)) {
		int e = errno;
		unlink(j->tmp);
		return fail("validate: writing %s failed: %s", j->path, strerror(e));
	}
	return EXIT_OK;
}

void junit_free(struct junit *j)
{
	if (!j)
		return;
	if (j->props)
		fclose(j->props);
	if (j->cases)
		fclose(j->cases);
	if (j->tmp)
		unlink(j->tmp);      /* only left after a failure: written ones are renamed */
	free(j->props_buf);
	free(j->cases_buf);
	free(j->tmp);
	free(j->path);
	free(j);
}
