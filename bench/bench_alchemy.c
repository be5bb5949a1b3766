/* SPDX-License-Identifier: MIT */
/*
 * Alchemy skin cost per operation on the sim backend, the skin's share
 * on top of bench_nucleus (same conventions: bench_op_<mode> is what
 * callgrind counts, one RESULT line at the end).
 *
 *   FUSION_BACKEND=sim bench_alchemy MODE ITER
 *
 *   sem       rt_sem_v with nobody waiting, then rt_sem_p (count > 0)
 *   sem-bad   rt_sem_v on a deleted semaphore (the refusal path)
 */
#include <alchemy/sem.h>
#include <alchemy/task.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_OP __attribute__((noinline, noclone))

static void check(const char *what, int ret)
{
	if (ret != 0) {
		fprintf(stderr, "bench_alchemy: %s: %d (%s)\n", what, ret,
			strerror(-ret));
		exit(1);
	}
}

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static BENCH_OP void bench_op_sem(RT_SEM *sem, long iter)
{
	for (long i = 0; i < iter; i++) {
		check("rt_sem_v", rt_sem_v(sem));
		check("rt_sem_p", rt_sem_p(sem, TM_INFINITE));
	}
}

static BENCH_OP void bench_op_sem_bad(RT_SEM *sem, long iter)
{
	for (long i = 0; i < iter; i++)
		if (rt_sem_v(sem) != -EINVAL)
			check("rt_sem_v (deleted)", -1);
}

int main(int argc, char **argv)
{
	RT_SEM sem;
	double t0;
	long iter;
	bool bad;

	if (argc != 3 ||
	    (strcmp(argv[1], "sem") && strcmp(argv[1], "sem-bad"))) {
		fprintf(stderr, "usage: %s sem|sem-bad ITER\n", argv[0]);
		return 2;
	}
	iter = atol(argv[2]);
	bad = strcmp(argv[1], "sem-bad") == 0;
	check("rt_sem_create", rt_sem_create(&sem, "bench", 0, S_FIFO));
	if (bad)
		check("rt_sem_delete", rt_sem_delete(&sem));
	t0 = wall_ns();
	if (bad)
		bench_op_sem_bad(&sem, iter);
	else
		bench_op_sem(&sem, iter);
	printf("RESULT %s ops=%ld wall_ns_per_op=%.1f\n", argv[1], iter,
	       (wall_ns() - t0) / iter);
	if (!bad)
		check("rt_sem_delete", rt_sem_delete(&sem));
	return 0;
}
