/* SPDX-License-Identifier: MIT */
/*
 * pSOS time: the calendar (tm_set, tm_get, their ranges, leap years),
 * tm_wkafter and tm_wkwhen at exact dates (a tm_set past a dated wait
 * ends it), timers sending events (after, every, at a date, moved by
 * tm_set, cancelled), bad timer IDs.
 */
#include "psos_test.h"

#define DATE(y, m, d) ((unsigned long)(y) << 16 | (m) << 8 | (d))
#define TIME(h, m, s) ((unsigned long)(h) << 16 | (m) << 8 | (s))

TEST(calendar)
{
	unsigned long date, time, ticks;

	CHECK_EQ(tm_get(&date, &time, &ticks), ERR_NOTIME);
	CHECK_EQ(tm_wkwhen(DATE(2024, 1, 1), TIME(0, 0, 0), 0), ERR_NOTIME);
	CHECK_EQ(tm_evwhen(DATE(2024, 1, 1), TIME(0, 0, 0), 0, 1, &ticks),
		 ERR_NOTIME);
	CHECK_EQ(tm_get(NULL, &time, &ticks), ERR_OBJID);
	CHECK_EQ(tm_set(DATE(2024, 2, 30), TIME(0, 0, 0), 0), ERR_ILLDATE);
	CHECK_EQ(tm_set(DATE(2023, 2, 29), TIME(0, 0, 0), 0), ERR_ILLDATE);
	CHECK_EQ(tm_set(DATE(2024, 13, 1), TIME(0, 0, 0), 0), ERR_ILLDATE);
	CHECK_EQ(tm_set(DATE(2024, 1, 0), TIME(0, 0, 0), 0), ERR_ILLDATE);
	CHECK_EQ(tm_set(DATE(2024, 1, 1), TIME(24, 0, 0), 0), ERR_ILLTIME);
	CHECK_EQ(tm_set(DATE(2024, 1, 1), TIME(0, 60, 0), 0), ERR_ILLTIME);
	CHECK_EQ(tm_set(DATE(2024, 1, 1), TIME(0, 0, 60), 0), ERR_ILLTIME);
	CHECK_EQ(tm_set(DATE(2024, 1, 1), TIME(0, 0, 0), 100), ERR_ILLTICKS);
	/* A leap day, one tick before midnight. */
	CHECK_EQ(tm_set(DATE(2024, 2, 29), TIME(23, 59, 59), 99), 0);
	CHECK_EQ(tm_get(&date, &time, &ticks), 0);
	CHECK_EQ(date, DATE(2024, 2, 29));
	CHECK_EQ(time, TIME(23, 59, 59));
	CHECK_EQ(ticks, 99);
	CHECK_EQ(tm_wkafter(1), 0);
	CHECK_EQ(tm_get(&date, &time, &ticks), 0);
	CHECK_EQ(date, DATE(2024, 3, 1));
	CHECK_EQ(time, TIME(0, 0, 0));
	/* An announced tick counts at once, on top of the clock's. */
	{
		unsigned long before = ticks;

		CHECK_EQ(tm_tick(), 0);
		CHECK_EQ(tm_tick(), 0);
		CHECK_EQ(tm_get(&date, &time, &ticks), 0);
		if (on_sim())
			CHECK_EQ(ticks, before + 2);
		else
			CHECK(ticks >= before + 2);
	}
	/* Year 0 and the last day pSOS can pack. */
	CHECK_EQ(tm_set(DATE(0, 1, 1), TIME(0, 0, 0), 0), 0);
	CHECK_EQ(tm_get(&date, &time, &ticks), 0);
	CHECK_EQ(date, DATE(0, 1, 1));
	CHECK_EQ(tm_set(DATE(65535, 12, 31), TIME(12, 30, 15), 5), 0);
	CHECK_EQ(tm_get(&date, &time, &ticks), 0);
	CHECK_EQ(date, DATE(65535, 12, 31));
	CHECK_EQ(time, TIME(12, 30, 15));
	CHECK_EQ(ticks, 5);
	/* Another clock rate: the calendar is to be set again. */
	{
		struct psos_config cfg = {.kc_ticks2sec = 1000,
					  .kc_ticks2slice = 10};

		CHECK_EQ(psos_configure(&cfg), 0);
		CHECK_EQ(tm_get(&date, &time, &ticks), ERR_NOTIME);
		CHECK_EQ(tm_set(DATE(2024, 1, 1), TIME(0, 0, 0), 999), 0);
		CHECK_EQ(tm_wkafter(1), 0);
		CHECK_EQ(tm_get(&date, &time, &ticks), 0);
		CHECK_EQ(time, TIME(0, 0, 1));
		if (on_sim())
			CHECK_EQ(ticks, 0);
		cfg.kc_ticks2sec = 100;
		CHECK_EQ(psos_configure(&cfg), 0);
	}
}

TEST(wkafter_exact)
{
	log_start();
	CHECK_EQ(tm_wkafter(3), 0);
	note("a");
	CHECK_EQ(tm_wkafter(0), 0);
	note("b");
	check_log("a@30 b@30");
}

static void body_wkwhen(void *arg)
{
	unsigned long *when = arg;

	note("sleep");
	note("woke:%lx", tm_wkwhen(when[0], when[1], when[2]));
}

TEST(wkwhen_and_tm_set)
{
	unsigned long when[3] = {DATE(2030, 6, 1), TIME(10, 0, 5), 50};

	CHECK_EQ(tm_set(DATE(2030, 6, 1), TIME(10, 0, 0), 0), 0);
	CHECK_EQ(tm_wkwhen(DATE(2030, 6, 1), TIME(9, 59, 59), 0), ERR_TOOLATE);
	CHECK_EQ(tm_wkwhen(DATE(2030, 6, 1), TIME(10, 0, 0), 0), ERR_TOOLATE);
	CHECK_EQ(tm_wkwhen(DATE(2030, 6, 31), TIME(10, 0, 0), 0), ERR_ILLDATE);
	log_start();
	/* 5.5 s ahead: wakes at 5500 ms. */
	spawn("W", 10, 0, body_wkwhen, when);
	settle(600);
	check_log("sleep@0 woke:0@5500");
	/* A tm_set past the date wakes the sleeper at once. */
	CHECK_EQ(tm_set(DATE(2030, 6, 1), TIME(10, 0, 0), 0), 0);
	log_start();
	spawn("W", 10, 0, body_wkwhen, when);
	CHECK_EQ(tm_wkafter(2), 0);
	note("set");
	CHECK_EQ(tm_set(DATE(2030, 6, 2), TIME(0, 0, 0), 0), 0);
	check_log("sleep@0 set@20 woke:0@20");
	/* Moved back, the sleeper sleeps on to its date. */
	CHECK_EQ(tm_set(DATE(2030, 6, 1), TIME(10, 0, 0), 0), 0);
	log_start();
	spawn("W", 10, 0, body_wkwhen, when);
	CHECK_EQ(tm_wkafter(2), 0);
	CHECK_EQ(tm_set(DATE(2030, 6, 1), TIME(10, 0, 1), 0), 0);
	note("set");
	settle(500);
	check_log("sleep@0 set@20 woke:0@4520");
}

static void body_timers(void *arg)
{
	unsigned long *ids = arg, got, t;

	(void)t;
	CHECK_EQ(tm_evafter(3, 0x1, &ids[0]), 0);
	CHECK_EQ(tm_evevery(2, 0x2, &ids[1]), 0);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(ev_receive(0x3, EV_ANY, 0, &got), 0);
		note("ev%lx", got);
	}
	CHECK_EQ(tm_cancel(ids[1]), 0);
	CHECK_EQ(tm_cancel(ids[1]), ERR_BADTMID);
	/* The one-shot fired: its ID is gone. */
	CHECK_EQ(tm_cancel(ids[0]), ERR_BADTMID);
	/* A late task (live) may find a period that came before the
	 * cancel; none comes after it. */
	(void)ev_receive(0x3, EV_ANY | EV_NOWAIT, 0, &got);
	CHECK_EQ(ev_receive(0x3, EV_ANY, 5, &got), ERR_TIMEOUT);
	note("quiet");
}

TEST(after_every_cancel)
{
	unsigned long ids[2], tmid;

	CHECK_EQ(tm_evafter(0, 1, &tmid), ERR_ILLTICKS);
	CHECK_EQ(tm_evafter(1, 1, NULL), ERR_OBJID);
	log_start();
	spawn("T", 10, 0, body_timers, ids);
	settle(20);
	check_log("ev2@20 ev1@30 ev2@40 ev2@60 quiet@110");
}

static void body_evwhen(void *arg)
{
	unsigned long *tmid = arg, got;

	CHECK_EQ(tm_evwhen(DATE(2030, 1, 1), TIME(0, 0, 1), 0, 0x10, tmid), 0);
	CHECK_EQ(ev_receive(0x10, EV_ALL, 0, &got), 0);
	note("ev%lx", got);
}

TEST(evwhen_and_tm_set)
{
	unsigned long tmid, date, time, ticks;

	CHECK_EQ(tm_set(DATE(2030, 1, 1), TIME(0, 0, 0), 0), 0);
	CHECK_EQ(tm_evwhen(DATE(2029, 1, 1), TIME(0, 0, 0), 0, 1, &tmid),
		 ERR_TOOLATE);
	CHECK_EQ(tm_evwhen(DATE(2030, 1, 1), TIME(0, 0, 0), 200, 1, &tmid),
		 ERR_ILLTICKS);
	CHECK_EQ(tm_evwhen(DATE(2031, 1, 1), TIME(0, 0, 0), 0, 1, NULL),
		 ERR_OBJID);
	log_start();
	spawn("E", 10, 0, body_evwhen, &tmid);
	settle(110);
	check_log("ev10@1000");
	/* Brought forward by tm_set: fires at once. */
	CHECK_EQ(tm_set(DATE(2030, 1, 1), TIME(0, 0, 0), 0), 0);
	log_start();
	spawn("E", 10, 0, body_evwhen, &tmid);
	CHECK_EQ(tm_wkafter(1), 0);
	CHECK_EQ(tm_set(DATE(2030, 1, 1), TIME(0, 0, 2), 0), 0);
	settle(1);
	check_log("ev10@10");
	/* Two announced ticks bring a dated timer forward by two. */
	CHECK_EQ(tm_set(DATE(2030, 1, 1), TIME(0, 0, 0), 95), 0);
	log_start();
	spawn("E", 10, 0, body_evwhen, &tmid);
	CHECK_EQ(tm_tick(), 0);
	CHECK_EQ(tm_tick(), 0);
	settle(5);
	check_log("ev10@30");
	/* 95 + 2 announced + 5 slept (on live, a bit more). */
	CHECK_EQ(tm_get(&date, &time, &ticks), 0);
	CHECK_EQ(time, TIME(0, 0, 1));
	if (on_sim())
		CHECK_EQ(ticks, 2);
}

TEST(bad_timer_ids)
{
	unsigned long smid;

	for (size_t i = 0; i < NR_BAD_IDS; i++)
		CHECK_EQ(tm_cancel(bad_ids[i]), ERR_BADTMID);
	CHECK_EQ(sm_create("S", 0, 0, &smid), 0);
	CHECK_EQ(tm_cancel(smid), ERR_OBJTYPE);
	CHECK_EQ(sm_delete(smid), 0);
}

TESTS(T(calendar), T(wkafter_exact), T(wkwhen_and_tm_set),
      T(after_every_cancel), T(evwhen_and_tm_set), T(bad_timer_ids));
