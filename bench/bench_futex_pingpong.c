/* SPDX-License-Identifier: MIT */
/*
 * The floor for a context switch on one CPU: two threads pinned to the
 * same CPU hand a token back and forth through two futex words, one
 * wake and one wait per switch - exactly the system calls a nucleus
 * switch is allowed.  Run at the same SCHED_FIFO priorities as
 * `fusion switch` (shadows 50 and 60 map to FIFO 20 and 23).
 *
 * usage: bench_futex_pingpong [ROUNDS] [CPU]
 */
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static _Atomic uint32_t ping, pong;
static long rounds = 200000;
static int cpu = -1;

static void wait_word(_Atomic uint32_t *word)
{
	while (atomic_exchange(word, 0) == 0)
		syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

static void post_word(_Atomic uint32_t *word)
{
	atomic_store(word, 1);
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void setup_self(int prio)
{
	struct sched_param param = {.sched_priority = prio};
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &param))
		fprintf(stderr, "bench_futex_pingpong: no SCHED_FIFO\n");
}

static void *peer(void *arg)
{
	(void)arg;
	setup_self(23);
	for (long i = 0; i < rounds; i++) {
		wait_word(&ping);
		post_word(&pong);
	}
	return NULL;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	pthread_t thread;
	double t0, t1;

	if (argc > 1)
		rounds = strtol(argv[1], NULL, 10);
	cpu = argc > 2 ? atoi(argv[2]) : (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	if (rounds <= 0 || cpu < 0) {
		fprintf(stderr, "usage: bench_futex_pingpong [ROUNDS] [CPU]\n");
		return 2;
	}
	setup_self(20);
	pthread_create(&thread, NULL, peer, NULL);
	t0 = now_ns();
	for (long i = 0; i < rounds; i++) {
		post_word(&ping);
		wait_word(&pong);
	}
	t1 = now_ns();
	pthread_join(thread, NULL);
	printf("%.1f ns per switch\n", (t1 - t0) / (2.0 * rounds));
	return 0;
}
