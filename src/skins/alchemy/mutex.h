/* SPDX-License-Identifier: MIT */
/*
 * Alchemy mutexes are nucleus mutexes (PI, recursive); cond.c gives one
 * up and takes it back around a condition wait.
 */
#ifndef ALCHEMY_MUTEX_INTERNAL_H
#define ALCHEMY_MUTEX_INTERNAL_H

#include "internal.h"

#pragma GCC visibility push(hidden)

/*
 * Take the mutex @handle back at nesting @depth after a condition wait
 * gave it up (nk_mutex_giveup_locked).  Errors: -EIDRM (the mutex was
 * deleted meanwhile), those of nk_mutex_regain_locked().  Lock held.
 */
int alchemy_mutex_regain(uintptr_t handle, unsigned int depth);

#pragma GCC visibility pop

#endif
