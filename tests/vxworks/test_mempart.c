/* SPDX-License-Identifier: MIT */
/*
 * VxWorks memPartLib: partitions over the program's pools, allocation
 * (aligned or not), release and its bad input, statistics, pools added
 * later, exhaustion, bad IDs and interrupt context.
 */
#include "vxworks_test.h"

#include <vxworks/memPartLib.h>

static _Alignas(64) char pool_a[64 * 1024];
static _Alignas(64) char pool_b[16 * 1024];

TEST(create_errors)
{
	char tiny[8];

	CHECK_NULL(memPartCreate(NULL, 4096), S_memLib_INVALID_NBYTES);
	CHECK_NULL(memPartCreate(tiny, sizeof(tiny)), S_memLib_INVALID_NBYTES);
}

TEST(alloc_free_stats)
{
	PART_ID part = memPartCreate(pool_a, sizeof(pool_a));
	MEM_PART_STATS st;
	char *a, *b, *c;

	CHECK(part != NULL);
	CHECK_EQ(memPartInfoGet(part, &st), OK);
	CHECK_EQ(st.numBlocksAlloc, 0);
	CHECK_EQ(st.numBlocksFree, 1);
	CHECK(st.numBytesFree > 60 * 1024);
	a = memPartAlloc(part, 100);
	b = memPartAlloc(part, 0);
	c = memPartAlignedAlloc(part, 100, 4096);
	CHECK(a != NULL && b != NULL && c != NULL);
	CHECK_EQ((uintptr_t)a % 16, 0);
	CHECK_EQ((uintptr_t)c % 4096, 0);
	CHECK(c >= pool_a && c + 100 <= pool_a + sizeof(pool_a));
	memset(a, 0xa5, 100);
	memset(c, 0x5a, 100);
	CHECK_EQ(memPartInfoGet(part, &st), OK);
	CHECK_EQ(st.numBlocksAlloc, 3);
	CHECK_EQ(memPartFree(part, c), OK);
	CHECK_FAIL(memPartFree(part, c), S_memLib_BLOCK_ERROR);
	CHECK_EQ(memPartFree(part, a), OK);
	CHECK_FAIL(memPartFree(part, a), S_memLib_BLOCK_ERROR);
	CHECK_FAIL(memPartFree(part, b + 8), S_memLib_BLOCK_ERROR);
	CHECK_FAIL(memPartFree(part, b + 1), S_memLib_BLOCK_ERROR);
	CHECK_FAIL(memPartFree(part, pool_b), S_memLib_BLOCK_ERROR);
	CHECK_EQ(memPartFree(part, b), OK);
	CHECK_EQ(memPartFree(part, NULL), OK);
	CHECK_EQ(memPartInfoGet(part, &st), OK);
	CHECK_EQ(st.numBlocksAlloc, 0);
	CHECK_EQ(st.numBlocksFree, 1);
	CHECK_NULL(memPartAlignedAlloc(part, 8, 24), S_memLib_INVALID_NBYTES);
	CHECK_NULL(memPartAlignedAlloc(part, 8, 0), S_memLib_INVALID_NBYTES);
	CHECK_FAIL(memPartInfoGet(part, NULL), EINVAL);
}

TEST(pools_and_exhaustion)
{
	static _Alignas(64) char small[4096];
	PART_ID part = memPartCreate(small, sizeof(small));
	MEM_PART_STATS st;
	void *big;

	CHECK(part != NULL);
	CHECK_NULL(memPartAlloc(part, 8192), S_memLib_NOT_ENOUGH_MEMORY);
	CHECK_EQ(memPartAddToPool(part, pool_b, sizeof(pool_b)), OK);
	big = memPartAlloc(part, 8192);
	CHECK(big != NULL);
	CHECK((char *)big >= pool_b && (char *)big < pool_b + sizeof(pool_b));
	CHECK_EQ(memPartInfoGet(part, &st), OK);
	CHECK_EQ(st.numBlocksAlloc, 1);
	CHECK(st.maxBlockSizeFree >= 2048);
	CHECK_EQ(memPartFree(part, big), OK);
	CHECK_FAIL(memPartAddToPool(part, NULL, 4096), S_memLib_INVALID_NBYTES);
	CHECK_FAIL(memPartAddToPool(part, small, 4), S_memLib_INVALID_NBYTES);
}

TEST(system_partition)
{
	static _Alignas(64) char pool[8192];
	PART_ID sys = memSysPartId;
	void *block;

	CHECK(sys != NULL);
	CHECK(memSysPartId == sys);
	/* No pool yet: nothing to give. */
	CHECK_NULL(memPartAlloc(sys, 8), S_memLib_NOT_ENOUGH_MEMORY);
	CHECK_FAIL(memAddToPool(NULL, 64), S_memLib_INVALID_NBYTES);
	CHECK_EQ(memAddToPool(pool, sizeof(pool)), OK);
	block = memPartAlloc(memSysPartId, 100);
	CHECK((char *)block >= pool && (char *)block < pool + sizeof(pool));
	CHECK_EQ(memPartFree(sys, block), OK);
}

TEST(bad_ids)
{
	SEM_ID s = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	PART_ID bads[] = {NULL, (PART_ID)0x55, (PART_ID)s,
			  (PART_ID)UINTPTR_MAX};
	MEM_PART_STATS st;

	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		CHECK_NULL(memPartAlloc(bads[i], 8), S_objLib_OBJ_ID_ERROR);
		CHECK_NULL(memPartAlignedAlloc(bads[i], 8, 64),
			   S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(memPartFree(bads[i], pool_a), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(memPartInfoGet(bads[i], &st), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(memPartAddToPool(bads[i], pool_b, sizeof(pool_b)),
			   S_objLib_OBJ_ID_ERROR);
	}
	CHECK_EQ(semDelete(s), OK);
}

static PART_ID isr_part;
static int isr_results[3];
static SEM_ID isr_done;

static void isr_routine(long arg)
{
	(void)arg;
	isr_results[0] = memPartAlloc(isr_part, 8) == NULL ? errnoGet() : 0;
	isr_results[1] = memPartFree(isr_part, NULL) ? errnoGet() : 0;
	isr_results[2] =
	    memPartCreate(pool_b, sizeof(pool_b)) == NULL ? errnoGet() : 0;
	semGive(isr_done);
}

TEST(interrupt_context)
{
	static _Alignas(64) char pool[4096];
	WDOG_ID wd = wdCreate();

	isr_part = memPartCreate(pool, sizeof(pool));
	isr_done = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	CHECK_EQ(wdStart(wd, 1, FN(isr_routine), 0), OK);
	CHECK_EQ(semTake(isr_done, WAIT_FOREVER), OK);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(isr_results[i], S_intLib_NOT_ISR_CALLABLE);
	CHECK_EQ(wdDelete(wd), OK);
	CHECK_EQ(semDelete(isr_done), OK);
}

TESTS(T(create_errors), T(alloc_free_stats), T(pools_and_exhaustion),
      T(system_partition), T(bad_ids), T(interrupt_context));
