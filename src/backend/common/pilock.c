/* SPDX-License-Identifier: MIT */
#include "pilock.h"

#include <fusion/types.h>

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * The caller's thread id, read once per thread.  A fork child's only
 * thread inherits its parent's value, which names another process's
 * thread: the kernel would take that thread for the owner of every
 * lock the child takes, and refuse the child's releases (EPERM).
 */
static __thread uint32_t pilock_tid;
static pthread_once_t pilock_once = PTHREAD_ONCE_INIT;

static void pilock_forget_tid(void)
{
	pilock_tid = 0;
}

static void pilock_install(void)
{
	pthread_atfork(NULL, NULL, pilock_forget_tid);
}

static uint32_t self_tid(void)
{
	if (pilock_tid == 0) {
		pthread_once(&pilock_once, pilock_install);
		pilock_tid = (uint32_t)syscall(SYS_gettid);
	}
	return pilock_tid;
}

static bool pilock_take(struct be_pilock *lock, uint32_t tid)
{
	uint32_t free = 0;

	return atomic_compare_exchange_strong_explicit(&lock->word, &free, tid,
						       memory_order_acquire,
						       memory_order_relaxed);
}

/*
 * The word names a holder the kernel no longer finds (ESRCH): it died
 * holding the lock.  Take it over, unless it changed meanwhile.
 */
static bool pilock_take_dead(struct be_pilock *lock, uint32_t tid)
{
	uint32_t dead = atomic_load_explicit(&lock->word, memory_order_relaxed);

	return dead != 0 && atomic_compare_exchange_strong_explicit(
				&lock->word, &dead, tid, memory_order_acquire,
				memory_order_relaxed);
}

/*
 * Wait in the kernel, which boosts the owner meanwhile: 0 once the lock
 * is ours (EOWNERDEAD: from a holder that died), else the errno
 * (ETIMEDOUT after the absolute CLOCK_REALTIME date @until, EINTR for a
 * handler that did not restart, EAGAIN to look again).
 */
static int pilock_wait(struct be_pilock *lock, uint32_t tid,
		       const struct timespec *until)
{
	uint32_t word;

	if (syscall(SYS_futex, &lock->word, FUTEX_LOCK_PI | lock->private_flag,
		    0, until, NULL, 0) == 0) {
		/* The kernel handed it over: pairs with the release below,
		 * so the language's model (and ThreadSanitizer) sees it. */
		word = atomic_load_explicit(&lock->word, memory_order_acquire);
		if (!(word & FUTEX_OWNER_DIED))
			return 0;
		atomic_fetch_and(&lock->word, ~(uint32_t)FUTEX_OWNER_DIED);
		return EOWNERDEAD;
	}
	if (errno != ESRCH)
		return errno;
	return pilock_take_dead(lock, tid) ? EOWNERDEAD : EAGAIN;
}

static enum be_pilock_taken pilock_taken(int ret)
{
	return ret == EOWNERDEAD ? BE_PILOCK_OWNER_DIED : BE_PILOCK_TAKEN;
}

void be_pilock_init(struct be_pilock *lock, bool shared)
{
	atomic_init(&lock->word, 0);
	lock->private_flag = shared ? 0 : FUTEX_PRIVATE_FLAG;
}

nk_hot enum be_pilock_taken be_pilock_acquire(struct be_pilock *lock)
{
	uint32_t tid = self_tid();
	int ret;

	if (pilock_take(lock, tid))
		return BE_PILOCK_TAKEN;
	do
		ret = pilock_wait(lock, tid, NULL);
	while (ret != 0 && ret != EOWNERDEAD);
	return pilock_taken(ret);
}

nk_hot enum be_pilock_taken be_pilock_acquire_unless(struct be_pilock *lock,
						     _Atomic bool *abandon)
{
	uint32_t tid = self_tid();

	if (pilock_take(lock, tid))
		return BE_PILOCK_TAKEN;
	/* Whoever sets @abandon does not wake us: look again each ms. */
	for (;;) {
		struct timespec until;
		int ret;

		if (atomic_load(abandon))
			return BE_PILOCK_ABANDONED;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 1000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		ret = pilock_wait(lock, tid, &until);
		if (ret == 0 || ret == EOWNERDEAD)
			return pilock_taken(ret);
	}
}

nk_hot void be_pilock_release(struct be_pilock *lock)
{
	uint32_t tid = self_tid();

	if (atomic_compare_exchange_strong_explicit(&lock->word, &tid, 0,
						    memory_order_release,
						    memory_order_relaxed))
		return;
	/* Waiters (or an owner-died mark): the kernel hands the lock on.
	 * A release on the word first, for the waiter's acquire. */
	atomic_fetch_or_explicit(&lock->word, 0, memory_order_release);
	syscall(SYS_futex, &lock->word, FUTEX_UNLOCK_PI | lock->private_flag, 0,
		NULL, NULL, 0);
}
