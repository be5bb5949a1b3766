/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI semaphores: counting (CNT_SEM), binary (BIN_SEM: the count never
 * exceeds 1) and resource semaphores (RES_SEM: owned by the task that
 * took it, with priority inheritance, optionally recursive), waiters in
 * FIFO (FIFO_Q) or priority order (PRIO_Q; always for RES_SEM).
 *
 * A semaphore's count is RTAI's: units available, or minus the number
 * of tasks waiting (rt_sem_count()).  Waits return that count on
 * success and an RTE_* code on failure: RTE_OBJINV (not a semaphore),
 * RTE_OBJREM (deleted while waiting), RTE_TIMOUT, RTE_UNBLKD
 * (rt_task_masked_unblock()), RTE_PERM (would wait where waiting is
 * not allowed), RTE_DEADLOK (a RES_SEM its owner takes again, not
 * recursive).
 */
#ifndef FUSION_RTAI_SEM_H
#define FUSION_RTAI_SEM_H

#include "rtai_lxrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A semaphore, as LXRT hands it out: never dereferenced. */
typedef struct rt_semaphore {
	int opaque; /**< never read: the pointer is a handle */
} SEM;

/** @{ */
/** Queueing, and kinds (or-ed). */
#define PRIO_Q 0
#define FIFO_Q 4
#define RES_Q 3
#define BIN_SEM 1
#define CNT_SEM 2
#define RES_SEM 3
/** @} */

/** @{ */
/** RES_SEM's value: what its owner's second wait does. */
#define RESEM_RECURS 1	/**< nests (as many signals to release) */
#define RESEM_BINSEM 0	/**< deadlocks: RTE_DEADLOK here */
#define RESEM_CHEKWT -1 /**< RTE_DEADLOK */
/** @} */

/** A condition variable: an RTAI semaphore, as in RTAI. */
typedef SEM CND;

#define SEM_ERR RTE_OBJINV    /**< RTAI's older name */
#define SEM_TIMOUT RTE_TIMOUT /**< RTAI's older name */

#define rt_typed_sem_init rtai_rt_typed_sem_init
#define rt_sem_init rtai_rt_sem_init
#define rt_typed_named_sem_init rtai_rt_typed_named_sem_init
#define rt_named_sem_init rtai_rt_named_sem_init
#define rt_named_sem_delete rtai_rt_named_sem_delete
#define rt_sem_delete rtai_rt_sem_delete
#define rt_sem_signal rtai_rt_sem_signal
#define rt_sem_broadcast rtai_rt_sem_broadcast
#define rt_sem_wait rtai_rt_sem_wait
#define rt_sem_wait_if rtai_rt_sem_wait_if
#define rt_sem_wait_until rtai_rt_sem_wait_until
#define rt_sem_wait_timed rtai_rt_sem_wait_timed
#define rt_sem_count rtai_rt_sem_count
#define rt_sem_wait_barrier rtai_rt_sem_wait_barrier
#define rt_cond_init rtai_rt_cond_init
#define rt_cond_delete rtai_rt_cond_delete
#define rt_cond_signal rtai_rt_cond_signal
#define rt_cond_broadcast rtai_rt_cond_broadcast
#define rt_cond_wait rtai_rt_cond_wait
#define rt_cond_wait_until rtai_rt_cond_wait_until
#define rt_cond_wait_timed rtai_rt_cond_wait_timed

/**
 * A semaphore named @p name (0: anonymous) of @p type (a kind or-ed
 * with a queueing) holding @p value units; for RES_SEM @p value is
 * RESEM_RECURS, RESEM_BINSEM or RESEM_CHEKWT and the semaphore starts
 * free; BIN_SEM keeps at most 1 unit.  Returns NULL: a negative count,
 * other type bits, the name taken, no memory.  Any thread.
 */
SEM *rt_typed_sem_init(unsigned long name, int value, int type);
/** rt_typed_sem_init() of a counting semaphore, waiters by priority. */
SEM *rt_sem_init(unsigned long name, int value);
/**
 * The semaphore named nam2num(@p name): found, it is used once more (as
 * many rt_named_sem_delete() to delete it); else created as
 * rt_typed_sem_init() does.  NULL as that, or for a NULL name or one
 * taken by another kind of object.
 */
SEM *rt_typed_named_sem_init(const char *name, int value, int type);
/** rt_typed_named_sem_init() of a counting semaphore. */
SEM *rt_named_sem_init(const char *name, int value);
/**
 * One use less of a named semaphore: the last deletes it.  Returns the
 * uses left (0: deleted), RTE_OBJINV.
 */
int rt_named_sem_delete(SEM *sem);
/** Delete @p sem; its waiters return RTE_OBJREM.  0, RTE_OBJINV. */
int rt_sem_delete(SEM *sem);
/**
 * Signal one unit: to the first waiter (which may preempt the caller)
 * or to the count (BIN_SEM: at most 1).  A RES_SEM is signalled by its
 * owner only (RTE_PERM), once per wait.  Returns 0, RTE_OBJINV,
 * RTE_PERM.  Any thread.
 */
int rt_sem_signal(SEM *sem);
/**
 * Wake every waiter (they return with success) and set the count to
 * 0.  Returns 0, RTE_OBJINV, RTE_PERM (a RES_SEM, whose waiters want
 * ownership).
 */
int rt_sem_broadcast(SEM *sem);
/**
 * Take one unit, waiting for it as long as it takes.  Returns the
 * count before the take when a unit was there (the nesting depth for
 * an owner retaking a recursive RES_SEM), the count after the wake
 * otherwise; errors as the file says.
 */
int rt_sem_wait(SEM *sem);
/** Take a unit if one is there, never waiting: returns the count
 * (> 0: taken, <= 0: not), RTE_OBJINV, RTE_DEADLOK. */
int rt_sem_wait_if(SEM *sem);
/** As rt_sem_wait(), until the date @p time (counts) at the latest:
 * RTE_TIMOUT then. */
int rt_sem_wait_until(SEM *sem, RTIME time);
/** As rt_sem_wait(), for @p delay counts at most. */
int rt_sem_wait_timed(SEM *sem, RTIME delay);
/** The count (negative: minus the tasks waiting), or RTE_OBJINV. */
int rt_sem_count(SEM *sem);
/**
 * Wait until as many tasks as the semaphore's initial count (1 at
 * least; its units are taken on the first call) wait here, then
 * release them all.  Returns -1 for those that waited, 0 for the task
 * that completed the gang; RTE_OBJINV, RTE_PERM (a RES_SEM or a
 * condition), RTE_OBJREM, RTE_UNBLKD.  The barrier serves again.
 */
int rt_sem_wait_barrier(SEM *sem);

/**
 * A condition variable named @p name (0: anonymous): a semaphore whose
 * signals nobody waits for are lost.  NULL: the name taken, no memory.
 */
CND *rt_cond_init(unsigned long name);
/** Delete @p cnd (rt_sem_delete()): its waiters return RTE_OBJREM. */
int rt_cond_delete(CND *cnd);
/** Wake the first waiter of @p cnd, if any.  0, RTE_OBJINV. */
int rt_cond_signal(CND *cnd);
/** Wake every waiter of @p cnd.  0, RTE_OBJINV. */
int rt_cond_broadcast(CND *cnd);
/**
 * Release @p mtx (a RES_SEM the caller owns, whatever its nesting, or
 * another semaphore: signalled), wait for a signal of @p cnd, take
 * @p mtx back (as deeply nested).  Returns 0, RTE_OBJINV (@p cnd not a
 * condition or @p mtx not a semaphore), RTE_PERM (a RES_SEM the caller
 * does not own), RTE_OBJREM (either deleted meanwhile), RTE_UNBLKD.
 */
int rt_cond_wait(CND *cnd, SEM *mtx);
/** rt_cond_wait() until the date @p time at the latest: RTE_TIMOUT
 * then (@p mtx is taken back all the same). */
int rt_cond_wait_until(CND *cnd, SEM *mtx, RTIME time);
/** rt_cond_wait() for @p delay counts at most. */
int rt_cond_wait_timed(CND *cnd, SEM *mtx, RTIME delay);

#ifdef __cplusplus
}
#endif

#endif
