/* SPDX-License-Identifier: MIT */
/*
 * Alchemy condition variables: a priority-ordered synch.  A wait gives
 * the mutex up and goes to sleep under one hold of the nucleus lock, so
 * no signal can slip in between; whatever ends the sleep, the mutex is
 * taken back (to the caller's nesting depth) before returning.
 *
 * As in Xenomai 3, a condition variable with waiters cannot be deleted
 * (-EBUSY).  A woken waiter never touches the condition again, so one
 * signalled (no longer waiting) may see it deleted harmlessly.
 */
#include "mutex.h"

#include <alchemy/cond.h>

#include <stdlib.h>

struct alchemy_cond {
	struct nk_synch synch;
};

void alchemy_cond_describe(const void *object, struct nk_object_info *info)
{
	const struct alchemy_cond *ccb = object;

	info->waiters = &ccb->synch;
}

int rt_cond_create(RT_COND *cond, const char *name)
{
	struct alchemy_cond *ccb;
	struct nk_instance *nk;
	int ret;

	if (cond == NULL)
		return -EINVAL;
	ret = alchemy_enter_object(&nk);
	if (ret)
		return ret;
	ccb = nk_alloc(nk, sizeof(*ccb));
	if (ccb == NULL)
		return -ENOMEM;
	ret = nk_synch_init(nk, &ccb->synch,
			    alchemy_synch_name(ALCHEMY_COND, name),
			    NK_SYNCH_PRIO, 0);
	if (ret == 0)
		ret = alchemy_publish(ALCHEMY_COND, name, ccb, &cond->handle);
	if (ret)
		nk_free(nk, ccb);
	return ret;
}

static int cond_busy(struct nk_instance *nk, void *object)
{
	struct alchemy_cond *ccb = object;

	(void)nk;
	return nk_synch_nr_waiters(&ccb->synch) ? -EBUSY : 0;
}

void alchemy_cond_reclaim(struct nk_instance *nk, void *object)
{
	struct alchemy_cond *ccb = object;

	nk_synch_destroy_locked(&ccb->synch);
	nk_free(nk, ccb);
}

int rt_cond_delete(RT_COND *cond)
{
	return alchemy_delete(ALCHEMY_COND, alchemy_handle(cond), cond_busy);
}

/* Wake one waiter (@all false) or all of them. */
static int cond_wake(RT_COND *cond, bool all)
{
	struct alchemy_cond *ccb;
	struct nk_instance *nk;
	int ret;

	ret =
	    alchemy_get(ALCHEMY_COND, alchemy_handle(cond), &nk, (void **)&ccb);
	if (ret)
		return ret;
	if (all ? nk_synch_flush(&ccb->synch, NK_WAKE_OK) > 0
		: nk_synch_wakeup_one(&ccb->synch) != NULL)
		nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
}

int rt_cond_signal(RT_COND *cond)
{
	return cond_wake(cond, false);
}

int rt_cond_broadcast(RT_COND *cond)
{
	return cond_wake(cond, true);
}

static int cond_wait(RT_COND *cond, RT_MUTEX *mutex, struct skin_timeout to)
{
	struct alchemy_cond *ccb;
	struct nk_mutex *mcb;
	struct nk_instance *nk;
	struct nk_thread *self;
	unsigned int depth;
	uintptr_t handle;
	int ret, regain;

	if (to.error)
		return to.error;
	if (mutex == NULL)
		return -EINVAL;
	ret =
	    alchemy_get(ALCHEMY_COND, alchemy_handle(cond), &nk, (void **)&ccb);
	if (ret)
		return ret;
	handle = mutex->handle;
	ret = alchemy_lookup(ALCHEMY_MUTEX, handle, (void **)&mcb);
	if (ret)
		goto out;
	if (skin_nonblocking(to)) {
		ret = -EWOULDBLOCK;
		goto out;
	}
	/* Refuse before giving the mutex up, not after. */
	self = nk_thread_self(nk);
	if (self == NULL || nk_sched_lock_depth(nk) > 0) {
		ret = -EPERM;
		goto out;
	}
	ret = nk_mutex_giveup_locked(mcb, &depth);
	if (ret)
		goto out;
	/* Blocking switches to the mutex's next owner, if any. */
	ret = nk_synch_sleep(&ccb->synch, to.value, to.mode);
	regain = alchemy_mutex_regain(handle, depth);
	if (regain)
		ret = regain;
out:
	nk_unlock(nk);
	return ret;
}

int rt_cond_wait_timed(RT_COND *cond, RT_MUTEX *mutex,
		       const struct timespec *abs_timeout)
{
	return cond_wait(cond, mutex, skin_timespec(abs_timeout));
}

int rt_cond_wait_until(RT_COND *cond, RT_MUTEX *mutex, RTIME abs_timeout)
{
	return cond_wait(cond, mutex, alchemy_abs(abs_timeout));
}

int rt_cond_wait(RT_COND *cond, RT_MUTEX *mutex, RTIME timeout)
{
	return cond_wait(cond, mutex, alchemy_rel(timeout));
}

int rt_cond_inquire(RT_COND *cond, RT_COND_INFO *info)
{
	struct alchemy_cond *ccb;
	struct nk_instance *nk;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret =
	    alchemy_get(ALCHEMY_COND, alchemy_handle(cond), &nk, (void **)&ccb);
	if (ret)
		return ret;
	alchemy_name(cond->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_cond_bind(RT_COND *cond, const char *name, RTIME timeout)
{
	return alchemy_bind(ALCHEMY_COND, alchemy_handle(cond), name, timeout);
}

int rt_cond_unbind(RT_COND *cond)
{
	return skin_unbind(alchemy_handle(cond));
}
