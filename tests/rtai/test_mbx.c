/* SPDX-License-Identifier: MIT */
/*
 * RTAI mailboxes: messages larger than the buffer in pieces, whole and
 * in order; senders and receivers taking turns; the non-blocking forms
 * and their "bytes not sent"; timeouts at exact dates (sim), deletion
 * and unblocking of waiters; overwriting; previews; names; bad input.
 */
#include "rtai_test.h"

#include <rtai/rtai_mbx.h>

static MBX *box;

struct peer {
	const char *name;
	int prio;
	char buf[32];
	int size;
	RTIME delay; /* 0: no timeout */
	int ret;
};

static void receiver_body(void *arg)
{
	struct peer *p = arg;

	CHECK(rt_task_init(0, p->prio, 0, 0) != NULL);
	p->ret = p->delay ? rt_mbx_receive_timed(box, p->buf, p->size, p->delay)
			  : rt_mbx_receive(box, p->buf, p->size);
	note("%s:%d:%.*s", p->name, p->ret, p->size, p->buf);
}

static void sender_body(void *arg)
{
	struct peer *p = arg;

	CHECK(rt_task_init(0, p->prio, 0, 0) != NULL);
	p->ret = p->delay ? rt_mbx_send_timed(box, p->buf, p->size, p->delay)
			  : rt_mbx_send(box, p->buf, p->size);
	note("%s:%d", p->name, p->ret);
}

TEST(message_larger_than_the_buffer)
{
	struct peer r = {"r", 10, "", 10, 0, 1};
	char got[4];
	long id;

	main_task();
	box = rt_mbx_init(nam2num("BOX"), 4);
	CHECK(box != NULL);
	log_start();
	id = start(receiver_body, &r);
	/* 10 bytes through 4: the receiver drains each piece. */
	CHECK_EQ(rt_mbx_send(box, "0123456789", 10), 0);
	note("sent");
	finish(id);
	check_log("r:0:0123456789@0 sent@0");
	/* Non-blocking forms: what fits, or all or nothing. */
	CHECK_EQ(rt_mbx_send_wp(box, "abcdef", 6), 2);
	CHECK_EQ(rt_mbx_send_if(box, "x", 1), 1);
	CHECK_EQ(rt_mbx_evdrp(box, got, 3), 0);
	CHECK(memcmp(got, "abc", 3) == 0);
	CHECK_EQ(rt_mbx_evdrp(box, got, 4), 0);
	CHECK_EQ(rt_mbx_receive_if(box, got, 4), 0);
	CHECK(memcmp(got, "abcd", 4) == 0);
	CHECK_EQ(rt_mbx_receive_if(box, got, 1), 1);
	CHECK_EQ(rt_mbx_send_if(box, "xyz", 3), 0);
	CHECK_EQ(rt_mbx_receive_wp(box, got, 4), 1);
	CHECK(memcmp(got, "xyz", 3) == 0);
	CHECK_EQ(rt_mbx_receive_wp(box, got, 4), 4);
	CHECK_EQ(rt_mbx_evdrp(box, got, 2), 2);
	/* Zero bytes: done at once. */
	CHECK_EQ(rt_mbx_send(box, got, 0), 0);
	CHECK_EQ(rt_mbx_receive(box, got, 0), 0);
	CHECK_EQ(rt_mbx_delete(box), 0);
}

TEST(overwrite)
{
	char got[4];

	main_task();
	box = rt_mbx_init(0, 4);
	CHECK_EQ(rt_mbx_send(box, "abcd", 4), 0);
	CHECK_EQ(rt_mbx_ovrwr_send(box, "XY", 2), 0);
	CHECK_EQ(rt_mbx_receive(box, got, 4), 0);
	CHECK(memcmp(got, "cdXY", 4) == 0);
	CHECK_EQ(rt_mbx_ovrwr_send(box, "12345", 5), 5);
	CHECK_EQ(rt_mbx_receive_wp(box, got, 4), 4);
	CHECK_EQ(rt_mbx_delete(box), 0);
}

TEST(receivers_take_turns_by_priority)
{
	struct peer lo = {"lo", 30, "", 3, 0, 1};
	struct peer hi = {"hi", 10, "", 3, 0, 1};
	long a, b;

	main_task();
	box = rt_mbx_init(0, 8);
	log_start();
	a = start(receiver_body, &lo);
	b = start(receiver_body, &hi);
	/* "hi" waits for the turn "lo" holds: lo gets the first message. */
	CHECK_EQ(rt_mbx_send(box, "one", 3), 0);
	CHECK_EQ(rt_mbx_send(box, "two", 3), 0);
	finish(a);
	finish(b);
	check_log("lo:0:one@0 hi:0:two@0");
	CHECK_EQ(rt_mbx_delete(box), 0);
}

TEST(senders_wait_for_room)
{
	struct peer s = {"s", 10, "abcdef", 6, 0, 1};
	char got[6];
	long id;

	main_task();
	box = rt_typed_mbx_init(0, 4, FIFO_Q);
	log_start();
	id = start(sender_body, &s);
	CHECK_EQ(rt_sleep(MS), 0);
	/* Four bytes went in; the sender waits for room for two. */
	CHECK_EQ(rt_mbx_receive(box, got, 2), 0);
	note("got");
	CHECK_EQ(rt_mbx_receive(box, got + 2, 4), 0);
	finish(id);
	check_log("s:0@1000000 got@1000000");
	CHECK(memcmp(got, "abcdef", 6) == 0);
	CHECK_EQ(rt_mbx_delete(box), 0);
}

TEST(timeouts_deletion_unblock)
{
	struct peer t = {"timed", 10, "", 4, 2 * MS, 1};
	struct peer d = {"deleted", 11, "", 4, 0, 1};
	char byte = 'z', four[4];
	long a, b;

	main_task();
	box = rt_mbx_init(0, 4);
	log_start();
	a = start(receiver_body, &t);
	b = start(receiver_body, &d);
	CHECK_EQ(rt_mbx_send(box, &byte, 1), 0);
	CHECK_EQ(rt_sleep(3 * MS), 0);
	CHECK_EQ(rt_mbx_delete(box), 0);
	finish(a);
	finish(b);
	/* "timed" got one byte of four, then timed out. */
	check_log("timed:1073741571:z@2000000 deleted:1073741572:@3000000");
	CHECK_EQ(t.ret, RTE_TIMOUT);
	CHECK_EQ(d.ret, RTE_OBJREM);
	/* Bounded waits whose date has passed. */
	box = rt_mbx_init(0, 4);
	CHECK_EQ(rt_mbx_receive_timed(box, &byte, 1, 0), RTE_TIMOUT);
	CHECK_EQ(rt_mbx_receive_until(box, &byte, 1, rt_get_time()),
		 RTE_TIMOUT);
	/* What fitted went in before the timeout, as on RTAI. */
	CHECK_EQ(rt_mbx_send_until(box, "12345", 5, rt_get_time()), RTE_TIMOUT);
	CHECK_EQ(rt_mbx_receive_wp(box, four, 4), 0);
	CHECK(memcmp(four, "1234", 4) == 0);
	CHECK_EQ(rt_mbx_send_timed(box, "1234", 4, MS), 0);
	CHECK_EQ(rt_mbx_delete(box), 0);
}

static RT_TASK *blocked;

static void unblocked_body(void *arg)
{
	int *ret = arg;
	char buf[2];

	blocked = rt_task_init(0, 10, 0, 0);
	*ret = rt_mbx_receive(box, buf, 2);
}

TEST(unblocked_receiver)
{
	int ret = 1;
	long id;

	main_task();
	box = rt_mbx_init(0, 4);
	id = start(unblocked_body, &ret);
	CHECK_EQ(rt_task_masked_unblock(blocked, RT_SCHED_MBXSUSP), 0);
	finish(id);
	CHECK_EQ(ret, RTE_UNBLKD);
	/* The turn came back: another receive works. */
	CHECK_EQ(rt_mbx_send(box, "ok", 2), 0);
	CHECK_EQ(rt_mbx_receive_if(box, (char[2]){0}, 2), 0);
	CHECK_EQ(rt_mbx_delete(box), 0);
}

TEST(named)
{
	MBX *a, *b;

	main_task();
	a = rt_named_mbx_init("MAILS", 16);
	b = rt_typed_named_mbx_init("mails", 4, FIFO_Q);
	CHECK(a != NULL && a == b);
	CHECK(rt_get_adr(nam2num("MAILS")) == a);
	CHECK_EQ(rt_named_mbx_delete(b), 1);
	CHECK_EQ(rt_named_mbx_delete(a), 0);
	CHECK_EQ(rt_mbx_delete(a), RTE_OBJINV);
	CHECK(rt_named_mbx_init("MAIN", 4) == NULL);
	CHECK(rt_named_mbx_init(NULL, 4) == NULL);
	a = rt_mbx_init(nam2num("M1"), 4);
	CHECK(rt_mbx_init(nam2num("M1"), 4) == NULL);
	CHECK_EQ(rt_mbx_delete(a), 0);
}

TEST(bad_input)
{
	RT_TASK *self = main_task();
	MBX *gone = rt_mbx_init(0, 4);
	MBX *bads[] = {NULL, (MBX *)0x10, (MBX *)UINTPTR_MAX, (MBX *)self,
		       gone};
	SEM *sem = rt_sem_init(0, 0);
	char buf[4];

	CHECK_EQ(rt_mbx_delete(gone), 0);
	CHECK(rt_mbx_init(0, 0) == NULL);
	CHECK(rt_mbx_init(0, -1) == NULL);
	CHECK(rt_typed_mbx_init(0, 4, 1) == NULL);
	for (unsigned int i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		MBX *m = bads[i];

		CHECK_EQ(rt_mbx_delete(m), RTE_OBJINV);
		CHECK_EQ(rt_named_mbx_delete(m), RTE_OBJINV);
		CHECK_EQ(rt_mbx_send(m, buf, 1), RTE_OBJINV);
		CHECK_EQ(rt_mbx_send_wp(m, buf, 1), RTE_OBJINV);
		CHECK_EQ(rt_mbx_send_if(m, buf, 1), RTE_OBJINV);
		CHECK_EQ(rt_mbx_send_until(m, buf, 1, 0), RTE_OBJINV);
		CHECK_EQ(rt_mbx_send_timed(m, buf, 1, MS), RTE_OBJINV);
		CHECK_EQ(rt_mbx_ovrwr_send(m, buf, 1), RTE_OBJINV);
		CHECK_EQ(rt_mbx_receive(m, buf, 1), RTE_OBJINV);
		CHECK_EQ(rt_mbx_receive_wp(m, buf, 1), RTE_OBJINV);
		CHECK_EQ(rt_mbx_receive_if(m, buf, 1), RTE_OBJINV);
		CHECK_EQ(rt_mbx_receive_until(m, buf, 1, 0), RTE_OBJINV);
		CHECK_EQ(rt_mbx_receive_timed(m, buf, 1, MS), RTE_OBJINV);
		CHECK_EQ(rt_mbx_evdrp(m, buf, 1), RTE_OBJINV);
	}
	/* A semaphore is not a mailbox. */
	CHECK_EQ(rt_mbx_send((MBX *)sem, buf, 1), RTE_OBJINV);
	CHECK_EQ(rt_sem_delete(sem), 0);
	box = rt_mbx_init(0, 4);
	CHECK_EQ(rt_mbx_send(box, buf, -1), -EINVAL);
	CHECK_EQ(rt_mbx_send(box, NULL, 1), -EINVAL);
	CHECK_EQ(rt_mbx_receive(box, NULL, 1), -EINVAL);
	CHECK_EQ(rt_mbx_send_wp(box, NULL, 1), -EINVAL);
	CHECK_EQ(rt_mbx_evdrp(box, buf, -1), -EINVAL);
	CHECK_EQ(rt_mbx_ovrwr_send(box, NULL, 2), -EINVAL);
	CHECK_EQ(rt_mbx_delete(box), 0);
}

TESTS(T(message_larger_than_the_buffer), T(overwrite),
      T(receivers_take_turns_by_priority), T(senders_wait_for_room),
      T(timeouts_deletion_unblock), T(unblocked_receiver), T(named),
      T(bad_input));
