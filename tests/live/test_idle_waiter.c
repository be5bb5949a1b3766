/* SPDX-License-Identifier: MIT */
/*
 * The idle waiter of an RT CPU on the live backend (the shadow that
 * parked last, src/backend/live/irq.c):
 * - it sleeps until the CPU's deadline (on its gate, with no source to
 *   watch) and leaves the timerfd at its later date; a deadline that
 *   another CPU moves earlier meanwhile must still wake the CPU at once,
 *   not when the sleep ends;
 * - it takes the CPU's interrupts at the interrupt threads' SCHED_FIFO
 *   priority only when a thread of ours ranks above it, one a handler
 *   might wake; the most urgent one polls at its own priority.
 * - a stop and continue of its process (a debugger's, a shell's ^Z)
 *   does not break its sleep, as it does not break clock_nanosleep.
 * Skipped (exit 77) when fewer than two CPUs are usable.
 */
#include "harness.h"
#include "support/in_poll.h"
#include "support/threads.h"
#include "support/two_cpus.h"

#include <fusion/fusion.h>

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define MS (1000000LL)
#define SAFETY_NS (10 * 1000000000LL)
/* Far beyond the waits that check the timer: a wake-up only at the
 * sleeper's deadline fails the test, however slow the machine. */
#define SLEEP_NS (4 * 1000000000LL)
/* Long enough to be seen asleep, stopped and continued. */
#define STOP_SLEEP_NS (1000000000LL)

static struct nk_instance *nk;
static struct nk_sem fired, never;
static struct nk_timer timer;
static volatile int handler_cpu = -1, sleep_ret = 1;

static void on_timer(struct nk_timer *t)
{
	handler_cpu = t->cpu;
	CHECK_EQ(nk_sem_give(&fired), 0);
}

static void sleeper(void *arg)
{
	(void)arg;
	sleep_ret = nk_thread_sleep(nk, SLEEP_NS, NK_RELATIVE);
}

static void waits_for_ever(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_sem_take(&never, NK_INFINITE, NK_RELATIVE),
		 NK_WAKE_DELETED);
}

static struct nk_thread *spawn(const char *name, int prio, int cpu,
			       nk_thread_fn fn)
{
	struct nk_thread *t = live_test_thread(nk, name, prio, cpu);

	CHECK_EQ(nk_thread_start(t, fn, NULL), 0);
	return t;
}

/* Main on RT CPU 0; "sleeper" (50) idles RT CPU 1, polling as its
 * waiter until its deadline; the timer "early" on RT CPU 1. */
static struct nk_thread *boot(void)
{
	struct nk_instance_attr attr = {.nr_cpus = 2, .main_priority = 10};
	struct nk_thread *t;
	int linux_cpu[2];

	two_cpus_select(linux_cpu);
	sleep_ret = 1;
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_STR(nk_instance_backend(nk), "live");
	CHECK_EQ(nk_sem_init(nk, &fired, "fired", 0, 0, 0), 0);
	CHECK_EQ(nk_timer_init(nk, &timer, "early", 1, on_timer, NULL), 0);
	t = spawn("sleeper", 50, 1, sleeper);
	CHECK(in_poll_wait(test_task_named("sleeper"), SAFETY_NS));
	return t;
}

/* The timer fires 10 ms from now on RT CPU 1, on time. */
static void fire_early(void)
{
	nk_time_t start = nk_now(nk);

	CHECK_EQ(nk_timer_start(&timer, 10 * MS, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_sem_take(&fired, SLEEP_NS / 2, NK_RELATIVE), 0);
	CHECK(nk_now(nk) - start >= 10 * MS);
	CHECK_EQ(handler_cpu, 1);
}

static void halt(struct nk_thread *t)
{
	/* The sleeper slept on through it all. */
	CHECK_EQ(sleep_ret, 1);
	CHECK_EQ(nk_thread_unblock(t), 0);
	CHECK_EQ(nk_thread_join(t), 0);
	CHECK_EQ(sleep_ret, NK_WAKE_UNBLOCKED);
	CHECK_EQ(nk_timer_destroy(&timer), 0);
	CHECK_EQ(nk_sem_destroy(&fired), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(earlier_deadline_from_another_cpu_wakes_idle_cpu)
{
	struct nk_thread *t = boot();

	fire_early();
	/* Again: the timerfd fired, the waiter polls on with a timeout. */
	CHECK(in_poll_wait(test_task_named("sleeper"), SAFETY_NS));
	fire_early();
	halt(t);
}

TEST(waiter_raised_only_below_a_thread_of_ours)
{
	struct nk_thread *t = boot(), *urgent;
	pid_t tid = test_task_named("sleeper");
	int own = test_fifo_of(tid),
	    irq = test_fifo_of(test_task_named("fusion-irq/1"));

	if (own == 0) {
		printf("skipped: no SCHED_FIFO\n");
		halt(t);
		return;
	}
	/* The most urgent of ours (main is 10): it polls as it is. */
	CHECK(own < irq);
	CHECK_EQ(test_fifo_of(tid), own);
	/* A more urgent thread, blocked on RT CPU 0: from its next poll
	 * on (after the timer's handler), the waiter is raised. */
	CHECK_EQ(nk_sem_init(nk, &never, "never", 0, 0, 0), 0);
	urgent = spawn("urgent", 90, 0, waits_for_ever);

	fire_early();
	CHECK(in_poll_wait(tid, SAFETY_NS));
	CHECK_EQ(test_fifo_of(tid), irq);
	/* Gone again: back to its own priority at the next poll. */
	CHECK_EQ(nk_sem_destroy(&never), 0);
	CHECK_EQ(nk_thread_join(urgent), 0);
	fire_early();
	CHECK(in_poll_wait(tid, SAFETY_NS));
	CHECK_EQ(test_fifo_of(tid), own);
	halt(t);
}

static void sleeps_a_second(void *arg)
{
	(void)arg;
	sleep_ret = nk_thread_sleep(nk, STOP_SLEEP_NS, NK_RELATIVE);
}

/* A process whose "sleeper" idles RT CPU 1 for STOP_SLEEP_NS: exits 0 when
 * the sleep ended on time, without error. */
static int sleeping_process(void)
{
	struct nk_instance_attr attr = {.nr_cpus = 2, .main_priority = 10};
	struct nk_thread_attr tattr = {.name = "sleeper",
				       .priority = 50,
				       .cpu = 1,
				       .flags = NK_THREAD_JOINABLE};
	struct nk_thread *t;
	nk_time_t start, slept;
	int joined;

	/* Main idles RT CPU 0 meanwhile, as its waiter too. */
	if (nk_instance_create(&attr, &nk) || nk_thread_create(nk, &tattr, &t))
		return 2;
	start = nk_now(nk);
	if (nk_thread_start(t, sleeps_a_second, NULL))
		return 2;
	joined = nk_thread_join(t);
	slept = nk_now(nk) - start;
	nk_instance_destroy(nk);
	if (joined == 0 && sleep_ret == 0 && slept >= STOP_SLEEP_NS)
		return 0;
	fprintf(stderr, "join: %d; the sleep returned %d after %lld ns\n",
		joined, sleep_ret, (long long)slept);
	return 1;
}

TEST(stop_and_continue_leave_a_sleep_alone)
{
	struct timespec pause = {.tv_nsec = 100000};
	int linux_cpu[2], status;
	pid_t child, tid = -1;

	two_cpus_select(linux_cpu);
	child = fork();
	CHECK(child >= 0);
	if (child == 0)
		_exit(sleeping_process());
	for (int i = 0; i < 100000 && tid < 0; i++) {
		tid = test_task_named_in(child, "sleeper");
		nanosleep(&pause, NULL);
	}
	CHECK(tid > 0);
	CHECK(in_poll_wait_in(child, tid, SAFETY_NS));
	CHECK_EQ(kill(child, SIGSTOP), 0);
	CHECK_EQ(waitpid(child, &status, WUNTRACED), child);
	CHECK(WIFSTOPPED(status));
	CHECK_EQ(kill(child, SIGCONT), 0);
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
}

TESTS(T(earlier_deadline_from_another_cpu_wakes_idle_cpu),
      T(waiter_raised_only_below_a_thread_of_ours),
      T(stop_and_continue_leave_a_sleep_alone));
