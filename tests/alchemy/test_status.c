/* SPDX-License-Identifier: MIT */
/*
 * What `fusion ps` shows of Alchemy objects (nk_instance_objects): each
 * object once, with its class, name, count and waiters, all of them
 * counted when fewer fit; and the walk, which lets the nucleus lock go
 * every 16 objects, still lists each object exactly once when a more
 * urgent task deletes and makes objects in its gaps.
 *
 * Every call costs 1 us of virtual time on sim (FUSION_SIM_COST), so
 * that the task acting at given dates lands between two of the walk's
 * sections.
 */
#include "alchemy_test.h"

#include <alchemy/sem.h>
#include <fusion/status.h>

#include <stdio.h>
#include <string.h>

#define STATIC 46 /* more than two steps of the walk */
#define CHURNS 80
#define MAX_OBJECTS 256

static struct nk_status_object objects[MAX_OBJECTS];
static RT_SEM sems[STATIC];

static struct nk_instance *runtime(void)
{
	static struct nk_instance *nk;

	if (nk == NULL) {
		CHECK_EQ(setenv("FUSION_SIM_COST", "1us", 1), 0);
		nk = test_runtime();
	}
	return nk;
}

static unsigned int snapshot(unsigned int max)
{
	unsigned int total = 0;

	CHECK_EQ(nk_instance_objects(runtime(), objects, max, &total), 0);
	return total;
}

static void create_statics(void)
{
	char name[16];

	for (int i = 0; i < STATIC; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		CHECK_EQ(rt_sem_create(&sems[i], name, (unsigned long)i, S_PRIO),
			 0);
	}
}

static void delete_statics(void)
{
	for (int i = 0; i < STATIC; i++)
		CHECK_EQ(rt_sem_delete(&sems[i]), 0);
}

/*
 * The semaphores of the snapshot: each static once; of the churned, for
 * j < @k b<j> once, for j > @k a<j> once, and one of a<k> and b<k>.
 */
static void check_sems(unsigned int n, int k)
{
	int seen[STATIC] = {0}, a[CHURNS] = {0}, b[CHURNS] = {0};

	CHECK(n <= MAX_OBJECTS);
	for (unsigned int i = 0; i < n; i++) {
		const struct nk_status_object *o = &objects[i];
		int j;

		if (strcmp(o->cls, "sem") != 0 || o->name[0] == '\0')
			continue; /* go and done are anonymous */
		CHECK_EQ(strcmp(o->skin, "alchemy"), 0);
		if (sscanf(o->name, "a%d", &j) == 1 && j >= 0 && j < CHURNS) {
			a[j]++;
		} else if (sscanf(o->name, "b%d", &j) == 1 && j >= 0 &&
			   j < CHURNS) {
			b[j]++;
		} else {
			CHECK(sscanf(o->name, "s%d", &j) == 1 && j >= 0 &&
			      j < STATIC);
			seen[j]++;
			CHECK_EQ(o->count, j);
		}
	}
	for (int j = 0; j < STATIC; j++)
		CHECK_EQ(seen[j], 1);
	for (int j = 0; j < CHURNS && k >= 0; j++) {
		if (j == k) {
			CHECK_EQ(a[j] + b[j], 1);
		} else {
			CHECK_EQ(a[j], j > k);
			CHECK_EQ(b[j], j < k);
		}
	}
}

static void waiter_body(void *arg)
{
	CHECK_EQ(rt_sem_p(arg, TM_INFINITE), 0);
}

/* Every object, its count and waiters; all counted when fewer fit. */
TEST(listed)
{
	unsigned int before, all;
	RT_TASK waiter;
	int found = 0;

	before = snapshot(MAX_OBJECTS);
	create_statics();
	CHECK_EQ(rt_task_spawn(&waiter, "waiter", 0, 10, T_JOINABLE,
			       waiter_body, &sems[0]),
		 0);
	all = snapshot(MAX_OBJECTS);
	CHECK_EQ(all, before + STATIC);
	check_sems(all, -1);
	for (unsigned int i = 0; i < all; i++) {
		if (strcmp(objects[i].name, "s0") == 0) {
			CHECK_EQ(objects[i].waiters, 1);
			found++;
		} else if (strcmp(objects[i].cls, "sem") == 0) {
			CHECK_EQ(objects[i].waiters, 0);
		}
	}
	CHECK_EQ(found, 1);
	/* Ten copied, every one counted. */
	memset(objects, 0, sizeof(objects));
	CHECK_EQ(snapshot(10), all);
	CHECK(objects[9].cls[0] != '\0');
	CHECK_EQ(objects[10].cls[0], '\0');
	CHECK_EQ(rt_sem_v(&sems[0]), 0);
	CHECK_EQ(rt_task_join(&waiter), 0);
	delete_statics();
	CHECK_EQ(snapshot(MAX_OBJECTS), before);
}

static RT_SEM go, done, olds[CHURNS], news[CHURNS];
static RTIME act_at;
static int churn;

/* At each act_at: a<churn> deleted, b<churn> made in its stead (in a
 * later registry slot). */
static void churner_body(void *arg)
{
	char name[16];

	(void)arg;
	while (rt_sem_p(&go, TM_INFINITE) == 0) {
		int ret = rt_task_sleep_until(act_at);

		CHECK(ret == 0 || ret == -ETIMEDOUT); /* a date passed */
		CHECK_EQ(rt_sem_delete(&olds[churn]), 0);
		snprintf(name, sizeof(name), "b%d", churn);
		CHECK_EQ(rt_sem_create(&news[churn], name, 0, S_PRIO), 0);
		CHECK_EQ(rt_sem_v(&done), 0);
	}
}

TEST(walk_under_churn)
{
	RT_TASK churner;
	char name[16];

	(void)runtime();
	/* The a's first: the one to go is in the walk's first step, the
	 * b made in its stead after every other object. */
	for (int k = 0; k < CHURNS; k++) {
		snprintf(name, sizeof(name), "a%d", k);
		CHECK_EQ(rt_sem_create(&olds[k], name, 0, S_PRIO), 0);
	}
	create_statics();
	CHECK_EQ(rt_sem_create(&go, NULL, 0, S_PRIO), 0);
	CHECK_EQ(rt_sem_create(&done, NULL, 0, S_PRIO), 0);
	CHECK_EQ(rt_task_spawn(&churner, "churner", 0, 60, T_JOINABLE,
			       churner_body, NULL),
		 0);
	for (churn = 0; churn < CHURNS; churn++) {
		/* From before the walk (which starts 5 us on) to after it. */
		act_at = rt_timer_read() + 4000 + 100 * (RTIME)churn;
		CHECK_EQ(rt_sem_v(&go), 0);
		check_sems(snapshot(MAX_OBJECTS), churn);
		CHECK_EQ(rt_sem_p(&done, TM_INFINITE), 0);
	}
	CHECK_EQ(rt_sem_delete(&go), 0);
	CHECK_EQ(rt_task_join(&churner), 0);
	CHECK_EQ(rt_sem_delete(&done), 0);
	for (int k = 0; k < CHURNS; k++)
		CHECK_EQ(rt_sem_delete(&news[k]), 0);
	delete_statics();
}

TESTS(T(listed), T(walk_under_churn));
