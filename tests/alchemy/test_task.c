/* SPDX-License-Identifier: MIT */
/*
 * Alchemy tasks: life cycle (create, start, spawn, delete, join,
 * shadow), scheduling control (priorities, T_LOCK, yield, round-robin
 * slices, suspend), sleeps, periodic release with overruns, unblock, inquire,
 * bind, and bad input.  On sim every event is checked at its exact virtual
 * date; on live, the same order and error codes.
 */
#include "alchemy_test.h"

#include <sched.h>
#include <stdlib.h>

/* Bodies: arg is the name to log. */
static void body_note(void *arg)
{
	note("%s", (const char *)arg);
}

/* Sleeps 1 ms on sim, 20 on live (where main must act meanwhile). */
static void body_sleep_short(void *arg)
{
	note("%s", (const char *)arg);
	CHECK_EQ(rt_task_sleep(first_date(MS)), 0);
	note("%s-woke", (const char *)arg);
}

static void body_sleep_forever(void *arg)
{
	int ret = rt_task_sleep_until(TM_INFINITE);

	note("%s:%d", (const char *)arg, ret);
}

static void body_sleep_10ms(void *arg)
{
	int ret = rt_task_sleep(10 * MS);

	note("%s:%d", (const char *)arg, ret);
}

TEST(start_preempts_main)
{
	RT_TASK a;

	log_start();
	CHECK_EQ(rt_task_create(&a, "a", 0, 10, 0), 0);
	note("created");
	CHECK_EQ(rt_task_start(&a, body_sleep_short, "a"), 0);
	note("started");
	/* Starting again is a no-op. */
	CHECK_EQ(rt_task_start(&a, body_note, "again"), 0);
	CHECK_EQ(rt_task_sleep(first_date(2 * MS)), 0);
	check_log("created@0 a@0 started@0 a-woke@1000000");
	/* It ended: its descriptor is stale. */
	CHECK_EQ(rt_task_inquire(&a, NULL), -EINVAL);
	CHECK_EQ(rt_task_delete(&a), -EINVAL);
}

TEST(spawn_priority_order)
{
	RT_TASK lo, hi;
	int mode;

	log_start();
	/* Locked: neither runs before main unlocks, then by priority. */
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, &mode), 0);
	CHECK_EQ(mode & T_LOCK, 0);
	CHECK_EQ(rt_task_spawn(&lo, "lo", 0, 5, 0, body_note, "lo"), 0);
	CHECK_EQ(rt_task_spawn(&hi, "hi", 0, 20, 0, body_note, "hi"), 0);
	note("unlock");
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, &mode), 0);
	CHECK_EQ(mode & T_LOCK, T_LOCK);
	note("main");
	check_log("unlock@0 hi@0 lo@0 main@0");
}

TEST(t_lock_nests_and_refuses_blocking)
{
	RT_TASK a;
	int mode;

	log_start();
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_task_sleep(MS), -EPERM);
	CHECK_EQ(rt_task_spawn(&a, "a", 0, 10, 0, body_note, "a"), 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, &mode), 0);
	CHECK_EQ(mode, T_LOCK);
	note("still-locked");
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, &mode), 0);
	note("main");
	check_log("still-locked@0 a@0 main@0");
	/* Clearing what is not set is harmless. */
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, &mode), 0);
	CHECK_EQ(mode, 0);
	CHECK_EQ(rt_task_set_mode(0, T_WARNSW, NULL), 0);
	CHECK_EQ(rt_task_set_mode(T_WARNSW, T_CONFORMING, &mode), 0);
	CHECK_EQ(mode, T_WARNSW);
	CHECK_EQ(rt_task_set_mode(0, 0, &mode), 0);
	CHECK_EQ(mode, 0);
	CHECK_EQ(rt_task_set_mode(0, T_JOINABLE, NULL), -EINVAL);
	CHECK_EQ(rt_task_set_mode(0x100, 0, NULL), -EINVAL);
}

static RT_TASK spawned;

static void body_locked_spawner(void *arg)
{
	(void)arg;
	note("spawner");
	CHECK_EQ(rt_task_spawn(&spawned, "hi", 0, 30, 0, body_note, "hi"), 0);
	note("spawner-locked");
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	note("spawner-end");
}

TEST(t_lock_at_creation)
{
	RT_TASK a;

	log_start();
	CHECK_EQ(
	    rt_task_spawn(&a, "sp", 0, 10, T_LOCK, body_locked_spawner, NULL),
	    0);
	check_log("spawner@0 spawner-locked@0 hi@0 spawner-end@0");
}

TEST(sleeps)
{
	RTIME t0;

	log_start();
	t0 = rt_timer_read();
	CHECK_EQ(rt_task_sleep(0), 0);
	CHECK_EQ(rt_task_sleep(MS), 0);
	if (on_sim())
		CHECK_EQ(rt_timer_read() - t0, MS);
	t0 = rt_timer_read();
	CHECK_EQ(rt_task_sleep_until(t0 + 3 * MS), 0);
	if (on_sim())
		CHECK_EQ(rt_timer_read(), t0 + 3 * MS);
	CHECK(rt_timer_read() >= t0 + 3 * MS);
	CHECK_EQ(rt_task_sleep_until(t0), -ETIMEDOUT);
	CHECK_EQ(rt_task_sleep_until(1), -ETIMEDOUT);
}

TEST(unblock_breaks_waits)
{
	RT_TASK a, b;

	log_start();
	CHECK_EQ(rt_task_spawn(&a, "a", 0, 10, 0, body_sleep_forever, "a"), 0);
	CHECK_EQ(rt_task_spawn(&b, "b", 0, 10, 0, body_sleep_10ms, "b"), 0);
	CHECK_EQ(rt_task_sleep(MS / 2), 0);
	CHECK_EQ(rt_task_unblock(&a), 0);
	CHECK_EQ(rt_task_unblock(&b), 0);
	note("main");
	check_log("a:-4@500000 b:-4@500000 main@500000");
	CHECK_EQ(rt_task_unblock(&a), -EINVAL);
	CHECK_EQ(rt_task_unblock(NULL), -EINVAL);
	/* Not waiting: nothing to do. */
	CHECK_EQ(rt_task_create(&a, "a", 0, 10, 0), 0);
	CHECK_EQ(rt_task_unblock(&a), 0);
	CHECK_EQ(rt_task_delete(&a), 0);
}

static void body_join_self(void *arg)
{
	(void)arg;
	note("self:%d", rt_task_join(rt_task_self()));
}

static RT_TASK joinee;

static void body_second_joiner(void *arg)
{
	(void)arg;
	CHECK_EQ(rt_task_sleep(MS / 2), 0);
	note("second:%d", rt_task_join(&joinee));
}

TEST(join)
{
	RT_TASK j, k, n;
	RTIME t0 = rt_timer_read();

	log_start();
	CHECK_EQ(
	    rt_task_spawn(&j, "j", 0, 10, T_JOINABLE, body_sleep_short, "j"),
	    0);
	CHECK_EQ(rt_task_join(&j), 0);
	note("joined");
	if (on_sim())
		CHECK_EQ(rt_timer_read() - t0, MS);
	/* Reaped: stale now; the name is free again. */
	CHECK_EQ(rt_task_join(&j), -EINVAL);
	CHECK_EQ(rt_task_spawn(&j, "j", 0, 10, T_JOINABLE, body_note, "j2"), 0);
	/* Ended already: join does not wait. */
	CHECK_EQ(rt_task_join(&j), 0);
	/* Deleted before it ran: still to be joined, name free. */
	CHECK_EQ(rt_task_create(&k, "k", 0, 10, T_JOINABLE), 0);
	CHECK_EQ(rt_task_delete(&k), 0);
	CHECK_EQ(rt_task_create(&n, "k", 0, 10, 0), 0);
	CHECK_EQ(rt_task_join(&k), 0);
	CHECK_EQ(rt_task_join(&k), -EINVAL);
	/* Not joinable. */
	CHECK_EQ(rt_task_join(&n), -EINVAL);
	CHECK_EQ(rt_task_delete(&n), 0);
	/* Joining oneself. */
	CHECK_EQ(
	    rt_task_spawn(&k, "self", 0, 10, T_JOINABLE, body_join_self, NULL),
	    0);
	CHECK_EQ(rt_task_join(&k), 0);
	/* A second joiner is refused while main waits.  Its thread exists
	 * before the joinee's 1 ms starts (creating one can take longer
	 * than that under ThreadSanitizer). */
	CHECK_EQ(rt_task_create(&n, "second", 0, 10, 0), 0);
	CHECK_EQ(rt_task_spawn(&joinee, "joinee", 0, 5, T_JOINABLE,
			       body_sleep_short, "joinee"),
		 0);
	CHECK_EQ(rt_task_start(&n, body_second_joiner, NULL), 0);
	CHECK_EQ(rt_task_join(&joinee), 0);
	note("joined2");
	CHECK_EQ(rt_task_join(NULL), -EINVAL);
	check_log("j@0 j-woke@1000000 joined@1000000 j2@1000000 "
		  "self:-35@1000000 joinee@1000000 second:-22@1500000 "
		  "joinee-woke@2000000 joined2@2000000");
}

static void body_self_delete(void *arg)
{
	note("%s", (const char *)arg);
	CHECK_EQ(rt_task_delete(NULL), 0);
	note("never");
}

TEST(delete)
{
	RT_TASK a, b;

	log_start();
	CHECK_EQ(rt_task_spawn(&a, "a", 0, 10, 0, body_sleep_short, "a"), 0);
	CHECK_EQ(rt_task_delete(&a), 0);
	CHECK_EQ(rt_task_delete(&a), -EINVAL);
	CHECK_EQ(rt_task_spawn(&b, "b", 0, 10, 0, body_self_delete, "b"), 0);
	CHECK_EQ(rt_task_inquire(&b, NULL), -EINVAL);
	/* Names are free again. */
	CHECK_EQ(rt_task_create(&a, "a", 0, 10, 0), 0);
	CHECK_EQ(rt_task_create(&b, "b", 0, 10, 0), 0);
	CHECK_EQ(rt_task_delete(&a), 0);
	CHECK_EQ(rt_task_delete(&b), 0);
	CHECK_EQ(rt_task_sleep(2 * MS), 0);
	check_log("a@0 b@0");
}

/*
 * The unit of the tests whose threads act a fraction of it apart (ticks,
 * quanta, spins): 1 ms on sim; 20 ms on live, where a thread woken or
 * rotated half a millisecond late (ThreadSanitizer, a busy machine) would
 * change the order the test checks.  The comments' milliseconds are
 * units.
 */
static RTIME tick(void)
{
	return first_date(MS);
}

static void body_ticker(void *arg)
{
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(rt_task_sleep(tick()), 0);
		note("%s%d", (const char *)arg, i);
	}
}

TEST(suspend_resume)
{
	RT_TASK a;

	log_start();
	CHECK_EQ(rt_task_spawn(&a, "a", 0, 10, 0, body_ticker, "t"), 0);
	CHECK_EQ(rt_task_sleep(3 * tick() / 2), 0);
	CHECK_EQ(rt_task_suspend(&a), 0);
	CHECK_EQ(rt_task_suspend(&a), 0);
	CHECK_EQ(rt_task_sleep(2 * tick()), 0);
	note("resume1");
	CHECK_EQ(rt_task_resume(&a), 0);
	CHECK_EQ(rt_task_sleep(tick() / 2), 0);
	note("resume2");
	CHECK_EQ(rt_task_resume(&a), 0);
	/* Not suspended: a no-op. */
	CHECK_EQ(rt_task_resume(&a), 0);
	CHECK_EQ(rt_task_sleep(3 * tick()), 0);
	check_log("t0@1000000 resume1@3500000 resume2@4000000 t1@4000000 "
		  "t2@5000000 t3@6000000");
	CHECK_EQ(rt_task_suspend(&a), -EINVAL);
	CHECK_EQ(rt_task_resume(&a), -EINVAL);
}

static void body_self_suspend(void *arg)
{
	note("%s", (const char *)arg);
	CHECK_EQ(rt_task_suspend(NULL), 0);
	note("%s-resumed", (const char *)arg);
}

static RT_TASK low_task;

static void body_raise_low(void *arg)
{
	(void)arg;
	note("raise");
	CHECK_EQ(rt_task_set_priority(&low_task, 40), 0);
	note("raised");
}

TEST(set_priority_preempts)
{
	RT_TASK a, b;
	RT_TASK_INFO info;

	log_start();
	CHECK_EQ(
	    rt_task_spawn(&low_task, "low", 0, 5, 0, body_self_suspend, "low"),
	    0);
	/* Resumed while main holds T_LOCK: ready, not running yet. */
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_task_resume(&low_task), 0);
	CHECK_EQ(rt_task_spawn(&a, "raiser", 0, 20, 0, body_raise_low, NULL),
		 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	check_log("low@0 raise@0 low-resumed@0 raised@0");
	CHECK_EQ(rt_task_create(&b, "b", 0, 10, 0), 0);
	CHECK_EQ(rt_task_set_priority(&b, 99), 0);
	CHECK_EQ(rt_task_inquire(&b, &info), 0);
	CHECK_EQ(info.prio, 99);
	CHECK_EQ(rt_task_set_priority(&b, 100), -EINVAL);
	CHECK_EQ(rt_task_set_priority(&b, -1), -EINVAL);
	CHECK_EQ(rt_task_delete(&b), 0);
	CHECK_EQ(rt_task_set_priority(&b, 10), -EINVAL);
}

static void body_yielder(void *arg)
{
	note("%s1", (const char *)arg);
	CHECK_EQ(rt_task_yield(), 0);
	note("%s2", (const char *)arg);
}

TEST(yield_round_robin)
{
	RT_TASK a, b;

	log_start();
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_task_spawn(&a, "a", 0, 10, 0, body_yielder, "a"), 0);
	CHECK_EQ(rt_task_spawn(&b, "b", 0, 10, 0, body_yielder, "b"), 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	check_log("a1@0 b1@0 a2@0 b2@0");
	/* Alone at its level, main goes on. */
	CHECK_EQ(rt_task_yield(), 0);
}

/* Note the start, spin 2.5 ms, note the end. */
static void body_spin(void *arg)
{
	note("%s", (const char *)arg);
	rt_timer_spin(5 * tick() / 2);
	note("%s-end", (const char *)arg);
}

/*
 * Main, locked, starts a then b (both priority 10) running @body with
 * their names, then sleeps 10 ms.  Before the start, both get a 1 ms
 * slice, then @slice_a and @slice_b.
 */
static void run_pair(RTIME slice_a, RTIME slice_b, void (*body)(void *))
{
	RT_TASK a, b;

	log_start();
	CHECK_EQ(rt_task_create(&a, "a", 0, 10, 0), 0);
	CHECK_EQ(rt_task_create(&b, "b", 0, 10, 0), 0);
	CHECK_EQ(rt_task_slice(&a, tick()), 0);
	CHECK_EQ(rt_task_slice(&b, tick()), 0);
	CHECK_EQ(rt_task_slice(&a, slice_a), 0);
	CHECK_EQ(rt_task_slice(&b, slice_b), 0);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_task_start(&a, body, "a"), 0);
	CHECK_EQ(rt_task_start(&b, body, "b"), 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	CHECK_EQ(rt_task_sleep(10 * tick()), 0);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The items of @log (no dates: live), sorted, into @out. */
static void sorted_items(const char *log, char *out, size_t size)
{
	char copy[sizeof(trail)], *items[64], *save = NULL;
	size_t n = 0;

	snprintf(copy, sizeof(copy), "%s", log);
	for (char *item = strtok_r(copy, " ", &save); item && n < 64;
	     item = strtok_r(NULL, " ", &save)) {
		item[strcspn(item, "@")] = '\0';
		items[n++] = item;
	}
	qsort(items, n, sizeof(items[0]), by_name);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s",
			 i ? " " : "", items[i]);
}

/*
 * Round-robin turns: a quantum is wall-clock time, the work a spin
 * does is CPU time.  Without SCHED_FIFO (live with FUSION_NO_RT),
 * Linux takes CPU time from the turns, and under an emulator its
 * translations do: only the events, not their order, are certain then.
 */
static void check_turns(const char *expected)
{
	char want[sizeof(trail)], got[sizeof(trail)];

	if (on_sim() ||
	    (sched_getscheduler(0) == SCHED_FIFO && !test_emulated())) {
		check_log(expected);
		return;
	}
	sorted_items(expected, want, sizeof(want));
	sorted_items(trail, got, sizeof(got));
	CHECK_STR(got, want);
}

TEST(slice_round_robin)
{
	/* 1 ms slices: a 0-1, b 1-2, a 2-3, b 3-4, a 4-4.5, b 4.5-5. */
	run_pair(tick(), tick(), body_spin);
	check_turns("a@0 b@1000000 a-end@4500000 b-end@5000000");
	/* Slice 0 is FIFO again: b, once it runs, runs to its end. */
	run_pair(tick(), 0, body_spin);
	check_turns("a@0 b@1000000 b-end@3500000 a-end@5000000");
	run_pair(0, 0, body_spin);
	check_turns("a@0 a-end@2500000 b@2500000 b-end@5000000");
	/* Another quantum for a: 0.4 ms turns against b's 1 ms. */
	run_pair(tick() * 2 / 5, tick(), body_spin);
	check_turns("a@0 b@400000 b-end@3700000 a-end@5000000");
}

/* a: spin 0.3 ms, take a 1 ms slice, spin 2 ms.  b: spin 2.5 ms. */
static void body_slice_on_self(void *arg)
{
	if (strcmp(arg, "b") == 0) {
		body_spin(arg);
		return;
	}
	note("a");
	rt_timer_spin(3 * tick() / 10);
	CHECK_EQ(rt_task_slice(NULL, tick()), 0);
	rt_timer_spin(2 * tick());
	note("a-end");
}

/* a: spin 0.5 ms, back to FIFO, spin 2 ms.  b: spin 2.5 ms. */
static void body_slice_off_self(void *arg)
{
	if (strcmp(arg, "b") == 0) {
		body_spin(arg);
		return;
	}
	note("a");
	rt_timer_spin(tick() / 2);
	CHECK_EQ(rt_task_slice(NULL, 0), 0);
	note("a-fifo");
	rt_timer_spin(2 * tick());
	note("a-end");
}

TEST(slice_of_running_task)
{
	/*
	 * The slice starts when it is set: a rotates at 1.3 ms, and b
	 * (FIFO) then runs to its end at 3.8 ms.
	 */
	run_pair(0, 0, body_slice_on_self);
	check_turns("a@0 b@1300000 b-end@3800000 a-end@4800000");
	/* Back to FIFO before its slice ends: a is never rotated. */
	run_pair(tick(), tick(), body_slice_off_self);
	check_turns("a@0 a-fifo@500000 a-end@2500000 b@2500000 b-end@5000000");
}

static unsigned long overruns[4];
static int period_ret[4];

static void body_periodic(void *arg)
{
	(void)arg;
	CHECK_EQ(rt_task_wait_period(NULL), -EWOULDBLOCK);
	CHECK_EQ(rt_task_set_periodic(NULL, TM_NOW, MS), 0);
	for (int i = 0; i < 4; i++) {
		overruns[i] = 99;
		period_ret[i] = rt_task_wait_period(&overruns[i]);
		note("p%d", i);
		/* Second cycle: 2.5 periods of work, i.e. one overrun. */
		if (i == 1)
			rt_timer_spin(5 * MS / 2);
	}
	CHECK_EQ(rt_task_set_periodic(NULL, TM_NOW, TM_INFINITE), 0);
	CHECK_EQ(rt_task_wait_period(NULL), -EWOULDBLOCK);
}

TEST(periodic_overrun)
{
	RT_TASK p;

	log_start();
	CHECK_EQ(rt_task_spawn(&p, "p", 0, 10, 0, body_periodic, NULL), 0);
	CHECK_EQ(rt_task_sleep(10 * MS), 0);
	/* Released at 1, 2; late at 4.5 (3 is its own, 4 missed); 5. */
	check_log("p0@1000000 p1@2000000 p2@4500000 p3@5000000");
	CHECK_EQ(period_ret[0], 0);
	CHECK_EQ(period_ret[1], 0);
	CHECK_EQ(period_ret[2], -ETIMEDOUT);
	CHECK_EQ(period_ret[3], 0);
	CHECK_EQ(overruns[0], 0);
	CHECK_EQ(overruns[3], 0);
	if (on_sim())
		CHECK_EQ(overruns[2], 1);
	else
		CHECK(overruns[2] >= 1);
}

/* Held off past its release by a more urgent task (body_hog). */
static void body_periodic_held_off(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		overruns[i] = 99;
		period_ret[i] = rt_task_wait_period(&overruns[i]);
		note("p%d", i);
	}
}

static void body_hog(void *arg)
{
	(void)arg;
	note("hog");
	rt_timer_spin(first_date(MS) + 5 * MS / 2);
	note("hog-end");
}

TEST(periodic_held_off_counts_its_overruns)
{
	RT_TASK p, hog;

	log_start();
	CHECK_EQ(rt_task_create(&p, "p", 0, 10, T_JOINABLE), 0);
	CHECK_EQ(rt_task_set_periodic(&p, rt_timer_read() + first_date(MS), MS),
		 0);
	CHECK_EQ(rt_task_start(&p, body_periodic_held_off, NULL), 0);
	CHECK_EQ(rt_task_spawn(&hog, "hog", 0, 20, T_JOINABLE, body_hog, NULL),
		 0);
	CHECK_EQ(rt_task_join(&hog), 0);
	CHECK_EQ(rt_task_join(&p), 0);
	/*
	 * Released at 1 ms, it runs at 3.5: that wait returns the points
	 * of 2 and 3 ms as its overruns, as Cobalt counts them once the
	 * waiter runs, and the next one waits for 4 ms.
	 */
	check_log("hog@0 hog-end@3500000 p0@3500000 p1@4000000");
	CHECK_EQ(period_ret[0], -ETIMEDOUT);
	CHECK_EQ(period_ret[1], 0);
	CHECK_EQ(overruns[1], 0);
	if (on_sim())
		CHECK_EQ(overruns[0], 2);
	else
		CHECK(overruns[0] >= 1);
}

static void body_periodic_unblocked(void *arg)
{
	unsigned long ov = 7;

	(void)arg;
	CHECK_EQ(rt_task_set_periodic(rt_task_self(),
				      rt_timer_read() + first_date(MS), MS),
		 0);
	/* -EINTR leaves the overrun count untouched. */
	note("wait:%d", rt_task_wait_period(&ov));
	CHECK_EQ(ov, 7);
	note("wait:%d", rt_task_wait_period(&ov));
	CHECK_EQ(ov, 0);
}

TEST(periodic_errors)
{
	RT_TASK p, other;

	log_start();
	CHECK_EQ(
	    rt_task_spawn(&p, "p", 0, 10, 0, body_periodic_unblocked, NULL), 0);
	CHECK_EQ(rt_task_sleep(MS / 2), 0);
	CHECK_EQ(rt_task_unblock(&p), 0);
	CHECK_EQ(rt_task_sleep(first_date(MS) + MS), 0);
	check_log("wait:-4@500000 wait:0@1000000");
	/* Any task (test_task_compat.c); no date in the past. */
	CHECK_EQ(rt_task_create(&other, "other", 0, 10, 0), 0);
	CHECK_EQ(rt_task_set_periodic(&other, TM_NOW, MS), 0);
	CHECK_EQ(rt_task_set_periodic(&other, 1, MS), -ETIMEDOUT);
	CHECK_EQ(rt_task_delete(&other), 0);
	CHECK_EQ(rt_task_set_periodic(&other, TM_NOW, MS), -EINVAL);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_set_periodic(NULL, 1, MS), -ETIMEDOUT);
	CHECK_EQ(rt_task_wait_period(NULL), -EWOULDBLOCK);
}

/* Release and wake-up dates past the clock's range: never, until
 * rt_task_unblock() (main unblocks at 1, 2, 3 and 4 ms). */
static void body_far_dates(void *arg)
{
	(void)arg;
	CHECK_EQ(rt_task_set_periodic(NULL, TM_NOW, (RTIME)INT64_MAX), 0);
	note("period:%d", rt_task_wait_period(NULL));
	note("sleep:%d", rt_task_sleep((RTIME)INT64_MAX));
	note("until:%d", rt_task_sleep_until((RTIME)INT64_MAX + 1));
	CHECK_EQ(rt_task_set_periodic(NULL, rt_timer_read() + MS / 2,
				      (RTIME)INT64_MAX),
		 0);
	note("first:%d", rt_task_wait_period(NULL));
	note("second:%d", rt_task_wait_period(NULL));
}

TEST(periodic_past_the_clock)
{
	RT_TASK p;

	log_start();
	spawn(&p, 10, body_far_dates, NULL);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(rt_task_sleep(MS), 0);
		CHECK_EQ(rt_task_unblock(&p), 0);
	}
	CHECK_EQ(rt_task_join(&p), 0);
	check_log("period:-4@1000000 sleep:-4@2000000 until:-4@3000000 "
		  "first:0@3500000 second:-4@4000000");
	/* Dates the nucleus cannot take; no period. */
	CHECK_EQ(rt_task_set_periodic(NULL, (RTIME)INT64_MAX, MS), -EINVAL);
	CHECK_EQ(rt_task_set_periodic(NULL, TM_NOW, (RTIME)INT64_MAX + 1),
		 -EINVAL);
	CHECK_EQ(rt_task_wait_period(NULL), -EWOULDBLOCK);
}

TEST(inquire_self_same)
{
	RT_TASK a, b, *self;
	RT_TASK_INFO info;

	log_start();
	self = rt_task_self();
	CHECK(self != NULL);
	CHECK(self == rt_task_self());
	CHECK_EQ(rt_task_inquire(NULL, &info), 0);
	CHECK_STR(info.name, "main");
	CHECK_EQ(info.prio, 0);
	CHECK_EQ(rt_task_inquire(self, &info), 0);
	CHECK_EQ(info.stat.schedlock, 0);
	CHECK(info.stat.status & NK_THREAD_CURRENT);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_task_inquire(NULL, &info), 0);
	CHECK_EQ(info.stat.schedlock, 1);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	CHECK_EQ(rt_task_create(&a, "named", 0, 42, 0), 0);
	CHECK_EQ(rt_task_inquire(&a, &info), 0);
	CHECK_STR(info.name, "named");
	CHECK_EQ(info.prio, 42);
	CHECK(info.stat.status & NK_THREAD_DORMANT);
	CHECK_EQ(rt_task_inquire(&a, NULL), 0);
	CHECK_EQ(rt_task_create(&b, NULL, 0, 1, 0), 0);
	CHECK_EQ(rt_task_inquire(&b, &info), 0);
	CHECK(info.name[0] != '\0');
	CHECK(rt_task_same(&a, &a));
	CHECK(!rt_task_same(&a, &b));
	CHECK(!rt_task_same(&a, NULL));
	CHECK(!rt_task_same(self, &a));
	CHECK_EQ(rt_task_delete(&a), 0);
	CHECK_EQ(rt_task_delete(&b), 0);
	CHECK_EQ(rt_task_inquire(&a, &info), -EINVAL);
}

static RT_TASK self_seen;

static void body_self(void *arg)
{
	(void)arg;
	self_seen = *rt_task_self();
}

TEST(self_in_task)
{
	RT_TASK a;

	CHECK_EQ(rt_task_create(&a, "a", 0, 10, T_JOINABLE), 0);
	CHECK_EQ(rt_task_start(&a, body_self, NULL), 0);
	CHECK(rt_task_same(&a, &self_seen));
	CHECK_EQ(rt_task_join(&a), 0);
}

static void body_creator(void *arg)
{
	RT_TASK t;

	CHECK_EQ(rt_task_sleep(2 * MS), 0);
	note("create");
	CHECK_EQ(rt_task_create(&t, (const char *)arg, 0, 10, 0), 0);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_delete(&t), 0);
}

TEST(bind_unbind)
{
	RT_TASK a, d, c;
	RTIME t0;

	log_start();
	CHECK_EQ(rt_task_create(&a, "srv", 0, 10, 0), 0);
	CHECK_EQ(rt_task_bind(&d, "srv", TM_NONBLOCK), 0);
	CHECK(rt_task_same(&a, &d));
	CHECK_EQ(rt_task_unbind(&d), 0);
	CHECK_EQ(d.handle, 0);
	CHECK_EQ(rt_task_inquire(&d, NULL), -EINVAL);
	CHECK_EQ(rt_task_delete(&a), 0);
	CHECK_EQ(rt_task_bind(&d, "srv", TM_NONBLOCK), -EWOULDBLOCK);
	t0 = rt_timer_read();
	CHECK_EQ(rt_task_bind(&d, "srv", MS), -ETIMEDOUT);
	if (on_sim())
		CHECK_EQ(rt_timer_read() - t0, MS);
	CHECK_EQ(rt_task_spawn(&c, "creator", 0, 10, 0, body_creator, "late"),
		 0);
	CHECK_EQ(rt_task_bind(&d, "late", TM_INFINITE), 0);
	note("bound");
	CHECK_EQ(rt_task_inquire(&d, NULL), 0);
	CHECK_EQ(rt_task_bind(&d, "", TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_bind(&d, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_bind(NULL, "late", TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_unbind(NULL), -EINVAL);
	CHECK_EQ(rt_task_sleep(2 * MS), 0);
	check_log("create@3000000 bound@3000000");
}

TEST(affinity_and_slice)
{
	RT_TASK a;
	cpu_set_t cpus;
	int rt = 0, other;

	/* T_CPU and the sets name Linux CPUs: which one is the RT CPU's? */
	while (rt < CPU_SETSIZE && fusion_runtime_cpu(rt) != 0)
		rt++;
	CHECK(rt < CPU_SETSIZE);
	other = rt == 0 ? 1 : 0;
	CHECK_EQ(rt_task_create(&a, "a", 0, 10, rt < 8 ? T_CPU(rt) : 0), 0);
	CPU_ZERO(&cpus);
	CHECK_EQ(rt_task_set_affinity(&a, &cpus), -EINVAL);
	CPU_SET(other, &cpus);
	CHECK_EQ(rt_task_set_affinity(&a, &cpus), -EINVAL);
	CPU_SET(rt, &cpus);
	CHECK_EQ(rt_task_set_affinity(&a, &cpus), 0);
	CHECK_EQ(rt_task_set_affinity(NULL, &cpus), 0);
	CHECK_EQ(rt_task_set_affinity(&a, NULL), -EINVAL);
	CHECK_EQ(rt_task_slice(&a, MS), 0);
	CHECK_EQ(rt_task_slice(&a, 0), 0);
	CHECK_EQ(rt_task_slice(NULL, 0), 0);
	/* Beyond the nucleus range of ns (TM_NONBLOCK among them). */
	CHECK_EQ(rt_task_slice(&a, (RTIME)INT64_MAX + 1), -EINVAL);
	CHECK_EQ(rt_task_slice(&a, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_delete(&a), 0);
	CHECK_EQ(rt_task_set_affinity(&a, &cpus), -EINVAL);
	CHECK_EQ(rt_task_slice(&a, 0), -EINVAL);
	/* No RT CPU there. */
	CHECK_EQ(rt_task_create(&a, "a", 0, 10, T_CPU(other)), -EINVAL);
}

static void *plain_thread(void *arg)
{
	int *results = arg;
	RT_TASK_MCB mcb = {0};
	RT_TASK t = {0};

	results[0] = rt_task_self() == NULL;
	results[1] = rt_task_sleep(MS);
	results[2] = rt_task_set_mode(0, T_LOCK, NULL);
	results[3] = rt_task_yield();
	results[4] = rt_task_wait_period(NULL);
	results[5] = rt_task_receive(&mcb, TM_NONBLOCK);
	results[6] = rt_task_delete(NULL);
	results[7] = rt_task_inquire(NULL, NULL);
	results[8] = rt_task_set_periodic(NULL, TM_NOW, MS);
	results[9] = rt_task_join(&t);
	results[10] = rt_task_slice(NULL, MS);
	return NULL;
}

TEST(plain_thread_context)
{
	int results[11];
	pthread_t th;

	CHECK(rt_task_self() != NULL);
	CHECK_EQ(pthread_create(&th, NULL, plain_thread, results), 0);
	/* main runs at nucleus 0 and is no RT competitor for Linux. */
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK_EQ(results[0], 1);
	CHECK_EQ(results[1], -EPERM);
	CHECK_EQ(results[2], -EPERM);
	CHECK_EQ(results[3], -EPERM);
	CHECK_EQ(results[4], -EPERM);
	CHECK_EQ(results[5], -EPERM);
	CHECK_EQ(results[6], -EPERM);
	CHECK_EQ(results[7], -EPERM);
	CHECK_EQ(results[8], -EINVAL);
	CHECK_EQ(results[9], -EPERM);
	CHECK_EQ(results[10], -EPERM);
}

TEST(bad_input)
{
	RT_TASK a, zero = {0}, garbage = {0x12345678u, 0};
	char longname[XNOBJECT_NAME_LEN + 1];

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_EQ(rt_task_create(NULL, "a", 0, 10, 0), -EINVAL);
	CHECK_EQ(rt_task_create(&a, "a", 0, -1, 0), -EINVAL);
	CHECK_EQ(rt_task_create(&a, "a", 0, 100, 0), -EINVAL);
	CHECK_EQ(rt_task_create(&a, "a", -1, 10, 0), -EINVAL);
	CHECK_EQ(rt_task_create(&a, "a", 0, 10, 0x100), -EINVAL);
	CHECK_EQ(rt_task_create(&a, longname, 0, 10, 0), -EINVAL);
	CHECK_EQ(rt_task_spawn(&a, "a", 0, 10, 0, NULL, NULL), -EINVAL);
	CHECK_EQ(rt_task_create(&a, "dup", 0, 10, 0), 0);
	{
		RT_TASK b;

		CHECK_EQ(rt_task_create(&b, "dup", 0, 10, 0), -EEXIST);
	}
	CHECK_EQ(rt_task_start(&a, NULL, NULL), -EINVAL);
	CHECK_EQ(rt_task_start(NULL, body_note, NULL), -EINVAL);
	CHECK_EQ(rt_task_delete(&a), 0);
	{
		RT_TASK *bad[] = {&zero, &garbage, &a};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			RT_TASK *t = bad[i];

			CHECK_EQ(rt_task_start(t, body_note, NULL), -EINVAL);
			CHECK_EQ(rt_task_delete(t), -EINVAL);
			CHECK_EQ(rt_task_join(t), -EINVAL);
			CHECK_EQ(rt_task_suspend(t), -EINVAL);
			CHECK_EQ(rt_task_resume(t), -EINVAL);
			CHECK_EQ(rt_task_unblock(t), -EINVAL);
			CHECK_EQ(rt_task_set_priority(t, 10), -EINVAL);
			CHECK_EQ(rt_task_inquire(t, NULL), -EINVAL);
			CHECK_EQ(rt_task_slice(t, 0), -EINVAL);
			CHECK_EQ(rt_task_set_periodic(t, TM_NOW, MS), -EINVAL);
		}
	}
	CHECK_EQ(rt_task_shadow(NULL, "x", 100, 0), -EINVAL);
	CHECK_EQ(rt_task_shadow(NULL, "x", 10, T_JOINABLE), -EINVAL);
	CHECK_EQ(rt_task_shadow(NULL, longname, 10, 0), -EINVAL);
}

static int shadow_results[4];

static void *shadow_thread(void *arg)
{
	RT_TASK me;
	RT_TASK_INFO info;

	(void)arg;
	shadow_results[0] = rt_task_shadow(&me, "pt", 10, 0);
	shadow_results[1] = rt_task_same(&me, rt_task_self());
	shadow_results[2] = rt_task_inquire(NULL, &info);
	shadow_results[3] = info.prio;
	CHECK_EQ(rt_task_sleep(MS), 0);
	rt_task_delete(NULL);
	return NULL;
}

/*
 * A plain pthread shadows itself while main runs application code (on
 * sim it waits for main's next nucleus call, which it preempts).  Last:
 * main polls for it with sleeps, so nothing else may be pending.
 */
TEST(shadow_pthread)
{
	RT_TASK d;
	pthread_t th;

	int ret;

	CHECK_EQ(pthread_create(&th, NULL, shadow_thread, NULL), 0);
	CHECK_EQ(pthread_detach(th), 0);
	/*
	 * Poll: the sim cannot know that a Linux thread is about to join,
	 * so main must not wait for it with nothing else pending.  The
	 * name is published before the pthread shadows itself; the task
	 * is found (inquire) only once it has.
	 */
	for (int i = 0; i < 100000; i++) {
		ret = rt_task_bind(&d, "pt", TM_NONBLOCK);
		if (ret == 0 && rt_task_inquire(&d, NULL) == 0)
			break;
		CHECK(ret == 0 || ret == -EWOULDBLOCK);
		/* Long enough to block for real even under sanitizers: the
		 * pthread shares main's CPU and SCHED_FIFO priority. */
		CHECK_EQ(rt_task_sleep(MS / 10), 0);
	}
	CHECK_EQ(ret, 0);
	CHECK_EQ(rt_task_inquire(&d, NULL), 0);
	/* It deletes itself after a 1 ms sleep, its results written.  The
	 * bound is 10 s, as above: 100 ms was once too short under
	 * ThreadSanitizer. */
	for (int i = 0; i < 100000 && rt_task_inquire(&d, NULL) == 0; i++)
		CHECK_EQ(rt_task_sleep(MS / 10), 0);
	CHECK_EQ(rt_task_inquire(&d, NULL), -EINVAL);
	CHECK_EQ(shadow_results[0], 0);
	CHECK_EQ(shadow_results[1], 1);
	CHECK_EQ(shadow_results[2], 0);
	CHECK_EQ(shadow_results[3], 10);
}

/* Near the end: it gives main a name and a priority for good. */
TEST(shadow_main)
{
	RT_TASK me, d, a;
	RT_TASK_INFO info;

	log_start();
	CHECK_EQ(rt_task_create(&a, "taken", 0, 10, 0), 0);
	CHECK_EQ(rt_task_shadow(&me, "taken", 50, 0), -EEXIST);
	CHECK_EQ(rt_task_shadow(&me, "boss", 50, 0), 0);
	CHECK(rt_task_same(&me, rt_task_self()));
	CHECK_EQ(rt_task_inquire(NULL, &info), 0);
	CHECK_STR(info.name, "boss");
	CHECK_EQ(info.prio, 50);
	CHECK_EQ(rt_task_bind(&d, "boss", TM_NONBLOCK), 0);
	CHECK(rt_task_same(&me, &d));
	/* Shadowing twice is refused. */
	CHECK_EQ(rt_task_shadow(NULL, "again", 50, 0), -EBUSY);
	/* Now above a priority-10 task: starting it does not preempt. */
	CHECK_EQ(rt_task_start(&a, body_note, "a"), 0);
	note("main");
	CHECK_EQ(rt_task_sleep(MS), 0);
	check_log("main@0 a@0");
}

TESTS(T(start_preempts_main), T(spawn_priority_order),
      T(t_lock_nests_and_refuses_blocking), T(t_lock_at_creation), T(sleeps),
      T(unblock_breaks_waits), T(join), T(delete), T(suspend_resume),
      T(set_priority_preempts), T(yield_round_robin), T(slice_round_robin),
      T(slice_of_running_task), T(periodic_overrun),
      T(periodic_held_off_counts_its_overruns), T(periodic_errors),
      T(periodic_past_the_clock), T(inquire_self_same), T(self_in_task),
      T(bind_unbind), T(affinity_and_slice), T(plain_thread_context),
      T(bad_input), T(shadow_main), T(shadow_pthread));
