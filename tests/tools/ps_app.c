/* SPDX-License-Identifier: MIT */
/*
 * A session member for tools/test_ps.sh: an Alchemy program whose task
 * "waiter" pends on the semaphore "gate" while main sleeps for argv[1]
 * ms, then lets it through.  `fusion ps` shows both threads and the
 * semaphore, with its waiter, under the member.
 */
#include <alchemy/sem.h>
#include <alchemy/task.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static RT_SEM gate;

static void waiter(void *arg)
{
	(void)arg;
	rt_sem_p(&gate, TM_INFINITE);
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 1000;
	RT_TASK task;
	int ret;

	ret = rt_sem_create(&gate, "gate", 0, S_PRIO);
	if (ret == 0)
		ret = rt_task_spawn(&task, "waiter", 0, 20, T_JOINABLE, waiter,
				    NULL);
	if (ret == 0)
		ret = rt_task_sleep((RTIME)ms * 1000000);
	if (ret == 0)
		ret = rt_sem_v(&gate);
	if (ret == 0)
		ret = rt_task_join(&task);
	if (ret) {
		fprintf(stderr, "ps_app: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
