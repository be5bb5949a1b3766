/* SPDX-License-Identifier: MIT */
/*
 * Under a competing real-time load: a SCHED_FIFO 50 thread of no
 * concern to the nucleus busy-loops on the RT CPU, above a shadow that
 * must hand the CPU over (FIFO 5 or 10) and below the more urgent one
 * (nucleus 200, FIFO 98) that a timer wakes meanwhile.  The urgent
 * thread must run at once, while the load still loops: the shadow that
 * hands over is raised for it, which its own priority would leave
 * starved until the load stopped.  Two ways: the current shadow runs
 * application code (it is kicked), or the CPU is idle and the shadow
 * that parked last takes its interrupts (it is rung).  A third: the
 * shadow below the load holds the nucleus lock, which the interrupt
 * thread needs to wake the urgent one: the lock lends it the
 * interrupt thread's priority.  Two more: the urgent thread's timer is
 * armed when the CPU goes to a shadow that the load already starves,
 * whether the urgent thread hands it over as it sleeps or the idle
 * waiter does as the shadow's own timer fires: the timer must not wait
 * for that shadow's way back to application code, which comes only
 * once the load stops.  In the second, the shadow is kicked on its way
 * to park, its gate already open again: it must keep its boost until it
 * has handed over.  Needs SCHED_FIFO: skipped (77) without it.
 */
#include "harness.h"
#include "support/threads.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define MS (1000000LL)
#define LOAD_NS (400 * MS)

static struct nk_instance *nk;
static _Atomic int load_go, load_running, urgent_saw_load;
static volatile int spin_stop;

/* The other real-time process's thread: waits for its cue, then loops. */
static void *load(void *arg)
{
	struct timespec nap = {0, MS / 2};

	(void)arg;
	while (!atomic_load(&load_go))
		nanosleep(&nap, NULL);
	atomic_store(&load_running, 1);
	live_test_spin(LOAD_NS);
	atomic_store(&load_running, 0);
	return NULL;
}

static void urgent(void *arg)
{
	(void)arg;
	CHECK(nk_thread_sleep(nk, 20 * MS, NK_RELATIVE) >= 0);
	atomic_store(&urgent_saw_load, atomic_load(&load_running));
	spin_stop = 1;
}

/*
 * Sleeps until the load runs, then once more: its timer is armed by
 * whoever gives the CPU to the shadow below the load meanwhile.
 */
static void urgent_once_loaded(void *arg)
{
	long long give_up = live_test_now() + 10000 * MS;

	(void)arg;
	while (!atomic_load(&load_running) && live_test_now() < give_up)
		CHECK(nk_thread_sleep(nk, MS, NK_RELATIVE) >= 0);
	urgent(NULL);
}

/* What the urgent thread runs: urgent, or urgent_once_loaded. */
static void (*urgent_body)(void *);

/* Current, in application code, when the load starts above it. */
static void spinner(void *arg)
{
	nk_time_t give_up = nk_now(nk) + 10000 * MS;

	CHECK_EQ(nk_thread_start(arg, urgent_body, NULL), 0);
	atomic_store(&load_go, 1);
	while (!spin_stop && nk_now(nk) < give_up)
		;
}

/*
 * Holds the nucleus lock when the load starts above it, and lets it go
 * only once it has seen the load run: without priority inheritance it
 * sees that only after the load, which the timer's interrupt thread,
 * waiting for the lock meanwhile, then waits for too.
 */
static void holder(void *arg)
{
	long long give_up = live_test_now() + 10000 * MS;

	CHECK_EQ(nk_thread_start(arg, urgent_body, NULL), 0);
	nk_lock(nk);
	atomic_store(&load_go, 1);
	while (!atomic_load(&load_running) && live_test_now() < give_up)
		;
	nk_unlock(nk);
}

/*
 * Wakes every 2 ms until the urgent thread is done, the load cued: the
 * idle waiter hands it the CPU while the load starves it.
 */
static void sleeper(void *arg)
{
	nk_time_t give_up = nk_now(nk) + 10000 * MS;

	CHECK_EQ(nk_thread_start(arg, urgent_body, NULL), 0);
	atomic_store(&load_go, 1);
	while (!spin_stop && nk_now(nk) < give_up)
		CHECK(nk_thread_sleep(nk, 2 * MS, NK_RELATIVE) >= 0);
}

/* The Linux CPU of RT CPU 0: where main, pinned there, runs. */
static int rt_linux_cpu(void)
{
	cpu_set_t set;

	CHECK_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return 0;
}

/* An instance, main at nucleus 10, and the load waiting for its cue. */
static pthread_t start(void)
{
	struct nk_instance_attr attr = {.main_priority = 10};

	if (!test_fifo_allowed())
		exit(77);
	atomic_store(&load_go, 0);
	atomic_store(&urgent_saw_load, 0);
	spin_stop = 0;
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	return live_test_fifo_thread(rt_linux_cpu(), 50, load, NULL);
}

static void finish(pthread_t loader)
{
	CHECK_EQ(pthread_join(loader, NULL), 0);
	CHECK_EQ(atomic_load(&urgent_saw_load), 1);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/*
 * A shadow at nucleus 5, below the load, runs @body, which starts the
 * urgent thread it is given, running @entry, and cues the load.
 */
static void below_the_load(const char *name, void (*body)(void *),
			   void (*entry)(void *))
{
	pthread_t loader = start();
	struct nk_thread *hi = live_test_thread(nk, "urgent", 200, 0);
	struct nk_thread *low = live_test_thread(nk, name, 5, 0);

	urgent_body = entry;
	CHECK_EQ(nk_thread_start(low, body, hi), 0);
	CHECK_EQ(nk_thread_join(hi), 0);
	CHECK_EQ(nk_thread_join(low), 0);
	finish(loader);
}

TEST(kicked_shadow_hands_over_above_the_load)
{
	below_the_load("spinner", spinner, urgent);
}

TEST(switch_arms_the_timer_above_the_load)
{
	below_the_load("spinner", spinner, urgent_once_loaded);
}

TEST(idle_handover_arms_the_timer_above_the_load)
{
	below_the_load("sleeper", sleeper, urgent_once_loaded);
}

TEST(idle_waiter_hands_over_above_the_load)
{
	pthread_t loader = start();
	struct nk_thread *hi = live_test_thread(nk, "urgent", 200, 0);

	/* urgent runs at once and sleeps; main, parking last, is the idle
	 * CPU's waiter when its timer fires under the load. */
	CHECK_EQ(nk_thread_start(hi, urgent, NULL), 0);
	atomic_store(&load_go, 1);
	CHECK_EQ(nk_thread_join(hi), 0);
	finish(loader);
}

TEST(lock_holder_inherits_above_the_load)
{
	below_the_load("holder", holder, urgent);
}

TESTS(T(kicked_shadow_hands_over_above_the_load),
      T(idle_waiter_hands_over_above_the_load),
      T(lock_holder_inherits_above_the_load),
      T(switch_arms_the_timer_above_the_load),
      T(idle_handover_arms_the_timer_above_the_load));
