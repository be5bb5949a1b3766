/* SPDX-License-Identifier: MIT */
/*
 * Determinism of the sim backend: a 50-thread random workload (sleeps,
 * CPU consumption, semaphores with timeouts, priority-inheritance
 * mutexes, a bounded producer/consumer queue) traced twice gives the same
 * log byte for byte, and another seed a different one; FUSION_SIM_LOG
 * files are identical across runs and hold the exact expected lines; a
 * deadlock ends the process with status 3 and a report naming what every
 * thread waits for; virtual time restarts at 0 with each instance.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define US 1000LL
#define MS 1000000LL

#define NR_WORKERS 50
#define NR_OPS 200
#define NR_SEMS 4
#define NR_MUTEXES 3
#define QUEUE_LEN 4
#define SEED 0x5eed5eedULL

/* --- trace capture --- */

/* A growing text buffer fed by the trace sink, one line per record. */
struct tlog {
	char *text;
	size_t len, cap;
	unsigned long lines;
};

static void tlog_append(struct tlog *log, const char *s, size_t n)
{
	if (log->len + n + 1 > log->cap) {
		log->cap = (log->len + n + 1) * 2;
		log->text = realloc(log->text, log->cap);
		if (log->text == NULL)
			abort();
	}
	memcpy(log->text + log->len, s, n);
	log->len += n;
	log->text[log->len] = '\0';
}

/* The sink runs with the nucleus lock held: plain memory work only. */
static void tlog_sink(void *ctx, const struct nk_trace_record *rec)
{
	struct tlog *log = ctx;
	char line[256];
	int n = nk_trace_format(rec, line, sizeof(line) - 1);

	if (n < 0 || (size_t)n >= sizeof(line) - 1)
		abort();
	line[n++] = '\n';
	tlog_append(log, line, (size_t)n);
	log->lines++;
}

static void tlog_free(struct tlog *log)
{
	free(log->text);
	memset(log, 0, sizeof(*log));
}

/* Number of @event records in the formatted trace @text. */
static unsigned long count_events(const char *text, const char *event)
{
	unsigned long n = 0;
	char key[32];

	snprintf(key, sizeof(key), " %s ", event);
	for (const char *p = strstr(text, key); p; p = strstr(p + 1, key))
		n++;
	return n;
}

/* --- the random workload --- */

static uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* Uniform in [lo, hi]. */
static nk_time_t draw(uint64_t *state, nk_time_t lo, nk_time_t hi)
{
	return lo + (nk_time_t)(xorshift64(state) % (uint64_t)(hi - lo + 1));
}

/* Bounded queue: "free" counts empty slots, "full" queued items. */
struct queue {
	struct nk_sem free, full;
	struct nk_mutex lock;
	unsigned long items[QUEUE_LEN];
	unsigned int head, count;
	unsigned long produced, consumed;
	unsigned long long produced_sum, consumed_sum;
};

struct worker {
	struct nk_thread *thread;
	uint64_t rng;
	unsigned long seq;
	int ops;
};

/* Outcomes summed over the run, compared between runs too. */
struct outcome {
	unsigned long sem_ok, sem_timeout, mutex_ok, mutex_timeout;
	unsigned long queue_timeout;
	nk_time_t end;
	unsigned long lines;
};

static struct {
	struct nk_instance *nk;
	struct nk_sem sems[NR_SEMS];
	struct nk_mutex mutexes[NR_MUTEXES];
	struct queue queue;
	struct worker workers[NR_WORKERS];
	struct outcome out;
} world;

/* A wait with a finite timeout either succeeds or times out. */
static bool waited(int ret, unsigned long *ok, unsigned long *timedout)
{
	CHECK(ret == 0 || ret == -ETIMEDOUT);
	if (ret == 0)
		(*ok)++;
	else
		(*timedout)++;
	return ret == 0;
}

static void op_sleep(struct worker *w)
{
	CHECK_EQ(nk_thread_sleep(world.nk, draw(&w->rng, 1 * US, 50 * US),
				 NK_RELATIVE),
		 0);
}

static void op_consume(struct worker *w)
{
	CHECK_EQ(nk_consume(world.nk, draw(&w->rng, 1 * US, 30 * US)), 0);
}

static void op_yield(struct worker *w)
{
	(void)w;
	CHECK_EQ(nk_thread_yield(world.nk), 0);
}

static void op_sem_take(struct worker *w)
{
	struct nk_sem *sem = &world.sems[xorshift64(&w->rng) % NR_SEMS];
	nk_time_t timeout = draw(&w->rng, 1 * US, 100 * US);

	waited(nk_sem_take(sem, timeout, NK_RELATIVE), &world.out.sem_ok,
	       &world.out.sem_timeout);
}

static void op_sem_give(struct worker *w)
{
	CHECK_EQ(nk_sem_give(&world.sems[xorshift64(&w->rng) % NR_SEMS]), 0);
}

static void op_mutex(struct worker *w)
{
	struct nk_mutex *mutex =
	    &world.mutexes[xorshift64(&w->rng) % NR_MUTEXES];
	nk_time_t timeout = xorshift64(&w->rng) % 2
				? NK_INFINITE
				: draw(&w->rng, 20 * US, 200 * US);

	if (!waited(nk_mutex_lock(mutex, timeout, NK_RELATIVE),
		    &world.out.mutex_ok, &world.out.mutex_timeout))
		return;
	CHECK(nk_mutex_owner(mutex) == w->thread);
	CHECK_EQ(nk_consume(world.nk, draw(&w->rng, 1 * US, 20 * US)), 0);
	CHECK_EQ(nk_mutex_unlock(mutex), 0);
}

/* Take a unit of @sem (finite timeout), then run the queue update. */
static bool queue_enter(struct worker *w, struct nk_sem *sem)
{
	unsigned long ok = 0;

	if (!waited(
		nk_sem_take(sem, draw(&w->rng, 1 * US, 100 * US), NK_RELATIVE),
		&ok, &world.out.queue_timeout))
		return false;
	CHECK_EQ(nk_mutex_lock(&world.queue.lock, NK_INFINITE, NK_RELATIVE), 0);
	return true;
}

static void queue_leave(struct worker *w, struct nk_sem *sem)
{
	CHECK_EQ(nk_consume(world.nk, draw(&w->rng, 1 * US, 5 * US)), 0);
	CHECK_EQ(nk_mutex_unlock(&world.queue.lock), 0);
	CHECK_EQ(nk_sem_give(sem), 0);
}

static void op_produce(struct worker *w)
{
	struct queue *q = &world.queue;
	unsigned long item = (unsigned long)(w - world.workers) * 1000 + w->seq;

	if (!queue_enter(w, &q->free))
		return;
	CHECK(q->count < QUEUE_LEN);
	q->items[(q->head + q->count++) % QUEUE_LEN] = item;
	q->produced++;
	q->produced_sum += item;
	w->seq++;
	queue_leave(w, &q->full);
}

static void op_dequeue(struct worker *w)
{
	struct queue *q = &world.queue;

	if (!queue_enter(w, &q->full))
		return;
	CHECK(q->count > 0);
	q->consumed++;
	q->consumed_sum += q->items[q->head];
	q->head = (q->head + 1) % QUEUE_LEN;
	q->count--;
	queue_leave(w, &q->free);
}

static const struct {
	int weight;
	void (*run)(struct worker *w);
} workload[] = {
    {12, op_sleep},   {14, op_consume}, {4, op_yield},	  {16, op_sem_take},
    {9, op_sem_give}, {15, op_mutex},	{15, op_produce}, {15, op_dequeue},
};

static void worker_body(void *arg)
{
	struct worker *w = arg;

	for (w->ops = 0; w->ops < NR_OPS; w->ops++) {
		int pick = (int)(xorshift64(&w->rng) % 100);
		size_t i = 0;

		while (pick >= workload[i].weight)
			pick -= workload[i++].weight;
		workload[i].run(w);
	}
}

/* splitmix64: well-spread, never-zero per-thread xorshift states. */
static uint64_t derive_seed(uint64_t seed, unsigned int index)
{
	uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ? z : 1;
}

static void create_objects(struct nk_instance *nk)
{
	char name[NK_NAME_MAX];

	for (int i = 0; i < NR_SEMS; i++) {
		snprintf(name, sizeof(name), "sem%d", i);
		CHECK_EQ(nk_sem_init(nk, &world.sems[i], name, 0, 0,
				     i % 2 ? NK_SYNCH_PRIO : NK_SYNCH_FIFO),
			 0);
	}
	for (int i = 0; i < NR_MUTEXES; i++) {
		snprintf(name, sizeof(name), "mutex%d", i);
		CHECK_EQ(
		    nk_mutex_init(nk, &world.mutexes[i], name, NK_SYNCH_PI, 0),
		    0);
	}
	CHECK_EQ(nk_sem_init(nk, &world.queue.free, "qfree", QUEUE_LEN,
			     QUEUE_LEN, NK_SYNCH_PRIO),
		 0);
	CHECK_EQ(nk_sem_init(nk, &world.queue.full, "qfull", 0, QUEUE_LEN,
			     NK_SYNCH_FIFO),
		 0);
	CHECK_EQ(nk_mutex_init(nk, &world.queue.lock, "qlock", NK_SYNCH_PI, 0),
		 0);
}

/* Mixed priorities over two CPUs; every fifth thread round-robin. */
static void spawn_worker(struct nk_instance *nk, int i, uint64_t seed)
{
	struct worker *w = &world.workers[i];
	char name[NK_NAME_MAX];
	struct nk_thread_attr attr = {
	    .name = name,
	    .priority = 10 + (i % 7) * 5,
	    .policy = i % 5 == 0 ? NK_SCHED_RR : NK_SCHED_FIFO,
	    .quantum = i % 5 == 0 ? 15 * US : 0,
	    .cpu = i % 2,
	    .flags = NK_THREAD_JOINABLE,
	};

	snprintf(name, sizeof(name), "w%02d", i);
	w->rng = derive_seed(seed, (unsigned int)i);
	CHECK_EQ(nk_thread_create(nk, &attr, &w->thread), 0);
	CHECK_EQ(nk_thread_start(w->thread, worker_body, w), 0);
}

static void check_queue_books(void)
{
	struct queue *q = &world.queue;
	unsigned long free_units, full_units;
	unsigned long long queued_sum = 0;

	for (unsigned int i = 0; i < q->count; i++)
		queued_sum += q->items[(q->head + i) % QUEUE_LEN];
	CHECK_EQ(q->produced, q->consumed + q->count);
	CHECK_EQ(q->produced_sum, q->consumed_sum + queued_sum);
	CHECK_EQ(nk_sem_count(&q->free, &free_units), 0);
	CHECK_EQ(nk_sem_count(&q->full, &full_units), 0);
	CHECK_EQ(full_units, q->count);
	CHECK_EQ(free_units, QUEUE_LEN - q->count);
}

static void destroy_objects(void)
{
	for (int i = 0; i < NR_SEMS; i++)
		CHECK_EQ(nk_sem_destroy(&world.sems[i]), 0);
	for (int i = 0; i < NR_MUTEXES; i++)
		CHECK_EQ(nk_mutex_destroy(&world.mutexes[i]), 0);
	CHECK_EQ(nk_sem_destroy(&world.queue.free), 0);
	CHECK_EQ(nk_sem_destroy(&world.queue.full), 0);
	CHECK_EQ(nk_mutex_destroy(&world.queue.lock), 0);
}

/* One whole simulation from @seed; its trace goes to @log. */
static struct outcome run_workload(uint64_t seed, struct tlog *log)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .nr_cpus = 2,
	    .main_priority = 200,
	};

	memset(&world, 0, sizeof(world));
	memset(log, 0, sizeof(*log));
	CHECK_EQ(nk_instance_create(&attr, &world.nk), 0);
	CHECK_EQ(nk_instance_set_trace(world.nk, tlog_sink, log), 0);
	create_objects(world.nk);
	for (int i = 0; i < NR_WORKERS; i++)
		spawn_worker(world.nk, i, seed);
	for (int i = 0; i < NR_WORKERS; i++) {
		CHECK_EQ(nk_thread_join(world.workers[i].thread), 0);
		CHECK_EQ(world.workers[i].ops, NR_OPS);
	}
	check_queue_books();
	world.out.end = nk_now(world.nk);
	destroy_objects();
	CHECK_EQ(nk_instance_set_trace(world.nk, NULL, NULL), 0);
	world.out.lines = log->lines;
	CHECK_EQ(nk_instance_destroy(world.nk), 0);
	return world.out;
}

static void check_same_outcome(const struct outcome *a, const struct outcome *b)
{
	CHECK_EQ(a->sem_ok, b->sem_ok);
	CHECK_EQ(a->sem_timeout, b->sem_timeout);
	CHECK_EQ(a->mutex_ok, b->mutex_ok);
	CHECK_EQ(a->mutex_timeout, b->mutex_timeout);
	CHECK_EQ(a->queue_timeout, b->queue_timeout);
	CHECK_EQ(a->end, b->end);
	CHECK_EQ(a->lines, b->lines);
}

/* Index of the first differing byte, for a readable failure. */
static size_t first_difference(const struct tlog *a, const struct tlog *b)
{
	size_t i = 0;

	while (i < a->len && i < b->len && a->text[i] == b->text[i])
		i++;
	return i;
}

TEST(same_seed_same_trace)
{
	struct tlog first, second;
	struct outcome a = run_workload(SEED, &first);
	struct outcome b = run_workload(SEED, &second);
	size_t diff = first_difference(&first, &second);

	if (diff != first.len || first.len != second.len)
		test_fail(__FILE__, __LINE__,
			  "traces differ at byte %zu:\n%.200s\n--\n%.200s",
			  diff, first.text + diff, second.text + diff);
	check_same_outcome(&a, &b);
	CHECK(first.lines > 20000);
	CHECK(count_events(first.text, "switch") > 2000);
	CHECK(count_events(first.text, "wake") > 1000);
	CHECK(count_events(first.text, "timeout") > 100);
	CHECK(count_events(first.text, "prio") > 100);
	CHECK(count_events(first.text, "ready") > 1000);
	CHECK_EQ(count_events(first.text, "exit"), NR_WORKERS);
	CHECK_EQ(count_events(first.text, "start"), NR_WORKERS);
	/* Both CPUs and every kind of wait took part. */
	CHECK(strstr(first.text, " cpu1 switch ") != NULL);
	CHECK(a.sem_ok > 0 && a.sem_timeout > 0);
	CHECK(a.mutex_ok > 0 && a.mutex_timeout > 0);
	CHECK(world.queue.produced > 100);
	CHECK(a.end > 1 * MS);
	tlog_free(&first);
	tlog_free(&second);
}

TEST(other_seed_other_trace)
{
	struct tlog first, other;

	run_workload(SEED, &first);
	run_workload(SEED + 1, &other);
	CHECK(other.lines > 20000);
	CHECK(first.len != other.len ||
	      memcmp(first.text, other.text, first.len) != 0);
	tlog_free(&first);
	tlog_free(&other);
}

/* --- child processes --- */

/*
 * Run @body in a child process (stderr into @err_path when not NULL) and
 * return its wait status.  Fork happens before any instance exists in
 * the parent, so the child is single-threaded.
 */
static int run_child(void (*body)(void), const char *err_path)
{
	pid_t pid;
	int status = 0;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		unsetenv("FUSION_SIM_LOG");
		if (err_path) {
			int fd =
			    open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

			if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
				_exit(90);
			close(fd);
		}
		body();
		_exit(0);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	return status;
}

/* A failure in a child: say where, exit with a status the parent sees. */
#define CHILD_CHECK(cond)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: child: %s\n", __FILE__,        \
				__LINE__, #cond);                              \
			_exit(91);                                             \
		}                                                              \
	} while (0)

static void unique_path(char *buf, size_t len, const char *what)
{
	static unsigned int serial;

	snprintf(buf, len, "/tmp/fusion-det-%d-%u-%s", (int)getpid(), serial++,
		 what);
}

/* Whole contents of @path (NUL-terminated, caller frees). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	struct tlog buf = {0};
	char chunk[4096];
	size_t n;

	CHECK(f != NULL);
	tlog_append(&buf, "", 0);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		tlog_append(&buf, chunk, n);
	fclose(f);
	return buf.text;
}

static struct nk_instance *child_nk;

static struct nk_thread *child_spawn(const char *name, int prio,
				     nk_thread_fn body)
{
	struct nk_thread_attr attr = {
	    .name = name,
	    .priority = prio,
	    .flags = NK_THREAD_JOINABLE,
	};
	struct nk_thread *thread;

	CHILD_CHECK(nk_thread_create(child_nk, &attr, &thread) == 0);
	CHILD_CHECK(nk_thread_start(thread, body, NULL) == 0);
	return thread;
}

static void child_create(int main_priority)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .main_priority = main_priority,
	};

	CHILD_CHECK(nk_instance_create(&attr, &child_nk) == 0);
}

/* --- FUSION_SIM_LOG --- */

static void log_high(void *arg)
{
	(void)arg;
	CHILD_CHECK(nk_thread_sleep(child_nk, 1 * MS, NK_RELATIVE) == 0);
}

static void log_low(void *arg)
{
	(void)arg;
	CHILD_CHECK(nk_consume(child_nk, 2 * MS) == 0);
}

static char sim_log_path[128];

/*
 * main (100) starts low (10) and high (20) and joins high: high sleeps
 * 1 ms, low burns 2 ms of CPU and is preempted by high's wake-up.
 */
static void log_scenario(void)
{
	struct nk_thread *low, *high;

	CHILD_CHECK(setenv("FUSION_SIM_LOG", sim_log_path, 1) == 0);
	child_create(100);
	low = child_spawn("low", 10, log_low);
	high = child_spawn("high", 20, log_high);
	CHILD_CHECK(nk_thread_join(high) == 0);
	CHILD_CHECK(nk_now(child_nk) == 1 * MS);
	CHILD_CHECK(nk_thread_join(low) == 0);
	CHILD_CHECK(nk_now(child_nk) == 2 * MS);
	CHILD_CHECK(nk_instance_destroy(child_nk) == 0);
}

static const char expected_sim_log[] = "0 cpu0 create low 10\n"
				       "0 cpu0 start low 10\n"
				       "0 cpu0 ready low 10\n"
				       "0 cpu0 create high 20\n"
				       "0 cpu0 start high 20\n"
				       "0 cpu0 ready high 20\n"
				       "0 cpu0 block main high\n"
				       "0 cpu0 switch high (from main)\n"
				       "0 cpu0 block high delay\n"
				       "0 cpu0 switch low (from high)\n"
				       "1000000 cpu0 wake high delay 0\n"
				       "1000000 cpu0 ready high 20\n"
				       "1000000 cpu0 switch high (from low)\n"
				       "1000000 cpu0 exit high\n"
				       "1000000 cpu0 wake main high 0\n"
				       "1000000 cpu0 ready main 100\n"
				       "1000000 cpu0 switch main (from high)\n"
				       "1000000 cpu0 block main low\n"
				       "1000000 cpu0 switch low (from main)\n"
				       "2000000 cpu0 exit low\n"
				       "2000000 cpu0 wake main low 0\n"
				       "2000000 cpu0 ready main 100\n"
				       "2000000 cpu0 switch main (from low)\n";

static char *sim_log_run(void)
{
	char *text;

	unique_path(sim_log_path, sizeof(sim_log_path), "sim.log");
	CHECK_EQ(run_child(log_scenario, NULL), 0);
	text = slurp(sim_log_path);
	unlink(sim_log_path);
	return text;
}

TEST(sim_log_file)
{
	char *first = sim_log_run();
	char *second = sim_log_run();

	CHECK_STR(first, second);
	CHECK_STR(first, expected_sim_log);
	free(first);
	free(second);
}

/* --- deadlock reports --- */

static struct nk_sem dl_sem1, dl_sem2;
static struct nk_mutex dl_mutex;

/* A needs sem1, which only B gives, and B needs sem2, which only A gives. */
static void dl_a(void *arg)
{
	(void)arg;
	CHILD_CHECK(nk_sem_take(&dl_sem1, NK_INFINITE, NK_RELATIVE) == 0);
	CHILD_CHECK(nk_sem_give(&dl_sem2) == 0);
}

static void dl_b(void *arg)
{
	(void)arg;
	CHILD_CHECK(nk_thread_sleep(child_nk, 1 * US, NK_RELATIVE) == 0);
	CHILD_CHECK(nk_sem_take(&dl_sem2, NK_INFINITE, NK_RELATIVE) == 0);
	CHILD_CHECK(nk_sem_give(&dl_sem1) == 0);
}

static void sem_deadlock(void)
{
	struct nk_thread *a;

	child_create(50);
	CHILD_CHECK(nk_sem_init(child_nk, &dl_sem1, "sem1", 0, 0, 0) == 0);
	CHILD_CHECK(nk_sem_init(child_nk, &dl_sem2, "sem2", 0, 0, 0) == 0);
	a = child_spawn("A", 10, dl_a);
	child_spawn("B", 20, dl_b);
	if (nk_thread_join(a) == 0)
		fprintf(stderr, "join returned\n");
}

/* The owner of a PI mutex waits forever on a semaphore. */
static void dl_owner(void *arg)
{
	(void)arg;
	CHILD_CHECK(nk_mutex_lock(&dl_mutex, NK_INFINITE, NK_RELATIVE) == 0);
	CHILD_CHECK(nk_sem_take(&dl_sem1, NK_INFINITE, NK_RELATIVE) == 0);
}

static void dl_waiter(void *arg)
{
	(void)arg;
	CHILD_CHECK(nk_thread_sleep(child_nk, 1 * US, NK_RELATIVE) == 0);
	CHILD_CHECK(nk_mutex_lock(&dl_mutex, NK_INFINITE, NK_RELATIVE) == 0);
}

static void mutex_deadlock(void)
{
	struct nk_thread *waiter;

	child_create(50);
	CHILD_CHECK(nk_sem_init(child_nk, &dl_sem1, "sem", 0, 0, 0) == 0);
	CHILD_CHECK(nk_mutex_init(child_nk, &dl_mutex, "mtx", NK_SYNCH_PI, 0) ==
		    0);
	child_spawn("owner", 10, dl_owner);
	waiter = child_spawn("waiter", 20, dl_waiter);
	if (nk_thread_join(waiter) == 0)
		fprintf(stderr, "join returned\n");
}

/* Run @scenario in a child; it must deadlock with exactly @report. */
static void check_deadlock(void (*scenario)(void), const char *report)
{
	char path[128];
	char *text;
	int status;

	unique_path(path, sizeof(path), "stderr");
	status = run_child(scenario, path);
	text = slurp(path);
	unlink(path);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 3)
		test_fail(__FILE__, __LINE__, "status %#x, stderr:\n%s", status,
			  text);
	CHECK_STR(text, report);
	free(text);
}

TEST(deadlock_report_semaphores)
{
	check_deadlock(sem_deadlock,
		       "fusion-sim: deadlock at 1000 ns: every thread is "
		       "blocked and no timer is pending\n"
		       "fusion-sim:   main prio 50/50 cpu0 waits for A\n"
		       "fusion-sim:   A prio 10/10 cpu0 waits for sem1\n"
		       "fusion-sim:   B prio 20/20 cpu0 waits for sem2\n");
}

TEST(deadlock_report_mutex_owner)
{
	/* The owner runs boosted to its waiter's priority (PI). */
	check_deadlock(mutex_deadlock,
		       "fusion-sim: deadlock at 1000 ns: every thread is "
		       "blocked and no timer is pending\n"
		       "fusion-sim:   main prio 50/50 cpu0 waits for waiter\n"
		       "fusion-sim:   owner prio 10/20 cpu0 waits for sem\n"
		       "fusion-sim:   waiter prio 20/20 cpu0 waits for mtx "
		       "owned by owner\n");
}

/* --- instance lifetimes --- */

static void noop_body(void *arg)
{
	(void)arg;
}

/* One instance: time starts at 0, moves only by what we ask of it. */
static void check_fresh_instance(nk_time_t sleep)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 1};
	struct nk_thread_attr tattr = {.priority = 0};
	struct nk_instance *nk;
	struct nk_thread *thread;

	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_now(nk), 0);
	/* Default names count from the instance's own serial too. */
	CHECK_EQ(nk_thread_create(nk, &tattr, &thread), 0);
	CHECK_STR(nk_thread_name(thread), "thread2");
	CHECK_EQ(nk_thread_start(thread, noop_body, NULL), 0);
	CHECK_EQ(nk_thread_sleep(nk, sleep, NK_RELATIVE), 0);
	CHECK_EQ(nk_now(nk), sleep);
	CHECK_EQ(nk_consume(nk, 250 * US), 0);
	CHECK_EQ(nk_now(nk), sleep + 250 * US);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(time_restarts_per_instance)
{
	check_fresh_instance(5 * MS);
	check_fresh_instance(1 * MS);
	check_fresh_instance(5 * MS);
}

TESTS(T(same_seed_same_trace), T(other_seed_other_trace), T(sim_log_file),
      T(deadlock_report_semaphores), T(deadlock_report_mutex_owner),
      T(time_restarts_per_instance));
