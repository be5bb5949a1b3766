/* SPDX-License-Identifier: MIT */
/*
 * RTAI messages and RPC: sends to a waiting receiver and to a busy one,
 * senders in priority order, receiving from one task, calls and
 * returns (words and buffers), rt_isrpc, previews, timeouts at exact
 * dates (sim), deletion of the receiver, unblocking, bad input.
 */
#include "rtai_test.h"

#include <rtai/rtai_msg.h>

static RT_TASK *server;

#define IS_ERR(p) rt_is_reterr((long)(p))

/* A sleep that only rt_task_masked_unblock() ends. */
#define LONG_SLEEP nano2count(10000 * MS)

/* Receives three words, answers the calls among them doubled. */
static void server_body(void *arg)
{
	(void)arg;
	server = rt_task_init(nam2num("SERVER"), 10, 0, 0);
	/* Let the clients queue up (on live, however slowly their threads
	 * start: 1 ms was too short under AddressSanitizer in CI). */
	CHECK_EQ(rt_sleep(on_sim() ? MS : 200 * MS), 0);
	for (int i = 0; i < 3; i++) {
		unsigned long msg = 0;
		RT_TASK *from = rt_receive(NULL, &msg);

		CHECK(from != NULL && !IS_ERR(from));
		note("got%lu", msg);
		if (rt_isrpc(from))
			CHECK(rt_return(from, msg * 2) == from);
	}
}

struct client {
	const char *name;
	int prio;
	unsigned long msg;
	bool rpc;
	unsigned long reply;
	RT_TASK *ret;
};

static void client_body(void *arg)
{
	struct client *c = arg;

	CHECK(rt_task_init(0, c->prio, 0, 0) != NULL);
	c->ret = c->rpc ? rt_rpc(server, c->msg, &c->reply)
			: rt_send(server, c->msg);
	note("%s", c->name);
}

TEST(sends_and_calls_in_priority_order)
{
	struct client lo = {"lo", 30, 1, false, 0, NULL};
	struct client hi = {"hi", 20, 2, true, 0, NULL};
	struct client mid = {"mid", 25, 3, true, 0, NULL};
	long s, a, b, c;

	main_task();
	log_start();
	s = start(server_body, NULL);
	a = start(client_body, &lo);
	b = start(client_body, &hi);
	c = start(client_body, &mid);
	finish(s);
	finish(a);
	finish(b);
	finish(c);
	/* Senders by priority; a sender goes on at once, a caller once
	 * answered (the server is more urgent than all of them). */
	check_log("got2@1000000 got3@1000000 got1@1000000 hi@1000000 "
		  "mid@1000000 lo@1000000");
	CHECK(lo.ret == server && hi.ret == server && mid.ret == server);
	CHECK_EQ(hi.reply, 4);
	CHECK_EQ(mid.reply, 6);
}

/* --- a receiver that waits first, for one sender --- */

static RT_TASK *receiver;

static void picky_receiver(void *arg)
{
	RT_TASK *main_t = arg;
	unsigned long got = 0;

	receiver = rt_task_init(0, 10, 0, 0);
	/* main's message only, though another one comes first. */
	CHECK(rt_receive(main_t, &got) == main_t);
	note("received%lu", got);
	CHECK(rt_receive(NULL, &got) == rt_get_adr(nam2num("OTHER")));
	note("received%lu", got);
}

static void other_sender(void *arg)
{
	(void)arg;
	CHECK(rt_task_init(nam2num("OTHER"), 20, 0, 0) != NULL);
	CHECK(rt_send(receiver, 7) == receiver);
	note("other.sent");
}

TEST(receive_from_one_task)
{
	RT_TASK *self = main_task();
	long r, o;

	log_start();
	r = start(picky_receiver, self);
	o = start(other_sender, NULL);
	CHECK(rt_send_if(receiver, 5) == receiver);
	note("main.sent");
	finish(r);
	finish(o);
	check_log("received5@0 received7@0 other.sent@0 main.sent@0");
}

/* --- buffers --- */

static void echo_server(void *arg)
{
	char buf[8];
	int len = 0;
	RT_TASK *from;

	(void)arg;
	server = rt_task_init(nam2num("ECHO"), 10, 0, 0);
	from = rt_receivex(NULL, buf, sizeof(buf), &len);
	note("len%d", len);
	for (int i = 0; i < len && i < 8; i++)
		buf[i] = (char)(buf[i] - 'a' + 'A');
	CHECK(rt_returnx(from, buf, len) == from);
	/* Not a caller any more. */
	CHECK(rt_return(from, 0) == NULL);
	CHECK_EQ(rt_isrpc(from), 0);
}

TEST(buffer_calls)
{
	char reply[4] = "";
	long s;

	main_task();
	log_start();
	s = start(echo_server, NULL);
	/* The reply is cut to the caller's buffer. */
	CHECK(rt_rpcx(server, "hello", reply, 5, 4) == server);
	finish(s);
	check_log("len5@0");
	CHECK(memcmp(reply, "HELL", 4) == 0);
}

static void buffer_sink(void *arg)
{
	char *buf = arg;
	int len = 0;

	server = rt_task_init(0, 10, 0, 0);
	CHECK(rt_receivex(NULL, buf, 3, &len) != NULL);
	CHECK_EQ(len, 6);
	/* A word arrives as its bytes. */
	CHECK(rt_receivex(NULL, buf + 3, 8, &len) != NULL);
	CHECK_EQ(len, (int)sizeof(unsigned long));
}

TEST(buffer_sends_and_previews)
{
	char buf[16] = "";
	unsigned long word = 0x41;
	unsigned long peek = 0;
	int len = 0;
	long s;

	main_task();
	s = start(buffer_sink, buf);
	CHECK(rt_sendx(server, "abcdef", 6) == server);
	CHECK(rt_send(server, word) == server);
	finish(s);
	CHECK(memcmp(buf, "abc", 3) == 0);
	CHECK(memcmp(buf + 3, &word, sizeof(word)) == 0);
	/* Nothing queued for main: previews find nothing. */
	CHECK(rt_evdrp(NULL, &peek) == NULL);
	CHECK(rt_evdrpx(NULL, buf, 4, &len) == NULL);
	CHECK(rt_receivex_if(NULL, buf, 4, &len) == NULL);
}

/* --- timeouts, deletion, unblocking --- */

/* The time unit of the test: roomy on live, where it is real. */
static RTIME unit;

static void late_receiver(void *arg)
{
	unsigned long msg = 0, peek = 0;
	RT_TASK *from;
	int len = 0;
	char buf[8];

	(void)arg;
	server = rt_task_init(nam2num("LATE"), 30, 0, 0);
	/* Nothing comes for 1 ms. */
	CHECK(rt_receive_timed(NULL, &msg, unit) == (RT_TASK *)RTE_TIMOUT);
	note("rtimeout");
	CHECK(rt_receive_until(NULL, &msg, rt_get_time()) ==
	      (RT_TASK *)RTE_TIMOUT);
	CHECK(rt_receivex_timed(NULL, buf, 8, &len, 0) ==
	      (RT_TASK *)RTE_TIMOUT);
	CHECK_EQ(rt_sleep(2 * unit), 0);
	/* main's send waits: preview it, then take it. */
	from = rt_evdrp(NULL, &peek);
	CHECK_EQ(peek, 9);
	CHECK(rt_evdrpx(NULL, buf, 8, &len) == from);
	CHECK_EQ(len, (int)sizeof(unsigned long));
	CHECK(rt_receive_if(from, &msg) == from);
	CHECK_EQ(msg, 9);
	note("took");
	/* main's call now: take it, never answer, and leave. */
	CHECK(rt_receivex_until(NULL, buf, 8, &len, rt_get_time() + unit) ==
	      from);
	CHECK_EQ(rt_isrpc(from), 1);
	note("leaves");
}

TEST(timeouts_and_deletion)
{
	unsigned long reply = 0;
	long s;

	main_task();
	unit = on_sim() ? MS : 20 * MS;
	log_start();
	s = start(late_receiver, NULL);
	/* At 1.5 ms the receiver sleeps: nobody to send to at once. */
	CHECK_EQ(rt_sleep(unit + unit / 2), 0);
	CHECK(rt_send_if(server, 1) == NULL);
	CHECK(rt_rpc_if(server, 1, &reply) == NULL);
	CHECK(rt_sendx_if(server, "x", 1) == NULL);
	CHECK(rt_rpcx_if(server, "x", &reply, 1, 1) == NULL);
	/* A bounded send times out. */
	CHECK(rt_send_timed(server, 8, unit / 2) == (RT_TASK *)RTE_TIMOUT);
	note("stimeout");
	CHECK(rt_send_until(server, 9, rt_get_time() + 2 * unit) == server);
	note("sent");
	/* Received, never answered: the receiver ends. */
	CHECK(rt_rpc_timed(server, 10, &reply, 5 * unit) ==
	      (RT_TASK *)RTE_OBJREM);
	note("objrem");
	finish(s);
	check_log("rtimeout@1000000 stimeout@2000000 took@3000000 "
		  "sent@3000000 leaves@3000000 objrem@3000000");
}

/* --- the receiver inherits its callers' priority --- */

static RT_TASK *slow;
static int slow_prio[3];

static void slow_server(void *arg)
{
	unsigned long msg;
	RT_TASK *from;

	(void)arg;
	slow = rt_task_init(nam2num("SLOW"), 30, 0, 0);
	/* Until the caller waits and the test has seen the boost. */
	CHECK_EQ(rt_sleep(LONG_SLEEP), RTE_UNBLKD);
	from = rt_receive(NULL, &msg);
	/* The caller waits for the return: still boosted. */
	slow_prio[0] = rt_get_inher_prio(NULL);
	CHECK(rt_return(from, msg + 1) == from);
	slow_prio[1] = rt_get_inher_prio(NULL);
	slow_prio[2] = rt_get_prio(NULL);
}

static void urgent_caller(void *arg)
{
	unsigned long *reply = arg;

	CHECK(rt_task_init(0, 5, 0, 0) != NULL);
	CHECK(rt_rpc(slow, 41, reply) == slow);
}

TEST(receiver_inherits_priority)
{
	unsigned long reply = 0;
	long s, c;

	main_task();
	s = start(slow_server, NULL);
	CHECK_EQ(rt_get_inher_prio(slow), 30);
	c = start(urgent_caller, &reply);
	/* The call waits: the server runs at the caller's priority. */
	CHECK_EQ(rt_get_inher_prio(slow), 5);
	CHECK_EQ(rt_get_prio(slow), 30);
	CHECK_EQ(rt_task_masked_unblock(slow, RT_SCHED_DELAYED), 0);
	finish(s);
	finish(c);
	CHECK_EQ(reply, 42);
	CHECK_EQ(slow_prio[0], 5);
	CHECK_EQ(slow_prio[1], 30);
	CHECK_EQ(slow_prio[2], 30);
}

/* --- what rt_get_task_state() says of tasks in message calls --- */

static RT_TASK *st_server;
static RT_TASK *st_clients[3];

static void state_server(void *arg)
{
	unsigned long msg;
	RT_TASK *first;

	(void)arg;
	st_server = rt_task_init(0, 10, 0, 0);
	first = rt_receive(NULL, &msg);
	/* The caller waits for the return while the server sleeps, until
	 * the test has seen every state: a timed sleep raced the start of
	 * the other clients on live under AddressSanitizer in CI. */
	CHECK_EQ(rt_sleep(LONG_SLEEP), RTE_UNBLKD);
	CHECK(rt_return(first, 0) == first);
	for (int i = 0; i < 2; i++) {
		RT_TASK *from = rt_receive(NULL, &msg);

		if (rt_isrpc(from))
			CHECK(rt_return(from, 0) == from);
	}
}

static void state_client(void *arg)
{
	long i = (long)arg;
	unsigned long reply;

	st_clients[i] = rt_task_init(0, 20 + (int)i, 0, 0);
	if (i == 1)
		CHECK(rt_send(st_server, i) == st_server);
	else
		CHECK(rt_rpc(st_server, i, &reply) == st_server);
}

TEST(task_states)
{
	RT_TASK *self = main_task();
	long s, c[3];

	CHECK_EQ(rt_get_task_state(self), RT_SCHED_READY);
	s = start(state_server, NULL);
	CHECK_EQ(rt_get_task_state(st_server), RT_SCHED_RECEIVE);
	c[0] = start(state_client, (void *)0L);
	CHECK_EQ(rt_get_task_state(st_server), RT_SCHED_DELAYED);
	CHECK_EQ(rt_get_task_state(st_clients[0]), RT_SCHED_RETURN);
	c[1] = start(state_client, (void *)1L);
	c[2] = start(state_client, (void *)2L);
	CHECK_EQ(rt_get_task_state(st_clients[1]), RT_SCHED_SEND);
	CHECK_EQ(rt_get_task_state(st_clients[2]), RT_SCHED_RPC);
	CHECK_EQ(rt_get_task_state(NULL), -EINVAL);
	CHECK_EQ(rt_get_task_state((RT_TASK *)0x10), -EINVAL);
	CHECK_EQ(rt_task_masked_unblock(st_server, RT_SCHED_DELAYED), 0);
	finish(s);
	for (int i = 0; i < 3; i++)
		finish(c[i]);
}

static RT_TASK *stuck;

static void stuck_receiver(void *arg)
{
	RT_TASK **ret = arg;

	stuck = rt_task_init(0, 10, 0, 0);
	*ret = rt_receive(NULL, NULL);
}

TEST(unblock_and_bad_input)
{
	RT_TASK *self = main_task();
	RT_TASK *got = NULL, *bad = (RT_TASK *)0x10;
	unsigned long w = 0;
	char buf[4];
	int len;
	long s;

	s = start(stuck_receiver, &got);
	CHECK_EQ(rt_task_masked_unblock(stuck, RT_SCHED_RECEIVE), 0);
	finish(s);
	CHECK(got == (RT_TASK *)RTE_UNBLKD);
	CHECK(rt_send(bad, 1) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_send(NULL, 1) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_send_if(bad, 1) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_send_until(bad, 1, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_send_timed(bad, 1, 1) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_sendx(bad, buf, 1) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_sendx_until(bad, buf, 1, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_sendx_timed(bad, buf, 1, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_rpc(bad, 1, &w) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_rpc_until(bad, 1, &w, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_rpc_timed(bad, 1, &w, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_rpcx(bad, buf, buf, 1, 1) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_rpcx_until(bad, buf, buf, 1, 1, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_rpcx_timed(bad, buf, buf, 1, 1, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_receive(bad, &w) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_receive_if(bad, &w) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_receive_until(bad, &w, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_receive_timed(bad, &w, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_receivex(bad, buf, 1, &len) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_receivex_if(bad, buf, 1, &len) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_receivex_until(bad, buf, 1, &len, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_receivex_timed(bad, buf, 1, &len, 0) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_evdrp(bad, &w) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_evdrpx(bad, buf, 1, &len) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_return(bad, 1) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_returnx(bad, buf, 1) == (RT_TASK *)RTE_OBJINV);
	CHECK_EQ(rt_isrpc(bad), 0);
	CHECK_EQ(rt_isrpc(NULL), 0);
	/* Sizes. */
	CHECK(rt_sendx(self, buf, -1) == NULL);
	CHECK(rt_sendx(self, NULL, 1) == NULL);
	CHECK(rt_rpcx(self, buf, NULL, 1, 1) == NULL);
	CHECK(rt_receivex(NULL, buf, -1, &len) == NULL);
	CHECK(rt_returnx(self, NULL, 1) == NULL);
	/* Nobody calls main. */
	CHECK(rt_return(self, 1) == NULL);
}

static void *not_a_task(void *arg)
{
	unsigned long w;

	(void)arg;
	CHECK(rt_send(rt_get_adr(nam2num("MAIN")), 1) == (RT_TASK *)RTE_OBJINV);
	CHECK(rt_receive(NULL, &w) == (RT_TASK *)RTE_OBJINV);
	return NULL;
}

TEST(plain_thread_is_refused)
{
	pthread_t th;

	main_task();
	CHECK_EQ(pthread_create(&th, NULL, not_a_task, NULL), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
}

TESTS(T(sends_and_calls_in_priority_order), T(receive_from_one_task),
      T(buffer_calls), T(buffer_sends_and_previews), T(timeouts_and_deletion),
      T(receiver_inherits_priority), T(task_states), T(unblock_and_bad_input),
      T(plain_thread_is_refused));
