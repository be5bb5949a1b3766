/* SPDX-License-Identifier: MIT */
/*
 * T_NOISR: a task that runs with interrupts off holds off every timer
 * and source handler of its CPU (the head domain stalled) until it
 * turns them on (t_mode) or waits, when pSOS turns them on for the
 * others; ending with them off turns them back on.  Exact dates on sim
 * (a tick is 10 ms), the same order on live.
 */
#include "psos_test.h"

#define MS 1000000LL

/* Wakes after a tick: late when interrupts were off meanwhile. */
static void sleeper(void *arg)
{
	(void)arg;
	CHECK_EQ(tm_wkafter(1), 0);
	note("A");
}

/* The same after four ticks. */
static void late_sleeper(void *arg)
{
	(void)arg;
	CHECK_EQ(tm_wkafter(4), 0);
	note("C");
}

/* Computes 50 ms in @arg's mode, then turns interrupts on. */
static void computer(void *arg)
{
	unsigned long old = 0;

	(void)arg;
	CHECK_EQ(nk_consume(test_runtime(), 50 * MS), 0);
	note("B-done");
	CHECK_EQ(t_mode(T_NOISR, T_ISR, &old), 0);
	note("B-on:%lx", old & T_NOISR);
}

/* A sleeper, then the computer in @mode: what the trail shows. */
static void compute_in_mode(unsigned long mode, const char *expected)
{
	log_start();
	spawn("A", 20, 0, sleeper, NULL);
	spawn("B", 10, mode, computer, NULL);
	settle(10);
	check_log(expected);
}

TEST(interrupts_off_hold_timers_until_turned_on)
{
	compute_in_mode(T_NOISR, "B-done@50 A@50 B-on:700@50");
}

TEST(interrupts_on_let_timers_preempt)
{
	compute_in_mode(T_ISR, "A@10 B-done@50 B-on:0@50");
}

/* Waits two ticks with interrupts off: they are on meanwhile. */
static void waiter(void *arg)
{
	(void)arg;
	CHECK_EQ(tm_wkafter(2), 0);
	note("B-back");
	CHECK_EQ(nk_consume(test_runtime(), 30 * MS), 0);
	note("B-done");
}

TEST(a_wait_turns_interrupts_on_for_the_others)
{
	log_start();
	spawn("A", 20, 0, sleeper, NULL);
	spawn("C", 15, 0, late_sleeper, NULL);
	spawn("B", 10, T_NOISR, waiter, NULL);
	/* A at 10 while B waits; B back at 20 with them off again: C's
	 * tick falls due at 40, late until B ends at 50 (its exit turns
	 * them on).  On live, B starts its wait after C, and a tick may
	 * fall in between (slow threads, under ThreadSanitizer on a busy
	 * host): two ticks apart, B is still back first. */
	settle(10);
	check_log("A@10 B-back@20 B-done@50 C@50");
}

/* Computes 50 ms with interrupts off, then deletes itself. */
static void self_deleter(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_consume(test_runtime(), 50 * MS), 0);
	note("B-done");
	t_delete(0);
	note("never");
}

TEST(deleting_itself_turns_interrupts_on)
{
	log_start();
	spawn("A", 20, 0, sleeper, NULL);
	spawn("B", 10, T_NOISR, self_deleter, NULL);
	settle(10);
	check_log("B-done@50 A@50");
}

TESTS(T(interrupts_off_hold_timers_until_turned_on),
      T(interrupts_on_let_timers_preempt),
      T(a_wait_turns_interrupts_on_for_the_others),
      T(deleting_itself_turns_interrupts_on));
