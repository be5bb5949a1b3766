/* SPDX-License-Identifier: MIT */
/*
 * Scheduling semantics on the sim backend, asserted exactly: run order,
 * FIFO within a level, yield, round robin dates, policy changes at run
 * time, the scheduler lock, suspension, priority changes, unblocking,
 * statistics, two RT CPUs, deletion, join, and a plain pthread that
 * shadows itself while main runs.
 *
 * Two logs make the assertions: thread bodies append "what@date" to
 * run_log, and a trace sink appends "next@date" (prefixed "cpuN:" off
 * cpu0) to switch_log for every NK_TRACE_SWITCH record.  Tests whose last
 * checks are on the logs destroy the instance first, so that a failure
 * leaves no instance behind.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>

#define LOG_SIZE 4096

static struct nk_instance *nk;
static struct nk_sem sem;
static char run_log[LOG_SIZE];
static char switch_log[LOG_SIZE];

/* Record "<what>@<now>" in run_log. */
static void __attribute__((format(printf, 1, 2))) note(const char *fmt, ...)
{
	char what[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	log_append(run_log, "%s@%lld", what, (long long)nk_now(nk));
}

/* printf into a static buffer, for expected logs holding errno values. */
static const char *__attribute__((format(printf, 1, 2)))
expect(const char *fmt, ...)
{
	static char buf[LOG_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

/* Trace sink: lock held, so it only formats (names are copied now). */
static void trace_switches(void *ctx, const struct nk_trace_record *rec)
{
	(void)ctx;
	if (rec->event != NK_TRACE_SWITCH)
		return;
	if (rec->cpu)
		log_append(switch_log, "cpu%d:%s@%lld", rec->cpu, rec->thread,
			   (long long)rec->date);
	else
		log_append(switch_log, "%s@%lld", rec->thread,
			   (long long)rec->date);
}

static void clear_logs(void)
{
	run_log[0] = '\0';
	switch_log[0] = '\0';
}

static void boot_cpus(int main_prio, int nr_cpus)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .nr_cpus = nr_cpus,
	    .main_priority = main_prio,
	};

	clear_logs();
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_instance_set_trace(nk, trace_switches, NULL), 0);
	CHECK_EQ(nk_sem_init(nk, &sem, "sem", 0, 0, NK_SYNCH_FIFO), 0);
}

static void boot(int main_prio)
{
	boot_cpus(main_prio, 1);
}

static void halt(void)
{
	test_instance_whole(nk);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static struct nk_thread *self(void)
{
	return nk_thread_self(nk);
}

static const char *self_name(void)
{
	return nk_thread_name(self());
}

static void sleep_until(nk_time_t date)
{
	CHECK_EQ(nk_thread_sleep(nk, date, NK_ABSOLUTE), NK_WAKE_OK);
}

static void consume(nk_time_t ns)
{
	CHECK_EQ(nk_consume(nk, ns), 0);
}

static void *ns_arg(nk_time_t ns)
{
	return (void *)(intptr_t)ns;
}

static nk_time_t arg_ns(void *arg)
{
	return (nk_time_t)(intptr_t)arg;
}

/* --- threads --- */

struct spec {
	const char *name;
	int prio;
	int cpu;
	nk_time_t quantum; /* > 0: NK_SCHED_RR */
	bool joinable;
	nk_thread_fn fn; /* NULL: leave it dormant */
	void *arg;
};

static struct nk_thread *launch(struct spec s)
{
	struct nk_thread_attr attr = {
	    .name = s.name,
	    .priority = s.prio,
	    .policy = s.quantum ? NK_SCHED_RR : NK_SCHED_FIFO,
	    .quantum = s.quantum,
	    .cpu = s.cpu,
	    .flags = s.joinable ? NK_THREAD_JOINABLE : 0,
	};
	struct nk_thread *thread = NULL;

	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	if (s.fn)
		CHECK_EQ(nk_thread_start(thread, s.fn, s.arg), 0);
	return thread;
}

static struct nk_thread *spawn(const char *name, int prio, nk_thread_fn fn,
			       void *arg)
{
	return launch(
	    (struct spec){.name = name, .prio = prio, .fn = fn, .arg = arg});
}

static struct nk_thread *spawn_joinable(const char *name, int prio,
					nk_thread_fn fn, void *arg)
{
	return launch((struct spec){.name = name,
				    .prio = prio,
				    .joinable = true,
				    .fn = fn,
				    .arg = arg});
}

static void join(struct nk_thread *thread)
{
	CHECK_EQ(nk_thread_join(thread), 0);
}

static struct nk_thread_stats stats_of(struct nk_thread *thread)
{
	struct nk_thread_stats st;

	CHECK_EQ(nk_thread_stats(thread, &st), 0);
	return st;
}

/* --- thread bodies --- */

static void body_mark(void *arg)
{
	(void)arg;
	note("%s", self_name());
}

/* Note the start, burn @arg ns of CPU, note the end. */
static void body_busy(void *arg)
{
	note("%s", self_name());
	consume(arg_ns(arg));
	note("%s.end", self_name());
}

static void body_sleep_until(void *arg)
{
	int ret = nk_thread_sleep(nk, arg_ns(arg), NK_ABSOLUTE);

	note("%s:%d", self_name(), ret);
}

static void body_sleep_for(void *arg)
{
	int ret = nk_thread_sleep(nk, arg_ns(arg), NK_RELATIVE);

	note("%s:%d", self_name(), ret);
}

static void body_take(void *arg)
{
	int ret = nk_sem_take(arg, NK_INFINITE, NK_RELATIVE);

	note("%s:%d", self_name(), ret);
}

/* Take the global semaphore, then burn @arg ns. */
static void body_take_busy(void *arg)
{
	body_take(&sem);
	consume(arg_ns(arg));
	note("%s.end", self_name());
}

/* Sleep until a date, then burn CPU: an interrupt-like burst. */
struct burst {
	nk_time_t at;
	nk_time_t cost;
};

static void body_burst(void *arg)
{
	const struct burst *b = arg;

	sleep_until(b->at);
	consume(b->cost);
}

static void body_give_mark(void *arg)
{
	CHECK_EQ(nk_sem_give(arg), 0);
	note("%s", self_name());
}

/* Twice: burn 100 ns, note, yield. */
static void body_yield_twice(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		consume(100);
		note("%s", self_name());
		CHECK_EQ(nk_thread_yield(nk), 0);
	}
}

static void body_join(void *arg)
{
	int ret = nk_thread_join(arg);

	note("%s:%d", self_name(), ret);
}

static void body_join_self(void *arg)
{
	(void)arg;
	body_join(self());
}

static void delete_self_deep(void)
{
	nk_thread_delete(self());
	note("returned");
}

static void body_delete_self(void *arg)
{
	(void)arg;
	note("%s", self_name());
	delete_self_deep();
	note("after");
}

/* --- preemption and FIFO order --- */

TEST(start_preempts_less_urgent_caller)
{
	boot(10);
	spawn("lo", 5, body_mark, NULL);
	CHECK_STR(run_log, "");
	spawn("hi", 20, body_mark, NULL);
	CHECK_STR(run_log, "hi@0");
	note("main");
	sleep_until(100);
	CHECK_STR(run_log, "hi@0 main@0 lo@0");
	CHECK_STR(switch_log, "hi@0 main@0 lo@0 root0@0 main@100");
	halt();
}

TEST(start_order_is_descending_priority)
{
	static const struct {
		const char *name;
		int prio;
	} threads[] = {{"p30", 30},  {"p50a", 50}, {"p10", 10},
		       {"p50b", 50}, {"p40", 40},  {"p20", 20}};

	boot(200);
	for (size_t i = 0; i < sizeof(threads) / sizeof(threads[0]); i++)
		spawn(threads[i].name, threads[i].prio, body_mark, NULL);
	CHECK_STR(run_log, "");
	sleep_until(1000);
	CHECK_STR(run_log, "p50a@0 p50b@0 p40@0 p30@0 p20@0 p10@0");
	CHECK_STR(switch_log,
		  "p50a@0 p50b@0 p40@0 p30@0 p20@0 p10@0 root0@0 main@1000");
	halt();
}

TEST(equal_priority_runs_in_start_order)
{
	boot(100);
	spawn("C", 10, body_mark, NULL);
	spawn("A", 10, body_mark, NULL);
	spawn("B", 10, body_mark, NULL);
	sleep_until(1000);
	CHECK_STR(run_log, "C@0 A@0 B@0");
	halt();
}

TEST(thread_readied_later_queues_behind_ready_equals)
{
	boot(100);
	spawn("D", 10, body_take, &sem);
	sleep_until(10);
	CHECK_EQ(nk_synch_nr_waiters(&sem.synch), 1);
	/* A readies D while B and C are already ready at D's level. */
	spawn("A", 10, body_give_mark, &sem);
	spawn("B", 10, body_mark, NULL);
	spawn("C", 10, body_mark, NULL);
	sleep_until(20);
	CHECK_STR(run_log, "A@10 B@10 C@10 D:0@10");
	halt();
}

TEST(preempted_thread_resumes_before_its_equals)
{
	boot(100);
	spawn("H", 50, body_sleep_until, ns_arg(500));
	spawn("A", 10, body_busy, ns_arg(1000));
	spawn("B", 10, body_mark, NULL);
	sleep_until(5000);
	/* A went back to the head of level 10 when H preempted it. */
	CHECK_STR(run_log, "A@0 H:0@500 A.end@1000 B@1000");
	CHECK_STR(switch_log,
		  "H@0 A@0 H@500 A@500 B@1000 root0@1000 main@5000");
	halt();
}

TEST(yield_rotates_among_equals)
{
	boot(100);
	spawn("A", 10, body_yield_twice, NULL);
	spawn("B", 10, body_yield_twice, NULL);
	spawn("C", 10, body_yield_twice, NULL);
	sleep_until(5000);
	CHECK_STR(run_log, "A@100 B@200 C@300 A@400 B@500 C@600");
	CHECK_STR(switch_log, "A@0 B@100 C@200 A@300 B@400 C@500 A@600 B@600 "
			      "C@600 root0@600 main@5000");
	halt();
}

TEST(yield_alone_at_level_is_noop)
{
	boot(10);
	spawn("lo", 5, body_mark, NULL);
	CHECK_EQ(nk_thread_yield(nk), 0);
	CHECK_EQ(nk_thread_yield(nk), 0);
	CHECK_STR(run_log, "");
	CHECK_STR(switch_log, "");
	CHECK_EQ(nk_thread_state(self()), NK_THREAD_CURRENT);
	CHECK_EQ(stats_of(self()).switches, 1);
	halt();
}

/* --- round robin --- */

static struct nk_thread *spawn_rr(const char *name, nk_time_t work)
{
	return launch((struct spec){.name = name,
				    .prio = 10,
				    .quantum = 1000,
				    .fn = body_busy,
				    .arg = ns_arg(work)});
}

TEST(rr_rotates_exactly_at_quantum)
{
	boot(100);
	spawn_rr("R1", 2500);
	spawn_rr("R2", 2500);
	spawn_rr("R3", 2500);
	sleep_until(10000);
	halt();
	CHECK_STR(run_log, "R1@0 R2@1000 R3@2000 R1.end@6500 R2.end@7000 "
			   "R3.end@7500");
	CHECK_STR(switch_log, "R1@0 R2@1000 R3@2000 R1@3000 R2@4000 R3@5000 "
			      "R1@6000 R2@6500 R3@7000 root0@7500 main@10000");
}

TEST(rr_preempted_keeps_remaining_quantum)
{
	boot(100);
	spawn_rr("R1", 1500);
	spawn_rr("R2", 1500);
	spawn("H", 50, body_burst, &(struct burst){.at = 400, .cost = 200});
	sleep_until(10000);
	halt();
	/*
	 * R1 used 400 ns of its quantum before H: it rotates at 1200, and
	 * its next turn (2200) starts a fresh quantum for its last 500 ns.
	 */
	CHECK_STR(switch_log, "H@0 R1@0 H@400 R1@600 R2@1200 R1@2200 R2@2700 "
			      "root0@3200 main@10000");
}

TEST(rr_alone_keeps_running_and_keeps_remaining_quantum)
{
	boot(100);
	spawn_rr("R1", 2800);
	sleep_until(1500);
	/* No rotation at 1000: R1 was alone.  Its quantum restarted then. */
	CHECK_STR(switch_log, "R1@0 main@1500");
	consume(200);
	spawn_rr("R2", 500);
	sleep_until(10000);
	halt();
	/* 500 ns of the quantum begun at 1000 remained: rotation at 2200. */
	CHECK_STR(switch_log, "R1@0 main@1500 R1@1700 R2@2200 R1@2700 "
			      "root0@3500 main@10000");
	CHECK_STR(run_log, "R1@0 R2@2200 R2.end@2700 R1.end@3500");
}

/* --- policy changes at run time --- */

static void set_policy(struct nk_thread *thread, enum nk_policy policy,
		       nk_time_t quantum)
{
	CHECK_EQ(nk_thread_set_policy(thread, policy, quantum), 0);
}

/*
 * Runs A then B (both prio 10, from @a and @b) until 10000, then checks
 * the logs.
 */
static void check_pair(struct spec a, struct spec b, const char *runs,
		       const char *switches)
{
	boot(100);
	launch(a);
	launch(b);
	sleep_until(10000);
	halt();
	CHECK_STR(run_log, runs);
	CHECK_STR(switch_log, switches);
}

/*
 * A changes its own policy: from RR with @a_quantum (0: FIFO), it burns
 * @before ns, switches to @policy with @quantum, burns @after ns.  B,
 * ready behind it (RR 1000 when @b_rr, else FIFO), burns @b_work ns.
 */
static const struct self_switch {
	nk_time_t a_quantum, before;
	enum nk_policy policy;
	nk_time_t quantum, after;
	bool b_rr;
	nk_time_t b_work;
} self_switches[] = {
    /* a_quantum, before, policy, quantum, after, b_rr, b_work */
    {0, 300, NK_SCHED_RR, 1000, 2000, false, 500},
    {1000, 600, NK_SCHED_RR, 300, 1000, true, 200},
    {1000, 500, NK_SCHED_FIFO, 0, 2000, true, 500},
};

enum { FIFO_TO_RR, RR_SHORTER, RR_TO_FIFO };

static void body_self_switch(void *arg)
{
	const struct self_switch *sw = arg;

	note("%s", self_name());
	consume(sw->before);
	set_policy(self(), sw->policy, sw->quantum);
	consume(sw->after);
	note("%s.end", self_name());
}

static void check_self_switch(const struct self_switch *sw, const char *runs,
			      const char *switches)
{
	check_pair((struct spec){.name = "A",
				 .prio = 10,
				 .quantum = sw->a_quantum,
				 .fn = body_self_switch,
				 .arg = (void *)sw},
		   (struct spec){.name = "B",
				 .prio = 10,
				 .quantum = sw->b_rr ? 1000 : 0,
				 .fn = body_busy,
				 .arg = ns_arg(sw->b_work)},
		   runs, switches);
}

/*
 * FIFO, A would run to 2300.  Its slice starts at the switch (300):
 * rotation at 1300; back at 1800 with the fresh quantum begun at 1300,
 * it burns its last 1000 ns alone.
 */
TEST(set_policy_rr_starts_quantum_at_once)
{
	check_self_switch(&self_switches[FIFO_TO_RR],
			  "A@0 B@1300 B.end@1800 A.end@2800",
			  "A@0 B@1300 A@1800 root0@2800 main@10000");
}

TEST(set_policy_rr_on_ready_threads_rotates_them)
{
	static const char *const names[3] = {"A", "B", "C"};
	struct nk_thread *t[3];

	boot(100);
	for (int i = 0; i < 3; i++) {
		t[i] = spawn(names[i], 10, body_busy, ns_arg(1500));
		set_policy(t[i], NK_SCHED_RR, 700);
	}
	sleep_until(10000);
	halt();
	CHECK_STR(run_log, "A@0 B@700 C@1400 A.end@4300 B.end@4400 "
			   "C.end@4500");
	CHECK_STR(switch_log, "A@0 B@700 C@1400 A@2100 B@2800 C@3500 A@4200 "
			      "B@4300 C@4400 root0@4500 main@10000");
}

/* 600 + 300: rotation at 900 (not 1000); alone after B's end. */
TEST(set_policy_new_quantum_restarts_slice)
{
	check_self_switch(&self_switches[RR_SHORTER],
			  "A@0 B@900 B.end@1100 A.end@1800",
			  "A@0 B@900 A@1100 root0@1800 main@10000");
}

TEST(set_policy_fifo_stops_rotation_of_current)
{
	check_self_switch(&self_switches[RR_TO_FIFO],
			  "A@0 A.end@2500 B@2500 B.end@3000",
			  "A@0 B@2500 root0@3000 main@10000");
}

TEST(set_policy_fifo_stops_rotation_of_preempted)
{
	struct nk_thread *b;

	boot(100);
	spawn_rr("A", 3000);
	b = spawn_rr("B", 3000);
	sleep_until(1500);
	CHECK_STR(switch_log, "A@0 B@1000 main@1500");
	/* B, preempted by main, is FIFO when it resumes. */
	CHECK_EQ(nk_thread_state(b), NK_THREAD_READY);
	set_policy(b, NK_SCHED_FIFO, 0);
	sleep_until(10000);
	halt();
	CHECK_STR(run_log, "A@0 B@1000 B.end@4000 A.end@6000");
	CHECK_STR(switch_log, "A@0 B@1000 main@1500 B@1500 A@4000 root0@6000 "
			      "main@10000");
}

/*
 * RR 1000, scheduler locked: the quantum ends at 1000 and the rotation
 * waits for the unlock.  Turning FIFO (@rr 0) or RR 400 at 1500 drops it.
 */
static void body_locked_switch(void *arg)
{
	nk_time_t rr = arg_ns(arg);

	note("%s", self_name());
	CHECK_EQ(nk_sched_lock(nk), 0);
	consume(1500);
	set_policy(self(), rr ? NK_SCHED_RR : NK_SCHED_FIFO, rr);
	CHECK_EQ(nk_sched_unlock(nk), 0);
	note("%s.unlocked", self_name());
	consume(500);
	note("%s.end", self_name());
}

static void check_locked_switch(nk_time_t rr, const char *runs,
				const char *switches)
{
	check_pair(
	    (struct spec){.name = "A",
			  .prio = 10,
			  .quantum = 1000,
			  .fn = body_locked_switch,
			  .arg = ns_arg(rr)},
	    (struct spec){
		.name = "B", .prio = 10, .fn = body_busy, .arg = ns_arg(100)},
	    runs, switches);
}

TEST(set_policy_drops_rotation_earned_under_lock)
{
	check_locked_switch(0,
			    "A@0 A.unlocked@1500 A.end@2000 B@2000 "
			    "B.end@2100",
			    "A@0 B@2000 root0@2100 main@10000");
	/* The new slice starts at 1500: rotation at 1900. */
	check_locked_switch(400,
			    "A@0 A.unlocked@1500 B@1900 B.end@2000 "
			    "A.end@2100",
			    "A@0 B@1900 A@2000 root0@2100 main@10000");
}

/* --- scheduler lock --- */

static int ready_by_give(void *obj)
{
	return nk_sem_give(obj);
}

static int ready_by_start(void *obj)
{
	return nk_thread_start(obj, body_mark, NULL);
}

static int ready_by_resume(void *obj)
{
	return nk_thread_resume(obj);
}

/*
 * Main (prio 10) locks the scheduler twice, readies @high (prio 50) with
 * @ready(@obj) and burns 300 + 200 ns around the inner unlock: @high
 * must run exactly at the outer unlock, logging @high_note.
 */
static void check_lock_defers(struct nk_thread *high, int (*ready)(void *),
			      void *obj, const char *high_note)
{
	CHECK_EQ(nk_thread_priority(self()), 10);
	CHECK_EQ(nk_sched_lock_depth(nk), 0);
	clear_logs();
	CHECK_EQ(nk_sched_lock(nk), 0);
	CHECK_EQ(nk_sched_lock(nk), 0);
	CHECK_EQ(nk_sched_lock_depth(nk), 2);
	CHECK_EQ(ready(obj), 0);
	CHECK_EQ(nk_thread_state(high), NK_THREAD_READY);
	consume(300);
	CHECK_EQ(nk_sched_unlock(nk), 0);
	CHECK_EQ(nk_sched_lock_depth(nk), 1);
	consume(200);
	CHECK_STR(run_log, "");
	note("unlock");
	CHECK_EQ(nk_sched_unlock(nk), 0);
	CHECK_EQ(nk_sched_lock_depth(nk), 0);
	note("main");
	CHECK_STR(run_log, expect("unlock@500 %s@500 main@500", high_note));
	CHECK_STR(switch_log, "H@500 main@500");
	halt();
}

TEST(sched_lock_defers_sem_give)
{
	struct nk_thread *high;

	boot(100);
	high = spawn("H", 50, body_take, &sem);
	CHECK_EQ(nk_thread_set_priority(self(), 10), 0);
	CHECK_EQ(nk_thread_state(high), NK_THREAD_PENDING);
	check_lock_defers(high, ready_by_give, &sem, "H:0");
}

TEST(sched_lock_defers_thread_start)
{
	struct nk_thread *high;

	boot(10);
	high = launch((struct spec){.name = "H", .prio = 50});
	CHECK_EQ(nk_thread_state(high), NK_THREAD_DORMANT);
	check_lock_defers(high, ready_by_start, high, "H");
}

TEST(sched_lock_defers_thread_resume)
{
	struct nk_thread *high;

	boot(100);
	high = spawn("H", 50, body_mark, NULL);
	CHECK_EQ(nk_thread_suspend(high), 0);
	CHECK_EQ(nk_thread_set_priority(self(), 10), 0);
	CHECK_EQ(nk_thread_state(high), NK_THREAD_SUSPENDED);
	check_lock_defers(high, ready_by_resume, high, "H");
}

TEST(sched_lock_refuses_blocking)
{
	unsigned long count;

	boot(10);
	CHECK_EQ(nk_sched_unlock(nk), -EPERM);
	CHECK_EQ(nk_sched_lock(nk), 0);
	CHECK_EQ(nk_thread_sleep(nk, 100, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_sem_take(&sem, 100, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_sem_take(&sem, NK_INFINITE, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_thread_suspend(self()), -EPERM);
	/* Calls that need not wait still work. */
	CHECK_EQ(nk_sem_take(&sem, 0, NK_RELATIVE), -EWOULDBLOCK);
	CHECK_EQ(nk_sem_give(&sem), 0);
	CHECK_EQ(nk_sem_take(&sem, 100, NK_RELATIVE), 0);
	CHECK_EQ(nk_sem_count(&sem, &count), 0);
	CHECK_EQ(count, 0);
	CHECK_EQ(nk_now(nk), 0);
	CHECK_EQ(nk_sched_lock_depth(nk), 1);
	CHECK_EQ(nk_sched_unlock(nk), 0);
	CHECK_EQ(nk_sched_unlock(nk), -EPERM);
	CHECK_EQ(nk_sched_lock_depth(nk), 0);
	sleep_until(100);
	CHECK_EQ(nk_now(nk), 100);
	halt();
}

TEST(sched_lock_defers_timer_wakeup)
{
	boot(10);
	spawn("H", 50, body_sleep_until, ns_arg(300));
	CHECK_STR(switch_log, "H@0 main@0");
	clear_logs();
	CHECK_EQ(nk_sched_lock(nk), 0);
	consume(1000);
	note("locked");
	CHECK_EQ(nk_sched_unlock(nk), 0);
	note("unlocked");
	CHECK_STR(run_log, "locked@1000 H:0@1000 unlocked@1000");
	CHECK_STR(switch_log, "H@1000 main@1000");
	CHECK_EQ(stats_of(self()).exec_time, 1000);
	halt();
}

/* --- suspension --- */

TEST(suspend_nests)
{
	struct nk_thread *t;

	boot(100);
	t = spawn("T", 50, body_mark, NULL);
	CHECK_EQ(nk_thread_state(t), NK_THREAD_READY);
	CHECK_EQ(nk_thread_suspend(t), 0);
	CHECK_EQ(nk_thread_suspend(t), 0);
	CHECK_EQ(nk_thread_state(t), NK_THREAD_SUSPENDED);
	CHECK_EQ(nk_thread_resume(t), 0);
	CHECK_EQ(nk_thread_state(t), NK_THREAD_SUSPENDED);
	sleep_until(100);
	CHECK_STR(run_log, "");
	CHECK_EQ(nk_thread_resume(t), 0);
	CHECK_EQ(nk_thread_state(t), NK_THREAD_READY);
	CHECK_STR(run_log, "");
	sleep_until(200);
	CHECK_STR(run_log, "T@100");
	halt();
}

TEST(suspend_resume_errors)
{
	struct nk_thread *dormant, *ready, *done;

	boot(100);
	dormant = launch((struct spec){.name = "D", .prio = 50});
	CHECK_EQ(nk_thread_suspend(dormant), -EPERM);
	CHECK_EQ(nk_thread_resume(dormant), -EPERM);
	CHECK_EQ(nk_thread_state(dormant), NK_THREAD_DORMANT);
	ready = spawn("R", 50, body_mark, NULL);
	CHECK_EQ(nk_thread_resume(ready), -EPERM);
	CHECK_EQ(nk_thread_resume(self()), -EPERM);
	CHECK_EQ(nk_thread_state(ready), NK_THREAD_READY);
	done = spawn_joinable("Z", 60, body_mark, NULL);
	sleep_until(10);
	CHECK_EQ(nk_thread_state(done), NK_THREAD_ZOMBIE);
	CHECK_EQ(nk_thread_suspend(done), -ESRCH);
	CHECK_EQ(nk_thread_resume(done), -ESRCH);
	join(done);
	CHECK_STR(run_log, "Z@0 R@0");
	halt();
}

TEST(suspended_waiter_gets_unit_but_waits_for_resume)
{
	struct nk_thread *w;
	unsigned long count = 99;

	boot(10);
	w = spawn("W", 50, body_take, &sem);
	CHECK_EQ(nk_thread_suspend(w), 0);
	CHECK_EQ(nk_thread_state(w), NK_THREAD_PENDING | NK_THREAD_SUSPENDED);
	CHECK_EQ(nk_sem_give(&sem), 0);
	CHECK_EQ(nk_sem_count(&sem, &count), 0);
	CHECK_EQ(count, 0);
	CHECK_EQ(nk_synch_nr_waiters(&sem.synch), 0);
	CHECK_EQ(nk_thread_state(w), NK_THREAD_SUSPENDED);
	sleep_until(100);
	CHECK_STR(run_log, "");
	CHECK_EQ(nk_thread_resume(w), 0);
	CHECK_STR(run_log, "W:0@100");
	halt();
}

/* --- priority changes --- */

TEST(raising_ready_thread_above_caller_preempts)
{
	struct nk_thread *t;

	boot(10);
	t = spawn("T", 5, body_mark, NULL);
	CHECK_STR(run_log, "");
	CHECK_EQ(nk_thread_set_priority(t, 20), 0);
	note("main");
	CHECK_STR(run_log, "T@0 main@0");
	halt();
}

TEST(lowering_self_below_ready_thread_switches)
{
	boot(50);
	spawn("T", 20, body_mark, NULL);
	CHECK_EQ(nk_thread_set_priority(self(), 30), 0);
	CHECK_STR(run_log, "");
	CHECK_EQ(nk_thread_set_priority(self(), 10), 0);
	note("main");
	CHECK_STR(run_log, "T@0 main@0");
	CHECK_EQ(nk_thread_priority(self()), 10);
	halt();
}

/*
 * Start three threads at @prios (named A, B, C) under main (prio 100),
 * move them to @moved (in index order, where different), then let them
 * run: the order shows where each move queued its thread.
 */
static void check_requeue(const int prios[3], const int moved[3],
			  const char *expected)
{
	static const char *const names[3] = {"A", "B", "C"};
	struct nk_thread *t[3];

	boot(100);
	for (int i = 0; i < 3; i++)
		t[i] = spawn(names[i], prios[i], body_mark, NULL);
	for (int i = 0; i < 3; i++)
		if (moved[i] != prios[i])
			CHECK_EQ(nk_thread_set_priority(t[i], moved[i]), 0);
	CHECK_STR(run_log, "");
	sleep_until(100);
	CHECK_STR(run_log, expected);
	halt();
}

TEST(raised_ready_thread_goes_to_tail_of_new_level)
{
	check_requeue((const int[3]){20, 10, 10}, (const int[3]){20, 20, 20},
		      "A@0 B@0 C@0");
}

TEST(lowered_ready_thread_goes_to_head_of_new_level)
{
	check_requeue((const int[3]){10, 10, 20}, (const int[3]){10, 10, 10},
		      "C@0 A@0 B@0");
}

TEST(priority_change_reorders_prio_wait_queue)
{
	struct nk_thread *w1, *w3;

	boot(100);
	CHECK_EQ(nk_sem_init(nk, &sem, "psem", 0, 0, NK_SYNCH_PRIO), 0);
	w1 = spawn("W1", 10, body_take, &sem);
	spawn("W2", 20, body_take, &sem);
	w3 = spawn("W3", 30, body_take, &sem);
	sleep_until(10);
	CHECK_EQ(nk_synch_nr_waiters(&sem.synch), 3);
	/* Queue W3 W2 W1 becomes W1 (40) W2 (20) W3 (15). */
	CHECK_EQ(nk_thread_set_priority(w1, 40), 0);
	CHECK_EQ(nk_thread_set_priority(w3, 15), 0);
	CHECK_EQ(nk_thread_set_priority(self(), 1), 0);
	CHECK_STR(run_log, "");
	for (int i = 0; i < 3; i++)
		CHECK_EQ(nk_sem_give(&sem), 0);
	CHECK_STR(run_log, "W1:0@10 W2:0@10 W3:0@10");
	halt();
}

/* --- unblock --- */

/*
 * @body (prio 50) blocks at once with @arg; main (prio 10) burns 300 ns
 * and unblocks it: it must return NK_WAKE_UNBLOCKED at 300, at once.
 */
static void check_unblock(nk_thread_fn body, void *arg, unsigned int waiting)
{
	struct nk_thread *t;
	unsigned long count = 99;

	boot(10);
	t = spawn("T", 50, body, arg);
	CHECK_EQ(nk_thread_state(t), waiting);
	consume(300);
	CHECK_EQ(nk_thread_unblock(t), 0);
	note("main");
	CHECK_STR(run_log, expect("T:%d@300 main@300", NK_WAKE_UNBLOCKED));
	sleep_until(2000);
	CHECK_STR(switch_log, "T@0 main@0 T@300 main@300 root0@300 main@2000");
	CHECK_EQ(nk_synch_nr_waiters(&sem.synch), 0);
	CHECK_EQ(nk_sem_count(&sem, &count), 0);
	CHECK_EQ(count, 0);
	halt();
}

TEST(unblock_breaks_sleep)
{
	check_unblock(body_sleep_for, ns_arg(1000), NK_THREAD_DELAYED);
}

TEST(unblock_breaks_sem_wait)
{
	check_unblock(body_take, &sem, NK_THREAD_PENDING);
}

TEST(unblock_of_non_waiting_thread_fails)
{
	struct nk_thread *dormant, *ready;

	boot(100);
	dormant = launch((struct spec){.name = "D", .prio = 50});
	ready = spawn("R", 50, body_mark, NULL);
	CHECK_EQ(nk_thread_unblock(dormant), -EAGAIN);
	CHECK_EQ(nk_thread_unblock(ready), -EAGAIN);
	CHECK_EQ(nk_thread_unblock(self()), -EAGAIN);
	CHECK_EQ(nk_thread_suspend(ready), 0);
	CHECK_EQ(nk_thread_unblock(ready), -EAGAIN);
	CHECK_EQ(nk_thread_resume(ready), 0);
	sleep_until(10);
	CHECK_STR(run_log, "R@0");
	halt();
}

TEST(unblock_leaves_suspension)
{
	struct nk_thread *t;

	boot(10);
	t = spawn("T", 50, body_sleep_for, ns_arg(1000));
	CHECK_EQ(nk_thread_suspend(t), 0);
	CHECK_EQ(nk_thread_unblock(t), 0);
	CHECK_EQ(nk_thread_state(t), NK_THREAD_SUSPENDED);
	CHECK_STR(run_log, "");
	consume(100);
	CHECK_EQ(nk_thread_resume(t), 0);
	CHECK_STR(run_log, expect("T:%d@100", NK_WAKE_UNBLOCKED));
	halt();
}

/* --- statistics --- */

static void body_work_sleep_work(void *arg)
{
	(void)arg;
	consume(700);
	CHECK_EQ(nk_thread_sleep(nk, 100, NK_RELATIVE), NK_WAKE_OK);
	consume(300);
}

TEST(stats_count_switches_and_virtual_exec_time)
{
	struct nk_thread *t, *h;
	struct nk_thread_stats st;

	boot(100);
	t = spawn_joinable("T", 10, body_work_sleep_work, NULL);
	h = spawn_joinable("H", 50, body_burst,
			   &(struct burst){.at = 200, .cost = 50});
	sleep_until(5000);
	CHECK_STR(switch_log,
		  "H@0 T@0 H@200 T@250 root0@750 T@850 root0@1150 main@5000");
	st = stats_of(t);
	CHECK_EQ(st.switches, 3);
	CHECK_EQ(st.exec_time, 1000);
	st = stats_of(h);
	CHECK_EQ(st.switches, 2);
	CHECK_EQ(st.exec_time, 50);
	consume(400);
	st = stats_of(self());
	CHECK_EQ(st.switches, 2);
	CHECK_EQ(st.exec_time, 400);
	join(t);
	join(h);
	halt();
}

/* --- two RT CPUs --- */

static struct nk_thread *spawn_on(const char *name, int prio, int cpu,
				  nk_thread_fn fn, void *arg)
{
	return launch((struct spec){.name = name,
				    .prio = prio,
				    .cpu = cpu,
				    .joinable = true,
				    .fn = fn,
				    .arg = arg});
}

TEST(two_cpus_consume_in_parallel)
{
	struct nk_thread *a, *b;

	boot_cpus(100, 2);
	a = spawn_on("A", 10, 0, body_busy, ns_arg(1000));
	b = spawn_on("B", 10, 1, body_busy, ns_arg(1000));
	join(a);
	CHECK_EQ(nk_now(nk), 1000);
	join(b);
	CHECK_EQ(nk_now(nk), 1000);
	CHECK_STR(run_log, "B@0 A@0 A.end@1000 B.end@1000");
	halt();
}

TEST(give_on_cpu0_preempts_consumer_on_cpu1)
{
	struct nk_thread *h, *l;

	boot_cpus(100, 2);
	h = spawn_on("H", 50, 1, body_take_busy, ns_arg(100));
	l = spawn_on("L", 10, 1, body_busy, ns_arg(1000));
	sleep_until(300);
	CHECK_EQ(nk_thread_state(l), NK_THREAD_CURRENT);
	CHECK_EQ(nk_sem_give(&sem), 0);
	note("gave");
	join(l);
	join(h);
	CHECK_STR(run_log, "L@0 gave@300 H:0@300 H.end@400 L.end@1100");
	/* L loses cpu1 at the date of the give on cpu0, for H's 100 ns. */
	CHECK_STR(switch_log, "cpu1:H@0 root0@0 cpu1:L@0 main@300 root0@300 "
			      "cpu1:H@300 cpu1:L@400 main@1100 "
			      "cpu1:root1@1100");
	halt();
}

/* --- deletion and join --- */

/*
 * Spawn joinable T (prio @prio under main at prio 10) running @body, check
 * it then waits as @state, delete it: it never runs again, stays a zombie
 * until joined.
 */
static void check_deleted_never_runs(int prio, nk_thread_fn body, void *arg,
				     unsigned int state)
{
	struct nk_thread *t;

	boot(10);
	t = spawn_joinable("T", prio, body, arg);
	CHECK_EQ(nk_thread_state(t), state);
	CHECK_EQ(nk_thread_delete(t), 0);
	CHECK_EQ(nk_thread_state(t), NK_THREAD_ZOMBIE);
	CHECK_EQ(nk_thread_delete(t), -ESRCH);
	CHECK_EQ(nk_sem_give(&sem), 0);
	sleep_until(2000);
	CHECK_STR(run_log, "");
	CHECK_STR(switch_log,
		  expect("%sroot0@0 main@2000",
			 state == NK_THREAD_READY ? "" : "T@0 main@0 "));
	join(t);
}

TEST(deleted_ready_thread_never_runs)
{
	check_deleted_never_runs(5, body_mark, NULL, NK_THREAD_READY);
	halt();
}

TEST(deleted_sleeping_thread_never_runs)
{
	check_deleted_never_runs(50, body_sleep_for, ns_arg(500),
				 NK_THREAD_DELAYED);
	halt();
}

TEST(deleted_pending_thread_never_runs)
{
	unsigned long count = 0;

	check_deleted_never_runs(50, body_take, &sem, NK_THREAD_PENDING);
	/* The give found no waiter: the unit went to the count. */
	CHECK_EQ(nk_sem_count(&sem, &count), 0);
	CHECK_EQ(count, 1);
	halt();
}

TEST(delete_self_from_nested_call_does_not_return)
{
	struct nk_thread *t;

	boot(10);
	t = spawn_joinable("T", 50, body_delete_self, NULL);
	CHECK_STR(run_log, "T@0");
	CHECK_EQ(nk_thread_state(t), NK_THREAD_ZOMBIE);
	join(t);
	CHECK_STR(run_log, "T@0");
	halt();
}

TEST(delete_wakes_joiner)
{
	struct nk_thread *t;

	boot(100);
	t = spawn_joinable("T", 10, body_sleep_for, ns_arg(1000));
	spawn("J", 50, body_join, t);
	sleep_until(200);
	CHECK_EQ(nk_thread_state(t), NK_THREAD_DELAYED);
	CHECK_EQ(nk_thread_delete(t), 0);
	CHECK_STR(run_log, "");
	sleep_until(5000);
	CHECK_STR(run_log, "J:0@200");
	halt();
}

TEST(join_errors)
{
	struct nk_thread *s, *t, *n;

	boot(100);
	s = spawn_joinable("S", 50, body_join_self, NULL);
	t = spawn_joinable("T", 20, body_sleep_for, ns_arg(1000));
	spawn("J", 30, body_join, t);
	n = spawn("N", 10, body_mark, NULL);
	CHECK_EQ(nk_thread_join(n), -EINVAL);
	CHECK_EQ(nk_thread_join(self()), -EINVAL);
	sleep_until(10);
	CHECK_EQ(nk_thread_join(t), -EBUSY);
	join(s);
	sleep_until(2000);
	CHECK_STR(run_log, expect("S:%d@0 N@0 T:0@1000 J:0@1000", -EDEADLK));
	halt();
}

/* --- a plain pthread shadows itself --- */

static atomic_bool shadow_readied;

/* As trace_switches; also tells main that "pt" is ready. */
static void trace_shadow(void *ctx, const struct nk_trace_record *rec)
{
	trace_switches(ctx, rec);
	if (rec->event == NK_TRACE_READY && strcmp(rec->thread, "pt") == 0)
		atomic_store(&shadow_readied, true);
}

/* Shadow as "pt" at @arg's priority and CPU, burn 50 ns, end. */
static void *shadow_main(void *arg)
{
	const struct spec *s = arg;
	struct nk_thread_attr attr = {
	    .name = "pt", .priority = s->prio, .cpu = s->cpu};
	struct nk_thread *thread = NULL;
	int ret = nk_thread_shadow(nk, &attr, &thread);

	note("pt:%d", ret);
	CHECK_EQ(ret, 0);
	CHECK(thread == self());
	consume(50);
	note("pt.end");
	nk_thread_exit(nk);
	return NULL;
}

/*
 * Main (prio 10, cpu0) burns 100 ns, creates the pthread and spins in
 * application code until "pt" is readied, which takes no virtual time.
 * Then it makes a nucleus call that does not reschedule by itself (a
 * preemption point all the same), burns 200 ns and sleeps until 1000.
 * Each case gives "pt"'s priority and CPU, and the logs expected.
 */
static const struct shadow_case {
	int prio, cpu, nr_cpus;
	const char *runs, *switches;
} shadow_cases[] = {
    /* Preempts main at its next call. */
    {20, 0, 1, "main@100 pt:0@100 pt.end@150 main.call@150",
     "pt@100 main@150 root0@350 main@1000"},
    /* Waits until main blocks. */
    {5, 0, 1, "main@100 main.call@100 pt:0@300 pt.end@350",
     "pt@300 root0@350 main@1000"},
    /* Current on cpu1 at once; it executes when main goes busy. */
    {5, 1, 2, "main@100 main.call@100 pt:0@100 pt.end@150",
     "cpu1:pt@100 cpu1:root1@150 root0@300 main@1000"},
};

static void check_shadow_beside_main(size_t i)
{
	const struct shadow_case *c = &shadow_cases[i];
	struct spec s = {.prio = c->prio, .cpu = c->cpu};
	pthread_t pt;

	boot_cpus(10, c->nr_cpus);
	CHECK_EQ(nk_instance_set_trace(nk, trace_shadow, NULL), 0);
	atomic_store(&shadow_readied, false);
	consume(100);
	CHECK_EQ(pthread_create(&pt, NULL, shadow_main, &s), 0);
	while (!atomic_load(&shadow_readied))
		sched_yield();
	note("main");
	CHECK_EQ(nk_sched_lock_depth(nk), 0);
	note("main.call");
	consume(200);
	sleep_until(1000);
	CHECK_EQ(pthread_join(pt, NULL), 0);
	halt();
	CHECK_STR(run_log, c->runs);
	CHECK_STR(switch_log, c->switches);
}

TEST(shadowed_pthread_preempts_main_at_its_next_call)
{
	check_shadow_beside_main(0);
}

TEST(shadowed_pthread_waits_until_main_blocks)
{
	check_shadow_beside_main(1);
}

TEST(shadowed_pthread_on_idle_cpu_runs_when_main_stops)
{
	check_shadow_beside_main(2);
}

TESTS(T(start_preempts_less_urgent_caller),
      T(start_order_is_descending_priority),
      T(equal_priority_runs_in_start_order),
      T(thread_readied_later_queues_behind_ready_equals),
      T(preempted_thread_resumes_before_its_equals),
      T(yield_rotates_among_equals), T(yield_alone_at_level_is_noop),
      T(rr_rotates_exactly_at_quantum), T(rr_preempted_keeps_remaining_quantum),
      T(rr_alone_keeps_running_and_keeps_remaining_quantum),
      T(set_policy_rr_starts_quantum_at_once),
      T(set_policy_rr_on_ready_threads_rotates_them),
      T(set_policy_new_quantum_restarts_slice),
      T(set_policy_fifo_stops_rotation_of_current),
      T(set_policy_fifo_stops_rotation_of_preempted),
      T(set_policy_drops_rotation_earned_under_lock),
      T(sched_lock_defers_sem_give), T(sched_lock_defers_thread_start),
      T(sched_lock_defers_thread_resume), T(sched_lock_refuses_blocking),
      T(sched_lock_defers_timer_wakeup), T(suspend_nests),
      T(suspend_resume_errors),
      T(suspended_waiter_gets_unit_but_waits_for_resume),
      T(raising_ready_thread_above_caller_preempts),
      T(lowering_self_below_ready_thread_switches),
      T(raised_ready_thread_goes_to_tail_of_new_level),
      T(lowered_ready_thread_goes_to_head_of_new_level),
      T(priority_change_reorders_prio_wait_queue), T(unblock_breaks_sleep),
      T(unblock_breaks_sem_wait), T(unblock_of_non_waiting_thread_fails),
      T(unblock_leaves_suspension),
      T(stats_count_switches_and_virtual_exec_time),
      T(two_cpus_consume_in_parallel),
      T(give_on_cpu0_preempts_consumer_on_cpu1),
      T(deleted_ready_thread_never_runs), T(deleted_sleeping_thread_never_runs),
      T(deleted_pending_thread_never_runs),
      T(delete_self_from_nested_call_does_not_return), T(delete_wakes_joiner),
      T(join_errors), T(shadowed_pthread_preempts_main_at_its_next_call),
      T(shadowed_pthread_waits_until_main_blocks),
      T(shadowed_pthread_on_idle_cpu_runs_when_main_stops));
