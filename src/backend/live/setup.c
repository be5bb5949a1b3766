/* SPDX-License-Identifier: MIT */
/* RT CPU selection, scheduling privilege and priority mapping. */
#include "live.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

bool live_rt_allowed(bool no_rt)
{
	struct sched_param param = {.sched_priority = 1};
	int policy;
	struct sched_param saved;

	if (no_rt)
		return false;
	/* Ask the kernel rather than guess from rlimits and capabilities. */
	if (pthread_getschedparam(pthread_self(), &policy, &saved))
		return false;
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &param))
		return false;
	pthread_setschedparam(pthread_self(), policy, &saved);
	return true;
}

/*
 * One nucleus level per SCHED_FIFO level from the bottom of the range,
 * as Xenomai's Mercury maps Alchemy priority N to SCHED_FIFO N (Alchemy
 * N is nucleus N + 1; nucleus 0, main, shares the bottom): the user's
 * urgent threads stand where they expect against the rest of the
 * machine.  Levels above the range share its top, where the nucleus
 * still orders them; Linux only sees one priority for them.
 */
int live_fifo_prio(const struct live *live, int nucleus_prio)
{
	int prio = live->fifo_lo + (nucleus_prio > 0 ? nucleus_prio - 1 : 0);

	return prio < live->fifo_hi ? prio : live->fifo_hi;
}

int live_fifo_irq(const struct live *live)
{
	return live->fifo_hi + 1;
}

int live_pin_self(int linux_cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(linux_cpu, &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/*
 * Keep CPUs out of deep idle states while the instance lives (as
 * cyclictest does): waking from them costs tens of microseconds.  The
 * request holds as long as the file stays open.  Returns the fd or -1.
 */
int live_hold_dma_latency(void)
{
	int32_t zero = 0;
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);

	if (fd >= 0 && write(fd, &zero, sizeof(zero)) != sizeof(zero)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Touch the stack now so that page faults do not hit a real-time path. */
void live_prefault_stack(size_t size)
{
	volatile char *probe = __builtin_alloca(size);

	for (size_t off = 0; off < size; off += 4096)
		probe[off] = 0;
}

int live_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg,
		      int linux_cpu, int fifo_prio, size_t stack_size)
{
	struct sched_param param = {.sched_priority = fifo_prio};
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	if (linux_cpu >= 0)
		CPU_SET(linux_cpu, &set);
	else
		for (long i = 0;
		     i < sysconf(_SC_NPROCESSORS_CONF) && i < CPU_SETSIZE; i++)
			CPU_SET((int)i, &set);
	pthread_attr_init(&attr);
	if (stack_size)
		pthread_attr_setstacksize(&attr, stack_size);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	/* Explicit, never inherited: the creator may be a pinned RT shadow. */
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr,
				    fifo_prio ? SCHED_FIFO : SCHED_OTHER);
	pthread_attr_setschedparam(&attr, &param);
	ret = pthread_create(thread, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return -ret;
}
