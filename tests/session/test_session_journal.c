/* SPDX-License-Identifier: MIT */
/*
 * The undo journal of a shared instance's nucleus lock: notes undone
 * last first, what it leaves alone, bad input; and a member of a shared
 * instance killed with SIGKILL at random points,
 * most of them while one of its threads holds the nucleus lock: its
 * threads ping a thread of ours through two semaphores under a
 * priority-inheriting mutex, sleep, and make and free semaphores, so
 * that a kill cuts through queues, timer trees, the registry-free heap
 * and the backend's records.  Each time, the next holder of the lock
 * undoes the dead holder's unfinished section (docs/architecture.md,
 * "A member dying"), the member's cleanup removes its threads, the
 * instance check passes, and our thread still answers.
 * FUSION_SESSION_KILLS / 10 kills (make stress), 100 by default.
 */
#include "session_test.h"
#include "nucleus/internal.h"
#include "nucleus/journal.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static char name[64];

#define CHURNS 20

/*
 * The victim's workers sleep between rounds so that they leave the CPU
 * to lower threads (the relaxed mains at SCHED_FIFO 1): under
 * ThreadSanitizer each round's calls take many times longer, and so
 * do the sleeps.
 */
#if defined(__SANITIZE_THREAD__)
#define SLOWER 20
#else
#define SLOWER 1
#endif

/* What the processes share besides the instance: in a named block. */
struct board {
	struct nk_sem *ping, *pong;
	struct nk_mutex *mutex;
	_Atomic bool stop;
	_Atomic unsigned long rounds; /* the victim's pongs, for the record */
};

static struct board *board;
static struct nk_instance *nk;

/*
 * Join the instance, main at @prio, and relax.  The victim's main
 * ranks above its workers: they may keep the CPU busy (a slow build),
 * and it must get back to answering its spawner.
 */
static int join_instance(int prio)
{
	struct nk_instance_attr attr = {
	    .nr_cpus = 1, .session = true, .join = true, .main_priority = prio};
	int ret = nk_instance_create(&attr, &nk);

	return ret ? ret : nk_thread_relax(nk);
}

/* A thread of the calling process at @prio running @fn. */
static struct nk_thread *spawn(const char *tname, int prio, void (*fn)(void *))
{
	struct nk_thread_attr attr = {.name = tname,
				      .priority = prio,
				      .policy = NK_SCHED_FIFO,
				      .flags = NK_THREAD_JOINABLE};
	struct nk_thread *t;

	if (nk_thread_create(nk, &attr, &t) || nk_thread_start(t, fn, NULL))
		return NULL;
	return t;
}

/* Ours: answer each ping with a pong until told to stop. */
static void echo(void *arg)
{
	(void)arg;
	while (!atomic_load(&board->stop))
		if (nk_sem_take(board->ping, 20000000, NK_RELATIVE) ==
		    NK_WAKE_OK)
			(void)nk_sem_give(board->pong);
}

/* Make, use and free a semaphore: the heap and the registry-free
 * objects, in and out of the lock many times over. */
static void churn(void)
{
	struct nk_sem *s = nk_alloc(nk, sizeof(*s));

	if (s && nk_sem_init(nk, s, "churn", 1, 0, NK_SYNCH_PRIO) == 0) {
		if (nk_sem_take(s, 0, NK_RELATIVE) == 0)
			(void)nk_sem_give(s);
		(void)nk_sem_destroy(s);
	}
	nk_free(nk, s);
}

/* The victim's: ping under the mutex, sleep, churn, for ever. */
static void worker(void *arg)
{
	(void)arg;
	for (;;) {
		if (nk_mutex_lock(board->mutex, NK_INFINITE, NK_RELATIVE) >=
		    0) {
			(void)nk_sem_give(board->ping);
			if (nk_sem_take(board->pong, 5000000, NK_RELATIVE) ==
			    NK_WAKE_OK)
				atomic_fetch_add(&board->rounds, 1);
			(void)nk_mutex_unlock(board->mutex);
		}
		if (nk_thread_sleep(nk, (20000 + rand() % 50000) * SLOWER,
				    NK_RELATIVE))
			break;
		for (int i = 0; i < CHURNS; i++)
			churn();
	}
}

/* The victim: 1 joins and starts three workers. */
static int victim_step(void *arg, int n)
{
	static const int prios[] = {10, 20, 30};
	void *mem;

	(void)arg;
	PEER_CHECK(n == 1);
	PEER_CHECK(fusion_session_join(name) == 0);
	PEER_CHECK(fusion_session_shm("board", sizeof(*board), &mem) == 0);
	board = mem;
	PEER_CHECK(join_instance(50) == 0);
	for (int i = 0; i < 3; i++)
		PEER_CHECK(spawn("worker", prios[i], worker) != NULL);
	return nk_thread_relax(nk) ? __LINE__ : 0;
}

/*
 * The victims' parent, forked before we join anything (a child of ours
 * would be our bound thread): 1 starts a victim, 2 kills it.
 */
static int spawner_step(void *arg, int n)
{
	static struct peer victim;

	(void)arg;
	if (n == 1) {
		peer_start(&victim, victim_step, NULL);
		return peer_step(&victim, 1);
	}
	PEER_CHECK(n == 2);
	peer_kill(&victim);
	return 0;
}

/* Our threads alone left in the instance: the victim's cleanup ran. */
static bool cleaned_up(int ours)
{
	for (int waited = 0; waited < 5000; waited++) {
		unsigned int nr;

		nk_lock(nk);
		nr = nk->core->nr_threads;
		nk_unlock(nk);
		/* The lock hardened us: not to sleep holding the CPU. */
		CHECK_EQ(nk_thread_relax(nk), 0);
		if (nr == (unsigned int)ours)
			return true;
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	}
	return false;
}

/* Our echo still answers: a ping gets its pong. */
static int echo_answers(void)
{
	int ret;

	while (nk_sem_take(board->pong, 0, NK_RELATIVE) == 0)
		;
	ret = nk_sem_give(board->ping);
	if (ret == 0)
		ret = nk_sem_take(board->pong, 1000000000, NK_RELATIVE);
	return ret;
}

/* What the next holder does after a death: undo the section's notes,
 * by hand here, with the lock held.  The last note of a byte wins. */
TEST(undo_by_hand)
{
	struct {
		long a, b;
		char big[2 * 1024 * 1024];
	} * x;
	struct nk_journal *j;
	void *mem;

	session_test_name(name, sizeof(name), "undo");
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_EQ(join_instance(0), 0);
	j = nk->core->journal;
	CHECK(j != NULL);
	CHECK_EQ(fusion_session_shm("x", sizeof(*x), &mem), 0);
	x = mem;
	x->a = 1;
	x->b = 2;
	nk_lock(nk);
	nk_journal_obj(&x->a);
	x->a = 10;
	nk_journal_save(x, 2 * sizeof(long));
	x->a = 11;
	x->b = 20;
	CHECK(nk_journal_undo(j));
	CHECK_EQ(x->a, 1);
	CHECK_EQ(x->b, 2);
	CHECK_EQ(atomic_load(&j->undone), 1);
	/* More than a section may note: that one cannot be undone. */
	nk_journal_save(x->big, sizeof(x->big));
	x->a = 3;
	CHECK(!nk_journal_undo(j));
	CHECK_EQ(x->a, 3);
	CHECK_EQ(atomic_load(&j->lost), 1);
	nk_unlock(nk);
	/* Released, the lock leaves nothing to undo. */
	nk_lock(nk);
	CHECK(nk_journal_undo(j));
	CHECK_EQ(x->a, 3);
	nk_unlock(nk);
	CHECK_EQ(nk_thread_relax(nk), 0);
	test_instance_whole(nk);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(fusion_session_shm_free(mem), 0);
	CHECK_EQ(fusion_session_leave(), 0);
}

/* Notes of what is not the session's, of nothing, outside the lock:
 * nothing noted, nothing broken. */
TEST(bad_input)
{
	long local = 1, *in;
	struct nk_journal *j;
	uint32_t noted;
	char junk[64];

	nk_journal_save(&local, sizeof(local)); /* no lock, no journal */
	nk_journal_block(junk);
	nk_journal_data(NULL, 0, false);
	nk_journal_data(junk, sizeof(junk), true);
	nk_journal_data(junk, 0, false);
	session_test_name(name, sizeof(name), "bad");
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_EQ(join_instance(0), 0);
	j = nk->core->journal;
	in = nk_alloc(nk, 4 * sizeof(long));
	CHECK(in != NULL);
	nk_lock(nk);
	noted = atomic_load(&j->entries); /* the caller, as it took the lock */
	nk_journal_save(NULL, 16);
	nk_journal_save(&local, sizeof(local)); /* this process's own */
	nk_journal_save(in, SIZE_MAX);		/* past the segment */
	nk_journal_block(NULL);
	nk_journal_block(in + 1); /* not a block's start */
	nk_journal_block(junk);
	CHECK_EQ(atomic_load(&j->entries), noted);
	local = 2;
	CHECK(nk_journal_undo(j));
	CHECK_EQ(local, 2);
	nk_unlock(nk);
	nk_free(nk, in);
	CHECK_EQ(nk_thread_relax(nk), 0);
	test_instance_whole(nk);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(fusion_session_leave(), 0);
}

TEST(killed_at_random)
{
	const char *env = getenv("FUSION_SESSION_KILLS");
	int runs = env ? atoi(env) / 10 : 100;
	unsigned long undone = 0, lost = 0;
	unsigned int seed = 1;
	struct peer spawner;
	struct nk_thread *e;
	void *mem;

	session_test_name(name, sizeof(name), "kill");
	peer_start(&spawner, spawner_step, NULL);
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_EQ(fusion_session_shm("board", sizeof(*board), &mem), 0);
	board = mem;
	/* Above the victim's workers, which keep its CPU busy most of the
	 * time: with another test's load there as well, a main below them
	 * would never run again to kill the victim. */
	CHECK_EQ(join_instance(60), 0);
	board->ping = nk_alloc(nk, sizeof(*board->ping));
	board->pong = nk_alloc(nk, sizeof(*board->pong));
	board->mutex = nk_alloc(nk, sizeof(*board->mutex));
	CHECK_EQ(nk_sem_init(nk, board->ping, "ping", 0, 0, NK_SYNCH_PRIO), 0);
	CHECK_EQ(nk_sem_init(nk, board->pong, "pong", 0, 0, NK_SYNCH_PRIO), 0);
	CHECK_EQ(nk_mutex_init(nk, board->mutex, "mutex", NK_SYNCH_PI, 0), 0);
	e = spawn("echo", 40, echo);
	CHECK(e != NULL);
	CHECK_EQ(nk_thread_relax(nk), 0);
	for (int run = 0; run < runs; run++) {
		struct timespec delay = {0, 2000000 + rand_r(&seed) % 8000000};
		int ret;

		CHECK_EQ(peer_step(&spawner, 1), 0);
		nanosleep(&delay, NULL);
		CHECK_EQ(peer_step(&spawner, 2), 0);
		CHECK(cleaned_up(2));
		/* The mutex passes on, owner dead or not. */
		ret = nk_mutex_lock(board->mutex, NK_INFINITE, NK_RELATIVE);
		CHECK(ret == NK_WAKE_OK || ret == NK_WAKE_OWNER_DEAD);
		CHECK_EQ(nk_mutex_unlock(board->mutex), 0);
		CHECK_EQ(echo_answers(), 0);
		/* The check takes the lock, which hardens us: relaxed after
		 * it, we do not hold the CPU while we wait for the spawner
		 * (without Syscall User Dispatch, as under the sanitizers,
		 * nothing would relax us then). */
		test_instance_whole(nk);
		CHECK_EQ(nk_thread_relax(nk), 0);
	}
	undone = atomic_load(&nk->core->journal->undone);
	lost = atomic_load(&nk->core->journal->lost);
	printf("%d kills (the victim ran %lu rounds), %lu of them inside "
	       "the nucleus lock, undone; %lu could not be\n",
	       runs, atomic_load(&board->rounds), undone, lost);
	CHECK_EQ(lost, 0);
	CHECK(runs < 20 || undone > 0);
	atomic_store(&board->stop, true);
	CHECK_EQ(nk_thread_join(e), 0);
	CHECK_EQ(nk_thread_relax(nk), 0);
	test_instance_whole(nk);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(peer_end(&spawner), 0);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

TESTS(T(undo_by_hand), T(bad_input), T(killed_at_random));
