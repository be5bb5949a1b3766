/*
 * The watchdog demotes a runaway real-time thread and the process
 * survives.  Runs in a child so that the parent can read its report.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

enum { CHILD_DEMOTED = 0, CHILD_NO_RT = 10, CHILD_FAILED = 1 };

static int runaway_result = CHILD_FAILED;

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
	const char *no_rt = getenv("FUSION_NO_RT");
	int status = test_run_child(child_main, NULL, report, sizeof(report));

	CHECK(WIFEXITED(status));
	if (no_rt && no_rt[0] && no_rt[0] != '0') {
		/* No real-time priority: nothing to demote, nothing said. */
		CHECK_EQ(WEXITSTATUS(status), CHILD_NO_RT);
		CHECK(strstr(report, "watchdog") == NULL);
	} else {
		CHECK_EQ(WEXITSTATUS(status), CHILD_DEMOTED);
		CHECK(strstr(report, "fusion: watchdog: thread runaway") !=
		      NULL);
	}
}

TESTS(T(runaway_thread_is_demoted));
