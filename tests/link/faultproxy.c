/* faultproxy: a bad cable between a client on a pseudo-terminal and a board
 * on pipes (docs/testing.md, "Faults on the link").
 *
 *   faultproxy [--rate R] [--seed N] [--kinds flip,drop,dup,insert,burst]
 *              [--board CMD] [--kill-board-after BYTES] [--stats FILE]
 *              [--timeout S] -- CLIENT [ARGS...]
 *
 * The board (default build/bin/hpm-sim, $HPM_SIM) runs with its stdin/stdout
 * on pipes; CLIENT runs with every "@PTY@" in its arguments replaced by the
 * slave side of a pty (so `hpmctl --link tty:@PTY@ ...`; `sh -c` with several
 * hpmctl commands on the same board works too). Every byte, in both
 * directions, meets a fault with probability R, of a kind picked uniformly
 * from --kinds: a flipped bit, dropped, duplicated, a random byte inserted
 * before it, or a burst of 32 lost bytes starting at it. The RNG is seeded,
 * so a run's faults depend only on the seed and the byte stream.
 * The client starts once the board has booted (its BOOT frame is dropped, as
 * a host opening a serial line long after the board started never sees it).
 * --kill-board-after kills the board (SIGKILL) once it has sent that many
 * bytes after that; the pty is then hung up as a vanished serial device would be.
 * Exit status: the client's (124 if --timeout killed it).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "faults.h"

extern char **environ;

struct dir {
	const char *name;
	struct faults f;
};

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && (errno == EINTR || errno == EAGAIN)) {
			struct pollfd pf = { fd, POLLOUT, 0 };
			poll(&pf, 1, 100);
			continue;
		}
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int usage(void)
{
	fprintf(stderr, "usage: faultproxy [--rate R] [--seed N] [--kinds flip,drop,dup,insert,burst] "
		"[--board CMD] [--kill-board-after BYTES] [--stats FILE] [--timeout S] -- CLIENT [ARGS...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *board = getenv("HPM_SIM"), *stats = NULL, *kind_list = "flip,drop,dup,insert,burst";
	unsigned long long seed = 1, kill_after = 0;
	double timeout = 0, rate = 0;
	int i;

	if (!board || !*board)
		board = "build/bin/hpm-sim";
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(argv[i], "--rate")) rate = atof(argv[++i]);
		else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--kinds")) kind_list = argv[++i];
		else if (!strcmp(argv[i], "--board")) board = argv[++i];
		else if (!strcmp(argv[i], "--kill-board-after")) kill_after = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--stats")) stats = argv[++i];
		else if (!strcmp(argv[i], "--timeout")) timeout = atof(argv[++i]);
		else return usage();
	}
	if (i + 1 >= argc || rate < 0 || rate > 1)
		return usage();

	int master, slave;
	char pty[256];
	struct termios t;
	if (openpty(&master, &slave, pty, NULL, NULL)) {
		perror("faultproxy: openpty");
		return 1;
	}
	tcgetattr(slave, &t);
	cfmakeraw(&t);
	tcsetattr(slave, TCSANOW, &t);
	fcntl(master, F_SETFL, O_NONBLOCK);
	fcntl(master, F_SETFD, FD_CLOEXEC);
	fcntl(slave, F_SETFD, FD_CLOEXEC);

	/* the board, on pipes, in its own process group */
	int to_board[2], from_board[2];
	if (pipe2(to_board, O_CLOEXEC) || pipe2(from_board, O_CLOEXEC)) {
		perror("faultproxy: pipe");
		return 1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	pid_t bpid, cpid;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, to_board[0], 0);
	posix_spawn_file_actions_adddup2(&fa, from_board[1], 1);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	char *bargv[] = { "sh", "-c", NULL, NULL };
	char bcmd[1024];
	snprintf(bcmd, sizeof bcmd, "exec %s", board);
	bargv[2] = bcmd;
	if (posix_spawn(&bpid, "/bin/sh", &fa, &at, bargv, environ)) {
		perror("faultproxy: spawn board");
		return 1;
	}
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(to_board[0]);
	close(from_board[1]);
	fcntl(from_board[0], F_SETFL, O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);

	/* a board on a serial line is up before the host opens it: wait for
	 * the simulated board's first bytes (its BOOT frame) and drop them */
	{
		struct pollfd pb = { from_board[0], POLLIN, 0 };
		uint8_t boot[256];
		double until = now_s() + 60;
		while (now_s() < until && poll(&pb, 1, 100) >= 0) {
			if (!(pb.revents & (POLLIN | POLLHUP)))
				continue;
			if (read(from_board[0], boot, sizeof boot) <= 0)
				break;
			usleep(20000);     /* the rest of the frame */
			while (read(from_board[0], boot, sizeof boot) > 0)
				;
			break;
		}
	}

	/* the client, with @PTY@ replaced */
	int cargc = argc - i - 1;
	char **cargv = calloc((size_t)cargc + 1, sizeof *cargv);
	for (int k = 0; k < cargc; k++) {
		const char *a = argv[i + 1 + k], *at_;
		size_t uses = 0;
		for (at_ = a; (at_ = strstr(at_, "@PTY@")); at_ += 5)
			uses++;
		if (!uses) {
			cargv[k] = (char *)a;
			continue;
		}
		/* every @PTY@ (a shell command may run several clients) */
		size_t len = strlen(a) + uses * strlen(pty) + 1, o = 0;
		cargv[k] = malloc(len);
		for (const char *c = a; *c; ) {
			if (!strncmp(c, "@PTY@", 5)) {
				o += (size_t)snprintf(cargv[k] + o, len - o, "%s", pty);
				c += 5;
			} else {
				cargv[k][o++] = *c++;
			}
		}
		cargv[k][o] = '\0';
	}
	if (posix_spawnp(&cpid, cargv[0], NULL, NULL, cargv, environ)) {
		fprintf(stderr, "faultproxy: cannot run %s\n", cargv[0]);
		kill(-bpid, SIGKILL);
		return 1;
	}

	struct dir h2b = { .name = "host->board" }, b2h = { .name = "board->host" };
	/* each direction its own stream of faults */
	faults_init(&h2b.f, rate, seed, kind_list);
	faults_init(&b2h.f, rate, seed ^ 0x5bd1e995u, kind_list);
	uint8_t in[4096], out[2 * 4096];
	int board_alive = 1, status = 0, rc = -1;
	double start = now_s();
	for (;;) {
		pid_t w = waitpid(cpid, &status, WNOHANG);
		if (w == cpid) {
			rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			break;
		}
		if (timeout > 0 && now_s() - start > timeout) {
			kill(cpid, SIGKILL);
			waitpid(cpid, &status, 0);
			fprintf(stderr, "faultproxy: client killed after %.0f s\n", timeout);
			rc = 124;
			break;
		}
		struct pollfd p[2] = { { master, POLLIN, 0 }, { board_alive ? from_board[0] : -1, POLLIN, 0 } };
		if (poll(p, 2, 20) < 0 && errno != EINTR)
			break;
		if (master >= 0 && (p[0].revents & POLLIN)) {
			ssize_t n = read(master, in, sizeof in);
			if (n > 0 && board_alive) {
				size_t m = faults_apply(&h2b.f, in, (size_t)n, out);
				if (write_all(to_board[1], out, m))
					board_alive = 0;
			}
		}
		if (board_alive && (p[1].revents & (POLLIN | POLLHUP))) {
			ssize_t n = read(from_board[0], in, sizeof in);
			if (n > 0) {
				size_t m = faults_apply(&b2h.f, in, (size_t)n, out);
				write_all(master, out, m);
				if (kill_after && b2h.f.bytes_in >= kill_after) {
					kill(-bpid, SIGKILL);
					board_alive = 0;
				}
			} else if (n == 0 || errno != EAGAIN) {
				board_alive = 0;
			}
			if (!board_alive) {
				/* the device vanishes: the client sees a hang-up */
				close(slave);
				close(master);
				slave = master = -1;
			}
		}
	}
	kill(-bpid, SIGKILL);
	waitpid(bpid, NULL, 0);
	for (int k = 0; k < cargc; k++)
		if (cargv[k] != argv[i + 1 + k])
			free(cargv[k]);
	free(cargv);
	if (stats) {
		FILE *f = fopen(stats, "w");
		if (f) {
			for (struct dir *d = &h2b; d; d = d == &h2b ? &b2h : NULL) {
				fprintf(f, "%s bytes %llu out %llu", d->name, (unsigned long long)d->f.bytes_in,
					(unsigned long long)d->f.bytes_out);
				for (int k = 0; k < FK_N; k++)
					fprintf(f, " %s %llu", fault_kind_name[k], (unsigned long long)d->f.count[k]);
				fprintf(f, "\n");
			}
			fprintf(f, "seconds %.3f exit %d\n", now_s() - start, rc);
			fclose(f);
		}
	}
	return rc < 0 ? 1 : rc;
}
