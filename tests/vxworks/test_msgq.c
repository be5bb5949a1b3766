/* SPDX-License-Identifier: MIT */
/*
 * VxWorks msgQLib: options and bad IDs, lengths and truncation, NO_WAIT
 * and timeouts at exact tick dates, urgent messages at the head, direct
 * hand-over to a waiting receiver (and its preemption), senders blocked
 * on a full queue entering it in order, FIFO and priority waiters,
 * deletion waking waiters, interrupt context, and many messages
 * delivered exactly once, in order.
 */
#include "vxworks_test.h"

TEST(create_errors)
{
	CHECK_NULL(msgQCreate(4, 8, 0x2), S_msgQLib_INVALID_QUEUE_TYPE);
	CHECK_NULL(msgQCreate(4, 8, -1), S_msgQLib_INVALID_QUEUE_TYPE);
	CHECK_NULL(msgQCreate(4, -1, MSG_Q_FIFO), S_msgQLib_INVALID_MSG_LENGTH);
	CHECK_NULL(msgQCreate(0, 8, MSG_Q_FIFO), EINVAL);
	CHECK_NULL(msgQCreate(-3, 8, MSG_Q_FIFO), EINVAL);
	CHECK_NULL(msgQCreate(0x7fffffff, 0x7fffffff, MSG_Q_PRIORITY),
		   S_memLib_NOT_ENOUGH_MEMORY);
}

TEST(bad_ids)
{
	MSG_Q_ID gone = msgQCreate(1, 4, MSG_Q_FIFO);
	SEM_ID s = semBCreate(SEM_Q_FIFO, SEM_FULL);
	MSG_Q_ID bads[] = {NULL, gone, (MSG_Q_ID)0x1234, (MSG_Q_ID)s,
			   (MSG_Q_ID)UINTPTR_MAX};
	char buf[4] = "abc";

	CHECK_EQ(msgQDelete(gone), OK);
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		CHECK_FAIL(msgQSend(bads[i], buf, 1, NO_WAIT, MSG_PRI_NORMAL),
			   S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(msgQReceive(bads[i], buf, 4, WAIT_FOREVER),
			   S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(msgQNumMsgs(bads[i]), S_objLib_OBJ_ID_ERROR);
		CHECK_FAIL(msgQDelete(bads[i]), S_objLib_OBJ_ID_ERROR);
	}
	CHECK_EQ(semDelete(s), OK);
}

TEST(lengths_and_truncation)
{
	MSG_Q_ID q = msgQCreate(4, 8, MSG_Q_FIFO);
	char buf[16];

	CHECK(q != NULL);
	CHECK_FAIL(msgQSend(q, "0123456789", 9, NO_WAIT, MSG_PRI_NORMAL),
		   S_msgQLib_INVALID_MSG_LENGTH);
	CHECK_FAIL(msgQSend(q, NULL, 1, NO_WAIT, MSG_PRI_NORMAL),
		   S_msgQLib_INVALID_MSG_LENGTH);
	CHECK_FAIL(msgQSend(q, "x", 1, NO_WAIT, 2), EINVAL);
	CHECK_FAIL(msgQSend(q, "x", 1, NO_WAIT, -1), EINVAL);
	CHECK_EQ(msgQSend(q, "01234567", 8, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQSend(q, NULL, 0, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQSend(q, "ab", 2, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQNumMsgs(q), 3);
	CHECK_FAIL(msgQReceive(q, NULL, 4, NO_WAIT),
		   S_msgQLib_INVALID_MSG_LENGTH);
	/* The rest of a longer message is dropped. */
	memset(buf, 0, sizeof(buf));
	CHECK_EQ(msgQReceive(q, buf, 3, NO_WAIT), 3);
	CHECK_STR(buf, "012");
	CHECK_EQ(msgQReceive(q, buf, sizeof(buf), NO_WAIT), 0);
	CHECK_EQ(msgQReceive(q, NULL, 0, NO_WAIT), 0);
	CHECK_EQ(msgQNumMsgs(q), 0);
	CHECK_FAIL(msgQReceive(q, buf, sizeof(buf), NO_WAIT),
		   S_objLib_OBJ_UNAVAILABLE);
	CHECK_EQ(msgQDelete(q), OK);
}

TEST(full_empty_timeouts)
{
	MSG_Q_ID q = msgQCreate(2, 4, MSG_Q_FIFO);
	char buf[4];

	log_start();
	CHECK_FAIL(msgQReceive(q, buf, 4, 3), S_objLib_OBJ_TIMEOUT);
	note("r3");
	CHECK_EQ(msgQSend(q, "a", 1, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQSend(q, "b", 1, 5, MSG_PRI_NORMAL), OK);
	CHECK_FAIL(msgQSend(q, "c", 1, NO_WAIT, MSG_PRI_NORMAL),
		   S_objLib_OBJ_UNAVAILABLE);
	CHECK_FAIL(msgQSend(q, "c", 1, 4, MSG_PRI_URGENT),
		   S_objLib_OBJ_TIMEOUT);
	note("s4");
	check_log("r3@3 s4@7");
	CHECK_EQ(msgQNumMsgs(q), 2);
	CHECK_EQ(msgQDelete(q), OK);
}

TEST(urgent_at_head)
{
	MSG_Q_ID q = msgQCreate(4, 4, MSG_Q_FIFO);
	char buf[4] = "";
	char got[8] = "";

	CHECK_EQ(msgQSend(q, "1", 1, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQSend(q, "2", 1, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQSend(q, "U", 1, NO_WAIT, MSG_PRI_URGENT), OK);
	CHECK_EQ(msgQSend(q, "V", 1, NO_WAIT, MSG_PRI_URGENT), OK);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(msgQReceive(q, buf, 4, NO_WAIT), 1);
		got[i] = buf[0];
	}
	CHECK_STR(got, "VU12");
	CHECK_EQ(msgQDelete(q), OK);
}

struct receiver {
	MSG_Q_ID q;
	const char *name;
	int timeout;
	int ret;
	int err;
	char buf[16];
};

static int receiver_body(long arg)
{
	struct receiver *r = (struct receiver *)arg;
	char item[64];

	memset(r->buf, 0, sizeof(r->buf));
	r->ret = msgQReceive(r->q, r->buf, sizeof(r->buf) - 1, r->timeout);
	r->err = errnoGet();
	snprintf(item, sizeof(item), "%s:%s", r->name,
		 r->ret >= 0 ? r->buf : "err");
	note("%s", item);
	return 0;
}

static void receive_in(struct receiver *r, MSG_Q_ID q, const char *name,
		       int prio, int timeout)
{
	r->q = q;
	r->name = name;
	r->timeout = timeout;
	r->ret = -2;
	spawn(name, prio, (FUNCPTR)receiver_body, (long)r);
}

TEST(waiting_receivers)
{
	MSG_Q_ID fifo = msgQCreate(4, 8, MSG_Q_FIFO);
	MSG_Q_ID prio = msgQCreate(4, 8, MSG_Q_PRIORITY);
	struct receiver r[3];

	log_start();
	receive_in(&r[0], fifo, "a30", 30, WAIT_FOREVER);
	receive_in(&r[1], fifo, "b10", 10, WAIT_FOREVER);
	receive_in(&r[2], fifo, "c20", 20, 100);
	/* Each send goes to a waiter at once, which preempts main. */
	step("send");
	CHECK_EQ(msgQSend(fifo, "x", 1, NO_WAIT, MSG_PRI_NORMAL), OK);
	step("sent");
	CHECK_EQ(msgQSend(fifo, "y", 1, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQSend(fifo, "z", 1, NO_WAIT, MSG_PRI_URGENT), OK);
	CHECK_EQ(msgQNumMsgs(fifo), 0);
	check_log("send a30:x@0 sent b10:y@0 c20:z@0");

	trail[0] = '\0';
	receive_in(&r[0], prio, "a30", 30, WAIT_FOREVER);
	receive_in(&r[1], prio, "b10", 10, WAIT_FOREVER);
	receive_in(&r[2], prio, "c20", 20, WAIT_FOREVER);
	CHECK_EQ(taskLock(), OK);
	CHECK_EQ(msgQSend(prio, "x", 1, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQSend(prio, "y", 1, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQSend(prio, "z", 1, NO_WAIT, MSG_PRI_NORMAL), OK);
	step("unlock");
	CHECK_EQ(taskUnlock(), OK);
	check_log("unlock b10:x@0 c20:y@0 a30:z@0");
	CHECK_EQ(msgQDelete(fifo), OK);
	CHECK_EQ(msgQDelete(prio), OK);
}

struct sender {
	MSG_Q_ID q;
	const char *msg;
	int prio;
	int ret;
};

static int sender_body(long arg)
{
	struct sender *s = (struct sender *)arg;

	s->ret =
	    msgQSend(s->q, s->msg, (UINT)strlen(s->msg), WAIT_FOREVER, s->prio);
	note("sent:%s", s->msg);
	return 0;
}

TEST(blocked_senders_enter_in_order)
{
	MSG_Q_ID q = msgQCreate(2, 8, MSG_Q_PRIORITY);
	struct sender s[3] = {{q, "low", MSG_PRI_NORMAL, 1},
			      {q, "high", MSG_PRI_NORMAL, 1},
			      {q, "urg", MSG_PRI_URGENT, 1}};
	char buf[8], got[64] = "";

	log_start();
	CHECK_EQ(msgQSend(q, "m1", 2, NO_WAIT, MSG_PRI_NORMAL), OK);
	CHECK_EQ(msgQSend(q, "m2", 2, NO_WAIT, MSG_PRI_NORMAL), OK);
	spawn("low", 30, (FUNCPTR)sender_body, (long)&s[0]);
	spawn("high", 10, (FUNCPTR)sender_body, (long)&s[1]);
	spawn("urg", 20, (FUNCPTR)sender_body, (long)&s[2]);
	CHECK_EQ(taskDelay(2), OK);
	/* Each receive lets the most urgent sender's message in, at the
	 * tail, or at the head for an urgent one. */
	for (int i = 0; i < 5; i++) {
		int n = msgQReceive(q, buf, sizeof(buf) - 1, NO_WAIT);

		CHECK(n > 0);
		buf[n] = '\0';
		strcat(got, buf);
		strcat(got, " ");
	}
	check_log("sent:high@2 sent:urg@2 sent:low@2");
	CHECK_STR(got, "m1 m2 urg high low ");
	for (int i = 0; i < 3; i++)
		CHECK_EQ(s[i].ret, OK);
	CHECK_EQ(msgQDelete(q), OK);
}

static int late_sender(long arg)
{
	note("send");
	return msgQSend((MSG_Q_ID)arg, "late", 4, NO_WAIT, MSG_PRI_NORMAL);
}

/* Under taskLock(), a receive that waits lets the sender run. */
TEST(receive_waits_under_lock)
{
	MSG_Q_ID q = msgQCreate(1, 8, MSG_Q_FIFO);
	char buf[8] = "";

	log_start();
	CHECK_EQ(taskLock(), OK);
	spawn("late", 10, (FUNCPTR)late_sender, (long)q);
	step("locked");
	CHECK_EQ(msgQReceive(q, buf, sizeof(buf) - 1, 3), 4);
	note("got:%s", buf);
	CHECK_EQ(taskUnlock(), OK);
	check_log("locked send@0 got:late@0");
	CHECK_EQ(msgQDelete(q), OK);
}

TEST(delete_wakes_waiters)
{
	MSG_Q_ID empty = msgQCreate(1, 4, MSG_Q_FIFO);
	MSG_Q_ID full = msgQCreate(1, 4, MSG_Q_FIFO);
	struct sender s = {full, "s", MSG_PRI_NORMAL, 1};
	struct receiver r;

	log_start();
	CHECK_EQ(msgQSend(full, "f", 1, NO_WAIT, MSG_PRI_NORMAL), OK);
	receive_in(&r, empty, "r", 10, WAIT_FOREVER);
	spawn("s", 10, (FUNCPTR)sender_body, (long)&s);
	CHECK_EQ(taskDelay(3), OK);
	CHECK_EQ(msgQDelete(empty), OK);
	CHECK_EQ(msgQDelete(full), OK);
	check_log("r:err@3 sent:s@3");
	CHECK_EQ(r.ret, ERROR);
	CHECK_EQ(r.err, S_objLib_OBJ_DELETED);
	CHECK_EQ(s.ret, ERROR);
}

static MSG_Q_ID isr_q;
static int isr_results[3];

static void isr_routine(long arg)
{
	char buf[4];

	(void)arg;
	isr_results[0] = msgQSend(isr_q, "i", 1, NO_WAIT, MSG_PRI_NORMAL);
	isr_results[1] = msgQSend(isr_q, "j", 1, 5, MSG_PRI_NORMAL) == ERROR
			     ? errnoGet()
			     : 0;
	isr_results[2] =
	    msgQReceive(isr_q, buf, 4, NO_WAIT) == ERROR ? errnoGet() : 0;
}

TEST(interrupt_context)
{
	WDOG_ID wd = wdCreate();
	char buf[4];

	isr_q = msgQCreate(2, 4, MSG_Q_FIFO);
	CHECK_EQ(wdStart(wd, 1, FN(isr_routine), 0), OK);
	CHECK_EQ(msgQReceive(isr_q, buf, 4, WAIT_FOREVER), 1);
	CHECK_EQ(buf[0], 'i');
	CHECK_EQ(isr_results[0], OK);
	CHECK_EQ(isr_results[1], S_msgQLib_NON_ZERO_TIMEOUT_AT_INT_LEVEL);
	CHECK_EQ(isr_results[2], S_intLib_NOT_ISR_CALLABLE);
	CHECK_EQ(msgQDelete(isr_q), OK);
	CHECK_EQ(wdDelete(wd), OK);
}

#define STREAM_COUNT 20000

static int producer_body(long arg)
{
	MSG_Q_ID q = (MSG_Q_ID)arg;

	for (unsigned int i = 0; i < STREAM_COUNT; i++)
		CHECK_EQ(msgQSend(q, (const char *)&i, sizeof(i), WAIT_FOREVER,
				  MSG_PRI_NORMAL),
			 OK);
	return 0;
}

TEST(stream_exactly_once_in_order)
{
	MSG_Q_ID q = msgQCreate(4, sizeof(unsigned int), MSG_Q_FIFO);
	unsigned int v;

	spawn("producer", 100, (FUNCPTR)producer_body, (long)q);
	for (unsigned int i = 0; i < STREAM_COUNT; i++) {
		CHECK_EQ(msgQReceive(q, (char *)&v, sizeof(v), WAIT_FOREVER),
			 sizeof(v));
		CHECK_EQ(v, i);
	}
	CHECK_EQ(msgQNumMsgs(q), 0);
	CHECK_EQ(msgQDelete(q), OK);
}

TESTS(T(create_errors), T(bad_ids), T(lengths_and_truncation),
      T(full_empty_timeouts), T(urgent_at_head), T(waiting_receivers),
      T(blocked_senders_enter_in_order), T(receive_waits_under_lock),
      T(delete_wakes_waiters), T(interrupt_context),
      T(stream_exactly_once_in_order));
