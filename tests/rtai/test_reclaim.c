/* SPDX-License-Identifier: MIT */
/*
 * A program that leaves one object of every RTAI kind behind, some with
 * waiters, and a thread never joined: the instance's end frees all of
 * it (LeakSanitizer, in the sanitizer builds, reports what it would
 * not).
 */
#include "rtai_test.h"

#include <rtai/rtai_bits.h>
#include <rtai/rtai_fifos.h>
#include <rtai/rtai_mbx.h>
#include <rtai/rtai_msg.h>
#include <rtai/rtai_rwl.h>
#include <rtai/rtai_sem.h>
#include <rtai/rtai_shm.h>
#include <rtai/rtai_spl.h>

static SEM *sem;
static MBX *mbx;

/* Waits on the semaphore for ever: ended with the instance. */
static void stuck(void *arg)
{
	(void)arg;
	CHECK(rt_task_init(0, 10, 0, 0) != NULL);
	rt_sem_wait(sem);
}

/* Ends at once: a zombie never joined. */
static void ends(void *arg)
{
	(void)arg;
}

/* Sends a buffer to main, which never receives it. */
static void sender(void *arg)
{
	RT_TASK *to = arg;

	CHECK(rt_task_init(0, 11, 0, 0) != NULL);
	rt_sendx(to, "unread", 6);
}

TEST(leave_everything)
{
	RT_TASK *self = main_task();

	sem = rt_typed_sem_init(nam2num("LSEM"), 0, CNT_SEM);
	mbx = rt_mbx_init(nam2num("LMBX"), 64);
	CHECK(sem != NULL && mbx != NULL);
	CHECK(rt_typed_sem_init(0, RESEM_RECURS, RES_SEM) != NULL);
	CHECK(rt_cond_init(0) != NULL);
	CHECK(rt_named_sem_init("LNAMED", 1) != NULL);
	CHECK(rt_named_mbx_init("LNMBX", 8) != NULL);
	CHECK_EQ(rt_mbx_send(mbx, "left", 4), 0);
	CHECK(rt_bits_init(0, 1) != NULL);
	CHECK(rt_rwl_init(0) != NULL);
	CHECK(rt_spl_init(0) != NULL);
	CHECK(rt_shm_alloc(nam2num("LSHM"), 128, 0) != NULL);
	CHECK(rt_named_malloc(nam2num("LHEAP"), 16) != NULL);
	CHECK_EQ(rtf_create(7, 64), 0);
	CHECK_EQ(rtf_put(7, "unread", 6), 6);
	start(stuck, NULL);
	start(sender, self);
	create(ends, NULL);
	CHECK_EQ(rt_sleep(MS), 0);
}

TESTS(T(leave_everything));
