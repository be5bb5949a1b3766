/* SPDX-License-Identifier: MIT */
/*
 * Scaffolding shared by the VxWorks tests.  Each tests/vxworks/test_*.c
 * is a binary of its own, so everything here is static.  The system
 * clock runs at 1000 ticks per second (1 ms) unless a test says
 * otherwise; main is a task at VxWorks priority 255 (nucleus 0), below
 * every task a test spawns.
 */
#ifndef VXWORKS_TEST_H
#define VXWORKS_TEST_H

#include "skin_test.h"

#include <vxworks/errnoLib.h>
#include <vxworks/intLib.h>
#include <vxworks/kernLib.h>
#include <vxworks/msgQLib.h>
#include <vxworks/semLib.h>
#include <vxworks/sysLib.h>
#include <vxworks/taskHookLib.h>
#include <vxworks/taskInfo.h>
#include <vxworks/taskLib.h>
#include <vxworks/tickLib.h>
#include <vxworks/wdLib.h>

#define MS 1000000LL

static inline nk_time_t now_ns(void)
{
	return nk_now(test_runtime());
}

/* A call that fails with ERROR and sets errno to @status. */
#define CHECK_FAIL(call, status)                                               \
	do {                                                                   \
		errnoSet(0);                                                   \
		CHECK_EQ((long)(call), ERROR);                                 \
		CHECK_EQ(errnoGet(), (status));                                \
	} while (0)

/* A call that returns NULL and sets errno to @status. */
#define CHECK_NULL(call, status)                                               \
	do {                                                                   \
		errnoSet(0);                                                   \
		CHECK((call) == NULL);                                         \
		CHECK_EQ(errnoGet(), (status));                                \
	} while (0)

/* The trail's dates (skin_test.h): ms since log_start(), ns when the
 * date is off a millisecond. */
static nk_time_t trail_t0;

/* Start a trail on a tick boundary of a 1 ms clock. */
static inline void log_start(void)
{
	CHECK_EQ(sysClkRateSet(1000), OK);
	CHECK_EQ(taskDelay(1), OK);
	trail[0] = '\0';
	trail_t0 = now_ns();
}

/* Time since log_start(), in ms (sim: whole, for exact checks). */
static inline long long elapsed_ms(void)
{
	return (now_ns() - trail_t0) / MS;
}

static inline void __attribute__((format(printf, 1, 2)))
note(const char *fmt, ...)
{
	nk_time_t d = now_ns() - trail_t0;
	va_list ap;

	va_start(ap, fmt);
	vnote((unsigned long long)(d % MS ? d : d / MS), fmt, ap);
	va_end(ap);
}

/*
 * A routine of another type as a FUNCPTR: VxWorks code casts straight
 * to FUNCPTR; under -Wcast-function-type (-Wextra) a function that does
 * not return int, or takes a pointer first, goes through void (*)(void).
 */
#define FN(fn) ((FUNCPTR)(void (*)(void))(fn))

/* Spawn a task running @entry(@arg); it must be accepted. */
static inline TASK_ID spawn(const char *name, int prio, FUNCPTR entry, long arg)
{
	TASK_ID tid =
	    taskSpawn(name, prio, 0, 0, entry, arg, 0, 0, 0, 0, 0, 0, 0, 0, 0);

	CHECK(tid != ERROR && tid != 0);
	return tid;
}

/* Wait (a tick at a time) until task @tid has ended. */
static inline void wait_gone(TASK_ID tid)
{
	for (int i = 0; i < 100000 && taskIdVerify(tid) == OK; i++)
		CHECK_EQ(taskDelay(1), OK);
	CHECK_EQ(taskIdVerify(tid), ERROR);
}

#endif
