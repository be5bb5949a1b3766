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

#include "harness.h"

#include <fusion/fusion.h>
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

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>

#define MS 1000000LL

static inline struct nk_instance *test_runtime(void)
{
	struct nk_instance *nk = NULL;

	CHECK_EQ(fusion_runtime(&nk), 0);
	return nk;
}

/* On sim, dates are exact; on live, tests check order and codes only. */
static inline bool on_sim(void)
{
	return strcmp(nk_instance_backend(test_runtime()), "sim") == 0;
}

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

/*
 * The trail of events: step() appends a name, note() a formatted item
 * dated "@ms" since log_start() on sim (check_log() drops the dates
 * on live).
 */
static char trail[4096];
static nk_time_t trail_t0;

static inline void step(const char *what)
{
	size_t len = strlen(trail);

	snprintf(trail + len, sizeof(trail) - len, "%s%s", len ? " " : "",
		 what);
}

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
	char item[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(item, sizeof(item), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(item) && on_sim()) {
		nk_time_t d = now_ns() - trail_t0;

		if (d % MS)
			snprintf(item + n, sizeof(item) - (size_t)n, "@%lldns",
				 (long long)d);
		else
			snprintf(item + n, sizeof(item) - (size_t)n, "@%lld",
				 (long long)(d / MS));
	}
	step(item);
}

static inline void check_log(const char *expected)
{
	bool sim = on_sim();
	char want[sizeof(trail)];
	size_t j = 0;

	for (size_t i = 0; expected[i] && j < sizeof(want) - 1; i++) {
		if (!sim && expected[i] == '@') {
			while (expected[i + 1] && expected[i + 1] != ' ')
				i++;
			continue;
		}
		want[j++] = expected[i];
	}
	want[j] = '\0';
	CHECK_STR(trail, want);
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

/* Run @body(@arg) in a plain pthread (not a task) and wait for it. */
static inline void run_plain_thread(void *(*body)(void *arg), void *arg)
{
	pthread_t th;

	CHECK_EQ(pthread_create(&th, NULL, body, arg), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
}

#endif
