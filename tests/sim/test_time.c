/* SPDX-License-Identifier: MIT */
/*
 * Time on the sim backend, asserted to the virtual nanosecond: sleeps,
 * timeouts of semaphores and mutexes, periodic threads and their
 * overruns, nucleus timers (dates, periods, ordering, re-arming,
 * stopping, handlers that act on timers and threads), tick time bases,
 * the wall clock and CPU-time consumption.
 *
 * Thread bodies and timer handlers append "<who>@<ns>" to the event log;
 * most tests compare that log with the exact expected string.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define US 1000LL
#define MS 1000000LL
#define SEC 1000000000LL

#define EVENTS_SIZE 4096

static struct nk_instance *nk;
static char events[EVENTS_SIZE];
static size_t events_len;

/* Append "<who>@<now>", space separated; timer handlers call it too. */
static void event(const char *who)
{
	int n =
	    snprintf(events + events_len, EVENTS_SIZE - events_len, "%s%s@%lld",
		     events_len ? " " : "", who, (long long)nk_now(nk));

	if (n > 0 && (size_t)n < EVENTS_SIZE - events_len)
		events_len += (size_t)n;
}

static void start_sim(int nr_cpus, int main_prio)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .nr_cpus = nr_cpus,
	    .main_priority = main_prio,
	};

	events[0] = '\0';
	events_len = 0;
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_now(nk), 0);
}

static void stop_sim(void)
{
	CHECK_EQ(nk_instance_destroy(nk), 0);
	nk = NULL;
}

static struct nk_thread *spawn(const char *name, int prio, nk_thread_fn fn,
			       void *arg)
{
	struct nk_thread_attr attr = {
	    .name = name,
	    .priority = prio,
	    .flags = NK_THREAD_JOINABLE,
	};
	struct nk_thread *thread = NULL;

	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	CHECK_EQ(nk_thread_start(thread, fn, arg), 0);
	return thread;
}

static void join(struct nk_thread *thread)
{
	CHECK_EQ(nk_thread_join(thread), 0);
}

/* Sleep per @mode and check the wake date is exactly @expect. */
static void sleep_to(nk_time_t timeout, enum nk_tmode mode, nk_time_t expect)
{
	CHECK_EQ(nk_thread_sleep(nk, timeout, mode), NK_WAKE_OK);
	CHECK_EQ(nk_now(nk), expect);
}

static void sleep_until(nk_time_t date)
{
	sleep_to(date, NK_ABSOLUTE, date);
}

static void consume(nk_time_t ns)
{
	nk_time_t before = nk_now(nk);

	CHECK_EQ(nk_consume(nk, ns), 0);
	CHECK_EQ(nk_now(nk), before + ns);
}

/* --- sleeps --- */

TEST(sleep_wakes_at_exact_date)
{
	static const struct {
		nk_time_t timeout;
		enum nk_tmode mode;
		nk_time_t expect;
	} steps[] = {
	    {1, NK_RELATIVE, 1},
	    {SEC, NK_RELATIVE, SEC + 1},
	    {2 * SEC, NK_ABSOLUTE, 2 * SEC},
	    {2 * SEC + 1, NK_ABSOLUTE, 2 * SEC + 1},
	    {1000000 * SEC, NK_ABSOLUTE, 1000000 * SEC},
	    {1000000 * SEC, NK_RELATIVE, 2000000 * SEC},
	    {1, NK_RELATIVE, 2000000 * SEC + 1},
	    /* The latest finite date is reachable too. */
	    {NK_INFINITE - 1, NK_ABSOLUTE, NK_INFINITE - 1},
	};

	start_sim(1, 10);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		sleep_to(steps[i].timeout, steps[i].mode, steps[i].expect);
	stop_sim();
}

static void peer_body(void *arg)
{
	(void)arg;
	event("peer");
}

TEST(sleep_expired_returns_at_once)
{
	struct nk_thread *peer;

	start_sim(1, 10);
	/* An equal-priority ready peer would run if the sleeps blocked. */
	peer = spawn("peer", 10, peer_body, NULL);
	sleep_to(0, NK_RELATIVE, 0);
	sleep_to(-1, NK_RELATIVE, 0);
	sleep_to(INT64_MIN, NK_RELATIVE, 0);
	sleep_to(0, NK_ABSOLUTE, 0);
	sleep_to(-5, NK_ABSOLUTE, 0);
	CHECK_STR(events, "");
	sleep_until(1000);
	CHECK_STR(events, "peer@0");
	sleep_to(999, NK_ABSOLUTE, 1000);
	sleep_to(1000, NK_ABSOLUTE, 1000);
	sleep_to(-1000, NK_RELATIVE, 1000);
	join(peer);
	CHECK_EQ(nk_now(nk), 1000);
	stop_sim();
}

struct sleeper {
	const char *name;
	nk_time_t timeout;
	enum nk_tmode mode;
};

static void sleeper_body(void *arg)
{
	const struct sleeper *s = arg;

	CHECK_EQ(nk_thread_sleep(nk, s->timeout, s->mode), NK_WAKE_OK);
	event(s->name);
}

TEST(sleepers_wake_in_date_order)
{
	static const struct sleeper sleepers[] = {
	    {"s0", 500, NK_RELATIVE}, {"s1", 100, NK_ABSOLUTE},
	    {"s2", 300, NK_RELATIVE}, {"s3", 100, NK_RELATIVE},
	    {"s4", 200, NK_ABSOLUTE}, {"s5", 100, NK_ABSOLUTE},
	};
	struct nk_thread *threads[6];

	start_sim(1, 10);
	for (size_t i = 0; i < 6; i++)
		threads[i] = spawn(sleepers[i].name, 20, sleeper_body,
				   (void *)&sleepers[i]);
	for (size_t i = 0; i < 6; i++)
		join(threads[i]);
	CHECK_STR(events, "s1@100 s3@100 s5@100 s4@200 s2@300 s0@500");
	CHECK_EQ(nk_now(nk), 500);
	stop_sim();
}

TEST(sleepers_equal_dates_from_different_times)
{
	/* Same wake date, but they go to sleep at 0, 100 and 200. */
	static const struct sleeper late = {"late", 700, NK_RELATIVE};
	static const struct sleeper early = {"early", 900, NK_ABSOLUTE};
	static const struct sleeper mid = {"mid", 800, NK_RELATIVE};
	struct nk_thread *a, *b, *c;

	start_sim(1, 10);
	a = spawn("early", 20, sleeper_body, (void *)&early);
	sleep_until(100);
	b = spawn("mid", 20, sleeper_body, (void *)&mid);
	sleep_until(200);
	c = spawn("late", 20, sleeper_body, (void *)&late);
	join(a);
	join(b);
	join(c);
	CHECK_STR(events, "early@900 mid@900 late@900");
	stop_sim();
}

/* --- semaphore and mutex timeouts --- */

/* A peer thread acting on @obj (a semaphore or a mutex) at date @at. */
struct timed_peer {
	void *obj;
	nk_time_t at;
};

/* Sleep to @at exactly, then log @what. */
static void wake_and_note(nk_time_t at, const char *what)
{
	CHECK_EQ(nk_thread_sleep(nk, at, NK_ABSOLUTE), NK_WAKE_OK);
	event(what);
}

static void giver_body(void *arg)
{
	const struct timed_peer *g = arg;

	wake_and_note(g->at, "give");
	CHECK_EQ(nk_sem_give(g->obj), 0);
}

/* Take @sem with a timeout while a thread gives it at @give_at. */
static void take_given_at(struct nk_sem *sem, nk_time_t give_at,
			  nk_time_t timeout, enum nk_tmode mode)
{
	struct timed_peer g = {sem, give_at};
	struct nk_thread *thread = spawn("giver", 20, giver_body, &g);
	unsigned long count = 99;

	CHECK_EQ(nk_sem_take(sem, timeout, mode), NK_WAKE_OK);
	CHECK_EQ(nk_now(nk), give_at);
	join(thread);
	/* The unit went to the waiter, not to the count. */
	CHECK_EQ(nk_sem_count(sem, &count), 0);
	CHECK_EQ(count, 0);
}

static void take_times_out(struct nk_sem *sem, nk_time_t timeout,
			   enum nk_tmode mode, nk_time_t expect)
{
	CHECK_EQ(nk_sem_take(sem, timeout, mode), NK_WAKE_TIMEOUT);
	CHECK_EQ(nk_now(nk), expect);
}

TEST(sem_take_times_out_at_exact_date)
{
	struct nk_sem sem;
	unsigned long count = 99;

	start_sim(1, 10);
	CHECK_EQ(nk_sem_init(nk, &sem, "sem", 0, 0, NK_SYNCH_FIFO), 0);
	CHECK_EQ(NK_WAKE_TIMEOUT, -ETIMEDOUT);
	take_times_out(&sem, 1000, NK_RELATIVE, 1000);
	take_times_out(&sem, 5000, NK_ABSOLUTE, 5000);
	take_times_out(&sem, 1, NK_RELATIVE, 5001);
	take_times_out(&sem, 3 * SEC, NK_RELATIVE, 3 * SEC + 5001);
	CHECK_EQ(nk_sem_count(&sem, &count), 0);
	CHECK_EQ(count, 0);
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	stop_sim();
}

TEST(sem_give_just_before_deadline)
{
	struct nk_sem sem;

	start_sim(1, 10);
	CHECK_EQ(nk_sem_init(nk, &sem, "sem", 0, 0, NK_SYNCH_FIFO), 0);
	take_given_at(&sem, 4999, 5000, NK_ABSOLUTE);
	take_given_at(&sem, 5998, 1000, NK_RELATIVE);
	CHECK_STR(events, "give@4999 give@5998");
	/* With nobody giving, the same wait ends at its deadline. */
	take_times_out(&sem, 1000, NK_RELATIVE, 6998);
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	stop_sim();
}

TEST(sem_take_expired_timeouts_do_not_block)
{
	struct nk_sem sem;
	struct nk_thread *peer;

	start_sim(1, 10);
	CHECK_EQ(nk_sem_init(nk, &sem, "sem", 0, 0, NK_SYNCH_FIFO), 0);
	sleep_until(700);
	peer = spawn("peer", 10, peer_body, NULL);
	CHECK_EQ(nk_sem_take(&sem, 0, NK_RELATIVE), -EWOULDBLOCK);
	take_times_out(&sem, -1, NK_RELATIVE, 700);
	take_times_out(&sem, 500, NK_ABSOLUTE, 700);
	take_times_out(&sem, 700, NK_ABSOLUTE, 700);
	take_times_out(&sem, 0, NK_ABSOLUTE, 700);
	CHECK_STR(events, "");
	/* An available unit is taken whatever the timeout says. */
	CHECK_EQ(nk_sem_give(&sem), 0);
	CHECK_EQ(nk_sem_take(&sem, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_sem_give(&sem), 0);
	CHECK_EQ(nk_sem_take(&sem, 1, NK_ABSOLUTE), 0);
	CHECK_EQ(nk_now(nk), 700);
	CHECK_STR(events, "");
	join(peer);
	CHECK_STR(events, "peer@700");
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	stop_sim();
}

/* Holds the mutex from its start until it unlocks it at h->at. */
static void holder_body(void *arg)
{
	const struct timed_peer *h = arg;

	CHECK_EQ(nk_mutex_lock(h->obj, NK_INFINITE, NK_RELATIVE), 0);
	wake_and_note(h->at, "unlock");
	CHECK_EQ(nk_mutex_unlock(h->obj), 0);
}

static void lock_fails(struct nk_mutex *mutex, nk_time_t timeout,
		       enum nk_tmode mode, int expect_ret, nk_time_t expect_now)
{
	CHECK_EQ(nk_mutex_lock(mutex, timeout, mode), expect_ret);
	CHECK_EQ(nk_now(nk), expect_now);
}

TEST(mutex_lock_timeouts)
{
	struct nk_mutex mutex;
	struct timed_peer h = {&mutex, 4999};
	struct nk_thread *holder;

	start_sim(1, 10);
	CHECK_EQ(nk_mutex_init(nk, &mutex, "mutex", NK_SYNCH_PI, 0), 0);
	holder = spawn("holder", 20, holder_body, &h);
	lock_fails(&mutex, 1000, NK_RELATIVE, NK_WAKE_TIMEOUT, 1000);
	lock_fails(&mutex, 3000, NK_ABSOLUTE, NK_WAKE_TIMEOUT, 3000);
	lock_fails(&mutex, 0, NK_RELATIVE, -EWOULDBLOCK, 3000);
	lock_fails(&mutex, -1, NK_RELATIVE, NK_WAKE_TIMEOUT, 3000);
	lock_fails(&mutex, 2000, NK_ABSOLUTE, NK_WAKE_TIMEOUT, 3000);
	lock_fails(&mutex, 3000, NK_ABSOLUTE, NK_WAKE_TIMEOUT, 3000);
	CHECK(nk_mutex_owner(&mutex) == holder);
	/* Released one ns before the deadline: acquired at that date. */
	CHECK_EQ(nk_mutex_lock(&mutex, 5000, NK_ABSOLUTE), 0);
	CHECK_EQ(nk_now(nk), 4999);
	CHECK(nk_mutex_owner(&mutex) == nk_thread_self(nk));
	CHECK_EQ(nk_mutex_unlock(&mutex), 0);
	join(holder);
	CHECK_STR(events, "unlock@4999");
	CHECK_EQ(nk_mutex_destroy(&mutex), 0);
	stop_sim();
}

/* --- periodic threads --- */

/* One nk_thread_wait_period() with its exact outcome. */
static void wait_release(int expect_ret, unsigned long expect_overruns,
			 nk_time_t expect_now)
{
	unsigned long overruns = 12345;

	CHECK_EQ(nk_thread_wait_period(nk, &overruns), expect_ret);
	CHECK_EQ(overruns, expect_overruns);
	CHECK_EQ(nk_now(nk), expect_now);
}

TEST(periodic_releases_on_grid)
{
	start_sim(1, 10);
	CHECK_EQ(nk_thread_set_periodic(nk, 1000, 250), 0);
	for (nk_time_t k = 0; k < 8; k++)
		wait_release(NK_WAKE_OK, 0, 1000 + k * 250);
	/* Work inside a period does not shift the grid. */
	consume(100);
	wait_release(NK_WAKE_OK, 0, 3000);
	consume(249);
	wait_release(NK_WAKE_OK, 0, 3250);
	CHECK_EQ(nk_thread_wait_period(nk, NULL), NK_WAKE_OK);
	CHECK_EQ(nk_now(nk), 3500);
	stop_sim();
}

/* Burn @work ns (none if 0), then wait for the next release. */
struct period_step {
	nk_time_t work;
	int ret;
	unsigned long overruns;
	nk_time_t now;
};

/* A 1000 ns period released from 1000, through @n steps. */
static void run_period_steps(const struct period_step *steps, size_t n)
{
	start_sim(1, 10);
	CHECK_EQ(nk_thread_set_periodic(nk, 1000, 1000), 0);
	for (size_t i = 0; i < n; i++) {
		if (steps[i].work)
			consume(steps[i].work);
		wait_release(steps[i].ret, steps[i].overruns, steps[i].now);
	}
	stop_sim();
}

TEST(periodic_overruns_counted_exactly)
{
	static const struct period_step steps[] = {
	    {0, NK_WAKE_OK, 0, 1000},
	    /*
	     * 2.5 periods of work from the release at 1000: the release at
	     * 2000 is this call's (late), the one at 3000 is missed.
	     */
	    {2500, -ETIMEDOUT, 1, 3500},
	    {0, NK_WAKE_OK, 0, 4000},
	    /* 3.5 periods: 5000 is this call's, 6000 and 7000 are missed. */
	    {3500, -ETIMEDOUT, 2, 7500},
	    {0, NK_WAKE_OK, 0, 8000},
	    {0, NK_WAKE_OK, 0, 9000},
	};

	run_period_steps(steps, sizeof(steps) / sizeof(steps[0]));
}

TEST(periodic_exact_period_is_no_overrun)
{
	static const struct period_step steps[] = {
	    {0, NK_WAKE_OK, 0, 1000},
	    /* Reaching the release point exactly: no overrun, no wait. */
	    {1000, NK_WAKE_OK, 0, 2000},
	    {0, NK_WAKE_OK, 0, 3000},
	    /* Late by less than a period: no overrun either. */
	    {1500, NK_WAKE_OK, 0, 4500},
	    {0, NK_WAKE_OK, 0, 5000},
	    /* Exactly two periods: one release point missed. */
	    {2000, -ETIMEDOUT, 1, 7000},
	    {0, NK_WAKE_OK, 0, 8000},
	};

	run_period_steps(steps, sizeof(steps) / sizeof(steps[0]));
}

TEST(periodic_start_now_and_stop)
{
	start_sim(1, 10);
	sleep_until(700);
	CHECK_EQ(nk_thread_set_periodic(nk, NK_INFINITE, 300), 0);
	/* No start date: the first release is one period from now. */
	wait_release(NK_WAKE_OK, 0, 1000);
	wait_release(NK_WAKE_OK, 0, 1300);
	/* A new start re-anchors the grid. */
	CHECK_EQ(nk_thread_set_periodic(nk, 5000, 2000), 0);
	wait_release(NK_WAKE_OK, 0, 5000);
	wait_release(NK_WAKE_OK, 0, 7000);
	CHECK_EQ(nk_thread_set_periodic(nk, 9000, 0), 0);
	wait_release(-EWOULDBLOCK, 0, 7000);
	stop_sim();
}

static void body_made_periodic(void *arg)
{
	(void)arg;
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(nk_thread_wait_period(nk, NULL), NK_WAKE_OK);
		event("p");
	}
}

TEST(periodic_made_by_another_thread)
{
	struct nk_thread_attr attr = {
	    .name = "p", .priority = 5, .flags = NK_THREAD_JOINABLE};
	struct nk_thread *p;

	start_sim(1, 10);
	/* Dormant: its grid is set before it ever runs. */
	CHECK_EQ(nk_thread_create(nk, &attr, &p), 0);
	CHECK_EQ(nk_thread_make_periodic(p, 1000, 500), 0);
	CHECK_EQ(nk_thread_start(p, body_made_periodic, NULL), 0);
	/*
	 * Re-anchored while it waits for 2000: that wait ends as planned,
	 * then the new grid (3000, 4000...) from its first point after 2000.
	 */
	sleep_until(1700);
	CHECK_EQ(nk_thread_make_periodic(p, 3000, 1000), 0);
	join(p);
	CHECK_STR(events, "p@1000 p@1500 p@2000 p@3000");
	stop_sim();
}

TEST(periodic_made_anew_skips_passed_points)
{
	struct nk_thread_attr attr = {
	    .name = "p", .priority = 5, .flags = NK_THREAD_JOINABLE};
	struct nk_thread *p;

	start_sim(1, 10);
	CHECK_EQ(nk_thread_create(nk, &attr, &p), 0);
	CHECK_EQ(nk_thread_make_periodic(p, 5000, 1000), 0);
	CHECK_EQ(nk_thread_start(p, body_made_periodic, NULL), 0);
	/* While it waits for 5000: a grid from now (800) every 2000. */
	sleep_until(800);
	CHECK_EQ(nk_thread_make_periodic(p, NK_INFINITE, 2000), 0);
	join(p);
	/* 800, 2800 and 4800 passed during the wait: no overrun. */
	CHECK_STR(events, "p@5000 p@6800 p@8800 p@10800");
	stop_sim();
}

/* Unblock the thread @arg 10000 ns from now: it may wait for ever. */
static void body_unblock_later(void *arg)
{
	CHECK_EQ(nk_thread_sleep(nk, 10000, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(nk_thread_unblock(arg), 0);
}

/*
 * Release dates past the clock's range saturate to "never": the wait
 * for one lasts until an unblock, and nothing overflows (the
 * address,undefined build aborts on signed overflow).
 */
TEST(periodic_release_past_the_clock_never_comes)
{
	struct nk_thread *u;

	start_sim(1, 10);
	u = spawn("u", 20, body_unblock_later, nk_thread_self(nk));
	sleep_until(1000);
	CHECK_EQ(nk_thread_set_periodic(nk, -1, 100), -EINVAL);
	CHECK_EQ(nk_thread_set_periodic(nk, INT64_MIN, 100), -EINVAL);
	/* Released at 2000, then next at 2000 + (NK_INFINITE - 1): never. */
	CHECK_EQ(nk_thread_set_periodic(nk, 2000, NK_INFINITE - 1), 0);
	wait_release(NK_WAKE_OK, 0, 2000);
	/* Late: the release at 3000 has passed, the next one never comes. */
	CHECK_EQ(nk_thread_set_periodic(nk, 3000, NK_INFINITE - 500), 0);
	consume(2000);
	wait_release(NK_WAKE_OK, 0, 4000);
	wait_release(NK_WAKE_UNBLOCKED, 0, 10000);
	join(u);
	/* No start date: one period from now, which is never either. */
	u = spawn("u", 20, body_unblock_later, nk_thread_self(nk));
	CHECK_EQ(nk_thread_set_periodic(nk, NK_INFINITE, NK_INFINITE), 0);
	wait_release(NK_WAKE_UNBLOCKED, 0, 20000);
	join(u);
	stop_sim();
}

static void *foreign_calls(void *arg)
{
	int *rets = arg;
	unsigned long overruns = 7;

	rets[0] = nk_consume(nk, 10);
	rets[1] = nk_thread_set_periodic(nk, NK_INFINITE, 100);
	rets[2] = nk_thread_wait_period(nk, &overruns);
	rets[3] = nk_thread_sleep(nk, 10, NK_RELATIVE);
	rets[4] = (int)overruns;
	return NULL;
}

TEST(periodic_and_consume_errors)
{
	pthread_t foreign;
	int rets[5] = {1, 1, 1, 1, 1};

	start_sim(1, 10);
	wait_release(-EWOULDBLOCK, 0, 0);
	CHECK_EQ(nk_thread_set_periodic(nk, 1000, -1), -EINVAL);
	wait_release(-EWOULDBLOCK, 0, 0);
	CHECK_EQ(nk_thread_set_periodic(NULL, 1000, 10), -EINVAL);
	CHECK_EQ(nk_thread_wait_period(NULL, NULL), -EINVAL);
	CHECK_EQ(nk_consume(nk, -1), -EINVAL);
	CHECK_EQ(nk_consume(NULL, 10), -EINVAL);
	CHECK_EQ(nk_consume(nk, 0), 0);
	CHECK_EQ(nk_now(nk), 0);
	/* A plain OS thread is no nucleus thread: nothing may charge it. */
	CHECK_EQ(pthread_create(&foreign, NULL, foreign_calls, rets), 0);
	CHECK_EQ(pthread_join(foreign, NULL), 0);
	CHECK_EQ(rets[0], -EPERM);
	CHECK_EQ(rets[1], -EPERM);
	CHECK_EQ(rets[2], -EPERM);
	CHECK_EQ(rets[3], -EPERM);
	CHECK_EQ(rets[4], 0);
	CHECK_EQ(nk_now(nk), 0);
	stop_sim();
}

/* --- nucleus timers --- */

/* Destroy each timer of the list, in order. */
static void destroy_timers_n(struct nk_timer *const *timers, size_t n)
{
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(nk_timer_destroy(timers[i]), 0);
}

#define DESTROY_TIMERS(...)                                                    \
	destroy_timers_n((struct nk_timer *const[]){__VA_ARGS__},              \
			 sizeof((struct nk_timer *const[]){__VA_ARGS__}) /     \
			     sizeof(struct nk_timer *))

static void timer_event(struct nk_timer *timer)
{
	event(timer->name);
}

static void timer_setup(struct nk_timer *timer, const char *name,
			nk_timer_fn handler, void *cookie)
{
	CHECK_EQ(nk_timer_init(nk, timer, name, 0, handler, cookie), 0);
	CHECK_EQ(nk_timer_date(timer), NK_INFINITE);
}

static void timer_arm(struct nk_timer *timer, nk_time_t value,
		      nk_time_t interval, enum nk_tmode mode, nk_time_t date)
{
	CHECK_EQ(nk_timer_start(timer, value, interval, mode), 0);
	CHECK_EQ(nk_timer_date(timer), date);
}

static void timer_check(struct nk_timer *timer, unsigned long fired,
			unsigned long overruns, nk_time_t date)
{
	CHECK_EQ(timer->fired, fired);
	CHECK_EQ(timer->overruns, overruns);
	CHECK_EQ(nk_timer_date(timer), date);
}

TEST(timer_oneshot_fires_at_exact_date)
{
	struct nk_timer a, b, c;

	start_sim(1, 10);
	timer_setup(&a, "a", timer_event, NULL);
	timer_setup(&b, "b", timer_event, NULL);
	timer_setup(&c, "c", timer_event, NULL);
	timer_arm(&a, 1500, 0, NK_ABSOLUTE, 1500);
	timer_arm(&b, 700, 0, NK_RELATIVE, 700);
	timer_arm(&c, 1, 0, NK_ABSOLUTE, 1);
	sleep_until(2000);
	CHECK_STR(events, "c@1 b@700 a@1500");
	timer_check(&a, 1, 0, NK_INFINITE);
	timer_check(&b, 1, 0, NK_INFINITE);
	CHECK(!a.armed);
	/* A timer expires in the middle of a thread's busy period too. */
	timer_arm(&a, 300, 0, NK_RELATIVE, 2300);
	consume(1000);
	CHECK_STR(events, "c@1 b@700 a@1500 a@2300");
	timer_check(&a, 2, 0, NK_INFINITE);
	DESTROY_TIMERS(&a, &b, &c);
	stop_sim();
}

TEST(timer_periodic_fires_on_grid)
{
	struct nk_timer p;

	start_sim(1, 10);
	timer_setup(&p, "p", timer_event, NULL);
	timer_arm(&p, 1000, 300, NK_RELATIVE, 1000);
	sleep_until(2550);
	CHECK_STR(events, "p@1000 p@1300 p@1600 p@1900 p@2200 p@2500");
	/* Handlers on sim are never late: no overrun. */
	timer_check(&p, 6, 0, 2800);
	CHECK_EQ(nk_timer_stop(&p), 0);
	timer_check(&p, 6, 0, NK_INFINITE);
	sleep_until(5000);
	CHECK_EQ(p.fired, 6);
	CHECK_EQ(nk_timer_destroy(&p), 0);
	stop_sim();
}

TEST(timer_armed_in_the_past_counts_overruns)
{
	struct nk_timer late, past;

	start_sim(1, 10);
	timer_setup(&late, "late", timer_event, NULL);
	timer_setup(&past, "past", timer_event, NULL);
	sleep_until(10000);
	timer_arm(&late, 1000, 1000, NK_ABSOLUTE, 1000);
	timer_arm(&past, 500, 0, NK_ABSOLUTE, 500);
	/*
	 * Both fire at the next timer interrupt (10000); the periodic one
	 * skips the nine periods that elapsed entirely and stays on its
	 * grid.
	 */
	sleep_until(12500);
	CHECK_STR(events, "past@10000 late@10000 late@11000 late@12000");
	timer_check(&late, 3, 9, 13000);
	timer_check(&past, 1, 0, NK_INFINITE);
	DESTROY_TIMERS(&late, &past);
	stop_sim();
}

/*
 * Dates out of the clock's range saturate: before 0 is in the past
 * (overruns counted from 0), past NK_INFINITE is never.
 */
TEST(timer_extreme_dates_saturate)
{
	struct nk_timer neg, rel, huge, never;

	start_sim(1, 10);
	timer_setup(&neg, "neg", timer_event, NULL);
	timer_setup(&rel, "rel", timer_event, NULL);
	timer_setup(&huge, "huge", timer_event, NULL);
	timer_setup(&never, "never", timer_event, NULL);
	sleep_until(1500);
	timer_arm(&neg, INT64_MIN, 1000, NK_ABSOLUTE, 0);
	timer_arm(&rel, INT64_MIN, 400, NK_RELATIVE, 0);
	/* Fires at 2000, then its next date is past the clock: no more. */
	timer_arm(&huge, 500, NK_INFINITE - 1, NK_RELATIVE, 2000);
	timer_arm(&never, NK_INFINITE - 1, 10, NK_RELATIVE, NK_INFINITE);
	CHECK(!never.armed);
	sleep_until(5000);
	/* In the past: both fire at once, on grids from 0. */
	CHECK_STR(events, "neg@1500 rel@1500 rel@1600 huge@2000 neg@2000 "
			  "rel@2000 rel@2400 rel@2800 neg@3000 rel@3200 "
			  "rel@3600 neg@4000 rel@4000 rel@4400 rel@4800 "
			  "neg@5000");
	timer_check(&neg, 5, 1, 6000);
	timer_check(&rel, 10, 3, 5200);
	timer_check(&huge, 1, 0, NK_INFINITE);
	timer_check(&never, 0, 0, NK_INFINITE);
	DESTROY_TIMERS(&neg, &rel, &huge, &never);
	stop_sim();
}

TEST(timer_equal_dates_fire_in_arming_order)
{
	static const char *const names[] = {"t0", "t1", "t2", "t3", "t4"};
	static const int order[] = {3, 1, 4, 0, 2};
	struct nk_timer timers[5];

	start_sim(1, 10);
	for (int i = 0; i < 5; i++)
		timer_setup(&timers[i], names[i], timer_event, NULL);
	for (int i = 0; i < 5; i++)
		timer_arm(&timers[order[i]], 1000, 0, NK_ABSOLUTE, 1000);
	sleep_until(1000);
	CHECK_STR(events, "t3@1000 t1@1000 t4@1000 t0@1000 t2@1000");
	/* Re-arming at the same date counts as arming last. */
	events[0] = '\0';
	events_len = 0;
	for (int i = 0; i < 3; i++)
		timer_arm(&timers[i], 2000, 0, NK_ABSOLUTE, 2000);
	timer_arm(&timers[0], 2000, 0, NK_ABSOLUTE, 2000);
	sleep_until(3000);
	CHECK_STR(events, "t1@2000 t2@2000 t0@2000");
	for (int i = 0; i < 5; i++)
		CHECK_EQ(nk_timer_destroy(&timers[i]), 0);
	stop_sim();
}

TEST(timer_rearm_moves_it)
{
	struct nk_timer m;

	start_sim(1, 10);
	timer_setup(&m, "m", timer_event, NULL);
	timer_arm(&m, 5000, 0, NK_ABSOLUTE, 5000);
	timer_arm(&m, 2000, 0, NK_ABSOLUTE, 2000);
	sleep_until(6000);
	CHECK_STR(events, "m@2000");
	timer_check(&m, 1, 0, NK_INFINITE);
	timer_arm(&m, 1000, 0, NK_RELATIVE, 7000);
	timer_arm(&m, 3000, 0, NK_RELATIVE, 9000);
	/* One-shot to periodic and back to one-shot. */
	sleep_until(8000);
	timer_arm(&m, 500, 100, NK_RELATIVE, 8500);
	sleep_until(8650);
	timer_arm(&m, 10000, 0, NK_ABSOLUTE, 10000);
	sleep_until(12000);
	CHECK_STR(events, "m@2000 m@8500 m@8600 m@10000");
	timer_check(&m, 4, 0, NK_INFINITE);
	CHECK_EQ(nk_timer_destroy(&m), 0);
	stop_sim();
}

static struct nk_synch gate;

/* Wake the thread waiting on the gate (handler context: lock held). */
static void open_gate(struct nk_timer *timer)
{
	event(timer->name);
	CHECK(nk_synch_wakeup_one(&gate) != NULL);
}

static int pass_gate(void)
{
	int ret;

	nk_lock(nk);
	ret = nk_synch_sleep(&gate, NK_INFINITE, NK_RELATIVE);
	nk_unlock(nk);
	return ret;
}

TEST(timer_stop_prevents_firing)
{
	struct nk_timer x, y;

	start_sim(1, 10);
	CHECK_EQ(nk_synch_init(nk, &gate, "gate", NK_SYNCH_FIFO, 0), 0);
	timer_setup(&x, "x", timer_event, NULL);
	timer_setup(&y, "y", open_gate, NULL);
	timer_arm(&x, 5000, 0, NK_ABSOLUTE, 5000);
	CHECK_EQ(nk_timer_stop(&x), 0);
	timer_check(&x, 0, 0, NK_INFINITE);
	CHECK_EQ(nk_timer_stop(&x), 0);
	/* Only y can end the wait: the clock goes straight to its date. */
	timer_arm(&y, 9000, 0, NK_ABSOLUTE, 9000);
	CHECK_EQ(pass_gate(), NK_WAKE_OK);
	CHECK_EQ(nk_now(nk), 9000);
	CHECK_STR(events, "y@9000");
	timer_check(&x, 0, 0, NK_INFINITE);
	/* A stopped periodic timer stays stopped. */
	timer_arm(&x, 100, 100, NK_RELATIVE, 9100);
	sleep_until(9250);
	CHECK_EQ(nk_timer_stop(&x), 0);
	sleep_until(20000);
	CHECK_STR(events, "y@9000 x@9100 x@9200");
	timer_check(&x, 2, 0, NK_INFINITE);
	DESTROY_TIMERS(&x, &y);
	CHECK_EQ(nk_synch_destroy(&gate), 0);
	stop_sim();
}

static void stop_after_three(struct nk_timer *timer)
{
	event(timer->name);
	if (timer->fired == 3)
		nk_timer_stop_locked(timer);
}

TEST(timer_handler_stops_itself)
{
	struct nk_timer s;

	start_sim(1, 10);
	timer_setup(&s, "s", stop_after_three, NULL);
	timer_arm(&s, 100, 100, NK_ABSOLUTE, 100);
	sleep_until(1000);
	CHECK_STR(events, "s@100 s@200 s@300");
	timer_check(&s, 3, 0, NK_INFINITE);
	CHECK(!s.armed);
	CHECK_EQ(nk_timer_destroy(&s), 0);
	stop_sim();
}

/* Arm cookie[0] 500 ns later and cookie[1] at once (handler context). */
static void arm_others(struct nk_timer *timer)
{
	struct nk_timer **others = timer->cookie;

	event(timer->name);
	CHECK_EQ(nk_timer_start_locked(others[0], 500, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_timer_start_locked(others[1], nk_now(nk), 0, NK_ABSOLUTE),
		 0);
}

TEST(timer_handler_rearms_other_timers)
{
	struct nk_timer a, b, c;
	struct nk_timer *others[2] = {&b, &c};

	start_sim(1, 10);
	timer_setup(&a, "a", arm_others, others);
	timer_setup(&b, "b", timer_event, NULL);
	timer_setup(&c, "c", timer_event, NULL);
	/* b's earlier date is moved by the handler. */
	timer_arm(&b, 1200, 0, NK_ABSOLUTE, 1200);
	timer_arm(&a, 1000, 0, NK_ABSOLUTE, 1000);
	sleep_until(3000);
	/* c, due "now", fires in the same timer interrupt as a. */
	CHECK_STR(events, "a@1000 c@1000 b@1500");
	timer_check(&a, 1, 0, NK_INFINITE);
	timer_check(&b, 1, 0, NK_INFINITE);
	timer_check(&c, 1, 0, NK_INFINITE);
	DESTROY_TIMERS(&a, &b, &c);
	stop_sim();
}

static void gate_waiter(void *arg)
{
	long rounds = (long)(intptr_t)arg;

	for (long i = 0; i < rounds; i++) {
		CHECK_EQ(pass_gate(), NK_WAKE_OK);
		event("w");
	}
}

TEST(timer_handler_readies_thread)
{
	struct nk_timer tick;
	struct nk_thread *waiter;

	start_sim(1, 10);
	CHECK_EQ(nk_synch_init(nk, &gate, "gate", NK_SYNCH_FIFO, 0), 0);
	waiter = spawn("waiter", 20, gate_waiter, (void *)(intptr_t)1);
	timer_setup(&tick, "tick", open_gate, NULL);
	timer_arm(&tick, 7000, 0, NK_ABSOLUTE, 7000);
	sleep_until(10000);
	CHECK_STR(events, "tick@7000 w@7000");
	join(waiter);
	/* A periodic one readies it at every expiry. */
	waiter = spawn("waiter", 20, gate_waiter, (void *)(intptr_t)3);
	timer_arm(&tick, 1000, 1000, NK_RELATIVE, 11000);
	join(waiter);
	CHECK_EQ(nk_now(nk), 13000);
	CHECK_EQ(nk_timer_stop(&tick), 0);
	CHECK_STR(events, "tick@7000 w@7000 tick@11000 w@11000 tick@12000 "
			  "w@12000 tick@13000 w@13000");
	timer_check(&tick, 4, 0, NK_INFINITE);
	CHECK_EQ(nk_timer_destroy(&tick), 0);
	CHECK_EQ(nk_synch_destroy(&gate), 0);
	stop_sim();
}

static struct nk_sem irq_sem;

static void give_from_handler(struct nk_timer *timer)
{
	event(timer->name);
	nk_sem_give(&irq_sem);
}

static void irq_sem_waiter(void *arg)
{
	(void)arg;
	if (nk_sem_take(&irq_sem, NK_INFINITE, NK_RELATIVE) == 0)
		event("w");
}

/*
 * Child process: no CHECK here (a failure would unwind into the child's
 * copy of the test runner); the exit status says what went wrong.
 */
static int sem_give_in_handler_child(void)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 10};
	struct nk_thread_attr tattr = {.name = "w", .priority = 20};
	struct nk_thread *waiter;
	struct nk_timer timer;

	if (nk_instance_create(&attr, &nk) ||
	    nk_sem_init(nk, &irq_sem, "irq", 0, 0, NK_SYNCH_FIFO) ||
	    nk_thread_create(nk, &tattr, &waiter) ||
	    nk_thread_start(waiter, irq_sem_waiter, NULL) ||
	    nk_timer_init(nk, &timer, "give", 0, give_from_handler, NULL) ||
	    nk_timer_start(&timer, 1000, 0, NK_ABSOLUTE))
		return 10;
	if (nk_thread_sleep(nk, 2000, NK_ABSOLUTE))
		return 11;
	if (strcmp(events, "give@1000 w@1000") != 0)
		return 12;
	return nk_instance_destroy(nk) ? 13 : 0;
}

TEST(timer_handler_gives_semaphore)
{
	int status = 0;
	pid_t pid;

	/* nk_sem_give is documented for any context, interrupt included. */
	events[0] = '\0';
	events_len = 0;
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		alarm(2); /* a self-deadlock on the nucleus lock ends here */
		_exit(sem_give_in_handler_child());
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(!WIFSIGNALED(status) || WTERMSIG(status) != SIGALRM);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
}

TEST(timer_on_second_cpu)
{
	struct nk_timer t1, t0;

	start_sim(2, 10);
	CHECK_EQ(nk_timer_init(nk, &t1, "cpu1", 1, timer_event, NULL), 0);
	CHECK_EQ(nk_timer_init(nk, &t0, "cpu0", 0, timer_event, NULL), 0);
	timer_arm(&t1, 1234, 0, NK_ABSOLUTE, 1234);
	timer_arm(&t0, 2345, 0, NK_ABSOLUTE, 2345);
	sleep_until(3000);
	CHECK_STR(events, "cpu1@1234 cpu0@2345");
	CHECK_EQ(t1.cpu, 1);
	DESTROY_TIMERS(&t1, &t0);
	stop_sim();
}

#define NR_RANDOM_TIMERS 1000

static struct nk_timer random_timers[NR_RANDOM_TIMERS];
static nk_time_t random_date[NR_RANDOM_TIMERS];
static unsigned int random_seq[NR_RANDOM_TIMERS]; /* arming order */
static int fired_index[NR_RANDOM_TIMERS + 1];
static nk_time_t fired_at[NR_RANDOM_TIMERS + 1];
static int nr_fired;

static void record_random(struct nk_timer *timer)
{
	if (nr_fired <= NR_RANDOM_TIMERS) {
		fired_index[nr_fired] = (int)(timer - random_timers);
		fired_at[nr_fired] = nk_now(nk);
	}
	nr_fired++;
}

static uint32_t lcg_next(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

static void random_arm(int i, nk_time_t date, unsigned int seq)
{
	random_date[i] = date;
	random_seq[i] = seq;
	timer_arm(&random_timers[i], date, 0, NK_ABSOLUTE, date);
}

/* Does timer @a fire before timer @b: by date, then arming order? */
static int fires_before(int a, int b)
{
	if (random_date[a] != random_date[b])
		return random_date[a] < random_date[b];
	return random_seq[a] < random_seq[b];
}

TEST(timer_thousand_random_dates_fire_sorted)
{
	int expect[NR_RANDOM_TIMERS];
	int nr_expect = 0;
	unsigned int seq = 0;
	uint32_t rng = 12345;
	int dups = 0;

	start_sim(1, 10);
	nr_fired = 0;
	for (int i = 0; i < NR_RANDOM_TIMERS; i++) {
		CHECK_EQ(nk_timer_init(nk, &random_timers[i], NULL, 0,
				       record_random, NULL),
			 0);
		random_arm(i, 1 + lcg_next(&rng) % 20000, seq++);
	}
	/* Move every 7th timer and stop every 11th. */
	for (int i = 0; i < NR_RANDOM_TIMERS; i += 7)
		random_arm(i, 1 + lcg_next(&rng) % 20000, seq++);
	for (int i = 0; i < NR_RANDOM_TIMERS; i += 11) {
		CHECK_EQ(nk_timer_stop(&random_timers[i]), 0);
		random_date[i] = NK_INFINITE;
	}
	/* Expected order: insertion sort by (date, arming order). */
	for (int i = 0; i < NR_RANDOM_TIMERS; i++) {
		int j;

		if (random_date[i] == NK_INFINITE)
			continue;
		for (j = nr_expect++; j > 0 && fires_before(i, expect[j - 1]);
		     j--)
			expect[j] = expect[j - 1];
		expect[j] = i;
	}
	sleep_until(30000);
	CHECK_EQ(nr_fired, nr_expect);
	for (int k = 0; k < nr_expect; k++) {
		CHECK_EQ(fired_index[k], expect[k]);
		CHECK_EQ(fired_at[k], random_date[expect[k]]);
		if (k && fired_at[k] == fired_at[k - 1])
			dups++;
	}
	/* The seed makes equal dates occur, so their order is exercised. */
	CHECK(dups > 0);
	for (int i = 0; i < NR_RANDOM_TIMERS; i++) {
		CHECK_EQ(random_timers[i].fired, random_date[i] != NK_INFINITE);
		CHECK_EQ(nk_timer_destroy(&random_timers[i]), 0);
	}
	stop_sim();
}

static void never_fires(struct nk_timer *timer)
{
	(void)timer;
	CHECK(0);
}

TEST(timer_errors)
{
	struct nk_timer t;

	start_sim(1, 10);
	CHECK_EQ(nk_timer_init(NULL, &t, "t", 0, never_fires, NULL), -EINVAL);
	CHECK_EQ(nk_timer_init(nk, NULL, "t", 0, never_fires, NULL), -EINVAL);
	CHECK_EQ(nk_timer_init(nk, &t, "t", 0, NULL, NULL), -EINVAL);
	CHECK_EQ(nk_timer_init(nk, &t, "t", -1, never_fires, NULL), -EINVAL);
	CHECK_EQ(nk_timer_init(nk, &t, "t", 1, never_fires, NULL), -EINVAL);
	CHECK_EQ(nk_timer_start(NULL, 10, 0, NK_RELATIVE), -EINVAL);
	CHECK_EQ(nk_timer_stop(NULL), -EINVAL);
	CHECK_EQ(nk_timer_destroy(NULL), -EINVAL);
	CHECK_EQ(nk_timer_date(NULL), NK_INFINITE);

	timer_setup(&t, NULL, never_fires, NULL);
	CHECK_STR(t.name, "");
	CHECK_EQ(nk_timer_start(&t, 10, -1, NK_RELATIVE), -EINVAL);
	CHECK_EQ(nk_timer_start(&t, NK_INFINITE, 10, NK_ABSOLUTE), -EINVAL);
	CHECK_EQ(nk_timer_date(&t), NK_INFINITE);
	/* An infinite one-shot date leaves the timer unarmed. */
	timer_arm(&t, NK_INFINITE, 0, NK_RELATIVE, NK_INFINITE);
	CHECK(!t.armed);
	CHECK_EQ(nk_timer_stop(&t), 0);
	timer_arm(&t, 100, 0, NK_RELATIVE, 100);
	CHECK_EQ(nk_timer_destroy(&t), 0);
	CHECK_EQ(nk_timer_date(&t), NK_INFINITE);
	CHECK_EQ(nk_timer_start(&t, 10, 0, NK_RELATIVE), -EINVAL);
	CHECK_EQ(nk_timer_stop(&t), -EINVAL);
	CHECK_EQ(nk_timer_destroy(&t), -EINVAL);
	/* The destroyed timer's date must not fire or move the clock. */
	sleep_until(1000);
	stop_sim();
}

/* --- time bases --- */

static void check_tbase(struct nk_tbase *tb, uint64_t ticks, nk_time_t timeout1,
			nk_time_t timeout3)
{
	CHECK_EQ(nk_tbase_ticks(tb), ticks);
	CHECK_EQ(nk_tbase_timeout(tb, 1), timeout1);
	CHECK_EQ(nk_tbase_timeout(tb, 3), timeout3);
}

TEST(tbase_ticks_and_timeouts)
{
	struct nk_tbase tb, late;

	start_sim(1, 10);
	CHECK_EQ(nk_tbase_init(nk, &tb, MS), 0);
	check_tbase(&tb, 0, 1 * MS, 3 * MS);
	consume(2 * MS + MS / 2);
	check_tbase(&tb, 2, 3 * MS, 5 * MS);
	/* A base started off the grid of another has its own boundaries. */
	CHECK_EQ(nk_tbase_init(nk, &late, MS), 0);
	check_tbase(&late, 0, 3 * MS + MS / 2, 5 * MS + MS / 2);
	consume(MS / 2 - 1);
	check_tbase(&tb, 2, 3 * MS, 5 * MS);
	consume(1);
	/* On a boundary, the next tick is a whole period away. */
	check_tbase(&tb, 3, 4 * MS, 6 * MS);
	sleep_until(nk_tbase_timeout(&tb, 3));
	check_tbase(&tb, 6, 7 * MS, 9 * MS);
	check_tbase(&late, 3, 6 * MS + MS / 2, 8 * MS + MS / 2);
	stop_sim();
}

TEST(tbase_conversions)
{
	struct nk_tbase tb;

	start_sim(1, 10);
	CHECK_EQ(nk_tbase_init(nk, &tb, MS), 0);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, 0), 0);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, -1), 0);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, 1), 1);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, MS - 1), 1);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, MS), 1);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, MS + 1), 2);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, 2 * MS + MS / 2), 3);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, NK_INFINITE), NK_INFINITE / MS + 1);
	CHECK_EQ(nk_tbase_ticks_to_ns(&tb, 0), 0);
	CHECK_EQ(nk_tbase_ticks_to_ns(&tb, 3), 3 * MS);
	CHECK_EQ(nk_tbase_ticks_to_ns(&tb, NK_INFINITE / MS),
		 NK_INFINITE / MS * MS);
	/* Overflowing conversions and timeouts saturate to "never". */
	CHECK_EQ(nk_tbase_ticks_to_ns(&tb, NK_INFINITE / MS + 1), NK_INFINITE);
	CHECK_EQ(nk_tbase_ticks_to_ns(&tb, UINT64_MAX), NK_INFINITE);
	CHECK_EQ(nk_tbase_timeout(&tb, UINT64_MAX), NK_INFINITE);
	stop_sim();
}

TEST(tbase_set_ticks_continues_from_value)
{
	struct nk_tbase tb;

	start_sim(1, 10);
	CHECK_EQ(nk_tbase_init(nk, &tb, MS), 0);
	consume(2 * MS + MS / 2);
	CHECK_EQ(nk_tbase_set_ticks(&tb, 100), 0);
	/* The tick phase is kept: the next tick is still at 3 ms. */
	check_tbase(&tb, 100, 3 * MS, 5 * MS);
	consume(MS / 2 - 1);
	CHECK_EQ(nk_tbase_ticks(&tb), 100);
	consume(1);
	check_tbase(&tb, 101, 4 * MS, 6 * MS);
	sleep_until(5 * MS + 1);
	CHECK_EQ(nk_tbase_ticks(&tb), 103);
	CHECK_EQ(nk_tbase_set_ticks(&tb, 0), 0);
	check_tbase(&tb, 0, 6 * MS, 8 * MS);
	stop_sim();
}

TEST(tbase_set_period_on_boundary)
{
	struct nk_tbase tb;

	start_sim(1, 10);
	CHECK_EQ(nk_tbase_init(nk, &tb, MS), 0);
	consume(2 * MS);
	CHECK_EQ(nk_tbase_set_period(&tb, MS / 2), 0);
	check_tbase(&tb, 2, 2 * MS + MS / 2, 3 * MS + MS / 2);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, MS), 2);
	CHECK_EQ(nk_tbase_ticks_to_ns(&tb, 3), 3 * MS / 2);
	consume(MS / 2);
	CHECK_EQ(nk_tbase_ticks(&tb), 3);
	consume(MS * 3 / 4);
	check_tbase(&tb, 4, 3 * MS + MS / 2, 4 * MS + MS / 2);
	/* Slower again, on the 3.25 ms mark: the count is kept. */
	CHECK_EQ(nk_tbase_set_period(&tb, 2 * MS), 0);
	CHECK_EQ(nk_tbase_ticks(&tb), 4);
	stop_sim();
}

/* Change @tb's period to @period and return the tick count just after. */
static uint64_t ticks_after_period(struct nk_tbase *tb, nk_time_t period)
{
	CHECK_EQ(nk_tbase_set_period(tb, period), 0);
	return nk_tbase_ticks(tb);
}

TEST(tbase_set_period_mid_tick_keeps_count)
{
	struct nk_tbase faster, tickless;
	uint64_t after_faster, after_tickless;

	start_sim(1, 10);
	CHECK_EQ(nk_tbase_init(nk, &faster, MS), 0);
	CHECK_EQ(nk_tbase_init(nk, &tickless, MS), 0);
	consume(2 * MS + MS / 2);
	CHECK_EQ(nk_tbase_ticks(&faster), 2);
	after_faster = ticks_after_period(&faster, MS / 4);
	after_tickless = ticks_after_period(&tickless, 0);
	/* Checked after the teardown so that a failure leaks nothing. */
	stop_sim();
	/* "The tick count carries on from its current value." */
	CHECK_EQ(after_faster, 2);
	CHECK_EQ(after_tickless, 2);
}

TEST(tbase_tickless_is_identity)
{
	struct nk_tbase tb, ticked;

	start_sim(1, 10);
	CHECK_EQ(nk_tbase_init(nk, &tb, 0), 0);
	CHECK_EQ(nk_tbase_init(nk, &ticked, MS), 0);
	consume(1234);
	check_tbase(&tb, 1234, 1235, 1237);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, 5), 5);
	CHECK_EQ(nk_tbase_ticks_to_ns(&tb, 5), 5);
	CHECK_EQ(nk_tbase_timeout(&tb, 1000), 2234);
	/* Made tickless on a tick boundary: keeps its count, counts ns. */
	consume(2 * MS - 1234);
	CHECK_EQ(nk_tbase_ticks(&ticked), 2);
	CHECK_EQ(nk_tbase_set_period(&ticked, 0), 0);
	CHECK_EQ(nk_tbase_ticks(&ticked), 2);
	consume(10);
	check_tbase(&ticked, 12, 2 * MS + 11, 2 * MS + 13);
	stop_sim();
}

TEST(tbase_errors)
{
	struct nk_tbase tb;

	start_sim(1, 10);
	memset(&tb, 0, sizeof(tb));
	CHECK_EQ(nk_tbase_ticks(&tb), 0);
	CHECK_EQ(nk_tbase_ticks(NULL), 0);
	CHECK_EQ(nk_tbase_set_ticks(&tb, 5), -EINVAL);
	CHECK_EQ(nk_tbase_set_ticks(NULL, 5), -EINVAL);
	CHECK_EQ(nk_tbase_set_period(&tb, MS), -EINVAL);
	CHECK_EQ(nk_tbase_set_period(NULL, MS), -EINVAL);
	CHECK_EQ(nk_tbase_ticks_to_ns(&tb, 5), 0);
	CHECK_EQ(nk_tbase_ns_to_ticks(&tb, 5), 0);
	CHECK_EQ(nk_tbase_timeout(&tb, 1), NK_INFINITE);
	CHECK_EQ(nk_tbase_timeout(NULL, 1), NK_INFINITE);
	CHECK_EQ(nk_tbase_init(NULL, &tb, MS), -EINVAL);
	CHECK_EQ(nk_tbase_init(nk, NULL, MS), -EINVAL);
	CHECK_EQ(nk_tbase_init(nk, &tb, -1), -EINVAL);
	CHECK_EQ(nk_tbase_ticks(&tb), 0);
	CHECK_EQ(nk_tbase_init(nk, &tb, MS), 0);
	CHECK_EQ(nk_tbase_set_period(&tb, -1), -EINVAL);
	consume(3 * MS);
	CHECK_EQ(nk_tbase_ticks(&tb), 3);
	stop_sim();
}

/* --- clock and CPU time --- */

TEST(clock_null_instance_and_wallclock)
{
	const nk_time_t epoch = 1700000000LL * SEC;

	CHECK_EQ(nk_now(NULL), 0);
	CHECK_EQ(nk_wallclock(NULL), 0);
	CHECK_EQ(nk_set_wallclock(NULL, epoch), -EINVAL);
	start_sim(1, 10);
	CHECK_EQ(nk_wallclock(nk), 0);
	consume(1000);
	CHECK_EQ(nk_set_wallclock(nk, epoch), 0);
	CHECK_EQ(nk_wallclock(nk), epoch);
	CHECK_EQ(nk_now(nk), 1000);
	sleep_until(1500);
	CHECK_EQ(nk_wallclock(nk), epoch + 500);
	/* A wall date before the monotonic one: negative offset. */
	CHECK_EQ(nk_set_wallclock(nk, 100), 0);
	CHECK_EQ(nk_wallclock(nk), 100);
	consume(50);
	CHECK_EQ(nk_wallclock(nk), 150);
	CHECK_EQ(nk_now(nk), 1550);
	CHECK_EQ(nk_set_wallclock(nk, 0), 0);
	sleep_until(2000);
	CHECK_EQ(nk_wallclock(nk), 450);
	/* No date before the epoch; the last dates saturate. */
	CHECK_EQ(nk_set_wallclock(nk, -1), -EINVAL);
	CHECK_EQ(nk_set_wallclock(nk, INT64_MIN), -EINVAL);
	CHECK_EQ(nk_wallclock(nk), 450);
	CHECK_EQ(nk_set_wallclock(nk, NK_INFINITE - 100), 0);
	sleep_until(2050);
	CHECK_EQ(nk_wallclock(nk), NK_INFINITE - 50);
	sleep_until(3000);
	CHECK_EQ(nk_wallclock(nk), NK_INFINITE);
	stop_sim();
}

struct burner {
	const char *name;
	nk_time_t delay; /* sleep first, relative */
	nk_time_t work;
};

static void burner_body(void *arg)
{
	const struct burner *b = arg;

	if (b->delay)
		CHECK_EQ(nk_thread_sleep(nk, b->delay, NK_RELATIVE),
			 NK_WAKE_OK);
	CHECK_EQ(nk_consume(nk, b->work), 0);
	event(b->name);
}

/* Start the burners, then join them all. */
static void run_burners(const struct burner *burners, const int *prios, int n)
{
	struct nk_thread *threads[4];

	for (int i = 0; i < n; i++)
		threads[i] = spawn(burners[i].name, prios[i], burner_body,
				   (void *)&burners[i]);
	for (int i = 0; i < n; i++)
		join(threads[i]);
}

TEST(consume_from_main_is_exact)
{
	start_sim(1, 10);
	consume(1);
	consume(999);
	consume(SEC);
	consume(0);
	CHECK_EQ(nk_now(nk), SEC + 1000);
	stop_sim();
}

TEST(consume_two_threads_back_to_back)
{
	static const struct burner burners[] = {{"a", 0, 3000}, {"b", 0, 4000}};
	static const int prios[] = {20, 20};

	/* main outranks both: they are ready together at 0. */
	start_sim(1, 40);
	run_burners(burners, prios, 2);
	CHECK_STR(events, "a@3000 b@7000");
	CHECK_EQ(nk_now(nk), 7000);
	stop_sim();
}

TEST(consume_preempted_resumes_remainder)
{
	static const struct burner burners[] = {{"low", 0, 3000},
						{"high", 1000, 500}};
	static const int prios[] = {20, 30};

	start_sim(1, 40);
	run_burners(burners, prios, 2);
	CHECK_STR(events, "high@1500 low@3500");
	stop_sim();
}

TESTS(T(sleep_wakes_at_exact_date), T(sleep_expired_returns_at_once),
      T(sleepers_wake_in_date_order),
      T(sleepers_equal_dates_from_different_times),
      T(sem_take_times_out_at_exact_date), T(sem_give_just_before_deadline),
      T(sem_take_expired_timeouts_do_not_block), T(mutex_lock_timeouts),
      T(periodic_releases_on_grid), T(periodic_overruns_counted_exactly),
      T(periodic_exact_period_is_no_overrun), T(periodic_start_now_and_stop),
      T(periodic_made_by_another_thread),
      T(periodic_made_anew_skips_passed_points),
      T(periodic_release_past_the_clock_never_comes),
      T(periodic_and_consume_errors), T(timer_oneshot_fires_at_exact_date),
      T(timer_periodic_fires_on_grid),
      T(timer_armed_in_the_past_counts_overruns),
      T(timer_extreme_dates_saturate),
      T(timer_equal_dates_fire_in_arming_order), T(timer_rearm_moves_it),
      T(timer_stop_prevents_firing), T(timer_handler_stops_itself),
      T(timer_handler_rearms_other_timers), T(timer_handler_readies_thread),
      T(timer_handler_gives_semaphore), T(timer_on_second_cpu),
      T(timer_thousand_random_dates_fire_sorted), T(timer_errors),
      T(tbase_ticks_and_timeouts), T(tbase_conversions),
      T(tbase_set_ticks_continues_from_value), T(tbase_set_period_on_boundary),
      T(tbase_set_period_mid_tick_keeps_count), T(tbase_tickless_is_identity),
      T(tbase_errors), T(clock_null_instance_and_wallclock),
      T(consume_from_main_is_exact), T(consume_two_threads_back_to_back),
      T(consume_preempted_resumes_remainder));
