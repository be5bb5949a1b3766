/* SPDX-License-Identifier: MIT */
/*
 * VxWorks across the processes of a session: a task of one process is
 * found by name from another, and a message queue moves messages
 * between the processes' own buffers both ways it can: straight to a
 * receiver waiting in the other process, and from a sender the other
 * process blocked on a full queue into the slot a receive frees.  A
 * watchdog stays its process's.
 */
#include "session_test.h"

#include <fusion/fusion.h>
#include <vxworks/errnoLib.h>
#include <vxworks/msgQLib.h>
#include <vxworks/semLib.h>
#include <vxworks/sysLib.h>
#include <vxworks/taskLib.h>
#include <vxworks/wdLib.h>

#include <string.h>

static char name[64];

struct board {
	MSG_Q_ID q;
	SEM_ID go, done;
	WDOG_ID wd;
	TASK_ID server;
	char got[3][8]; /* what A's server received, in order */
};

static struct board *board;

/* A's: one message while it waits, then two once B filled the queue
 * and blocked a sender of its own on it. */
static int server(_Vx_usr_arg_t arg)
{
	char buf[3][8];

	(void)arg;
	if (msgQReceive(board->q, buf[0], 8, WAIT_FOREVER) != 4 ||
	    semTake(board->go, WAIT_FOREVER) != OK ||
	    msgQReceive(board->q, buf[1], 8, WAIT_FOREVER) != 4 ||
	    msgQReceive(board->q, buf[2], 8, WAIT_FOREVER) != 6)
		return ERROR;
	memcpy(board->got, buf, sizeof(buf));
	return semGive(board->done);
}

/* B's: blocks on the full queue. */
static int sender(_Vx_usr_arg_t arg)
{
	char three[6] = "three";

	(void)arg;
	return msgQSend(board->q, three, sizeof(three), WAIT_FOREVER,
			MSG_PRI_NORMAL);
}

static int noop(_Vx_usr_arg_t arg)
{
	(void)arg;
	return 0;
}

/* A: 1 makes the objects and the server.  B: 2 finds the server by
 * name and exchanges the messages.  */
static int step_fn(void *arg, int n)
{
	char one[4] = "one", two[4] = "two";
	void *mem;

	(void)arg;
	switch (n) {
	case 1:
	case 2:
		PEER_CHECK(peer_join_board(name, sizeof(*board), &mem) == 0);
		board = mem;
		if (n == 2)
			break;
		board->q = msgQCreate(1, 8, MSG_Q_FIFO);
		board->go = semBCreate(SEM_Q_PRIORITY, SEM_EMPTY);
		board->done = semBCreate(SEM_Q_PRIORITY, SEM_EMPTY);
		board->wd = wdCreate();
		PEER_CHECK(board->q && board->go && board->done && board->wd);
		board->server = taskSpawn("tServer", 50, 0, 0, (FUNCPTR)server,
					  0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
		PEER_CHECK(board->server != (TASK_ID)ERROR);
		return peer_relaxed(0);
	default:
		return __LINE__;
	}
	PEER_CHECK(taskNameToId("tServer") == board->server);
	/* Straight to the server waiting in A. */
	PEER_CHECK(msgQSend(board->q, one, 4, NO_WAIT, MSG_PRI_NORMAL) == OK);
	/* Into the queue's one slot, then a sender of ours waits. */
	PEER_CHECK(msgQSend(board->q, two, 4, NO_WAIT, MSG_PRI_NORMAL) == OK);
	PEER_CHECK(taskSpawn("tSender", 20, 0, 0, (FUNCPTR)sender, 0, 0, 0, 0,
			     0, 0, 0, 0, 0, 0) != (TASK_ID)ERROR);
	PEER_CHECK(semGive(board->go) == OK);
	PEER_CHECK(semTake(board->done, 2 * sysClkRateGet()) == OK);
	PEER_CHECK(strcmp(board->got[0], "one") == 0);
	PEER_CHECK(strcmp(board->got[1], "two") == 0);
	PEER_CHECK(strcmp(board->got[2], "three") == 0);
	PEER_CHECK(msgQNumMsgs(board->q) == 0);
	/* A's watchdog would run a routine of ours in A. */
	PEER_CHECK(wdStart(board->wd, 1, (FUNCPTR)noop, 0) == ERROR);
	PEER_CHECK(errnoGet() == S_objLib_OBJ_ID_ERROR);
	return peer_relaxed(0);
}

TEST(objects_across_processes)
{
	peers_pair_run(name, sizeof(name), "vxworks", step_fn);
}

TESTS(T(objects_across_processes));
