/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy counting semaphores (Xenomai 3 API).
 *
 * P takes one unit or waits for one; V hands a unit to the first waiter
 * (FIFO or priority order) or adds it to the count.  In pulse mode
 * (S_PULSE) V releases one waiter if any and never counts: the count
 * stays zero.
 */
#ifndef FUSION_ALCHEMY_SEM_H
#define FUSION_ALCHEMY_SEM_H

#include <alchemy/alchemy.h>
#include <alchemy/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Creation modes. */
#define S_PRIO 0x1  /**< waiters by task priority */
#define S_FIFO 0x0  /**< waiters in arrival order */
#define S_PULSE 0x2 /**< V releases one waiter at most, never counts */

/** A descriptor; a zeroed, stale or forged one is refused. */
struct RT_SEM {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
};

/** Xenomai's name of struct RT_SEM. */
typedef struct RT_SEM RT_SEM;

/** What rt_sem_inquire() reports. */
struct RT_SEM_INFO {
	unsigned long count;	      /**< units available */
	int nwaiters;		      /**< tasks waiting in P */
	char name[XNOBJECT_NAME_LEN]; /**< its name */
};

/** Xenomai's name of struct RT_SEM_INFO. */
typedef struct RT_SEM_INFO RT_SEM_INFO;

#define rt_sem_create alchemy_rt_sem_create
#define rt_sem_delete alchemy_rt_sem_delete
#define rt_sem_p_timed alchemy_rt_sem_p_timed
#define rt_sem_p_until alchemy_rt_sem_p_until
#define rt_sem_p alchemy_rt_sem_p
#define rt_sem_v alchemy_rt_sem_v
#define rt_sem_broadcast alchemy_rt_sem_broadcast
#define rt_sem_inquire alchemy_rt_sem_inquire
#define rt_sem_bind alchemy_rt_sem_bind
#define rt_sem_unbind alchemy_rt_sem_unbind

/**
 * Create a semaphore holding @p icount units.  @p name NULL or "": anonymous.
 * Errors: -EINVAL (NULL sem, unknown mode bits, S_PULSE with a non-zero
 * @p icount, name too long), -EEXIST (name in use), -ENOMEM, -EPERM (from
 * an alarm handler; any Linux thread may create).
 */
int rt_sem_create(RT_SEM *sem, const char *name, unsigned long icount,
		  int mode);
/**
 * Delete @p sem; its waiters return -EIDRM.
 * Errors: -EINVAL (bad descriptor).
 */
int rt_sem_delete(RT_SEM *sem);
/**
 * Take one unit, waiting until @p abs_timeout (NULL: forever; {0, 0}: do
 * not wait).  Errors: -EINVAL (bad descriptor or timespec), -EWOULDBLOCK
 * (no unit, non-blocking), -ETIMEDOUT, -EINTR (rt_task_unblock), -EIDRM
 * (deleted meanwhile), -EPERM (would block outside a task, or with the
 * scheduler locked).
 */
int rt_sem_p_timed(RT_SEM *sem, const struct timespec *abs_timeout);
/** As rt_sem_p_timed, until the date @p abs_timeout (TM_INFINITE, TM_NONBLOCK).
 */
int rt_sem_p_until(RT_SEM *sem, RTIME abs_timeout);
/** As rt_sem_p_timed, for @p timeout ns (TM_INFINITE, TM_NONBLOCK). */
int rt_sem_p(RT_SEM *sem, RTIME timeout);
/**
 * Give one unit to the first waiter (which may preempt the caller), or
 * add it to the count (not in pulse mode).  Errors: -EINVAL, -EOVERFLOW
 * (the count is ULONG_MAX already: the unit is refused).  Any context.
 */
int rt_sem_v(RT_SEM *sem);
/** Release every waiter; the count becomes zero.  -EINVAL.  Any context. */
int rt_sem_broadcast(RT_SEM *sem);
/** Count, waiters and name of @p sem.  -EINVAL (bad descriptor, NULL info). */
int rt_sem_inquire(RT_SEM *sem, RT_SEM_INFO *info);
/**
 * Find the semaphore named @p name, waiting up to @p timeout ns for its
 * creation.  Errors: -EINVAL (NULL sem or name), -EWOULDBLOCK
 * (TM_NONBLOCK and absent), -ETIMEDOUT, -EINTR, -EPERM.
 */
int rt_sem_bind(RT_SEM *sem, const char *name, RTIME timeout);
/** Forget the binding (the semaphore lives on).  -EINVAL (NULL sem). */
int rt_sem_unbind(RT_SEM *sem);

#ifdef __cplusplus
}
#endif

#endif
