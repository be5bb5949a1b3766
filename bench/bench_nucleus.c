/* SPDX-License-Identifier: MIT */
/*
 * Nucleus cost per operation on the sim backend.
 *
 *   bench_nucleus MODE [ARGS] ITER
 *
 * Each mode sets up its objects, then runs ITER iterations of one
 * operation inside a function of its own (bench_op_<mode>, never
 * inlined nor cloned, so its symbol keeps that name).  Under
 *
 *   valgrind --tool=callgrind --toggle-collect='bench_op_*'
 *
 * only the instructions executed inside those functions (and what they
 * call) are counted, so setup and teardown cost nothing.  The run ends
 * with one line
 *
 *   RESULT <mode> ops=<n> wall_ns_per_op=<x>
 *
 * where n is the number of operations the count is to be divided by and
 * x the wall-clock time per operation of this run (meaningful natively,
 * not under valgrind).
 *
 * On sim every nucleus thread is an OS thread, and a context switch
 * hands a baton from one to the next through futexes: callgrind counts
 * the user-space instructions on both sides of the switch, not the time
 * spent in the kernel.
 */
#include <fusion/fusion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_OP __attribute__((noinline, noclone))

#define MAIN_PRIO 200
#define SEC 1000000000LL

static struct nk_instance *nk;
static volatile bool stop;
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void)
{
	/* xorshift64: the same sequence on every run. */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void die(const char *what, int ret)
{
	fprintf(stderr, "bench_nucleus: %s: %d (%s)\n", what, ret,
		strerror(ret < 0 ? -ret : ret));
	exit(1);
}

static void check(const char *what, int ret)
{
	if (ret != 0)
		die(what, ret);
}

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void instance_up(void)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .main_priority = MAIN_PRIO,
	};

	check("nk_instance_create", nk_instance_create(&attr, &nk));
}

static struct nk_thread *spawn(int prio, nk_thread_fn body)
{
	struct nk_thread_attr attr = {
	    .priority = prio,
	    .stack_size = 64 * 1024,
	};
	struct nk_thread *thread;

	check("nk_thread_create", nk_thread_create(nk, &attr, &thread));
	check("nk_thread_start", nk_thread_start(thread, body, NULL));
	return thread;
}

static void idle_body(void *arg)
{
	(void)arg;
}

/* Ready threads below main, at priorities spread over 1..MAIN_PRIO-1. */
static struct nk_thread **spawn_ready(int n)
{
	struct nk_thread **threads = calloc((size_t)n + 1, sizeof(*threads));

	if (threads == NULL)
		die("calloc", -ENOMEM);
	for (int i = 0; i < n; i++)
		threads[i] =
		    spawn(1 + (int)((long)i * (MAIN_PRIO - 2) / n), idle_body);
	return threads;
}

static void report(const char *mode, long ops, double ns)
{
	printf("RESULT %s ops=%ld wall_ns_per_op=%.1f\n", mode, ops, ns / ops);
}

/* --- switch: two equal threads yield to each other --- */

static BENCH_OP void bench_op_switch_peer(void)
{
	while (!stop)
		check("nk_thread_yield", nk_thread_yield(nk));
}

static void switch_peer_body(void *arg)
{
	(void)arg;
	bench_op_switch_peer();
}

static BENCH_OP void bench_op_switch(long iter)
{
	for (long i = 0; i < iter; i++)
		check("nk_thread_yield", nk_thread_yield(nk));
}

/* Each yield of either side is one switch: 2 * @iter in all. */
static void run_switch(int nr_ready, long iter)
{
	double t0;

	instance_up();
	free(spawn_ready(nr_ready));
	spawn(MAIN_PRIO, switch_peer_body);
	t0 = wall_ns();
	bench_op_switch(iter);
	t0 = wall_ns() - t0;
	/* Let the peer leave its measured loop before it is killed. */
	stop = true;
	check("nk_thread_yield", nk_thread_yield(nk));
	check("nk_instance_destroy", nk_instance_destroy(nk));
	report("switch", 2 * iter, t0);
}

/* --- sem-pingpong: a give wakes a more urgent taker --- */

static struct nk_sem ping, pong;

static BENCH_OP void bench_op_sem_pingpong_peer(void)
{
	for (;;) {
		check("nk_sem_take",
		      nk_sem_take(&ping, NK_INFINITE, NK_RELATIVE));
		if (stop)
			return;
		check("nk_sem_give", nk_sem_give(&pong));
	}
}

static void pingpong_peer_body(void *arg)
{
	(void)arg;
	bench_op_sem_pingpong_peer();
}

/*
 * One iteration: main gives ping, the peer (more urgent) preempts it,
 * takes ping, gives pong (nobody waits: count 1) and blocks on ping
 * again; main resumes and takes pong without waiting.  Two switches,
 * two gives, two takes.
 */
static BENCH_OP void bench_op_sem_pingpong(long iter)
{
	for (long i = 0; i < iter; i++) {
		check("nk_sem_give", nk_sem_give(&ping));
		check("nk_sem_take",
		      nk_sem_take(&pong, NK_INFINITE, NK_RELATIVE));
	}
}

static void run_sem_pingpong(long iter)
{
	double t0;

	instance_up();
	check("nk_sem_init",
	      nk_sem_init(nk, &ping, "ping", 0, 0, NK_SYNCH_PRIO));
	check("nk_sem_init",
	      nk_sem_init(nk, &pong, "pong", 0, 0, NK_SYNCH_PRIO));
	spawn(MAIN_PRIO + 1, pingpong_peer_body);
	t0 = wall_ns();
	bench_op_sem_pingpong(iter);
	t0 = wall_ns() - t0;
	stop = true;
	check("nk_sem_give", nk_sem_give(&ping));
	check("nk_instance_destroy", nk_instance_destroy(nk));
	report("sem-pingpong", iter, t0);
}

/* --- sem: give with nobody waiting, take with a unit available --- */

static struct nk_sem sem;

static BENCH_OP void bench_op_sem(long iter)
{
	for (long i = 0; i < iter; i++) {
		check("nk_sem_give", nk_sem_give(&sem));
		check("nk_sem_take",
		      nk_sem_take(&sem, NK_INFINITE, NK_RELATIVE));
	}
}

static void run_sem(long iter)
{
	double t0;

	instance_up();
	check("nk_sem_init", nk_sem_init(nk, &sem, "sem", 0, 0, 0));
	t0 = wall_ns();
	bench_op_sem(iter);
	t0 = wall_ns() - t0;
	check("nk_instance_destroy", nk_instance_destroy(nk));
	report("sem", iter, t0);
}

/* --- ready-block: dequeue/enqueue a ready thread, no switch --- */

static BENCH_OP void bench_op_ready_block(struct nk_thread **threads, int n,
					  long iter)
{
	for (long i = 0; i < iter; i++) {
		struct nk_thread *thread = threads[i % n];

		check("nk_thread_suspend", nk_thread_suspend(thread));
		check("nk_thread_resume", nk_thread_resume(thread));
	}
}

/*
 * @n threads wait in the ready queue below main; each iteration
 * suspends one (out of the ready queue) and resumes it (back in), in
 * turn.  Neither preempts main, so nothing switches.
 */
static void run_ready_block(int n, long iter)
{
	struct nk_thread **threads;
	double t0;

	instance_up();
	threads = spawn_ready(n);
	t0 = wall_ns();
	bench_op_ready_block(threads, n, iter);
	t0 = wall_ns() - t0;
	check("nk_instance_destroy", nk_instance_destroy(nk));
	free(threads);
	report("ready-block", iter, t0);
}

/* --- timer: insert and remove one timer among n armed ones --- */

static void never_fires(struct nk_timer *timer)
{
	(void)timer;
	die("timer fired", -EFAULT);
}

/* Dates far enough ahead that virtual time (0) never reaches them. */
static nk_time_t random_date(void)
{
	return SEC + (nk_time_t)(rng_next() % (uint64_t)SEC);
}

/* Lock held once around the loop: the queue cost alone. */
static BENCH_OP void bench_op_timer_locked(struct nk_timer *timer,
					   const nk_time_t *dates, long iter)
{
	nk_lock(nk);
	for (long i = 0; i < iter; i++) {
		check("nk_timer_start_locked",
		      nk_timer_start_locked(timer, dates[i], 0, NK_ABSOLUTE));
		nk_timer_stop_locked(timer);
	}
	nk_unlock(nk);
}

/* The public forms, each taking and releasing the nucleus lock. */
static BENCH_OP void bench_op_timer_api(struct nk_timer *timer,
					const nk_time_t *dates, long iter)
{
	for (long i = 0; i < iter; i++) {
		check("nk_timer_start",
		      nk_timer_start(timer, dates[i], 0, NK_ABSOLUTE));
		check("nk_timer_stop", nk_timer_stop(timer));
	}
}

static void run_timer(bool api, long armed, long iter)
{
	struct nk_timer *timers = calloc((size_t)armed + 1, sizeof(*timers));
	nk_time_t *dates = calloc((size_t)iter, sizeof(*dates));
	struct nk_timer *extra = &timers[armed];
	double t0;

	if (timers == NULL || dates == NULL)
		die("calloc", -ENOMEM);
	instance_up();
	for (long i = 0; i <= armed; i++)
		check("nk_timer_init", nk_timer_init(nk, &timers[i], NULL, 0,
						     never_fires, NULL));
	for (long i = 0; i < armed; i++)
		check(
		    "nk_timer_start",
		    nk_timer_start(&timers[i], random_date(), 0, NK_ABSOLUTE));
	for (long i = 0; i < iter; i++)
		dates[i] = random_date();
	t0 = wall_ns();
	if (api)
		bench_op_timer_api(extra, dates, iter);
	else
		bench_op_timer_locked(extra, dates, iter);
	t0 = wall_ns() - t0;
	for (long i = 0; i <= armed; i++)
		check("nk_timer_destroy", nk_timer_destroy(&timers[i]));
	check("nk_instance_destroy", nk_instance_destroy(nk));
	free(dates);
	free(timers);
	report(api ? "timer-api" : "timer", iter, t0);
}

/* --- command line --- */

static void usage(void)
{
	fprintf(stderr,
		"usage: bench_nucleus MODE [ARGS] ITER\n"
		"  switch NR_READY ITER      yield ping-pong, NR_READY threads "
		"ready below\n"
		"  sem-pingpong ITER         give/take round trip, 2 switches\n"
		"  sem ITER                  give (no waiter) + take (count > "
		"0)\n"
		"  ready-block NR_READY ITER suspend + resume of a ready "
		"thread\n"
		"  timer NR_ARMED ITER       start_locked + stop_locked, "
		"NR_ARMED armed\n"
		"  timer-api NR_ARMED ITER   nk_timer_start + nk_timer_stop\n");
	exit(2);
}

static long number(const char *s, long min)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	const char *mode;

	if (argc < 3)
		usage();
	mode = argv[1];
	if (!strcmp(mode, "sem-pingpong") && argc == 3)
		run_sem_pingpong(number(argv[2], 1));
	else if (!strcmp(mode, "sem") && argc == 3)
		run_sem(number(argv[2], 1));
	else if (!strcmp(mode, "switch") && argc == 4)
		run_switch((int)number(argv[2], 0), number(argv[3], 1));
	else if (!strcmp(mode, "ready-block") && argc == 4)
		run_ready_block((int)number(argv[2], 1), number(argv[3], 1));
	else if (!strcmp(mode, "timer") && argc == 4)
		run_timer(false, number(argv[2], 0), number(argv[3], 1));
	else if (!strcmp(mode, "timer-api") && argc == 4)
		run_timer(true, number(argv[2], 0), number(argv[3], 1));
	else
		usage();
	return 0;
}
