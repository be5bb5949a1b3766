/* SPDX-License-Identifier: MIT */
/*
 * Every way a program ends leaves nothing behind: return from main,
 * exit() from a real-time thread, SIGINT and SIGTERM, with threads
 * blocked everywhere (semaphore, mutex, sleep, suspended, dormant, a
 * spinning low-priority thread).  Each case runs in a child, which must
 * end within a generous safety delay with the expected status.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum ending { RETURN_FROM_MAIN, EXIT_FROM_THREAD, BY_SIGINT, BY_SIGTERM };

static struct nk_instance *nk;
static struct nk_sem never;
static struct nk_mutex held;
static volatile int spinning;

/*
 * A thread of the child that blocks forever on @what; should its wait
 * ever end, the child exits with @status instead.
 */
static const struct blocked {
	const char *name;
	int prio;
	enum { ON_SEM, ON_MUTEX, ON_MUTEX_THEN_SEM, ASLEEP } what;
	int status;
	bool start;
} blocked_threads[] = {
    {"sem", 50, ON_SEM, 20, true},
    {"owner", 40, ON_MUTEX_THEN_SEM, 27, true},
    {"waiter", 45, ON_MUTEX, 28, true},
    {"sleeper", 30, ASLEEP, 29, true},
    {"suspended", 35, ASLEEP, 29, true},
    {"dormant", 20, ASLEEP, 29, false},
};

static void blocked_body(void *arg)
{
	const struct blocked *b = arg;
	int ret;

	switch (b->what) {
	case ON_SEM:
		ret = nk_sem_take(&never, NK_INFINITE, NK_RELATIVE);
		break;
	case ON_MUTEX:
		ret = nk_mutex_lock(&held, NK_INFINITE, NK_RELATIVE);
		break;
	case ON_MUTEX_THEN_SEM:
		ret = nk_mutex_lock(&held, NK_INFINITE, NK_RELATIVE);
		if (ret == 0)
			ret = nk_sem_take(&never, NK_INFINITE, NK_RELATIVE);
		break;
	default:
		ret = nk_thread_sleep(nk, NK_INFINITE, NK_RELATIVE);
		break;
	}
	if (ret == 0)
		_exit(b->status);
}

static void spinner(void *arg)
{
	(void)arg;
	spinning = 1;
	/* Reading the clock (no system call) keeps the loop preemptible
	 * under ThreadSanitizer, which runs signal handlers only at the
	 * library calls it intercepts. */
	for (;;)
		nk_now(nk);
}

static void exiter(void *arg)
{
	(void)arg;
	exit(7);
}

static void spawn(const char *name, int prio, nk_thread_fn fn, void *arg,
		  bool start)
{
	struct nk_thread_attr attr = {.name = name, .priority = prio};
	struct nk_thread *t;

	if (nk_thread_create(nk, &attr, &t))
		_exit(21);
	if (start && nk_thread_start(t, fn, arg))
		_exit(22);
	if (strcmp(name, "suspended") == 0 && nk_thread_suspend(t))
		_exit(23);
}

static int child(enum ending how)
{
	if (fusion_runtime(&nk) || nk_sem_init(nk, &never, "never", 0, 0, 0) ||
	    nk_mutex_init(nk, &held, "held", NK_SYNCH_PI, 0))
		_exit(24);
	for (size_t i = 0;
	     i < sizeof(blocked_threads) / sizeof(blocked_threads[0]); i++) {
		const struct blocked *b = &blocked_threads[i];

		spawn(b->name, b->prio, blocked_body, (void *)b, b->start);
	}
	/* main, above the spinner, lets it run for a while: at the end it
	 * is preempted in the middle of its loop. */
	if (nk_thread_set_priority(nk_thread_self(nk), 10))
		_exit(30);
	spawn("spinner", 1, spinner, NULL, true);
	if (nk_thread_sleep(nk, 20000000, NK_RELATIVE) || !spinning)
		_exit(31);
	switch (how) {
	case RETURN_FROM_MAIN:
		return 5;
	case EXIT_FROM_THREAD:
		spawn("exiter", 60, exiter, NULL, true);
		/* exit() relaxes the exiter (its system calls): without
		 * SCHED_FIFO, main may run meanwhile; it must not end first. */
		if (nk_thread_sleep(nk, NK_INFINITE, NK_RELATIVE) == 0)
			_exit(25);
		_exit(32);
	case BY_SIGINT:
		raise(SIGINT);
		break;
	case BY_SIGTERM:
		raise(SIGTERM);
		break;
	}
	_exit(26);
}

/* Fork, run @how, and return the child's wait status (-1: hung). */
static int run(enum ending how)
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		exit(child(how));
	for (int i = 0; i < 6000; i++) { /* a hang detector: 60 s */
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

TEST(return_from_main_ends_cleanly)
{
	int status = run(RETURN_FROM_MAIN);

	CHECK(status != -1 && WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 5);
}

TEST(exit_from_rt_thread_ends_cleanly)
{
	int status = run(EXIT_FROM_THREAD);

	CHECK(status != -1 && WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 7);
}

TEST(sigint_ends_cleanly)
{
	int status = run(BY_SIGINT);

	CHECK(status != -1 && WIFSIGNALED(status));
	CHECK_EQ(WTERMSIG(status), SIGINT);
}

TEST(sigterm_ends_cleanly)
{
	int status = run(BY_SIGTERM);

	CHECK(status != -1 && WIFSIGNALED(status));
	CHECK_EQ(WTERMSIG(status), SIGTERM);
}

TESTS(T(return_from_main_ends_cleanly), T(exit_from_rt_thread_ends_cleanly),
      T(sigint_ends_cleanly), T(sigterm_ends_cleanly));
