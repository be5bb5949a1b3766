/* SPDX-License-Identifier: MIT */
/*
 * pSOS message queues: FIFO and urgent order, a receiver served at once,
 * FIFO and priority receivers, broadcast waking all (and counting them),
 * Q_LIMIT, Q_PRIBUF, timeouts, deletion with receivers (ERR_QKILLD,
 * ERR_TATQDEL) and with messages (ERR_MATQDEL), the variable family and
 * its sizes, the families kept apart, bad IDs.
 */
#include "psos_test.h"

struct receiver {
	unsigned long qid, flags, timeout;
	const char *name;
	bool variable;
};

static void body_receive(void *arg)
{
	struct receiver *r = arg;
	unsigned long msg[4] = {0}, len = 0, ret;

	if (r->variable)
		ret = q_vreceive(r->qid, r->flags, r->timeout, msg, sizeof(msg),
				 &len);
	else
		ret = q_receive(r->qid, r->flags, r->timeout, msg);
	note("%s:%lx:%lu:%lu", r->name, ret, msg[0], len);
}

static void send(unsigned long q, unsigned long v)
{
	unsigned long msg[4] = {v, 0, 0, v};

	CHECK_EQ(q_send(q, msg), 0);
}

static unsigned long receive(unsigned long q)
{
	unsigned long msg[4] = {0};

	CHECK_EQ(q_receive(q, Q_NOWAIT, 0, msg), 0);
	CHECK_EQ(msg[3], msg[0]);
	return msg[0];
}

TEST(fifo_and_urgent)
{
	unsigned long q, msg[4] = {9, 0, 0, 9};

	CHECK_EQ(q_create("Q", 0, Q_NOLIMIT | Q_SYSBUF, &q), 0);
	send(q, 1);
	send(q, 2);
	CHECK_EQ(q_urgent(q, msg), 0);
	CHECK_EQ(receive(q), 9);
	CHECK_EQ(receive(q), 1);
	CHECK_EQ(receive(q), 2);
	CHECK_EQ(q_receive(q, Q_NOWAIT, 0, msg), ERR_NOMSG);
	CHECK_EQ(q_delete(q), 0);
}

TEST(limit_and_private_buffers)
{
	unsigned long q, p, msg[4] = {0};

	CHECK_EQ(q_create("Q", 2, Q_LIMIT, &q), 0);
	send(q, 1);
	send(q, 2);
	CHECK_EQ(q_send(q, msg), ERR_QFULL);
	CHECK_EQ(q_urgent(q, msg), ERR_QFULL);
	CHECK_EQ(q_delete(q), ERR_MATQDEL);
	CHECK_EQ(q_create("P", 1, Q_PRIBUF, &p), 0);
	send(p, 1);
	CHECK_EQ(q_send(p, msg), ERR_NOMGB);
	CHECK_EQ(receive(p), 1);
	send(p, 2);
	CHECK_EQ(receive(p), 2);
	CHECK_EQ(q_delete(p), 0);
	CHECK_EQ(q_create("Q", 0, 0, NULL), ERR_OBJID);
}

static void receivers(unsigned long flags, const char *expected)
{
	struct receiver a = {.name = "a"}, b = {.name = "b"}, c = {.name = "c"};
	unsigned long q;

	CHECK_EQ(q_create("Q", 0, flags, &q), 0);
	a.qid = b.qid = c.qid = q;
	log_start();
	spawn_waiters(body_receive, &a, &b, &c);
	for (unsigned long i = 1; i <= 3; i++)
		send(q, i);
	check_log(expected);
	CHECK_EQ(q_delete(q), 0);
}

TEST(fifo_receivers)
{
	receivers(Q_FIFO, "a:0:1:0@0 b:0:2:0@0 c:0:3:0@0");
}

TEST(priority_receivers)
{
	receivers(Q_PRIOR, "b:0:1:0@0 c:0:2:0@0 a:0:3:0@0");
}

TEST(broadcast_wakes_all)
{
	struct receiver a = {.name = "a"}, b = {.name = "b"};
	unsigned long q, n = 9, msg[4] = {7, 0, 0, 7};

	CHECK_EQ(q_create("Q", 0, Q_PRIOR, &q), 0);
	CHECK_EQ(q_broadcast(q, msg, &n), 0);
	CHECK_EQ(n, 0);
	/* Nobody waited: nothing was queued. */
	CHECK_EQ(q_receive(q, Q_NOWAIT, 0, msg), ERR_NOMSG);
	a.qid = b.qid = q;
	log_start();
	spawn("A", 10, 0, body_receive, &a);
	spawn("B", 20, 0, body_receive, &b);
	msg[0] = 7;
	note("broadcast");
	CHECK_EQ(q_broadcast(q, msg, &n), 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(q_broadcast(q, msg, NULL), ERR_OBJID);
	check_log("broadcast@0 b:0:7:0@0 a:0:7:0@0");
	CHECK_EQ(q_delete(q), 0);
}

TEST(timeout_and_delete)
{
	struct receiver a = {.name = "a", .timeout = 3}, b = {.name = "b"};
	unsigned long q, msg[4];

	CHECK_EQ(q_create("Q", 0, 0, &q), 0);
	a.qid = b.qid = q;
	log_start();
	spawn_timeout_then_waiter(body_receive, &a, &b, 4);
	CHECK_EQ(q_delete(q), ERR_TATQDEL);
	check_log("a:1:0:0@30 delete@40 b:36:0:0@40");
	CHECK_EQ(q_receive(q, Q_NOWAIT, 0, msg), ERR_OBJID);
}

TEST(variable_queues)
{
	struct receiver a = {.name = "a", .variable = true};
	unsigned long q, len = 0, n = 0;
	char buf[32] = "", big[64] = {0};

	CHECK_EQ(q_vcreate("VQ", Q_FIFO, 2, 16, &q), 0);
	CHECK_EQ(q_vcreate("VQ", 0, 2, 0, &n), ERR_MSGSIZ);
	CHECK_EQ(q_vsend(q, "hello", 6), 0);
	CHECK_EQ(q_vurgent(q, "hi", 3), 0);
	CHECK_EQ(q_vsend(q, "full", 5), ERR_QFULL);
	CHECK_EQ(q_vsend(q, big, 17), ERR_MSGSIZ);
	CHECK_EQ(q_vsend(q, NULL, 1), ERR_OBJID);
	CHECK_EQ(q_vbroadcast(q, "x", 2, NULL), ERR_OBJID);
	CHECK_EQ(q_vreceive(q, Q_NOWAIT, 0, buf, 8, &len), ERR_BUFSIZ);
	CHECK_EQ(q_vreceive(q, Q_NOWAIT, 0, buf, sizeof(buf), NULL), ERR_OBJID);
	CHECK_EQ(q_vreceive(q, Q_NOWAIT, 0, buf, sizeof(buf), &len), 0);
	CHECK_EQ(len, 3);
	CHECK_STR(buf, "hi");
	CHECK_EQ(q_vreceive(q, Q_NOWAIT, 0, buf, sizeof(buf), &len), 0);
	CHECK_EQ(len, 6);
	CHECK_STR(buf, "hello");
	CHECK_EQ(q_vreceive(q, Q_NOWAIT, 0, buf, sizeof(buf), &len), ERR_NOMSG);
	/* The families stay apart. */
	CHECK_EQ(q_send(q, (unsigned long *)big), ERR_VARQ);
	CHECK_EQ(q_receive(q, Q_NOWAIT, 0, (unsigned long *)big), ERR_VARQ);
	CHECK_EQ(q_delete(q), ERR_VARQ);
	CHECK_EQ(q_ident("VQ", 0, &n), ERR_OBJNF);
	CHECK_EQ(q_vident("VQ", 0, &n), 0);
	CHECK_EQ(n, q);
	a.qid = q;
	log_start();
	spawn("A", 10, 0, body_receive, &a);
	CHECK_EQ(q_vbroadcast(q, "x", 2, &n), 0);
	CHECK_EQ(n, 1);
	check_log("a:0:120:2@0");
	CHECK_EQ(q_vdelete(q), 0);
}

TEST(fixed_family_apart)
{
	unsigned long q, n, len;
	char buf[16];

	CHECK_EQ(q_create("FQ", 0, 0, &q), 0);
	CHECK_EQ(q_vsend(q, "x", 1), ERR_NOTVARQ);
	CHECK_EQ(q_vurgent(q, "x", 1), ERR_NOTVARQ);
	CHECK_EQ(q_vbroadcast(q, "x", 1, &n), ERR_NOTVARQ);
	CHECK_EQ(q_vreceive(q, Q_NOWAIT, 0, buf, sizeof(buf), &len),
		 ERR_NOTVARQ);
	CHECK_EQ(q_vdelete(q), ERR_NOTVARQ);
	CHECK_EQ(q_vident("FQ", 0, &n), ERR_OBJNF);
	CHECK_EQ(q_ident("FQ", 0, &n), 0);
	CHECK_EQ(n, q);
	CHECK_EQ(q_send(q, NULL), ERR_OBJID);
	CHECK_EQ(q_receive(q, Q_NOWAIT, 0, NULL), ERR_OBJID);
	CHECK_EQ(q_delete(q), 0);
}

TEST(bad_queue_ids)
{
	unsigned long msg[4] = {0}, n, len, smid;

	for (size_t i = 0; i < NR_BAD_IDS; i++) {
		unsigned long id = bad_ids[i];

		CHECK_EQ(q_send(id, msg), ERR_OBJID);
		CHECK_EQ(q_urgent(id, msg), ERR_OBJID);
		CHECK_EQ(q_broadcast(id, msg, &n), ERR_OBJID);
		CHECK_EQ(q_receive(id, 0, 1, msg), ERR_OBJID);
		CHECK_EQ(q_delete(id), ERR_OBJID);
		CHECK_EQ(q_vsend(id, msg, 1), ERR_OBJID);
		CHECK_EQ(q_vurgent(id, msg, 1), ERR_OBJID);
		CHECK_EQ(q_vbroadcast(id, msg, 1, &n), ERR_OBJID);
		CHECK_EQ(q_vreceive(id, 0, 1, msg, 16, &len), ERR_OBJID);
		CHECK_EQ(q_vdelete(id), ERR_OBJID);
	}
	CHECK_EQ(sm_create("S", 0, 0, &smid), 0);
	CHECK_EQ(q_send(smid, msg), ERR_OBJTYPE);
	CHECK_EQ(q_vdelete(smid), ERR_OBJTYPE);
	CHECK_EQ(sm_delete(smid), 0);
	CHECK_EQ(q_ident(NULL, 0, &n), ERR_OBJID);
}

TESTS(T(fifo_and_urgent), T(limit_and_private_buffers), T(fifo_receivers),
      T(priority_receivers), T(broadcast_wakes_all), T(timeout_and_delete),
      T(variable_queues), T(fixed_family_apart), T(bad_queue_ids));
