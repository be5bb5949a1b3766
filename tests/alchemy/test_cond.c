/* SPDX-License-Identifier: MIT */
/*
 * Alchemy condition variables: argument checking, the mutex released
 * during the wait and re-acquired (to its nesting depth) whatever ends
 * it - signal, timeout, rt_task_unblock - wake-up order by priority,
 * signal preempting the caller and T_LOCK deferring it, deletion
 * refused while waited on, timeouts at exact virtual dates (sim),
 * binding, calls from a plain pthread.
 */
#include "alchemy_test.h"

#include <alchemy/cond.h>

/* @name, with its return value unless 1 (no wait involved). */
static void outcome(const char *name, int ret)
{
	char item[64];

	if (ret == 1)
		snprintf(item, sizeof(item), "%s", name);
	else
		snprintf(item, sizeof(item), "%s:%d", name, ret);
	step(item);
}

static uintptr_t holder(RT_MUTEX *m)
{
	RT_MUTEX_INFO info;

	CHECK_EQ(rt_mutex_inquire(m, &info), 0);
	return info.owner.handle;
}

static uintptr_t me(void)
{
	return rt_task_self()->handle;
}

struct waiter {
	RT_COND *c;
	RT_MUTEX *m;
	RTIME timeout;
	const char *name;
	int ret;
	bool owned; /* held the mutex when the wait returned */
	RTIME at;
	RT_TASK task;
};

static void waiter_body(void *arg)
{
	struct waiter *w = arg;

	CHECK_EQ(rt_mutex_acquire(w->m, TM_INFINITE), 0);
	w->ret = rt_cond_wait(w->c, w->m, w->timeout);
	w->at = rt_timer_read();
	w->owned = holder(w->m) == me();
	outcome(w->name, w->ret);
	CHECK_EQ(rt_mutex_release(w->m), 0);
}

static void start_waiter(struct waiter *w, RT_COND *c, RT_MUTEX *m,
			 const char *name, int prio, RTIME timeout)
{
	w->c = c;
	w->m = m;
	w->name = name;
	w->timeout = timeout;
	w->ret = 1;
	w->owned = false;
	spawn(&w->task, prio, waiter_body, w);
}

static void finish_waiter(struct waiter *w, int ret)
{
	CHECK_EQ(rt_task_join(&w->task), 0);
	CHECK_EQ(w->ret, ret);
	CHECK(w->owned);
}

/* An anonymous condition variable and the mutex that goes with it. */
static void pair_create(RT_COND *c, RT_MUTEX *m)
{
	CHECK_EQ(rt_cond_create(c, NULL), 0);
	CHECK_EQ(rt_mutex_create(m, NULL), 0);
}

static void pair_delete(RT_COND *c, RT_MUTEX *m)
{
	CHECK_EQ(rt_cond_delete(c), 0);
	CHECK_EQ(rt_mutex_delete(m), 0);
}

TEST(create_errors)
{
	RT_COND a, b;
	RT_COND_INFO info;

	CHECK_EQ(rt_cond_create(NULL, "c"), -EINVAL);
	CHECK_EQ(rt_cond_create(&a, "this-name-is-far-too-long-for-it!"),
		 -EINVAL);
	CHECK_EQ(rt_cond_create(&a, "cv"), 0);
	CHECK_EQ(rt_cond_create(&b, "cv"), -EEXIST);
	CHECK_EQ(rt_cond_inquire(&a, &info), 0);
	CHECK_STR(info.name, "cv");
	CHECK_EQ(rt_cond_delete(&a), 0);
	CHECK_EQ(rt_cond_create(&a, NULL), 0);
	CHECK_EQ(rt_cond_create(&b, ""), 0);
	CHECK(a.handle != b.handle);
	CHECK_EQ(rt_cond_delete(&a), 0);
	CHECK_EQ(rt_cond_delete(&b), 0);
}

TEST(bad_descriptors)
{
	struct timespec bad = {.tv_sec = 0, .tv_nsec = 2000000000L};
	RT_COND zero = {0}, junk = {(uintptr_t)0xabcdef}, dead, c;
	RT_COND *bads[] = {&zero, &junk, &dead, NULL};
	RT_MUTEX m, nomutex = {0};
	RT_COND_INFO info;

	CHECK_EQ(rt_cond_create(&dead, NULL), 0);
	CHECK_EQ(rt_cond_delete(&dead), 0);
	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(rt_cond_delete(bads[i]), -EINVAL);
		CHECK_EQ(rt_cond_signal(bads[i]), -EINVAL);
		CHECK_EQ(rt_cond_broadcast(bads[i]), -EINVAL);
		CHECK_EQ(rt_cond_wait(bads[i], &m, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_cond_wait_until(bads[i], &m, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_cond_wait_timed(bads[i], &m, NULL), -EINVAL);
		CHECK_EQ(rt_cond_inquire(bads[i], &info), -EINVAL);
	}
	CHECK_EQ(rt_cond_delete(NULL), -EINVAL);
	CHECK_EQ(rt_cond_signal(NULL), -EINVAL);
	CHECK_EQ(rt_cond_broadcast(NULL), -EINVAL);
	CHECK_EQ(rt_cond_inquire(NULL, &info), -EINVAL);
	CHECK_EQ(rt_cond_wait(NULL, &m, TM_INFINITE), -EINVAL);
	CHECK_EQ(rt_cond_unbind(NULL), -EINVAL);
	CHECK_EQ(rt_cond_bind(NULL, "c", TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_cond_bind(&c, "", TM_NONBLOCK), -EINVAL);

	CHECK_EQ(rt_cond_create(&c, NULL), 0);
	CHECK_EQ(rt_cond_inquire(&c, NULL), -EINVAL);
	CHECK_EQ(rt_cond_wait(&c, NULL, TM_INFINITE), -EINVAL);
	CHECK_EQ(rt_cond_wait(&c, &nomutex, TM_INFINITE), -EINVAL);
	CHECK_EQ(rt_cond_wait_timed(&c, &m, &bad), -EINVAL);
	/* None of these gave the mutex up. */
	CHECK_EQ(holder(&m), me());
	CHECK_EQ(rt_mutex_release(&m), 0);
	pair_delete(&c, &m);
}

TEST(mutex_rules)
{
	struct timespec zero = {0, 0};
	RT_COND c;
	RT_MUTEX m;

	pair_create(&c, &m);
	/* Waiting requires owning the mutex. */
	CHECK_EQ(rt_cond_wait(&c, &m, TM_INFINITE), -EPERM);
	CHECK_EQ(rt_cond_wait(&c, &m, MS), -EPERM);
	/* Non-blocking: returns at once, mutex untouched. */
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	CHECK_EQ(rt_cond_wait(&c, &m, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_cond_wait_until(&c, &m, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_cond_wait_timed(&c, &m, &zero), -EWOULDBLOCK);
	CHECK_EQ(holder(&m), me());
	/* With the scheduler locked the wait is refused before release. */
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_cond_wait(&c, &m, MS), -EPERM);
	CHECK_EQ(holder(&m), me());
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	/* Nesting survives a wait: two acquires, two releases after it. */
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	CHECK_EQ(rt_cond_wait(&c, &m, 1000), -ETIMEDOUT);
	CHECK_EQ(holder(&m), me());
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(holder(&m), me());
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(holder(&m), 0);
	CHECK_EQ(rt_mutex_release(&m), -EPERM);
	/* Nobody waiting: signal and broadcast are no-ops. */
	CHECK_EQ(rt_cond_signal(&c), 0);
	CHECK_EQ(rt_cond_broadcast(&c), 0);
	pair_delete(&c, &m);
}

TEST(wait_releases_then_reacquires)
{
	struct waiter w;
	RT_COND c;
	RT_MUTEX m;

	trail[0] = '\0';
	pair_create(&c, &m);
	start_waiter(&w, &c, &m, "w", 20, TM_INFINITE);
	/* The waiter sleeps on the condition: the mutex is free. */
	CHECK_EQ(holder(&m), 0);
	CHECK_EQ(rt_mutex_acquire(&m, TM_NONBLOCK), 0);
	outcome("signal", 1);
	CHECK_EQ(rt_cond_signal(&c), 0);
	/* Woken, it now waits for our mutex and lends us its priority. */
	CHECK_EQ(my_prio(), 21);
	outcome("release", 1);
	CHECK_EQ(rt_mutex_release(&m), 0);
	outcome("back", 1);
	finish_waiter(&w, 0);
	CHECK_EQ(my_prio(), 0);
	CHECK_STR(trail, "signal release w:0 back");
	pair_delete(&c, &m);
}

/* Waiters of priority 10, 30, 20 (in that arrival order). */
static void three_waiters(struct waiter *w, RT_COND *c, RT_MUTEX *m)
{
	start_waiter(&w[0], c, m, "w10", 10, TM_INFINITE);
	start_waiter(&w[1], c, m, "w30", 30, TM_INFINITE);
	start_waiter(&w[2], c, m, "w20", 20, TM_INFINITE);
}

TEST(priority_order)
{
	struct waiter w[3];
	RT_COND c;
	RT_MUTEX m;

	pair_create(&c, &m);
	/* One signal, one waiter: the most urgent first. */
	trail[0] = '\0';
	three_waiters(w, &c, &m);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(rt_cond_signal(&c), 0);
		outcome("s", 1);
	}
	CHECK_STR(trail, "w30:0 s w20:0 s w10:0 s");
	for (int i = 0; i < 3; i++)
		finish_waiter(&w[i], 0);

	/* Broadcast while main holds the mutex: they queue on it by
	 * priority and get it in that order once main lets go. */
	trail[0] = '\0';
	three_waiters(w, &c, &m);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	CHECK_EQ(rt_cond_broadcast(&c), 0);
	outcome("bcast", 1);
	CHECK_EQ(my_prio(), 31);
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_STR(trail, "bcast w30:0 w20:0 w10:0");
	for (int i = 0; i < 3; i++)
		finish_waiter(&w[i], 0);
	pair_delete(&c, &m);
}

TEST(signal_preempts_and_tlock_defers)
{
	struct waiter w;
	RT_COND c;
	RT_MUTEX m;

	pair_create(&c, &m);
	trail[0] = '\0';
	start_waiter(&w, &c, &m, "w", 40, TM_INFINITE);
	outcome("signal", 1);
	CHECK_EQ(rt_cond_signal(&c), 0);
	outcome("back", 1);
	finish_waiter(&w, 0);
	CHECK_STR(trail, "signal w:0 back");

	trail[0] = '\0';
	start_waiter(&w, &c, &m, "w", 40, TM_INFINITE);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	outcome("signal", 1);
	CHECK_EQ(rt_cond_broadcast(&c), 0);
	outcome("locked", 1);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	outcome("back", 1);
	finish_waiter(&w, 0);
	CHECK_STR(trail, "signal locked w:0 back");
	pair_delete(&c, &m);
}

TEST(timeouts)
{
	bool sim = on_sim();
	struct timespec ts;
	struct waiter w;
	RT_COND c;
	RT_MUTEX m;
	RTIME t0;

	pair_create(&c, &m);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	t0 = rt_timer_read();
	CHECK_EQ(rt_cond_wait(&c, &m, MS), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, MS);
	CHECK_EQ(holder(&m), me());
	t0 = rt_timer_read();
	CHECK_EQ(rt_cond_wait_until(&c, &m, t0 + 1500000), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 1500000);
	t0 = rt_timer_read() + 20000;
	ts.tv_sec = (time_t)(t0 / 1000000000ULL);
	ts.tv_nsec = (long)(t0 % 1000000000ULL);
	CHECK_EQ(rt_cond_wait_timed(&c, &m, &ts), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0);
	/* A date in the past: times out at once, mutex still ours. */
	t0 = rt_timer_read();
	CHECK_EQ(rt_cond_wait_until(&c, &m, 1), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0);
	CHECK_EQ(holder(&m), me());
	CHECK_EQ(rt_mutex_release(&m), 0);

	/* Timed out at 1 ms, but the mutex is only back at 2 ms. */
	trail[0] = '\0';
	t0 = rt_timer_read();
	start_waiter(&w, &c, &m, "w", 20, MS);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	CHECK_EQ(rt_task_sleep(2 * MS), 0);
	outcome("release", 1);
	CHECK_EQ(rt_mutex_release(&m), 0);
	finish_waiter(&w, -ETIMEDOUT);
	if (sim)
		CHECK_EQ(w.at - t0, 2 * MS);
	CHECK_STR(trail, "release w:-110");
	pair_delete(&c, &m);
}

/* Timeouts past the clock's range are infinite: a signal ends them. */
TEST(timeouts_past_the_clock)
{
	static const RTIME far[] = {(RTIME)INT64_MAX, TM_NONBLOCK - 1};
	struct waiter w;
	RT_COND c;
	RT_MUTEX m;
	RTIME t0;

	pair_create(&c, &m);
	for (int i = 0; i < 2; i++) {
		t0 = rt_timer_read();
		start_waiter(&w, &c, &m, "w", 20, far[i]);
		CHECK_EQ(rt_task_sleep(MS), 0);
		CHECK_EQ(rt_cond_signal(&c), 0);
		finish_waiter(&w, 0);
		if (on_sim())
			CHECK_EQ(w.at - t0, MS);
	}
	pair_delete(&c, &m);
}

TEST(unblock_interrupts)
{
	bool sim = on_sim();
	struct waiter w;
	RT_COND c;
	RT_MUTEX m;
	RTIME t0;

	pair_create(&c, &m);
	trail[0] = '\0';
	t0 = rt_timer_read();
	start_waiter(&w, &c, &m, "w", 20, TM_INFINITE);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_unblock(&w.task), 0);
	finish_waiter(&w, -EINTR);
	if (sim)
		CHECK_EQ(w.at - t0, MS);

	/* Unblocked while main holds the mutex: it returns -EINTR only
	 * with the mutex, and a second unblock (now waiting for the
	 * mutex) does not cut the re-acquisition short. */
	start_waiter(&w, &c, &m, "w", 20, TM_INFINITE);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	CHECK_EQ(rt_task_unblock(&w.task), 0);
	CHECK_EQ(rt_task_unblock(&w.task), 0);
	outcome("release", 1);
	CHECK_EQ(rt_mutex_release(&m), 0);
	finish_waiter(&w, -EINTR);
	CHECK_STR(trail, "w:-4 release w:-4");
	pair_delete(&c, &m);
}

TEST(delete_refused_while_waited)
{
	struct waiter w[2];
	RT_COND c;
	RT_MUTEX m;

	trail[0] = '\0';
	CHECK_EQ(rt_cond_create(&c, "busy-cv"), 0);
	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	start_waiter(&w[0], &c, &m, "a", 10, TM_INFINITE);
	start_waiter(&w[1], &c, &m, "b", 20, TM_INFINITE);
	CHECK_EQ(rt_cond_delete(&c), -EBUSY);
	CHECK_EQ(rt_cond_signal(&c), 0);
	CHECK_EQ(rt_cond_delete(&c), -EBUSY);
	CHECK_EQ(rt_cond_signal(&c), 0);
	CHECK_EQ(rt_cond_delete(&c), 0);
	CHECK_EQ(rt_cond_delete(&c), -EINVAL);
	CHECK_EQ(rt_cond_signal(&c), -EINVAL);
	finish_waiter(&w[0], 0);
	finish_waiter(&w[1], 0);
	CHECK_STR(trail, "b:0 a:0");
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

/*
 * A cycle the relock must sit out: A holds M1 and waits on C with M2;
 * B takes M2 and waits for M1 (timed).  A's relock of M2 would close
 * the cycle (B holds M2 and waits for A's M1): it waits, no -EDEADLK,
 * until B times out and lets M2 go.
 */
struct cycle {
	RT_MUTEX m1, m2;
	RT_COND c;
	RTIME cond_timeout, m1_timeout;
	int a_ret, b_ret;
	bool a_owned;
	RT_TASK a, b;
};

static void cycle_a(void *arg)
{
	struct cycle *cy = arg;

	CHECK_EQ(rt_mutex_acquire(&cy->m1, TM_INFINITE), 0);
	CHECK_EQ(rt_mutex_acquire(&cy->m2, TM_INFINITE), 0);
	note("A-waits");
	cy->a_ret = rt_cond_wait(&cy->c, &cy->m2, cy->cond_timeout);
	cy->a_owned = holder(&cy->m2) == me();
	note("A:%d", cy->a_ret);
	CHECK_EQ(rt_mutex_release(&cy->m2), 0);
	CHECK_EQ(rt_mutex_release(&cy->m1), 0);
}

static void cycle_b(void *arg)
{
	struct cycle *cy = arg;

	CHECK_EQ(rt_mutex_acquire(&cy->m2, TM_INFINITE), 0);
	note("B-has-M2");
	cy->b_ret = rt_mutex_acquire(&cy->m1, cy->m1_timeout);
	/* A waits for M2 and lends B its priority until B lets go. */
	note("B:%d/%d", cy->b_ret, my_prio());
	CHECK_EQ(rt_mutex_release(&cy->m2), 0);
	CHECK_EQ(my_prio(), 21);
}

/* The cycle, with main signalling C at 1 ms when @signal. */
static void run_cycle(struct cycle *cy, bool signal)
{
	CHECK_EQ(rt_mutex_create(&cy->m1, NULL), 0);
	pair_create(&cy->c, &cy->m2);
	cy->a_ret = cy->b_ret = 1;
	cy->a_owned = false;
	log_start();
	spawn(&cy->a, 30, cycle_a, cy);
	spawn(&cy->b, 20, cycle_b, cy);
	if (signal) {
		CHECK_EQ(rt_task_sleep(MS), 0);
		note("signal");
		CHECK_EQ(rt_cond_signal(&cy->c), 0);
		note("signalled");
	}
	CHECK_EQ(rt_task_join(&cy->a), 0);
	CHECK_EQ(rt_task_join(&cy->b), 0);
	CHECK_EQ(cy->b_ret, -ETIMEDOUT);
	CHECK(cy->a_owned);
	CHECK_EQ(rt_mutex_delete(&cy->m1), 0);
	pair_delete(&cy->c, &cy->m2);
}

TEST(relock_waits_out_an_owner_cycle)
{
	struct cycle cy = {.cond_timeout = TM_INFINITE,
			   .m1_timeout = margin(5 * MS)};

	run_cycle(&cy, true);
	CHECK_EQ(cy.a_ret, 0);
	check_log("A-waits@0 B-has-M2@0 signal@1000000 signalled@1000000 "
		  "B:-110/31@5000000 A:0@5000000");
}

TEST(timeout_returns_once_relocked)
{
	struct cycle cy = {.cond_timeout = margin(2 * MS),
			   .m1_timeout = margin(5 * MS)};

	/* Timed out at 2 ms, but M2 is A's again only at 5 ms. */
	run_cycle(&cy, false);
	CHECK_EQ(cy.a_ret, -ETIMEDOUT);
	check_log("A-waits@0 B-has-M2@0 B:-110/31@5000000 A:-110@5000000");
}

struct cv_binder {
	RT_COND c;
	RTIME timeout;
	int ret;
	RTIME at;
	RT_TASK task;
};

static void cv_binder_body(void *arg)
{
	struct cv_binder *b = arg;

	b->ret = rt_cond_bind(&b->c, "cv-late", b->timeout);
	b->at = rt_timer_read();
}

static void spawn_cv_binder(struct cv_binder *b, RTIME timeout)
{
	b->timeout = timeout;
	b->ret = 1;
	spawn(&b->task, 30, cv_binder_body, b);
}

TEST(bind_waits_for_creation)
{
	bool sim = on_sim();
	struct cv_binder b;
	RT_COND c, mine;
	RTIME t0;

	CHECK_EQ(rt_cond_bind(&mine, "cv-late", TM_NONBLOCK), -EWOULDBLOCK);
	spawn_cv_binder(&b, TM_INFINITE);
	CHECK_EQ(rt_task_unblock(&b.task), 0);
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_EQ(b.ret, -EINTR);

	t0 = rt_timer_read();
	spawn_cv_binder(&b, 700000);
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_EQ(b.ret, -ETIMEDOUT);
	if (sim)
		CHECK_EQ(b.at - t0, 700000);

	t0 = rt_timer_read();
	spawn_cv_binder(&b, 5 * MS);
	CHECK_EQ(rt_task_sleep(2 * MS), 0);
	CHECK_EQ(rt_cond_create(&c, "cv-late"), 0);
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_EQ(b.ret, 0);
	CHECK_EQ(b.c.handle, c.handle);
	if (sim)
		CHECK_EQ(b.at - t0, 2 * MS);
	CHECK_EQ(rt_cond_bind(&mine, "cv-late", TM_INFINITE), 0);
	CHECK_EQ(rt_cond_signal(&mine), 0);
	CHECK_EQ(rt_cond_unbind(&mine), 0);
	CHECK_EQ(mine.handle, 0);
	CHECK_EQ(rt_cond_signal(&mine), -EINVAL);
	CHECK_EQ(rt_cond_delete(&c), 0);
}

struct stranger {
	RT_COND *c;
	RT_MUTEX *m;
	int create, wait, signal, broadcast, inquire, del;
};

/*
 * An unblock does not break a relock: the waiter stays queued on the
 * mutex (taken off it, it could not know whether the mutex was deleted
 * before it ran again).  B, more urgent, unblocks A in its relock, then
 * releases the mutex, which passes to A, and tries to delete it.
 */
struct relock {
	RT_COND c;
	RT_MUTEX m;
	RT_TASK a, b;
	int a_ret;
	bool a_owned;
};

static void relock_a(void *arg)
{
	struct relock *r = arg;

	CHECK_EQ(rt_mutex_acquire(&r->m, TM_INFINITE), 0);
	r->a_ret = rt_cond_wait(&r->c, &r->m, TM_INFINITE);
	note("A:%d", r->a_ret);
	r->a_owned = rt_mutex_release(&r->m) == 0;
}

static void relock_b(void *arg)
{
	struct relock *r = arg;

	CHECK_EQ(rt_mutex_acquire(&r->m, TM_INFINITE), 0);
	CHECK_EQ(rt_cond_signal(&r->c), 0);
	/* A runs and waits to relock the mutex B holds. */
	CHECK_EQ(rt_task_sleep(MS), 0);
	note("unblock:%d", rt_task_unblock(&r->a));
	CHECK_EQ(rt_mutex_release(&r->m), 0);
	note("delete:%d", rt_mutex_delete(&r->m));
}

TEST(unblock_does_not_break_a_relock)
{
	struct relock r = {.a_ret = 1};

	pair_create(&r.c, &r.m);
	log_start();
	spawn(&r.a, 10, relock_a, &r);
	spawn(&r.b, 20, relock_b, &r);
	CHECK_EQ(rt_task_join(&r.b), 0);
	CHECK_EQ(rt_task_join(&r.a), 0);
	check_log("unblock:0@1000000 delete:-16@1000000 A:0@1000000");
	CHECK(r.a_owned);
	pair_delete(&r.c, &r.m);
}

static void *stranger_body(void *arg)
{
	struct stranger *s = arg;
	RT_COND_INFO info;
	RT_COND mine;

	s->create = rt_cond_create(&mine, NULL) ?: rt_cond_delete(&mine);
	s->wait = rt_cond_wait(s->c, s->m, TM_INFINITE);
	s->signal = rt_cond_signal(s->c);
	s->broadcast = rt_cond_broadcast(s->c);
	s->inquire = rt_cond_inquire(s->c, &info);
	s->del = rt_cond_delete(s->c);
	return NULL;
}

TEST(plain_thread)
{
	struct stranger s = {0};
	RT_COND c;
	RT_MUTEX m;

	pair_create(&c, &m);
	s.c = &c;
	s.m = &m;
	run_plain_thread(stranger_body, &s);
	/* Any Linux thread creates and deletes, as in Xenomai. */
	CHECK_EQ(s.create, 0);
	CHECK_EQ(s.wait, -EPERM);
	CHECK_EQ(s.signal, 0);
	CHECK_EQ(s.broadcast, 0);
	CHECK_EQ(s.inquire, 0);
	CHECK_EQ(s.del, 0);
	CHECK_EQ(rt_cond_delete(&c), -EINVAL);
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

TESTS(T(unblock_does_not_break_a_relock), T(create_errors), T(bad_descriptors),
      T(mutex_rules), T(wait_releases_then_reacquires), T(priority_order),
      T(signal_preempts_and_tlock_defers), T(timeouts),
      T(timeouts_past_the_clock), T(unblock_interrupts),
      T(delete_refused_while_waited), T(relock_waits_out_an_owner_cycle),
      T(timeout_returns_once_relocked), T(bind_waits_for_creation),
      T(plain_thread));
