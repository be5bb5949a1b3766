/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI spinlocks: a lock whose holder keeps its CPU (the scheduler is
 * locked from rt_spl_lock() to rt_spl_unlock(), so the holder must not
 * wait meanwhile).  A task that finds it held by a task of another CPU
 * waits in priority order instead of spinning.  Return values: 0,
 * RTE_OBJINV (not a spinlock), RTE_TIMOUT, RTE_UNBLKD, RTE_OBJREM,
 * RTE_PERM (unlock by a task that does not hold it; would wait where
 * waiting is not allowed), RTE_DEADLOK (the holder locks again).
 */
#ifndef FUSION_RTAI_SPL_H
#define FUSION_RTAI_SPL_H

#include "rtai_lxrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A spinlock, as LXRT hands it out: never dereferenced. */
typedef struct rt_spinlock {
	int opaque; /**< never read: the pointer is a handle */
} SPL;

#define rt_spl_init rtai_rt_spl_init
#define rt_spl_delete rtai_rt_spl_delete
#define rt_spl_lock rtai_rt_spl_lock
#define rt_spl_lock_if rtai_rt_spl_lock_if
#define rt_spl_lock_timed rtai_rt_spl_lock_timed
#define rt_spl_unlock rtai_rt_spl_unlock

/** A spinlock named @p name (0: anonymous).  NULL: taken, no memory. */
SPL *rt_spl_init(unsigned long name);
/** Delete @p spl, which nobody holds (else RTE_PERM): 0, RTE_OBJINV. */
int rt_spl_delete(SPL *spl);
/** Take @p spl, waiting as long as it takes. */
int rt_spl_lock(SPL *spl);
/** Take @p spl if it is free: 0, else RTE_TIMOUT. */
int rt_spl_lock_if(SPL *spl);
/** Take @p spl, waiting @p ns nanoseconds at most. */
int rt_spl_lock_timed(SPL *spl, unsigned long ns);
/** Give @p spl up: the first waiter takes it. */
int rt_spl_unlock(SPL *spl);

#ifdef __cplusplus
}
#endif

#endif
