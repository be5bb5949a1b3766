/*
 * Watchdog: a primary-mode shadow that keeps its CPU too long without
 * blocking (a runaway loop) is reported and demoted to SCHED_OTHER, so
 * that Linux - and the user's shell - get the CPU back.
 *
 * The kernel does the timing: RLIMIT_RTTIME bounds the CPU time a
 * SCHED_FIFO thread may use without a blocking system call, and raises
 * SIGXCPU on the thread that exceeds it.  Every shadow blocks on its gate
 * whenever it leaves the CPU, so only a runaway trips it.
 */
#include "live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define LIVE_WATCHDOG_DEFAULT_MS 4000

static void watchdog_signal(int sig, siginfo_t *info, void *context)
{
	struct sched_param param = {.sched_priority = 0};
	char line[160];
	const char *name = live_current_name();
	int saved_errno = errno;
	char selector = live_sud_save_allow();
	int len;

	(void)sig;
	(void)info;
	(void)context;
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
	len = snprintf(line, sizeof(line),
		       "fusion: watchdog: thread %s (tid %d) kept its CPU in "
		       "real time too long; demoted to SCHED_OTHER\n",
		       name ? name : "?", (int)gettid());
	if (len > 0 && write(STDERR_FILENO, line, (size_t)len) < 0)
		errno = saved_errno;
	live_sud_restore(selector);
	errno = saved_errno;
}

int live_watchdog_start(struct live *live)
{
	const char *env = getenv("FUSION_WATCHDOG_MS");
	long ms = env && env[0] ? strtol(env, NULL, 10)
				: LIVE_WATCHDOG_DEFAULT_MS;
	struct rlimit limit;
	int ret;

	if (!live->rt || ms <= 0)
		return 0;
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
	if (!live->watchdog)
		return;
	setrlimit(RLIMIT_RTTIME, &live->saved_rttime);
	sigaction(SIGXCPU, &live->saved_sigxcpu, NULL);
	live->watchdog = false;
}
