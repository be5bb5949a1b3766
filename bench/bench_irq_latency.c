/* SPDX-License-Identifier: MIT */
/*
 * Device-interrupt latency: eventfd write -> RT thread running, two or
 * three ways, sample by sample in turn in one run.
 *
 *   fusion   the eventfd is an IPIPE_SRC_FD source on the RT CPU; its
 *            head-domain handler reads it and gives a semaphore an RT
 *            nucleus thread (priority 90) waits on.
 *   raw      a SCHED_FIFO thread at the priority the live backend gives
 *            nucleus priority 90, pinned to the same CPU, blocked in
 *            epoll_wait on another eventfd.
 *   raw+SUD  the same raw thread under Syscall User Dispatch, its
 *            selector at ALLOW, as fusion's threads run their own
 *            calls: what the kernel adds to each system call of a
 *            dispatched thread.  Only where the kernel has it (x86-64,
 *            Linux >= 5.11).
 *
 * The same plain writer thread (on another CPU when there is one) writes
 * a CLOCK_MONOTONIC timestamp as the eventfd's value, then waits until
 * the woken side has recorded now - stamp, and pauses before the next
 * sample, which goes to the next side.  Taken in turn, the sides of a
 * round meet the same state of a shared machine, which drifts over a
 * second by more than fusion's own cost.  Prints min, p50, avg, p99 and
 * max in us for each side, the ratios of p50, avg and p99 (issue 16's
 * targets: avg <= 1.1, p99 <= 1.2), and the p50 and mean of one side's
 * sample minus another's of the same round: fusion - raw (fusion's whole
 * cost), raw+SUD - raw (the kernel's share of it) and fusion - raw+SUD
 * (fusion's own path).
 *
 * usage: bench_irq_latency [ROUNDS] [SAMPLES_PER_ROUND] [PAUSE_US]
 * (ROUNDS x SAMPLES_PER_ROUND samples of each side in all; the writer
 * pauses PAUSE_US, 200 by default, before each write: the longer the
 * CPU idles, the colder the caches each side's path meets)
 * The RT CPU is FUSION_CPUS if set, else the last CPU, as the live
 * backend picks it.
 */
#include "bench_clock.h"

#include <fusion/fusion.h>
#include <fusion/pipeline.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define RT_PRIO 90
#define PAUSE_US 200
/* The stamp that ends a raw thread. */
#define STOP_STAMP (UINT64_MAX - 1)

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_ON 1
#endif
#define SUD_ALLOW 0 /* SYSCALL_DISPATCH_FILTER_ALLOW */

enum side { FUSION, RAW, RAW_SUD, NR_SIDES };

static const char *const side_name[NR_SIDES] = {"fusion", "raw", "raw+SUD"};
static struct nk_instance *nk;
static struct nk_sem irq_sem;
static int efds[NR_SIDES];
static _Atomic uint64_t fusion_stamp;
/* Sides sampled in turn: RAW_SUD too where the kernel has SUD. */
static int nr_sides;
/* Samples recorded so far, all sides in turn. */
static _Atomic long done;
static int64_t *lats[NR_SIDES];
static long nr_samples;		 /* of each side */
static long pause_us = PAUSE_US; /* before each write */
/* RAW_SUD's thread: 1 once under SUD, -1 if the kernel refused it. */
static _Atomic int sud_state;
static __thread char sud_selector = SUD_ALLOW;

static int rt_cpu(void)
{
	const char *env = getenv("FUSION_CPUS");
	cpu_set_t set;

	if (env && env[0])
		return atoi(env);
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return 0;
}

static void pin(pthread_attr_t *attr, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

/* Head domain, interrupt context: acknowledge, keep the stamp, wake. */
static void eventfd_irq(unsigned int irq, void *cookie)
{
	uint64_t stamp;

	(void)irq;
	(void)cookie;
	if (read(efds[FUSION], &stamp, sizeof(stamp)) != sizeof(stamp))
		return;
	atomic_store(&fusion_stamp, stamp);
	nk_sem_give(&irq_sem);
}

/* The woken side keeps @lat as its sample of the current round. */
static void record(enum side side, int64_t lat)
{
	long i = atomic_load(&done);

	if (i / nr_sides < nr_samples)
		lats[side][i / nr_sides] = lat;
	atomic_store(&done, i + 1);
}

/* The RT nucleus thread: no system call on its path (nk_now is vDSO). */
static void rt_body(void *arg)
{
	(void)arg;
	while (nk_sem_take(&irq_sem, NK_INFINITE, NK_RELATIVE) == 0)
		record(FUSION,
		       nk_now(nk) - (int64_t)atomic_load(&fusion_stamp));
}

/* No range of code is exempt: every call reads the selector, as a call
 * of fusion's from the C library does. */
static bool sud_on(void)
{
	return prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0,
		     &sud_selector) == 0;
}

/* A raw thread, @arg its side. */
static void *raw_body(void *arg)
{
	enum side side = (enum side)(intptr_t)arg;
	struct epoll_event ev = {.events = EPOLLIN};
	int ep;

	if (side == RAW_SUD) {
		bool on = sud_on();

		atomic_store(&sud_state, on ? 1 : -1);
		if (!on)
			return NULL;
	}
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, efds[side], &ev))
		return NULL;
	for (;;) {
		uint64_t stamp;
		int64_t lat;

		if (epoll_wait(ep, &ev, 1, -1) != 1)
			continue;
		if (read(efds[side], &stamp, sizeof(stamp)) != sizeof(stamp))
			continue;
		lat = bench_mono_ns() - (int64_t)stamp;
		if (stamp == STOP_STAMP)
			break;
		record(side, lat);
	}
	close(ep);
	return NULL;
}

/* Every round: a stamped write to each side's eventfd in turn, each
 * waited for. */
static void *writer_body(void *arg)
{
	struct timespec pause = {.tv_sec = pause_us / 1000000,
				 .tv_nsec = pause_us % 1000000 * 1000};

	(void)arg;
	for (long i = 0; i < nr_sides * nr_samples; i++) {
		int efd = efds[i % nr_sides];
		uint64_t stamp;

		nanosleep(&pause, NULL);
		stamp = (uint64_t)bench_mono_ns();
		if (write(efd, &stamp, sizeof(stamp)) != sizeof(stamp))
			return NULL;
		while (atomic_load(&done) <= i)
			sched_yield();
	}
	return NULL;
}

static int run(int writer_cpu)
{
	pthread_attr_t attr;
	pthread_t writer;
	int ret;

	pthread_attr_init(&attr);
	pin(&attr, writer_cpu);
	ret = pthread_create(&writer, &attr, writer_body, NULL);
	pthread_attr_destroy(&attr);
	if (ret)
		return -ret;
	return -pthread_join(writer, NULL);
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

struct stats {
	double p50, avg, p99;
};

/* Sorts @v (@n values) for its p50, average and p99. */
static struct stats stats_of(int64_t *v, long n)
{
	struct stats st;
	double sum = 0;

	qsort(v, (size_t)n, sizeof(*v), cmp64);
	for (long i = 0; i < n; i++)
		sum += (double)v[i];
	st.p50 = (double)v[n / 2];
	st.avg = sum / (double)n;
	st.p99 = (double)v[(n * 99) / 100];
	return st;
}

/* Side @a's sample minus side @b's of the same round, in @d (from the
 * samples unsorted): @a's cost over @b's, the machine's drift out. */
static struct stats paired(int64_t *d, enum side a, enum side b)
{
	for (long i = 0; i < nr_samples; i++)
		d[i] = lats[a][i] - lats[b][i];
	return stats_of(d, nr_samples);
}

/* A raw thread for @side at @param, pinned to @cpu. */
static int raw_start(pthread_t *thread, enum side side, int cpu,
		     const struct sched_param *param)
{
	pthread_attr_t attr;
	void *arg = (void *)(intptr_t)side;
	int ret;

	pthread_attr_init(&attr);
	pin(&attr, cpu);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, param);
	ret = pthread_create(thread, &attr, raw_body, arg);
	if (ret == EPERM) {
		fprintf(stderr, "bench_irq_latency: no SCHED_FIFO: every path "
				"runs SCHED_OTHER\n");
		pthread_attr_setinheritsched(&attr, PTHREAD_INHERIT_SCHED);
		ret = pthread_create(thread, &attr, raw_body, arg);
	}
	pthread_attr_destroy(&attr);
	return ret;
}

static void print_pair(enum side a, enum side b, struct stats d,
		       const char *what)
{
	printf("%s - %s, pair by pair: p50 %.2f, avg %.2f (us)%s\n",
	       side_name[a], side_name[b], d.p50 / 1e3, d.avg / 1e3, what);
}

static void print_ratios(enum side b, const struct stats *st)
{
	printf("ratios fusion/%s: p50 %.2f, avg %.2f (target <= 1.10), p99 "
	       "%.2f (target <= 1.20)\n",
	       side_name[b], st[FUSION].p50 / st[b].p50,
	       st[FUSION].avg / st[b].avg, st[FUSION].p99 / st[b].p99);
}

int main(int argc, char **argv)
{
	struct nk_instance_attr attr = {.main_priority = 10};
	struct nk_thread_attr rt_attr = {.name = "irq-rt", .priority = RT_PRIO};
	struct sched_param param = {.sched_priority = 1};
	pid_t rt_tid;
	struct ipipe_source src = {.kind = IPIPE_SRC_FD};
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	long per_round = argc > 2 ? atol(argv[2]) : 2000;
	int cpu = rt_cpu(), writer_cpu;
	int64_t *diff;
	struct nk_thread *rt;
	pthread_t raw_threads[NR_SIDES];
	uint64_t stop = STOP_STAMP;
	unsigned int irq;
	struct stats st[NR_SIDES], d[NR_SIDES];

	if (argc > 3)
		pause_us = atol(argv[3]);
	if (rounds <= 0 || per_round <= 0 || pause_us <= 0) {
		fprintf(stderr,
			"usage: %s [ROUNDS] [SAMPLES_PER_ROUND] [PAUSE_US]\n",
			argv[0]);
		return 2;
	}
	writer_cpu = cpu == 0 && sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
	nr_samples = rounds * per_round;
	diff = calloc((size_t)nr_samples, sizeof(*diff));
	if (diff == NULL)
		return 1;
	for (int i = 0; i < NR_SIDES; i++) {
		lats[i] = calloc((size_t)nr_samples, sizeof(*lats[i]));
		efds[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (lats[i] == NULL || efds[i] < 0)
			return 1;
	}

	if (nk_instance_create(&attr, &nk)) {
		fprintf(stderr, "bench_irq_latency: no nucleus instance\n");
		return 1;
	}
	src.fd = efds[FUSION];
	if (nk_sem_init(nk, &irq_sem, "irq", 0, 0, 0) ||
	    ipipe_attach_source(nk, &src, 0, &irq) ||
	    ipipe_virtualize_irq(ipipe_head_domain(nk), irq, eventfd_irq, NULL,
				 IPIPE_HANDLE) ||
	    nk_thread_create(nk, &rt_attr, &rt) ||
	    nk_thread_start(rt, rt_body, NULL))
		return 1;
	/* The raw threads at the SCHED_FIFO priority the backend gave the
	 * nucleus thread (FUSION_FIFO_RANGE decides it). */
	if (nk_thread_host(rt, &rt_tid, NULL) == 0)
		sched_getparam(rt_tid, &param);
	if (param.sched_priority < 1) /* no SCHED_FIFO: tried, refused below */
		param.sched_priority = 1;
	nr_sides = NR_SIDES;
	for (int i = RAW; i < NR_SIDES; i++)
		if (raw_start(&raw_threads[i], (enum side)i, cpu, &param))
			return 1;
	while (atomic_load(&sud_state) == 0)
		sched_yield();
	if (atomic_load(&sud_state) < 0) {
		pthread_join(raw_threads[RAW_SUD], NULL);
		nr_sides = RAW_SUD;
	}

	/* Main waits in Linux calls from here on: off the RT CPU's nucleus
	 * scheduling, as Syscall User Dispatch would make it on its first
	 * call, and without it too (FUSION_NO_SUD, other architectures). */
	if (nk_thread_relax(nk) || run(writer_cpu))
		return 1;
	for (int i = RAW; i < nr_sides; i++) {
		if (write(efds[i], &stop, sizeof(stop)) != sizeof(stop))
			return 1;
		pthread_join(raw_threads[i], NULL);
	}

	printf("%ld samples per side in turn, %ld us apart, RT CPU %d, "
	       "writer CPU %d, FIFO %d (nucleus %d)%s\n",
	       nr_samples, pause_us, cpu, writer_cpu, param.sched_priority,
	       RT_PRIO,
	       nr_sides < NR_SIDES ? ", no SUD here: no raw+SUD side" : "");
	printf("%-8s %8s %9s %9s %9s %9s %9s  (us)\n", "path", "samples", "min",
	       "p50", "avg", "p99", "max");
	/* Paired before report() sorts each side. */
	d[RAW] = paired(diff, FUSION, RAW);
	if (nr_sides == NR_SIDES) {
		d[RAW_SUD] = paired(diff, FUSION, RAW_SUD);
		d[FUSION] = paired(diff, RAW_SUD, RAW);
	}
	for (int i = 0; i < nr_sides; i++) {
		st[i] = stats_of(lats[i], nr_samples);
		printf("%-8s %8ld %9.2f %9.2f %9.2f %9.2f %9.2f\n",
		       side_name[i], nr_samples, lats[i][0] / 1e3,
		       st[i].p50 / 1e3, st[i].avg / 1e3, st[i].p99 / 1e3,
		       lats[i][nr_samples - 1] / 1e3);
	}
	print_ratios(RAW, st);
	print_pair(FUSION, RAW, d[RAW], "");
	if (nr_sides == NR_SIDES) {
		print_ratios(RAW_SUD, st);
		print_pair(RAW_SUD, RAW, d[FUSION], ": the kernel's, for SUD");
		print_pair(FUSION, RAW_SUD, d[RAW_SUD], ": fusion's own path");
	}

	nk_thread_delete(rt);
	ipipe_virtualize_irq(ipipe_head_domain(nk), irq, NULL, NULL,
			     IPIPE_PASS);
	ipipe_detach_source(nk, irq);
	nk_instance_destroy(nk);
	for (int i = 0; i < NR_SIDES; i++)
		free(lats[i]);
	free(diff);
	return 0;
}
