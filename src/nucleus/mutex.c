/* SPDX-License-Identifier: MIT */
/* Mutex: an owned synch plus a recursion depth. */
#include "internal.h"

#include <limits.h>

static bool mutex_valid(const struct nk_mutex *mutex)
{
	return mutex && mutex->magic == NK_MUTEX_MAGIC;
}

int nk_mutex_init(struct nk_instance *nk, struct nk_mutex *mutex,
		  const char *name, unsigned int flags, int ceiling)
{
	int ret;

	if (mutex == NULL || (flags & ~(NK_MUTEX_RECURSIVE | NK_SYNCH_PRIO |
					NK_SYNCH_PI | NK_SYNCH_PP)))
		return -EINVAL;
	nk_journal_obj(mutex);
	ret = nk_synch_init(nk, &mutex->synch, name,
			    (flags & ~NK_MUTEX_RECURSIVE) | NK_SYNCH_OWNER,
			    ceiling);
	if (ret)
		return ret;
	mutex->flags = flags;
	mutex->depth = 0;
	mutex->magic = NK_MUTEX_MAGIC;
	return 0;
}

int nk_mutex_destroy(struct nk_mutex *mutex)
{
	if (!mutex_valid(mutex))
		return -EINVAL;
	nk_journal_obj(&mutex->magic);
	mutex->magic = 0;
	return nk_synch_destroy(&mutex->synch);
}

static bool mode_valid(enum nk_tmode mode)
{
	return mode == NK_RELATIVE || mode == NK_ABSOLUTE;
}

/* Lock held; @mutex checked. */
static int mutex_lock(struct nk_mutex *mutex, nk_time_t timeout,
		      enum nk_tmode mode)
{
	struct nk_thread *self = nk_current(mutex->synch.nk);
	int ret;

	nk_journal_obj(mutex);
	if (self && mutex->synch.owner == self &&
	    (mutex->flags & NK_MUTEX_RECURSIVE)) {
		if (mutex->depth == UINT_MAX)
			return -EOVERFLOW;
		mutex->depth++;
		return 0;
	}
	if (self && mutex->synch.owner && mutex->synch.owner != self &&
	    mode == NK_RELATIVE && timeout == 0)
		return -EWOULDBLOCK;
	ret = nk_synch_acquire(&mutex->synch, timeout, mode);
	if (ret == NK_WAKE_OK || ret == NK_WAKE_OWNER_DEAD)
		mutex->depth = 1;
	return ret;
}

int nk_mutex_lock(struct nk_mutex *mutex, nk_time_t timeout, enum nk_tmode mode)
{
	struct nk_instance *nk;
	int ret;

	if (!mutex_valid(mutex) || !mode_valid(mode))
		return -EINVAL;
	nk = mutex->synch.nk;
	nk_lock_acquire(nk);
	ret = mutex_lock(mutex, timeout, mode);
	nk_lock_release(nk);
	return ret;
}

int nk_mutex_lock_locked(struct nk_mutex *mutex, nk_time_t timeout,
			 enum nk_tmode mode)
{
	if (!mutex_valid(mutex) || !mode_valid(mode))
		return -EINVAL;
	return mutex_lock(mutex, timeout, mode);
}

int nk_mutex_trylock_locked(struct nk_mutex *mutex)
{
	struct nk_thread *self;
	int ret;

	if (!mutex_valid(mutex))
		return -EINVAL;
	self = nk_current(mutex->synch.nk);
	if (self == NULL)
		return -EPERM;
	nk_journal_obj(mutex);
	if (mutex->synch.owner == self) {
		if (!(mutex->flags & NK_MUTEX_RECURSIVE))
			return -EDEADLK;
		return mutex_lock(mutex, 0, NK_RELATIVE);
	}
	/* Never blocks, so it is allowed where blocking is not. */
	ret = nk_synch_try_acquire(&mutex->synch, self);
	if (ret == -EBUSY)
		return -EWOULDBLOCK;
	if (ret == 0)
		mutex->depth = 1;
	return ret;
}

/* Lock held; @mutex checked. */
static int mutex_unlock(struct nk_mutex *mutex)
{
	struct nk_instance *nk = mutex->synch.nk;
	int ret;

	if (mutex->synch.owner == NULL || mutex->synch.owner != nk_current(nk))
		return -EPERM;
	nk_journal_obj(mutex);
	if (--mutex->depth)
		return 0;
	ret = nk_synch_release(&mutex->synch);
	nk_sched_run(nk);
	return ret;
}

int nk_mutex_unlock(struct nk_mutex *mutex)
{
	struct nk_instance *nk;
	int ret;

	if (!mutex_valid(mutex))
		return -EINVAL;
	nk = mutex->synch.nk;
	nk_lock_acquire(nk);
	ret = mutex_unlock(mutex);
	nk_lock_release(nk);
	return ret;
}

int nk_mutex_unlock_locked(struct nk_mutex *mutex)
{
	return mutex_valid(mutex) ? mutex_unlock(mutex) : -EINVAL;
}

int nk_mutex_giveup_locked(struct nk_mutex *mutex, unsigned int *depth)
{
	if (!mutex_valid(mutex) || depth == NULL)
		return -EINVAL;
	if (mutex->synch.owner == NULL ||
	    mutex->synch.owner != nk_current(mutex->synch.nk))
		return -EPERM;
	*depth = mutex->depth;
	nk_journal_obj(mutex);
	mutex->depth = 0;
	return nk_synch_release(&mutex->synch);
}

int nk_mutex_regain_locked(struct nk_mutex *mutex, unsigned int depth)
{
	int ret;

	if (!mutex_valid(mutex) || depth == 0)
		return -EINVAL;
	ret = nk_synch_reacquire(&mutex->synch);
	if (ret != NK_WAKE_OK && ret != NK_WAKE_OWNER_DEAD)
		return ret;
	nk_journal_obj(mutex);
	mutex->depth = depth;
	return 0;
}

struct nk_thread *nk_mutex_owner(struct nk_mutex *mutex)
{
	return mutex_valid(mutex) ? mutex->synch.owner : NULL;
}
