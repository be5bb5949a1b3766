/* SPDX-License-Identifier: MIT */
/*
 * pSOS and Alchemy in one program: an Alchemy task waits on a pSOS
 * semaphore and a pSOS task on an Alchemy one; their priorities meet on
 * the nucleus (Alchemy p is nucleus p + 1, pSOS p is nucleus p).
 */
#include "psos_test.h"

#include <alchemy/sem.h>
#include <alchemy/task.h>

static unsigned long psem;
static RT_SEM asem;

static void alchemy_body(void *arg)
{
	unsigned long self = 0;

	(void)arg;
	/* An Alchemy task is a pSOS task too, on its first pSOS call. */
	CHECK_EQ(t_ident(NULL, 0, &self), 0);
	CHECK(self != 0);
	note("alchemy:%lx", sm_p(psem, SM_WAIT, 0));
}

static void psos_body(void *arg)
{
	note("%s:%lx", (const char *)arg, sm_p(psem, SM_WAIT, 0));
}

static void psos_on_alchemy(void *arg)
{
	(void)arg;
	note("psos-on-alchemy:%d", rt_sem_p(&asem, TM_INFINITE));
}

TEST(one_program)
{
	RT_TASK at;

	CHECK_EQ(sm_create("PSEM", 0, SM_PRIOR, &psem), 0);
	CHECK_EQ(rt_sem_create(&asem, "asem", 0, S_PRIO), 0);
	log_start();
	/* Alchemy 19 is nucleus 20, above pSOS 15 and below pSOS 25. */
	CHECK_EQ(
	    rt_task_spawn(&at, "alch", 0, 19, T_JOINABLE, alchemy_body, NULL),
	    0);
	spawn("P15", 15, 0, psos_body, "p15");
	spawn("P25", 25, 0, psos_body, "p25");
	spawn("PA", 10, 0, psos_on_alchemy, NULL);
	note("give");
	/* By priority on the nucleus: p25, then Alchemy's, then p15. */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(sm_v(psem), 0);
	CHECK_EQ(rt_sem_v(&asem), 0);
	CHECK_EQ(rt_task_join(&at), 0);
	check_log("give@0 p25:0@0 alchemy:0@0 p15:0@0 psos-on-alchemy:0@0");
	CHECK_EQ(sm_delete(psem), 0);
	CHECK_EQ(rt_sem_delete(&asem), 0);
}

TESTS(T(one_program));
