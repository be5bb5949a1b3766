/* SPDX-License-Identifier: MIT */
/*
 * The watchdog demotes a runaway real-time thread and the process
 * survives; a runaway, demoted or not, never keeps the process from
 * exiting.  Each case runs in a child so that the parent can read its
 * report, and an alarm ends a child that hangs.
 */
#include "harness.h"

#include "trace/ctf.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
	CHILD_DEMOTED = 0,
	CHILD_ENDED = 0,
	CHILD_NO_RT = 10,
	CHILD_ONE_CPU = 11,
	CHILD_FAILED = 1
};

/* Far beyond what a child needs: its watchdog, then a reaper's wait. */
#define CHILD_BOUND_S 20

static int runaway_result = CHILD_FAILED;

static bool real_time(void)
{
	const char *no_rt = getenv("FUSION_NO_RT");

	return !(no_rt && no_rt[0] && no_rt[0] != '0');
}

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int current_policy(void)
{
	struct sched_param param;
	int policy;

	pthread_getschedparam(pthread_self(), &policy, &param);
	return policy;
}

/* Spins without ever entering the nucleus, until demoted. */
static void runaway(void *arg)
{
	double give_up = wall_seconds() + 20;

	(void)arg;
	if (current_policy() != SCHED_FIFO) {
		runaway_result = CHILD_NO_RT;
		return;
	}
	while (current_policy() == SCHED_FIFO && wall_seconds() < give_up)
		;
	runaway_result =
	    current_policy() == SCHED_OTHER ? CHILD_DEMOTED : CHILD_FAILED;
}

/* The child of test_run_child. */
static int child_main(void *arg)
{
	struct nk_instance_attr attr = {.main_priority = 10};
	struct nk_thread_attr ta = {
	    .name = "runaway", .priority = 200, .flags = NK_THREAD_JOINABLE};
	struct nk_instance *nk;
	struct nk_thread *thread;

	(void)arg;
	setenv("FUSION_WATCHDOG_MS", "300", 1);
	if (nk_instance_create(&attr, &nk) ||
	    nk_thread_create(nk, &ta, &thread) ||
	    nk_thread_start(thread, runaway, NULL) || nk_thread_join(thread))
		return CHILD_FAILED;
	nk_instance_destroy(nk);
	return runaway_result;
}

TEST(runaway_thread_is_demoted)
{
	char report[4096];
	int status = test_run_child(child_main, NULL, report, sizeof(report));

	CHECK(WIFEXITED(status));
	if (!real_time()) {
		/* No real-time priority: nothing to demote, nothing said. */
		CHECK_EQ(WEXITSTATUS(status), CHILD_NO_RT);
		CHECK(strstr(report, "watchdog") == NULL);
	} else {
		CHECK_EQ(WEXITSTATUS(status), CHILD_DEMOTED);
		CHECK(strstr(report, "fusion: watchdog: thread runaway") !=
		      NULL);
	}
}

static char trace_dir[64];

/* As child_main, recording the mode events into trace_dir. */
static int traced_child(void *arg)
{
	setenv("FUSION_TRACE", arg, 1);
	return child_main(NULL);
}

static void remove_trace(void)
{
	char path[128];

	for (int cpu = 0; cpu < NK_MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/stream_%d", trace_dir, cpu);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/metadata", trace_dir);
	unlink(path);
	rmdir(trace_dir);
}

/* The demotion is in the trace: one watchdog event, naming the
 * runaway, on its CPU. */
TEST(demotion_is_traced)
{
	char report[4096], spec[128];
	struct trace_log log;
	int status, found = 0;

	snprintf(trace_dir, sizeof(trace_dir), "wdtrace-%d", (int)getpid());
	snprintf(spec, sizeof(spec), "mode,out=%s", trace_dir);
	status = test_run_child(traced_child, spec, report, sizeof(report));
	CHECK(WIFEXITED(status));
	CHECK_EQ(trace_ctf_read(trace_dir, &log), 0);
	for (size_t i = 0; i < log.nr; i++) {
		const struct trace_event *e = &log.events[i];

		if (e->event != NK_TRACE_WATCHDOG)
			continue;
		CHECK_EQ(strcmp(e->thread, "runaway"), 0);
		CHECK_EQ(e->cpu, 0);
		found++;
	}
	CHECK_EQ(log.lost, 0);
	trace_log_free(&log);
	remove_trace();
	CHECK_EQ(found, real_time() ? 1 : 0);
	CHECK_EQ(WEXITSTATUS(status),
		 real_time() ? CHILD_DEMOTED : CHILD_NO_RT);
}

static struct nk_instance *spin_nk;
static _Atomic int spinning;

/*
 * Leaves primary mode and spins, as a runaway that made a system call
 * does: its CPU goes to main, which runs once the watchdog demoted it.
 * The clock reads keep it preemptible under ThreadSanitizer.
 */
static void relaxed_runaway(void *arg)
{
	(void)arg;
	if (nk_thread_relax(spin_nk))
		return;
	spinning = 1;
	for (;;)
		wall_seconds();
}

/* Spins in primary mode: no system call, only the nucleus's clock. */
static void primary_runaway(void *arg)
{
	(void)arg;
	spinning = 1;
	for (;;)
		nk_now(spin_nk);
}

/*
 * Main, less urgent than @fn's runaway on RT CPU @cpu, waits until it
 * spins and, where it has real time, until the watchdog demoted it.
 */
static int start_runaway(nk_thread_fn fn, int cpu, struct nk_thread **out)
{
	struct nk_thread_attr ta = {
	    .name = "runaway", .priority = 200, .cpu = cpu};
	pid_t tid;

	if (nk_thread_create(spin_nk, &ta, out) ||
	    nk_thread_start(*out, fn, NULL) || nk_thread_host(*out, &tid, NULL))
		return -1;
	while (!spinning || sched_getscheduler(tid) == SCHED_FIFO)
		if (nk_thread_sleep(spin_nk, 1000000, NK_RELATIVE))
			return -1;
	return 0;
}

static bool with_delete = true, without_delete = false;

/* Deleted (*@arg) or not, the runaway lets the instance go. */
static int relaxed_child(void *arg)
{
	struct nk_instance_attr attr = {.main_priority = 10};
	struct nk_thread *thread;

	alarm(CHILD_BOUND_S);
	setenv("FUSION_WATCHDOG_MS", "300", 1);
	if (nk_instance_create(&attr, &spin_nk) ||
	    start_runaway(relaxed_runaway, 0, &thread) ||
	    (*(bool *)arg && nk_thread_delete(thread)) ||
	    nk_instance_destroy(spin_nk))
		return CHILD_FAILED;
	return CHILD_ENDED;
}

/* Main returns: exit destroys the runtime instance. */
static int exit_child(void *arg)
{
	struct nk_thread *thread;

	(void)arg;
	alarm(CHILD_BOUND_S);
	setenv("FUSION_WATCHDOG_MS", "300", 1);
	if (fusion_runtime(&spin_nk) ||
	    start_runaway(relaxed_runaway, 0, &thread))
		return CHILD_FAILED;
	exit(CHILD_ENDED);
}

/* The runaway spins in primary mode on RT CPU 1, main on 0. */
static int primary_child(void *arg)
{
	struct nk_instance_attr attr = {.main_priority = 10, .nr_cpus = 2};
	struct nk_thread *thread;

	(void)arg;
	alarm(CHILD_BOUND_S);
	setenv("FUSION_WATCHDOG_MS", "300", 1);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return CHILD_ONE_CPU;
	if (nk_instance_create(&attr, &spin_nk) ||
	    start_runaway(primary_runaway, 1, &thread) ||
	    nk_instance_destroy(spin_nk))
		return CHILD_FAILED;
	return CHILD_ENDED;
}

/*
 * @child ended by itself with CHILD_ENDED, with the runaway @left behind
 * or not.  One left behind runs on through the reaper's wait at least,
 * so the watchdog's report is out by then where it has real time; one
 * ended may be ended inside the watchdog's handler, demoted (main waited
 * for that) but before its report.
 */
static void check_runaway_child(int (*child)(void *), void *arg, bool left)
{
	char report[4096];
	int status = test_run_child(child, arg, report, sizeof(report));

	CHECK(WIFEXITED(status));
	if (WEXITSTATUS(status) == CHILD_ONE_CPU)
		return;
	CHECK_EQ(WEXITSTATUS(status), CHILD_ENDED);
	if (left)
		CHECK_EQ(strstr(report, "fusion: watchdog: thread runaway") !=
			     NULL,
			 real_time());
	CHECK_EQ(strstr(report, "fusion: thread runaway (tid ") != NULL, left);
	CHECK_EQ(strstr(report, "did not end when deleted: left running "
				"outside the nucleus until the process "
				"exits\n") != NULL,
		 left);
}

TEST(deleted_relaxed_runaway_is_left_behind)
{
	check_runaway_child(relaxed_child, &with_delete, true);
}

TEST(destroy_leaves_relaxed_runaway_behind)
{
	check_runaway_child(relaxed_child, &without_delete, true);
}

TEST(exit_leaves_relaxed_runaway_behind)
{
	check_runaway_child(exit_child, NULL, true);
}

TEST(destroy_ends_primary_runaway_on_other_cpu)
{
	check_runaway_child(primary_child, NULL, false);
}

TESTS(T(runaway_thread_is_demoted), T(demotion_is_traced),
      T(deleted_relaxed_runaway_is_left_behind),
      T(destroy_leaves_relaxed_runaway_behind),
      T(exit_leaves_relaxed_runaway_behind),
      T(destroy_ends_primary_runaway_on_other_cpu));
