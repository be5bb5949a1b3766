/* SPDX-License-Identifier: MIT */
/*
 * The debugger's view of objects (handlers->inspect, NK_INSPECT_OBJECTS)
 * across skins: each class's describe hook gives its count, capacity,
 * owner and waiters (every class but tasks, which are threads); what the
 * fill-level breakpoints read (handlers->object_level); and an unknown view.
 * The runner's tests (test_runner.c) see the rest through fusion sim.
 */
#include "harness.h"
#include "nucleus/internal.h"

#include <alchemy/mutex.h>
#include <alchemy/pipe.h>
#include <alchemy/queue.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>
#include <alchemy/timer.h>
#include <psos/psos.h>
#include <vxworks/memPartLib.h>
#include <vxworks/msgQLib.h>
#include <vxworks/rngLib.h>
#include <vxworks/semLib.h>
#include <vxworks/wdLib.h>

#include <errno.h>

static char view[4096];

static void emit(void *ctx, const char *text)
{
	(void)ctx;
	CHECK(strlen(view) + strlen(text) < sizeof(view));
	strcat(view, text);
}

static const char *inspect(struct nk_instance *nk, int what)
{
	view[0] = '\0';
	nk_lock(nk);
	nk_inspect_handler(nk, what, emit, NULL);
	nk_unlock(nk);
	return view;
}

static long partition[256];
static _Alignas(16) long pool[512]; /* the heap aligns its start to 16 */

static void never_fires(_Vx_usr_arg_t arg)
{
	(void)arg;
	CHECK(!"the watchdog fires in this test");
}

TEST(objects_of_every_skin)
{
	RT_SEM sem;
	RT_MUTEX mutex;
	RT_QUEUE queue;
	RT_PIPE pipe;
	unsigned long smid, qid, ptid, nbuf, tmid, msg[4] = {1, 2, 3, 4};
	void *buf;
	SEM_ID vsem;
	MSG_Q_ID vq;
	RING_ID ring;
	WDOG_ID wd;
	PART_ID part;
	struct nk_instance *nk;
	long count, capacity;

	CHECK_EQ(rt_sem_create(&sem, "s", 2, S_FIFO), 0);
	CHECK_EQ(rt_mutex_create(&mutex, "m"), 0);
	CHECK_EQ(rt_mutex_acquire(&mutex, TM_INFINITE), 0);
	CHECK_EQ(rt_queue_create(&queue, "q", 256, 4, Q_FIFO), 0);
	CHECK_EQ(rt_queue_write(&queue, "x", 1, Q_NORMAL), 0);
	vsem = semCCreate(SEM_Q_FIFO, 3);
	CHECK(vsem != NULL);
	vq = msgQCreate(8, 16, MSG_Q_FIFO);
	CHECK(vq != NULL);
	CHECK_EQ(msgQSend(vq, "hi", 2, NO_WAIT, MSG_PRI_NORMAL), OK);
	ring = rngCreate(64);
	CHECK(ring != NULL);
	CHECK_EQ(rngBufPut(ring, "abc", 3), 3);
	CHECK_EQ(sm_create("PS", 1, SM_FIFO, &smid), 0);
	CHECK_EQ(q_create("PQ", 2, Q_LIMIT | Q_FIFO, &qid), 0);
	CHECK_EQ(q_send(qid, msg), 0);
	CHECK_EQ(pt_create("PT", partition, NULL, sizeof(partition), 64, 0,
			   &ptid, &nbuf),
		 0);
	CHECK_EQ(pt_getbuf(ptid, &buf), 0);
	CHECK_EQ(rt_pipe_create(&pipe, "p", P_MINOR_AUTO, 0), 0);
	CHECK_EQ(rt_pipe_write(&pipe, "msg", 3, P_NORMAL), 3);
	wd = wdCreate();
	CHECK(wd != NULL);
	CHECK_EQ(wdStart(wd, 1000, (FUNCPTR)(void (*)(void))never_fires, 0),
		 OK);
	part = memPartCreate((char *)pool, sizeof(pool));
	CHECK(part != NULL);
	CHECK(memPartAlloc(part, 100) != NULL);
	CHECK_EQ(tm_evafter(1000, 1, &tmid), 0);
	nk = fusion_runtime_peek();

	/* The pipe's message waits for root context; the watchdog and the
	 * timer are armed (1); the partition counts its 100-byte block
	 * with the heap's rounding and header. */
	CHECK_STR(
	    inspect(nk, NK_INSPECT_OBJECTS),
	    "[{\"skin\":\"alchemy\",\"class\":\"sem\",\"name\":\"s\","
	    "\"count\":2,\"waiters\":[]},{\"skin\":\"alchemy\",\"class\":"
	    "\"mutex\",\"name\":\"m\",\"count\":1,\"owner\":\"main\","
	    "\"waiters\":[]},{\"skin\":\"alchemy\","
	    "\"class\":\"queue\",\"name\":\"q\",\"count\":1,\"capacity\":4,"
	    "\"waiters\":[]},{\"skin\":\"alchemy\",\"class\":\"pipe\","
	    "\"name\":\"p\",\"count\":1,\"waiters\":[]},{\"skin\":\"vxworks\","
	    "\"class\":\"sem\",\"name\":\"\",\"count\":3,\"waiters\":[]},"
	    "{\"skin\":\"vxworks\",\"class\":\"msgQ\",\"name\":\"\","
	    "\"count\":1,\"capacity\":8,\"waiters\":[],\"senders\":[]},"
	    "{\"skin\":\"vxworks\",\"class\":\"wdog\",\"name\":\"\","
	    "\"count\":1},{\"skin\":\"vxworks\",\"class\":\"memPart\","
	    "\"name\":\"\",\"count\":144,\"capacity\":4064},{\"skin\":"
	    "\"vxworks\",\"class\":\"ring\",\"name\":\"\",\"count\":3,"
	    "\"capacity\":64},{\"skin\":\"psos\",\"class\":\"sem\",\"name\":"
	    "\"PS\",\"count\":1,\"waiters\":[]},{\"skin\":\"psos\",\"class\":"
	    "\"queue\",\"name\":\"PQ\",\"count\":1,\"capacity\":2,"
	    "\"waiters\":[]},{\"skin\":\"psos\",\"class\":\"timer\","
	    "\"name\":\"\",\"count\":1},{\"skin\":\"psos\",\"class\":"
	    "\"partition\",\"name\":\"PT\",\"count\":1,\"capacity\":32}]");
	nk_lock(nk);
	CHECK_EQ(nk_inspect_level(nk, "q", &count, &capacity), 0);
	CHECK_EQ(count, 1);
	CHECK_EQ(capacity, 4);
	CHECK_EQ(nk_inspect_level(nk, "nobody", &count, &capacity), -ENOENT);
	CHECK_EQ(nk_inspect_overrun(nk, "main"), NK_INFINITE);
	CHECK_EQ(nk_inspect_overrun(nk, "nobody"), NK_INFINITE);
	nk_unlock(nk);
	/* No such view: an empty array. */
	CHECK_STR(inspect(nk, 99), "[]");
	CHECK_STR(inspect(nk, -1), "[]");
}

#define MS 1000000LL

static void periodic(void *arg)
{
	(void)arg;
	for (;;)
		(void)rt_task_wait_period(NULL);
}

static void hog(void *arg)
{
	(void)arg;
	rt_timer_spin(13 * MS / 4); /* from 0.25 ms to 3.5 */
}

static nk_time_t overrun_of_p(struct nk_instance *nk)
{
	nk_time_t date;

	nk_lock(nk);
	date = nk_inspect_overrun(nk, "p");
	nk_unlock(nk);
	return date;
}

/*
 * What the overrun breakpoint watches, for a periodic task (period
 * 1 ms from 1 ms) held off its release by a more urgent hog until
 * 3.5 ms: none while it waits, the point after its release once it is
 * released and does not run, none once it waits again.
 */
TEST(overrun_of_a_task_held_off_its_release)
{
	RT_TASK p, h;
	struct nk_instance *nk = fusion_runtime_peek();

	CHECK_EQ(rt_task_create(&p, "p", 0, 10, 0), 0);
	CHECK_EQ(rt_task_set_periodic(&p, MS, MS), 0);
	CHECK_EQ(rt_task_start(&p, periodic, NULL), 0);
	CHECK_EQ(rt_task_sleep(MS / 4), 0); /* p waits for 1 ms */
	CHECK_EQ(rt_task_set_priority(NULL, 30), 0);
	CHECK_EQ(rt_task_spawn(&h, "h", 0, 20, T_JOINABLE, hog, NULL), 0);
	CHECK_EQ(rt_task_sleep(MS / 4), 0);
	CHECK_EQ(overrun_of_p(nk), NK_INFINITE);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(overrun_of_p(nk), 2 * MS);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(overrun_of_p(nk), 2 * MS);
	CHECK_EQ(rt_task_join(&h), 0);
	CHECK_EQ(rt_timer_read(), 7 * MS / 2);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(overrun_of_p(nk), NK_INFINITE);
	CHECK_EQ(rt_task_delete(&p), 0);
}

TESTS(T(objects_of_every_skin), T(overrun_of_a_task_held_off_its_release));
