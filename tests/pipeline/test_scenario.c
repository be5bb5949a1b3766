/* SPDX-License-Identifier: MIT */
/*
 * Scripted interrupt sources of the sim backend (FUSION_SIM_SCENARIO):
 * exact occurrence dates of `at`, `every` (with jitter, seed, from,
 * until) and `poisson`; the same dates from two instances in one
 * process; attachment windows; ties with timers and between sources;
 * malformed scenario lines refused with "FILE:LINE: ..." on stderr; and
 * a whole run's FUSION_SIM_LOG byte-identical twice.
 */
#include "pipeline_test.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>

#define MAX_DATES 8192

/* The occurrences of one scripted source, in delivery order. */
struct series {
	const char *name;
	unsigned int irq;
	struct nk_instance *nk;
	unsigned long n;
	nk_time_t dates[MAX_DATES];
};

/* Main's attributes in every test. */
static const struct nk_instance_attr sim_attr = {.backend = "sim",
						 .main_priority = 10};

/* A fresh instance running the scenario @text. */
static void sim_create(const char *text)
{
	sim_open(&sim_attr, text);
}

static void record_date(unsigned int irq, void *cookie)
{
	struct series *s = cookie;

	(void)irq;
	if (s->n < MAX_DATES)
		s->dates[s->n] = nk_now(s->nk);
	s->n++;
}

static void record_name(unsigned int irq, void *cookie)
{
	(void)irq;
	rec("%s@%lld", (const char *)cookie, now());
}

/* Attach @s->name on @inst and record its occurrences in @s. */
static void watch(struct nk_instance *inst, struct series *s)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_SCRIPT, .name = s->name};

	s->nk = inst;
	s->n = 0;
	CHECK_EQ(ipipe_attach_source(inst, &src, 0, &s->irq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(inst), s->irq,
				      record_date, s, IPIPE_HANDLE),
		 0);
}

static void unwatch(struct nk_instance *inst, struct series *s)
{
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(inst), s->irq, NULL,
				      NULL, IPIPE_PASS),
		 0);
	CHECK_EQ(ipipe_detach_source(inst, s->irq), 0);
}

static void check_dates(const struct series *s, const nk_time_t *expect,
			unsigned long n)
{
	CHECK_EQ(s->n, n);
	for (unsigned long i = 0; i < n; i++) {
		if (s->dates[i] != expect[i])
			fprintf(stderr, "%s: occurrence %lu\n", s->name, i);
		CHECK_EQ(s->dates[i], expect[i]);
	}
}

/* The first @n occurrences of @s are @expect. */
static void check_first(const struct series *s, const nk_time_t *expect,
			unsigned long n)
{
	CHECK(s->n >= n);
	for (unsigned long i = 0; i < n; i++)
		CHECK_EQ(s->dates[i], expect[i]);
}

static void check_same(const struct series *a, const struct series *b)
{
	CHECK_EQ(a->n, b->n);
	CHECK(a->n <= MAX_DATES);
	CHECK(memcmp(a->dates, b->dates, a->n * sizeof(a->dates[0])) == 0);
}

/* --- dates --- */

TEST(at_fires_once_at_its_date)
{
	static struct series a = {.name = "a"}, zero = {.name = "zero"};
	static const nk_time_t expect_a[] = {5 * MS};
	static const nk_time_t expect_zero[] = {0};

	sim_create("irq a at 5ms\nirq zero at 0ns\n");
	watch(nk, &a);
	watch(nk, &zero);
	CHECK_EQ(a.n, 0);
	sleep_ns(20 * MS);
	check_dates(&a, expect_a, 1);
	check_dates(&zero, expect_zero, 1);
	sim_destroy();
}

/* Units; `every` defaults to from 0 with no end; `until` is inclusive. */
TEST(every_without_jitter)
{
	static struct series a = {.name = "a"}, b = {.name = "b"},
			     c = {.name = "c"};
	static const nk_time_t expect_a[] = {2 * MS, 3 * MS, 4 * MS, 5 * MS};
	static const nk_time_t expect_b[] = {0,		1500 * US, 3 * MS,
					     4500 * US, 6 * MS,	   7500 * US};
	static const nk_time_t expect_c[] = {1000000000LL - US, 1000000000LL};

	sim_create("irq a every 1ms from 2ms until 5ms\n"
		   "irq b every 1500us\n"
		   "irq c every 1us from 999999000ns until 1s\n");
	watch(nk, &a);
	watch(nk, &b);
	watch(nk, &c);
	sleep_ns(8 * MS);
	check_dates(&a, expect_a, 4);
	check_dates(&b, expect_b, 6);
	unwatch(nk, &b);
	sleep_ns(2 * 1000000000LL);
	check_dates(&c, expect_c, 2);
	sim_destroy();
}

/*
 * Seeded sources, each beside the same one with another seed.  The
 * first dates of the first are pinned, so that a change of generator
 * shows.
 */
static const struct seeded {
	const char *name, *other;
	const char *text;
	nk_time_t run_ns;
	nk_time_t first[5];
} seeded[] = {
    /*
     * Seed 7's first dates: a splitmix64 generator seeded with the seed,
     * one draw per occurrence: nominal + draw % (2 * jitter + 1) - jitter.
     */
    {.name = "j",
     .other = "k",
     .text = "irq j every 250us jitter 20us seed 7 from 1ms until 20ms\n"
	     "irq k every 250us jitter 20us seed 8 from 1ms until 20ms\n",
     .run_ns = 25 * MS,
     .first = {1010821, 1261950, 1502928, 1755358, 2015656}},
    /*
     * Seed 3's first dates: previous + ceil(-mean * ln(1 - u)), u the
     * draw's top 53 bits as a fraction.
     */
    {.name = "p",
     .other = "q",
     .text = "irq p poisson mean 300us seed 3 from 2ms until 1s\n"
	     "irq q poisson mean 300us seed 4 from 2ms until 1s\n",
     .run_ns = 2 * 1000000000LL,
     .first = {2036126, 2397612, 2682392, 2705090, 2778262}},
};

enum { JITTER, POISSON };

/* The dates of a seeded source in two runs, and of its other seed. */
static struct series one, two, other;

/*
 * Two runs of @c, @c->run_ns each: "one" and "other" watched in the
 * first, "two" in the second.  The two runs see the same dates, the
 * first ones as pinned.
 */
static void run_twice(const struct seeded *c)
{
	one.name = two.name = c->name;
	other.name = c->other;
	sim_create(c->text);
	watch(nk, &one);
	watch(nk, &other);
	sleep_ns(c->run_ns);
	sim_destroy();
	sim_create(c->text);
	watch(nk, &two);
	sleep_ns(c->run_ns);
	sim_destroy();
	check_same(&one, &two);
	check_first(&one, c->first, 5);
}

/*
 * Jitter: each occurrence within +/- jitter of its nominal date, never
 * before the previous one or `from`; the same dates from two instances;
 * another seed moves them.
 */
TEST(every_with_jitter_is_reproducible)
{
	bool differs = false;

	run_twice(&seeded[JITTER]);
	CHECK_EQ(one.n, (20 - 1) * 4 + 1);
	for (unsigned long i = 0; i < one.n; i++) {
		nk_time_t nominal = MS + (nk_time_t)i * 250 * US;

		CHECK(one.dates[i] >= nominal - 20 * US);
		CHECK(one.dates[i] <= nominal + 20 * US);
		CHECK(one.dates[i] >= MS);
		if (i)
			CHECK(one.dates[i] >= one.dates[i - 1]);
		differs |= one.dates[i] != other.dates[i];
	}
	CHECK(differs);
}

/*
 * Poisson: increasing dates inside the window, a mean interval near the
 * requested one over ~3300 draws, reproducible, seed-dependent.
 */
TEST(poisson_is_reproducible)
{
	double mean;

	run_twice(&seeded[POISSON]);
	CHECK(one.n > 3000 && one.n < 3600);
	CHECK(one.n <= MAX_DATES);
	CHECK(one.dates[0] >= 2 * MS);
	CHECK(one.dates[one.n - 1] <= 1000000000LL);
	for (unsigned long i = 1; i < one.n; i++)
		CHECK(one.dates[i] >= one.dates[i - 1]);
	mean = (double)(one.dates[one.n - 1] - 2 * MS) / (double)one.n;
	CHECK(mean > 280 * US && mean < 320 * US);
	CHECK(one.n != other.n ||
	      memcmp(one.dates, other.dates, one.n * sizeof(one.dates[0])));
}

struct parallel_run {
	const char *path;
	struct series s[3];
	int ret;
};

/* One whole simulation, in a thread of its own. */
static void *parallel_main(void *arg)
{
	struct parallel_run *run = arg;
	struct nk_instance *inst;

	run->ret = nk_instance_create(&sim_attr, &inst);
	if (run->ret)
		return NULL;
	for (int i = 0; i < 3; i++)
		watch(inst, &run->s[i]);
	run->ret = nk_thread_sleep(inst, 100 * MS, NK_RELATIVE);
	if (run->ret == 0)
		run->ret = nk_instance_destroy(inst);
	return NULL;
}

/*
 * Two instances running at the same time in two OS threads of one
 * process see the same dates: the generators are per instance.
 */
TEST(two_instances_at_once_see_the_same_dates)
{
	static struct parallel_run runs[2];
	char path[64];
	pthread_t threads[2];

	write_file(path, "irq a every 100us jitter 50us seed 11\n"
			 "irq b poisson mean 70us seed 12\n"
			 "irq c at 33ms\n");
	setenv("FUSION_SIM_SCENARIO", path, 1);
	for (int r = 0; r < 2; r++) {
		runs[r].s[0].name = "a";
		runs[r].s[1].name = "b";
		runs[r].s[2].name = "c";
		CHECK_EQ(
		    pthread_create(&threads[r], NULL, parallel_main, &runs[r]),
		    0);
	}
	for (int r = 0; r < 2; r++)
		CHECK_EQ(pthread_join(threads[r], NULL), 0);
	unsetenv("FUSION_SIM_SCENARIO");
	unlink(path);
	for (int r = 0; r < 2; r++)
		CHECK_EQ(runs[r].ret, 0);
	for (int i = 0; i < 3; i++)
		check_same(&runs[0].s[i], &runs[1].s[i]);
	/* Nominal 0 to 100 ms: the last one lands on either side. */
	CHECK(runs[0].s[0].n == 1000 || runs[0].s[0].n == 1001);
	CHECK_EQ(runs[0].s[2].n, 1);
	CHECK_EQ(runs[0].s[2].dates[0], 33 * MS);
}

/*
 * A source fires only while attached: occurrences before the attachment
 * are never delivered, a detached one stops, and re-attaching restarts
 * its generator from the seed (the same draws as before) past the
 * present.
 */
TEST(attachment_window)
{
	static struct series late = {.name = "late"}, gone = {.name = "gone"},
			     tick = {.name = "tick"}, jit = {.name = "jit"},
			     ref = {.name = "jit"};
	static const nk_time_t expect_tick[] = {0, MS, 2 * MS, 5 * MS, 6 * MS};
	static const char text[] = "irq late at 1ms\nirq gone at 2ms\n"
				   "irq tick every 1ms\n"
				   "irq jit every 1ms jitter 400us seed 5\n";
	struct ipipe_source tick_src = {.kind = IPIPE_SRC_SCRIPT,
					.name = "tick"};
	unsigned long n;

	/* The reference: jit attached from the start. */
	sim_create(text);
	watch(nk, &ref);
	sleep_ns(7 * MS);
	sim_destroy();
	CHECK(ref.n >= 7);

	sim_create(text);
	watch(nk, &tick);
	watch(nk, &jit);
	watch(nk, &gone);
	unwatch(nk, &gone);
	sleep_ns(2500 * US);
	watch(nk, &late);
	unwatch(nk, &tick);
	unwatch(nk, &jit);
	CHECK_EQ(jit.n, 3);
	CHECK(memcmp(jit.dates, ref.dates, 3 * sizeof(ref.dates[0])) == 0);
	sleep_ns(2 * MS);
	CHECK_EQ(jit.n, 3);
	CHECK_EQ(tick.n, 3);
	/* At 4.5 ms: tick's next is 5 ms; jit's the nominal 5 ms one. */
	n = tick.n;
	CHECK_EQ(ipipe_attach_source(nk, &tick_src, 0, &tick.irq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), tick.irq,
				      record_date, &tick, IPIPE_HANDLE),
		 0);
	tick.n = n;
	watch(nk, &jit);
	sleep_ns(2 * MS);
	check_dates(&tick, expect_tick, 5);
	CHECK_EQ(late.n, 0);
	CHECK_EQ(gone.n, 0);
	CHECK_EQ(jit.n, 2);
	CHECK_EQ(jit.dates[0], ref.dates[5]);
	CHECK_EQ(jit.dates[1], ref.dates[6]);
	sim_destroy();
}

static void timer_fired(struct nk_timer *timer)
{
	rec("timer@%lld", (long long)nk_now(timer->nk));
}

/* At equal dates: the nucleus timer first, then sources in file order. */
TEST(ties_timer_then_scenario_order)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_SCRIPT};
	struct nk_timer timer;
	unsigned int irq;

	sim_create("irq second at 1ms\nirq first at 1ms\n");
	CHECK_EQ(nk_timer_init(nk, &timer, "t", 0, timer_fired, NULL), 0);
	/* Attached in the other order than the file's. */
	src.name = "first";
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq, record_name,
				      (void *)"first", IPIPE_HANDLE),
		 0);
	src.name = "second";
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq, record_name,
				      (void *)"second", IPIPE_HANDLE),
		 0);
	CHECK_EQ(nk_timer_start(&timer, MS, 0, NK_ABSOLUTE), 0);
	sleep_ns(2 * MS);
	CHECK_STR(log_buf, "timer@1000000 second@1000000 first@1000000");
	CHECK_EQ(nk_timer_destroy(&timer), 0);
	sim_destroy();
}

/* The head's handler of @irq, which records "head", with @mode. */
static void head_handles(unsigned int irq, unsigned int mode)
{
	struct ipipe_domain *head = ipipe_head_domain(nk);

	CHECK_EQ(ipipe_virtualize_irq(head, irq, NULL, NULL, IPIPE_PASS), 0);
	CHECK_EQ(
	    ipipe_virtualize_irq(head, irq, record_name, (void *)"head", mode),
	    0);
}

/*
 * A source the head keeps for itself runs its handler alone, at its
 * arrival; one it passes on reaches the root after it; one that finds
 * the head stalled waits for the unstall.  The stats count each way
 * (a handler installed anew starts them from zero).
 */
TEST(source_kept_passed_on_or_logged_by_the_head)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_SCRIPT, .name = "s"};
	struct ipipe_domain *head, *root;
	unsigned int irq;

	sim_create("irq s every 1ms from 1ms until 3ms\n");
	head = ipipe_head_domain(nk);
	root = ipipe_root_domain(nk);
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
	CHECK_EQ(ipipe_virtualize_irq(root, irq, record_name, (void *)"root",
				      IPIPE_HANDLE),
		 0);
	head_handles(irq, IPIPE_HANDLE);
	sleep_ns(1500 * US);
	CHECK_STR(log_buf, "head@1000000");
	check_stats(head, irq, 1, 1, 0, 0, 0);
	head_handles(irq, IPIPE_HANDLE | IPIPE_PASS);
	sleep_ns(MS);
	CHECK_STR(log_buf, "head@1000000 head@2000000 root@2000000");
	check_stats(head, irq, 1, 1, 1, 0, 0);
	head_handles(irq, IPIPE_HANDLE);
	CHECK_EQ(ipipe_stall(head, 0), 0);
	CHECK_EQ(nk_consume(nk, MS), 0);
	CHECK_EQ(ipipe_pending(head, 0), 1);
	CHECK_EQ(ipipe_unstall(head, 0), 0);
	CHECK_STR(log_buf,
		  "head@1000000 head@2000000 root@2000000 head@3500000");
	check_stats(head, irq, 1, 1, 0, 1, 0);
	check_stats(root, irq, 1, 1, 0, 0, 0);
	sim_destroy();
}

/* Comments, blank lines, tabs, CRLF. */
TEST(scenario_syntax_accepted)
{
	static struct series a = {.name = "a"}, b = {.name = "b"};
	static const nk_time_t expect_a[] = {3 * MS};
	static const nk_time_t expect_b[] = {MS, 2 * MS};

	sim_create("# a scenario\n\n   \n\tirq\ta\tat 3ms   # trailing\n"
		   "irq b every 1ms from 1ms until 2ms\r\n# end\n");
	watch(nk, &a);
	watch(nk, &b);
	sleep_ns(10 * MS);
	check_dates(&a, expect_a, 1);
	check_dates(&b, expect_b, 2);
	sim_destroy();
}

/* '#' starts a comment, up to the longest line: 4096 bytes. */
TEST(long_comment_line_accepted)
{
	static struct series c = {.name = "c"};
	static const nk_time_t expect_c[] = {4 * MS};
	static char text[8192] = "# ";

	memset(text + 2, 'x', 4094);
	strcpy(text + 4096, "\nirq c at 4ms\n");
	sim_create(text);
	watch(nk, &c);
	sleep_ns(10 * MS);
	check_dates(&c, expect_c, 1);
	sim_destroy();
}

/*
 * The largest dates and durations a scenario may give (1e18 ns), run to
 * the end of time: occurrences past 2^63 ns end a source, no date
 * overflows (the undefined-behaviour sanitizer would say).
 */
TEST(extreme_dates_end_without_overflow)
{
	static struct series e = {.name = "e"}, p = {.name = "p"},
			     z = {.name = "z"};
	/* e's tenth, nominally at 2^63 - 1 ns plus a positive jitter, is
	 * past the end. */
	static const nk_time_t expect_e[] = {
	    223372036854775807LL,  2042744528175636040LL,
	    2210955284996051764LL, 2342863283405715051LL,
	    4971168805547932459LL, 4971168805547932459LL,
	    6622231270859105676LL, 7857126757217330569LL,
	    7857126757217330569LL};
	static const nk_time_t expect_p[] = {
	    1894504128368021120LL, 3277402996200736640LL, 4182847960126408832LL,
	    5632802952407523456LL, 6006171733690956672LL, 6431771597973890624LL,
	    7727690167992518208LL, 9071259671679378240LL};
	static const nk_time_t expect_z[] = {1000000000000000000LL};

	sim_create("irq e every 1000000000s jitter 999999999999999999ns "
		   "from 223372036854775807ns seed 2\n"
		   "irq p poisson mean 1000000000s seed 2 from 1000000000s\n"
		   "irq z at 1000000000s\n");
	watch(nk, &e);
	watch(nk, &p);
	watch(nk, &z);
	CHECK_EQ(nk_thread_sleep(nk, NK_INFINITE - 1, NK_ABSOLUTE), 0);
	check_dates(&e, expect_e, 9);
	check_dates(&p, expect_p, 8);
	check_dates(&z, expect_z, 1);
	sim_destroy();
}

/* Jitter never carries an occurrence past `until`. */
TEST(jitter_stays_inside_until)
{
	static struct series s = {.name = "s"};

	sim_create("irq s every 1ms jitter 900us seed 1 until 50ms\n");
	watch(nk, &s);
	sleep_ns(60 * MS);
	CHECK(s.n >= 50 && s.n <= 51);
	for (unsigned long i = 0; i < s.n; i++)
		CHECK(s.dates[i] <= 50 * MS);
	sim_destroy();
}

/* --- malformed scenarios --- */

/*
 * Creates an instance on the scenario file @path with stderr captured;
 * returns nk_instance_create's result and what it printed in @err.
 */
static int create_capture(const char *path, char *err, size_t size)
{
	struct nk_instance *inst = NULL;
	struct capture c;
	int ret;

	/* A failed check left the previous test's instance behind. */
	if (nk) {
		nk_instance_destroy(nk);
		nk = NULL;
	}
	capture_begin(&c);
	ret = create_with(&sim_attr, path, &inst);
	capture_end(&c, err, size);
	if (ret == 0)
		CHECK_EQ(nk_instance_destroy(inst), 0);
	return ret;
}

TEST(malformed_lines_are_refused_with_their_line)
{
	static const struct {
		const char *text;
		int line;
	} cases[] = {
	    {"irc a at 1ms\n", 1},
	    {"# ok\n\nirq a\n", 3},
	    {"irq a at\n", 1},
	    {"irq a at 1\n", 1},
	    {"irq a at 1xs\n", 1},
	    {"irq a at 1.5ms\n", 1},
	    {"irq a at -1ms\n", 1},
	    {"irq a at ms\n", 1},
	    {"irq a at 99999999999999999999ns\n", 1},
	    {"irq a at 9999999999999s\n", 1},
	    {"irq a at 1ms 2ms\n", 1},
	    {"irq a sometimes 1ms\n", 1},
	    {"irq a every\n", 1},
	    {"irq a every 0ms\n", 1},
	    {"irq a every 1ms jitter 1ms\n", 1},
	    {"irq a every 1ms jitter\n", 1},
	    {"irq a every 1ms seed\n", 1},
	    {"irq a every 1ms seed x\n", 1},
	    {"irq a every 1ms seed -1\n", 1},
	    {"irq a every 1ms bogus 1\n", 1},
	    {"irq a every 1ms from 5ms until 2ms\n", 1},
	    {"irq a every 1ms from 1\n", 1},
	    {"irq a poisson 1ms\n", 1},
	    {"irq a poisson mean\n", 1},
	    {"irq a poisson mean 0us\n", 1},
	    {"irq a poisson mean 1ms jitter 1us\n", 1},
	    {"irq a at 1ms\nirq b at 2ms\nirq a at 3ms\n", 3},
	    {"irq aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa at 1ms\n", 1},
	    {"irq a at 1ms\n  garbage\n", 2},
	};
	char path[64], err[1024], prefix[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret;

		write_file(path, cases[i].text);
		ret = create_capture(path, err, sizeof(err));
		unlink(path);
		snprintf(prefix, sizeof(prefix), "fusion-sim: %s:%d: ", path,
			 cases[i].line);
		if (ret != -EINVAL || strncmp(err, prefix, strlen(prefix)) != 0)
			fprintf(stderr, "case %zu: \"%s\" -> %d \"%s\"\n", i,
				cases[i].text, ret, err);
		CHECK_EQ(ret, -EINVAL);
		CHECK(strncmp(err, prefix, strlen(prefix)) == 0);
		/* One line: a message after the prefix, then the end. */
		CHECK(strlen(err) > strlen(prefix) + 1);
		CHECK(strchr(err, '\n') == err + strlen(err) - 1);
	}
	/* A missing file is a bad value of the option, named. */
	CHECK_EQ(create_capture("/nonexistent/scenario", err, sizeof(err)),
		 -EINVAL);
	CHECK_STR(err, "fusion: FUSION_SIM_SCENARIO=/nonexistent/scenario: "
		       "cannot read the file: No such file or directory\n");
	/* The failures left nothing behind: an instance still works. */
	sim_create("irq a at 1ms\n");
	sim_destroy();
}

/*
 * The @len bytes of @text as a scenario: refused with "fusion-sim:
 * FILE:@line: @why" (line 0: "FILE: @why") and nothing else; @why NULL:
 * accepted, silently.
 */
static void check_refused(const char *text, size_t len, int line,
			  const char *why)
{
	char path[64], err[1024], expect[1024] = "";
	int ret;

	write_bytes(path, text, len);
	ret = create_capture(path, err, sizeof(err));
	unlink(path);
	if (why && line)
		snprintf(expect, sizeof(expect), "fusion-sim: %s:%d: %s\n",
			 path, line, why);
	else if (why)
		snprintf(expect, sizeof(expect), "fusion-sim: %s: %s\n", path,
			 why);
	CHECK_EQ(ret, why ? -EINVAL : 0);
	CHECK_STR(err, expect);
}

#define TOO_LATE "time above 1000000000s (the largest date or duration)"
#define TOO_FAST(what) what " below 1us (no device interrupts faster)"

/* Every date and duration at most 1e18 ns; periods and means >= 1 us. */
TEST(limits_are_refused_with_their_reason)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
	    {"irq a every 9223372036854775807ns jitter 9223372036854775806ns "
	     "seed 1\n",
	     TOO_LATE},
	    {"irq a poisson mean 9223372036854775807ns "
	     "from 9223372036854775800ns\n",
	     TOO_LATE},
	    {"irq a at 1000000000000000001ns\n", TOO_LATE},
	    {"irq a at 1000000001s\n", TOO_LATE},
	    {"irq a at 99999999999999999999ns\n", TOO_LATE},
	    {"irq a every 1ms until 1000000000001ms\n", TOO_LATE},
	    {"irq a every 2000000000s\n", TOO_LATE},
	    {"irq a every 1ns\n", TOO_FAST("period")},
	    {"irq a every 999ns\n", TOO_FAST("period")},
	    {"irq a every 0s\n", TOO_FAST("period")},
	    {"irq a poisson mean 999ns\n", TOO_FAST("mean")},
	    {"irq a every 1ms seed 18446744073709551616\n",
	     "bad seed (0..18446744073709551615)"},
	    {"irq a at 1.5ms\n", "bad time (an integer and ns, us, ms or s)"},
	};
	static const char edges[] =
	    "irq a at 1000000000s\n"
	    "irq b every 1us until 1000000000000000000ns\n"
	    "irq c poisson mean 1000ns from 1000000000s\n";

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_refused(cases[i].text, strlen(cases[i].text), 1,
			      cases[i].why);
	/* The limits themselves are accepted. */
	check_refused(edges, sizeof(edges) - 1, 0, NULL);
}

/*
 * The file itself: only a regular file of at most 1 MiB, lines of at
 * most 4096 bytes, no NUL, at most one source per source IRQ.
 */
TEST(unreadable_scenarios_are_refused)
{
	static char text[(1 << 20) + 2];
	char dir[] = "/tmp/fusion-scen-dir-XXXXXX", fifo[64], err[1024],
	     expect[1024];
	size_t len = 0;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK_EQ(mkfifo(fifo, 0600), 0);
	CHECK_EQ(create_capture(dir, err, sizeof(err)), -EINVAL);
	snprintf(expect, sizeof(expect),
		 "fusion-sim: %s: not a regular file (a directory)\n", dir);
	CHECK_STR(err, expect);
	CHECK_EQ(create_capture(fifo, err, sizeof(err)), -EINVAL);
	snprintf(expect, sizeof(expect),
		 "fusion-sim: %s: not a regular file (a FIFO)\n", fifo);
	CHECK_STR(err, expect);
	unlink(fifo);
	rmdir(dir);
	CHECK_EQ(create_capture("/dev/zero", err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "fusion-sim: /dev/zero: not a regular file (a "
		       "character device)\n");

	/* 1 MiB of comment lines, then one byte more. */
	memset(text, '#', sizeof(text));
	for (size_t i = 1000; i < sizeof(text); i += 1000)
		text[i] = '\n';
	check_refused(text, 1 << 20, 0, NULL);
	check_refused(text, (1 << 20) + 1, 0, "larger than 1 MiB");

	strcpy(text, "irq a at 1ms\n");
	memset(text + 13, 'x', 4097);
	check_refused(text, 13 + 4097, 2, "line longer than 4096 bytes");
	check_refused("irq a at 1ms\nirq b at 2ms\0\n", 27, 2, "NUL byte");

	for (int i = 0; i <= 448; i++)
		len += (size_t)sprintf(text + len, "irq s%d at 1ms\n", i);
	check_refused(text, len, 449, "more sources than source IRQs (448)");
}

/* --- FUSION_SIM_LOG --- */

static struct nk_sem log_sem;
static unsigned int log_virq;

static void log_head(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	CHECK_EQ(nk_sem_give(&log_sem), 0);
	CHECK_EQ(ipipe_trigger_irq(nk, log_virq, 0), 0);
}

static void log_worker(void *arg)
{
	(void)arg;
	for (;;) {
		int ret = nk_sem_take(&log_sem, 400 * US, NK_RELATIVE);

		CHECK(ret == 0 || ret == -ETIMEDOUT);
		CHECK_EQ(nk_consume(nk, 30 * US), 0);
	}
}

/* One run of a workload fed by three scripted sources, logged to @path. */
static void logged_run(const char *scenario, const char *log_path)
{
	struct nk_thread_attr attr = {.name = "worker", .priority = 50};
	const char *names[3] = {"tick", "noise", "once"};
	struct nk_thread *worker;

	setenv("FUSION_SIM_LOG", log_path, 1);
	sim_create(scenario);
	unsetenv("FUSION_SIM_LOG");
	CHECK_EQ(nk_sem_init(nk, &log_sem, "irqsem", 0, 0, NK_SYNCH_FIFO), 0);
	CHECK_EQ(ipipe_alloc_virq(nk, &log_virq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_root_domain(nk), log_virq,
				      nop_handler, NULL, IPIPE_HANDLE),
		 0);
	for (int i = 0; i < 3; i++) {
		struct ipipe_source src = {.kind = IPIPE_SRC_SCRIPT,
					   .name = names[i]};
		unsigned int irq;

		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
		CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq,
					      log_head, NULL, IPIPE_HANDLE),
			 0);
	}
	CHECK_EQ(nk_thread_create(nk, &attr, &worker), 0);
	CHECK_EQ(nk_thread_start(worker, log_worker, NULL), 0);
	sleep_ns(50 * MS);
	sim_destroy();
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;

	CHECK(f != NULL);
	CHECK_EQ(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	CHECK(size > 0);
	rewind(f);
	buf = malloc((size_t)size + 1);
	CHECK(buf != NULL);
	CHECK_EQ(fread(buf, 1, (size_t)size, f), size);
	buf[size] = '\0';
	fclose(f);
	*len = (size_t)size;
	return buf;
}

TEST(sim_log_identical_twice)
{
	static const char scenario[] =
	    "irq tick every 250us jitter 20us seed 7 from 1ms until 40ms\n"
	    "irq noise poisson mean 300us seed 3\n"
	    "irq once at 5ms\n";
	char path1[] = "/tmp/fusion-scen-log1-XXXXXX";
	char path2[] = "/tmp/fusion-scen-log2-XXXXXX";
	char *a, *b;
	size_t la, lb;
	bool same, irqs;
	int fd1 = mkstemp(path1), fd2 = mkstemp(path2);

	CHECK(fd1 >= 0 && fd2 >= 0);
	close(fd1);
	close(fd2);
	logged_run(scenario, path1);
	logged_run(scenario, path2);
	a = slurp(path1, &la);
	b = slurp(path2, &lb);
	unlink(path1);
	unlink(path2);
	same = la == lb && memcmp(a, b, la) == 0;
	irqs = strstr(a, "\n5000000 cpu0 irq head") != NULL &&
	       strstr(a, " cpu0 irq root") != NULL &&
	       strstr(a, " cpu0 wake worker irqsem") != NULL;
	free(a);
	free(b);
	CHECK(same);
	/* IRQs are in it, by domain: head for sources, root for the virq. */
	CHECK(irqs);
}

/*
 * An IRQ line of the log names the IRQ: trace.h gives NK_TRACE_IRQ's arg
 * as the IRQ number, as the line format's optional [<arg>].
 */
TEST(sim_log_names_the_irq)
{
	char path[] = "/tmp/fusion-scen-log-XXXXXX";
	char *text;
	size_t len;
	bool head, root;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	logged_run("irq tick at 1ms\nirq noise at 2ms\nirq once at 5ms\n",
		   path);
	text = slurp(path, &len);
	unlink(path);
	head = strstr(text, "\n5000000 cpu0 irq head 66\n") != NULL;
	root = strstr(text, "\n1030000 cpu0 irq root 512\n") != NULL;
	free(text);
	CHECK(head);
	CHECK(root);
}

/*
 * A log that cannot be written (/dev/full) is reported once, naming the
 * file, whether the error comes while recording (a long run) or only
 * when the log is closed (a short one); the run goes on.
 */
TEST(sim_log_write_error_reported_once)
{
	static const char *const scenarios[] = {
	    "irq tick every 100us\nirq noise at 2ms\nirq once at 5ms\n",
	    "irq tick at 1ms\nirq noise at 2ms\nirq once at 60ms\n"};
	struct capture c;
	char err[1024];

	for (int i = 0; i < 2; i++) {
		capture_begin(&c);
		logged_run(scenarios[i], "/dev/full");
		capture_end(&c, err, sizeof(err));
		CHECK_STR(err, "fusion-sim: /dev/full: cannot write the event "
			       "log: No space left on device\n");
	}
}

TESTS(T(at_fires_once_at_its_date), T(every_without_jitter),
      T(every_with_jitter_is_reproducible), T(poisson_is_reproducible),
      T(two_instances_at_once_see_the_same_dates), T(attachment_window),
      T(ties_timer_then_scenario_order),
      T(source_kept_passed_on_or_logged_by_the_head),
      T(scenario_syntax_accepted), T(long_comment_line_accepted),
      T(extreme_dates_end_without_overflow), T(jitter_stays_inside_until),
      T(malformed_lines_are_refused_with_their_line),
      T(limits_are_refused_with_their_reason),
      T(unreadable_scenarios_are_refused), T(sim_log_identical_twice),
      T(sim_log_names_the_irq), T(sim_log_write_error_reported_once));
