/* SPDX-License-Identifier: MIT */
/*
 * pSOS skin benchmarks (same conventions as bench_alchemy: the measured
 * loops are the bench_op_* functions callgrind counts, one RESULT line
 * per figure).
 *
 *   bench_psos pingpong ITER  sm_v/sm_p ping-pong between main and a
 *                             more urgent task, ns per switch, and the
 *                             same with Alchemy semaphores in the same
 *                             run: the ratio pSOS / Alchemy
 *   bench_psos queue ITER     q_send + q_receive by main (no switch),
 *                             then q_send to a more urgent task blocked
 *                             in q_receive (two switches per message)
 *   bench_psos order N        N messages from main to a task on the last
 *                             RT CPU (FUSION_CPUS=0,1: the other CPU),
 *                             a semaphore of 64 free slots for flow
 *                             control; the receiver checks that each
 *                             comes once and in order
 */
#include <alchemy/sem.h>
#include <fusion/fusion.h>
#include <psos/psos.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_OP __attribute__((noinline, noclone))

static void check(const char *what, long ret)
{
	if (ret != 0) {
		fprintf(stderr, "bench_psos: %s: %ld\n", what, ret);
		exit(1);
	}
}

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static unsigned long ping, pong, q, slots, done;
static long iterations;

/* The more urgent side of the pSOS ping-pong. */
static void psos_peer(unsigned long a0, unsigned long a1, unsigned long a2,
		      unsigned long a3)
{
	(void)a0, (void)a1, (void)a2, (void)a3;
	for (long i = 0; i < iterations; i++) {
		check("sm_p", (long)sm_p(ping, SM_WAIT, 0));
		check("sm_v", (long)sm_v(pong));
	}
}

static BENCH_OP void bench_op_psos_pingpong(long iter)
{
	for (long i = 0; i < iter; i++) {
		check("sm_v", (long)sm_v(ping));
		check("sm_p", (long)sm_p(pong, SM_NOWAIT, 0));
	}
}

static RT_SEM aping, apong;

static void alchemy_peer(void *arg)
{
	(void)arg;
	for (long i = 0; i < iterations; i++) {
		check("rt_sem_p", rt_sem_p(&aping, TM_INFINITE));
		check("rt_sem_v", rt_sem_v(&apong));
	}
}

static BENCH_OP void bench_op_alchemy_pingpong(long iter)
{
	for (long i = 0; i < iter; i++) {
		check("rt_sem_v", rt_sem_v(&aping));
		check("rt_sem_p", rt_sem_p(&apong, TM_NONBLOCK));
	}
}

static void start_task(const char *name, unsigned long prio,
		       void (*entry)(unsigned long, unsigned long,
				     unsigned long, unsigned long))
{
	unsigned long tid;

	check("t_create", (long)t_create(name, prio, 16384, 0, 0, &tid));
	check("t_start", (long)t_start(tid, 0, entry, NULL));
}

static void pingpong(long iter)
{
	struct nk_thread_attr attr = {.name = "apeer", .priority = 20};
	struct nk_instance *nk;
	struct nk_thread *peer;
	double t0, psos_ns, alchemy_ns;

	iterations = iter;
	check("sm_create", (long)sm_create("PING", 0, SM_FIFO, &ping));
	check("sm_create", (long)sm_create("PONG", 0, SM_FIFO, &pong));
	start_task("PEER", 20, psos_peer);
	t0 = wall_ns();
	bench_op_psos_pingpong(iter);
	psos_ns = (wall_ns() - t0) / (2.0 * iter);
	check("rt_sem_create", rt_sem_create(&aping, "aping", 0, S_FIFO));
	check("rt_sem_create", rt_sem_create(&apong, "apong", 0, S_FIFO));
	/* The Alchemy peer at the same nucleus priority as the pSOS one
	 * (Alchemy takes a nucleus thread as a task on its first call). */
	check("fusion_runtime", fusion_runtime(&nk));
	check("nk_thread_create", nk_thread_create(nk, &attr, &peer));
	check("nk_thread_start", nk_thread_start(peer, alchemy_peer, NULL));
	t0 = wall_ns();
	bench_op_alchemy_pingpong(iter);
	alchemy_ns = (wall_ns() - t0) / (2.0 * iter);
	printf("RESULT pingpong ops=%ld psos_ns_per_switch=%.1f "
	       "alchemy_ns_per_switch=%.1f ratio=%.3f\n",
	       iter, psos_ns, alchemy_ns, psos_ns / alchemy_ns);
}

static BENCH_OP void bench_op_queue(long iter)
{
	unsigned long msg[4] = {1, 2, 3, 4};

	for (long i = 0; i < iter; i++) {
		msg[0] = (unsigned long)i;
		check("q_send", (long)q_send(q, msg));
		check("q_receive", (long)q_receive(q, Q_NOWAIT, 0, msg));
	}
}

static void queue_peer(unsigned long a0, unsigned long a1, unsigned long a2,
		       unsigned long a3)
{
	unsigned long msg[4];

	(void)a0, (void)a1, (void)a2, (void)a3;
	for (long i = 0; i < iterations; i++)
		check("q_receive", (long)q_receive(q, Q_WAIT, 0, msg));
}

static BENCH_OP void bench_op_queue_switch(long iter)
{
	unsigned long msg[4] = {1, 2, 3, 4};

	for (long i = 0; i < iter; i++) {
		msg[0] = (unsigned long)i;
		check("q_send", (long)q_send(q, msg));
	}
}

static void queue(long iter)
{
	double t0, local, remote;

	iterations = iter;
	check("q_create", (long)q_create("Q", 0, Q_NOLIMIT | Q_SYSBUF, &q));
	t0 = wall_ns();
	bench_op_queue(iter);
	local = (wall_ns() - t0) / iter;
	start_task("RECV", 20, queue_peer);
	t0 = wall_ns();
	bench_op_queue_switch(iter);
	remote = (wall_ns() - t0) / iter;
	printf("RESULT queue ops=%ld ns_per_msg_no_switch=%.1f "
	       "msgs_per_s_no_switch=%.0f ns_per_msg_switch=%.1f "
	       "msgs_per_s_switch=%.0f\n",
	       iter, local, 1e9 / local, remote, 1e9 / remote);
}

static unsigned long received, disorder;

/* The receiver: every message once, in order. */
static void order_peer(void *arg)
{
	unsigned long msg[4];

	(void)arg;
	for (long i = 0; i < iterations; i++) {
		check("q_receive", (long)q_receive(q, Q_WAIT, 0, msg));
		if (msg[0] != (unsigned long)i || msg[3] != ~msg[0])
			disorder++;
		received++;
		check("sm_v", (long)sm_v(slots));
	}
	check("sm_v", (long)sm_v(done));
}

static void order(long n)
{
	struct nk_instance *nk;
	struct nk_thread_attr attr = {.name = "order-rx", .priority = 20};
	struct nk_thread *rx;
	unsigned long msg[4] = {0};
	double t0;

	iterations = n;
	check("fusion_runtime", fusion_runtime(&nk));
	attr.cpu = nk_instance_nr_cpus(nk) - 1;
	check("q_create", (long)q_create("Q", 64, Q_LIMIT, &q));
	check("sm_create", (long)sm_create("SLOT", 64, SM_FIFO, &slots));
	check("sm_create", (long)sm_create("DONE", 0, SM_FIFO, &done));
	/* A nucleus thread on the last RT CPU: pSOS takes it as a task on
	 * its first call. */
	check("nk_thread_create", nk_thread_create(nk, &attr, &rx));
	check("nk_thread_start", nk_thread_start(rx, order_peer, NULL));
	t0 = wall_ns();
	for (long i = 0; i < n; i++) {
		msg[0] = (unsigned long)i;
		msg[3] = ~msg[0];
		check("sm_p", (long)sm_p(slots, SM_WAIT, 0));
		check("q_send", (long)q_send(q, msg));
	}
	check("sm_p", (long)sm_p(done, SM_WAIT, 0));
	printf("RESULT order ops=%ld cpus=%d received=%lu out_of_order=%lu "
	       "lost=%ld msgs_per_s=%.0f\n",
	       n, nk_instance_nr_cpus(nk), received, disorder,
	       n - (long)received, n / ((wall_ns() - t0) / 1e9));
	if (received != (unsigned long)n || disorder)
		exit(1);
}

int main(int argc, char **argv)
{
	long iter;

	if (argc != 3 || atol(argv[2]) <= 0) {
		fprintf(stderr, "usage: %s pingpong|queue|order ITER\n",
			argv[0]);
		return 2;
	}
	iter = atol(argv[2]);
	if (strcmp(argv[1], "pingpong") == 0)
		pingpong(iter);
	else if (strcmp(argv[1], "queue") == 0)
		queue(iter);
	else if (strcmp(argv[1], "order") == 0)
		order(iter);
	else
		return 2;
	return 0;
}
