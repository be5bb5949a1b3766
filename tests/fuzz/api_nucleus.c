/* SPDX-License-Identifier: MIT */
/*
 * The nucleus API's table for the API-sequence fuzzer: threads,
 * semaphores and mutexes of include/fusion/, with the codes their
 * header comments document (the wake reasons of blocking calls among
 * them).
 *
 * Nucleus objects live in the caller's memory, so a "bad descriptor"
 * here is an object destroyed (its magic cleared), never initialised,
 * zeroed or filled with random bytes; an object is initialised only
 * where none lives (initialising a live one is a misuse the C API
 * cannot see).  Threads are joinable and joined only at the end, so
 * their pointers stay valid: a deleted or ended one is a zombie.
 */
#include "fuzz.h"

#include <fusion/fusion.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#define NR 3
#define WATCH_NS 1000000 /* the watcher's period: 1 ms */

static struct nk_instance *nk;

static struct {
	struct nk_thread *thread[FUZZ_MAX_TASKS];
	struct nk_sem sem[NR];
	struct nk_mutex mutex[NR];
	bool sem_live[NR], mutex_live[NR];
} pool;

/* Zeroed or random bytes posing as an object. */
static union {
	struct nk_sem sem;
	struct nk_mutex mutex;
	char bytes[4096];
} scratch[FUZZ_MAX_TASKS];

/* A pool slot (index in *@slot), or scratch memory (*@slot -1). */
static void *pick(struct fuzz_task *t, void *slots, size_t size,
		  const char *cls, int *slot)
{
	uint32_t r = fuzz_below(&t->rng, 100);
	char *s = scratch[t->slot].bytes;

	*slot = -1;
	if (r < 90) {
		*slot = (int)fuzz_below(&t->rng, NR);
		fuzz_args(t, "%s[%d]", cls, *slot);
		return (char *)slots + (size_t)*slot * size;
	}
	memset(s, 0, sizeof(scratch[0]));
	if (r < 95) {
		fuzz_args(t, "zeroed %s", cls);
	} else {
		for (size_t i = 0; i < sizeof(scratch[0]); i += 8) {
			uint64_t v = fuzz_next(&t->rng);

			memcpy(s + i, &v, sizeof(v));
		}
		fuzz_args(t, "random %s", cls);
	}
	return s;
}

static struct nk_sem *pick_sem(struct fuzz_task *t, int *slot)
{
	return pick(t, pool.sem, sizeof(pool.sem[0]), "sem", slot);
}

static struct nk_mutex *pick_mutex(struct fuzz_task *t, int *slot)
{
	return pick(t, pool.mutex, sizeof(pool.mutex[0]), "mutex", slot);
}

/* A thread of the pool (maybe never created: NULL), or scratch. */
static struct nk_thread *pick_thread(struct fuzz_task *t)
{
	int i = (int)fuzz_below(&t->rng, FUZZ_MAX_TASKS + 1);

	if (i == FUZZ_MAX_TASKS) {
		memset(&scratch[t->slot], 0, sizeof(scratch[0]));
		fuzz_args(t, "zeroed thread");
		return (struct nk_thread *)(void *)&scratch[t->slot];
	}
	fuzz_args(t, "thread[%d]", i);
	return pool.thread[i];
}

/* A relative or absolute timeout: now, small, infinite or extreme. */
static nk_time_t draw_timeout(struct fuzz_task *t, enum nk_tmode *mode)
{
	const char *text;
	uint64_t v = fuzz_timeout(t, 0, NK_INFINITE, &text);
	nk_time_t tmo = v > INT64_MAX ? -(nk_time_t)(v & 0xffff) : (nk_time_t)v;

	*mode = fuzz_chance(&t->rng, 30) ? NK_ABSOLUTE : NK_RELATIVE;
	if (*mode == NK_ABSOLUTE && tmo != NK_INFINITE && tmo >= 0)
		tmo = tmo < (1ll << 62) ? nk_now(nk) + tmo : tmo;
	fuzz_args(t, "%s %lld", *mode == NK_ABSOLUTE ? "at" : "in",
		  (long long)tmo);
	return tmo;
}

static void worker(void *arg)
{
	fuzz_task_run(arg);
}

static long thread_spawn(struct fuzz_task *t)
{
	static const int prios[] = {-1, 256, 1000};
	struct nk_thread_attr attr = {.flags = NK_THREAD_JOINABLE};
	struct nk_thread *thread;
	int i;
	long ret;

	for (i = 0; i < FUZZ_MAX_TASKS && pool.thread[i]; i++)
		;
	attr.priority = fuzz_chance(&t->rng, 90)
			    ? 1 + (int)fuzz_below(&t->rng, 255)
			    : prios[fuzz_below(&t->rng, 3)];
	if (fuzz_chance(&t->rng, 20)) {
		attr.policy = NK_SCHED_RR;
		attr.quantum = (nk_time_t)fuzz_below(&t->rng, 100000);
	}
	if (fuzz_chance(&t->rng, 5))
		attr.flags = (unsigned int)fuzz_next(&t->rng);
	if (fuzz_chance(&t->rng, 5))
		attr.cpu = (int)fuzz_below(&t->rng, 4);
	fuzz_args(t, "slot %d, prio %d, policy %d, quantum %lld, flags %#x", i,
		  attr.priority, attr.policy, (long long)attr.quantum,
		  attr.flags);
	ret = nk_thread_create(nk, &attr, &thread);
	/* No free slot: the thread stays dormant; it ends with the run. */
	if (ret || i == FUZZ_MAX_TASKS)
		return ret;
	pool.thread[i] = thread;
	t->w->tasks[i].alive = true;
	ret = nk_thread_start(thread, worker, &t->w->tasks[i]);
	if (ret)
		t->w->tasks[i].alive = false;
	return ret;
}

static long thread_delete(struct fuzz_task *t)
{
	struct nk_thread *thread = pick_thread(t);
	bool self = thread && thread == nk_thread_self(nk);
	long ret;

	/* Deleting oneself does not return. */
	if (self)
		t->alive = false;
	ret = nk_thread_delete(thread);
	if (self)
		t->alive = true;
	for (int i = 0; ret == 0 && i < FUZZ_MAX_TASKS; i++)
		if (pool.thread[i] == thread)
			t->w->tasks[i].alive = false;
	return ret;
}

static long thread_suspend(struct fuzz_task *t)
{
	return nk_thread_suspend(pick_thread(t));
}

static long thread_resume(struct fuzz_task *t)
{
	return nk_thread_resume(pick_thread(t));
}

static long thread_unblock(struct fuzz_task *t)
{
	return nk_thread_unblock(pick_thread(t));
}

static long thread_set_priority(struct fuzz_task *t)
{
	struct nk_thread *thread = pick_thread(t);
	int prio = fuzz_chance(&t->rng, 90) ? (int)fuzz_below(&t->rng, 256)
					    : (int)fuzz_next(&t->rng);

	fuzz_args(t, "%d", prio);
	return nk_thread_set_priority(thread, prio);
}

static long thread_sleep(struct fuzz_task *t)
{
	enum nk_tmode mode;
	nk_time_t tmo = draw_timeout(t, &mode);

	return nk_thread_sleep(nk, tmo, mode);
}

static long thread_yield(struct fuzz_task *t)
{
	(void)t;
	return nk_thread_yield(nk);
}

static long sem_init(struct fuzz_task *t)
{
	static const unsigned long counts[] = {0, 1, 5, ULONG_MAX};
	static const unsigned int flags[] = {NK_SYNCH_FIFO, NK_SYNCH_PRIO,
					     NK_SEM_PULSE, 0x80};
	int i;
	struct nk_sem *sem = pick_sem(t, &i);
	unsigned long count = counts[fuzz_below(&t->rng, 4)];
	unsigned long max = counts[fuzz_below(&t->rng, 4)];
	unsigned int f = flags[fuzz_below(&t->rng, 4)];
	long ret;

	fuzz_args(t, "%lu, %lu, %#x", count, max, f);
	if (i >= 0 && pool.sem_live[i]) {
		fuzz_args(t, "skipped: it lives");
		return 0;
	}
	ret = nk_sem_init(nk, sem, NULL, count, max, f);
	if (ret == 0 && i >= 0)
		pool.sem_live[i] = true;
	return ret;
}

static long sem_destroy(struct fuzz_task *t)
{
	int i;
	struct nk_sem *sem = pick_sem(t, &i);
	long ret = nk_sem_destroy(sem);

	if (ret == 0 && i >= 0)
		pool.sem_live[i] = false;
	return ret;
}

static long sem_take(struct fuzz_task *t)
{
	int i;
	struct nk_sem *sem = pick_sem(t, &i);
	enum nk_tmode mode;
	nk_time_t tmo = draw_timeout(t, &mode);

	return nk_sem_take(sem, tmo, mode);
}

static long sem_give(struct fuzz_task *t)
{
	int i;

	return nk_sem_give(pick_sem(t, &i));
}

static long sem_flush(struct fuzz_task *t)
{
	int i;

	return nk_sem_flush(pick_sem(t, &i));
}

static long sem_count(struct fuzz_task *t)
{
	unsigned long count;
	int i;

	return nk_sem_count(pick_sem(t, &i), &count);
}

static long mutex_init(struct fuzz_task *t)
{
	static const unsigned int flags[] = {
	    NK_SYNCH_PRIO, NK_MUTEX_RECURSIVE,
	    NK_SYNCH_PI,   NK_SYNCH_PI | NK_MUTEX_RECURSIVE,
	    NK_SYNCH_PP,   NK_SYNCH_PI | NK_SYNCH_PP,
	    0x4000};
	int i;
	struct nk_mutex *mutex = pick_mutex(t, &i);
	unsigned int f = flags[fuzz_below(&t->rng, 7)];
	int ceiling = (int)fuzz_below(&t->rng, 300);
	long ret;

	fuzz_args(t, "%#x, ceiling %d", f, ceiling);
	if (i >= 0 && pool.mutex_live[i]) {
		fuzz_args(t, "skipped: it lives");
		return 0;
	}
	ret = nk_mutex_init(nk, mutex, NULL, f, ceiling);
	if (ret == 0 && i >= 0)
		pool.mutex_live[i] = true;
	return ret;
}

static long mutex_destroy(struct fuzz_task *t)
{
	int i;
	struct nk_mutex *mutex = pick_mutex(t, &i);
	long ret;

	ret = nk_mutex_destroy(mutex);
	if (ret == 0 && i >= 0)
		pool.mutex_live[i] = false;
	return ret;
}

static long mutex_lock(struct fuzz_task *t)
{
	int i;
	struct nk_mutex *mutex = pick_mutex(t, &i);
	enum nk_tmode mode;
	nk_time_t tmo = draw_timeout(t, &mode);

	return nk_mutex_lock(mutex, tmo, mode);
}

static long mutex_unlock(struct fuzz_task *t)
{
	int i;

	return nk_mutex_unlock(pick_mutex(t, &i));
}

/* The wake reasons a blocking call may return besides its errors. */
#define WAKES -ETIMEDOUT, -EIDRM, -EINTR

static const struct fuzz_op ops[] = {
    {"nk_thread_create+start", 2, 0, thread_spawn,
     FUZZ_CODES(-EINVAL, -ENOMEM, -EAGAIN, -EBUSY)},
    {"nk_thread_delete", 1, 0, thread_delete, FUZZ_CODES(-EINVAL, -ESRCH)},
    {"nk_thread_suspend", 3, 0, thread_suspend,
     FUZZ_CODES(-EINVAL, -ESRCH, -EPERM, -EOVERFLOW)},
    {"nk_thread_resume", 5, 0, thread_resume,
     FUZZ_CODES(-EINVAL, -ESRCH, -EPERM)},
    {"nk_thread_unblock", 3, 0, thread_unblock,
     FUZZ_CODES(-EINVAL, -ESRCH, -EAGAIN)},
    {"nk_thread_set_priority", 3, 0, thread_set_priority,
     FUZZ_CODES(-EINVAL, -ESRCH)},
    {"nk_thread_sleep", 3, 0, thread_sleep, FUZZ_CODES(-EINVAL, -EPERM, WAKES)},
    {"nk_thread_yield", 2, 0, thread_yield, FUZZ_CODES(-EINVAL, -EPERM)},
    {"nk_sem_init", 3, 0, sem_init, FUZZ_CODES(-EINVAL)},
    {"nk_sem_destroy", 2, 0, sem_destroy, FUZZ_CODES(-EINVAL)},
    {"nk_sem_take", 6, 0, sem_take,
     FUZZ_CODES(-EINVAL, -EPERM, -EWOULDBLOCK, WAKES)},
    {"nk_sem_give", 6, 0, sem_give, FUZZ_CODES(-EINVAL, -EOVERFLOW)},
    {"nk_sem_flush", 1, FUZZ_COUNT, sem_flush, FUZZ_CODES(-EINVAL)},
    {"nk_sem_count", 1, 0, sem_count, FUZZ_CODES(-EINVAL)},
    {"nk_mutex_init", 3, 0, mutex_init, FUZZ_CODES(-EINVAL)},
    {"nk_mutex_destroy", 2, 0, mutex_destroy, FUZZ_CODES(-EINVAL)},
    {"nk_mutex_lock", 6, 0, mutex_lock,
     FUZZ_CODES(-EINVAL, -EPERM, -EDEADLK, -EWOULDBLOCK, -EOVERFLOW,
		-EOWNERDEAD, WAKES)},
    {"nk_mutex_unlock", 6, 0, mutex_unlock, FUZZ_CODES(-EINVAL, -EPERM)},
};

static int setup(struct fuzz_world *w)
{
	struct nk_instance_attr attr = {.main_name = "watcher"};
	struct nk_thread_attr ta = {.flags = NK_THREAD_JOINABLE};

	if (nk_instance_create(&attr, &nk))
		return -1;
	for (int i = 0; i < NR; i++) {
		if (nk_sem_init(nk, &pool.sem[i], NULL, (unsigned long)i, 0,
				NK_SYNCH_PRIO) ||
		    nk_mutex_init(nk, &pool.mutex[i], NULL, NK_SYNCH_PI, 0))
			return -1;
		pool.sem_live[i] = pool.mutex_live[i] = true;
	}
	/* All created before any runs: a worker may act on the others. */
	for (int i = 0; i < w->nr_tasks; i++) {
		ta.priority = 1 + (int)fuzz_below(&w->rng, 255);
		if (nk_thread_create(nk, &ta, &pool.thread[i]))
			return -1;
		w->tasks[i].alive = true;
	}
	/* The first ones started may delete the others meanwhile. */
	for (int i = 0; i < w->nr_tasks; i++)
		if (nk_thread_start(pool.thread[i], worker, &w->tasks[i]))
			w->tasks[i].alive = false;
	return 0;
}

static void idle(struct fuzz_world *w)
{
	/* A timeout, or an unblock by a worker: a period either way. */
	int woke = nk_thread_sleep(nk, WATCH_NS, NK_RELATIVE);

	(void)w;
	(void)woke;
}

static void rescue(struct fuzz_world *w)
{
	for (int i = 0; i < FUZZ_MAX_TASKS; i++) {
		if (!w->tasks[i].alive)
			continue;
		/* Suspensions nest (a few deep at most, in a run). */
		for (int n = 0; n < 16; n++)
			(void)nk_thread_resume(pool.thread[i]);
		(void)nk_thread_unblock(pool.thread[i]);
	}
}

static void teardown(struct fuzz_world *w)
{
	for (int i = 0; i < FUZZ_MAX_TASKS; i++)
		if (w->tasks[i].alive)
			(void)nk_thread_delete(pool.thread[i]);
	for (int i = 0; i < FUZZ_MAX_TASKS; i++)
		if (pool.thread[i] && nk_thread_join(pool.thread[i]))
			fprintf(stderr,
				"fuzz_api: nucleus: thread[%d] not joined\n",
				i);
	nk_instance_destroy(nk);
}

FUZZ_API_TABLE(nucleus);
