/* SPDX-License-Identifier: MIT */
/*
 * Thread migration on the live backend: after nk_thread_set_cpu, the
 * thread's OS thread runs on the Linux CPU of its new RT CPU
 * (sched_getcpu), whether it moved itself, was moved while asleep or
 * while relaxed, or is main.  Skipped (exit 77) when fewer than two CPUs are
 * usable.
 */
#include "harness.h"
#include "support/two_cpus.h"

#include <fusion/fusion.h>

#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#define MS (1000000LL)
#define SAFETY_NS (10 * 1000000000LL)

static struct nk_instance *nk;
static struct nk_sem moved;
static int linux_cpu[2];
static int seen[3];

/* The first two usable Linux CPUs are RT CPUs 0 and 1. */
static void boot(void)
{
	struct nk_instance_attr attr = {.nr_cpus = 2, .main_priority = 10};

	two_cpus_select(linux_cpu);
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_STR(nk_instance_backend(nk), "live");
	CHECK_EQ(nk_sem_init(nk, &moved, "moved", 0, 0, NK_SYNCH_FIFO), 0);
}

static void halt(void)
{
	CHECK_EQ(nk_sem_destroy(&moved), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static void body(void *arg)
{
	struct nk_thread *self = nk_thread_self(nk);

	(void)arg;
	seen[0] = sched_getcpu();
	CHECK_EQ(nk_thread_set_cpu(self, 1), 0);
	seen[1] = sched_getcpu();
	CHECK_EQ(nk_sem_give(&moved), 0);
	/* main moves us back to RT CPU 0, now or while we sleep. */
	CHECK_EQ(nk_thread_sleep(nk, 20 * MS, NK_RELATIVE), 0);
	seen[2] = sched_getcpu();
}

TEST(thread_follows_its_cpu)
{
	struct nk_thread_attr attr = {.name = "mover",
				      .priority = 50,
				      .cpu = 0,
				      .flags = NK_THREAD_JOINABLE};
	struct nk_thread *t;

	boot();
	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	/* It preempts main, and gives cpu0 back as it leaves it. */
	CHECK_EQ(nk_thread_start(t, body, NULL), 0);
	CHECK_EQ(nk_sem_take(&moved, SAFETY_NS, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(nk_thread_set_cpu(t, 0), 0);
	CHECK_EQ(nk_thread_join(t), 0);
	CHECK_EQ(seen[0], linux_cpu[0]);
	CHECK_EQ(seen[1], linux_cpu[1]);
	CHECK_EQ(seen[2], linux_cpu[0]);
	halt();
}

TEST(main_moves_itself)
{
	struct nk_thread *self;

	boot();
	self = nk_thread_self(nk);
	CHECK_EQ(sched_getcpu(), linux_cpu[0]);
	CHECK_EQ(nk_thread_set_cpu(self, 1), 0);
	CHECK_EQ(nk_thread_cpu(self), 1);
	CHECK_EQ(sched_getcpu(), linux_cpu[1]);
	CHECK_EQ(nk_thread_set_cpu(self, 0), 0);
	CHECK_EQ(sched_getcpu(), linux_cpu[0]);
	CHECK_EQ(nk_thread_set_cpu(self, 2), -EINVAL);
	halt();
}

static struct nk_thread *relaxed_thread;
/* Linux semaphores: the relaxed thread waits under Linux, not spinning
 * at its real-time priority over main. */
static sem_t relaxed, let_go;

/* Relaxed (plain Linux code) while main moves it, then back in. */
static void body_relaxed(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_thread_relax(nk), 0);
	CHECK_EQ(sem_post(&relaxed), 0);
	while (sem_wait(&let_go) != 0)
		;
	seen[0] = sched_getcpu();
	/* Entering the nucleus hardens it, on its new RT CPU. */
	CHECK_EQ(nk_thread_harden(nk), 0);
	seen[1] = nk_thread_cpu(nk_thread_self(nk));
	seen[2] = sched_getcpu();
}

TEST(relaxed_thread_moves)
{
	struct nk_thread_attr attr = {.name = "relaxed",
				      .priority = 50,
				      .cpu = 0,
				      .flags = NK_THREAD_JOINABLE};

	boot();
	CHECK_EQ(sem_init(&relaxed, 0, 0), 0);
	CHECK_EQ(sem_init(&let_go, 0, 0), 0);
	CHECK_EQ(nk_thread_create(nk, &attr, &relaxed_thread), 0);
	CHECK_EQ(nk_thread_start(relaxed_thread, body_relaxed, NULL), 0);
	while (sem_wait(&relaxed) != 0)
		;
	CHECK(nk_thread_state(relaxed_thread) & NK_THREAD_RELAXED);
	CHECK_EQ(nk_thread_set_cpu(relaxed_thread, 1), 0);
	CHECK_EQ(sem_post(&let_go), 0);
	CHECK_EQ(nk_thread_join(relaxed_thread), 0);
	sem_destroy(&relaxed);
	sem_destroy(&let_go);
	CHECK_EQ(seen[0], linux_cpu[1]);
	CHECK_EQ(seen[1], 1);
	CHECK_EQ(seen[2], linux_cpu[1]);
	halt();
}

TESTS(T(thread_follows_its_cpu), T(main_moves_itself), T(relaxed_thread_moves));
