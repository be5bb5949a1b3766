/* SPDX-License-Identifier: MIT */
/*
 * Alchemy synchronous messages: send/receive/reply round trips,
 * priority order of senders, preemption by the reply (deferred by
 * T_LOCK), timeouts at exact virtual dates for the relative, _until and
 * _timed forms, non-blocking requests, buffer sizes (-ENOBUFS), deletion
 * of either side, rt_task_unblock, and bad input.
 */
#include "alchemy_test.h"

/* A server answering "n" requests: reply = request data uppercased,
 * opcode + 100. */
struct server {
	int requests;
	RTIME delay; /* before each receive */
};

static void serve(void *arg)
{
	struct server *srv = arg;

	for (int i = 0; i < srv->requests; i++) {
		char in[16], out[16];
		RT_TASK_MCB r = {.data = in, .size = sizeof(in)};
		RT_TASK_MCB s = {.data = out};
		int flow;

		if (srv->delay)
			CHECK_EQ(rt_task_sleep(srv->delay), 0);
		flow = rt_task_receive(&r, TM_INFINITE);
		CHECK(flow > 0);
		CHECK_EQ(r.flowid, flow);
		for (ssize_t k = 0; k < r.size; k++)
			out[k] = (char)(in[k] - 'a' + 'A');
		s.size = r.size;
		s.opcode = r.opcode + 100;
		note("rx:%.*s", (int)r.size, in);
		/* A bad block for a live flow: refused, the flow stays. */
		CHECK_EQ(rt_task_reply(flow, &(RT_TASK_MCB){.size = -1}),
			 -EINVAL);
		CHECK_EQ(rt_task_reply(flow, &s), 0);
		note("replied:%.*s", (int)r.size, in);
	}
}

static ssize_t call(RT_TASK *to, const char *msg, char *reply, int *opcode)
{
	RT_TASK_MCB s = {
	    .opcode = 7, .data = (void *)msg, .size = (ssize_t)strlen(msg)};
	RT_TASK_MCB r = {.data = reply, .size = 16};
	ssize_t ret = rt_task_send(to, &s, &r, TM_INFINITE);

	if (opcode)
		*opcode = r.opcode;
	return ret;
}

TEST(round_trip)
{
	struct server srv = {.requests = 2};
	RT_TASK server;
	char reply[16] = "";
	int opcode = 0;

	log_start();
	CHECK_EQ(rt_task_spawn(&server, "server", 0, 20, 0, serve, &srv), 0);
	CHECK_EQ(call(&server, "ping", reply, &opcode), 4);
	CHECK(memcmp(reply, "PING", 4) == 0);
	CHECK_EQ(opcode, 107);
	note("main");
	CHECK_EQ(call(&server, "ab", reply, NULL), 2);
	CHECK(memcmp(reply, "AB", 2) == 0);
	check_log("rx:ping@0 replied:ping@0 main@0 rx:ab@0 replied:ab@0");
}

/* A sender at @arg's priority: "name" is its message. */
static RT_TASK target;

static void client(void *arg)
{
	char reply[16];
	ssize_t ret = call(&target, arg, reply, NULL);

	note("%s:%zd", (const char *)arg, ret);
}

TEST(senders_by_priority)
{
	struct server srv = {.requests = 3, .delay = MS};
	RT_TASK lo, mid, hi;

	log_start();
	/* Every sender is queued before the server's first receive, however
	 * long creating a thread takes (ThreadSanitizer: milliseconds). */
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(
	    rt_task_spawn(&target, "server", 0, 50, T_JOINABLE, serve, &srv),
	    0);
	CHECK_EQ(rt_task_spawn(&lo, "lo", 0, 10, T_JOINABLE, client, "lo"), 0);
	CHECK_EQ(rt_task_spawn(&mid, "mid", 0, 20, T_JOINABLE, client, "mid"),
		 0);
	CHECK_EQ(rt_task_spawn(&hi, "hi", 0, 30, T_JOINABLE, client, "hi"), 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	/* Joined, not slept on: a loaded machine may take longer than the
	 * 3 ms the exchange lasts. */
	CHECK_EQ(rt_task_join(&lo), 0);
	CHECK_EQ(rt_task_join(&mid), 0);
	CHECK_EQ(rt_task_join(&hi), 0);
	CHECK_EQ(rt_task_join(&target), 0);
	/* Served most urgent first; each client runs once the more urgent
	 * server sleeps again. */
	check_log("rx:hi@1000000 replied:hi@1000000 hi:2@1000000 "
		  "rx:mid@2000000 replied:mid@2000000 mid:3@2000000 "
		  "rx:lo@3000000 replied:lo@3000000 lo:2@3000000");
}

/* Reply readies a more urgent sender: it preempts the replier. */
static void low_server(void *arg)
{
	char in[16];
	RT_TASK_MCB r = {.data = in, .size = sizeof(in)};
	int flow = rt_task_receive(&r, TM_INFINITE);

	CHECK(flow > 0);
	if (arg)
		CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	note("reply");
	CHECK_EQ(rt_task_reply(flow, NULL), 0);
	note("replied");
	if (arg)
		CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	note("server-end");
}

static void urgent_client(void *arg)
{
	RT_TASK_MCB s = {.opcode = 1};

	(void)arg;
	note("sent:%zd", rt_task_send(&target, &s, NULL, TM_INFINITE));
}

TEST(reply_preempts_unless_locked)
{
	RT_TASK c;

	for (int locked = 0; locked < 2; locked++) {
		log_start();
		CHECK_EQ(rt_task_spawn(&target, "server", 0, 10, 0, low_server,
				       locked ? "lock" : NULL),
			 0);
		CHECK_EQ(
		    rt_task_spawn(&c, "client", 0, 20, 0, urgent_client, NULL),
		    0);
		check_log(locked ? "reply@0 replied@0 sent:0@0 server-end@0"
				 : "reply@0 sent:0@0 replied@0 server-end@0");
	}
}

TEST(timeouts_exact)
{
	RT_TASK idle;
	RT_TASK_MCB s = {0}, r = {0};
	struct timespec ts;
	RTIME t0;

	log_start();
	/* Exists but never receives. */
	CHECK_EQ(rt_task_create(&idle, "idle", 0, 10, 0), 0);
	t0 = rt_timer_read();
	CHECK_EQ(rt_task_send(&idle, &s, NULL, MS), -ETIMEDOUT);
	note("send");
	CHECK_EQ(rt_task_send_until(&idle, &s, NULL, t0 + 3 * MS), -ETIMEDOUT);
	note("send_until");
	ts.tv_sec = (time_t)((t0 + 4 * MS) / 1000000000ULL);
	ts.tv_nsec = (long)((t0 + 4 * MS) % 1000000000ULL);
	CHECK_EQ(rt_task_send_timed(&idle, &s, NULL, &ts), -ETIMEDOUT);
	note("send_timed");
	CHECK_EQ(rt_task_receive(&r, MS), -ETIMEDOUT);
	note("receive");
	CHECK_EQ(rt_task_receive_until(&r, t0 + 7 * MS), -ETIMEDOUT);
	note("receive_until");
	ts.tv_nsec += 4 * (long)MS;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	CHECK_EQ(rt_task_receive_timed(&r, &ts), -ETIMEDOUT);
	note("receive_timed");
	/* Dates already passed: time out at once. */
	CHECK_EQ(rt_task_send_until(&idle, &s, NULL, t0), -ETIMEDOUT);
	CHECK_EQ(rt_task_receive_until(&r, t0), -ETIMEDOUT);
	note("past");
	CHECK_EQ(rt_task_delete(&idle), 0);
	check_log("send@1000000 send_until@3000000 send_timed@4000000 "
		  "receive@5000000 receive_until@7000000 "
		  "receive_timed@8000000 past@8000000");
}

static void nonblock_server(void *arg)
{
	RT_TASK_MCB r = {0};
	int flow;

	(void)arg;
	CHECK_EQ(rt_task_receive(&r, TM_NONBLOCK), -EWOULDBLOCK);
	flow = rt_task_receive(&r, TM_INFINITE);
	note("rx:%d", r.opcode);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_reply(flow, NULL), 0);
}

TEST(nonblocking)
{
	RT_TASK srv, idle;
	RT_TASK_MCB s = {.opcode = 5};
	struct timespec zero = {0, 0};

	log_start();
	CHECK_EQ(rt_task_create(&idle, "idle", 0, 10, 0), 0);
	CHECK_EQ(rt_task_send(&idle, &s, NULL, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_task_send_until(&idle, &s, NULL, TM_NONBLOCK),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_task_send_timed(&idle, &s, NULL, &zero), -EWOULDBLOCK);
	CHECK_EQ(rt_task_delete(&idle), 0);
	/* A waiting receiver takes it; the reply is then awaited. */
	CHECK_EQ(rt_task_spawn(&srv, "srv", 0, 10, 0, nonblock_server, NULL),
		 0);
	CHECK_EQ(rt_task_send(&srv, &s, NULL, TM_NONBLOCK), 0);
	note("done");
	check_log("rx:5@0 done@1000000");
}

static int small_buffer_result[3];

static void small_buffer_server(void *arg)
{
	char tiny[2], big[16];
	RT_TASK_MCB r = {.data = tiny, .size = sizeof(tiny)};
	RT_TASK_MCB s = {.data = "toolong", .size = 7};
	int flow;

	(void)arg;
	small_buffer_result[0] = rt_task_receive(&r, TM_INFINITE);
	/* The message stays: take it with a buffer that fits. */
	CHECK_EQ(r.size, 5);
	r.data = big;
	r.size = sizeof(big);
	flow = rt_task_receive(&r, TM_INFINITE);
	CHECK(flow > 0);
	CHECK(memcmp(big, "hello", 5) == 0);
	/* The sender has room for 4 bytes only: both sides fail. */
	small_buffer_result[1] = rt_task_reply(flow, &s);
	/* Gone: no second reply. */
	small_buffer_result[2] = rt_task_reply(flow, NULL);
}

static void null_reply_server(void *arg)
{
	static const int expected[3] = {0, -ENOBUFS, 0};
	char buf[16];
	RT_TASK_MCB r = {.data = buf, .size = sizeof(buf)};
	RT_TASK_MCB s = {.data = "x", .size = 1, .opcode = 3};

	(void)arg;
	for (int i = 0; i < 3; i++) {
		int flow = rt_task_receive(&r, TM_INFINITE);

		CHECK_EQ(rt_task_reply(flow, i == 1 ? &s : NULL), expected[i]);
	}
}

TEST(buffer_sizes)
{
	RT_TASK srv;
	char reply[4];
	RT_TASK_MCB s = {.data = "hello", .size = 5};
	RT_TASK_MCB r = {.data = reply, .size = sizeof(reply), .opcode = 9};

	CHECK_EQ(
	    rt_task_spawn(&srv, "srv", 0, 10, 0, small_buffer_server, NULL), 0);
	CHECK_EQ(rt_task_send(&srv, &s, &r, TM_INFINITE), -ENOBUFS);
	CHECK_EQ(small_buffer_result[0], -ENOBUFS);
	CHECK_EQ(small_buffer_result[1], -ENOBUFS);
	CHECK_EQ(small_buffer_result[2], -ENXIO);
	/* No reply area: an empty reply is fine, data is not. */
	CHECK_EQ(rt_task_spawn(&srv, "srv", 0, 10, 0, null_reply_server, NULL),
		 0);
	CHECK_EQ(rt_task_send(&srv, &s, NULL, TM_INFINITE), 0);
	CHECK_EQ(rt_task_send(&srv, &s, NULL, TM_INFINITE), -ENOBUFS);
	/* An empty reply clears the status code. */
	CHECK_EQ(rt_task_send(&srv, &s, &r, TM_INFINITE), 0);
	CHECK_EQ(r.opcode, 0);
	/* The server is gone. */
	CHECK_EQ(rt_task_send(&srv, &s, &r, TM_NONBLOCK), -EINVAL);
}

/* Blocked senders wake with -EIDRM when the receiver is deleted. */
TEST(receiver_deleted)
{
	RT_TASK a, b;

	log_start();
	CHECK_EQ(rt_task_create(&target, "sleeper", 0, 5, 0), 0);
	CHECK_EQ(rt_task_spawn(&a, "a", 0, 10, 0, client, "a"), 0);
	CHECK_EQ(rt_task_spawn(&b, "b", 0, 20, 0, client, "b"), 0);
	CHECK_EQ(rt_task_sleep(MS), 0);
	note("delete");
	CHECK_EQ(rt_task_delete(&target), 0);
	note("deleted");
	check_log("delete@1000000 b:-43@1000000 a:-43@1000000 "
		  "deleted@1000000");
	CHECK_EQ(rt_task_delete(&target), -EINVAL);
}

/* The receiver holds a request whose sender goes away. */
static int late_reply;

static void slow_server(void *arg)
{
	char buf[16];
	RT_TASK_MCB r = {.data = buf, .size = sizeof(buf)};
	int flow = rt_task_receive(&r, TM_INFINITE);

	(void)arg;
	CHECK(flow > 0);
	/* Long on live, so that main acts first even on a loaded machine. */
	CHECK_EQ(rt_task_sleep(on_sim() ? 2 * MS : 300 * MS), 0);
	late_reply = rt_task_reply(flow, NULL);
	note("late:%d", late_reply);
}

/* A slow server, and client "c" that has sent to it and waits for
 * the reply. */
static void client_waits_for_reply(RT_TASK *c)
{
	CHECK_EQ(rt_task_spawn(&target, "server", 0, 10, T_JOINABLE,
			       slow_server, NULL),
		 0);
	CHECK_EQ(rt_task_spawn(c, "c", 0, 20, 0, client, "c"), 0);
	CHECK_EQ(rt_task_sleep(MS), 0);
}

TEST(sender_gone)
{
	RT_TASK c;

	log_start();
	/* Deleted while waiting for the reply. */
	client_waits_for_reply(&c);
	CHECK_EQ(rt_task_delete(&c), 0);
	CHECK_EQ(rt_task_join(&target), 0);
	/* Unblocked while waiting for the reply. */
	client_waits_for_reply(&c);
	CHECK_EQ(rt_task_unblock(&c), 0);
	CHECK_EQ(rt_task_join(&target), 0);
	/* Timed out while waiting for the reply. */
	CHECK_EQ(rt_task_spawn(&target, "server", 0, 10, T_JOINABLE,
			       slow_server, NULL),
		 0);
	{
		RT_TASK_MCB s = {0};

		CHECK_EQ(rt_task_send(&target, &s, NULL, MS), -ETIMEDOUT);
		note("timeout");
	}
	CHECK_EQ(rt_task_join(&target), 0);
	check_log("late:-6@2000000 c:-4@3000000 late:-6@4000000 "
		  "timeout@5000000 late:-6@6000000");
}

static void body_receive_forever(void *arg)
{
	RT_TASK_MCB r = {0};

	(void)arg;
	note("recv:%d", rt_task_receive(&r, TM_INFINITE));
}

TEST(receiver_unblocked)
{
	RT_TASK a;

	log_start();
	CHECK_EQ(rt_task_spawn(&a, "a", 0, 10, 0, body_receive_forever, NULL),
		 0);
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_unblock(&a), 0);
	check_log("recv:-4@1000000");
}

static int sends_to_self;

static void send_self(void *arg)
{
	RT_TASK_MCB s = {0};

	(void)arg;
	sends_to_self = (int)rt_task_send(rt_task_self(), &s, NULL, MS);
}

TEST(locked_and_self)
{
	RT_TASK_MCB s = {0}, r = {0};
	RT_TASK srv;

	CHECK_EQ(rt_task_create(&srv, "srv", 0, 10, 0), 0);
	/* Cannot wait with the scheduler locked. */
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_task_send(&srv, &s, NULL, TM_INFINITE), -EPERM);
	CHECK_EQ(rt_task_receive(&r, TM_INFINITE), -EPERM);
	CHECK_EQ(rt_task_receive(&r, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	CHECK_EQ(rt_task_delete(&srv), 0);
	/* Nobody receives while the sender waits on itself. */
	CHECK_EQ(
	    rt_task_spawn(&srv, "self", 0, 10, T_JOINABLE, send_self, NULL), 0);
	CHECK_EQ(rt_task_join(&srv), 0);
	CHECK_EQ(sends_to_self, -ETIMEDOUT);
}

static void *plain_thread(void *arg)
{
	RT_TASK_MCB mcb = {0};
	ssize_t *res = arg;

	res[0] = rt_task_send(&target, &mcb, NULL, TM_NONBLOCK);
	res[1] = rt_task_receive(&mcb, TM_NONBLOCK);
	res[2] = rt_task_reply(1, NULL);
	return NULL;
}

TEST(bad_input)
{
	RT_TASK zero = {0}, stale;
	RT_TASK_MCB s = {0}, r = {0}, bad = {.size = -1};
	RT_TASK_MCB nodata = {.size = 4}, junk;
	struct timespec badts = {0, 1000000000L};
	ssize_t res[3];

	CHECK_EQ(rt_task_create(&target, "srv", 0, 10, 0), 0);
	CHECK_EQ(rt_task_create(&stale, "stale", 0, 10, 0), 0);
	CHECK_EQ(rt_task_delete(&stale), 0);
	CHECK_EQ(rt_task_send(NULL, &s, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_send(&zero, &s, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_send(&stale, &s, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_send(&target, NULL, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_send(&target, &bad, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_send(&target, &nodata, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_send(&target, &s, &bad, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_send_timed(&target, &s, NULL, &badts), -EINVAL);
	CHECK_EQ(rt_task_receive(NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_receive(&bad, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_receive(&nodata, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_task_receive_timed(&r, &badts), -EINVAL);
	CHECK_EQ(rt_task_receive(&r, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_task_reply(0, NULL), -EINVAL);
	CHECK_EQ(rt_task_reply(-1, NULL), -EINVAL);
	/* The flow is checked before the block, whatever it holds. */
	CHECK_EQ(rt_task_reply(1, &bad), -ENXIO);
	memset(&junk, 0xa5, sizeof(junk));
	CHECK_EQ(rt_task_reply(999, &junk), -ENXIO);
	CHECK_EQ(rt_task_reply(12345, NULL), -ENXIO);
	run_plain_thread(plain_thread, res);
	CHECK_EQ(res[0], -EPERM);
	CHECK_EQ(res[1], -EPERM);
	CHECK_EQ(res[2], -EPERM);
	CHECK_EQ(rt_task_delete(&target), 0);
}

TESTS(T(round_trip), T(senders_by_priority), T(reply_preempts_unless_locked),
      T(timeouts_exact), T(nonblocking), T(buffer_sizes), T(receiver_deleted),
      T(sender_gone), T(receiver_unblocked), T(locked_and_self), T(bad_input));
