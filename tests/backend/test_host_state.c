/* SPDX-License-Identifier: MIT */
/*
 * be_host_state (src/backend/common/host.c): the state /proc gives a
 * thread, which a live kick reads to tell a shadow held off its CPU
 * from one that will not run (stopped, dead or gone).  And the page
 * faults of another thread, from the same stat line.
 */
#include "harness.h"
#include "backend/common/host.h"

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GIVE_UP_S 10

static sem_t never;
static _Atomic pid_t waiter_tid;

static void *waiter(void *arg)
{
	(void)arg;
	atomic_store(&waiter_tid, gettid());
	while (sem_wait(&never))
		;
	return NULL;
}

/* Asks until @tid of @pid is in @state, GIVE_UP_S at most. */
static char state_within(pid_t pid, pid_t tid, char state)
{
	time_t give_up = time(NULL) + GIVE_UP_S;
	char seen;

	while ((seen = be_host_state(pid, tid)) != state &&
	       time(NULL) < give_up)
		sched_yield();
	return seen;
}

TEST(running_and_asleep)
{
	pthread_t t;
	pid_t tid;

	CHECK_EQ(be_host_state(getpid(), gettid()), 'R');
	CHECK_EQ(sem_init(&never, 0, 0), 0);
	CHECK_EQ(pthread_create(&t, NULL, waiter, NULL), 0);
	while ((tid = atomic_load(&waiter_tid)) == 0)
		sched_yield();
	CHECK_EQ(state_within(getpid(), tid, 'S'), 'S');
	/* Its stack's first pages, at least. */
	CHECK(be_host_faults(NULL, tid) > 0);
	CHECK_EQ(sem_post(&never), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	/* Joined: its task is gone. */
	CHECK_EQ(state_within(getpid(), tid, '\0'), '\0');
	CHECK_EQ(be_host_faults(NULL, tid), 0);
	CHECK_EQ(sem_destroy(&never), 0);
}

TEST(stopped_dead_and_reaped)
{
	pid_t child = fork();
	int status;

	CHECK(child >= 0);
	if (child == 0) {
		raise(SIGSTOP);
		_exit(0);
	}
	CHECK_EQ(waitpid(child, &status, WUNTRACED), child);
	CHECK(WIFSTOPPED(status));
	CHECK_EQ(be_host_state(child, child), 'T');
	CHECK_EQ(kill(child, SIGKILL), 0);
	CHECK_EQ(state_within(child, child, 'Z'), 'Z');
	CHECK_EQ(waitpid(child, &status, 0), child);
	CHECK_EQ(be_host_state(child, child), '\0');
}

TEST(bad_numbers)
{
	CHECK_EQ(be_host_state(0, gettid()), '\0');
	CHECK_EQ(be_host_state(getpid(), 0), '\0');
	CHECK_EQ(be_host_state(-1, -1), '\0');
	/* A thread of another process is not one of ours. */
	CHECK_EQ(be_host_state(getpid(), 1), '\0');
}

TESTS(T(running_and_asleep), T(stopped_dead_and_reaped), T(bad_numbers));
