/*
 * Alchemy mutex control block, shared by mutex.c and cond.c (a
 * condition wait gives the mutex up and takes it back).
 */
#ifndef ALCHEMY_MUTEX_INTERNAL_H
#define ALCHEMY_MUTEX_INTERNAL_H

#include "internal.h"

#pragma GCC visibility push(hidden)

struct alchemy_mutex {
	struct nk_synch synch; /* NK_SYNCH_PI: owner, PI, priority queue */
	unsigned int depth;    /* the owner's nesting */
};

/*
 * Release @mcb entirely on behalf of @self, returning its nesting depth
 * in *@depth; the next owner is readied but not switched to (the caller
 * reschedules, typically by blocking).  Errors: -EPERM (@self does not
 * own it).  Lock held.
 */
int alchemy_mutex_giveup(struct alchemy_mutex *mcb, struct nk_thread *self,
			 unsigned int *depth);
/*
 * Take the mutex @handle back to nesting @depth, waiting as long as it
 * takes: rt_task_unblock does not break this wait.  Errors: -EIDRM (the
 * mutex was deleted meanwhile).  Lock held.
 */
int alchemy_mutex_regain(uintptr_t handle, unsigned int depth);

#pragma GCC visibility pop

#endif
