/* SPDX-License-Identifier: MIT */
/*
 * VxWorks rngLib: byte rings filled and drained across their end,
 * full and empty, put-ahead, flush, bad input, and a watchdog routine
 * filling a ring that a task drains.
 */
#include "vxworks_test.h"

#include <vxworks/rngLib.h>

TEST(put_get_wrap)
{
	RING_ID r = rngCreate(8);
	char out[16];

	CHECK(r != NULL);
	CHECK_EQ(rngIsEmpty(r), TRUE);
	CHECK_EQ(rngIsFull(r), FALSE);
	CHECK_EQ(rngFreeBytes(r), 8);
	CHECK_EQ(rngBufPut(r, "abcdef", 6), 6);
	CHECK_EQ(rngBufGet(r, out, 4), 4);
	CHECK_EQ(memcmp(out, "abcd", 4), 0);
	/* Across the end of the buffer; only what fits goes in. */
	CHECK_EQ(rngBufPut(r, "ghijklmnop", 10), 6);
	CHECK_EQ(rngIsFull(r), TRUE);
	CHECK_EQ(rngNBytes(r), 8);
	CHECK_EQ(rngBufPut(r, "q", 1), 0);
	memset(out, 0, sizeof(out));
	CHECK_EQ(rngBufGet(r, out, sizeof(out)), 8);
	CHECK_STR(out, "efghijkl");
	CHECK_EQ(rngBufGet(r, out, 1), 0);
	/* Ahead of the data, then counted in. */
	CHECK_EQ(rngBufPut(r, "x", 1), 1);
	rngPutAhead(r, 'y', 0);
	rngPutAhead(r, 'z', 1);
	CHECK_EQ(rngNBytes(r), 1);
	rngMoveAhead(r, 2);
	CHECK_EQ(rngNBytes(r), 3);
	memset(out, 0, sizeof(out));
	CHECK_EQ(rngBufGet(r, out, 3), 3);
	CHECK_STR(out, "xyz");
	CHECK_EQ(rngBufPut(r, "123", 3), 3);
	rngFlush(r);
	CHECK_EQ(rngIsEmpty(r), TRUE);
	CHECK_EQ(rngFreeBytes(r), 8);
	rngDelete(r);
}

TEST(bad_input)
{
	RING_ID gone = rngCreate(4);
	SEM_ID s = semBCreate(SEM_Q_FIFO, SEM_EMPTY);
	RING_ID bads[] = {NULL, gone, (RING_ID)0x99, (RING_ID)s};
	RING_ID ok = rngCreate(4);
	char buf[4];

	CHECK_NULL(rngCreate(0), EINVAL);
	CHECK_NULL(rngCreate(-1), EINVAL);
	rngDelete(gone);
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		errnoSet(0);
		CHECK_EQ(rngBufPut(bads[i], "a", 1), 0);
		CHECK_EQ(errnoGet(), S_objLib_OBJ_ID_ERROR);
		CHECK_EQ(rngBufGet(bads[i], buf, 1), 0);
		CHECK_EQ(rngNBytes(bads[i]), 0);
		CHECK_EQ(rngFreeBytes(bads[i]), 0);
		CHECK_EQ(rngIsEmpty(bads[i]), TRUE);
		CHECK_EQ(rngIsFull(bads[i]), TRUE);
		errnoSet(0);
		rngFlush(bads[i]);
		rngPutAhead(bads[i], 'a', 0);
		rngMoveAhead(bads[i], 1);
		rngDelete(bads[i]);
		CHECK_EQ(errnoGet(), S_objLib_OBJ_ID_ERROR);
	}
	errnoSet(0);
	CHECK_EQ(rngBufPut(ok, NULL, 1), 0);
	CHECK_EQ(errnoGet(), EINVAL);
	CHECK_EQ(rngBufPut(ok, "a", -1), 0);
	CHECK_EQ(rngBufGet(ok, NULL, 2), 0);
	rngMoveAhead(ok, -1);
	CHECK_EQ(rngNBytes(ok), 0);
	/* Beyond the room: nothing written, nothing counted past it. */
	rngPutAhead(ok, 'a', 4);
	rngMoveAhead(ok, 9);
	CHECK_EQ(rngNBytes(ok), 4);
	rngDelete(ok);
	CHECK_EQ(semDelete(s), OK);
}

static RING_ID isr_ring;
static SEM_ID isr_data;
static int isr_count;

static void isr_producer(long arg)
{
	char c = (char)('a' + isr_count);
	WDOG_ID wd = (WDOG_ID)arg;

	if (rngBufPut(isr_ring, &c, 1) == 1)
		semGive(isr_data);
	if (++isr_count < 5)
		wdStart(wd, 1, FN(isr_producer), arg);
}

TEST(interrupt_producer)
{
	WDOG_ID wd = wdCreate();
	char got[8] = "";

	isr_ring = rngCreate(16);
	isr_data = semCCreate(SEM_Q_FIFO, 0);
	CHECK_EQ(wdStart(wd, 1, FN(isr_producer), (long)wd), OK);
	for (int i = 0; i < 5; i++) {
		CHECK_EQ(semTake(isr_data, WAIT_FOREVER), OK);
		CHECK_EQ(rngBufGet(isr_ring, got + i, 1), 1);
	}
	CHECK_STR(got, "abcde");
	errnoSet(0);
	CHECK_EQ(wdDelete(wd), OK);
	rngDelete(isr_ring);
	CHECK_EQ(errnoGet(), 0);
	CHECK_EQ(semDelete(isr_data), OK);
}

TESTS(T(put_get_wrap), T(bad_input), T(interrupt_producer));
