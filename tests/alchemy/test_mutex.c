/* SPDX-License-Identifier: MIT */
/*
 * Alchemy mutexes: argument checking, recursion and ownership rules,
 * deletion refused while in use, timeouts at exact virtual dates (sim),
 * priority inheritance (seen through the nucleus effective priority,
 * and in the order of a classic inversion), release preempting the
 * caller and T_LOCK deferring it, rt_task_unblock, owner deletion,
 * binding, owner cycles, calls from a plain pthread.
 */
#include "alchemy_test.h"

#include <alchemy/mutex.h>
#include <alchemy/sem.h>

static uintptr_t owner_of(RT_MUTEX *m)
{
	RT_MUTEX_INFO info;

	CHECK_EQ(rt_mutex_inquire(m, &info), 0);
	return info.owner.handle;
}

/* A task that locks @m (with @timeout), optionally parks, then unlocks. */
struct locker {
	RT_MUTEX *m;
	RTIME timeout;
	RT_SEM *park; /* if set: wait there while holding the mutex */
	const char *name;
	int ret;
	RTIME at;
	int prio_held, prio_after;
	struct nk_thread *thread;
	RT_TASK task;
};

static void locker_body(void *arg)
{
	struct locker *l = arg;
	char what[40];

	l->thread = nk_thread_self(test_runtime());
	l->ret = rt_mutex_acquire(l->m, l->timeout);
	l->at = rt_timer_read();
	snprintf(what, sizeof(what), "%s:%d", l->name, l->ret);
	step(what);
	if (l->ret)
		return;
	if (l->park && rt_sem_p(l->park, TM_INFINITE) == 0) {
		snprintf(what, sizeof(what), "%s-works", l->name);
		step(what);
	}
	l->prio_held = my_prio();
	CHECK_EQ(rt_mutex_release(l->m), 0);
	l->prio_after = my_prio();
	snprintf(what, sizeof(what), "%s-out", l->name);
	step(what);
}

static void locker(struct locker *l, RT_MUTEX *m, const char *name, int prio,
		   RTIME timeout, RT_SEM *park)
{
	memset(l, 0, sizeof(*l));
	l->m = m;
	l->name = name;
	l->timeout = timeout;
	l->park = park;
	l->ret = 1;
	CHECK_EQ(
	    rt_task_spawn(&l->task, name, 0, prio, T_JOINABLE, locker_body, l),
	    0);
}

TEST(create_errors)
{
	RT_MUTEX a, b;

	CHECK_EQ(rt_mutex_create(NULL, "m"), -EINVAL);
	CHECK_EQ(rt_mutex_create(&a, "0123456789abcdef0123456789abcdef"),
		 -EINVAL);
	CHECK_EQ(rt_mutex_create(&a, "taken"), 0);
	CHECK_EQ(rt_mutex_create(&b, "taken"), -EEXIST);
	CHECK_EQ(rt_mutex_delete(&a), 0);
	CHECK_EQ(rt_mutex_create(&a, NULL), 0);
	CHECK_EQ(rt_mutex_create(&b, ""), 0);
	CHECK(a.handle != b.handle);
	CHECK_EQ(owner_of(&a), 0);
	CHECK_EQ(rt_mutex_delete(&a), 0);
	CHECK_EQ(rt_mutex_delete(&b), 0);
}

TEST(bad_descriptors)
{
	struct timespec bad = {.tv_sec = 1, .tv_nsec = -5};
	RT_MUTEX zero = {0}, junk = {(uintptr_t)0x12345678}, huge = {~0ul};
	RT_MUTEX *list[] = {&zero, &junk, &huge, NULL}, old, m;
	RT_MUTEX_INFO info;

	CHECK_EQ(rt_mutex_create(&old, NULL), 0);
	CHECK_EQ(rt_mutex_delete(&old), 0);
	list[3] = &old;
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(rt_mutex_delete(list[i]), -EINVAL);
		CHECK_EQ(rt_mutex_acquire(list[i], TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_mutex_acquire(list[i], TM_NONBLOCK), -EINVAL);
		CHECK_EQ(rt_mutex_acquire_until(list[i], 5), -EINVAL);
		CHECK_EQ(rt_mutex_acquire_timed(list[i], NULL), -EINVAL);
		CHECK_EQ(rt_mutex_release(list[i]), -EINVAL);
		CHECK_EQ(rt_mutex_inquire(list[i], &info), -EINVAL);
	}
	CHECK_EQ(rt_mutex_delete(NULL), -EINVAL);
	CHECK_EQ(rt_mutex_acquire(NULL, TM_INFINITE), -EINVAL);
	CHECK_EQ(rt_mutex_acquire_timed(NULL, NULL), -EINVAL);
	CHECK_EQ(rt_mutex_release(NULL), -EINVAL);
	CHECK_EQ(rt_mutex_inquire(NULL, &info), -EINVAL);
	CHECK_EQ(rt_mutex_bind(NULL, "m", TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_mutex_bind(&m, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_mutex_unbind(NULL), -EINVAL);
	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	CHECK_EQ(rt_mutex_inquire(&m, NULL), -EINVAL);
	CHECK_EQ(rt_mutex_acquire_timed(&m, &bad), -EINVAL);
	CHECK_EQ(owner_of(&m), 0);
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

TEST(recursion_and_ownership)
{
	RT_TASK *self = rt_task_self();
	struct locker l;
	RT_MUTEX_INFO info;
	RT_MUTEX m;

	CHECK(self != NULL);
	CHECK_EQ(rt_mutex_create(&m, "rec"), 0);
	/* Releasing a free mutex: not the owner. */
	CHECK_EQ(rt_mutex_release(&m), -EPERM);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	CHECK_EQ(rt_mutex_acquire(&m, TM_NONBLOCK), 0);
	CHECK_EQ(rt_mutex_acquire_until(&m, TM_INFINITE), 0);
	CHECK_EQ(rt_mutex_inquire(&m, &info), 0);
	CHECK_EQ(info.owner.handle, self->handle);
	CHECK_STR(info.name, "rec");

	/* Another task can neither take nor release it. */
	trail[0] = '\0';
	locker(&l, &m, "other", 10, TM_NONBLOCK, NULL);
	CHECK_EQ(rt_task_join(&l.task), 0);
	CHECK_EQ(l.ret, -EWOULDBLOCK);
	CHECK_STR(trail, "other:-11");

	/* Three acquires, three releases; the fourth is refused. */
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(owner_of(&m), self->handle);
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(owner_of(&m), 0);
	CHECK_EQ(rt_mutex_release(&m), -EPERM);
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

struct intruder {
	RT_MUTEX *m;
	int release, del;
	RT_TASK task;
};

static void intruder_body(void *arg)
{
	struct intruder *x = arg;

	x->release = rt_mutex_release(x->m);
	x->del = rt_mutex_delete(x->m);
}

TEST(release_by_non_owner)
{
	struct intruder x = {0};
	RT_MUTEX m;

	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	x.m = &m;
	spawn(&x.task, 10, intruder_body, &x);
	CHECK_EQ(rt_task_join(&x.task), 0);
	CHECK_EQ(x.release, -EPERM);
	CHECK_EQ(x.del, -EBUSY);
	CHECK_EQ(owner_of(&m), rt_task_self()->handle);
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

TEST(delete_refused_while_used)
{
	struct locker w;
	RT_MUTEX m;

	trail[0] = '\0';
	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	/* Locked, even by the caller: -EBUSY, as pthread_mutex_destroy. */
	CHECK_EQ(rt_mutex_delete(&m), -EBUSY);
	locker(&w, &m, "w", 20, TM_INFINITE, NULL);
	CHECK_EQ(rt_mutex_delete(&m), -EBUSY);
	/* The waiter was not disturbed: it gets the mutex on release. */
	step("release");
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(rt_task_join(&w.task), 0);
	CHECK_STR(trail, "release w:0 w-out");
	CHECK_EQ(rt_mutex_delete(&m), 0);
	CHECK_EQ(rt_mutex_delete(&m), -EINVAL);
}

TEST(timeouts)
{
	bool sim = on_sim();
	struct timespec now0 = {0, 0};
	struct locker h, w;
	RT_SEM park;
	RT_MUTEX m;
	RTIME t0;

	trail[0] = '\0';
	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	CHECK_EQ(rt_sem_create(&park, NULL, 0, S_FIFO), 0);
	/* A task waits on main's mutex and times out. */
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	t0 = rt_timer_read();
	locker(&w, &m, "w", 20, MS, NULL);
	CHECK_EQ(rt_task_join(&w.task), 0);
	CHECK_EQ(w.ret, -ETIMEDOUT);
	if (sim)
		CHECK_EQ(w.at - t0, MS);
	CHECK_EQ(rt_mutex_release(&m), 0);

	/* main waits on a task's mutex: relative, absolute, timespec. */
	locker(&h, &m, "h", 10, TM_INFINITE, &park);
	t0 = rt_timer_read();
	CHECK_EQ(rt_mutex_acquire(&m, MS), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, MS);
	t0 = rt_timer_read();
	CHECK_EQ(rt_mutex_acquire_until(&m, t0 + 700000), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 700000);
	t0 = rt_timer_read() + 250000;
	{
		struct timespec ts = {(time_t)(t0 / 1000000000ULL),
				      (long)(t0 % 1000000000ULL)};

		CHECK_EQ(rt_mutex_acquire_timed(&m, &ts), -ETIMEDOUT);
	}
	if (sim)
		CHECK_EQ(rt_timer_read(), t0);
	CHECK_EQ(rt_mutex_acquire(&m, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_mutex_acquire_until(&m, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_mutex_acquire_timed(&m, &now0), -EWOULDBLOCK);
	CHECK_EQ(rt_mutex_acquire_until(&m, 1), -ETIMEDOUT);
	CHECK_EQ(owner_of(&m), h.task.handle);
	CHECK_EQ(rt_sem_v(&park), 0);
	CHECK_EQ(rt_task_join(&h.task), 0);
	CHECK_STR(trail, "w:-110 h:0 h-works h-out");
	/* Free now: the timed forms take it at once. */
	CHECK_EQ(rt_mutex_acquire_timed(&m, &now0), 0);
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(rt_sem_delete(&park), 0);
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

struct sleeper {
	RT_SEM *gate;
	const char *name;
	RT_TASK task;
};

static void sleeper_body(void *arg)
{
	struct sleeper *s = arg;

	if (rt_sem_p(s->gate, TM_INFINITE) == 0)
		step(s->name);
}

/*
 * The classic inversion: low holds the mutex high needs, mid is ready
 * too.  With inheritance low runs (at high's priority) before mid.
 */
TEST(priority_inheritance)
{
	struct locker low, high;
	struct sleeper mid;
	RT_SEM gate, gate2;
	RT_TASK_INFO info;
	RT_MUTEX m;

	trail[0] = '\0';
	CHECK_EQ(rt_mutex_create(&m, "pi"), 0);
	CHECK_EQ(rt_sem_create(&gate, NULL, 0, S_FIFO), 0);
	CHECK_EQ(rt_sem_create(&gate2, NULL, 0, S_FIFO), 0);
	locker(&low, &m, "low", 10, TM_INFINITE, &gate);
	CHECK_EQ(nk_thread_effective_priority(low.thread), 11);
	locker(&high, &m, "high", 30, TM_INFINITE, NULL);
	/* Boosted to high's nucleus priority; the base is unchanged. */
	CHECK_EQ(nk_thread_effective_priority(low.thread), 31);
	CHECK_EQ(nk_thread_priority(low.thread), 11);
	CHECK_EQ(rt_task_inquire(&low.task, &info), 0);
	CHECK_EQ(info.prio, 10);
	CHECK_EQ(owner_of(&m), low.task.handle);
	mid.gate = &gate2;
	mid.name = "mid";
	spawn(&mid.task, 20, sleeper_body, &mid);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_sem_v(&gate2), 0);
	CHECK_EQ(rt_sem_v(&gate), 0);
	step("unlock");
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	CHECK_EQ(rt_task_join(&low.task), 0);
	CHECK_EQ(rt_task_join(&high.task), 0);
	CHECK_EQ(rt_task_join(&mid.task), 0);
	CHECK_STR(trail, "low:0 unlock low-works high:0 high-out mid low-out");
	CHECK_EQ(low.prio_held, 31);
	CHECK_EQ(low.prio_after, 11);
	CHECK_EQ(high.prio_held, 31);
	CHECK_EQ(owner_of(&m), 0);
	CHECK_EQ(rt_sem_delete(&gate), 0);
	CHECK_EQ(rt_sem_delete(&gate2), 0);
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

TEST(release_preempts_and_tlock_defers)
{
	struct locker w, h;
	RT_SEM park;
	RT_MUTEX m, other;

	trail[0] = '\0';
	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	locker(&w, &m, "w", 40, TM_INFINITE, NULL);
	step("release");
	CHECK_EQ(rt_mutex_release(&m), 0);
	step("back");
	CHECK_EQ(rt_task_join(&w.task), 0);
	CHECK_STR(trail, "release w:0 w-out back");

	trail[0] = '\0';
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	locker(&w, &m, "w", 40, TM_INFINITE, NULL);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_mutex_release(&m), 0);
	step("locked");
	/* Ownership passed to the waiter already; it runs at unlock. */
	CHECK_EQ(owner_of(&m), w.task.handle);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	step("back");
	CHECK_EQ(rt_task_join(&w.task), 0);
	CHECK_STR(trail, "locked w:0 w-out back");

	/* Under T_LOCK: a free mutex is taken, an owned one would block. */
	trail[0] = '\0';
	CHECK_EQ(rt_sem_create(&park, NULL, 0, S_FIFO), 0);
	CHECK_EQ(rt_mutex_create(&other, NULL), 0);
	locker(&h, &other, "h", 10, TM_INFINITE, &park);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	CHECK_EQ(rt_mutex_acquire(&other, TM_INFINITE), -EPERM);
	CHECK_EQ(rt_mutex_acquire(&other, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	CHECK_EQ(rt_sem_v(&park), 0);
	CHECK_EQ(rt_task_join(&h.task), 0);
	CHECK_STR(trail, "h:0 h-works h-out");
	CHECK_EQ(rt_sem_delete(&park), 0);
	CHECK_EQ(rt_mutex_delete(&other), 0);
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

TEST(unblock_interrupts_and_deboosts)
{
	bool sim = on_sim();
	struct locker w;
	RT_MUTEX m;
	RTIME t0;

	trail[0] = '\0';
	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	CHECK_EQ(rt_mutex_acquire(&m, TM_INFINITE), 0);
	CHECK_EQ(my_prio(), 0);
	t0 = rt_timer_read();
	/* Timed, and long enough that only the unblock ends it on live. */
	locker(&w, &m, "w", 40, 10000 * MS, NULL);
	CHECK_EQ(my_prio(), 41);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_unblock(&w.task), 0);
	CHECK_EQ(rt_task_join(&w.task), 0);
	CHECK_EQ(w.ret, -EINTR);
	if (sim)
		CHECK_EQ(w.at - t0, MS);
	CHECK_EQ(my_prio(), 0);
	CHECK_EQ(owner_of(&m), rt_task_self()->handle);
	CHECK_STR(trail, "w:-4");
	CHECK_EQ(rt_mutex_release(&m), 0);
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

TEST(owner_deleted_passes_mutex_on)
{
	struct locker h, w;
	RT_SEM park;
	RT_MUTEX m;

	trail[0] = '\0';
	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	CHECK_EQ(rt_sem_create(&park, NULL, 0, S_FIFO), 0);
	memset(&h, 0, sizeof(h));
	h.m = &m;
	h.name = "h";
	h.park = &park;
	h.timeout = TM_INFINITE;
	/* Not joinable: deletion reclaims it. */
	CHECK_EQ(rt_task_spawn(&h.task, NULL, 0, 10, 0, locker_body, &h), 0);
	locker(&w, &m, "w", 20, TM_INFINITE, NULL);
	CHECK_EQ(owner_of(&m), h.task.handle);
	step("delete");
	CHECK_EQ(rt_task_delete(&h.task), 0);
	CHECK_EQ(rt_task_join(&w.task), 0);
	CHECK_STR(trail, "h:0 delete w:0 w-out");
	CHECK_EQ(owner_of(&m), 0);
	CHECK_EQ(rt_sem_delete(&park), 0);
	CHECK_EQ(rt_mutex_delete(&m), 0);
}

struct creator {
	RT_MUTEX m;
	int ret;
	RT_TASK task;
};

static void creator_body(void *arg)
{
	struct creator *c = arg;

	if (rt_task_sleep(MS) == 0)
		c->ret = rt_mutex_create(&c->m, "late-mx");
}

TEST(bind_waits_for_creation)
{
	bool sim = on_sim();
	struct creator c = {.ret = 1};
	RT_MUTEX b;
	RTIME t0;

	CHECK_EQ(rt_mutex_bind(&b, "late-mx", TM_NONBLOCK), -EWOULDBLOCK);
	t0 = rt_timer_read();
	CHECK_EQ(rt_mutex_bind(&b, "late-mx", 300000), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, 300000);
	t0 = rt_timer_read();
	spawn(&c.task, 20, creator_body, &c);
	CHECK_EQ(rt_mutex_bind(&b, "late-mx", TM_INFINITE), 0);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, MS);
	CHECK_EQ(rt_task_join(&c.task), 0);
	CHECK_EQ(c.ret, 0);
	CHECK_EQ(b.handle, c.m.handle);
	CHECK_EQ(rt_mutex_acquire(&b, TM_NONBLOCK), 0);
	CHECK_EQ(owner_of(&c.m), rt_task_self()->handle);
	CHECK_EQ(rt_mutex_release(&c.m), 0);
	CHECK_EQ(rt_mutex_unbind(&b), 0);
	CHECK_EQ(b.handle, 0);
	CHECK_EQ(rt_mutex_acquire(&b, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_mutex_delete(&c.m), 0);
}

struct crossing {
	RT_MUTEX *first, *second;
	int ret1, ret2;
	RT_TASK task;
};

static void crossing_body(void *arg)
{
	struct crossing *x = arg;

	x->ret1 = rt_mutex_acquire(x->first, TM_INFINITE);
	x->ret2 = rt_mutex_acquire(x->second, TM_INFINITE);
	if (x->ret2 == 0)
		CHECK_EQ(rt_mutex_release(x->second), 0);
	if (x->ret1 == 0)
		CHECK_EQ(rt_mutex_release(x->first), 0);
}

TEST(owner_cycle_refused)
{
	struct crossing x = {.ret1 = 1, .ret2 = 1};
	RT_MUTEX m1, m2;

	CHECK_EQ(rt_mutex_create(&m1, NULL), 0);
	CHECK_EQ(rt_mutex_create(&m2, NULL), 0);
	CHECK_EQ(rt_mutex_acquire(&m2, TM_INFINITE), 0);
	x.first = &m1;
	x.second = &m2;
	spawn(&x.task, 10, crossing_body, &x);
	/* The task holds m1 and waits for m2, which main holds. */
	CHECK_EQ(rt_mutex_acquire(&m1, TM_INFINITE), -EDEADLK);
	CHECK_EQ(rt_mutex_release(&m2), 0);
	CHECK_EQ(rt_task_join(&x.task), 0);
	CHECK_EQ(x.ret1, 0);
	CHECK_EQ(x.ret2, 0);
	CHECK_EQ(rt_mutex_delete(&m1), 0);
	CHECK_EQ(rt_mutex_delete(&m2), 0);
}

struct outsider {
	RT_MUTEX *m;
	int create, acquire, nonblock, release, inquire, del;
};

static void *outsider_body(void *arg)
{
	struct outsider *o = arg;
	RT_MUTEX_INFO info;
	RT_MUTEX mine;

	o->create = rt_mutex_create(&mine, NULL) ?: rt_mutex_delete(&mine);
	o->acquire = rt_mutex_acquire(o->m, TM_INFINITE);
	o->nonblock = rt_mutex_acquire(o->m, TM_NONBLOCK);
	o->release = rt_mutex_release(o->m);
	o->inquire = rt_mutex_inquire(o->m, &info);
	o->del = rt_mutex_delete(o->m);
	return NULL;
}

TEST(plain_thread)
{
	struct outsider o = {0};
	RT_MUTEX m;

	CHECK_EQ(rt_mutex_create(&m, NULL), 0);
	o.m = &m;
	run_plain_thread(outsider_body, &o);
	/* Any Linux thread creates and deletes, as in Xenomai. */
	CHECK_EQ(o.create, 0);
	CHECK_EQ(o.acquire, -EPERM);
	CHECK_EQ(o.nonblock, -EPERM);
	CHECK_EQ(o.release, -EPERM);
	CHECK_EQ(o.inquire, 0);
	CHECK_EQ(o.del, 0);
	CHECK_EQ(rt_mutex_delete(&m), -EINVAL);
}

TESTS(T(create_errors), T(bad_descriptors), T(recursion_and_ownership),
      T(release_by_non_owner), T(delete_refused_while_used), T(timeouts),
      T(priority_inheritance), T(release_preempts_and_tlock_defers),
      T(unblock_interrupts_and_deboosts), T(owner_deleted_passes_mutex_on),
      T(bind_waits_for_creation), T(owner_cycle_refused), T(plain_thread));
