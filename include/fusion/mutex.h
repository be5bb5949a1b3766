/* SPDX-License-Identifier: MIT */
/** @file
 * Mutex over an owned synch: ownership, optional recursion, priority
 * inheritance or ceiling, deadlock detection.
 */
#ifndef FUSION_MUTEX_H
#define FUSION_MUTEX_H

#include <fusion/synch.h>

/** nk_mutex flags, on top of NK_SYNCH_FIFO/PRIO/PI/PP */
#define NK_MUTEX_RECURSIVE 0x100

/** A mutex, embedded by its user; set up by nk_mutex_init(). */
struct nk_mutex {
	unsigned int magic;    /**< tells a live mutex from a stale one */
	unsigned int flags;    /**< as given to nk_mutex_init() */
	struct nk_synch synch; /**< its waiters and owner */
	unsigned int depth;    /**< recursion depth of the owner */
};

/**
 * Errors: -EINVAL (bad instance, NULL mutex, unknown flags, PI with PP,
 * ceiling out of range).  Context: any.
 */
nk_export int nk_mutex_init(struct nk_instance *nk, struct nk_mutex *mutex,
			    const char *name, unsigned int flags, int ceiling);
/** Waiters wake with NK_WAKE_DELETED.  -EINVAL.  Any. */
nk_export int nk_mutex_destroy(struct nk_mutex *mutex);

/**
 * Lock, waiting up to @p timeout.  Returns the wake reason (OWNER_DEAD
 * means acquired; DELETED also when the mutex was handed to the caller
 * and destroyed before the caller ran again: it owns nothing).  Errors:
 * -EINVAL, -EPERM (wrong context, scheduler locked, ceiling below caller),
 * -EDEADLK (relocking a non-recursive mutex, or an owner cycle), -EWOULDBLOCK
 * (owned, relative timeout 0), -EOVERFLOW (recursion depth).  Context: thread.
 */
nk_export nk_must_check int
nk_mutex_lock(struct nk_mutex *mutex, nk_time_t timeout, enum nk_tmode mode);
/** As nk_mutex_lock(), the caller holding the nucleus lock. */
nk_export nk_must_check int nk_mutex_lock_locked(struct nk_mutex *mutex,
						 nk_time_t timeout,
						 enum nk_tmode mode);
/**
 * Lock without ever blocking: a free mutex is taken (and a recursive
 * one nested) even where blocking is refused (scheduler locked).
 * Errors: -EINVAL, -EPERM (not a thread, ceiling below caller),
 * -EWOULDBLOCK (owned by another thread), -EDEADLK (relocking a
 * non-recursive mutex), -EOVERFLOW (recursion depth).  Context: thread;
 * lock held.
 */
nk_export int nk_mutex_trylock_locked(struct nk_mutex *mutex);
/** Errors: -EINVAL, -EPERM (caller is not the owner).  Context: thread. */
nk_export int nk_mutex_unlock(struct nk_mutex *mutex);
/** As nk_mutex_unlock(), lock held. */
nk_export int nk_mutex_unlock_locked(struct nk_mutex *mutex);
/**
 * Release the mutex entirely, whatever its nesting, which is stored in
 * *@p depth: a condition wait gives it up so.  The next owner is readied
 * but not switched to (the caller reschedules, typically by blocking).
 * Errors: -EINVAL, -EPERM (caller is not the owner).  Context: thread;
 * lock held.
 */
nk_export int nk_mutex_giveup_locked(struct nk_mutex *mutex,
				     unsigned int *depth);
/**
 * Take the mutex back at nesting @p depth (from nk_mutex_giveup_locked),
 * waiting as long as it takes, as pthread_cond_wait() does: neither
 * nk_thread_unblock() (which leaves the caller queued and returns 0)
 * nor an owner cycle (the owner waits for a mutex
 * the caller holds) breaks this wait, which lasts until the owner lets
 * go (its own wait may time out); priority inheritance applies as to
 * any wait.  A mutex inherited from a deleted owner is taken too.
 * Errors: -EINVAL (bad mutex, depth 0), -EPERM (cannot block here),
 * -EIDRM (the mutex was destroyed meanwhile), -EDEADLK (the caller
 * holds it already).  Context: thread; lock held.
 */
nk_export int nk_mutex_regain_locked(struct nk_mutex *mutex,
				     unsigned int depth);
/** Owner, or NULL (free or bad mutex).  Any. */
nk_export struct nk_thread *nk_mutex_owner(struct nk_mutex *mutex);

#endif
