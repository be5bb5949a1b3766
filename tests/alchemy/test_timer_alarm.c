/* SPDX-License-Identifier: MIT */
/*
 * Alchemy timer services and alarms: the clock and its conversions,
 * rt_timer_spin on the virtual clock, one-shot and periodic alarms at
 * exact dates, restart, stop, deletion, what a handler may and may not
 * do (it runs in timer context), and bad input.
 */
#include "alchemy_test.h"

#include <alchemy/alarm.h>
#include <alchemy/sem.h>

#define US 1000ULL

/* Dates at which handlers ran, relative to @base. */
static RTIME base;
static RTIME fired_at[16];
static int nr_fired;

static void record(void *arg)
{
	(void)arg;
	if (nr_fired < 16)
		fired_at[nr_fired] = rt_timer_read() - base;
	nr_fired++;
}

static void reset_record(void)
{
	nr_fired = 0;
	base = rt_timer_read();
}

TEST(clock_services)
{
	RT_TIMER_INFO info;
	RTIME t0, t1;

	/* Xenomai 3's signature: a program may not use a result. */
	_Static_assert(__builtin_types_compatible_p(
			   __typeof__(rt_timer_inquire(&info)), void),
		       "rt_timer_inquire returns void");
	t0 = rt_timer_read();
	rt_timer_inquire(&info);
	t1 = rt_timer_read();
	CHECK_EQ(info.period, 1);
	CHECK(info.date >= t0 && info.date <= t1);
	CHECK_EQ(info.tsc, info.date);
	CHECK(rt_timer_tsc() >= t1);
	rt_timer_inquire(NULL); /* harmless */
	CHECK_EQ(rt_timer_ns2ticks(12345), 12345);
	CHECK_EQ(rt_timer_ticks2ns(-7), -7);
	CHECK_EQ(rt_timer_ns2tsc(42), 42);
	CHECK_EQ(rt_timer_tsc2ns(42), 42);
}

TEST(spin)
{
	RTIME t0 = rt_timer_read();

	rt_timer_spin(250 * US);
	if (on_sim())
		CHECK_EQ(rt_timer_read() - t0, 250 * US);
	else
		CHECK(rt_timer_read() - t0 >= 250 * US);
	rt_timer_spin(0);
}

/* @a fired once, at MS from reset_record() (sim), and is inactive. */
static void check_fired_once(RT_ALARM *a)
{
	RT_ALARM_INFO info;

	CHECK_EQ(nr_fired, 1);
	if (on_sim())
		CHECK_EQ(fired_at[0], MS);
	CHECK_EQ(rt_alarm_inquire(a, &info), 0);
	CHECK_EQ(info.expiries, 1);
	CHECK_EQ(info.active, 0);
}

TEST(one_shot)
{
	RT_ALARM a;
	RT_ALARM_INFO info;

	reset_record();
	CHECK_EQ(rt_alarm_create(&a, "once", record, NULL), 0);
	CHECK_EQ(rt_alarm_inquire(&a, &info), 0);
	CHECK_STR(info.name, "once");
	CHECK_EQ(info.expiries, 0);
	CHECK_EQ(info.active, 0);
	CHECK_EQ(rt_alarm_start(&a, first_date(MS), TM_INFINITE), 0);
	CHECK_EQ(rt_alarm_inquire(&a, &info), 0);
	CHECK_EQ(info.active, 1);
	CHECK_EQ(rt_task_sleep(first_date(MS) + 2 * MS), 0);
	check_fired_once(&a);
	CHECK_EQ(rt_alarm_delete(&a), 0);
	CHECK_EQ(rt_alarm_delete(&a), -EINVAL);
}

TEST(periodic)
{
	RT_ALARM a;
	RT_ALARM_INFO info;
	RTIME t0, ran;

	reset_record();
	CHECK_EQ(rt_alarm_create(&a, NULL, record, NULL), 0);
	t0 = rt_timer_read();
	CHECK_EQ(rt_alarm_start(&a, MS / 2, MS), 0);
	CHECK_EQ(rt_task_sleep(3 * MS), 0);
	CHECK_EQ(rt_alarm_stop(&a), 0);
	ran = rt_timer_read() - t0;
	CHECK_EQ(rt_task_sleep(3 * MS), 0);
	if (on_sim()) {
		CHECK_EQ(nr_fired, 3);
		CHECK_EQ(fired_at[0], MS / 2);
		CHECK_EQ(fired_at[1], 3 * MS / 2);
		CHECK_EQ(fired_at[2], 5 * MS / 2);
	} else {
		/* A late timer interrupt folds periods into one run, and a
		 * late main lets more periods pass before the stop. */
		CHECK(nr_fired >= 1);
		CHECK(nr_fired <= (int)((ran - MS / 2) / MS) + 1);
	}
	CHECK_EQ(rt_alarm_inquire(&a, &info), 0);
	CHECK_EQ(info.expiries, (unsigned long)nr_fired);
	CHECK_EQ(info.active, 0);
	/* Stopping a stopped alarm is harmless. */
	CHECK_EQ(rt_alarm_stop(&a), 0);
	CHECK_EQ(rt_alarm_delete(&a), 0);
}

TEST(restart_and_immediate)
{
	RT_ALARM a;

	reset_record();
	CHECK_EQ(rt_alarm_create(&a, "re", record, NULL), 0);
	CHECK_EQ(rt_alarm_start(&a, MS, TM_INFINITE), 0);
	CHECK_EQ(rt_task_sleep(MS / 2), 0);
	/* Re-arming moves the date: once, at 0.5 + 1 ms. */
	CHECK_EQ(rt_alarm_start(&a, MS, TM_INFINITE), 0);
	CHECK_EQ(rt_task_sleep(2 * MS), 0);
	if (on_sim()) {
		CHECK_EQ(nr_fired, 1);
		CHECK_EQ(fired_at[0], 3 * MS / 2);
	} else {
		/* main may wake too late to move the first date. */
		CHECK(nr_fired >= 1 && nr_fired <= 2);
	}
	/* Zero delay: fires at once, at the current date. */
	reset_record();
	CHECK_EQ(rt_alarm_start(&a, 0, TM_INFINITE), 0);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(nr_fired, 1);
	if (on_sim())
		CHECK_EQ(fired_at[0], 0);
	CHECK_EQ(rt_alarm_delete(&a), 0);
}

TEST(delete_armed)
{
	RT_ALARM a, b;

	reset_record();
	CHECK_EQ(rt_alarm_create(&a, "armed", record, NULL), 0);
	CHECK_EQ(rt_alarm_start(&a, first_date(MS), MS), 0);
	CHECK_EQ(rt_alarm_delete(&a), 0);
	CHECK_EQ(rt_task_sleep(first_date(MS) + 2 * MS), 0);
	CHECK_EQ(nr_fired, 0);
	/* The name is free again. */
	CHECK_EQ(rt_alarm_create(&b, "armed", record, NULL), 0);
	CHECK_EQ(rt_alarm_create(&a, "armed", record, NULL), -EEXIST);
	CHECK_EQ(rt_alarm_delete(&b), 0);
}

/* What a handler tried, in timer context. */
static RT_ALARM self_alarm;
static RT_TASK sleeper;
static int ctx_results[9];

static void probing_handler(void *arg)
{
	RT_ALARM other;
	RT_SEM sem;

	(void)arg;
	ctx_results[0] = rt_task_sleep(MS);
	ctx_results[1] = rt_alarm_delete(&self_alarm);
	ctx_results[2] = rt_alarm_create(&other, NULL, record, NULL);
	ctx_results[3] = rt_task_self() == NULL;
	ctx_results[4] = rt_task_resume(&sleeper);
	ctx_results[5] = rt_alarm_stop(&self_alarm);
	ctx_results[6] = rt_task_set_mode(0, T_LOCK, NULL);
	ctx_results[7] = rt_task_unblock(&sleeper);
	ctx_results[8] = rt_sem_create(&sem, NULL, 0, S_FIFO);
	record(NULL);
}

static void suspender(void *arg)
{
	(void)arg;
	CHECK_EQ(rt_task_suspend(NULL), 0);
	record(NULL);
}

TEST(handler_context)
{
	reset_record();
	CHECK_EQ(rt_task_spawn(&sleeper, "sleeper", 0, 10, 0, suspender, NULL),
		 0);
	CHECK_EQ(rt_alarm_create(&self_alarm, "probe", probing_handler, NULL),
		 0);
	CHECK_EQ(rt_alarm_start(&self_alarm, MS, MS), 0);
	CHECK_EQ(rt_task_sleep(5 * MS), 0);
	/* Blocking and creation/deletion are refused; non-blocking
	 * services work (the resumed task runs after the handler). */
	CHECK_EQ(ctx_results[0], -EPERM);
	CHECK_EQ(ctx_results[1], -EPERM);
	CHECK_EQ(ctx_results[2], -EPERM);
	CHECK_EQ(ctx_results[3], 1);
	CHECK_EQ(ctx_results[4], 0);
	CHECK_EQ(ctx_results[5], 0);
	CHECK_EQ(ctx_results[6], -EPERM);
	CHECK_EQ(ctx_results[7], 0);
	CHECK_EQ(ctx_results[8], -EPERM);
	/* The handler stopped its own periodic alarm: one run. */
	CHECK_EQ(nr_fired, 2);
	if (on_sim()) {
		CHECK_EQ(fired_at[0], MS);
		CHECK_EQ(fired_at[1], MS);
	}
	CHECK_EQ(rt_alarm_delete(&self_alarm), 0);
}

/* Expiries past the clock's range never come: the alarm goes inactive. */
TEST(dates_past_the_clock)
{
	RT_ALARM once, never;
	RT_ALARM_INFO info;

	/* Past 0, so that INT64_MAX - 1 ns from now is past the clock. */
	CHECK_EQ(rt_task_sleep(MS), 0);
	reset_record();
	CHECK_EQ(rt_alarm_create(&once, NULL, record, NULL), 0);
	CHECK_EQ(rt_alarm_create(&never, NULL, record, NULL), 0);
	CHECK_EQ(rt_alarm_start(&once, MS, (RTIME)INT64_MAX - 1), 0);
	CHECK_EQ(rt_alarm_start(&never, (RTIME)INT64_MAX - 1, MS), 0);
	CHECK_EQ(rt_alarm_inquire(&never, &info), 0);
	CHECK_EQ(info.active, 0);
	CHECK_EQ(rt_task_sleep(5 * MS), 0);
	check_fired_once(&once);
	CHECK_EQ(rt_alarm_delete(&once), 0);
	CHECK_EQ(rt_alarm_delete(&never), 0);
}

TEST(bad_input)
{
	RT_ALARM a, zero = {0}, garbage = {0x7777777u};
	RT_ALARM_INFO info;
	char longname[XNOBJECT_NAME_LEN + 1];

	memset(longname, 'y', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_EQ(rt_alarm_create(NULL, "x", record, NULL), -EINVAL);
	CHECK_EQ(rt_alarm_create(&a, "x", NULL, NULL), -EINVAL);
	CHECK_EQ(rt_alarm_create(&a, longname, record, NULL), -EINVAL);
	CHECK_EQ(rt_alarm_create(&a, "x", record, NULL), 0);
	CHECK_EQ(rt_alarm_inquire(&a, NULL), -EINVAL);
	CHECK_EQ(rt_alarm_start(&a, (RTIME)-2, 0), -EINVAL);
	CHECK_EQ(rt_alarm_start(&a, MS, (RTIME)-2), -EINVAL);
	CHECK_EQ(rt_alarm_delete(&a), 0);
	{
		RT_ALARM *bad[] = {NULL, &zero, &garbage, &a};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			CHECK_EQ(rt_alarm_start(bad[i], MS, 0), -EINVAL);
			CHECK_EQ(rt_alarm_stop(bad[i]), -EINVAL);
			CHECK_EQ(rt_alarm_inquire(bad[i], &info), -EINVAL);
			CHECK_EQ(rt_alarm_delete(bad[i]), -EINVAL);
		}
	}
}

TESTS(T(clock_services), T(spin), T(one_shot), T(periodic),
      T(restart_and_immediate), T(delete_armed), T(handler_context),
      T(dates_past_the_clock), T(bad_input));
