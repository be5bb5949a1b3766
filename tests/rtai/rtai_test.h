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
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MS 1000000LL
#define MAIN_PRIO 200

#if defined(__SANITIZE_THREAD__)
/*
 * start() waits for a new task to reach its first wait however slowly
 * its thread starts, but several tests give the tasks they start
 * timeouts and dates of 1 to 3 ms, which ThreadSanitizer's thread
 * creation exceeds (their tasks time out before the next one starts).
 * They run on sim there, and on live in the other builds, until those
 * margins are reworked.
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
	_Atomic pid_t tid; /* its Linux thread, once it runs */
	_Atomic bool done; /* the body returned */
};

static struct body_call body_calls[64];
static unsigned int body_next;

static void *body_trampoline(void *call)
{
	struct body_call *c = call;

	c->tid = gettid();
	c->body(c->arg);
	c->done = true;
	return NULL;
}

/* Create a thread running @body(@arg), at main's priority. */
static inline struct body_call *create_call(void (*body)(void *arg), void *arg,
					    long *id)
{
	struct body_call *c = &body_calls[body_next++ % 64];

	c->body = body;
	c->arg = arg;
	c->tid = 0;
	c->done = false;
	*id = rt_thread_create((void *)body_trampoline, c, 0);
	CHECK(*id != 0);
	return c;
}

static inline long create(void (*body)(void *arg), void *arg)
{
	long id;

	create_call(body, arg, &id);
	return id;
}

/* Is @c's thread a task of the runtime's instance, waiting? */
static inline bool task_waits(const struct body_call *c)
{
	struct nk_status_thread threads[64];
	struct nk_status st;
	pid_t tid = c->tid;

	CHECK_EQ(nk_instance_status(fusion_runtime_peek(), &st, threads, 64,
				    NULL, 0),
		 0);
	for (unsigned int i = 0; i < st.nr_threads && i < 64; i++)
		if (tid && threads[i].tid == tid)
			return strcmp(threads[i].state, "running") != 0 &&
			       strcmp(threads[i].state, "ready") != 0;
	return false;
}

/*
 * Start a thread running @body(@arg) and let it run up to its first
 * wait: it becomes a task more urgent than main there.  On live it runs
 * under Linux up to its rt_task_init() and its first wait, as late as
 * thread creation makes it (ThreadSanitizer's is slow): main sleeps
 * until the task waits or its body is done (10 s at most: the test's
 * own checks then say what went otherwise).
 */
static inline long start(void (*body)(void *arg), void *arg)
{
	struct body_call *c;
	long id;

	main_task();
	c = create_call(body, arg, &id);
	rt_task_yield();
	for (int i = 0; !on_sim() && i < 200000 && !c->done && !task_waits(c);
	     i++)
		rt_sleep(nano2count(50000));
	return id;
}

/* Wait for a thread of start() to end. */
static inline void finish(long id)
{
	CHECK_EQ(rt_thread_join(id), 0);
}

#endif
