/* SPDX-License-Identifier: MIT */
/*
 * Nucleus pipes on sim: bad input for every function, message order
 * (urgent, stream), the pool limit, the reader's errors and the exact
 * date of its timeout, and readers whose wait ended but who had not run
 * yet when the pipe was deleted.  The Linux side is read from the test
 * itself, once main has blocked (root context runs only when every RT
 * thread waits).
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <string.h>
#include <unistd.h>

#define MS 1000000LL

static struct nk_instance *nk;

static void setup(void)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 10};

	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
}

/* Let root context hand queued messages to Linux. */
static void let_linux_run(void)
{
	CHECK_EQ(nk_thread_sleep(nk, MS, NK_RELATIVE), 0);
}

static void check_linux_reads(struct nk_pipe *pipe, const char *want)
{
	char buf[64];
	ssize_t n = read(nk_pipe_linux_fd(pipe), buf, sizeof(buf) - 1);

	CHECK(n >= 0);
	buf[n] = '\0';
	CHECK_STR(buf, want);
}

TEST(bad_input)
{
	unsigned char forged[256];
	struct nk_pipe *pipe, *junk = (struct nk_pipe *)forged;
	char buf[8];

	setup();
	memset(forged, 0xa5, sizeof(forged));
	CHECK_EQ(nk_pipe_create(NULL, "p", 0, &pipe), -EINVAL);
	CHECK_EQ(nk_pipe_create(nk, "p", 0, NULL), -EINVAL);
	CHECK_EQ(
	    nk_pipe_create(nk, "abcdefghijklmnopqrstuvwxyz012345", 0, &pipe),
	    -EINVAL);
	CHECK_EQ(nk_pipe_delete(NULL), -EINVAL);
	CHECK_EQ(nk_pipe_delete(junk), -EINVAL);
	CHECK_EQ(nk_pipe_send(NULL, "a", 1, 0), -EINVAL);
	CHECK_EQ(nk_pipe_send(junk, "a", 1, 0), -EINVAL);
	CHECK_EQ(nk_pipe_recv(NULL, buf, sizeof(buf), 0, NK_RELATIVE), -EINVAL);
	CHECK_EQ(nk_pipe_recv(junk, buf, sizeof(buf), 0, NK_RELATIVE), -EINVAL);
	CHECK_EQ(nk_pipe_linux_fd(NULL), -EINVAL);
	CHECK_EQ(nk_pipe_linux_fd(junk), -EINVAL);
	CHECK_EQ(nk_pipe_room(NULL, 0), -EINVAL);
	CHECK_EQ(nk_pipe_room(junk, 0), -EINVAL);
	CHECK_EQ(nk_pipe_resize(NULL, 4096), -EINVAL);
	CHECK_EQ(nk_pipe_resize(junk, 4096), -EINVAL);
	CHECK_EQ(nk_pipe_create(nk, "p", 0, &pipe), 0);
	CHECK_EQ(nk_pipe_room(pipe, 0x80), -EINVAL);
	CHECK_EQ(nk_pipe_room(pipe, NK_PIPE_URGENT | NK_PIPE_STREAM), -EINVAL);
	CHECK_EQ(nk_pipe_resize(pipe, 0), -EINVAL);
	CHECK_EQ(nk_pipe_resize(pipe, 8), -EINVAL);
	CHECK_EQ(nk_pipe_send(pipe, NULL, 1, 0), -EINVAL);
	CHECK_EQ(nk_pipe_send(pipe, "a", 1, 0x80), -EINVAL);
	CHECK_EQ(nk_pipe_send(pipe, "a", 1, NK_PIPE_URGENT | NK_PIPE_STREAM),
		 -EINVAL);
	CHECK_EQ(nk_pipe_recv(pipe, NULL, 1, 0, NK_RELATIVE), -EINVAL);
	CHECK_EQ(nk_pipe_recv(pipe, buf, sizeof(buf), 0, (enum nk_tmode)7),
		 -EINVAL);
	/* Still usable after all that. */
	CHECK_EQ(nk_pipe_send(pipe, "ok", 2, 0), 2);
	let_linux_run();
	check_linux_reads(pipe, "ok");
	CHECK_EQ(nk_pipe_delete(pipe), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(order_urgent_and_stream)
{
	struct nk_pipe *pipe;

	setup();
	CHECK_EQ(nk_pipe_create(nk, "order", 0, &pipe), 0);
	CHECK_EQ(nk_pipe_send(pipe, "a", 1, 0), 1);
	CHECK_EQ(nk_pipe_send(pipe, "bb", 2, 0), 2);
	CHECK_EQ(nk_pipe_send(pipe, "cc", 2, NK_PIPE_STREAM), 2);
	CHECK_EQ(nk_pipe_send(pipe, "u", 1, NK_PIPE_URGENT), 1);
	let_linux_run();
	check_linux_reads(pipe, "u");
	check_linux_reads(pipe, "a");
	check_linux_reads(pipe, "bbcc");
	CHECK_EQ(nk_pipe_delete(pipe), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(pool_limit)
{
	static char big[600];
	struct nk_pipe *pipe;

	ssize_t room;

	setup();
	CHECK_EQ(nk_pipe_create(nk, "small", 1024, &pipe), 0);
	/* The room said is exactly what a send takes. */
	room = nk_pipe_room(pipe, 0);
	CHECK(room > 900 && room < 1024);
	CHECK_EQ(nk_pipe_send(pipe, big, sizeof(big), 0), (ssize_t)sizeof(big));
	/* Linux has not run: the first message still holds the pool. */
	CHECK_EQ(nk_pipe_send(pipe, big, sizeof(big), 0), -ENOMEM);
	room = nk_pipe_room(pipe, 0);
	CHECK(room < (ssize_t)sizeof(big));
	CHECK_EQ(nk_pipe_send(pipe, big, (size_t)room + 1, 0), -ENOMEM);
	CHECK_EQ(nk_pipe_send(pipe, big, (size_t)room, 0), room);
	CHECK_EQ(nk_pipe_room(pipe, 0), 0);
	let_linux_run();
	CHECK_EQ(nk_pipe_send(pipe, big, sizeof(big), 0), (ssize_t)sizeof(big));
	/* A new pool: the message queued goes; the two Linux was handed
	 * stay its own. */
	CHECK_EQ(nk_pipe_resize(pipe, 4096), 0);
	CHECK(nk_pipe_room(pipe, 0) > 3900);
	CHECK_EQ(nk_pipe_send(pipe, "after", 5, 0), 5);
	let_linux_run();
	check_linux_reads(pipe, "");
	check_linux_reads(pipe, "");
	check_linux_reads(pipe, "after");
	CHECK_EQ(nk_pipe_delete(pipe), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static long long plain_result;
static struct nk_pipe *plain_pipe;

static void *plain_reader(void *arg)
{
	char buf[8];

	(void)arg;
	plain_result =
	    nk_pipe_recv(plain_pipe, buf, sizeof(buf), MS, NK_RELATIVE);
	return NULL;
}

TEST(reader_errors_and_timeout)
{
	struct nk_pipe *pipe;
	pthread_t plain;
	char small[2], buf[16];
	nk_time_t t0;
	int fd;

	setup();
	CHECK_EQ(nk_pipe_create(nk, "in", 0, &pipe), 0);
	fd = nk_pipe_linux_fd(pipe);
	CHECK_EQ(nk_pipe_recv(pipe, buf, sizeof(buf), 0, NK_RELATIVE),
		 -EWOULDBLOCK);
	CHECK_EQ(write(fd, "hello", 5), 5);
	CHECK_EQ(nk_pipe_recv(pipe, small, sizeof(small), 0, NK_RELATIVE),
		 -ENOBUFS);
	CHECK_EQ(nk_pipe_recv(pipe, buf, sizeof(buf), 0, NK_RELATIVE), 5);
	CHECK(memcmp(buf, "hello", 5) == 0);
	t0 = nk_now(nk);
	CHECK_EQ(nk_pipe_recv(pipe, buf, sizeof(buf), 3 * MS, NK_RELATIVE),
		 -ETIMEDOUT);
	CHECK_EQ(nk_now(nk) - t0, 3 * MS);
	/* Blocking outside a nucleus thread is refused. */
	plain_pipe = pipe;
	CHECK_EQ(pthread_create(&plain, NULL, plain_reader, NULL), 0);
	CHECK_EQ(pthread_join(plain, NULL), 0);
	CHECK_EQ(plain_result, -EPERM);
	CHECK_EQ(nk_pipe_delete(pipe), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/* A reader below main (priority 5): main decides when it runs again. */
struct late_reader {
	struct nk_pipe *pipe;
	nk_time_t timeout;
	struct nk_thread *thread;
	ssize_t ret;
	nk_time_t woke;
};

static void late_reader_body(void *arg)
{
	struct late_reader *r = arg;
	char buf[16];

	r->ret =
	    nk_pipe_recv(r->pipe, buf, sizeof(buf), r->timeout, NK_RELATIVE);
	r->woke = nk_now(nk);
}

/* Start @r reading @pipe; it waits once main blocks. */
static void late_reader_start(struct late_reader *r, struct nk_pipe *pipe,
			      nk_time_t timeout)
{
	struct nk_thread_attr attr = {
	    .name = "reader", .priority = 5, .flags = NK_THREAD_JOINABLE};

	memset(r, 0, sizeof(*r));
	r->pipe = pipe;
	r->timeout = timeout;
	r->ret = 1;
	CHECK_EQ(nk_thread_create(nk, &attr, &r->thread), 0);
	CHECK_EQ(nk_thread_start(r->thread, late_reader_body, r), 0);
}

/*
 * A message wakes the reader (main's pull hands it over), main deletes
 * the pipe before the reader runs: the reader must not look at the
 * freed pipe for the message, and says the pipe is gone.
 */
TEST(deleted_after_wakeup)
{
	struct late_reader r;
	struct nk_pipe *pipe;
	char small[1];

	setup();
	CHECK_EQ(nk_pipe_create(nk, "woken", 0, &pipe), 0);
	late_reader_start(&r, pipe, NK_INFINITE);
	let_linux_run();
	CHECK_EQ(write(nk_pipe_linux_fd(pipe), "hello", 5), 5);
	/* Pulled and too big for main: it stays, and wakes the reader. */
	CHECK_EQ(nk_pipe_recv(pipe, small, sizeof(small), 0, NK_RELATIVE),
		 -ENOBUFS);
	CHECK_EQ(r.ret, 1);
	CHECK_EQ(nk_pipe_delete(pipe), 0);
	CHECK_EQ(nk_thread_join(r.thread), 0);
	CHECK_EQ(r.ret, -EIDRM);
	CHECK_EQ(r.woke, MS);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

/*
 * The reader's timeout and main's sleep end at the same date, main
 * first: main deletes the pipe before the timed-out reader runs, which
 * on sim would take a last look at what Linux wrote.
 */
TEST(deleted_after_timeout)
{
	struct late_reader r;
	struct nk_pipe *pipe;

	setup();
	CHECK_EQ(nk_pipe_create(nk, "timed", 0, &pipe), 0);
	late_reader_start(&r, pipe, 2 * MS);
	CHECK_EQ(nk_thread_sleep(nk, 2 * MS, NK_RELATIVE), 0);
	CHECK_EQ(write(nk_pipe_linux_fd(pipe), "late", 4), 4);
	CHECK_EQ(r.ret, 1);
	CHECK_EQ(nk_pipe_delete(pipe), 0);
	CHECK_EQ(nk_thread_join(r.thread), 0);
	CHECK_EQ(r.ret, -EIDRM);
	CHECK_EQ(r.woke, 2 * MS);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TESTS(T(bad_input), T(order_urgent_and_stream), T(pool_limit),
      T(reader_errors_and_timeout), T(deleted_after_wakeup),
      T(deleted_after_timeout));
