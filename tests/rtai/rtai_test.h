/* SPDX-License-Identifier: MIT */
/*
 * Scaffolding shared by the RTAI tests.  Each tests/rtai/test_*.c is a
 * binary of its own, so everything here is static: starting tasks in
 * RTAI's style (rt_thread_create(), then rt_task_init() in the thread);
 * the trail of events and the backend come from skin_test.h.
 *
 * main becomes an RTAI task at priority MAIN_PRIO (less urgent than
 * every task the tests start): a thread of rt_thread_create() starts at
 * main's priority and runs once main yields, up to its own
 * rt_task_init(), which makes it more urgent.
 */
#ifndef RTAI_TEST_H
#define RTAI_TEST_H

#include "skin_test.h"

#include <fusion/fusion.h>
#include <rtai/rtai_lxrt.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000LL
#define MAIN_PRIO 200

#if defined(__SANITIZE_THREAD__)
/*
 * On live, these tests give a starting thread a millisecond or a few to
 * reach its rt_task_init() and its first wait; under ThreadSanitizer
 * thread creation takes longer, and the orders they check come out
 * otherwise (seen in CI).  They run on sim there, and on live in the
 * other builds, until their margins are reworked.
 */
__attribute__((constructor)) static void rtai_test_tsan_live(void)
{
	const char *backend = getenv("FUSION_BACKEND");

	if (backend && strcmp(backend, "live") == 0) {
		printf(
		    "skipped: live margins too short under ThreadSanitizer\n");
		exit(77);
	}
}
#endif

/* A delay that must not expire before the test acts (roomy on live). */
static inline RTIME margin(RTIME ns)
{
	return on_sim() ? ns : 2000 * ns;
}

/* The trail's dates: ns since log_start() (skin_test.h's trail). */
static RTIME trail_t0;

static inline void log_start(void)
{
	trail[0] = '\0';
	trail_t0 = rt_get_time_ns();
}

static inline void __attribute__((format(printf, 1, 2)))
note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote((unsigned long long)(rt_get_time_ns() - trail_t0), fmt, ap);
	va_end(ap);
}

/* main as an RTAI task, once per binary. */
static inline RT_TASK *main_task(void)
{
	RT_TASK *self = rt_whoami();

	if (self == NULL)
		self = rt_task_init(nam2num("MAIN"), MAIN_PRIO, 0, 0);
	CHECK(self != NULL);
	return self;
}

/* What a thread of create() runs: a test body, as a start routine. */
struct body_call {
	void (*body)(void *arg);
	void *arg;
};

static struct body_call body_calls[64];
static unsigned int body_next;

static void *body_trampoline(void *call)
{
	struct body_call *c = call;

	c->body(c->arg);
	return NULL;
}

/* Create a thread running @body(@arg), at main's priority. */
static inline long create(void (*body)(void *arg), void *arg)
{
	struct body_call *c = &body_calls[body_next++ % 64];
	long id;

	c->body = body;
	c->arg = arg;
	id = rt_thread_create((void *)body_trampoline, c, 0);
	CHECK(id != 0);
	return id;
}

/*
 * Start a thread running @body(@arg) and let it run up to its first
 * wait: it becomes a task more urgent than main there.
 */
static inline long start(void (*body)(void *arg), void *arg)
{
	long id;

	main_task();
	id = create(body, arg);
	rt_task_yield();
	return id;
}

/* Wait for a thread of start() to end. */
static inline void finish(long id)
{
	CHECK_EQ(rt_thread_join(id), 0);
}

#endif
