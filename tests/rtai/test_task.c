/* SPDX-License-Identifier: MIT */
/*
 * RTAI tasks: becoming a task (main, threads of rt_thread_create(), a
 * plain pthread), priorities (0 most urgent), preemption, modes,
 * suspension with its depth, yield, deletion, and bad input for each
 * call.
 */
#include "rtai_test.h"

#include <pthread.h>
#include <sched.h>

static RTIME wake_date;

/* A task at @prio that notes its start, sleeps until wake_date, notes
 * its end. */
struct sleeper {
	const char *name;
	int prio;
	RT_TASK *task;
};

static void sleeper_body(void *arg)
{
	struct sleeper *s = arg;

	s->task = rt_task_init(nam2num(s->name), s->prio, 0, 0);
	CHECK(s->task != NULL);
	note("%s", s->name);
	CHECK_EQ(rt_sleep_until(wake_date), 0);
	note("%s.end", s->name);
	CHECK_EQ(rt_task_delete(s->task), 0);
}

TEST(priority_zero_is_most_urgent)
{
	struct sleeper lo = {"LO", 20, NULL}, hi = {"HI", 0, NULL},
		       mid = {"MID", 10, NULL};
	long a, b, c;

	main_task();
	log_start();
	wake_date = rt_get_time() + (on_sim() ? MS : 20 * MS);
	a = start(sleeper_body, &lo);
	b = start(sleeper_body, &hi);
	c = start(sleeper_body, &mid);
	note("main");
	finish(a);
	finish(b);
	finish(c);
	/* All wake at the same date: the most urgent first. */
	check_log("LO@0 HI@0 MID@0 main@0 HI.end@1000000 MID.end@1000000 "
		  "LO.end@1000000");
}

TEST(init_and_identity)
{
	RT_TASK *self = main_task();

	CHECK(rt_whoami() == self);
	CHECK(rt_buddy() == self);
	CHECK_EQ(rt_get_prio(self), MAIN_PRIO);
	CHECK_EQ(rt_get_prio(NULL), MAIN_PRIO);
	CHECK_EQ(rt_get_inher_prio(self), MAIN_PRIO);
	/* A task already. */
	CHECK(rt_task_init(nam2num("AGAIN"), 1, 0, 0) == NULL);
	CHECK_EQ(rt_task_use_fpu(self, 1), 0);
	CHECK_EQ(rt_is_hard_real_time(self), 0);
	rt_make_hard_real_time();
	CHECK_EQ(rt_is_hard_real_time(NULL), 1);
	rt_make_soft_real_time();
	CHECK_EQ(rt_is_hard_real_time(self), 0);
	rt_make_hard_real_time();
	rt_allow_nonroot_hrt();
	CHECK_EQ(rt_change_prio(self, 150), MAIN_PRIO);
	CHECK_EQ(rt_get_prio(self), 150);
	/* Beyond the nucleus levels: reported as set. */
	CHECK_EQ(rt_change_prio(NULL, 100000), 150);
	CHECK_EQ(rt_get_prio(NULL), 100000);
	CHECK_EQ(rt_get_inher_prio(NULL), 100000);
	CHECK_EQ(rt_change_prio(NULL, MAIN_PRIO), 100000);
}

static int child_ret[4];

static void self_deleter(void *arg)
{
	RT_TASK *t = rt_task_init(nam2num("SELFD"), 5, 0, 0);

	(void)arg;
	CHECK(t != NULL);
	/* Its identity goes, the thread stays. */
	child_ret[0] = rt_task_delete(t);
	child_ret[1] = rt_whoami() == NULL;
	child_ret[2] = rt_get_adr(nam2num("SELFD")) == NULL;
	/* And it may become a task again, under another name. */
	t = rt_task_init(nam2num("SELFD2"), 5, 0, 0);
	child_ret[3] = t != NULL && rt_get_adr(nam2num("SELFD2")) == t;
}

TEST(delete_self_keeps_the_thread)
{
	long id = start(self_deleter, NULL);

	finish(id);
	CHECK_EQ(child_ret[0], 0);
	CHECK_EQ(child_ret[1], 1);
	CHECK_EQ(child_ret[2], 1);
	CHECK_EQ(child_ret[3], 1);
	/* The thread ended: its name is free. */
	CHECK(rt_get_adr(nam2num("SELFD2")) == NULL);
}

static void forever(void *arg)
{
	RT_TASK **t = arg;

	*t = rt_task_init(nam2num("VICTIM"), 5, 0, 0);
	step("victim");
	rt_sleep(1000 * MS);
	step("never");
}

TEST(delete_another_ends_it)
{
	RT_TASK *victim = NULL;
	long id;

	main_task();
	log_start();
	id = start(forever, &victim);
	CHECK(victim != NULL);
	CHECK_EQ(rt_task_delete(victim), 0);
	finish(id);
	check_log("victim");
	CHECK(rt_get_adr(nam2num("VICTIM")) == NULL);
	CHECK_EQ(rt_task_delete(victim), -EINVAL);
	CHECK_EQ(rt_get_prio(victim), -EINVAL);
}

/* --- suspension --- */

static RT_TASK *susp_task;
static int susp_ret[4];

static void self_suspender(void *arg)
{
	(void)arg;
	susp_task = rt_task_init(nam2num("SUSP"), 5, 0, 0);
	note("suspend");
	susp_ret[0] = rt_task_suspend(NULL);
	note("resumed");
	susp_ret[1] = rt_task_suspend_timed(NULL, 2 * MS);
	note("timedout");
	susp_ret[2] = rt_task_suspend_until(NULL, rt_get_time() - 1);
	susp_ret[3] = rt_task_suspend(susp_task);
	note("unblocked");
}

TEST(self_suspension)
{
	long id;

	main_task();
	log_start();
	id = start(self_suspender, NULL);
	CHECK_EQ(rt_get_task_state(susp_task), RT_SCHED_SUSPENDED);
	CHECK_EQ(rt_sleep(MS), 0);
	CHECK_EQ(rt_task_resume(susp_task), 0);
	/* Now it waits 2 ms, then suspends itself again. */
	CHECK_EQ(rt_sleep(3 * MS), 0);
	CHECK_EQ(rt_task_masked_unblock(susp_task, RT_SCHED_DELAYED), 0);
	CHECK_EQ(rt_task_masked_unblock(susp_task, RT_SCHED_SUSPENDED), 0);
	finish(id);
	check_log("suspend@0 resumed@1000000 timedout@3000000 "
		  "unblocked@4000000");
	CHECK_EQ(rt_get_task_state(susp_task), -EINVAL);
	CHECK_EQ(susp_ret[0], 0);
	CHECK_EQ(susp_ret[1], RTE_TIMOUT);
	CHECK_EQ(susp_ret[2], RTE_TMROVRN);
	CHECK_EQ(susp_ret[3], RTE_UNBLKD);
}

static void spinner(void *arg)
{
	RT_TASK **t = arg;

	*t = rt_task_init(nam2num("SPIN"), 5, 0, 0);
	for (int i = 0; i < 3; i++) {
		note("tick");
		CHECK_EQ(rt_sleep(MS), 0);
	}
}

TEST(suspending_another_counts_depth)
{
	RT_TASK *t = NULL;
	long id;

	main_task();
	log_start();
	id = start(spinner, &t);
	/* Suspended while it sleeps: its wake-up waits for the resumes. */
	CHECK_EQ(rt_task_suspend(t), 1);
	CHECK_EQ(rt_task_suspend(t), 2);
	CHECK_EQ(rt_sleep(5 * MS), 0);
	note("main");
	CHECK_EQ(rt_task_resume(t), 0);
	note("one");
	CHECK_EQ(rt_task_resume(t), 0);
	finish(id);
	check_log("tick@0 main@5000000 one@5000000 tick@5000000 "
		  "tick@6000000");
}

TEST(resume_ahead_of_suspend)
{
	RT_TASK *t = NULL;
	long id;

	main_task();
	log_start();
	id = start(spinner, &t);
	/* Two resumes ahead: the depth goes negative. */
	CHECK_EQ(rt_task_resume(t), 0);
	CHECK_EQ(rt_task_resume(t), 0);
	CHECK_EQ(rt_task_suspend_if(t), -1);
	CHECK_EQ(rt_task_suspend(t), 0);
	/* Back at 0: suspend_if does nothing, suspend suspends. */
	CHECK_EQ(rt_task_suspend_if(t), 0);
	CHECK_EQ(rt_task_suspend(t), 1);
	CHECK_EQ(rt_sleep(3 * MS), 0);
	CHECK_EQ(rt_task_resume(t), 0);
	finish(id);
	check_log("tick@0 tick@3000000 tick@4000000");
}

/* --- yield, policy, CPU --- */

static RTIME yield_date;

static void yielder(void *arg)
{
	const char *name = arg;

	CHECK(rt_task_init(nam2num(name), 7, 0, 0) != NULL);
	CHECK_EQ(rt_sleep_until(yield_date), 0);
	for (int i = 0; i < 2; i++) {
		step(name);
		rt_task_yield();
	}
}

TEST(yield_round)
{
	long a, b;

	main_task();
	log_start();
	yield_date = rt_get_time() + MS;
	/* Both wake at one date, at one priority: they take turns. */
	a = create(yielder, "A");
	b = create(yielder, "B");
	CHECK_EQ(rt_sleep(2 * MS), 0);
	finish(a);
	finish(b);
	check_log("A B A B");
}

TEST(policy_cpu_exectime)
{
	RT_TASK *self = main_task();
	RTIME times[3] = {-1, -1, -1};

	rt_set_sched_policy(self, RT_SCHED_RR, 0);
	rt_set_sched_policy(self, RT_SCHED_FIFO, 0);
	rt_set_sched_policy(self, 7, 0);
	rt_set_runnable_on_cpus(self, 1);
	rt_set_runnable_on_cpuid(self, 0);
	rt_set_runnable_on_cpuid(self, 1000);
	CHECK_EQ(nk_thread_cpu(nk_thread_self(test_runtime())), 0);
	rt_busy_sleep(MS / 2);
	rt_get_exectime(self, times);
	CHECK(times[0] >= 0);
	CHECK(times[1] >= 0 && times[1] <= times[2]);
	CHECK(times[2] == rt_get_time_ns() || !on_sim());
	rt_get_exectime(self, NULL);
}

static int plain_done;

static void *plain_body(void *arg)
{
	RT_TASK **t = arg;

	/* Not a task: nothing works on "self". */
	CHECK(rt_whoami() == NULL);
	CHECK_EQ(rt_get_prio(NULL), -EINVAL);
	CHECK_EQ(rt_task_wait_period(), -EINVAL);
	CHECK_EQ(rt_sleep(MS), RTE_PERM);
	CHECK_EQ(rt_thread_join(1), -EINVAL);
	/* LXRT's way: the thread becomes a task. */
	*t = rt_task_init_schmod(nam2num("PLAIN"), 3, 0, 0, SCHED_FIFO, 0);
	CHECK(*t != NULL);
	CHECK(rt_whoami() == *t);
	CHECK_EQ(rt_sleep(MS), 0);
	CHECK_EQ(rt_task_delete(*t), 0);
	__atomic_store_n(&plain_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

TEST(plain_pthread_becomes_a_task)
{
	struct timespec t0, now;
	RT_TASK *t = NULL;
	pthread_t th;

	main_task();
	CHECK_EQ(pthread_create(&th, NULL, plain_body, &t), 0);
	/*
	 * Wait in the nucleus, where the pthread gets the CPU once it
	 * shadows itself (on sim at a nucleus call of main); real time
	 * bounds the wait, as a safety net.
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		CHECK_EQ(rt_sleep(MS / 10), 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (!__atomic_load_n(&plain_done, __ATOMIC_ACQUIRE) &&
		 now.tv_sec - t0.tv_sec < 60);
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK(t != NULL);
	CHECK(rt_get_adr(nam2num("PLAIN")) == NULL);
}

TEST(bad_input)
{
	RT_TASK *self = main_task();
	RT_TASK *bads[] = {(RT_TASK *)0x10, (RT_TASK *)(uintptr_t)0xdeadbeef,
			   (RT_TASK *)UINTPTR_MAX};
	RTIME times[3] = {-1, -1, -1};
	long id;

	CHECK(rt_task_init(nam2num("NEG"), -1, 0, 0) == NULL);
	CHECK(rt_task_init_schmod(nam2num("X"), 1, -1, 0, SCHED_FIFO, 0) ==
	      NULL);
	CHECK(rt_task_init_schmod(nam2num("X"), 1, 0, 0, 99, 0) == NULL);
	CHECK(rt_thread_init(nam2num("X"), 1, 0, SCHED_FIFO, 0) == NULL);
	CHECK_EQ(rt_thread_create(NULL, NULL, 0), 0);
	CHECK_EQ(rt_thread_create((void *)body_trampoline, NULL, -1), 0);
	CHECK_EQ(rt_thread_join(0), -EINVAL);
	CHECK_EQ(rt_thread_join(12345), -EINVAL);
	CHECK_EQ(rt_thread_join((long)self), -EINVAL);
	for (unsigned int i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		RT_TASK *t = bads[i];

		CHECK_EQ(rt_task_delete(t), -EINVAL);
		CHECK_EQ(rt_thread_delete(t), -EINVAL);
		CHECK_EQ(rt_is_hard_real_time(t), 0);
		CHECK_EQ(rt_task_suspend(t), -EINVAL);
		CHECK_EQ(rt_task_suspend_if(t), -EINVAL);
		CHECK_EQ(rt_task_suspend_until(t, 0), -EINVAL);
		CHECK_EQ(rt_task_suspend_timed(t, MS), -EINVAL);
		CHECK_EQ(rt_task_resume(t), -EINVAL);
		CHECK_EQ(rt_change_prio(t, 1), -EINVAL);
		CHECK_EQ(rt_get_prio(t), -EINVAL);
		CHECK_EQ(rt_get_inher_prio(t), -EINVAL);
		CHECK_EQ(rt_task_use_fpu(t, 1), -EINVAL);
		CHECK_EQ(rt_task_masked_unblock(t, ~0UL), -EINVAL);
		CHECK_EQ(rt_task_make_periodic(t, 0, MS), -EINVAL);
		CHECK_EQ(rt_task_make_periodic_relative_ns(t, 0, MS), -EINVAL);
		CHECK_EQ(rt_set_period(t, MS), -EINVAL);
		rt_set_runnable_on_cpus(t, 1);
		rt_set_runnable_on_cpuid(t, 0);
		rt_set_sched_policy(t, RT_SCHED_RR, 1000);
		rt_get_exectime(t, times);
		CHECK_EQ(times[0], -1);
	}
	CHECK_EQ(rt_task_resume(NULL), -EINVAL);
	CHECK_EQ(rt_task_masked_unblock(NULL, ~0UL), -EINVAL);
	CHECK_EQ(rt_change_prio(self, -1), -EINVAL);
	CHECK_EQ(rt_task_make_periodic(self, 0, 0), -EINVAL);
	CHECK_EQ(rt_task_make_periodic(self, 0, -1), -EINVAL);
	CHECK_EQ(rt_set_period(self, 0), -EINVAL);
	/* A thread id is not a task, nor a task a thread id. */
	id = start(spinner, &(RT_TASK *){NULL});
	CHECK_EQ(rt_task_delete((RT_TASK *)id), -EINVAL);
	CHECK_EQ(rt_thread_join(id), 0);
	CHECK_EQ(rt_thread_join(id), -EINVAL);
}

TESTS(T(priority_zero_is_most_urgent), T(init_and_identity),
      T(delete_self_keeps_the_thread), T(delete_another_ends_it),
      T(self_suspension), T(suspending_another_counts_depth),
      T(resume_ahead_of_suspend), T(yield_round), T(policy_cpu_exectime),
      T(plain_pthread_becomes_a_task), T(bad_input));
