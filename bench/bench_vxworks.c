/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin against its references, in the same run (wall clock,
 * median of alternated rounds; a ratio near 1 means the skin adds
 * little):
 *
 *   bench_vxworks [ITER [MESSAGES]]
 *
 *   ping-pong  semGive/semTake between main and a more urgent task (two
 *              switches per round trip), ns per switch, against the same
 *              with Alchemy semaphores
 *   msgq-0     msgQSend then msgQReceive by one task (no switch), ns per
 *              message, against a pthread mutex + condition variable ring
 *              used the same way
 *   msgq-1     main sends to a more urgent receiver (one switch per
 *              message), against a producer pthread and a consumer
 *              pthread, both on one Linux CPU, through a ring of one
 *              slot (the producer waits for each message to be taken)
 *   stream     MESSAGES messages from a producer task to a consumer task
 *              through a queue of 16, each checked for order and loss; the
 *              tasks on different RT CPUs when the runtime has two
 *              (FUSION_CPUS=0,1)
 */
#include <alchemy/sem.h>
#include <alchemy/task.h>
#include <fusion/fusion.h>
#include <vxworks/msgQLib.h>
#include <vxworks/semLib.h>
#include <vxworks/taskLib.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 5

static void check(const char *what, int ok)
{
	if (!ok) {
		fprintf(stderr, "bench_vxworks: %s failed\n", what);
		exit(1);
	}
}

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v)
{
	qsort(v, ROUNDS, sizeof(*v), cmp_double);
	return v[ROUNDS / 2];
}

static long iter;

/* ping-pong, VxWorks: the peer answers each ping with a pong. */
static SEM_ID vx_ping, vx_pong;

static int vx_peer(long arg)
{
	(void)arg;
	for (;;) {
		semTake(vx_ping, WAIT_FOREVER);
		semGive(vx_pong);
	}
	return 0;
}

static double vx_pingpong(void)
{
	double t0 = wall_ns();

	for (long i = 0; i < iter; i++) {
		check("semGive", semGive(vx_ping) == OK);
		check("semTake", semTake(vx_pong, WAIT_FOREVER) == OK);
	}
	return (wall_ns() - t0) / (2.0 * iter);
}

/* ping-pong, Alchemy. */
static RT_SEM al_ping, al_pong;

static void al_peer(void *arg)
{
	(void)arg;
	for (;;) {
		if (rt_sem_p(&al_ping, TM_INFINITE))
			return;
		rt_sem_v(&al_pong);
	}
}

static double al_pingpong(void)
{
	double t0 = wall_ns();

	for (long i = 0; i < iter; i++) {
		check("rt_sem_v", rt_sem_v(&al_ping) == 0);
		check("rt_sem_p", rt_sem_p(&al_pong, TM_INFINITE) == 0);
	}
	return (wall_ns() - t0) / (2.0 * iter);
}

/* A pthread ring of ints, one mutex and one condition variable. */
#define RING 16
static struct {
	pthread_mutex_t lock;
	pthread_cond_t nonempty, nonfull;
	int buf[RING];
	int head, count;
	int capacity; /* RING, or 1 to switch at each message */
} ring = {.lock = PTHREAD_MUTEX_INITIALIZER,
	  .nonempty = PTHREAD_COND_INITIALIZER,
	  .nonfull = PTHREAD_COND_INITIALIZER,
	  .capacity = RING};

static void ring_put(int v)
{
	pthread_mutex_lock(&ring.lock);
	while (ring.count == ring.capacity)
		pthread_cond_wait(&ring.nonfull, &ring.lock);
	ring.buf[(ring.head + ring.count++) % RING] = v;
	pthread_cond_signal(&ring.nonempty);
	pthread_mutex_unlock(&ring.lock);
}

static int ring_get(void)
{
	int v;

	pthread_mutex_lock(&ring.lock);
	while (ring.count == 0)
		pthread_cond_wait(&ring.nonempty, &ring.lock);
	v = ring.buf[ring.head];
	ring.head = (ring.head + 1) % RING;
	ring.count--;
	pthread_cond_signal(&ring.nonfull);
	pthread_mutex_unlock(&ring.lock);
	return v;
}

static double ring_0(void)
{
	double t0 = wall_ns();

	for (long i = 0; i < iter; i++) {
		ring_put((int)i);
		check("ring order", ring_get() == (int)i);
	}
	return (wall_ns() - t0) / iter;
}

static MSG_Q_ID q0, q1;

static double msgq_0(void)
{
	double t0 = wall_ns();
	int v;

	for (long i = 0; i < iter; i++) {
		v = (int)i;
		check("msgQSend", msgQSend(q0, (char *)&v, sizeof(v), NO_WAIT,
					   MSG_PRI_NORMAL) == OK);
		check("msgQReceive", msgQReceive(q0, (char *)&v, sizeof(v),
						 NO_WAIT) == sizeof(v) &&
					 v == (int)i);
	}
	return (wall_ns() - t0) / iter;
}

/* msgq-1: the receiver task takes each message as it is sent. */
static volatile long received;

static int msgq_receiver(long arg)
{
	int v;

	(void)arg;
	for (;;) {
		if (msgQReceive(q1, (char *)&v, sizeof(v), WAIT_FOREVER) !=
		    sizeof(v))
			return 0;
		received++;
	}
	return 0;
}

static double msgq_1(void)
{
	double t0 = wall_ns();
	long before = received;

	for (long i = 0; i < iter; i++) {
		int v = (int)i;

		check("msgQSend", msgQSend(q1, (char *)&v, sizeof(v),
					   WAIT_FOREVER, MSG_PRI_NORMAL) == OK);
	}
	check("msgq-1 delivery", received - before == iter);
	return (wall_ns() - t0) / iter;
}

static void pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *ring_consumer(void *arg)
{
	long n = (long)arg;

	pin_self(0);
	for (long i = 0; i < n; i++)
		if (ring_get() != (int)i)
			exit(1);
	return NULL;
}

static void *ring_producer(void *arg)
{
	double *out = arg;
	pthread_t consumer;
	double t0;

	pin_self(0);
	pthread_create(&consumer, NULL, ring_consumer, (void *)iter);
	t0 = wall_ns();
	for (long i = 0; i < iter; i++)
		ring_put((int)i);
	pthread_join(consumer, NULL);
	*out = (wall_ns() - t0) / iter;
	return NULL;
}

/* With room for one message, the producer waits for the consumer to
 * take each one: a switch per message, as msgq-1. */
static double ring_1(void)
{
	pthread_t producer;
	double ns;

	ring.capacity = 1;
	pthread_create(&producer, NULL, ring_producer, &ns);
	pthread_join(producer, NULL);
	ring.capacity = RING;
	return ns;
}

/* stream: MESSAGES sequence numbers, each checked by the consumer. */
static MSG_Q_ID stream_q;
static SEM_ID stream_done;
static long stream_count, stream_errors;

static void to_cpu(int cpu)
{
	struct nk_instance *nk = fusion_runtime_peek();

	if (cpu < nk_instance_nr_cpus(nk))
		nk_thread_set_cpu(nk_thread_self(nk), cpu);
}

static int stream_consumer(long arg)
{
	unsigned long v;

	to_cpu((int)arg);
	for (long i = 0; i < stream_count; i++)
		if (msgQReceive(stream_q, (char *)&v, sizeof(v),
				WAIT_FOREVER) != sizeof(v) ||
		    v != (unsigned long)i)
			stream_errors++;
	semGive(stream_done);
	return 0;
}

static int stream_producer(long arg)
{
	(void)arg;
	for (unsigned long i = 0; i < (unsigned long)stream_count; i++)
		if (msgQSend(stream_q, (char *)&i, sizeof(i), WAIT_FOREVER,
			     MSG_PRI_NORMAL) != OK)
			stream_errors++;
	return 0;
}

int main(int argc, char **argv)
{
	double vx[ROUNDS], al[ROUNDS], m0[ROUNDS], r0[ROUNDS], m1[ROUNDS],
	    r1[ROUNDS];
	struct nk_instance *nk;
	RT_TASK peer;
	double t0;

	iter = argc > 1 ? atol(argv[1]) : 100000;
	stream_count = argc > 2 ? atol(argv[2]) : 1000000;
	check("runtime", fusion_runtime(&nk) == 0);
	vx_ping = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	vx_pong = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	check("taskSpawn", taskSpawn("vxpeer", 1, 0, 0, (FUNCPTR)vx_peer, 0, 0,
				     0, 0, 0, 0, 0, 0, 0, 0) != ERROR);
	check("rt_sem_create",
	      rt_sem_create(&al_ping, NULL, 0, S_FIFO) == 0 &&
		  rt_sem_create(&al_pong, NULL, 0, S_FIFO) == 0);
	check("rt_task_spawn",
	      rt_task_spawn(&peer, "alpeer", 0, 99, 0, al_peer, NULL) == 0);
	q0 = msgQCreate(16, sizeof(int), MSG_Q_FIFO);
	q1 = msgQCreate(16, sizeof(int), MSG_Q_FIFO);
	check("taskSpawn",
	      taskSpawn("receiver", 1, 0, 0, (FUNCPTR)msgq_receiver, 0, 0, 0, 0,
			0, 0, 0, 0, 0, 0) != ERROR);
	for (int r = 0; r < ROUNDS; r++) {
		vx[r] = vx_pingpong();
		al[r] = al_pingpong();
		m0[r] = msgq_0();
		r0[r] = ring_0();
		m1[r] = msgq_1();
		r1[r] = ring_1();
	}
	printf("backend %s, %d RT CPU(s), %ld iterations, median of %d "
	       "alternated rounds\n",
	       nk_instance_backend(nk), nk_instance_nr_cpus(nk), iter, ROUNDS);
	printf("ping-pong  ns/switch  vxworks %8.1f  alchemy %8.1f  ratio "
	       "%.2f\n",
	       median(vx), median(al), median(vx) / median(al));
	printf("msgq-0     ns/msg     vxworks %8.1f  pthread %8.1f  ratio "
	       "%.2f\n",
	       median(m0), median(r0), median(m0) / median(r0));
	printf("msgq-1     ns/msg     vxworks %8.1f  pthread %8.1f  ratio "
	       "%.2f\n",
	       median(m1), median(r1), median(m1) / median(r1));

	stream_q = msgQCreate(16, sizeof(unsigned long), MSG_Q_FIFO);
	stream_done = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	t0 = wall_ns();
	check("taskSpawn",
	      taskSpawn("consumer", 20, 0, 0, (FUNCPTR)stream_consumer, 1, 0, 0,
			0, 0, 0, 0, 0, 0, 0) != ERROR);
	check("taskSpawn",
	      taskSpawn("producer", 30, 0, 0, (FUNCPTR)stream_producer, 0, 0, 0,
			0, 0, 0, 0, 0, 0, 0) != ERROR);
	check("semTake", semTake(stream_done, WAIT_FOREVER) == OK);
	printf("stream     %ld messages, %ld out of order or lost, %.1f "
	       "ns/msg\n",
	       stream_count, stream_errors, (wall_ns() - t0) / stream_count);
	return stream_errors ? 1 : 0;
}
