/* SPDX-License-Identifier: MIT */
/*
 * The nucleus on the live backend: real OS threads, real time.  Every
 * test checks the order of events and error codes, never durations (the
 * machine is shared); timeouts are generous safety nets only.
 *
 * Thread bodies make no system calls: with Syscall User Dispatch a stray
 * call would relax the thread into secondary mode and change the order
 * under test.  They append to a log in memory instead.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Safety nets: far beyond anything a correct run needs. */
#define SAFETY_NS (10 * 1000000000LL)
#define MS (1000000LL)

static struct nk_instance *nk;

/* --- event log --- */

static char log_buf[4096];
static size_t log_len;

static void log_reset(void)
{
	log_len = 0;
	log_buf[0] = '\0';
}

/* Append @what, space-separated.  No system call. */
static void rec(const char *what)
{
	size_t n = strlen(what);

	if (log_len + n + 2 > sizeof(log_buf))
		return;
	if (log_len)
		log_buf[log_len++] = ' ';
	memcpy(log_buf + log_len, what, n);
	log_len += n;
	log_buf[log_len] = '\0';
}

/* --- helpers --- */

static void live_create(int main_priority)
{
	struct nk_instance_attr attr = {.main_priority = main_priority};

	log_reset();
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_STR(nk_instance_backend(nk), "live");
}

static struct nk_thread *make(const char *name, int prio, unsigned int flags)
{
	struct nk_thread_attr attr = {
	    .name = name, .priority = prio, .flags = flags};
	struct nk_thread *thread;

	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	return thread;
}

static struct nk_thread *spawn(const char *name, int prio, unsigned int flags,
			       nk_thread_fn fn, void *arg)
{
	struct nk_thread *thread = make(name, prio, flags);

	CHECK_EQ(nk_thread_start(thread, fn, arg), 0);
	return thread;
}

static void *plain_nop(void *arg)
{
	return arg;
}

/* OS threads of the process (entries of /proc/self/task). */
static int os_thread_count(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *ent;
	int count = 0;

	CHECK(dir != NULL);
	while ((ent = readdir(dir)) != NULL)
		if (ent->d_name[0] != '.')
			count++;
	closedir(dir);
	return count;
}

/*
 * The count once threads that were joined have left /proc too: the
 * kernel wakes a joiner before it removes the thread's entry.  Gives
 * up after the safety net, returning the last count.
 */
static int os_thread_count_settled(int expected)
{
	int count = os_thread_count();

	for (int ms = 0; count != expected && ms < 10000; ms++) {
		usleep(1000);
		count = os_thread_count();
	}
	return count;
}

/*
 * The count before a test: the thread sanitizer runtime starts a helper
 * thread at the first pthread_create of the process, so have that
 * happen first.
 */
static int os_thread_baseline(void)
{
	pthread_t plain;

	CHECK_EQ(pthread_create(&plain, NULL, plain_nop, NULL), 0);
	CHECK_EQ(pthread_join(plain, NULL), 0);
	return os_thread_count();
}

/* Records its thread's name. */
static void rec_name(void *arg)
{
	(void)arg;
	rec(nk_thread_name(nk_thread_self(nk)));
}

/* --- preemption, FIFO, yield --- */

TEST(start_preempts_then_descending_order)
{
	struct nk_thread *t40, *t60, *t20, *t80;

	live_create(10);
	/* More urgent than main: runs before nk_thread_start returns. */
	spawn("hi", 20, NK_THREAD_JOINABLE, rec_name, NULL);
	rec("back");
	CHECK_EQ(nk_thread_set_priority(nk_thread_self(nk), 100), 0);
	t40 = spawn("t40", 40, NK_THREAD_JOINABLE, rec_name, NULL);
	t60 = spawn("t60", 60, NK_THREAD_JOINABLE, rec_name, NULL);
	t20 = spawn("t20", 20, NK_THREAD_JOINABLE, rec_name, NULL);
	t80 = spawn("t80", 80, NK_THREAD_JOINABLE, rec_name, NULL);
	rec("started");
	CHECK_EQ(nk_thread_join(t40), 0);
	CHECK_EQ(nk_thread_join(t60), 0);
	CHECK_EQ(nk_thread_join(t80), 0);
	CHECK_EQ(nk_thread_join(t20), 0);
	CHECK_STR(log_buf, "hi back started t80 t60 t40 t20");
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(fifo_within_a_level)
{
	struct nk_thread *t[4];

	live_create(30);
	t[0] = spawn("a", 20, NK_THREAD_JOINABLE, rec_name, NULL);
	t[1] = spawn("b", 20, NK_THREAD_JOINABLE, rec_name, NULL);
	t[2] = spawn("c", 20, NK_THREAD_JOINABLE, rec_name, NULL);
	/* Equal to main: does not preempt it, but precedes the 20s. */
	t[3] = spawn("d", 30, NK_THREAD_JOINABLE, rec_name, NULL);
	rec("main");
	for (int i = 0; i < 4; i++)
		CHECK_EQ(nk_thread_join(t[i]), 0);
	CHECK_STR(log_buf, "main d a b c");
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static volatile int yield_errors;

static void yielder(void *arg)
{
	const char *name = arg;
	char what[8];

	for (int i = 0; i < 3; i++) {
		snprintf(what, sizeof(what), "%s%d", name, i);
		rec(what);
		if (nk_thread_yield(nk))
			yield_errors++;
	}
}

TEST(yield_rotates_a_level)
{
	struct nk_thread *t[3];

	live_create(30);
	yield_errors = 0;
	t[0] = spawn("a", 20, NK_THREAD_JOINABLE, yielder, "a");
	t[1] = spawn("b", 20, NK_THREAD_JOINABLE, yielder, "b");
	t[2] = spawn("c", 20, NK_THREAD_JOINABLE, yielder, "c");
	for (int i = 0; i < 3; i++)
		CHECK_EQ(nk_thread_join(t[i]), 0);
	CHECK_STR(log_buf, "a0 b0 c0 a1 b1 c1 a2 b2 c2");
	CHECK_EQ(yield_errors, 0);
	/* Alone at its level, main keeps its CPU. */
	CHECK_EQ(nk_thread_yield(nk), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* --- semaphore ping-pong --- */

#define PINGPONG_ROUNDS 10000

static struct nk_sem ping_sem, pong_sem;
static volatile long turn;
static volatile long alternation_errors, take_errors;

static void ping(void *arg)
{
	(void)arg;
	for (long i = 0; i < PINGPONG_ROUNDS; i++) {
		if (turn != 2 * i)
			alternation_errors++;
		turn++;
		nk_sem_give(&ping_sem);
		if (nk_sem_take(&pong_sem, SAFETY_NS, NK_RELATIVE))
			take_errors++;
	}
}

static void pong(void *arg)
{
	(void)arg;
	for (long i = 0; i < PINGPONG_ROUNDS; i++) {
		if (nk_sem_take(&ping_sem, SAFETY_NS, NK_RELATIVE))
			take_errors++;
		if (turn != 2 * i + 1)
			alternation_errors++;
		turn++;
		nk_sem_give(&pong_sem);
	}
}

TEST(semaphore_ping_pong_alternates)
{
	struct nk_thread *a, *b;
	unsigned long count;

	live_create(10);
	turn = alternation_errors = take_errors = 0;
	CHECK_EQ(nk_sem_init(nk, &ping_sem, "ping", 0, 0, NK_SYNCH_FIFO), 0);
	CHECK_EQ(nk_sem_init(nk, &pong_sem, "pong", 0, 0, NK_SYNCH_FIFO), 0);
	/* pong is more urgent: each give to it preempts ping. */
	b = spawn("pong", 30, NK_THREAD_JOINABLE, pong, NULL);
	a = spawn("ping", 20, NK_THREAD_JOINABLE, ping, NULL);
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_EQ(nk_thread_join(b), 0);
	CHECK_EQ(turn, 2 * PINGPONG_ROUNDS);
	CHECK_EQ(alternation_errors, 0);
	CHECK_EQ(take_errors, 0);
	CHECK_EQ(nk_sem_count(&ping_sem, &count), 0);
	CHECK_EQ(count, 0);
	CHECK_EQ(nk_sem_count(&pong_sem, &count), 0);
	CHECK_EQ(count, 0);
	CHECK_EQ(nk_sem_destroy(&ping_sem), 0);
	CHECK_EQ(nk_sem_destroy(&pong_sem), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* --- asynchronous preemption of a busy loop --- */

static volatile int spin_stop;
static volatile int spin_ended_by_flag;
static volatile int high_saw_spinner_running;
static volatile int spinner_running;

static void timed_high(void *arg)
{
	(void)arg;
	if (nk_thread_sleep(nk, 20 * MS, NK_RELATIVE))
		rec("sleep-failed");
	high_saw_spinner_running = spinner_running;
	rec("high");
	spin_stop = 1;
}

static void spinner(void *arg)
{
	nk_time_t give_up = nk_now(nk) + SAFETY_NS;

	spinner_running = 1;
	rec("spinner-start");
	/*
	 * high preempts us, then sleeps: its timer is armed only once we
	 * run, however late the OS thread got its CPU.
	 */
	if (nk_thread_start(arg, timed_high, NULL))
		rec("start-failed");
	/* Nothing here blocks or enters the scheduler. */
	while (!spin_stop && nk_now(nk) < give_up)
		;
	spin_ended_by_flag = spin_stop;
	spinner_running = 0;
	rec("spinner-end");
}

TEST(timer_woken_thread_preempts_busy_loop)
{
	struct nk_thread *high, *spin;

	live_create(10);
	spin_stop = spin_ended_by_flag = 0;
	high_saw_spinner_running = spinner_running = 0;
	high = make("high", 40, NK_THREAD_JOINABLE);
	spin = spawn("spinner", 5, NK_THREAD_JOINABLE, spinner, high);
	/* Less urgent than main: the spinner starts once main blocks. */
	CHECK_EQ(spinner_running, 0);
	CHECK_EQ(nk_thread_join(high), 0);
	CHECK_EQ(nk_thread_join(spin), 0);
	CHECK_STR(log_buf, "spinner-start high spinner-end");
	CHECK_EQ(high_saw_spinner_running, 1);
	CHECK_EQ(spin_ended_by_flag, 1);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* --- kicks: one pending signal at most, none lost --- */

/* The live backend's preemption signal (live.h). */
#define KICK_SIGNAL (SIGRTMIN + 7)
#define KICKS 1000
#define BURST 100

static struct nk_sem kick_sem, kick_other;
/* Shared with plain threads, outside the nucleus's ordering. */
static _Atomic int kick_phase, kick_target_running, kick_taken;
static volatile int kicks_queued, kick_high_saw_target;

/*
 * A plain thread that is neither SCHED_FIFO nor pinned to the RT CPU, as
 * main is: it must run beside a spinning real-time thread.
 */
static void plain_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	struct sched_param param = {.sched_priority = 0};
	pthread_attr_t attr;
	cpu_set_t all;

	CPU_ZERO(&all);
	for (long i = 0; i < sysconf(_SC_NPROCESSORS_ONLN) && i < CPU_SETSIZE;
	     i++)
		CPU_SET(i, &all);
	CHECK_EQ(pthread_attr_init(&attr), 0);
	CHECK_EQ(pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED),
		 0);
	CHECK_EQ(pthread_attr_setschedpolicy(&attr, SCHED_OTHER), 0);
	CHECK_EQ(pthread_attr_setschedparam(&attr, &param), 0);
	CHECK_EQ(pthread_attr_setaffinity_np(&attr, sizeof(all), &all), 0);
	CHECK_EQ(pthread_create(thread, &attr, fn, arg), 0);
	pthread_attr_destroy(&attr);
}

/* Wakes the more urgent "high", then makes the nucleus kick again. */
static void *kick_storm(void *arg)
{
	(void)arg;
	while (kick_phase != 1)
		sched_yield();
	nk_sem_give(&kick_sem);
	for (int i = 1; i < KICKS; i++)
		nk_sem_flush(&kick_other);
	kick_phase = 2;
	return NULL;
}

static void kick_high(void *arg)
{
	(void)arg;
	if (nk_sem_take(&kick_sem, SAFETY_NS, NK_RELATIVE) == 0)
		rec("high");
}

/*
 * Current on the CPU with the kick signal blocked through the storm
 * (asleep in Linux, so that the storm gets a CPU even where there is
 * one): it counts the signals queued meanwhile, sends itself one again
 * and lets it through, which preempts it.
 */
static void kick_target(void *arg)
{
	struct timespec zero = {0}, ms = {.tv_nsec = MS};
	sigset_t set;
	int n = 0;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, KICK_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	kick_phase = 1;
	while (kick_phase != 2)
		nanosleep(&ms, NULL);
	while (sigtimedwait(&set, NULL, &zero) == KICK_SIGNAL)
		n++;
	kicks_queued = n;
	rec("counted");
	pthread_kill(pthread_self(), KICK_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	nk_now(nk); /* ThreadSanitizer delivers it at a call it intercepts */
	rec("target");
}

/*
 * "high" (@high_fn) waits, the plain thread @plain_fn wakes it, the less
 * urgent @target_fn runs meanwhile.
 */
static void run_kick_case(nk_thread_fn high_fn, void *(*plain_fn)(void *),
			  nk_thread_fn target_fn)
{
	struct nk_thread *high, *target;
	pthread_t plain;

	CHECK_EQ(nk_sem_init(nk, &kick_sem, "kick", 0, 0, 0), 0);
	high = spawn("high", 40, NK_THREAD_JOINABLE, high_fn, NULL);
	/* First: main gets no CPU once the target runs. */
	plain_start(&plain, plain_fn, NULL);
	target = spawn("target", 20, NK_THREAD_JOINABLE, target_fn, NULL);
	CHECK_EQ(nk_thread_join(target), 0);
	CHECK_EQ(nk_thread_join(high), 0);
	CHECK_EQ(pthread_join(plain, NULL), 0);
	CHECK_EQ(nk_sem_destroy(&kick_sem), 0);
}

TEST(kick_storm_queues_one_signal)
{
	/* Its signal calls must not relax the target. */
	setenv("FUSION_NO_SUD", "1", 1);
	live_create(10);
	unsetenv("FUSION_NO_SUD");
	kick_phase = 0;
	kicks_queued = -1;
	CHECK_EQ(nk_sem_init(nk, &kick_other, "other", 0, 0, 0), 0);
	run_kick_case(kick_high, kick_storm, kick_target);
	CHECK_EQ(kicks_queued, 1);
	CHECK_STR(log_buf, "counted high target");
	CHECK_EQ(nk_sem_destroy(&kick_other), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/*
 * Once the spinner runs, gives "high" the semaphore BURST times, each
 * time once it took it.
 */
static void *kick_waker(void *arg)
{
	(void)arg;
	while (!kick_target_running)
		sched_yield();
	for (int i = 0; i < BURST; i++) {
		nk_sem_give(&kick_sem);
		while (kick_taken == i)
			sched_yield();
	}
	return NULL;
}

/* Counts its wakes that preempted the spinning target. */
static void kick_high_loop(void *arg)
{
	(void)arg;
	for (int i = 0; i < BURST; i++) {
		if (nk_sem_take(&kick_sem, SAFETY_NS, NK_RELATIVE))
			return;
		kick_high_saw_target += kick_target_running;
		kick_taken++;
	}
}

static void kick_spinner(void *arg)
{
	(void)arg;
	kick_target_running = 1;
	while (kick_taken < BURST)
		nk_now(nk);
	kick_target_running = 0;
}

TEST(burst_of_wakes_preempts_each_time)
{
	live_create(10);
	kick_taken = kick_high_saw_target = kick_target_running = 0;
	run_kick_case(kick_high_loop, kick_waker, kick_spinner);
	CHECK_EQ(kick_taken, BURST);
	CHECK_EQ(kick_high_saw_target, BURST);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* --- scheduler lock --- */

static struct nk_sem lock_sem;

static void lock_waiter(void *arg)
{
	(void)arg;
	if (nk_sem_take(&lock_sem, SAFETY_NS, NK_RELATIVE) == 0)
		rec("H");
}

TEST(sched_lock_defers_wakeup_to_final_unlock)
{
	struct nk_thread *high;
	struct nk_sem other;

	live_create(10);
	CHECK_EQ(nk_sem_init(nk, &lock_sem, "lock_sem", 0, 0, 0), 0);
	CHECK_EQ(nk_sem_init(nk, &other, "other", 0, 0, 0), 0);
	high = spawn("H", 50, NK_THREAD_JOINABLE, lock_waiter, NULL);
	CHECK(nk_thread_state(high) & NK_THREAD_PENDING);
	CHECK_EQ(nk_sched_lock(nk), 0);
	CHECK_EQ(nk_sched_lock(nk), 0);
	CHECK_EQ(nk_sched_lock_depth(nk), 2);
	/* Blocking is refused while locked; a non-waiting take is not. */
	CHECK_EQ(nk_sem_take(&other, MS, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_thread_sleep(nk, MS, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_sem_take(&other, 0, NK_RELATIVE), -EWOULDBLOCK);
	CHECK_EQ(nk_sem_give(&lock_sem), 0);
	rec("given");
	CHECK(nk_thread_state(high) & NK_THREAD_READY);
	CHECK_EQ(nk_sched_unlock(nk), 0);
	rec("unlock1");
	CHECK_EQ(nk_sched_unlock(nk), 0);
	rec("unlock2");
	CHECK_EQ(nk_sched_lock_depth(nk), 0);
	CHECK_EQ(nk_sched_unlock(nk), -EPERM);
	CHECK_EQ(nk_thread_join(high), 0);
	CHECK_STR(log_buf, "given unlock1 H unlock2");
	CHECK_EQ(nk_sem_destroy(&other), 0);
	CHECK_EQ(nk_sem_destroy(&lock_sem), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* --- priority inheritance --- */

static struct nk_mutex pi_mutex;
static struct nk_thread *pi_high, *pi_mid;
static volatile int low_boosted_to, low_after_unlock;
static volatile int high_lock_ret = 1, high_owned;

static void pi_high_body(void *arg)
{
	(void)arg;
	rec("high-lock");
	high_lock_ret = nk_mutex_lock(&pi_mutex, SAFETY_NS, NK_RELATIVE);
	high_owned = nk_mutex_owner(&pi_mutex) == nk_thread_self(nk);
	rec("high-got");
	nk_mutex_unlock(&pi_mutex);
}

static void pi_low_body(void *arg)
{
	struct nk_thread *self = nk_thread_self(nk);

	(void)arg;
	if (nk_mutex_lock(&pi_mutex, SAFETY_NS, NK_RELATIVE))
		return;
	rec("low-locked");
	/* high preempts, blocks on the mutex and boosts us. */
	nk_thread_start(pi_high, pi_high_body, NULL);
	low_boosted_to = nk_thread_effective_priority(self);
	/* Below our boosted priority: mid waits. */
	nk_thread_start(pi_mid, rec_name, NULL);
	rec("low-unlock");
	nk_mutex_unlock(&pi_mutex);
	low_after_unlock = nk_thread_effective_priority(self);
	rec("low-end");
}

TEST(priority_inheritance_boosts_owner)
{
	struct nk_thread *low;

	live_create(5);
	high_lock_ret = 1;
	high_owned = 0;
	low_boosted_to = low_after_unlock = -1;
	CHECK_EQ(nk_mutex_init(nk, &pi_mutex, "pi", NK_SYNCH_PI, 0), 0);
	pi_high = make("high", 50, NK_THREAD_JOINABLE);
	pi_mid = make("mid", 30, NK_THREAD_JOINABLE);
	low = spawn("low", 10, NK_THREAD_JOINABLE, pi_low_body, NULL);
	CHECK_EQ(nk_thread_join(low), 0);
	CHECK_EQ(nk_thread_join(pi_high), 0);
	CHECK_EQ(nk_thread_join(pi_mid), 0);
	CHECK_STR(log_buf,
		  "low-locked high-lock low-unlock high-got mid low-end");
	CHECK_EQ(low_boosted_to, 50);
	CHECK_EQ(low_after_unlock, 10);
	CHECK_EQ(high_lock_ret, 0);
	CHECK_EQ(high_owned, 1);
	CHECK(nk_mutex_owner(&pi_mutex) == NULL);
	CHECK_EQ(nk_mutex_destroy(&pi_mutex), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* --- plain OS threads --- */

static struct nk_sem plain_sem;
static volatile int plain_self_null, plain_give, plain_take_timed,
    plain_take_now, plain_sleep, plain_periodic;
static volatile int rt_take_ret = 1;

static void rt_waiter(void *arg)
{
	(void)arg;
	rt_take_ret = nk_sem_take(&plain_sem, SAFETY_NS, NK_RELATIVE);
	rec("rt-woke");
}

static void *plain_body(void *arg)
{
	(void)arg;
	plain_self_null = nk_thread_self(nk) == NULL;
	rec("plain-give");
	plain_give = nk_sem_give(&plain_sem);
	plain_take_timed = nk_sem_take(&plain_sem, 10 * MS, NK_RELATIVE);
	plain_take_now = nk_sem_take(&plain_sem, 0, NK_RELATIVE);
	plain_sleep = nk_thread_sleep(nk, MS, NK_RELATIVE);
	plain_periodic = nk_thread_set_periodic(nk, NK_INFINITE, MS);
	return NULL;
}

TEST(plain_thread_gives_to_rt_thread)
{
	struct nk_thread *waiter;
	pthread_t plain;

	live_create(10);
	rt_take_ret = 1;
	CHECK_EQ(nk_sem_init(nk, &plain_sem, "plain", 0, 0, 0), 0);
	waiter = spawn("waiter", 50, NK_THREAD_JOINABLE, rt_waiter, NULL);
	CHECK(nk_thread_state(waiter) & NK_THREAD_PENDING);
	CHECK_EQ(pthread_create(&plain, NULL, plain_body, NULL), 0);
	CHECK_EQ(nk_thread_join(waiter), 0);
	CHECK_EQ(pthread_join(plain, NULL), 0);
	CHECK_STR(log_buf, "plain-give rt-woke");
	CHECK_EQ(rt_take_ret, 0);
	CHECK_EQ(plain_self_null, 1);
	CHECK_EQ(plain_give, 0);
	CHECK_EQ(plain_take_timed, -EPERM);
	CHECK_EQ(plain_take_now, -EWOULDBLOCK);
	CHECK_EQ(plain_sleep, -EPERM);
	CHECK_EQ(plain_periodic, -EPERM);
	CHECK_EQ(nk_sem_destroy(&plain_sem), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static struct nk_sem shadow_ready, shadow_go;
static struct nk_thread *volatile shadow_thread;
static volatile int shadow_ret = 1, shadow_again, shadow_self_ok,
		    shadow_take_ret = 1, shadow_exit_returned;

static void *shadow_body(void *arg)
{
	struct nk_thread_attr attr = {.name = "shadow", .priority = 20};
	struct nk_thread *thread, *again;

	(void)arg;
	shadow_ret = nk_thread_shadow(nk, &attr, &thread);
	if (shadow_ret)
		return NULL;
	shadow_thread = thread;
	shadow_self_ok = nk_thread_self(nk) == thread;
	shadow_again = nk_thread_shadow(nk, &attr, &again);
	rec("shadow-up");
	nk_sem_give(&shadow_ready);
	shadow_take_ret = nk_sem_take(&shadow_go, SAFETY_NS, NK_RELATIVE);
	rec("shadow-woke");
	nk_thread_exit(nk);
	shadow_exit_returned = 1;
	return NULL;
}

TEST(shadow_plain_thread_blocks_and_exits)
{
	struct nk_thread_attr attr = {.name = "x", .priority = 20};
	struct nk_thread *dummy;
	pthread_t plain;

	live_create(10);
	shadow_thread = NULL;
	shadow_ret = shadow_take_ret = 1;
	shadow_again = shadow_self_ok = shadow_exit_returned = 0;
	CHECK_EQ(nk_sem_init(nk, &shadow_ready, "ready", 0, 0, 0), 0);
	CHECK_EQ(nk_sem_init(nk, &shadow_go, "go", 0, 0, 0), 0);
	/* main is a nucleus thread already. */
	CHECK_EQ(nk_thread_shadow(nk, &attr, &dummy), -EBUSY);
	CHECK_EQ(pthread_create(&plain, NULL, shadow_body, NULL), 0);
	CHECK_EQ(nk_sem_take(&shadow_ready, SAFETY_NS, NK_RELATIVE), 0);
	CHECK_EQ(shadow_ret, 0);
	CHECK(shadow_thread != NULL);
	CHECK_STR(nk_thread_name(shadow_thread), "shadow");
	CHECK(nk_thread_state(shadow_thread) & NK_THREAD_PENDING);
	rec("main-give");
	CHECK_EQ(nk_sem_give(&shadow_go), 0);
	CHECK_EQ(pthread_join(plain, NULL), 0);
	rec("joined");
	CHECK_STR(log_buf, "shadow-up main-give shadow-woke joined");
	CHECK_EQ(shadow_self_ok, 1);
	CHECK_EQ(shadow_again, -EBUSY);
	CHECK_EQ(shadow_take_ret, 0);
	CHECK_EQ(shadow_exit_returned, 0);
	CHECK_EQ(nk_sem_destroy(&shadow_ready), 0);
	CHECK_EQ(nk_sem_destroy(&shadow_go), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* --- timers and periodic threads --- */

#define TIMER_SHOTS 25

static struct nk_sem tick_sem;
static volatile int handler_calls, handler_self_null;

static void tick_handler(struct nk_timer *timer)
{
	handler_calls++;
	/* Interrupt context: no current thread. */
	if (nk_thread_self(nk) == NULL)
		handler_self_null++;
	nk_sem_give(&tick_sem);
	if (handler_calls == TIMER_SHOTS)
		nk_timer_stop_locked(timer);
}

TEST(periodic_timer_wakes_thread_exactly)
{
	struct nk_timer timer;
	unsigned long count;
	int takes = 0;

	live_create(10);
	handler_calls = handler_self_null = 0;
	CHECK_EQ(nk_sem_init(nk, &tick_sem, "tick", 0, 0, 0), 0);
	CHECK_EQ(nk_timer_init(nk, &timer, "tick", 0, tick_handler, NULL), 0);
	CHECK_EQ(nk_timer_start(&timer, MS, MS, NK_RELATIVE), 0);
	while (takes < TIMER_SHOTS &&
	       nk_sem_take(&tick_sem, SAFETY_NS, NK_RELATIVE) == 0)
		takes++;
	CHECK_EQ(takes, TIMER_SHOTS);
	/* The handler stopped the timer: nothing more comes. */
	CHECK_EQ(nk_sem_take(&tick_sem, 30 * MS, NK_RELATIVE), -ETIMEDOUT);
	CHECK_EQ(handler_calls, TIMER_SHOTS);
	CHECK_EQ(handler_self_null, TIMER_SHOTS);
	CHECK_EQ(timer.fired, TIMER_SHOTS);
	CHECK_EQ(nk_timer_date(&timer), NK_INFINITE);
	CHECK_EQ(nk_sem_count(&tick_sem, &count), 0);
	CHECK_EQ(count, 0);
	CHECK_EQ(nk_timer_destroy(&timer), 0);
	CHECK_EQ(nk_sem_destroy(&tick_sem), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

#define PERIODS 20

static volatile int period_calls, period_ok, period_late, period_bad,
    period_inconsistent, period_before, period_after_stop;
static volatile unsigned long period_overruns;

static void periodic_body(void *arg)
{
	(void)arg;
	period_before = nk_thread_wait_period(nk, NULL);
	if (nk_thread_set_periodic(nk, NK_INFINITE, MS))
		return;
	for (int i = 0; i < PERIODS; i++) {
		unsigned long overruns = 0;
		int ret = nk_thread_wait_period(nk, &overruns);

		period_calls++;
		if (ret == 0)
			period_ok++;
		else if (ret == -ETIMEDOUT)
			period_late++;
		else
			period_bad++;
		/* -ETIMEDOUT exactly when release points were missed. */
		if ((ret == -ETIMEDOUT) != (overruns > 0))
			period_inconsistent++;
		period_overruns += overruns;
	}
	nk_thread_set_periodic(nk, 0, 0);
	period_after_stop = nk_thread_wait_period(nk, NULL);
}

TEST(periodic_thread_twenty_periods)
{
	struct nk_thread *thread;

	live_create(10);
	period_calls = period_ok = period_late = period_bad = 0;
	period_inconsistent = period_before = period_after_stop = 0;
	period_overruns = 0;
	thread = spawn("periodic", 50, NK_THREAD_JOINABLE, periodic_body, NULL);
	CHECK_EQ(nk_thread_join(thread), 0);
	CHECK_EQ(period_before, -EWOULDBLOCK);
	CHECK_EQ(period_calls, PERIODS);
	CHECK_EQ(period_ok + period_late, PERIODS);
	CHECK_EQ(period_bad, 0);
	CHECK_EQ(period_inconsistent, 0);
	/* Each late call reports at least one missed release point. */
	CHECK(period_overruns >= (unsigned long)period_late);
	CHECK_EQ(period_after_stop, -EWOULDBLOCK);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* --- deletion --- */

static struct nk_sem del_sem;
static struct nk_mutex del_mutex;
static volatile int owner_lock_ret = 1, waiter_lock_ret = 1, waiter_owned,
		    waiter_unlock_ret = 1;

static void del_take(void *arg)
{
	int ret = nk_sem_take(&del_sem, NK_INFINITE, NK_RELATIVE);

	(void)arg;
	rec(ret ? "take-failed" : "take-returned");
}

static void del_sleep(void *arg)
{
	int ret = nk_thread_sleep(nk, NK_INFINITE, NK_RELATIVE);

	(void)arg;
	rec(ret ? "sleep-failed" : "sleep-returned");
}

static void del_owner(void *arg)
{
	(void)arg;
	owner_lock_ret = nk_mutex_lock(&del_mutex, SAFETY_NS, NK_RELATIVE);
	rec("owner-locked");
	rec(nk_sem_take(&del_sem, NK_INFINITE, NK_RELATIVE) ? "owner-failed"
							    : "owner-returned");
}

static void del_waiter(void *arg)
{
	(void)arg;
	rec("waiter-lock");
	waiter_lock_ret = nk_mutex_lock(&del_mutex, SAFETY_NS, NK_RELATIVE);
	waiter_owned = nk_mutex_owner(&del_mutex) == nk_thread_self(nk);
	rec("waiter-got");
	waiter_unlock_ret = nk_mutex_unlock(&del_mutex);
}

TEST(delete_blocked_threads)
{
	struct nk_thread *taker, *sleeper, *owner, *waiter;
	unsigned long count;

	live_create(5);
	owner_lock_ret = waiter_lock_ret = waiter_unlock_ret = 1;
	waiter_owned = 0;
	CHECK_EQ(nk_sem_init(nk, &del_sem, "del", 0, 0, 0), 0);
	CHECK_EQ(nk_mutex_init(nk, &del_mutex, "delm", NK_SYNCH_PI, 0), 0);

	taker = spawn("taker", 20, NK_THREAD_JOINABLE, del_take, NULL);
	CHECK(nk_thread_state(taker) & NK_THREAD_PENDING);
	CHECK_EQ(nk_thread_delete(taker), 0);
	CHECK(nk_thread_state(taker) & NK_THREAD_ZOMBIE);
	CHECK_EQ(nk_thread_delete(taker), -ESRCH);
	CHECK_EQ(nk_thread_join(taker), 0);
	/* Its wait was cancelled: a give now goes to the count. */
	CHECK_EQ(nk_sem_give(&del_sem), 0);
	CHECK_EQ(nk_sem_count(&del_sem, &count), 0);
	CHECK_EQ(count, 1);
	CHECK_EQ(nk_sem_take(&del_sem, 0, NK_RELATIVE), 0);

	sleeper = spawn("sleeper", 20, NK_THREAD_JOINABLE, del_sleep, NULL);
	CHECK(nk_thread_state(sleeper) & NK_THREAD_DELAYED);
	CHECK_EQ(nk_thread_delete(sleeper), 0);
	CHECK_EQ(nk_thread_join(sleeper), 0);

	owner = spawn("owner", 20, NK_THREAD_JOINABLE, del_owner, NULL);
	waiter = spawn("waiter", 40, NK_THREAD_JOINABLE, del_waiter, NULL);
	CHECK(nk_mutex_owner(&del_mutex) == owner);
	CHECK(nk_thread_state(waiter) & NK_THREAD_PENDING);
	CHECK_EQ(nk_thread_effective_priority(owner), 40);
	rec("delete-owner");
	/* The waiter inherits the mutex and preempts main at once. */
	CHECK_EQ(nk_thread_delete(owner), 0);
	rec("deleted");
	CHECK_EQ(nk_thread_join(owner), 0);
	CHECK_EQ(nk_thread_join(waiter), 0);
	CHECK_STR(log_buf, "owner-locked waiter-lock delete-owner waiter-got "
			   "deleted");
	CHECK_EQ(owner_lock_ret, 0);
	CHECK_EQ(waiter_lock_ret, -EOWNERDEAD);
	CHECK_EQ(waiter_owned, 1);
	CHECK_EQ(waiter_unlock_ret, 0);
	CHECK(nk_mutex_owner(&del_mutex) == NULL);
	CHECK_EQ(nk_mutex_destroy(&del_mutex), 0);
	CHECK_EQ(nk_sem_destroy(&del_sem), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* --- teardown --- */

static struct nk_sem down_sem;
static struct nk_mutex down_mutex;

static void down_take(void *arg)
{
	(void)arg;
	if (nk_sem_take(&down_sem, NK_INFINITE, NK_RELATIVE) == 0)
		rec("take-returned");
}

static void down_sleep(void *arg)
{
	(void)arg;
	if (nk_thread_sleep(nk, NK_INFINITE, NK_RELATIVE) == 0)
		rec("sleep-returned");
}

static void down_owner(void *arg)
{
	(void)arg;
	if (nk_mutex_lock(&down_mutex, SAFETY_NS, NK_RELATIVE) == 0 &&
	    nk_thread_sleep(nk, NK_INFINITE, NK_RELATIVE) == 0)
		rec("owner-returned");
}

static void down_lock(void *arg)
{
	(void)arg;
	if (nk_mutex_lock(&down_mutex, NK_INFINITE, NK_RELATIVE) == 0)
		rec("lock-returned");
}

static void down_suspend(void *arg)
{
	(void)arg;
	nk_thread_suspend(nk_thread_self(nk));
	rec("resumed");
}

/* A short life in an instance: one thread runs and is joined. */
static void instance_round(int main_priority)
{
	struct nk_thread *thread;

	live_create(main_priority);
	thread = spawn("round", main_priority + 1, NK_THREAD_JOINABLE, rec_name,
		       NULL);
	CHECK_EQ(nk_thread_join(thread), 0);
	CHECK_STR(log_buf, "round");
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(destroy_with_twenty_blocked_threads)
{
	struct nk_thread *t, *late[2];
	char name[16];
	int before = os_thread_baseline();

	live_create(5);
	CHECK_EQ(nk_sem_init(nk, &down_sem, "down", 0, 0, 0), 0);
	CHECK_EQ(nk_mutex_init(nk, &down_mutex, "downm", NK_SYNCH_PI, 0), 0);
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "sem%d", i);
		t = spawn(name, 20, i % 2 ? NK_THREAD_JOINABLE : 0, down_take,
			  NULL);
		CHECK(nk_thread_state(t) & NK_THREAD_PENDING);
	}
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "sleep%d", i);
		t = spawn(name, 20, i % 2 ? NK_THREAD_JOINABLE : 0, down_sleep,
			  NULL);
		CHECK(nk_thread_state(t) & NK_THREAD_DELAYED);
	}
	t = spawn("owner", 20, 0, down_owner, NULL);
	CHECK(nk_mutex_owner(&down_mutex) == t);
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "mutex%d", i);
		CHECK(nk_thread_state(spawn(name, 30 + i, NK_THREAD_JOINABLE,
					    down_lock, NULL)) &
		      NK_THREAD_PENDING);
	}
	/* Two suspend themselves, two never run (less urgent than main). */
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "susp%d", i);
		t = spawn(name, 20, NK_THREAD_JOINABLE, down_suspend, NULL);
		CHECK(nk_thread_state(t) & NK_THREAD_SUSPENDED);
		snprintf(name, sizeof(name), "late%d", i);
		late[i] = spawn(name, 1, i ? NK_THREAD_JOINABLE : 0,
				down_suspend, NULL);
		CHECK_EQ(nk_thread_suspend(late[i]), 0);
		CHECK_EQ(nk_thread_state(late[i]), NK_THREAD_SUSPENDED);
	}
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "dormant%d", i);
		t = make(name, 50, i % 2 ? NK_THREAD_JOINABLE : 0);
		CHECK_EQ(nk_thread_state(t), NK_THREAD_DORMANT);
	}
	CHECK_EQ(nk_instance_destroy(nk), 0);
	/* Nobody ran past its wait. */
	CHECK_STR(log_buf, "");
	CHECK_EQ(os_thread_count_settled(before), before);
	/* The process carries on: a new instance works. */
	instance_round(10);
	CHECK_EQ(os_thread_count_settled(before), before);
}

TEST(instances_in_sequence_leak_no_threads)
{
	int before = os_thread_baseline();

	for (int i = 0; i < 50; i++) {
		instance_round(10);
		instance_round(100);
	}
	CHECK_EQ(os_thread_count_settled(before), before);
}

/* --- shadows ended by others --- */

static struct nk_sem blocked_ready, blocked_sem;
static struct nk_thread *volatile blocked_thread;

/* A plain OS thread that shadows itself and blocks forever. */
static void *blocked_shadow(void *arg)
{
	struct nk_thread_attr attr = {.name = "blocked", .priority = 20};
	struct nk_thread *thread;

	(void)arg;
	if (nk_thread_shadow(nk, &attr, &thread))
		return NULL;
	blocked_thread = thread;
	nk_sem_give(&blocked_ready);
	rec(nk_sem_take(&blocked_sem, NK_INFINITE, NK_RELATIVE)
		? "shadow-failed"
		: "shadow-returned");
	return NULL;
}

static pthread_t start_blocked_shadow(void)
{
	pthread_t plain;

	blocked_thread = NULL;
	CHECK_EQ(nk_sem_init(nk, &blocked_ready, "ready", 0, 0, 0), 0);
	CHECK_EQ(nk_sem_init(nk, &blocked_sem, "blocked", 0, 0, 0), 0);
	CHECK_EQ(pthread_create(&plain, NULL, blocked_shadow, NULL), 0);
	CHECK_EQ(nk_sem_take(&blocked_ready, SAFETY_NS, NK_RELATIVE), 0);
	CHECK(blocked_thread != NULL);
	CHECK(nk_thread_state(blocked_thread) & NK_THREAD_PENDING);
	return plain;
}

/* Destroying the instance ends the shadowed OS thread too. */
TEST(destroy_ends_blocked_shadow)
{
	pthread_t plain;

	live_create(5);
	plain = start_blocked_shadow();
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(pthread_join(plain, NULL), 0);
	CHECK_STR(log_buf, "");
	instance_round(10);
}

/* Deleting a blocked shadow ends its OS thread; it is reaped later. */
TEST(delete_blocked_shadow)
{
	struct nk_thread *next;
	pthread_t plain;

	live_create(5);
	plain = start_blocked_shadow();
	CHECK_EQ(nk_thread_delete(blocked_thread), 0);
	CHECK_EQ(pthread_join(plain, NULL), 0);
	/* Creating a thread reaps the deleted shadow. */
	next = spawn("next", 20, NK_THREAD_JOINABLE, rec_name, NULL);
	CHECK_EQ(nk_thread_join(next), 0);
	CHECK_STR(log_buf, "next");
	CHECK_EQ(nk_sem_destroy(&blocked_sem), 0);
	CHECK_EQ(nk_sem_destroy(&blocked_ready), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/*
 * An exiting shadow must not touch its backend state once another
 * thread may reap it: here main reaps (nk_thread_create reaps exited
 * threads) as soon as the shadow's exit hands the CPU back, while the
 * shadow's OS thread may still be on its way out.  Sanitizer builds see
 * any access after the reap.
 */
#define REAP_ROUNDS 300

static struct nk_sem reap_sem;
static volatile int reap_errors;

static void nop(void *arg)
{
	(void)arg;
}

static volatile int shadow_exits;

static void count_exit(struct nk_thread *thread, void *ext)
{
	(void)thread;
	(void)ext;
	shadow_exits++;
}

static const struct nk_personality counter = {
    .name = "counter",
    .exit = count_exit,
};

enum shadow_end { BY_EXIT_CALL, BY_RETURN };

/* Ends as @arg says: nk_thread_exit, or its OS thread just returns. */
static void *exiting_shadow(void *arg)
{
	struct nk_thread_attr attr = {.name = "exiting", .priority = 20};
	struct nk_thread *thread;

	if (nk_thread_shadow(nk, &attr, &thread) ||
	    nk_thread_attach(thread, &counter, NULL)) {
		reap_errors++;
		return NULL;
	}
	nk_sem_give(&reap_sem);
	if ((enum shadow_end)(long)arg == BY_RETURN)
		return NULL;
	nk_thread_exit(nk);
	reap_errors++;
	return NULL;
}

/* Shadows end by @how, one after the other, each reaped at once. */
static void reap_rounds(enum shadow_end how)
{
	live_create(10);
	reap_errors = 0;
	shadow_exits = 0;
	CHECK_EQ(nk_personality_register(nk, &counter, NULL), 0);
	CHECK_EQ(nk_sem_init(nk, &reap_sem, "reap", 0, 0, 0), 0);
	for (int i = 0; i < REAP_ROUNDS; i++) {
		struct nk_thread *next;
		pthread_t plain;

		CHECK_EQ(pthread_create(&plain, NULL, exiting_shadow,
					(void *)(long)how),
			 0);
		CHECK_EQ(nk_sem_take(&reap_sem, SAFETY_NS, NK_RELATIVE), 0);
		next = make("next", 5, NK_THREAD_JOINABLE);
		CHECK_EQ(nk_thread_start(next, nop, NULL), 0);
		CHECK_EQ(nk_thread_join(next), 0);
		CHECK_EQ(pthread_join(plain, NULL), 0);
	}
	CHECK_EQ(reap_errors, 0);
	CHECK_EQ(shadow_exits, REAP_ROUNDS);
	CHECK_EQ(nk_sem_destroy(&reap_sem), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(shadow_exit_then_immediate_reap)
{
	reap_rounds(BY_EXIT_CALL);
}

/*
 * The OS thread of a shadow returns without nk_thread_exit: the backend
 * notices, and the nucleus ends the thread as if it had called it.
 */
TEST(shadow_return_then_immediate_reap)
{
	reap_rounds(BY_RETURN);
}

TESTS(T(start_preempts_then_descending_order), T(fifo_within_a_level),
      T(yield_rotates_a_level), T(semaphore_ping_pong_alternates),
      T(timer_woken_thread_preempts_busy_loop), T(kick_storm_queues_one_signal),
      T(burst_of_wakes_preempts_each_time),
      T(sched_lock_defers_wakeup_to_final_unlock),
      T(priority_inheritance_boosts_owner), T(plain_thread_gives_to_rt_thread),
      T(shadow_plain_thread_blocks_and_exits),
      T(periodic_timer_wakes_thread_exactly), T(periodic_thread_twenty_periods),
      T(delete_blocked_threads), T(destroy_with_twenty_blocked_threads),
      T(instances_in_sequence_leak_no_threads), T(destroy_ends_blocked_shadow),
      T(shadow_return_then_immediate_reap), T(delete_blocked_shadow),
      T(shadow_exit_then_immediate_reap));
