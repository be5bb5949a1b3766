/* SPDX-License-Identifier: MIT */
/** @file
 * Counting semaphore over a synch: the shape every skin's semaphore
 * takes (VxWorks semC/semB, pSOS sm_, Alchemy rt_sem, RTAI sems).
 */
#ifndef FUSION_SEM_H
#define FUSION_SEM_H

#include <fusion/synch.h>

/** nk_sem flag, on top of NK_SYNCH_FIFO/PRIO: a give nobody waits for is
 * lost (the count stays 0), as Alchemy's S_PULSE. */
#define NK_SEM_PULSE 0x200

/** A semaphore, embedded by its user; set up by nk_sem_init(). */
struct nk_sem {
	unsigned int magic;    /**< tells a live semaphore from a stale one */
	struct nk_synch synch; /**< its waiters */
	unsigned long count;   /**< units available */
	unsigned long
	    max; /**< give beyond this fails with -EOVERFLOW; 0: pulse */
};

/**
 * @p flags: NK_SYNCH_FIFO or NK_SYNCH_PRIO, optionally NK_SEM_PULSE.  @p max
 * 0 means ULONG_MAX.  Errors: -EINVAL (bad instance, NULL sem, other
 * flags, count > max, count > 0 with NK_SEM_PULSE, name too long).
 * Context: any.
 */
nk_export int nk_sem_init(struct nk_instance *nk, struct nk_sem *sem,
			  const char *name, unsigned long count,
			  unsigned long max, unsigned int flags);
/** Wake waiters with NK_WAKE_DELETED and invalidate.  -EINVAL.  Any. */
nk_export int nk_sem_destroy(struct nk_sem *sem);

/**
 * Take one unit, waiting up to @p timeout if none is available.
 * Returns the wake reason; -EWOULDBLOCK when none is available and the
 * timeout is relative 0.  Errors: -EINVAL, -EPERM (wrong context or
 * scheduler locked, unless it need not wait).  Context: thread (any
 * when the timeout is relative 0).
 */
nk_export nk_must_check int nk_sem_take(struct nk_sem *sem, nk_time_t timeout,
					enum nk_tmode mode);
/** As nk_sem_take(), the caller holding the nucleus lock (a skin that
 * found @p sem under it). */
nk_export nk_must_check int
nk_sem_take_locked(struct nk_sem *sem, nk_time_t timeout, enum nk_tmode mode);

/**
 * Give one unit: to the first waiter if any (which may preempt the
 * caller), else to the count.  Errors: -EINVAL, -EOVERFLOW (count at
 * max).  Context: any.
 */
nk_export int nk_sem_give(struct nk_sem *sem);
/** As nk_sem_give(), lock held. */
nk_export int nk_sem_give_locked(struct nk_sem *sem);

/**
 * Give every waiter a unit (they wake with NK_WAKE_OK, the most urgent
 * may preempt the caller) and set the count to 0, as Alchemy's
 * rt_sem_broadcast.  Errors: -EINVAL.  Context: any; lock held.
 */
nk_export int nk_sem_broadcast_locked(struct nk_sem *sem);

/** Wake all waiters with NK_WAKE_UNBLOCKED; count unchanged.  Any. */
nk_export int nk_sem_flush(struct nk_sem *sem);

/** Current count into *@p count.  -EINVAL.  Any. */
nk_export int nk_sem_count(struct nk_sem *sem, unsigned long *count);

#endif
