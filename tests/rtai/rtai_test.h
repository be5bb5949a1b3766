/* SPDX-License-Identifier: MIT */
/*
 * Scaffolding shared by the RTAI tests.  Each tests/rtai/test_*.c is a
 * binary of its own, so everything here is static: the trail of events,
 * the backend, starting tasks in RTAI's style (rt_thread_create(), then
 * rt_task_init() in the thread).
 *
 * main becomes an RTAI task at priority MAIN_PRIO (less urgent than
 * every task the tests start): a thread of rt_thread_create() starts at
 * main's priority and runs once main yields, up to its own
 * rt_task_init(), which makes it more urgent.
 */
#ifndef RTAI_TEST_H
#define RTAI_TEST_H

#include "harness.h"

#include <fusion/fusion.h>
#include <rtai/rtai_lxrt.h>

#include <stdarg.h>
#include <stdbool.h>

#define MS 1000000LL
#define MAIN_PRIO 200

static inline struct nk_instance *test_runtime(void)
{
	struct nk_instance *nk = NULL;

	CHECK_EQ(fusion_runtime(&nk), 0);
	return nk;
}

/* Virtual time, exact dates: sim.  On live, only orders and codes. */
static inline bool on_sim(void)
{
	return strcmp(nk_instance_backend(test_runtime()), "sim") == 0;
}

/* A delay that must not expire before the test acts (roomy on live). */
static inline RTIME margin(RTIME ns)
{
	return on_sim() ? ns : 2000 * ns;
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

/* The trail of events: step() a name, note() an item dated "@ns". */
static char trail[2048];
static RTIME trail_t0;

static inline void step(const char *what)
{
	size_t len = strlen(trail);

	snprintf(trail + len, sizeof(trail) - len, "%s%s", len ? " " : "",
		 what);
}

static inline void log_start(void)
{
	trail[0] = '\0';
	trail_t0 = rt_get_time_ns();
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
	if (n >= 0 && (size_t)n < sizeof(item) && on_sim())
		snprintf(item + n, sizeof(item) - (size_t)n, "@%lld",
			 rt_get_time_ns() - trail_t0);
	step(item);
}

/* The trail against @expected, its "@ns" dates dropped on live. */
static inline void check_log(const char *expected)
{
	bool sim = on_sim();
	char want[sizeof(trail)];
	size_t j = 0;

	for (size_t i = 0; expected[i] && j < sizeof(want) - 1; i++) {
		if (!sim && expected[i] == '@') {
			while (expected[i + 1] >= '0' && expected[i + 1] <= '9')
				i++;
			continue;
		}
		want[j++] = expected[i];
	}
	want[j] = '\0';
	CHECK_STR(trail, want);
}

/*
 * Start a thread running @body(@arg) and let it run up to its first
 * wait: it becomes a task more urgent than main there.
 */
static inline long start(void (*body)(void *arg), void *arg)
{
	long id;

	main_task();
	id = rt_thread_create((void *)body, arg, 0);
	CHECK(id != 0);
	rt_task_yield();
	return id;
}

/* Wait for a thread of start() to end. */
static inline void finish(long id)
{
	CHECK_EQ(rt_thread_join(id), 0);
}

#endif
