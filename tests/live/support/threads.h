/* SPDX-License-Identifier: MIT */
/*
 * Threads the live tests set up: nucleus threads, and the thread of a
 * competing real-time process, of no concern to the nucleus.
 */
#ifndef FUSION_TEST_THREADS_H
#define FUSION_TEST_THREADS_H

#include <pthread.h>

struct nk_instance;
struct nk_thread;

/* CLOCK_MONOTONIC in ns: give-up dates, and the load's loop. */
long long live_test_now(void);

/* Busy, making no system call, for @ns from now. */
void live_test_spin(long long ns);

/* A joinable thread of @nk, @name at @prio on RT CPU @cpu: created,
 * not started. */
struct nk_thread *live_test_thread(struct nk_instance *nk, const char *name,
				   int prio, int cpu);

/* A SCHED_FIFO @prio thread pinned to Linux CPU @linux_cpu, running
 * @fn(@arg), as another real-time process's would. */
pthread_t live_test_fifo_thread(int linux_cpu, int prio, void *(*fn)(void *),
				void *arg);

#endif
