/* SPDX-License-Identifier: MIT */
/*
 * Tasks on several RT CPUs: with FUSION_CPUS naming two Linux CPUs (the
 * first two this process may use, set before the runtime starts),
 * T_CPU(n) places a task on the RT CPU of Linux CPU n and
 * rt_task_set_affinity moves it, in any state; sets naming no RT CPU
 * are -EINVAL.  On live the task's OS thread runs on that Linux CPU.
 * Skipped (exit 77) with fewer than two usable CPUs among 0..7.
 */
#include "alchemy_test.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/* Linux CPUs of RT CPUs 0 and 1, and one that runs no RT CPU. */
static int lx[2], none = CPU_SETSIZE - 1;

struct seen {
	int rt_cpu;
	int linux_cpu; /* live only */
};

static void record(struct seen *s)
{
	s->rt_cpu = nk_thread_cpu(nk_thread_self(test_runtime()));
	s->linux_cpu = on_sim() ? -1 : sched_getcpu();
}

static void check_seen(const struct seen *s, int rt_cpu)
{
	CHECK_EQ(s->rt_cpu, rt_cpu);
	if (!on_sim())
		CHECK_EQ(s->linux_cpu, lx[rt_cpu]);
}

static cpu_set_t set_of(int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (a >= 0)
		CPU_SET(a, &set);
	if (b >= 0)
		CPU_SET(b, &set);
	return set;
}

/* Before the first Alchemy call: the runtime reads FUSION_CPUS then. */
TEST(two_rt_cpus)
{
	test_two_rt_cpus(lx);
	for (int cpu = 0; cpu < 8; cpu++)
		if (cpu != lx[0] && cpu != lx[1])
			none = cpu;
	CHECK_EQ(fusion_runtime_cpu(lx[0]), 0);
	CHECK_EQ(fusion_runtime_cpu(lx[1]), 1);
	CHECK_EQ(fusion_runtime_cpu(none), -EINVAL);
}

static void body_record(void *arg)
{
	record(arg);
}

TEST(t_cpu_places_a_task)
{
	struct seen s = {-1, -1};
	RT_TASK t;

	CHECK_EQ(rt_task_create(&t, "t", 0, 50, T_JOINABLE | T_CPU(lx[1])), 0);
	CHECK_EQ(rt_task_start(&t, body_record, &s), 0);
	CHECK_EQ(rt_task_join(&t), 0);
	check_seen(&s, 1);
	/* A set of both: the lowest Linux CPU's RT CPU. */
	CHECK_EQ(rt_task_create(&t, "t", 0, 50,
				T_JOINABLE | T_CPU(lx[0]) | T_CPU(lx[1])),
		 0);
	CHECK_EQ(rt_task_start(&t, body_record, &s), 0);
	CHECK_EQ(rt_task_join(&t), 0);
	check_seen(&s, 0);
}

static struct seen moved[4];
static struct nk_sem settled;

/* Moved while dormant to RT CPU 1, it moves itself back, then stays. */
static void body_mover(void *arg)
{
	cpu_set_t to0 = set_of(lx[0], -1), both = set_of(lx[0], lx[1]);

	(void)arg;
	record(&moved[0]);
	CHECK_EQ(rt_task_set_affinity(NULL, &to0), 0);
	record(&moved[1]);
	CHECK_EQ(rt_task_set_affinity(NULL, &both), 0);
	record(&moved[2]);
	CHECK_EQ(nk_sem_give(&settled), 0);
	/* main moves us to RT CPU 1, now or while we sleep. */
	CHECK_EQ(rt_task_sleep(2 * MS), 0);
	record(&moved[3]);
}

TEST(set_affinity_moves_a_task)
{
	cpu_set_t to1 = set_of(lx[1], -1);
	RT_TASK t;

	CHECK_EQ(nk_sem_init(test_runtime(), &settled, "settled", 0, 0,
			     NK_SYNCH_FIFO),
		 0);
	CHECK_EQ(rt_task_create(&t, "m", 0, 50, T_JOINABLE | T_CPU(lx[0])), 0);
	CHECK_EQ(rt_task_set_affinity(&t, &to1), 0);
	CHECK_EQ(rt_task_start(&t, body_mover, NULL), 0);
	CHECK_EQ(nk_sem_take(&settled, NK_INFINITE, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(rt_task_set_affinity(&t, &to1), 0);
	CHECK_EQ(rt_task_join(&t), 0);
	CHECK_EQ(nk_sem_destroy(&settled), 0);
	check_seen(&moved[0], 1);
	check_seen(&moved[1], 0);
	check_seen(&moved[2], 0);
	check_seen(&moved[3], 1);
}

TEST(bad_sets)
{
	cpu_set_t empty = set_of(-1, -1), no_rt = set_of(none, -1);
	cpu_set_t mixed = set_of(none, lx[1]);
	struct seen s = {-1, -1};
	RT_TASK t;

	CHECK_EQ(rt_task_create(&t, "b", 0, 50, T_JOINABLE), 0);
	CHECK_EQ(rt_task_set_affinity(&t, &empty), -EINVAL);
	CHECK_EQ(rt_task_set_affinity(&t, &no_rt), -EINVAL);
	CHECK_EQ(rt_task_set_affinity(&t, NULL), -EINVAL);
	CHECK_EQ(rt_task_set_affinity(NULL, &empty), -EINVAL);
	/* CPUs that run no RT CPU are ignored beside one that does. */
	CHECK_EQ(rt_task_set_affinity(&t, &mixed), 0);
	CHECK_EQ(rt_task_start(&t, body_record, &s), 0);
	CHECK_EQ(rt_task_join(&t), 0);
	check_seen(&s, 1);
	/* Joined: the descriptor is stale. */
	CHECK_EQ(rt_task_set_affinity(&t, &mixed), -EINVAL);
	CHECK_EQ(rt_task_create(&t, "b", 0, 50, T_CPU(none)), -EINVAL);
}

TESTS(T(two_rt_cpus), T(t_cpu_places_a_task), T(set_affinity_moves_a_task),
      T(bad_sets));
