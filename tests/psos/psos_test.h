/* SPDX-License-Identifier: MIT */
/*
 * Scaffolding shared by the pSOS tests: the trail of events (dated in
 * ms of virtual time on sim, undated on live), tasks spawned with a
 * pointer argument, bad IDs.  The clock ticks at 100 Hz (10 ms).
 *
 * main is the nucleus thread at priority 0, below every pSOS task: a
 * task it starts runs at once, up to its first wait.
 */
#ifndef PSOS_TEST_H
#define PSOS_TEST_H

#include "skin_test.h"

#include <fusion/fusion.h>
#include <psos/psos.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* The trail (skin_test.h) starts here. */
static nk_time_t trail_t0;

static inline void log_start(void)
{
	trail[0] = '\0';
	trail_t0 = nk_now(test_runtime());
}

/* Milliseconds since log_start(). */
static inline long long ms_now(void)
{
	return (nk_now(test_runtime()) - trail_t0) / 1000000;
}

/* Append an item, dated "@ms" on sim. */
static inline void __attribute__((format(printf, 1, 2)))
note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote((unsigned long long)ms_now(), fmt, ap);
	va_end(ap);
}

/* A delay, in ticks, that must not end before the tasks it waits for
 * are done: exact on sim, half a second longer on live. */
static inline unsigned long margin(unsigned long ticks)
{
	return on_sim() ? ticks : ticks + 50;
}

typedef void (*task_body)(void *arg);

/* Task entries receive their body and argument as two of the four. */
static inline void task_entry(unsigned long body, unsigned long arg,
			      unsigned long a2, unsigned long a3)
{
	(void)a2;
	(void)a3;
	((task_body)(uintptr_t)body)((void *)(uintptr_t)arg);
}

/* Create and start a task running @body(@arg) in @mode. */
static inline unsigned long spawn(const char *name, unsigned long prio,
				  unsigned long mode, task_body body, void *arg)
{
	unsigned long tid = 0,
		      args[4] = {(uintptr_t)body, (uintptr_t)arg, 0, 0};

	CHECK_EQ(t_create(name, prio, 4096, 4096, 0, &tid), 0);
	CHECK_EQ(t_start(tid, mode, task_entry, args), 0);
	return tid;
}

/* Let every task of the test end: main sleeps below them. */
static inline void settle(unsigned long ticks)
{
	CHECK_EQ(tm_wkafter(margin(ticks)), 0);
}

/*
 * Three waiters, started at priorities 10, 30 and 20 in that order: served
 * FIFO they run a, b, c; by priority b, c, a.
 */
static inline void spawn_waiters(task_body body, void *a, void *b, void *c)
{
	spawn("A", 10, 0, body, a);
	spawn("B", 30, 0, body, b);
	spawn("C", 20, 0, body, c);
}

/*
 * A waiter with a timeout (@a) left to expire, @ticks, then another (@b)
 * still waiting as main notes "delete" (and deletes the object).
 */
static inline void spawn_timeout_then_waiter(task_body body, void *a, void *b,
					     unsigned long ticks)
{
	spawn("A", 10, 0, body, a);
	settle(ticks);
	spawn("B", 10, 0, body, b);
	note("delete");
}

/* IDs no object has: zero, forged, all ones. */
static const unsigned long bad_ids[] = {0, 0xdeadbeef, ~0UL, 0x123456789abcUL};
#define NR_BAD_IDS (sizeof(bad_ids) / sizeof(bad_ids[0]))

#endif
