/* SPDX-License-Identifier: MIT */
/*
 * The storm guard on sim, in virtual time: a scripted source arriving
 * every microsecond is masked at its 1,001st arrival of the window, with
 * one report on stderr, and runs again once ipipe_unlock_irq() enables
 * it; a timer of 1 us period is deferred to the end of each window, its
 * missed periods counted as overruns, reported once; the budget can be
 * changed or turned off; bad arguments are refused.  (Handlers take no
 * virtual time on sim: the handler-time budget is checked on live.)
 */
#include "pipeline_test.h"

#define MAX_DATES 4096

static const struct nk_instance_attr sim_attr = {.backend = "sim",
						 .main_priority = 10};

/* The dates a handler ran at. */
struct series {
	unsigned long n;
	nk_time_t dates[MAX_DATES];
};

static void record(struct series *s)
{
	if (s->n < MAX_DATES)
		s->dates[s->n] = nk_now(nk);
	s->n++;
}

static void record_irq(unsigned int irq, void *cookie)
{
	(void)irq;
	record(cookie);
}

/* Attach scripted source @name, handled in the head by record_irq. */
static unsigned int watch(const char *name, struct series *s)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_SCRIPT, .name = name};
	unsigned int irq;

	s->n = 0;
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq, record_irq, s,
				      IPIPE_HANDLE),
		 0);
	return irq;
}

/* A fresh instance on @scenario, its source "a" recorded in @s. */
static unsigned int open_with_a(const char *scenario, struct series *s)
{
	sim_open(&sim_attr, scenario);
	return watch("a", s);
}

/* nk_thread_sleep(@ns), what it printed on stderr into @err. */
static void sleep_capturing(nk_time_t ns, char *err, size_t size)
{
	struct capture c;

	capture_begin(&c);
	sleep_ns(ns);
	capture_end(&c, err, size);
}

#define SOURCE_REPORT(rate)                                                    \
	"fusion: irq 64 (script a) on cpu 0: interrupt storm, " rate           \
	" (budget: 1000 arrivals, 5000 us in handlers per 10000 us); masked "  \
	"until ipipe_unlock_irq()\n"

TEST(source_storm_is_masked_at_an_exact_date)
{
	static struct series a;
	char err[1024];
	unsigned int irq;

	irq = open_with_a("irq a every 1us\n", &a);
	CHECK_EQ(ipipe_irq_masked(nk, irq), 0);
	sleep_capturing(5 * MS, err, sizeof(err));
	/* 1,000 arrivals from 0 to 999 us; the one at 1 ms masks it. */
	CHECK_EQ(a.n, 1000);
	CHECK_EQ(a.dates[0], 0);
	CHECK_EQ(a.dates[999], 999 * US);
	CHECK_STR(err, SOURCE_REPORT("1001 arrivals and 0 us in handlers "
				     "within 1000 us"));
	CHECK_EQ(ipipe_irq_masked(nk, irq), 1);

	/* Enabled again between two arrivals: a new window from 5001 us. */
	sleep_ns(500);
	CHECK_EQ(ipipe_unlock_irq(nk, irq), 0);
	CHECK_EQ(ipipe_irq_masked(nk, irq), 0);
	CHECK_EQ(ipipe_unlock_irq(nk, irq), -EINVAL);
	sleep_capturing(5 * MS, err, sizeof(err));
	CHECK_EQ(a.n, 2000);
	CHECK_EQ(a.dates[1000], 5001 * US);
	CHECK_EQ(a.dates[1999], 6000 * US);
	CHECK_STR(err, SOURCE_REPORT("1001 arrivals and 0 us in handlers "
				     "within 1000 us"));
	CHECK_EQ(ipipe_irq_masked(nk, irq), 1);

	/* A masked source detaches; its number comes back unmasked. */
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), irq, NULL, NULL,
				      IPIPE_PASS),
		 0);
	CHECK_EQ(ipipe_detach_source(nk, irq), 0);
	CHECK_EQ(ipipe_irq_masked(nk, irq), -EINVAL);
	CHECK_EQ(watch("a", &a), irq);
	CHECK_EQ(ipipe_irq_masked(nk, irq), 0);
	sim_destroy();
}

/* A source's lock and the guard's mask: unlock ends the mask first. */
TEST(unlock_enables_before_it_drops_a_lock)
{
	static struct series a;
	char err[1024];
	unsigned int irq;

	irq = open_with_a("irq a every 1us until 2ms\n", &a);
	sleep_capturing(1500 * US + 500, err, sizeof(err));
	CHECK_EQ(a.n, 1000);
	CHECK_EQ(ipipe_lock_irq(nk, irq), 0);
	CHECK_EQ(ipipe_unlock_irq(nk, irq), 0);
	CHECK_EQ(ipipe_irq_masked(nk, irq), 0);
	CHECK_EQ(ipipe_unlock_irq(nk, irq), 0);
	CHECK_EQ(ipipe_unlock_irq(nk, irq), -EINVAL);
	sleep_ns(1 * MS);
	/* From 1501 us to 2 ms, inclusive. */
	CHECK_EQ(a.n, 1500);
	CHECK_EQ(a.dates[1000], 1501 * US);
	sim_destroy();
}

static void timer_fired(struct nk_timer *timer)
{
	record(timer->cookie);
}

TEST(timer_storm_is_deferred_to_the_end_of_each_window)
{
	static struct series t;
	struct nk_timer timer;
	char err[1024];

	sim_open(&sim_attr, NULL);
	t.n = 0;
	CHECK_EQ(nk_timer_init(nk, &timer, "storm", 0, timer_fired, &t), 0);
	CHECK_EQ(nk_timer_start(&timer, 1 * US, 1 * US, NK_RELATIVE), 0);
	sleep_capturing(15 * MS, err, sizeof(err));
	/*
	 * Window [1 us, 10001 us): 1,000 ticks, the next deferred to its
	 * end, where the timer fires once and counts 9,000 overruns; the
	 * same in the next window.  Main's wake-up at 15 ms is a timer of
	 * the same CPU: it comes at 20001 us, after the storm's tick.
	 */
	CHECK_EQ(now(), 20001 * US);
	CHECK_EQ(t.n, 2001);
	CHECK_EQ(t.dates[0], 1 * US);
	CHECK_EQ(t.dates[999], 1000 * US);
	CHECK_EQ(t.dates[1000], 10001 * US);
	CHECK_EQ(t.dates[1999], 11000 * US);
	CHECK_EQ(t.dates[2000], 20001 * US);
	CHECK_EQ(timer.overruns, 18000);
	CHECK_STR(err, "fusion: irq 0 (timer) on cpu 0: interrupt storm, 1001 "
		       "arrivals and 0 us in handlers within 1000 us (budget: "
		       "1000 arrivals, 5000 us in handlers per 10000 us); "
		       "deferred to the end of each window while it lasts\n");
	CHECK_EQ(ipipe_irq_masked(nk, IPIPE_TIMER_IRQ(0)), 0);

	/* A window within budget ends the storm: the next one is told. */
	CHECK_EQ(nk_timer_stop(&timer), 0);
	sleep_ns(20 * MS);
	CHECK_EQ(nk_timer_start(&timer, 1 * US, 1 * US, NK_RELATIVE), 0);
	sleep_capturing(2 * MS, err, sizeof(err));
	CHECK(strstr(err, "irq 0 (timer) on cpu 0: interrupt storm") != NULL);
	CHECK_EQ(nk_timer_destroy(&timer), 0);
	sim_destroy();
}

TEST(budget_can_be_changed_or_turned_off)
{
	static struct series a;
	struct ipipe_budget off = {0};
	struct ipipe_budget small = {.window_ns = 1 * MS, .arrivals = 10};
	char err[1024];
	unsigned int irq;

	irq = open_with_a("irq a every 1us\n", &a);
	CHECK_EQ(ipipe_set_budget(nk, &off), 0);
	sleep_ns(3 * MS - 500);
	CHECK_EQ(a.n, 3000);
	CHECK_EQ(ipipe_irq_masked(nk, irq), 0);

	CHECK_EQ(ipipe_set_budget(nk, &small), 0);
	sleep_capturing(1 * MS, err, sizeof(err));
	/* From 3 ms: ten arrivals, the 11th masks. */
	CHECK_EQ(a.n, 3010);
	CHECK_EQ(a.dates[3009], 3009 * US);
	CHECK_STR(err, "fusion: irq 64 (script a) on cpu 0: interrupt storm, "
		       "11 arrivals and 0 us in handlers within 10 us (budget: "
		       "10 arrivals, 0 us in handlers per 1000 us); masked "
		       "until ipipe_unlock_irq()\n");
	sim_destroy();
}

TEST(bad_arguments_are_refused)
{
	struct ipipe_budget budget = {.window_ns = 1 * MS};
	unsigned int virq;

	sim_open(&sim_attr, NULL);
	CHECK_EQ(ipipe_set_budget(NULL, &budget), -EINVAL);
	CHECK_EQ(ipipe_set_budget(nk, NULL), -EINVAL);
	budget.window_ns = -1;
	CHECK_EQ(ipipe_set_budget(nk, &budget), -EINVAL);
	budget.window_ns = IPIPE_BUDGET_WINDOW_MAX_NS + 1;
	CHECK_EQ(ipipe_set_budget(nk, &budget), -EINVAL);
	budget.window_ns = IPIPE_BUDGET_WINDOW_MAX_NS;
	CHECK_EQ(ipipe_set_budget(nk, &budget), 0);
	budget.handler_ns = -1;
	CHECK_EQ(ipipe_set_budget(nk, &budget), -EINVAL);
	CHECK_EQ(ipipe_irq_masked(NULL, 0), -EINVAL);
	CHECK_EQ(ipipe_irq_masked(nk, IPIPE_NR_IRQS), -EINVAL);
	CHECK_EQ(ipipe_irq_masked(nk, IPIPE_FIRST_SOURCE_IRQ), -EINVAL);
	CHECK_EQ(ipipe_alloc_virq(nk, &virq), 0);
	CHECK_EQ(ipipe_irq_masked(nk, virq), 0);
	CHECK_EQ(ipipe_unlock_irq(nk, virq), -EINVAL);
	sim_destroy();
}

TESTS(T(source_storm_is_masked_at_an_exact_date),
      T(unlock_enables_before_it_drops_a_lock),
      T(timer_storm_is_deferred_to_the_end_of_each_window),
      T(budget_can_be_changed_or_turned_off), T(bad_arguments_are_refused));
