/* SPDX-License-Identifier: MIT */
/** @file
 * The one wait-queue primitive under every synchronisation object of
 * every skin.  A synch orders its waiters FIFO or by priority; with
 * NK_SYNCH_OWNER it tracks an owner (a mutex) and can apply priority
 * inheritance (transitive through chains of owners) or a priority
 * ceiling, and refuses waits that would close an owner cycle.
 *
 * Every wait returns why it ended (enum nk_wake); skins translate that
 * into their own error codes exactly once.
 *
 * All nk_synch_* calls except init/destroy and the owner and waiter
 * count queries require the nucleus lock (nk_lock).  Calls that ready
 * threads only mark a reschedule: the caller runs nk_sched_run() before
 * unlocking.
 */
#ifndef FUSION_SYNCH_H
#define FUSION_SYNCH_H

#include <fusion/types.h>
#include <fusion/list.h>

/* nk_synch flags */
#define NK_SYNCH_FIFO 0x0  /**< waiters in arrival order */
#define NK_SYNCH_PRIO 0x1  /**< waiters by effective priority, FIFO within */
#define NK_SYNCH_OWNER 0x2 /**< tracks an owner */
#define NK_SYNCH_PI 0x4	   /**< priority inheritance (implies OWNER|PRIO) */
#define NK_SYNCH_PP 0x8	   /**< priority ceiling (implies OWNER) */

/** A wait queue, embedded by its user; set up by nk_synch_init(). */
struct nk_synch {
	unsigned int magic;	   /**< tells a live synch from a stale one */
	unsigned int flags;	   /**< NK_SYNCH_* */
	struct nk_instance *nk;	   /**< its instance */
	struct nk_list waiters;	   /**< in FIFO or priority order */
	unsigned int nr_waiters;   /**< threads waiting */
	struct nk_thread *owner;   /**< NK_SYNCH_OWNER: the owner, or NULL */
	struct nk_list owner_link; /**< in owner's list of owned synchs */
	int ceiling;		   /**< NK_SYNCH_PP: the ceiling priority */
	unsigned int trace_id;	   /**< its number in trace records */
	char name[NK_NAME_MAX];	   /**< what the sim log and reports show */
};

/**
 * Prepare @p synch.  @p ceiling is used with NK_SYNCH_PP only.
 * Errors: -EINVAL (bad instance, NULL synch, unknown flags, PI with PP,
 * ceiling out of range, name too long).  Context: any.
 */
nk_export int nk_synch_init(struct nk_instance *nk, struct nk_synch *synch,
			    const char *name, unsigned int flags, int ceiling);

/**
 * Invalidate @p synch, waking every waiter with NK_WAKE_DELETED (and
 * dropping its owner).  Takes the lock and reschedules itself.
 * Errors: -EINVAL.  Context: any.
 */
nk_export int nk_synch_destroy(struct nk_synch *synch);

/** As nk_synch_destroy, lock held; returns the number of waiters woken. */
nk_export int nk_synch_destroy_locked(struct nk_synch *synch);

/**
 * Block the calling thread on @p synch until woken or @p timeout (per @p mode;
 * NK_INFINITE: never) passes.  Returns the wake reason.
 * Errors: -EINVAL (bad synch), -EPERM (not a thread of the instance,
 * interrupt context, scheduler locked), -EDEADLK (owner cycle).
 * Context: thread, lock held.
 */
nk_export nk_must_check int
nk_synch_sleep(struct nk_synch *synch, nk_time_t timeout, enum nk_tmode mode);

/**
 * As nk_synch_sleep, with a wait context: @p ctx (typically on the
 * caller's stack), @p size bytes, describes what the caller waits for (a
 * size, a mask, a buffer), and wakers read and fill it through
 * nk_synch_waiter_ctx() while it waits, serving waiters one by one in
 * queue order (Xenomai's wait context).  A waiter that leaves the queue
 * (woken, timed out, unblocked, deleted) is never seen again, so @p ctx
 * needs to live only as long as the call.  In an instance a session
 * shares, wakers see a copy of @p ctx in the instance's memory, copied
 * back when the wait ends; an address in it (a buffer) is still the
 * caller's process's, for nk_thread_copy_to() and _from().
 * Errors and context: as nk_synch_sleep; -ENOMEM (no memory for the
 * copy, in a session).
 */
nk_export nk_must_check int nk_synch_sleep_ctx(struct nk_synch *synch,
					       void *ctx, size_t size,
					       nk_time_t timeout,
					       enum nk_tmode mode);
/**
 * Waiters in queue order: the first with @p after NULL, else the one
 * after @p after (NULL at the end, or when @p after does not wait on
 * @p synch).  Take the next one before waking @p after.  Lock held.
 */
nk_export struct nk_thread *nk_synch_next_waiter(struct nk_synch *synch,
						 struct nk_thread *after);
/** The wait context of a waiting @p thread (NULL if none).  Lock held. */
nk_export void *nk_synch_waiter_ctx(struct nk_thread *thread);

/** Wake the first waiter with NK_WAKE_OK; returns it, or NULL if none. */
nk_export struct nk_thread *nk_synch_wakeup_one(struct nk_synch *synch);
/** Wake @p thread, which waits on @p synch.  Errors: -EINVAL, -ESRCH. */
nk_export int nk_synch_wakeup_this(struct nk_synch *synch,
				   struct nk_thread *thread);
/** Wake every waiter with @p reason; returns how many woke. */
nk_export int nk_synch_flush(struct nk_synch *synch, enum nk_wake reason);

/**
 * Ownership (NK_SYNCH_OWNER synchs).  Acquire takes a free synch at
 * once; otherwise the caller waits (boosting the owner chain under PI)
 * and, when woken, owns it.  Returns the wake reason, NK_WAKE_OWNER_DEAD
 * meaning "acquired, the previous owner was deleted".
 * Errors: as nk_synch_sleep, plus -EINVAL (no OWNER flag), -EPERM
 * (ceiling below the caller's base priority), -EDEADLK (caller owns it
 * already, or the wait would close a cycle of owners).
 * Context: thread, lock held.
 */
nk_export nk_must_check int
nk_synch_acquire(struct nk_synch *synch, nk_time_t timeout, enum nk_tmode mode);
/**
 * Release a synch the caller owns: ownership passes to the first waiter
 * (readied), or the synch becomes free.  The caller's priority drops
 * back to what its remaining ownerships justify.
 * Errors: -EINVAL, -EPERM (caller is not the owner).  Lock held.
 */
nk_export int nk_synch_release(struct nk_synch *synch);

/**
 * Take ownership for @p thread without waiting (trylock; @p thread may be
 * any live thread, for skins that assign ownership).  Errors: -EINVAL,
 * -EBUSY (owned), -EPERM (ceiling below its priority).  Lock held.
 */
nk_export int nk_synch_try_acquire(struct nk_synch *synch,
				   struct nk_thread *thread);

/** @{ */
/**
 * Owner (NULL if none, or a bad synch) and waiter count (0).  They take
 * the lock themselves: any context, lock held or not (held, the answer
 * stays true until the caller releases it).
 */
nk_export struct nk_thread *nk_synch_owner(struct nk_synch *synch);
nk_export unsigned int nk_synch_nr_waiters(struct nk_synch *synch);
/** @} */

#endif
