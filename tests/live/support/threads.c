/* SPDX-License-Identifier: MIT */
#include "threads.h"
#include "harness.h"

#include <fusion/fusion.h>

#include <sched.h>
#include <time.h>

long long live_test_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void live_test_spin(long long ns)
{
	long long until = live_test_now() + ns;

	while (live_test_now() < until)
		;
}

struct nk_thread *live_test_thread(struct nk_instance *nk, const char *name,
				   int prio, int cpu)
{
	struct nk_thread_attr attr = {.name = name,
				      .priority = prio,
				      .cpu = cpu,
				      .flags = NK_THREAD_JOINABLE};
	struct nk_thread *t;

	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	return t;
}

pthread_t live_test_fifo_thread(int linux_cpu, int prio, void *(*fn)(void *),
				void *arg)
{
	struct sched_param param = {.sched_priority = prio};
	pthread_attr_t attr;
	pthread_t thread;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(linux_cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &param);
	CHECK_EQ(pthread_create(&thread, &attr, fn, arg), 0);
	pthread_attr_destroy(&attr);
	return thread;
}
