/* SPDX-License-Identifier: MIT */
/*
 * Alchemy semaphores: nucleus semaphores (S_PULSE is NK_SEM_PULSE).  A
 * V with waiters hands its unit straight to the first one, so a woken P
 * never touches the semaphore again: deletion may free it as soon as
 * waiters are flushed.
 */
#include "internal.h"

#include <alchemy/sem.h>

#include <stdlib.h>

int rt_sem_create(RT_SEM *sem, const char *name, unsigned long icount, int mode)
{
	struct nk_instance *nk;
	struct nk_sem *scb;
	int ret;

	if (sem == NULL || (mode & ~(S_PRIO | S_PULSE)))
		return -EINVAL;
	ret = alchemy_enter_object(&nk);
	if (ret)
		return ret;
	scb = nk_alloc(nk, sizeof(*scb));
	if (scb == NULL)
		return -ENOMEM;
	/* -EINVAL for a pulse semaphore with units, as Xenomai. */
	ret = nk_sem_init(nk, scb, alchemy_synch_name(ALCHEMY_SEM, name),
			  icount, 0,
			  ((mode & S_PRIO) ? NK_SYNCH_PRIO : NK_SYNCH_FIFO) |
			      ((mode & S_PULSE) ? NK_SEM_PULSE : 0));
	/* Registration may run a binder at once: the object is ready. */
	if (ret == 0)
		ret = alchemy_publish(ALCHEMY_SEM, name, scb, &sem->handle);
	if (ret)
		nk_free(nk, scb);
	return ret;
}

void alchemy_sem_reclaim(struct nk_instance *nk, void *object)
{
	struct nk_sem *scb = object;

	/* Without rescheduling (nk_sem_destroy would): the waiters woken
	 * run once the semaphore has left the registry, else one of them
	 * could delete it again and it would be freed twice. */
	nk_synch_destroy_locked(&scb->synch);
	nk_free(nk, scb);
}

int rt_sem_delete(RT_SEM *sem)
{
	return alchemy_delete(ALCHEMY_SEM, alchemy_handle(sem), NULL);
}

static int sem_p(RT_SEM *sem, struct skin_timeout to)
{
	struct nk_instance *nk;
	struct nk_sem *scb;
	int ret;

	if (to.error)
		return to.error;
	ret = alchemy_get(ALCHEMY_SEM, alchemy_handle(sem), &nk, (void **)&scb);
	if (ret)
		return ret;
	/* 0: a unit, maybe given by a V; -EIDRM: scb is freed. */
	ret = nk_sem_take_locked(scb, to.value, to.mode);
	nk_unlock(nk);
	return ret;
}

int rt_sem_p_timed(RT_SEM *sem, const struct timespec *abs_timeout)
{
	return sem_p(sem, skin_timespec(abs_timeout));
}

int rt_sem_p_until(RT_SEM *sem, RTIME abs_timeout)
{
	return sem_p(sem, alchemy_abs(abs_timeout));
}

int rt_sem_p(RT_SEM *sem, RTIME timeout)
{
	return sem_p(sem, alchemy_rel(timeout));
}

/* rt_sem_v (@all false) and rt_sem_broadcast. */
static int sem_post(RT_SEM *sem, bool all)
{
	struct nk_instance *nk;
	struct nk_sem *scb;
	int ret;

	ret = alchemy_get(ALCHEMY_SEM, alchemy_handle(sem), &nk, (void **)&scb);
	if (ret)
		return ret;
	ret = all ? nk_sem_broadcast_locked(scb) : nk_sem_give_locked(scb);
	nk_unlock(nk);
	return ret;
}

int rt_sem_v(RT_SEM *sem)
{
	return sem_post(sem, false);
}

int rt_sem_broadcast(RT_SEM *sem)
{
	return sem_post(sem, true);
}

int rt_sem_inquire(RT_SEM *sem, RT_SEM_INFO *info)
{
	struct nk_instance *nk;
	struct nk_sem *scb;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_SEM, alchemy_handle(sem), &nk, (void **)&scb);
	if (ret)
		return ret;
	nk_sem_count(scb, &info->count);
	info->nwaiters = (int)nk_synch_nr_waiters(&scb->synch);
	alchemy_name(sem->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_sem_bind(RT_SEM *sem, const char *name, RTIME timeout)
{
	return alchemy_bind(ALCHEMY_SEM, alchemy_handle(sem), name, timeout);
}

int rt_sem_unbind(RT_SEM *sem)
{
	return skin_unbind(alchemy_handle(sem));
}
