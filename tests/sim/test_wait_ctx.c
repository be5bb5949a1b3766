/* SPDX-License-Identifier: MIT */
/*
 * Wait contexts on a synch: waiters carry a request, a waker walks them
 * in queue order, reads and fills their requests and wakes the ones it
 * serves; a waiter that left (deleted, timed out) is never seen again.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <string.h>

#define MS 1000000LL

struct request {
	size_t size; /* what the waiter asks for */
	int granted; /* filled by the waker */
};

static struct nk_instance *nk;
static struct nk_synch synch;
static struct request requests[4];
static int results[4];

static void waiter(void *arg)
{
	long i = (long)arg;

	nk_lock(nk);
	results[i] = nk_synch_sleep_ctx(
	    &synch, &requests[i], sizeof(requests[i]), 10 * MS, NK_RELATIVE);
	nk_unlock(nk);
}

static struct nk_thread *spawn(const char *name, int prio, long i, size_t size)
{
	struct nk_thread_attr attr = {.name = name, .priority = prio};
	struct nk_thread *t;

	requests[i] = (struct request){.size = size};
	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK_EQ(nk_thread_start(t, waiter, (void *)i), 0);
	return t;
}

static void setup(void)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 99};

	memset(results, 0x55, sizeof(results));
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_synch_init(nk, &synch, "ctx", NK_SYNCH_PRIO, 0), 0);
}

/* Serve, in queue order, every waiter asking for at most @max. */
static void serve_up_to(size_t max, char *order, size_t len)
{
	struct nk_thread *t, *next;

	order[0] = '\0';
	nk_lock(nk);
	for (t = nk_synch_next_waiter(&synch, NULL); t; t = next) {
		struct request *r = nk_synch_waiter_ctx(t);

		next = nk_synch_next_waiter(&synch, t);
		strncat(order, nk_thread_name(t), len - strlen(order) - 2);
		strcat(order, " ");
		if (r->size <= max) {
			r->granted = 1;
			CHECK_EQ(nk_synch_wakeup_this(&synch, t), 0);
		}
	}
	nk_sched_run(nk);
	nk_unlock(nk);
}

TEST(waker_serves_in_queue_order)
{
	struct nk_thread *gone;
	char order[64];

	setup();
	spawn("lo", 10, 0, 3);
	spawn("hi", 30, 1, 8);
	spawn("mid", 20, 2, 5);
	gone = spawn("gone", 40, 3, 1);
	/* Deleted while it waits: it leaves the queue for good. */
	CHECK_EQ(nk_thread_delete(gone), 0);
	CHECK_EQ(nk_thread_sleep(nk, MS, NK_RELATIVE), 0);
	serve_up_to(5, order, sizeof(order));
	CHECK_STR(order, "hi mid lo ");
	CHECK_EQ(nk_thread_sleep(nk, MS, NK_RELATIVE), 0);
	CHECK_EQ(results[0], 0);
	CHECK_EQ(results[2], 0);
	CHECK_EQ(requests[0].granted, 1);
	CHECK_EQ(requests[2].granted, 1);
	CHECK_EQ(requests[1].granted, 0);
	serve_up_to(5, order, sizeof(order));
	CHECK_STR(order, "hi ");
	/* hi times out at 10 ms after it started waiting. */
	CHECK_EQ(nk_thread_sleep(nk, 10 * MS, NK_RELATIVE), 0);
	CHECK_EQ(results[1], -ETIMEDOUT);
	serve_up_to(100, order, sizeof(order));
	CHECK_STR(order, "");
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static int plain_result;

static void *plain_sleeper(void *arg)
{
	struct request r = {0};

	(void)arg;
	nk_lock(nk);
	plain_result =
	    nk_synch_sleep_ctx(&synch, &r, sizeof(r), MS, NK_RELATIVE);
	nk_unlock(nk);
	return NULL;
}

TEST(bad_input)
{
	struct request r = {0};
	pthread_t plain;

	setup();
	nk_lock(nk);
	CHECK(nk_synch_next_waiter(NULL, NULL) == NULL);
	CHECK(nk_synch_next_waiter(&synch, NULL) == NULL);
	/* main does not wait on the synch. */
	CHECK(nk_synch_next_waiter(&synch, nk_thread_self(nk)) == NULL);
	CHECK(nk_synch_waiter_ctx(NULL) == NULL);
	CHECK(nk_synch_waiter_ctx(nk_thread_self(nk)) == NULL);
	CHECK_EQ(nk_synch_sleep_ctx(NULL, &r, sizeof(r), MS, NK_RELATIVE),
		 -EINVAL);
	CHECK_EQ(
	    nk_synch_sleep_ctx(&synch, &r, sizeof(r), MS, (enum nk_tmode)7),
	    -EINVAL);
	nk_unlock(nk);
	CHECK_EQ(pthread_create(&plain, NULL, plain_sleeper, NULL), 0);
	CHECK_EQ(pthread_join(plain, NULL), 0);
	CHECK_EQ(plain_result, -EPERM);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TESTS(T(waker_serves_in_queue_order), T(bad_input));
