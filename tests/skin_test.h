/* SPDX-License-Identifier: MIT */
/*
 * Scaffolding every skin's tests share (each tests/<skin>/test_*.c is a
 * binary of its own, so everything here is static): the process
 * runtime, which backend runs, the trail of events a test compares,
 * plain pthreads.
 */
#ifndef SKIN_TEST_H
#define SKIN_TEST_H

#include "harness.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>

/* The process runtime (the first call makes main a thread of it). */
static inline struct nk_instance *test_runtime(void)
{
	struct nk_instance *nk = NULL;

	CHECK_EQ(fusion_runtime(&nk), 0);
	return nk;
}

/*
 * Whether the tests run on sim: virtual time, exact dates.  On live,
 * tests assert only order and error codes.
 */
static inline bool on_sim(void)
{
	return strcmp(nk_instance_backend(test_runtime()), "sim") == 0;
}

/*
 * The trail of events, in order, separated by spaces: step() appends a
 * name, vnote() a formatted item dated "@<date>" on sim (check_log()
 * drops the dates of the expected string on live).
 */
static char trail[4096];

static inline void step(const char *what)
{
	size_t len = strlen(trail);

	snprintf(trail + len, sizeof(trail) - len, "%s%s", len ? " " : "",
		 what);
}

/* Append the item @fmt, @ap, dated @date on sim (in the skin's unit). */
static inline void vnote(unsigned long long date, const char *fmt, va_list ap)
{
	char item[128];
	int n = vsnprintf(item, sizeof(item), fmt, ap);

	if (n >= 0 && (size_t)n < sizeof(item) && on_sim())
		snprintf(item + n, sizeof(item) - (size_t)n, "@%llu", date);
	step(item);
}

static inline void check_log(const char *expected)
{
	char want[sizeof(trail)];

	test_undate(expected, on_sim(), want, sizeof(want));
	CHECK_STR(trail, want);
}

/*
 * Give the runtime two RT CPUs, on the first two Linux CPUs among 0..7
 * the process may use (into @lx), through FUSION_CPUS: call it before
 * anything starts the runtime.  With fewer, the test is skipped (exit
 * status 77).
 */
static inline void test_two_rt_cpus(int lx[2])
{
	cpu_set_t allowed;
	char spec[32];
	int found = 0;

	CHECK_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	for (int cpu = 0; cpu < 8 && found < 2; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			lx[found++] = cpu;
	if (found < 2) {
		printf("skipped: fewer than 2 usable CPUs among 0..7\n");
		exit(77);
	}
	snprintf(spec, sizeof(spec), "%d,%d", lx[0], lx[1]);
	CHECK_EQ(setenv("FUSION_CPUS", spec, 1), 0);
	CHECK_EQ(nk_instance_nr_cpus(test_runtime()), 2);
}

/* Run @body(@arg) in a plain pthread (not a task) and wait for it. */
static inline void run_plain_thread(void *(*body)(void *arg), void *arg)
{
	pthread_t th;

	CHECK_EQ(pthread_create(&th, NULL, body, arg), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
}

/*
 * The service calls of a skin, as its tracepoint @event records them:
 * services_record() installs a sink on the runtime that appends
 * "name object result" for each (the object as the trace shows it) to
 * services_trail; services_stop() removes it.
 */
static char services_trail[4096];
static enum nk_trace_event services_event;

static inline void services_sink(void *ctx, const struct nk_trace_record *rec)
{
	size_t len = strlen(services_trail);

	(void)ctx;
	if (rec->event != services_event)
		return;
	snprintf(services_trail + len, sizeof(services_trail) - len,
		 "%s%s %s %ld", len ? " " : "", rec->object, rec->detail,
		 rec->arg);
}

static inline void services_record(enum nk_trace_event event)
{
	services_event = event;
	services_trail[0] = '\0';
	CHECK_EQ(nk_instance_set_trace(test_runtime(), services_sink, NULL), 0);
}

static inline void services_stop(void)
{
	CHECK_EQ(nk_instance_set_trace(test_runtime(), NULL, NULL), 0);
}

#endif
