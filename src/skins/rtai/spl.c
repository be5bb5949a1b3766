/* SPDX-License-Identifier: MIT */
/*
 * RTAI spinlocks: an owner and a priority queue of waiters.  The owner
 * holds the scheduler lock of its CPU while it holds the spinlock, as
 * a spinning kernel would keep its CPU; a waiter sleeps (only a task of
 * another CPU can find it held) and takes the scheduler lock when the
 * spinlock is handed to it.
 */
#include "internal.h"

#include <rtai/rtai_spl.h>

struct rtai_spl {
	struct nk_synch waiters; /* first: a struct rtai_waitable */
	uintptr_t owner;	 /* the holding task, 0: free */
};

/* count: 1 while held. */
void rtai_spl_describe(const void *object, struct nk_object_info *info)
{
	const struct rtai_spl *l = object;

	info->count = l->owner != 0;
	info->waiters = &l->waiters;
}

SPL *rt_spl_init(unsigned long name)
{
	struct rtai_spl *l = rtai_waitable_alloc(sizeof(*l));

	return l ? rtai_waitable_publish(RTAI_SPL, name, l) : NULL;
}

/* A held spinlock stays: its holder keeps the scheduler locked until
 * it unlocks it.  Lock held. */
static int spl_held(struct nk_instance *nk, void *object)
{
	struct rtai_spl *l = object;

	(void)nk;
	return l->owner ? RTE_PERM : 0;
}

int rt_spl_delete(SPL *spl)
{
	uintptr_t handle = rtai_handle(spl);

	return skin_delete(&rtai_skin, RTAI_SPL, &handle, spl_held);
}

/* A waiter's request: its task, handed the lock by the releaser. */
struct spl_req {
	uintptr_t task;
};

/* Find @spl and the caller's task (0: none); lock held on success. */
static int spl_get(SPL *spl, struct nk_instance **nk, struct rtai_spl **l,
		   uintptr_t *task)
{
	uintptr_t handle = rtai_handle(spl);
	struct rtai_task *t;
	int ret;

	ret = rtai_current(nk, &t);
	*task = ret == 0 ? t->task : 0;
	ret = skin_get(&rtai_skin, RTAI_SPL, &handle, nk, (void **)l);
	return ret;
}

static int spl_lock(SPL *spl, struct skin_timeout to)
{
	struct spl_req r;
	struct nk_instance *nk;
	struct rtai_spl *l;
	int ret;

	ret = spl_get(spl, &nk, &l, &r.task);
	if (ret)
		return ret;
	if (r.task == 0) {
		ret = RTE_PERM;
	} else if (l->owner == r.task) {
		ret = RTE_DEADLOK;
	} else if (l->owner == 0) {
		l->owner = r.task;
	} else if (skin_nonblocking(to)) {
		ret = RTE_TIMOUT;
	} else {
		/* The releaser made the caller the owner. */
		ret = skin_wait_sleep_locked(rtai(), RTAI_SPL, rtai_handle(spl),
					     l, &l->waiters, &r, sizeof(r), to);
		ret = skin_error(&rtai_skin, ret);
	}
	if (ret == 0)
		(void)nk_sched_lock(nk);
	nk_unlock(nk);
	return ret;
}

int rt_spl_lock(SPL *spl)
{
	return spl_lock(spl, skin_infinite());
}

int rt_spl_lock_if(SPL *spl)
{
	return spl_lock(spl, skin_nonblock());
}

int rt_spl_lock_timed(SPL *spl, unsigned long ns)
{
	return spl_lock(spl, ns ? skin_rel_ns(ns) : skin_nonblock());
}

/* skin_wait_serve_locked(): hand the lock to the first waiter. */
static bool spl_serve(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct spl_req *r = ctx;
	struct rtai_spl *l = arg;

	(void)waiter;
	l->owner = r->task;
	return true;
}

int rt_spl_unlock(SPL *spl)
{
	struct nk_instance *nk;
	struct rtai_spl *l;
	uintptr_t task;
	int ret;

	ret = spl_get(spl, &nk, &l, &task);
	if (ret)
		return ret;
	if (task == 0 || l->owner != task) {
		nk_unlock(nk);
		return RTE_PERM;
	}
	l->owner = 0;
	skin_wait_serve_locked(&l->waiters, spl_serve, l, false);
	nk_unlock(nk);
	/* Unlocking the scheduler lets a more urgent task run. */
	(void)nk_sched_unlock(nk);
	return 0;
}
