/* SPDX-License-Identifier: MIT */
/*
 * VxWorks semaphores.  Binary and counting ones are nucleus semaphores
 * (binary: at most one unit; giving a full one does nothing, as on
 * VxWorks), mutual-exclusion ones recursive nucleus mutexes, with
 * priority inheritance for SEM_INVERSION_SAFE.  A give with waiters
 * hands its unit (or the mutex) straight to the first one, which never
 * touches the semaphore again: deletion may free it once its waiters
 * are woken.
 *
 * SEM_DELETE_SAFE: the task that takes the mutex (first level) is made
 * safe as by taskSafe(), until it gives it (last level) or the
 * semaphore is deleted.
 */
#include "internal.h"

#include <errno.h>

enum sem_type { SEM_TYPE_BINARY, SEM_TYPE_COUNTING, SEM_TYPE_MUTEX };

struct vx_sem {
	enum sem_type type;
	int options;
	unsigned long initial; /* units at creation (binary, counting) */
	union {
		struct nk_sem sem;     /* binary, counting */
		struct nk_mutex mutex; /* mutual exclusion */
	};
	/* SEM_DELETE_SAFE: the owner made safe by its take, or NULL. */
	struct nk_thread *safe_holder;
};

void vx_sem_describe(const void *object, struct nk_object_info *info)
{
	const struct vx_sem *s = object;

	if (s->type == SEM_TYPE_MUTEX)
		skin_describe_mutex(&s->mutex, info);
	else
		skin_describe_sem(&s->sem, info);
}

/* The nucleus part of @object, named @wname.  Errors: statuses. */
static int sem_setup(struct nk_instance *nk, void *object, const char *wname)
{
	struct vx_sem *s = object;
	unsigned int order =
	    (s->options & SEM_Q_PRIORITY) ? NK_SYNCH_PRIO : NK_SYNCH_FIFO;

	if (s->type != SEM_TYPE_MUTEX)
		return vx_error(nk_sem_init(nk, &s->sem, wname, s->initial,
					    s->type == SEM_TYPE_BINARY ? 1 : 0,
					    order));
	return vx_error(nk_mutex_init(
	    nk, &s->mutex, wname,
	    order | NK_MUTEX_RECURSIVE |
		((s->options & SEM_INVERSION_SAFE) ? NK_SYNCH_PI : 0),
	    0));
}

/* The owner's deletion safety, taken by the mutex, goes with it. */
static void sem_unsafe(struct vx_sem *s)
{
	struct vx_task *t;

	if (s->safe_holder == NULL)
		return;
	t = nk_thread_personality(s->safe_holder, &vxworks_skin.pers);
	s->safe_holder = NULL;
	if (t)
		vx_task_unsafe_locked(t);
}

void vx_sem_reclaim(struct nk_instance *nk, void *object)
{
	struct vx_sem *s = object;

	/* Without rescheduling: the waiters woken run once the semaphore
	 * has left the registry (skin_delete() reschedules). */
	if (s->type == SEM_TYPE_MUTEX) {
		if (s->safe_holder == nk_mutex_owner(&s->mutex))
			sem_unsafe(s);
		nk_synch_destroy_locked(&s->mutex.synch);
	} else {
		nk_synch_destroy_locked(&s->sem.synch);
	}
	nk_free(nk, s);
}

static SEM_ID sem_create(enum sem_type type, int options, unsigned long initial)
{
	struct nk_instance *nk;
	struct vx_sem *s;
	uintptr_t id;
	int ret;

	ret = vx_object_alloc(sizeof(*s), &nk, (void **)&s);
	if (ret == 0) {
		s->type = type;
		s->options = options;
		s->initial = initial;
		ret = vx_create(VX_SEM, s, sem_setup, vx_sem_reclaim, &id);
	}
	vx_status(ret);
	return ret ? NULL : (SEM_ID)id;
}

/* The queueing bits of @options, and no other than @allowed. */
static int sem_options(int options, int allowed)
{
	if ((options & SEM_Q_MASK) > SEM_Q_PRIORITY)
		return S_semLib_INVALID_QUEUE_TYPE;
	return (options & ~(SEM_Q_MASK | allowed)) ? S_semLib_INVALID_OPTION
						   : 0;
}

SEM_ID semBCreate(int options, SEM_B_STATE initialState)
{
	int ret = sem_options(options, 0);

	if (ret == 0 && initialState != SEM_EMPTY && initialState != SEM_FULL)
		ret = S_semLib_INVALID_STATE;
	if (ret) {
		vx_fail(ret);
		return NULL;
	}
	return sem_create(SEM_TYPE_BINARY, options,
			  initialState == SEM_FULL ? 1 : 0);
}

SEM_ID semCCreate(int options, int initialCount)
{
	int ret = sem_options(options, 0);

	if (ret == 0 && initialCount < 0)
		ret = EINVAL;
	if (ret) {
		vx_fail(ret);
		return NULL;
	}
	return sem_create(SEM_TYPE_COUNTING, options,
			  (unsigned long)initialCount);
}

SEM_ID semMCreate(int options)
{
	int ret = sem_options(options, SEM_DELETE_SAFE | SEM_INVERSION_SAFE);

	/* Inheritance orders waiters by priority. */
	if (ret == 0 && (options & SEM_INVERSION_SAFE) &&
	    !(options & SEM_Q_PRIORITY))
		ret = S_semLib_INVALID_OPTION;
	if (ret) {
		vx_fail(ret);
		return NULL;
	}
	return sem_create(SEM_TYPE_MUTEX, options, 0);
}

STATUS semDelete(SEM_ID semId)
{
	return vx_status(vx_delete(VX_SEM, semId));
}

/*
 * Take mutex @s for the caller @t.  A free mutex is taken even under
 * taskLock(), where waiting is refused.  Lock held.
 */
static int mutex_take(struct vx_sem *s, struct vx_task *t,
		      struct skin_timeout to)
{
	int ret = nk_mutex_trylock_locked(&s->mutex);

	if (ret == -EWOULDBLOCK && !skin_nonblocking(to))
		ret = nk_mutex_lock_locked(&s->mutex, to.value, to.mode);
	/* Acquired from a deleted owner: it is the caller's now. */
	if (ret == NK_WAKE_OWNER_DEAD)
		ret = 0;
	if (ret == 0 && s->mutex.depth == 1 && (s->options & SEM_DELETE_SAFE)) {
		t->safe++;
		s->safe_holder = t->thread;
	}
	return vx_error(ret);
}

/* semTake() of semaphore @id, a status (vx_wait()). */
static int sem_take(void *id, int timeout)
{
	struct nk_instance *nk;
	struct vx_task *t;
	struct vx_sem *s;
	struct skin_timeout to;
	int ret;

	/* The caller must be a task: the mutex's owner, or a waiter. */
	ret = vx_task_current(&nk, &t);
	if (ret == 0)
		ret = vx_get(VX_SEM, id, &nk, (void **)&s);
	if (ret)
		return ret;
	to = vx_timeout(skin_state(&vxworks_skin), timeout);
	if (s->type == SEM_TYPE_MUTEX) {
		ret = mutex_take(s, t, to);
	} else {
		ret = nk_sem_take_locked(&s->sem, to.value, to.mode);
		/* Woken by semFlush(): the take succeeds. */
		ret = vx_error(ret == NK_WAKE_UNBLOCKED ? 0 : ret);
	}
	nk_unlock(nk);
	return ret;
}

STATUS semTake(SEM_ID semId, int timeout)
{
	return vx_status(vx_wait(sem_take, semId, timeout));
}

/*
 * Give mutex @s, which only its owner may.  The unlock hands it to the
 * next owner, who may run (and delete it) at once: @s is not touched
 * after it.  Lock held.
 */
static int mutex_give(struct nk_instance *nk, struct vx_sem *s)
{
	struct nk_thread *self = nk_thread_self(nk);

	if (nk_in_interrupt(nk))
		return S_intLib_NOT_ISR_CALLABLE;
	if (self == NULL || nk_mutex_owner(&s->mutex) != self)
		return S_semLib_INVALID_OPERATION;
	if (s->mutex.depth == 1 && s->safe_holder == self)
		sem_unsafe(s);
	if (nk_mutex_unlock_locked(&s->mutex))
		return S_semLib_INVALID_OPERATION;
	nk_sched_run(nk);
	return 0;
}

/* A binary or counting semaphore's give (@flush false) or flush. */
static int sem_post(struct nk_instance *nk, struct vx_sem *s, bool flush)
{
	int ret;

	if (flush) {
		ret = nk_sem_flush(&s->sem);
		nk_sched_run(nk);
		return vx_error(ret);
	}
	ret = nk_sem_give_locked(&s->sem);
	/* A full binary semaphore stays full. */
	if (ret == -EOVERFLOW && s->type == SEM_TYPE_BINARY)
		ret = 0;
	return vx_error(ret);
}

/* semGive() (@flush false) and semFlush(). */
static STATUS sem_give(SEM_ID semId, bool flush)
{
	struct nk_instance *nk;
	struct vx_sem *s;
	int ret;

	ret = vx_get(VX_SEM, semId, &nk, (void **)&s);
	if (ret)
		return vx_fail(ret);
	if (s->type != SEM_TYPE_MUTEX)
		ret = sem_post(nk, s, flush);
	else
		ret = flush ? S_semLib_INVALID_OPERATION : mutex_give(nk, s);
	nk_unlock(nk);
	return vx_status(ret);
}

STATUS semGive(SEM_ID semId)
{
	return sem_give(semId, false);
}

STATUS semFlush(SEM_ID semId)
{
	return sem_give(semId, true);
}
