/* SPDX-License-Identifier: MIT */
/*
 * A kick that races the kicked shadow's own lowering (live.c,
 * shadow_boost and shadow_unboost).  A shadow at nucleus 5 spins on RT
 * CPU 1.  Main, on RT CPU 0, kicks it for a thread that it suspends
 * again before the shadow's handler looks: the handler finds nothing to
 * do and lowers the shadow from its boost.  Just as the shadow has looked
 * for a new kick and found none, before its lowering, main wakes an
 * urgent thread on CPU 1 (nucleus 200): its kick finds the shadow no
 * longer boosted and raises it.  Then a SCHED_FIFO 50 load starts on
 * CPU 1, and the shadow's lowering takes effect, after the raise.  The
 * urgent thread must run before the load ends: the kick raises the
 * shadow again until it is out of its lowering, or the shadow, below the
 * load, would not run its handler until the load stopped.
 *
 * The test steers the interleaving through the system calls: it defines
 * syscall(), which the backend raises and lowers shadows with, and holds
 * the shadow's lowering until main's raise is made.  Needs SCHED_FIFO
 * and two CPUs: skipped (77) without them.
 */
#include "harness.h"
#include "support/threads.h"
#include "support/two_cpus.h"

#include <fusion/fusion.h>

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MS (1000000LL)
#define LOAD_NS (300 * MS)
#define GIVE_UP_NS (10000 * MS)

static struct nk_instance *nk;
static struct nk_sem wake;
static long (*real_syscall)(long, ...);
static _Atomic long spinner_tid;
static _Atomic int spinner_ready, armed, raised, race_go, steered;
static _Atomic int load_done, urgent_before_load_end, urgent_done;
static sem_t load_go;
static __thread bool is_spinner;

/* Waits until @flag is set, GIVE_UP_NS at most: false if it never was. */
static bool wait_for(_Atomic int *flag)
{
	long long give_up = live_test_now() + GIVE_UP_NS;

	while (!atomic_load(flag))
		if (live_test_now() > give_up)
			return false;
	return true;
}

/* Before any thread, and before the library's own constructors. */
__attribute__((constructor(101))) static void find_syscall(void)
{
	real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
}

/*
 * Every syscall() of the process.  The spinner's own lowering, once
 * armed, waits for main's kick to raise it and for the load to be
 * ready, then takes effect.
 */
long syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_sched_setparam && a[0] == atomic_load(&spinner_tid)) {
		if (!is_spinner) {
			long ret = real_syscall(nr, a[0], a[1]);

			atomic_store(&raised, 1);
			return ret;
		}
		if (atomic_exchange(&armed, 0)) {
			atomic_store(&raised, 0);
			atomic_store(&race_go, 1);
			if (wait_for(&raised))
				atomic_store(&steered, 1);
			sem_post(&load_go);
		}
	}
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* The other real-time process's thread: waits for its cue, then loops. */
static void *load(void *arg)
{
	(void)arg;
	while (sem_wait(&load_go))
		;
	live_test_spin(LOAD_NS);
	atomic_store(&load_done, 1);
	return NULL;
}

static void urgent(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_sem_take(&wake, NK_INFINITE, NK_RELATIVE), 0);
	atomic_store(&urgent_before_load_end, !atomic_load(&load_done));
	atomic_store(&urgent_done, 1);
}

/* Current on CPU 1, in application code, until the urgent thread ran. */
static void spinner(void *arg)
{
	nk_time_t give_up;

	(void)arg;
	is_spinner = true;
	atomic_store(&spinner_ready, 1);
	give_up = nk_now(nk) + GIVE_UP_NS;
	while (!atomic_load(&urgent_done) && nk_now(nk) < give_up)
		;
}

TEST(kick_during_the_lowering_keeps_the_shadow_above_the_load)
{
	struct nk_instance_attr attr = {.nr_cpus = 2, .main_priority = 10};
	struct nk_thread *hi, *low;
	struct nk_thread_stats stats;
	int linux_cpu[2];
	pthread_t loader;
	pid_t tid;

	two_cpus_select(linux_cpu);
	if (!test_fifo_allowed())
		exit(77);
	CHECK_EQ(sem_init(&load_go, 0, 0), 0);
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_sem_init(nk, &wake, "wake", 0, 0, NK_SYNCH_FIFO), 0);
	loader = live_test_fifo_thread(linux_cpu[1], 50, load, NULL);
	hi = live_test_thread(nk, "urgent", 200, 1);
	low = live_test_thread(nk, "spinner", 5, 1);
	CHECK_EQ(nk_thread_start(hi, urgent, NULL), 0);
	CHECK_EQ(nk_thread_host(low, &tid, NULL), 0);
	atomic_store(&spinner_tid, tid);
	CHECK_EQ(nk_thread_start(low, spinner, NULL), 0);
	CHECK(wait_for(&spinner_ready));

	/* A kick whose cause is gone when the spinner's handler looks. */
	atomic_store(&armed, 1);
	nk_lock(nk);
	CHECK_EQ(nk_sem_give(&wake), 0);
	CHECK_EQ(nk_thread_suspend(hi), 0);
	nk_unlock(nk);
	/* The spinner is lowering itself: kick it for good. */
	CHECK(wait_for(&race_go));
	CHECK_EQ(nk_thread_resume(hi), 0);

	CHECK_EQ(nk_thread_join(hi), 0);
	CHECK_EQ(nk_thread_stats(low, &stats), 0);
	CHECK_EQ(nk_thread_join(low), 0);
	CHECK_EQ(pthread_join(loader, NULL), 0);
	CHECK_EQ(atomic_load(&steered), 1);
	/* Under qemu-user, a thread runs code new to it, or waits for the
	 * others to leave theirs, under the emulator's locks, which inherit
	 * no priority: the load, starved by the raised spinner, may hold one
	 * that main needs to kick it, until the watchdog lowers the spinner.
	 * The order is the emulator's then. */
	if (!test_emulated())
		CHECK_EQ(atomic_load(&urgent_before_load_end), 1);
	/* Its lowering from the kick's handler is no stray system call. */
	CHECK_EQ(stats.mode_switches, 0);
	CHECK_EQ(nk_sem_destroy(&wake), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	sem_destroy(&load_go);
}

TESTS(T(kick_during_the_lowering_keeps_the_shadow_above_the_load));
