/* SPDX-License-Identifier: MIT */
/*
 * Every Alchemy service call an application makes is traced, in the
 * alchemy category: name, object (the descriptor's handle), result;
 * the calls the skin makes to itself are not.
 */
#include "alchemy_test.h"

#include <alchemy/sem.h>
#include <alchemy/task.h>

#include <errno.h>

TEST(semaphore_calls_in_order)
{
	RT_SEM sem = {0};
	RT_SEM_INFO info;
	char expected[512];
	uintptr_t h;

	services_record(NK_TRACE_ALCHEMY);
	CHECK_EQ(rt_sem_create(&sem, "s", 1, S_FIFO), 0);
	h = sem.handle;
	CHECK_EQ(rt_sem_p(&sem, TM_NONBLOCK), 0);
	CHECK_EQ(rt_sem_p(&sem, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_sem_v(&sem), 0);
	CHECK_EQ(rt_sem_inquire(&sem, NULL), -EINVAL);
	CHECK_EQ(rt_sem_inquire(NULL, &info), -EINVAL);
	CHECK_EQ(rt_sem_delete(&sem), 0);
	CHECK_EQ(rt_sem_v(&sem), -EINVAL);
	services_stop();
	snprintf(expected, sizeof(expected),
		 "rt_sem_create %#" PRIxPTR " 0 rt_sem_p %#" PRIxPTR
		 " 0 rt_sem_p %#" PRIxPTR " %d rt_sem_v %#" PRIxPTR
		 " 0 rt_sem_inquire %#" PRIxPTR " %d rt_sem_inquire 0 %d "
		 "rt_sem_delete %#" PRIxPTR " 0 rt_sem_v %#" PRIxPTR " %d",
		 h, h, h, -EWOULDBLOCK, h, h, -EINVAL, -EINVAL, h, h, -EINVAL);
	CHECK_STR(services_trail, expected);
}

static void body(void *arg)
{
	(void)arg;
}

/* rt_task_spawn() creates and starts the task with rt_task_create()
 * and rt_task_start(): one call, one event. */
TEST(nested_calls_are_not_traced)
{
	RT_TASK task = {0};
	char expected[256];

	services_record(NK_TRACE_ALCHEMY);
	CHECK_EQ(rt_task_spawn(&task, "t", 0, 10, T_JOINABLE, body, NULL), 0);
	services_stop();
	snprintf(expected, sizeof(expected), "rt_task_spawn %#" PRIxPTR " 0",
		 task.handle);
	CHECK_STR(services_trail, expected);
	CHECK_EQ(rt_task_join(&task), 0);
}

TESTS(T(semaphore_calls_in_order), T(nested_calls_are_not_traced));
