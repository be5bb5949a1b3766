/* SPDX-License-Identifier: MIT */
/*
 * The live backend's futexes in a session's memory work across
 * processes: a gate opened in one process wakes its waiter in another,
 * and the nucleus lock held in one makes a thread of another wait, lends
 * the holder that thread's priority and passes to it.  A private gate,
 * for contrast, never wakes the other process: the shared flag, set when
 * the instance is placed in a session (nk_instance_shared), is what
 * carries the wake.  An open a killed process owed is made by whoever
 * cleans up after it, once.  A holder that dies with the lock leaves it
 * to the next locker, who is told.
 */
#include "harness.h"
#include "backend/common/futex.h"
#include "backend/common/pilock.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What the two processes share, as a session's segment is shared. */
struct shared {
	struct be_gate gate;
	struct be_pilock lock;
	_Atomic int step;
	_Atomic int priority; /* the holder's, as the kernel shows it */
};

static struct shared *shared_map(void)
{
	struct shared *m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(m != MAP_FAILED);
	return m;
}

static void pause_a_little(void)
{
	const struct timespec t = {0, 100000};

	nanosleep(&t, NULL);
}

/* Field @field (1-based) of /proc/@pid/stat, after the command name. */
static long stat_field(pid_t pid, int field, char *state)
{
	char path[64], buf[512], *p;
	long value = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (p == NULL)
		return 0;
	/* Field 3 is the state, right after the name's ") ". */
	if (state)
		*state = p[2];
	p += 2;
	for (int i = 3; i < field && p; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (p)
		sscanf(p, "%ld", &value);
	return value;
}

/*
 * Until the child sleeps in the kernel on @gate (announced on the word,
 * then asleep): an open before that would be taken as a token on its
 * way in, and prove nothing.
 */
static void wait_asleep(struct be_gate *gate, pid_t child)
{
	char state = 0;

	for (int i = 0; i < 50000; i++) {
		if ((atomic_load(&gate->word) & BE_GATE_SLEEPING) &&
		    (stat_field(child, 3, &state), state == 'S'))
			return;
		pause_a_little();
	}
	test_fail(__FILE__, __LINE__, "the child never slept on its gate");
}

static int child_status(pid_t pid)
{
	int status;

	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* A child waiting on a gate of @m (@shared or not) for @ns at most,
 * asleep on it: it exits with what the wait returned. */
static pid_t gate_waiter(struct shared *m, bool shared, long ns)
{
	pid_t pid;

	be_gate_init(&m->gate, shared);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(be_gate_wait_for(&m->gate, ns));
	wait_asleep(&m->gate, pid);
	return pid;
}

TEST(gate_wakes_another_process)
{
	struct shared *m = shared_map();
	pid_t pid = gate_waiter(m, true, 10 * 1000000000L);

	CHECK(!be_gate_open(&m->gate));
	CHECK_EQ(child_status(pid), 0); /* woken, with the token */
	CHECK_EQ(atomic_load(&m->gate.word), BE_GATE_SHARED);
	munmap(m, sizeof(*m));
}

/* The debtor is killed before it pays: the debt outlives it, and is
 * paid once, by its own number only. */
TEST(gate_debt_outlives_its_debtor)
{
	struct shared *m = shared_map();
	pid_t waiter = gate_waiter(m, true, 10 * 1000000000L), debtor;
	int status;

	debtor = fork();
	CHECK(debtor >= 0);
	if (debtor == 0) {
		be_gate_owe(&m->gate, 7);
		raise(SIGKILL);
	}
	CHECK_EQ(waitpid(debtor, &status, 0), debtor);
	CHECK(WIFSIGNALED(status));
	CHECK_EQ(be_gate_debtor(&m->gate), 7);
	CHECK(!be_gate_pay(&m->gate, 6)); /* not its debt */
	CHECK_EQ(atomic_load(&m->gate.word) & BE_GATE_OPEN, 0);
	CHECK(be_gate_pay(&m->gate, 7));
	CHECK_EQ(child_status(waiter), 0);
	CHECK(!be_gate_pay(&m->gate, 7)); /* paid: no second token */
	CHECK_EQ(atomic_load(&m->gate.word), BE_GATE_SHARED);
	/* Paid by another open: the waiter's token clears the debt. */
	waiter = gate_waiter(m, true, 10 * 1000000000L);
	be_gate_owe(&m->gate, 5);
	CHECK(!be_gate_open(&m->gate));
	CHECK_EQ(child_status(waiter), 0);
	CHECK_EQ(be_gate_debtor(&m->gate), 0);
	CHECK(!be_gate_pay(&m->gate, 5));
	/* Owed by nobody: 0 clears a debt. */
	be_gate_owe(&m->gate, 3);
	be_gate_owe(&m->gate, 0);
	CHECK_EQ(atomic_load(&m->gate.word), BE_GATE_SHARED);
	munmap(m, sizeof(*m));
}

TEST(private_gate_stays_in_its_process)
{
	struct shared *m = shared_map();
	pid_t pid = gate_waiter(m, false, 300 * 1000000L);

	be_gate_open(&m->gate);
	/* Its own process's wake only: it slept its whole timeout. */
	CHECK_EQ(child_status(pid), ETIMEDOUT);
	munmap(m, sizeof(*m));
}

/* The holder: takes the lock, waits until a waiter of another process
 * is queued on it (the kernel's bit), notes its own priority, lets go. */
static int holder(struct shared *m)
{
	be_pilock_acquire(&m->lock);
	atomic_store(&m->step, 1);
	for (int i = 0; i < 50000; i++) {
		if (atomic_load(&m->lock.word) & FUTEX_WAITERS) {
			atomic_store(&m->priority,
				     (int)stat_field(getpid(), 18, NULL));
			be_pilock_release(&m->lock);
			return 0;
		}
		pause_a_little();
	}
	return 1;
}

TEST(lock_lends_priority_across_processes)
{
	struct shared *m = shared_map();
	struct sched_param fifo = {.sched_priority = 10}, old_param;
	int old_policy;
	bool rt;
	pid_t pid;

	be_pilock_init(&m->lock, true);
	pthread_getschedparam(pthread_self(), &old_policy, &old_param);
	rt = pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo) == 0;
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		/* SCHED_OTHER, so that only the lock can raise it. */
		const struct sched_param other = {0};

		sched_setscheduler(0, SCHED_OTHER, &other);
		_exit(holder(m));
	}
	while (atomic_load(&m->step) == 0)
		pause_a_little();
	be_pilock_acquire(&m->lock); /* waits for the child */
	CHECK_EQ(atomic_load(&m->lock.word) & FUTEX_TID_MASK,
		 (uint32_t)gettid());
	be_pilock_release(&m->lock);
	CHECK_EQ(atomic_load(&m->lock.word), 0);
	CHECK_EQ(child_status(pid), 0);
	/* /proc's priority of a SCHED_FIFO N thread is -1 - N; a nice-0
	 * one's is 20. */
	if (rt)
		CHECK_EQ(atomic_load(&m->priority), -1 - fifo.sched_priority);
	else
		printf("SCHED_FIFO not permitted: the hand-over only\n");
	pthread_setschedparam(pthread_self(), old_policy, &old_param);
	munmap(m, sizeof(*m));
}

/*
 * A holder that dies with the lock, @waited: once we wait for it (the
 * kernel hands it to us, marked), or before we ask (the kernel refuses
 * the dead owner: we take the word over).  Either way it is ours, said
 * so, and whole again once let go.
 */
static void dead_holder(bool waited)
{
	struct shared *m = shared_map();
	pid_t pid;

	be_pilock_init(&m->lock, true);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		be_pilock_acquire(&m->lock);
		atomic_store(&m->step, 1);
		while (waited && !(atomic_load(&m->lock.word) & FUTEX_WAITERS))
			pause_a_little();
		_exit(0);
	}
	while (atomic_load(&m->step) == 0)
		pause_a_little();
	if (!waited)
		CHECK_EQ(child_status(pid), 0);
	CHECK_EQ(be_pilock_acquire(&m->lock), BE_PILOCK_OWNER_DIED);
	CHECK_EQ(atomic_load(&m->lock.word) &
		     (FUTEX_TID_MASK | FUTEX_OWNER_DIED),
		 (uint32_t)gettid());
	be_pilock_release(&m->lock);
	CHECK_EQ(atomic_load(&m->lock.word), 0);
	CHECK_EQ(be_pilock_acquire(&m->lock), BE_PILOCK_TAKEN);
	be_pilock_release(&m->lock);
	if (waited)
		CHECK_EQ(child_status(pid), 0);
	munmap(m, sizeof(*m));
}

TEST(lock_of_a_dead_holder)
{
	dead_holder(false);
}

TEST(lock_handed_on_by_a_dead_holder)
{
	dead_holder(true);
}

TESTS(T(gate_wakes_another_process), T(gate_debt_outlives_its_debtor),
      T(private_gate_stays_in_its_process),
      T(lock_lends_priority_across_processes), T(lock_of_a_dead_holder),
      T(lock_handed_on_by_a_dead_holder));
