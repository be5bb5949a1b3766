/* SPDX-License-Identifier: MIT */
/*
 * Alchemy message queues: argument checking, zero-copy and copying
 * transfers with byte-exact payloads, Q_URGENT ordering, Q_BROADCAST to
 * every waiting receiver, queue limit and pool exhaustion, FIFO and
 * priority service order, timeouts at exact virtual dates (sim),
 * deletion and unblocking of waiters, preemption by a send and its
 * deferral under T_LOCK, tasks deleted while they wait, binding by
 * name, calls from a plain pthread.
 *
 * main is the lowest task (nucleus priority 0): every task it spawns
 * runs at once, up to its first wait.
 */
#include "alchemy_test.h"

#include <alchemy/queue.h>

static RT_QUEUE_INFO info_of(RT_QUEUE *q)
{
	RT_QUEUE_INFO info;

	memset(&info, 0x55, sizeof(info));
	CHECK_EQ(rt_queue_inquire(q, &info), 0);
	return info;
}

/* A task that takes one message from a queue. */
struct taker {
	RT_QUEUE *q;
	const char *name;
	size_t bufsz; /* > 0: rt_queue_read of that many bytes */
	bool until;   /* @timeout is a date: the _until forms */
	RTIME timeout;
	ssize_t ret;
	void *msg;    /* receive: the buffer got */
	char buf[64]; /* read: the copy, receive: a copy of the payload */
	RTIME woke;
	RT_TASK task;
};

static void taker_body(void *arg)
{
	struct taker *t = arg;

	if (t->bufsz && t->until)
		t->ret =
		    rt_queue_read_until(t->q, t->buf, t->bufsz, t->timeout);
	else if (t->bufsz)
		t->ret = rt_queue_read(t->q, t->buf, t->bufsz, t->timeout);
	else if (t->until)
		t->ret = rt_queue_receive_until(t->q, &t->msg, t->timeout);
	else
		t->ret = rt_queue_receive(t->q, &t->msg, t->timeout);
	if (!t->bufsz && t->ret > 0 && t->ret <= (ssize_t)sizeof(t->buf))
		memcpy(t->buf, t->msg, (size_t)t->ret);
	t->woke = rt_timer_read();
	step(t->name);
}

static void taker_init(struct taker *t, RT_QUEUE *q, const char *name,
		       size_t bufsz, RTIME timeout)
{
	memset(t, 0, sizeof(*t));
	t->q = q;
	t->name = name;
	t->bufsz = bufsz;
	t->timeout = timeout;
	t->ret = 1000;
}

static void taker_start(struct taker *t, int prio)
{
	spawn(&t->task, prio, taker_body, t);
}

/* @bufsz 0: rt_queue_receive, else rt_queue_read of @bufsz bytes. */
static void take(struct taker *t, RT_QUEUE *q, const char *name, int prio,
		 size_t bufsz, RTIME timeout)
{
	taker_init(t, q, name, bufsz, timeout);
	taker_start(t, prio);
}

static void join(struct taker *t)
{
	CHECK_EQ(rt_task_join(&t->task), 0);
}

TEST(create_errors)
{
	RT_QUEUE a, b;

	CHECK_EQ(rt_queue_create(NULL, "q", 64, Q_UNLIMITED, Q_FIFO), -EINVAL);
	CHECK_EQ(rt_queue_create(&a, "q", 0, Q_UNLIMITED, Q_FIFO), -EINVAL);
	CHECK_EQ(rt_queue_create(&a, "q", 64, Q_UNLIMITED, 0x2), -EINVAL);
	CHECK_EQ(rt_queue_create(&a, "q", 64, Q_UNLIMITED, -1), -EINVAL);
	CHECK_EQ(rt_queue_create(&a, "0123456789abcdef0123456789abcdef", 64,
				 Q_UNLIMITED, Q_FIFO),
		 -EINVAL);
	/* A pool the process cannot have. */
	CHECK_EQ(rt_queue_create(&a, "q", SIZE_MAX - 8, Q_UNLIMITED, Q_FIFO),
		 -ENOMEM);
	CHECK_EQ(rt_queue_create(&a, "q", SIZE_MAX - 10, 1, Q_FIFO), -ENOMEM);
	CHECK_EQ(rt_queue_create(&a, "dup", 64, 4, Q_PRIO), 0);
	CHECK_EQ(rt_queue_create(&b, "dup", 64, 4, Q_FIFO), -EEXIST);
	CHECK_EQ(rt_queue_delete(&a), 0);
	CHECK_EQ(rt_queue_create(&a, "dup", 64, 4, Q_FIFO | Q_SHARED), 0);
	CHECK_EQ(rt_queue_delete(&a), 0);
	CHECK_EQ(rt_queue_create(&a, NULL, 64, Q_UNLIMITED, Q_FIFO), 0);
	CHECK_EQ(rt_queue_create(&b, "", 64, Q_UNLIMITED, Q_FIFO), 0);
	CHECK(a.handle != b.handle);
	CHECK_EQ(rt_queue_delete(&a), 0);
	CHECK_EQ(rt_queue_delete(&b), 0);
}

TEST(bad_descriptors)
{
	struct timespec bad = {.tv_sec = 0, .tv_nsec = 1000000000L};
	RT_QUEUE zero = {0}, junk = {(uintptr_t)0xdeadbeef},
		 huge = {UINTPTR_MAX};
	RT_QUEUE *bads[] = {&zero, &junk, &huge, NULL, NULL};
	RT_QUEUE gone, ok, other;
	RT_QUEUE_INFO info;
	char data[8] = "abc", local[32];
	void *msg, *m;

	CHECK_EQ(rt_queue_create(&gone, NULL, 256, Q_UNLIMITED, Q_FIFO), 0);
	msg = rt_queue_alloc(&gone, 8);
	CHECK(msg != NULL);
	CHECK_EQ(rt_queue_delete(&gone), 0);
	bads[3] = &gone;
	for (int i = 0; i < 5; i++) {
		RT_QUEUE *q = bads[i];

		CHECK_EQ(rt_queue_delete(q), -EINVAL);
		CHECK(rt_queue_alloc(q, 8) == NULL);
		CHECK_EQ(rt_queue_free(q, msg), -EINVAL);
		CHECK_EQ(rt_queue_send(q, msg, 1, Q_NORMAL), -EINVAL);
		CHECK_EQ(rt_queue_write(q, data, 3, Q_NORMAL), -EINVAL);
		CHECK_EQ(rt_queue_write(q, NULL, 0, Q_NORMAL), -EINVAL);
		CHECK_EQ(rt_queue_receive(q, &m, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_queue_receive(q, &m, TM_NONBLOCK), -EINVAL);
		CHECK_EQ(rt_queue_receive_until(q, &m, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_queue_receive_timed(q, &m, NULL), -EINVAL);
		CHECK_EQ(rt_queue_read(q, local, 8, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_queue_read(q, local, 0, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_queue_read_until(q, local, 8, TM_NONBLOCK),
			 -EINVAL);
		CHECK_EQ(rt_queue_read_timed(q, local, 8, NULL), -EINVAL);
		CHECK_EQ(rt_queue_flush(q), -EINVAL);
		CHECK_EQ(rt_queue_inquire(q, &info), -EINVAL);
	}
	CHECK_EQ(rt_queue_unbind(NULL), -EINVAL);
	CHECK_EQ(rt_queue_bind(NULL, "x", TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_queue_bind(&gone, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_queue_bind(&gone, "", TM_NONBLOCK), -EINVAL);

	/* Bad arguments on a good queue. */
	CHECK_EQ(rt_queue_create(&ok, NULL, 256, Q_UNLIMITED, Q_FIFO), 0);
	CHECK_EQ(rt_queue_create(&other, NULL, 256, Q_UNLIMITED, Q_FIFO), 0);
	CHECK_EQ(rt_queue_inquire(&ok, NULL), -EINVAL);
	CHECK_EQ(rt_queue_receive(&ok, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_queue_read(&ok, NULL, 4, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_queue_receive_timed(&ok, &m, &bad), -EINVAL);
	CHECK_EQ(rt_queue_read_timed(&ok, local, 8, &bad), -EINVAL);
	bad.tv_nsec = -1;
	CHECK_EQ(rt_queue_receive_timed(&ok, &m, &bad), -EINVAL);
	bad.tv_sec = -1;
	bad.tv_nsec = 0;
	CHECK_EQ(rt_queue_read_timed(&ok, local, 8, &bad), -EINVAL);
	CHECK_EQ(rt_queue_write(&ok, NULL, 1, Q_NORMAL), -EINVAL);
	CHECK_EQ(rt_queue_write(&ok, data, 3, 0x4), -EINVAL);
	CHECK_EQ(rt_queue_send(&ok, NULL, 0, Q_NORMAL), -EINVAL);
	CHECK_EQ(rt_queue_free(&ok, NULL), -EINVAL);
	/* Buffers that are not live blocks of this queue. */
	CHECK_EQ(rt_queue_send(&ok, local, 4, Q_NORMAL), -EINVAL);
	CHECK_EQ(rt_queue_free(&ok, local), -EINVAL);
	CHECK_EQ(rt_queue_free(&ok, (void *)8), -EINVAL);
	CHECK_EQ(rt_queue_send(&ok, (void *)8, 1, Q_NORMAL), -EINVAL);
	m = rt_queue_alloc(&other, 16);
	CHECK(m != NULL);
	CHECK_EQ(rt_queue_send(&ok, m, 16, Q_NORMAL), -EINVAL);
	CHECK_EQ(rt_queue_free(&ok, m), -EINVAL);
	CHECK_EQ(rt_queue_send(&other, m, 16, 0x8), -EINVAL);
	/* Larger than the buffer it was given. */
	CHECK_EQ(rt_queue_send(&other, m, 4096, Q_NORMAL), -EINVAL);
	CHECK_EQ(rt_queue_free(&other, (char *)m + 16), -EINVAL);
	CHECK_EQ(rt_queue_free(&other, m), 0);
	CHECK_EQ(rt_queue_free(&other, m), -EINVAL);
	CHECK_EQ(rt_queue_send(&other, m, 1, Q_NORMAL), -EINVAL);
	CHECK_EQ(info_of(&other).usedmem, 0);
	CHECK_EQ(info_of(&other).nmessages, 0);
	CHECK_EQ(rt_queue_delete(&other), 0);
	CHECK_EQ(rt_queue_delete(&ok), 0);
	CHECK_EQ(rt_queue_delete(&ok), -EINVAL);
}

TEST(zero_copy_and_inquire)
{
	RT_QUEUE q;
	RT_QUEUE_INFO info;
	unsigned char *msg, *got = NULL;
	size_t used;

	CHECK_EQ(rt_queue_create(&q, "zc", 4096, 8, Q_PRIO), 0);
	info = info_of(&q);
	CHECK_EQ(info.nwaiters, 0);
	CHECK_EQ(info.nmessages, 0);
	CHECK_EQ(info.mode, Q_PRIO);
	CHECK_EQ(info.qlimit, 8);
	CHECK_EQ(info.poolsize, 4096);
	CHECK_EQ(info.usedmem, 0);
	CHECK_STR(info.name, "zc");

	msg = rt_queue_alloc(&q, 200);
	CHECK(msg != NULL);
	CHECK_EQ((uintptr_t)msg % 16, 0);
	for (int i = 0; i < 200; i++)
		msg[i] = (unsigned char)(i * 7 + 1);
	used = info_of(&q).usedmem;
	CHECK(used > 200);
	/* Fewer bytes than allocated: the receiver sees the size sent. */
	CHECK_EQ(rt_queue_send(&q, msg, 150, Q_NORMAL), 0);
	/* Queued: the queue owns it now. */
	CHECK_EQ(rt_queue_free(&q, msg), -EINVAL);
	CHECK_EQ(rt_queue_send(&q, msg, 150, Q_NORMAL), -EINVAL);
	info = info_of(&q);
	CHECK_EQ(info.nmessages, 1);
	CHECK_EQ(info.usedmem, used);
	CHECK_EQ(rt_queue_receive(&q, (void **)&got, TM_NONBLOCK), 150);
	CHECK(got == msg);
	for (int i = 0; i < 150; i++)
		CHECK_EQ(got[i], (unsigned char)(i * 7 + 1));
	CHECK_EQ(info_of(&q).nmessages, 0);
	CHECK_EQ(info_of(&q).usedmem, used);
	CHECK_EQ(rt_queue_free(&q, got), 0);
	CHECK_EQ(rt_queue_free(&q, got), -EINVAL);
	CHECK_EQ(info_of(&q).usedmem, 0);

	/* Zero-sized messages exist and must be freed too. */
	msg = rt_queue_alloc(&q, 0);
	CHECK(msg != NULL);
	CHECK_EQ(rt_queue_send(&q, msg, 0, Q_NORMAL), 0);
	CHECK_EQ(rt_queue_write(&q, NULL, 0, Q_NORMAL), 0);
	CHECK_EQ(info_of(&q).nmessages, 2);
	CHECK_EQ(rt_queue_receive_until(&q, (void **)&got, TM_NONBLOCK), 0);
	CHECK(got == msg);
	CHECK_EQ(rt_queue_free(&q, got), 0);
	CHECK_EQ(rt_queue_receive_timed(&q, (void **)&got, NULL), 0);
	CHECK_EQ(rt_queue_free(&q, got), 0);
	CHECK_EQ(info_of(&q).usedmem, 0);
	CHECK_EQ(rt_queue_receive(&q, (void **)&got, TM_NONBLOCK),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

TEST(copies_order_and_truncation)
{
	static const char *const words[] = {"alpha", "be", "gamma-ray", "d"};
	char buf[32];
	RT_QUEUE q;
	void *got;

	CHECK_EQ(rt_queue_create(&q, NULL, 1024, Q_UNLIMITED, Q_FIFO), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(rt_queue_write(&q, words[i], strlen(words[i]) + 1,
					Q_NORMAL),
			 0);
	/* Q_URGENT jumps the line (LIFO among urgent ones). */
	CHECK_EQ(rt_queue_write(&q, words[3], 2, Q_URGENT), 0);
	got = rt_queue_alloc(&q, 4);
	CHECK(got != NULL);
	memcpy(got, "urg", 4);
	CHECK_EQ(rt_queue_send(&q, got, 4, Q_URGENT), 0);
	CHECK_EQ(info_of(&q).nmessages, 5);

	/* An empty read consumes nothing. */
	CHECK_EQ(rt_queue_read(&q, buf, 0, TM_NONBLOCK), 0);
	CHECK_EQ(rt_queue_read(&q, NULL, 0, TM_NONBLOCK), 0);
	CHECK_EQ(info_of(&q).nmessages, 5);
	CHECK_EQ(rt_queue_read(&q, buf, sizeof(buf), TM_NONBLOCK), 4);
	CHECK_STR(buf, "urg");
	CHECK_EQ(rt_queue_read_until(&q, buf, sizeof(buf), TM_NONBLOCK), 2);
	CHECK_STR(buf, "d");
	CHECK_EQ(rt_queue_read_timed(&q, buf, sizeof(buf), NULL), 6);
	CHECK_STR(buf, "alpha");
	CHECK_EQ(rt_queue_receive(&q, &got, TM_INFINITE), 3);
	CHECK_STR(got, "be");
	CHECK_EQ(rt_queue_free(&q, got), 0);
	/* A message longer than the reader's buffer is truncated. */
	memset(buf, '#', sizeof(buf));
	CHECK_EQ(rt_queue_read(&q, buf, 5, TM_NONBLOCK), 5);
	CHECK(memcmp(buf, "gamma#", 6) == 0);
	CHECK_EQ(info_of(&q).nmessages, 0);
	CHECK_EQ(info_of(&q).usedmem, 0);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

TEST(flush)
{
	RT_QUEUE q;
	void *m;

	CHECK_EQ(rt_queue_create(&q, NULL, 1024, Q_UNLIMITED, Q_FIFO), 0);
	CHECK_EQ(rt_queue_flush(&q), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(rt_queue_write(&q, "xyz", 3, Q_NORMAL), 0);
	/* A buffer held by its sender is not the queue's to flush. */
	m = rt_queue_alloc(&q, 10);
	CHECK(m != NULL);
	CHECK_EQ(rt_queue_flush(&q), 3);
	CHECK_EQ(info_of(&q).nmessages, 0);
	CHECK_EQ(rt_queue_receive(&q, &m, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_queue_send(&q, m, 10, Q_NORMAL), 0);
	CHECK_EQ(rt_queue_flush(&q), 1);
	CHECK_EQ(info_of(&q).usedmem, 0);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

TEST(limit_and_pool_exhaustion)
{
	RT_QUEUE q;
	void *m, *got;
	char buf[100];
	int n;

	/* qlimit messages of poolsize / qlimit bytes fit at once. */
	CHECK_EQ(rt_queue_create(&q, NULL, 1000, 10, Q_FIFO), 0);
	memset(buf, 'q', sizeof(buf));
	for (int i = 0; i < 10; i++)
		CHECK_EQ(rt_queue_write(&q, buf, 100, Q_NORMAL), 0);
	CHECK_EQ(rt_queue_write(&q, buf, 1, Q_NORMAL), -ENOMEM);
	CHECK_EQ(rt_queue_write(&q, buf, 1, Q_URGENT), -ENOMEM);
	/* A broadcast nobody takes is dropped, limit or not. */
	CHECK_EQ(rt_queue_write(&q, buf, 1, Q_BROADCAST), 0);
	CHECK_EQ(rt_queue_read(&q, buf, 100, TM_NONBLOCK), 100);
	m = rt_queue_alloc(&q, 16);
	CHECK(m != NULL);
	CHECK_EQ(rt_queue_write(&q, buf, 1, Q_NORMAL), 0);
	/* Full again: the sender keeps its buffer. */
	CHECK_EQ(rt_queue_send(&q, m, 16, Q_NORMAL), -ENOMEM);
	CHECK_EQ(info_of(&q).nmessages, 10);
	CHECK_EQ(rt_queue_read(&q, buf, 100, TM_NONBLOCK), 100);
	CHECK_EQ(rt_queue_send(&q, m, 16, Q_URGENT), 0);
	CHECK_EQ(rt_queue_receive(&q, &got, TM_NONBLOCK), 16);
	CHECK(got == m);
	CHECK_EQ(rt_queue_free(&q, got), 0);
	CHECK_EQ(rt_queue_flush(&q), 9);
	CHECK_EQ(rt_queue_delete(&q), 0);

	/* Unlimited: the pool runs out. */
	CHECK_EQ(rt_queue_create(&q, NULL, 2048, Q_UNLIMITED, Q_FIFO), 0);
	CHECK(rt_queue_alloc(&q, 1 << 20) == NULL);
	CHECK_EQ(rt_queue_write(&q, NULL, 0, Q_NORMAL), 0);
	CHECK_EQ(rt_queue_flush(&q), 1);
	for (n = 0; rt_queue_write(&q, buf, 64, Q_NORMAL) == 0; n++)
		CHECK(n < 100);
	CHECK(n >= 2048 / (64 + 64));
	CHECK_EQ(rt_queue_write(&q, buf, 64, Q_NORMAL), -ENOMEM);
	CHECK(rt_queue_alloc(&q, 64) == NULL);
	CHECK_EQ(info_of(&q).nmessages, n);
	CHECK_EQ(rt_queue_read(&q, buf, 64, TM_NONBLOCK), 64);
	CHECK_EQ(rt_queue_write(&q, buf, 64, Q_NORMAL), 0);
	CHECK_EQ(rt_queue_flush(&q), n);
	CHECK_EQ(info_of(&q).usedmem, 0);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

/*
 * A copy the pool could never hold is refused whether or not readers
 * wait (they get theirs straight from the writer's buffer): a waiting
 * reader does not turn -ENOMEM into a copy of an unchecked size.
 */
TEST(oversized_write_to_waiting_reader)
{
	static char big[2000];
	struct taker r;
	RT_QUEUE q;

	CHECK_EQ(rt_queue_create(&q, NULL, 1000, Q_UNLIMITED, Q_FIFO), 0);
	CHECK_EQ(rt_queue_write(&q, big, sizeof(big), Q_NORMAL), -ENOMEM);
	take(&r, &q, "reader", 10, 64, TM_INFINITE);
	CHECK_EQ(rt_queue_write(&q, big, sizeof(big), Q_NORMAL), -ENOMEM);
	CHECK_EQ(rt_queue_write(&q, big, 10, Q_NORMAL), 1);
	join(&r);
	CHECK_EQ(r.ret, 10);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

TEST(timeouts)
{
	bool sim = on_sim();
	struct timespec ts, now = {0, 0};
	struct taker t;
	char buf[8];
	RTIME t0, date;
	RT_QUEUE q;
	void *m;

	CHECK_EQ(rt_queue_create(&q, NULL, 256, Q_UNLIMITED, Q_FIFO), 0);
	CHECK_EQ(rt_queue_receive(&q, &m, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_queue_receive_until(&q, &m, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_queue_receive_timed(&q, &m, &now), -EWOULDBLOCK);
	CHECK_EQ(rt_queue_read(&q, buf, 8, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_queue_read_until(&q, buf, 8, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_queue_read_timed(&q, buf, 8, &now), -EWOULDBLOCK);

	t0 = rt_timer_read();
	CHECK_EQ(rt_queue_receive(&q, &m, MS), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, MS);
	t0 = rt_timer_read();
	CHECK_EQ(rt_queue_read(&q, buf, 8, 1), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, 1);
	t0 = rt_timer_read();
	CHECK_EQ(rt_queue_receive_until(&q, &m, t0 + 2500000), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 2500000);
	t0 = rt_timer_read();
	CHECK_EQ(rt_queue_read_until(&q, buf, 8, t0 + 700), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 700);
	t0 = rt_timer_read();
	date = t0 + 300000;
	ts.tv_sec = (time_t)(date / 1000000000ULL);
	ts.tv_nsec = (long)(date % 1000000000ULL);
	CHECK_EQ(rt_queue_receive_timed(&q, &m, &ts), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), date);
	date = rt_timer_read() + 123456;
	ts.tv_sec = (time_t)(date / 1000000000ULL);
	ts.tv_nsec = (long)(date % 1000000000ULL);
	CHECK_EQ(rt_queue_read_timed(&q, buf, 8, &ts), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), date);
	/* A date already past times out without waiting. */
	t0 = rt_timer_read();
	CHECK_EQ(rt_queue_receive_until(&q, &m, 1), -ETIMEDOUT);
	CHECK_EQ(rt_queue_read_until(&q, buf, 8, 1), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0);
	CHECK_EQ(info_of(&q).nwaiters, 0);

	/* Served before its deadline: returns at the write, not later. */
	trail[0] = '\0';
	t0 = rt_timer_read();
	take(&t, &q, "r", 10, 8, margin(MS));
	CHECK_EQ(info_of(&q).nwaiters, 1);
	CHECK_EQ(rt_task_sleep(400000), 0);
	step("w");
	CHECK_EQ(rt_queue_write(&q, "hi!", 4, Q_NORMAL), 1);
	join(&t);
	CHECK_EQ(t.ret, 4);
	CHECK_STR(t.buf, "hi!");
	CHECK_STR(trail, "w r");
	if (sim)
		CHECK_EQ(t.woke - t0, 400000);
	CHECK_EQ(info_of(&q).usedmem, 0);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

/* Three receivers queued at priorities 10, 30, 20, served one by one. */
static void service_order(int mode, const char *expected)
{
	static const int prio[3] = {10, 30, 20};
	static const char *const name[3] = {"p10", "p30", "p20"};
	struct taker t[3];
	char what[2] = "a";
	RT_QUEUE q;

	trail[0] = '\0';
	CHECK_EQ(rt_queue_create(&q, NULL, 512, Q_UNLIMITED, mode), 0);
	for (int i = 0; i < 3; i++)
		take(&t[i], &q, name[i], prio[i], i == 1 ? 8 : 0, TM_INFINITE);
	CHECK_EQ(info_of(&q).nwaiters, 3);
	for (int i = 0; i < 3; i++) {
		what[0] = (char)('a' + i);
		CHECK_EQ(rt_queue_write(&q, what, 2, Q_NORMAL), 1);
	}
	for (int i = 0; i < 3; i++) {
		join(&t[i]);
		CHECK_EQ(t[i].ret, 2);
		if (!t[i].bufsz)
			CHECK_EQ(rt_queue_free(&q, t[i].msg), 0);
	}
	CHECK_STR(trail, expected);
	/* The n-th message went to the n-th task served. */
	for (int i = 0; i < 3; i++) {
		size_t rank = (size_t)(strstr(trail, name[i]) - trail) / 4;

		CHECK_EQ(t[i].buf[0], 'a' + (char)rank);
	}
	CHECK_EQ(info_of(&q).usedmem, 0);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

TEST(fifo_order)
{
	service_order(Q_FIFO, "p10 p30 p20");
}

TEST(prio_order)
{
	service_order(Q_PRIO, "p30 p20 p10");
}

TEST(send_preempts_and_tlock_defers)
{
	RT_TASK_INFO ti;
	struct taker t;
	RT_QUEUE q;
	void *m;
	int mode = -1;

	CHECK_EQ(rt_queue_create(&q, NULL, 512, Q_UNLIMITED, Q_FIFO), 0);
	trail[0] = '\0';
	take(&t, &q, "high", 50, 0, TM_INFINITE);
	/* Its wait cost no mode switch (waits allocate nothing). */
	CHECK_EQ(rt_task_inquire(&t.task, &ti), 0);
	CHECK_EQ(ti.stat.msw, 0);
	m = rt_queue_alloc(&q, 6);
	memcpy(m, "hello", 6);
	step("send");
	CHECK_EQ(rt_queue_send(&q, m, 6, Q_NORMAL), 1);
	step("back");
	join(&t);
	CHECK_STR(trail, "send high back");
	CHECK_EQ(t.ret, 6);
	CHECK(t.msg == m);
	CHECK_STR(t.buf, "hello");
	CHECK_EQ(rt_queue_free(&q, t.msg), 0);

	/* The same with a copying write to a reader. */
	trail[0] = '\0';
	take(&t, &q, "high", 50, 64, TM_INFINITE);
	step("write");
	CHECK_EQ(rt_queue_write(&q, "x", 2, Q_NORMAL), 1);
	step("back");
	join(&t);
	CHECK_STR(trail, "write high back");

	trail[0] = '\0';
	take(&t, &q, "high", 50, 64, TM_INFINITE);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	step("write");
	CHECK_EQ(rt_queue_write(&q, "locked", 7, Q_NORMAL), 1);
	step("locked");
	/* Blocking is refused while the scheduler is locked. */
	CHECK_EQ(rt_queue_receive(&q, &m, TM_INFINITE), -EPERM);
	CHECK_EQ(rt_queue_read(&q, &m, 1, MS), -EPERM);
	CHECK_EQ(rt_queue_receive(&q, &m, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, &mode), 0);
	CHECK_EQ(mode & T_LOCK, T_LOCK);
	step("back");
	join(&t);
	CHECK_EQ(t.ret, 7);
	CHECK_STR(t.buf, "locked");
	CHECK_STR(trail, "write locked high back");
	CHECK_EQ(info_of(&q).usedmem, 0);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

TEST(broadcast)
{
	static const char *const name[4] = {"r10", "r30", "read20", "read5"};
	static const int prio[4] = {10, 30, 20, 5};
	static const size_t bufsz[4] = {0, 0, 64, 5};
	struct taker t[4];
	RT_QUEUE q;
	void *m;

	CHECK_EQ(rt_queue_create(&q, NULL, 1024, Q_UNLIMITED, Q_FIFO), 0);
	/* Nobody waiting: dropped, not queued, the pool gets it back. */
	m = rt_queue_alloc(&q, 8);
	CHECK_EQ(rt_queue_send(&q, m, 8, Q_BROADCAST), 0);
	CHECK_EQ(rt_queue_write(&q, "zz", 2, Q_BROADCAST | Q_URGENT), 0);
	CHECK_EQ(info_of(&q).nmessages, 0);
	CHECK_EQ(info_of(&q).usedmem, 0);

	for (int round = 0; round < 2; round++) {
		trail[0] = '\0';
		/* The 5-byte reader gets a truncated copy. */
		for (int i = 0; i < 4; i++)
			take(&t[i], &q, name[i], prio[i], bufsz[i],
			     TM_INFINITE);
		CHECK_EQ(info_of(&q).nwaiters, 4);
		step("bcast");
		if (round == 0) {
			m = rt_queue_alloc(&q, 32);
			memcpy(m, "to everybody", 13);
			CHECK_EQ(rt_queue_send(&q, m, 13, Q_BROADCAST), 4);
		} else {
			CHECK_EQ(
			    rt_queue_write(&q, "to everybody", 13, Q_BROADCAST),
			    4);
		}
		step("back");
		CHECK_STR(trail, "bcast r30 read20 r10 read5 back");
		for (int i = 0; i < 4; i++)
			join(&t[i]);
		CHECK_EQ(t[0].ret, 13);
		CHECK_EQ(t[1].ret, 13);
		CHECK_EQ(t[2].ret, 13);
		CHECK_EQ(t[3].ret, 5);
		for (int i = 0; i < 3; i++)
			CHECK_STR(t[i].buf, "to everybody");
		CHECK(memcmp(t[3].buf, "to ev", 5) == 0);
		CHECK_EQ(t[3].buf[5], 0);
		/* Receivers share one buffer, freed with the last reference. */
		CHECK(t[0].msg == t[1].msg);
		if (round == 0)
			CHECK(t[0].msg == m);
		CHECK_EQ(info_of(&q).nmessages, 0);
		CHECK_EQ(rt_queue_free(&q, t[0].msg), 0);
		CHECK(info_of(&q).usedmem > 0);
		CHECK_EQ(rt_queue_free(&q, t[1].msg), 0);
		CHECK_EQ(info_of(&q).usedmem, 0);
		CHECK_EQ(rt_queue_free(&q, t[1].msg), -EINVAL);
	}
	CHECK_EQ(rt_queue_delete(&q), 0);
}

TEST(delete_wakes_waiters)
{
	struct taker t[3];
	RT_QUEUE q;

	trail[0] = '\0';
	CHECK_EQ(rt_queue_create(&q, "doomed", 512, Q_UNLIMITED, Q_FIFO), 0);
	take(&t[0], &q, "a", 10, 0, TM_INFINITE);
	take(&t[1], &q, "b", 20, 64, TM_INFINITE);
	take(&t[2], &q, "c", 15, 0, margin(5 * MS));
	CHECK_EQ(info_of(&q).nwaiters, 3);
	step("delete");
	CHECK_EQ(rt_queue_delete(&q), 0);
	step("back");
	CHECK_STR(trail, "delete b c a back");
	for (int i = 0; i < 3; i++) {
		join(&t[i]);
		CHECK_EQ(t[i].ret, -EIDRM);
	}
	CHECK_EQ(rt_queue_delete(&q), -EINVAL);
	CHECK_EQ(rt_queue_write(&q, "x", 1, Q_NORMAL), -EINVAL);
	CHECK_EQ(rt_queue_bind(&q, "doomed", TM_NONBLOCK), -EWOULDBLOCK);
}

TEST(unblock_interrupts)
{
	bool sim = on_sim();
	struct taker t[2];
	char buf[8];
	RTIME t0;
	RT_QUEUE q;

	trail[0] = '\0';
	CHECK_EQ(rt_queue_create(&q, NULL, 512, Q_UNLIMITED, Q_PRIO), 0);
	t0 = rt_timer_read();
	take(&t[0], &q, "inf", 10, 0, TM_INFINITE);
	take(&t[1], &q, "timed", 20, 64, margin(3 * MS));
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_unblock(&t[1].task), 0);
	CHECK_EQ(rt_task_unblock(&t[0].task), 0);
	for (int i = 0; i < 2; i++) {
		join(&t[i]);
		CHECK_EQ(t[i].ret, -EINTR);
		if (sim)
			CHECK_EQ(t[i].woke - t0, MS);
	}
	CHECK_STR(trail, "timed inf");
	/* Nobody is left waiting: a message now stays queued. */
	CHECK_EQ(info_of(&q).nwaiters, 0);
	CHECK_EQ(rt_queue_write(&q, "late", 5, Q_NORMAL), 0);
	CHECK_EQ(rt_queue_read(&q, buf, sizeof(buf), TM_NONBLOCK), 5);
	CHECK_STR(buf, "late");
	CHECK_EQ(rt_queue_delete(&q), 0);
}

/* Deletes @victim's task when woken at the same date as its timeout. */
struct killer {
	RT_QUEUE *q;
	RTIME date;
	int sent, deleted;
	RT_TASK task;
};

static void timeout_race_body(void *arg)
{
	struct killer *k = arg;

	/* Same date as the waiter's timeout: we run first (more urgent). */
	CHECK_EQ(rt_task_sleep_until(k->date), 0);
	step("kill");
	k->deleted = rt_queue_delete(k->q);
}

static void grant_race_body(void *arg)
{
	struct killer *k = arg;

	/* The receiver is served but cannot run before we delete. */
	k->sent = rt_queue_write(k->q, "orphan", 7, Q_NORMAL);
	k->deleted = rt_queue_delete(k->q);
	step("kill");
}

TEST(waiter_races_and_deleted_tasks)
{
	struct killer k = {0};
	struct taker t[2];
	RT_QUEUE q;
	char buf[8];

	/* A timeout, then the queue deleted before the waiter runs. */
	trail[0] = '\0';
	CHECK_EQ(rt_queue_create(&q, NULL, 512, Q_UNLIMITED, Q_FIFO), 0);
	k.q = &q;
	k.date = rt_timer_read() + margin(MS);
	taker_init(&t[0], &q, "late", 0, k.date);
	t[0].until = true;
	taker_start(&t[0], 10);
	spawn(&k.task, 40, timeout_race_body, &k);
	CHECK_EQ(rt_task_join(&k.task), 0);
	join(&t[0]);
	CHECK_EQ(k.deleted, 0);
	CHECK_STR(trail, "kill late");
	/* It timed out before the deletion: that is what it reports. */
	CHECK_EQ(t[0].ret, -ETIMEDOUT);

	/* Served, then the queue deleted before the receiver runs. */
	trail[0] = '\0';
	CHECK_EQ(rt_queue_create(&q, NULL, 512, Q_UNLIMITED, Q_FIFO), 0);
	take(&t[0], &q, "orphan", 10, 0, TM_INFINITE);
	spawn(&k.task, 40, grant_race_body, &k);
	CHECK_EQ(rt_task_join(&k.task), 0);
	join(&t[0]);
	CHECK_EQ(k.sent, 1);
	CHECK_EQ(k.deleted, 0);
	CHECK_EQ(t[0].ret, -EIDRM);
	CHECK_STR(trail, "kill orphan");

	/* Served, then its task deleted before it runs: the message it
	 * was handed goes with the queue (LeakSanitizer checks it). */
	trail[0] = '\0';
	CHECK_EQ(rt_queue_create(&q, NULL, 512, Q_UNLIMITED, Q_FIFO), 0);
	take(&t[0], &q, "gone", 10, 64, TM_INFINITE);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	CHECK_EQ(rt_queue_write(&q, "lost", 5, Q_NORMAL), 1);
	CHECK_EQ(rt_task_delete(&t[0].task), 0);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, NULL), 0);
	CHECK_EQ(rt_task_join(&t[0].task), 0);
	CHECK_EQ(info_of(&q).nwaiters, 0);
	CHECK_STR(trail, "");
	CHECK_EQ(rt_queue_delete(&q), 0);

	/* Tasks deleted while they wait leave the queue usable. */
	CHECK_EQ(rt_queue_create(&q, NULL, 512, Q_UNLIMITED, Q_PRIO), 0);
	take(&t[0], &q, "victim", 30, 0, TM_INFINITE);
	take(&t[1], &q, "victim2", 20, 64, TM_INFINITE);
	CHECK_EQ(info_of(&q).nwaiters, 2);
	CHECK_EQ(rt_task_delete(&t[0].task), 0);
	CHECK_EQ(info_of(&q).nwaiters, 1);
	CHECK_EQ(rt_task_delete(&t[1].task), 0);
	CHECK_EQ(rt_task_join(&t[0].task), 0);
	CHECK_EQ(rt_task_join(&t[1].task), 0);
	CHECK_EQ(info_of(&q).nwaiters, 0);
	CHECK_EQ(rt_queue_write(&q, "kept", 5, Q_NORMAL), 0);
	CHECK_EQ(info_of(&q).nmessages, 1);
	trail[0] = '\0';
	take(&t[0], &q, "next", 10, 64, TM_INFINITE);
	join(&t[0]);
	CHECK_EQ(t[0].ret, 5);
	CHECK_STR(t[0].buf, "kept");
	take(&t[0], &q, "next", 10, 64, TM_INFINITE);
	CHECK_EQ(rt_queue_write(&q, "fresh", 6, Q_NORMAL), 1);
	join(&t[0]);
	CHECK_STR(t[0].buf, "fresh");
	CHECK_EQ(rt_queue_read(&q, buf, sizeof(buf), TM_NONBLOCK),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

static int bind_queue(void *desc, const char *name, RTIME timeout)
{
	return rt_queue_bind(desc, name, timeout);
}

static ssize_t read_bound(struct binder *b)
{
	ssize_t got =
	    rt_queue_read(b->desc, b->buf, sizeof(b->buf), TM_INFINITE);

	step("got");
	return got;
}

TEST(bind_waits_for_creation)
{
	RT_QUEUE q, mine, bound;
	struct binder b = {
	    .bind = bind_queue, .use = read_bound, .desc = &bound};

	trail[0] = '\0';
	check_bind_absent(bind_queue, &mine, "later", 500000);

	binder_start(&b, "later", TM_INFINITE);
	step("create");
	CHECK_EQ(rt_queue_create(&q, "later", 256, Q_UNLIMITED, Q_FIFO), 0);
	step("created");
	CHECK_EQ(bound.handle, q.handle);
	CHECK_EQ(rt_queue_write(&q, "ping", 5, Q_NORMAL), 1);
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_EQ(b.bound, 0);
	CHECK_EQ(b.got, 5);
	CHECK_STR(b.buf, "ping");
	CHECK_STR(trail, "create bound created got");

	CHECK_EQ(rt_queue_bind(&mine, "later", TM_NONBLOCK), 0);
	CHECK_EQ(mine.handle, q.handle);
	CHECK_EQ(rt_queue_write(&mine, "via", 4, Q_NORMAL), 0);
	CHECK_EQ(rt_queue_unbind(&mine), 0);
	CHECK_EQ(mine.handle, 0);
	CHECK_EQ(rt_queue_flush(&mine), -EINVAL);
	CHECK_EQ(rt_queue_flush(&q), 1);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

/* What a plain pthread (not a task) may and may not do. */
struct foreign {
	RT_QUEUE *q;
	int create, recv_block, recv_nonblock, write, recv_avail, free_ret,
	    bind;
};

static void *foreign_body(void *arg)
{
	struct foreign *f = arg;
	RT_QUEUE other;
	void *m;

	f->create = rt_queue_create(&other, NULL, 64, Q_UNLIMITED, Q_FIFO)
			?: rt_queue_delete(&other);
	f->recv_block = (int)rt_queue_receive(f->q, &m, TM_INFINITE);
	f->recv_nonblock = (int)rt_queue_receive(f->q, &m, TM_NONBLOCK);
	f->write = rt_queue_write(f->q, "abc", 4, Q_NORMAL);
	f->recv_avail = (int)rt_queue_receive(f->q, &m, TM_INFINITE);
	f->free_ret = rt_queue_free(f->q, m);
	f->bind = rt_queue_bind(&other, "absent", TM_INFINITE);
	return NULL;
}

TEST(plain_thread)
{
	struct foreign f = {0};
	RT_QUEUE q;

	CHECK_EQ(rt_queue_create(&q, NULL, 256, Q_UNLIMITED, Q_FIFO), 0);
	f.q = &q;
	run_plain_thread(foreign_body, &f);
	/* Any Linux thread creates and deletes, as in Xenomai. */
	CHECK_EQ(f.create, 0);
	CHECK_EQ(f.recv_block, -EPERM);
	CHECK_EQ(f.recv_nonblock, -EWOULDBLOCK);
	CHECK_EQ(f.write, 0);
	CHECK_EQ(f.recv_avail, 4);
	CHECK_EQ(f.free_ret, 0);
	CHECK_EQ(f.bind, -EPERM);
	CHECK_EQ(info_of(&q).nwaiters, 0);
	CHECK_EQ(info_of(&q).usedmem, 0);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

TESTS(T(create_errors), T(bad_descriptors), T(zero_copy_and_inquire),
      T(copies_order_and_truncation), T(flush), T(limit_and_pool_exhaustion),
      T(oversized_write_to_waiting_reader), T(timeouts), T(fifo_order),
      T(prio_order), T(send_preempts_and_tlock_defers), T(broadcast),
      T(delete_wakes_waiters), T(unblock_interrupts),
      T(waiter_races_and_deleted_tasks), T(bind_waits_for_creation),
      T(plain_thread));
