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
	mutex->magic = 0;
	return nk_synch_destroy(&mutex->synch);
}

int nk_mutex_lock(struct nk_mutex *mutex, nk_time_t timeout,
		  enum nk_tmode mode)
{
	struct nk_instance *nk;
	struct nk_thread *self;
	int ret;

	if (!mutex_valid(mutex) || (mode != NK_RELATIVE && mode != NK_ABSOLUTE))
		return -EINVAL;
	nk = mutex->synch.nk;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self && mutex->synch.owner == self &&
	    (mutex->flags & NK_MUTEX_RECURSIVE)) {
		ret = mutex->depth == UINT_MAX ? -EOVERFLOW : 0;
		if (ret == 0)
			mutex->depth++;
		goto out;
	}
	if (self && mutex->synch.owner && mutex->synch.owner != self &&
	    mode == NK_RELATIVE && timeout == 0) {
		ret = -EWOULDBLOCK;
		goto out;
	}
	ret = nk_synch_acquire(&mutex->synch, timeout, mode);
	if (ret == NK_WAKE_OK || ret == NK_WAKE_OWNER_DEAD)
		mutex->depth = 1;
out:
	nk_lock_release(nk);
	return ret;
}

int nk_mutex_unlock(struct nk_mutex *mutex)
{
	struct nk_instance *nk;
	int ret = 0;

	if (!mutex_valid(mutex))
		return -EINVAL;
	nk = mutex->synch.nk;
	nk_lock_acquire(nk);
	if (mutex->synch.owner == NULL ||
	    mutex->synch.owner != nk_current(nk)) {
		ret = -EPERM;
	} else if (--mutex->depth == 0) {
		ret = nk_synch_release(&mutex->synch);
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
	return ret;
}

struct nk_thread *nk_mutex_owner(struct nk_mutex *mutex)
{
	return mutex_valid(mutex) ? mutex->synch.owner : NULL;
}
