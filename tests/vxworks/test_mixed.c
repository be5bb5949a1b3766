/* SPDX-License-Identifier: MIT */
/*
 * VxWorks and Alchemy in one program: each skin's priorities on the one
 * nucleus scale, a task of one skin blocking on the other's objects and
 * woken by the other's tasks, an Alchemy task becoming a VxWorks task on
 * its first VxWorks call (create and delete hooks included).
 */
#include "vxworks_test.h"

#include <alchemy/sem.h>
#include <alchemy/task.h>

static SEM_ID vx_sem;
static RT_SEM al_sem;

static void alchemy_waiter(void *arg)
{
	(void)arg;
	CHECK_EQ(semTake(vx_sem, WAIT_FOREVER), OK);
	note("alchemy-took-vx");
	CHECK_STR(taskName(0), "alwait");
	CHECK(taskIdSelf() != 0);
}

static int vx_waiter(long arg)
{
	(void)arg;
	CHECK_EQ(rt_sem_p(&al_sem, TM_INFINITE), 0);
	note("vx-took-alchemy");
	return 0;
}

static void hook(WIND_TCB *tcb)
{
	char item[48];

	snprintf(item, sizeof(item), "hook:%s", tcb->name);
	step(item);
}

TEST(objects_across_skins)
{
	RT_TASK al;

	vx_sem = semBCreate(SEM_Q_PRIORITY, SEM_EMPTY);
	CHECK_EQ(rt_sem_create(&al_sem, NULL, 0, S_PRIO), 0);
	log_start();
	CHECK_EQ(taskCreateHookAdd(FN(hook)), OK);
	CHECK_EQ(taskDeleteHookAdd(FN(hook)), OK);
	CHECK_EQ(rt_task_spawn(&al, "alwait", 0, 50, T_JOINABLE, alchemy_waiter,
			       NULL),
		 0);
	spawn("vxwait", 100, (FUNCPTR)vx_waiter, 0);
	CHECK_EQ(taskDelay(2), OK);
	note("give");
	CHECK_EQ(semGive(vx_sem), OK);
	CHECK_EQ(rt_sem_v(&al_sem), 0);
	CHECK_EQ(rt_task_join(&al), 0);
	/* The Alchemy task became a VxWorks task at its first call. */
	check_log("hook:alwait hook:vxwait give@2 alchemy-took-vx@2 "
		  "hook:alwait vx-took-alchemy@2 hook:vxwait");
	CHECK_EQ(taskCreateHookDelete(FN(hook)), OK);
	CHECK_EQ(taskDeleteHookDelete(FN(hook)), OK);
	CHECK_EQ(semDelete(vx_sem), OK);
	CHECK_EQ(rt_sem_delete(&al_sem), 0);
}

static void alchemy_prio_probe(void *arg)
{
	int *prio = arg;

	CHECK_EQ(taskPriorityGet(0, prio), OK);
}

/* Alchemy p runs at nucleus p + 1, VxWorks v at 255 - v. */
TEST(priority_scales)
{
	RT_TASK al;
	int prio = -1;

	CHECK_EQ(rt_task_spawn(&al, NULL, 0, 99, T_JOINABLE, alchemy_prio_probe,
			       &prio),
		 0);
	CHECK_EQ(rt_task_join(&al), 0);
	CHECK_EQ(prio, 255 - 100);
	CHECK_EQ(rt_task_spawn(&al, NULL, 0, 1, T_JOINABLE, alchemy_prio_probe,
			       &prio),
		 0);
	CHECK_EQ(rt_task_join(&al), 0);
	CHECK_EQ(prio, 255 - 2);
}

TESTS(T(objects_across_skins), T(priority_scales));
