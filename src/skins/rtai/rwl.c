/* SPDX-License-Identifier: MIT */
/*
 * RTAI read-write locks: the holders counted in the object, the
 * waiters on one priority queue, each asking to read or to write (the
 * object layer's waiting with a request).  A release grants the lock
 * to the waiters in queue order for as long as they are compatible, so
 * that a waiting writer holds back the readers queued after it.
 *
 * Readers are counted, not named: an unlock by a task that holds no
 * read lock cannot be told from a reader's, only from the writer's.
 */
#include "internal.h"

#include <rtai/rtai_rwl.h>

struct rtai_rwl {
	struct nk_synch waiters; /* first: a struct rtai_waitable */
	int readers;		 /* read locks held */
	uintptr_t writer;	 /* the writing task, 0: none */
	int depth;		 /* the writer's nesting */
};

/* count: the read locks held, or the writer's nesting. */
void rtai_rwl_describe(const void *object, struct nk_object_info *info)
{
	const struct rtai_rwl *l = object;

	info->count = l->writer ? l->depth : l->readers;
	info->waiters = &l->waiters;
}

/* A waiter's request: what it wants, and for whom. */
struct rwl_req {
	bool write;
	uintptr_t task;
};

RWL *rt_rwl_init(unsigned long name)
{
	struct rtai_rwl *l = rtai_waitable_alloc(sizeof(*l));

	return l ? rtai_waitable_publish(RTAI_RWL, name, l) : NULL;
}

int rt_rwl_delete(RWL *rwl)
{
	return rtai_object_delete(RTAI_RWL, rwl);
}

/* Grant @r the lock if it is compatible now.  Lock held. */
static bool rwl_grant(struct rtai_rwl *l, const struct rwl_req *r)
{
	if (r->write ? l->readers || l->writer : l->writer != 0)
		return false;
	if (r->write) {
		l->writer = r->task;
		l->depth = 1;
	} else {
		l->readers++;
	}
	return true;
}

/* The walk of a release: the lock, and whether a waiter was refused. */
struct rwl_walk {
	struct rtai_rwl *l;
	bool refused;
};

/* skin_wait_serve_locked(): grant waiters until one cannot have it. */
static bool rwl_serve(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct rwl_walk *w = arg;

	(void)waiter;
	w->refused = w->refused || !rwl_grant(w->l, ctx);
	return !w->refused;
}

/* Find @rwl and the caller's task: lock held on success only. */
static int rwl_get(RWL *rwl, struct nk_instance **nk, struct rtai_rwl **l,
		   uintptr_t *task)
{
	uintptr_t handle = rtai_handle(rwl);
	struct nk_thread *self;
	struct rtai_task *t;
	int ret;

	ret = skin_get(&rtai_skin, RTAI_RWL, &handle, nk, (void **)l);
	if (ret)
		return ret;
	self = rtai_self(*nk);
	t = self ? nk_thread_personality(self, &rtai_skin.pers) : NULL;
	*task = t ? t->task : 0;
	return 0;
}

/* Lock (@write or read) per @to; @if_ready: never wait. */
static int rwl_lock(RWL *rwl, bool write, struct skin_timeout to, bool if_ready)
{
	struct rwl_req r = {.write = write};
	struct nk_instance *nk;
	struct rtai_rwl *l;
	int ret;

	ret = rwl_get(rwl, &nk, &l, &r.task);
	if (ret)
		return ret;
	if (r.task && l->writer == r.task) {
		/* The writer nests; reading under its own write would
		 * wait for itself. */
		ret = write ? 0 : RTE_DEADLOK;
		l->depth += write;
	} else if (nk_synch_nr_waiters(&l->waiters) == 0 && rwl_grant(l, &r)) {
		ret = 0;
	} else if (if_ready || skin_nonblocking(to)) {
		ret = RTE_TIMOUT;
	} else {
		ret = skin_wait_sleep_locked(rtai(), RTAI_RWL, rtai_handle(rwl),
					     l, &l->waiters, &r, sizeof(r), to);
		ret = skin_error(&rtai_skin, ret);
	}
	nk_unlock(nk);
	return ret;
}

int rt_rwl_unlock(RWL *rwl)
{
	struct rwl_walk w = {NULL, false};
	struct nk_instance *nk;
	uintptr_t task;
	int ret;

	ret = rwl_get(rwl, &nk, &w.l, &task);
	if (ret)
		return ret;
	if (w.l->writer && w.l->writer == task) {
		if (--w.l->depth == 0)
			w.l->writer = 0;
	} else if (w.l->writer == 0 && w.l->readers > 0) {
		w.l->readers--;
	} else {
		ret = RTE_PERM;
	}
	if (ret == 0 &&
	    skin_wait_serve_locked(&w.l->waiters, rwl_serve, &w, true))
		nk_sched_run(nk);
	nk_unlock(nk);
	return ret;
}

int rt_rwl_rdlock(RWL *rwl)
{
	return rwl_lock(rwl, false, skin_infinite(), false);
}

int rt_rwl_rdlock_if(RWL *rwl)
{
	return rwl_lock(rwl, false, skin_nonblock(), true);
}

int rt_rwl_rdlock_until(RWL *rwl, RTIME time)
{
	return rwl_lock(rwl, false, rtai_timeout(time, true), false);
}

int rt_rwl_rdlock_timed(RWL *rwl, RTIME delay)
{
	return rwl_lock(rwl, false, rtai_timeout(delay, false), false);
}

int rt_rwl_wrlock(RWL *rwl)
{
	return rwl_lock(rwl, true, skin_infinite(), false);
}

int rt_rwl_wrlock_if(RWL *rwl)
{
	return rwl_lock(rwl, true, skin_nonblock(), true);
}

int rt_rwl_wrlock_until(RWL *rwl, RTIME time)
{
	return rwl_lock(rwl, true, rtai_timeout(time, true), false);
}

int rt_rwl_wrlock_timed(RWL *rwl, RTIME delay)
{
	return rwl_lock(rwl, true, rtai_timeout(delay, false), false);
}
