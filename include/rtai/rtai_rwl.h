/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI read-write locks: any number of readers, or one writer (who may
 * lock again, as many unlocks then), waiters served in priority order;
 * a waiting writer holds back the readers that come after it.
 * Return values: 0, RTE_OBJINV (not a lock), RTE_TIMOUT, RTE_UNBLKD,
 * RTE_OBJREM (deleted meanwhile), RTE_PERM (would wait where waiting is
 * not allowed; unlock of a lock nobody holds, or the writer's by
 * another task), RTE_DEADLOK (the writer's read lock).  Readers are
 * counted, not named: a reader asking to write waits for itself, as
 * on RTAI.  The _if forms return 0 when they took the lock, RTE_TIMOUT
 * when they did not.
 */
#ifndef FUSION_RTAI_RWL_H
#define FUSION_RTAI_RWL_H

#include "rtai_lxrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A read-write lock, as LXRT hands it out: never dereferenced. */
typedef struct rt_rwlock {
	int opaque; /**< never read: the pointer is a handle */
} RWL;

#define rt_rwl_init rtai_rt_rwl_init
#define rt_rwl_delete rtai_rt_rwl_delete
#define rt_rwl_rdlock rtai_rt_rwl_rdlock
#define rt_rwl_rdlock_if rtai_rt_rwl_rdlock_if
#define rt_rwl_rdlock_until rtai_rt_rwl_rdlock_until
#define rt_rwl_rdlock_timed rtai_rt_rwl_rdlock_timed
#define rt_rwl_wrlock rtai_rt_rwl_wrlock
#define rt_rwl_wrlock_if rtai_rt_rwl_wrlock_if
#define rt_rwl_wrlock_until rtai_rt_rwl_wrlock_until
#define rt_rwl_wrlock_timed rtai_rt_rwl_wrlock_timed
#define rt_rwl_unlock rtai_rt_rwl_unlock

/** A lock named @p name (0: anonymous).  NULL: name taken, no memory. */
RWL *rt_rwl_init(unsigned long name);
/** Delete @p rwl; its waiters return RTE_OBJREM.  0, RTE_OBJINV. */
int rt_rwl_delete(RWL *rwl);
/** Lock for reading, waiting as long as it takes. */
int rt_rwl_rdlock(RWL *rwl);
/** Lock for reading if that needs no wait. */
int rt_rwl_rdlock_if(RWL *rwl);
/** Lock for reading, until the date @p time at the latest. */
int rt_rwl_rdlock_until(RWL *rwl, RTIME time);
/** Lock for reading, @p delay counts at most. */
int rt_rwl_rdlock_timed(RWL *rwl, RTIME delay);
/** Lock for writing, waiting as long as it takes. */
int rt_rwl_wrlock(RWL *rwl);
/** Lock for writing if that needs no wait. */
int rt_rwl_wrlock_if(RWL *rwl);
/** Lock for writing, until the date @p time at the latest. */
int rt_rwl_wrlock_until(RWL *rwl, RTIME time);
/** Lock for writing, @p delay counts at most. */
int rt_rwl_wrlock_timed(RWL *rwl, RTIME delay);
/** Undo one lock of the caller (the writer's, else a reader's). */
int rt_rwl_unlock(RWL *rwl);

#ifdef __cplusplus
}
#endif

#endif
