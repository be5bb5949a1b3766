/* SPDX-License-Identifier: MIT */
/*
 * The bounded priority inversion of demo_inversion.c, in Alchemy, with
 * a named mutex so that a debugger shows it among the objects:
 *
 *   low  (prio 10) takes "lock" and works 3 ms;
 *   high (prio 30) wakes at 1 ms and needs "lock";
 *   mid  (prio 20) wakes at 1.5 ms and would work 5 ms.
 *
 * Alchemy mutexes inherit priority: low runs at 30 until it releases
 * the lock at 3 ms, high runs next, mid only afterwards.  Made for
 * `fusion sim --gui -- inversion` (README, The simulator as a
 * debugger): break on `block:high` and run twice to stop at 1 ms,
 * with high blocked on "lock", owned by low, boosted.
 */
#include <alchemy/mutex.h>
#include <alchemy/task.h>
#include <alchemy/timer.h>

#include <stdio.h>
#include <string.h>

#define MS 1000000ULL

static RT_MUTEX lock;

static void say(const char *what)
{
	printf("%8.3f ms  %s\n", rt_timer_read() / 1e6, what);
}

static void low(void *arg)
{
	(void)arg;
	if (rt_mutex_acquire(&lock, TM_INFINITE))
		return;
	say("low: holds the lock, works 3 ms");
	rt_timer_spin(3 * MS);
	rt_mutex_release(&lock);
}

static void mid(void *arg)
{
	(void)arg;
	if (rt_task_sleep(3 * MS / 2))
		return;
	say("mid: wakes, works 5 ms");
	rt_timer_spin(5 * MS);
	say("mid: done");
}

static void high(void *arg)
{
	(void)arg;
	if (rt_task_sleep(MS))
		return;
	say("high: wakes, needs the lock");
	if (rt_mutex_acquire(&lock, TM_INFINITE))
		return;
	say("high: got the lock");
	rt_timer_spin(MS / 2);
	rt_mutex_release(&lock);
	say("high: done");
}

int main(void)
{
	static const struct {
		const char *name;
		int prio;
		void (*body)(void *arg);
	} tasks[] = {{"high", 30, high}, {"mid", 20, mid}, {"low", 10, low}};
	RT_TASK task[3];
	int ret = rt_mutex_create(&lock, "lock");

	/* Each task preempts main as it starts: high and mid go to sleep
	 * first, so that low takes the lock at 0 ms. */
	for (int i = 0; ret == 0 && i < 3; i++)
		ret = rt_task_spawn(&task[i], tasks[i].name, 0, tasks[i].prio,
				    T_JOINABLE, tasks[i].body, NULL);
	for (int i = 0; ret == 0 && i < 3; i++)
		ret = rt_task_join(&task[i]);
	if (ret) {
		fprintf(stderr, "inversion: %s\n", strerror(-ret));
		return 1;
	}
	rt_mutex_delete(&lock);
	say("main: all tasks done");
	return 0;
}
