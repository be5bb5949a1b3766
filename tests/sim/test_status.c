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
#include <stdio.h>
#include <stdlib.h>
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
static bool probe_objects(struct nk_instance *in, void *state,
			  struct nk_objects_cursor *at, uint32_t *budget,
			  bool (*emit)(void *ctx,
				       const struct nk_object_info *info),
			  void *ctx)
{
	const struct nk_object_info objects[] = {
	    {.cls = "mutex",
	     .name = "lock",
	     .count = -1,
	     .owner = lo,
	     .waiters = &lock.synch},
	    {.cls = "queue-with-a-long-class",
	     .name = NULL,
	     .count = 5,
	     .capacity = 8,
	     .senders = &lock.synch},
	};

	(void)in;
	(void)state;
	(void)budget;
	while (at->slot < 2)
		if (!emit(ctx, &objects[at->slot++]))
			return false;
	return true;
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

/* More threads than one section of the walk copies: all of them, in
 * creation order, and what each is. */
TEST(many_threads)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 50};
	struct nk_status_thread threads[64];
	struct nk_thread *t[40];
	struct nk_status st;
	char name[16];

	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	for (int i = 0; i < 40; i++) {
		struct nk_thread_attr ta = {.name = name, .priority = 1 + i};

		snprintf(name, sizeof(name), "t%d", i);
		CHECK_EQ(nk_thread_create(nk, &ta, &t[i]), 0);
	}
	CHECK_EQ(nk_thread_delete(t[5]), 0);
	CHECK_EQ(nk_instance_status(nk, &st, threads, 64, NULL, 0), 0);
	CHECK_EQ(st.nr_threads, 40);
	CHECK_STR(threads[0].name, "main");
	for (int i = 1, k = 0; i < 40; i++, k++) {
		k += k == 5;
		snprintf(name, sizeof(name), "t%d", k);
		CHECK_STR(threads[i].name, name);
		CHECK_STR(threads[i].state, "dormant");
		CHECK_STR(threads[i].waits, "start");
		CHECK_EQ(threads[i].base_prio, 1 + k);
	}
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/*
 * The walk lets the lock go between its steps, and a more urgent thread
 * may run then: one that deletes a thread and makes another never makes
 * it list a thread twice, skip one that lived throughout, or follow the
 * one deleted (it starts again when the list changed).  The deletion
 * is tried at dates 100 ns apart, each call taking 1 us of virtual
 * time: one falls before the step that would read the thread deleted.
 */
#define STATIC 46 /* with main and churner before them, c is the 49th:
		   * the fourth step's first (16 a step) */

static struct nk_sem go, done;
static struct nk_thread *c;
static nk_time_t act_at;

static struct nk_thread *dormant(const char *name, int prio)
{
	struct nk_thread_attr attr = {.name = name, .priority = prio};
	struct nk_thread *t;

	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	return t;
}

/* At each act_at: c deleted, a new c made (last again). */
static void churner(void *arg)
{
	(void)arg;
	while (nk_sem_take(&go, NK_INFINITE, NK_RELATIVE) == 0) {
		CHECK(nk_thread_sleep(nk, act_at, NK_ABSOLUTE) >= 0);
		CHECK_EQ(nk_thread_delete(c), 0);
		c = dormant("c", 1);
		CHECK_EQ(nk_sem_give(&done), 0);
	}
}

/* Every thread alive throughout listed once, c once. */
static void check_snapshot(const struct nk_status_thread *t, unsigned int n)
{
	int seen[STATIC] = {0}, mains = 0, churners = 0, cs = 0;

	for (unsigned int i = 0; i < n; i++) {
		int k;

		if (strcmp(t[i].name, "main") == 0)
			mains++;
		else if (strcmp(t[i].name, "churner") == 0)
			churners++;
		else if (strcmp(t[i].name, "c") == 0)
			cs++;
		else if (sscanf(t[i].name, "t%d", &k) == 1 && k >= 0 &&
			 k < STATIC)
			seen[k]++;
		else
			CHECK(!"a thread of this test");
	}
	CHECK_EQ(mains, 1);
	CHECK_EQ(churners, 1);
	CHECK_EQ(cs, 1);
	for (int k = 0; k < STATIC; k++)
		CHECK_EQ(seen[k], 1);
}

TEST(walk_under_churn)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 10};
	struct nk_status_thread threads[STATIC + 8];
	struct nk_thread *churn;
	struct nk_status st;
	char name[16];

	CHECK_EQ(setenv("FUSION_SIM_COST", "1us", 1), 0);
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(unsetenv("FUSION_SIM_COST"), 0);
	CHECK_EQ(nk_sem_init(nk, &go, "go", 0, 1, 0), 0);
	CHECK_EQ(nk_sem_init(nk, &done, "done", 0, 1, 0), 0);
	for (int i = 0; i < STATIC; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		dormant(name, 1);
	}
	churn = dormant("churner", 60);
	c = dormant("c", 1);
	CHECK_EQ(nk_thread_start(churn, churner, NULL), 0);
	for (int k = 0; k < 80; k++) {
		act_at = nk_now(nk) + 100 * k;
		CHECK_EQ(nk_sem_give(&go), 0);
		CHECK_EQ(nk_instance_status(nk, &st, threads, STATIC + 8, NULL,
					    0),
			 0);
		CHECK(st.nr_threads <= STATIC + 8);
		check_snapshot(threads, st.nr_threads);
		CHECK_EQ(nk_sem_take(&done, NK_INFINITE, NK_RELATIVE), 0);
	}
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

TESTS(T(snapshot), T(many_threads), T(walk_under_churn), T(bad_input));
