/* SPDX-License-Identifier: MIT */
/*
 * The Alchemy side of bench_rtai: the same semaphore ping-pong through
 * rt_sem_v/rt_sem_p, in a translation unit of its own.
 */
#include "bench_rtai.h"

#include <alchemy/sem.h>
#include <alchemy/task.h>

static RT_SEM ping, pong;
static volatile int stop;

static void sem_peer(void *arg)
{
	(void)arg;
	while (rt_sem_p(&ping, TM_INFINITE) == 0 && !stop)
		rt_sem_v(&pong);
}

double bench_alchemy_sem_round_trips(long rounds)
{
	RT_TASK task;
	double t0, ns;

	rt_sem_create(&ping, NULL, 0, S_FIFO);
	rt_sem_create(&pong, NULL, 0, S_FIFO);
	/* More urgent than main (RTAI 200: nucleus 55), as RTAI's peer. */
	rt_task_spawn(&task, NULL, 0, 99, T_JOINABLE, sem_peer, NULL);
	t0 = bench_wall_ns();
	for (long i = 0; i < rounds; i++) {
		rt_sem_v(&ping);
		rt_sem_p(&pong, TM_INFINITE);
	}
	ns = (bench_wall_ns() - t0) / rounds;
	stop = 1;
	rt_sem_v(&ping);
	rt_task_join(&task);
	rt_sem_delete(&ping);
	rt_sem_delete(&pong);
	return ns;
}
