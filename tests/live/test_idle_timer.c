/* SPDX-License-Identifier: MIT */
/*
 * The timer of an idle RT CPU on the live backend.  Its idle waiter
 * polls with a timeout ending at the CPU's deadline and leaves the
 * timerfd at its later date (src/backend/live/irq.c); a deadline that
 * another CPU moves earlier meanwhile must still wake the CPU at once,
 * not when the poll's timeout ends.  Skipped (exit 77) when fewer than
 * two CPUs are usable.
 */
#include "harness.h"
#include "support/in_poll.h"
#include "support/two_cpus.h"

#include <fusion/fusion.h>

#define MS (1000000LL)
#define SAFETY_NS (10 * 1000000000LL)
/* Far beyond the wait that checks the timer: a wake-up only at the
 * sleeper's deadline fails the test, however slow the machine. */
#define SLEEP_NS (4 * 1000000000LL)

static struct nk_instance *nk;
static struct nk_sem fired;
static volatile int handler_cpu = -1, sleep_ret = 1;

static void on_timer(struct nk_timer *timer)
{
	handler_cpu = timer->cpu;
	CHECK_EQ(nk_sem_give(&fired), 0);
}

static void sleeper(void *arg)
{
	(void)arg;
	sleep_ret = nk_thread_sleep(nk, SLEEP_NS, NK_RELATIVE);
}

TEST(earlier_deadline_from_another_cpu_wakes_idle_cpu)
{
	struct nk_instance_attr iattr = {.nr_cpus = 2, .main_priority = 10};
	struct nk_thread_attr attr = {.name = "sleeper",
				      .priority = 50,
				      .cpu = 1,
				      .flags = NK_THREAD_JOINABLE};
	struct nk_thread *t;
	struct nk_timer timer;
	nk_time_t start;
	int linux_cpu[2];

	two_cpus_select(linux_cpu);
	CHECK_EQ(nk_instance_create(&iattr, &nk), 0);
	CHECK_STR(nk_instance_backend(nk), "live");
	CHECK_EQ(nk_sem_init(nk, &fired, "fired", 0, 0, 0), 0);
	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK_EQ(nk_thread_start(t, sleeper, NULL), 0);
	/* RT CPU 1 idles: its waiter polls until the sleeper's deadline. */
	CHECK(in_poll_wait(test_task_named("sleeper"), SAFETY_NS));
	CHECK_EQ(nk_timer_init(nk, &timer, "early", 1, on_timer, NULL), 0);
	start = nk_now(nk);
	CHECK_EQ(nk_timer_start(&timer, 10 * MS, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_sem_take(&fired, SLEEP_NS / 2, NK_RELATIVE), 0);
	CHECK(nk_now(nk) - start >= 10 * MS);
	CHECK_EQ(handler_cpu, 1);
	/* The sleeper slept on through it. */
	CHECK_EQ(sleep_ret, 1);
	CHECK_EQ(nk_thread_unblock(t), 0);
	CHECK_EQ(nk_thread_join(t), 0);
	CHECK_EQ(sleep_ret, NK_WAKE_UNBLOCKED);
	CHECK_EQ(nk_timer_destroy(&timer), 0);
	CHECK_EQ(nk_sem_destroy(&fired), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TESTS(T(earlier_deadline_from_another_cpu_wakes_idle_cpu));
