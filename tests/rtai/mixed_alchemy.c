/* SPDX-License-Identifier: MIT */
/*
 * The Alchemy translation unit of test_mixed: it sees Alchemy's names
 * only (rt_sem_create, rt_sem_delete, rt_task_sleep...), while
 * test_mixed.c sees RTAI's same names; each links to its own skin.
 */
#include "mixed.h"

#include <alchemy/alarm.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>
#include <alchemy/timer.h>

int alchemy_side_sem(unsigned long *count)
{
	RT_SEM_INFO info;
	RT_SEM sem;
	int ret;

	ret = rt_sem_create(&sem, "mixed", 2, S_FIFO);
	if (ret == 0)
		ret = rt_sem_p(&sem, TM_NONBLOCK);
	if (ret == 0)
		ret = rt_sem_inquire(&sem, &info);
	if (ret == 0)
		*count = info.count;
	return ret ? ret : rt_sem_delete(&sem);
}

int alchemy_side_task(unsigned long long *slept)
{
	RTIME t0 = rt_timer_read();
	int ret;

	/* The caller, an RTAI task, is an Alchemy task too on this call. */
	if (rt_task_self() == NULL)
		return -ESRCH;
	ret = rt_task_sleep(1000000);
	*slept = rt_timer_read() - t0;
	return ret;
}

int alchemy_side_in_handler(void (*fn)(void *arg), void *arg)
{
	RT_ALARM alarm;
	int ret;

	ret = rt_alarm_create(&alarm, NULL, fn, arg);
	if (ret)
		return ret;
	ret = rt_alarm_start(&alarm, 1000000, TM_INFINITE);
	if (ret == 0)
		ret = rt_task_sleep(2000000);
	rt_alarm_delete(&alarm);
	return ret;
}
