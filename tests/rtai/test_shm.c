/* SPDX-License-Identifier: MIT */
/*
 * RTAI shared memory in one process: the same block for the same name
 * (counted uses, freed with the last), zeroed, named allocations by
 * address, the real-time heap, named heaps (rt_heap_open), bad input.
 */
#include "rtai_test.h"

#include <rtai/rtai_sem.h>
#include <rtai/rtai_shm.h>

TEST(named_blocks)
{
	int *a, *b;

	main_task();
	a = rt_shm_alloc(nam2num("SHM"), 64, USE_VMALLOC);
	CHECK(a != NULL);
	CHECK_EQ(a[0], 0);
	CHECK_EQ(a[15], 0);
	a[3] = 42;
	/* Same name: same memory, its size unchanged. */
	b = rtai_malloc(nam2num("shm"), 8);
	CHECK(b == a);
	CHECK_EQ(b[3], 42);
	CHECK_EQ(rt_shm_free(nam2num("SHM")), 64);
	CHECK_EQ(((int *)rt_shm_alloc(nam2num("SHM"), 1, 0))[3], 42);
	CHECK_EQ(rtai_free(nam2num("SHM"), a), 64);
	CHECK_EQ(rt_shm_free(nam2num("SHM")), 64);
	/* Gone: a new block is zeroed again. */
	CHECK_EQ(rt_shm_free(nam2num("SHM")), 0);
	a = rt_shm_alloc(nam2num("SHM"), 16, 0);
	CHECK_EQ(a[3], 0);
	CHECK_EQ(rt_shm_free(nam2num("SHM")), 16);
}

TEST(named_malloc_and_heap)
{
	char *p, *q;

	main_task();
	p = rt_named_malloc(nam2num("HEAP1"), 10);
	q = rt_named_malloc(nam2num("HEAP1"), 10);
	CHECK(p != NULL && p == q);
	rt_named_free(q);
	rt_named_free(p);
	/* Freed: not a named block any more. */
	CHECK_EQ(rt_shm_free(nam2num("HEAP1")), 0);
	rt_named_free((char[4]){0});
	rt_named_free(NULL);
	p = rt_malloc(100);
	CHECK(p != NULL);
	CHECK_EQ(p[99], 0);
	rt_free(p);
	rt_free(NULL);
	CHECK(rt_malloc(0) == NULL);
	CHECK(rt_malloc(-1) == NULL);
}

/*
 * A named heap: rt_halloc() takes from the heap opened last, as long as
 * it has room (then NULL), and rt_hfree() gives back; a name is a heap
 * or a block, not both.  Without a heap, rt_halloc() is rt_malloc().
 */
TEST(named_heaps)
{
	char *base, *again, *a, *b;

	main_task();
	a = rt_halloc(32);
	CHECK(a != NULL);
	rt_hfree(a);
	base = rt_heap_open(nam2num("GHEAP"), 4096, 0);
	CHECK(base != NULL);
	again = rt_heap_open(nam2num("GHEAP"), 1, 0);
	CHECK(again == base);
	a = rt_halloc(1000);
	b = rt_halloc(1000);
	CHECK(a != NULL && b != NULL && a != b);
	CHECK(a >= base && a < base + 4096 && b >= base && b < base + 4096);
	CHECK(rt_halloc(4096) == NULL);
	rt_hfree(a);
	rt_hfree(b);
	/* All back: one block takes most of it again. */
	a = rt_halloc(3500);
	CHECK(a >= base && a < base + 4096);
	rt_hfree(a);
	rt_hfree(NULL);
	CHECK(rt_halloc(0) == NULL);
	CHECK(rt_halloc(-1) == NULL);
	/* A block is no heap, nor a heap a block. */
	CHECK(rt_shm_alloc(nam2num("GHEAP"), 8, 0) == NULL);
	CHECK(rt_shm_alloc(nam2num("BLOCK"), 8, 0) != NULL);
	CHECK(rt_heap_open(nam2num("BLOCK"), 8, 0) == NULL);
	CHECK_EQ(rt_shm_free(nam2num("BLOCK")), 8);
	CHECK(rt_heap_open(0, 4096, 0) == NULL);
	CHECK(rt_heap_open(nam2num("NEWHP"), 0, 0) == NULL);
	/* Two uses: two closes free it; rt_halloc() goes back to the
	 * real-time heap. */
	CHECK_EQ(rt_heap_close(nam2num("GHEAP"), base), 4096);
	CHECK_EQ(rt_heap_close(nam2num("GHEAP"), base), 4096);
	CHECK_EQ(rt_shm_free(nam2num("GHEAP")), 0);
	a = rt_halloc(8192);
	CHECK(a != NULL);
	rt_hfree(a);
}

TEST(shm_bad_input)
{
	SEM *sem;

	main_task();
	CHECK(rt_shm_alloc(0, 8, 0) == NULL);
	CHECK(rt_shm_alloc(nam2num("NEW"), 0, 0) == NULL);
	CHECK(rt_shm_alloc(nam2num("NEW"), -1, 0) == NULL);
	CHECK_EQ(rt_shm_free(0), 0);
	CHECK_EQ(rt_shm_free(nam2num("NOBODY")), 0);
	/* A semaphore's name is not a block's. */
	sem = rt_sem_init(nam2num("TAKEN"), 0);
	CHECK(rt_shm_alloc(nam2num("TAKEN"), 8, 0) == NULL);
	CHECK_EQ(rt_shm_free(nam2num("TAKEN")), 0);
	CHECK_EQ(rt_sem_delete(sem), 0);
}

TESTS(T(named_blocks), T(named_malloc_and_heap), T(named_heaps),
      T(shm_bad_input));
