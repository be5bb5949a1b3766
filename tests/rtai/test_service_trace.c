/* SPDX-License-Identifier: MIT */
/*
 * Every RTAI service call an application makes is traced, in the rtai
 * category: name, object (the pointer handed out, which is a handle),
 * result (the returned value; a creation's failure is -1).
 */
#include "rtai_test.h"

#include <rtai/rtai_sem.h>

TEST(semaphore_calls_in_order)
{
	char expected[512];
	SEM *sem;
	uintptr_t h;

	services_record(NK_TRACE_RTAI);
	sem = rt_typed_sem_init(0, 1, CNT_SEM);
	CHECK(sem != NULL);
	h = (uintptr_t)sem;
	CHECK_EQ(rt_sem_wait_if(sem), 1);
	CHECK_EQ(rt_sem_wait_if(sem), 0);
	CHECK_EQ(rt_sem_signal(sem), 0);
	CHECK_EQ(rt_sem_delete(sem), 0);
	CHECK_EQ(rt_sem_signal(sem), RTE_OBJINV);
	services_stop();
	snprintf(expected, sizeof(expected),
		 "rt_typed_sem_init %#" PRIxPTR " 0 rt_sem_wait_if %#" PRIxPTR
		 " 1 rt_sem_wait_if %#" PRIxPTR " 0 rt_sem_signal %#" PRIxPTR
		 " 0 rt_sem_delete %#" PRIxPTR " 0 rt_sem_signal %#" PRIxPTR
		 " %d",
		 h, h, h, h, h, h, RTE_OBJINV);
	CHECK_STR(services_trail, expected);
}

TESTS(T(semaphore_calls_in_order));
