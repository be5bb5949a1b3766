/* SPDX-License-Identifier: MIT */
/*
 * VxWorks wdLib, the system clock (tickLib, sysLib), kernelTimeSlice
 * and intLib: watchdog dates on tick boundaries, cancel and restart,
 * the routine in interrupt context and what it may not call, clock
 * rates, tick counts, round robin among equal priorities, intLock()
 * holding a watchdog back.
 */
#include "vxworks_test.h"

TEST(clock_defaults_and_rates)
{
	ULONG t0;

	CHECK_EQ(sysClkRateGet(), 60);
	CHECK_EQ(VX_DEFAULT_CLK_RATE, 60);
	CHECK_FAIL(sysClkRateSet(0), EINVAL);
	CHECK_FAIL(sysClkRateSet(-5), EINVAL);
	CHECK_FAIL(sysClkRateSet(VX_CLK_RATE_MAX + 1), EINVAL);
	CHECK_EQ(sysClkRateGet(), 60);
	CHECK_EQ(sysClkRateSet(1000), OK);
	CHECK_EQ(sysClkRateGet(), 1000);
	CHECK_EQ(taskDelay(1), OK);
	t0 = tickGet();
	CHECK_EQ(taskDelay(7), OK);
	/* On live, a loaded machine may wake us a tick or more late. */
	CHECK(tickGet() >= t0 + 7 && (!on_sim() || tickGet() == t0 + 7));
	tickSet(100000);
	t0 = tickGet();
	CHECK(t0 >= 100000 && (!on_sim() || t0 == 100000));
	CHECK_EQ(taskDelay(3), OK);
	CHECK(tickGet() >= t0 + 3 && (!on_sim() || tickGet() == 100003));
	/* A new rate: the count carries on, at the new pace. */
	CHECK_EQ(sysClkRateSet(100), OK);
	CHECK_EQ(taskDelay(1), OK);
	t0 = tickGet();
	if (on_sim()) {
		nk_time_t d0 = now_ns();

		CHECK_EQ(taskDelay(2), OK);
		CHECK_EQ(now_ns() - d0, 20 * MS);
	}
	CHECK(tickGet() >= t0);
}

static void wd_note(long arg)
{
	note("%s", (const char *)arg);
}

TEST(watchdog_dates)
{
	WDOG_ID a = wdCreate(), b = wdCreate();

	CHECK(a != NULL && b != NULL);
	log_start();
	CHECK_EQ(wdStart(a, 5, FN(wd_note), (long)"a"), OK);
	CHECK_EQ(wdStart(b, 3, FN(wd_note), (long)"b"), OK);
	CHECK_EQ(taskDelay(10), OK);
	/* 0 is the next tick; a restart moves an armed watchdog. */
	CHECK_EQ(wdStart(a, 0, FN(wd_note), (long)"a0"), OK);
	CHECK_EQ(wdStart(b, 2, FN(wd_note), (long)"b2"), OK);
	CHECK_EQ(wdStart(b, 4, FN(wd_note), (long)"b4"), OK);
	CHECK_EQ(taskDelay(10), OK);
	/* Cancelled: never runs; cancelling twice is fine. */
	CHECK_EQ(wdStart(a, 2, FN(wd_note), (long)"never"), OK);
	CHECK_EQ(wdCancel(a), OK);
	CHECK_EQ(wdCancel(a), OK);
	CHECK_EQ(taskDelay(5), OK);
	check_log("b@3 a@5 a0@11 b4@14");
	CHECK_EQ(wdDelete(a), OK);
	CHECK_EQ(wdDelete(b), OK);
}

static WDOG_ID isr_wd;
static int isr_results[12];
static int isr_runs;

static int nothing_body(long arg)
{
	(void)arg;
	return 0;
}

static void isr_routine(long arg)
{
	SEM_ID s = (SEM_ID)arg;
	int *r = isr_results;

	r[0] = intContext();
	r[1] = (int)taskIdSelf();
	r[2] = taskDelay(1) == ERROR ? errnoGet() : 0;
	r[3] = semTake(s, NO_WAIT) == ERROR ? errnoGet() : 0;
	r[4] = semBCreate(SEM_Q_FIFO, SEM_EMPTY) == NULL ? errnoGet() : 0;
	r[5] = msgQCreate(1, 1, MSG_Q_FIFO) == NULL ? errnoGet() : 0;
	r[6] = wdCreate() == NULL ? errnoGet() : 0;
	r[7] = wdDelete(isr_wd) == ERROR ? errnoGet() : 0;
	r[8] = taskSpawn("isr", 10, 0, 0, (FUNCPTR)nothing_body, 0, 0, 0, 0, 0,
			 0, 0, 0, 0, 0) == ERROR
		   ? errnoGet()
		   : 0;
	r[9] = taskLock() == ERROR ? errnoGet() : 0;
	r[10] = semDelete(s) == ERROR ? errnoGet() : 0;
	/* Restarting from its own routine is allowed. */
	if (++isr_runs < 3)
		r[11] = wdStart(isr_wd, 2, FN(isr_routine), arg);
	semGive(s);
}

TEST(routine_in_interrupt_context)
{
	SEM_ID s = semCCreate(SEM_Q_FIFO, 0);
	int nk_errno_before;

	isr_wd = wdCreate();
	log_start();
	errnoSet(0x77);
	nk_errno_before = errnoGet();
	CHECK_EQ(wdStart(isr_wd, 1, FN(isr_routine), (long)s), OK);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(semTake(s, WAIT_FOREVER), OK);
		note("run");
	}
	check_log("run@1 run@3 run@5");
	CHECK_EQ(isr_results[0], TRUE);
	CHECK_EQ(isr_results[1], 0);
	for (int i = 2; i <= 10; i++)
		CHECK_EQ(isr_results[i], S_intLib_NOT_ISR_CALLABLE);
	CHECK_EQ(isr_results[11], OK);
	/* The interrupted task's errno is its own. */
	CHECK_EQ(errnoGet(), nk_errno_before);
	CHECK_EQ(intContext(), FALSE);
	CHECK_EQ(wdDelete(isr_wd), OK);
	CHECK_EQ(semDelete(s), OK);
}

TEST(watchdog_bad_input)
{
	WDOG_ID gone = wdCreate();
	SEM_ID s = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	WDOG_ID bads[] = {NULL, gone, (WDOG_ID)0x77, (WDOG_ID)s,
			  (WDOG_ID)UINTPTR_MAX};
	WDOG_ID ok = wdCreate();

	CHECK_EQ(wdDelete(gone), OK);
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		CHECK_FAIL(wdStart(bads[i], 1, FN(wd_note), 0),
			   S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(wdCancel(bads[i]), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(wdDelete(bads[i]), S_objLib_OBJ_ID_ERROR);
	}
	CHECK_FAIL(wdStart(ok, 1, NULL, 0), EINVAL);
	CHECK_FAIL(wdStart(ok, -1, FN(wd_note), 0), EINVAL);
	CHECK_EQ(wdDelete(ok), OK);
	CHECK_EQ(semDelete(s), OK);
}

static int spinner_body(long arg)
{
	for (int i = 0; i < 5; i++)
		CHECK_EQ(nk_consume(test_runtime(), MS), 0);
	note("%s", (const char *)arg);
	return 0;
}

static void round_robin(int slice, const char *expect)
{
	TASK_ID a, b;

	log_start();
	CHECK_EQ(kernelTimeSlice(slice), OK);
	CHECK_EQ(taskLock(), OK);
	a = spawn("A", 50, (FUNCPTR)spinner_body, (long)"A");
	b = spawn("B", 50, (FUNCPTR)spinner_body, (long)"B");
	CHECK_EQ(taskUnlock(), OK);
	wait_gone(a);
	wait_gone(b);
	check_log(expect);
}

TEST(time_slice)
{
	/* Without slicing, A runs to its end; with 2-tick slices, A and B
	 * take turns: A 0-2, B 2-4, A 4-6, B 6-8, A 8-9, B 9-10. */
	round_robin(0, "A@5 B@10");
	if (on_sim())
		round_robin(2, "A@9 B@10");
	CHECK_EQ(kernelTimeSlice(0), OK);
	CHECK_FAIL(kernelTimeSlice(-1), EINVAL);
}

TEST(int_lock_holds_watchdogs)
{
	WDOG_ID wd = wdCreate();
	int key, inner;

	log_start();
	CHECK_EQ(wdStart(wd, 1, FN(wd_note), (long)"wd"), OK);
	key = intLock();
	inner = intLock();
	CHECK_EQ(nk_consume(test_runtime(), 3 * MS), 0);
	note("locked");
	intUnlock(inner);
	note("inner");
	intUnlock(key);
	note("unlocked");
	check_log("locked@3 inner@3 wd@3 unlocked@3");
	CHECK_EQ(wdDelete(wd), OK);
}

TESTS(T(clock_defaults_and_rates), T(watchdog_dates),
      T(routine_in_interrupt_context), T(watchdog_bad_input), T(time_slice),
      T(int_lock_holds_watchdogs));
