/* SPDX-License-Identifier: MIT */
/*
 * Alchemy across the processes of a session: two programs, each with
 * the runtime joined to the session's one instance, find each other's
 * objects by name and use them.  A task of one process reads a queue
 * into its own buffer what a task of the other writes; a task sends a
 * message to another process's task and gets its reply; binding waits
 * for a name made later, and times out on the caller's own timer.
 * Alarms and pipes stay their process's.  A member that dies leaves
 * its semaphore to the others, its task's name free, none of its alarm
 * and pipe's memory, and the instance whole.
 */
#include "session_test.h"

#include <alchemy/alarm.h>
#include <alchemy/pipe.h>
#include <alchemy/queue.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>
#include <fusion/fusion.h>

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#define MS 1000000ULL

static char name[64];

/* What the test's processes share besides the instance. */
struct board {
	char read[16];	   /* what B's reader read */
	char received[16]; /* what A's server received */
	int opcode;	   /* and its opcode */
	RT_ALARM alarm;	   /* A's: a handle B may not use */
	_Atomic int bound; /* B's binder found the late semaphore */
	int member;	   /* A's number in the session */
};

static struct board *board;

/* Each process's own objects, as it made or bound them. */
static RT_SEM sem, late;
static RT_QUEUE queue;
static RT_TASK server, reader, binder;
static RT_PIPE pipe_;

static void server_body(void *arg)
{
	char buf[16];
	RT_TASK_MCB in = {.data = buf, .size = sizeof(buf)};
	RT_TASK_MCB out = {.opcode = 9, .data = "PONG", .size = 5};
	int flow;

	(void)arg;
	flow = rt_task_receive(&in, TM_INFINITE);
	if (flow <= 0)
		return;
	memcpy(board->received, buf, (size_t)in.size);
	board->opcode = in.opcode;
	(void)rt_task_reply(flow, &out);
}

/* Read a message into this process's buffer, then say so. */
static void reader_body(void *arg)
{
	char buf[16] = "";

	(void)arg;
	if (rt_queue_read(&queue, buf, sizeof(buf), TM_INFINITE) > 0)
		memcpy(board->read, buf, sizeof(buf));
	(void)rt_sem_v(&sem);
}

/* Wait for a semaphore another process makes later. */
static void binder_body(void *arg)
{
	(void)arg;
	if (rt_sem_bind(&late, "late", 2000 * MS) == 0)
		atomic_store(&board->bound, 1);
}

static void noop(void *arg)
{
	(void)arg;
}

static int join(void)
{
	void *mem;

	PEER_CHECK(peer_join_board(name, sizeof(*board), &mem) == 0);
	board = mem;
	return 0;
}

/*
 * Process A: 1 makes the semaphore, the queue, the server task, an
 * alarm and a pipe; 3 writes the queue and waits for B's reader; 5
 * makes the semaphore B's binder waits for.  Process B: 2 binds them
 * and starts its reader and binder; 4 sends to A's server and checks
 * what it may not use; 7 checks what a dead A left, and the instance.
 */
static int step_fn(void *arg, int n)
{
	char reply[16] = "";
	RT_TASK_MCB out = {.opcode = 7, .data = "ping", .size = 5};
	RT_TASK_MCB in = {.data = reply, .size = sizeof(reply)};
	RT_SEM persist;
	RT_TASK gone;
	RT_PIPE mine;

	(void)arg;
	switch (n) {
	case 1:
		PEER_CHECK(join() == 0);
		PEER_CHECK(rt_sem_create(&sem, "sem", 0, S_PRIO) == 0);
		PEER_CHECK(rt_queue_create(&queue, "queue", 4096, 8, Q_FIFO) ==
			   0);
		PEER_CHECK(rt_task_create(&server, "server", 0, 50, 0) == 0);
		PEER_CHECK(rt_task_start(&server, server_body, NULL) == 0);
		PEER_CHECK(
		    rt_alarm_create(&board->alarm, "alarm", noop, NULL) == 0);
		PEER_CHECK(rt_pipe_create(&pipe_, "pipe", P_MINOR_AUTO, 0) >=
			   0);
		board->member = nk_instance_member(fusion_runtime_peek());
		break;
	case 2:
		PEER_CHECK(join() == 0);
		PEER_CHECK(rt_sem_bind(&sem, "sem", 100 * MS) == 0);
		PEER_CHECK(rt_queue_bind(&queue, "queue", 100 * MS) == 0);
		PEER_CHECK(rt_task_bind(&server, "server", 100 * MS) == 0);
		PEER_CHECK(rt_task_create(&reader, "reader", 0, 20, 0) == 0);
		PEER_CHECK(rt_task_start(&reader, reader_body, NULL) == 0);
		PEER_CHECK(rt_task_create(&binder, "binder", 0, 20, 0) == 0);
		PEER_CHECK(rt_task_start(&binder, binder_body, NULL) == 0);
		/* Not found, though A's is there: a pipe is its process's. */
		PEER_CHECK(rt_pipe_bind(&mine, "pipe", TM_NONBLOCK) ==
			   -EWOULDBLOCK);
		/* What only A can use: its alarm, its pipe's block, and
		 * its nucleus pipe's block and pool. */
		PEER_CHECK(nk_member_blocks(fusion_runtime_peek(),
					    board->member) == 4);
		/* A bind nobody answers ends on our own timer. */
		PEER_CHECK(rt_sem_bind(&persist, "never", 30 * MS) ==
			   -ETIMEDOUT);
		break;
	case 3:
		PEER_CHECK(rt_queue_write(&queue, "hello", 6, Q_NORMAL) == 1);
		PEER_CHECK(rt_sem_p(&sem, 2000 * MS) == 0);
		PEER_CHECK(strcmp(board->read, "hello") == 0);
		break;
	case 4:
		PEER_CHECK(rt_task_send(&server, &out, &in, 2000 * MS) == 5);
		PEER_CHECK(in.opcode == 9 && strcmp(reply, "PONG") == 0);
		PEER_CHECK(strcmp(board->received, "ping") == 0);
		PEER_CHECK(board->opcode == 7);
		/* An alarm's handler is code of A's. */
		PEER_CHECK(rt_alarm_start(&board->alarm, 10 * MS, 0) ==
			   -EINVAL);
		break;
	case 5:
		PEER_CHECK(rt_sem_create(&late, "late", 0, S_FIFO) == 0);
		/* 10 s at most: a peer under ThreadSanitizer is slow. */
		for (int i = 0; i < 2000 && !atomic_load(&board->bound); i++)
			PEER_CHECK(rt_task_sleep(5 * MS) == 0);
		PEER_CHECK(atomic_load(&board->bound));
		break;
	case 7:
		/* A died: its task is gone from the names (its skin's hooks
		 * ran here), its semaphore stays, its pipe's name is free and
		 * its alarm and pipe's memory too. */
		for (int i = 0; i < 200; i++) {
			if (rt_task_bind(&gone, "server", TM_NONBLOCK) ==
			    -EWOULDBLOCK)
				break;
			PEER_CHECK(rt_task_sleep(10 * MS) == 0);
		}
		PEER_CHECK(rt_task_bind(&gone, "server", TM_NONBLOCK) ==
			   -EWOULDBLOCK);
		PEER_CHECK(rt_sem_bind(&persist, "sem", TM_NONBLOCK) == 0);
		PEER_CHECK(rt_sem_v(&persist) == 0);
		PEER_CHECK(rt_sem_p(&persist, TM_NONBLOCK) == 0);
		PEER_CHECK(rt_pipe_create(&mine, "pipe", P_MINOR_AUTO, 0) >= 0);
		PEER_CHECK(rt_pipe_delete(&mine) == 0);
		PEER_CHECK(nk_member_blocks(fusion_runtime_peek(),
					    board->member) == 0);
		PEER_CHECK(peer_instance_whole() == 0);
		break;
	default:
		return __LINE__;
	}
	return peer_relaxed(0);
}

TEST(objects_across_processes)
{
	struct peer a, b;

	peers_pair_start(name, sizeof(name), "alchemy", step_fn, &a, &b);
	CHECK_EQ(peer_step(&a, 3), 0);
	CHECK_EQ(peer_step(&b, 4), 0);
	CHECK_EQ(peer_step(&a, 5), 0);
	CHECK_EQ(peer_step(&a, PEER_STEP_CHECK), 0);
	CHECK_EQ(peer_step(&b, PEER_STEP_CHECK), 0);
	peers_pair_end(name, &a, &b);
}

TEST(member_killed)
{
	peers_pair_kill_run(name, sizeof(name), "alchemy-killed", step_fn, 7);
}

TESTS(T(objects_across_processes), T(member_killed));
