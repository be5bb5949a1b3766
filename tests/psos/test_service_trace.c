/* SPDX-License-Identifier: MIT */
/*
 * Every pSOS service call an application makes is traced, in the psos
 * category: name, object (the ID given, or made by a creation), result
 * (the returned code).
 */
#include "psos_test.h"

TEST(semaphore_calls_in_order)
{
	unsigned long smid = 0;
	char expected[512];

	services_record(NK_TRACE_PSOS);
	CHECK_EQ(sm_create("SEM1", 1, SM_FIFO, &smid), 0);
	CHECK_EQ(sm_p(smid, SM_NOWAIT, 0), 0);
	CHECK_EQ(sm_p(smid, SM_NOWAIT, 0), ERR_NOSEM);
	CHECK_EQ(sm_v(smid), 0);
	CHECK_EQ(sm_delete(smid), 0);
	CHECK_EQ(sm_v(smid), ERR_OBJID);
	CHECK_EQ(sm_create("SEM2", 1, SM_FIFO, NULL), ERR_OBJID);
	services_stop();
	snprintf(expected, sizeof(expected),
		 "sm_create %#lx 0 sm_p %#lx 0 sm_p %#lx %d sm_v %#lx 0 "
		 "sm_delete %#lx 0 sm_v %#lx %d sm_create 0 %d",
		 smid, smid, smid, ERR_NOSEM, smid, smid, smid, ERR_OBJID,
		 ERR_OBJID);
	CHECK_STR(services_trail, expected);
}

TESTS(T(semaphore_calls_in_order));
