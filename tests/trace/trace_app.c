/* SPDX-License-Identifier: MIT */
/*
 * A program recorded by tests/trace/test_*.sh: an Alchemy semaphore and
 * priority-inheritance mutex between three tasks and a mark, run under
 * FUSION_TRACE.  On sim its trace is the same every run.
 */
#include <alchemy/mutex.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>
#include <alchemy/timer.h>

#include <fusion/trace.h>

static RT_MUTEX lock;
static RT_SEM go;

/* Takes the lock first and holds it 1 ms of CPU. */
static void owner(void *arg)
{
	(void)arg;
	rt_mutex_acquire(&lock, TM_INFINITE);
	rt_sem_v(&go);
	rt_timer_spin(1000000);
	rt_mutex_release(&lock);
}

/* Wants the lock while owner holds it: owner is boosted. */
static void urgent(void *arg)
{
	(void)arg;
	rt_sem_p(&go, TM_INFINITE);
	fusion_trace_mark("urgent wants the lock");
	rt_mutex_acquire(&lock, TM_INFINITE);
	rt_mutex_release(&lock);
}

int main(void)
{
	RT_TASK a, b;

	rt_mutex_create(&lock, "lock");
	rt_sem_create(&go, "go", 0, S_FIFO);
	rt_task_spawn(&b, "urgent", 0, 30, T_JOINABLE, urgent, NULL);
	rt_task_spawn(&a, "owner", 0, 10, T_JOINABLE, owner, NULL);
	rt_task_join(&b);
	rt_task_join(&a);
	rt_sem_delete(&go);
	rt_mutex_delete(&lock);
	return 0;
}
