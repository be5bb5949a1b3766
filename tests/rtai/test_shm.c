/* SPDX-License-Identifier: MIT */
/*
 * RTAI shared memory in one process: the same block for the same name
 * (counted uses, freed with the last), zeroed, named allocations by
 * address, the real-time heap, bad input.
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

TESTS(T(named_blocks), T(named_malloc_and_heap), T(shm_bad_input));
