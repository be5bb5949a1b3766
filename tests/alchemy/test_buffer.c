/* SPDX-License-Identifier: MIT */
/*
 * Alchemy IPC buffers: argument checking, byte-exact transfers through
 * the ring (wrap-around included), readers waiting for enough data and
 * writers for enough room, the short-read rule in both directions, the
 * B_FIFO / B_PRIO service order, timeouts at exact virtual dates (sim),
 * deletion and unblocking of waiters on each side, preemption by a
 * write and its deferral under T_LOCK, clear, a long producer/consumer
 * stream, tasks deleted while they wait, binding, plain pthreads.
 *
 * main is the lowest task (nucleus priority 0): every task it spawns
 * runs at once, up to its first wait.
 */
#include "alchemy_test.h"

#include <alchemy/buffer.h>

static RT_BUFFER_INFO info_of(RT_BUFFER *bf)
{
	RT_BUFFER_INFO info;

	memset(&info, 0x55, sizeof(info));
	CHECK_EQ(rt_buffer_inquire(bf, &info), 0);
	return info;
}

/* A task that reads or writes once. */
struct io {
	RT_BUFFER *bf;
	const char *name;
	bool write;
	size_t size;
	RTIME timeout;
	ssize_t ret;
	char data[64];
	RTIME woke;
	RT_TASK task;
};

static void io_body(void *arg)
{
	struct io *io = arg;

	if (io->write)
		io->ret =
		    rt_buffer_write(io->bf, io->data, io->size, io->timeout);
	else
		io->ret =
		    rt_buffer_read(io->bf, io->data, io->size, io->timeout);
	io->woke = rt_timer_read();
	step(io->name);
}

/* Spawn: a writer of @data (its strlen), or a reader of @size bytes. */
static void io_start(struct io *io, RT_BUFFER *bf, const char *name, int prio,
		     const char *data, size_t size, RTIME timeout)
{
	memset(io, 0, sizeof(*io));
	io->bf = bf;
	io->name = name;
	io->write = data != NULL;
	io->size = data ? strlen(data) : size;
	if (data)
		memcpy(io->data, data, io->size);
	io->timeout = timeout;
	io->ret = 1000;
	spawn(&io->task, prio, io_body, io);
}

static void io_join(struct io *io)
{
	CHECK_EQ(rt_task_join(&io->task), 0);
}

TEST(create_errors)
{
	RT_BUFFER a, b;

	CHECK_EQ(rt_buffer_create(NULL, "b", 16, B_FIFO), -EINVAL);
	CHECK_EQ(rt_buffer_create(&a, "b", 0, B_FIFO), -EINVAL);
	CHECK_EQ(rt_buffer_create(&a, "b", 16, 0x2), -EINVAL);
	CHECK_EQ(rt_buffer_create(&a, "b", 16, -1), -EINVAL);
	CHECK_EQ(rt_buffer_create(&a, "0123456789abcdef0123456789abcdef", 16,
				  B_FIFO),
		 -EINVAL);
	CHECK_EQ(rt_buffer_create(&a, "dup", 16, B_PRIO), 0);
	CHECK_EQ(rt_buffer_create(&b, "dup", 16, B_FIFO), -EEXIST);
	CHECK_EQ(rt_buffer_delete(&a), 0);
	CHECK_EQ(rt_buffer_create(&a, "dup", 16, B_FIFO), 0);
	CHECK_EQ(rt_buffer_delete(&a), 0);
	CHECK_EQ(rt_buffer_create(&a, NULL, 1, B_FIFO), 0);
	CHECK_EQ(rt_buffer_create(&b, "", 1, B_FIFO), 0);
	CHECK(a.handle != b.handle);
	CHECK_EQ(rt_buffer_delete(&a), 0);
	CHECK_EQ(rt_buffer_delete(&b), 0);
}

TEST(bad_descriptors)
{
	struct timespec bad = {.tv_sec = 0, .tv_nsec = 1000000000L};
	RT_BUFFER zero = {0}, junk = {(uintptr_t)0xdeadbeef},
		  huge = {UINTPTR_MAX};
	RT_BUFFER *bads[] = {&zero, &junk, &huge, NULL, NULL};
	RT_BUFFER gone, ok;
	RT_BUFFER_INFO info;
	char data[8] = "abc";

	CHECK_EQ(rt_buffer_create(&gone, NULL, 16, B_FIFO), 0);
	CHECK_EQ(rt_buffer_delete(&gone), 0);
	bads[3] = &gone;
	for (int i = 0; i < 5; i++) {
		RT_BUFFER *bf = bads[i];

		CHECK_EQ(rt_buffer_delete(bf), -EINVAL);
		CHECK_EQ(rt_buffer_write(bf, data, 3, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_buffer_write(bf, data, 0, TM_NONBLOCK), -EINVAL);
		CHECK_EQ(rt_buffer_write_until(bf, data, 3, TM_NONBLOCK),
			 -EINVAL);
		CHECK_EQ(rt_buffer_write_timed(bf, data, 3, NULL), -EINVAL);
		CHECK_EQ(rt_buffer_read(bf, data, 3, TM_INFINITE), -EINVAL);
		CHECK_EQ(rt_buffer_read(bf, data, 0, TM_NONBLOCK), -EINVAL);
		CHECK_EQ(rt_buffer_read_until(bf, data, 3, TM_INFINITE),
			 -EINVAL);
		CHECK_EQ(rt_buffer_read_timed(bf, data, 3, NULL), -EINVAL);
		CHECK_EQ(rt_buffer_clear(bf), -EINVAL);
		CHECK_EQ(rt_buffer_inquire(bf, &info), -EINVAL);
	}
	CHECK_EQ(rt_buffer_unbind(NULL), -EINVAL);
	CHECK_EQ(rt_buffer_bind(NULL, "x", TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_buffer_bind(&gone, NULL, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_buffer_bind(&gone, "", TM_NONBLOCK), -EINVAL);

	CHECK_EQ(rt_buffer_create(&ok, NULL, 16, B_FIFO), 0);
	CHECK_EQ(rt_buffer_inquire(&ok, NULL), -EINVAL);
	CHECK_EQ(rt_buffer_write(&ok, NULL, 3, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_buffer_read(&ok, NULL, 3, TM_NONBLOCK), -EINVAL);
	/* Whole messages only: none larger than the buffer. */
	CHECK_EQ(rt_buffer_write(&ok, data, 17, TM_NONBLOCK), -EINVAL);
	CHECK_EQ(rt_buffer_read(&ok, data, 17, TM_INFINITE), -EINVAL);
	CHECK_EQ(rt_buffer_write_timed(&ok, data, 3, &bad), -EINVAL);
	bad.tv_nsec = -1;
	CHECK_EQ(rt_buffer_read_timed(&ok, data, 3, &bad), -EINVAL);
	bad.tv_sec = -1;
	bad.tv_nsec = 0;
	CHECK_EQ(rt_buffer_write_timed(&ok, data, 3, &bad), -EINVAL);
	/* Zero bytes: nothing to do, even without a buffer pointer. */
	CHECK_EQ(rt_buffer_write(&ok, NULL, 0, TM_INFINITE), 0);
	CHECK_EQ(rt_buffer_read(&ok, NULL, 0, TM_INFINITE), 0);
	CHECK_EQ(info_of(&ok).availmem, 16);
	CHECK_EQ(rt_buffer_delete(&ok), 0);
	CHECK_EQ(rt_buffer_delete(&ok), -EINVAL);
}

TEST(ring_is_byte_exact)
{
	struct timespec now = {0, 0};
	unsigned char out[10], in[10];
	RT_BUFFER_INFO info;
	RT_BUFFER bf;
	unsigned char next_out = 0, next_in = 0;

	CHECK_EQ(rt_buffer_create(&bf, "ring", 10, B_PRIO), 0);
	info = info_of(&bf);
	CHECK_EQ(info.iwaiters, 0);
	CHECK_EQ(info.owaiters, 0);
	CHECK_EQ(info.totalmem, 10);
	CHECK_EQ(info.availmem, 10);
	CHECK_STR(info.name, "ring");
	/* Sizes chosen to wrap at every offset of the ring. */
	for (int round = 0; round < 40; round++) {
		size_t w = (size_t)(round % 7) + 4, r = (size_t)(round % 5) + 3;

		for (size_t i = 0; i < w; i++)
			out[i] = next_out++;
		if (info_of(&bf).availmem < w)
			CHECK_EQ(rt_buffer_write(&bf, out, w, TM_NONBLOCK),
				 -EWOULDBLOCK);
		while (info_of(&bf).availmem < w) {
			CHECK_EQ(rt_buffer_read(&bf, in, 1, TM_NONBLOCK), 1);
			CHECK_EQ(in[0], next_in++);
		}
		CHECK_EQ(rt_buffer_write(&bf, out, w, TM_NONBLOCK), (ssize_t)w);
		if (10 - info_of(&bf).availmem < r) {
			/* Not enough: no partial read without writers. */
			CHECK_EQ(rt_buffer_read(&bf, in, r, TM_NONBLOCK),
				 -EWOULDBLOCK);
			continue;
		}
		CHECK_EQ(rt_buffer_read_until(&bf, in, r, TM_NONBLOCK),
			 (ssize_t)r);
		for (size_t i = 0; i < r; i++)
			CHECK_EQ(in[i], next_in++);
	}
	CHECK_EQ(rt_buffer_write_timed(&bf, out, 10, &now), -EWOULDBLOCK);
	CHECK_EQ(rt_buffer_write_until(&bf, out, 10, TM_NONBLOCK),
		 -EWOULDBLOCK);
	CHECK_EQ(rt_buffer_clear(&bf), 0);
	CHECK_EQ(info_of(&bf).availmem, 10);
	CHECK_EQ(rt_buffer_read_timed(&bf, in, 1, &now), -EWOULDBLOCK);
	CHECK_EQ(rt_buffer_write(&bf, "0123456789", 10, TM_INFINITE), 10);
	CHECK_EQ(info_of(&bf).availmem, 0);
	CHECK_EQ(rt_buffer_read_timed(&bf, in, 10, NULL), 10);
	CHECK(memcmp(in, "0123456789", 10) == 0);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

TEST(timeouts)
{
	bool sim = on_sim();
	struct timespec ts;
	struct io r, s;
	char buf[8];
	RTIME t0, date;
	RT_BUFFER bf;

	CHECK_EQ(rt_buffer_create(&bf, NULL, 8, B_FIFO), 0);
	t0 = rt_timer_read();
	CHECK_EQ(rt_buffer_read(&bf, buf, 1, MS), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, MS);
	t0 = rt_timer_read();
	CHECK_EQ(rt_buffer_read_until(&bf, buf, 4, t0 + 2500000), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 2500000);
	date = rt_timer_read() + 300000;
	ts.tv_sec = (time_t)(date / 1000000000ULL);
	ts.tv_nsec = (long)(date % 1000000000ULL);
	CHECK_EQ(rt_buffer_read_timed(&bf, buf, 2, &ts), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), date);

	CHECK_EQ(rt_buffer_write(&bf, "full-up!", 8, TM_NONBLOCK), 8);
	t0 = rt_timer_read();
	CHECK_EQ(rt_buffer_write(&bf, "x", 1, 1), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read() - t0, 1);
	t0 = rt_timer_read();
	CHECK_EQ(rt_buffer_write_until(&bf, "x", 1, t0 + 777), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0 + 777);
	date = rt_timer_read() + 4 * MS;
	ts.tv_sec = (time_t)(date / 1000000000ULL);
	ts.tv_nsec = (long)(date % 1000000000ULL);
	CHECK_EQ(rt_buffer_write_timed(&bf, "x", 1, &ts), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), date);
	/* A date already past times out without waiting. */
	t0 = rt_timer_read();
	CHECK_EQ(rt_buffer_write_until(&bf, "x", 1, 1), -ETIMEDOUT);
	if (sim)
		CHECK_EQ(rt_timer_read(), t0);
	CHECK_EQ(rt_buffer_clear(&bf), 0);
	CHECK_EQ(rt_buffer_read_until(&bf, buf, 1, 1), -ETIMEDOUT);

	/*
	 * A reader woken for nothing keeps its deadline: "s" (1 byte)
	 * heads the FIFO line, so one byte wakes every reader; "r" (more
	 * urgent, 6 bytes) finds too little, waits again, times out.
	 */
	trail[0] = '\0';
	t0 = rt_timer_read();
	io_start(&s, &bf, "s", 5, NULL, 1, TM_INFINITE);
	io_start(&r, &bf, "r", 10, NULL, 6, margin(MS));
	CHECK_EQ(rt_task_sleep(400000), 0);
	step("w");
	CHECK_EQ(rt_buffer_write(&bf, "a", 1, TM_NONBLOCK), 1);
	io_join(&s);
	CHECK_EQ(s.ret, 1);
	CHECK_EQ(info_of(&bf).iwaiters, 1);
	io_join(&r);
	CHECK_EQ(r.ret, -ETIMEDOUT);
	CHECK_STR(trail, "w s r");
	if (sim)
		CHECK_EQ(r.woke - t0, MS);
	CHECK_EQ(info_of(&bf).availmem, 8);

	/* Served before its deadline: returns at the write, not later. */
	trail[0] = '\0';
	t0 = rt_timer_read();
	io_start(&r, &bf, "r", 10, NULL, 6, margin(MS));
	CHECK_EQ(rt_task_sleep(300000), 0);
	step("w");
	CHECK_EQ(rt_buffer_write(&bf, "abcdef", 6, TM_NONBLOCK), 6);
	io_join(&r);
	CHECK_EQ(r.ret, 6);
	CHECK(memcmp(r.data, "abcdef", 6) == 0);
	CHECK_STR(trail, "w r");
	if (sim)
		CHECK_EQ(r.woke - t0, 300000);
	CHECK_EQ(info_of(&bf).iwaiters, 0);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

TEST(readers_wait_for_enough_data)
{
	struct io r;
	RT_BUFFER bf;

	trail[0] = '\0';
	CHECK_EQ(rt_buffer_create(&bf, NULL, 32, B_FIFO), 0);
	io_start(&r, &bf, "r", 20, NULL, 8, TM_INFINITE);
	CHECK_EQ(info_of(&bf).iwaiters, 1);
	step("w3");
	CHECK_EQ(rt_buffer_write(&bf, "one", 3, TM_INFINITE), 3);
	step("w3");
	CHECK_EQ(rt_buffer_write(&bf, "two", 3, TM_INFINITE), 3);
	CHECK_EQ(info_of(&bf).iwaiters, 1);
	step("w4");
	/* 10 bytes: the reader takes its 8 at once, 2 stay. */
	CHECK_EQ(rt_buffer_write(&bf, "thre", 4, TM_INFINITE), 4);
	step("back");
	io_join(&r);
	CHECK_STR(trail, "w3 w3 w4 r back");
	CHECK_EQ(r.ret, 8);
	CHECK(memcmp(r.data, "onetwoth", 8) == 0);
	CHECK_EQ(info_of(&bf).availmem, 30);
	CHECK_EQ(info_of(&bf).iwaiters, 0);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

TEST(writers_wait_for_enough_room)
{
	char buf[16];
	struct io w;
	RT_BUFFER bf;

	trail[0] = '\0';
	CHECK_EQ(rt_buffer_create(&bf, NULL, 16, B_FIFO), 0);
	CHECK_EQ(rt_buffer_write(&bf, "abcdefghijkl", 12, TM_INFINITE), 12);
	io_start(&w, &bf, "w", 20, "ABCDEFGH", 0, TM_INFINITE);
	CHECK_EQ(info_of(&bf).owaiters, 1);
	step("r2");
	CHECK_EQ(rt_buffer_read(&bf, buf, 2, TM_INFINITE), 2);
	CHECK(memcmp(buf, "ab", 2) == 0);
	step("r2");
	/* Now 8 bytes of room: the writer preempts with its 8. */
	CHECK_EQ(rt_buffer_read(&bf, buf, 2, TM_INFINITE), 2);
	step("back");
	io_join(&w);
	CHECK_STR(trail, "r2 r2 w back");
	CHECK_EQ(w.ret, 8);
	CHECK_EQ(info_of(&bf).availmem, 0);
	CHECK_EQ(rt_buffer_read(&bf, buf, 16, TM_NONBLOCK), 16);
	CHECK(memcmp(buf, "efghijklABCDEFGH", 16) == 0);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

TEST(short_reads)
{
	char buf[16];
	struct io w, r;
	RT_BUFFER bf;

	/* The documented case: a writer waits while a reader would too. */
	trail[0] = '\0';
	CHECK_EQ(rt_buffer_create(&bf, NULL, 16, B_FIFO), 0);
	CHECK_EQ(rt_buffer_write(&bf, "1", 1, TM_INFINITE), 1);
	io_start(&w, &bf, "w", 20, "sixteen-bytes-!!", 0, TM_INFINITE);
	CHECK_EQ(info_of(&bf).owaiters, 1);
	/* Non-blocking readers are never cut short. */
	CHECK_EQ(rt_buffer_read(&bf, buf, 16, TM_NONBLOCK), -EWOULDBLOCK);
	step("read");
	CHECK_EQ(rt_buffer_read(&bf, buf, 16, TM_INFINITE), 1);
	step("back");
	CHECK_EQ(buf[0], '1');
	io_join(&w);
	CHECK_STR(trail, "read w back");
	CHECK_EQ(rt_buffer_read(&bf, buf, 16, TM_INFINITE), 16);
	CHECK(memcmp(buf, "sixteen-bytes-!!", 16) == 0);

	/* The converse: a reader waits, then a writer would too. */
	trail[0] = '\0';
	io_start(&r, &bf, "r", 20, NULL, 16, TM_INFINITE);
	step("w1");
	CHECK_EQ(rt_buffer_write(&bf, "2", 1, TM_INFINITE), 1);
	CHECK_EQ(info_of(&bf).iwaiters, 1);
	step("w16");
	/* The reader is kicked, takes the 1 byte, and room is made. */
	CHECK_EQ(rt_buffer_write(&bf, "SIXTEEN-BYTES-??", 16, TM_INFINITE), 16);
	step("back");
	io_join(&r);
	CHECK_STR(trail, "w1 w16 r back");
	CHECK_EQ(r.ret, 1);
	CHECK_EQ(r.data[0], '2');
	CHECK_EQ(rt_buffer_read(&bf, buf, 16, TM_NONBLOCK), 16);
	CHECK(memcmp(buf, "SIXTEEN-BYTES-??", 16) == 0);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

/*
 * Reader "small" (priority 10, 4 bytes) waits first, then "big"
 * (priority 30, 8 bytes).  The first waiter in service order decides
 * when the readers wake: FIFO order puts "small" first, PRIO "big".
 */
static void service_order(int mode, const char *after4, const char *after8)
{
	struct io small, big;
	RT_BUFFER bf;

	trail[0] = '\0';
	CHECK_EQ(rt_buffer_create(&bf, NULL, 32, mode), 0);
	io_start(&small, &bf, "small", 10, NULL, 4, TM_INFINITE);
	io_start(&big, &bf, "big", 30, NULL, 8, TM_INFINITE);
	CHECK_EQ(info_of(&bf).iwaiters, 2);
	CHECK_EQ(rt_buffer_write(&bf, "1234", 4, TM_INFINITE), 4);
	CHECK_STR(trail, after4);
	CHECK_EQ(rt_buffer_write(&bf, "abcdefgh", 8, TM_INFINITE), 8);
	CHECK_STR(trail, after8);
	io_join(&small);
	io_join(&big);
	CHECK_EQ(small.ret, 4);
	CHECK_EQ(big.ret, 8);
	CHECK_EQ(info_of(&bf).availmem, 32);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

TEST(fifo_order)
{
	/* "small" fits: every reader wakes, "big" (more urgent) re-waits. */
	service_order(B_FIFO, "small", "small big");
}

TEST(prio_order)
{
	/* "big" heads the line: 4 bytes wake nobody, 12 wake both. */
	service_order(B_PRIO, "", "big small");
}

TEST(write_preempts_and_tlock_defers)
{
	RT_TASK_INFO ti;
	char buf[8];
	struct io io;
	RT_BUFFER bf;
	int mode = -1;

	CHECK_EQ(rt_buffer_create(&bf, NULL, 8, B_FIFO), 0);
	trail[0] = '\0';
	io_start(&io, &bf, "high", 50, NULL, 4, TM_INFINITE);
	/* Its wait cost no mode switch (waits allocate nothing). */
	CHECK_EQ(rt_task_inquire(&io.task, &ti), 0);
	CHECK_EQ(ti.stat.msw, 0);
	step("write");
	CHECK_EQ(rt_buffer_write(&bf, "data", 4, TM_INFINITE), 4);
	step("back");
	io_join(&io);
	CHECK_STR(trail, "write high back");

	/* A read that makes room lets a more urgent writer in at once. */
	trail[0] = '\0';
	CHECK_EQ(rt_buffer_write(&bf, "12345678", 8, TM_INFINITE), 8);
	io_start(&io, &bf, "high", 50, "ab", 0, TM_INFINITE);
	step("read");
	CHECK_EQ(rt_buffer_read(&bf, buf, 2, TM_INFINITE), 2);
	step("back");
	io_join(&io);
	CHECK_STR(trail, "read high back");
	CHECK_EQ(rt_buffer_clear(&bf), 0);

	trail[0] = '\0';
	io_start(&io, &bf, "high", 50, NULL, 4, TM_INFINITE);
	CHECK_EQ(rt_task_set_mode(0, T_LOCK, NULL), 0);
	step("write");
	CHECK_EQ(rt_buffer_write(&bf, "lock", 4, TM_INFINITE), 4);
	step("locked");
	/* Blocking is refused while the scheduler is locked. */
	CHECK_EQ(rt_buffer_read(&bf, buf, 8, TM_INFINITE), -EPERM);
	CHECK_EQ(rt_buffer_read(&bf, buf, 8, TM_NONBLOCK), -EWOULDBLOCK);
	CHECK_EQ(rt_task_set_mode(T_LOCK, 0, &mode), 0);
	CHECK_EQ(mode & T_LOCK, T_LOCK);
	step("back");
	io_join(&io);
	CHECK_EQ(io.ret, 4);
	CHECK(memcmp(io.data, "lock", 4) == 0);
	CHECK_STR(trail, "write locked high back");
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

TEST(delete_wakes_waiters)
{
	struct io io[3];
	RT_BUFFER bf;

	/* Readers. */
	trail[0] = '\0';
	CHECK_EQ(rt_buffer_create(&bf, "doomed", 8, B_FIFO), 0);
	io_start(&io[0], &bf, "a", 10, NULL, 2, TM_INFINITE);
	io_start(&io[1], &bf, "b", 20, NULL, 8, TM_INFINITE);
	io_start(&io[2], &bf, "c", 15, NULL, 1, margin(5 * MS));
	CHECK_EQ(info_of(&bf).iwaiters, 3);
	step("delete");
	CHECK_EQ(rt_buffer_delete(&bf), 0);
	step("back");
	CHECK_STR(trail, "delete b c a back");
	for (int i = 0; i < 3; i++) {
		io_join(&io[i]);
		CHECK_EQ(io[i].ret, -EIDRM);
	}
	CHECK_EQ(rt_buffer_delete(&bf), -EINVAL);
	CHECK_EQ(rt_buffer_bind(&bf, "doomed", TM_NONBLOCK), -EWOULDBLOCK);

	/* Writers. */
	trail[0] = '\0';
	CHECK_EQ(rt_buffer_create(&bf, NULL, 8, B_PRIO), 0);
	CHECK_EQ(rt_buffer_write(&bf, "12345678", 8, TM_INFINITE), 8);
	io_start(&io[0], &bf, "a", 10, "x", 0, TM_INFINITE);
	io_start(&io[1], &bf, "b", 20, "yy", 0, margin(5 * MS));
	CHECK_EQ(info_of(&bf).owaiters, 2);
	step("delete");
	CHECK_EQ(rt_buffer_delete(&bf), 0);
	step("back");
	CHECK_STR(trail, "delete b a back");
	for (int i = 0; i < 2; i++) {
		io_join(&io[i]);
		CHECK_EQ(io[i].ret, -EIDRM);
	}
	CHECK_EQ(rt_buffer_write(&bf, "x", 1, TM_NONBLOCK), -EINVAL);
}

TEST(unblock_interrupts)
{
	bool sim = on_sim();
	struct io io[2];
	RT_BUFFER rd, wr;
	RTIME t0;

	trail[0] = '\0';
	CHECK_EQ(rt_buffer_create(&rd, NULL, 8, B_PRIO), 0);
	CHECK_EQ(rt_buffer_create(&wr, NULL, 8, B_FIFO), 0);
	CHECK_EQ(rt_buffer_write(&wr, "12345678", 8, TM_INFINITE), 8);
	t0 = rt_timer_read();
	io_start(&io[0], &rd, "reader", 10, NULL, 4, TM_INFINITE);
	io_start(&io[1], &wr, "writer", 20, "abc", 0, margin(3 * MS));
	CHECK_EQ(rt_task_sleep(MS), 0);
	CHECK_EQ(rt_task_unblock(&io[1].task), 0);
	CHECK_EQ(rt_task_unblock(&io[0].task), 0);
	for (int i = 0; i < 2; i++) {
		io_join(&io[i]);
		CHECK_EQ(io[i].ret, -EINTR);
		if (sim)
			CHECK_EQ(io[i].woke - t0, MS);
	}
	CHECK_STR(trail, "writer reader");
	/* Nothing moved, nobody waits. */
	CHECK_EQ(info_of(&rd).iwaiters, 0);
	CHECK_EQ(info_of(&rd).availmem, 8);
	CHECK_EQ(info_of(&wr).owaiters, 0);
	CHECK_EQ(info_of(&wr).availmem, 0);
	CHECK_EQ(rt_buffer_delete(&rd), 0);
	CHECK_EQ(rt_buffer_delete(&wr), 0);
}

TEST(clear_lets_writers_in)
{
	char buf[8];
	struct io w[2];
	RT_BUFFER bf;

	trail[0] = '\0';
	CHECK_EQ(rt_buffer_create(&bf, NULL, 8, B_FIFO), 0);
	CHECK_EQ(rt_buffer_write(&bf, "old-data", 8, TM_INFINITE), 8);
	io_start(&w[0], &bf, "w5", 20, "fresh", 0, TM_INFINITE);
	io_start(&w[1], &bf, "w4", 10, "more", 0, TM_INFINITE);
	CHECK_EQ(info_of(&bf).owaiters, 2);
	step("clear");
	CHECK_EQ(rt_buffer_clear(&bf), 0);
	step("back");
	/* Both were woken; the second found no room and waits again. */
	CHECK_STR(trail, "clear w5 back");
	CHECK_EQ(info_of(&bf).owaiters, 1);
	CHECK_EQ(rt_buffer_read(&bf, buf, 5, TM_INFINITE), 5);
	CHECK(memcmp(buf, "fresh", 5) == 0);
	CHECK_STR(trail, "clear w5 back w4");
	CHECK_EQ(rt_buffer_read(&bf, buf, 4, TM_INFINITE), 4);
	CHECK(memcmp(buf, "more", 4) == 0);
	io_join(&w[0]);
	io_join(&w[1]);
	CHECK_EQ(w[0].ret, 5);
	CHECK_EQ(w[1].ret, 4);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

#define STREAM_BYTES 6000

struct producer {
	RT_BUFFER *bf;
	int ret;
	RT_TASK task;
};

static unsigned char stream_byte(size_t i)
{
	return (unsigned char)((i * 131) ^ (i >> 7));
}

static void producer_body(void *arg)
{
	struct producer *p = arg;
	unsigned char chunk[48];
	size_t done = 0;

	for (int n = 0; done < STREAM_BYTES; n++) {
		size_t len = (size_t)(n * 17 % 48) + 1;

		if (len > STREAM_BYTES - done)
			len = STREAM_BYTES - done;
		for (size_t i = 0; i < len; i++)
			chunk[i] = stream_byte(done + i);
		if (rt_buffer_write(p->bf, chunk, len, TM_INFINITE) !=
		    (ssize_t)len) {
			p->ret = -1;
			return;
		}
		done += len;
	}
}

TEST(stream_both_sides_block)
{
	unsigned char chunk[64];
	struct producer p = {0};
	size_t got = 0;
	int shorts = 0;
	RT_BUFFER bf;

	CHECK_EQ(rt_buffer_create(&bf, NULL, 64, B_FIFO), 0);
	p.bf = &bf;
	spawn(&p.task, 20, producer_body, &p);
	/* The producer filled the ring and waits; main drains it. */
	CHECK_EQ(info_of(&bf).owaiters, 1);
	for (int n = 0; got < STREAM_BYTES; n++) {
		size_t want = (size_t)(n * 23 % 64) + 1;
		ssize_t len;

		if (want > STREAM_BYTES - got)
			want = STREAM_BYTES - got;
		len = rt_buffer_read(&bf, chunk, want, TM_INFINITE);
		CHECK(len > 0 && (size_t)len <= want);
		shorts += (size_t)len < want;
		for (ssize_t i = 0; i < len; i++)
			CHECK_EQ(chunk[i], stream_byte(got + (size_t)i));
		got += (size_t)len;
	}
	CHECK_EQ(rt_task_join(&p.task), 0);
	CHECK_EQ(p.ret, 0);
	/* Both sides waited for each other: short reads broke the ties. */
	CHECK(shorts > 0);
	CHECK_EQ(info_of(&bf).availmem, 64);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

TEST(deleted_tasks_leave_it_usable)
{
	struct io io[2];
	RT_BUFFER bf;
	char buf[4];

	CHECK_EQ(rt_buffer_create(&bf, NULL, 4, B_PRIO), 0);
	io_start(&io[0], &bf, "r", 30, NULL, 4, TM_INFINITE);
	io_start(&io[1], &bf, "r2", 20, NULL, 2, TM_INFINITE);
	CHECK_EQ(info_of(&bf).iwaiters, 2);
	CHECK_EQ(rt_task_delete(&io[0].task), 0);
	CHECK_EQ(info_of(&bf).iwaiters, 1);
	CHECK_EQ(rt_task_delete(&io[1].task), 0);
	CHECK_EQ(rt_task_join(&io[0].task), 0);
	CHECK_EQ(rt_task_join(&io[1].task), 0);
	CHECK_EQ(info_of(&bf).iwaiters, 0);
	CHECK_EQ(rt_buffer_write(&bf, "abcd", 4, TM_INFINITE), 4);
	io_start(&io[0], &bf, "w", 30, "xy", 0, TM_INFINITE);
	CHECK_EQ(info_of(&bf).owaiters, 1);
	CHECK_EQ(rt_buffer_read(&bf, buf, 2, TM_INFINITE), 2);
	io_join(&io[0]);
	CHECK_EQ(io[0].ret, 2);
	CHECK_EQ(rt_buffer_read(&bf, buf, 4, TM_INFINITE), 4);
	CHECK(memcmp(buf, "cdxy", 4) == 0);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

static int bind_buffer(void *desc, const char *name, RTIME timeout)
{
	return rt_buffer_bind(desc, name, timeout);
}

static ssize_t read_bound(struct binder *b)
{
	ssize_t got = rt_buffer_read(b->desc, b->buf, 5, TM_INFINITE);

	step("got");
	return got;
}

TEST(bind_waits_for_creation)
{
	RT_BUFFER bf, mine, bound;
	struct binder b = {
	    .bind = bind_buffer, .use = read_bound, .desc = &bound};

	trail[0] = '\0';
	check_bind_absent(bind_buffer, &mine, "later", 500000);
	binder_start(&b, "later", TM_INFINITE);
	step("create");
	CHECK_EQ(rt_buffer_create(&bf, "later", 8, B_FIFO), 0);
	step("created");
	CHECK_EQ(rt_buffer_write(&bf, "ping", 5, TM_INFINITE), 5);
	CHECK_EQ(rt_task_join(&b.task), 0);
	CHECK_EQ(b.bound, 0);
	CHECK_EQ(bound.handle, bf.handle);
	CHECK_EQ(b.got, 5);
	CHECK_STR(b.buf, "ping");
	CHECK_STR(trail, "create bound created got");

	CHECK_EQ(rt_buffer_bind(&mine, "later", TM_NONBLOCK), 0);
	CHECK_EQ(mine.handle, bf.handle);
	CHECK_EQ(rt_buffer_unbind(&mine), 0);
	CHECK_EQ(mine.handle, 0);
	CHECK_EQ(rt_buffer_clear(&mine), -EINVAL);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

/* What a plain pthread (not a task) may and may not do. */
struct foreign {
	RT_BUFFER *bf;
	int create, read_block, read_nonblock, write, read_avail, write_full;
};

static void *foreign_body(void *arg)
{
	struct foreign *f = arg;
	RT_BUFFER other;
	char buf[4];

	f->create = rt_buffer_create(&other, NULL, 8, B_FIFO)
			?: rt_buffer_delete(&other);
	f->read_block = (int)rt_buffer_read(f->bf, buf, 4, TM_INFINITE);
	f->read_nonblock = (int)rt_buffer_read(f->bf, buf, 4, TM_NONBLOCK);
	f->write = (int)rt_buffer_write(f->bf, "abcd", 4, TM_INFINITE);
	f->read_avail = (int)rt_buffer_read(f->bf, buf, 4, TM_INFINITE);
	f->write_full = (int)rt_buffer_write(f->bf, "abcdefgh", 8, 1000);
	f->write_full =
	    f->write_full == 8 ? (int)rt_buffer_write(f->bf, "z", 1, 1000) : -1;
	return NULL;
}

TEST(plain_thread)
{
	struct foreign f = {0};
	RT_BUFFER bf;

	CHECK_EQ(rt_buffer_create(&bf, NULL, 8, B_FIFO), 0);
	f.bf = &bf;
	run_plain_thread(foreign_body, &f);
	/* Any Linux thread creates and deletes, as in Xenomai. */
	CHECK_EQ(f.create, 0);
	CHECK_EQ(f.read_block, -EPERM);
	CHECK_EQ(f.read_nonblock, -EWOULDBLOCK);
	CHECK_EQ(f.write, 4);
	CHECK_EQ(f.read_avail, 4);
	CHECK_EQ(f.write_full, -EPERM);
	CHECK_EQ(info_of(&bf).availmem, 0);
	CHECK_EQ(rt_buffer_delete(&bf), 0);
}

TESTS(T(create_errors), T(bad_descriptors), T(ring_is_byte_exact), T(timeouts),
      T(readers_wait_for_enough_data), T(writers_wait_for_enough_room),
      T(short_reads), T(fifo_order), T(prio_order),
      T(write_preempts_and_tlock_defers), T(delete_wakes_waiters),
      T(unblock_interrupts), T(clear_lets_writers_in),
      T(stream_both_sides_block), T(deleted_tasks_leave_it_usable),
      T(bind_waits_for_creation), T(plain_thread));
