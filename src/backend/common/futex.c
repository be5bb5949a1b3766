/* SPDX-License-Identifier: MIT */
#include "futex.h"

#include <fusion/types.h>

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * Returns 0 or the errno: EAGAIN (word changed) and EINTR both mean
 * "look again" to most callers.  Without a timeout, the kernel restarts
 * the wait after a handler installed with SA_RESTART (every handler of
 * the backends is), and fails it with EINTR after any other.
 */
static int futex_wait_op(_Atomic uint32_t *word, uint32_t expected,
			 const struct timespec *timeout, int op)
{
	if (syscall(SYS_futex, word, op, expected, timeout, NULL, 0) == 0)
		return 0;
	return errno;
}

static int futex_wait(_Atomic uint32_t *word, uint32_t expected,
		      const struct timespec *timeout)
{
	return futex_wait_op(word, expected, timeout, FUTEX_WAIT_PRIVATE);
}

static void futex_wake_op(_Atomic uint32_t *word, int count, int op)
{
	syscall(SYS_futex, word, op, count, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *word, int count)
{
	futex_wake_op(word, count, FUTEX_WAKE_PRIVATE);
}

/* getpid is a system call: a ring of a shared gate asks at each. */
static pid_t self_pid;
static pthread_once_t self_pid_once = PTHREAD_ONCE_INIT;

static void self_pid_forget(void)
{
	self_pid = 0;
}

static void self_pid_install(void)
{
	pthread_atfork(NULL, NULL, self_pid_forget);
}

pid_t be_self_pid(void)
{
	if (self_pid == 0) {
		pthread_once(&self_pid_once, self_pid_install);
		self_pid = getpid();
	}
	return self_pid;
}

void be_gate_init(struct be_gate *gate, bool shared)
{
	atomic_init(&gate->word, shared ? BE_GATE_SHARED : 0);
	atomic_init(&gate->poll_fd, -1);
	atomic_init(&gate->poll_pid, 0);
	atomic_init(&gate->poll_tid, 0);
	atomic_init(&gate->held, 0);
}

/* A gate's futex operations, as its word (any value of it) says. */
static int gate_wait(_Atomic uint32_t *word, uint32_t seen,
		     const struct timespec *timeout)
{
	return futex_wait_op(word, seen, timeout,
			     seen & BE_GATE_SHARED ? FUTEX_WAIT
						   : FUTEX_WAIT_PRIVATE);
}

void be_efd_signal(int fd)
{
	uint64_t one = 1;

	/* A full counter (EAGAIN) is readable: the wake is there. */
	if (write(fd, &one, sizeof(one)) < 0)
		return;
}

/* Ring the doorbell of @gate's polling waiter. */
static void gate_ring(struct be_gate *gate, uint32_t old)
{
	int fd = atomic_load_explicit(&gate->poll_fd, memory_order_relaxed);
	pid_t pid;

	if (fd < 0) {
		/* It sleeps on the word, which our change changed. */
		futex_wake_op(&gate->word, 1,
			      old & BE_GATE_SHARED ? FUTEX_WAKE
						   : FUTEX_WAKE_PRIVATE);
		return;
	}
	if (old & BE_GATE_SHARED) {
		pid =
		    atomic_load_explicit(&gate->poll_pid, memory_order_relaxed);
		if (pid != be_self_pid()) {
			syscall(SYS_tgkill, pid,
				atomic_load_explicit(&gate->poll_tid,
						     memory_order_relaxed),
				BE_SIG_DOORBELL);
			return;
		}
	}
	be_efd_signal(fd);
}

/* Wake the waiter of @gate as @old (the word before our change) says. */
static void gate_wake(struct be_gate *gate, uint32_t old)
{
	if (old & BE_GATE_SLEEPING)
		futex_wake_op(&gate->word, 1,
			      old & BE_GATE_SHARED ? FUTEX_WAKE
						   : FUTEX_WAKE_PRIVATE);
	else if (old & BE_GATE_POLLING)
		gate_ring(gate, old);
}

bool be_gate_open(struct be_gate *gate)
{
	uint32_t old = atomic_fetch_or_explicit(&gate->word, BE_GATE_OPEN,
						memory_order_acq_rel);

	gate_wake(gate, old);
	return old & BE_GATE_POLLING;
}

void be_gate_hold(struct be_gate *gate)
{
	atomic_fetch_add_explicit(&gate->held, 1, memory_order_relaxed);
}

void be_gate_unhold(struct be_gate *gate)
{
	atomic_fetch_sub_explicit(&gate->held, 1, memory_order_release);
}

nk_hot void be_gate_owe(struct be_gate *gate, uint32_t debtor)
{
	uint32_t v = atomic_load_explicit(&gate->word, memory_order_relaxed);

	while (v >> BE_GATE_OWED_SHIFT != debtor &&
	       !atomic_compare_exchange_weak_explicit(
		   &gate->word, &v,
		   (v & BE_GATE_FLAGS) | debtor << BE_GATE_OWED_SHIFT,
		   memory_order_relaxed, memory_order_relaxed))
		;
}

bool be_gate_pay(struct be_gate *gate, uint32_t debtor)
{
	uint32_t v = atomic_load_explicit(&gate->word, memory_order_relaxed);

	do {
		if (v >> BE_GATE_OWED_SHIFT != debtor)
			return false;
	} while (!atomic_compare_exchange_weak_explicit(
	    &gate->word, &v, (v | BE_GATE_OPEN) & BE_GATE_FLAGS,
	    memory_order_acq_rel, memory_order_relaxed));
	gate_wake(gate, v);
	return true;
}

uint32_t be_gate_debtor(struct be_gate *gate)
{
	return atomic_load_explicit(&gate->word, memory_order_relaxed) >>
	       BE_GATE_OWED_SHIFT;
}

void be_gate_settle(struct be_gate *gate)
{
	struct timespec nap = {0, 10000};

	for (int i = 0; i < 10000 &&
			atomic_load_explicit(&gate->held, memory_order_acquire);
	     i++)
		nanosleep(&nap, NULL);
}

/*
 * Take the token if there is one.  Else announce that we are going to
 * sleep (@sleep: on the futex or in a poll) and return the word to sleep
 * on in *@seen.
 */
static bool gate_take(struct be_gate *gate, uint32_t sleep, uint32_t *seen)
{
	uint32_t v = atomic_load_explicit(&gate->word, memory_order_relaxed);

	for (;;) {
		uint32_t want = v & BE_GATE_OPEN
				    ? v & BE_GATE_FLAGS &
					  ~(BE_GATE_OPEN | BE_GATE_SLEEPING |
					    BE_GATE_POLLING | BE_GATE_RUNG)
				    : v | sleep;

		if (atomic_compare_exchange_weak_explicit(
			&gate->word, &v, want, memory_order_acq_rel,
			memory_order_relaxed)) {
			*seen = want;
			return v & BE_GATE_OPEN;
		}
	}
}

void be_gate_wait(struct be_gate *gate)
{
	uint32_t seen;

	while (!gate_take(gate, BE_GATE_SLEEPING, &seen))
		gate_wait(&gate->word, seen, NULL);
}

bool be_gate_wait_intr(struct be_gate *gate)
{
	uint32_t seen;

	while (!gate_take(gate, BE_GATE_SLEEPING, &seen))
		if (gate_wait(&gate->word, seen, NULL) == EINTR)
			return false;
	return true;
}

int be_gate_wait_for(struct be_gate *gate, long ns)
{
	const struct timespec timeout = {.tv_sec = ns / 1000000000,
					 .tv_nsec = ns % 1000000000};
	uint32_t seen;
	int ret;

	while (!gate_take(gate, BE_GATE_SLEEPING, &seen)) {
		ret = gate_wait(&gate->word, seen, &timeout);
		if (ret == EINTR || ret == ETIMEDOUT)
			return ret;
	}
	return 0;
}

nk_hot bool be_gate_poll_begin(struct be_gate *gate, int efd, pid_t tid)
{
	uint32_t seen;

	/* Published by the release of the announcing exchange. */
	atomic_store_explicit(&gate->poll_fd, efd, memory_order_relaxed);
	if (atomic_load_explicit(&gate->word, memory_order_relaxed) &
	    BE_GATE_SHARED) {
		atomic_store_explicit(&gate->poll_pid, be_self_pid(),
				      memory_order_relaxed);
		atomic_store_explicit(&gate->poll_tid, tid,
				      memory_order_relaxed);
	}
	return gate_take(gate, BE_GATE_POLLING, &seen);
}

nk_hot int be_gate_poll_sleep(struct be_gate *gate, int64_t until)
{
	struct timespec at = {.tv_sec = until / 1000000000,
			      .tv_nsec = until % 1000000000};
	uint32_t seen = atomic_load_explicit(&gate->word, memory_order_acquire);
	int op = FUTEX_WAIT_BITSET |
		 (seen & BE_GATE_SHARED ? 0 : FUTEX_PRIVATE_FLAG);

	if (seen & (BE_GATE_OPEN | BE_GATE_RUNG))
		return 0;
	/* An absolute date: no clock read before the call makes it late. */
	if (syscall(SYS_futex, &gate->word, op, seen,
		    until == INT64_MAX ? NULL : &at, NULL,
		    FUTEX_BITSET_MATCH_ANY) == 0 ||
	    errno != EINTR)
		return 0;
	return EINTR;
}

nk_hot void be_gate_poll_end(struct be_gate *gate)
{
	atomic_fetch_and_explicit(&gate->word,
				  ~(BE_GATE_POLLING | BE_GATE_RUNG),
				  memory_order_acq_rel);
}

bool be_gate_ring(struct be_gate *gate)
{
	/*
	 * Read-modify-writes, ordered against the waiter's announcement;
	 * the ring changes the word, so that a waiter about to sleep on it
	 * does not.
	 */
	uint32_t old =
	    atomic_fetch_or_explicit(&gate->word, 0, memory_order_acq_rel);

	do {
		if (!(old & BE_GATE_POLLING))
			return false;
	} while (!atomic_compare_exchange_weak_explicit(
	    &gate->word, &old, old | BE_GATE_RUNG, memory_order_acq_rel,
	    memory_order_relaxed));
	gate_wake(gate, old);
	return true;
}

void be_lock_init(struct be_lock *lock)
{
	atomic_init(&lock->word, 0);
}

void be_lock_acquire(struct be_lock *lock)
{
	uint32_t c = 0;

	if (atomic_compare_exchange_strong_explicit(
		&lock->word, &c, 1, memory_order_acquire, memory_order_relaxed))
		return;
	if (c != 2)
		c = atomic_exchange_explicit(&lock->word, 2,
					     memory_order_acquire);
	while (c != 0) {
		futex_wait(&lock->word, 2, NULL);
		c = atomic_exchange_explicit(&lock->word, 2,
					     memory_order_acquire);
	}
}

bool be_lock_acquire_unless(struct be_lock *lock, _Atomic bool *abandon)
{
	/* Whoever sets @abandon does not wake us: look again now and then
	 * (this is no fast path). */
	static const struct timespec poll = {.tv_nsec = 1000000};
	uint32_t c = 0;

	if (atomic_compare_exchange_strong_explicit(
		&lock->word, &c, 1, memory_order_acquire, memory_order_relaxed))
		return true;
	for (;;) {
		if (atomic_load(abandon))
			return false;
		if (atomic_exchange_explicit(&lock->word, 2,
					     memory_order_acquire) == 0)
			return true;
		futex_wait(&lock->word, 2, &poll);
	}
}

bool be_lock_try(struct be_lock *lock)
{
	uint32_t c = 0;

	return atomic_compare_exchange_strong_explicit(
	    &lock->word, &c, 1, memory_order_acquire, memory_order_relaxed);
}

void be_lock_release(struct be_lock *lock)
{
	if (atomic_exchange_explicit(&lock->word, 0, memory_order_release) == 2)
		futex_wake(&lock->word, 1);
}

void be_seq_bump(_Atomic uint32_t *word)
{
	atomic_fetch_add_explicit(word, 1, memory_order_release);
	futex_wake(word, INT32_MAX);
}

void be_seq_wait(_Atomic uint32_t *word, uint32_t seen)
{
	futex_wait(word, seen, NULL);
}
