/* SPDX-License-Identifier: MIT */
/*
 * Watchdog: a primary-mode shadow that keeps its CPU too long without
 * blocking (a runaway loop) is reported and demoted to SCHED_OTHER, so
 * that Linux - and the user's shell - get the CPU back.
 *
 * The kernel does the timing: RLIMIT_RTTIME bounds the CPU time a
 * SCHED_FIFO thread may use without a blocking system call, and raises
 * SIGXCPU on the thread that exceeds it.  Every shadow blocks on its gate
 * whenever it leaves the CPU, so only a runaway trips it.
 *
 * The handler demotes the thread with the bare system call: glibc's
 * pthread_setschedparam takes a lock of the thread, which the code it
 * interrupted may hold (pthread_getschedparam does), and would deadlock.
 * glibc also caches the policy that pthread_getschedparam reports, so the
 * watchdog thread then makes the same change through pthread_setschedparam
 * from an ordinary context.  A shadow withdraws itself (live_watchdog_forget)
 * before its pthread_t may go.  The watchdog thread also fires the
 * watchdog tracepoint for the handler, which must not take the nucleus
 * lock: it notes the thread's name and the date for it.
 */
#include "live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Ask the watchdog thread to tell glibc of @s's demotion. */
static void watchdog_post(struct live_shadow *s)
{
	struct live *live = s->live;
	struct live_shadow *none = NULL;

	if (!live->wd_started)
		return;
	/* Another shadow of the CPU waiting for its turn keeps its slot: the
	 * kernel has demoted @s already, only glibc's copy goes stale. */
	if (atomic_compare_exchange_strong(&live->wd_demoted[s->cpu], &none, s))
		be_gate_open(&live->wd_gate);
}

/*
 * Note, for the watchdog thread, that the thread @name of RT CPU @cpu
 * was demoted now.  In the handler: plain stores and the vDSO clock.
 * A demotion on a CPU whose last one is not traced yet is not traced.
 */
static void watchdog_note(struct live *live, int cpu, const char *name)
{
	struct live_wd_event *ev = &live->wd_event[cpu];
	size_t n = 0;

	if (!live->wd_started || atomic_load(&ev->pending))
		return;
	ev->date = live_clock();
	while (name && name[n] && n < sizeof(ev->name) - 1) {
		ev->name[n] = name[n];
		n++;
	}
	ev->name[n] = '\0';
	atomic_store(&ev->pending, true);
	be_gate_open(&live->wd_gate);
}

/* Fire the tracepoint of every demotion noted. */
static void watchdog_trace(struct live *live)
{
	for (int i = 0; i < live->nr_cpus; i++) {
		struct live_wd_event *ev = &live->wd_event[i];

		if (!atomic_load(&ev->pending))
			continue;
		live_nucleus_lock(live);
		live->handlers->watchdog(live->nk, i, ev->name, ev->date);
		live_nucleus_unlock(live);
		atomic_store(&ev->pending, false);
	}
}

static void watchdog_signal(int sig, siginfo_t *info, void *context)
{
	struct sched_param param = {.sched_priority = 0};
	char line[160];
	struct live_shadow *s = live_current_shadow();
	const char *name = live_current_name();
	int saved_errno = errno;
	char selector = live_sud_save_allow();
	int len;

	(void)sig;
	(void)info;
	(void)context;
	live_signals++;
	syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &param);
	if (s) {
		watchdog_note(s->live, atomic_load(&s->cpu), name);
		watchdog_post(s);
	}
	len = snprintf(line, sizeof(line),
		       "fusion: watchdog: thread %s (tid %d) kept its CPU in "
		       "real time too long; demoted to SCHED_OTHER\n",
		       name ? name : "?", (int)gettid());
	if (len > 0 && write(STDERR_FILENO, line, (size_t)len) < 0)
		errno = saved_errno;
	live_sud_restore(selector);
	errno = saved_errno;
}

static void *watchdog_main(void *arg)
{
	struct live *live = arg;
	struct sched_param param = {.sched_priority = 0};

	pthread_setname_np(pthread_self(), "fusion-watchdog");
	while (!atomic_load(&live->wd_stop)) {
		for (int i = 0; i < live->nr_cpus; i++) {
			struct live_shadow *s =
			    atomic_load(&live->wd_demoted[i]);

			if (s == NULL)
				continue;
			/* Busy first: see live_watchdog_forget. */
			atomic_store(&live->wd_busy, s);
			if (atomic_compare_exchange_strong(&live->wd_demoted[i],
							   &s, NULL))
				pthread_setschedparam(s->pthread, SCHED_OTHER,
						      &param);
			atomic_store(&live->wd_busy, NULL);
		}
		watchdog_trace(live);
		be_gate_wait(&live->wd_gate);
	}
	watchdog_trace(live); /* a demotion just before the end */
	return NULL;
}

/* Above every shadow, so that it runs even beside a runaway. */
static int watchdog_thread_start(struct live *live)
{
	int ret;

	be_gate_init(&live->wd_gate, false);
	ret = live_thread_start(&live->wd_thread, watchdog_main, live, -1,
				live_fifo_irq(live), 0);
	if (ret)
		return ret;
	live->wd_started = true;
	return 0;
}

/*
 * Called by @s's own OS thread once the SIGXCPU handler can no longer see
 * it as a shadow, while its pthread_t is still good: no request for @s
 * stays behind, and the watchdog thread is done with one it took.  The
 * thread publishes wd_busy before it takes the request, so whoever loses
 * the race for the slot sees the winner.
 */
void live_watchdog_forget(struct live_shadow *s)
{
	struct live *live = s->live;
	struct live_shadow *mine = s;

	if (!live->wd_started)
		return;
	atomic_compare_exchange_strong(&live->wd_demoted[s->cpu], &mine, NULL);
	while (atomic_load(&live->wd_busy) == s)
		sched_yield();
}

int live_watchdog_start(struct live *live, long ms)
{
	struct rlimit limit;
	int ret;

	if (!live->rt || ms == 0)
		return 0;
	ret = watchdog_thread_start(live);
	if (ret)
		return ret;
	if (getrlimit(RLIMIT_RTTIME, &live->saved_rttime))
		return -errno;
	limit.rlim_cur = (rlim_t)ms * 1000;
	limit.rlim_max = live->saved_rttime.rlim_max;
	if (limit.rlim_cur > limit.rlim_max)
		limit.rlim_cur = limit.rlim_max;
	ret = live_install_handler(live, SIGXCPU, watchdog_signal,
				   &live->saved_sigxcpu);
	if (ret)
		return ret;
	if (setrlimit(RLIMIT_RTTIME, &limit))
		return -errno;
	live->watchdog = true;
	return 0;
}

void live_watchdog_stop(struct live *live)
{
	if (live->watchdog) {
		setrlimit(RLIMIT_RTTIME, &live->saved_rttime);
		sigaction(SIGXCPU, &live->saved_sigxcpu, NULL);
		live->watchdog = false;
	}
	if (live->wd_started) {
		atomic_store(&live->wd_stop, true);
		be_gate_open(&live->wd_gate);
		pthread_join(live->wd_thread, NULL);
		live->wd_started = false;
	}
}
