/* SPDX-License-Identifier: MIT */
/*
 * The live nucleus lock: a priority-inheriting futex (FUTEX_LOCK_PI).
 *
 * Every shadow takes the nucleus lock, so a holder preempted by a load
 * between its priority and a waiter's would delay the waiter without
 * bound: with the plain lock, a SCHED_FIFO hog at 50 kept a waiter at
 * 51 waiting up to 28 ms.  Here the kernel lends the holder the
 * priority of its most urgent waiter for as long as it holds the lock.
 * The word holds the owner's thread id (and the kernel's FUTEX_WAITERS
 * bit), so the thread that takes the lock releases it: the live backend
 * never hands it from one thread to another.  Free and uncontended, a
 * take and a release are one compare-and-swap each, as for the plain
 * lock.  Thread ids are the machine's, so the same word works across
 * processes when it lies in shared memory and is told so at init.
 */
#ifndef FUSION_BACKEND_PILOCK_H
#define FUSION_BACKEND_PILOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct be_pilock {
	_Atomic uint32_t word; /* 0: free; else owner tid | kernel bits */
	/* The futex operations' private flag, or 0 for a lock in memory
	 * shared with other processes (a session's). */
	int private_flag;
};

/*
 * What an acquire returns: the lock is ours, or ours from a holder that
 * died holding it (another process of a session, killed): whatever it
 * protects may be half changed.  The kernel hands such a lock to a
 * thread waiting for it (FUTEX_OWNER_DIED), and refuses a new locker
 * (ESRCH), who takes the word over.
 */
enum be_pilock_taken {
	BE_PILOCK_ABANDONED, /* be_pilock_acquire_unless: not taken */
	BE_PILOCK_TAKEN,
	BE_PILOCK_OWNER_DIED,
};

void be_pilock_init(struct be_pilock *lock, bool shared);
enum be_pilock_taken be_pilock_acquire(struct be_pilock *lock);
void be_pilock_release(struct be_pilock *lock);
/* As be_lock_acquire_unless (futex.h). */
enum be_pilock_taken be_pilock_acquire_unless(struct be_pilock *lock,
					      _Atomic bool *abandon);

#endif
