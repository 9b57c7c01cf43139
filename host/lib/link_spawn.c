/* The sim and ref links: a child process (hpm-sim or hpm-ref serving the
 * monitor) whose stdin/stdout carry the UART bytes. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "link.h"

extern char **environ;

struct spawn_link {
	struct hpm_link base;
	pid_t pid;
	int to_child, from_child;
};

static int child_gone(struct spawn_link *s)
{
	int status;
	pid_t r = waitpid(s->pid, &status, WNOHANG);
	if (r != s->pid)
		return 0;
	s->pid = -1;
	if (WIFEXITED(status))
		snprintf(s->base.err, sizeof s->base.err, "%s exited with status %d",
			 s->base.name, WEXITSTATUS(status));
	else
		snprintf(s->base.err, sizeof s->base.err, "%s killed by signal %d",
			 s->base.name, WTERMSIG(status));
	return 1;
}

/* A write to a dead child must fail with EPIPE, not kill the caller: block
 * SIGPIPE around the write and swallow one raised by it (the process's
 * signal disposition is left alone). */
static int spawn_write(struct hpm_link *l, const uint8_t *buf, size_t len)
{
	struct spawn_link *s = (struct spawn_link *)l;
	sigset_t pipe_set, old;
	int rc = 0;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	while (len) {
		ssize_t n = write(s->to_child, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (errno == EPIPE) {
				struct timespec zero = { 0, 0 };
				sigtimedwait(&pipe_set, NULL, &zero);
			}
			if (!child_gone(s))
				snprintf(l->err, sizeof l->err, "%s: write: %s", l->name, strerror(errno));
			rc = -1;
			break;
		}
		buf += n;
		len -= (size_t)n;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int spawn_read(struct hpm_link *l, uint8_t *buf, size_t cap, int timeout_ms)
{
	struct spawn_link *s = (struct spawn_link *)l;
	struct pollfd p = { .fd = s->from_child, .events = POLLIN };
	int r;

	do
		r = poll(&p, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		snprintf(l->err, sizeof l->err, "%s: poll: %s", l->name, strerror(errno));
		return -1;
	}
	if (r == 0)
		return 0;
	ssize_t n = read(s->from_child, buf, cap);
	if (n > 0)
		return (int)n;
	if (n < 0 && errno == EINTR)
		return 0;
	/* end of file: the board process is gone */
	for (int i = 0; i < 100 && !child_gone(s); i++)
		usleep(10000);
	if (s->pid > 0)
		snprintf(l->err, sizeof l->err, "%s closed its output", l->name);
	return -1;
}

static void spawn_close(struct hpm_link *l)
{
	struct spawn_link *s = (struct spawn_link *)l;
	if (s->to_child >= 0)
		close(s->to_child);
	if (s->from_child >= 0)
		close(s->from_child);
	/* every reply is in: the board has nothing left to say, and hpm-sim
	 * would otherwise idle a million cycles before it notices the end of
	 * its input */
	if (s->pid > 0) {
		int status;
		kill(s->pid, SIGTERM);
		waitpid(s->pid, &status, 0);
	}
	free(s);
}

static const struct hpm_link_ops spawn_ops = { spawn_write, spawn_read, spawn_close };

int hpm_link_spawn_open(enum hpm_link_kind kind, const char *prog,
			const char *const *args, struct hpm_link **out,
			char *err, size_t errlen)
{
	int in[2], outp[2];
	const char *argv[16];
	size_t n = 0;
	posix_spawn_file_actions_t fa;

	*out = NULL;
	if (access(prog, X_OK)) {
		snprintf(err, errlen, "%s: %s (set %s to the %s, or run 'make')", prog, strerror(errno),
			 kind == HPM_LINK_REF ? "HPM_REF" : "HPM_SIM",
			 kind == HPM_LINK_REF ? "reference model hpm-ref" : "simulated board hpm-sim");
		return -1;
	}
	argv[n++] = prog;
	for (; args && *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	if (pipe2(in, O_CLOEXEC) || pipe2(outp, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	struct spawn_link *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		close(in[0]); close(in[1]); close(outp[0]); close(outp[1]);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
	/* its own process group: a Ctrl-C at the terminal goes to the caller,
	 * which may still want the board (hpmctl prints the counts so far);
	 * hpm_close ends and reaps it, and it exits at the end of its input */
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	int rc = posix_spawn(&s->pid, prog, &fa, &at, (char *const *)argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(outp[1]);
	if (rc) {
		snprintf(err, errlen, "%s: %s", prog, strerror(rc));
		close(in[1]);
		close(outp[0]);
		free(s);
		return -1;
	}
	s->to_child = in[1];
	s->from_child = outp[0];
	s->base.ops = &spawn_ops;
	s->base.kind = kind;
	s->base.baud = 0;
	snprintf(s->base.name, sizeof s->base.name, "%s (%s)",
		 kind == HPM_LINK_REF ? "ref" : "sim", prog);
	*out = &s->base;
	return 0;
}
