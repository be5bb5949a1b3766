/* SPDX-License-Identifier: MIT */
/*
 * VxWorks and Alchemy tasks in one program, using each other's objects:
 * an Alchemy periodic task (Xenomai 3 code) gives a VxWorks semaphore
 * every millisecond; a VxWorks task takes it, sends a count through an
 * Alchemy queue, and an Alchemy task reads the queue; main, a VxWorks
 * task, waits on an Alchemy semaphore for the end.  Each skin keeps its
 * own priorities (VxWorks 0 most urgent, Alchemy 99 most urgent) on the
 * one nucleus scale.
 *
 * Build outside the Fusion tree:
 *   cc $(fusion-config --skin=vxworks --cflags) \
 *      $(fusion-config --skin=alchemy --cflags) mixed_alchemy.c \
 *      $(fusion-config --skin=vxworks --ldflags) -o mixed_alchemy
 */
#include <alchemy/queue.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>
#include <vxworks/semLib.h>
#include <vxworks/taskLib.h>

#include <stdio.h>

#define TICKS 200

static SEM_ID tick_sem;
static RT_QUEUE counts;
static RT_SEM finished;

static void alchemy_clock(void *arg)
{
	(void)arg;
	rt_task_set_periodic(NULL, TM_NOW, 1000000);
	for (int i = 0; i < TICKS; i++) {
		rt_task_wait_period(NULL);
		semGive(tick_sem);
	}
}

static int vx_counter(void)
{
	for (int i = 1; i <= TICKS; i++) {
		if (semTake(tick_sem, WAIT_FOREVER) == ERROR)
			return ERROR;
		if (i % 50 == 0)
			rt_queue_write(&counts, &i, sizeof(i), Q_NORMAL);
	}
	return OK;
}

static void alchemy_reader(void *arg)
{
	int n;

	(void)arg;
	for (int got = 0; got < TICKS / 50; got++) {
		if (rt_queue_read(&counts, &n, sizeof(n), TM_INFINITE) < 0)
			break;
		/* Calling taskName() made this Alchemy task a VxWorks one. */
		printf("%s: %d ticks counted by tCounter\n", taskName(0), n);
	}
	rt_sem_v(&finished);
}

int main(void)
{
	RT_TASK clock, reader;

	tick_sem = semCCreate(SEM_Q_PRIORITY, 0);
	if (tick_sem == NULL ||
	    rt_queue_create(&counts, "counts", 64, 8, Q_FIFO) ||
	    rt_sem_create(&finished, "finished", 0, S_FIFO))
		return 1;
	if (taskSpawn("tCounter", 50, 0, 0, (FUNCPTR)vx_counter, 0, 0, 0, 0, 0,
		      0, 0, 0, 0, 0) == ERROR ||
	    rt_task_spawn(&reader, "reader", 0, 10, 0, alchemy_reader, NULL) ||
	    rt_task_spawn(&clock, "clock", 0, 90, 0, alchemy_clock, NULL))
		return 1;
	rt_sem_p(&finished, TM_INFINITE);
	printf("done: main is VxWorks task %s at priority ", taskName(0));
	{
		int prio;

		taskPriorityGet(0, &prio);
		printf("%d\n", prio);
	}
	return 0;
}
