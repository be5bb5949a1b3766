/* SPDX-License-Identifier: MIT */
/*
 * An RT task reports its status through an RT_PIPE every 10 ms; a plain
 * Linux thread reads the reports with poll() + read() and prints them.
 * The RT side never waits for Linux: rt_pipe_write() queues and returns.
 *
 * Xenomai 3 code, but for one line: the Linux side opens the pipe with
 * fusion_pipe_open(minor) where Xenomai opens "/dev/rtp<minor>".
 *
 * Build outside the Fusion tree, as with Xenomai's xeno-config:
 *   cc $(fusion-config --skin=alchemy --cflags) pipe_reader.c \
 *      $(fusion-config --skin=alchemy --ldflags) -o pipe_reader
 * Run: ./pipe_reader (live), ./pipe_reader --backend=sim or
 * FUSION_BACKEND=sim ./pipe_reader (virtual time).
 */
#include <alchemy/pipe.h>
#include <alchemy/task.h>
#include <alchemy/timer.h>

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PERIOD_NS 10000000ULL /* 10 ms */
#define REPORTS 50
#define LAST_WORD "bye"

static RT_PIPE status_pipe;
static int rt_error;

/* The RT side: one status message per period, then the last word. */
static void reporter(void *arg)
{
	unsigned long overruns = 0, missed = 0;
	RTIME start = rt_timer_read();
	char msg[80];
	ssize_t ret;
	int len;

	(void)arg;
	rt_error = rt_task_set_periodic(NULL, TM_NOW, PERIOD_NS);
	for (int i = 1; i <= REPORTS && rt_error == 0; i++) {
		ret = rt_task_wait_period(&overruns);
		if (ret == -ETIMEDOUT)
			missed += overruns;
		else if (ret)
			rt_error = (int)ret;
		len = snprintf(msg, sizeof(msg),
			       "status %2d: up %4llu ms, %lu periods missed", i,
			       (rt_timer_read() - start) / 1000000ULL, missed);
		ret = rt_pipe_write(&status_pipe, msg, (size_t)len, P_NORMAL);
		if (ret < 0)
			rt_error = (int)ret;
	}
	ret =
	    rt_pipe_write(&status_pipe, LAST_WORD, strlen(LAST_WORD), P_NORMAL);
	if (ret < 0 && rt_error == 0)
		rt_error = (int)ret;
}

/* The Linux side: an ordinary thread, ordinary file descriptor calls. */
static void *logger(void *arg)
{
	int fd = *(int *)arg, count = 0;
	char buf[128];
	ssize_t n;

	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};

		if (poll(&pfd, 1, 5000) != 1) {
			fprintf(stderr, "logger: nothing for 5 s\n");
			break;
		}
		/* One read, one whole message. */
		n = read(fd, buf, sizeof(buf) - 1);
		if (n <= 0)
			break; /* 0: the pipe was deleted */
		buf[n] = '\0';
		if (strcmp(buf, LAST_WORD) == 0) {
			printf("linux: %d reports received\n", count);
			return NULL;
		}
		printf("linux: %s\n", buf);
		count++;
	}
	return (void *)1;
}

int main(void)
{
	pthread_t linux_thread;
	RT_TASK task;
	void *failed;
	int minor, fd, ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	minor = rt_pipe_create(&status_pipe, "status", P_MINOR_AUTO, 0);
	if (minor < 0) {
		fprintf(stderr, "rt_pipe_create: %s\n", strerror(-minor));
		return 1;
	}
	/* Xenomai: snprintf(dev, ..., "/dev/rtp%d", minor); open(dev, O_RDWR)
	 */
	fd = fusion_pipe_open(minor);
	if (fd < 0) {
		fprintf(stderr, "fusion_pipe_open: %s\n", strerror(-fd));
		return 1;
	}
	ret = pthread_create(&linux_thread, NULL, logger, &fd);
	if (ret) {
		fprintf(stderr, "pthread_create: %s\n", strerror(ret));
		return 1;
	}
	ret =
	    rt_task_spawn(&task, "reporter", 0, 50, T_JOINABLE, reporter, NULL);
	if (ret == 0)
		ret = rt_task_join(&task);
	if (ret) {
		fprintf(stderr, "reporter: %s\n", strerror(-ret));
		return 1;
	}
	/*
	 * The Linux side is served when the RT side idles: at any time on
	 * live, only then on sim.  Idle a moment so that the last messages
	 * leave, then wait for the logger to see the last word.
	 */
	ret = rt_task_sleep(PERIOD_NS);
	pthread_join(linux_thread, &failed);
	close(fd);
	rt_pipe_delete(&status_pipe);
	if (ret || rt_error || failed) {
		fprintf(stderr, "failed: %s\n",
			strerror(-(ret	      ? ret
				   : rt_error ? rt_error
					      : -EIO)));
		return 1;
	}
	return 0;
}
