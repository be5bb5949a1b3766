/* SPDX-License-Identifier: MIT */
/*
 * Every VxWorks service call an application makes is traced, in the
 * vxworks category: name, object (the ID), result (0, or the errno of
 * a call that returned ERROR; a creation's failure is -1).
 */
#include "vxworks_test.h"

TEST(semaphore_calls_in_order)
{
	char expected[512];
	SEM_ID sem;
	uintptr_t id;

	services_record(NK_TRACE_VXWORKS);
	sem = semBCreate(SEM_Q_FIFO, SEM_FULL);
	CHECK(sem != NULL);
	id = (uintptr_t)sem;
	CHECK_EQ(semTake(sem, NO_WAIT), OK);
	CHECK_EQ(semTake(sem, NO_WAIT), ERROR);
	CHECK_EQ(semGive(sem), OK);
	CHECK_EQ(semDelete(sem), OK);
	CHECK_EQ(semGive(sem), ERROR);
	CHECK(semBCreate(SEM_Q_FIFO, (SEM_B_STATE)7) == NULL);
	services_stop();
	snprintf(expected, sizeof(expected),
		 "semBCreate %#" PRIxPTR " 0 semTake %#" PRIxPTR
		 " 0 semTake %#" PRIxPTR " %d semGive %#" PRIxPTR
		 " 0 semDelete %#" PRIxPTR " 0 semGive %#" PRIxPTR
		 " %d semBCreate 0 -1",
		 id, id, id, S_objLib_OBJ_UNAVAILABLE, id, id, id,
		 S_objLib_OBJ_ID_ERROR);
	CHECK_STR(services_trail, expected);
}

TESTS(T(semaphore_calls_in_order));
