/* SPDX-License-Identifier: MIT */
/*
 * The watchdog of interrupt threads: the guard RLIMIT_RTTIME gives shadows
 * (watchdog.c), for a thread that blocks all the time.
 *
 * An interrupt thread sleeps in epoll_wait between arrivals, so the
 * kernel's limit, which counts CPU time since the last block, never trips
 * on it: a storm the pipeline's budget does not catch (several IRQs each
 * within budget, or the cost of waking up, which no handler is charged
 * with) could keep it at SCHED_FIFO 99 with nearly all of its CPU.  So
 * the thread measures itself: over each watchdog period (the RLIMIT_RTTIME
 * the watchdog set), when it used more than half of its CPU, it reports
 * it and demotes itself to SCHED_OTHER, below every shadow; once it slept
 * three quarters of a period (asleep, not starved), it takes SCHED_FIFO
 * 99 back, whoever demoted it (this check, or SIGXCPU if it never slept).
 * The check reads the monotonic clock around each wait, and the thread's
 * CPU clock and policy once per period.
 */
#include "live.h"

#include <sched.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

static nk_time_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (nk_time_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void live_irq_watchdog_start(struct live *live, struct live_cpu *cpu)
{
	struct live_irq_watchdog *wd = &cpu->irq_wd;
	struct rlimit limit;

	wd->period = 0;
	if (!live->watchdog || getrlimit(RLIMIT_RTTIME, &limit) ||
	    limit.rlim_cur == RLIM_INFINITY)
		return;
	wd->period = (nk_time_t)limit.rlim_cur * 1000;
	wd->start = live_clock();
	wd->cpu_start = thread_cpu_ns();
	wd->slept = 0;
}

/* Policy changes of our own thread: no lock of glibc's can be held. */
static void set_fifo(const struct live *live, bool fifo)
{
	struct sched_param param = {.sched_priority =
					fifo ? live_fifo_irq(live) : 0};

	pthread_setschedparam(pthread_self(), fifo ? SCHED_FIFO : SCHED_OTHER,
			      &param);
}

void live_irq_watchdog_check(struct live_cpu *cpu, nk_time_t slept_from)
{
	struct live_irq_watchdog *wd = &cpu->irq_wd;
	nk_time_t now = live_clock(), span, used;
	bool demoted;

	if (wd->period == 0)
		return;
	wd->slept += now - slept_from;
	if (now - wd->start < wd->period)
		return;
	span = now - wd->start;
	used = thread_cpu_ns() - wd->cpu_start;
	/* Demoted by us, or by SIGXCPU if it ran without sleeping. */
	demoted = sched_getscheduler(0) != SCHED_FIFO;
	if (!demoted && used > span / 2) {
		fprintf(stderr,
			"fusion: watchdog: interrupt thread fusion-irq/%d "
			"(tid %d) used %lld%% of its CPU over %lld ms; demoted "
			"to SCHED_OTHER until it calms down\n",
			cpu->index, (int)gettid(),
			(long long)(used * 100 / span),
			(long long)(span / 1000000));
		set_fifo(cpu->live, false);
	} else if (demoted && wd->slept > span / 4 * 3) {
		/* Asleep, not merely starved at SCHED_OTHER: calm. */
		set_fifo(cpu->live, true);
		fprintf(stderr,
			"fusion: watchdog: interrupt thread fusion-irq/%d back "
			"to SCHED_FIFO %d\n",
			cpu->index, live_fifo_irq(cpu->live));
	}
	wd->start = now;
	wd->cpu_start += used;
	wd->slept = 0;
}
