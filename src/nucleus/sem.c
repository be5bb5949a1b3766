/* SPDX-License-Identifier: MIT */
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

	if (sem == NULL || (flags & ~(NK_SYNCH_PRIO | NK_SEM_PULSE)))
		return -EINVAL;
	if (max == 0)
		max = ULONG_MAX;
	if (count > max || (count && (flags & NK_SEM_PULSE)))
		return -EINVAL;
	nk_journal_obj(sem);
	ret = nk_synch_init(nk, &sem->synch, name, flags & NK_SYNCH_PRIO, 0);
	if (ret)
		return ret;
	sem->count = count;
	/* A pulse semaphore is one whose count is full at 0. */
	sem->max = (flags & NK_SEM_PULSE) ? 0 : max;
	sem->magic = NK_SEM_MAGIC;
	return 0;
}

int nk_sem_destroy(struct nk_sem *sem)
{
	if (!sem_valid(sem))
		return -EINVAL;
	nk_journal_obj(&sem->magic);
	sem->magic = 0;
	return nk_synch_destroy(&sem->synch);
}

/* Lock held; @sem and @mode checked. */
static inline int sem_take(struct nk_sem *sem, nk_time_t timeout,
			   enum nk_tmode mode)
{
	if (sem->count > 0) {
		nk_journal_obj(&sem->count);
		sem->count--;
		return 0;
	}
	if (mode == NK_RELATIVE && timeout == 0)
		return -EWOULDBLOCK;
	/* A give hands the unit to the waiter directly. */
	return nk_synch_sleep(&sem->synch, timeout, mode);
}

static bool take_args_valid(const struct nk_sem *sem, enum nk_tmode mode)
{
	return sem_valid(sem) && (mode == NK_RELATIVE || mode == NK_ABSOLUTE);
}

nk_hot int nk_sem_take(struct nk_sem *sem, nk_time_t timeout,
		       enum nk_tmode mode)
{
	struct nk_instance *nk;
	int ret;

	if (!take_args_valid(sem, mode))
		return -EINVAL;
	nk = sem->synch.nk;
	nk_lock_acquire(nk);
	ret = sem_take(sem, timeout, mode);
	nk_lock_release(nk);
	return ret;
}

int nk_sem_take_locked(struct nk_sem *sem, nk_time_t timeout,
		       enum nk_tmode mode)
{
	if (!take_args_valid(sem, mode))
		return -EINVAL;
	return sem_take(sem, timeout, mode);
}

/* Lock held; @sem checked. */
static inline int sem_give(struct nk_sem *sem)
{
	if (nk_synch_wakeup_one(&sem->synch))
		nk_sched_run(sem->synch.nk);
	else if (sem->count == sem->max)
		return sem->max ? -EOVERFLOW : 0; /* a pulse is lost */
	else {
		nk_journal_obj(&sem->count);
		sem->count++;
	}
	return 0;
}

nk_hot int nk_sem_give(struct nk_sem *sem)
{
	struct nk_instance *nk;
	int ret;

	if (!sem_valid(sem))
		return -EINVAL;
	nk = sem->synch.nk;
	nk_lock_acquire(nk);
	ret = sem_give(sem);
	nk_lock_release(nk);
	return ret;
}

int nk_sem_give_locked(struct nk_sem *sem)
{
	return sem_valid(sem) ? sem_give(sem) : -EINVAL;
}

int nk_sem_broadcast_locked(struct nk_sem *sem)
{
	if (!sem_valid(sem))
		return -EINVAL;
	nk_journal_obj(&sem->count);
	sem->count = 0;
	if (nk_synch_flush(&sem->synch, NK_WAKE_OK) > 0)
		nk_sched_run(sem->synch.nk);
	return 0;
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
