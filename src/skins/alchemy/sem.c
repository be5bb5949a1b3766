/*
 * Alchemy semaphores: a count in front of a nucleus synch.  A V with
 * waiters hands its unit straight to the first one (the count never
 * sees it), so a woken P has nothing left to do and never touches the
 * semaphore again: deletion may free it as soon as waiters are flushed.
 */
#include "internal.h"

#include <alchemy/sem.h>

#include <stdlib.h>

struct alchemy_sem {
	struct nk_synch synch;
	unsigned long count;
	bool pulse;
};

int rt_sem_create(RT_SEM *sem, const char *name, unsigned long icount, int mode)
{
	struct nk_instance *nk;
	struct alchemy_sem *scb;
	int ret;

	if (sem == NULL || (mode & ~(S_PRIO | S_PULSE)) ||
	    ((mode & S_PULSE) && icount > 0))
		return -EINVAL;
	ret = alchemy_enter_thread(&nk);
	if (ret)
		return ret;
	scb = malloc(sizeof(*scb));
	if (scb == NULL)
		return -ENOMEM;
	ret = nk_synch_init(nk, &scb->synch, name,
			    (mode & S_PRIO) ? NK_SYNCH_PRIO : NK_SYNCH_FIFO, 0);
	scb->count = icount;
	scb->pulse = (mode & S_PULSE) != 0;
	/* Registration may run a binder at once: the object is ready. */
	if (ret == 0)
		ret = alchemy_publish(ALCHEMY_SEM, name, scb, &sem->handle);
	if (ret)
		free(scb);
	return ret;
}

static int sem_destroy(struct nk_instance *nk, void *object)
{
	struct alchemy_sem *scb = object;

	(void)nk;
	nk_synch_destroy_locked(&scb->synch);
	free(scb);
	return 0;
}

int rt_sem_delete(RT_SEM *sem)
{
	return alchemy_delete(ALCHEMY_SEM, alchemy_handle(sem), sem_destroy);
}

static int sem_p(RT_SEM *sem, struct skin_timeout to)
{
	struct nk_instance *nk;
	struct alchemy_sem *scb;
	int ret;

	if (to.error)
		return to.error;
	ret = alchemy_get(ALCHEMY_SEM, alchemy_handle(sem), &nk, (void **)&scb);
	if (ret)
		return ret;
	if (scb->count > 0) {
		scb->count--;
	} else if (skin_nonblocking(to)) {
		ret = -EWOULDBLOCK;
	} else {
		/* 0: a V gave us its unit; -EIDRM: scb is freed. */
		ret = nk_synch_sleep(&scb->synch, to.value, to.mode);
	}
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
	struct alchemy_sem *scb;
	int ret;

	ret = alchemy_get(ALCHEMY_SEM, alchemy_handle(sem), &nk, (void **)&scb);
	if (ret)
		return ret;
	if (all) {
		scb->count = 0;
		if (nk_synch_flush(&scb->synch, NK_WAKE_OK) > 0)
			nk_sched_run(nk);
	} else if (nk_synch_wakeup_one(&scb->synch)) {
		nk_sched_run(nk);
	} else if (!scb->pulse) {
		scb->count++;
	}
	nk_unlock(nk);
	return 0;
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
	struct alchemy_sem *scb;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_SEM, alchemy_handle(sem), &nk, (void **)&scb);
	if (ret)
		return ret;
	info->count = scb->count;
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
