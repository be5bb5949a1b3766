/* SPDX-License-Identifier: MIT */
/*
 * nk_instance_check: a whole instance passes; each invariant, broken
 * by hand and then mended, is reported as the first violation found.
 */
#include "harness.h"
#include "nucleus/internal.h"

#include <errno.h>

static struct nk_instance *nk;
static struct nk_mutex m;
static struct nk_sem hold, s;
static struct nk_timer late;
static struct nk_thread *low, *high, *a, *b, *sleeper;

static void low_body(void *arg)
{
	(void)arg;
	if (nk_mutex_lock(&m, NK_INFINITE, NK_RELATIVE) == 0 &&
	    nk_sem_take(&hold, NK_INFINITE, NK_RELATIVE) == 0)
		nk_mutex_unlock(&m);
}

static void high_body(void *arg)
{
	(void)arg;
	if (nk_mutex_lock(&m, NK_INFINITE, NK_RELATIVE) == 0)
		nk_mutex_unlock(&m);
}

static void sem_body(void *arg)
{
	(void)arg;
	(void)!nk_sem_take(&s, NK_INFINITE, NK_RELATIVE);
}

static void sleeper_body(void *arg)
{
	(void)arg;
	(void)!nk_thread_sleep(nk, 1000000000, NK_RELATIVE);
}

static void never(struct nk_timer *timer)
{
	(void)timer;
}

static struct nk_thread *spawn(const char *name, int prio, nk_thread_fn fn)
{
	struct nk_thread_attr attr = {
	    .name = name, .priority = prio, .policy = NK_SCHED_FIFO};
	struct nk_thread *t;

	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK_EQ(nk_thread_start(t, fn, NULL), 0);
	return t;
}

/*
 * low (10) owns m, which high (30) waits for: low runs at 30.  b (25)
 * and a (20) wait on s in that order; sleeper's timer and "late" are
 * armed; main (0) runs.
 */
static void build(void)
{
	struct nk_instance_attr attr = {.backend = "sim"};
	nk_handle_t h;

	/* A failed check left the last one behind. */
	if (nk)
		nk_instance_destroy(nk);
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_mutex_init(nk, &m, "m", NK_SYNCH_PI | NK_SYNCH_PRIO, 0), 0);
	CHECK_EQ(nk_sem_init(nk, &hold, "hold", 0, 0, NK_SYNCH_PRIO), 0);
	CHECK_EQ(nk_sem_init(nk, &s, "s", 0, 0, NK_SYNCH_PRIO), 0);
	CHECK_EQ(nk_timer_init(nk, &late, "late", 0, never, NULL), 0);
	CHECK_EQ(nk_timer_start(&late, 2000000000, 0, NK_RELATIVE), 0);
	low = spawn("low", 10, low_body);
	high = spawn("high", 30, high_body);
	a = spawn("a", 20, sem_body);
	b = spawn("b", 25, sem_body);
	sleeper = spawn("sleeper", 15, sleeper_body);
	CHECK_EQ(nk_registry_enter(&nk->core->registry, 0, "obj", 1, &s, &h),
		 0);
	CHECK_EQ(nk_thread_effective_priority(low), 30);
}

static void expect(const char *why)
{
	char got[160];

	CHECK_EQ(nk_instance_check(nk, got, sizeof(got)), -EUCLEAN);
	CHECK_STR(got, why);
}

static void whole(void)
{
	char got[160] = "unchanged";

	CHECK_EQ(nk_instance_check(nk, got, sizeof(got)), 0);
	CHECK_STR(got, "");
}

static void finish(void)
{
	CHECK_EQ(nk_instance_destroy(nk), 0);
	nk = NULL;
}

TEST(whole_instance_passes)
{
	build();
	whole();
	finish();
}

TEST(threads_and_levels)
{
	struct nk_sched *cpu0;

	build();
	cpu0 = &nk->scheds[0];
	nk->core->nr_threads++;
	expect("thread lists: broken, or 6 + 0 threads for 7");
	nk->core->nr_threads--;
	a->state |= NK_THREAD_READY;
	expect("a: ready and blocked (state 0x6)");
	a->state &= ~NK_THREAD_READY;
	cpu0->level_map[0] |= 1u << 7;
	expect("cpu 0 level 7: map bit 1, 0 threads");
	cpu0->level_map[0] &= ~(1u << 7);
	cpu0->level_summary |= 1u << 3;
	expect("cpu 0: level summary 0x8, maps say 0");
	cpu0->level_summary &= ~(1u << 3);
	whole();
	finish();
}

TEST(wait_queues_and_owners)
{
	build();
	/* b dropped from s's queue, its count kept right. */
	nk_list_del(&b->wait_link);
	s.synch.nr_waiters--;
	expect("b: pending on s, not in its queue");
	nk_list_add_after(&b->wait_link, &s.synch.waiters);
	s.synch.nr_waiters++;
	whole();
	/* The count alone. */
	s.synch.nr_waiters++;
	expect("s: broken queue, or 2 waiters for 3");
	s.synch.nr_waiters--;
	/* a ahead of the more urgent b. */
	nk_list_del(&a->wait_link);
	nk_list_add_after(&a->wait_link, &s.synch.waiters);
	expect("s: b queued behind less urgent");
	nk_list_del(&a->wait_link);
	nk_list_add_before(&a->wait_link, &s.synch.waiters);
	whole();
	/* The boost lost, then the owner dead. */
	low->prio = 10;
	expect("low: priority 10, its ownerships justify 30");
	low->prio = 30;
	low->state |= NK_THREAD_ZOMBIE;
	expect("low: dead, still owns m");
	low->state &= ~NK_THREAD_ZOMBIE;
	whole();
	finish();
}

TEST(timers_and_registry)
{
	nk_time_t date;

	build();
	/* sleeper's wake-up (its thread timer has no name), then "late":
	 * make the first the later. */
	date = sleeper->rtimer.date;
	sleeper->rtimer.date = late.date + 1;
	expect("cpu 0 timers: (unnamed) before late, later");
	sleeper->rtimer.date = date;
	nk->scheds[0].timers[0].count++;
	expect("cpu 0 timers: 2 in order, 3 counted");
	nk->scheds[0].timers[0].count--;
	nk->core->registry.nr_used++;
	expect("registry: counts or chains do not add up");
	nk->core->registry.nr_used--;
	whole();
	finish();
}

TEST(bad_input)
{
	char why[8];

	CHECK_EQ(nk_instance_check(NULL, why, sizeof(why)), -EINVAL);
	build();
	/* No room for the reason, or a short one: no overflow. */
	nk->core->nr_threads++;
	CHECK_EQ(nk_instance_check(nk, NULL, 0), -EUCLEAN);
	CHECK_EQ(nk_instance_check(nk, why, sizeof(why)), -EUCLEAN);
	CHECK_STR(why, "thread ");
	nk->core->nr_threads--;
	CHECK_EQ(nk_instance_check(nk, NULL, 0), 0);
	finish();
}

TESTS(T(whole_instance_passes), T(threads_and_levels),
      T(wait_queues_and_owners), T(timers_and_registry), T(bad_input));
