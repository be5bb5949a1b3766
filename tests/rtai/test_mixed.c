/* SPDX-License-Identifier: MIT */
/*
 * RTAI and Alchemy in one program: this translation unit uses RTAI's
 * names, mixed_alchemy.c Alchemy's same names (rt_sem_delete,
 * rt_task_delete...), each mapped onto its skin's link names by the
 * headers.  The binary links only if the names do not collide, and
 * each call must reach its own skin.
 */
#include "rtai_test.h"

#include "mixed.h"

#include <rtai/rtai_sem.h>

TEST(same_names_two_skins)
{
	unsigned long count = 0;
	unsigned long long slept = 0;
	SEM *sem;

	main_task();
	sem = rt_sem_init(nam2num("MIXED"), 3);
	CHECK(sem != NULL);
	/* Alchemy's semaphore of the same name lives in its own space. */
	CHECK_EQ(alchemy_side_sem(&count), 0);
	CHECK_EQ(count, 1);
	CHECK_EQ(rt_sem_wait(sem), 3);
	CHECK_EQ(rt_sem_count(sem), 2);
	CHECK_EQ(alchemy_side_task(&slept), 0);
	if (on_sim())
		CHECK_EQ(slept, MS);
	/* main is an RTAI task still, whatever Alchemy attached. */
	CHECK(rt_whoami() == rt_get_adr(nam2num("MAIN")));
	CHECK_EQ(rt_sem_delete(sem), 0);
	CHECK_EQ(rt_sem_delete(sem), RTE_OBJINV);
}

TESTS(T(same_names_two_skins));
