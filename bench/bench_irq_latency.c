/* SPDX-License-Identifier: MIT */
/*
 * Device-interrupt latency: eventfd write -> RT thread running, two ways,
 * sample by sample in turn in one run.
 *
 *   fusion  the eventfd is an IPIPE_SRC_FD source on the RT CPU; its
 *           head-domain handler reads it and gives a semaphore an RT
 *           nucleus thread (priority 90) waits on.
 *   raw     a SCHED_FIFO thread at the priority the live backend gives
 *           nucleus priority 90, pinned to the same CPU, blocked in
 *           epoll_wait on another eventfd.
 *
 * The same plain writer thread (on another CPU when there is one) writes
 * a CLOCK_MONOTONIC timestamp as the eventfd's value, then waits until
 * the woken side has recorded now - stamp, and pauses before the next
 * sample, which goes to the other side.  Taken in turn, the two sides of
 * a pair meet the same state of a shared machine, which drifts over a
 * second by more than fusion's own cost.  Prints min, p50, avg, p99 and
 * max in us for both, the ratios of p50, avg and p99 (issue 16's
 * targets: avg <= 1.1, p99 <= 1.2), and the p50 and mean of fusion's
 * sample minus the raw one's just after it.
 *
 * usage: bench_irq_latency [ROUNDS] [SAMPLES_PER_ROUND]
 * (ROUNDS x SAMPLES_PER_ROUND samples of each side in all)
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
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define RT_PRIO 90
#define PAUSE_NS 200000L

static struct nk_instance *nk;
static struct nk_sem irq_sem;
static int fusion_efd, raw_efd;
static _Atomic uint64_t fusion_stamp;
/* Samples recorded so far, both sides: fusion's are the even ones. */
static _Atomic long done;
static int64_t *fus, *raw;
static long nr_samples; /* of each side */

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
	if (read(fusion_efd, &stamp, sizeof(stamp)) != sizeof(stamp))
		return;
	atomic_store(&fusion_stamp, stamp);
	nk_sem_give(&irq_sem);
}

/* The woken side keeps @lat as its sample of the current pair. */
static void record(int64_t *side, int64_t lat)
{
	long i = atomic_load(&done);

	if (i / 2 < nr_samples)
		side[i / 2] = lat;
	atomic_store(&done, i + 1);
}

/* The RT nucleus thread: no system call on its path (nk_now is vDSO). */
static void rt_body(void *arg)
{
	(void)arg;
	while (nk_sem_take(&irq_sem, NK_INFINITE, NK_RELATIVE) == 0)
		record(fus, nk_now(nk) - (int64_t)atomic_load(&fusion_stamp));
}

static void *raw_body(void *arg)
{
	struct epoll_event ev = {.events = EPOLLIN};
	int ep = epoll_create1(EPOLL_CLOEXEC);

	(void)arg;
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, raw_efd, &ev))
		return NULL;
	for (;;) {
		uint64_t stamp;
		int64_t lat;

		if (epoll_wait(ep, &ev, 1, -1) != 1)
			continue;
		if (read(raw_efd, &stamp, sizeof(stamp)) != sizeof(stamp))
			continue;
		lat = bench_mono_ns() - (int64_t)stamp;
		if (stamp == UINT64_MAX - 1) /* the stop value */
			break;
		record(raw, lat);
	}
	close(ep);
	return NULL;
}

/* Every pair: a stamped write to fusion's eventfd, then to the raw
 * one, each waited for. */
static void *writer_body(void *arg)
{
	struct timespec pause = {.tv_nsec = PAUSE_NS};

	(void)arg;
	for (long i = 0; i < 2 * nr_samples; i++) {
		int efd = i % 2 ? raw_efd : fusion_efd;
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

static struct stats report(const char *name, int64_t *v, long n)
{
	struct stats st = stats_of(v, n);

	printf("%-8s %8ld %9.2f %9.2f %9.2f %9.2f %9.2f\n", name, n, v[0] / 1e3,
	       st.p50 / 1e3, st.avg / 1e3, st.p99 / 1e3, v[n - 1] / 1e3);
	return st;
}

/* Fusion's sample minus the raw one of its pair, in @d (from the
 * samples unsorted, @n pairs): fusion's own cost, the machine's drift
 * out. */
static struct stats paired(int64_t *d, long n)
{
	for (long i = 0; i < n; i++)
		d[i] = fus[i] - raw[i];
	return stats_of(d, n);
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
	pthread_attr_t pattr;
	pthread_t raw_thread;
	uint64_t stop = UINT64_MAX - 1;
	unsigned int irq;
	struct stats fst, rst, dst;
	int ret;

	if (rounds <= 0 || per_round <= 0) {
		fprintf(stderr, "usage: %s [ROUNDS] [SAMPLES_PER_ROUND]\n",
			argv[0]);
		return 2;
	}
	writer_cpu = cpu == 0 && sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
	nr_samples = rounds * per_round;
	fus = calloc((size_t)nr_samples, sizeof(*fus));
	raw = calloc((size_t)nr_samples, sizeof(*raw));
	diff = calloc((size_t)nr_samples, sizeof(*diff));
	fusion_efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	raw_efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!fus || !raw || !diff || fusion_efd < 0 || raw_efd < 0)
		return 1;

	ret = nk_instance_create(&attr, &nk);
	if (ret) {
		fprintf(stderr, "nk_instance_create: %s\n", strerror(-ret));
		return 1;
	}
	src.fd = fusion_efd;
	if (nk_sem_init(nk, &irq_sem, "irq", 0, 0, 0) ||
	    ipipe_attach_source(nk, &src, 0, &irq) ||
	    ipipe_virtualize_irq(ipipe_head_domain(nk), irq, eventfd_irq, NULL,
				 IPIPE_HANDLE) ||
	    nk_thread_create(nk, &rt_attr, &rt) ||
	    nk_thread_start(rt, rt_body, NULL))
		return 1;
	/* The raw thread at the SCHED_FIFO priority the backend gave the
	 * nucleus thread (FUSION_FIFO_RANGE decides it). */
	if (nk_thread_host(rt, &rt_tid, NULL) == 0)
		sched_getparam(rt_tid, &param);
	if (param.sched_priority < 1) /* no SCHED_FIFO: tried, refused below */
		param.sched_priority = 1;

	pthread_attr_init(&pattr);
	pin(&pattr, cpu);
	pthread_attr_setinheritsched(&pattr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&pattr, SCHED_FIFO);
	pthread_attr_setschedparam(&pattr, &param);
	ret = pthread_create(&raw_thread, &pattr, raw_body, NULL);
	if (ret == EPERM) {
		fprintf(stderr, "bench_irq_latency: no SCHED_FIFO: both paths "
				"run SCHED_OTHER\n");
		pthread_attr_setinheritsched(&pattr, PTHREAD_INHERIT_SCHED);
		ret = pthread_create(&raw_thread, &pattr, raw_body, NULL);
	}
	pthread_attr_destroy(&pattr);
	if (ret)
		return 1;

	if (run(writer_cpu))
		return 1;
	if (write(raw_efd, &stop, sizeof(stop)) != sizeof(stop))
		return 1;
	pthread_join(raw_thread, NULL);

	printf("%ld pairs in turn, RT CPU %d, writer CPU %d, "
	       "FIFO %d (nucleus %d)\n",
	       nr_samples, cpu, writer_cpu, param.sched_priority, RT_PRIO);
	printf("%-8s %8s %9s %9s %9s %9s %9s  (us)\n", "path", "samples", "min",
	       "p50", "avg", "p99", "max");
	dst = paired(diff, nr_samples);
	fst = report("fusion", fus, nr_samples);
	rst = report("raw", raw, nr_samples);
	printf("ratios fusion/raw: p50 %.2f, avg %.2f (target <= 1.10), p99 "
	       "%.2f (target <= 1.20)\n",
	       fst.p50 / rst.p50, fst.avg / rst.avg, fst.p99 / rst.p99);
	printf("fusion - raw, pair by pair: p50 %.2f, avg %.2f (us)\n",
	       dst.p50 / 1e3, dst.avg / 1e3);

	nk_thread_delete(rt);
	ipipe_virtualize_irq(ipipe_head_domain(nk), irq, NULL, NULL,
			     IPIPE_PASS);
	ipipe_detach_source(nk, irq);
	nk_instance_destroy(nk);
	free(fus);
	free(raw);
	free(diff);
	return 0;
}
