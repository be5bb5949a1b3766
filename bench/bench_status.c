/* SPDX-License-Identifier: MIT */
/*
 * What a status snapshot (fusion ps, fusion top) costs the instance it
 * reads: ns per nk_instance_status() with N dormant threads, then per
 * nk_instance_objects() with N Alchemy semaphores, min and median of
 * ROUNDS calls.  Both walks let the nucleus lock go every 16 threads or
 * objects, so the call with 16 threads (main and 15) is one section:
 * the longest the lock is held, whatever N.
 * usage: bench_status [ROUNDS]   (FUSION_BACKEND as for any program)
 */
#include "bench_clock.h"

#include <alchemy/sem.h>
#include <fusion/fusion.h>
#include <fusion/status.h>

#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 256
#define MAX_OBJECTS 256

static const int counts[] = {1, 16, 64, 250};

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void report(int n, int64_t *ns, int rounds)
{
	qsort(ns, (size_t)rounds, sizeof(*ns), by_value);
	printf("%7d  %7lld  %10lld\n", n, (long long)ns[0],
	       (long long)ns[rounds / 2]);
}

/* N named semaphores of the runtime's Alchemy skin. */
static int objects_part(int64_t *ns, int rounds)
{
	static struct nk_status_object objects[MAX_OBJECTS];
	static RT_SEM sems[MAX_OBJECTS];
	struct nk_instance *nk;
	unsigned int total;
	char name[16];
	int have = 0;

	if (fusion_runtime(&nk)) {
		fprintf(stderr, "bench_status: no runtime\n");
		return 1;
	}
	printf("objects  min(ns)  median(ns)\n");
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		for (; have < counts[c]; have++) {
			snprintf(name, sizeof(name), "s%d", have);
			if (rt_sem_create(&sems[have], name, 0, S_PRIO)) {
				fprintf(stderr, "bench_status: sem %d\n", have);
				return 1;
			}
		}
		for (int r = 0; r < rounds; r++) {
			int64_t t0 = bench_mono_ns();

			(void)nk_instance_objects(nk, objects, MAX_OBJECTS,
						  &total);
			ns[r] = bench_mono_ns() - t0;
		}
		if (total != (unsigned int)counts[c]) {
			fprintf(stderr, "bench_status: %u objects listed\n",
				total);
			return 1;
		}
		report(counts[c], ns, rounds);
	}
	while (have > 0)
		(void)rt_sem_delete(&sems[--have]);
	return 0;
}

int main(int argc, char **argv)
{
	static struct nk_status_thread threads[MAX_THREADS];
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;
	struct nk_instance *nk;
	struct nk_status st;
	int64_t *ns;
	int have = 1; /* main */

	if (rounds < 1 || (ns = calloc((size_t)rounds, sizeof(*ns))) == NULL) {
		fprintf(stderr, "usage: bench_status [ROUNDS >= 1]\n");
		return 2;
	}
	if (nk_instance_create(&(struct nk_instance_attr){0}, &nk)) {
		fprintf(stderr, "bench_status: no instance\n");
		return 1;
	}
	printf("threads  min(ns)  median(ns)\n");
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		for (; have < counts[c]; have++) {
			struct nk_thread_attr attr = {.name = "t", .priority = 1};
			struct nk_thread *t;

			if (nk_thread_create(nk, &attr, &t)) {
				fprintf(stderr, "bench_status: thread %d\n", have);
				return 1;
			}
		}
		for (int r = 0; r < rounds; r++) {
			int64_t t0 = bench_mono_ns();

			(void)nk_instance_status(nk, &st, threads, MAX_THREADS,
						 NULL, 0);
			ns[r] = bench_mono_ns() - t0;
		}
		report(counts[c], ns, rounds);
	}
	if (nk_instance_destroy(nk) || objects_part(ns, rounds))
		return 1;
	free(ns);
	return 0;
}
