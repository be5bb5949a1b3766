/* SPDX-License-Identifier: MIT */
/*
 * Debug builds check each nucleus entry's documented lock state and
 * calling context: a misuse aborts at once with a message naming the
 * function, instead of corrupting state or hanging later.  Each misuse
 * runs in a forked child, on both backends; the parent checks that the
 * child died of SIGABRT with that message on its stderr.  Built only in
 * Debug builds (tests/CMakeLists.txt): elsewhere the checks compile out.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MS 1000000LL

static struct nk_instance *nk;

static void create(const char *backend)
{
	struct nk_instance_attr attr = {.backend = backend,
					.main_priority = 10};

	if (nk_instance_create(&attr, &nk))
		_exit(2);
}

static void wakeup_without_lock(void)
{
	struct nk_synch synch;

	if (nk_synch_init(nk, &synch, "s", NK_SYNCH_FIFO, 0))
		_exit(2);
	(void)nk_synch_wakeup_one(&synch);
}

static void sleep_without_lock(void)
{
	struct nk_synch synch;

	if (nk_synch_init(nk, &synch, "s", NK_SYNCH_FIFO, 0))
		_exit(2);
	if (nk_synch_sleep(&synch, MS, NK_RELATIVE))
		_exit(3);
}

static void noop_timer(struct nk_timer *timer)
{
	(void)timer;
}

static void timer_start_without_lock(void)
{
	struct nk_timer timer;

	if (nk_timer_init(nk, &timer, "t", 0, noop_timer, NULL))
		_exit(2);
	(void)nk_timer_start_locked(&timer, MS, 0, NK_RELATIVE);
}

static void unlock_without_lock(void)
{
	nk_unlock(nk);
}

static void destroy_under_lock(void)
{
	nk_lock(nk);
	(void)nk_instance_destroy(nk);
}

static void shadow_in_handler(struct nk_timer *timer)
{
	struct nk_thread_attr attr = {.name = "adopted", .priority = 1};
	struct nk_thread *thread;

	(void)timer;
	(void)nk_thread_shadow(nk, &attr, &thread);
}

static void shadow_from_interrupt(void)
{
	struct nk_timer timer;

	if (nk_timer_init(nk, &timer, "t", 0, shadow_in_handler, NULL) ||
	    nk_timer_start(&timer, MS, 0, NK_RELATIVE))
		_exit(2);
	if (nk_thread_sleep(nk, 2 * MS, NK_RELATIVE))
		_exit(3);
}

/* One misuse on one backend, run by misuse_child. */
struct misuse_run {
	const char *backend;
	void (*misuse)(void);
};

/* The child of test_run_child: @arg is a struct misuse_run. */
static int misuse_child(void *arg)
{
	const struct misuse_run *run = arg;

	/* A check that does not fire must not hang the test, and the
	 * aborts it expects leave no core files behind. */
	alarm(20);
	setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
	create(run->backend);
	run->misuse();
	return 0;
}

static void expect_abort(void (*misuse)(void), const char *message)
{
	static const char *const backends[] = {"sim", "live"};

	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		struct misuse_run run = {backends[i], misuse};
		char err[4096];
		int status =
		    test_run_child(misuse_child, &run, err, sizeof(err));

		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT ||
		    strstr(err, message) == NULL)
			test_fail(__FILE__, __LINE__,
				  "%s: status %#x, wanted SIGABRT and \"%s\", "
				  "stderr:\n%s",
				  backends[i], status, message, err);
	}
}

TEST(locked_service_without_the_lock)
{
	expect_abort(wakeup_without_lock, "fusion: nk_synch_wakeup_one: called "
					  "without the nucleus lock\n");
	expect_abort(
	    sleep_without_lock,
	    "fusion: nk_synch_sleep: called without the nucleus lock\n");
	expect_abort(timer_start_without_lock,
		     "fusion: nk_timer_start_locked: called without the "
		     "nucleus lock\n");
}

TEST(unlock_without_the_lock)
{
	expect_abort(unlock_without_lock,
		     "fusion: nk_unlock: called without the nucleus lock\n");
}

TEST(destroy_with_the_lock_held)
{
	expect_abort(destroy_under_lock, "fusion: nk_instance_destroy: called "
					 "with the nucleus lock held\n");
}

TEST(shadow_from_interrupt_context)
{
	expect_abort(shadow_from_interrupt, "fusion: nk_thread_shadow: called "
					    "from interrupt context\n");
}

TESTS(T(locked_service_without_the_lock), T(unlock_without_the_lock),
      T(destroy_with_the_lock_held), T(shadow_from_interrupt_context));
