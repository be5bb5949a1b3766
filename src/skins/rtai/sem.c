/* SPDX-License-Identifier: MIT */
/*
 * RTAI semaphores.  Counting and binary ones are nucleus semaphores
 * (binary: at most one unit); resource semaphores are nucleus mutexes
 * with priority inheritance, recursive for RESEM_RECURS.  A signal
 * hands its unit (or the ownership) straight to the first waiter, so a
 * woken waiter never touches the semaphore again: deletion may free it
 * as soon as the waiters are flushed.
 */
#include "internal.h"

#include <rtai/rtai_sem.h>

#include <limits.h>

#define SEM_TYPE_BITS 7 /* kind (3) and FIFO_Q */
#define SEM_CND 0x10	/* a condition variable's kind */

struct rtai_sem {
	struct rtai_named named; /* first: rt_named_sem_init() uses */
	int kind;		 /* CNT_SEM, BIN_SEM, RES_SEM or SEM_CND */
	int restype;		 /* RES_SEM: RESEM_* */
	int fifo;		 /* FIFO_Q: waiters in arrival order */
	int value;		 /* initial units */
	int barrier;		 /* rt_sem_wait_barrier()'s gang, 0: none */
	struct nk_sem sem;	 /* CNT_SEM, BIN_SEM, SEM_CND (pulse) */
	struct nk_mutex mutex;	 /* RES_SEM */
};

void rtai_sem_describe(const void *object, struct nk_object_info *info)
{
	const struct rtai_sem *s = object;

	if (s->kind == RES_SEM)
		skin_describe_mutex(&s->mutex, info);
	else
		skin_describe_sem(&s->sem, info);
}

static int sem_setup(struct nk_instance *nk, void *object, const char *wname)
{
	struct rtai_sem *s = object;

	if (s->kind == RES_SEM)
		return nk_mutex_init(
		    nk, &s->mutex, wname,
		    NK_SYNCH_PI | (s->restype > 0 ? NK_MUTEX_RECURSIVE : 0), 0);
	return nk_sem_init(nk, &s->sem, wname, (unsigned long)s->value,
			   s->kind == BIN_SEM ? 1 : 0,
			   (s->fifo ? NK_SYNCH_FIFO : NK_SYNCH_PRIO) |
			       (s->kind == SEM_CND ? NK_SEM_PULSE : 0));
}

void rtai_sem_reclaim(struct nk_instance *nk, void *object)
{
	struct rtai_sem *s = object;

	/* Without rescheduling: the waiters run once it is unregistered. */
	nk_synch_destroy_locked(s->kind == RES_SEM ? &s->mutex.synch
						   : &s->sem.synch);
	nk_free(nk, s);
}

/* Create a semaphore named @key ("": anonymous).  NULL on failure. */
static void *sem_create(const char *key, int value, int type)
{
	struct nk_instance *nk;
	struct rtai_sem *s;
	uintptr_t handle;
	int kind = type & RES_SEM;

	if (type == SEM_CND)
		kind = SEM_CND;
	else if ((type & ~SEM_TYPE_BITS) || (kind != RES_SEM && value < 0))
		return NULL;
	if (rtai_enter(&nk))
		return NULL;
	s = nk_alloc(nk, sizeof(*s));
	if (s == NULL)
		return NULL;
	/* RTAI reads kind 0 as binary. */
	s->kind = kind == 0 ? BIN_SEM : kind;
	s->fifo = kind != RES_SEM && (type & FIFO_Q);
	s->restype = kind == RES_SEM ? value : 0;
	s->value = s->kind == BIN_SEM && value > 1 ? 1
		   : kind == RES_SEM		   ? 0
						   : value;
	s->named.uses = 1;
	if (skin_create(rtai(), RTAI_SEM, key, s, sem_setup, rtai_sem_reclaim,
			&handle))
		return NULL;
	return rtai_ptr(handle);
}

SEM *rt_typed_sem_init(unsigned long name, int value, int type)
{
	char key[RTAI_NAME_CHARS + 1];

	rtai_name(name, key);
	return sem_create(key, value, type);
}

SEM *rt_sem_init(unsigned long name, int value)
{
	return rt_typed_sem_init(name, value, CNT_SEM);
}

SEM *rt_typed_named_sem_init(const char *name, int value, int type)
{
	return rtai_named_init(RTAI_SEM, name, sem_create, value, type);
}

SEM *rt_named_sem_init(const char *name, int value)
{
	return rt_typed_named_sem_init(name, value, CNT_SEM);
}

int rt_sem_delete(SEM *sem)
{
	return rtai_object_delete(RTAI_SEM, sem);
}

int rt_named_sem_delete(SEM *sem)
{
	return rtai_named_delete(RTAI_SEM, sem);
}

/* Find @sem: lock held on success only.  RTE_OBJINV otherwise. */
static int sem_get(SEM *sem, struct nk_instance **nk, struct rtai_sem **s)
{
	uintptr_t handle = rtai_handle(sem);

	return skin_get(&rtai_skin, RTAI_SEM, &handle, nk, (void **)s);
}

/* RTAI's count: units, or minus the waiters.  Lock held. */
static int sem_value(struct rtai_sem *s)
{
	long units;

	if (s->kind == RES_SEM)
		units = nk_mutex_owner(&s->mutex) ? 0 : 1;
	else
		units = s->sem.count > INT_MAX ? INT_MAX : (long)s->sem.count;
	if (units == 0)
		units = -(long)nk_synch_nr_waiters(
		    s->kind == RES_SEM ? &s->mutex.synch : &s->sem.synch);
	return (int)units;
}

/* How a wait ends when no unit is there at once. */
enum sem_mode {
	SEM_WAIT,   /* wait per the timeout */
	SEM_IF,	    /* do not wait: return the count */
	SEM_BOUNDED /* _until, _timed: a date passed is a timeout */
};

/* Take @s per @to.  Returns the count or an RTE_* code.  Lock held. */
static int sem_take_locked(struct nk_instance *nk, struct rtai_sem *s,
			   struct skin_timeout to, enum sem_mode mode)
{
	int count = sem_value(s), ret;

	if (s->kind == RES_SEM) {
		if (nk_mutex_owner(&s->mutex) == rtai_self(nk) &&
		    s->restype <= 0)
			return RTE_DEADLOK;
		ret = nk_mutex_trylock_locked(&s->mutex);
		if (ret == 0)
			return (int)s->mutex.depth;
	} else {
		ret = nk_sem_take_locked(&s->sem, 0, NK_RELATIVE);
		if (ret == 0)
			return count;
	}
	if (ret != -EWOULDBLOCK)
		return skin_error(&rtai_skin, ret);
	if (mode == SEM_IF)
		return count;
	if (skin_nonblocking(to))
		return RTE_TIMOUT;
	ret = s->kind == RES_SEM
		  ? nk_mutex_lock_locked(&s->mutex, to.value, to.mode)
		  : nk_sem_take_locked(&s->sem, to.value, to.mode);
	/* The previous owner ended: the resource is ours all the same. */
	if (ret == NK_WAKE_OWNER_DEAD)
		ret = 0;
	/* Deleted meanwhile: @s is gone. */
	return ret ? skin_error(&rtai_skin, ret) : sem_value(s);
}

static int sem_take(SEM *sem, RTIME date, enum sem_mode mode, bool absolute)
{
	struct nk_instance *nk;
	struct rtai_sem *s;
	struct skin_timeout to = skin_infinite();
	int ret;

	ret = sem_get(sem, &nk, &s);
	if (ret)
		return ret;
	if (mode == SEM_BOUNDED)
		to = absolute ? rtai_abs(rtai(), date) : rtai_rel(rtai(), date);
	ret = sem_take_locked(nk, s, to, mode);
	nk_unlock(nk);
	return ret;
}

int rt_sem_wait(SEM *sem)
{
	return sem_take(sem, 0, SEM_WAIT, false);
}

int rt_sem_wait_if(SEM *sem)
{
	return sem_take(sem, 0, SEM_IF, false);
}

int rt_sem_wait_until(SEM *sem, RTIME time)
{
	return sem_take(sem, time, SEM_BOUNDED, true);
}

int rt_sem_wait_timed(SEM *sem, RTIME delay)
{
	return sem_take(sem, delay, SEM_BOUNDED, false);
}

/*
 * The barrier of @s: the first call makes its units the size of the
 * gang (1 at least) and empties it.  -1 once the gang is complete
 * for those that waited, 0 for the one that completed it, RTE_PERM
 * (a RES_SEM or a condition), an RTE_* code of the wait.  Lock held.
 */
static int sem_barrier_locked(struct nk_instance *nk, struct rtai_sem *s)
{
	int ret;

	if (s->kind == RES_SEM || s->kind == SEM_CND)
		return RTE_PERM;
	if (s->barrier == 0) {
		s->barrier = s->sem.count > 1 ? (int)s->sem.count : 1;
		while (nk_sem_take_locked(&s->sem, 0, NK_RELATIVE) == 0)
			;
	}
	if ((int)nk_synch_nr_waiters(&s->sem.synch) + 1 >= s->barrier) {
		nk_sem_broadcast_locked(&s->sem);
		nk_sched_run(nk);
		return 0;
	}
	ret = nk_sem_take_locked(&s->sem, NK_INFINITE, NK_RELATIVE);
	return ret ? skin_error(&rtai_skin, ret) : -1;
}

/* What rt_sem_signal() and its kind do to a semaphore found. */
enum sem_op { SEM_SIGNAL, SEM_BROADCAST, SEM_COUNT, SEM_BARRIER };

/* @op on @sem: its result, or an RTE_* code. */
static int sem_apply(SEM *sem, enum sem_op op)
{
	struct nk_instance *nk;
	struct rtai_sem *s;
	int ret;

	ret = sem_get(sem, &nk, &s);
	if (ret)
		return ret;
	switch (op) {
	case SEM_SIGNAL:
		if (s->kind == RES_SEM)
			ret = nk_mutex_unlock_locked(&s->mutex);
		else
			ret = nk_sem_give_locked(&s->sem);
		/* A binary semaphore holding its unit stays so. */
		ret = skin_error(&rtai_skin, ret == -EOVERFLOW ? 0 : ret);
		break;
	case SEM_BROADCAST:
		/* Its waiters want ownership, which one only may have. */
		ret = s->kind == RES_SEM ? RTE_PERM
					 : nk_sem_broadcast_locked(&s->sem);
		break;
	case SEM_COUNT:
		ret = sem_value(s);
		break;
	case SEM_BARRIER:
		ret = sem_barrier_locked(nk, s);
		break;
	}
	nk_sched_run(nk);
	nk_unlock(nk);
	return ret;
}

int rt_sem_signal(SEM *sem)
{
	return sem_apply(sem, SEM_SIGNAL);
}

int rt_sem_broadcast(SEM *sem)
{
	return sem_apply(sem, SEM_BROADCAST);
}

int rt_sem_count(SEM *sem)
{
	return sem_apply(sem, SEM_COUNT);
}

int rt_sem_wait_barrier(SEM *sem)
{
	return sem_apply(sem, SEM_BARRIER);
}

/* ---- conditions: pulse semaphores (a signal nobody waits for is lost) */

CND *rt_cond_init(unsigned long name)
{
	char key[RTAI_NAME_CHARS + 1];

	rtai_name(name, key);
	return sem_create(key, 0, SEM_CND);
}

int rt_cond_delete(CND *cnd)
{
	return rt_sem_delete(cnd);
}

int rt_cond_signal(CND *cnd)
{
	return sem_apply(cnd, SEM_SIGNAL);
}

int rt_cond_broadcast(CND *cnd)
{
	return sem_apply(cnd, SEM_BROADCAST);
}

/*
 * Let @m go (all its nesting, into *@depth, for a RES_SEM), wait on
 * @c per @to, take @m back.  0 or an RTE_* code.  Lock held.
 */
static int cond_wait_locked(struct rtai_sem *c, struct rtai_sem *m,
			    uintptr_t mhandle, struct skin_timeout to)
{
	unsigned int depth = 0;
	int ret, back;

	if (m->kind == RES_SEM)
		ret = nk_mutex_giveup_locked(&m->mutex, &depth);
	else
		ret = nk_sem_give_locked(&m->sem);
	if (ret && ret != -EOVERFLOW)
		return skin_error(&rtai_skin, ret);
	/* @c is gone after -EIDRM: not touched again. */
	ret = nk_sem_take_locked(&c->sem, to.value, to.mode);
	if (ret == -EWOULDBLOCK)
		ret = -ETIMEDOUT;
	/* The mutex may have gone meanwhile. */
	if (skin_lookup_locked(rtai(), RTAI_SEM, mhandle, (void **)&m))
		return RTE_OBJREM;
	back = m->kind == RES_SEM
		   ? nk_mutex_regain_locked(&m->mutex, depth)
		   : nk_sem_take_locked(&m->sem, NK_INFINITE, NK_RELATIVE);
	return skin_error(&rtai_skin, ret ? ret : back);
}

static int cond_wait(CND *cnd, SEM *mtx, struct skin_timeout to)
{
	struct nk_instance *nk;
	struct rtai_sem *c, *m;
	int ret;

	ret = sem_get(cnd, &nk, &c);
	if (ret)
		return ret;
	if (c->kind != SEM_CND ||
	    skin_lookup_locked(rtai(), RTAI_SEM, rtai_handle(mtx),
			       (void **)&m) ||
	    m->kind == SEM_CND)
		ret = RTE_OBJINV;
	else
		ret = cond_wait_locked(c, m, rtai_handle(mtx),
				       skin_deadline(nk, to));
	nk_unlock(nk);
	return ret;
}

int rt_cond_wait(CND *cnd, SEM *mtx)
{
	return cond_wait(cnd, mtx, skin_infinite());
}

int rt_cond_wait_until(CND *cnd, SEM *mtx, RTIME time)
{
	return cond_wait(cnd, mtx, rtai_timeout(time, true));
}

int rt_cond_wait_timed(CND *cnd, SEM *mtx, RTIME delay)
{
	return cond_wait(cnd, mtx, rtai_timeout(delay, false));
}
