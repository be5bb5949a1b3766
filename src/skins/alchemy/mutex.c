/* SPDX-License-Identifier: MIT */
/*
 * Alchemy mutexes: recursive priority-inheritance nucleus mutexes (the
 * nucleus tracks the owner and its nesting, queues waiters by priority
 * and boosts owner chains).
 *
 * As in Xenomai 3, a mutex that is locked or waited for cannot be
 * deleted (-EBUSY), so an acquire never sees its mutex vanish.
 */
#include "mutex.h"
#include "task_internal.h"

#include <alchemy/mutex.h>

#include <stdlib.h>

int rt_mutex_create(RT_MUTEX *mutex, const char *name)
{
	struct nk_mutex *mcb;
	struct nk_instance *nk;
	int ret;

	if (mutex == NULL)
		return -EINVAL;
	ret = alchemy_enter_object(&nk);
	if (ret)
		return ret;
	mcb = nk_alloc(nk, sizeof(*mcb));
	if (mcb == NULL)
		return -ENOMEM;
	ret = nk_mutex_init(nk, mcb, alchemy_synch_name(ALCHEMY_MUTEX, name),
			    NK_SYNCH_PI | NK_MUTEX_RECURSIVE, 0);
	if (ret == 0)
		ret = alchemy_publish(ALCHEMY_MUTEX, name, mcb, &mutex->handle);
	if (ret)
		nk_free(nk, mcb);
	return ret;
}

static int mutex_busy(struct nk_instance *nk, void *object)
{
	struct nk_mutex *mcb = object;

	(void)nk;
	return nk_mutex_owner(mcb) || nk_synch_nr_waiters(&mcb->synch) ? -EBUSY
								       : 0;
}

void alchemy_mutex_reclaim(struct nk_instance *nk, void *object)
{
	struct nk_mutex *mcb = object;

	nk_mutex_destroy(mcb);
	nk_free(nk, mcb);
}

int rt_mutex_delete(RT_MUTEX *mutex)
{
	return alchemy_delete(ALCHEMY_MUTEX, alchemy_handle(mutex), mutex_busy);
}

static int mutex_acquire(RT_MUTEX *mutex, struct skin_timeout to)
{
	struct alchemy_task *current;
	struct nk_instance *nk;
	struct nk_mutex *mcb;
	int ret;

	if (to.error)
		return to.error;
	if (mutex == NULL)
		return -EINVAL;
	/* Only a task can own a mutex (this may attach main's TCB). */
	ret = alchemy_task_current(&nk, &current);
	if (ret)
		return ret;
	ret = alchemy_get(ALCHEMY_MUTEX, alchemy_handle(mutex), &nk,
			  (void **)&mcb);
	if (ret)
		return ret;
	/* A free mutex is taken even where blocking is refused (T_LOCK). */
	ret = nk_mutex_trylock_locked(mcb);
	if (ret == -EWOULDBLOCK && !skin_nonblocking(to))
		ret = nk_mutex_lock_locked(mcb, to.value, to.mode);
	/* Inherited from a deleted owner: ours all the same. */
	if (ret == NK_WAKE_OWNER_DEAD)
		ret = 0;
	nk_unlock(nk);
	return skin_error(&alchemy_skin, ret);
}

int rt_mutex_acquire_timed(RT_MUTEX *mutex, const struct timespec *abs_timeout)
{
	return mutex_acquire(mutex, skin_timespec(abs_timeout));
}

int rt_mutex_acquire_until(RT_MUTEX *mutex, RTIME abs_timeout)
{
	return mutex_acquire(mutex, alchemy_abs(abs_timeout));
}

int rt_mutex_acquire(RT_MUTEX *mutex, RTIME timeout)
{
	return mutex_acquire(mutex, alchemy_rel(timeout));
}

static int mutex_release(RT_MUTEX *mutex)
{
	struct nk_instance *nk;
	struct nk_mutex *mcb = NULL; /* set when alchemy_get succeeds; inlined,
				      * gcc -fsanitize cannot tell */
	int ret;

	ret = alchemy_get(ALCHEMY_MUTEX, alchemy_handle(mutex), &nk,
			  (void **)&mcb);
	if (ret)
		return ret;
	ret = nk_mutex_unlock_locked(mcb);
	nk_unlock(nk);
	return ret;
}

int rt_mutex_release(RT_MUTEX *mutex)
{
	return mutex_release(mutex);
}

int rt_mutex_inquire(RT_MUTEX *mutex, RT_MUTEX_INFO *info)
{
	struct alchemy_task *t;
	struct nk_instance *nk;
	struct nk_thread *owner;
	struct nk_mutex *mcb;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_MUTEX, alchemy_handle(mutex), &nk,
			  (void **)&mcb);
	if (ret)
		return ret;
	info->owner = NO_ALCHEMY_TASK;
	owner = nk_mutex_owner(mcb);
	t = owner ? nk_thread_personality(owner, &alchemy_skin.pers) : NULL;
	if (t)
		info->owner = t->self;
	alchemy_name(mutex->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_mutex_bind(RT_MUTEX *mutex, const char *name, RTIME timeout)
{
	return alchemy_bind(ALCHEMY_MUTEX, alchemy_handle(mutex), name,
			    timeout);
}

int rt_mutex_unbind(RT_MUTEX *mutex)
{
	return skin_unbind(alchemy_handle(mutex));
}

int alchemy_mutex_regain(uintptr_t handle, unsigned int depth)
{
	struct nk_mutex *mcb;

	/* Deleted while unlocked and unwaited: a misuse we survive. */
	if (alchemy_lookup(ALCHEMY_MUTEX, handle, (void **)&mcb))
		return -EIDRM;
	return nk_mutex_regain_locked(mcb, depth);
}
