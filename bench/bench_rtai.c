/* SPDX-License-Identifier: MIT */
/*
 * RTAI skin switch costs, as ratios measured in one run (so both sides
 * of a ratio see the same machine):
 *
 *   bench_rtai [ROUNDS [processes]]   (FUSION_BACKEND=sim or live)
 *
 *   sem    an rt_sem_signal/rt_sem_wait ping-pong between main and a
 *          more urgent task: ns per switch, against the same ping-pong
 *          through Alchemy's rt_sem_v/rt_sem_p (rtai_alchemy_side.c,
 *          a translation unit of its own: the two skins share C names)
 *   rpc    an rt_rpc/rt_receive/rt_return round trip with the same
 *          task: ns per round trip, against the semaphore round trip
 *   xrpc   with "processes" (live): the same round trip with a task of
 *          another process of the session both join (every figure is
 *          then measured in that session's instance), against the
 *          semaphore round trip in one process
 *
 * Each round trip is two switches.  One line per figure, then RESULT
 * lines with the ratios.
 */
#include "bench_rtai.h"

#include <rtai/rtai_lxrt.h>
#include <rtai/rtai_msg.h>
#include <rtai/rtai_sem.h>

#include <fusion/session.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static SEM *ping, *pong;
static RT_TASK *peer;
static volatile int stop;

double bench_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The more urgent side of the semaphore ping-pong. */
static void *sem_peer(void *arg)
{
	(void)arg;
	peer = rt_task_init(nam2num("PEER"), 10, 0, 0);
	while (rt_sem_wait(ping) >= 0 && !stop)
		rt_sem_signal(pong);
	return NULL;
}

/* The more urgent side of the RPC round trip: answers every call. */
static void *rpc_peer(void *arg)
{
	unsigned long msg;
	RT_TASK *from;

	(void)arg;
	peer = rt_task_init(nam2num("RPCPEER"), 10, 0, 0);
	while ((from = rt_receive(NULL, &msg)) != NULL &&
	       !rt_is_reterr((long)from) && msg)
		rt_return(from, msg);
	return NULL;
}

/* The other process of "processes": answers calls until a 0. */
static int other_process(const char *session)
{
	unsigned long msg = 1;
	RT_TASK *from;

	if (fusion_session_join(session) ||
	    rt_task_init(nam2num("XPEER"), 10, 0, 0) == NULL)
		return 1;
	while (msg && (from = rt_receive(NULL, &msg)) != NULL &&
	       !rt_is_reterr((long)from))
		rt_return(from, msg);
	rt_task_delete(NULL);
	return 0;
}

/* Round trips with the other process's task, once it is there. */
static double xrpc_round_trips(long rounds)
{
	unsigned long reply;
	RT_TASK *other = NULL;
	double t0, ns;

	for (int i = 0; i < 500 && other == NULL; i++)
		if ((other = rt_get_adr(nam2num("XPEER"))) == NULL)
			rt_sleep(nano2count(10000000));
	if (other == NULL)
		return -1;
	t0 = bench_wall_ns();
	for (long i = 0; i < rounds; i++)
		rt_rpc(other, 1, &reply);
	ns = (bench_wall_ns() - t0) / rounds;
	rt_rpc(other, 0, &reply);
	return ns;
}

static double sem_round_trips(long rounds)
{
	long id;
	double t0, ns;

	ping = rt_sem_init(nam2num("PING"), 0);
	pong = rt_sem_init(nam2num("PONG"), 0);
	id = rt_thread_create(sem_peer, NULL, 0);
	rt_task_yield();
	t0 = bench_wall_ns();
	for (long i = 0; i < rounds; i++) {
		rt_sem_signal(ping);
		rt_sem_wait(pong);
	}
	ns = (bench_wall_ns() - t0) / rounds;
	stop = 1;
	rt_sem_signal(ping);
	rt_thread_join(id);
	rt_sem_delete(ping);
	rt_sem_delete(pong);
	stop = 0;
	return ns;
}

static double rpc_round_trips(long rounds)
{
	unsigned long reply;
	long id;
	double t0, ns;

	id = rt_thread_create(rpc_peer, NULL, 0);
	rt_task_yield();
	t0 = bench_wall_ns();
	for (long i = 0; i < rounds; i++)
		rt_rpc(peer, 1, &reply);
	ns = (bench_wall_ns() - t0) / rounds;
	rt_rpc(peer, 0, &reply);
	rt_thread_join(id);
	return ns;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100000;
	bool processes = argc > 2 && strcmp(argv[2], "processes") == 0;
	double rtai_sem, alchemy_sem, rpc, xrpc = 0;
	char session[64];
	pid_t pid = -1;
	int status;

	snprintf(session, sizeof(session), "bench-rtai-%d", (int)getpid());
	/* Forked before this process is in anything. */
	if (processes && (pid = fork()) == 0)
		exit(other_process(session));
	if (rounds <= 0 || (argc > 2 && !processes) ||
	    (processes && fusion_session_join(session)) ||
	    rt_task_init(nam2num("MAIN"), 200, 0, 0) == NULL) {
		fprintf(stderr,
			"usage: %s [ROUNDS > 0 [processes]] (processes: live "
			"only)\n",
			argv[0]);
		return 2;
	}
	rtai_sem = sem_round_trips(rounds);
	alchemy_sem = bench_alchemy_sem_round_trips(rounds);
	rpc = rpc_round_trips(rounds);
	if (processes) {
		xrpc = xrpc_round_trips(rounds);
		if (xrpc < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr,
				"bench_rtai: the other process failed\n");
			return 1;
		}
	}
	printf("rtai sem ping-pong:    %.1f ns per switch\n", rtai_sem / 2);
	printf("alchemy sem ping-pong: %.1f ns per switch\n", alchemy_sem / 2);
	printf("rtai rpc round trip:   %.1f ns\n", rpc);
	printf("rtai sem round trip:   %.1f ns\n", rtai_sem);
	printf("RESULT sem rtai/alchemy=%.2f\n", rtai_sem / alchemy_sem);
	printf("RESULT rpc rpc/sem=%.2f\n", rpc / rtai_sem);
	if (processes) {
		printf("rtai rpc round trip across processes: %.1f ns\n", xrpc);
		printf("RESULT xrpc xrpc/sem=%.2f\n", xrpc / rtai_sem);
	}
	rt_task_delete(NULL);
	return 0;
}
