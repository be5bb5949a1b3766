/* SPDX-License-Identifier: MIT */
/*
 * The debugger's view of RTAI objects (handlers->inspect): semaphores,
 * mailboxes, bit sets, read-write locks, spinlocks and shared memory,
 * each with what its describe hook gives.  Apart from test_inspect.c: RTAI's C
 * names are Alchemy's.
 */
#include "harness.h"
#include "nucleus/internal.h"

#include <rtai/rtai_bits.h>
#include <rtai/rtai_lxrt.h>
#include <rtai/rtai_mbx.h>
#include <rtai/rtai_nam2num.h>
#include <rtai/rtai_rwl.h>
#include <rtai/rtai_sem.h>
#include <rtai/rtai_shm.h>
#include <rtai/rtai_spl.h>

static char view[2048];

static void emit(void *ctx, const char *text)
{
	(void)ctx;
	CHECK(strlen(view) + strlen(text) < sizeof(view));
	strcat(view, text);
}

TEST(rtai_objects)
{
	struct nk_instance *nk;
	RT_TASK *task = rt_task_init(nam2num("MAIN"), 0, 0, 0);
	SEM *sem = rt_named_sem_init("SEMA", 2);
	MBX *mbx = rt_named_mbx_init("MBOX", 64);
	BITS *bits = rt_bits_init(nam2num("BITS"), 0x5);
	RWL *rwl = rt_rwl_init(nam2num("RWL"));
	SPL *spl = rt_spl_init(nam2num("SPL"));
	void *shm = rt_shm_alloc(nam2num("SHM"), 256, USE_VMALLOC);

	CHECK(task && sem && mbx && bits && rwl && spl && shm);
	CHECK_EQ(rt_mbx_send(mbx, "abcd", 4), 0);
	CHECK_EQ(rt_rwl_rdlock(rwl), 0);
	nk = fusion_runtime_peek();
	nk_lock(nk);
	nk_inspect_handler(nk, NK_INSPECT_OBJECTS, emit, NULL);
	nk_unlock(nk);
	CHECK_STR(view,
		  "[{\"skin\":\"rtai\",\"class\":\"sem\",\"name\":\"SEMA\","
		  "\"count\":2,\"waiters\":[]},{\"skin\":\"rtai\",\"class\":"
		  "\"mbx\",\"name\":\"MBOX\",\"count\":4,\"capacity\":64,"
		  "\"waiters\":[],\"senders\":[]},{\"skin\":\"rtai\","
		  "\"class\":\"bits\",\"name\":\"BITS\",\"count\":5,"
		  "\"waiters\":[]},{\"skin\":\"rtai\",\"class\":\"rwl\","
		  "\"name\":\"RWL\",\"count\":1,\"waiters\":[]},{\"skin\":"
		  "\"rtai\",\"class\":\"spl\",\"name\":\"SPL\",\"count\":0,"
		  "\"waiters\":[]},{\"skin\":\"rtai\",\"class\":\"shm\","
		  "\"name\":\"SHM\",\"capacity\":256}]");
}

TESTS(T(rtai_objects));
