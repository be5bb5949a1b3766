/* SPDX-License-Identifier: MIT */
/*
 * RTAI FIFOs: bytes from the real-time side to a Linux thread reading
 * the descriptor of fusion_rtf_open(), bytes from Linux taken in any
 * amount by rtf_get(), opens counted, reset, the room one put takes,
 * resizing, semaphores, and bad input.
 */
#include "rtai_test.h"

#include <rtai/rtai_fifos.h>

#include <poll.h>
#include <pthread.h>
#include <unistd.h>

struct reader {
	int fd;
	char buf[64];
	ssize_t len;
};

/* A plain Linux thread: poll, then read what is there. */
static void *reader_body(void *arg)
{
	struct reader *r = arg;
	struct pollfd pfd = {.fd = r->fd, .events = POLLIN};

	r->len = -1;
	if (poll(&pfd, 1, 10000) == 1)
		r->len = read(r->fd, r->buf, sizeof(r->buf) - 1);
	if (r->len >= 0)
		r->buf[r->len] = '\0';
	return NULL;
}

static void *writer_body(void *arg)
{
	int fd = *(int *)arg;

	CHECK_EQ(write(fd, "hello", 5), 5);
	CHECK_EQ(write(fd, "world", 5), 5);
	return NULL;
}

TEST(both_ways)
{
	struct reader r = {0};
	pthread_t th;
	char buf[16] = "";
	int fd;

	main_task();
	CHECK_EQ(fusion_rtf_open(3), -ENOENT);
	CHECK_EQ(rtf_create(3, 100), 0);
	fd = fusion_rtf_open(3);
	CHECK(fd >= 0);
	/* Two puts before Linux reads: one stream. */
	CHECK_EQ(rtf_put(3, "abc", 3), 3);
	CHECK_EQ(rtf_put(3, "def", 3), 3);
	CHECK_EQ(rtf_put(3, "", 0), 0);
	r.fd = fd;
	CHECK_EQ(pthread_create(&th, NULL, reader_body, &r), 0);
	/* Let root context run (sim: main blocks). */
	CHECK_EQ(rt_sleep(MS), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK_EQ(r.len, 6);
	CHECK_STR(r.buf, "abcdef");
	/* Linux writes: taken in any amount. */
	CHECK_EQ(pthread_create(&th, NULL, writer_body, &fd), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK_EQ(rtf_get_avbs(3), 10);
	CHECK_EQ(rtf_get(3, buf, 3), 3);
	CHECK(memcmp(buf, "hel", 3) == 0);
	CHECK_EQ(rtf_get(3, buf, 0), 0);
	CHECK_EQ(rtf_get(3, buf, sizeof(buf)), 7);
	CHECK(memcmp(buf, "loworld", 7) == 0);
	CHECK_EQ(rtf_get(3, buf, sizeof(buf)), 0);
	close(fd);
	CHECK_EQ(rtf_destroy(3), 0);
	CHECK_EQ(fusion_rtf_open(3), -ENOENT);
}

TEST(opens_and_reset)
{
	pthread_t th;
	char buf[8];
	int fd;

	main_task();
	CHECK_EQ(rtf_create(0, 8), 0);
	CHECK_EQ(rtf_create(0, 8000), 0);
	fd = fusion_rtf_open(0);
	CHECK_EQ(pthread_create(&th, NULL, writer_body, &fd), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK_EQ(rtf_reset(0), 0);
	CHECK_EQ(rtf_get_avbs(0), 0);
	CHECK_EQ(rtf_get(0, buf, sizeof(buf)), 0);
	close(fd);
	CHECK_EQ(rtf_destroy(0), 1);
	CHECK_EQ(rtf_destroy(0), 0);
	CHECK_EQ(rtf_destroy(0), -EINVAL);
}

/*
 * rtf_get_frbs() says how much one put takes: exactly that much (on
 * sim, where nothing flushes meanwhile, one byte more is refused), and
 * less once puts wait for the Linux side.
 */
TEST(free_bytes)
{
	static char big[8192];
	int f0, f1;

	main_task();
	CHECK_EQ(rtf_create(7, 4096), 0);
	f0 = rtf_get_frbs(7);
	CHECK(f0 > 4096 - 128 && f0 <= 4096);
	if (on_sim())
		CHECK_EQ(rtf_put(7, big, f0 + 1), 0);
	CHECK_EQ(rtf_put(7, big, 100), 100);
	f1 = rtf_get_frbs(7);
	if (on_sim()) {
		CHECK(f1 <= f0 - 100);
		CHECK_EQ(rtf_put(7, big, f1 + 1), 0);
		CHECK_EQ(rtf_put(7, big, f1), f1);
		CHECK_EQ(rtf_get_frbs(7), 0);
	}
	CHECK_EQ(rtf_destroy(7), 0);
}

/*
 * rtf_resize(): a larger pool, what was not taken dropped, and the
 * Linux side's descriptor still the FIFO's.
 */
TEST(resize)
{
	struct reader r = {0};
	pthread_t th;
	int fd;

	main_task();
	CHECK_EQ(rtf_create(9, 4096), 0);
	fd = fusion_rtf_open(9);
	CHECK(fd >= 0);
	CHECK_EQ(pthread_create(&th, NULL, writer_body, &fd), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK_EQ(rtf_get_avbs(9), 10);
	CHECK(rtf_get_frbs(9) < 16000);
	CHECK_EQ(rtf_resize(9, 20000), 20000);
	CHECK_EQ(rtf_get_avbs(9), 0);
	CHECK(rtf_get_frbs(9) > 16000);
	CHECK_EQ(rtf_put(9, "abc", 3), 3);
	r.fd = fd;
	CHECK_EQ(pthread_create(&th, NULL, reader_body, &r), 0);
	CHECK_EQ(rt_sleep(MS), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK_STR(r.buf, "abc");
	/* Smaller than the least: the least. */
	CHECK_EQ(rtf_resize(9, 10), 10);
	CHECK(rtf_get_frbs(9) < 4096);
	CHECK_EQ(rtf_resize(9, 0), -EINVAL);
	CHECK_EQ(rtf_resize(9, -1), -EINVAL);
	close(fd);
	CHECK_EQ(rtf_destroy(9), 0);
	CHECK_EQ(rtf_resize(9, 100), -EINVAL);
	CHECK_EQ(rtf_resize(RTF_NO, 100), -ENODEV);
}

struct sem_waiter {
	unsigned int fifo;
	int ms; /* -1: rtf_sem_wait() */
	int ret;
};

/* A plain Linux thread waiting on a FIFO's semaphore. */
static void *sem_waiter_body(void *arg)
{
	struct sem_waiter *w = arg;

	w->ret = w->ms < 0 ? rtf_sem_wait(w->fifo)
			   : rtf_sem_timed_wait(w->fifo, w->ms);
	return NULL;
}

/* Start @w, let it wait, run @then (NULL: nothing), and join it. */
static void sem_wait_for(struct sem_waiter *w, int (*then)(unsigned int))
{
	pthread_t th;

	w->ret = 1;
	CHECK_EQ(pthread_create(&th, NULL, sem_waiter_body, w), 0);
	CHECK_EQ(rt_sleep(margin(MS)), 0);
	if (then)
		CHECK_EQ(then(w->fifo), 0);
	/* The root domain hands the post's token to the waiter. */
	CHECK_EQ(rt_sleep(MS), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
}

/*
 * A FIFO's semaphore: binary; taken and posted by the real-time side; a
 * Linux thread waits for a post, times out, or sees it destroyed.
 */
TEST(semaphores)
{
	struct sem_waiter w = {.fifo = 4, .ms = -1};

	main_task();
	CHECK_EQ(rtf_sem_init(4, 0), -EINVAL);
	CHECK_EQ(rtf_create(4, 100), 0);
	CHECK_EQ(rtf_sem_post(4), -EINVAL);
	CHECK_EQ(rtf_sem_trywait(4), -EINVAL);
	CHECK_EQ(rtf_sem_wait(4), -EINVAL);
	CHECK_EQ(rtf_sem_init(4, 1), 0);
	CHECK_EQ(rtf_sem_trywait(4), 1);
	CHECK_EQ(rtf_sem_trywait(4), 0);
	CHECK_EQ(rtf_sem_post(4), 0);
	CHECK_EQ(rtf_sem_post(4), 0);
	CHECK_EQ(rtf_sem_trywait(4), 1);
	CHECK_EQ(rtf_sem_trywait(4), 0);
	sem_wait_for(&w, rtf_sem_post);
	CHECK_EQ(w.ret, 0);
	CHECK_EQ(rtf_sem_trywait(4), 0);
	/* Up already: no wait. */
	CHECK_EQ(rtf_sem_init(4, 5), 0);
	CHECK_EQ(rtf_sem_wait(4), 0);
	w.ms = 20;
	sem_wait_for(&w, NULL);
	CHECK_EQ(w.ret, -ETIMEDOUT);
	w.ms = -1;
	sem_wait_for(&w, rtf_sem_destroy);
	CHECK_EQ(w.ret, -EINVAL);
	CHECK_EQ(rtf_sem_destroy(4), -EINVAL);
	CHECK_EQ(rtf_sem_timed_wait(4, 10), -EINVAL);
	CHECK_EQ(rtf_sem_init(4, 0), 0);
	CHECK_EQ(rtf_sem_timed_wait(4, -1), -EINVAL);
	CHECK_EQ(rtf_sem_init(4, -1), -EINVAL);
	/* The FIFO takes its semaphore with it. */
	CHECK_EQ(rtf_destroy(4), 0);
	CHECK_EQ(rtf_sem_post(4), -EINVAL);
	CHECK_EQ(rtf_sem_init(RTF_NO, 0), -ENODEV);
	CHECK_EQ(rtf_sem_post(RTF_NO), -ENODEV);
	CHECK_EQ(rtf_sem_trywait(RTF_NO), -ENODEV);
	CHECK_EQ(rtf_sem_wait(RTF_NO), -ENODEV);
	CHECK_EQ(rtf_sem_timed_wait(RTF_NO, 1), -ENODEV);
	CHECK_EQ(rtf_sem_destroy(RTF_NO), -ENODEV);
}

TEST(fifo_bad_input)
{
	char buf[4];

	main_task();
	CHECK_EQ(rtf_create(RTF_NO, 10), -ENODEV);
	CHECK_EQ(rtf_create(1, 0), -EINVAL);
	CHECK_EQ(rtf_create(1, -1), -EINVAL);
	CHECK_EQ(rtf_destroy(RTF_NO), -ENODEV);
	CHECK_EQ(rtf_put(RTF_NO, buf, 1), -ENODEV);
	CHECK_EQ(rtf_get(RTF_NO, buf, 1), -ENODEV);
	CHECK_EQ(rtf_reset(RTF_NO), -ENODEV);
	CHECK_EQ(rtf_get_avbs(RTF_NO), -ENODEV);
	CHECK_EQ(rtf_get_frbs(RTF_NO), -ENODEV);
	CHECK_EQ(fusion_rtf_open(RTF_NO), -ENOENT);
	CHECK_EQ(rtf_destroy(5), -EINVAL);
	CHECK_EQ(rtf_put(5, buf, 1), -EINVAL);
	CHECK_EQ(rtf_get(5, buf, 1), -EINVAL);
	CHECK_EQ(rtf_reset(5), -EINVAL);
	CHECK_EQ(rtf_get_avbs(5), -EINVAL);
	CHECK_EQ(rtf_get_frbs(5), -EINVAL);
	CHECK_EQ(rtf_create(5, 16), 0);
	CHECK_EQ(rtf_put(5, NULL, 1), -EINVAL);
	CHECK_EQ(rtf_put(5, buf, -1), -EINVAL);
	CHECK_EQ(rtf_get(5, NULL, 1), -EINVAL);
	CHECK_EQ(rtf_get(5, buf, -1), -EINVAL);
	/* Left for the instance's end: it deletes it. */
}

TESTS(T(both_ways), T(opens_and_reset), T(free_bytes), T(resize), T(semaphores),
      T(fifo_bad_input));
