/* SPDX-License-Identifier: MIT */
/*
 * Thread migration between RT CPUs (nk_thread_set_cpu) on the sim
 * backend, asserted exactly: who runs where and when, in every state the
 * moved thread can be in (ready, current on its CPU or on another,
 * sleeping, waiting with a timeout, suspended, dormant, holding the
 * scheduler lock), and the errors.
 *
 * Thread bodies append "what:cpuN@date" to run_log; a trace sink appends
 * "migrate:<thread>:cpuA>cpuB@date", and the wakes and timeouts of
 * threads other than main, to event_log.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <stdint.h>

#define LOG_SIZE 2048

static struct nk_instance *nk;
static char run_log[LOG_SIZE];
static char event_log[LOG_SIZE];

/* Record "<what>:cpu<N>@<now>" for the caller. */
static void note(const char *what)
{
	log_append(run_log, "%s:cpu%d@%lld", what,
		   nk_thread_cpu(nk_thread_self(nk)), (long long)nk_now(nk));
}

static void trace_events(void *ctx, const struct nk_trace_record *rec)
{
	(void)ctx;
	if (strcmp(rec->thread, "main") == 0 && rec->event != NK_TRACE_MIGRATE)
		return;
	if (rec->event == NK_TRACE_MIGRATE)
		log_append(event_log, "migrate:%s:cpu%d>cpu%ld@%lld",
			   rec->thread, rec->cpu, rec->arg,
			   (long long)rec->date);
	else if (rec->event == NK_TRACE_WAKE || rec->event == NK_TRACE_TIMEOUT)
		log_append(event_log, "%s:%s:cpu%d@%lld",
			   nk_trace_event_name(rec->event), rec->thread,
			   rec->cpu, (long long)rec->date);
}

static void boot(int main_prio)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .nr_cpus = 2,
	    .main_priority = main_prio,
	};

	run_log[0] = event_log[0] = '\0';
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_instance_set_trace(nk, trace_events, NULL), 0);
}

static void halt(void)
{
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static struct nk_thread *launch(const char *name, int prio, int cpu,
				nk_thread_fn fn, void *arg)
{
	struct nk_thread_attr attr = {
	    .name = name,
	    .priority = prio,
	    .cpu = cpu,
	    .flags = NK_THREAD_JOINABLE,
	};
	struct nk_thread *thread = NULL;

	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	if (fn)
		CHECK_EQ(nk_thread_start(thread, fn, arg), 0);
	return thread;
}

static void body_note(void *arg)
{
	note(arg);
}

/* A ready thread moved to an idle CPU runs there at once. */
TEST(ready_to_idle_cpu)
{
	struct nk_thread *t;

	boot(50);
	t = launch("T", 40, 0, body_note, "T");
	CHECK_EQ(nk_thread_state(t), NK_THREAD_READY);
	CHECK_EQ(nk_thread_set_cpu(t, 1), 0);
	CHECK_EQ(nk_thread_cpu(t), 1);
	note("main");
	CHECK_EQ(nk_thread_sleep(nk, 1000, NK_RELATIVE), 0);
	note("main");
	CHECK_EQ(nk_thread_join(t), 0);
	halt();
	CHECK_STR(run_log, "main:cpu0@0 T:cpu1@0 main:cpu0@1000");
	CHECK_STR(event_log, "migrate:T:cpu0>cpu1@0");
}

/* A ready thread moved to a CPU running a less urgent one preempts it. */
static void body_low(void *arg)
{
	(void)arg;
	note("low");
	CHECK_EQ(nk_consume(nk, 1000), 0);
	note("low");
}

TEST(ready_preempts_on_new_cpu)
{
	struct nk_thread *low, *t;

	boot(50);
	low = launch("low", 20, 1, body_low, NULL);
	t = launch("T", 30, 0, body_note, "T");
	/* main keeps cpu0 (T stays ready there) while low runs on cpu1. */
	CHECK_EQ(nk_consume(nk, 300), 0);
	CHECK_EQ(nk_thread_set_cpu(t, 1), 0);
	note("main");
	CHECK_EQ(nk_thread_join(t), 0);
	CHECK_EQ(nk_thread_join(low), 0);
	halt();
	CHECK_STR(run_log, "low:cpu1@0 main:cpu0@300 T:cpu1@300 low:cpu1@1000");
}

/* The current thread moves itself: its old CPU runs the next ready thread. */
TEST(current_moves_itself)
{
	struct nk_thread *w;

	boot(50);
	w = launch("W", 10, 0, body_note, "W");
	CHECK_EQ(nk_thread_set_cpu(nk_thread_self(nk), 1), 0);
	note("main");
	CHECK_EQ(nk_thread_cpu(nk_thread_self(nk)), 1);
	CHECK_EQ(nk_thread_join(w), 0);
	/* Back again: nobody else is ready. */
	CHECK_EQ(nk_thread_set_cpu(nk_thread_self(nk), 0), 0);
	note("main");
	/* To its own CPU: nothing happens. */
	CHECK_EQ(nk_thread_set_cpu(nk_thread_self(nk), 0), 0);
	halt();
	/* W got cpu0 as main left it, and ran first: sim hands the baton
	 * over in the order threads were made current. */
	CHECK_STR(run_log, "W:cpu0@0 main:cpu1@0 main:cpu0@0");
	CHECK_STR(event_log,
		  "migrate:main:cpu0>cpu1@0 migrate:main:cpu1>cpu0@0");
}

/* A sleeping thread's timer moves with it and fires on the new CPU. */
static void body_sleeper(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_thread_sleep(nk, 1000, NK_RELATIVE), 0);
	note("sleeper");
}

static struct nk_sem sem;

static void body_waiter(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_sem_take(&sem, 2500, NK_RELATIVE), NK_WAKE_TIMEOUT);
	note("waiter");
}

TEST(timeouts_fire_on_new_cpu)
{
	struct nk_thread *s, *w;

	boot(10);
	CHECK_EQ(nk_sem_init(nk, &sem, "sem", 0, 0, NK_SYNCH_FIFO), 0);
	s = launch("sleeper", 60, 0, body_sleeper, NULL);
	w = launch("waiter", 60, 0, body_waiter, NULL);
	CHECK_EQ(nk_thread_sleep(nk, 400, NK_RELATIVE), 0);
	CHECK_EQ(nk_thread_set_cpu(s, 1), 0);
	CHECK_EQ(nk_thread_set_cpu(w, 1), 0);
	CHECK_EQ(nk_thread_state(s), NK_THREAD_DELAYED);
	CHECK_EQ(nk_thread_join(s), 0);
	CHECK_EQ(nk_thread_join(w), 0);
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	halt();
	CHECK_STR(run_log, "sleeper:cpu1@1000 waiter:cpu1@2500");
	CHECK_STR(event_log, "migrate:sleeper:cpu0>cpu1@400 "
			     "migrate:waiter:cpu0>cpu1@400 "
			     "wake:sleeper:cpu1@1000 timeout:waiter:cpu1@2500");
}

/* With the scheduler locked, the current thread moves at the unlock. */
TEST(locked_moves_at_unlock)
{
	struct nk_thread *w;

	boot(50);
	CHECK_EQ(nk_sched_lock(nk), 0);
	w = launch("W", 60, 0, body_note, "W");
	CHECK_EQ(nk_thread_set_cpu(nk_thread_self(nk), 1), 0);
	note("locked");
	CHECK_EQ(nk_thread_sleep(nk, 10, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_sched_unlock(nk), 0);
	note("main");
	CHECK_EQ(nk_thread_join(w), 0);
	halt();
	CHECK_STR(run_log, "locked:cpu0@0 W:cpu0@0 main:cpu1@0");
}

/* The current thread of another CPU leaves it at once, mid-consume. */
static void body_busy(void *arg)
{
	(void)arg;
	note("busy");
	CHECK_EQ(nk_consume(nk, 1000), 0);
	note("busy");
}

TEST(other_cpu_current_moves)
{
	struct nk_thread *b;

	boot(50);
	b = launch("busy", 60, 1, body_busy, NULL);
	CHECK_EQ(nk_thread_sleep(nk, 400, NK_RELATIVE), 0);
	CHECK_EQ(nk_thread_set_cpu(b, 0), 0);
	/* Kicked, it leaves cpu1 at its next preemption point: on sim,
	 * when main stops running.  It then consumes the 600 ns it has
	 * left on cpu0, at its priority, above main. */
	CHECK_EQ(nk_thread_cpu(b), 1);
	note("main");
	CHECK_EQ(nk_thread_join(b), 0);
	note("main");
	halt();
	CHECK_STR(run_log,
		  "busy:cpu1@0 main:cpu0@400 busy:cpu0@1000 main:cpu0@1000");
	CHECK_STR(event_log, "migrate:busy:cpu1>cpu0@400");
}

/* Suspended and dormant threads run on their new CPU once readied. */
static void body_nap(void *arg)
{
	(void)arg;
	note("S");
	CHECK_EQ(nk_thread_sleep(nk, 100, NK_RELATIVE), 0);
	note("S");
}

TEST(suspended_and_dormant)
{
	struct nk_thread *d, *s;

	boot(50);
	d = launch("D", 60, 0, NULL, NULL);
	CHECK_EQ(nk_thread_set_cpu(d, 1), 0);
	CHECK_EQ(nk_thread_state(d), NK_THREAD_DORMANT);
	s = launch("S", 60, 0, body_nap, NULL);
	CHECK_EQ(nk_thread_suspend(s), 0);
	CHECK_EQ(nk_thread_set_cpu(s, 1), 0);
	CHECK_EQ(nk_thread_sleep(nk, 500, NK_RELATIVE), 0);
	CHECK_EQ(nk_thread_resume(s), 0);
	CHECK_EQ(nk_thread_start(d, body_note, "D"), 0);
	note("main");
	CHECK_EQ(nk_thread_join(s), 0);
	CHECK_EQ(nk_thread_join(d), 0);
	halt();
	/* S slept until 100 on cpu1, suspended; D waits behind it. */
	CHECK_STR(run_log, "S:cpu0@0 main:cpu0@500 S:cpu1@500 "
			   "D:cpu1@500");
	CHECK_STR(event_log, "migrate:D:cpu0>cpu1@0 migrate:S:cpu0>cpu1@0 "
			     "wake:S:cpu1@100");
}

/* Priority inheritance follows the owner to its new CPU. */
static struct nk_mutex mutex;

static void body_owner(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_mutex_lock(&mutex, NK_INFINITE, NK_RELATIVE), 0);
	CHECK_EQ(nk_thread_sleep(nk, 100, NK_RELATIVE), 0);
	/* Boosted by main, waiting on the other CPU. */
	CHECK_EQ(nk_thread_effective_priority(nk_thread_self(nk)), 50);
	note("owner");
	CHECK_EQ(nk_mutex_unlock(&mutex), 0);
	CHECK_EQ(nk_thread_effective_priority(nk_thread_self(nk)), 20);
}

TEST(inheritance_unaffected)
{
	struct nk_thread *o;

	boot(50);
	CHECK_EQ(nk_mutex_init(nk, &mutex, "mutex", NK_SYNCH_PI, 0), 0);
	o = launch("owner", 20, 0, body_owner, NULL);
	CHECK_EQ(nk_thread_sleep(nk, 10, NK_RELATIVE), 0);
	CHECK_EQ(nk_thread_set_cpu(o, 1), 0);
	CHECK_EQ(nk_mutex_lock(&mutex, NK_INFINITE, NK_RELATIVE), 0);
	note("main");
	CHECK_EQ(nk_thread_effective_priority(o), 20);
	CHECK_EQ(nk_mutex_unlock(&mutex), 0);
	CHECK_EQ(nk_thread_join(o), 0);
	CHECK_EQ(nk_mutex_destroy(&mutex), 0);
	halt();
	CHECK_STR(run_log, "owner:cpu1@100 main:cpu0@100");
}

TEST(errors)
{
	struct nk_thread *t;

	boot(50);
	t = launch("T", 60, 0, body_note, "T");
	CHECK_EQ(nk_thread_set_cpu(t, 2), -EINVAL);
	CHECK_EQ(nk_thread_set_cpu(t, -1), -EINVAL);
	CHECK_EQ(nk_thread_set_cpu(NULL, 0), -EINVAL);
	CHECK_EQ(nk_thread_state(t), NK_THREAD_ZOMBIE);
	CHECK_EQ(nk_thread_set_cpu(t, 1), -ESRCH);
	CHECK_EQ(nk_thread_join(t), 0);
	halt();
}

TESTS(T(ready_to_idle_cpu), T(ready_preempts_on_new_cpu),
      T(current_moves_itself), T(timeouts_fire_on_new_cpu),
      T(locked_moves_at_unlock), T(other_cpu_current_moves),
      T(suspended_and_dormant), T(inheritance_unaffected), T(errors));
