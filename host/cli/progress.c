/* Progress on stderr while libhpm blocks in a run: a helper thread redraws
 * one status line, but only if stderr is a terminal and the work has taken
 * more than a second; the line is erased when the work ends. */
#include <stdarg.h>
#include <unistd.h>
#include "hpmctl.h"

#define SHOW_AFTER_MS 1000
#define REDRAW_MS     200

static int64_t ms_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000;
}

static void *progress_thread(void *arg)
{
	struct progress *p = arg;
	pthread_mutex_lock(&p->lock);
	while (!p->done) {
		int64_t ms = ms_since(&p->start);
		if (ms >= SHOW_AFTER_MS) {
			fprintf(stderr, "\r\033[Khpmctl: %s (%.1f s)", p->what, (double)ms / 1000);
			fflush(stderr);
			p->shown = 1;
		}
		int64_t wait = ms < SHOW_AFTER_MS ? SHOW_AFTER_MS - ms : REDRAW_MS;
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += wait / 1000;
		until.tv_nsec += (long)(wait % 1000) * 1000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->cond, &p->lock, &until);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

void progress_begin(struct progress *p, const char *fmt, ...)
{
	va_list ap;
	pthread_condattr_t ca;

	p->enabled = isatty(STDERR_FILENO);
	p->done = p->shown = 0;
	va_start(ap, fmt);
	vsnprintf(p->what, sizeof p->what, fmt, ap);
	va_end(ap);
	if (!p->enabled)
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&p->thread, NULL, progress_thread, p)) {
		pthread_cond_destroy(&p->cond);
		pthread_mutex_destroy(&p->lock);
		p->enabled = 0;     /* no progress display is no failure */
	}
}

void progress_set(struct progress *p, const char *fmt, ...)
{
	va_list ap;
	if (!p->enabled)
		return;
	pthread_mutex_lock(&p->lock);
	va_start(ap, fmt);
	vsnprintf(p->what, sizeof p->what, fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&p->lock);
}

void progress_clear(struct progress *p)
{
	if (!p->enabled)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->shown = 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	pthread_mutex_unlock(&p->lock);
}

void progress_end(struct progress *p)
{
	if (!p->enabled)
		return;
	pthread_mutex_lock(&p->lock);
	p->done = 1;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	p->enabled = 0;
}
