/*
 * Alchemy mutexes: a priority-inheritance synch (the nucleus tracks the
 * owner, queues waiters by priority and boosts owner chains) plus the
 * owner's nesting depth, which only the owner touches.
 *
 * As in Xenomai 3, a mutex that is locked or waited for cannot be
 * deleted (-EBUSY), so an acquire never sees its mutex vanish.
 */
#include "mutex.h"
#include "task_internal.h"

/* The Alchemy API is exported from libfusion.so (the tree builds hidden). */
#pragma GCC visibility push(default)
#include <alchemy/mutex.h>
#pragma GCC visibility pop

#include <limits.h>
#include <stdlib.h>

static int mutex_lock(RT_MUTEX *mutex, struct nk_instance **nk,
		      struct alchemy_mutex **mcb)
{
	int ret;

	if (mutex == NULL)
		return -EINVAL;
	ret = alchemy_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = alchemy_lookup(ALCHEMY_MUTEX, mutex->handle, (void **)mcb);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

int rt_mutex_create(RT_MUTEX *mutex, const char *name)
{
	struct alchemy_mutex *mcb;
	struct nk_instance *nk;
	int ret;

	if (mutex == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	if (nk_thread_self(nk) == NULL)
		return -EPERM;
	mcb = malloc(sizeof(*mcb));
	if (mcb == NULL)
		return -ENOMEM;
	ret = nk_synch_init(nk, &mcb->synch, name, NK_SYNCH_PI, 0);
	if (ret) {
		free(mcb);
		return ret;
	}
	mcb->depth = 0;
	nk_lock(nk);
	ret = alchemy_register(ALCHEMY_MUTEX, name, mcb, &mutex->handle);
	nk_unlock(nk);
	if (ret)
		free(mcb);
	return ret;
}

int rt_mutex_delete(RT_MUTEX *mutex)
{
	struct alchemy_mutex *mcb;
	struct nk_instance *nk;
	int ret;

	ret = mutex_lock(mutex, &nk, &mcb);
	if (ret)
		return ret;
	if (nk_synch_owner(&mcb->synch) || nk_synch_nr_waiters(&mcb->synch)) {
		ret = -EBUSY;
	} else {
		alchemy_unregister(ALCHEMY_MUTEX, mutex->handle);
		nk_synch_destroy_locked(&mcb->synch);
		free(mcb);
	}
	nk_unlock(nk);
	return ret;
}

static int mutex_acquire(RT_MUTEX *mutex, nk_time_t timeout, enum nk_tmode mode)
{
	struct alchemy_task *current;
	struct alchemy_mutex *mcb;
	struct nk_instance *nk;
	struct nk_thread *self;
	int ret;

	if (mutex == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	/* Only a task can own a mutex (this may attach main's TCB). */
	ret = alchemy_task_current(nk, &current);
	if (ret)
		return ret;
	ret = mutex_lock(mutex, &nk, &mcb);
	if (ret)
		return ret;
	self = nk_thread_self(nk);
	if (nk_synch_owner(&mcb->synch) == self) {
		if (mcb->depth == UINT_MAX)
			ret = -EAGAIN;
		else
			mcb->depth++;
		goto out;
	}
	/* A free mutex is taken even where blocking is refused (T_LOCK). */
	ret = nk_synch_try_acquire(&mcb->synch, self);
	if (ret == -EBUSY)
		ret = alchemy_nonblock(timeout, mode)
			  ? -EWOULDBLOCK
			  : nk_synch_acquire(&mcb->synch, timeout, mode);
	/* Inherited from a deleted owner: ours all the same. */
	if (ret == NK_WAKE_OK || ret == NK_WAKE_OWNER_DEAD) {
		mcb->depth = 1;
		ret = 0;
	}
out:
	nk_unlock(nk);
	return ret;
}

int rt_mutex_acquire_timed(RT_MUTEX *mutex, const struct timespec *abs_timeout)
{
	nk_time_t timeout;
	enum nk_tmode mode;
	int ret;

	ret = alchemy_timespec(abs_timeout, &timeout, &mode);
	return ret ? ret : mutex_acquire(mutex, timeout, mode);
}

int rt_mutex_acquire_until(RT_MUTEX *mutex, RTIME abs_timeout)
{
	nk_time_t timeout;
	enum nk_tmode mode;

	alchemy_abs(abs_timeout, &timeout, &mode);
	return mutex_acquire(mutex, timeout, mode);
}

int rt_mutex_acquire(RT_MUTEX *mutex, RTIME timeout)
{
	nk_time_t nkto;
	enum nk_tmode mode;

	alchemy_rel(timeout, &nkto, &mode);
	return mutex_acquire(mutex, nkto, mode);
}

int rt_mutex_release(RT_MUTEX *mutex)
{
	struct alchemy_mutex *mcb;
	struct nk_instance *nk;
	struct nk_thread *owner;
	int ret;

	ret = mutex_lock(mutex, &nk, &mcb);
	if (ret)
		return ret;
	owner = nk_synch_owner(&mcb->synch);
	if (owner == NULL || owner != nk_thread_self(nk)) {
		ret = -EPERM;
	} else if (--mcb->depth == 0) {
		nk_synch_release(&mcb->synch);
		nk_sched_run(nk);
	}
	nk_unlock(nk);
	return ret;
}

int rt_mutex_inquire(RT_MUTEX *mutex, RT_MUTEX_INFO *info)
{
	struct alchemy_mutex *mcb;
	struct alchemy_task *t;
	struct nk_instance *nk;
	struct nk_thread *owner;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = mutex_lock(mutex, &nk, &mcb);
	if (ret)
		return ret;
	info->owner = NO_ALCHEMY_TASK;
	owner = nk_synch_owner(&mcb->synch);
	t = owner ? nk_thread_ext(owner) : NULL;
	if (t && t->magic == ALCHEMY_TASK_MAGIC)
		info->owner = t->self;
	alchemy_name(ALCHEMY_MUTEX, mutex->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_mutex_bind(RT_MUTEX *mutex, const char *name, RTIME timeout)
{
	struct nk_instance *nk;
	nk_time_t nkto;
	enum nk_tmode mode;
	int ret;

	if (mutex == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	alchemy_rel(timeout, &nkto, &mode);
	nk_lock(nk);
	ret = alchemy_bind(ALCHEMY_MUTEX, name, &mutex->handle, nkto, mode);
	nk_unlock(nk);
	return ret;
}

int rt_mutex_unbind(RT_MUTEX *mutex)
{
	if (mutex == NULL)
		return -EINVAL;
	mutex->handle = 0;
	return 0;
}

int alchemy_mutex_giveup(struct alchemy_mutex *mcb, struct nk_thread *self,
			 unsigned int *depth)
{
	if (self == NULL || nk_synch_owner(&mcb->synch) != self)
		return -EPERM;
	*depth = mcb->depth;
	mcb->depth = 0;
	return nk_synch_release(&mcb->synch);
}

int alchemy_mutex_regain(uintptr_t handle, unsigned int depth)
{
	struct alchemy_mutex *mcb;
	int ret;

	do {
		/* Deleted while unlocked and unwaited: a misuse we survive. */
		if (alchemy_lookup(ALCHEMY_MUTEX, handle, (void **)&mcb))
			return -EIDRM;
		ret = nk_synch_acquire(&mcb->synch, NK_INFINITE, NK_RELATIVE);
	} while (ret == NK_WAKE_UNBLOCKED);
	if (ret == NK_WAKE_OK || ret == NK_WAKE_OWNER_DEAD) {
		mcb->depth = depth;
		ret = 0;
	}
	return ret;
}
