/* SPDX-License-Identifier: MIT */
/*
 * Where nucleus threads stand against the rest of the machine: nucleus
 * priority p runs at SCHED_FIFO LO + p - 1 (main, at 0, at LO), at most
 * HI, and interrupt threads at HI + 1, with LO-HI from FUSION_FIFO_RANGE
 * (default 1-98: Alchemy priority N, nucleus N + 1, at SCHED_FIFO N).
 * Without SCHED_FIFO (FUSION_NO_RT, or not permitted) every thread stays
 * SCHED_OTHER.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct nk_instance *nk;

/* SCHED_FIFO priority of @tid, or 0 when it is not SCHED_FIFO. */
static int fifo_of(pid_t tid)
{
	struct sched_param param;

	if (sched_getscheduler(tid) != SCHED_FIFO)
		return 0;
	CHECK_EQ(sched_getparam(tid, &param), 0);
	return param.sched_priority;
}

static int fifo_of_thread(struct nk_thread *thread)
{
	pid_t tid;

	CHECK_EQ(nk_thread_host(thread, &tid, NULL), 0);
	return fifo_of(tid);
}

static void body(void *arg)
{
	(void)arg;
}

static struct nk_thread *dormant(int prio)
{
	struct nk_thread_attr attr = {
	    .name = "t", .priority = prio, .flags = NK_THREAD_JOINABLE};
	struct nk_thread *thread;

	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	return thread;
}

static bool fifo_allowed(void)
{
	const char *no_rt = getenv("FUSION_NO_RT");

	return !(no_rt && no_rt[0] == '1') &&
	       nk_instance_create(&(struct nk_instance_attr){0}, &nk) == 0 &&
	       fifo_of_thread(nk_thread_self(nk)) > 0 &&
	       nk_instance_destroy(nk) == 0;
}

/*
 * Nucleus priorities 0, 1, 51, 200 and 255 and the interrupt thread,
 * against @expect (six values; all 0 without SCHED_FIFO).
 */
static void check_map(const char *range, const int expect[6])
{
	static const int prios[] = {1, 51, 200, 255};
	struct nk_thread *threads[4];

	if (range)
		CHECK_EQ(setenv("FUSION_FIFO_RANGE", range, 1), 0);
	CHECK_EQ(nk_instance_create(&(struct nk_instance_attr){0}, &nk), 0);
	CHECK_EQ(fifo_of_thread(nk_thread_self(nk)), expect[0]);
	/* A shadow has its Linux thread from creation on. */
	for (int i = 0; i < 4; i++) {
		threads[i] = dormant(prios[i]);
		CHECK_EQ(fifo_of_thread(threads[i]), expect[1 + i]);
		CHECK_EQ(nk_thread_start(threads[i], body, NULL), 0);
		CHECK_EQ(nk_thread_join(threads[i]), 0);
	}
	CHECK_EQ(fifo_of(test_task_named("fusion-irq/0")), expect[5]);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(unsetenv("FUSION_FIFO_RANGE"), 0);
}

TEST(default_range_is_alchemy_n_at_fifo_n)
{
	static const int fifo[6] = {1, 1, 51, 98, 98, 99};
	static const int none[6] = {0, 0, 0, 0, 0, 0};

	check_map(NULL, fifo_allowed() ? fifo : none);
}

TEST(range_is_configurable)
{
	static const int fifo[6] = {10, 10, 20, 20, 20, 21};
	static const int none[6] = {0, 0, 0, 0, 0, 0};

	check_map("10-20", fifo_allowed() ? fifo : none);
}

TEST(bad_ranges_are_refused)
{
	static const char *const bad[] = {"0-98",  "1-99", "20-10", "5",
					  "5-",	   "-5",   "a-b",   "1-98x",
					  "1 -98", ""};

	/* An empty value is the default; the rest are refused. */
	for (size_t i = 0; i + 1 < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(setenv("FUSION_FIFO_RANGE", bad[i], 1), 0);
		CHECK_EQ(nk_instance_create(&(struct nk_instance_attr){0}, &nk),
			 -EINVAL);
	}
	CHECK_EQ(unsetenv("FUSION_FIFO_RANGE"), 0);
}

TESTS(T(default_range_is_alchemy_n_at_fifo_n), T(range_is_configurable),
      T(bad_ranges_are_refused));
