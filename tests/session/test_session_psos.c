/* SPDX-License-Identifier: MIT */
/*
 * pSOS across the processes of a session: a queue, a semaphore and a
 * task made by one process are found by name (q_ident, sm_ident,
 * t_ident) from another, and a message sent there lands in the buffer
 * of a receiver waiting in the first; a task of another process cannot
 * be restarted here (its entry is code of its own).
 */
#include "session_test.h"

#include <fusion/fusion.h>
#include <psos/psos.h>

#include <string.h>

static char name[64];

struct board {
	unsigned long qid, smid, tid;
	unsigned long got[4]; /* what A's server received */
};

static struct board *board;

static void server(unsigned long a0, unsigned long a1, unsigned long a2,
		   unsigned long a3)
{
	unsigned long msg[4];

	(void)a0, (void)a1, (void)a2, (void)a3;
	if (q_receive(board->qid, Q_WAIT, 0, msg) == SUCCESS) {
		memcpy(board->got, msg, sizeof(msg));
		(void)sm_v(board->smid);
	}
	/* Kept until A ends: B tries to restart it. */
	(void)t_suspend(0);
}

/* A: 1 makes the objects and the server.  B: 2 finds them by name and
 * sends. */
static int step_fn(void *arg, int n)
{
	unsigned long msg[4] = {1, 2, 3, 4}, args[4] = {0}, id;
	void *mem;

	(void)arg;
	PEER_CHECK((n == 1 || n == 2) &&
		   peer_join_board(name, sizeof(*board), &mem) == 0);
	board = mem;
	if (n == 1) {
		PEER_CHECK(q_create("QA", 0, Q_FIFO | Q_NOLIMIT, &board->qid) ==
			   SUCCESS);
		PEER_CHECK(sm_create("SA", 0, SM_PRIOR, &board->smid) ==
			   SUCCESS);
		PEER_CHECK(t_create("SRVR", 50, 16384, 0, T_LOCAL,
				    &board->tid) == SUCCESS);
		PEER_CHECK(t_start(board->tid, T_PREEMPT, server, args) ==
			   SUCCESS);
		return peer_relaxed(0);
	}
	PEER_CHECK(q_ident("QA", 0, &id) == SUCCESS && id == board->qid);
	PEER_CHECK(sm_ident("SA", 0, &id) == SUCCESS && id == board->smid);
	PEER_CHECK(t_ident("SRVR", 0, &id) == SUCCESS && id == board->tid);
	PEER_CHECK(q_send(board->qid, msg) == SUCCESS);
	PEER_CHECK(sm_p(board->smid, SM_WAIT, 100) == SUCCESS);
	PEER_CHECK(memcmp(board->got, msg, sizeof(msg)) == 0);
	PEER_CHECK(t_restart(board->tid, args) == ERR_SSFN);
	return peer_relaxed(0);
}

TEST(objects_across_processes)
{
	peers_pair_run(name, sizeof(name), "psos", step_fn);
}

TESTS(T(objects_across_processes));
