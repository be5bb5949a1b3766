/* SPDX-License-Identifier: MIT */
/*
 * The program tests/tools/test_gdb.sh debugs.  When task "owner" calls
 * gdb_app_stop(), where the test sets its breakpoint, the state is the
 * same on both backends, reached by priorities alone (no timing):
 *   main    Alchemy 50, waits for the semaphore "done";
 *   owner   Alchemy 10 (30 to take it first), owns the mutex "lock",
 *           boosted to 20 by
 *   waiter  Alchemy 20, who waits for "lock" with a 100 s timeout;
 * the queue "inbox" holds one message and the alarm "tick" is armed
 * 1 s ahead.  On sim main slept 1 ms first: the virtual date is 1 ms.
 * Then task "spinner" spins until the alarm "kick" wakes main, which
 * preempts it: on live, with the preemption signal.  Everything ends in
 * order and the program exits 0: the test also runs it to completion
 * under gdb, which must not stop on the framework's signals (main's
 * first Linux calls in primary mode raise SIGSYS on live).
 */
#include <alchemy/alarm.h>
#include <alchemy/mutex.h>
#include <alchemy/queue.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>

#include <stdio.h>
#include <stdlib.h>

static RT_MUTEX lock;
static RT_SEM done;
static RT_QUEUE inbox;
static RT_SEM go;
static RT_ALARM tick, kick;
static RT_TASK owner, waiter, spinner;
static int stop;

/* Out of line and kept, so that gdb can stop there. */
__attribute__((noinline, used)) void gdb_app_stop(void);
__attribute__((noinline, used)) void gdb_app_stop(void)
{
	__asm__ volatile("" ::: "memory");
}

static void waiter_body(void *arg)
{
	(void)arg;
	if (rt_mutex_acquire(&lock, 100000000000ULL) == 0)
		rt_mutex_release(&lock);
	rt_sem_v(&done);
}

static void owner_body(void *arg)
{
	(void)arg;
	rt_mutex_acquire(&lock, TM_INFINITE);
	/* Below the waiter: it runs, blocks on the mutex and boosts us. */
	rt_task_set_priority(NULL, 10);
	gdb_app_stop();
	rt_mutex_release(&lock);
}

static void tick_handler(void *arg)
{
	(void)arg;
}

/* Spends time in application code (virtual time on sim) until main,
 * woken by the alarm, tells it to stop. */
static void spinner_body(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
		rt_timer_spin(100000);
}

static void kick_handler(void *arg)
{
	(void)arg;
	rt_sem_v(&go);
}

/* The first failing call ends the program, named, with status 1. */
#define CHECK(call)                                                            \
	do {                                                                   \
		int ret_ = (call);                                             \
		if (ret_ < 0) {                                                \
			fprintf(stderr, "gdb_app: %s: %d\n", #call, ret_);     \
			exit(1);                                               \
		}                                                              \
	} while (0)

/* The state the test looks at, reached when main waits for "done". */
static void stop_in_a_task(void)
{
	CHECK(rt_mutex_create(&lock, "lock"));
	CHECK(rt_sem_create(&done, "done", 0, S_PRIO));
	CHECK(rt_queue_create(&inbox, "inbox", 256, 4, Q_FIFO));
	CHECK(rt_queue_write(&inbox, "hello", 6, Q_NORMAL));
	CHECK(rt_alarm_create(&tick, "tick", tick_handler, NULL));
	CHECK(rt_alarm_start(&tick, 1000000000, TM_INFINITE));
	CHECK(rt_task_create(&owner, "owner", 0, 30, T_JOINABLE));
	CHECK(rt_task_create(&waiter, "waiter", 0, 20, T_JOINABLE));
	CHECK(rt_task_start(&owner, owner_body, NULL));
	CHECK(rt_task_start(&waiter, waiter_body, NULL));
	CHECK(rt_sem_p(&done, TM_INFINITE));
	CHECK(rt_task_join(&waiter));
	CHECK(rt_task_join(&owner));
	CHECK(rt_alarm_delete(&tick));
	CHECK(rt_queue_delete(&inbox));
	CHECK(rt_sem_delete(&done));
	CHECK(rt_mutex_delete(&lock));
}

/* The alarm wakes main while the spinner runs application code. */
static void preempt_a_spinner(void)
{
	CHECK(rt_sem_create(&go, "go", 0, S_FIFO));
	CHECK(rt_alarm_create(&kick, "kick", kick_handler, NULL));
	CHECK(rt_task_create(&spinner, "spinner", 0, 5, T_JOINABLE));
	CHECK(rt_alarm_start(&kick, 1000000, TM_INFINITE));
	CHECK(rt_task_start(&spinner, spinner_body, NULL));
	CHECK(rt_sem_p(&go, TM_INFINITE));
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	CHECK(rt_task_join(&spinner));
	CHECK(rt_alarm_delete(&kick));
	CHECK(rt_sem_delete(&go));
}

int main(void)
{
	CHECK(rt_task_sleep(1000000));
	/* Above every task: they run only while main waits. */
	CHECK(rt_task_set_priority(NULL, 50));
	stop_in_a_task();
	preempt_a_spinner();
	puts("gdb_app: done");
	return 0;
}
