/* SPDX-License-Identifier: MIT */
/*
 * Futex-based primitives shared by every backend: the gate a shadow
 * waits on, and the nucleus lock.  Both are plain 32-bit words with
 * atomics, so ThreadSanitizer sees their ordering.  A gate's waiter may
 * also sleep in poll(2)-like calls instead of on the futex: opening the
 * gate then writes to an eventfd the waiter watches.
 */
#ifndef FUSION_BACKEND_FUTEX_H
#define FUSION_BACKEND_FUTEX_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A gate.  Bit 0 set = open: opening passes a token which the one waiting
 * thread consumes on its way through.  Bit 1 says the waiter sleeps on
 * the futex, bit 2 that it sleeps in a poll watching @poll_fd (-1: on the
 * futex, until a deadline), so that opening an unwatched gate costs no
 * system call.  Bit 4 says a polling waiter was rung.  Bit 3, set for good at
 * init, says the gate lies in memory shared with other processes (a
 * session): its futex operations are then the shared ones, which cost a
 * private gate nothing since they are read from the word each operation
 * loads anyway.
 */
struct be_gate {
	_Atomic uint32_t word;
	_Atomic int poll_fd; /* eventfd of a polling waiter, -1: none */
	/* A shared gate's polling waiter, for another process to ring. */
	_Atomic pid_t poll_pid, poll_tid;
	/* Opens promised under a lock and made after its release
	 * (be_gate_hold): the gate's memory stays until they are done. */
	_Atomic uint32_t held;
};

/*
 * The doorbell another process of a session rings: it ends a poll (an
 * idle waiter's, an interrupt thread's), as the poller's eventfd, which
 * no other process can write to, would.  Its handler writes that
 * eventfd, so that one rung just before the poll ends it too.
 */
#define BE_SIG_DOORBELL (SIGRTMIN + 10)

/* The caller's process id, cached (a fork child gets its own). */
pid_t be_self_pid(void);

#define BE_GATE_OPEN 1u
#define BE_GATE_SLEEPING 2u
#define BE_GATE_POLLING 4u
#define BE_GATE_SHARED 8u
#define BE_GATE_RUNG 16u
/* Who owes the gate an open (be_gate_owe): the word's upper bits. */
#define BE_GATE_OWED_SHIFT 8
#define BE_GATE_FLAGS ((1u << BE_GATE_OWED_SHIFT) - 1)

void be_gate_init(struct be_gate *gate, bool shared);
/* Returns true when the waiter polls (see below): its doorbell rang. */
bool be_gate_open(struct be_gate *gate);
/*
 * An open promised under a lock, to be made after its release: whoever
 * takes the lock next and frees the gate's memory waits in
 * be_gate_settle() for the opener's be_gate_unhold() after its open,
 * which still reads the gate after the waiter may have gone through.
 */
void be_gate_hold(struct be_gate *gate);
/* The held open made, or not made after all (the gate's memory goes
 * first). */
void be_gate_unhold(struct be_gate *gate);
/*
 * An open promised under a lock to a waiter of another process, which
 * outlives the opener's death: @debtor (non-zero, below 2^24; 0:
 * nobody, the opener dies with the waiter) owes it, until be_gate_pay()
 * opens it and clears the debt in one step, or the waiter takes a token
 * (an open paid it).  A debt left by a dead debtor is paid by whoever
 * cleans up after it, so that the open is neither lost nor made twice.
 */
void be_gate_owe(struct be_gate *gate, uint32_t debtor);
/* Open @gate if @debtor still owes it (true); else nothing: it was
 * paid, or another debtor owes it now. */
bool be_gate_pay(struct be_gate *gate, uint32_t debtor);
/* Who owes @gate an open, 0: nobody. */
uint32_t be_gate_debtor(struct be_gate *gate);
/*
 * Before the gate's memory goes: wait for the held opens to be done, by
 * sleeping (the opener may be of lower priority on this CPU), 100 ms at
 * most (an opener that died left its hold behind).
 */
void be_gate_settle(struct be_gate *gate);
void be_gate_wait(struct be_gate *gate);
/*
 * As be_gate_wait, but false (the token left where it is) when a signal
 * handler installed without SA_RESTART ran on the caller meanwhile: the
 * backends' own handlers all restart, so it is the program's signal.
 */
bool be_gate_wait_intr(struct be_gate *gate);
/* As be_gate_wait_intr, for @ns at most: 0 (the token), EINTR or
 * ETIMEDOUT. */
int be_gate_wait_for(struct be_gate *gate, long ns);
/*
 * Polling on a gate: begin takes the token (true) or announces that the
 * caller, thread @tid, is about to sleep in a poll that watches the
 * eventfd @efd, which opening or ringing the gate then writes to
 * (false), or, from another process, sends the thread BE_SIG_DOORBELL;
 * end, once awake, withdraws that announcement.  The caller drains @efd.
 * With @efd -1, the caller sleeps in be_gate_poll_sleep() instead, and
 * opening or ringing the gate wakes its futex.
 */
bool be_gate_poll_begin(struct be_gate *gate, int efd, pid_t tid);
/*
 * Announced with no eventfd: sleep until the gate opens or is rung, or
 * until @until (CLOCK_MONOTONIC, ns; INT64_MAX: no date).  Returns 0, or
 * EINTR when a signal handler ran meanwhile: any handler when there is a
 * date, as clock_nanosleep, else one installed without SA_RESTART, as
 * be_gate_wait_intr().  A stop and continue without a handler ends
 * neither: the kernel restarts the wait.
 */
int be_gate_poll_sleep(struct be_gate *gate, int64_t until);
void be_gate_poll_end(struct be_gate *gate);
/* Wake a polling waiter without opening: false (and no effect) when the
 * waiter does not poll. */
bool be_gate_ring(struct be_gate *gate);
/* Add 1 to the eventfd @fd, waking whoever polls it.  Async-signal-safe. */
void be_efd_signal(int fd);

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
/* Take @lock if it is free, without waiting. */
bool be_lock_try(struct be_lock *lock);
/*
 * Take @lock, unless *@abandon becomes true first (false then): for a
 * thread whose owner may be waiting for it to end while holding @lock.
 */
bool be_lock_acquire_unless(struct be_lock *lock, _Atomic bool *abandon);

/*
 * A sequence word a service thread sleeps on: it reads the word, checks
 * its work, and sleeps only while the word still holds what it read, so
 * a bump in between is never lost.
 */
void be_seq_bump(_Atomic uint32_t *word);
void be_seq_wait(_Atomic uint32_t *word, uint32_t seen);

#endif
