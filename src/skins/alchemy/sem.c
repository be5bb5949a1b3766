/*
 * Alchemy semaphores: a count in front of a nucleus synch.  A V with
 * waiters hands its unit straight to the first one (the count never
 * sees it), so a woken P has nothing left to do and never touches the
 * semaphore again: deletion may free it as soon as waiters are flushed.
 */
#include "internal.h"

/* The Alchemy API is exported from libfusion.so (the tree builds hidden). */
#pragma GCC visibility push(default)
#include <alchemy/sem.h>
#pragma GCC visibility pop

#include <stdlib.h>

struct alchemy_sem {
	struct nk_synch synch;
	unsigned long count;
	bool pulse;
};

/*
 * Enter the skin, take the nucleus lock and find @sem's control block.
 * On success the lock is held; on error it is not.
 */
static int sem_lock(RT_SEM *sem, struct nk_instance **nk,
		    struct alchemy_sem **scb)
{
	int ret;

	if (sem == NULL)
		return -EINVAL;
	ret = alchemy_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = alchemy_lookup(ALCHEMY_SEM, sem->handle, (void **)scb);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

int rt_sem_create(RT_SEM *sem, const char *name, unsigned long icount, int mode)
{
	struct nk_instance *nk;
	struct alchemy_sem *scb;
	int ret;

	if (sem == NULL || (mode & ~(S_PRIO | S_PULSE)) ||
	    ((mode & S_PULSE) && icount > 0))
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	/* Creation belongs to tasks (Xenomai: xthread-only). */
	if (nk_thread_self(nk) == NULL)
		return -EPERM;
	scb = malloc(sizeof(*scb));
	if (scb == NULL)
		return -ENOMEM;
	ret = nk_synch_init(nk, &scb->synch, name,
			    (mode & S_PRIO) ? NK_SYNCH_PRIO : NK_SYNCH_FIFO, 0);
	if (ret) {
		free(scb);
		return ret;
	}
	scb->count = icount;
	scb->pulse = (mode & S_PULSE) != 0;
	/* Registration may run a binder at once: the object is ready. */
	nk_lock(nk);
	ret = alchemy_register(ALCHEMY_SEM, name, scb, &sem->handle);
	nk_unlock(nk);
	if (ret)
		free(scb);
	return ret;
}

int rt_sem_delete(RT_SEM *sem)
{
	struct nk_instance *nk;
	struct alchemy_sem *scb;
	int ret;

	ret = sem_lock(sem, &nk, &scb);
	if (ret)
		return ret;
	alchemy_unregister(ALCHEMY_SEM, sem->handle);
	nk_synch_destroy_locked(&scb->synch);
	free(scb);
	nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
}

static int sem_p(RT_SEM *sem, nk_time_t timeout, enum nk_tmode mode)
{
	struct nk_instance *nk;
	struct alchemy_sem *scb;
	int ret;

	ret = sem_lock(sem, &nk, &scb);
	if (ret)
		return ret;
	if (scb->count > 0) {
		scb->count--;
	} else if (alchemy_nonblock(timeout, mode)) {
		ret = -EWOULDBLOCK;
	} else {
		/* 0: a V gave us its unit; -EIDRM: scb is freed. */
		ret = nk_synch_sleep(&scb->synch, timeout, mode);
	}
	nk_unlock(nk);
	return ret;
}

int rt_sem_p_timed(RT_SEM *sem, const struct timespec *abs_timeout)
{
	nk_time_t timeout;
	enum nk_tmode mode;
	int ret;

	ret = alchemy_timespec(abs_timeout, &timeout, &mode);
	return ret ? ret : sem_p(sem, timeout, mode);
}

int rt_sem_p_until(RT_SEM *sem, RTIME abs_timeout)
{
	nk_time_t timeout;
	enum nk_tmode mode;

	alchemy_abs(abs_timeout, &timeout, &mode);
	return sem_p(sem, timeout, mode);
}

int rt_sem_p(RT_SEM *sem, RTIME timeout)
{
	nk_time_t nkto;
	enum nk_tmode mode;

	alchemy_rel(timeout, &nkto, &mode);
	return sem_p(sem, nkto, mode);
}

int rt_sem_v(RT_SEM *sem)
{
	struct nk_instance *nk;
	struct alchemy_sem *scb;
	int ret;

	ret = sem_lock(sem, &nk, &scb);
	if (ret)
		return ret;
	if (nk_synch_wakeup_one(&scb->synch))
		nk_sched_run(nk);
	else if (!scb->pulse)
		scb->count++;
	nk_unlock(nk);
	return 0;
}

int rt_sem_broadcast(RT_SEM *sem)
{
	struct nk_instance *nk;
	struct alchemy_sem *scb;
	int ret;

	ret = sem_lock(sem, &nk, &scb);
	if (ret)
		return ret;
	scb->count = 0;
	if (nk_synch_flush(&scb->synch, NK_WAKE_OK) > 0)
		nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
}

int rt_sem_inquire(RT_SEM *sem, RT_SEM_INFO *info)
{
	struct nk_instance *nk;
	struct alchemy_sem *scb;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = sem_lock(sem, &nk, &scb);
	if (ret)
		return ret;
	info->count = scb->count;
	info->nwaiters = (int)nk_synch_nr_waiters(&scb->synch);
	alchemy_name(ALCHEMY_SEM, sem->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_sem_bind(RT_SEM *sem, const char *name, RTIME timeout)
{
	struct nk_instance *nk;
	nk_time_t nkto;
	enum nk_tmode mode;
	int ret;

	if (sem == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	alchemy_rel(timeout, &nkto, &mode);
	nk_lock(nk);
	ret = alchemy_bind(ALCHEMY_SEM, name, &sem->handle, nkto, mode);
	nk_unlock(nk);
	return ret;
}

int rt_sem_unbind(RT_SEM *sem)
{
	if (sem == NULL)
		return -EINVAL;
	sem->handle = 0;
	return 0;
}
