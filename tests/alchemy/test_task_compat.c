/* SPDX-License-Identifier: MIT */
/*
 * Tasks as Xenomai 3 programs see them beyond scheduling: their Linux
 * thread (RT_TASK.thread, RT_TASK_INFO.pid), signals sent to them,
 * statistics, T_CONFORMING, SIGDEBUG, and periods set by another task.
 */
#include "alchemy_test.h"

#include "backend/live/live.h"

#include <alchemy/alarm.h>
#include <alchemy/pipe.h>
#include <alchemy/sem.h>

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
static const bool sanitized = true; /* the live backend leaves SUD off */
#else
static const bool sanitized = false;
#endif

/* --- the task's thread --- */

static pid_t body_tid;
static pthread_t body_pthread;

static void body_ids(void *arg)
{
	(void)arg;
	body_tid = gettid();
	body_pthread = pthread_self();
}

TEST(pid_and_thread_are_the_tasks)
{
	RT_TASK t, bound;
	RT_TASK_INFO info;

	CHECK_EQ(rt_task_inquire(NULL, &info), 0);
	CHECK_EQ(info.pid, gettid());
	CHECK(pthread_equal(rt_task_self()->thread, pthread_self()));
	/* Known from creation on, before the task first runs. */
	CHECK_EQ(rt_task_create(&t, "ids", 0, 10, T_JOINABLE), 0);
	CHECK(t.thread != 0);
	CHECK_EQ(rt_task_inquire(&t, &info), 0);
	CHECK(info.pid > 0 && info.pid != gettid());
	CHECK_EQ(rt_task_bind(&bound, "ids", TM_NONBLOCK), 0);
	CHECK(pthread_equal(bound.thread, t.thread));
	CHECK_EQ(rt_task_start(&t, body_ids, NULL), 0);
	CHECK_EQ(rt_task_join(&t), 0);
	CHECK_EQ(body_tid, info.pid);
	CHECK(pthread_equal(body_pthread, t.thread));
}

/* --- signals sent to a task --- */

static volatile sig_atomic_t handler_tid;
static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handler_tid = (sig_atomic_t)gettid();
	handled++;
}

static int sleep_ret[2];
static volatile sig_atomic_t sleeper_done;

/* Sleeps for ever until a signal breaks the sleep, then goes on. */
static void body_sleeper(void *arg)
{
	(void)arg;
	sleep_ret[0] = rt_task_sleep_until(TM_INFINITE);
	sleep_ret[1] = rt_task_sleep(MS);
	sleeper_done = 1;
}

/*
 * Wait (as a task, so that time runs on sim) until the sleeper is done.
 * The signal comes from outside the nucleus: on sim it lands at some
 * virtual date, so poll rather than sleep for a fixed time.
 */
static void wait_sleeper_done(void)
{
	for (int i = 0; i < 100000 && !sleeper_done; i++)
		CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK(sleeper_done);
}

static void install_usr1(void)
{
	struct sigaction sa = {.sa_handler = on_usr1};

	/* Without SA_RESTART: the interrupted wait fails with EINTR. */
	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
}

/*
 * Until Linux has put thread @tid to sleep.  As with any blocking
 * system call, a handler that runs just before the thread sleeps does
 * not break the sleep to come: send once it sleeps.
 */
static void wait_asleep(pid_t tid)
{
	char path[64], line[256];

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	for (;;) {
		FILE *f = fopen(path, "r");
		const char *p = f ? fgets(line, sizeof(line), f) : NULL;

		if (f)
			fclose(f);
		p = p ? strrchr(line, ')') : NULL;
		CHECK(p != NULL);
		if (p[2] == 'S')
			return;
		sched_yield();
	}
}

static void start_sleeper(RT_TASK *t, RT_TASK_INFO *info)
{
	handled = 0;
	handler_tid = 0;
	sleeper_done = 0;
	CHECK_EQ(
	    rt_task_spawn(t, "sleeper", 0, 20, T_JOINABLE, body_sleeper, NULL),
	    0);
	CHECK_EQ(rt_task_inquire(t, info), 0);
	CHECK(info->stat.status & NK_THREAD_DELAYED);
	wait_asleep(info->pid);
}

static void check_sleeper_broken(RT_TASK *t, RT_TASK_INFO *info)
{
	wait_sleeper_done();
	CHECK_EQ(handled, 1);
	CHECK_EQ(handler_tid, info->pid);
	CHECK_EQ(sleep_ret[0], -EINTR);
	CHECK_EQ(sleep_ret[1], 0);
	CHECK_EQ(rt_task_join(t), 0);
}

TEST(signal_to_task_breaks_its_sleep)
{
	RT_TASK t;
	RT_TASK_INFO info;

	install_usr1();
	/* pthread_kill from a task, its descriptor's thread. */
	start_sleeper(&t, &info);
	CHECK_EQ(pthread_kill(t.thread, SIGUSR1), 0);
	check_sleeper_broken(&t, &info);
	/* tgkill to RT_TASK_INFO.pid. */
	start_sleeper(&t, &info);
	CHECK_EQ(syscall(SYS_tgkill, getpid(), info.pid, SIGUSR1), 0);
	check_sleeper_broken(&t, &info);
	signal(SIGUSR1, SIG_DFL);
}

static void *plain_kill(void *arg)
{
	RT_TASK *t = arg;

	CHECK_EQ(pthread_kill(t->thread, SIGUSR1), 0);
	return NULL;
}

TEST(signal_from_plain_thread_breaks_sleep)
{
	RT_TASK t;
	RT_TASK_INFO info;
	pthread_t th;

	install_usr1();
	start_sleeper(&t, &info);
	/* Main sleeps too: the CPU may idle when the signal lands. */
	CHECK_EQ(pthread_create(&th, NULL, plain_kill, &t), 0);
	check_sleeper_broken(&t, &info);
	CHECK_EQ(pthread_join(th, NULL), 0);
	signal(SIGUSR1, SIG_DFL);
}

/* --- objects from any Linux thread --- */

static void alarm_noop(void *arg)
{
	(void)arg;
}

static void *plain_objects(void *arg)
{
	int *res = arg;
	RT_TASK task;
	RT_ALARM alarm;
	RT_PIPE pipe;

	res[0] = rt_task_create(&task, "from-plain", 0, 10, 0)
		     ?: rt_task_delete(&task);
	res[1] = rt_alarm_create(&alarm, NULL, alarm_noop, NULL)
		     ?: rt_alarm_delete(&alarm);
	res[2] = rt_pipe_create(&pipe, NULL, P_MINOR_AUTO, 0);
	res[2] = res[2] < 0 ? res[2] : rt_pipe_delete(&pipe);
	return NULL;
}

/* As in Xenomai, any thread of the program makes and deletes them. */
TEST(objects_from_plain_thread)
{
	int res[3] = {1, 1, 1};

	run_plain_thread(plain_objects, res);
	CHECK_EQ(res[0], 0);
	CHECK_EQ(res[1], 0);
	CHECK_EQ(res[2], 0);
}

/* --- statistics and modes --- */

static RT_SEM stats_sem;
static RT_TASK_INFO peer_view;

static void body_stats(void *arg)
{
	RT_TASK *main_task = arg;

	for (int i = 0; i < 10; i++)
		CHECK_EQ(rt_sem_v(&stats_sem), 0);
	CHECK_EQ(rt_task_inquire(main_task, &peer_view), 0);
}

TEST(statistics_filled_in)
{
	RT_TASK t;
	RT_TASK_INFO before, after;

	CHECK_EQ(rt_sem_create(&stats_sem, NULL, 0, S_FIFO), 0);
	CHECK_EQ(rt_task_create(&t, "stats", 0, 10, T_JOINABLE), 0);
	CHECK_EQ(rt_task_inquire(&t, &before), 0);
	CHECK_EQ(rt_task_start(&t, body_stats, rt_task_self()), 0);
	CHECK_EQ(rt_task_join(&t), 0);
	/* Its ten posts entered the nucleus; it was switched in. */
	CHECK_EQ(rt_task_inquire(NULL, &after), 0);
	CHECK(after.stat.xsc > 0);
	CHECK(after.stat.csw > 0);
	CHECK(after.stat.pf > 0);
	/* Main's faults read by another task (from /proc). */
	CHECK(peer_view.stat.pf > 0);
	CHECK(peer_view.stat.xsc > 0);
	CHECK_EQ(before.stat.xsc, 0);
	CHECK_EQ(rt_sem_inquire(&stats_sem, &(RT_SEM_INFO){0}), 0);
	CHECK_EQ(rt_sem_delete(&stats_sem), 0);
}

static unsigned long xsc_seen[2];

static void body_count(void *arg)
{
	RT_TASK_INFO info;

	(void)arg;
	CHECK_EQ(rt_task_inquire(NULL, &info), 0);
	xsc_seen[0] = info.stat.xsc;
	for (int i = 0; i < 10; i++)
		CHECK_EQ(rt_sem_v(&stats_sem), 0);
	CHECK_EQ(rt_task_inquire(NULL, &info), 0);
	xsc_seen[1] = info.stat.xsc;
}

TEST(xsc_counts_services)
{
	RT_TASK t;

	CHECK_EQ(rt_sem_create(&stats_sem, NULL, 0, S_FIFO), 0);
	spawn(&t, 10, body_count, NULL);
	CHECK_EQ(rt_task_join(&t), 0);
	CHECK(xsc_seen[1] >= xsc_seen[0] + 10);
	CHECK_EQ(rt_sem_delete(&stats_sem), 0);
}

static unsigned int conforming_state[2];
static int conforming_mode;
static unsigned long conforming_msw;

static void body_conforming(void *arg)
{
	struct nk_instance *nk = arg;
	RT_TASK_INFO info;

	CHECK_EQ(nk_thread_relax(nk), 0);
	conforming_state[0] = nk_thread_state(nk_thread_self(nk));
	CHECK_EQ(rt_task_set_mode(0, T_CONFORMING, &conforming_mode), 0);
	CHECK_EQ(rt_task_inquire(NULL, &info), 0);
	conforming_state[1] = info.stat.status;
	conforming_msw = info.stat.msw;
}

TEST(conforming_hardens)
{
	RT_TASK t;

	spawn(&t, 10, body_conforming, test_runtime());
	CHECK_EQ(rt_task_join(&t), 0);
	CHECK(conforming_state[0] & NK_THREAD_RELAXED);
	CHECK(!(conforming_state[1] & NK_THREAD_RELAXED));
	CHECK(conforming_state[1] & NK_THREAD_CURRENT);
	CHECK_EQ(conforming_mode, 0);
	CHECK_EQ(conforming_msw, 1);
}

static volatile sig_atomic_t debug_count;
static volatile sig_atomic_t debug_reason;

static void on_sigdebug(int sig, siginfo_t *si, void *context)
{
	(void)sig;
	(void)context;
	debug_reason = sigdebug_reason(si);
	debug_count++;
}

static void body_stray(void *arg)
{
	(void)arg;
	CHECK_EQ(rt_task_set_mode(0, T_WARNSW, NULL), 0);
	/* A system call in primary mode, outside the nucleus. */
	CHECK(getppid() > 0);
	CHECK_EQ(rt_task_set_mode(T_WARNSW, 0, NULL), 0);
}

TEST(warnsw_raises_sigdebug)
{
	struct sigaction sa = {.sa_sigaction = on_sigdebug,
			       .sa_flags = SA_SIGINFO};
	const char *no_sud = getenv("FUSION_NO_SUD");
	RT_TASK t;

	CHECK_EQ(SIGDEBUG, NK_SIGDEBUG);
	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(SIGDEBUG, &sa, NULL), 0);
	spawn(&t, 10, body_stray, NULL);
	CHECK_EQ(rt_task_join(&t), 0);
	/* Only live with Syscall User Dispatch sees stray calls (not where
	 * the kernel or Fusion's port for the architecture lacks it). */
	if (!on_sim() && !sanitized && !(no_sud && no_sud[0]) &&
	    live_sud_probe()) {
		CHECK_EQ(debug_count, 1);
		CHECK_EQ(debug_reason, SIGDEBUG_MIGRATE_SYSCALL);
	} else {
		CHECK_EQ(debug_count, 0);
	}
	signal(SIGDEBUG, SIG_DFL);
}

/* --- periods set by another task --- */

static void body_released(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		int ret = rt_task_wait_period(NULL);

		/* Live gives no timing guarantee: a release may be missed. */
		CHECK(ret == 0 || (!on_sim() && ret == -ETIMEDOUT));
		note("r%d", i);
	}
}

TEST(periodic_set_by_another_task)
{
	RT_TASK t;
	RTIME now;

	log_start();
	/* Dormant: as Xenomai programs do between create and start. */
	CHECK_EQ(rt_task_create(&t, "per", 0, 10, T_JOINABLE), 0);
	now = rt_timer_read();
	CHECK_EQ(rt_task_set_periodic(&t, now + 2 * MS, MS), 0);
	CHECK_EQ(rt_task_start(&t, body_released, NULL), 0);
	CHECK_EQ(rt_task_join(&t), 0);
	check_log("r0@2000000 r1@3000000 r2@4000000");
	/* Started and waiting for its first release: re-anchored. */
	log_start();
	CHECK_EQ(rt_task_create(&t, "per", 0, 10, T_JOINABLE), 0);
	CHECK_EQ(rt_task_set_periodic(&t, rt_timer_read() + 5 * MS, MS), 0);
	CHECK_EQ(rt_task_start(&t, body_released, NULL), 0);
	CHECK_EQ(rt_task_set_periodic(&t, TM_NOW, 2 * MS), 0);
	CHECK_EQ(rt_task_join(&t), 0);
	/* The wait in progress ends at 5 ms, then the new grid: 2, 4 ms
	 * have passed, the next release is 6 ms (one overrun-free step). */
	check_log("r0@5000000 r1@6000000 r2@8000000");
}

TESTS(T(pid_and_thread_are_the_tasks), T(signal_to_task_breaks_its_sleep),
      T(signal_from_plain_thread_breaks_sleep), T(objects_from_plain_thread),
      T(statistics_filled_in), T(xsc_counts_services), T(conforming_hardens),
      T(warnsw_raises_sigdebug), T(periodic_set_by_another_task));
