/* SPDX-License-Identifier: MIT */
/*
 * RTAI across the processes of a session, as LXRT programs are built:
 * one process makes a task and a mailbox, the other finds them with
 * rt_get_adr(nam2num(...)), calls the task with rt_rpc() and receives
 * from the mailbox; rt_shm_alloc() of one name is the same memory, at
 * the same address, in both.  A member killed with a FIFO and its
 * semaphore, which are its own, leaves none of their memory behind.
 */
#include "session_test.h"

#include <fusion/fusion.h>
#include <rtai/rtai_fifos.h>
#include <rtai/rtai_lxrt.h>
#include <rtai/rtai_mbx.h>
#include <rtai/rtai_msg.h>
#include <rtai/rtai_shm.h>

#include <string.h>

static char name[64];

struct board {
	char *shm;  /* A's block, by its address */
	int member; /* A's number in the session */
};

static struct board *board;
static MBX *mbx;

/* A's server: answers one call, then mails. */
static void *server_body(void *arg)
{
	unsigned long msg = 0;
	RT_TASK *from;

	(void)arg;
	if (rt_task_init(nam2num("SRV"), 10, 0, 0) == NULL)
		return NULL;
	from = rt_receive(NULL, &msg);
	if (from && !rt_is_reterr((long)from))
		(void)rt_return(from, msg + 1);
	(void)rt_mbx_send(mbx, "mail", 5);
	return NULL;
}

/* @what, made by the other process: 10 s at most (ThreadSanitizer). */
static void *find(const char *what)
{
	void *adr = NULL;

	for (int i = 0; i < 2000 && adr == NULL; i++)
		if ((adr = rt_get_adr(nam2num(what))) == NULL)
			rt_sleep(nano2count(5000000));
	return adr;
}

/* A: 1 makes the mailbox, the block and the server.  B: 2 finds them
 * and uses them.  */
static int step_fn(void *arg, int n)
{
	unsigned long reply = 0;
	char mail[5] = "";
	RT_TASK *srv;
	char *shm;
	void *mem;

	(void)arg;
	PEER_CHECK((n == 1 || n == 2) &&
		   peer_join_board(name, sizeof(*board), &mem) == 0);
	board = mem;
	PEER_CHECK(rt_task_init(nam2num(n == 1 ? "MAINA" : "MAINB"), 20, 0,
				0) != NULL);
	shm = rt_shm_alloc(nam2num("SHM"), 64, USE_VMALLOC);
	PEER_CHECK(shm != NULL);
	if (n == 1) {
		strcpy(shm, "shared");
		board->shm = shm;
		mbx = rt_named_mbx_init("MBX", 64);
		PEER_CHECK(mbx != NULL);
		PEER_CHECK(rt_thread_create(server_body, NULL, 0) != 0);
		return peer_relaxed(0);
	}
	PEER_CHECK(shm == board->shm && strcmp(shm, "shared") == 0);
	PEER_CHECK(rt_shm_free(nam2num("SHM")) == 64);
	srv = find("SRV");
	mbx = find("MBX");
	PEER_CHECK(srv != NULL && mbx != NULL);
	PEER_CHECK(rt_rpc(srv, 41, &reply) == srv);
	PEER_CHECK(reply == 42);
	PEER_CHECK(rt_mbx_receive(mbx, mail, sizeof(mail)) == 0);
	PEER_CHECK(strcmp(mail, "mail") == 0);
	return peer_relaxed(0);
}

/*
 * A: 1 makes a FIFO and its semaphore (a block, and two nucleus pipes
 * of a block and a pool each).  B: 2 counts A's blocks; 3, A killed,
 * waits for them to go.
 */
static int fifo_step(void *arg, int n)
{
	void *mem;
	int left = -1;

	(void)arg;
	switch (n) {
	case 1:
		PEER_CHECK(peer_join_board(name, sizeof(*board), &mem) == 0);
		board = mem;
		PEER_CHECK(rt_task_init(nam2num("MAINA"), 20, 0, 0) != NULL);
		PEER_CHECK(rtf_create(0, 1000) == 0);
		PEER_CHECK(rtf_put(0, "unread", 6) == 6);
		PEER_CHECK(rtf_sem_init(0, 1) == 0);
		board->member = nk_instance_member(fusion_runtime_peek());
		break;
	case 2:
		PEER_CHECK(peer_join_board(name, sizeof(*board), &mem) == 0);
		board = mem;
		PEER_CHECK(rt_task_init(nam2num("MAINB"), 20, 0, 0) != NULL);
		PEER_CHECK(nk_member_blocks(fusion_runtime_peek(),
					    board->member) == 5);
		/* Its FIFO is not ours: our number 0 is free. */
		PEER_CHECK(rtf_get_avbs(0) == -EINVAL);
		break;
	case 3:
		/* Its cleaner is whoever sees the death first: us (10 s at
		 * most). */
		for (int i = 0; i < 1000 && left != 0; i++) {
			left = nk_member_blocks(fusion_runtime_peek(),
						board->member);
			if (left)
				rt_sleep(nano2count(10000000));
		}
		PEER_CHECK(left == 0);
		PEER_CHECK(rtf_create(0, 1000) == 0);
		PEER_CHECK(rtf_destroy(0) == 0);
		PEER_CHECK(peer_instance_whole() == 0);
		break;
	default:
		return __LINE__;
	}
	return peer_relaxed(0);
}

TEST(objects_across_processes)
{
	peers_pair_run(name, sizeof(name), "rtai", step_fn);
}

TEST(killed_with_a_fifo)
{
	peers_pair_kill_run(name, sizeof(name), "rtai-killed", fifo_step, 3);
}

TESTS(T(objects_across_processes), T(killed_with_a_fifo));
