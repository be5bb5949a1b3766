/* SPDX-License-Identifier: MIT */
/*
 * Bad input for every public function of the headers in include/fusion/,
 * grouped by header: NULL pointers, forged objects (zeroed, filled with 0xA5,
 * and destroyed), out-of-range priorities, CPUs, flags and modes, names one
 * byte too long, calls from the wrong context (a plain pthread, a timer
 * handler, a locked scheduler, a non-creator thread), double starts and
 * terminated threads.  Each call must return its documented error, must
 * not write into forged memory, and must leave the objects involved
 * usable: every group ends with a normal operation.
 *
 * Calls are described by tables of probes (a call, the object it is
 * made on, the result expected), run from the test, from nucleus
 * threads, from a foreign pthread or from a timer handler by the same
 * runner.
 */
#include "harness.h"

#include <fusion/backend.h>
#include <fusion/fusion.h>

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define US 1000LL
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* NK_NAME_MAX characters: one too many.  NAME_OK is the longest. */
#define NAME_LONG "abcdefghijklmnopqrstuvwxyz012345"
#define NAME_OK "abcdefghijklmnopqrstuvwxyz01234"

/* An enum nk_tmode value that is neither mode. */
#define BAD_MODE ((enum nk_tmode)7)
/* An enum nk_policy value that is neither policy. */
#define BAD_POLICY ((enum nk_policy)7)

/* Objects shared by the probes; fixed addresses go into static tables. */
static struct {
	struct nk_instance *nk;
	struct nk_thread *peer; /* a second thread, when a test has one */
	struct nk_sem sem;	/* FIFO, count 0 */
	struct nk_mutex mutex;	/* PI, free unless a test locks it */
	struct nk_mutex other;	/* PI, for two-mutex cases */
	struct nk_synch synch;	/* priority-ordered, no owner */
	struct nk_synch osynch; /* PI, owned by main when a test says so */
	struct nk_timer timer;
	struct nk_tbase tbase;
	struct nk_heap heap;
	struct nk_registry registry;
} cx;

/* --- the probe runner --- */

typedef long long (*probe_fn)(void *obj);

struct probe {
	const char *what;
	probe_fn call;
	long long expect;
	void *obj;   /* the object of the call; NULL: the runner's */
	bool locked; /* the call requires the nucleus lock */
};

#define P(fn, exp) PO(fn, exp, NULL)
#define PO(fn, exp, target)                                                    \
	{                                                                      \
		.what = #fn, .call = fn, .expect = exp, .obj = target          \
	}
#define PL(fn, exp, target)                                                    \
	{                                                                      \
		.what = #fn, .call = fn, .expect = exp, .obj = target,         \
		.locked = true                                                 \
	}

/*
 * A probe whose whole body is one call on @o (or on cx objects).  It ends
 * with a prototype so that uses take a semicolon like declarations.
 */
#define PROBE_FN(name, expr)                                                   \
	static long long name(void *o)                                         \
	{                                                                      \
		(void)o;                                                       \
		return (expr);                                                 \
	}                                                                      \
	static long long name(void *o)

/* Mismatches, as text: probes also run where CHECK cannot fail. */
struct report {
	char text[2048];
	int bad;
};

/*
 * Run @n probes on @obj.  @lock_nk: the instance whose lock to take
 * around calls that need it (NULL: the caller holds it already).
 */
static void probe_into(struct report *r, const struct probe *p, size_t n,
		       void *obj, struct nk_instance *lock_nk)
{
	for (size_t i = 0; i < n; i++) {
		bool lock = p[i].locked && lock_nk;
		long long got;

		if (lock)
			nk_lock(lock_nk);
		got = p[i].call(p[i].obj ? p[i].obj : obj);
		if (lock)
			nk_unlock(lock_nk);
		if (got != p[i].expect) {
			size_t used = strlen(r->text);

			snprintf(r->text + used, sizeof(r->text) - used,
				 "\n  %s: %lld, expected %lld", p[i].what, got,
				 p[i].expect);
			r->bad++;
		}
	}
}

static void check_report_at(const char *file, int line, const struct report *r)
{
	if (r->bad)
		test_fail(file, line, "%d probe(s) failed:%s", r->bad, r->text);
}

#define CHECK_REPORT(r) check_report_at(__FILE__, __LINE__, r)

static void probe_at(const char *file, int line, const struct probe *p,
		     size_t n, void *obj)
{
	struct report r = {{0}, 0};

	probe_into(&r, p, n, obj, cx.nk);
	check_report_at(file, line, &r);
}

#define PROBE(table, obj)                                                      \
	probe_at(__FILE__, __LINE__, table, ARRAY_SIZE(table), obj)

/* Never-initialised storage: all zero, then all 0xA5. */
static _Alignas(64) unsigned char junk[4096];

static void probe_junk_at(const char *file, int line, const struct probe *p,
			  size_t n)
{
	static const unsigned char fills[] = {0x00, 0xa5};

	for (size_t f = 0; f < ARRAY_SIZE(fills); f++) {
		memset(junk, fills[f], sizeof(junk));
		probe_at(file, line, p, n, junk);
		for (size_t i = 0; i < sizeof(junk); i++)
			if (junk[i] != fills[f])
				test_fail(file, line,
					  "forged object written at byte %zu",
					  i);
	}
}

#define PROBE_JUNK(table)                                                      \
	probe_junk_at(__FILE__, __LINE__, table, ARRAY_SIZE(table))

/* A nucleus thread running a probe table on cx.nk. */
struct script {
	const struct probe *probes;
	size_t n;
	struct report report;
};

#define SCRIPT(table)                                                          \
	{                                                                      \
		.probes = table, .n = ARRAY_SIZE(table)                        \
	}

static void script_body(void *arg)
{
	struct script *s = arg;

	probe_into(&s->report, s->probes, s->n, cx.nk, cx.nk);
}

/* --- fixtures --- */

static void setup_cpus(int main_prio, int nr_cpus)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .nr_cpus = nr_cpus,
	    .main_priority = main_prio,
	};

	memset(&cx, 0, sizeof(cx));
	CHECK_EQ(nk_instance_create(&attr, &cx.nk), 0);
	CHECK_EQ(nk_sem_init(cx.nk, &cx.sem, "sem", 0, 0, NK_SYNCH_FIFO), 0);
	CHECK_EQ(nk_mutex_init(cx.nk, &cx.mutex, "mutex", NK_SYNCH_PI, 0), 0);
	CHECK_EQ(nk_mutex_init(cx.nk, &cx.other, "other", NK_SYNCH_PI, 0), 0);
	CHECK_EQ(nk_synch_init(cx.nk, &cx.synch, "synch", NK_SYNCH_PRIO, 0), 0);
	CHECK_EQ(nk_synch_init(cx.nk, &cx.osynch, "osynch", NK_SYNCH_PI, 0), 0);
}

static void setup(int main_prio)
{
	setup_cpus(main_prio, 1);
}

static void teardown(void)
{
	CHECK_EQ(nk_instance_destroy(cx.nk), 0);
	cx.nk = NULL;
}

static struct nk_thread *spawn(const char *name, int prio, unsigned int flags,
			       nk_thread_fn body, void *arg)
{
	struct nk_thread_attr attr = {
	    .name = name,
	    .priority = prio,
	    .flags = flags,
	};
	struct nk_thread *thread;

	CHECK_EQ(nk_thread_create(cx.nk, &attr, &thread), 0);
	CHECK_EQ(nk_thread_start(thread, body, arg), 0);
	return thread;
}

static void spawn_script(const char *name, int prio, struct script *s)
{
	spawn(name, prio, 0, script_body, s);
}

static void main_sleep(nk_time_t ns)
{
	CHECK_EQ(nk_thread_sleep(cx.nk, ns, NK_RELATIVE), 0);
}

static void count_line(void *ctx, const char *line)
{
	(void)line;
	if (ctx)
		(*(int *)ctx)++;
}

/* Threads of cx.nk, as nk_instance_describe() sees them. */
static int nr_threads(void)
{
	int n = 0;

	CHECK_EQ(nk_instance_describe(cx.nk, count_line, &n), 0);
	return n;
}

/* The semaphore still counts, gives and takes. */
static void check_sem_works(struct nk_sem *sem)
{
	unsigned long count = 99;

	CHECK_EQ(nk_sem_give(sem), 0);
	CHECK_EQ(nk_sem_count(sem, &count), 0);
	CHECK_EQ(count, 1);
	CHECK_EQ(nk_sem_take(sem, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_sem_take(sem, 0, NK_RELATIVE), -EWOULDBLOCK);
}

/* The mutex is free, and locks and unlocks for the caller. */
static void check_mutex_works(struct nk_mutex *mutex)
{
	CHECK(nk_mutex_owner(mutex) == NULL);
	CHECK_EQ(nk_mutex_lock(mutex, 0, NK_RELATIVE), 0);
	CHECK(nk_mutex_owner(mutex) == nk_thread_self(cx.nk));
	CHECK_EQ(nk_mutex_unlock(mutex), 0);
	CHECK(nk_mutex_owner(mutex) == NULL);
}

/* main owns cx.osynch (ownership calls need the nucleus lock). */
static void acquire_osynch(void)
{
	nk_lock(cx.nk);
	CHECK_EQ(nk_synch_acquire(&cx.osynch, 0, NK_RELATIVE), 0);
	nk_unlock(cx.nk);
}

/* Run @body in a child process; its exit status, or 128 + signal. */
static int child_result(void (*body)(void))
{
	int status = 0;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		/* A hang is a failure too, not a stuck test run. */
		alarm(5);
		body();
		_exit(0);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void idle_body(void *arg)
{
	(void)arg;
}

/* === instance.h (and backend.h's lookup) === */

PROBE_FN(inst_destroy, nk_instance_destroy(o));
PROBE_FN(inst_backend, nk_instance_backend(o) != NULL);
PROBE_FN(inst_nr_cpus, nk_instance_nr_cpus(o));
PROBE_FN(inst_registry, nk_instance_registry(o) != NULL);
PROBE_FN(inst_set_trace, nk_instance_set_trace(o, NULL, NULL));
PROBE_FN(inst_describe, nk_instance_describe(o, count_line, NULL));
PROBE_FN(inst_check, nk_instance_check(o, (char[8]){0}, 8));
PROBE_FN(inst_shared, nk_instance_shared(o));
PROBE_FN(inst_member, nk_instance_member(o));
PROBE_FN(inst_member_blocks, nk_member_blocks(o, 0));
PROBE_FN(inst_alloc_local, nk_alloc_local(o, 8) != NULL);
PROBE_FN(inst_free_local, (nk_free_local(o, junk), 0));
PROBE_FN(inst_host_cpu, nk_instance_host_cpu(o, 0));
PROBE_FN(inst_memory_shared, nk_instance_memory_shared(o, junk, 8));
PROBE_FN(inst_personality_of, nk_personality_of(o, junk) != NULL);

static long long inst_lock(void *o)
{
	nk_lock(o);
	nk_unlock(o);
	return 0;
}

PROBE_FN(clock_now, nk_now(o));
PROBE_FN(clock_wallclock, nk_wallclock(o));
PROBE_FN(clock_set_wallclock, nk_set_wallclock(o, 5));
PROBE_FN(clock_consume, nk_consume(o, 10 * US));

static const struct nk_thread_attr plain_attr = {.name = "x", .priority = 1};

PROBE_FN(thread_create_on,
	 nk_thread_create(o, &plain_attr, &(struct nk_thread *){NULL}));
PROBE_FN(thread_shadow_on,
	 nk_thread_shadow(o, &plain_attr, &(struct nk_thread *){NULL}));

PROBE_FN(thread_exit_on, nk_thread_exit(o));
PROBE_FN(thread_yield_on, nk_thread_yield(o));
PROBE_FN(thread_sleep_on, nk_thread_sleep(o, 10 * US, NK_RELATIVE));
PROBE_FN(thread_sleep_bad_mode, nk_thread_sleep(o, 10 * US, BAD_MODE));
PROBE_FN(thread_periodic_on, nk_thread_set_periodic(o, NK_INFINITE, 100 * US));
PROBE_FN(thread_periodic_negative, nk_thread_set_periodic(o, NK_INFINITE, -1));
PROBE_FN(thread_wait_period_on, nk_thread_wait_period(o, &(unsigned long){0}));
PROBE_FN(thread_self_on, nk_thread_self(o) != NULL);
PROBE_FN(thread_relax_on, nk_thread_relax(o));
PROBE_FN(thread_harden_on, nk_thread_harden(o));
PROBE_FN(thread_set_mode_on, nk_thread_set_mode(o, 0, NK_MODE_WARNSW, NULL));
PROBE_FN(thread_set_mode_bad, nk_thread_set_mode(o, 0, 0x2, NULL));
PROBE_FN(thread_suspend_self, nk_thread_suspend(nk_thread_self(o)));
PROBE_FN(sched_lock_on, nk_sched_lock(o));
PROBE_FN(sched_unlock_on, nk_sched_unlock(o));
PROBE_FN(sched_locked_on, nk_sched_lock_depth(o));
PROBE_FN(synch_init_on,
	 nk_synch_init(o, &(struct nk_synch){0}, "s", NK_SYNCH_FIFO, 0));
PROBE_FN(sem_init_on,
	 nk_sem_init(o, &(struct nk_sem){0}, "s", 0, 0, NK_SYNCH_FIFO));
PROBE_FN(mutex_init_on,
	 nk_mutex_init(o, &(struct nk_mutex){0}, "m", NK_SYNCH_PI, 0));

static void nop_handler(struct nk_timer *timer)
{
	(void)timer;
}

PROBE_FN(timer_init_on,
	 nk_timer_init(o, &(struct nk_timer){0}, "t", 0, nop_handler, NULL));
PROBE_FN(tbase_init_on, nk_tbase_init(o, &(struct nk_tbase){0}, 1000));

/* Every function that takes an instance, on a forged one. */
static const struct probe forged_instance_probes[] = {
    P(inst_destroy, -EINVAL),
    P(inst_backend, 0),
    P(inst_nr_cpus, -EINVAL),
    P(inst_registry, 0),
    P(inst_set_trace, -EINVAL),
    P(inst_describe, -EINVAL),
    P(inst_check, -EINVAL),
    P(inst_shared, 0),
    P(inst_member, -EINVAL),
    P(inst_member_blocks, -EINVAL),
    P(inst_alloc_local, 0),
    P(inst_free_local, 0),
    P(inst_host_cpu, -EINVAL),
    P(inst_memory_shared, 0),
    P(inst_personality_of, 0),
    P(inst_lock, 0),
    P(clock_now, 0),
    P(clock_wallclock, 0),
    P(clock_set_wallclock, -EINVAL),
    P(clock_consume, -EINVAL),
    P(thread_create_on, -EINVAL),
    P(thread_shadow_on, -EINVAL),
    P(thread_exit_on, -EINVAL),
    P(thread_yield_on, -EINVAL),
    P(thread_sleep_on, -EINVAL),
    P(thread_periodic_on, -EINVAL),
    P(thread_wait_period_on, -EINVAL),
    P(thread_self_on, 0),
    P(thread_relax_on, -EINVAL),
    P(thread_harden_on, -EINVAL),
    P(thread_set_mode_on, -EINVAL),
    P(sched_lock_on, -EINVAL),
    P(sched_unlock_on, -EINVAL),
    P(sched_locked_on, -EINVAL),
    P(synch_init_on, -EINVAL),
    P(sem_init_on, -EINVAL),
    P(mutex_init_on, -EINVAL),
    P(timer_init_on, -EINVAL),
    P(tbase_init_on, -EINVAL),
};

TEST(instance_forged)
{
	void *p;

	setup(10);
	PROBE_JUNK(forged_instance_probes);
	PROBE(forged_instance_probes, NULL);
	/* The real instance never noticed. */
	CHECK_EQ(nr_threads(), 1);
	main_sleep(10 * US);
	CHECK_EQ(nk_now(cx.nk), 10 * US);
	CHECK_STR(nk_instance_backend(cx.nk), "sim");
	CHECK_EQ(nk_instance_nr_cpus(cx.nk), 1);
	/* A private instance: one process, which reaches all its memory;
	 * virtual CPUs, mapped to none. */
	CHECK(!nk_instance_shared(cx.nk));
	CHECK_EQ(nk_instance_member(cx.nk), 0);
	CHECK(nk_instance_memory_shared(cx.nk, junk, sizeof(junk)));
	/* Its process's blocks are all its own: none is counted. */
	p = nk_alloc_local(cx.nk, 64);
	CHECK(p != NULL);
	CHECK_EQ(nk_member_blocks(cx.nk, 0), 0);
	nk_free_local(cx.nk, p);
	CHECK(nk_alloc_local(cx.nk, 0) == NULL);
	CHECK_EQ(nk_member_blocks(cx.nk, -1), -EINVAL);
	CHECK_EQ(nk_instance_host_cpu(cx.nk, 0), -ENOSYS);
	CHECK_EQ(nk_instance_host_cpu(cx.nk, -1), -EINVAL);
	CHECK_EQ(nk_instance_host_cpu(cx.nk, 1), -EINVAL);
	teardown();
}

static const struct {
	const char *why;
	struct nk_instance_attr attr;
	int expect;
} bad_instance_attrs[] = {
    {"nr_cpus -1", {.backend = "sim", .nr_cpus = -1}, -EINVAL},
    {"nr_cpus 65", {.backend = "sim", .nr_cpus = NK_MAX_CPUS + 1}, -EINVAL},
    {"main_cpu -1", {.backend = "sim", .main_cpu = -1}, -EINVAL},
    {"main_cpu 1 of 1", {.backend = "sim", .main_cpu = 1}, -EINVAL},
    {"main_cpu 2 of 2",
     {.backend = "sim", .nr_cpus = 2, .main_cpu = 2},
     -EINVAL},
    {"priority -1", {.backend = "sim", .main_priority = -1}, -EINVAL},
    {"priority 256", {.backend = "sim", .main_priority = 256}, -EINVAL},
    {"name too long", {.backend = "sim", .main_name = NAME_LONG}, -EINVAL},
    {"unknown backend", {.backend = "nosuch"}, -ENODEV},
};

TEST(instance_create_bad_attr)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .nr_cpus = NK_MAX_CPUS,
	    .main_name = NAME_OK,
	    .main_priority = NK_PRIO_MAX,
	    .main_cpu = NK_MAX_CPUS - 1,
	};
	struct nk_instance *nk = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(bad_instance_attrs); i++) {
		int ret = nk_instance_create(&bad_instance_attrs[i].attr, &nk);

		if (ret != bad_instance_attrs[i].expect)
			test_fail(__FILE__, __LINE__, "%s: %d",
				  bad_instance_attrs[i].why, ret);
		CHECK(nk == NULL);
	}
	CHECK_EQ(nk_instance_create(NULL, NULL), -EINVAL);
	CHECK_EQ(nk_instance_create(&attr, NULL), -EINVAL);
	CHECK(nk_backend_lookup("nosuch") == NULL);
	CHECK(nk_backend_lookup("sim") == &nk_backend_sim);
	/* No failure left the caller bound: the limits themselves work. */
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_instance_nr_cpus(nk), NK_MAX_CPUS);
	CHECK_STR(nk_thread_name(nk_thread_self(nk)), NAME_OK);
	CHECK_EQ(nk_thread_priority(nk_thread_self(nk)), NK_PRIO_MAX);
	CHECK_EQ(nk_thread_cpu(nk_thread_self(nk)), NK_MAX_CPUS - 1);
	CHECK_EQ(nk_instance_describe(nk, NULL, NULL), -EINVAL);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static struct report destroy_report;

static const struct probe not_creator_probes[] = {
    P(inst_destroy, -EPERM),
};

static void not_creator_body(void *arg)
{
	(void)arg;
	probe_into(&destroy_report, not_creator_probes,
		   ARRAY_SIZE(not_creator_probes), cx.nk, cx.nk);
}

TEST(instance_destroy_not_creator)
{
	setup(10);
	memset(&destroy_report, 0, sizeof(destroy_report));
	spawn("other", 20, 0, not_creator_body, NULL);
	CHECK_REPORT(&destroy_report);
	CHECK_EQ(nr_threads(), 1);
	main_sleep(1 * US);
	teardown();
}

/* A nucleus thread creating a second instance: documented -EBUSY. */
static void nested_create(void)
{
	struct nk_instance_attr attr = {.backend = "sim"};
	struct nk_instance *outer, *inner = NULL;
	int ret;

	if (nk_instance_create(&attr, &outer) != 0)
		_exit(10);
	ret = nk_instance_create(&attr, &inner);
	if (ret != -EBUSY || inner != NULL)
		_exit(11);
	if (nk_instance_destroy(outer) != 0)
		_exit(12);
}

TEST(instance_create_nested)
{
	CHECK_EQ(child_result(nested_create), 0);
}

/* === thread.h === */

static const struct {
	const char *why;
	struct nk_thread_attr attr;
} bad_thread_attrs[] = {
    {"priority -1", {.priority = -1}},
    {"priority 256", {.priority = 256}},
    {"cpu -1", {.cpu = -1}},
    {"cpu 1 of 1", {.cpu = 1}},
    {"flags 0x2", {.flags = 0x2}},
    {"flags 0x80000000", {.flags = 0x80000000u}},
    {"policy 7", {.policy = (enum nk_policy)7}},
    {"RR, quantum 0", {.policy = NK_SCHED_RR}},
    {"RR, quantum -1", {.policy = NK_SCHED_RR, .quantum = -1}},
    {"name too long", {.name = NAME_LONG}},
};

typedef int (*make_thread_fn)(struct nk_instance *nk,
			      const struct nk_thread_attr *attr,
			      struct nk_thread **out);

/* Every bad attribute set is refused by @make, and *out is left alone. */
static void check_bad_thread_attrs(make_thread_fn make)
{
	struct nk_thread *sentinel = (struct nk_thread *)junk;

	for (size_t i = 0; i < ARRAY_SIZE(bad_thread_attrs); i++) {
		struct nk_thread *out = sentinel;
		int ret = make(cx.nk, &bad_thread_attrs[i].attr, &out);

		if (ret != -EINVAL || out != sentinel)
			test_fail(__FILE__, __LINE__, "%s: %d",
				  bad_thread_attrs[i].why, ret);
	}
	CHECK_EQ(make(cx.nk, NULL, &sentinel), -EINVAL);
	CHECK_EQ(make(cx.nk, &bad_thread_attrs[0].attr, NULL), -EINVAL);
}

TEST(thread_create_bad_attr)
{
	struct nk_thread_attr rr = {.name = NAME_OK,
				    .priority = NK_PRIO_MAX,
				    .policy = NK_SCHED_RR,
				    .quantum = 1};
	struct nk_thread_attr fifo = {.flags = NK_THREAD_JOINABLE};
	struct nk_thread *thread;

	setup(10);
	check_bad_thread_attrs(nk_thread_create);
	check_bad_thread_attrs(nk_thread_shadow);
	/* A shadow is FIFO and takes no flags. */
	CHECK_EQ(nk_thread_shadow(cx.nk, &rr, &thread), -EINVAL);
	CHECK_EQ(nk_thread_shadow(cx.nk, &fifo, &thread), -EINVAL);
	/* The caller already is a nucleus thread. */
	fifo.flags = 0;
	CHECK_EQ(nk_thread_shadow(cx.nk, &fifo, &thread), -EBUSY);
	CHECK_EQ(nr_threads(), 1);
	/* The limits themselves are accepted. */
	CHECK_EQ(nk_thread_create(cx.nk, &rr, &thread), 0);
	CHECK_STR(nk_thread_name(thread), NAME_OK);
	CHECK_EQ(nk_thread_priority(thread), NK_PRIO_MAX);
	CHECK_EQ(nk_thread_state(thread), NK_THREAD_DORMANT);
	CHECK_EQ(nr_threads(), 2);
	teardown();
}

PROBE_FN(th_start, nk_thread_start(o, idle_body, NULL));
PROBE_FN(th_start_null, nk_thread_start(o, NULL, NULL));
PROBE_FN(th_delete, nk_thread_delete(o));
PROBE_FN(th_join, nk_thread_join(o));
PROBE_FN(th_suspend, nk_thread_suspend(o));
PROBE_FN(th_resume, nk_thread_resume(o));
PROBE_FN(th_set_prio, nk_thread_set_priority(o, 30));
PROBE_FN(th_set_prio_low, nk_thread_set_priority(o, -1));
PROBE_FN(th_set_prio_high, nk_thread_set_priority(o, 256));
PROBE_FN(th_unblock, nk_thread_unblock(o));
PROBE_FN(th_set_cpu, nk_thread_set_cpu(o, 0));
PROBE_FN(th_set_cpu_neg, nk_thread_set_cpu(o, -1));
PROBE_FN(th_set_cpu_high, nk_thread_set_cpu(o, 1)); /* one RT CPU */
PROBE_FN(th_set_rr, nk_thread_set_policy(o, NK_SCHED_RR, 1000));
PROBE_FN(th_set_fifo, nk_thread_set_policy(o, NK_SCHED_FIFO, 0));
PROBE_FN(th_set_fifo_any_quantum, nk_thread_set_policy(o, NK_SCHED_FIFO, -1));
PROBE_FN(th_set_rr_zero, nk_thread_set_policy(o, NK_SCHED_RR, 0));
PROBE_FN(th_set_rr_negative, nk_thread_set_policy(o, NK_SCHED_RR, -1));
PROBE_FN(th_set_bad_policy, nk_thread_set_policy(o, BAD_POLICY, 1000));
PROBE_FN(th_instance, nk_thread_instance(o) != NULL);
PROBE_FN(th_name, nk_thread_name(o) != NULL);
PROBE_FN(th_priority, nk_thread_priority(o));
PROBE_FN(th_effective, nk_thread_effective_priority(o));
PROBE_FN(th_cpu, nk_thread_cpu(o));
PROBE_FN(th_state, nk_thread_state(o));
PROBE_FN(th_stats, nk_thread_stats(o, &(struct nk_thread_stats){0}));
PROBE_FN(th_stats_null, nk_thread_stats(o, NULL));
PROBE_FN(th_make_periodic, nk_thread_make_periodic(o, NK_INFINITE, 1000));
PROBE_FN(th_make_periodic_negative, nk_thread_make_periodic(o, 0, -1));
PROBE_FN(th_host, nk_thread_host(o, &(pid_t){0}, &(pthread_t){0}));
PROBE_FN(th_host_null, nk_thread_host(o, NULL, NULL));
PROBE_FN(th_errno, nk_thread_errno(o) != NULL);
PROBE_FN(th_here, nk_thread_here(o));
PROBE_FN(th_copy_to, nk_thread_copy_to(o, (char[8]){0}, "x", 2));
PROBE_FN(th_copy_from, nk_thread_copy_from(o, (char[8]){0}, "x", 2));
PROBE_FN(th_wakeup_this, nk_synch_wakeup_this(&cx.synch, o));
PROBE_FN(th_try_acquire, nk_synch_try_acquire(&cx.osynch, o));
PROBE_FN(join_peer, nk_thread_join(cx.peer));
PROBE_FN(peer_set_rr, nk_thread_set_policy(cx.peer, NK_SCHED_RR, 1000));
PROBE_FN(peer_set_fifo, nk_thread_set_policy(cx.peer, NK_SCHED_FIFO, 0));

static const struct probe forged_thread_probes[] = {
    P(th_start, -EINVAL),
    P(th_delete, -EINVAL),
    P(th_join, -EINVAL),
    P(th_suspend, -EINVAL),
    P(th_resume, -EINVAL),
    P(th_set_prio, -EINVAL),
    P(th_set_rr, -EINVAL),
    P(th_set_fifo, -EINVAL),
    P(th_unblock, -EINVAL),
    P(th_set_cpu, -EINVAL),
    P(th_instance, 0),
    P(th_name, 0),
    P(th_priority, -EINVAL),
    P(th_effective, -EINVAL),
    P(th_cpu, -EINVAL),
    P(th_state, 0),
    P(th_stats, -EINVAL),
    P(th_make_periodic, -EINVAL),
    P(th_host, -EINVAL),
    P(th_errno, 0),
    P(th_here, 0),
    P(th_copy_to, -EINVAL),
    P(th_copy_from, -EINVAL),
    PL(th_wakeup_this, -EINVAL, NULL),
    PL(th_try_acquire, -EINVAL, NULL),
};

TEST(thread_forged)
{
	struct nk_thread *self;
	char buf[8] = "";

	setup(10);
	PROBE_JUNK(forged_thread_probes);
	PROBE(forged_thread_probes, NULL);
	CHECK(nk_synch_owner(&cx.osynch) == NULL);
	CHECK_EQ(nr_threads(), 1);
	/* A thread of this process: a plain copy, either way. */
	self = nk_thread_self(cx.nk);
	CHECK(nk_thread_here(self));
	CHECK_EQ(nk_thread_copy_to(self, buf, "abc", 4), 0);
	CHECK_STR(buf, "abc");
	CHECK_EQ(nk_thread_copy_from(self, buf, "xy", 3), 0);
	CHECK_STR(buf, "xy");
	CHECK_EQ(nk_thread_copy_to(self, NULL, "abc", 4), -EINVAL);
	CHECK_EQ(nk_thread_copy_from(self, buf, NULL, 4), -EINVAL);
	CHECK_EQ(nk_thread_copy_to(self, NULL, NULL, 0), 0);
	CHECK_STR(buf, "xy");
	teardown();
}

/* A dormant, non-joinable thread of priority 5 (main runs at 10). */
static const struct probe dormant_probes[] = {
    P(th_start_null, -EINVAL),
    P(th_set_prio_low, -EINVAL),
    P(th_set_prio_high, -EINVAL),
    P(th_set_rr_zero, -EINVAL),
    P(th_set_rr_negative, -EINVAL),
    P(th_set_bad_policy, -EINVAL),
    /* Policy changes need no started thread; FIFO ignores the quantum. */
    P(th_set_rr, 0),
    P(th_set_fifo_any_quantum, 0),
    P(th_suspend, -EPERM),
    P(th_resume, -EPERM),
    P(th_unblock, -EAGAIN),
    P(th_set_cpu_neg, -EINVAL),
    P(th_set_cpu_high, -EINVAL),
    P(th_set_cpu, 0),
    P(th_join, -EINVAL),
    P(th_stats_null, -EINVAL),
    /* Made periodic before it starts, as Alchemy programs do. */
    P(th_make_periodic_negative, -EINVAL),
    P(th_make_periodic, 0),
    P(th_host, 0),
    P(th_host_null, 0),
    P(th_priority, 5),
    P(th_state, NK_THREAD_DORMANT),
    PL(th_wakeup_this, -ESRCH, NULL),
};

/* Started, ready behind main. */
static const struct probe started_probes[] = {
    P(th_start, -EBUSY),
    P(th_resume, -EPERM),
    P(th_unblock, -EAGAIN),
    P(th_state, NK_THREAD_READY),
};

TEST(thread_dormant_and_started)
{
	struct nk_thread_attr attr = {.name = "d", .priority = 5};
	struct nk_thread *thread;

	setup(10);
	CHECK_EQ(nk_thread_create(cx.nk, &attr, &thread), 0);
	PROBE(dormant_probes, thread);
	CHECK_EQ(nk_thread_start(thread, idle_body, NULL), 0);
	PROBE(started_probes, thread);
	CHECK_EQ(nr_threads(), 2);
	/* It runs once main sleeps, and ends. */
	main_sleep(1 * US);
	CHECK_EQ(nr_threads(), 1);
	teardown();
}

/* A joinable thread (priority 20) that ran to its end, not yet joined. */
static const struct probe zombie_probes[] = {
    P(th_start, -EBUSY),
    P(th_delete, -ESRCH),
    P(th_suspend, -ESRCH),
    P(th_resume, -ESRCH),
    P(th_set_prio, -ESRCH),
    P(th_set_rr, -ESRCH),
    P(th_set_fifo, -ESRCH),
    /* Arguments are checked first. */
    P(th_set_rr_zero, -EINVAL),
    P(th_set_bad_policy, -EINVAL),
    P(th_set_cpu_high, -EINVAL),
    P(th_set_cpu, -ESRCH),
    P(th_unblock, -ESRCH),
    P(th_instance, 1),
    P(th_name, 1),
    P(th_priority, 20),
    P(th_effective, 20),
    P(th_cpu, 0),
    P(th_state, NK_THREAD_ZOMBIE),
    P(th_stats, 0),
    P(th_make_periodic_negative, -EINVAL),
    P(th_make_periodic, -ESRCH),
    P(th_host, -ESRCH),
    PL(th_wakeup_this, -ESRCH, NULL),
    PL(th_try_acquire, -EINVAL, NULL),
};

TEST(thread_terminated)
{
	struct nk_thread *zombie;

	setup(10);
	zombie = spawn("z", 20, NK_THREAD_JOINABLE, idle_body, NULL);
	PROBE(zombie_probes, zombie);
	CHECK(nk_synch_owner(&cx.osynch) == NULL);
	CHECK_EQ(nr_threads(), 2);
	CHECK_EQ(nk_thread_join(zombie), 0);
	CHECK_EQ(nr_threads(), 1);
	teardown();
}

static int self_join_result;

static void self_join_body(void *arg)
{
	(void)arg;
	self_join_result = nk_thread_join(nk_thread_self(cx.nk));
}

static int first_join_result = 1;

static void first_joiner_body(void *arg)
{
	first_join_result = nk_thread_join(arg);
}

static void sleeper_body(void *arg)
{
	(void)arg;
	CHECK_EQ(nk_thread_sleep(cx.nk, 10 * US, NK_RELATIVE), 0);
}

TEST(thread_join_errors)
{
	struct nk_thread *self_joiner, *target;

	setup(10);
	self_join_result = 1;
	self_joiner =
	    spawn("selfj", 20, NK_THREAD_JOINABLE, self_join_body, NULL);
	CHECK_EQ(self_join_result, -EDEADLK);
	CHECK_EQ(nk_thread_join(self_joiner), 0);
	/* Non-joinable main cannot be joined, not even by itself. */
	CHECK_EQ(nk_thread_join(nk_thread_self(cx.nk)), -EINVAL);

	target = spawn("target", 5, NK_THREAD_JOINABLE, sleeper_body, NULL);
	spawn("joiner", 20, 0, first_joiner_body, target);
	CHECK_EQ(nk_thread_join(target), -EBUSY);
	main_sleep(20 * US);
	CHECK_EQ(first_join_result, 0);
	CHECK_EQ(nr_threads(), 1);
	teardown();
}

TEST(thread_periodic_errors)
{
	unsigned long overruns = 99;

	setup(10);
	CHECK_EQ(nk_thread_set_periodic(cx.nk, NK_INFINITE, -1), -EINVAL);
	CHECK_EQ(nk_thread_wait_period(cx.nk, &overruns), -EWOULDBLOCK);
	CHECK_EQ(nk_thread_sleep(cx.nk, 1 * US, BAD_MODE), -EINVAL);
	CHECK_EQ(nk_now(cx.nk), 0);
	/* Still usable: released one period from now, then every 100 us. */
	CHECK_EQ(nk_thread_set_periodic(cx.nk, NK_INFINITE, 100 * US), 0);
	CHECK_EQ(nk_thread_wait_period(cx.nk, &overruns), 0);
	CHECK_EQ(nk_now(cx.nk), 100 * US);
	CHECK_EQ(nk_thread_wait_period(cx.nk, &overruns), 0);
	CHECK_EQ(overruns, 0);
	CHECK_EQ(nk_now(cx.nk), 200 * US);
	CHECK_EQ(nk_thread_set_periodic(cx.nk, NK_INFINITE, 0), 0);
	CHECK_EQ(nk_thread_wait_period(cx.nk, NULL), -EWOULDBLOCK);
	teardown();
}

TEST(thread_mode_errors)
{
	unsigned int old = 99;

	setup(10);
	CHECK_EQ(nk_thread_set_mode(cx.nk, 0, 0x2, &old), -EINVAL);
	CHECK_EQ(nk_thread_set_mode(cx.nk, 0x80000000u, 0, &old), -EINVAL);
	CHECK_EQ(old, 99);
	CHECK_EQ(nk_thread_set_mode(cx.nk, 0, NK_MODE_WARNSW, &old), 0);
	CHECK_EQ(old, 0);
	CHECK_EQ(nk_thread_set_mode(cx.nk, NK_MODE_WARNSW, 0, &old), 0);
	CHECK_EQ(old, NK_MODE_WARNSW);
	/* Not relaxed: hardening is a no-op. */
	CHECK_EQ(nk_thread_harden(cx.nk), 0);
	CHECK_EQ(nk_thread_state(nk_thread_self(cx.nk)), NK_THREAD_CURRENT);
	teardown();
}

/* === sched.h === */

PROBE_FN(sem_take_now, nk_sem_take(o, 0, NK_RELATIVE));
PROBE_FN(sem_take_brief, nk_sem_take(o, 10 * US, NK_RELATIVE));
PROBE_FN(sem_give, nk_sem_give(o));
PROBE_FN(mutex_lock_now, nk_mutex_lock(o, 0, NK_RELATIVE));
PROBE_FN(mutex_lock_brief, nk_mutex_lock(o, 10 * US, NK_RELATIVE));
PROBE_FN(mutex_lock_forever, nk_mutex_lock(o, NK_INFINITE, NK_RELATIVE));
PROBE_FN(mutex_unlock, nk_mutex_unlock(o));
PROBE_FN(synch_sleep_brief, nk_synch_sleep(o, 10 * US, NK_RELATIVE));
PROBE_FN(synch_acquire_brief, nk_synch_acquire(o, 10 * US, NK_RELATIVE));
PROBE_FN(synch_release, nk_synch_release(o));

/* With the scheduler locked (depth 2), main may not block. */
static const struct probe sched_locked_probes[] = {
    P(sched_locked_on, 2),
    P(thread_sleep_on, -EPERM),
    P(thread_wait_period_on, -EPERM),
    P(thread_suspend_self, -EPERM),
    P(thread_relax_on, -EPERM),
    PO(sem_take_brief, -EPERM, &cx.sem),
    PO(sem_take_now, -EWOULDBLOCK, &cx.sem),
    PO(sem_give, 0, &cx.sem),
    /* A unit is there: no need to wait, so no refusal. */
    PO(sem_take_brief, 0, &cx.sem),
    PO(mutex_lock_brief, -EPERM, &cx.mutex),
    PO(mutex_lock_now, -EPERM, &cx.mutex),
    PL(synch_sleep_brief, -EPERM, &cx.synch),
    PL(synch_acquire_brief, -EPERM, &cx.osynch),
    P(sched_locked_on, 2),
};

TEST(sched_lock_errors)
{
	struct nk_thread *joinee;

	setup(10);
	CHECK_EQ(nk_sched_unlock(cx.nk), -EPERM);
	CHECK_EQ(nk_sched_lock_depth(cx.nk), 0);
	CHECK_EQ(nk_thread_set_periodic(cx.nk, 100 * US, 100 * US), 0);
	joinee = spawn("joinee", 5, NK_THREAD_JOINABLE, idle_body, NULL);
	CHECK_EQ(nk_sched_lock(cx.nk), 0);
	CHECK_EQ(nk_sched_lock(cx.nk), 0);
	PROBE(sched_locked_probes, cx.nk);
	CHECK_EQ(nk_thread_join(joinee), -EPERM);
	CHECK_EQ(nk_sched_unlock(cx.nk), 0);
	CHECK_EQ(nk_sched_unlock(cx.nk), 0);
	CHECK_EQ(nk_sched_unlock(cx.nk), -EPERM);
	CHECK_EQ(nk_sched_lock_depth(cx.nk), 0);
	CHECK(nk_mutex_owner(&cx.mutex) == NULL);
	CHECK(nk_synch_owner(&cx.osynch) == NULL);
	CHECK_EQ(nk_now(cx.nk), 0);
	/* Nothing was left half-done: the join and the period still work. */
	CHECK_EQ(nk_thread_join(joinee), 0);
	CHECK_EQ(nk_thread_wait_period(cx.nk, NULL), 0);
	CHECK_EQ(nk_now(cx.nk), 100 * US);
	check_sem_works(&cx.sem);
	teardown();
}

/* === synch.h === */

struct synch_init_case {
	const char *why;
	unsigned int flags;
	int ceiling;
	const char *name;
	int expect;
};

static const struct synch_init_case synch_init_cases[] = {
    {"flag 0x10", 0x10, 0, "s", -EINVAL},
    {"flag 0x80000000", 0x80000000u, 0, "s", -EINVAL},
    {"PI with PP", NK_SYNCH_PI | NK_SYNCH_PP, 10, "s", -EINVAL},
    {"ceiling -1", NK_SYNCH_PP, -1, "s", -EINVAL},
    {"ceiling 256", NK_SYNCH_PP, 256, "s", -EINVAL},
    {"name too long", NK_SYNCH_FIFO, 0, NAME_LONG, -EINVAL},
    {"ceiling 0", NK_SYNCH_PP, 0, "s", 0},
    {"ceiling 255", NK_SYNCH_PP, 255, NAME_OK, 0},
    {"ceiling ignored without PP", NK_SYNCH_PI, 999, NULL, 0},
};

static const struct synch_init_case mutex_init_cases[] = {
    {"flag 0x10", 0x10, 0, "m", -EINVAL},
    {"flag 0x200", 0x200, 0, "m", -EINVAL},
    {"PI with PP", NK_SYNCH_PI | NK_SYNCH_PP, 10, "m", -EINVAL},
    {"ceiling -1", NK_SYNCH_PP, -1, "m", -EINVAL},
    {"ceiling 256", NK_SYNCH_PP, 256, "m", -EINVAL},
    {"name too long", NK_SYNCH_PI, 0, NAME_LONG, -EINVAL},
    {"recursive PP 255", NK_MUTEX_RECURSIVE | NK_SYNCH_PP, 255, NAME_OK, 0},
    {"prio", NK_SYNCH_PRIO, 0, NULL, 0},
};

typedef int (*init_fn)(struct nk_instance *nk, void *obj,
		       const struct synch_init_case *c);

static int synch_init_case(struct nk_instance *nk, void *obj,
			   const struct synch_init_case *c)
{
	return nk_synch_init(nk, obj, c->name, c->flags, c->ceiling);
}

static int mutex_init_case(struct nk_instance *nk, void *obj,
			   const struct synch_init_case *c)
{
	return nk_mutex_init(nk, obj, c->name, c->flags, c->ceiling);
}

/* Each case, then NULL object and forged instance with valid flags. */
static void check_init_cases(init_fn init, const struct synch_init_case *c,
			     size_t n, void *obj)
{
	for (size_t i = 0; i < n; i++) {
		int ret = init(cx.nk, obj, &c[i]);

		if (ret != c[i].expect)
			test_fail(__FILE__, __LINE__, "%s: %d", c[i].why, ret);
	}
	CHECK_EQ(init(cx.nk, NULL, &c[n - 1]), -EINVAL);
	CHECK_EQ(init(NULL, obj, &c[n - 1]), -EINVAL);
	memset(junk, 0xa5, sizeof(junk));
	CHECK_EQ(init((struct nk_instance *)junk, obj, &c[n - 1]), -EINVAL);
}

TEST(synch_init_bad)
{
	struct nk_synch synch;
	struct nk_mutex mutex;

	setup(10);
	check_init_cases(synch_init_case, synch_init_cases,
			 ARRAY_SIZE(synch_init_cases), &synch);
	check_init_cases(mutex_init_case, mutex_init_cases,
			 ARRAY_SIZE(mutex_init_cases), &mutex);
	teardown();
}

PROBE_FN(synch_destroy, nk_synch_destroy(o));
PROBE_FN(synch_destroy_locked, nk_synch_destroy_locked(o));
PROBE_FN(synch_sleep_bad_mode, nk_synch_sleep(o, 10 * US, BAD_MODE));
PROBE_FN(synch_acquire_bad_mode, nk_synch_acquire(o, 10 * US, BAD_MODE));
PROBE_FN(synch_wakeup_one, nk_synch_wakeup_one(o) != NULL);
PROBE_FN(synch_wakeup_main, nk_synch_wakeup_this(o, nk_thread_self(cx.nk)));
PROBE_FN(synch_flush, nk_synch_flush(o, NK_WAKE_OK));
PROBE_FN(synch_try_acquire_main,
	 nk_synch_try_acquire(o, nk_thread_self(cx.nk)));
PROBE_FN(synch_owner, nk_synch_owner(o) != NULL);
PROBE_FN(synch_nr_waiters, nk_synch_nr_waiters(o));

static const struct probe bad_synch_probes[] = {
    P(synch_destroy, -EINVAL),
    PL(synch_destroy_locked, -EINVAL, NULL),
    PL(synch_sleep_brief, -EINVAL, NULL),
    PL(synch_acquire_brief, -EINVAL, NULL),
    PL(synch_release, -EINVAL, NULL),
    PL(synch_wakeup_one, 0, NULL),
    PL(synch_wakeup_main, -EINVAL, NULL),
    PL(synch_flush, -EINVAL, NULL),
    PL(synch_try_acquire_main, -EINVAL, NULL),
    PL(synch_owner, 0, NULL),
    PL(synch_nr_waiters, 0, NULL),
};

TEST(synch_forged_and_destroyed)
{
	struct nk_synch synch;

	setup(10);
	PROBE_JUNK(bad_synch_probes);
	PROBE(bad_synch_probes, NULL);
	CHECK_EQ(nk_synch_init(cx.nk, &synch, "gone", NK_SYNCH_PI, 0), 0);
	CHECK_EQ(nk_synch_destroy(&synch), 0);
	PROBE(bad_synch_probes, &synch);
	CHECK_EQ(nk_synch_init(cx.nk, &synch, "gone", NK_SYNCH_PI, 0), 0);
	nk_lock(cx.nk);
	CHECK_EQ(nk_synch_destroy_locked(&synch), 0);
	nk_unlock(cx.nk);
	PROBE(bad_synch_probes, &synch);
	teardown();
}

/* A plain (ownerless) synch refuses ownership calls. */
static const struct probe plain_synch_probes[] = {
    PL(synch_acquire_brief, -EINVAL, NULL),
    PL(synch_release, -EINVAL, NULL),
    PL(synch_try_acquire_main, -EINVAL, NULL),
    PL(synch_wakeup_main, -ESRCH, NULL),
    PL(synch_wakeup_one, 0, NULL),
    PL(synch_sleep_bad_mode, -EINVAL, NULL),
    PL(synch_flush, 0, NULL),
    PL(synch_nr_waiters, 0, NULL),
};

/* A PI synch main owns. */
static const struct probe owned_synch_probes[] = {
    PL(synch_acquire_brief, -EDEADLK, NULL),
    PL(synch_sleep_brief, -EDEADLK, NULL),
    PL(synch_try_acquire_main, -EBUSY, NULL),
    PL(synch_acquire_bad_mode, -EINVAL, NULL),
    PL(synch_owner, 1, NULL),
};

/* A PP synch whose ceiling (5) is below main's priority (10). */
static const struct probe low_ceiling_probes[] = {
    PL(synch_acquire_brief, -EPERM, NULL),
    PL(synch_try_acquire_main, -EPERM, NULL),
    PL(synch_release, -EPERM, NULL),
    PL(synch_owner, 0, NULL),
};

/* Another thread may not release main's synch. */
static const struct probe other_thread_probes[] = {
    PL(synch_release, -EPERM, &cx.osynch),
    PL(synch_try_acquire_main, -EBUSY, &cx.osynch),
};

TEST(synch_bad_use)
{
	struct script other = SCRIPT(other_thread_probes);
	struct nk_synch pp;

	setup(10);
	CHECK_EQ(nk_synch_init(cx.nk, &pp, "pp", NK_SYNCH_PP, 5), 0);
	PROBE(plain_synch_probes, &cx.synch);
	PROBE(low_ceiling_probes, &pp);
	acquire_osynch();
	PROBE(owned_synch_probes, &cx.osynch);
	spawn_script("other", 20, &other);
	CHECK_REPORT(&other.report);
	/* Still main's, and releasable once. */
	nk_lock(cx.nk);
	CHECK(nk_synch_owner(&cx.osynch) == nk_thread_self(cx.nk));
	CHECK_EQ(nk_synch_release(&cx.osynch), 0);
	CHECK_EQ(nk_synch_release(&cx.osynch), -EPERM);
	CHECK(nk_synch_owner(&cx.osynch) == NULL);
	nk_unlock(cx.nk);
	CHECK_EQ(nk_now(cx.nk), 0);
	teardown();
}

/* === sem.h === */

struct sem_init_case {
	const char *why;
	unsigned long count, max;
	unsigned int flags;
	const char *name;
	int expect;
};

static const struct sem_init_case sem_init_cases[] = {
    {"owner flag", 0, 0, NK_SYNCH_OWNER, "s", -EINVAL},
    {"PI flag", 0, 0, NK_SYNCH_PI, "s", -EINVAL},
    {"PP flag", 0, 0, NK_SYNCH_PP, "s", -EINVAL},
    {"flag 0x100", 0, 0, 0x100, "s", -EINVAL},
    {"pulse with units", 1, 0, NK_SEM_PULSE, "s", -EINVAL},
    {"pulse", 0, 0, NK_SEM_PULSE | NK_SYNCH_PRIO, "s", 0},
    {"count above max", 3, 2, NK_SYNCH_FIFO, "s", -EINVAL},
    {"name too long", 0, 0, NK_SYNCH_PRIO, NAME_LONG, -EINVAL},
    {"count at max", 2, 2, NK_SYNCH_PRIO, NAME_OK, 0},
    {"max 0 is ULONG_MAX", ULONG_MAX, 0, NK_SYNCH_FIFO, NULL, 0},
};

TEST(sem_init_bad)
{
	struct nk_sem sem;
	unsigned long count = 0;

	setup(10);
	for (size_t i = 0; i < ARRAY_SIZE(sem_init_cases); i++) {
		const struct sem_init_case *c = &sem_init_cases[i];
		int ret = nk_sem_init(cx.nk, &sem, c->name, c->count, c->max,
				      c->flags);

		if (ret != c->expect)
			test_fail(__FILE__, __LINE__, "%s: %d", c->why, ret);
	}
	CHECK_EQ(nk_sem_init(cx.nk, NULL, "s", 0, 0, 0), -EINVAL);
	CHECK_EQ(nk_sem_init(NULL, &sem, "s", 0, 0, 0), -EINVAL);
	CHECK_EQ(nk_sem_count(&sem, &count), 0);
	CHECK_EQ(count, ULONG_MAX);
	CHECK_EQ(nk_sem_give(&sem), -EOVERFLOW);
	teardown();
}

PROBE_FN(sem_take_bad_mode, nk_sem_take(o, 10 * US, BAD_MODE));
PROBE_FN(sem_take_expired, nk_sem_take(o, -5, NK_RELATIVE));
PROBE_FN(sem_take_past, nk_sem_take(o, 0, NK_ABSOLUTE));
PROBE_FN(sem_flush, nk_sem_flush(o));
PROBE_FN(sem_count, nk_sem_count(o, &(unsigned long){0}));
PROBE_FN(sem_count_null, nk_sem_count(o, NULL));
PROBE_FN(sem_destroy, nk_sem_destroy(o));

static const struct probe bad_sem_probes[] = {
    P(sem_take_now, -EINVAL),	P(sem_take_brief, -EINVAL),
    P(sem_give, -EINVAL),	P(sem_flush, -EINVAL),
    P(sem_count, -EINVAL),	P(sem_destroy, -EINVAL),
    P(sem_count_null, -EINVAL),
};

TEST(sem_forged_and_destroyed)
{
	struct nk_sem sem;

	setup(10);
	PROBE_JUNK(bad_sem_probes);
	PROBE(bad_sem_probes, NULL);
	CHECK_EQ(nk_sem_init(cx.nk, &sem, "gone", 1, 0, 0), 0);
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	PROBE(bad_sem_probes, &sem);
	check_sem_works(&cx.sem);
	teardown();
}

/* An empty semaphore with max 1. */
static const struct probe empty_sem_probes[] = {
    P(sem_take_now, -EWOULDBLOCK),
    P(sem_take_bad_mode, -EINVAL),
    /* Expired timeouts are wake reasons, not errors. */
    P(sem_take_expired, -ETIMEDOUT),
    P(sem_take_past, -ETIMEDOUT),
    P(sem_count_null, -EINVAL),
    P(sem_flush, 0),
    P(sem_give, 0),
    P(sem_give, -EOVERFLOW),
    P(sem_take_now, 0),
};

TEST(sem_bad_use)
{
	struct nk_sem one;
	unsigned long count = 99;

	setup(10);
	CHECK_EQ(nk_sem_init(cx.nk, &one, "one", 0, 1, NK_SYNCH_PRIO), 0);
	PROBE(empty_sem_probes, &one);
	CHECK_EQ(nk_sem_count(&one, &count), 0);
	CHECK_EQ(count, 0);
	CHECK_EQ(nk_now(cx.nk), 0);
	check_sem_works(&one);
	teardown();
}

/* === mutex.h === */

PROBE_FN(mutex_lock_bad_mode, nk_mutex_lock(o, 10 * US, BAD_MODE));
PROBE_FN(mutex_owner, nk_mutex_owner(o) != NULL);
PROBE_FN(mutex_destroy, nk_mutex_destroy(o));
PROBE_FN(mutex_lock_locked, nk_mutex_lock_locked(o, 0, NK_RELATIVE));
PROBE_FN(mutex_trylock_locked, nk_mutex_trylock_locked(o));
PROBE_FN(mutex_unlock_locked, nk_mutex_unlock_locked(o));
PROBE_FN(mutex_giveup_locked, nk_mutex_giveup_locked(o, &(unsigned int){0}));
PROBE_FN(mutex_regain_locked, nk_mutex_regain_locked(o, 1));

static const struct probe bad_mutex_probes[] = {
    P(mutex_lock_now, -EINVAL),	      P(mutex_lock_brief, -EINVAL),
    P(mutex_unlock, -EINVAL),	      P(mutex_owner, 0),
    P(mutex_destroy, -EINVAL),	      P(mutex_lock_locked, -EINVAL),
    P(mutex_trylock_locked, -EINVAL), P(mutex_unlock_locked, -EINVAL),
    P(mutex_giveup_locked, -EINVAL),  P(mutex_regain_locked, -EINVAL),
};

TEST(mutex_forged_and_destroyed)
{
	struct nk_mutex mutex;

	setup(10);
	PROBE_JUNK(bad_mutex_probes);
	PROBE(bad_mutex_probes, NULL);
	CHECK_EQ(nk_mutex_init(cx.nk, &mutex, "gone", NK_SYNCH_PI, 0), 0);
	CHECK_EQ(nk_mutex_lock(&mutex, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_mutex_destroy(&mutex), 0);
	PROBE(bad_mutex_probes, &mutex);
	/* Destroying an owned mutex dropped main's ownership with it. */
	CHECK_EQ(nk_thread_effective_priority(nk_thread_self(cx.nk)), 10);
	check_mutex_works(&cx.mutex);
	teardown();
}

/* main owns cx.mutex; a more urgent thread tries it. */
static const struct probe contender_probes[] = {
    PO(mutex_lock_now, -EWOULDBLOCK, &cx.mutex),
    PO(mutex_lock_brief, -ETIMEDOUT, &cx.mutex),
    PO(mutex_unlock, -EPERM, &cx.mutex),
    PO(mutex_owner, 1, &cx.mutex),
};

/* main's own mutexes: non-recursive and recursive. */
static const struct probe own_mutex_probes[] = {
    PO(mutex_unlock, -EPERM, &cx.mutex),
    PO(mutex_lock_bad_mode, -EINVAL, &cx.mutex),
    PO(mutex_lock_now, 0, &cx.mutex),
    PO(mutex_lock_now, -EDEADLK, &cx.mutex),
    PO(mutex_lock_forever, -EDEADLK, &cx.mutex),
    PO(mutex_unlock, 0, &cx.mutex),
    PO(mutex_unlock, -EPERM, &cx.mutex),
};

TEST(mutex_bad_use)
{
	struct script contender = SCRIPT(contender_probes);
	struct nk_mutex rec, pp;

	setup(10);
	PROBE(own_mutex_probes, NULL);
	CHECK_EQ(nk_mutex_init(cx.nk, &rec, "rec", NK_MUTEX_RECURSIVE, 0), 0);
	CHECK_EQ(nk_mutex_lock(&rec, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_mutex_lock(&rec, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_mutex_unlock(&rec), 0);
	CHECK_EQ(nk_mutex_unlock(&rec), 0);
	CHECK_EQ(nk_mutex_unlock(&rec), -EPERM);
	/* A ceiling below the caller's priority. */
	CHECK_EQ(nk_mutex_init(cx.nk, &pp, "pp", NK_SYNCH_PP, 5), 0);
	CHECK_EQ(nk_mutex_lock(&pp, 0, NK_RELATIVE), -EPERM);
	CHECK(nk_mutex_owner(&pp) == NULL);

	CHECK_EQ(nk_mutex_lock(&cx.mutex, 0, NK_RELATIVE), 0);
	spawn_script("contender", 20, &contender);
	main_sleep(20 * US);
	CHECK_REPORT(&contender.report);
	CHECK_EQ(nk_now(cx.nk), 20 * US);
	CHECK_EQ(nk_mutex_unlock(&cx.mutex), 0);
	check_mutex_works(&cx.mutex);
	check_mutex_works(&rec);
	teardown();
}

/* Locks "other", then waits for "mutex", which main owns. */
static const struct probe cycle_probes[] = {
    PO(mutex_lock_now, 0, &cx.other),
    PO(mutex_lock_forever, 0, &cx.mutex),
    PO(mutex_unlock, 0, &cx.mutex),
    PO(mutex_unlock, 0, &cx.other),
};

TEST(mutex_owner_cycle)
{
	struct script cycler = SCRIPT(cycle_probes);
	struct nk_thread *self;

	setup(10);
	self = nk_thread_self(cx.nk);
	CHECK_EQ(nk_mutex_lock(&cx.mutex, 0, NK_RELATIVE), 0);
	spawn_script("cycler", 20, &cycler);
	/* Waiting for "other" would close main -> other -> mutex -> main. */
	CHECK_EQ(nk_thread_effective_priority(self), 20);
	CHECK_EQ(nk_mutex_lock(&cx.other, NK_INFINITE, NK_RELATIVE), -EDEADLK);
	CHECK_EQ(nk_mutex_lock(&cx.other, 0, NK_RELATIVE), -EWOULDBLOCK);
	CHECK_EQ(nk_thread_effective_priority(self), 20);
	CHECK_EQ(nk_mutex_unlock(&cx.mutex), 0);
	/* The cycler got it, finished and left. */
	CHECK_REPORT(&cycler.report);
	CHECK_EQ(nk_thread_effective_priority(self), 10);
	CHECK_EQ(nr_threads(), 1);
	check_mutex_works(&cx.mutex);
	check_mutex_works(&cx.other);
	teardown();
}

/* === timer.h === */

PROBE_FN(timer_start, nk_timer_start(o, 10 * US, 0, NK_RELATIVE));
PROBE_FN(timer_start_negative, nk_timer_start(o, 10 * US, -1, NK_RELATIVE));
PROBE_FN(timer_start_never_periodic,
	 nk_timer_start(o, NK_INFINITE, 10 * US, NK_RELATIVE));
PROBE_FN(timer_start_bad_mode, nk_timer_start(o, 10 * US, 0, BAD_MODE));
PROBE_FN(timer_start_locked, nk_timer_start_locked(o, 10 * US, 0, NK_RELATIVE));
PROBE_FN(timer_stop, nk_timer_stop(o));
PROBE_FN(timer_destroy, nk_timer_destroy(o));
PROBE_FN(timer_date, nk_timer_date(o));

static const struct probe bad_timer_probes[] = {
    P(timer_start, -EINVAL),   PL(timer_start_locked, -EINVAL, NULL),
    P(timer_stop, -EINVAL),    P(timer_date, NK_INFINITE),
    P(timer_destroy, -EINVAL),
};

static unsigned long fired;

static void count_handler(struct nk_timer *timer)
{
	(void)timer;
	fired++;
}

TEST(timer_init_bad)
{
	setup_cpus(10, 2);
	CHECK_EQ(nk_timer_init(cx.nk, NULL, "t", 0, count_handler, NULL),
		 -EINVAL);
	CHECK_EQ(nk_timer_init(cx.nk, &cx.timer, "t", 0, NULL, NULL), -EINVAL);
	CHECK_EQ(nk_timer_init(cx.nk, &cx.timer, "t", -1, count_handler, NULL),
		 -EINVAL);
	CHECK_EQ(nk_timer_init(cx.nk, &cx.timer, "t", 2, count_handler, NULL),
		 -EINVAL);
	CHECK_EQ(nk_timer_init(NULL, &cx.timer, "t", 0, count_handler, NULL),
		 -EINVAL);
	/* Nothing was initialised. */
	PROBE(bad_timer_probes, &cx.timer);
	CHECK_EQ(nk_timer_init(cx.nk, &cx.timer, NULL, 1, count_handler, NULL),
		 0);
	fired = 0;
	CHECK_EQ(nk_timer_start(&cx.timer, 10 * US, 0, NK_RELATIVE), 0);
	main_sleep(20 * US);
	CHECK_EQ(fired, 1);
	teardown();
}

TEST(timer_forged_and_destroyed)
{
	setup(10);
	PROBE_JUNK(bad_timer_probes);
	PROBE(bad_timer_probes, NULL);
	CHECK_EQ(
	    nk_timer_init(cx.nk, &cx.timer, "gone", 0, count_handler, NULL), 0);
	CHECK_EQ(nk_timer_start(&cx.timer, 10 * US, 10 * US, NK_RELATIVE), 0);
	CHECK_EQ(nk_timer_destroy(&cx.timer), 0);
	PROBE(bad_timer_probes, &cx.timer);
	/* The destroyed timer was disarmed: it never fires. */
	fired = 0;
	main_sleep(50 * US);
	CHECK_EQ(fired, 0);
	teardown();
}

/* An armed timer (due at 10 us) keeps its date through bad starts. */
static const struct probe armed_timer_probes[] = {
    P(timer_start_negative, -EINVAL),
    P(timer_start_never_periodic, -EINVAL),
    P(timer_start_bad_mode, -EINVAL),
    P(timer_date, 10 * US),
};

TEST(timer_bad_args)
{
	setup(10);
	CHECK_EQ(nk_timer_init(cx.nk, &cx.timer, "t", 0, count_handler, NULL),
		 0);
	CHECK_EQ(nk_timer_stop(&cx.timer), 0);
	CHECK_EQ(nk_timer_start(&cx.timer, NK_INFINITE, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_timer_date(&cx.timer), NK_INFINITE);
	CHECK_EQ(nk_timer_start(&cx.timer, 10 * US, 0, NK_RELATIVE), 0);
	PROBE(armed_timer_probes, &cx.timer);
	fired = 0;
	main_sleep(10 * US);
	CHECK_EQ(fired, 1);
	CHECK_EQ(nk_timer_date(&cx.timer), NK_INFINITE);
	teardown();
}

/*
 * In a timer handler (interrupt context, lock held) there is no calling
 * thread: every blocking service refuses with -EPERM, the lock-held ones
 * refuse to block or to own, and the non-blocking ones work.  A foreign
 * pthread (below) gets the same answers to these.
 */
static const struct probe no_thread_probes[] = {
    P(thread_self_on, 0),
    P(thread_sleep_on, -EPERM),
    P(thread_yield_on, -EPERM),
    P(thread_wait_period_on, -EPERM),
    P(thread_exit_on, -EPERM),
    P(thread_relax_on, -EPERM),
    P(thread_harden_on, -EPERM),
    P(thread_set_mode_on, -EPERM),
    P(sched_lock_on, -EPERM),
    P(clock_consume, -EPERM),
    P(inst_destroy, -EPERM),
    P(join_peer, -EPERM),
    PO(sem_take_brief, -EPERM, &cx.sem),
    PO(sem_take_now, -EWOULDBLOCK, &cx.sem),
    PO(mutex_lock_brief, -EPERM, &cx.mutex),
    PO(mutex_unlock, -EPERM, &cx.other),
    PL(synch_sleep_brief, -EPERM, &cx.synch),
    PL(synch_release, -EPERM, &cx.osynch),
    /* Context "any": the peer waits on the semaphore. */
    P(peer_set_rr, 0),
    P(peer_set_fifo, 0),
};

/* What a handler may do besides, after no_thread_probes. */
static const struct probe handler_probes[] = {
    PL(synch_acquire_brief, -EPERM, &cx.synch),
    PL(synch_owner, 1, &cx.osynch),
    /* Readying threads is what handlers are for. */
    PO(sem_give, 0, &cx.sem),
    PL(synch_wakeup_one, 1, &cx.synch),
    PL(synch_nr_waiters, 0, &cx.synch),
};

static struct report handler_report;

static void probing_handler(struct nk_timer *timer)
{
	(void)timer;
	fired++;
	probe_into(&handler_report, no_thread_probes,
		   ARRAY_SIZE(no_thread_probes), cx.nk, NULL);
	probe_into(&handler_report, handler_probes, ARRAY_SIZE(handler_probes),
		   cx.nk, NULL);
}

/*
 * main holds cx.other and cx.osynch while a context without a calling
 * thread probes them: they stay main's, and release normally.
 */
static void hold_other_and_osynch(void)
{
	CHECK_EQ(nk_mutex_lock(&cx.other, 0, NK_RELATIVE), 0);
	acquire_osynch();
}

static void release_other_and_osynch(void)
{
	CHECK(nk_mutex_owner(&cx.other) == nk_thread_self(cx.nk));
	CHECK(nk_mutex_owner(&cx.mutex) == NULL);
	CHECK_EQ(nk_mutex_unlock(&cx.other), 0);
	nk_lock(cx.nk);
	CHECK_EQ(nk_synch_release(&cx.osynch), 0);
	nk_unlock(cx.nk);
}

static int waiter_result = 1;

static void synch_waiter_body(void *arg)
{
	(void)arg;
	nk_lock(cx.nk);
	waiter_result = nk_synch_sleep(&cx.synch, NK_INFINITE, NK_RELATIVE);
	nk_unlock(cx.nk);
}

static int peer_result = 1;

static void sem_waiter_body(void *arg)
{
	(void)arg;
	peer_result = nk_sem_take(&cx.sem, NK_INFINITE, NK_RELATIVE);
}

TEST(timer_handler_context)
{
	setup(10);
	memset(&handler_report, 0, sizeof(handler_report));
	fired = 0;
	waiter_result = peer_result = 1;
	spawn("waiter", 20, 0, synch_waiter_body, NULL);
	cx.peer = spawn("peer", 15, NK_THREAD_JOINABLE, sem_waiter_body, NULL);
	hold_other_and_osynch();
	CHECK_EQ(
	    nk_timer_init(cx.nk, &cx.timer, "probe", 0, probing_handler, NULL),
	    0);
	CHECK_EQ(nk_timer_start(&cx.timer, 5 * US, 0, NK_RELATIVE), 0);
	main_sleep(10 * US);
	CHECK_EQ(fired, 1);
	CHECK_REPORT(&handler_report);
	/* Both waiters were woken by the handler, at its date. */
	CHECK_EQ(waiter_result, 0);
	CHECK_EQ(nk_thread_join(cx.peer), 0);
	CHECK_EQ(peer_result, 0);
	CHECK_EQ(nk_now(cx.nk), 10 * US);
	release_other_and_osynch();
	check_sem_works(&cx.sem);
	teardown();
}

/* === clock.h === */

PROBE_FN(tbase_set_period, nk_tbase_set_period(o, 1000));
PROBE_FN(tbase_set_period_negative, nk_tbase_set_period(o, -1));
PROBE_FN(tbase_ticks, (long long)nk_tbase_ticks(o));
PROBE_FN(tbase_set_ticks, nk_tbase_set_ticks(o, 5));
PROBE_FN(tbase_timeout, nk_tbase_timeout(o, 3));
PROBE_FN(tbase_ticks_to_ns, nk_tbase_ticks_to_ns(o, 3));
PROBE_FN(tbase_ns_to_ticks, (long long)nk_tbase_ns_to_ticks(o, 3000));

static const struct probe bad_tbase_probes[] = {
    P(tbase_set_period, -EINVAL),
    P(tbase_set_period_negative, -EINVAL),
    P(tbase_ticks, 0),
    P(tbase_set_ticks, -EINVAL),
    P(tbase_timeout, NK_INFINITE),
    P(tbase_ticks_to_ns, 0),
    P(tbase_ns_to_ticks, 0),
};

/* A 1 us tick base, 10 us after its start. */
static const struct probe live_tbase_probes[] = {
    P(tbase_set_period_negative, -EINVAL),
    P(tbase_ticks, 10),
    P(tbase_ticks_to_ns, 3 * US),
    P(tbase_ns_to_ticks, 3),
    P(tbase_timeout, 13 * US),
};

TEST(clock_bad)
{
	setup(10);
	PROBE_JUNK(bad_tbase_probes);
	PROBE(bad_tbase_probes, NULL);
	CHECK_EQ(nk_tbase_init(cx.nk, NULL, 1000), -EINVAL);
	CHECK_EQ(nk_tbase_init(cx.nk, &cx.tbase, -1), -EINVAL);
	CHECK_EQ(nk_tbase_init(NULL, &cx.tbase, 1000), -EINVAL);
	PROBE(bad_tbase_probes, &cx.tbase);
	CHECK_EQ(nk_tbase_init(cx.nk, &cx.tbase, 1000), 0);
	CHECK_EQ(nk_consume(cx.nk, -1), -EINVAL);
	CHECK_EQ(nk_now(cx.nk), 0);
	CHECK_EQ(nk_consume(cx.nk, 0), 0);
	CHECK_EQ(nk_consume(cx.nk, 10 * US), 0);
	PROBE(live_tbase_probes, &cx.tbase);
	CHECK_EQ(nk_set_wallclock(NULL, 1), -EINVAL);
	CHECK_EQ(nk_set_wallclock(cx.nk, 1000 * US), 0);
	CHECK_EQ(nk_wallclock(cx.nk), 1000 * US);
	teardown();
}

/* === trace.h === */

TEST(trace_bad)
{
	struct nk_trace_record rec = {
	    .date = 1234,
	    .cpu = 1,
	    .event = NK_TRACE_SWITCH,
	    .thread = "next",
	    .object = "prev",
	};
	enum nk_trace_event bogus = (enum nk_trace_event) ~0u;
	char buf[64];

	CHECK_STR(nk_trace_event_name(NK_TRACE_NR_EVENTS), "?");
	CHECK_STR(nk_trace_event_name(bogus), "?");
	/* As snprintf: the full length, whatever the room. */
	CHECK_EQ(nk_trace_format(&rec, NULL, 0), 33);
	memset(buf, 'x', sizeof(buf));
	CHECK_EQ(nk_trace_format(&rec, buf, 10), 33);
	CHECK_STR(buf, "1234 cpu1");
	CHECK_EQ(nk_trace_format(&rec, buf, sizeof(buf)), 33);
	CHECK_STR(buf, "1234 cpu1 switch next (from prev)");
	rec.event = NK_TRACE_NR_EVENTS;
	rec.object = NULL;
	CHECK_EQ(nk_trace_format(&rec, buf, sizeof(buf)), 16);
	CHECK_STR(buf, "1234 cpu1 ? next");
}

/* === heap.h === */

static _Alignas(64) unsigned char arena[4096];

PROBE_FN(heap_destroy, nk_heap_destroy(o));

static long long heap_alloc(void *o)
{
	void *p = NULL;

	return nk_heap_alloc(o, 16, &p) ? (p == NULL ? -EINVAL : 1) : 0;
}

PROBE_FN(heap_free, nk_heap_free(o, arena + 64));
PROBE_FN(heap_size, nk_heap_size(o, arena + 64, &(size_t){0}));
PROBE_FN(heap_stats, nk_heap_stats(o, &(struct nk_heap_stats){0}));
PROBE_FN(heap_check, nk_heap_check(o));

static const struct probe bad_heap_probes[] = {
    P(heap_alloc, -EINVAL), P(heap_free, -EINVAL),  P(heap_size, -EINVAL),
    P(heap_stats, -EINVAL), P(heap_check, -EINVAL), P(heap_destroy, -EINVAL),
};

TEST(heap_bad)
{
	struct nk_heap_stats before, after;
	size_t size;
	void *p, *q = arena;

	PROBE_JUNK(bad_heap_probes);
	PROBE(bad_heap_probes, NULL);
	CHECK_EQ(nk_heap_init(NULL, arena, sizeof(arena)), -EINVAL);
	CHECK_EQ(nk_heap_init(&cx.heap, NULL, sizeof(arena)), -EINVAL);
	CHECK_EQ(nk_heap_init(&cx.heap, arena, 8), -EINVAL);
	CHECK_EQ(nk_heap_init(&cx.heap, arena, sizeof(arena)), 0);
	CHECK_EQ(nk_heap_alloc(&cx.heap, 64, &p), 0);
	CHECK_EQ(nk_heap_stats(&cx.heap, &before), 0);
	CHECK_EQ(nk_heap_alloc(&cx.heap, 0, &q), -EINVAL);
	CHECK_EQ(nk_heap_alloc(&cx.heap, 16, NULL), -EINVAL);
	CHECK_EQ(nk_heap_alloc(&cx.heap, sizeof(arena), &q), -ENOMEM);
	CHECK(q == NULL);
	CHECK_EQ(nk_heap_free(&cx.heap, NULL), -EINVAL);
	CHECK_EQ(nk_heap_free(&cx.heap, (char *)p + 16), -EINVAL);
	CHECK_EQ(nk_heap_free(&cx.heap, junk), -EINVAL);
	CHECK_EQ(nk_heap_size(&cx.heap, p, NULL), -EINVAL);
	CHECK_EQ(nk_heap_stats(&cx.heap, NULL), -EINVAL);
	CHECK_EQ(nk_heap_stats(&cx.heap, &after), 0);
	CHECK(memcmp(&before, &after, sizeof(before)) == 0);
	CHECK_EQ(nk_heap_check(&cx.heap), 0);
	CHECK_EQ(nk_heap_size(&cx.heap, p, &size), 0);
	CHECK(size >= 64);
	CHECK_EQ(nk_heap_free(&cx.heap, p), 0);
	CHECK_EQ(nk_heap_free(&cx.heap, p), -EINVAL);
	CHECK_EQ(nk_heap_check(&cx.heap), 0);
	CHECK_EQ(nk_heap_destroy(&cx.heap), 0);
	PROBE(bad_heap_probes, &cx.heap);
}

/* === registry.h === */

PROBE_FN(registry_destroy, nk_registry_destroy(o));
PROBE_FN(registry_enter,
	 nk_registry_enter(o, NK_NS_DEFAULT, "x", 1, &cx, &(nk_handle_t){0}));
PROBE_FN(registry_remove, nk_registry_remove(o, 1));
PROBE_FN(registry_lookup, nk_registry_lookup(o, 1, 0, &(void *){NULL}));
PROBE_FN(registry_find,
	 nk_registry_find(o, NK_NS_DEFAULT, "x", &(nk_handle_t){0}));
PROBE_FN(registry_name,
	 nk_registry_name(o, 1, (char[NK_NAME_MAX]){0}, NK_NAME_MAX));
PROBE_FN(registry_namespace, nk_registry_namespace(o, "ns", &(uint32_t){0}));
PROBE_FN(registry_next, nk_registry_next(o, NK_NS_DEFAULT, &(uint32_t){0},
					 &(struct nk_registry_entry){0}));
PROBE_FN(registry_next_within,
	 nk_registry_next_within(o, NK_NS_DEFAULT, &(uint32_t){0}, 1,
				 &(struct nk_registry_entry){0}));

static const struct probe bad_registry_probes[] = {
    P(registry_enter, -EINVAL),	    P(registry_remove, -EINVAL),
    P(registry_lookup, -EINVAL),    P(registry_find, -EINVAL),
    P(registry_name, -EINVAL),	    P(registry_destroy, -EINVAL),
    P(registry_namespace, -EINVAL), P(registry_next, -EINVAL),
    P(registry_next_within, -EINVAL),
};

TEST(registry_bad)
{
	struct nk_registry *reg = &cx.registry;
	struct nk_registry_entry entry;
	uint32_t ns, cursor = 0;
	nk_handle_t h, other;
	char buf[NK_NAME_MAX];
	void *obj;

	PROBE_JUNK(bad_registry_probes);
	PROBE(bad_registry_probes, NULL);
	CHECK_EQ(nk_registry_init(NULL, 8), -EINVAL);
	CHECK_EQ(nk_registry_init(reg, 0), -EINVAL);
	CHECK_EQ(nk_registry_init(reg, 1), -EINVAL);
	CHECK_EQ(nk_registry_init(reg, (1u << 20) + 1), -EINVAL);
	PROBE(bad_registry_probes, reg);
	CHECK_EQ(nk_registry_init(reg, 2), 0);
	CHECK_EQ(nk_registry_enter(reg, NK_NS_DEFAULT, "a", 0, &cx, &h),
		 -EINVAL);
	CHECK_EQ(nk_registry_enter(reg, NK_NS_DEFAULT, "a", 1, NULL, &h),
		 -EINVAL);
	CHECK_EQ(nk_registry_enter(reg, NK_NS_DEFAULT, "a", 1, &cx, NULL),
		 -EINVAL);
	CHECK_EQ(nk_registry_enter(reg, NK_NS_DEFAULT, NAME_LONG, 1, &cx, &h),
		 -EINVAL);
	CHECK_EQ(nk_registry_enter(reg, NK_NS_DEFAULT, NAME_OK, 1, &cx, &h), 0);
	CHECK_EQ(nk_registry_enter(reg, NK_NS_DEFAULT, NAME_OK, 1, &cx, &other),
		 -EEXIST);
	CHECK_EQ(nk_registry_enter(reg, NK_NS_DEFAULT, NULL, 1, &cx, &other),
		 0);
	CHECK_EQ(nk_registry_enter(reg, NK_NS_DEFAULT, NULL, 1, &cx, &other),
		 -ENOSPC);
	CHECK_EQ(nk_registry_lookup(reg, NK_HANDLE_INVALID, 0, &obj), -ESRCH);
	CHECK_EQ(nk_registry_lookup(reg, h, 2, &obj), -ESRCH);
	CHECK_EQ(nk_registry_lookup(reg, h, 1, NULL), -EINVAL);
	CHECK_EQ(nk_registry_find(reg, NK_NS_DEFAULT, NULL, &other), -EINVAL);
	CHECK_EQ(nk_registry_find(reg, NK_NS_DEFAULT, NAME_OK, NULL), -EINVAL);
	CHECK_EQ(nk_registry_find(reg, NK_NS_DEFAULT, NAME_LONG, &other),
		 -EINVAL);
	CHECK_EQ(nk_registry_name(reg, h, NULL, sizeof(buf)), -EINVAL);
	CHECK_EQ(nk_registry_name(reg, h, buf, 0), -EINVAL);
	CHECK_EQ(nk_registry_find(reg, 1, NAME_OK, &other), -EINVAL);
	CHECK_EQ(nk_registry_enter(reg, 1, "b", 1, &cx, &other), -EINVAL);
	CHECK_EQ(nk_registry_namespace(reg, NAME_LONG, &ns), -EINVAL);
	CHECK_EQ(nk_registry_namespace(reg, NAME_OK, NULL), -EINVAL);
	CHECK_EQ(nk_registry_next(reg, 1, &cursor, &entry), -EINVAL);
	CHECK_EQ(nk_registry_remove(reg, other), 0);
	CHECK_EQ(nk_registry_remove(reg, other), -ESRCH);
	CHECK_EQ(nk_registry_name(reg, other, buf, sizeof(buf)), -ESRCH);
	/* The named entry survived all of it. */
	CHECK_EQ(nk_registry_find(reg, NK_NS_DEFAULT, NAME_OK, &other), 0);
	CHECK_EQ(other, h);
	CHECK_EQ(nk_registry_lookup(reg, h, 1, &obj), 0);
	CHECK(obj == &cx);
	CHECK_EQ(nk_registry_name(reg, h, buf, sizeof(buf)), 0);
	CHECK_STR(buf, NAME_OK);
	CHECK_EQ(nk_registry_destroy(reg), 0);
	PROBE(bad_registry_probes, reg);
}

/* === wrong context: a plain pthread === */

/*
 * From a foreign OS thread (main waits in pthread_join, outside the
 * nucleus), every thread-context service refuses with -EPERM; the "any"
 * ones work.  These come after no_thread_probes.
 */
static const struct probe foreign_probes[] = {
    P(inst_backend, 1),
    P(inst_nr_cpus, 1),
    P(inst_registry, 1),
    P(inst_describe, 0),
    P(inst_check, 0),
    P(thread_sleep_bad_mode, -EINVAL),
    P(thread_periodic_on, -EPERM),
    P(thread_periodic_negative, -EINVAL),
    P(thread_set_mode_bad, -EINVAL),
    P(sched_unlock_on, -EPERM),
    P(sched_locked_on, -EPERM),
    PO(mutex_lock_now, -EPERM, &cx.mutex),
    PL(synch_acquire_brief, -EPERM, &cx.osynch),
    /* Non-blocking, "any" context: wakes the peer waiting on sem. */
    PO(sem_give, 0, &cx.sem),
};

static struct report foreign_report;

static void *foreign_main(void *arg)
{
	(void)arg;
	probe_into(&foreign_report, no_thread_probes,
		   ARRAY_SIZE(no_thread_probes), cx.nk, cx.nk);
	probe_into(&foreign_report, foreign_probes, ARRAY_SIZE(foreign_probes),
		   cx.nk, cx.nk);
	return NULL;
}

TEST(foreign_thread)
{
	pthread_t foreign;

	setup(10);
	memset(&foreign_report, 0, sizeof(foreign_report));
	peer_result = 1;
	cx.peer = spawn("peer", 5, NK_THREAD_JOINABLE, sem_waiter_body, NULL);
	hold_other_and_osynch();
	/* Let the peer block on the semaphore. */
	main_sleep(1 * US);
	CHECK_EQ(nk_thread_state(cx.peer), NK_THREAD_PENDING);
	CHECK_EQ(pthread_create(&foreign, NULL, foreign_main, NULL), 0);
	CHECK_EQ(pthread_join(foreign, NULL), 0);
	CHECK_REPORT(&foreign_report);
	/* The give readied the peer, less urgent than main: no switch yet. */
	CHECK_EQ(nk_thread_state(cx.peer), NK_THREAD_READY);
	CHECK_EQ(nk_thread_join(cx.peer), 0);
	CHECK_EQ(peer_result, 0);
	CHECK_EQ(nk_now(cx.nk), 1 * US);
	release_other_and_osynch();
	check_sem_works(&cx.sem);
	teardown();
}

TESTS(T(instance_forged), T(instance_create_bad_attr),
      T(instance_destroy_not_creator), T(instance_create_nested),
      T(thread_create_bad_attr), T(thread_forged),
      T(thread_dormant_and_started), T(thread_terminated),
      T(thread_join_errors), T(thread_periodic_errors), T(thread_mode_errors),
      T(sched_lock_errors), T(synch_init_bad), T(synch_forged_and_destroyed),
      T(synch_bad_use), T(sem_init_bad), T(sem_forged_and_destroyed),
      T(sem_bad_use), T(mutex_forged_and_destroyed), T(mutex_bad_use),
      T(mutex_owner_cycle), T(timer_init_bad), T(timer_forged_and_destroyed),
      T(timer_bad_args), T(timer_handler_context), T(clock_bad), T(trace_bad),
      T(heap_bad), T(registry_bad), T(foreign_thread));
