/* SPDX-License-Identifier: MIT */
/*
 * Bounded priority inversion, the classic three-thread case, on the sim
 * backend:
 *
 *   low  (prio 10) takes a priority-inheritance mutex and works 3 ms;
 *   high (prio 30) wakes at 1 ms and needs the mutex;
 *   mid  (prio 20) wakes at 1.5 ms and would run for 5 ms.
 *
 * Without inheritance mid would keep low - and so high - off the CPU for
 * 5 ms.  With it, low runs at high's priority until it releases the
 * mutex (at 3 ms), high runs next, and mid only afterwards.  Run with
 * FUSION_SIM_LOG=FILE to see every switch and priority change.
 */
#include <fusion/fusion.h>

#include <stdio.h>
#include <stdlib.h>

#define MS 1000000LL

static struct nk_instance *nk;
static struct nk_mutex lock;

static void report(const char *what)
{
	printf("%8.3f ms  %s\n", nk_now(nk) / 1e6, what);
}

static void low_body(void *arg)
{
	(void)arg;
	if (nk_mutex_lock(&lock, NK_INFINITE, NK_RELATIVE) != 0)
		return;
	report("low: holds the mutex, works 3 ms");
	nk_consume(nk, 3 * MS);
	report("low: releases the mutex");
	nk_mutex_unlock(&lock);
	report("low: done");
}

static void mid_body(void *arg)
{
	(void)arg;
	if (nk_thread_sleep(nk, 1500000, NK_RELATIVE) != 0)
		return;
	report("mid: wakes, works 5 ms");
	nk_consume(nk, 5 * MS);
	report("mid: done");
}

static void high_body(void *arg)
{
	(void)arg;
	if (nk_thread_sleep(nk, 1 * MS, NK_RELATIVE) != 0)
		return;
	report("high: wakes, needs the mutex");
	if (nk_mutex_lock(&lock, NK_INFINITE, NK_RELATIVE) != 0)
		return;
	report("high: got the mutex");
	nk_consume(nk, MS / 2);
	nk_mutex_unlock(&lock);
	report("high: done");
}

static struct nk_thread *spawn(const char *name, int prio, nk_thread_fn body)
{
	struct nk_thread_attr attr = {
	    .name = name,
	    .priority = prio,
	    .flags = NK_THREAD_JOINABLE,
	};
	struct nk_thread *thread;
	int ret = nk_thread_create(nk, &attr, &thread);

	if (ret == 0)
		ret = nk_thread_start(thread, body, NULL);
	if (ret) {
		fprintf(stderr, "demo: cannot start %s: %d\n", name, ret);
		exit(1);
	}
	return thread;
}

int main(void)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 99};
	struct nk_thread *threads[3];
	int ret = nk_instance_create(&attr, &nk);

	if (ret) {
		fprintf(stderr, "demo: nk_instance_create: %d\n", ret);
		return 1;
	}
	nk_mutex_init(nk, &lock, "mutex", NK_SYNCH_PI, 0);
	threads[0] = spawn("low", 10, low_body);
	threads[1] = spawn("mid", 20, mid_body);
	threads[2] = spawn("high", 30, high_body);
	for (int i = 0; i < 3; i++)
		if (nk_thread_join(threads[i]) != 0)
			return 1;
	report("main: all threads done");
	nk_mutex_destroy(&lock);
	nk_instance_destroy(nk);
	return 0;
}
