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
 *                          [-B NS] [-w nanosleep|poll|futex] -g FILE
 * Writes a histogram of buckets of NS (1000 by default), one line per
 * bucket, its lower edge in us and its count, the last bucket counting
 * everything above: the format of `fusion latency -H BUCKETS -B NS -g`.
 * Prints min, p50, avg and max in ns.
 *
 * -w: how the thread sleeps to each release.  nanosleep, the default:
 * clock_nanosleep to the date, as cyclictest.  The other two are the
 * ways fusion's idle waiter may sleep (src/backend/live/irq.c), so that
 * each one's own cost is told apart: poll, epoll_pwait2 on an empty set
 * with a timeout computed from a clock read just before; futex, a futex
 * wait with the date itself (FUTEX_WAIT_BITSET).
 */
#include "bench_clock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum raw_wait { WAIT_NANOSLEEP, WAIT_POLL, WAIT_FUTEX };

/* -w's names, by enum raw_wait. */
static const char *const wait_names[] = {"nanosleep", "poll", "futex"};
#define NR_WAITS (int)(sizeof(wait_names) / sizeof(wait_names[0]))

struct raw {
	int cpu, prio;
	long period_us, secs;
	long buckets, bucket_ns;
	enum raw_wait wait;
	unsigned long *hist;
	unsigned long overruns;
	int64_t *late; /* every sample, in ns */
	long samples, room;
};

/* Sleep until @next (CLOCK_MONOTONIC, ns) as @r says. */
static void sleep_until(struct raw *r, int epfd, int64_t next)
{
	static uint32_t never; /* nobody wakes it: the date does */
	struct timespec at = {next / 1000000000, next % 1000000000};
	struct epoll_event ev;
	int64_t left;

	switch (r->wait) {
	case WAIT_NANOSLEEP:
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at,
				       NULL) == EINTR)
			;
		break;
	case WAIT_POLL:
		left = next - bench_mono_ns();
		at.tv_sec = left > 0 ? left / 1000000000 : 0;
		at.tv_nsec = left > 0 ? left % 1000000000 : 0;
		epoll_pwait2(epfd, &ev, 1, &at, NULL);
		break;
	case WAIT_FUTEX:
		syscall(SYS_futex, &never, FUTEX_WAIT_BITSET_PRIVATE, 0, &at,
			NULL, FUTEX_BITSET_MATCH_ANY);
		break;
	}
}

static void *sampler(void *arg)
{
	struct raw *r = arg;
	int64_t period = r->period_us * 1000;
	int64_t next = bench_mono_ns() + period;
	int64_t end = next + r->secs * 1000000000;
	int epfd = epoll_create1(EPOLL_CLOEXEC);

	while (next < end) {
		int64_t late;

		sleep_until(r, epfd, next);
		late = bench_mono_ns() - next;
		if (r->samples < r->room)
			r->late[r->samples++] = late;
		r->hist[late / r->bucket_ns < r->buckets ? late / r->bucket_ns
							 : r->buckets]++;
		next += period;
		/* Late past the next release: the missed ones are overruns,
		 * not samples (fusion latency counts them alike). */
		while (next <= bench_mono_ns()) {
			next += period;
			r->overruns++;
		}
	}
	close(epfd);
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void print_summary(struct raw *r)
{
	double sum = 0;

	if (r->samples == 0)
		return;
	qsort(r->late, (size_t)r->samples, sizeof(*r->late), by_value);
	for (long i = 0; i < r->samples; i++)
		sum += (double)r->late[i];
	printf("raw %s: min %lld p50 %lld avg %.0f max %lld ns, %ld samples\n",
	       wait_names[r->wait], (long long)r->late[0],
	       (long long)r->late[r->samples / 2], sum / r->samples,
	       (long long)r->late[r->samples - 1], r->samples);
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
			.buckets = 2000,
			.bucket_ns = 1000};
	struct sched_param param;
	const char *file = NULL;
	pthread_attr_t attr;
	pthread_t thread;
	cpu_set_t set;
	int opt, zero = 0, dma, w;
	FILE *out;

	while ((opt = getopt(argc, argv, "a:P:p:T:H:B:w:g:")) != -1) {
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
		case 'B':
			r.bucket_ns = number(optarg, 1, 1000000000);
			break;
		case 'w':
			w = 0;
			while (w < NR_WAITS && strcmp(optarg, wait_names[w]))
				w++;
			if (w == NR_WAITS)
				return 2;
			r.wait = (enum raw_wait)w;
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
				"[-p US] [-T SECS] [-H BUCKETS] [-B NS] "
				"[-w nanosleep|poll|futex] -g FILE\n");
		return 2;
	}
	r.hist = calloc((size_t)r.buckets + 1, sizeof(*r.hist));
	r.room = r.secs * (1000000 / r.period_us + 1);
	r.late = calloc((size_t)r.room, sizeof(*r.late));
	if (r.hist == NULL || r.late == NULL)
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
	print_summary(&r);
	out = fopen(file, "w");
	if (out == NULL) {
		perror(file);
		return 1;
	}
	fprintf(out,
		"# raw wake-up histogram: latency_us samples "
		"(%lu overruns)\n",
		r.overruns);
	for (long i = 0; i <= r.buckets; i++) {
		long long ns = (long long)i * r.bucket_ns;

		if (r.bucket_ns % 1000 == 0)
			fprintf(out, "%lld %lu\n", ns / 1000, r.hist[i]);
		else
			fprintf(out, "%.3f %lu\n", ns / 1e3, r.hist[i]);
	}
	return fclose(out) ? 1 : 0;
}
