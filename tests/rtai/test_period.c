/* SPDX-License-Identifier: MIT */
/*
 * RTAI periodic tasks, sleeps, the timer's modes and counts: releases at
 * exact dates (sim), RTE_TMROVRN once per release missed (a late task
 * catches up), unblocking, periodic mode counting ticks, bad input.
 */
#include "rtai_test.h"

static int period_ret[8];

static void periodic_body(void *arg)
{
	(void)arg;
	CHECK(rt_task_init(nam2num("PER"), 5, 0, 0) != NULL);
	period_ret[0] = rt_task_make_periodic(NULL, rt_get_time() + 2 * MS, MS);
	note("start");
	for (int i = 0; i < 2; i++) {
		period_ret[1 + i] = rt_task_wait_period();
		note("p");
	}
	/* Late by 2.5 periods: two releases passed, caught up at once. */
	rt_busy_sleep(2 * MS + MS / 2);
	note("late");
	for (int i = 0; i < 3; i++) {
		period_ret[3 + i] = rt_task_wait_period();
		note("w");
	}
}

TEST(periodic_releases_and_overruns)
{
	long id;

	main_task();
	log_start();
	id = start(periodic_body, NULL);
	finish(id);
	check_log("start@2000000 p@3000000 p@4000000 late@6500000 "
		  "w@6500000 w@6500000 w@7000000");
	CHECK_EQ(period_ret[0], 0);
	CHECK_EQ(period_ret[1], 0);
	CHECK_EQ(period_ret[2], 0);
	CHECK_EQ(period_ret[3], RTE_TMROVRN);
	/* On live, how late it ends up depends on the machine. */
	if (on_sim()) {
		CHECK_EQ(period_ret[4], RTE_TMROVRN);
		CHECK_EQ(period_ret[5], 0);
	}
}

static RT_TASK *other;

/*
 * The grid's step: on live, roomy enough that a slow machine (a
 * sanitizer build, a shared session) does not miss a release and turn
 * a 0 into RTE_TMROVRN.
 */
static RTIME grid(void)
{
	return on_sim() ? MS : 20 * MS;
}

static void waits_for_others_grid(void *arg)
{
	(void)arg;
	other = rt_task_init(nam2num("OTHER"), 5, 0, 0);
	CHECK(other != NULL);
	/* Not periodic yet. */
	CHECK_EQ(rt_task_wait_period(), -EINVAL);
	CHECK_EQ(rt_task_suspend(NULL), 0);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(rt_task_wait_period(), 0);
		note("o");
	}
	/* A new period from the next release on. */
	CHECK_EQ(rt_set_period(NULL, 3 * grid()), 0);
	CHECK_EQ(rt_task_wait_period(), 0);
	note("o3");
	CHECK_EQ(rt_task_wait_period(), RTE_UNBLKD);
	note("unblocked");
}

TEST(made_periodic_by_another)
{
	long id;

	main_task();
	log_start();
	id = start(waits_for_others_grid, NULL);
	CHECK_EQ(rt_task_make_periodic_relative_ns(other, grid(), grid()), 0);
	CHECK_EQ(rt_task_resume(other), 0);
	CHECK_EQ(rt_sleep(7 * grid()), 0);
	CHECK_EQ(rt_task_masked_unblock(other, RT_SCHED_DELAYED), 0);
	finish(id);
	check_log("o@1000000 o@2000000 o3@5000000 unblocked@7000000");
}

TEST(sleeps)
{
	RTIME t0;

	main_task();
	t0 = rt_get_time();
	CHECK_EQ(rt_sleep(MS), 0);
	if (on_sim())
		CHECK_EQ(rt_get_time() - t0, MS);
	CHECK_EQ(rt_sleep(0), RTE_TMROVRN);
	CHECK_EQ(rt_sleep(-1), RTE_TMROVRN);
	CHECK_EQ(rt_sleep_until(rt_get_time()), RTE_TMROVRN);
	CHECK_EQ(rt_sleep_until(0), RTE_TMROVRN);
	t0 = rt_get_time();
	CHECK_EQ(rt_sleep_until(t0 + 2 * MS), 0);
	if (on_sim())
		CHECK_EQ(rt_get_time(), t0 + 2 * MS);
	t0 = rt_get_time_ns();
	rt_busy_sleep(MS);
	if (on_sim())
		CHECK_EQ(rt_get_time_ns() - t0, MS);
	rt_busy_sleep(-1);
	rt_busy_sleep(0);
}

TEST(oneshot_counts_are_ns)
{
	RTIME now;

	main_task();
	CHECK_EQ(rt_is_hard_timer_running(), 0);
	rt_set_oneshot_mode();
	CHECK_EQ(start_rt_timer(0), 0);
	CHECK_EQ(rt_is_hard_timer_running(), 1);
	CHECK_EQ(nano2count(1234567), 1234567);
	CHECK_EQ(count2nano(-5), -5);
	CHECK_EQ(nano2count_cpuid(7, 3), 7);
	CHECK_EQ(count2nano_cpuid(7, 3), 7);
	now = rt_get_time();
	if (on_sim()) {
		CHECK_EQ(rt_get_time_ns(), now);
		CHECK_EQ(rt_get_time_cpuid(1), now);
		CHECK_EQ(rt_get_time_ns_cpuid(1), now);
		CHECK_EQ(rt_get_cpu_time_ns(), now);
		CHECK_EQ(rt_get_tscnt(), now);
	}
	CHECK(rt_get_real_time_ns() >= now);
	if (on_sim())
		CHECK_EQ(rt_get_real_time(), rt_get_real_time_ns());
	stop_rt_timer();
	CHECK_EQ(rt_is_hard_timer_running(), 0);
}

TEST(periodic_mode_counts_ticks)
{
	RTIME t0, ns0;

	main_task();
	rt_set_periodic_mode();
	CHECK_EQ(start_rt_timer(100000), 100000);
	CHECK_EQ(rt_is_hard_timer_running(), 1);
	/* 100 us a count; ns round up to whole ticks. */
	CHECK_EQ(nano2count(MS), 10);
	CHECK_EQ(nano2count(MS + 1), 11);
	CHECK_EQ(nano2count(-MS), -10);
	CHECK_EQ(count2nano(3), 300000);
	CHECK_EQ(count2nano(-3), -300000);
	t0 = rt_get_time();
	ns0 = rt_get_time_ns();
	if (on_sim())
		CHECK_EQ(t0, 0);
	/* Two ticks: to the second tick boundary. */
	CHECK_EQ(rt_sleep(2), 0);
	if (on_sim()) {
		CHECK_EQ(rt_get_time(), 2);
		CHECK_EQ(rt_get_time_ns() - ns0, 200000);
	}
	CHECK_EQ(rt_sleep_until(rt_get_time() + 3), 0);
	if (on_sim())
		CHECK_EQ(rt_get_time(), 5);
	stop_rt_timer();
	rt_set_oneshot_mode();
	CHECK_EQ(nano2count(MS), MS);
	CHECK(rt_get_time() >= ns0 || !on_sim());
}

/* Sleeps 100 ms, unless moved. */
static void long_sleeper(void *arg)
{
	(void)arg;
	other = rt_task_init(nam2num("SLEEPR"), 5, 0, 0);
	CHECK(other != NULL);
	CHECK_EQ(rt_sleep(margin(100 * MS)), 0);
	note("woke");
}

/* Dates the test moves to, after delays that must not expire first:
 * short, on live too. */
static RTIME moved(RTIME ns)
{
	return on_sim() ? ns : 20 * ns;
}

/* Starts 10 ms from now (its first release), then every 10 ms, unless
 * moved. */
static void moved_periodic(void *arg)
{
	(void)arg;
	other = rt_task_init(nam2num("MOVED"), 5, 0, 0);
	CHECK(other != NULL);
	CHECK_EQ(rt_task_make_periodic(NULL, rt_get_time() + margin(10 * MS),
				       moved(10 * MS)),
		 0);
	note("s");
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(rt_task_wait_period(), 0);
		note("r");
	}
}

/*
 * rt_set_resume_time() moves a sleep's end, and a periodic task's
 * release, the next ones following from the new date; a task that is
 * not delayed gets -ETIME.
 */
TEST(resume_time_moved)
{
	long id;

	main_task();
	log_start();
	id = start(long_sleeper, NULL);
	CHECK_EQ(rt_set_resume_time(other, rt_get_time() + moved(3 * MS)), 0);
	finish(id);
	id = start(moved_periodic, NULL);
	CHECK_EQ(rt_set_resume_time(other, rt_get_time() + moved(25 * MS)), 0);
	finish(id);
	check_log("woke@3000000 s@28000000 r@38000000 r@48000000");
	CHECK_EQ(rt_set_resume_time(NULL, rt_get_time() + MS), -ETIME);
	CHECK_EQ(rt_set_resume_time((RT_TASK *)(uintptr_t)0xdeadbeef, MS),
		 -EINVAL);
}

TESTS(T(periodic_releases_and_overruns), T(made_periodic_by_another), T(sleeps),
      T(oneshot_counts_are_ns), T(periodic_mode_counts_ticks),
      T(resume_time_moved));
