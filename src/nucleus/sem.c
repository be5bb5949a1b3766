/* Counting semaphore: a count in front of a synch, nothing more. */
#include "internal.h"

#include <limits.h>

static bool sem_valid(const struct nk_sem *sem)
{
	return sem && sem->magic == NK_SEM_MAGIC;
}

int nk_sem_init(struct nk_instance *nk, struct nk_sem *sem, const char *name,
		unsigned long count, unsigned long max, unsigned int flags)
{
	int ret;

	if (sem == NULL || (flags & ~NK_SYNCH_PRIO))
		return -EINVAL;
	if (max == 0)
		max = ULONG_MAX;
	if (count > max)
		return -EINVAL;
	ret = nk_synch_init(nk, &sem->synch, name, flags, 0);
	if (ret)
		return ret;
	sem->count = count;
	sem->max = max;
	sem->magic = NK_SEM_MAGIC;
	return 0;
}

int nk_sem_destroy(struct nk_sem *sem)
{
	if (!sem_valid(sem))
		return -EINVAL;
	sem->magic = 0;
	return nk_synch_destroy(&sem->synch);
}

int nk_sem_take(struct nk_sem *sem, nk_time_t timeout, enum nk_tmode mode)
{
	struct nk_instance *nk;
	int ret;

	if (!sem_valid(sem) || (mode != NK_RELATIVE && mode != NK_ABSOLUTE))
		return -EINVAL;
	nk = sem->synch.nk;
	nk_lock_acquire(nk);
	if (sem->count > 0) {
		sem->count--;
		ret = 0;
	} else if (mode == NK_RELATIVE && timeout == 0) {
		ret = -EWOULDBLOCK;
	} else {
		/* A give hands the unit to the waiter directly. */
		ret = nk_synch_sleep(&sem->synch, timeout, mode);
	}
	nk_lock_release(nk);
	return ret;
}

int nk_sem_give(struct nk_sem *sem)
{
	struct nk_instance *nk;
	int ret = 0;

	if (!sem_valid(sem))
		return -EINVAL;
	nk = sem->synch.nk;
	nk_lock_acquire(nk);
	if (nk_synch_wakeup_one(&sem->synch))
		nk_sched_run(nk);
	else if (sem->count == sem->max)
		ret = -EOVERFLOW;
	else
		sem->count++;
	nk_lock_release(nk);
	return ret;
}

int nk_sem_flush(struct nk_sem *sem)
{
	struct nk_instance *nk;

	if (!sem_valid(sem))
		return -EINVAL;
	nk = sem->synch.nk;
	nk_lock_acquire(nk);
	nk_synch_flush(&sem->synch, NK_WAKE_UNBLOCKED);
	nk_sched_run(nk);
	nk_lock_release(nk);
	return 0;
}

int nk_sem_count(struct nk_sem *sem, unsigned long *count)
{
	if (!sem_valid(sem) || count == NULL)
		return -EINVAL;
	*count = sem->count;
	return 0;
}
