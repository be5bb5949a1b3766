/* SPDX-License-Identifier: MIT */
/*
 * Alchemy event flag groups: argument checking, EV_ALL against EV_ANY,
 * the flags handed to each satisfied waiter (kept even if cleared
 * before it runs), several waiters readied by one signal, preemption by
 * a signal and its deferral under T_LOCK, timeouts at exact virtual
 * dates (sim), deletion (-EIDRM), rt_task_unblock (-EINTR), a waiter's
 * task deleted, deletion racing a waiter's wake-up, binding, calls from
 * a plain pthread.
 */
#include "alchemy_test.h"

#include <alchemy/event.h>

static void log_wait(const char *name, int ret, unsigned int got)
{
	char item[64];

	if (ret)
		snprintf(item, sizeof(item), "%s:%d", name, ret);
	else
		snprintf(item, sizeof(item), "%s=%x", name, got);
	step(item);
}

static unsigned int value_of(RT_EVENT *ev)
{
	RT_EVENT_INFO info;

	CHECK_EQ(rt_event_inquire(ev, &info), 0);
	return info.value;
}

static int waiting(RT_EVENT *ev)
{
	RT_EVENT_INFO info;

	CHECK_EQ(rt_event_inquire(ev, &info), 0);
	return info.nwaiters;
}

struct flag_waiter {
	RT_EVENT *ev;
	unsigned int mask;
	int mode;
	RTIME timeout;
	const char *name;
	int ret;
	unsigned int got;
	RTIME at;
	RT_TASK task;
};

static void flag_waiter_body(void *arg)
{
	struct flag_waiter *w = arg;

	w->ret = rt_event_wait(w->ev, w->mask, &w->got, w->mode, w->timeout);
	w->at = rt_timer_read();
	log_wait(w->name, w->ret, w->got);
}

static void wait_for(struct flag_waiter *w, RT_EVENT *ev, const char *name,
		     int prio, unsigned int mask, int mode, RTIME timeout,
		     int tmode)
{
	w->ev = ev;
	w->name = name;
	w->mask = mask;
	w->mode = mode;
	w->timeout = timeout;
	w->ret = 1;
	w->got = 0xdead;
	CHECK_EQ(
	    rt_task_spawn(&w->task, NULL, 0, prio, tmode, flag_waiter_body, w),
	    0);
}

static void reap(struct flag_waiter *w, int ret, unsigned int got)
{
	CHECK_EQ(rt_task_join(&w->task), 0);
	CHECK_EQ(w->ret, ret);
	if (ret == 0)
		CHECK_EQ(w->got, got);
}

TEST(create_errors)
{
	RT_EVENT a, b;
	RT_EVENT_INFO info;

	CHECK_EQ(rt_event_create(NULL, "e", 0, EV_FIFO), -EINVAL);
	CHECK_EQ(rt_event_create(&a, "e", 0, 0x2), -EINVAL);
	CHECK_EQ(rt_event_create(&a, "e", 0, -1), -EINVAL);
	CHECK_EQ(rt_event_create(&a, "an-event-name-of-thirty-two-chars", 0,
				 EV_FIFO),
		 -EINVAL);
	CHECK_EQ(rt_event_create(&a, "flags", 0x81, EV_PRIO), 0);
	CHECK_EQ(rt_event_create(&b, "flags", 0, EV_FIFO), -EEXIST);
	memset(&info, 0xff, sizeof(info));
	CHECK_EQ(rt_event_inquire(&a, &info), 0);
	CHECK_EQ(info.value, 0x81);
	CHECK_EQ(info.nwaiters, 0);
	CHECK_STR(info.name, "flags");
	CHECK_EQ(rt_event_delete(&a), 0);
	CHECK_EQ(rt_event_create(&a, NULL, 0, EV_FIFO), 0);
	CHECK_EQ(rt_event_create(&b, "", 0, EV_PRIO), 0);
	CHECK(a.handle != b.handle);
	CHECK_EQ(rt_event_delete(&a), 0);
	CHECK_EQ(rt_event_delete(&b), 0);
}

TEST(bad_descriptors)
{
	struct timespec bad = {.tv_sec = -3, .tv_nsec = 0};
	RT_EVENT zero = {0}, junk = {(uintptr_t)0x7777777}, gone, ev;
	RT_EVENT *bads[] = {&zero, &junk, &gone, NULL};
	RT_EVENT_INFO info;
	unsigned int got = 0;

	CHECK_EQ(rt_event_create(&gone, NULL, 0, EV_FIFO), 0);
	CHECK_EQ(rt_event_delete(&gone), 0);
	for (int i = 0; i < 4; i++) {
		RT_EVENT *e = bads[i];

		CHECK_EQ(rt_event_delete(e), -EINVAL);
		CHECK_EQ(rt_event_signal(e, 1), -EINVAL);
		CHECK_EQ(rt_event_clear(e, 1, &got), -EINVAL);
		CHECK_EQ(rt_event_wait(e, 1, &got, EV_ANY, TM_INFINITE),
			 -EINVAL);
		CHECK_EQ(rt_event_wait_until(e, 1, &got, EV_ALL, TM_NONBLOCK),
			 -EINVAL);
		CHECK_EQ(rt_event_wait_timed(e, 1, &got, EV_ALL, NULL),
			 -EINVAL);
		CHECK_EQ(rt_event_inquire(e, &info), -EINVAL);
	}
	CHECK_EQ(got, 0);
	CHECK_EQ(rt_event_delete(NULL), -EINVAL);
	CHECK_EQ(rt_event_signal(NULL, 1), -EINVAL);
	CHECK_EQ(rt_event_clear(NULL, 1, NULL), -EINVAL);
	CHECK_EQ(rt_event_wait(NULL, 1, NULL, EV_ANY, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_event_inquire(NULL, &info), -EINVAL);
	CHECK_EQ(rt_event_unbind(NULL), -EINVAL);
	CHECK_EQ(rt_event_bind(NULL, "e", TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_event_bind(&ev, NULL, TM_NONBLOCK), -EINVAL);

	CHECK_EQ(rt_event_create(&ev, NULL, 1, EV_FIFO), 0);
	CHECK_EQ(rt_event_inquire(&ev, NULL), -EINVAL);
	CHECK_EQ(rt_event_wait(&ev, 1, &got, 0x2, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_event_wait(&ev, 1, &got, EV_ANY | 0x10, TM_INFINITE),
		 -EINVAL);
	CHECK_EQ(rt_event_wait_timed(&ev, 1, &got, EV_ANY, &bad), -EINVAL);
	CHECK_EQ(got, 0);
	CHECK_EQ(rt_event_delete(&ev), 0);
	CHECK_EQ(rt_event_delete(&ev), -EINVAL);
}

TEST(all_versus_any)
{
	struct timespec poll = {0, 0};
	unsigned int got = 0, prev = 0;
	RT_EVENT ev;

	CHECK_EQ(rt_event_create(&ev, NULL, 0, EV_FIFO), 0);
	CHECK_EQ(rt_event_signal(&ev, 0x1), 0);
	CHECK_EQ(rt_event_wait(&ev, 0x3, &got, EV_ALL, TM_NONBLOCK),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_event_wait_until(&ev, 0x3, &got, EV_ALL, TM_NONBLOCK),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_event_wait_timed(&ev, 0x3, &got, EV_ALL, &poll),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_event_wait(&ev, 0x6, &got, EV_ANY, TM_NONBLOCK),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_event_wait(&ev, 0x3, &got, EV_ANY, TM_NONBLOCK), 0);
	CHECK_EQ(got, 0x1);
	CHECK_EQ(rt_event_signal(&ev, 0x6), 0);
	/* Only the awaited bits come back, and waiting consumes none. */
	CHECK_EQ(rt_event_wait(&ev, 0x3, &got, EV_ALL, TM_INFINITE), 0);
	CHECK_EQ(got, 0x3);
	CHECK_EQ(rt_event_wait_timed(&ev, 0xc, &got, EV_ANY, NULL), 0);
	CHECK_EQ(got, 0x4);
	CHECK_EQ(value_of(&ev), 0x7);
	/* A null mask returns the whole group at once, whatever the mode. */
	CHECK_EQ(rt_event_wait(&ev, 0, &got, EV_ALL, TM_INFINITE), 0);
	CHECK_EQ(got, 0x7);
	CHECK_EQ(rt_event_wait(&ev, 0x1, NULL, EV_ANY, TM_NONBLOCK), 0);
	CHECK_EQ(rt_event_clear(&ev, 0x5, &prev), 0);
	CHECK_EQ(prev, 0x7);
	CHECK_EQ(value_of(&ev), 0x2);
	CHECK_EQ(rt_event_clear(&ev, 0xffffffffu, NULL), 0);
	CHECK_EQ(value_of(&ev), 0);
	CHECK_EQ(rt_event_wait(&ev, 0, &got, EV_ANY, TM_NONBLOCK), 0);
	CHECK_EQ(got, 0);
	CHECK_EQ(rt_event_delete(&ev), 0);
}

TEST(waiters_satisfied_by_signal)
{
	struct flag_waiter w[4];
	RT_EVENT ev;

	trail[0] = '\0';
	CHECK_EQ(rt_event_create(&ev, NULL, 0, EV_PRIO), 0);
	wait_for(&w[0], &ev, "all5", 10, 0x5, EV_ALL, TM_INFINITE, T_JOINABLE);
	wait_for(&w[1], &ev, "any5", 30, 0x5, EV_ANY, TM_INFINITE, T_JOINABLE);
	wait_for(&w[2], &ev, "any3", 20, 0x3, EV_ANY, TM_INFINITE, T_JOINABLE);
	wait_for(&w[3], &ev, "all8", 40, 0x8, EV_ALL, TM_INFINITE, T_JOINABLE);
	CHECK_EQ(waiting(&ev), 4);
	/* 0x1 satisfies both EV_ANY waiters, readied at once: by priority. */
	CHECK_EQ(rt_event_signal(&ev, 0x1), 0);
	CHECK_STR(trail, "any5=1 any3=1");
	CHECK_EQ(waiting(&ev), 2);
	CHECK_EQ(rt_event_signal(&ev, 0x2), 0);
	CHECK_STR(trail, "any5=1 any3=1");
	CHECK_EQ(rt_event_signal(&ev, 0x4), 0);
	CHECK_STR(trail, "any5=1 any3=1 all5=5");
	CHECK_EQ(waiting(&ev), 1);
	CHECK_EQ(rt_event_signal(&ev, 0x8), 0);
	CHECK_STR(trail, "any5=1 any3=1 all5=5 all8=8");
	reap(&w[0], 0, 0x5);
	reap(&w[1], 0, 0x1);
	reap(&w[2], 0, 0x1);
	reap(&w[3], 0, 0x8);
	CHECK_EQ(value_of(&ev), 0xf);
	CHECK_EQ(waiting(&ev), 0);
	CHECK_EQ(rt_event_delete(&ev), 0);
}

/* Many waiters at once, each served with its own flags. */
TEST(many_waiters)
{
	static const char *const names[6] = {"b0", "b1", "b2",
					     "b3", "b4", "b5"};
	struct flag_waiter w[6];
	RT_EVENT ev;

	trail[0] = '\0';
	CHECK_EQ(rt_event_create(&ev, NULL, 0, EV_FIFO), 0);
	for (int i = 0; i < 6; i++)
		wait_for(&w[i], &ev, names[i], 10 + i, 1u << i, EV_ALL,
			 TM_INFINITE, T_JOINABLE);
	CHECK_EQ(rt_event_signal(&ev, 0x3f), 0);
	for (int i = 0; i < 6; i++)
		reap(&w[i], 0, 1u << i);
	/* The exact order on sim; the second round checks it on both. */
	if (on_sim())
		CHECK_STR(trail, "b5=20 b4=10 b3=8 b2=4 b1=2 b0=1");
	CHECK_EQ(waiting(&ev), 0);
	/* A second round, with the group's wait queue reused. */
	CHECK_EQ(rt_event_clear(&ev, 0x3f, NULL), 0);
	trail[0] = '\0';
	for (int i = 0; i < 6; i++)
		wait_for(&w[i], &ev, names[i], 10 + i, 1u << i, EV_ANY,
			 TM_INFINITE, T_JOINABLE);
	CHECK_EQ(waiting(&ev), 6);
	CHECK_EQ(rt_event_signal(&ev, 0x3f), 0);
	for (int i = 0; i < 6; i++)
		reap(&w[i], 0, 1u << i);
	CHECK_STR(trail, "b5=20 b4=10 b3=8 b2=4 b1=2 b0=1");
	CHECK_EQ(rt_event_delete(&ev), 0);
}

TEST(signal_preempts_and_tlock_defers)
{
	struct flag_waiter w;
	RT_EVENT ev;

	trail[0] = '\0';
	CHECK_EQ(rt_event_create(&ev, NULL, 0, EV_FIFO), 0);
	wait_for(&w, &ev, "w", 50, 0x10, EV_ANY, TM_INFINITE, T_JOINABLE);
	log_wait("signal", 0, 0);
	CHECK_EQ(rt_event_signal(&ev, 0x30), 0);
	log_wait("back", 0, 0);
	reap(&w, 0, 0x10);
	CHECK_STR(trail, "signal=0 w=10 back=0");

	/* Signalled then cleared before it runs: it keeps what it got. */
	trail[0] = '\0';
	CHECK_EQ(rt_event_clear(&ev, 0xff, NULL), 0);
	wait_for(&w, &ev, "w", 50, 0x8, EV_ALL, TM_INFINITE, T_JOINABLE);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_event_signal(&ev, 0x8), 0);
	CHECK_EQ(rt_event_clear(&ev, 0x8, NULL), 0);
	log_wait("locked", 0, 0);
	/* Blocking is refused while locked; polling is not. */
	CHECK_EQ(rt_event_wait(&ev, 0x8, NULL, EV_ALL, TM_INFINITE), -EPERM);
	CHECK_EQ(rt_event_wait(&ev, 0x8, NULL, EV_ALL, TM_NONBLOCK),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	log_wait("back", 0, 0);
	reap(&w, 0, 0x8);
	CHECK_STR(trail, "locked=0 w=8 back=0");
	CHECK_EQ(value_of(&ev), 0);
	CHECK_EQ(rt_event_delete(&ev), 0);
}

TEST(timeouts)
{
	bool sim = on_sim();
	struct flag_waiter w;
	struct timespec ts;
	unsigned int got = 0;
	RT_EVENT ev;
	RTIME t0;

	CHECK_EQ(rt_event_create(&ev, NULL, 0x1, EV_FIFO), 0);
	t0 = rt_timer_read();
	CHECK_EQ(rt_event_wait(&ev, 0x3, &got, EV_ALL, MS), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, MS);
	t0 = rt_timer_read();
	CHECK_EQ(rt_event_wait_until(&ev, 0x2, &got, EV_ANY, t0 + 3 * MS),
		 -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 3 * MS);
	t0 = rt_timer_read() + 12345;
	ts.tv_sec = (time_t)(t0 / 1000000000ULL);
	ts.tv_nsec = (long)(t0 % 1000000000ULL);
	CHECK_EQ(rt_event_wait_timed(&ev, 0x2, &got, EV_ANY, &ts), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0);
	t0 = rt_timer_read();
	CHECK_EQ(rt_event_wait_until(&ev, 0x2, &got, EV_ANY, 1), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0);
	CHECK_EQ(waiting(&ev), 0);

	/* Satisfied before its deadline: returns at the signal.  On live
	 * the deadline is roomy: an emulator's sleeps overshoot by ms. */
	trail[0] = '\0';
	t0 = rt_timer_read();
	wait_for(&w, &ev, "w", 20, 0x6, EV_ALL, sim ? 2 * MS : 200 * MS,
		 T_JOINABLE);
	CHECK_EQ(rt_task_sleep(MS / 2), 0);
	CHECK_EQ(rt_event_signal(&ev, 0x2), 0);
	CHECK_EQ(rt_task_sleep(MS / 2), 0);
	CHECK_EQ(rt_event_signal(&ev, 0x4), 0);
	reap(&w, 0, 0x6);
	if (sim)
		CHECK_EQ(w.at - t0, MS);
	CHECK_STR(trail, "w=6");
	CHECK_EQ(rt_event_delete(&ev), 0);
}

TEST(delete_wakes_waiters)
{
	struct flag_waiter w[2];
	RT_EVENT ev;

	trail[0] = '\0';
	CHECK_EQ(rt_event_create(&ev, "gone-soon", 0, EV_FIFO), 0);
	wait_for(&w[0], &ev, "a", 10, 0x1, EV_ANY, TM_INFINITE, T_JOINABLE);
	wait_for(&w[1], &ev, "b", 20, 0x3, EV_ALL, 5 * MS, T_JOINABLE);
	log_wait("delete", 0, 0);
	CHECK_EQ(rt_event_delete(&ev), 0);
	log_wait("back", 0, 0);
	reap(&w[0], -EIDRM, 0);
	reap(&w[1], -EIDRM, 0);
	CHECK_STR(trail, "delete=0 b:-43 a:-43 back=0");
	CHECK_EQ(rt_event_signal(&ev, 1), -EINVAL);
	CHECK_EQ(rt_event_delete(&ev), -EINVAL);
	CHECK_EQ(rt_event_bind(&ev, "gone-soon", TM_NONBLOCK), -EWOULDBLOCK);
}

TEST(unblock_interrupts)
{
	bool sim = on_sim();
	struct flag_waiter w;
	RT_EVENT ev;
	RTIME t0;

	trail[0] = '\0';
	CHECK_EQ(rt_event_create(&ev, NULL, 0, EV_PRIO), 0);
	t0 = rt_timer_read();
	wait_for(&w, &ev, "w", 20, 0x1, EV_ANY, TM_INFINITE, T_JOINABLE);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_unblock(&w.task), 0);
	reap(&w, -EINTR, 0);
	if (sim)
		CHECK_EQ(w.at - t0, MS);
	CHECK_EQ(waiting(&ev), 0);
	/* The group works on: the unblocked wait left nothing behind. */
	wait_for(&w, &ev, "w", 20, 0x1, EV_ANY, TM_INFINITE, T_JOINABLE);
	CHECK_EQ(rt_event_signal(&ev, 0x1), 0);
	reap(&w, 0, 0x1);
	CHECK_STR(trail, "w:-4 w=1");
	CHECK_EQ(rt_event_delete(&ev), 0);
}

TEST(waiting_task_deleted)
{
	struct flag_waiter dead, live, gone;
	RT_EVENT ev;

	trail[0] = '\0';
	CHECK_EQ(rt_event_create(&ev, NULL, 0, EV_FIFO), 0);
	wait_for(&dead, &ev, "dead", 20, 0x1, EV_ANY, TM_INFINITE, 0);
	wait_for(&live, &ev, "live", 10, 0x1, EV_ANY, TM_INFINITE, T_JOINABLE);
	CHECK_EQ(waiting(&ev), 2);
	CHECK_EQ(rt_task_delete(&dead.task), 0);
	CHECK_EQ(waiting(&ev), 1);
	CHECK_EQ(rt_event_signal(&ev, 0x1), 0);
	reap(&live, 0, 0x1);
	CHECK_EQ(rt_event_signal(&ev, 0x1), 0);
	CHECK_STR(trail, "live=1");
	/* Satisfied, then deleted before it runs: its wait leaves
	 * nothing behind (LeakSanitizer checks it). */
	CHECK_EQ(rt_event_clear(&ev, 0x1, NULL), 0);
	wait_for(&gone, &ev, "gone", 20, 0x1, EV_ANY, TM_INFINITE, 0);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_event_signal(&ev, 0x1), 0);
	CHECK_EQ(waiting(&ev), 0);
	CHECK_EQ(rt_task_delete(&gone.task), 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	CHECK_STR(trail, "live=1");
	CHECK_EQ(rt_event_delete(&ev), 0);
}

/*
 * Deletion between a waiter's wake-up and its return to the CPU (main
 * keeps the CPU under T_LOCK): both leave cleanly, the timed-out waiter
 * with -ETIMEDOUT, the satisfied one with -EIDRM.
 */
TEST(delete_races_wakeup)
{
	struct flag_waiter late, served;
	RT_EVENT ev;

	trail[0] = '\0';
	CHECK_EQ(rt_event_create(&ev, NULL, 0, EV_FIFO), 0);
	wait_for(&served, &ev, "served", 30, 0x2, EV_ANY, TM_INFINITE,
		 T_JOINABLE);
	/* The timed waiter blocks last and with a wide margin, so that main
	 * holds T_LOCK before it times out even under an emulator. */
	wait_for(&late, &ev, "late", 20, 0x1, EV_ANY, 30 * MS, T_JOINABLE);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	rt_timer_spin(60 * MS);
	CHECK_EQ(rt_event_signal(&ev, 0x2), 0);
	CHECK_EQ(rt_event_delete(&ev), 0);
	log_wait("unlock", 0, 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	/* Satisfied, but the flags went with the group (as Xenomai). */
	reap(&late, -ETIMEDOUT, 0);
	reap(&served, -EIDRM, 0);
	CHECK_STR(trail, "unlock=0 served:-43 late:-110");
}

struct ev_binder {
	RT_EVENT ev;
	RTIME timeout;
	int ret;
	RTIME at;
	RT_TASK task;
};

static void ev_binder_body(void *arg)
{
	struct ev_binder *b = arg;

	b->ret = rt_event_bind(&b->ev, "ev-late", b->timeout);
	b->at = rt_timer_read();
}

TEST(bind_waits_for_creation)
{
	bool sim = on_sim();
	struct ev_binder b = {.timeout = TM_INFINITE, .ret = 1};
	RT_EVENT ev, mine;
	RTIME t0;

	CHECK_EQ(rt_event_bind(&mine, "ev-late", TM_NONBLOCK), -EWOULDBLOCK);
	t0 = rt_timer_read();
	CHECK_EQ(rt_event_bind(&mine, "ev-late", 100000), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, 100000);
	spawn(&b.task, 20, ev_binder_body, &b);
	CHECK_EQ(rt_task_unblock(&b.task), 0);
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_EQ(b.ret, -EINTR);

	b.ret = 1;
	t0 = rt_timer_read();
	spawn(&b.task, 20, ev_binder_body, &b);
	CHECK_EQ(rt_task_sleep(3 * MS), 0);
	CHECK_EQ(rt_event_create(&ev, "ev-late", 0x40, EV_FIFO), 0);
	CHECK_EQ(b.ret, 0);
	CHECK_EQ(rt_task_join(&b.task), 0);
	if (sim)
		CHECK_EQ(b.at - t0, 3 * MS);
	CHECK_EQ(b.ev.handle, ev.handle);
	CHECK_EQ(value_of(&b.ev), 0x40);
	CHECK_EQ(rt_event_unbind(&b.ev), 0);
	CHECK_EQ(b.ev.handle, 0);
	CHECK_EQ(rt_event_signal(&b.ev, 1), -EINVAL);
	CHECK_EQ(rt_event_delete(&ev), 0);
}

struct outside {
	RT_EVENT *ev;
	int create, block, poll, signal, clear, inquire;
	unsigned int got;
};

static void *outside_body(void *arg)
{
	struct outside *o = arg;
	RT_EVENT_INFO info;
	RT_EVENT mine;

	o->create =
	    rt_event_create(&mine, NULL, 0, EV_FIFO) ?: rt_event_delete(&mine);
	o->block = rt_event_wait(o->ev, 0x2, &o->got, EV_ALL, TM_INFINITE);
	o->poll = rt_event_wait(o->ev, 0x1, &o->got, EV_ALL, TM_NONBLOCK);
	o->signal = rt_event_signal(o->ev, 0x4);
	o->clear = rt_event_clear(o->ev, 0x1, NULL);
	o->inquire = rt_event_inquire(o->ev, &info);
	return NULL;
}

TEST(plain_thread)
{
	struct outside o = {0};
	RT_EVENT ev;

	CHECK_EQ(rt_event_create(&ev, NULL, 0x1, EV_FIFO), 0);
	o.ev = &ev;
	run_plain_thread(outside_body, &o);
	/* Any Linux thread creates and deletes, as in Xenomai. */
	CHECK_EQ(o.create, 0);
	CHECK_EQ(o.block, -EPERM);
	CHECK_EQ(o.poll, 0);
	CHECK_EQ(o.got, 0x1);
	CHECK_EQ(o.signal, 0);
	CHECK_EQ(o.clear, 0);
	CHECK_EQ(o.inquire, 0);
	CHECK_EQ(value_of(&ev), 0x4);
	CHECK_EQ(rt_event_delete(&ev), 0);
}

TESTS(T(create_errors), T(bad_descriptors), T(all_versus_any),
      T(waiters_satisfied_by_signal), T(many_waiters),
      T(signal_preempts_and_tlock_defers), T(timeouts), T(delete_wakes_waiters),
      T(unblock_interrupts), T(waiting_task_deleted), T(delete_races_wakeup),
      T(bind_waits_for_creation), T(plain_thread));
