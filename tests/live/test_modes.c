/* SPDX-License-Identifier: MIT */
/*
 * Primary / secondary mode on live: a stray system call in primary mode
 * succeeds, switches the thread to secondary mode exactly once, and
 * raises NK_SIGDEBUG when the thread asked to be warned.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include "backend/live/live.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
static const bool sanitized = true; /* the backend leaves SUD off */
#else
static const bool sanitized = false;
#endif

/*
 * Is Syscall User Dispatch catching stray calls in this run?  Not where
 * the kernel lacks it or Fusion has no port for the architecture.
 */
static bool sud_expected(void)
{
	const char *off = getenv("FUSION_NO_SUD");

	return !sanitized && !(off && off[0]) && live_sud_probe();
}

static struct nk_instance *nk;
static volatile int warned_value;
static volatile int warned_count;

static void on_sigdebug(int sig, siginfo_t *info, void *context)
{
	(void)sig;
	(void)context;
	warned_value = info->si_value.sival_int;
	warned_count++;
}

static struct nk_instance *live_instance(void)
{
	struct nk_instance_attr attr = {.main_priority = 10};

	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	return nk;
}

static unsigned long mode_switches(struct nk_thread *thread)
{
	struct nk_thread_stats stats;

	CHECK_EQ(nk_thread_stats(thread, &stats), 0);
	return stats.mode_switches;
}

struct stray_result {
	ssize_t written;
	unsigned int state_after_write;
	unsigned int state_after_harden;
	unsigned long switches_before, switches_after;
};

static int stray_pipe[2];
static struct stray_result stray;

/* One write() in primary mode, then back into the nucleus. */
static void stray_writer(void *arg)
{
	struct nk_thread *self = nk_thread_self(nk);

	if (arg)
		nk_thread_set_mode(nk, 0, NK_MODE_WARNSW, NULL);
	stray.switches_before = mode_switches(self);
	stray.written = write(stray_pipe[1], "rt", 2);
	stray.state_after_write = nk_thread_state(self);
	nk_thread_harden(nk);
	stray.state_after_harden = nk_thread_state(self);
	stray.switches_after = mode_switches(self);
}

static void run_stray_writer(bool warn)
{
	struct nk_thread_attr attr = {
	    .name = "writer", .priority = 50, .flags = NK_THREAD_JOINABLE};
	struct nk_thread *thread;
	char buf[4] = {0};

	CHECK_EQ(pipe(stray_pipe), 0);
	live_instance();
	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	CHECK_EQ(nk_thread_start(thread, stray_writer, warn ? nk : NULL), 0);
	CHECK_EQ(nk_thread_join(thread), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(read(stray_pipe[0], buf, sizeof(buf)), 2);
	CHECK_STR(buf, "rt");
	close(stray_pipe[0]);
	close(stray_pipe[1]);
}

TEST(stray_write_relaxes_once)
{
	run_stray_writer(false);
	CHECK_EQ(stray.written, 2);
	CHECK_EQ(stray.switches_before, 0);
	if (sud_expected()) {
		CHECK(stray.state_after_write & NK_THREAD_RELAXED);
		CHECK_EQ(stray.switches_after, 1);
	} else {
		CHECK(!(stray.state_after_write & NK_THREAD_RELAXED));
		CHECK_EQ(stray.switches_after, 0);
	}
	CHECK(!(stray.state_after_harden & NK_THREAD_RELAXED));
	CHECK(stray.state_after_harden & NK_THREAD_CURRENT);
}

TEST(stray_write_warns_when_asked)
{
	struct sigaction sa = {.sa_sigaction = on_sigdebug,
			       .sa_flags = SA_SIGINFO};

	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(NK_SIGDEBUG, &sa, NULL), 0);
	warned_count = 0;
	run_stray_writer(true);
	CHECK_EQ(stray.written, 2);
	if (sud_expected()) {
		CHECK_EQ(warned_count, 1);
		CHECK_EQ(warned_value, NK_RELAX_SYSCALL << 16 | SYS_write);
	} else {
		CHECK_EQ(warned_count, 0);
	}
}

static volatile int low_ran;

/* With @arg, one stray call: under SUD, it relaxes low by SIGSYS. */
static void low_body(void *arg)
{
	low_ran = 1;
	if (arg)
		low_ran = getppid() > 0 ? 2 : -1;
}

struct creator {
	const struct nk_thread_attr *attr;
	struct nk_thread *thread;
	int ret;
};

/* A plain pthread that blocks every signal, so low's OS thread does too. */
static void *create_masked(void *arg)
{
	struct creator *c = arg;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	c->ret = nk_thread_create(nk, c->attr, &c->thread);
	return NULL;
}

/*
 * Explicit relax hands the CPU to the next thread, harden takes it back.
 * With @masked, low's OS thread starts with every signal blocked (it is
 * created by a plain pthread that blocks them, main being relaxed
 * meanwhile so that it may start one): the preemption kick sent when
 * main hardens then reaches low as it unblocks the signal, before it
 * ever passed its gate - as it does under ThreadSanitizer, which defers
 * signals to the next intercepted call.
 */
static void relax_and_harden(bool masked)
{
	struct nk_thread_attr attr = {
	    .name = "low", .priority = 5, .flags = NK_THREAD_JOINABLE};
	struct creator creator = {.attr = &attr};
	struct nk_thread *self, *low;
	pthread_t helper;

	low_ran = 0;
	live_instance();
	self = nk_thread_self(nk);
	if (masked) {
		CHECK_EQ(nk_thread_relax(nk), 0);
		CHECK_EQ(pthread_create(&helper, NULL, create_masked, &creator),
			 0);
		CHECK_EQ(pthread_join(helper, NULL), 0);
		CHECK_EQ(creator.ret, 0);
		low = creator.thread;
	} else {
		CHECK_EQ(nk_thread_create(nk, &attr, &low), 0);
	}
	CHECK_EQ(nk_thread_start(low, low_body, masked ? nk : NULL), 0);
	CHECK(!(nk_thread_state(self) & NK_THREAD_RELAXED));
	CHECK_EQ(low_ran, 0); /* main (10) keeps the CPU */
	CHECK_EQ(nk_thread_relax(nk), 0);
	/*
	 * low has the CPU now.  The state accessors read without the nucleus
	 * lock, so look only while low cannot run: under SCHED_FIFO, main
	 * (relaxed, still above low on their one CPU) keeps running; without
	 * it, low runs alongside main and may even be done.
	 */
	if (sched_getscheduler(0) == SCHED_FIFO) {
		CHECK(nk_thread_state(self) & NK_THREAD_RELAXED);
		CHECK(nk_thread_state(low) & NK_THREAD_CURRENT);
		CHECK_EQ(low_ran, 0);
	}
	CHECK_EQ(nk_thread_join(low), 0); /* hardens, then waits */
	CHECK_EQ(low_ran, masked ? 2 : 1);
	CHECK(!(nk_thread_state(self) & NK_THREAD_RELAXED));
	CHECK_EQ(mode_switches(self), masked ? 2 : 1);
	CHECK_EQ(nk_thread_set_mode(nk, 0, 0x80, NULL), -EINVAL);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

#define STRAYS 5

static volatile int sigdebug_pending;

/*
 * Relaxes STRAYS times by stray calls, warned each time, with SIGDEBUG
 * blocked: counts the signals queued meanwhile.
 */
static void blocked_warnings(void *arg)
{
	struct timespec zero = {0};
	sigset_t set;
	int n = 0;

	(void)arg;
	nk_thread_set_mode(nk, 0, NK_MODE_WARNSW, NULL);
	sigemptyset(&set);
	sigaddset(&set, NK_SIGDEBUG);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	for (int i = 0; i < STRAYS; i++) {
		nk_thread_harden(nk);
		if (write(stray_pipe[1], "x", 1) != 1)
			return;
	}
	while (sigtimedwait(&set, NULL, &zero) == NK_SIGDEBUG)
		n++;
	sigdebug_pending = n;
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

TEST(blocked_warnings_queue_one_signal)
{
	struct nk_thread_attr attr = {
	    .name = "warned", .priority = 50, .flags = NK_THREAD_JOINABLE};
	struct sigaction sa = {.sa_sigaction = on_sigdebug,
			       .sa_flags = SA_SIGINFO};
	struct nk_thread *thread;

	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(NK_SIGDEBUG, &sa, NULL), 0);
	CHECK_EQ(pipe(stray_pipe), 0);
	sigdebug_pending = -1;
	live_instance();
	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	CHECK_EQ(nk_thread_start(thread, blocked_warnings, NULL), 0);
	CHECK_EQ(nk_thread_join(thread), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(sigdebug_pending, sud_expected() ? 1 : 0);
	close(stray_pipe[0]);
	close(stray_pipe[1]);
}

TEST(explicit_relax_and_harden)
{
	relax_and_harden(false);
}

TEST(relax_to_thread_started_with_signals_blocked)
{
	relax_and_harden(true);
}

TEST(relax_refused_outside_threads)
{
	live_instance();
	CHECK_EQ(nk_thread_relax(NULL), -EINVAL);
	CHECK_EQ(nk_sched_lock(nk), 0);
	CHECK_EQ(nk_thread_relax(nk), -EPERM);
	CHECK_EQ(nk_sched_unlock(nk), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TESTS(T(stray_write_relaxes_once), T(stray_write_warns_when_asked),
      T(blocked_warnings_queue_one_signal), T(explicit_relax_and_harden),
      T(relax_to_thread_started_with_signals_blocked),
      T(relax_refused_outside_threads));
