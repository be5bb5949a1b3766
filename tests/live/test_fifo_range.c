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

static int fifo_of_thread(struct nk_thread *thread)
{
	pid_t tid;

	CHECK_EQ(nk_thread_host(thread, &tid, NULL), 0);
	return test_fifo_of(tid);
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
	CHECK_EQ(test_fifo_of(test_task_named("fusion-irq/0")), expect[5]);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(unsetenv("FUSION_FIFO_RANGE"), 0);
}

TEST(default_range_is_alchemy_n_at_fifo_n)
{
	static const int fifo[6] = {1, 1, 51, 98, 98, 99};
	static const int none[6] = {0, 0, 0, 0, 0, 0};

	check_map(NULL, test_fifo_allowed() ? fifo : none);
}

TEST(range_is_configurable)
{
	static const int fifo[6] = {10, 10, 20, 20, 20, 21};
	static const int none[6] = {0, 0, 0, 0, 0, 0};

	check_map("10-20", test_fifo_allowed() ? fifo : none);
}

static struct nk_mutex lock;

/* Takes lock, then sleeps holding it until unblocked. */
static void holder(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_mutex_lock(&lock, NK_INFINITE, NK_RELATIVE), 0);
	CHECK_EQ(nk_thread_sleep(nk, NK_INFINITE, NK_RELATIVE),
		 NK_WAKE_UNBLOCKED);
	CHECK_EQ(nk_mutex_unlock(&lock), 0);
}

static void waiter(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_mutex_lock(&lock, NK_INFINITE, NK_RELATIVE), 0);
	CHECK_EQ(nk_mutex_unlock(&lock), 0);
}

static struct nk_thread *started(const char *name, int prio, nk_thread_fn fn)
{
	struct nk_thread_attr attr = {
	    .name = name, .priority = prio, .flags = NK_THREAD_JOINABLE};
	struct nk_thread *thread;

	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	CHECK_EQ(nk_thread_start(thread, fn, NULL), 0);
	return thread;
}

/* Until @thread is in @state (it starts, then waits): a fixed sleep is
 * too short where starting a thread is slow (qemu-user translates the
 * code it runs first). */
static void until_state(struct nk_thread *thread, unsigned int state)
{
	for (int ms = 0; !(nk_thread_state(thread) & state); ms++) {
		CHECK(ms < 10000);
		CHECK(nk_thread_sleep(nk, 1000000, NK_RELATIVE) >= 0);
	}
}

/* The Linux priority follows the nucleus one: changed, then inherited
 * (a FIFO process between the two would otherwise starve the owner). */
TEST(linux_priority_follows)
{
	struct nk_thread *t, *lo, *hi;
	bool fifo = test_fifo_allowed();

	CHECK_EQ(nk_instance_create(&(struct nk_instance_attr){0}, &nk), 0);
	t = dormant(51);
	CHECK_EQ(fifo_of_thread(t), fifo ? 51 : 0);
	CHECK_EQ(nk_thread_set_priority(t, 200), 0);
	CHECK_EQ(fifo_of_thread(t), fifo ? 98 : 0);
	CHECK_EQ(nk_thread_set_priority(t, 20), 0);
	CHECK_EQ(fifo_of_thread(t), fifo ? 20 : 0);
	CHECK_EQ(nk_thread_start(t, body, NULL), 0);
	CHECK_EQ(nk_thread_join(t), 0);

	CHECK_EQ(nk_mutex_init(nk, &lock, "lock", NK_SYNCH_PI, 0), 0);
	CHECK_EQ(nk_thread_set_priority(nk_thread_self(nk), 60), 0);
	CHECK_EQ(fifo_of_thread(nk_thread_self(nk)), fifo ? 60 : 0);
	lo = started("lo", 5, holder);
	until_state(lo, NK_THREAD_DELAYED); /* lo holds the lock */
	hi = started("hi", 50, waiter);
	until_state(hi, NK_THREAD_PENDING);
	CHECK_EQ(nk_thread_effective_priority(lo), 50);
	CHECK_EQ(fifo_of_thread(lo), fifo ? 50 : 0);
	CHECK_EQ(nk_thread_unblock(lo), 0);
	CHECK_EQ(nk_thread_join(hi), 0);
	/* Back to its own once it let go: it waits to be joined. */
	CHECK_EQ(nk_thread_effective_priority(lo), 5);
	CHECK_EQ(nk_thread_join(lo), 0);
	CHECK_EQ(nk_mutex_destroy(&lock), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
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
      T(linux_priority_follows), T(bad_ranges_are_refused));
