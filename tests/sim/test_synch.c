/* SPDX-License-Identifier: MIT */
/*
 * The synch primitive, mutexes and semaphores on the sim backend:
 * priority inheritance (bounded inversion, transitive chains, de-boost on
 * release, timeout, priority change and deletion), priority ceiling,
 * deadlock detection, ownership transfer order, deletion of objects and
 * threads, semaphore counting and wake order, and the raw synch API.
 *
 * Threads run small scripts (struct step).  Every step that returns
 * appends one entry to a log, and a trace sink appends every effective
 * priority change, so a test compares one exact string:
 *
 *   name:at    a sleep until an absolute date ended
 *   name:run   an nk_consume() ended
 *   name+obj   lock / take / sleep on / join returned
 *   name-obj   unlock / give returned
 *   name^N     effective priority became N (trace)
 *   =R         the call returned R (omitted when 0): -1 EPERM,
 *              -4 EINTR, -11 EWOULDBLOCK, -35 EDEADLK, -43 EIDRM,
 *              -110 ETIMEDOUT, -130 EOWNERDEAD
 *   @T         virtual date in microseconds
 *
 * main runs at priority 99: it observes and acts at exact dates while
 * the scripted threads (priorities below) are frozen.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <limits.h>
#include <stdarg.h>

#define US 1000LL
#define MS 1000000LL
#define MAIN_PRIO 99
#define MAX_THREADS 8

enum op {
	OP_END,
	OP_AT,	     /* nk_thread_sleep until absolute date arg */
	OP_RUN,	     /* nk_consume(arg) */
	OP_LOCK,     /* nk_mutex_lock(obj, relative timeout arg) */
	OP_UNLOCK,   /* nk_mutex_unlock(obj) */
	OP_TAKE,     /* nk_sem_take(obj, relative timeout arg) */
	OP_GIVE,     /* nk_sem_give(obj) */
	OP_SLEEP_ON, /* nk_synch_sleep(obj, relative timeout arg) */
	OP_JOIN,     /* nk_thread_join(*obj) */
};

struct step {
	enum op op;
	void *obj;
	nk_time_t arg;
};

/* clang-format off */
#define AT(date) {OP_AT, NULL, (date)}
#define RUN(ns) {OP_RUN, NULL, (ns)}
#define LOCK(m) {OP_LOCK, (m), NK_INFINITE}
#define LOCK_TMO(m, ns) {OP_LOCK, (m), (ns)}
#define UNLOCK(m) {OP_UNLOCK, (m), 0}
#define TAKE(s) {OP_TAKE, (s), NK_INFINITE}
#define GIVE(s) {OP_GIVE, (s), 0}
#define SLEEP_ON(q) {OP_SLEEP_ON, (q), NK_INFINITE}
#define JOIN(tp) {OP_JOIN, (tp), 0}
#define END {OP_END, NULL, 0}
/* clang-format on */

static struct nk_instance *nk;
static struct nk_thread *spawned[MAX_THREADS];
static bool reaped[MAX_THREADS];
static int nr_spawned;
static char log_buf[4096];

static struct nk_mutex m1, m2, m3;
static struct nk_sem sem;
static struct nk_synch syn, syn2, syn3;

static void note_at(nk_time_t date, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Append "<text>@<date in us>" to the log. */
static void note_at(nk_time_t date, const char *fmt, ...)
{
	size_t len = strlen(log_buf);
	va_list ap;

	if (len)
		len += snprintf(log_buf + len, sizeof(log_buf) - len, " ");
	va_start(ap, fmt);
	len += vsnprintf(log_buf + len, sizeof(log_buf) - len, fmt, ap);
	va_end(ap);
	if (date % US)
		snprintf(log_buf + len, sizeof(log_buf) - len, "@%lld.%03lld",
			 (long long)(date / US), (long long)(date % US));
	else
		snprintf(log_buf + len, sizeof(log_buf) - len, "@%lld",
			 (long long)(date / US));
}

/* Runs with the nucleus lock held: only records. */
static void trace_prio(void *ctx, const struct nk_trace_record *rec)
{
	(void)ctx;
	if (rec->event == NK_TRACE_PRIO)
		note_at(rec->date, "%s^%ld", rec->thread, rec->arg);
}

static const char *step_object(const struct step *s)
{
	switch (s->op) {
	case OP_LOCK:
	case OP_UNLOCK:
		return ((struct nk_mutex *)s->obj)->synch.name;
	case OP_TAKE:
	case OP_GIVE:
		return ((struct nk_sem *)s->obj)->synch.name;
	case OP_SLEEP_ON:
		return ((struct nk_synch *)s->obj)->name;
	case OP_JOIN:
		return nk_thread_name(*(struct nk_thread **)s->obj);
	default:
		return "";
	}
}

static int synch_sleep(struct nk_synch *synch, nk_time_t timeout)
{
	int ret;

	nk_lock(nk);
	ret = nk_synch_sleep(synch, timeout, NK_RELATIVE);
	nk_unlock(nk);
	return ret;
}

static int step_do(const struct step *s)
{
	switch (s->op) {
	case OP_AT:
		return nk_thread_sleep(nk, s->arg, NK_ABSOLUTE);
	case OP_RUN:
		return nk_consume(nk, s->arg);
	case OP_LOCK:
		return nk_mutex_lock(s->obj, s->arg, NK_RELATIVE);
	case OP_UNLOCK:
		return nk_mutex_unlock(s->obj);
	case OP_TAKE:
		return nk_sem_take(s->obj, s->arg, NK_RELATIVE);
	case OP_GIVE:
		return nk_sem_give(s->obj);
	case OP_SLEEP_ON:
		return synch_sleep(s->obj, s->arg);
	case OP_JOIN:
		return nk_thread_join(*(struct nk_thread **)s->obj);
	default:
		return -ENOSYS;
	}
}

static void step_log(const char *self, const struct step *s, int ret)
{
	char what[64];

	switch (s->op) {
	case OP_AT:
		snprintf(what, sizeof(what), "%s:at", self);
		break;
	case OP_RUN:
		snprintf(what, sizeof(what), "%s:run", self);
		break;
	case OP_UNLOCK:
	case OP_GIVE:
		snprintf(what, sizeof(what), "%s-%s", self, step_object(s));
		break;
	default:
		snprintf(what, sizeof(what), "%s+%s", self, step_object(s));
		break;
	}
	if (ret)
		note_at(nk_now(nk), "%s=%d", what, ret);
	else
		note_at(nk_now(nk), "%s", what);
}

static void run_script(void *arg)
{
	const char *self = nk_thread_name(nk_thread_self(nk));

	for (const struct step *s = arg; s->op != OP_END; s++)
		step_log(self, s, step_do(s));
}

static void setup(void)
{
	struct nk_instance_attr attr = {
	    .backend = "sim",
	    .main_priority = MAIN_PRIO,
	};

	/* A failed check in main leaves its instance behind: end it here so
	 * one failure does not make every later test fail too. */
	if (nk)
		nk_instance_destroy(nk);
	nk = NULL;
	nr_spawned = 0;
	log_buf[0] = '\0';
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
	CHECK_EQ(nk_instance_set_trace(nk, trace_prio, NULL), 0);
}

/* A joinable thread running @script, started at once. */
static struct nk_thread *spawn(const char *name, int prio, struct step *script)
{
	struct nk_thread_attr attr = {
	    .name = name,
	    .priority = prio,
	    .flags = NK_THREAD_JOINABLE,
	};
	struct nk_thread *thread = NULL;

	CHECK(nr_spawned < MAX_THREADS);
	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	reaped[nr_spawned] = false;
	spawned[nr_spawned++] = thread;
	CHECK_EQ(nk_thread_start(thread, run_script, script), 0);
	return thread;
}

/* Join @thread now (the final join_all() skips it); returns the join's. */
static int reap(struct nk_thread *thread)
{
	for (int i = 0; i < nr_spawned; i++) {
		if (spawned[i] == thread && !reaped[i]) {
			reaped[i] = true;
			return nk_thread_join(thread);
		}
	}
	CHECK(!"not a spawned thread");
	return -ESRCH;
}

/* Wait until every scripted thread has ended. */
static void join_all(void)
{
	for (int i = 0; i < nr_spawned; i++)
		if (!reaped[i])
			CHECK_EQ(reap(spawned[i]), 0);
}

static void teardown(void)
{
	test_instance_whole(nk);
	CHECK_EQ(nk_instance_destroy(nk), 0);
	nk = NULL;
}

/* Join everybody, compare the log, end the instance. */
static void finish(const char *expect)
{
	join_all();
	CHECK_STR(log_buf, expect);
	teardown();
}

/* main sleeps until @date. */
static void at(nk_time_t date)
{
	CHECK_EQ(nk_thread_sleep(nk, date, NK_ABSOLUTE), 0);
	CHECK_EQ(nk_now(nk), date);
}

static void check_prio(struct nk_thread *thread, int base, int effective)
{
	CHECK_EQ(nk_thread_priority(thread), base);
	CHECK_EQ(nk_thread_effective_priority(thread), effective);
}

static void init_mutex(struct nk_mutex *mutex, const char *name,
		       unsigned int flags, int ceiling)
{
	CHECK_EQ(nk_mutex_init(nk, mutex, name, flags, ceiling), 0);
}

/* A fresh instance whose mutex m1 is @name, with @flags and @ceiling. */
static void setup_m1(const char *name, unsigned int flags, int ceiling)
{
	setup();
	init_mutex(&m1, name, flags, ceiling);
}

/* main sleeps until @date, then checks @thread's priorities there. */
static void check_prio_at(nk_time_t date, struct nk_thread *thread, int base,
			  int effective)
{
	at(date);
	check_prio(thread, base, effective);
}

static unsigned int nr_waiters(struct nk_synch *synch)
{
	unsigned int n;

	nk_lock(nk);
	n = nk_synch_nr_waiters(synch);
	nk_unlock(nk);
	return n;
}

/* Scripts several tests share. */
static struct step hold_m1_5ms[] = {LOCK(&m1), RUN(5 * MS), UNLOCK(&m1), END};
static struct step hold_m1_10ms[] = {LOCK(&m1), RUN(10 * MS), UNLOCK(&m1), END};
static struct step lock_m1_at_1ms[] = {AT(1 * MS), LOCK(&m1), UNLOCK(&m1), END};
/* A chain link: owns m2 from 1 ms, then waits for m1. */
static struct step chain_link[] = {AT(1 * MS),	LOCK(&m2),   LOCK(&m1),
				   UNLOCK(&m1), UNLOCK(&m2), END};
static struct step lock_m2_at_2ms[] = {AT(2 * MS), LOCK(&m2), UNLOCK(&m2), END};

/*
 * a (10) then b (20), both running @script: b gets the CPU first.
 * @a and @b may be NULL.
 */
static void spawn_pair(struct step *script, struct nk_thread **a,
		       struct nk_thread **b)
{
	struct nk_thread *ta = spawn("a", 10, script);
	struct nk_thread *tb = spawn("b", 20, script);

	if (a)
		*a = ta;
	if (b)
		*b = tb;
}

struct arrival {
	const char *name;
	int prio;
};

#define MAX_STEPS 8
static struct step arrival_scripts[MAX_THREADS][MAX_STEPS];

/*
 * Spawn one thread per @table entry; the i-th sleeps until (i + 1) *
 * 100 us, so they reach @body in table order whatever their priority.
 */
static void spawn_arrivals(const struct arrival *table, int n,
			   const struct step *body)
{
	for (int i = 0; i < n; i++) {
		struct step *s = arrival_scripts[i];
		int k = 0;

		s[k++] = (struct step)AT((i + 1) * 100 * US);
		for (const struct step *b = body; b->op != OP_END; b++) {
			CHECK(k < MAX_STEPS - 1);
			s[k++] = *b;
		}
		s[k] = (struct step)END;
		spawn(table[i].name, table[i].prio, s);
	}
}

/* --- priority inheritance --- */

/*
 * low (10) holds m for 3 ms of work; high (30) needs m at 1 ms; mid (20)
 * wakes at 1.5 ms for 5 ms of work.  At 2 ms low runs at @low_at_2ms.
 */
static void run_inversion(unsigned int flags, int low_at_2ms,
			  const char *expect)
{
	struct step low_s[] = {LOCK(&m1), RUN(3 * MS), UNLOCK(&m1), END};
	struct step mid_s[] = {AT(1500 * US), RUN(5 * MS), END};
	struct step high_s[] = {AT(1 * MS), LOCK(&m1), RUN(500 * US),
				UNLOCK(&m1), END};
	struct nk_thread *low, *mid, *high;

	setup_m1("m", flags, 0);
	low = spawn("low", 10, low_s);
	mid = spawn("mid", 20, mid_s);
	high = spawn("high", 30, high_s);
	check_prio_at(2 * MS, low, 10, low_at_2ms);
	CHECK(nk_mutex_owner(&m1) == low);
	CHECK_EQ(nk_thread_state(high), NK_THREAD_PENDING);
	CHECK_EQ(nk_thread_state(mid), NK_THREAD_READY);
	finish(expect);
}

TEST(pi_bounds_inversion)
{
	/* low inherits 30 exactly while high waits (1 ms .. 3 ms); mid,
	 * ready since 1.5 ms, first runs when high is done. */
	run_inversion(NK_SYNCH_PI, 30,
		      "low+m@0 high:at@1000 low^30@1000 low:run@3000 "
		      "low^10@3000 high+m@3000 high:run@3500 high-m@3500 "
		      "mid:at@3500 mid:run@8500 low-m@8500");
}

TEST(no_pi_unbounded_inversion)
{
	/* The same scenario without inheritance: mid runs at 1.5 ms and
	 * keeps high waiting 7 ms instead of 2. */
	run_inversion(NK_SYNCH_PRIO, 10,
		      "low+m@0 high:at@1000 mid:at@1500 mid:run@6500 "
		      "low:run@8000 high+m@8000 high:run@8500 high-m@8500 "
		      "low-m@8500");
}

TEST(pi_transitive_chain)
{
	struct step t2_s[] = {AT(1 * MS),  LOCK(&m2),	LOCK(&m1), RUN(1 * MS),
			      UNLOCK(&m1), UNLOCK(&m2), END};
	struct step t3_s[] = {AT(2 * MS),  LOCK(&m3),	LOCK(&m2), RUN(1 * MS),
			      UNLOCK(&m2), UNLOCK(&m3), END};
	struct step t4_s[] = {AT(3 * MS), LOCK(&m3), RUN(1 * MS), UNLOCK(&m3),
			      END};
	struct nk_thread *t1, *t2, *t3, *t4;

	setup_m1("m1", NK_SYNCH_PI, 0);
	init_mutex(&m2, "m2", NK_SYNCH_PI, 0);
	init_mutex(&m3, "m3", NK_SYNCH_PI, 0);
	t1 = spawn("T1", 10, hold_m1_10ms);
	t2 = spawn("T2", 20, t2_s);
	t3 = spawn("T3", 30, t3_s);
	t4 = spawn("T4", 40, t4_s);
	check_prio_at(3500 * US, t1, 10, 40);
	check_prio(t2, 20, 40);
	check_prio(t3, 30, 40);
	check_prio(t4, 40, 40);
	/* T1 released m1 at 10 ms; T2 still carries T4's priority. */
	check_prio_at(10500 * US, t1, 10, 10);
	check_prio(t2, 20, 40);
	check_prio(t3, 30, 40);
	check_prio_at(11500 * US, t2, 20, 20);
	check_prio(t3, 30, 40);
	check_prio_at(12500 * US, t3, 30, 30);
	check_prio(t4, 40, 40);
	finish("T1+m1@0 T2:at@1000 T2+m2@1000 T1^20@1000 T3:at@2000 "
	       "T3+m3@2000 T2^30@2000 T1^30@2000 T4:at@3000 T3^40@3000 "
	       "T2^40@3000 T1^40@3000 T1:run@10000 T1^10@10000 "
	       "T2+m1@10000 T2:run@11000 T2-m1@11000 T2^20@11000 "
	       "T3+m2@11000 T3:run@12000 T3-m2@12000 T3^30@12000 "
	       "T4+m3@12000 T4:run@13000 T4-m3@13000 T3-m3@13000 "
	       "T2-m2@13000 T1-m1@13000");
}

/*
 * O (10) owns ma (m1) and mb (m2); W1 (20) waits on ma, W2 (30) on mb.
 * O releases @first at 3 ms, @second at 4 ms; at 3.5 ms it runs at
 * @o_at_3500.
 */
static void run_two_boosts(struct nk_mutex *first, struct nk_mutex *second,
			   int o_at_3500, const char *expect)
{
	struct step o_s[] = {
	    LOCK(&m1),	 LOCK(&m2),	 RUN(3 * MS), UNLOCK(first),
	    RUN(1 * MS), UNLOCK(second), END};
	struct nk_thread *o;

	setup_m1("ma", NK_SYNCH_PI, 0);
	init_mutex(&m2, "mb", NK_SYNCH_PI, 0);
	o = spawn("O", 10, o_s);
	spawn("W1", 20, lock_m1_at_1ms);
	spawn("W2", 30, lock_m2_at_2ms);
	check_prio_at(2500 * US, o, 10, 30);
	check_prio_at(3500 * US, o, 10, o_at_3500);
	finish(expect);
}

TEST(pi_deboost_to_next_boost)
{
	/* Releasing mb (W2, 30) leaves ma's boost (W1, 20), then base. */
	run_two_boosts(&m2, &m1, 20,
		       "O+ma@0 O+mb@0 W1:at@1000 O^20@1000 W2:at@2000 "
		       "O^30@2000 O:run@3000 O^20@3000 W2+mb@3000 "
		       "W2-mb@3000 O-mb@3000 O:run@4000 O^10@4000 "
		       "W1+ma@4000 W1-ma@4000 O-ma@4000");
}

TEST(pi_release_lower_keeps_boost)
{
	/* Releasing ma (W1, 20) first changes nothing: mb still holds 30. */
	run_two_boosts(&m1, &m2, 30,
		       "O+ma@0 O+mb@0 W1:at@1000 O^20@1000 W2:at@2000 "
		       "O^30@2000 O:run@3000 O-ma@3000 O:run@4000 O^10@4000 "
		       "W2+mb@4000 W2-mb@4000 W1+ma@4000 W1-ma@4000 "
		       "O-mb@4000");
}

TEST(pi_deboost_on_waiter_timeout)
{
	struct step mid_s[] = {AT(2 * MS), RUN(1 * MS), END};
	struct step w_s[] = {AT(1 * MS), LOCK_TMO(&m1, 2 * MS), END};
	struct nk_thread *o;

	setup_m1("m", NK_SYNCH_PI, 0);
	o = spawn("O", 10, hold_m1_5ms);
	spawn("M", 20, mid_s);
	spawn("W", 30, w_s);
	check_prio_at(2500 * US, o, 10, 30);
	check_prio_at(3500 * US, o, 10, 10);
	/* O drops at 3 ms exactly, so M (ready since 2 ms) runs then. */
	finish("O+m@0 W:at@1000 O^30@1000 O^10@3000 W+m=-110@3000 "
	       "M:at@3000 M:run@4000 O:run@6000 O-m@6000");
}

/* O (10) holds m1 for 5 ms of work; W (30) waits for it from 1 ms. */
static void start_owner_and_waiter(struct nk_thread **o, struct nk_thread **w)
{
	setup_m1("m", NK_SYNCH_PI, 0);
	*o = spawn("O", 10, hold_m1_5ms);
	*w = spawn("W", 30, lock_m1_at_1ms);
}

TEST(pi_follows_waiter_priority)
{
	struct nk_thread *o, *w;

	start_owner_and_waiter(&o, &w);
	check_prio_at(2 * MS, o, 10, 30);
	CHECK_EQ(nk_thread_set_priority(w, 15), 0);
	check_prio(o, 10, 15);
	at(3 * MS);
	CHECK_EQ(nk_thread_set_priority(w, 50), 0);
	check_prio(o, 10, 50);
	/* Below the owner's base: the owner is back at its base. */
	at(4 * MS);
	CHECK_EQ(nk_thread_set_priority(w, 5), 0);
	check_prio(o, 10, 10);
	finish("O+m@0 W:at@1000 O^30@1000 W^15@2000 O^15@2000 W^50@3000 "
	       "O^50@3000 W^5@4000 O^10@4000 O:run@5000 O-m@5000 W+m@5000 "
	       "W-m@5000");
}

TEST(pi_owner_base_change_keeps_boost)
{
	struct nk_thread *o, *w;

	start_owner_and_waiter(&o, &w);
	at(2 * MS);
	CHECK_EQ(nk_thread_set_priority(o, 40), 0);
	check_prio(o, 40, 40);
	CHECK_EQ(nk_thread_set_priority(o, 5), 0);
	check_prio(o, 5, 30);
	finish("O+m@0 W:at@1000 O^30@1000 O^40@2000 O^30@2000 O:run@5000 "
	       "O^5@5000 W+m@5000 W-m@5000 O-m@5000");
}

/*
 * T1 (10) owns m1 for 10 ms of work; T2 (20) owns m2 from 1 ms and waits
 * for m1; T3 (30) waits for m2 from 2 ms.  At 3 ms T1 and T2 run at 30.
 */
static void start_chain(struct nk_thread **t1, struct nk_thread **t2,
			struct nk_thread **t3)
{
	setup_m1("m1", NK_SYNCH_PI, 0);
	init_mutex(&m2, "m2", NK_SYNCH_PI, 0);
	*t1 = spawn("T1", 10, hold_m1_10ms);
	*t2 = spawn("T2", 20, chain_link);
	*t3 = spawn("T3", 30, lock_m2_at_2ms);
	check_prio_at(3 * MS, *t1, 10, 30);
	check_prio(*t2, 20, 30);
}

TEST(pi_chain_follows_waiter_priority)
{
	struct nk_thread *t1, *t2, *t3;

	start_chain(&t1, &t2, &t3);
	CHECK_EQ(nk_thread_set_priority(t3, 50), 0);
	check_prio(t2, 20, 50);
	check_prio(t1, 10, 50);
	at(4 * MS);
	CHECK_EQ(nk_thread_set_priority(t3, 25), 0);
	check_prio(t2, 20, 25);
	check_prio(t1, 10, 25);
	at(5 * MS);
	CHECK_EQ(nk_thread_set_priority(t3, 5), 0);
	check_prio(t2, 20, 20);
	check_prio(t1, 10, 20);
	finish("T1+m1@0 T2:at@1000 T2+m2@1000 T1^20@1000 T3:at@2000 "
	       "T2^30@2000 T1^30@2000 T3^50@3000 T2^50@3000 T1^50@3000 "
	       "T3^25@4000 T2^25@4000 T1^25@4000 T3^5@5000 T2^20@5000 "
	       "T1^20@5000 T1:run@10000 T1^10@10000 T2+m1@10000 "
	       "T2-m1@10000 T2-m2@10000 T1-m1@10000 T3+m2@10000 "
	       "T3-m2@10000");
}

/* --- priority ceiling --- */

TEST(pp_runs_at_ceiling)
{
	struct step t_s[] = {LOCK(&m1), RUN(2 * MS), UNLOCK(&m1), RUN(1 * MS),
			     END};
	struct step mid_s[] = {AT(1 * MS), RUN(1 * MS), END};
	struct nk_thread *t, *mid;

	setup_m1("m", NK_SYNCH_PP, 50);
	t = spawn("T", 10, t_s);
	mid = spawn("Mid", 30, mid_s);
	check_prio_at(1500 * US, t, 10, 50);
	CHECK_EQ(nk_thread_state(mid), NK_THREAD_READY);
	check_prio_at(2500 * US, t, 10, 10);
	/* Mid (ready at 1 ms) waits for T to leave its critical section. */
	finish("T^50@0 T+m@0 T:run@2000 T^10@2000 Mid:at@2000 Mid:run@3000 "
	       "T-m@3000 T:run@4000");
}

TEST(pp_lock_above_ceiling_eperm)
{
	struct nk_thread *self;

	setup();
	self = nk_thread_self(nk);
	init_mutex(&m1, "low_ceiling", NK_SYNCH_PP, MAIN_PRIO - 1);
	init_mutex(&m2, "equal", NK_SYNCH_PP, MAIN_PRIO);
	init_mutex(&m3, "top", NK_SYNCH_PP, NK_PRIO_MAX);
	CHECK_EQ(nk_mutex_lock(&m1, NK_INFINITE, NK_RELATIVE), -EPERM);
	CHECK(nk_mutex_owner(&m1) == NULL);
	check_prio(self, MAIN_PRIO, MAIN_PRIO);
	CHECK_EQ(nk_mutex_lock(&m2, NK_INFINITE, NK_RELATIVE), 0);
	check_prio(self, MAIN_PRIO, MAIN_PRIO);
	CHECK_EQ(nk_mutex_lock(&m3, NK_INFINITE, NK_RELATIVE), 0);
	check_prio(self, MAIN_PRIO, NK_PRIO_MAX);
	CHECK_EQ(nk_mutex_unlock(&m3), 0);
	check_prio(self, MAIN_PRIO, MAIN_PRIO);
	CHECK_EQ(nk_mutex_unlock(&m2), 0);
	CHECK_STR(log_buf, "main^255@0 main^99@0");
	teardown();
}

/* --- deadlocks and misuse --- */

/*
 * A (20) owns m1 and waits for m2; B (10) owns m2 and asks for m1: it
 * must fail at once with -EDEADLK, then release m2 to A.
 */
static void run_owner_cycle(unsigned int flags, const char *expect)
{
	struct step a_s[] = {LOCK(&m1),	  AT(1 * MS),  LOCK(&m2),
			     UNLOCK(&m2), UNLOCK(&m1), END};
	struct step b_s[] = {LOCK(&m2), AT(2 * MS), LOCK(&m1), UNLOCK(&m2),
			     END};

	setup_m1("m1", flags, 0);
	init_mutex(&m2, "m2", flags, 0);
	spawn("A", 20, a_s);
	spawn("B", 10, b_s);
	finish(expect);
}

TEST(owner_cycle_edeadlk)
{
	static const char plain[] =
	    "A+m1@0 B+m2@0 A:at@1000 B:at@2000 B+m1=-35@2000 A+m2@2000 "
	    "A-m2@2000 A-m1@2000 B-m2@2000";

	run_owner_cycle(NK_SYNCH_FIFO, plain);
	run_owner_cycle(NK_SYNCH_PRIO, plain);
	run_owner_cycle(NK_SYNCH_PI,
			"A+m1@0 B+m2@0 A:at@1000 B^20@1000 B:at@2000 "
			"B+m1=-35@2000 B^10@2000 A+m2@2000 A-m2@2000 "
			"A-m1@2000 B-m2@2000");
}

TEST(relock_nonrecursive_edeadlk)
{
	static const unsigned int flags[] = {NK_SYNCH_FIFO, NK_SYNCH_PRIO,
					     NK_SYNCH_PI, NK_SYNCH_PP};
	struct nk_thread *self;

	setup();
	self = nk_thread_self(nk);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		init_mutex(&m1, "m", flags[i], MAIN_PRIO);
		CHECK_EQ(nk_mutex_lock(&m1, NK_INFINITE, NK_RELATIVE), 0);
		CHECK_EQ(nk_mutex_lock(&m1, NK_INFINITE, NK_RELATIVE),
			 -EDEADLK);
		CHECK_EQ(nk_mutex_lock(&m1, 0, NK_RELATIVE), -EDEADLK);
		CHECK(nk_mutex_owner(&m1) == self);
		/* One unlock frees it: the failed relocks did not nest. */
		CHECK_EQ(nk_mutex_unlock(&m1), 0);
		CHECK(nk_mutex_owner(&m1) == NULL);
		CHECK_EQ(nk_mutex_unlock(&m1), -EPERM);
		CHECK_EQ(nk_mutex_destroy(&m1), 0);
	}
	CHECK_EQ(nk_now(nk), 0);
	teardown();
}

TEST(recursive_mutex_nests)
{
	struct step w_s[] = {LOCK(&m1), UNLOCK(&m1), END};
	struct nk_thread *self, *w;

	setup();
	self = nk_thread_self(nk);
	init_mutex(&m1, "m", NK_MUTEX_RECURSIVE | NK_SYNCH_PI, 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(nk_mutex_lock(&m1, NK_INFINITE, NK_RELATIVE), 0);
	CHECK_EQ(nk_mutex_lock(&m1, 0, NK_RELATIVE), 0);
	w = spawn("W", 10, w_s);
	at(1 * MS);
	CHECK_EQ(nr_waiters(&m1.synch), 1);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(nk_mutex_unlock(&m1), 0);
		CHECK(nk_mutex_owner(&m1) == self);
	}
	CHECK_EQ(nk_mutex_unlock(&m1), 0);
	CHECK(nk_mutex_owner(&m1) == w);
	CHECK_EQ(nk_mutex_unlock(&m1), -EPERM);
	finish("W+m@1000 W-m@1000");
}

TEST(non_owner_unlock_and_trylock)
{
	struct step x_s[] = {UNLOCK(&m1), LOCK_TMO(&m1, 0), END};
	struct nk_thread *self;

	setup();
	self = nk_thread_self(nk);
	init_mutex(&m1, "m", NK_SYNCH_PI, 0);
	CHECK_EQ(nk_mutex_unlock(&m1), -EPERM);
	CHECK_EQ(nk_mutex_lock(&m1, NK_INFINITE, NK_RELATIVE), 0);
	spawn("X", 10, x_s);
	at(1 * MS);
	CHECK(nk_mutex_owner(&m1) == self);
	CHECK_EQ(nr_waiters(&m1.synch), 0);
	CHECK_EQ(nk_mutex_unlock(&m1), 0);
	finish("X-m=-1@0 X+m=-11@0");
}

/* A trylock never blocks, so it takes a free mutex under a sched lock. */
TEST(mutex_trylock)
{
	struct step x_s[] = {LOCK(&m1), AT(2 * MS), UNLOCK(&m1), END};
	struct nk_thread *self;

	setup();
	self = nk_thread_self(nk);
	init_mutex(&m1, "m", NK_MUTEX_RECURSIVE | NK_SYNCH_PI, 0);
	init_mutex(&m2, "m2", NK_SYNCH_PI, 0);
	CHECK_EQ(nk_sched_lock(nk), 0);
	nk_lock(nk);
	CHECK_EQ(nk_mutex_lock_locked(&m1, 0, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_mutex_trylock_locked(&m1), 0);
	CHECK_EQ(nk_mutex_trylock_locked(&m1), 0);
	CHECK_EQ(nk_mutex_trylock_locked(&m2), 0);
	CHECK_EQ(nk_mutex_trylock_locked(&m2), -EDEADLK);
	CHECK_EQ(nk_mutex_unlock_locked(&m2), 0);
	CHECK_EQ(nk_mutex_unlock_locked(&m1), 0);
	CHECK(nk_mutex_owner(&m1) == self);
	CHECK_EQ(nk_mutex_unlock_locked(&m1), 0);
	CHECK(nk_mutex_owner(&m1) == NULL);
	nk_unlock(nk);
	CHECK_EQ(nk_sched_unlock(nk), 0);
	/* Owned by another: would block. */
	spawn("X", 10, x_s);
	at(1 * MS);
	nk_lock(nk);
	CHECK_EQ(nk_mutex_trylock_locked(&m1), -EWOULDBLOCK);
	CHECK_EQ(nk_mutex_lock_locked(&m1, NK_INFINITE, NK_RELATIVE), 0);
	CHECK(nk_mutex_owner(&m1) == self);
	CHECK_EQ(nk_mutex_unlock_locked(&m1), 0);
	nk_unlock(nk);
	finish("X+m@0 X^99@1000 X:at@2000 X^10@2000 X-m@2000");
}

/* A condition wait's give-up and regain keep the nesting. */
TEST(mutex_giveup_regain)
{
	struct step x_s[] = {LOCK(&m1), AT(2 * MS), UNLOCK(&m1), END};
	unsigned int depth = 0;
	struct nk_thread *self;

	setup();
	self = nk_thread_self(nk);
	init_mutex(&m1, "m", NK_MUTEX_RECURSIVE | NK_SYNCH_PI, 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(nk_mutex_lock(&m1, NK_INFINITE, NK_RELATIVE), 0);
	spawn("X", 10, x_s);
	nk_lock(nk);
	CHECK_EQ(nk_mutex_regain_locked(&m1, 0), -EINVAL);
	CHECK_EQ(nk_mutex_giveup_locked(&m1, NULL), -EINVAL);
	CHECK_EQ(nk_mutex_giveup_locked(&m1, &depth), 0);
	CHECK_EQ(depth, 3);
	CHECK_EQ(nk_mutex_giveup_locked(&m1, &depth), -EPERM);
	nk_unlock(nk);
	/* X takes it at once (main is not a waiter), and holds it. */
	at(1 * MS);
	nk_lock(nk);
	CHECK_EQ(nk_mutex_regain_locked(&m1, depth), 0);
	CHECK(nk_mutex_owner(&m1) == self);
	nk_unlock(nk);
	note_at(nk_now(nk), "main+m");
	for (int i = 0; i < 3; i++)
		CHECK_EQ(nk_mutex_unlock(&m1), 0);
	CHECK_EQ(nk_mutex_unlock(&m1), -EPERM);
	finish("X+m@0 X^99@1000 X:at@2000 X^10@2000 main+m@2000 X-m@2000");
}

/* --- ownership transfer order --- */

/*
 * main holds m; w10, w30, w20, x30 (named after their priority) queue
 * on it in that order; main releases it at 1 ms.
 */
static void run_transfer(unsigned int flags, const char *expect)
{
	static const struct arrival waiters[] = {
	    {"w10", 10}, {"w30", 30}, {"w20", 20}, {"x30", 30}};
	struct step body[] = {LOCK(&m1), UNLOCK(&m1), END};

	setup_m1("m", flags, 0);
	CHECK_EQ(nk_mutex_lock(&m1, NK_INFINITE, NK_RELATIVE), 0);
	spawn_arrivals(waiters, 4, body);
	at(1 * MS);
	CHECK_EQ(nr_waiters(&m1.synch), 4);
	CHECK_EQ(nk_mutex_unlock(&m1), 0);
	note_at(nk_now(nk), "main-m");
	finish(expect);
}

TEST(transfer_prio_order)
{
	static const char expect[] =
	    "w10:at@100 w30:at@200 w20:at@300 x30:at@400 main-m@1000 "
	    "w30+m@1000 w30-m@1000 x30+m@1000 x30-m@1000 w20+m@1000 "
	    "w20-m@1000 w10+m@1000 w10-m@1000";

	run_transfer(NK_SYNCH_PRIO, expect);
	run_transfer(NK_SYNCH_PI, expect);
}

TEST(transfer_fifo_order)
{
	/* Acquisitions (+m) follow arrival: w10, w30, w20, x30. */
	run_transfer(NK_SYNCH_FIFO,
		     "w10:at@100 w30:at@200 w20:at@300 x30:at@400 "
		     "main-m@1000 w10+m@1000 w30+m@1000 w30-m@1000 "
		     "w20+m@1000 x30+m@1000 x30-m@1000 w20-m@1000 "
		     "w10-m@1000");
}

/* --- deletion --- */

/*
 * a (10) and b (20) block with @op on @obj; main destroys it at 1 ms.
 * Both wake with -EIDRM, b first.
 */
static void run_destroy(enum op op, void *obj, const char *expect)
{
	struct step waiter_s[] = {{op, obj, NK_INFINITE}, END};
	struct nk_synch *synch;

	spawn_pair(waiter_s, NULL, NULL);
	at(1 * MS);
	switch (op) {
	case OP_TAKE:
		synch = &sem.synch;
		CHECK_EQ(nr_waiters(synch), 2);
		CHECK_EQ(nk_sem_destroy(&sem), 0);
		CHECK_EQ(nk_sem_give(&sem), -EINVAL);
		break;
	case OP_LOCK:
		synch = &m1.synch;
		CHECK_EQ(nr_waiters(synch), 2);
		CHECK_EQ(nk_mutex_destroy(&m1), 0);
		CHECK(nk_mutex_owner(&m1) == NULL);
		CHECK_EQ(nk_mutex_unlock(&m1), -EINVAL);
		break;
	default:
		synch = &syn;
		CHECK_EQ(nr_waiters(synch), 2);
		CHECK_EQ(nk_synch_destroy(&syn), 0);
		CHECK_EQ(nk_synch_destroy(&syn), -EINVAL);
		break;
	}
	CHECK_EQ(nr_waiters(synch), 0);
	note_at(nk_now(nk), "main:destroyed");
	finish(expect);
}

TEST(sem_destroy_wakes_deleted)
{
	setup();
	CHECK_EQ(nk_sem_init(nk, &sem, "s", 0, 0, NK_SYNCH_FIFO), 0);
	run_destroy(OP_TAKE, &sem,
		    "main:destroyed@1000 b+s=-43@1000 a+s=-43@1000");
}

TEST(mutex_destroy_wakes_deleted)
{
	setup_m1("m", NK_SYNCH_PI, 0);
	CHECK_EQ(nk_mutex_lock(&m1, NK_INFINITE, NK_RELATIVE), 0);
	run_destroy(OP_LOCK, &m1,
		    "main:destroyed@1000 b+m=-43@1000 a+m=-43@1000");
}

/*
 * Unlocked to w, which has not run yet, then destroyed: w's lock fails
 * as a deletion (it must not come back owning a mutex that is gone).
 */
TEST(mutex_destroy_after_handoff)
{
	struct step w_s[] = {LOCK(&m1), END};

	setup_m1("m", NK_SYNCH_PI, 0);
	CHECK_EQ(nk_mutex_lock(&m1, NK_INFINITE, NK_RELATIVE), 0);
	spawn("w", 10, w_s);
	at(1 * MS);
	CHECK_EQ(nr_waiters(&m1.synch), 1);
	CHECK_EQ(nk_mutex_unlock(&m1), 0);
	CHECK_EQ(nk_mutex_destroy(&m1), 0);
	note_at(nk_now(nk), "main:destroyed");
	finish("main:destroyed@1000 w+m=-43@1000");
}

TEST(synch_destroy_wakes_deleted)
{
	setup();
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_PRIO, 0), 0);
	run_destroy(OP_SLEEP_ON, &syn,
		    "main:destroyed@1000 b+q=-43@1000 a+q=-43@1000");
}

TEST(delete_waiter_deboosts_owner)
{
	struct step w_s[] = {AT(1 * MS), LOCK(&m1), END};
	struct nk_thread *o, *w;

	setup_m1("m", NK_SYNCH_PI, 0);
	o = spawn("O", 10, hold_m1_5ms);
	w = spawn("W", 30, w_s);
	check_prio_at(2 * MS, o, 10, 30);
	CHECK_EQ(nk_thread_delete(w), 0);
	check_prio(o, 10, 10);
	CHECK_EQ(nr_waiters(&m1.synch), 0);
	CHECK_EQ(nk_thread_state(w), NK_THREAD_ZOMBIE);
	finish("O+m@0 W:at@1000 O^30@1000 O^10@2000 O:run@5000 O-m@5000");
}

TEST(delete_owner_passes_mutex)
{
	struct step w2_s[] = {AT(1500 * US), LOCK(&m1), RUN(1 * MS),
			      UNLOCK(&m1), END};
	struct nk_thread *o, *w1, *w2;

	setup_m1("m", NK_SYNCH_PI, 0);
	o = spawn("O", 10, hold_m1_5ms);
	w1 = spawn("W1", 20, lock_m1_at_1ms);
	w2 = spawn("W2", 30, w2_s);
	check_prio_at(2 * MS, o, 10, 30);
	CHECK_EQ(nk_thread_delete(o), 0);
	/* The top waiter owns it now; nobody carries the old boost. */
	CHECK(nk_mutex_owner(&m1) == w2);
	CHECK_EQ(nk_thread_state(o), NK_THREAD_ZOMBIE);
	check_prio(o, 10, 10);
	check_prio(w2, 30, 30);
	check_prio(w1, 20, 20);
	CHECK_EQ(nr_waiters(&m1.synch), 1);
	finish("O+m@0 W1:at@1000 O^20@1000 W2:at@1500 O^30@1500 O^10@2000 "
	       "W2+m=-130@2000 W2:run@3000 W2-m@3000 W1+m@3000 W1-m@3000");
}

TEST(delete_thread_blocked_in_join)
{
	struct nk_thread *target, *j;
	struct step t_s[] = {AT(3 * MS), END};
	struct step j_s[] = {JOIN(&target), END};

	setup();
	target = spawn("T", 10, t_s);
	j = spawn("J", 20, j_s);
	at(1 * MS);
	CHECK_EQ(nk_thread_state(j), NK_THREAD_PENDING);
	CHECK_EQ(nk_thread_delete(j), 0);
	CHECK_EQ(nk_thread_state(j), NK_THREAD_ZOMBIE);
	CHECK_EQ(nk_thread_state(target), NK_THREAD_DELAYED);
	CHECK_EQ(reap(j), 0);
	/* Nobody joins T any more: main may. */
	CHECK_EQ(reap(target), 0);
	CHECK_EQ(nk_now(nk), 3 * MS);
	finish("T:at@3000");
}

TEST(zombie_until_joined)
{
	struct step sleeper_s[] = {AT(5 * MS), END};
	struct step quick_s[] = {END};
	struct nk_thread *sleeper, *quick;

	setup();
	sleeper = spawn("S", 10, sleeper_s);
	quick = spawn("Q", 20, quick_s);
	CHECK_EQ(nk_thread_state(quick), NK_THREAD_READY);
	at(1 * MS);
	/* Q returned from its entry: a zombie until joined. */
	CHECK_EQ(nk_thread_state(quick), NK_THREAD_ZOMBIE);
	CHECK_EQ(nk_thread_state(sleeper), NK_THREAD_DELAYED);
	CHECK_EQ(nk_thread_delete(sleeper), 0);
	CHECK_EQ(nk_thread_state(sleeper), NK_THREAD_ZOMBIE);
	CHECK_EQ(nk_thread_delete(sleeper), -ESRCH);
	CHECK_EQ(nk_thread_set_priority(sleeper, 30), -ESRCH);
	CHECK_EQ(nk_thread_delete(quick), -ESRCH);
	CHECK_EQ(nk_now(nk), 1 * MS);
	finish("");
}

TEST(delete_chain_link)
{
	struct nk_thread *t1, *t2, *t3;

	start_chain(&t1, &t2, &t3);
	/* T2 leaves m1's queue (T1 drops at once) and hands m2 to T3. */
	CHECK_EQ(nk_thread_delete(t2), 0);
	check_prio(t1, 10, 10);
	check_prio(t2, 20, 20);
	CHECK(nk_mutex_owner(&m1) == t1);
	CHECK(nk_mutex_owner(&m2) == t3);
	CHECK_EQ(nr_waiters(&m1.synch), 0);
	finish("T1+m1@0 T2:at@1000 T2+m2@1000 T1^20@1000 T3:at@2000 "
	       "T2^30@2000 T1^30@2000 T1^10@3000 T2^20@3000 "
	       "T3+m2=-130@3000 T3-m2@3000 T1:run@10000 T1-m1@10000");
}

/* --- semaphores --- */

static unsigned long sem_count(void)
{
	unsigned long count = 12345;

	CHECK_EQ(nk_sem_count(&sem, &count), 0);
	return count;
}

TEST(sem_counting_and_max)
{
	setup();
	CHECK_EQ(nk_sem_init(nk, &sem, "s", 4, 3, NK_SYNCH_FIFO), -EINVAL);
	CHECK_EQ(nk_sem_init(nk, &sem, "s", 0, 0, NK_SYNCH_PI), -EINVAL);
	CHECK_EQ(nk_sem_init(nk, &sem, "s", 2, 3, NK_SYNCH_FIFO), 0);
	CHECK_EQ(nk_sem_take(&sem, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_sem_take(&sem, NK_INFINITE, NK_RELATIVE), 0);
	CHECK_EQ(sem_count(), 0);
	CHECK_EQ(nk_sem_take(&sem, 0, NK_RELATIVE), -EWOULDBLOCK);
	for (int i = 1; i <= 3; i++) {
		CHECK_EQ(nk_sem_give(&sem), 0);
		CHECK_EQ(sem_count(), i);
	}
	CHECK_EQ(nk_sem_give(&sem), -EOVERFLOW);
	CHECK_EQ(sem_count(), 3);
	/* A timed take on an empty semaphore fails at its date. */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(nk_sem_take(&sem, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_sem_take(&sem, 700 * US, NK_RELATIVE), -ETIMEDOUT);
	CHECK_EQ(nk_now(nk), 700 * US);
	CHECK_EQ(sem_count(), 0);
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	CHECK_EQ(nk_sem_count(&sem, &(unsigned long){0}), -EINVAL);
	/* max 0 means ULONG_MAX. */
	CHECK_EQ(nk_sem_init(nk, &sem, "s", ULONG_MAX, 0, NK_SYNCH_PRIO), 0);
	CHECK_EQ(nk_sem_give(&sem), -EOVERFLOW);
	CHECK(sem_count() == ULONG_MAX);
	teardown();
}

/* w10, w30, w20 queue on sem in that order; main gives one unit per ms. */
static void run_sem_order(unsigned int flags, const char *expect)
{
	static const struct arrival waiters[] = {
	    {"w10", 10}, {"w30", 30}, {"w20", 20}};
	struct step body[] = {TAKE(&sem), END};

	setup();
	CHECK_EQ(nk_sem_init(nk, &sem, "s", 0, 0, flags), 0);
	spawn_arrivals(waiters, 3, body);
	for (int i = 1; i <= 3; i++) {
		at(i * MS);
		CHECK_EQ(nk_sem_give(&sem), 0);
		CHECK_EQ(sem_count(), 0);
	}
	finish(expect);
}

TEST(sem_fifo_wake_order)
{
	run_sem_order(NK_SYNCH_FIFO,
		      "w10:at@100 w30:at@200 w20:at@300 w10+s@1000 "
		      "w30+s@2000 w20+s@3000");
}

TEST(sem_prio_wake_order)
{
	run_sem_order(NK_SYNCH_PRIO,
		      "w10:at@100 w30:at@200 w20:at@300 w30+s@1000 "
		      "w20+s@2000 w10+s@3000");
}

/* a (10) and b (20) wait on sem (@flags) from 0; main goes on at 1 ms. */
static void sem_two_waiters(unsigned int flags)
{
	static struct step waiter_s[] = {TAKE(&sem), END};

	setup();
	CHECK_EQ(nk_sem_init(nk, &sem, "s", 0, 0, flags), 0);
	spawn_pair(waiter_s, NULL, NULL);
	at(1 * MS);
}

TEST(sem_flush_keeps_count)
{
	sem_two_waiters(NK_SYNCH_PRIO);
	CHECK_EQ(nk_sem_flush(&sem), 0);
	CHECK_EQ(sem_count(), 0);
	join_all();
	/* Without waiters a flush leaves the units where they are. */
	CHECK_EQ(nk_sem_give(&sem), 0);
	CHECK_EQ(nk_sem_give(&sem), 0);
	CHECK_EQ(nk_sem_flush(&sem), 0);
	CHECK_EQ(sem_count(), 2);
	CHECK_EQ(nk_sem_take(&sem, 0, NK_RELATIVE), 0);
	CHECK_EQ(sem_count(), 1);
	finish("b+s=-4@1000 a+s=-4@1000");
}

/* A pulse give reaches a waiter or nobody: the count never grows. */
TEST(sem_pulse_gives_only_waiters)
{
	sem_two_waiters(NK_SEM_PULSE);
	CHECK_EQ(nk_sem_give(&sem), 0);
	at(2 * MS);
	/* One waiter left: the second give is lost. */
	nk_lock(nk);
	CHECK_EQ(nk_sem_give_locked(&sem), 0);
	CHECK_EQ(nk_sem_give_locked(&sem), 0);
	nk_unlock(nk);
	CHECK_EQ(sem_count(), 0);
	CHECK_EQ(nk_sem_take(&sem, 0, NK_RELATIVE), -EWOULDBLOCK);
	finish("b+s@1000 a+s@2000");
}

/* A broadcast gives every waiter a unit and leaves none behind. */
TEST(sem_broadcast_serves_all)
{
	sem_two_waiters(NK_SYNCH_PRIO);
	nk_lock(nk);
	CHECK_EQ(nk_sem_broadcast_locked(&sem), 0);
	nk_unlock(nk);
	join_all();
	CHECK_EQ(nk_sem_give(&sem), 0);
	CHECK_EQ(nk_sem_give(&sem), 0);
	nk_lock(nk);
	CHECK_EQ(nk_sem_broadcast_locked(&sem), 0);
	CHECK_EQ(nk_sem_take_locked(&sem, 0, NK_RELATIVE), -EWOULDBLOCK);
	CHECK_EQ(nk_sem_take_locked(&sem, 0, (enum nk_tmode)7), -EINVAL);
	nk_unlock(nk);
	CHECK_EQ(sem_count(), 0);
	CHECK_EQ(nk_sem_destroy(&sem), 0);
	CHECK_EQ(nk_sem_broadcast_locked(&sem), -EINVAL);
	CHECK_EQ(nk_sem_give_locked(&sem), -EINVAL);
	finish("b+s@1000 a+s@1000");
}

/* W (@waiter_prio) waits on sem; G (30) gives at 1 ms, then works 1 ms. */
static void run_give(int waiter_prio, const char *expect)
{
	struct step w_s[] = {TAKE(&sem), END};
	struct step g_s[] = {AT(1 * MS), GIVE(&sem), RUN(1 * MS), END};

	setup();
	CHECK_EQ(nk_sem_init(nk, &sem, "s", 0, 0, NK_SYNCH_FIFO), 0);
	spawn("W", waiter_prio, w_s);
	spawn("G", 30, g_s);
	finish(expect);
}

TEST(sem_give_to_lower_waiter_no_preempt)
{
	run_give(10, "G:at@1000 G-s@1000 G:run@2000 W+s@2000");
}

TEST(sem_give_to_higher_waiter_preempts)
{
	run_give(50, "G:at@1000 W+s@1000 G-s@1000 G:run@2000");
}

/* --- the raw synch API --- */

TEST(synch_wakeup_one_and_this)
{
	struct step waiter_s[] = {SLEEP_ON(&syn), END};
	struct nk_thread *a, *b;

	setup();
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_FIFO, 0), 0);
	spawn_pair(waiter_s, &a, &b);
	at(1 * MS);
	nk_lock(nk);
	/* b ran first, so it queued first. */
	CHECK_EQ(nk_synch_nr_waiters(&syn), 2);
	CHECK_EQ(nk_synch_wakeup_this(&syn, nk_thread_self(nk)), -ESRCH);
	CHECK_EQ(nk_synch_wakeup_this(&syn, NULL), -EINVAL);
	CHECK_EQ(nk_synch_wakeup_this(&syn, a), 0);
	CHECK_EQ(nk_synch_wakeup_this(&syn, a), -ESRCH);
	CHECK_EQ(nk_synch_nr_waiters(&syn), 1);
	CHECK(nk_synch_wakeup_one(&syn) == b);
	CHECK(nk_synch_wakeup_one(&syn) == NULL);
	CHECK_EQ(nk_synch_nr_waiters(&syn), 0);
	nk_sched_run(nk);
	nk_unlock(nk);
	CHECK_EQ(nk_thread_state(a), NK_THREAD_READY);
	CHECK_EQ(nk_thread_state(b), NK_THREAD_READY);
	finish("b+q@1000 a+q@1000");
}

TEST(synch_flush_reasons)
{
	static const enum nk_wake reasons[] = {
	    NK_WAKE_OK,	       NK_WAKE_TIMEOUT,	   NK_WAKE_DELETED,
	    NK_WAKE_UNBLOCKED, NK_WAKE_OWNER_DEAD,
	};
	struct step waiter_s[] = {SLEEP_ON(&syn), END};
	char expect[128];

	setup();
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_PRIO, 0), 0);
	nk_lock(nk);
	CHECK_EQ(nk_synch_flush(&syn, NK_WAKE_DELETED), 0);
	nk_unlock(nk);
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		nk_time_t date = (nk_time_t)(i + 1) * MS;
		int r = reasons[i];

		log_buf[0] = '\0';
		nr_spawned = 0;
		spawn_pair(waiter_s, NULL, NULL);
		at(date);
		nk_lock(nk);
		CHECK_EQ(nk_synch_flush(&syn, reasons[i]), 2);
		CHECK_EQ(nk_synch_nr_waiters(&syn), 0);
		nk_sched_run(nk);
		nk_unlock(nk);
		join_all();
		if (r)
			snprintf(expect, sizeof(expect),
				 "b+q=%d@%lld a+q=%d@%lld", r,
				 (long long)(date / US), r,
				 (long long)(date / US));
		else
			snprintf(expect, sizeof(expect), "b+q@%lld a+q@%lld",
				 (long long)(date / US),
				 (long long)(date / US));
		CHECK_STR(log_buf, expect);
	}
	/* The flush did not invalidate it. */
	CHECK_EQ(nk_synch_destroy(&syn), 0);
	teardown();
}

TEST(synch_try_acquire)
{
	struct step x_s[] = {AT(1 * MS), END};
	struct nk_thread *self, *x;

	setup();
	self = nk_thread_self(nk);
	x = spawn("X", 10, x_s);
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_OWNER, 0), 0);
	CHECK_EQ(nk_synch_init(nk, &syn2, "plain", NK_SYNCH_PRIO, 0), 0);
	CHECK_EQ(nk_synch_init(nk, &syn3, "pp", NK_SYNCH_PP, 50), 0);
	nk_lock(nk);
	CHECK_EQ(nk_synch_try_acquire(&syn, self), 0);
	CHECK(nk_synch_owner(&syn) == self);
	CHECK_EQ(nk_synch_try_acquire(&syn, x), -EBUSY);
	CHECK_EQ(nk_synch_try_acquire(&syn, self), -EBUSY);
	CHECK_EQ(nk_synch_release(&syn), 0);
	CHECK(nk_synch_owner(&syn) == NULL);
	/* Ownership on behalf of another thread: main may not release. */
	CHECK_EQ(nk_synch_try_acquire(&syn, x), 0);
	CHECK(nk_synch_owner(&syn) == x);
	CHECK_EQ(nk_synch_release(&syn), -EPERM);
	CHECK_EQ(nk_synch_try_acquire(&syn2, self), -EINVAL);
	CHECK_EQ(nk_synch_try_acquire(&syn3, self), -EPERM);
	CHECK_EQ(nk_synch_try_acquire(&syn3, x), 0);
	CHECK_EQ(nk_thread_effective_priority(x), 50);
	nk_unlock(nk);
	finish("X^50@0 X:at@1000 X^10@1000");
}

TEST(synch_sleep_with_sched_locked_eperm)
{
	setup();
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_FIFO, 0), 0);
	CHECK_EQ(nk_synch_init(nk, &syn2, "owned", NK_SYNCH_PI, 0), 0);
	init_mutex(&m2, "m", NK_SYNCH_PRIO, 0);
	CHECK_EQ(nk_sem_init(nk, &sem, "s", 0, 0, NK_SYNCH_FIFO), 0);
	CHECK_EQ(nk_sched_lock(nk), 0);
	nk_lock(nk);
	CHECK_EQ(nk_synch_sleep(&syn, 1 * MS, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_synch_acquire(&syn2, 1 * MS, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_synch_nr_waiters(&syn), 0);
	CHECK(nk_synch_owner(&syn2) == NULL);
	nk_unlock(nk);
	CHECK_EQ(nk_sem_take(&sem, 1 * MS, NK_RELATIVE), -EPERM);
	CHECK_EQ(nk_mutex_lock(&m2, NK_INFINITE, NK_RELATIVE), -EPERM);
	/* A take that need not wait is allowed. */
	CHECK_EQ(nk_sem_give(&sem), 0);
	CHECK_EQ(nk_sem_take(&sem, 1 * MS, NK_RELATIVE), 0);
	CHECK_EQ(nk_sched_unlock(nk), 0);
	CHECK_EQ(nk_now(nk), 0);
	teardown();
}

TEST(synch_acquire_without_owner_einval)
{
	setup();
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_PRIO, 0), 0);
	nk_lock(nk);
	CHECK_EQ(nk_synch_acquire(&syn, NK_INFINITE, NK_RELATIVE), -EINVAL);
	CHECK_EQ(nk_synch_acquire(&syn, 0, NK_RELATIVE), -EINVAL);
	CHECK_EQ(nk_synch_release(&syn), -EINVAL);
	CHECK(nk_synch_owner(&syn) == NULL);
	CHECK_EQ(nk_synch_nr_waiters(&syn), 0);
	nk_unlock(nk);
	teardown();
}

TEST(synch_init_errors)
{
	static const char name31[] = "0123456789012345678901234567890";
	static const char name32[] = "01234567890123456789012345678901";

	setup();
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_PI | NK_SYNCH_PP, 10),
		 -EINVAL);
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_PP, 256), -EINVAL);
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_PP, -1), -EINVAL);
	CHECK_EQ(nk_synch_init(nk, &syn, "q", 0x10, 0), -EINVAL);
	CHECK_EQ(nk_synch_init(nk, &syn, name32, NK_SYNCH_FIFO, 0), -EINVAL);
	CHECK_EQ(nk_synch_init(nk, NULL, "q", NK_SYNCH_FIFO, 0), -EINVAL);
	CHECK_EQ(nk_synch_init(NULL, &syn, "q", NK_SYNCH_FIFO, 0), -EINVAL);
	CHECK_EQ(nk_synch_init(nk, &syn, name31, NK_SYNCH_FIFO, 0), 0);
	CHECK_STR(syn.name, name31);
	/* The ceiling means nothing without PP. */
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_PRIO, 999), 0);
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_PP, NK_PRIO_MAX), 0);
	CHECK_EQ(nk_synch_init(nk, &syn, "q", NK_SYNCH_PI, 0), 0);
	CHECK_EQ(syn.flags, NK_SYNCH_PI | NK_SYNCH_OWNER | NK_SYNCH_PRIO);

	CHECK_EQ(nk_mutex_init(nk, &m1, "m", NK_SYNCH_PI | NK_SYNCH_PP, 10),
		 -EINVAL);
	CHECK_EQ(nk_mutex_init(nk, &m1, "m", NK_SYNCH_PP, 256), -EINVAL);
	CHECK_EQ(nk_mutex_init(nk, &m1, "m", 0x10, 0), -EINVAL);
	CHECK_EQ(nk_mutex_init(nk, NULL, "m", NK_SYNCH_PI, 0), -EINVAL);
	CHECK_EQ(nk_mutex_init(NULL, &m1, "m", NK_SYNCH_PI, 0), -EINVAL);
	CHECK_EQ(nk_sem_init(nk, &sem, name32, 0, 0, NK_SYNCH_FIFO), -EINVAL);
	teardown();
}

TESTS(T(pi_bounds_inversion), T(no_pi_unbounded_inversion),
      T(pi_transitive_chain), T(pi_deboost_to_next_boost),
      T(pi_release_lower_keeps_boost), T(pi_deboost_on_waiter_timeout),
      T(pi_follows_waiter_priority), T(pi_owner_base_change_keeps_boost),
      T(pi_chain_follows_waiter_priority), T(pp_runs_at_ceiling),
      T(pp_lock_above_ceiling_eperm), T(owner_cycle_edeadlk),
      T(relock_nonrecursive_edeadlk), T(recursive_mutex_nests),
      T(non_owner_unlock_and_trylock), T(mutex_trylock), T(mutex_giveup_regain),
      T(transfer_prio_order), T(transfer_fifo_order),
      T(sem_destroy_wakes_deleted), T(mutex_destroy_wakes_deleted),
      T(mutex_destroy_after_handoff), T(synch_destroy_wakes_deleted),
      T(delete_waiter_deboosts_owner), T(delete_owner_passes_mutex),
      T(delete_chain_link), T(delete_thread_blocked_in_join),
      T(zombie_until_joined), T(sem_counting_and_max), T(sem_fifo_wake_order),
      T(sem_prio_wake_order), T(sem_flush_keeps_count),
      T(sem_pulse_gives_only_waiters), T(sem_broadcast_serves_all),
      T(sem_give_to_lower_waiter_no_preempt),
      T(sem_give_to_higher_waiter_preempts), T(synch_wakeup_one_and_this),
      T(synch_flush_reasons), T(synch_try_acquire),
      T(synch_sleep_with_sched_locked_eperm),
      T(synch_acquire_without_owner_einval), T(synch_init_errors));
