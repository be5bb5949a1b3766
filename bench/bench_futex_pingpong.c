/* SPDX-License-Identifier: MIT */
/*
 * The floor for a context switch on one CPU: two threads pinned to the
 * same CPU hand a token back and forth through two futex words, one
 * wake and one wait per switch - exactly the system calls a nucleus
 * switch is allowed.  Run at the same SCHED_FIFO priorities as
 * `fusion switch` (shadows 50 and 60 map to FIFO 20 and 23).  Between
 * two processes ("processes"), the futex words are shared ones; with
 * PAGES, each side reads one byte of each of PAGES pages of its own
 * after each wake-up: what an address-space switch costs a program that
 * touches that many pages a switch (the TLB's refill, where the CPU
 * keeps no entries across address spaces).
 *
 * usage: bench_futex_pingpong [ROUNDS] [CPU] [threads|processes] [PAGES]
 */
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The two words: in a shared mapping for processes. */
static _Atomic uint32_t *ping, *pong;
static int futex_wait_op = FUTEX_WAIT_PRIVATE;
static int futex_wake_op = FUTEX_WAKE_PRIVATE;
static long rounds = 200000;
static int cpu = -1;
/* PAGES pages, one byte read from each after a wake-up. */
static const volatile unsigned char *pages;
static long nr_pages;

static void touch_pages(void)
{
	for (long i = 0; i < nr_pages; i++)
		(void)pages[i * 4096];
}

static void wait_word(_Atomic uint32_t *word)
{
	while (atomic_exchange(word, 0) == 0)
		syscall(SYS_futex, word, futex_wait_op, 0, NULL, NULL, 0);
}

static void post_word(_Atomic uint32_t *word)
{
	atomic_store(word, 1);
	syscall(SYS_futex, word, futex_wake_op, 1, NULL, NULL, 0);
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
		wait_word(ping);
		touch_pages();
		post_word(pong);
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
	const char *mode = argc > 3 ? argv[3] : "threads";
	bool processes = strcmp(mode, "processes") == 0;
	_Atomic uint32_t *words;
	pthread_t thread;
	pid_t child = 0;
	double t0, t1;

	if (argc > 1)
		rounds = strtol(argv[1], NULL, 10);
	cpu = argc > 2 ? atoi(argv[2]) : (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	nr_pages = argc > 4 ? strtol(argv[4], NULL, 10) : 0;
	if (rounds <= 0 || cpu < 0 || nr_pages < 0 || nr_pages > 65536 ||
	    (!processes && strcmp(mode, "threads") != 0)) {
		fprintf(stderr, "usage: bench_futex_pingpong [ROUNDS] [CPU] "
				"[threads|processes] [PAGES]\n");
		return 2;
	}
	/* Each side its own copy once forked (private), every page mapped. */
	pages = mmap(NULL, 4096 * (size_t)(nr_pages + 1), PROT_READ,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (pages == MAP_FAILED) {
		perror("bench_futex_pingpong: mmap");
		return 1;
	}
	words = mmap(NULL, 2 * sizeof(*words), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (words == MAP_FAILED) {
		perror("bench_futex_pingpong: mmap");
		return 1;
	}
	ping = &words[0];
	pong = &words[1];
	if (processes) {
		futex_wait_op = FUTEX_WAIT;
		futex_wake_op = FUTEX_WAKE;
		child = fork();
		if (child < 0) {
			perror("bench_futex_pingpong: fork");
			return 1;
		}
		if (child == 0) {
			peer(NULL);
			_exit(0);
		}
	} else {
		pthread_create(&thread, NULL, peer, NULL);
	}
	setup_self(20);
	t0 = now_ns();
	for (long i = 0; i < rounds; i++) {
		post_word(ping);
		wait_word(pong);
		touch_pages();
	}
	t1 = now_ns();
	if (processes)
		waitpid(child, NULL, 0);
	else
		pthread_join(thread, NULL);
	printf("%.1f ns per switch\n", (t1 - t0) / (2.0 * rounds));
	return 0;
}
