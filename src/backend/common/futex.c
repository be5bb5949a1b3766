#include "futex.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

static void futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
	/* EAGAIN (word changed) and EINTR both mean "look again". */
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *word, int count)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

void be_gate_init(struct be_gate *gate)
{
	atomic_init(&gate->word, 0);
}

void be_gate_open(struct be_gate *gate)
{
	atomic_store_explicit(&gate->word, 1, memory_order_release);
	futex_wake(&gate->word, 1);
}

void be_gate_wait(struct be_gate *gate)
{
	while (atomic_exchange_explicit(&gate->word, 0, memory_order_acquire) ==
	       0)
		futex_wait(&gate->word, 0);
}

void be_lock_init(struct be_lock *lock)
{
	atomic_init(&lock->word, 0);
}

void be_lock_acquire(struct be_lock *lock)
{
	uint32_t c = 0;

	if (atomic_compare_exchange_strong_explicit(&lock->word, &c, 1,
						    memory_order_acquire,
						    memory_order_relaxed))
		return;
	if (c != 2)
		c = atomic_exchange_explicit(&lock->word, 2,
					     memory_order_acquire);
	while (c != 0) {
		futex_wait(&lock->word, 2);
		c = atomic_exchange_explicit(&lock->word, 2,
					     memory_order_acquire);
	}
}

void be_lock_release(struct be_lock *lock)
{
	if (atomic_exchange_explicit(&lock->word, 0, memory_order_release) ==
	    2)
		futex_wake(&lock->word, 1);
}
