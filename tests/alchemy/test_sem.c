/* SPDX-License-Identifier: MIT */
/*
 * Alchemy semaphores: argument checking, counting, FIFO/priority
 * queueing, pulse mode, broadcast, timeouts at exact virtual dates
 * (sim), deletion and unblocking of waiters, preemption by a V and its
 * deferral under T_LOCK, binding by name, calls from a plain pthread.
 *
 * main is the lowest task (nucleus priority 0): every task it spawns
 * runs at once, up to its first wait.
 */
#include "alchemy_test.h"

#include <alchemy/sem.h>

struct pender {
	RT_SEM *sem;
	RTIME timeout;
	const char *name;
	int ret;
	RTIME woke;
	RT_TASK task;
};

static void pender_body(void *arg)
{
	struct pender *p = arg;

	p->ret = rt_sem_p(p->sem, p->timeout);
	p->woke = rt_timer_read();
	step(p->name);
}

/* Spawn a joinable task that pends on @sem at Alchemy priority @prio. */
static void pend(struct pender *p, RT_SEM *sem, const char *name, int prio,
		 RTIME timeout)
{
	p->sem = sem;
	p->timeout = timeout;
	p->name = name;
	p->ret = 1;
	spawn(&p->task, prio, pender_body, p);
}

static int nwaiters(RT_SEM *sem)
{
	RT_SEM_INFO info;

	CHECK_EQ(rt_sem_inquire(sem, &info), 0);
	return info.nwaiters;
}

static unsigned long count(RT_SEM *sem)
{
	RT_SEM_INFO info;

	CHECK_EQ(rt_sem_inquire(sem, &info), 0);
	return info.count;
}

TEST(create_errors)
{
	RT_SEM a, b;

	CHECK_EQ(rt_sem_create(NULL, "s", 0, S_FIFO), -EINVAL);
	CHECK_EQ(rt_sem_create(&a, "s", 0, 0x4), -EINVAL);
	CHECK_EQ(rt_sem_create(&a, "s", 0, -1), -EINVAL);
	CHECK_EQ(rt_sem_create(&a, "s", 1, S_PULSE), -EINVAL);
	CHECK_EQ(
	    rt_sem_create(&a, "0123456789abcdef0123456789abcdef", 0, S_FIFO),
	    -EINVAL);
	CHECK_EQ(rt_sem_create(&a, "dup", 0, S_PRIO), 0);
	CHECK_EQ(rt_sem_create(&b, "dup", 0, S_FIFO), -EEXIST);
	CHECK_EQ(rt_sem_delete(&a), 0);
	/* The name is free again; anonymous semaphores never clash. */
	CHECK_EQ(rt_sem_create(&a, "dup", 0, S_PRIO | S_PULSE), 0);
	CHECK_EQ(rt_sem_delete(&a), 0);
	CHECK_EQ(rt_sem_create(&a, NULL, 0, S_FIFO), 0);
	CHECK_EQ(rt_sem_create(&b, "", 0, S_FIFO), 0);
	CHECK(a.handle != b.handle);
	CHECK_EQ(rt_sem_delete(&a), 0);
	CHECK_EQ(rt_sem_delete(&b), 0);
}

TEST(bad_descriptors)
{
	struct timespec bad = {.tv_sec = 0, .tv_nsec = 1000000000L};
	RT_SEM zero = {0}, junk = {(uintptr_t)0xdeadbeef}, huge = {UINTPTR_MAX};
	RT_SEM *bads[] = {&zero, &junk, &huge, NULL};
	RT_SEM gone, ok;
	RT_SEM_INFO info;

	CHECK_EQ(rt_sem_create(&gone, NULL, 1, S_FIFO), 0);
	CHECK_EQ(rt_sem_delete(&gone), 0);
	bads[3] = &gone;
	for (int i = 0; i < 4; i++) {
		RT_SEM *s = bads[i];

		CHECK_EQ(rt_sem_delete(s), -EINVAL);
		CHECK_EQ(rt_sem_p(s, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_sem_p(s, TM_NONBLOCK), -EINVAL);
		CHECK_EQ(rt_sem_p_until(s, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_sem_p_timed(s, NULL), -EINVAL);
		CHECK_EQ(rt_sem_v(s), -EINVAL);
		CHECK_EQ(rt_sem_broadcast(s), -EINVAL);
		CHECK_EQ(rt_sem_inquire(s, &info), -EINVAL);
	}
	CHECK_EQ(rt_sem_delete(NULL), -EINVAL);
	CHECK_EQ(rt_sem_p(NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_sem_p_timed(NULL, NULL), -EINVAL);
	CHECK_EQ(rt_sem_v(NULL), -EINVAL);
	CHECK_EQ(rt_sem_broadcast(NULL), -EINVAL);
	CHECK_EQ(rt_sem_inquire(NULL, &info), -EINVAL);
	CHECK_EQ(rt_sem_unbind(NULL), -EINVAL);
	CHECK_EQ(rt_sem_bind(NULL, "x", TM_NONBLOCK), -EINVAL);

	CHECK_EQ(rt_sem_create(&ok, NULL, 0, S_FIFO), 0);
	CHECK_EQ(rt_sem_inquire(&ok, NULL), -EINVAL);
	CHECK_EQ(rt_sem_p_timed(&ok, &bad), -EINVAL);
	bad.tv_nsec = -1;
	CHECK_EQ(rt_sem_p_timed(&ok, &bad), -EINVAL);
	bad.tv_sec = -1;
	bad.tv_nsec = 0;
	CHECK_EQ(rt_sem_p_timed(&ok, &bad), -EINVAL);
	CHECK_EQ(rt_sem_bind(&gone, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_sem_bind(&gone, "", TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_sem_delete(&ok), 0);
	CHECK_EQ(rt_sem_delete(&ok), -EINVAL);
}

TEST(counting_and_inquire)
{
	struct timespec now = {0, 0};
	RT_SEM s;
	RT_SEM_INFO info;

	CHECK_EQ(rt_sem_create(&s, "counter", 2, S_FIFO), 0);
	memset(&info, 0x55, sizeof(info));
	CHECK_EQ(rt_sem_inquire(&s, &info), 0);
	CHECK_EQ(info.count, 2);
	CHECK_EQ(info.nwaiters, 0);
	CHECK_STR(info.name, "counter");
	CHECK_EQ(rt_sem_p(&s, TM_NONBLOCK), 0);
	CHECK_EQ(rt_sem_p(&s, TM_INFINITE), 0);
	CHECK_EQ(rt_sem_p(&s, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_sem_p_until(&s, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_sem_p_timed(&s, &now), -EWOULDBLOCK);
	CHECK_EQ(count(&s), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(rt_sem_v(&s), 0);
	CHECK_EQ(count(&s), 3);
	CHECK_EQ(rt_sem_p_timed(&s, NULL), 0);
	CHECK_EQ(rt_sem_p_until(&s, TM_INFINITE), 0);
	CHECK_EQ(count(&s), 1);
	CHECK_EQ(rt_sem_delete(&s), 0);
}

TEST(timeouts)
{
	bool sim = on_sim();
	struct timespec ts;
	struct pender p;
	RTIME t0;
	RT_SEM s;

	CHECK_EQ(rt_sem_create(&s, NULL, 0, S_PRIO), 0);
	t0 = rt_timer_read();
	CHECK_EQ(rt_sem_p(&s, MS), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, MS);
	t0 = rt_timer_read();
	CHECK_EQ(rt_sem_p(&s, 1), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, 1);
	t0 = rt_timer_read();
	CHECK_EQ(rt_sem_p_until(&s, t0 + 2500000), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 2500000);
	t0 = rt_timer_read();
	ts.tv_sec = (time_t)((t0 + 300000) / 1000000000ULL);
	ts.tv_nsec = (long)((t0 + 300000) % 1000000000ULL);
	CHECK_EQ(rt_sem_p_timed(&s, &ts), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 300000);
	/* A date already past times out without waiting. */
	t0 = rt_timer_read();
	CHECK_EQ(rt_sem_p_until(&s, 1), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0);

	/* Served before the deadline: returns at the V, not the timeout
	 * (on live with room for an emulator's delays). */
	trail[0] = '\0';
	t0 = rt_timer_read();
	pend(&p, &s, "p", 10, sim ? MS : 1000 * MS);
	CHECK_EQ(rt_task_sleep(sim ? 400000 : 20 * MS), 0);
	step("v");
	CHECK_EQ(rt_sem_v(&s), 0);
	CHECK_EQ(rt_task_join(&p.task), 0);
	CHECK_EQ(p.ret, 0);
	CHECK_STR(trail, "v p");
	if (sim)
		CHECK_EQ(p.woke - t0, 400000);
	CHECK_EQ(count(&s), 0);
	CHECK_EQ(rt_sem_delete(&s), 0);
}

/* Three waiters queued in the order prio 10, 30, 20, released one by one. */
static void queue_order(int mode, const char *expected)
{
	struct pender p[3];
	static const int prio[3] = {10, 30, 20};
	static const char *const name[3] = {"p10", "p30", "p20"};
	RT_SEM s;

	trail[0] = '\0';
	CHECK_EQ(rt_sem_create(&s, NULL, 0, mode), 0);
	for (int i = 0; i < 3; i++)
		pend(&p[i], &s, name[i], prio[i], TM_INFINITE);
	CHECK_EQ(nwaiters(&s), 3);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(rt_sem_v(&s), 0);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(rt_task_join(&p[i].task), 0);
		CHECK_EQ(p[i].ret, 0);
	}
	CHECK_STR(trail, expected);
	CHECK_EQ(count(&s), 0);
	CHECK_EQ(rt_sem_delete(&s), 0);
}

TEST(fifo_order)
{
	queue_order(S_FIFO, "p10 p30 p20");
}

TEST(prio_order)
{
	queue_order(S_PRIO, "p30 p20 p10");
}

TEST(v_preempts_and_tlock_defers)
{
	struct pender p;
	RT_SEM s;
	int mode = -1;

	CHECK_EQ(rt_sem_create(&s, NULL, 0, S_FIFO), 0);
	trail[0] = '\0';
	pend(&p, &s, "high", 50, TM_INFINITE);
	step("v");
	CHECK_EQ(rt_sem_v(&s), 0);
	step("back");
	CHECK_EQ(rt_task_join(&p.task), 0);
	CHECK_STR(trail, "v high back");

	trail[0] = '\0';
	pend(&p, &s, "high", 50, TM_INFINITE);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	step("v");
	CHECK_EQ(rt_sem_v(&s), 0);
	step("locked");
	/* Blocking is refused while the scheduler is locked. */
	CHECK_EQ(rt_sem_p(&s, TM_INFINITE), -EPERM);
	CHECK_EQ(rt_sem_p(&s, MS), -EPERM);
	CHECK_EQ(rt_sem_p(&s, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_sem_v(&s), 0);
	CHECK_EQ(rt_sem_p(&s, TM_INFINITE), 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, &mode), 0);
	CHECK_EQ(mode & T_LOCK, T_LOCK);
	step("back");
	CHECK_EQ(rt_task_join(&p.task), 0);
	CHECK_EQ(p.ret, 0);
	CHECK_STR(trail, "v locked high back");
	CHECK_EQ(rt_sem_delete(&s), 0);
}

TEST(delete_wakes_waiters)
{
	struct pender p[3];
	RT_SEM s;

	trail[0] = '\0';
	CHECK_EQ(rt_sem_create(&s, "doomed", 0, S_FIFO), 0);
	pend(&p[0], &s, "a", 10, TM_INFINITE);
	pend(&p[1], &s, "b", 20, TM_INFINITE);
	pend(&p[2], &s, "c", 15, 1000 * MS);
	step("delete");
	CHECK_EQ(rt_sem_delete(&s), 0);
	step("back");
	CHECK_STR(trail, "delete b c a back");
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(rt_task_join(&p[i].task), 0);
		CHECK_EQ(p[i].ret, -EIDRM);
	}
	CHECK_EQ(rt_sem_delete(&s), -EINVAL);
	CHECK_EQ(rt_sem_v(&s), -EINVAL);
	/* The name went with it. */
	CHECK_EQ(rt_sem_bind(&s, "doomed", TM_NONBLOCK), -EWOULDBLOCK);
}

/* A waiter woken by the deletion deletes the semaphore again. */
static void redelete_body(void *arg)
{
	struct pender *p = arg;

	p->ret = rt_sem_p(p->sem, TM_INFINITE);
	step(rt_sem_delete(p->sem) == -EINVAL ? "gone" : "still there");
}

/*
 * The woken waiters run once the semaphore has left the registry, not
 * while it is being destroyed: else one may delete it again, and the
 * memory is freed twice.
 */
TEST(woken_waiter_deletes_again)
{
	struct pender p = {.name = "waiter"};
	RT_SEM s;

	trail[0] = '\0';
	CHECK_EQ(rt_sem_create(&s, NULL, 0, S_FIFO), 0);
	p.sem = &s;
	spawn(&p.task, 10, redelete_body, &p);
	step("delete");
	CHECK_EQ(rt_sem_delete(&s), 0);
	CHECK_STR(trail, "delete gone");
	CHECK_EQ(rt_task_join(&p.task), 0);
	CHECK_EQ(p.ret, -EIDRM);
}

TEST(unblock_interrupts)
{
	bool sim = on_sim();
	struct pender p[2];
	RTIME t0;
	RT_SEM s;

	trail[0] = '\0';
	CHECK_EQ(rt_sem_create(&s, NULL, 0, S_PRIO), 0);
	t0 = rt_timer_read();
	pend(&p[0], &s, "inf", 10, TM_INFINITE);
	/* Far beyond the 1 ms sleep: a loaded live machine may be late. */
	pend(&p[1], &s, "timed", 20, 1000 * MS);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_unblock(&p[1].task), 0);
	CHECK_EQ(rt_task_unblock(&p[0].task), 0);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(rt_task_join(&p[i].task), 0);
		CHECK_EQ(p[i].ret, -EINTR);
		if (sim)
			CHECK_EQ(p[i].woke - t0, MS);
	}
	CHECK_STR(trail, "timed inf");
	/* Nothing was consumed or left behind. */
	CHECK_EQ(count(&s), 0);
	CHECK_EQ(nwaiters(&s), 0);
	CHECK_EQ(rt_sem_delete(&s), 0);
}

TEST(pulse_mode)
{
	struct pender p[3];
	RT_SEM s;

	trail[0] = '\0';
	CHECK_EQ(rt_sem_create(&s, NULL, 0, S_PULSE | S_PRIO), 0);
	/* A pulse with nobody waiting is lost. */
	CHECK_EQ(rt_sem_v(&s), 0);
	CHECK_EQ(rt_sem_v(&s), 0);
	CHECK_EQ(count(&s), 0);
	CHECK_EQ(rt_sem_p(&s, TM_NONBLOCK), -EWOULDBLOCK);
	pend(&p[0], &s, "a", 10, TM_INFINITE);
	pend(&p[1], &s, "b", 30, TM_INFINITE);
	pend(&p[2], &s, "c", 20, TM_INFINITE);
	/* One pulse, one waiter: the most urgent. */
	CHECK_EQ(rt_sem_v(&s), 0);
	CHECK_STR(trail, "b");
	CHECK_EQ(nwaiters(&s), 2);
	CHECK_EQ(count(&s), 0);
	CHECK_EQ(rt_sem_broadcast(&s), 0);
	CHECK_STR(trail, "b c a");
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(rt_task_join(&p[i].task), 0);
		CHECK_EQ(p[i].ret, 0);
	}
	CHECK_EQ(count(&s), 0);
	CHECK_EQ(rt_sem_delete(&s), 0);
}

TEST(broadcast)
{
	struct pender p[3];
	RT_SEM s;

	trail[0] = '\0';
	CHECK_EQ(rt_sem_create(&s, NULL, 0, S_FIFO), 0);
	/* Nobody waiting: a no-op. */
	CHECK_EQ(rt_sem_broadcast(&s), 0);
	CHECK_EQ(count(&s), 0);
	pend(&p[0], &s, "a", 10, TM_INFINITE);
	pend(&p[1], &s, "b", 20, TM_INFINITE);
	pend(&p[2], &s, "c", 30, TM_INFINITE);
	step("bcast");
	CHECK_EQ(rt_sem_broadcast(&s), 0);
	step("back");
	CHECK_STR(trail, "bcast c b a back");
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(rt_task_join(&p[i].task), 0);
		CHECK_EQ(p[i].ret, 0);
	}
	CHECK_EQ(count(&s), 0);
	CHECK_EQ(rt_sem_delete(&s), 0);

	/* Documented: the count is set to zero. */
	CHECK_EQ(rt_sem_create(&s, NULL, 3, S_FIFO), 0);
	CHECK_EQ(rt_sem_broadcast(&s), 0);
	CHECK_EQ(count(&s), 0);
	CHECK_EQ(rt_sem_delete(&s), 0);
}

static int bind_sem(void *desc, const char *name, RTIME timeout)
{
	return rt_sem_bind(desc, name, timeout);
}

static ssize_t take_bound(struct binder *b)
{
	int taken = rt_sem_p(b->desc, TM_INFINITE);

	step("taken");
	return taken;
}

TEST(bind_waits_for_creation)
{
	bool sim = on_sim();
	RT_SEM s, mine, bound;
	struct binder b = {.bind = bind_sem, .use = take_bound, .desc = &bound};
	RTIME t0;

	trail[0] = '\0';
	check_bind_absent(bind_sem, &mine, "later", 500000);

	t0 = rt_timer_read();
	binder_start(&b, "later", TM_INFINITE);
	CHECK_EQ(rt_task_sleep(MS), 0);
	step("create");
	/* The binder (more urgent) returns before the creation does. */
	CHECK_EQ(rt_sem_create(&s, "later", 0, S_FIFO), 0);
	step("created");
	CHECK_EQ(rt_sem_v(&s), 0);
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_EQ(b.bound, 0);
	CHECK_EQ(b.got, 0);
	CHECK_EQ(bound.handle, s.handle);
	if (sim)
		CHECK_EQ(b.when - t0, MS);
	CHECK_STR(trail, "create bound created taken");

	CHECK_EQ(rt_sem_bind(&mine, "later", TM_NONBLOCK), 0);
	CHECK_EQ(mine.handle, s.handle);
	CHECK_EQ(rt_sem_unbind(&mine), 0);
	CHECK_EQ(mine.handle, 0);
	CHECK_EQ(rt_sem_v(&mine), -EINVAL);
	CHECK_EQ(rt_sem_v(&s), 0);
	CHECK_EQ(count(&s), 1);

	/* A bind wait is broken by rt_task_unblock, and times out exactly. */
	trail[0] = '\0';
	binder_start(&b, "never", TM_INFINITE);
	CHECK_EQ(rt_task_unblock(&b.task), 0);
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_EQ(b.bound, -EINTR);
	t0 = rt_timer_read();
	binder_start(&b, "never", 2 * MS);
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_EQ(b.bound, -ETIMEDOUT);
	if (sim)
		CHECK_EQ(b.when - t0, 2 * MS);
	CHECK_STR(trail, "bound bound");
	CHECK_EQ(rt_sem_delete(&s), 0);
}

/* What a plain pthread (not a task) may and may not do. */
struct foreign {
	RT_SEM *sem;
	int create, p_block, p_nonblock, v, p_avail, bind, del;
};

static void *foreign_body(void *arg)
{
	struct foreign *f = arg;
	RT_SEM other;

	f->create =
	    rt_sem_create(&other, NULL, 0, S_FIFO) ?: rt_sem_delete(&other);
	f->p_block = rt_sem_p(f->sem, TM_INFINITE);
	f->p_nonblock = rt_sem_p(f->sem, TM_NONBLOCK);
	f->v = rt_sem_v(f->sem);
	f->p_avail = rt_sem_p(f->sem, TM_INFINITE);
	f->bind = rt_sem_bind(&other, "absent", TM_INFINITE);
	f->del = rt_sem_delete(f->sem);
	return NULL;
}

TEST(plain_thread)
{
	struct foreign f = {0};
	RT_SEM s;

	CHECK_EQ(rt_sem_create(&s, NULL, 0, S_FIFO), 0);
	f.sem = &s;
	run_plain_thread(foreign_body, &f);
	/* Any Linux thread creates and deletes, as in Xenomai. */
	CHECK_EQ(f.create, 0);
	CHECK_EQ(f.p_block, -EPERM);
	CHECK_EQ(f.p_nonblock, -EWOULDBLOCK);
	CHECK_EQ(f.v, 0);
	CHECK_EQ(f.p_avail, 0);
	CHECK_EQ(f.bind, -EPERM);
	CHECK_EQ(f.del, 0);
	CHECK_EQ(rt_sem_delete(&s), -EINVAL);
}

TESTS(T(create_errors), T(bad_descriptors), T(counting_and_inquire),
      T(timeouts), T(fifo_order), T(prio_order), T(v_preempts_and_tlock_defers),
      T(delete_wakes_waiters), T(woken_waiter_deletes_again),
      T(unblock_interrupts), T(pulse_mode), T(broadcast),
      T(bind_waits_for_creation), T(plain_thread));
