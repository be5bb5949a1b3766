/* SPDX-License-Identifier: MIT */
/*
 * RTAI read-write locks and spinlocks: readers together, a writer
 * alone and nesting, a waiting writer holding back later readers,
 * priority order, timeouts at exact dates (sim), deletion, the
 * spinlock holder keeping its CPU, bad input.
 */
#include "rtai_test.h"

#include <rtai/rtai_rwl.h>
#include <rtai/rtai_spl.h>

static RWL *rwl;

struct locker {
	const char *name;
	int prio;
	bool write;
	RTIME hold;
	int ret;
};

static void locker_body(void *arg)
{
	struct locker *k = arg;

	CHECK(rt_task_init(0, k->prio, 0, 0) != NULL);
	k->ret = k->write ? rt_rwl_wrlock(rwl) : rt_rwl_rdlock(rwl);
	note("%s+", k->name);
	if (k->ret)
		return;
	CHECK_EQ(rt_sleep(k->hold), 0);
	note("%s-", k->name);
	CHECK_EQ(rt_rwl_unlock(rwl), 0);
}

TEST(readers_writers)
{
	struct locker r1 = {"r1", 10, false, 2 * MS, 1};
	struct locker w = {"w", 20, true, MS, 1};
	struct locker r2 = {"r2", 5, false, MS, 1};
	long a, b, c;

	main_task();
	rwl = rt_rwl_init(nam2num("RWL"));
	CHECK(rwl != NULL);
	log_start();
	a = start(locker_body, &r1);
	/* The writer waits for r1, and r2 comes after it: it waits too,
	 * queued ahead of the writer (more urgent), and reads first. */
	b = start(locker_body, &w);
	c = start(locker_body, &r2);
	finish(a);
	finish(b);
	finish(c);
	check_log("r1+@0 r1-@2000000 r2+@2000000 r2-@3000000 w+@3000000 "
		  "w-@4000000");
	CHECK_EQ(w.ret, 0);
	CHECK_EQ(rt_rwl_delete(rwl), 0);
}

TEST(writer_nests_and_conditional_locks)
{
	main_task();
	rwl = rt_rwl_init(0);
	CHECK_EQ(rt_rwl_wrlock(rwl), 0);
	CHECK_EQ(rt_rwl_wrlock_if(rwl), 0);
	CHECK_EQ(rt_rwl_rdlock(rwl), RTE_DEADLOK);
	CHECK_EQ(rt_rwl_unlock(rwl), 0);
	CHECK_EQ(rt_rwl_unlock(rwl), 0);
	CHECK_EQ(rt_rwl_unlock(rwl), RTE_PERM);
	CHECK_EQ(rt_rwl_rdlock_if(rwl), 0);
	CHECK_EQ(rt_rwl_rdlock_timed(rwl, MS), 0);
	CHECK_EQ(rt_rwl_wrlock_if(rwl), RTE_TIMOUT);
	CHECK_EQ(rt_rwl_wrlock_timed(rwl, 0), RTE_TIMOUT);
	CHECK_EQ(rt_rwl_wrlock_until(rwl, rt_get_time()), RTE_TIMOUT);
	CHECK_EQ(rt_rwl_unlock(rwl), 0);
	CHECK_EQ(rt_rwl_unlock(rwl), 0);
	CHECK_EQ(rt_rwl_wrlock_until(rwl, rt_get_time() + MS), 0);
	CHECK_EQ(rt_rwl_rdlock_if(rwl), RTE_DEADLOK);
	CHECK_EQ(rt_rwl_unlock(rwl), 0);
	CHECK_EQ(rt_rwl_rdlock_until(rwl, rt_get_time() + MS), 0);
	CHECK_EQ(rt_rwl_unlock(rwl), 0);
	CHECK_EQ(rt_rwl_delete(rwl), 0);
}

TEST(timeout_and_deletion)
{
	struct locker hold = {"hold", 10, true, 5 * MS, 1};
	long a;
	int ret;

	main_task();
	rwl = rt_rwl_init(0);
	log_start();
	a = start(locker_body, &hold);
	ret = rt_rwl_rdlock_timed(rwl, MS);
	note("t%d", ret == RTE_TIMOUT);
	finish(a);
	check_log("hold+@0 t1@1000000 hold-@5000000");
	CHECK_EQ(rt_rwl_delete(rwl), 0);
}

TEST(rwl_bad_input)
{
	RWL *gone = rt_rwl_init(0);
	RWL *bads[] = {NULL, (RWL *)0x10, (RWL *)UINTPTR_MAX,
		       (RWL *)main_task(), gone};

	CHECK_EQ(rt_rwl_delete(gone), 0);
	for (unsigned int i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		RWL *l = bads[i];

		CHECK_EQ(rt_rwl_delete(l), RTE_OBJINV);
		CHECK_EQ(rt_rwl_rdlock(l), RTE_OBJINV);
		CHECK_EQ(rt_rwl_rdlock_if(l), RTE_OBJINV);
		CHECK_EQ(rt_rwl_rdlock_until(l, 0), RTE_OBJINV);
		CHECK_EQ(rt_rwl_rdlock_timed(l, 1), RTE_OBJINV);
		CHECK_EQ(rt_rwl_wrlock(l), RTE_OBJINV);
		CHECK_EQ(rt_rwl_wrlock_if(l), RTE_OBJINV);
		CHECK_EQ(rt_rwl_wrlock_until(l, 0), RTE_OBJINV);
		CHECK_EQ(rt_rwl_wrlock_timed(l, 1), RTE_OBJINV);
		CHECK_EQ(rt_rwl_unlock(l), RTE_OBJINV);
	}
}

/* --- spinlocks --- */

static SPL *spl;

static void spl_contender(void *arg)
{
	(void)arg;
	CHECK(rt_task_init(0, 5, 0, 0) != NULL);
	note("contender");
}

TEST(spinlock_keeps_the_cpu)
{
	long id;

	main_task();
	spl = rt_spl_init(nam2num("SPL"));
	CHECK(spl != NULL);
	log_start();
	CHECK_EQ(rt_spl_lock(spl), 0);
	/* A more urgent thread cannot run while main holds it. */
	id = create(spl_contender, NULL);
	rt_task_yield();
	note("held");
	CHECK_EQ(rt_spl_lock(spl), RTE_DEADLOK);
	CHECK_EQ(rt_spl_lock_if(spl), RTE_DEADLOK);
	/* Waiting is not allowed while it is held. */
	CHECK_EQ(rt_sleep(MS), RTE_PERM);
	CHECK_EQ(rt_spl_unlock(spl), 0);
	note("released");
	finish(id);
	check_log("held@0 released@0 contender@0");
	CHECK_EQ(rt_spl_unlock(spl), RTE_PERM);
	CHECK_EQ(rt_spl_lock_if(spl), 0);
	CHECK_EQ(rt_spl_unlock(spl), 0);
	CHECK_EQ(rt_spl_lock_timed(spl, MS), 0);
	/* Held: it stays. */
	CHECK_EQ(rt_spl_delete(spl), RTE_PERM);
	CHECK_EQ(rt_spl_unlock(spl), 0);
	CHECK_EQ(rt_spl_delete(spl), 0);
}

TEST(spl_bad_input)
{
	SPL *gone = rt_spl_init(0);
	SPL *bads[] = {NULL, (SPL *)0x10, (SPL *)UINTPTR_MAX,
		       (SPL *)main_task(), gone};

	CHECK_EQ(rt_spl_delete(gone), 0);
	for (unsigned int i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		SPL *l = bads[i];

		CHECK_EQ(rt_spl_delete(l), RTE_OBJINV);
		CHECK_EQ(rt_spl_lock(l), RTE_OBJINV);
		CHECK_EQ(rt_spl_lock_if(l), RTE_OBJINV);
		CHECK_EQ(rt_spl_lock_timed(l, 1), RTE_OBJINV);
		CHECK_EQ(rt_spl_unlock(l), RTE_OBJINV);
	}
}

TESTS(T(readers_writers), T(writer_nests_and_conditional_locks),
      T(timeout_and_deletion), T(rwl_bad_input), T(spinlock_keeps_the_cpu),
      T(spl_bad_input));
