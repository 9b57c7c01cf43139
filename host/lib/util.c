/* The library's error helpers (codes, the handle's message) and the
 * lookup of helper programs and data directories. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hpm_int.h"

const char *hpm_strerror(int err)
{
	switch (err) {
	case HPM_OK:         return "success";
	case HPM_E_ARG:      return "invalid argument";
	case HPM_E_NOMEM:    return "out of memory";
	case HPM_E_LINK:     return "link failure";
	case HPM_E_TIMEOUT:  return "no reply from the board";
	case HPM_E_PROTOCOL: return "protocol error";
	case HPM_E_BOARD:    return "the board refused the request";
	case HPM_E_CONFIG:   return "board and host configurations differ";
	case HPM_E_ELF:      return "bad ELF file";
	case HPM_E_EVENT:    return "bad event";
	case HPM_E_NOTFOUND: return "not found";
	case HPM_E_RUN:      return "the workload did not exit cleanly";
	case HPM_E_MISMATCH: return "board and reference differ";
	case HPM_E_RESET:    return "the board restarted";
	case HPM_E_INTERRUPTED: return "interrupted";
	default:             return "unknown error";
	}
}

const char *hpm_errmsg(const hpm_board *b)
{
	return b ? b->err : "no board";
}

int hpm_fail(hpm_board *b, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->err, sizeof b->err, fmt, ap);
	va_end(ap);
	return err;
}

int hpm_find_path(const char *env, const char *rel, const char *fallback,
		  char *buf, size_t len)
{
	const char *e = env ? getenv(env) : NULL;
	char exe[1024];

	if (e && *e) {
		snprintf(buf, len, "%s", e);
		return 0;
	}
	/* relative to the running program's directory, then to the bin/
	 * directory next to the shared libhpm (PREFIX/lib/../bin), so that any
	 * program linked against an installed libhpm finds the installed tree */
	char bases[2][1024];
	Dl_info dl;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	bases[0][0] = bases[1][0] = '\0';
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			snprintf(bases[0], sizeof bases[0], "%.*s", (int)(slash - exe), exe);
	}
	if (dladdr((void *)hpm_find_path, &dl) && dl.dli_fname && strchr(dl.dli_fname, '/')) {
		const char *slash = strrchr(dl.dli_fname, '/');
		snprintf(bases[1], sizeof bases[1], "%.*s/../bin", (int)(slash - dl.dli_fname), dl.dli_fname);
	}
	for (int i = 0; i < 2; i++)
		for (const char *r = rel; bases[i][0] && *r; r += strlen(r) + 1) {
			snprintf(buf, len, "%s/%s", bases[i], r);
			if (access(buf, F_OK) == 0)
				return 0;
		}
	/* a program (no '/' in fallback's last part) may be on $PATH */
	const char *path = getenv("PATH");
	const char *base = strrchr(fallback, '/');
	base = base ? base + 1 : fallback;
	for (const char *p = path; p && *p && !strchr(rel, '/'); ) {
		const char *end = strchr(p, ':');
		size_t dl = end ? (size_t)(end - p) : strlen(p);
		snprintf(buf, len, "%.*s/%s", (int)dl, p, base);
		if (dl && access(buf, X_OK) == 0)
			return 0;
		p += dl + (end ? 1 : 0);
	}
	snprintf(buf, len, "%s", fallback);
	return access(buf, F_OK) == 0 ? 0 : -1;
}
