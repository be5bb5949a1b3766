/* SPDX-License-Identifier: MIT */
/*
 * What a status snapshot (fusion ps, fusion top) costs the instance it
 * reads: ns per nk_instance_status() with N dormant threads, min and
 * median of ROUNDS calls.  The walk lets the nucleus lock go every 16
 * threads, so the call with 16 threads (main and 15) is one section:
 * the longest the lock is held, whatever N.
 * usage: bench_status [ROUNDS]   (FUSION_BACKEND as for any program)
 */
#include "bench_clock.h"

#include <fusion/fusion.h>
#include <fusion/status.h>

#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 256

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const int counts[] = {1, 16, 64, 250};
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
		qsort(ns, (size_t)rounds, sizeof(*ns), by_value);
		printf("%7d  %7lld  %10lld\n", counts[c], (long long)ns[0],
		       (long long)ns[rounds / 2]);
	}
	free(ns);
	return nk_instance_destroy(nk) ? 1 : 0;
}
