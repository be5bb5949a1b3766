/*
 * Futex-based primitives shared by every backend: the gate a shadow
 * waits on, and the nucleus lock.  Both are plain 32-bit words with
 * atomics, so ThreadSanitizer sees their ordering.
 */
#ifndef FUSION_BACKEND_FUTEX_H
#define FUSION_BACKEND_FUTEX_H

#include <stdatomic.h>
#include <stdint.h>

/*
 * A gate: 1 = open.  Exactly one thread waits on a given gate; opening
 * passes a token which the waiter consumes on its way through.
 */
struct be_gate {
	_Atomic uint32_t word;
};

void be_gate_init(struct be_gate *gate);
void be_gate_open(struct be_gate *gate);
void be_gate_wait(struct be_gate *gate);

/*
 * The nucleus lock: 0 free, 1 held, 2 held with waiters (Drepper's
 * "futexes are tricky", mutex 2).  Not owned by an OS thread, so a switch
 * may hand it from one thread to the next.
 */
struct be_lock {
	_Atomic uint32_t word;
};

void be_lock_init(struct be_lock *lock);
void be_lock_acquire(struct be_lock *lock);
void be_lock_release(struct be_lock *lock);

#endif
