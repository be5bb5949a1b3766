/* SPDX-License-Identifier: MIT */
/*
 * A periodic Alchemy task samples every millisecond for two seconds and
 * feeds the samples through an RT_QUEUE to a lower-priority worker
 * task; main waits for both with rt_task_join() and prints a summary.
 * Unchanged Xenomai 3 Alchemy code.
 *
 * Build outside the Fusion tree, as with Xenomai's xeno-config:
 *   cc $(fusion-config --skin=alchemy --cflags) periodic_queue.c \
 *      $(fusion-config --skin=alchemy --ldflags) -o periodic_queue
 * Run: ./periodic_queue (live), ./periodic_queue --backend=sim or
 * FUSION_BACKEND=sim ./periodic_queue (virtual time: runs in a blink).
 */
#include <alchemy/queue.h>
#include <alchemy/task.h>
#include <alchemy/timer.h>

#include <stdio.h>
#include <string.h>

#define PERIOD_NS 1000000ULL /* 1 ms */
#define SAMPLES 2000	     /* 2 s */
#define QUEUE_DEPTH 64

struct sample {
	long seq; /* -1: end of the run */
	RTIME stamp;
};

static RT_QUEUE samples;

static struct {
	long sent, dropped;
	unsigned long overruns;
	int error;
} producer_stats;

static struct {
	long received, out_of_order;
	RTIME worst_delay, total_delay;
	int error;
} worker_stats;

static void producer(void *arg)
{
	struct sample s = {0};
	unsigned long overruns;
	int ret;

	(void)arg;
	ret = rt_task_set_periodic(NULL, TM_NOW, PERIOD_NS);
	if (ret) {
		producer_stats.error = ret;
		return;
	}
	for (s.seq = 0; s.seq < SAMPLES; s.seq++) {
		ret = rt_task_wait_period(&overruns);
		if (ret == -ETIMEDOUT) {
			producer_stats.overruns += overruns;
		} else if (ret) {
			producer_stats.error = ret;
			break;
		}
		s.stamp = rt_timer_read();
		ret = rt_queue_write(&samples, &s, sizeof(s), Q_NORMAL);
		/* The queue is full: the worker lags, the sample is lost. */
		if (ret == -ENOMEM)
			producer_stats.dropped++;
		else if (ret < 0)
			producer_stats.error = ret;
		else
			producer_stats.sent++;
	}
	/* The end marker must not be dropped: wait for room if need be. */
	s.seq = -1;
	while (rt_queue_write(&samples, &s, sizeof(s), Q_NORMAL) == -ENOMEM)
		if (rt_task_sleep(PERIOD_NS))
			break;
}

static void worker(void *arg)
{
	struct sample s;
	long expected = 0;
	RTIME delay;
	ssize_t n;

	(void)arg;
	for (;;) {
		n = rt_queue_read(&samples, &s, sizeof(s), TM_INFINITE);
		if (n != (ssize_t)sizeof(s)) {
			worker_stats.error = n < 0 ? (int)n : -EPROTO;
			return;
		}
		if (s.seq < 0)
			return;
		delay = rt_timer_read() - s.stamp;
		worker_stats.received++;
		worker_stats.total_delay += delay;
		if (delay > worker_stats.worst_delay)
			worker_stats.worst_delay = delay;
		/* Drops leave gaps; anything else is out of order. */
		if (s.seq < expected)
			worker_stats.out_of_order++;
		expected = s.seq + 1;
	}
}

int main(void)
{
	RT_TASK prod, work;
	int ret;

	ret = rt_queue_create(&samples, "samples",
			      QUEUE_DEPTH * sizeof(struct sample), QUEUE_DEPTH,
			      Q_FIFO);
	if (ret) {
		fprintf(stderr, "rt_queue_create: %s\n", strerror(-ret));
		return 1;
	}
	/* The worker first, so that it already waits for the first sample. */
	ret = rt_task_spawn(&work, "worker", 0, 20, T_JOINABLE, worker, NULL);
	if (ret == 0)
		ret = rt_task_spawn(&prod, "producer", 0, 50, T_JOINABLE,
				    producer, NULL);
	if (ret) {
		fprintf(stderr, "rt_task_spawn: %s\n", strerror(-ret));
		return 1;
	}
	ret = rt_task_join(&prod);
	if (ret == 0)
		ret = rt_task_join(&work);
	if (ret) {
		fprintf(stderr, "rt_task_join: %s\n", strerror(-ret));
		return 1;
	}
	rt_queue_delete(&samples);

	printf("producer: %ld samples sent every %llu us, %ld dropped, "
	       "%lu overruns\n",
	       producer_stats.sent, PERIOD_NS / 1000, producer_stats.dropped,
	       producer_stats.overruns);
	printf("worker:   %ld received, %ld out of order, delay avg %llu ns, "
	       "worst %llu ns\n",
	       worker_stats.received, worker_stats.out_of_order,
	       worker_stats.received
		   ? worker_stats.total_delay / (RTIME)worker_stats.received
		   : 0,
	       worker_stats.worst_delay);
	if (producer_stats.error || worker_stats.error) {
		fprintf(stderr, "errors: producer %s, worker %s\n",
			strerror(-producer_stats.error),
			strerror(-worker_stats.error));
		return 1;
	}
	return worker_stats.received == producer_stats.sent &&
		       worker_stats.out_of_order == 0
		   ? 0
		   : 1;
}
