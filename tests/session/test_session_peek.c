/* SPDX-License-Identifier: MIT */
/*
 * Reading a session's instance without joining it or taking its lock
 * (src/nucleus/peek.c, what `fusion ps` shows of a member that does not
 * answer): the threads another process made, with their state, what
 * they wait for and their member; whole copies while that process
 * changes the instance all the time; garbage refused, never a fault.
 */
#include "session_test.h"
#include "nucleus/internal.h"
#include "nucleus/peek.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static char name[64];
static struct nk_instance *nk;
static struct nk_sem *gate;

static void waiter(void *arg)
{
	(void)arg;
	if (nk_sem_take(gate, NK_INFINITE, NK_RELATIVE))
		fprintf(stderr, "waiter: its wait failed\n");
}

static void sleeper(void *arg)
{
	(void)arg;
	if (nk_thread_sleep(nk, NK_INFINITE, NK_RELATIVE))
		fprintf(stderr, "sleeper: its sleep failed\n");
}

static int start(const char *what, int prio, void (*fn)(void *))
{
	struct nk_thread_attr attr = {
	    .name = what, .priority = prio, .policy = NK_SCHED_FIFO};
	struct nk_thread *t;

	if (nk_thread_create(nk, &attr, &t) || nk_thread_start(t, fn, NULL))
		return -1;
	return 0;
}

/* The peer: 1 makes the instance with "waiter" pending on "gate" and
 * "sleeper" asleep; 2 lets nothing more happen (answers its slot). */
static int maker_step(void *arg, int n)
{
	struct nk_instance_attr attr = {.nr_cpus = 1, .session = true};

	(void)arg;
	switch (n) {
	case 1:
		PEER_CHECK(fusion_session_join(name) == 0);
		PEER_CHECK(nk_instance_create(&attr, &nk) == 0);
		gate = nk_alloc(nk, sizeof(*gate));
		PEER_CHECK(gate != NULL);
		PEER_CHECK(nk_sem_init(nk, gate, "gate", 0, 0, 0) == 0);
		PEER_CHECK(start("waiter", 21, waiter) == 0);
		PEER_CHECK(start("sleeper", 7, sleeper) == 0);
		return nk_thread_relax(nk) ? __LINE__ : 0;
	case 2:
		return 1000 + session_current()->slot;
	}
	return __LINE__;
}

/*
 * Session @what made by peer @p running @step (its step 1), its segment
 * mapped into @seg with its nucleus block.
 */
static void view(const char *what, int (*step)(void *, int), struct peer *p,
		 struct nk_peek_segment *seg)
{
	struct session_header h;
	const struct session_shm *b;
	const void *map;

	session_test_name(name, sizeof(name), what);
	peer_start(p, step, NULL);
	CHECK_EQ(peer_step(p, 1), 0);
	CHECK_EQ(session_view(name, &h, &map), 0);
	b = session_shm_find(&h, SESSION_NUCLEUS_BLOCK);
	CHECK(b != NULL);
	*seg =
	    (struct nk_peek_segment){map, h.base, h.size, b->offset, b->size};
}

static const struct nk_status_thread *find(const struct nk_status_thread *t,
					   unsigned int n, const char *what)
{
	for (unsigned int i = 0; i < n; i++)
		if (strcmp(t[i].name, what) == 0)
			return &t[i];
	return NULL;
}

TEST(another_process_threads)
{
	struct nk_status_thread threads[8];
	const struct nk_status_thread *t;
	int members[8], slot;
	struct nk_peek_segment seg;
	unsigned int total;
	struct peer maker;

	view("peek", maker_step, &maker, &seg);
	slot = peer_step(&maker, 2) - 1000;
	CHECK_EQ(nk_peek_threads(&seg, threads, members, 8, &total), 0);
	/* main (relaxed), the CPU's root is none of the list, and ours. */
	CHECK_EQ(total, 3);
	t = find(threads, total, "waiter");
	CHECK(t != NULL);
	CHECK_STR(t->state, "waiting");
	CHECK_STR(t->waits, "gate");
	CHECK_EQ(t->prio, 21);
	CHECK_EQ(t->base_prio, 21);
	CHECK_EQ(t->cpu, 0);
	CHECK_EQ(t->tid, 0);
	CHECK_EQ(members[t - threads], slot);
	t = find(threads, total, "sleeper");
	CHECK(t != NULL);
	CHECK_STR(t->state, "sleeping");
	CHECK_STR(t->waits, "delay");
	CHECK_EQ(t->prio, 7);
	t = find(threads, total, "main");
	CHECK(t != NULL && t->relaxed);
	/* Fewer places than threads: the count is whole all the same. */
	CHECK_EQ(nk_peek_threads(&seg, threads, members, 1, &total), 0);
	CHECK_EQ(total, 3);
	CHECK_EQ(nk_peek_threads(&seg, NULL, NULL, 0, &total), 0);
	CHECK_EQ(total, 3);
	munmap((void *)seg.map, seg.size);
	peer_kill(&maker);
	session_test_remove(name);
}

/* The peer: 1 makes the instance; 2 makes and ends threads and
 * semaphores until it is killed. */
static int churn_step(void *arg, int n)
{
	struct nk_instance_attr attr = {.nr_cpus = 1, .session = true};
	struct nk_thread_attr tattr = {.name = "churn",
				       .priority = 5,
				       .policy = NK_SCHED_FIFO,
				       .flags = NK_THREAD_JOINABLE};

	(void)arg;
	if (n == 1) {
		PEER_CHECK(fusion_session_join(name) == 0);
		return nk_instance_create(&attr, &nk) ? __LINE__ : 0;
	}
	for (;;) {
		struct nk_sem s;
		struct nk_thread *t;

		PEER_CHECK(nk_sem_init(nk, &s, "s", 1, 0, 0) == 0);
		PEER_CHECK(nk_sem_take(&s, 0, NK_RELATIVE) == 0);
		PEER_CHECK(nk_sem_destroy(&s) == 0);
		PEER_CHECK(nk_thread_create(nk, &tattr, &t) == 0);
		PEER_CHECK(nk_thread_start(t, sleeper, NULL) == 0);
		PEER_CHECK(nk_thread_delete(t) == 0);
		PEER_CHECK(nk_thread_join(t) == 0);
	}
}

/*
 * A copy made while the instance changes at every microsecond is whole
 * or not made: never garbage (-EPROTO), each thread one of the peer's.
 */
TEST(whole_while_it_changes)
{
	struct nk_status_thread threads[8];
	int members[8], step = 2, whole = 0;
	struct nk_peek_segment seg;
	unsigned int total;
	struct peer churn;

	view("peek-churn", churn_step, &churn, &seg);
	CHECK(write(churn.cmd, &step, sizeof(step)) == sizeof(step));
	for (int i = 0; i < 200; i++) {
		int ret = nk_peek_threads(&seg, threads, members, 8, &total);

		CHECK(ret == 0 || ret == -EAGAIN);
		if (ret)
			continue;
		whole++;
		CHECK(total >= 1 && total <= 3);
		for (unsigned int k = 0; k < total; k++)
			CHECK(strcmp(threads[k].name, "main") == 0 ||
			      strcmp(threads[k].name, "churn") == 0);
	}
	printf("%d whole copies of 200\n", whole);
	CHECK(whole > 0);
	munmap((void *)seg.map, seg.size);
	peer_kill(&churn);
	session_test_remove(name);
}

/* Garbage in the nucleus block (a copy of the segment, scribbled on):
 * an error, never a fault; and bad arguments. */
TEST(garbage_refused)
{
	struct nk_status_thread threads[4];
	int members[4];
	struct nk_peek_segment seg, bad;
	unsigned int total, seed = 7;
	unsigned char *copy;
	struct peer maker;
	int ret;

	view("peek-bad", maker_step, &maker, &seg);
	copy = malloc(seg.size);
	CHECK(copy != NULL);
	for (int run = 0; run < 50; run++) {
		memcpy(copy, seg.map, seg.size);
		/* Scribble over the arena and the first threads' blocks. */
		for (int k = 0; k < 64; k++) {
			size_t at = seg.block + rand_r(&seed) % 65536;

			copy[at] = (unsigned char)rand_r(&seed);
		}
		bad = seg;
		bad.map = copy;
		ret = nk_peek_threads(&bad, threads, members, 4, &total);
		CHECK(ret == 0 || ret == -EPROTO || ret == -EAGAIN);
	}
	memset(copy, 0, seg.size);
	bad = seg;
	bad.map = copy;
	CHECK_EQ(nk_peek_threads(&bad, threads, members, 4, &total), -EPROTO);
	free(copy);
	CHECK_EQ(nk_peek_threads(NULL, threads, members, 4, &total), -EINVAL);
	CHECK_EQ(nk_peek_threads(&seg, NULL, members, 4, &total), -EINVAL);
	CHECK_EQ(nk_peek_threads(&seg, threads, members, 4, NULL), -EINVAL);
	bad = seg;
	bad.block = seg.size;
	CHECK_EQ(nk_peek_threads(&bad, threads, members, 4, &total), -EINVAL);
	bad = seg;
	bad.block_size = 8;
	CHECK_EQ(nk_peek_threads(&bad, threads, members, 4, &total), -EINVAL);
	munmap((void *)seg.map, seg.size);
	peer_kill(&maker);
	session_test_remove(name);
}

TESTS(T(another_process_threads), T(whole_while_it_changes),
      T(garbage_refused));
