/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy mutexes (Xenomai 3 API): recursive, with priority inheritance
 * always on.  The owner may acquire again and must release as many
 * times; only the owner may release.
 */
#ifndef FUSION_ALCHEMY_MUTEX_H
#define FUSION_ALCHEMY_MUTEX_H

#include <alchemy/alchemy.h>
#include <alchemy/task.h>
#include <alchemy/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A descriptor; a zeroed, stale or forged one is refused. */
struct RT_MUTEX {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
};

/** Xenomai's name of struct RT_MUTEX. */
typedef struct RT_MUTEX RT_MUTEX;

/** What rt_mutex_inquire() reports. */
struct RT_MUTEX_INFO {
	RT_TASK owner; /**< NO_ALCHEMY_TASK (handle 0) when unlocked */
	char name[XNOBJECT_NAME_LEN]; /**< its name */
};

/** Xenomai's name of struct RT_MUTEX_INFO. */
typedef struct RT_MUTEX_INFO RT_MUTEX_INFO;

#define rt_mutex_create alchemy_rt_mutex_create
#define rt_mutex_delete alchemy_rt_mutex_delete
#define rt_mutex_acquire_timed alchemy_rt_mutex_acquire_timed
#define rt_mutex_acquire_until alchemy_rt_mutex_acquire_until
#define rt_mutex_acquire alchemy_rt_mutex_acquire
#define rt_mutex_release alchemy_rt_mutex_release
#define rt_mutex_inquire alchemy_rt_mutex_inquire
#define rt_mutex_bind alchemy_rt_mutex_bind
#define rt_mutex_unbind alchemy_rt_mutex_unbind

/**
 * Create an unlocked mutex.  @p name NULL or "": anonymous.
 * Errors: -EINVAL (NULL mutex, name too long), -EEXIST (name in use),
 * -ENOMEM, -EPERM (from an alarm handler; any Linux thread may create).
 */
int rt_mutex_create(RT_MUTEX *mutex, const char *name);
/**
 * Delete @p mutex.  Errors: -EINVAL (bad descriptor), -EBUSY (locked, or
 * waited for: the mutex stays).
 */
int rt_mutex_delete(RT_MUTEX *mutex);
/**
 * Lock @p mutex, waiting until @p abs_timeout (NULL: forever; {0, 0}: do not
 * wait) while another task owns it; the owner is boosted to the
 * priority of its most urgent waiter meanwhile.  The owner itself
 * nests.  Should the owner be deleted, the mutex passes to the next
 * waiter, which returns 0.
 * Errors: -EINVAL (bad descriptor or timespec), -EWOULDBLOCK (owned,
 * non-blocking), -ETIMEDOUT, -EINTR (rt_task_unblock), -EIDRM (deleted
 * meanwhile), -EPERM (not a task; or would block with the scheduler
 * locked), -EDEADLK (waiting would close a cycle of owners).
 */
int rt_mutex_acquire_timed(RT_MUTEX *mutex, const struct timespec *abs_timeout);
/** As rt_mutex_acquire_timed, until the date @p abs_timeout. */
int rt_mutex_acquire_until(RT_MUTEX *mutex, RTIME abs_timeout);
/** As rt_mutex_acquire_timed, for @p timeout ns (TM_INFINITE, TM_NONBLOCK). */
int rt_mutex_acquire(RT_MUTEX *mutex, RTIME timeout);
/**
 * Undo one acquire; the last one passes the mutex to the most urgent
 * waiter (which may preempt the caller).  Errors: -EINVAL (bad
 * descriptor), -EPERM (the caller does not own @p mutex).
 */
int rt_mutex_release(RT_MUTEX *mutex);
/** Owner and name.  -EINVAL (bad descriptor, NULL info). */
int rt_mutex_inquire(RT_MUTEX *mutex, RT_MUTEX_INFO *info);
/**
 * Find the mutex named @p name, waiting up to @p timeout ns for its
 * creation.  Errors: -EINVAL (NULL mutex or name), -EWOULDBLOCK
 * (TM_NONBLOCK and absent), -ETIMEDOUT, -EINTR, -EPERM.
 */
int rt_mutex_bind(RT_MUTEX *mutex, const char *name, RTIME timeout);
/** Forget the binding.  -EINVAL (NULL mutex). */
int rt_mutex_unbind(RT_MUTEX *mutex);

#ifdef __cplusplus
}
#endif

#endif
