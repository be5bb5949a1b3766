/* SPDX-License-Identifier: MIT */
/*
 * Syscall User Dispatch's allowed range: a signal handler installed by
 * the backend returns through its restorer (rt_sigreturn) while the
 * thread's selector says BLOCK, as the preemption handler does when it
 * interrupts a primary-mode thread in application code.  The kernel
 * checks the address after the syscall instruction, so the range must
 * include it; otherwise the return raises SIGSYS.  Skipped (exit 77)
 * where SUD is missing (the kernel's, or Fusion's port on architectures
 * other than x86-64), and under sanitizers (the backend leaves SUD off).
 */
#include "harness.h"

#include "backend/live/live.h"

#include <signal.h>
#include <stdlib.h>
#include <time.h>

#define SKIPPED 77
#define SPIN_LIMIT_NS (10 * 1000000000LL)

static volatile sig_atomic_t handled;
static volatile sig_atomic_t stray_syscalls;

static void on_timer(int sig, siginfo_t *info, void *context)
{
	(void)sig;
	(void)info;
	(void)context;
	handled++;
}

/* Reached only if a call from outside the range was caught: let it run. */
static void on_sigsys(int sig, siginfo_t *info, void *context)
{
	(void)sig;
	live_sud_allow();
	stray_syscalls++;
	live_sud_retry(context, info->si_syscall);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts); /* the vDSO: no system call */
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

TEST(handler_returns_while_blocked)
{
	struct sigevent ev = {.sigev_notify = SIGEV_THREAD_ID,
			      .sigev_signo = SIGRTMIN + 10};
	struct itimerspec when = {.it_value.tv_nsec = 1000000};
	timer_t timer;
	long long deadline;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	exit(SKIPPED);
#endif
	if (!live_sud_probe())
		exit(SKIPPED);
	CHECK_EQ(live_sud_sigaction(SIGSYS, on_sigsys, 0), 0);
	CHECK_EQ(live_sud_sigaction(SIGRTMIN + 10, on_timer, 0), 0);
	ev._sigev_un._tid = gettid();
	CHECK_EQ(timer_create(CLOCK_MONOTONIC, &ev, &timer), 0);
	CHECK_EQ(live_sud_enable_self(), 0);
	CHECK_EQ(timer_settime(timer, 0, &when, NULL), 0);

	/* Spin in "application code" with system calls blocked until the
	 * handler has run and returned. */
	deadline = now_ns() + SPIN_LIMIT_NS;
	live_sud_block();
	while (!handled && now_ns() < deadline)
		;
	live_sud_allow();

	live_sud_disable_self();
	timer_delete(timer);
	CHECK_EQ(handled, 1);
	CHECK_EQ(stray_syscalls, 0);
}

TESTS(T(handler_returns_while_blocked));
