/* SPDX-License-Identifier: MIT */
/*
 * nk_instance_status() and nk_instance_objects() on sim, where every
 * figure is exact: states and what each thread waits for, priorities
 * under inheritance, switches, CPU time, the time the CPU was left to
 * Linux, the objects a skin describes; and bad input.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <errno.h>
#include <string.h>

#define MS 1000000

static struct nk_instance *nk;
static struct nk_mutex lock;
static struct nk_thread *lo;

/*
 * A skin with two objects: "lock" as a mutex (owned by lo, hi waiting),
 * and an anonymous queue whose class name is too long for the field,
 * with hi counted as waiting for room.
 */
static void probe_objects(struct nk_instance *in, void *state,
			  void (*emit)(void *ctx,
				       const struct nk_object_info *info),
			  void *ctx)
{
	struct nk_object_info mutex = {.cls = "mutex",
				       .name = "lock",
				       .count = -1,
				       .owner = lo,
				       .waiters = &lock.synch};
	struct nk_object_info queue = {.cls = "queue-with-a-long-class",
				       .name = NULL,
				       .count = 5,
				       .capacity = 8,
				       .senders = &lock.synch};

	(void)in;
	(void)state;
	emit(ctx, &mutex);
	emit(ctx, &queue);
}

static const struct nk_personality probe = {.name = "probe",
					    .objects = probe_objects};

/* Takes lock and sleeps 10 ms holding it. */
static void lo_body(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_mutex_lock(&lock, NK_INFINITE, NK_RELATIVE), 0);
	CHECK(nk_thread_sleep(nk, 10 * MS, NK_RELATIVE) >= 0);
	CHECK_EQ(nk_mutex_unlock(&lock), 0);
}

/* Runs 2 ms, then waits for lock: its owner, lo, inherits its priority. */
static void hi_body(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_consume(nk, 2 * MS), 0);
	CHECK_EQ(nk_mutex_lock(&lock, NK_INFINITE, NK_RELATIVE), 0);
	CHECK_EQ(nk_mutex_unlock(&lock), 0);
}

static struct nk_thread *spawn(const char *name, int prio, nk_thread_fn fn)
{
	struct nk_thread_attr attr = {.name = name, .priority = prio};
	struct nk_thread *t;

	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK_EQ(nk_thread_start(t, fn, NULL), 0);
	return t;
}

static const struct nk_status_thread *find(const struct nk_status_thread *t,
					   unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return &t[i];
	CHECK(!"thread listed");
	return t;
}

/* The probe's objects, as the snapshot copies them. */
static void check_objects(void)
{
	struct nk_status_object objects[3];
	unsigned int total = 0;

	CHECK_EQ(nk_instance_objects(nk, objects, 3, &total), 0);
	CHECK_EQ(total, 0); /* no skin yet */
	CHECK_EQ(nk_personality_register(nk, &probe, NULL), 0);
	memset(objects, 0x5a, sizeof(objects));
	CHECK_EQ(nk_instance_objects(nk, objects, 3, &total), 0);
	CHECK_EQ(total, 2);
	CHECK_STR(objects[0].skin, "probe");
	CHECK_STR(objects[0].cls, "mutex");
	CHECK_STR(objects[0].name, "lock");
	CHECK_EQ(objects[0].count, -1);
	CHECK_EQ(objects[0].capacity, 0);
	CHECK_STR(objects[0].owner, "lo");
	CHECK_EQ(objects[0].waiters, 1);
	CHECK_EQ(objects[0].senders, 0);
	CHECK_STR(objects[1].cls, "queue-with-a-lo");
	CHECK_STR(objects[1].name, "");
	CHECK_EQ(objects[1].count, 5);
	CHECK_EQ(objects[1].capacity, 8);
	CHECK_STR(objects[1].owner, "");
	CHECK_EQ(objects[1].waiters, 0);
	CHECK_EQ(objects[1].senders, 1);
	/* The third slot is left as it was. */
	CHECK_EQ(objects[2].count, (long)0x5a5a5a5a5a5a5a5aL);
	/* Fewer slots than objects; counting only. */
	memset(objects, 0, sizeof(objects));
	CHECK_EQ(nk_instance_objects(nk, objects, 1, &total), 0);
	CHECK_EQ(total, 2);
	CHECK_STR(objects[0].name, "lock");
	CHECK_STR(objects[1].cls, "");
	CHECK_EQ(nk_instance_objects(nk, NULL, 0, &total), 0);
	CHECK_EQ(total, 2);
}

TEST(snapshot)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 50};
	struct nk_status_thread threads[8];
	const struct nk_status_thread *t;
	struct nk_status st;

	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_mutex_init(nk, &lock, "lock", NK_SYNCH_PI, 0), 0);
	/* lo runs while main sleeps 1 ms (0-0: it sleeps at once, the CPU
	 * idles until 1 ms); hi runs from 1 ms to 3 ms and blocks. */
	lo = spawn("lo", 20, lo_body);
	CHECK(nk_thread_sleep(nk, 1 * MS, NK_RELATIVE) >= 0);
	spawn("hi", 60, hi_body);
	CHECK_EQ(nk_now(nk), 3 * MS);
	CHECK_EQ(nk_instance_status(nk, &st, threads, 8, NULL, 0), 0);
	CHECK_EQ(st.date, 3 * MS);
	CHECK_EQ(st.nr_cpus, 1);
	CHECK_EQ(st.nr_threads, 3);
	CHECK_EQ(st.idle_time[0], 1 * MS);
	t = find(threads, 3, "main");
	CHECK_STR(t->state, "running");
	CHECK_EQ(t->base_prio, 50);
	CHECK_EQ(t->switches, 3);
	CHECK_EQ(t->exec_time, 0);
	CHECK_STR(t->waits, "");
	t = find(threads, 3, "hi");
	CHECK_STR(t->state, "waiting");
	CHECK_STR(t->waits, "lock");
	CHECK_EQ(t->switches, 1);
	CHECK_EQ(t->exec_time, 2 * MS);
	CHECK_EQ(t->prio, 60);
	t = find(threads, 3, "lo");
	CHECK_STR(t->state, "sleeping");
	CHECK_EQ(t->base_prio, 20);
	CHECK_EQ(t->prio, 60); /* inherited from hi */
	CHECK_EQ(t->switches, 1);
	CHECK_EQ(t->exec_time, 0);
	CHECK_EQ(t->cpu, 0);
	CHECK_STR(t->skins, "");
	CHECK(!t->relaxed);
	/* Counts only; then fewer slots than threads. */
	CHECK_EQ(nk_instance_status(nk, &st, NULL, 0, NULL, 0), 0);
	CHECK_EQ(st.nr_threads, 3);
	memset(threads, 0, sizeof(threads));
	CHECK_EQ(nk_instance_status(nk, &st, threads, 1, NULL, 0), 0);
	CHECK_EQ(st.nr_threads, 3);
	CHECK_STR(threads[0].name, "main");
	CHECK_STR(threads[1].name, "");
	check_objects();
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(bad_input)
{
	struct nk_instance_attr attr = {.backend = "sim"};
	struct nk_status_thread t;
	struct nk_status_object object;
	struct nk_status_irq irq;
	struct nk_status st;
	unsigned int total;

	CHECK_EQ(nk_instance_status(NULL, &st, NULL, 0, NULL, 0), -EINVAL);
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_instance_status(nk, NULL, &t, 1, &irq, 1), -EINVAL);
	CHECK_EQ(nk_instance_status(nk, &st, NULL, 1, &irq, 1), -EINVAL);
	CHECK_EQ(nk_instance_status(nk, &st, &t, 1, NULL, 1), -EINVAL);
	CHECK_EQ(nk_instance_status(nk, &st, &t, 1, &irq, 1), 0);
	CHECK_EQ(nk_instance_objects(NULL, &object, 1, &total), -EINVAL);
	CHECK_EQ(nk_instance_objects(nk, &object, 1, NULL), -EINVAL);
	CHECK_EQ(nk_instance_objects(nk, NULL, 1, &total), -EINVAL);
	CHECK_EQ(nk_instance_objects(nk, &object, 1, &total), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TESTS(T(snapshot), T(bad_input));
