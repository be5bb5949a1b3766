/* SPDX-License-Identifier: MIT */
/*
 * A nucleus instance placed in a session: its view at the fixed address
 * just above the segment, its core, threads, schedulers and every
 * nk_alloc() in the segment's nucleus block, which one member's instance
 * holds at a time and which goes with it, destroyed or killed.
 */
#include "session_test.h"
#include "nucleus/internal.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char name[64];

/*
 * LeakSanitizer: the peer that exits with its instance in place leaves
 * it to the exit, as such a program does.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:holder_step\n";
}

static struct session_header *header(void)
{
	return session_current()->hdr;
}

static bool in_segment(const void *p, size_t len)
{
	const char *base = (const char *)header();

	return (const char *)p >= base &&
	       (const char *)p + len <= base + header()->size;
}

static struct session_shm *nucleus_block(void)
{
	return session_shm_find(header(), SESSION_NUCLEUS_BLOCK);
}

static int create_shared(struct nk_instance **nk)
{
	struct nk_instance_attr attr = {.nr_cpus = 1, .session = true};

	return nk_instance_create(&attr, nk);
}

static uintptr_t view_address(void)
{
	return (uintptr_t)header() + header()->size;
}

static struct nk_sem sem;
static char order[16];
static int nr_order;

static void nothing(void *arg)
{
	(void)arg;
}

static void pinger(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		if (nk_sem_take(&sem, NK_INFINITE, NK_RELATIVE))
			return;
		order[nr_order++] = 'b';
	}
}

TEST(placed_in_the_segment)
{
	struct nk_instance *nk, *other;
	struct nk_thread_attr attr = {
	    .name = "b", .priority = 10, .policy = NK_SCHED_FIFO};
	struct nk_thread *t;
	struct session_shm *b;
	void *p;
	int member;

	session_test_name(name, sizeof(name), "place");
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK(nucleus_block() == NULL);
	CHECK_EQ(create_shared(&nk), 0);
	/* The view: private, at the fixed address above the segment. */
	CHECK_EQ((uintptr_t)nk, view_address());
	b = nucleus_block();
	CHECK(b != NULL);
	CHECK_EQ(b->users, 1ull << session_current()->slot);
	/* Everything else: in the block. */
	CHECK(in_segment(nk->core, sizeof(*nk->core)));
	CHECK((char *)nk->core >= (char *)header() + b->offset);
	CHECK(in_segment(nk->scheds, sizeof(*nk->scheds)));
	CHECK(in_segment(nk->scheds[0].root, sizeof(struct nk_thread)));
	CHECK(in_segment(nk->core->registry.slots, 1));
	CHECK(in_segment(nk_thread_self(nk), sizeof(struct nk_thread)));
	p = nk_alloc(nk, 1000);
	CHECK(p != NULL && in_segment(p, 1000));
	CHECK_EQ(((char *)p)[999], 0);
	nk_free(nk, p);
	/* A block only this process uses: counted as its member's. */
	member = nk_instance_member(nk);
	CHECK_EQ(nk_member_blocks(nk, member), 0);
	p = nk_alloc_local(nk, 1000);
	CHECK(p != NULL && in_segment(p, 1000));
	CHECK_EQ((uintptr_t)p % _Alignof(max_align_t), 0);
	CHECK_EQ(((char *)p)[999], 0);
	CHECK_EQ(nk_member_blocks(nk, member), 1);
	CHECK_EQ(nk_member_blocks(nk, member + 1), 0);
	CHECK_EQ(nk_instance_check(nk, NULL, 0), 0);
	nk_free_local(nk, p);
	CHECK_EQ(nk_member_blocks(nk, member), 0);
	/* Bad input. */
	CHECK(nk_alloc_local(nk, 0) == NULL);
	CHECK(nk_alloc_local(nk, SIZE_MAX) == NULL);
	CHECK(nk_alloc_local(NULL, 8) == NULL);
	nk_free_local(nk, NULL);
	nk_free_local(NULL, p);
	CHECK_EQ(nk_member_blocks(NULL, 0), -EINVAL);
	CHECK_EQ(nk_member_blocks(nk, -1), -EINVAL);
	CHECK_EQ(nk_member_blocks(nk, NK_MAX_MEMBERS), -EINVAL);
	/* It works there: a semaphore between two threads. */
	CHECK_EQ(nk_sem_init(nk, &sem, "s", 0, 0, NK_SYNCH_PRIO), 0);
	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK(in_segment(t, sizeof(*t)));
	CHECK_EQ(nk_thread_start(t, pinger, NULL), 0);
	for (int i = 0; i < 3; i++) {
		order[nr_order++] = 'a';
		CHECK_EQ(nk_sem_give(&sem), 0);
	}
	CHECK_STR(order, "ababab");
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	/* One instance of the session per process; none leaves meanwhile. */
	CHECK_EQ(create_shared(&other), -EBUSY);
	CHECK_EQ(fusion_session_leave(), -EBUSY);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK(nucleus_block() == NULL);
	/* The view is unmapped: the range can be mapped again. */
	p = mmap((void *)view_address(), 4096, PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	CHECK_EQ((uintptr_t)p, view_address());
	munmap(p, 4096);
	CHECK_EQ(fusion_session_leave(), 0);
}

/* The peer: 1 joins and places its instance; 2 destroys it; 3 exits
 * with it in place. */
static int holder_step(void *arg, int n)
{
	static struct nk_instance *nk;

	(void)arg;
	switch (n) {
	case 1:
		PEER_CHECK(fusion_session_join(name) == 0);
		return create_shared(&nk) ? __LINE__ : 0;
	case 2:
		return nk_instance_destroy(nk) ? __LINE__ : 0;
	case 3:
		exit(0);
	}
	return __LINE__;
}

TEST(one_member_holds_it)
{
	struct nk_instance_attr priv = {.nr_cpus = 1};
	struct nk_instance *nk;
	struct peer peer;
	void *p;

	session_test_name(name, sizeof(name), "holder");
	peer_start(&peer, holder_step, NULL);
	CHECK_EQ(peer_step(&peer, 1), 0);
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK(nucleus_block() != NULL);
	CHECK_EQ(create_shared(&nk), -EBUSY);
	/* A private instance meanwhile, as the runtime falls back to. */
	CHECK_EQ(nk_instance_create(&priv, &nk), 0);
	p = nk_alloc(nk, 64);
	CHECK(p != NULL && !in_segment(p, 64));
	nk_free(nk, p);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(peer_step(&peer, 2), 0);
	CHECK(nucleus_block() == NULL);
	CHECK_EQ(create_shared(&nk), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(peer_end(&peer), 0);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

/*
 * A peer places its instance, we join, and it goes, killed or exiting
 * with its instance in place (keeping its slot until it is dead): its
 * block is freed once it is dead, found at our placement.
 */
static void holder_gone(const char *what, bool killed)
{
	struct nk_instance *nk;
	struct peer peer;
	int status;

	session_test_name(name, sizeof(name), what);
	peer_start(&peer, holder_step, NULL);
	CHECK_EQ(peer_step(&peer, 1), 0);
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK(nucleus_block() != NULL);
	if (killed)
		CHECK_EQ(kill(peer.pid, SIGKILL), 0);
	else
		CHECK_EQ(peer_step(&peer, 3), -1);
	CHECK_EQ(waitpid(peer.pid, &status, 0), peer.pid);
	CHECK(killed ? WIFSIGNALED(status)
		     : WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(create_shared(&nk), 0);
	CHECK(in_segment(nk->core, sizeof(*nk->core)));
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

TEST(holder_killed)
{
	holder_gone("killed", true);
}

/* Alone, a member exiting with its instance in place removes the
 * session all the same. */
TEST(exit_in_place)
{
	struct peer peer;
	int status;

	holder_gone("exit", false);
	session_test_name(name, sizeof(name), "exit-alone");
	peer_start(&peer, holder_step, NULL);
	CHECK_EQ(peer_step(&peer, 1), 0);
	CHECK(session_test_exists(name));
	CHECK_EQ(peer_step(&peer, 3), -1);
	CHECK_EQ(waitpid(peer.pid, &status, 0), peer.pid);
	CHECK(!session_test_exists(name));
}

/*
 * 1: join and place an instance; 2: allocate and free blocks in it (the
 * heap's lock taken each time), a semaphore in one of them, and a
 * thread now and then, as fast as it can until killed.
 */
static int churn_step(void *arg, int n)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	struct nk_thread_attr attr = {.name = "t",
				      .priority = 5,
				      .policy = NK_SCHED_FIFO,
				      .flags = NK_THREAD_JOINABLE};
	static struct nk_instance *nk;

	if (n == 1) {
		PEER_CHECK(fusion_session_join(name) == 0);
		return create_shared(&nk) ? __LINE__ : 0;
	}
	for (unsigned int i = 0;; i++) {
		void *held[8];
		struct nk_sem *s;
		struct nk_thread *t;

		for (int k = 0; k < 8; k++) {
			held[k] =
			    nk_alloc(nk, sizeof(*s) + rand_r(&seed) % 256);
			PEER_CHECK(held[k] != NULL);
		}
		s = held[rand_r(&seed) % 8];
		PEER_CHECK(nk_sem_init(nk, s, "s", 1, 0, 0) == 0);
		PEER_CHECK(nk_sem_take(s, 0, NK_RELATIVE) == 0);
		PEER_CHECK(nk_sem_destroy(s) == 0);
		for (int k = 0; k < 8; k++)
			nk_free(nk, held[k]);
		if (i % 1024)
			continue;
		PEER_CHECK(nk_thread_create(nk, &attr, &t) == 0);
		PEER_CHECK(nk_thread_start(t, nothing, NULL) == 0);
		PEER_CHECK(nk_thread_join(t) == 0);
	}
}

/*
 * Did the dead holder of the nucleus block @b hold its heap's lock?  The
 * block starts with the arena (src/nucleus/memory.c); the lock's futex
 * word keeps the dead owner's id (FUTEX_OWNER_DIED added by the kernel).
 */
static bool heap_locked(const struct session_shm *b)
{
	const struct nk_arena *arena =
	    (const void *)((const char *)header() + b->offset);
	const pthread_mutex_t *lock = &arena->lock;

	return __atomic_load_n(&lock->__data.__lock, __ATOMIC_ACQUIRE) != 0;
}

/*
 * A member running its instance in the session is killed at random
 * points, the heap's lock held or not: each time, the next member
 * places its own instance there, whole.  FUSION_SESSION_KILLS / 10 runs
 * (make stress), 100 by default.
 */
TEST(killed_in_place)
{
	const char *env = getenv("FUSION_SESSION_KILLS");
	int runs = env ? atoi(env) / 10 : 100, in_lock = 0;
	unsigned int seed = 1;

	session_test_name(name, sizeof(name), "churn");
	CHECK_EQ(fusion_session_join(name), 0);
	for (int run = 0; run < runs; run++) {
		struct timespec delay = {0, 100000 + rand_r(&seed) % 2000000};
		struct nk_instance *nk;
		struct session_shm *b;
		struct peer churn;
		int step = 2;

		peer_start(&churn, churn_step, (void *)(uintptr_t)run);
		CHECK_EQ(peer_step(&churn, 1), 0);
		CHECK(write(churn.cmd, &step, sizeof(step)) == sizeof(step));
		nanosleep(&delay, NULL);
		CHECK_EQ(kill(churn.pid, SIGKILL), 0);
		b = nucleus_block();
		CHECK(b != NULL);
		in_lock += heap_locked(b);
		peer_kill(&churn);
		CHECK_EQ(create_shared(&nk), 0);
		test_instance_whole(nk);
		CHECK(in_segment(nk_thread_self(nk), sizeof(struct nk_thread)));
		CHECK_EQ(nk_instance_destroy(nk), 0);
		CHECK_EQ(atomic_load(&header()->state), SESSION_READY);
	}
	printf("%d kills, %d of them while it held the heap's lock\n", runs,
	       in_lock);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

TEST(bad_input)
{
	struct nk_instance_attr sim = {.backend = "sim", .session = true};
	struct nk_instance *nk = NULL;
	void *p, *taken;

	CHECK_EQ(create_shared(&nk), -ENOENT);
	session_test_name(name, sizeof(name), "bad");
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_EQ(nk_instance_create(&sim, &nk), -ENOTSUP);
	CHECK(nk == NULL);
	/* The library's own block names are refused to the program. */
	CHECK_EQ(fusion_session_shm(SESSION_NUCLEUS_BLOCK, 64, &p), -EINVAL);
	CHECK_EQ(fusion_session_shm(".x", 64, &p), -EINVAL);
	/* The view's range taken: refused, and nothing is left held. */
	taken = mmap((void *)view_address(), 4096, PROT_READ,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	CHECK_EQ((uintptr_t)taken, view_address());
	CHECK_EQ(create_shared(&nk), -EADDRINUSE);
	CHECK(nucleus_block() == NULL);
	munmap(taken, 4096);
	/* No room left in the segment for the nucleus block. */
	CHECK_EQ(fusion_session_shm("hog", header()->size / 2, &p), 0);
	CHECK_EQ(create_shared(&nk), -ENOSPC);
	CHECK(nucleus_block() == NULL);
	CHECK_EQ(fusion_session_shm_free(p), 0);
	CHECK_EQ(fusion_session_leave(), 0);
}

TESTS(T(placed_in_the_segment), T(one_member_holds_it), T(holder_killed),
      T(exit_in_place), T(killed_in_place), T(bad_input));
