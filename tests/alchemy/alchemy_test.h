/* SPDX-License-Identifier: MIT */
/*
 * Scaffolding shared by the Alchemy tests.  Each tests/alchemy/test_*.c
 * is a binary of its own, so everything here is static: the trail of
 * events, the backend, task spawning, plain pthreads.
 */
#ifndef ALCHEMY_TEST_H
#define ALCHEMY_TEST_H

#include "skin_test.h"

#include <alchemy/task.h>
#include <alchemy/timer.h>

#define MS 1000000ULL

/* Effective nucleus priority of the caller (inheritance included). */
static inline int my_prio(void)
{
	return nk_thread_effective_priority(nk_thread_self(test_runtime()));
}

/*
 * A timeout that must not expire before the test acts: exact on sim,
 * roomy on live (no timing guarantee, SCHED_FIFO or not; the machines
 * that run the tests are shared, and a 200x margin was once too short).
 */
static inline RTIME margin(RTIME ns)
{
	return on_sim() ? ns : 2000 * ns;
}

/*
 * A first date the test's main surely acts before: @ns on sim, 20 times
 * it on live (the journal's audit and ThreadSanitizer made main tens of
 * milliseconds late).
 */
static inline RTIME first_date(RTIME ns)
{
	return on_sim() ? ns : 20 * ns;
}

/* The trail's dates: ns since log_start() (skin_test.h's trail). */
static RTIME trail_t0;

static inline void log_start(void)
{
	trail[0] = '\0';
	trail_t0 = rt_timer_read();
}

static inline void __attribute__((format(printf, 1, 2)))
note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(rt_timer_read() - trail_t0, fmt, ap);
	va_end(ap);
}

/* Spawn an anonymous joinable task running @body(@arg). */
static inline void spawn(RT_TASK *task, int prio, void (*body)(void *arg),
			 void *arg)
{
	CHECK_EQ(rt_task_spawn(task, NULL, 0, prio, T_JOINABLE, body, arg), 0);
}

/*
 * A task that binds a descriptor by name, then, once bound, uses it once:
 * each class passes its own bind and use (a read, an allocation, a
 * take), which may note their own steps.  @when dates the bind's return.
 */
struct binder {
	int (*bind)(void *desc, const char *name, RTIME timeout);
	ssize_t (*use)(struct binder *b);
	void *desc;
	const char *name;
	RTIME timeout;
	int bound;
	ssize_t got;
	RTIME when;
	char buf[8];
	void *block;
	RT_TASK task;
};

static inline void binder_body(void *arg)
{
	struct binder *b = arg;

	b->bound = b->bind(b->desc, b->name, b->timeout);
	b->when = rt_timer_read();
	step("bound");
	if (b->bound == 0)
		b->got = b->use(b);
}

/* Spawn @b at priority 20 to bind @name, waiting up to @timeout. */
static inline void binder_start(struct binder *b, const char *name,
				RTIME timeout)
{
	b->name = name;
	b->timeout = timeout;
	b->bound = 1;
	b->got = 1;
	spawn(&b->task, 20, binder_body, b);
}

/*
 * Binding @name before anybody created it: a non-blocking try fails at
 * once, a timed one when @timeout has elapsed (exactly, on sim).
 */
static inline void
check_bind_absent(int (*bind)(void *desc, const char *name, RTIME timeout),
		  void *desc, const char *name, RTIME timeout)
{
	RTIME t0;

	CHECK_EQ(bind(desc, name, TM_NONBLOCK), -EWOULDBLOCK);
	t0 = rt_timer_read();
	CHECK_EQ(bind(desc, name, timeout), -ETIMEDOUT);
	if (on_sim())
		CHECK_EQ(rt_timer_read() - t0, timeout);
}

#endif
