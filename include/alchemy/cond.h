/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy condition variables (Xenomai 3 API), paired with Alchemy
 * mutexes.  Waiters queue by priority.
 */
#ifndef FUSION_ALCHEMY_COND_H
#define FUSION_ALCHEMY_COND_H

#include <alchemy/alchemy.h>
#include <alchemy/mutex.h>
#include <alchemy/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A descriptor; a zeroed, stale or forged one is refused. */
struct RT_COND {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
};

/** Xenomai's name of struct RT_COND. */
typedef struct RT_COND RT_COND;

/** What rt_cond_inquire() reports. */
struct RT_COND_INFO {
	char name[XNOBJECT_NAME_LEN]; /**< its name */
};

/** Xenomai's name of struct RT_COND_INFO. */
typedef struct RT_COND_INFO RT_COND_INFO;

#define rt_cond_create alchemy_rt_cond_create
#define rt_cond_delete alchemy_rt_cond_delete
#define rt_cond_signal alchemy_rt_cond_signal
#define rt_cond_broadcast alchemy_rt_cond_broadcast
#define rt_cond_wait_timed alchemy_rt_cond_wait_timed
#define rt_cond_wait_until alchemy_rt_cond_wait_until
#define rt_cond_wait alchemy_rt_cond_wait
#define rt_cond_inquire alchemy_rt_cond_inquire
#define rt_cond_bind alchemy_rt_cond_bind
#define rt_cond_unbind alchemy_rt_cond_unbind

/**
 * Create a condition variable.  @p name NULL or "": anonymous.
 * Errors: -EINVAL (NULL cond, name too long), -EEXIST (name in use),
 * -ENOMEM, -EPERM (from an alarm handler; any Linux thread may create).
 */
int rt_cond_create(RT_COND *cond, const char *name);
/**
 * Delete @p cond.  Errors: -EINVAL (bad descriptor), -EBUSY (tasks wait
 * on it: it stays).
 */
int rt_cond_delete(RT_COND *cond);
/** Ready the most urgent waiter, if any.  -EINVAL.  Any context. */
int rt_cond_signal(RT_COND *cond);
/** Ready every waiter.  -EINVAL.  Any context. */
int rt_cond_broadcast(RT_COND *cond);
/**
 * Atomically release @p mutex (however deeply the caller holds it) and
 * wait for a signal until @p abs_timeout (NULL: forever; {0, 0}: return
 * -EWOULDBLOCK at once, keeping the mutex).  Whatever ends the wait
 * (signal, timeout, rt_task_unblock), @p mutex is re-acquired to the same
 * depth before returning, as pthread_cond_wait() does: if its owner
 * waits meanwhile for a mutex the caller holds, this is no -EDEADLK,
 * the caller waits until the owner lets go (its own wait may time out),
 * and rt_task_unblock does not break that relock either.
 * Errors: -EINVAL (bad descriptor or timespec), -EWOULDBLOCK,
 * -ETIMEDOUT, -EINTR (rt_task_unblock), -EIDRM (@p mutex deleted
 * meanwhile: the one return without it), -EPERM (the caller does not
 * own @p mutex, not a task, or the scheduler is locked).
 */
int rt_cond_wait_timed(RT_COND *cond, RT_MUTEX *mutex,
		       const struct timespec *abs_timeout);
/** As rt_cond_wait_timed, until the date @p abs_timeout. */
int rt_cond_wait_until(RT_COND *cond, RT_MUTEX *mutex, RTIME abs_timeout);
/** As rt_cond_wait_timed, for @p timeout ns (TM_INFINITE, TM_NONBLOCK). */
int rt_cond_wait(RT_COND *cond, RT_MUTEX *mutex, RTIME timeout);
/** Name of @p cond.  -EINVAL (bad descriptor, NULL info). */
int rt_cond_inquire(RT_COND *cond, RT_COND_INFO *info);
/**
 * Find the condition variable named @p name, waiting up to @p timeout ns
 * for its creation.  Errors: -EINVAL (NULL cond or name), -EWOULDBLOCK
 * (TM_NONBLOCK and absent), -ETIMEDOUT, -EINTR, -EPERM.
 */
int rt_cond_bind(RT_COND *cond, const char *name, RTIME timeout);
/** Forget the binding.  -EINVAL (NULL cond). */
int rt_cond_unbind(RT_COND *cond);

#ifdef __cplusplus
}
#endif

#endif
