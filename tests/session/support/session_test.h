/* SPDX-License-Identifier: MIT */
/*
 * What the session tests share: a unique session name per test, and
 * peers, forked before the test process joins anything, that run a
 * step function and answer over a pipe.
 */
#ifndef FUSION_SESSION_TEST_H
#define FUSION_SESSION_TEST_H

#include "harness.h"
#include "session/session.h"

#include <stdbool.h>
#include <sys/types.h>

/* "t<pid>-<what>": no two tests or runs share a session. */
void session_test_name(char *buf, size_t len, const char *what);
/* Do the session's files exist in /dev/shm? */
bool session_test_exists(const char *name);
/* Remove them (a persistent session, a test's leftovers). */
void session_test_remove(const char *name);

struct peer {
	pid_t pid;
	int cmd;   /* the test writes a step number here... */
	int reply; /* ...and reads the peer's answer here */
};

/*
 * Fork a peer running @step(@arg, n) for each step number n it is sent,
 * answering its result (0: success, else the failing line), until it is
 * sent 0; it then exits 0.
 */
void peer_start(struct peer *p, int (*step)(void *arg, int n), void *arg);
/* Run step @n in @p: its answer, -1 if it died. */
int peer_step(struct peer *p, int n);
/* End @p (step 0) and reap it: its exit status. */
int peer_end(struct peer *p);
/* Kill @p with SIGKILL and reap it. */
void peer_kill(struct peer *p);

/*
 * @ret, once the calling peer's main thread, if the runtime made it a
 * nucleus thread, has relaxed: it then waits for the test without
 * holding its RT CPU, which the other members' threads share.
 */
int peer_relaxed(int ret);
/* In a peer: 0 if the runtime's instance passes nk_instance_check(),
 * else the failing line, the violation said on stderr. */
int peer_instance_whole(void);
/* In a peer: join session @name and map its block "board" of @size
 * bytes into *@board: 0, or the failing line. */
int peer_join_board(const char *name, size_t size, void **board);

/* The step of a pair's peers that checks the instance (and relaxes). */
#define PEER_STEP_CHECK 100

/*
 * A skin's test with two processes: peers @a and @b forked running
 * @step, and PEER_STEP_CHECK themselves, the session named for @what
 * into @name; A runs step 1 (it makes the objects), then B step 2 (it
 * uses them).
 */
void peers_pair_start(char *name, size_t len, const char *what,
		      int (*step)(void *arg, int n), struct peer *a,
		      struct peer *b);
/* Then both end: the last one out removed the session @name. */
void peers_pair_end(const char *name, struct peer *a, struct peer *b);
/* The whole run: start, PEER_STEP_CHECK in A then B, end. */
void peers_pair_run(char *name, size_t len, const char *what,
		    int (*step)(void *arg, int n));
/* Start, kill A (SIGKILL), then B runs step @after and ends: the session
 * @name goes. */
void peers_pair_kill_run(char *name, size_t len, const char *what,
			 int (*step)(void *arg, int n), int after);

/* A peer's check: answer the failing line. */
#define PEER_CHECK(cond)                                                       \
	do {                                                                   \
		if (!(cond))                                                   \
			return __LINE__;                                       \
	} while (0)

#endif
