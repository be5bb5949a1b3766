/* SPDX-License-Identifier: MIT */
/*
 * Objects a program never deletes go with the instance: a child process
 * creates objects of every class, named and anonymous, holding what
 * each can hold (blocks of a heap, messages queued, allocated or
 * pending on a pipe, bytes in a buffer, a running alarm, a mutex
 * locked by main) and tasks waiting on objects, then exits, which
 * destroys the runtime.
 *
 * Two witnesses.  Under AddressSanitizer, LeakSanitizer checks the
 * child at exit and reports on stderr.  In a plain build, the child
 * reports on stderr how much of glibc's heap (mallinfo2) is still in
 * use once the runtime went, against its level before the runtime
 * existed.  That residue is not 0 even without a leak: buffers the
 * process allocates once, and the chunks freed last, which glibc keeps
 * in its per-thread cache (a few per size) and counts as in use.  The
 * cache is full after a few rounds of objects: a child with twice as
 * many rounds leaves the same residue, unless objects leak.  Under the
 * sanitizers glibc's heap is not the one in use: both report the same
 * and the comparison holds trivially, leaving it to LeakSanitizer.
 */
#include "alchemy_test.h"

#include <alchemy/alarm.h>
#include <alchemy/buffer.h>
#include <alchemy/cond.h>
#include <alchemy/event.h>
#include <alchemy/heap.h>
#include <alchemy/mutex.h>
#include <alchemy/pipe.h>
#include <alchemy/queue.h>
#include <alchemy/sem.h>

#include <malloc.h>
#include <stdlib.h>
#include <sys/wait.h>

/* Bytes of difference allowed between the two children's residues. */
#define RESIDUE_SLACK 256

/*
 * Rounds of objects of the two children: enough to fill glibc's cache
 * (7 chunks a size), the second's extra rounds leaking many times the
 * slack if the smallest object leaked (2 pipes a round, and one
 * more: at most P_MINOR_COUNT in all).
 */
#define ROUNDS_FEW 8
#define ROUNDS_MANY 15

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static size_t heap_before;

/* Registered before the runtime exists: runs after it was destroyed. */
static void report_residue(void)
{
	fprintf(stderr, "%lld",
		(long long)heap_in_use() - (long long)heap_before);
}

static void never(void *arg)
{
	(void)arg;
}

/* One object of every class, named after @round or anonymous. */
static void create_all(int round, bool named)
{
	char name[32];
	const char *n = NULL;
	RT_SEM sem;
	RT_MUTEX mutex;
	RT_COND cond;
	RT_EVENT event;
	RT_QUEUE queue;
	RT_BUFFER buffer;
	RT_HEAP heap;
	RT_ALARM alarm;
	RT_PIPE pipe;
	void *block;

	if (named) {
		snprintf(name, sizeof(name), "reclaim%d", round);
		n = name;
	}
	CHECK_EQ(rt_sem_create(&sem, n, 3, S_PRIO), 0);
	CHECK_EQ(rt_mutex_create(&mutex, n), 0);
	CHECK_EQ(rt_mutex_acquire(&mutex, TM_INFINITE), 0);
	CHECK_EQ(rt_cond_create(&cond, n), 0);
	CHECK_EQ(rt_event_create(&event, n, 0x5, EV_PRIO), 0);
	CHECK_EQ(rt_queue_create(&queue, n, 4096, Q_UNLIMITED, Q_FIFO), 0);
	CHECK_EQ(rt_queue_write(&queue, "queued", 7, Q_NORMAL), 0);
	CHECK(rt_queue_alloc(&queue, 100) != NULL);
	CHECK_EQ(rt_buffer_create(&buffer, n, 4096, B_FIFO), 0);
	CHECK_EQ(rt_buffer_write(&buffer, "buffered", 9, TM_NONBLOCK), 9);
	CHECK_EQ(rt_heap_create(&heap, n, 8192, H_PRIO), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 100, TM_NONBLOCK, &block), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 200, TM_NONBLOCK, &block), 0);
	CHECK_EQ(rt_alarm_create(&alarm, n, never, NULL), 0);
	CHECK_EQ(rt_alarm_start(&alarm, 1000 * MS, 1000 * MS), 0);
	CHECK(rt_pipe_create(&pipe, n, P_MINOR_AUTO, 4096) >= 0);
	CHECK_EQ(rt_pipe_write(&pipe, "pending", 8, P_NORMAL), 8);
}

static RT_SEM gate;
static RT_MUTEX held;
static RT_PIPE tap;

static void wait_gate(void *arg)
{
	(void)arg;
	CHECK_EQ(rt_sem_p(&gate, TM_INFINITE), 0);
}

static void wait_held(void *arg)
{
	(void)arg;
	CHECK_EQ(rt_mutex_acquire(&held, TM_INFINITE), 0);
}

static void wait_tap(void *arg)
{
	char buf[8];

	(void)arg;
	CHECK_EQ(rt_pipe_read(&tap, buf, sizeof(buf), TM_INFINITE), 0);
}

/*
 * The child: exit with the objects of @arg rounds alive, and with
 * tasks waiting for ever on a semaphore, on a mutex main holds and in
 * a pipe: they are ended where they wait, and the objects they waited
 * on go after them.
 */
static int leave_objects(void *arg)
{
	int rounds = *(int *)arg;
	RT_TASK waiters[3];

	heap_before = heap_in_use();
	atexit(report_residue);
	test_runtime();
	for (int i = 0; i < rounds; i++) {
		create_all(i, true);
		create_all(i, false);
	}
	CHECK_EQ(rt_sem_create(&gate, "gate", 0, S_FIFO), 0);
	CHECK_EQ(rt_mutex_create(&held, "held"), 0);
	CHECK_EQ(rt_mutex_acquire(&held, TM_INFINITE), 0);
	CHECK(rt_pipe_create(&tap, "tap", P_MINOR_AUTO, 0) >= 0);
	/* Above main: each runs at once, up to its wait. */
	spawn(&waiters[0], 10, wait_gate, NULL);
	spawn(&waiters[1], 10, wait_held, NULL);
	spawn(&waiters[2], 10, wait_tap, NULL);
	exit(0);
}

/* The residue a child with @rounds rounds of objects reports. */
static long long residue(int rounds)
{
	char err[4096];
	char *end;
	long long bytes;
	int status = test_run_child(leave_objects, &rounds, err, sizeof(err));

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		test_fail(__FILE__, __LINE__, "child status %#x: %s", status,
			  err);
	bytes = strtoll(err, &end, 10);
	if (end == err || *end != '\0')
		test_fail(__FILE__, __LINE__, "child reported: %s", err);
	return bytes;
}

TEST(objects_left_at_exit_are_freed)
{
	long long few = residue(ROUNDS_FEW), many = residue(ROUNDS_MANY);

	if (many - few > RESIDUE_SLACK || few - many > RESIDUE_SLACK)
		test_fail(__FILE__, __LINE__,
			  "%lld bytes left after %d rounds, %lld after %d",
			  many, ROUNDS_MANY, few, ROUNDS_FEW);
}

TESTS(T(objects_left_at_exit_are_freed));
