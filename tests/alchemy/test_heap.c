/* SPDX-License-Identifier: MIT */
/*
 * Alchemy heaps: argument checking, allocation and release with exact
 * accounting, the whole heap as one request, H_SINGLE, allocations
 * that wait until another task frees memory, the service order of
 * H_FIFO and H_PRIO waiters, timeouts at exact virtual dates (sim),
 * deletion and unblocking of waiters, preemption by a free and its
 * deferral under T_LOCK, races with deletion, tasks deleted while they
 * wait, binding by name, calls from a plain pthread.
 *
 * main is the lowest task (nucleus priority 0): every task it spawns
 * runs at once, up to its first wait.
 */
#include "alchemy_test.h"

#include <alchemy/heap.h>

static RT_HEAP_INFO info_of(RT_HEAP *heap)
{
	RT_HEAP_INFO info;

	memset(&info, 0x55, sizeof(info));
	CHECK_EQ(rt_heap_inquire(heap, &info), 0);
	return info;
}

/* A task that allocates once, fills its block and keeps it. */
struct getter {
	RT_HEAP *heap;
	const char *name;
	size_t size;
	RTIME timeout;
	int ret;
	void *block;
	RTIME woke;
	RT_TASK task;
};

static void getter_body(void *arg)
{
	struct getter *g = arg;

	g->ret = rt_heap_alloc(g->heap, g->size, g->timeout, &g->block);
	g->woke = rt_timer_read();
	if (g->ret == 0)
		memset(g->block, g->name[0], g->size);
	step(g->name);
}

static void get(struct getter *g, RT_HEAP *heap, const char *name, int prio,
		size_t size, RTIME timeout)
{
	memset(g, 0, sizeof(*g));
	g->heap = heap;
	g->name = name;
	g->size = size;
	g->timeout = timeout;
	g->ret = 1000;
	spawn(&g->task, prio, getter_body, g);
}

static void join(struct getter *g)
{
	CHECK_EQ(rt_task_join(&g->task), 0);
}

static bool filled(const void *block, int c, size_t size)
{
	const unsigned char *p = block;

	for (size_t i = 0; i < size; i++)
		if (p[i] != (unsigned char)c)
			return false;
	return true;
}

TEST(create_errors)
{
	RT_HEAP a, b;

	CHECK_EQ(rt_heap_create(NULL, "h", 1024, H_FIFO), -EINVAL);
	CHECK_EQ(rt_heap_create(&a, "h", 0, H_FIFO), -EINVAL);
	CHECK_EQ(rt_heap_create(&a, "h", (size_t)1 << 31, H_FIFO), -EINVAL);
	CHECK_EQ(rt_heap_create(&a, "h", SIZE_MAX, H_FIFO), -EINVAL);
	CHECK_EQ(rt_heap_create(&a, "h", 1024, 0x2), -EINVAL);
	CHECK_EQ(rt_heap_create(&a, "h", 1024, 0x8), -EINVAL);
	CHECK_EQ(rt_heap_create(&a, "h", 1024, -1), -EINVAL);
	CHECK_EQ(rt_heap_create(&a, "0123456789abcdef0123456789abcdef", 1024,
				H_FIFO),
		 -EINVAL);
	CHECK_EQ(rt_heap_create(&a, "dup", 1024, H_PRIO | H_SINGLE), 0);
	CHECK_EQ(rt_heap_create(&b, "dup", 1024, H_FIFO), -EEXIST);
	CHECK_EQ(rt_heap_delete(&a), 0);
	CHECK_EQ(rt_heap_create(&a, "dup", 1, H_FIFO), 0);
	CHECK_EQ(rt_heap_delete(&a), 0);
	CHECK_EQ(rt_heap_create(&a, NULL, 1024, H_FIFO), 0);
	CHECK_EQ(rt_heap_create(&b, "", 1024, H_FIFO), 0);
	CHECK(a.handle != b.handle);
	CHECK_EQ(rt_heap_delete(&a), 0);
	CHECK_EQ(rt_heap_delete(&b), 0);
}

TEST(bad_descriptors)
{
	struct timespec bad = {.tv_sec = 0, .tv_nsec = 1000000000L};
	RT_HEAP zero = {0}, junk = {(uintptr_t)0xdeadbeef},
		huge = {UINTPTR_MAX};
	RT_HEAP *bads[] = {&zero, &junk, &huge, NULL, NULL};
	RT_HEAP gone, ok, other;
	RT_HEAP_INFO info;
	void *blk = NULL, *b2;
	char local[32];

	CHECK_EQ(rt_heap_create(&gone, NULL, 1024, H_FIFO), 0);
	CHECK_EQ(rt_heap_alloc(&gone, 64, TM_NONBLOCK, &blk), 0);
	CHECK_EQ(rt_heap_delete(&gone), 0);
	bads[3] = &gone;
	for (int i = 0; i < 5; i++) {
		RT_HEAP *h = bads[i];

		CHECK_EQ(rt_heap_delete(h), -EINVAL);
		CHECK_EQ(rt_heap_alloc(h, 16, TM_INFINITE, &b2), -EINVAL);
		CHECK_EQ(rt_heap_alloc(h, 16, TM_NONBLOCK, &b2), -EINVAL);
		CHECK_EQ(rt_heap_alloc_until(h, 16, TM_INFINITE, &b2), -EINVAL);
		CHECK_EQ(rt_heap_alloc_timed(h, 16, NULL, &b2), -EINVAL);
		CHECK_EQ(rt_heap_free(h, blk), -EINVAL);
		CHECK_EQ(rt_heap_inquire(h, &info), -EINVAL);
	}
	CHECK_EQ(rt_heap_unbind(NULL), -EINVAL);
	CHECK_EQ(rt_heap_bind(NULL, "x", TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_heap_bind(&gone, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_heap_bind(&gone, "", TM_NONBLOCK), -EINVAL);

	CHECK_EQ(rt_heap_create(&ok, NULL, 1024, H_FIFO), 0);
	CHECK_EQ(rt_heap_create(&other, NULL, 1024, H_FIFO), 0);
	CHECK_EQ(rt_heap_inquire(&ok, NULL), -EINVAL);
	CHECK_EQ(rt_heap_alloc(&ok, 16, TM_NONBLOCK, NULL), -EINVAL);
	CHECK_EQ(rt_heap_alloc(&ok, 0, TM_NONBLOCK, &b2), -EINVAL);
	CHECK_EQ(rt_heap_alloc_timed(&ok, 16, &bad, &b2), -EINVAL);
	bad.tv_nsec = -1;
	CHECK_EQ(rt_heap_alloc_timed(&ok, 16, &bad, &b2), -EINVAL);
	CHECK_EQ(rt_heap_free(&ok, NULL), -EINVAL);
	CHECK_EQ(rt_heap_free(&ok, local), -EINVAL);
	CHECK_EQ(rt_heap_free(&ok, (void *)16), -EINVAL);
	CHECK_EQ(rt_heap_alloc(&other, 16, TM_NONBLOCK, &b2), 0);
	/* Another heap's block, an inner pointer, a double free. */
	CHECK_EQ(rt_heap_free(&ok, b2), -EINVAL);
	CHECK_EQ(rt_heap_free(&other, (char *)b2 + 16), -EINVAL);
	CHECK_EQ(rt_heap_free(&other, b2), 0);
	CHECK_EQ(rt_heap_free(&other, b2), -EINVAL);
	CHECK_EQ(info_of(&other).usedmem, 0);
	CHECK_EQ(rt_heap_delete(&other), 0);
	CHECK_EQ(rt_heap_delete(&ok), 0);
	CHECK_EQ(rt_heap_delete(&ok), -EINVAL);
}

TEST(alloc_free_and_inquire)
{
	struct timespec now = {0, 0};
	void *a = NULL, *b = NULL, *all = NULL, *p;
	RT_HEAP_INFO info;
	RT_HEAP heap;
	size_t used;

	CHECK_EQ(rt_heap_create(&heap, "pool", 4096, H_PRIO), 0);
	info = info_of(&heap);
	CHECK_EQ(info.nwaiters, 0);
	CHECK_EQ(info.mode, H_PRIO);
	CHECK_EQ(info.heapsize, 4096);
	CHECK_EQ(info.usablemem, 4096);
	CHECK_EQ(info.usedmem, 0);
	CHECK_STR(info.name, "pool");

	CHECK_EQ(rt_heap_alloc(&heap, 100, TM_NONBLOCK, &a), 0);
	CHECK_EQ(rt_heap_alloc_until(&heap, 1000, TM_INFINITE, &b), 0);
	CHECK(a != NULL && b != NULL && a != b);
	CHECK_EQ((uintptr_t)a % 16, 0);
	CHECK_EQ((uintptr_t)b % 16, 0);
	memset(a, 'a', 100);
	memset(b, 'b', 1000);
	CHECK(filled(a, 'a', 100));
	CHECK(filled(b, 'b', 1000));
	used = info_of(&heap).usedmem;
	CHECK(used >= 1100 && used < 1100 + 128);
	CHECK_EQ(rt_heap_free(&heap, a), 0);
	CHECK_EQ(rt_heap_free(&heap, a), -EINVAL);
	CHECK(info_of(&heap).usedmem < used);
	CHECK_EQ(rt_heap_free(&heap, b), 0);
	CHECK_EQ(info_of(&heap).usedmem, 0);

	/* The whole heap in one request, then nothing is left. */
	CHECK_EQ(rt_heap_alloc_timed(&heap, 4096, NULL, &all), 0);
	memset(all, 'z', 4096);
	CHECK_EQ(rt_heap_alloc(&heap, 1, TM_NONBLOCK, &p), -EWOULDBLOCK);
	CHECK_EQ(rt_heap_alloc_until(&heap, 1, TM_NONBLOCK, &p), -EWOULDBLOCK);
	CHECK_EQ(rt_heap_alloc_timed(&heap, 1, &now, &p), -EWOULDBLOCK);
	CHECK_EQ(rt_heap_free(&heap, all), 0);
	/* More than the heap holds can never be served. */
	CHECK_EQ(rt_heap_alloc(&heap, 4097 + 64, TM_NONBLOCK, &p),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

/* Xenomai's meaning of the size: what the blocks may add up to. */
TEST(size_is_usable_bytes)
{
	void *a = NULL, *b = NULL, *p;
	RT_HEAP heap;

	CHECK_EQ(rt_heap_create(&heap, "16k", 16384, H_FIFO), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 8192, TM_NONBLOCK, &a), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 8192, TM_NONBLOCK, &b), 0);
	memset(a, 'a', 8192);
	memset(b, 'b', 8192);
	CHECK(filled(a, 'a', 8192) && filled(b, 'b', 8192));
	CHECK_EQ(info_of(&heap).usedmem, 16384);
	CHECK_EQ(rt_heap_alloc(&heap, 1, TM_NONBLOCK, &p), -EWOULDBLOCK);
	CHECK_EQ(rt_heap_free(&heap, a), 0);
	CHECK_EQ(info_of(&heap).usedmem, 8192);
	CHECK_EQ(rt_heap_alloc(&heap, 8192, TM_NONBLOCK, &a), 0);
	CHECK_EQ(rt_heap_free(&heap, a), 0);
	CHECK_EQ(rt_heap_free(&heap, b), 0);
	CHECK_EQ(info_of(&heap).usedmem, 0);
	/* Many smaller blocks too: 500 bytes cost 512 (sizes round to 16). */
	for (int i = 0; i < 16384 / 512; i++)
		CHECK_EQ(rt_heap_alloc(&heap, 500, TM_NONBLOCK, &p), 0);
	CHECK_EQ(info_of(&heap).usedmem, 16384);
	CHECK_EQ(rt_heap_alloc(&heap, 1, TM_NONBLOCK, &p), -EWOULDBLOCK);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

TEST(single_block)
{
	void *p = NULL, *q = NULL, *other;
	RT_HEAP heap;

	CHECK_EQ(rt_heap_create(&heap, NULL, 1000, H_SINGLE), 0);
	CHECK_EQ(info_of(&heap).usedmem, 0);
	CHECK_EQ(rt_heap_alloc(&heap, 999, TM_NONBLOCK, &p), -EINVAL);
	CHECK_EQ(rt_heap_alloc(&heap, 0, TM_NONBLOCK, &p), 0);
	CHECK(p != NULL);
	memset(p, 's', 1000);
	CHECK(info_of(&heap).usedmem >= 1000);
	/* Every caller gets the same block, even with the heap "full". */
	CHECK_EQ(rt_heap_alloc(&heap, 1000, TM_INFINITE, &q), 0);
	CHECK(q == p);
	CHECK_EQ(rt_heap_alloc_timed(&heap, 0, NULL, &q), 0);
	CHECK(q == p);
	CHECK_EQ(rt_heap_alloc(&heap, 500, TM_INFINITE, &q), -EINVAL);
	/* Freeing it changes nothing; anything else is refused. */
	CHECK_EQ(rt_heap_free(&heap, p), 0);
	CHECK_EQ(rt_heap_free(&heap, (char *)p + 16), -EINVAL);
	CHECK_EQ(rt_heap_alloc_until(&heap, 0, TM_NONBLOCK, &q), 0);
	CHECK(q == p);
	CHECK(filled(q, 's', 1000));
	CHECK_EQ(rt_heap_delete(&heap), 0);

	/* Before the first alloc there is no block to free. */
	CHECK_EQ(rt_heap_create(&heap, NULL, 64, H_SINGLE | H_PRIO), 0);
	other = &heap;
	CHECK_EQ(rt_heap_free(&heap, other), -EINVAL);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

TEST(timeouts)
{
	bool sim = on_sim();
	void *all = NULL, *p;
	struct getter g;
	struct timespec ts;
	RTIME t0, date;
	RT_HEAP heap;

	CHECK_EQ(rt_heap_create(&heap, NULL, 2048, H_FIFO), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 2048, TM_NONBLOCK, &all), 0);
	t0 = rt_timer_read();
	CHECK_EQ(rt_heap_alloc(&heap, 16, MS, &p), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, MS);
	t0 = rt_timer_read();
	CHECK_EQ(rt_heap_alloc(&heap, 16, 1, &p), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, 1);
	t0 = rt_timer_read();
	CHECK_EQ(rt_heap_alloc_until(&heap, 16, t0 + 2500000, &p), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 2500000);
	date = rt_timer_read() + 300000;
	ts.tv_sec = (time_t)(date / 1000000000ULL);
	ts.tv_nsec = (long)(date % 1000000000ULL);
	CHECK_EQ(rt_heap_alloc_timed(&heap, 16, &ts, &p), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), date);
	/* A date already past times out without waiting. */
	t0 = rt_timer_read();
	CHECK_EQ(rt_heap_alloc_until(&heap, 16, 1, &p), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0);
	CHECK_EQ(info_of(&heap).nwaiters, 0);

	/* Served before its deadline: returns at the free, not later. */
	trail[0] = '\0';
	t0 = rt_timer_read();
	get(&g, &heap, "g", 10, 1500, margin(MS));
	CHECK_EQ(info_of(&heap).nwaiters, 1);
	CHECK_EQ(rt_task_sleep(400000), 0);
	step("free");
	CHECK_EQ(rt_heap_free(&heap, all), 0);
	join(&g);
	CHECK_EQ(g.ret, 0);
	CHECK_STR(trail, "free g");
	if (sim)
		CHECK_EQ(g.woke - t0, 400000);
	CHECK(filled(g.block, 'g', 1500));
	CHECK_EQ(rt_heap_free(&heap, g.block), 0);
	CHECK_EQ(info_of(&heap).usedmem, 0);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

TEST(alloc_waits_until_another_task_frees)
{
	void *half = NULL, *rest = NULL;
	struct getter g;
	RT_HEAP heap;

	trail[0] = '\0';
	CHECK_EQ(rt_heap_create(&heap, NULL, 4096, H_FIFO), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 2048, TM_INFINITE, &half), 0);
	memset(half, 'h', 2048);
	get(&g, &heap, "g", 20, 3000, TM_INFINITE);
	CHECK_EQ(info_of(&heap).nwaiters, 1);
	/* Room for a small block: the waiter's request still does not fit. */
	CHECK_EQ(rt_heap_alloc(&heap, 512, TM_NONBLOCK, &rest), 0);
	step("free small");
	CHECK_EQ(rt_heap_free(&heap, rest), 0);
	CHECK_EQ(info_of(&heap).nwaiters, 1);
	step("free half");
	CHECK_EQ(rt_heap_free(&heap, half), 0);
	step("back");
	join(&g);
	CHECK_STR(trail, "free small free half g back");
	CHECK_EQ(g.ret, 0);
	CHECK(filled(g.block, 'g', 3000));
	CHECK_EQ(info_of(&heap).nwaiters, 0);
	CHECK_EQ(rt_heap_free(&heap, g.block), 0);
	CHECK_EQ(info_of(&heap).usedmem, 0);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

/*
 * main holds the whole heap; "a" (priority 10, 3000 bytes), "b" (30,
 * 3000) and "c" (20, 100) wait in that order.  One free serves, in
 * service order, every request that still fits: one big one and "c".
 * Freeing the big block served then serves the other big request.
 */
static void grant_order(int mode, const char *served, int big,
			const char *later)
{
	static const char *const name[3] = {"a", "b", "c"};
	static const int prio[3] = {10, 30, 20};
	static const size_t size[3] = {3000, 3000, 100};
	struct getter g[3];
	void *all = NULL;
	RT_HEAP heap;

	trail[0] = '\0';
	CHECK_EQ(rt_heap_create(&heap, NULL, 4096, mode), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 4096, TM_INFINITE, &all), 0);
	for (int i = 0; i < 3; i++)
		get(&g[i], &heap, name[i], prio[i], size[i], TM_INFINITE);
	CHECK_EQ(info_of(&heap).nwaiters, 3);
	CHECK_EQ(rt_heap_free(&heap, all), 0);
	CHECK_STR(trail, served);
	CHECK_EQ(info_of(&heap).nwaiters, 1);
	CHECK(filled(g[big].block, name[big][0], size[big]));
	CHECK_EQ(rt_heap_free(&heap, g[big].block), 0);
	CHECK_STR(trail, later);
	for (int i = 0; i < 3; i++) {
		join(&g[i]);
		CHECK_EQ(g[i].ret, 0);
		CHECK(filled(g[i].block, name[i][0], i == big ? 0 : size[i]));
		if (i != big)
			CHECK_EQ(rt_heap_free(&heap, g[i].block), 0);
	}
	CHECK_EQ(info_of(&heap).usedmem, 0);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

TEST(fifo_order)
{
	/* a, then c (b no longer fits); they run by priority. */
	grant_order(H_FIFO, "c a", 0, "c a b");
}

TEST(prio_order)
{
	grant_order(H_PRIO, "b c", 1, "b c a");
}

TEST(free_preempts_and_tlock_defers)
{
	RT_TASK_INFO ti;
	void *all = NULL, *p;
	struct getter g;
	RT_HEAP heap;
	int mode = -1;

	CHECK_EQ(rt_heap_create(&heap, NULL, 1024, H_FIFO), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 1024, TM_INFINITE, &all), 0);
	trail[0] = '\0';
	get(&g, &heap, "high", 50, 1024, TM_INFINITE);
	/* Its wait cost no mode switch (waits allocate nothing). */
	CHECK_EQ(rt_task_inquire(&g.task, &ti), 0);
	CHECK_EQ(ti.stat.msw, 0);
	step("free");
	CHECK_EQ(rt_heap_free(&heap, all), 0);
	step("back");
	join(&g);
	CHECK_STR(trail, "free high back");
	CHECK_EQ(g.ret, 0);
	all = g.block;

	trail[0] = '\0';
	get(&g, &heap, "high", 50, 1024, TM_INFINITE);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	step("free");
	CHECK_EQ(rt_heap_free(&heap, all), 0);
	step("locked");
	/* Granted already: nothing left, and blocking is refused. */
	CHECK_EQ(rt_heap_alloc(&heap, 16, TM_INFINITE, &p), -EPERM);
	CHECK_EQ(rt_heap_alloc(&heap, 16, TM_NONBLOCK, &p), -EWOULDBLOCK);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, &mode), 0);
	CHECK_EQ(mode & T_LOCK, T_LOCK);
	step("back");
	join(&g);
	CHECK_EQ(g.ret, 0);
	CHECK_STR(trail, "free locked high back");
	CHECK_EQ(rt_heap_free(&heap, g.block), 0);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

TEST(delete_wakes_waiters)
{
	struct getter g[3];
	void *all = NULL;
	RT_HEAP heap;

	trail[0] = '\0';
	CHECK_EQ(rt_heap_create(&heap, "doomed", 256, H_FIFO), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 256, TM_INFINITE, &all), 0);
	get(&g[0], &heap, "a", 10, 16, TM_INFINITE);
	get(&g[1], &heap, "b", 20, 16, TM_INFINITE);
	get(&g[2], &heap, "c", 15, 16, margin(5 * MS));
	CHECK_EQ(info_of(&heap).nwaiters, 3);
	step("delete");
	CHECK_EQ(rt_heap_delete(&heap), 0);
	step("back");
	CHECK_STR(trail, "delete b c a back");
	for (int i = 0; i < 3; i++) {
		join(&g[i]);
		CHECK_EQ(g[i].ret, -EIDRM);
	}
	CHECK_EQ(rt_heap_delete(&heap), -EINVAL);
	CHECK_EQ(rt_heap_free(&heap, all), -EINVAL);
	CHECK_EQ(rt_heap_bind(&heap, "doomed", TM_NONBLOCK), -EWOULDBLOCK);
}

TEST(unblock_interrupts)
{
	bool sim = on_sim();
	struct getter g[2];
	void *all = NULL;
	RT_HEAP heap;
	RTIME t0;

	trail[0] = '\0';
	CHECK_EQ(rt_heap_create(&heap, NULL, 512, H_PRIO), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 512, TM_INFINITE, &all), 0);
	t0 = rt_timer_read();
	get(&g[0], &heap, "inf", 10, 64, TM_INFINITE);
	get(&g[1], &heap, "timed", 20, 64, margin(3 * MS));
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_unblock(&g[1].task), 0);
	CHECK_EQ(rt_task_unblock(&g[0].task), 0);
	for (int i = 0; i < 2; i++) {
		join(&g[i]);
		CHECK_EQ(g[i].ret, -EINTR);
		if (sim)
			CHECK_EQ(g[i].woke - t0, MS);
	}
	CHECK_STR(trail, "timed inf");
	CHECK_EQ(info_of(&heap).nwaiters, 0);
	/* Nobody is served by a later free. */
	CHECK_EQ(rt_heap_free(&heap, all), 0);
	CHECK_EQ(info_of(&heap).usedmem, 0);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

struct killer {
	RT_HEAP *heap;
	void *block;
	int freed, deleted;
	RT_TASK task;
};

static void grant_race_body(void *arg)
{
	struct killer *k = arg;

	/* The waiter is served but cannot run before we delete. */
	k->freed = rt_heap_free(k->heap, k->block);
	k->deleted = rt_heap_delete(k->heap);
	step("kill");
}

TEST(races_and_deleted_tasks)
{
	struct killer k = {0};
	struct getter g[2];
	void *all = NULL, *p = NULL;
	RT_HEAP heap;

	/* Served, then the heap deleted before the waiter runs. */
	trail[0] = '\0';
	CHECK_EQ(rt_heap_create(&heap, NULL, 512, H_FIFO), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 512, TM_INFINITE, &k.block), 0);
	k.heap = &heap;
	get(&g[0], &heap, "orphan", 10, 256, TM_INFINITE);
	spawn(&k.task, 40, grant_race_body, &k);
	CHECK_EQ(rt_task_join(&k.task), 0);
	join(&g[0]);
	CHECK_EQ(k.freed, 0);
	CHECK_EQ(k.deleted, 0);
	CHECK_EQ(g[0].ret, -EIDRM);
	CHECK_STR(trail, "kill orphan");

	/* Tasks deleted while they wait leave the heap usable. */
	CHECK_EQ(rt_heap_create(&heap, NULL, 512, H_PRIO), 0);
	CHECK_EQ(rt_heap_alloc(&heap, 512, TM_INFINITE, &all), 0);
	get(&g[0], &heap, "v1", 30, 100, TM_INFINITE);
	get(&g[1], &heap, "v2", 20, 100, TM_INFINITE);
	CHECK_EQ(info_of(&heap).nwaiters, 2);
	CHECK_EQ(rt_task_delete(&g[0].task), 0);
	CHECK_EQ(info_of(&heap).nwaiters, 1);
	CHECK_EQ(rt_task_delete(&g[1].task), 0);
	CHECK_EQ(rt_task_join(&g[0].task), 0);
	CHECK_EQ(rt_task_join(&g[1].task), 0);
	CHECK_EQ(info_of(&heap).nwaiters, 0);
	/* Their requests are not served: the memory stays free. */
	CHECK_EQ(rt_heap_free(&heap, all), 0);
	CHECK_EQ(info_of(&heap).usedmem, 0);
	CHECK_EQ(rt_heap_alloc(&heap, 512, TM_NONBLOCK, &p), 0);
	get(&g[0], &heap, "next", 10, 200, TM_INFINITE);
	CHECK_EQ(rt_heap_free(&heap, p), 0);
	join(&g[0]);
	CHECK_EQ(g[0].ret, 0);
	CHECK_EQ(rt_heap_free(&heap, g[0].block), 0);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

static int bind_heap(void *desc, const char *name, RTIME timeout)
{
	return rt_heap_bind(desc, name, timeout);
}

/* A single-block heap: size 0 asks for the whole of it. */
static ssize_t alloc_bound(struct binder *b)
{
	return rt_heap_alloc(b->desc, 0, TM_INFINITE, &b->block);
}

TEST(bind_waits_for_creation)
{
	RT_HEAP heap, mine, bound;
	struct binder b = {
	    .bind = bind_heap, .use = alloc_bound, .desc = &bound};
	void *p = NULL;

	trail[0] = '\0';
	check_bind_absent(bind_heap, &mine, "later", 500000);
	binder_start(&b, "later", TM_INFINITE);
	step("create");
	CHECK_EQ(rt_heap_create(&heap, "later", 128, H_SINGLE), 0);
	step("created");
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_STR(trail, "create bound created");
	CHECK_EQ(b.bound, 0);
	CHECK_EQ(bound.handle, heap.handle);
	/* A single-block heap shared through its name. */
	CHECK_EQ(b.got, 0);
	CHECK_EQ(rt_heap_alloc(&heap, 128, TM_NONBLOCK, &p), 0);
	CHECK(p == b.block);

	CHECK_EQ(rt_heap_bind(&mine, "later", TM_NONBLOCK), 0);
	CHECK_EQ(mine.handle, heap.handle);
	CHECK_EQ(rt_heap_unbind(&mine), 0);
	CHECK_EQ(mine.handle, 0);
	CHECK_EQ(rt_heap_free(&mine, p), -EINVAL);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

/* What a plain pthread (not a task) may and may not do. */
struct foreign {
	RT_HEAP *heap;
	int create, alloc_avail, alloc_block, alloc_nonblock, free_ret;
};

static void *foreign_body(void *arg)
{
	struct foreign *f = arg;
	RT_HEAP other;
	void *p = NULL, *q;

	f->create =
	    rt_heap_create(&other, NULL, 64, H_FIFO) ?: rt_heap_delete(&other);
	f->alloc_avail = rt_heap_alloc(f->heap, 256, TM_INFINITE, &p);
	f->alloc_block = rt_heap_alloc(f->heap, 256, TM_INFINITE, &q);
	f->alloc_nonblock = rt_heap_alloc(f->heap, 256, TM_NONBLOCK, &q);
	f->free_ret = rt_heap_free(f->heap, p);
	return NULL;
}

TEST(plain_thread)
{
	struct foreign f = {0};
	RT_HEAP heap;

	CHECK_EQ(rt_heap_create(&heap, NULL, 256, H_FIFO), 0);
	f.heap = &heap;
	run_plain_thread(foreign_body, &f);
	/* Any Linux thread creates and deletes, as in Xenomai. */
	CHECK_EQ(f.create, 0);
	CHECK_EQ(f.alloc_avail, 0);
	CHECK_EQ(f.alloc_block, -EPERM);
	CHECK_EQ(f.alloc_nonblock, -EWOULDBLOCK);
	CHECK_EQ(f.free_ret, 0);
	CHECK_EQ(info_of(&heap).nwaiters, 0);
	CHECK_EQ(info_of(&heap).usedmem, 0);
	CHECK_EQ(rt_heap_delete(&heap), 0);
}

TESTS(T(create_errors), T(bad_descriptors), T(alloc_free_and_inquire),
      T(size_is_usable_bytes), T(single_block), T(timeouts),
      T(alloc_waits_until_another_task_frees), T(fifo_order), T(prio_order),
      T(free_preempts_and_tlock_defers), T(delete_wakes_waiters),
      T(unblock_interrupts), T(races_and_deleted_tasks),
      T(bind_waits_for_creation), T(plain_thread));
