/* SPDX-License-Identifier: MIT */
/*
 * The floor under every wake-up latency on this machine: one plain
 * SCHED_FIFO thread that sleeps in clock_nanosleep to each release of a
 * period, as cyclictest does, without the nucleus.  bench/latency-vs-
 * cyclictest runs it beside `fusion latency` and cyclictest, so that
 * fusion's own cost (fusion against this) is told apart from the
 * kernel's and the hypervisor's (this against cyclictest).
 *
 * usage: bench_raw_latency [-a CPU] [-P PRIO] [-p US] [-T SECS] [-H BUCKETS]
 *                          -g FILE
 * Writes a histogram of 1-us buckets, "<us> <count>" per line, the last
 * bucket counting everything above; the same format as `fusion latency
 * -g`.
 */
#include "bench_clock.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct raw {
	int cpu, prio;
	long period_us, secs;
	long buckets;
	unsigned long *hist;
	unsigned long overruns;
};

static void *sampler(void *arg)
{
	struct raw *r = arg;
	int64_t period = r->period_us * 1000;
	int64_t next = bench_mono_ns() + period;
	int64_t end = next + r->secs * 1000000000;

	while (next < end) {
		struct timespec at = {next / 1000000000, next % 1000000000};
		int64_t late;

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at,
				       NULL) == EINTR)
			;
		late = bench_mono_ns() - next;
		r->hist[late / 1000 < r->buckets ? late / 1000
						 : r->buckets - 1]++;
		next += period;
		/* Late past the next release: the missed ones are overruns,
		 * not samples (fusion latency counts them alike). */
		while (next <= bench_mono_ns()) {
			next += period;
			r->overruns++;
		}
	}
	return NULL;
}

static long number(const char *text, long lo, long hi)
{
	char *end;
	long v = strtol(text, &end, 10);

	if (*text == '\0' || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "bench_raw_latency: bad number '%s'\n", text);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct raw r = {.cpu = 1,
			.prio = 98,
			.period_us = 1000,
			.secs = 10,
			.buckets = 2000};
	struct sched_param param;
	const char *file = NULL;
	pthread_attr_t attr;
	pthread_t thread;
	cpu_set_t set;
	int opt, zero = 0, dma;
	FILE *out;

	while ((opt = getopt(argc, argv, "a:P:p:T:H:g:")) != -1) {
		switch (opt) {
		case 'a':
			r.cpu = (int)number(optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'P':
			r.prio = (int)number(optarg, 1, 99);
			break;
		case 'p':
			r.period_us = number(optarg, 10, 1000000);
			break;
		case 'T':
			r.secs = number(optarg, 1, 3600);
			break;
		case 'H':
			r.buckets = number(optarg, 1, 1000000);
			break;
		case 'g':
			file = optarg;
			break;
		default:
			return 2;
		}
	}
	if (file == NULL || optind != argc) {
		fprintf(stderr, "usage: bench_raw_latency [-a CPU] [-P PRIO] "
				"[-p US] [-T SECS] [-H BUCKETS] -g FILE\n");
		return 2;
	}
	r.hist = calloc((size_t)r.buckets, sizeof(*r.hist));
	if (r.hist == NULL)
		return 1;
	/* What cyclictest does before it samples. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("bench_raw_latency: mlockall");
	dma = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (dma < 0 || write(dma, &zero, sizeof(zero)) != sizeof(zero))
		perror("bench_raw_latency: /dev/cpu_dma_latency");
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	param.sched_priority = r.prio;
	pthread_attr_setschedparam(&attr, &param);
	CPU_ZERO(&set);
	CPU_SET(r.cpu, &set);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	errno = pthread_create(&thread, &attr, sampler, &r);
	if (errno) {
		perror("bench_raw_latency: SCHED_FIFO thread");
		return 1;
	}
	pthread_join(thread, NULL);
	out = fopen(file, "w");
	if (out == NULL) {
		perror(file);
		return 1;
	}
	fprintf(out,
		"# raw clock_nanosleep histogram: latency_us samples "
		"(%lu overruns)\n",
		r.overruns);
	for (long i = 0; i < r.buckets; i++)
		fprintf(out, "%ld %lu\n", i, r.hist[i]);
	return fclose(out) ? 1 : 0;
}
