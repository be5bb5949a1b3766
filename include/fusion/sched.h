/* SPDX-License-Identifier: MIT */
/** @file
 * Scheduler services: scheduler lock and explicit rescheduling.
 */
#ifndef FUSION_SCHED_H
#define FUSION_SCHED_H

#include <fusion/types.h>

/**
 * Lock the scheduler for the caller (nesting): it keeps its CPU even
 * when it readies a more urgent thread; the switch happens at the final
 * unlock.  Blocking while locked is refused with -EPERM.
 * Errors: -EINVAL, -EPERM (not a thread of @p nk), -EOVERFLOW.
 * Context: thread.
 */
nk_export int nk_sched_lock(struct nk_instance *nk);
/** Errors: -EINVAL, -EPERM (not a thread, or not locked).  Context: thread. */
nk_export int nk_sched_unlock(struct nk_instance *nk);
/**
 * Scheduler lock depth of the caller (0: not locked).  Errors: -EINVAL,
 * -EPERM (not a thread of @p nk).  Context: any (thread for an answer).
 */
nk_export int nk_sched_lock_depth(struct nk_instance *nk);

/**
 * Apply pending scheduling decisions: switch away from the caller if a
 * more urgent thread is ready on its CPU, kick the other CPUs that need
 * it.  Lock held.  Context: any.  Does nothing on a bad instance.
 */
nk_export void nk_sched_run(struct nk_instance *nk);

#endif
