/* SPDX-License-Identifier: MIT */
/*
 * One instance shared by the processes of a session (nk_instance_attr
 * .join): one scheduler per RT CPU for the threads of every member.
 * Waiters of three processes wake by priority; a thread of one process
 * preempts another's at once, from its own process's timer; a holder in
 * one process inherits the priority of a waiter in another; a joiner's
 * own timeouts fire, under another process's thread too; a member leaves
 * while the others run on.
 *
 * Every process's threads run on RT CPU 0.  A main thread relaxes
 * before it waits for Linux (a pipe, a peer), so that the others' get
 * the CPU meanwhile, as a real-time program's main thread does.
 */
#include "session_test.h"
#include "nucleus/internal.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char name[64];

/* What the processes share besides the instance: in a named block. */
struct board {
	struct nk_sem *sem, *done;
	struct nk_mutex *mutex;
	pid_t victim;			   /* the member the killer kills */
	struct nk_thread *holder, *joinee; /* a peer's, for us to end */
	_Atomic int lock_result;
	_Atomic bool flag, spinning, idling;
	_Atomic int n;
	char order[32];
};

static struct board *board;
static struct nk_instance *nk;

static int join_instance(int main_priority)
{
	struct nk_instance_attr attr = {.nr_cpus = 1,
					.main_priority = main_priority,
					.session = true,
					.join = true};
	int ret = nk_instance_create(&attr, &nk);

	if (ret == 0)
		ret = nk_thread_relax(nk);
	return ret;
}

static int board_map(void)
{
	void *mem;
	int ret = fusion_session_shm("board", sizeof(*board), &mem);

	board = mem;
	return ret;
}

static void note(char c)
{
	board->order[atomic_fetch_add(&board->n, 1)] = c;
}

/* A thread of the calling process: @c at @prio, running @fn(@c). */
static struct nk_thread *spawn(char c, int prio, void (*fn)(void *))
{
	char tname[8] = {c, 0};
	struct nk_thread_attr attr = {.name = tname,
				      .priority = prio,
				      .policy = NK_SCHED_FIFO,
				      .flags = NK_THREAD_JOINABLE};
	struct nk_thread *t;

	if (nk_thread_create(nk, &attr, &t) ||
	    nk_thread_start(t, fn, (void *)(uintptr_t)c))
		return NULL;
	return t;
}

static void take_and_note(void *arg)
{
	if (nk_sem_take(board->sem, NK_INFINITE, NK_RELATIVE) == NK_WAKE_OK)
		note((char)(uintptr_t)arg);
}

/* After 20 ms of its own process's timer: note, and stop the spinner. */
static void sleep_and_note(void *arg)
{
	if (nk_thread_sleep(nk, 20000000, NK_RELATIVE) == 0)
		note((char)(uintptr_t)arg);
	atomic_store(&board->flag, true);
}

/* Spin until another thread sets the flag, 2 s at most: only a
 * preemption lets it run on this CPU. */
static void spin_and_note(void *arg)
{
	struct timespec start, now;

	atomic_store(&board->spinning, true);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do
		clock_gettime(CLOCK_MONOTONIC, &now);
	while (!atomic_load(&board->flag) && now.tv_sec - start.tv_sec < 2);
	note(atomic_load(&board->flag) ? (char)(uintptr_t)arg : '!');
}

/*
 * Sleep 10 ms (main relaxes meanwhile); then 100 ms at a time as the
 * idle CPU's waiter until a spinner has taken the CPU; then 100 ms more
 * under it: note, and stop it.
 */
static void sleep_under_spinner(void *arg)
{
	if (nk_thread_sleep(nk, 10000000, NK_RELATIVE))
		return;
	atomic_store(&board->idling, true);
	do
		if (nk_thread_sleep(nk, 100000000, NK_RELATIVE))
			return;
	while (!atomic_load(&board->spinning));
	if (nk_thread_sleep(nk, 100000000, NK_RELATIVE) == 0)
		note((char)(uintptr_t)arg);
	atomic_store(&board->flag, true);
}

static void lock_and_note(void *arg)
{
	if (nk_mutex_lock(board->mutex, NK_INFINITE, NK_RELATIVE) ==
	    NK_WAKE_OK) {
		note((char)(uintptr_t)arg);
		(void)nk_mutex_unlock(board->mutex);
	}
}

/* Hold the mutex, then wait for ever. */
static void hold_for_ever(void *arg)
{
	(void)arg;
	if (nk_mutex_lock(board->mutex, NK_INFINITE, NK_RELATIVE) ==
		NK_WAKE_OK &&
	    nk_sem_take(board->done, NK_INFINITE, NK_RELATIVE))
		note('!');
}

/* Spin on the CPU until the flag is set, 10 s at most. */
static void spin(void *arg)
{
	struct timespec start, now;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do
		clock_gettime(CLOCK_MONOTONIC, &now);
	while (!atomic_load(&board->flag) && now.tv_sec - start.tv_sec < 10);
}

/* Wait for the mutex; note how the wait ended. */
static void lock_and_keep(void *arg)
{
	int ret = nk_mutex_lock(board->mutex, NK_INFINITE, NK_RELATIVE);

	atomic_store(&board->lock_result, ret);
	note((char)(uintptr_t)arg);
	if (ret == NK_WAKE_OWNER_DEAD)
		(void)nk_mutex_unlock(board->mutex);
}

/* A timed wait nobody ends: its process's timer ends it.  Then it
 * says so on @done. */
static void time_out_and_note(void *arg)
{
	if (nk_sem_take(board->sem, 30000000, NK_RELATIVE) == NK_WAKE_TIMEOUT)
		note((char)(uintptr_t)arg);
	(void)nk_sem_give(board->done);
}

/*
 * A peer: 1 joins the instance; 6 leaves it and joins it again, after
 * asking for 2 CPUs, refused where it has 1; 2 starts a waiter at 30
 * ('B') and one at 10 ('b'); 3 a sleeper at 30; 4 a mutex waiter at
 * 30; 5 a timed waiter; 7 a mutex holder that then waits for ever; 8 a
 * spinner at 40; 13 a spinner at 10 that notes when stopped (the step
 * answers once it has); 12 a sleeper the test joins; 14 deletes our
 * holder inside a section of its own and dies before that ends; 9 joins
 * its threads and leaves the instance.  The killer: 10 joins the
 * session only; 11 kills the victim 200 ms later.
 */
static void (*const plays[])(void *) = {[3] = sleep_and_note,
					[4] = lock_and_note,
					[5] = time_out_and_note,
					[7] = hold_for_ever,
					[8] = spin,
					[13] = spin_and_note};

static int peer_step_fn(void *arg, int n)
{
	static struct nk_thread *mine[8];
	static int nr;
	char up = (char)(uintptr_t)arg, low = (char)(up - 'A' + 'a');

	struct nk_instance_attr two = {
	    .nr_cpus = 2, .session = true, .join = true};

	switch (n) {
	case 6:
		PEER_CHECK(nk_instance_destroy(nk) == 0);
		PEER_CHECK(nk_instance_create(&two, &nk) == -EINVAL);
		return join_instance(0) ? __LINE__ : 0;
	case 1:
		PEER_CHECK(fusion_session_join(name) == 0);
		PEER_CHECK(board_map() == 0);
		return join_instance(0) ? __LINE__ : 0;
	case 2:
		mine[nr++] = spawn(up, 30, take_and_note);
		mine[nr++] = spawn(low, 10, take_and_note);
		break;
	case 3:
	case 4:
	case 5:
		mine[nr++] = spawn(up, 30, plays[n]);
		break;
	case 7:
		mine[nr++] = board->holder = spawn(up, 30, plays[n]);
		break;
	case 12:
		/* Joined by the test, not by us. */
		board->joinee = spawn(up, 30, plays[3]);
		PEER_CHECK(board->joinee != NULL);
		return nk_thread_relax(nk) ? __LINE__ : 0;
	case 8:
		/* Above every other thread: the CPU is its until it dies. */
		mine[nr++] = spawn(up, 40, plays[n]);
		break;
	case 13:
		mine[nr++] = spawn(up, 10, plays[n]);
		break;
	case 14:
		nk_lock(nk);
		PEER_CHECK(nk_thread_delete(board->holder) == 0);
		raise(SIGKILL);
		return __LINE__;
	case 10:
		/* The killer, in the session but not in the instance, on
		 * a CPU the spinner leaves it: kills the victim later. */
		PEER_CHECK(fusion_session_join(name) == 0);
		return board_map() ? __LINE__ : 0;
	case 11:
		nanosleep(&(struct timespec){0, 200000000}, NULL);
		PEER_CHECK(kill(board->victim, SIGKILL) == 0);
		return fusion_session_leave() ? __LINE__ : 0;
	case 9:
		for (int i = 0; i < nr; i++)
			PEER_CHECK(nk_thread_join(mine[i]) == 0);
		nr = 0;
		PEER_CHECK(nk_instance_destroy(nk) == 0);
		return fusion_session_leave() ? __LINE__ : 0;
	default:
		return __LINE__;
	}
	PEER_CHECK(mine[nr - 1] != NULL);
	return nk_thread_relax(nk) ? __LINE__ : 0;
}

/*
 * Our side: the session, the instance and the board, with peers @p
 * started (before we join anything) and joined to it, and a @killer
 * (NULL: none) in the session only.
 */
static void set_up(const char *what, struct peer *p, int np,
		   struct peer *killer)
{
	session_test_name(name, sizeof(name), what);
	for (int i = 0; i < np; i++)
		peer_start(&p[i], peer_step_fn, (void *)(uintptr_t)('B' + i));
	if (killer)
		peer_start(killer, peer_step_fn, (void *)(uintptr_t)'K');
	CHECK_EQ(fusion_session_join(name), 0);
	CHECK_EQ(board_map(), 0);
	CHECK_EQ(join_instance(0), 0);
	memset(board, 0, sizeof(*board));
	board->sem = nk_alloc(nk, sizeof(*board->sem));
	board->done = nk_alloc(nk, sizeof(*board->done));
	board->mutex = nk_alloc(nk, sizeof(*board->mutex));
	CHECK_EQ(nk_sem_init(nk, board->sem, "sem", 0, 0, NK_SYNCH_PRIO), 0);
	CHECK_EQ(nk_sem_init(nk, board->done, "done", 0, 0, 0), 0);
	CHECK_EQ(nk_mutex_init(nk, board->mutex, "mutex", NK_SYNCH_PI, 0), 0);
	CHECK_EQ(nk_thread_relax(nk), 0);
	for (int i = 0; i < np; i++)
		CHECK_EQ(peer_step(&p[i], 1), 0);
	if (killer)
		CHECK_EQ(peer_step(killer, 10), 0);
}

static void tear_down(struct peer *p, int np)
{
	for (int i = 0; i < np; i++) {
		CHECK_EQ(peer_step(&p[i], 9), 0);
		CHECK_EQ(peer_end(&p[i]), 0);
	}
	test_instance_whole(nk);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

/* Waiters of three processes on one semaphore: by priority. */
TEST(wake_order_across_processes)
{
	struct nk_status_thread threads[4];
	struct peer p[2];
	struct nk_thread *a;
	struct nk_status st;

	set_up("order", p, 2, NULL);
	CHECK_EQ(peer_step(&p[0], 2), 0); /* 'B' at 30, 'b' at 10 */
	CHECK_EQ(peer_step(&p[1], 2), 0); /* 'C' at 30, 'c' at 10 */
	a = spawn('a', 20, take_and_note);
	CHECK(a != NULL);
	/* Our status shows our threads, each peer's its own. */
	CHECK_EQ(nk_instance_status(nk, &st, threads, 4, NULL, 0), 0);
	CHECK_EQ(st.nr_threads, 2);
	CHECK_STR(threads[0].name, "main");
	CHECK_STR(threads[1].name, "a");
	/* The first of two at one priority: the first to wait. */
	for (int i = 0; i < 5; i++)
		CHECK_EQ(nk_sem_give(board->sem), 0);
	CHECK_STR(board->order, "BCabc");
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_EQ(nk_thread_relax(nk), 0);
	tear_down(p, 2);
}

/*
 * A thread of ours spins on the CPU; the peer's more urgent one wakes
 * from its 20 ms sleep (the peer's timer) and runs at once, before the
 * spinner sees the flag it sets.
 */
TEST(preemption_across_processes)
{
	struct peer p;
	struct nk_thread *a;

	set_up("preempt", &p, 1, NULL);
	CHECK_EQ(peer_step(&p, 3), 0);
	a = spawn('a', 10, spin_and_note);
	CHECK(a != NULL);
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_STR(board->order, "Ba");
	CHECK_EQ(nk_thread_relax(nk), 0);
	tear_down(&p, 1);
}

/* 'l' before it lets go of the mutex, 'L' after. */
static void hold_and_note(void *arg)
{
	char c = (char)(uintptr_t)arg;

	if (nk_mutex_lock(board->mutex, NK_INFINITE, NK_RELATIVE) != NK_WAKE_OK)
		return;
	/* Until the peer's thread waits for the mutex. */
	while (!atomic_load(&board->flag))
		if (nk_thread_sleep(nk, 1000000, NK_RELATIVE))
			return;
	note(c);
	(void)nk_mutex_unlock(board->mutex);
	note((char)(c - 'a' + 'A'));
}

/*
 * Our 'l' (10) holds a mutex the peer's 'B' (30) waits for: 'l' runs at
 * 30 (its SCHED_FIFO priority too) until it lets go, when 'B' takes the
 * mutex from it at once.
 */
TEST(inheritance_across_processes)
{
	struct peer p;
	struct nk_thread *l;
	pid_t tid;
	int fifo;

	set_up("inherit", &p, 1, NULL);
	l = spawn('l', 10, hold_and_note);
	CHECK(l != NULL);
	CHECK_EQ(nk_thread_host(l, &tid, NULL), 0);
	fifo = test_fifo_of(tid);
	CHECK_EQ(nk_thread_effective_priority(l), 10);
	CHECK_EQ(nk_thread_relax(nk), 0);
	CHECK_EQ(peer_step(&p, 4), 0);
	CHECK_EQ(nk_thread_effective_priority(l), 30);
	if (fifo)
		CHECK(test_fifo_of(tid) > fifo);
	atomic_store(&board->flag, true);
	CHECK_EQ(nk_thread_join(l), 0);
	CHECK_STR(board->order, "lBL");
	CHECK_EQ(nk_thread_relax(nk), 0);
	tear_down(&p, 1);
}

/*
 * A joiner's own timeout fires, in its process: a wait of 30 ms.  Our
 * main thread meanwhile idles the CPU as its idle waiter, polling until
 * its own 2 s timeout: the peer's interrupt thread readies its thread
 * and rings us (BE_SIG_DOORBELL) to hand the CPU over, well before.
 */
TEST(timeout_in_a_joiner)
{
	struct peer p;

	set_up("timeout", &p, 1, NULL);
	CHECK_EQ(peer_step(&p, 5), 0);
	CHECK_EQ(nk_sem_take(board->done, 2000000000, NK_RELATIVE), NK_WAKE_OK);
	CHECK_STR(board->order, "B");
	CHECK_EQ(nk_thread_relax(nk), 0);
	tear_down(&p, 1);
}

/*
 * Our timer while another process's thread has the CPU.  Our 'a' (20)
 * sleeps as the idle CPU's waiter, which polls until the date without
 * arming its process's timer.  The peer's spinner 'B' (10) takes the
 * CPU: our waiter, handing it over, arms our timer, which ends the
 * sleep.  'a' then sleeps again, switching to 'B' itself, which arms it
 * too; it ends the spin.  Unarmed, 'B' would spin 2 s ('!').
 */
TEST(own_timer_under_another_process)
{
	struct peer p;
	struct nk_thread *a;

	set_up("timer", &p, 1, NULL);
	a = spawn('a', 20, sleep_under_spinner);
	CHECK(a != NULL);
	CHECK_EQ(nk_thread_relax(nk), 0);
	for (int i = 0; i < 10000 && !atomic_load(&board->idling); i++)
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	CHECK_EQ(peer_step(&p, 13), 0); /* 'B' has ended */
	CHECK_STR(board->order, "aB");
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_EQ(nk_thread_relax(nk), 0);
	tear_down(&p, 1);
}

/*
 * A thread of another process is deleted or joined from here: it ends
 * there.  Its mutex passes on; the joined one is freed by us.
 */
TEST(delete_and_join_across_processes)
{
	struct peer p;
	struct nk_thread *a;

	set_up("delete", &p, 1, NULL);
	CHECK_EQ(peer_step(&p, 7), 0); /* 'B' holds the mutex */
	a = spawn('a', 20, lock_and_keep);
	CHECK(a != NULL);
	CHECK_EQ(nk_thread_relax(nk), 0);
	CHECK_EQ(peer_step(&p, 12), 0); /* 'B' sleeps 20 ms */
	/* Its code is the peer's: no entry of ours starts it. */
	CHECK(!nk_thread_here(board->joinee));
	CHECK(nk_thread_here(a));
	CHECK_EQ(nk_thread_start(board->joinee, spin, NULL), -EPERM);
	CHECK_EQ(nk_thread_delete(board->holder), 0);
	CHECK_EQ(nk_thread_delete(board->holder), -ESRCH);
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_EQ(atomic_load(&board->lock_result), NK_WAKE_OWNER_DEAD);
	CHECK_EQ(nk_thread_join(board->joinee), 0);
	CHECK_EQ(atomic_load(&board->n), 2);
	CHECK(strchr(board->order, 'a') && strchr(board->order, 'B'));
	CHECK_EQ(nk_thread_relax(nk), 0);
	tear_down(&p, 1);
}

/*
 * Refused: a member with threads of its own still running cannot leave;
 * a joiner asks for the instance's CPUs.
 */
TEST(bad_input)
{
	struct nk_thread *a;
	struct peer p[2];

	set_up("bad", p, 2, NULL);
	CHECK_EQ(peer_step(&p[1], 6), 0);
	a = spawn('a', 5, take_and_note);
	CHECK(a != NULL);
	CHECK_EQ(nk_instance_destroy(nk), -EBUSY);
	CHECK_EQ(nk_sem_give(board->sem), 0);
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_STR(board->order, "a");
	CHECK_EQ(nk_thread_relax(nk), 0);
	tear_down(p, 2);
}

/*
 * A member killed while its threads hold the CPU, a mutex and a place in
 * a wait queue: within the watch's period another member cleans up after
 * it.  The CPU passes on, the mutex to our waiter with OWNER_DEAD, the
 * queue forgets its waiter, and the instance is whole.
 */
TEST(member_killed)
{
	struct peer p, killer;
	struct nk_thread *a, *c;
	int ret;

	set_up("killed", &p, 1, &killer);
	CHECK_EQ(peer_step(&p, 7), 0); /* 'B' holds the mutex, waits */
	CHECK_EQ(peer_step(&p, 2), 0); /* 'B', 'b' wait on the semaphore */
	a = spawn('a', 20, lock_and_keep);
	CHECK(a != NULL);
	CHECK_EQ(nk_thread_relax(nk), 0);
	board->victim = p.pid;
	/* Its spinner takes the CPU; the killer kills it 200 ms later. */
	CHECK_EQ(write(killer.cmd, &(int){11}, sizeof(int)), sizeof(int));
	CHECK_EQ(peer_step(&p, 8), -1);
	CHECK(WIFSIGNALED(peer_end(&p)));
	CHECK_EQ(read(killer.reply, &ret, sizeof(ret)), sizeof(ret));
	CHECK_EQ(ret, 0);
	CHECK_EQ(peer_end(&killer), 0);
	/* Ours run again: 'a' got the mutex, 'c' the semaphore. */
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_EQ(atomic_load(&board->lock_result), NK_WAKE_OWNER_DEAD);
	c = spawn('c', 10, take_and_note);
	CHECK(c != NULL);
	CHECK_EQ(nk_sem_give(board->sem), 0);
	CHECK_EQ(nk_thread_join(c), 0);
	CHECK_STR(board->order, "ac");
	CHECK_EQ(nk->core->nr_threads, 1);
	CHECK_EQ(nk_thread_relax(nk), 0);
	test_instance_whole(nk);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

/*
 * A member deletes our 'a', waiting on the semaphore, and dies inside
 * the same section: the next holder of the lock undoes the deletion, so
 * 'a' must still be there to take the semaphore.  Ended at the deletion
 * instead of at the section's release, its OS thread would be gone,
 * and the CPU given to it lost.
 */
TEST(kill_undone_with_its_section)
{
	struct peer p;
	struct nk_thread *a;
	pthread_t pthread;
	pid_t tid;

	set_up("undone", &p, 1, NULL);
	a = board->holder = spawn('a', 20, take_and_note);
	CHECK(a != NULL);
	CHECK_EQ(nk_thread_host(a, &tid, &pthread), 0);
	CHECK_EQ(nk_thread_relax(nk), 0);
	CHECK_EQ(peer_step(&p, 14), -1);
	CHECK(WIFSIGNALED(peer_end(&p)));
	/* Ended, it would have ended at once: its gate opened. */
	nanosleep(&(struct timespec){0, 20000000}, NULL);
	CHECK_EQ(syscall(SYS_tgkill, getpid(), tid, 0), 0);
	CHECK_EQ(nk_sem_give(board->sem), 0);
	CHECK_EQ(nk_thread_relax(nk), 0);
	for (int i = 0; i < 2000 && atomic_load(&board->n) == 0; i++)
		nanosleep(&(struct timespec){0, 5000000}, NULL);
	CHECK_STR(board->order, "a");
	CHECK_EQ(nk_thread_join(a), 0);
	CHECK_EQ(nk_thread_relax(nk), 0);
	test_instance_whole(nk);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	CHECK_EQ(fusion_session_leave(), 0);
	CHECK(!session_test_exists(name));
}

TESTS(T(wake_order_across_processes), T(preemption_across_processes),
      T(inheritance_across_processes), T(timeout_in_a_joiner),
      T(own_timer_under_another_process), T(delete_and_join_across_processes),
      T(bad_input), T(member_killed), T(kill_undone_with_its_section));
