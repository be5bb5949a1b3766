/* SPDX-License-Identifier: MIT */
/*
 * RTAI semaphores: counting, binary and resource kinds, RTAI's counts
 * (negative: waiters), FIFO and priority queueing, timeouts at exact
 * dates (sim), deletion with waiters, unblocking, priority inheritance
 * and recursion of RES_SEM, named semaphores, bad input.
 */
#include "rtai_test.h"

#include <rtai/rtai_sem.h>

struct waiter {
	SEM *sem;
	const char *name;
	int prio;
	RTIME timeout; /* 0: rt_sem_wait */
	int ret;
	RT_TASK *task;
};

static void waiter_body(void *arg)
{
	struct waiter *w = arg;

	w->task = rt_task_init(0, w->prio, 0, 0);
	CHECK(w->task != NULL);
	w->ret = w->timeout ? rt_sem_wait_timed(w->sem, w->timeout)
			    : rt_sem_wait(w->sem);
	note("%s", w->name);
}

TEST(counting)
{
	SEM *s;

	main_task();
	s = rt_sem_init(nam2num("CNT"), 2);
	CHECK(s != NULL);
	CHECK_EQ(rt_sem_count(s), 2);
	/* The count before the take. */
	CHECK_EQ(rt_sem_wait(s), 2);
	CHECK_EQ(rt_sem_wait_if(s), 1);
	CHECK_EQ(rt_sem_wait_if(s), 0);
	CHECK_EQ(rt_sem_count(s), 0);
	CHECK_EQ(rt_sem_wait_timed(s, 0), RTE_TIMOUT);
	CHECK_EQ(rt_sem_wait_until(s, rt_get_time()), RTE_TIMOUT);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(rt_sem_signal(s), 0);
	CHECK_EQ(rt_sem_count(s), 3);
	CHECK_EQ(rt_sem_broadcast(s), 0);
	CHECK_EQ(rt_sem_count(s), 0);
	CHECK_EQ(rt_sem_delete(s), 0);
}

TEST(binary_keeps_one_unit)
{
	SEM *s;

	main_task();
	s = rt_typed_sem_init(0, 5, BIN_SEM | FIFO_Q);
	CHECK(s != NULL);
	CHECK_EQ(rt_sem_count(s), 1);
	CHECK_EQ(rt_sem_signal(s), 0);
	CHECK_EQ(rt_sem_count(s), 1);
	CHECK_EQ(rt_sem_wait(s), 1);
	CHECK_EQ(rt_sem_wait_if(s), 0);
	CHECK_EQ(rt_sem_delete(s), 0);
	/* Kind 0 is binary too, as RTAI reads it. */
	s = rt_typed_sem_init(0, 3, 0);
	CHECK_EQ(rt_sem_count(s), 1);
	CHECK_EQ(rt_sem_delete(s), 0);
}

TEST(priority_and_fifo_queueing)
{
	struct waiter w[3] = {
	    {NULL, "lo", 30, 0, 1, NULL},
	    {NULL, "hi", 10, 0, 1, NULL},
	    {NULL, "mid", 20, 0, 1, NULL},
	};
	long id[3];
	SEM *s;

	for (int pass = 0; pass < 2; pass++) {
		main_task();
		s = rt_typed_sem_init(0, 0, CNT_SEM | (pass ? FIFO_Q : PRIO_Q));
		log_start();
		for (int i = 0; i < 3; i++) {
			w[i].sem = s;
			id[i] = start(waiter_body, &w[i]);
		}
		CHECK_EQ(rt_sem_count(s), -3);
		for (int i = 0; i < 3; i++)
			CHECK_EQ(rt_sem_signal(s), 0);
		for (int i = 0; i < 3; i++)
			finish(id[i]);
		check_log(pass ? "lo@0 hi@0 mid@0" : "hi@0 mid@0 lo@0");
		/* Each got the count after its wake: minus those left. */
		CHECK_EQ(w[0].ret, pass ? -2 : 0);
		CHECK_EQ(w[1].ret, pass ? -1 : -2);
		CHECK_EQ(w[2].ret, pass ? 0 : -1);
		CHECK_EQ(rt_sem_delete(s), 0);
	}
}

TEST(timeouts_deletion_unblock)
{
	struct waiter a = {NULL, "timed", 10, 2 * MS, 1, NULL};
	struct waiter b = {NULL, "deleted", 11, 0, 1, NULL};
	struct waiter c = {NULL, "unblocked", 12, 0, 1, NULL};
	long ia, ib, ic;
	SEM *s, *t;

	main_task();
	s = rt_sem_init(0, 0);
	t = rt_sem_init(0, 0);
	log_start();
	a.sem = s;
	b.sem = s;
	c.sem = t;
	ia = start(waiter_body, &a);
	ib = start(waiter_body, &b);
	ic = start(waiter_body, &c);
	CHECK_EQ(rt_get_task_state(c.task), RT_SCHED_SEMAPHORE);
	CHECK_EQ(rt_get_task_state(a.task),
		 RT_SCHED_SEMAPHORE | RT_SCHED_DELAYED);
	CHECK_EQ(rt_sleep(3 * MS), 0);
	CHECK_EQ(rt_sem_delete(s), 0);
	CHECK_EQ(rt_task_masked_unblock(c.task, RT_SCHED_SEMAPHORE), 0);
	finish(ia);
	finish(ib);
	finish(ic);
	check_log("timed@2000000 deleted@3000000 unblocked@3000000");
	CHECK_EQ(a.ret, RTE_TIMOUT);
	CHECK_EQ(b.ret, RTE_OBJREM);
	CHECK_EQ(c.ret, RTE_UNBLKD);
	/* The unblocked waiter left the count as it was. */
	CHECK_EQ(rt_sem_count(t), 0);
	CHECK_EQ(rt_sem_delete(t), 0);
}

TEST(signal_preempts)
{
	struct waiter w = {NULL, "woken", 10, 0, 1, NULL};
	long id;

	main_task();
	w.sem = rt_sem_init(0, 0);
	log_start();
	id = start(waiter_body, &w);
	step("signal");
	CHECK_EQ(rt_sem_signal(w.sem), 0);
	step("back");
	finish(id);
	check_log("signal woken@0 back");
	CHECK_EQ(rt_sem_delete(w.sem), 0);
}

/* --- resource semaphores --- */

static SEM *res;
static int owner_ret[4];

static void owner_body(void *arg)
{
	(void)arg;
	CHECK(rt_task_init(nam2num("OWNER"), 30, 0, 0) != NULL);
	owner_ret[0] = rt_sem_wait(res);
	owner_ret[1] = rt_sem_wait(res); /* nests */
	note("owns");
	CHECK_EQ(rt_sleep(MS), 0);
	owner_ret[2] = rt_get_inher_prio(NULL);
	note("inherits");
	CHECK_EQ(rt_sem_signal(res), 0);
	owner_ret[3] = rt_get_inher_prio(NULL);
	note("released");
	CHECK_EQ(rt_sem_signal(res), 0);
	note("done");
}

static void contender_body(void *arg)
{
	int *ret = arg;

	CHECK(rt_task_init(nam2num("CONT"), 10, 0, 0) != NULL);
	CHECK_EQ(rt_sleep(MS / 2), 0);
	note("waits");
	*ret = rt_sem_wait(res);
	note("gets");
	CHECK_EQ(rt_sem_signal(res), 0);
}

TEST(resource_inheritance_and_recursion)
{
	int cont_ret = 1;
	long a, b;

	main_task();
	res = rt_typed_sem_init(nam2num("RES"), RESEM_RECURS, RES_SEM);
	CHECK(res != NULL);
	CHECK_EQ(rt_sem_count(res), 1);
	log_start();
	a = start(owner_body, NULL);
	b = start(contender_body, &cont_ret);
	/* Not the owner: refused. */
	CHECK_EQ(rt_sem_signal(res), RTE_PERM);
	CHECK_EQ(rt_sem_count(res), 0);
	finish(a);
	finish(b);
	check_log("owns@0 waits@500000 inherits@1000000 released@1000000 "
		  "gets@1000000 done@1000000");
	CHECK_EQ(owner_ret[0], 1);
	CHECK_EQ(owner_ret[1], 2);
	CHECK_EQ(owner_ret[2], 10);
	CHECK_EQ(owner_ret[3], 10);
	CHECK_EQ(cont_ret, 0);
	CHECK_EQ(rt_sem_broadcast(res), RTE_PERM);
	CHECK_EQ(rt_sem_count(res), 1);
	CHECK_EQ(rt_sem_delete(res), 0);
}

TEST(resource_not_recursive)
{
	SEM *s;

	main_task();
	s = rt_typed_sem_init(0, RESEM_CHEKWT, RES_SEM);
	CHECK_EQ(rt_sem_wait(s), 1);
	CHECK_EQ(rt_sem_wait(s), RTE_DEADLOK);
	CHECK_EQ(rt_sem_wait_if(s), RTE_DEADLOK);
	CHECK_EQ(rt_sem_signal(s), 0);
	CHECK_EQ(rt_sem_signal(s), RTE_PERM);
	CHECK_EQ(rt_sem_delete(s), 0);
	s = rt_typed_sem_init(0, RESEM_BINSEM, RES_SEM);
	CHECK_EQ(rt_sem_wait(s), 1);
	CHECK_EQ(rt_sem_wait(s), RTE_DEADLOK);
	CHECK_EQ(rt_sem_delete(s), 0);
}

TEST(named)
{
	SEM *a, *b;

	main_task();
	a = rt_named_sem_init("shared", 1);
	CHECK(a != NULL);
	b = rt_typed_named_sem_init("SHARED", 5, BIN_SEM);
	CHECK(b == a);
	CHECK(rt_get_adr(nam2num("SHARED")) == a);
	CHECK_EQ(rt_sem_count(a), 1);
	CHECK_EQ(rt_named_sem_delete(a), 1);
	CHECK_EQ(rt_sem_count(a), 1);
	CHECK_EQ(rt_named_sem_delete(a), 0);
	CHECK_EQ(rt_sem_count(a), RTE_OBJINV);
	/* A task's name is not a semaphore's. */
	CHECK(rt_named_sem_init("MAIN", 0) == NULL);
	CHECK(rt_named_sem_init(NULL, 0) == NULL);
	CHECK(rt_named_sem_init("", 0) == NULL);
	/* Named by number, the name must be free. */
	a = rt_sem_init(nam2num("NUM"), 0);
	CHECK(a != NULL);
	CHECK(rt_sem_init(nam2num("NUM"), 0) == NULL);
	CHECK(rt_named_sem_init("NUM", 0) == a);
	CHECK_EQ(rt_sem_delete(a), 0);
}

static SEM *gang;

static void barrier_body(void *arg)
{
	int *ret = arg;

	CHECK(rt_task_init(0, 10, 0, 0) != NULL);
	for (int round = 0; round < 2; round++) {
		ret[round] = rt_sem_wait_barrier(gang);
		note("out");
	}
}

TEST(barrier)
{
	int a[2] = {1, 1}, b[2] = {1, 1};
	long ia, ib;
	SEM *owned;

	main_task();
	gang = rt_sem_init(0, 3);
	log_start();
	ia = start(barrier_body, a);
	ib = start(barrier_body, b);
	CHECK_EQ(rt_sleep(MS), 0);
	note("main");
	/* The third: the gang is complete. */
	CHECK_EQ(rt_sem_wait_barrier(gang), 0);
	CHECK_EQ(rt_sleep(MS), 0);
	note("again");
	CHECK_EQ(rt_sem_wait_barrier(gang), 0);
	finish(ia);
	finish(ib);
	check_log("main@1000000 out@1000000 out@1000000 again@2000000 "
		  "out@2000000 out@2000000");
	CHECK_EQ(a[0], -1);
	CHECK_EQ(b[1], -1);
	CHECK_EQ(rt_sem_count(gang), 0);
	CHECK_EQ(rt_sem_delete(gang), 0);
	/* A gang of one passes at once. */
	gang = rt_sem_init(0, 0);
	CHECK_EQ(rt_sem_wait_barrier(gang), 0);
	CHECK_EQ(rt_sem_delete(gang), 0);
	owned = rt_typed_sem_init(0, RESEM_RECURS, RES_SEM);
	CHECK_EQ(rt_sem_wait_barrier(owned), RTE_PERM);
	CHECK_EQ(rt_sem_delete(owned), 0);
	CHECK_EQ(rt_sem_wait_barrier(NULL), RTE_OBJINV);
}

TEST(bad_input)
{
	RT_TASK *self = main_task();
	SEM *bads[] = {NULL,
		       (SEM *)0x10,
		       (SEM *)(uintptr_t)0xdeadbeef,
		       (SEM *)UINTPTR_MAX,
		       (SEM *)self,
		       NULL};
	SEM *gone = rt_sem_init(0, 0);

	CHECK_EQ(rt_sem_delete(gone), 0);
	bads[5] = gone;
	CHECK(rt_sem_init(0, -1) == NULL);
	CHECK(rt_typed_sem_init(0, 0, 8) == NULL);
	CHECK(rt_typed_sem_init(0, 0, -1) == NULL);
	for (unsigned int i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		SEM *s = bads[i];

		CHECK_EQ(rt_sem_delete(s), RTE_OBJINV);
		CHECK_EQ(rt_named_sem_delete(s), RTE_OBJINV);
		CHECK_EQ(rt_sem_signal(s), RTE_OBJINV);
		CHECK_EQ(rt_sem_broadcast(s), RTE_OBJINV);
		CHECK_EQ(rt_sem_wait(s), RTE_OBJINV);
		CHECK_EQ(rt_sem_wait_if(s), RTE_OBJINV);
		CHECK_EQ(rt_sem_wait_until(s, 0), RTE_OBJINV);
		CHECK_EQ(rt_sem_wait_timed(s, MS), RTE_OBJINV);
		CHECK_EQ(rt_sem_count(s), RTE_OBJINV);
	}
	/* A semaphore is not a task. */
	gone = rt_sem_init(0, 0);
	CHECK_EQ(rt_task_resume((RT_TASK *)gone), -EINVAL);
	CHECK_EQ(rt_sem_delete(gone), 0);
}

TESTS(T(counting), T(binary_keeps_one_unit), T(priority_and_fifo_queueing),
      T(timeouts_deletion_unblock), T(signal_preempts),
      T(resource_inheritance_and_recursion), T(resource_not_recursive),
      T(named), T(barrier), T(bad_input));
