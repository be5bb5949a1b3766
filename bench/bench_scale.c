/* SPDX-License-Identifier: MIT */
/*
 * Scale of one sim instance: 10,000 threads and 100,000 timers.
 *
 * Every thread (64 KiB stack) sleeps a pseudo-random time of up to 1 s
 * and exits; every one-shot timer fires at a pseudo-random date of up
 * to 1 s and counts its firing.  The run must complete with every
 * thread done and every timer fired; it prints the wall-clock time of
 * each phase, the final virtual time and the memory each thread costs:
 *
 * - RSS per thread (VmRSS delta / threads) once created (dormant: the
 *   OS thread exists and waits on its gate) and once every thread has
 *   run up to its sleep.  It includes what the OS thread touched of its
 *   stack (and its TLS and pthread descriptor, which live there).
 * - heap per thread: malloc'd bytes (mallinfo2) per thread, i.e. the
 *   nucleus TCB plus the backend's shadow descriptor, allocator
 *   overhead included.  The stacks are mmap'd, not counted here.
 * - kernel stack per OS thread, from the system-wide KernelStack of
 *   /proc/meminfo: kernel memory, outside RSS.
 *
 *   bench_scale [THREADS [TIMERS]]
 */
#include <fusion/fusion.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define MAIN_PRIO 50
#define THREAD_PRIO 10
#define STACK_SIZE (64 * 1024)
#define MS 1000000LL
#define SEC 1000000000LL

static struct nk_instance *nk;
/* Main waits here until every thread and timer is done (lock held). */
static struct nk_synch done;
static long nr_threads = 10000, nr_timers = 100000;
static long threads_completed, timers_fired;
static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng_next(void)
{
	/* xorshift64: the same dates on every run. */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A pseudo-random date or delay in [1 ms, 1 s]. */
static nk_time_t random_delay(void)
{
	return MS + (nk_time_t)(rng_next() % (uint64_t)(SEC - MS + 1));
}

static void die(const char *what, int ret)
{
	fprintf(stderr, "bench_scale: %s: %d (%s)\n", what, ret,
		strerror(ret < 0 ? -ret : ret));
	exit(1);
}

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A "Name:   value kB" field of a /proc file, in kB. */
static long proc_kb(const char *path, const char *field)
{
	size_t len = strlen(field);
	char line[256];
	long kb = -1;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, len) && line[len] == ':') {
			kb = strtol(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return kb;
}

static long status_kb(const char *field)
{
	return proc_kb("/proc/self/status", field);
}

/* System-wide: other processes' thread churn blurs it a little. */
static long kernel_stack_kb(void)
{
	return proc_kb("/proc/meminfo", "KernelStack");
}

static long heap_bytes(void)
{
	return (long)mallinfo2().uordblks;
}

static long read_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static bool all_done(void)
{
	return threads_completed == nr_threads && timers_fired == nr_timers;
}

/*
 * The last unit of work (a thread or a timer) wakes main.  Lock held:
 * timer handlers run with it, so the lock-taking nk_sem_give() would
 * deadlock there.
 */
static void count_done(long *counter)
{
	++*counter;
	if (all_done())
		nk_synch_wakeup_one(&done);
}

static void thread_body(void *arg)
{
	nk_time_t *delay = arg;
	int ret = nk_thread_sleep(nk, *delay, NK_RELATIVE);

	if (ret)
		die("nk_thread_sleep", ret);
	nk_lock(nk);
	count_done(&threads_completed);
	nk_sched_run(nk);
	nk_unlock(nk);
}

/* Interrupt context, nucleus lock held. */
static void timer_fired(struct nk_timer *timer)
{
	(void)timer;
	count_done(&timers_fired);
}

static void check_limits(void)
{
	struct rlimit nproc;
	long threads_max = read_long("/proc/sys/kernel/threads-max");
	long pid_max = read_long("/proc/sys/kernel/pid_max");
	long maps = read_long("/proc/sys/vm/max_map_count");

	getrlimit(RLIMIT_NPROC, &nproc);
	printf("limits: ulimit -u %s%ld, threads-max %ld, pid_max %ld, "
	       "max_map_count %ld\n",
	       nproc.rlim_cur == RLIM_INFINITY ? "unlimited " : "",
	       nproc.rlim_cur == RLIM_INFINITY ? 0L : (long)nproc.rlim_cur,
	       threads_max, pid_max, maps);
	/* Each thread needs a task (pid) and two mappings (stack, guard). */
	if ((nproc.rlim_cur != RLIM_INFINITY &&
	     (long)nproc.rlim_cur <= nr_threads) ||
	    (threads_max >= 0 && threads_max <= nr_threads) ||
	    (pid_max >= 0 && pid_max <= nr_threads) ||
	    (maps >= 0 && maps <= 2 * nr_threads + 1000))
		printf("warning: these limits may be too low for %ld "
		       "threads\n",
		       nr_threads);
}

int main(int argc, char **argv)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .main_priority = MAIN_PRIO,
	};
	struct nk_thread_attr tattr = {
	    .priority = THREAD_PRIO,
	    .stack_size = STACK_SIZE,
	};
	struct nk_thread **threads;
	struct nk_timer *timers;
	nk_time_t *delays;
	long rss0, rss1, rss2, rss3, heap0, heap1, kstack0, kstack1;
	double t0, t_create, t_start, t_arm, t_run, t_destroy;
	nk_time_t end_date;
	int ret;
	bool ok;

	if (argc > 1)
		nr_threads = strtol(argv[1], NULL, 10);
	if (argc > 2)
		nr_timers = strtol(argv[2], NULL, 10);
	if (nr_threads < 1 || nr_timers < 0) {
		fprintf(stderr, "usage: bench_scale [THREADS [TIMERS]]\n");
		return 2;
	}
	check_limits();
	threads = calloc((size_t)nr_threads, sizeof(*threads));
	delays = calloc((size_t)nr_threads, sizeof(*delays));
	timers = calloc((size_t)nr_timers + 1, sizeof(*timers));
	if (threads == NULL || delays == NULL || timers == NULL)
		die("calloc", -ENOMEM);
	for (long i = 0; i < nr_threads; i++)
		delays[i] = random_delay();

	ret = nk_instance_create(&attr, &nk);
	if (ret)
		die("nk_instance_create", ret);
	ret = nk_synch_init(nk, &done, "done", NK_SYNCH_FIFO, 0);
	if (ret)
		die("nk_synch_init", ret);

	rss0 = status_kb("VmRSS");
	heap0 = heap_bytes();
	kstack0 = kernel_stack_kb();
	t0 = wall_s();
	for (long i = 0; i < nr_threads; i++) {
		ret = nk_thread_create(nk, &tattr, &threads[i]);
		if (ret)
			die("nk_thread_create", ret);
	}
	t_create = wall_s() - t0;
	rss1 = status_kb("VmRSS");
	heap1 = heap_bytes();
	kstack1 = kernel_stack_kb();

	/* Less urgent than main: they first run when main sleeps. */
	t0 = wall_s();
	for (long i = 0; i < nr_threads; i++) {
		ret = nk_thread_start(threads[i], thread_body, &delays[i]);
		if (ret)
			die("nk_thread_start", ret);
	}
	t_start = wall_s() - t0;

	t0 = wall_s();
	for (long i = 0; i < nr_timers; i++) {
		ret = nk_timer_init(nk, &timers[i], NULL, 0, timer_fired, NULL);
		if (ret == 0)
			ret = nk_timer_start(&timers[i], random_delay(), 0,
					     NK_ABSOLUTE);
		if (ret)
			die("nk_timer_start", ret);
	}
	t_arm = wall_s() - t0;
	rss2 = status_kb("VmRSS");

	/*
	 * Sleep 1 ns: every thread runs up to its own sleep (1 ms at the
	 * earliest) before virtual time moves; then wait for the end.
	 */
	t0 = wall_s();
	ret = nk_thread_sleep(nk, 1, NK_ABSOLUTE);
	if (ret)
		die("nk_thread_sleep", ret);
	rss3 = status_kb("VmRSS");
	nk_lock(nk);
	while (!all_done() && ret == 0)
		ret = nk_synch_sleep(&done, NK_INFINITE, NK_RELATIVE);
	nk_unlock(nk);
	if (ret)
		die("nk_synch_sleep", ret);
	t_run = wall_s() - t0;
	end_date = nk_now(nk);

	t0 = wall_s();
	for (long i = 0; i < nr_timers; i++)
		nk_timer_destroy(&timers[i]);
	nk_synch_destroy(&done);
	ret = nk_instance_destroy(nk);
	if (ret)
		die("nk_instance_destroy", ret);
	t_destroy = wall_s() - t0;

	ok = threads_completed == nr_threads && timers_fired == nr_timers;
	printf("threads: %ld created (stack %d KiB), %ld completed%s\n",
	       nr_threads, STACK_SIZE / 1024, threads_completed,
	       threads_completed == nr_threads ? "" : "  MISMATCH");
	printf("timers: %ld armed, %ld fired%s\n", nr_timers, timers_fired,
	       timers_fired == nr_timers ? "" : "  MISMATCH");
	printf("virtual time at the end: %lld ns\n", (long long)end_date);
	printf("wall time: create %.3f s, start %.3f s, arm timers %.3f s, "
	       "run %.3f s, destroy %.3f s\n",
	       t_create, t_start, t_arm, t_run, t_destroy);
	printf("memory per thread: RSS %.1f KiB created, %.1f KiB after "
	       "running to its sleep; heap %.0f bytes (TCB + shadow)\n",
	       (double)(rss1 - rss0) / nr_threads,
	       (double)(rss3 - rss2 + rss1 - rss0) / nr_threads,
	       (double)(heap1 - heap0) / nr_threads);
	printf("kernel stack per OS thread (system KernelStack delta, not in "
	       "RSS): %.1f KiB\n",
	       (double)(kstack1 - kstack0) / nr_threads);
	if (nr_timers > 0)
		printf("memory per timer: sizeof(struct nk_timer) %zu bytes, "
		       "RSS %.0f bytes\n",
		       sizeof(struct nk_timer),
		       (double)(rss2 - rss1) * 1024 / nr_timers);
	printf("VmRSS: %ld KiB before, %ld created, %ld timers armed, %ld "
	       "threads asleep; peak (VmHWM) %ld KiB\n",
	       rss0, rss1, rss2, rss3, status_kb("VmHWM"));
	free(timers);
	free(delays);
	free(threads);
	printf("%s\n", ok ? "OK" : "FAILED");
	return ok ? 0 : 1;
}
