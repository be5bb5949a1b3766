/* SPDX-License-Identifier: MIT */
/*
 * Wake-up latency of a periodic RTAI task, written as an LXRT program
 * would be: a hard real-time task at priority 0 made periodic with
 * rt_task_make_periodic(), each rt_task_wait_period() release dated
 * with rt_get_time_ns() against its due date.
 *
 *   bench_rtai_latency [-p PERIOD_US] [-T SECONDS] [-H BUCKETS] [-B NS]
 *                      [-g HISTOGRAM_FILE] [-q]
 *
 * The options, the histogram file (a bucket's lower edge in us and its
 * count per line, the last counting everything above) and the RTS line
 * (min, avg and max in us, overruns) are those of `fusion latency`, so
 * that bench/latency-vs-cyclictest can run either against cyclictest
 * (its fourth argument: rtai).  -q is accepted and changes nothing: the
 * RTS line is all this prints.
 */
#include <rtai/rtai_lxrt.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long period_us = 1000, seconds = 10, buckets = 1000, bucket_ns = 1000;
static const char *histogram_file;
static long *histogram;
static long samples, overruns;
static RTIME best_ns = LLONG_MAX, worst_ns, total_ns;

static void *sampler(void *arg)
{
	RT_TASK *task;
	RTIME period, due, late;
	long count = seconds * 1000000 / period_us;

	(void)arg;
	task = rt_task_init_schmod(nam2num("LATSMP"), 0, 0, 0, SCHED_FIFO, 0);
	if (task == NULL)
		return NULL;
	rt_make_hard_real_time();
	period = nano2count(period_us * 1000);
	due = rt_get_time() + period;
	rt_task_make_periodic(task, due, period);
	for (long i = 0; i < count; i++) {
		overruns += rt_task_wait_period() == RTE_TMROVRN;
		due += period;
		late = rt_get_time_ns() - count2nano(due);
		if (late < 0)
			late = 0;
		histogram[late / bucket_ns < buckets ? late / bucket_ns
						     : buckets]++;
		total_ns += late;
		if (late < best_ns)
			best_ns = late;
		if (late > worst_ns)
			worst_ns = late;
		samples++;
	}
	rt_make_soft_real_time();
	rt_task_delete(task);
	return NULL;
}

static int write_histogram(void)
{
	FILE *f = fopen(histogram_file, "w");

	if (f == NULL)
		return -1;
	fprintf(f, "# bench_rtai_latency histogram: latency_us samples\n");
	for (long i = 0; i <= buckets; i++)
		fprintf(f, "%.3f %ld\n", i * bucket_ns / 1e3, histogram[i]);
	return fclose(f);
}

int main(int argc, char **argv)
{
	int opt;
	long th;

	while ((opt = getopt(argc, argv, "p:T:H:B:g:q")) != -1) {
		switch (opt) {
		case 'p':
			period_us = atol(optarg);
			break;
		case 'T':
			seconds = atol(optarg);
			break;
		case 'H':
			buckets = atol(optarg);
			break;
		case 'B':
			bucket_ns = atol(optarg);
			break;
		case 'g':
			histogram_file = optarg;
			break;
		case 'q':
			break;
		default:
			goto usage;
		}
	}
	if (period_us <= 0 || seconds <= 0 || buckets <= 0 || bucket_ns <= 0)
		goto usage;
	histogram = calloc((size_t)buckets + 1, sizeof(*histogram));
	if (histogram == NULL ||
	    rt_task_init(nam2num("LATMAI"), 100, 0, 0) == NULL)
		return 1;
	rt_set_oneshot_mode();
	start_rt_timer(0);
	th = rt_thread_create(sampler, NULL, 0);
	if (th == 0 || rt_thread_join(th) || samples == 0)
		return 1;
	if (histogram_file && write_histogram())
		return 1;
	printf("RTS|%11.3f|%11.3f|%11.3f|%8ld|\n", best_ns / 1e3,
	       total_ns / 1e3 / samples, worst_ns / 1e3, overruns);
	stop_rt_timer();
	rt_task_delete(NULL);
	free(histogram);
	return 0;
usage:
	fprintf(stderr,
		"usage: %s [-p PERIOD_US] [-T SECONDS] [-H BUCKETS] "
		"[-B NS] [-g FILE] [-q]\n",
		argv[0]);
	return 2;
}
