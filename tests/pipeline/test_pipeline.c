/* SPDX-License-Identifier: MIT */
/*
 * The interrupt pipeline on the sim backend: delivery order and
 * statistics across three domains for every mode, stall/log/replay
 * (nested, the head stall holding the nucleus timer back), virtual IRQ
 * round trips between head and root, IRQs in scheduler-locked sections,
 * interrupt-context restrictions, preemption from ipipe_trigger_irq, and
 * bad input for every public function.
 *
 * Handlers and threads append "who:irq@ns" records to a log; each test
 * compares the whole log with the exact expected sequence.
 */
#include "pipeline_test.h"

static struct nk_sem sem;

/* Records "<cookie>:<irq>@<ns>": the cookie names the domain. */
static void rec_irq(unsigned int irq, void *cookie)
{
	rec("%s:%u@%lld", (const char *)cookie, irq, now());
}

/* As rec_irq, then wakes the waiter thread. */
static void rec_irq_give(unsigned int irq, void *cookie)
{
	rec_irq(irq, cookie);
	CHECK_EQ(nk_sem_give(&sem), 0);
}

/* --- helpers --- */

/* A fresh instance, main at @main_priority, running @scenario (or none). */
static void sim_create_scenario(int main_priority, const char *scenario)
{
	struct nk_instance_attr attr = {.backend = "sim",
					.main_priority = main_priority};

	sim_open(&attr, scenario);
	CHECK_EQ(nk_sem_init(nk, &sem, "sem", 0, 0, NK_SYNCH_FIFO), 0);
}

static void sim_create(int main_priority)
{
	sim_create_scenario(main_priority, NULL);
}

static unsigned int virq(void)
{
	unsigned int irq = 0;

	CHECK_EQ(ipipe_alloc_virq(nk, &irq), 0);
	return irq;
}

static unsigned int script(const char *name)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_SCRIPT, .name = name};
	unsigned int irq = 0;

	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), 0);
	return irq;
}

static void handle(struct ipipe_domain *d, unsigned int irq, ipipe_handler_t fn,
		   const char *name, unsigned int mode)
{
	CHECK_EQ(ipipe_virtualize_irq(d, irq, fn, (void *)name, mode), 0);
}

/* A new virtual IRQ that @d handles with @fn, @name as its cookie. */
static unsigned int virq_to(struct ipipe_domain *d, ipipe_handler_t fn,
			    const char *name, unsigned int mode)
{
	unsigned int irq = virq();

	handle(d, irq, fn, name, mode);
	return irq;
}

/* Registers "mid", priority 100: on the head side of root. */
static struct ipipe_domain *register_mid(void)
{
	struct ipipe_domain *mid = NULL;

	CHECK_EQ(ipipe_register_domain(nk, "mid", 100, &mid), 0);
	return mid;
}

/* Records "<who>@<ns>". */
static void mark(const char *who)
{
	rec("%s@%lld", who, now());
}

/* Raises @irq on CPU 0. */
static void trigger(unsigned int irq)
{
	CHECK_EQ(ipipe_trigger_irq(nk, irq, 0), 0);
}

/* Raises @irq, records "main", then blocks 1 us so that root runs. */
static void trigger_then_block(unsigned int irq)
{
	trigger(irq);
	mark("main");
	sleep_ns(US);
}

/* Unstalls @d on CPU 0 (replaying its log), then records "unstalled". */
static void unstall(struct ipipe_domain *d)
{
	CHECK_EQ(ipipe_unstall(d, 0), 0);
	mark("unstalled");
}

static struct nk_thread *spawn(const char *name, int prio, nk_thread_fn fn,
			       void *arg)
{
	struct nk_thread_attr attr = {.name = name, .priority = prio};
	struct nk_thread *thread;

	CHECK_EQ(nk_thread_create(nk, &attr, &thread), 0);
	CHECK_EQ(nk_thread_start(thread, fn, arg), 0);
	return thread;
}

/* Takes the semaphore forever, recording each wake-up. */
static void waiter(void *arg)
{
	(void)arg;
	for (;;) {
		CHECK_EQ(nk_sem_take(&sem, NK_INFINITE, NK_RELATIVE), 0);
		mark("waiter");
	}
}

/* --- delivery order and modes --- */

enum { M_HANDLE, M_PASS, M_BOTH, M_DISCARD, M_NR };

static const char *const mode_names[M_NR] = {"handle", "pass", "both",
					     "discard"};

static bool mode_handles(int m)
{
	return m == M_HANDLE || m == M_BOTH;
}

static bool mode_passes(int m)
{
	return m == M_PASS || m == M_BOTH;
}

static void set_mode(struct ipipe_domain *d, unsigned int irq, int m,
		     const char *name)
{
	switch (m) {
	case M_HANDLE:
		handle(d, irq, rec_irq, name, IPIPE_HANDLE);
		break;
	case M_BOTH:
		handle(d, irq, rec_irq, name, IPIPE_HANDLE | IPIPE_PASS);
		break;
	case M_PASS:
		CHECK_EQ(ipipe_virtualize_irq(d, irq, NULL, NULL, IPIPE_PASS),
			 0);
		break;
	default:
		CHECK_EQ(
		    ipipe_virtualize_irq(d, irq, NULL, NULL, IPIPE_DISCARD), 0);
		break;
	}
}

static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len)
		buf[len++] = ' ';
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/*
 * Head, mid (priority 100, head side) and root, each in one of the four
 * modes.  An IRQ walks the domains in priority order: each handling
 * domain runs its handler, the walk stops at the first domain that does
 * not pass it.  Head-side handlers run before ipipe_trigger_irq returns,
 * root's when main blocks.  A domain that merely passes (no handler)
 * is transparent: it keeps no statistics.
 */
TEST(modes_three_domains_every_combination)
{
	static const char *const names[3] = {"head", "mid", "root"};

	for (int combo = 0; combo < M_NR * M_NR * M_NR; combo++) {
		int m[3] = {combo / (M_NR * M_NR), combo / M_NR % M_NR,
			    combo % M_NR};
		struct ipipe_domain *d[3];
		char expect[1024] = "";
		bool reached[3] = {false, false, false};
		unsigned int irq;

		sim_create(10);
		d[0] = ipipe_head_domain(nk);
		d[1] = register_mid();
		d[2] = ipipe_root_domain(nk);
		irq = virq();
		for (int i = 0; i < 3; i++)
			set_mode(d[i], irq, m[i], names[i]);
		for (int i = 0; i < 3; i++) {
			reached[i] = true;
			if (!mode_passes(m[i]))
				break;
		}
		for (long long t = 0; t < 2 * US; t += US) {
			trigger_then_block(irq);
			for (int i = 0; i < 2; i++)
				if (reached[i] && mode_handles(m[i]))
					append(expect, sizeof(expect),
					       "%s:%u@%lld", names[i], irq, t);
			append(expect, sizeof(expect), "main@%lld", t);
			if (reached[2] && mode_handles(m[2]))
				append(expect, sizeof(expect), "root:%u@%lld",
				       irq, t);
		}
		if (strcmp(log_buf, expect) != 0)
			fprintf(stderr, "modes %s/%s/%s\n", mode_names[m[0]],
				mode_names[m[1]], mode_names[m[2]]);
		CHECK_STR(log_buf, expect);
		for (int i = 0; i < 3; i++) {
			unsigned long n = reached[i] && m[i] != M_PASS ? 2 : 0;

			check_stats(d[i], irq, n, mode_handles(m[i]) ? n : 0,
				    m[i] == M_BOTH ? n : 0, 0,
				    m[i] == M_DISCARD ? n : 0);
		}
		sim_destroy();
	}
}

/* Default mode (nothing installed): every domain passes, none counts. */
TEST(default_mode_passes_silently)
{
	struct ipipe_domain *mid;
	unsigned int irq;

	sim_create(10);
	mid = register_mid();
	irq = virq_to(ipipe_root_domain(nk), rec_irq, "root", IPIPE_HANDLE);
	trigger_then_block(irq);
	CHECK_STR(log_buf, "main@0 root:512@0");
	check_stats(ipipe_head_domain(nk), irq, 0, 0, 0, 0, 0);
	check_stats(mid, irq, 0, 0, 0, 0, 0);
	check_stats(ipipe_root_domain(nk), irq, 1, 1, 0, 0, 0);
	sim_destroy();
}

/* Domains below root run in root context, after root's handler. */
TEST(domain_below_root_runs_after_root)
{
	struct ipipe_domain *low, *mid;
	unsigned int irq;

	sim_create(10);
	/* Registered out of order: the pipeline keeps them sorted. */
	CHECK_EQ(ipipe_register_domain(nk, "low", -5, &low), 0);
	mid = register_mid();
	irq = virq_to(low, rec_irq, "low", IPIPE_HANDLE);
	handle(ipipe_root_domain(nk), irq, rec_irq, "root",
	       IPIPE_HANDLE | IPIPE_PASS);
	handle(mid, irq, rec_irq, "mid", IPIPE_HANDLE | IPIPE_PASS);
	handle(ipipe_head_domain(nk), irq, rec_irq, "head",
	       IPIPE_HANDLE | IPIPE_PASS);
	trigger_then_block(irq);
	CHECK_STR(log_buf, "head:512@0 mid:512@0 main@0 root:512@0 low:512@0");
	check_stats(low, irq, 1, 1, 0, 0, 0);
	CHECK_EQ(ipipe_unregister_domain(low), 0);
	CHECK_EQ(ipipe_unregister_domain(mid), 0);
	sim_destroy();
}

/* --- stall, log, replay --- */

/*
 * The head stalled: virtual and scripted IRQs are logged in arrival
 * order (duplicates kept) and replayed in that order at the unstall,
 * before ipipe_unstall returns.
 */
TEST(head_stall_logs_and_replays_in_arrival_order)
{
	struct ipipe_domain *head;
	unsigned int v, w, s1, s2;

	sim_create_scenario(10, "irq s1 at 1ms\nirq s2 at 2ms\n");
	head = ipipe_head_domain(nk);
	v = virq();
	w = virq();
	s1 = script("s1");
	s2 = script("s2");
	CHECK_EQ(s1, IPIPE_FIRST_SOURCE_IRQ);
	CHECK_EQ(s2, IPIPE_FIRST_SOURCE_IRQ + 1);
	handle(head, v, rec_irq, "head", IPIPE_HANDLE);
	handle(head, w, rec_irq, "head", IPIPE_HANDLE);
	handle(head, s1, rec_irq, "head", IPIPE_HANDLE);
	handle(head, s2, rec_irq, "head", IPIPE_HANDLE);

	CHECK_EQ(ipipe_stall(head, 0), 0);
	CHECK_EQ(ipipe_test_stall(head, 0), 1);
	trigger(w);
	trigger(v);
	CHECK_EQ(ipipe_pending(head, 0), 2);
	CHECK_EQ(nk_consume(nk, 3 * MS), 0);
	CHECK_EQ(ipipe_pending(head, 0), 4);
	trigger(v);
	CHECK_EQ(ipipe_pending(head, 0), 5);
	mark("main");
	unstall(head);
	CHECK_STR(log_buf, "main@3000000 head:513@3000000 head:512@3000000 "
			   "head:64@3000000 head:65@3000000 head:512@3000000 "
			   "unstalled@3000000");
	CHECK_EQ(ipipe_pending(head, 0), 0);
	CHECK_EQ(ipipe_test_stall(head, 0), 0);
	check_stats(head, v, 2, 2, 0, 2, 0);
	check_stats(head, w, 1, 1, 0, 1, 0);
	check_stats(head, s1, 1, 1, 0, 1, 0);
	/* Unstalled: the next arrival runs at once. */
	log_reset();
	trigger(v);
	mark("main");
	CHECK_STR(log_buf, "head:512@3000000 main@3000000");
	check_stats(head, v, 3, 3, 0, 2, 0);
	sim_destroy();
}

/*
 * Stalling a lower domain does not hold the IRQ back from the domains
 * below it: mid (head side) stalled, root still runs its handler; mid
 * replays at its unstall.  Root stalled: its handler waits for the
 * unstall, then for root context.
 */
TEST(lower_domain_stalls)
{
	struct ipipe_domain *head, *mid, *root;
	unsigned int irq;

	sim_create(10);
	head = ipipe_head_domain(nk);
	root = ipipe_root_domain(nk);
	mid = register_mid();
	irq = virq_to(head, rec_irq, "head", IPIPE_HANDLE | IPIPE_PASS);
	handle(mid, irq, rec_irq, "mid", IPIPE_HANDLE | IPIPE_PASS);
	handle(root, irq, rec_irq, "root", IPIPE_HANDLE);

	CHECK_EQ(ipipe_stall(mid, 0), 0);
	trigger_then_block(irq);
	CHECK_EQ(ipipe_pending(mid, 0), 1);
	CHECK_EQ(ipipe_pending(head, 0), 0);
	CHECK_EQ(ipipe_pending(root, 0), 0);
	mark("main");
	unstall(mid);
	CHECK_STR(log_buf, "head:512@0 main@0 root:512@0 main@1000 "
			   "mid:512@1000 unstalled@1000");
	check_stats(mid, irq, 1, 1, 1, 1, 0);

	log_reset();
	CHECK_EQ(ipipe_stall(root, 0), 0);
	trigger_then_block(irq);
	CHECK_EQ(ipipe_pending(root, 0), 1);
	unstall(root);
	sleep_ns(US);
	CHECK_STR(log_buf, "head:512@1000 mid:512@1000 main@1000 "
			   "unstalled@2000 root:512@2000");
	CHECK_EQ(ipipe_pending(root, 0), 0);
	check_stats(root, irq, 2, 2, 0, 1, 0);
	sim_destroy();
}

/*
 * ipipe_stall returns the previous state for ipipe_restore: an inner
 * restore keeps the domain stalled, the outer one replays.
 */
TEST(nested_stall_restore)
{
	struct ipipe_domain *head;
	unsigned int irq;
	int outer, inner;

	sim_create(10);
	head = ipipe_head_domain(nk);
	irq = virq_to(head, rec_irq, "head", IPIPE_HANDLE);
	outer = ipipe_stall(head, 0);
	CHECK_EQ(outer, 0);
	trigger(irq);
	inner = ipipe_stall(head, 0);
	CHECK_EQ(inner, 1);
	trigger(irq);
	CHECK_EQ(ipipe_restore(head, 0, inner), 0);
	rec("inner-restored");
	CHECK_EQ(ipipe_test_stall(head, 0), 1);
	CHECK_EQ(ipipe_pending(head, 0), 2);
	CHECK_EQ(nk_consume(nk, US), 0);
	trigger(irq);
	CHECK_EQ(ipipe_restore(head, 0, outer), 0);
	rec("outer-restored");
	CHECK_EQ(ipipe_test_stall(head, 0), 0);
	CHECK_EQ(ipipe_pending(head, 0), 0);
	CHECK_STR(log_buf, "inner-restored head:512@1000 head:512@1000 "
			   "head:512@1000 outer-restored");
	check_stats(head, irq, 3, 3, 0, 3, 0);
	/* restore(1) on an unstalled domain stalls it. */
	CHECK_EQ(ipipe_restore(head, 0, 1), 0);
	CHECK_EQ(ipipe_test_stall(head, 0), 1);
	CHECK_EQ(ipipe_restore(head, 0, 0), 0);
	CHECK_EQ(ipipe_test_stall(head, 0), 0);
	sim_destroy();
}

static void sleeper(void *arg)
{
	(void)arg;
	mark("sleeper:start");
	sleep_ns(MS);
	mark("sleeper");
}

/*
 * The head stall is the nucleus's "interrupts off": a thread sleeping
 * 1 ms wakes at the unstall date when that is later (3 ms), at 1 ms
 * when the unstall came first.
 */
TEST(head_stall_delays_nucleus_timer)
{
	struct ipipe_domain *head;

	sim_create(10);
	head = ipipe_head_domain(nk);
	spawn("sleeper", 50, sleeper, NULL);
	CHECK_EQ(ipipe_stall(head, 0), 0);
	CHECK_EQ(nk_consume(nk, 3 * MS), 0);
	CHECK_EQ(ipipe_pending(head, 0), 1);
	mark("main");
	unstall(head);
	CHECK_STR(log_buf, "sleeper:start@0 main@3000000 sleeper@3000000 "
			   "unstalled@3000000");
	check_stats(head, IPIPE_TIMER_IRQ(0), 1, 1, 0, 1, 0);

	log_reset();
	spawn("sleeper", 50, sleeper, NULL);
	CHECK_EQ(ipipe_stall(head, 0), 0);
	CHECK_EQ(nk_consume(nk, MS / 2), 0);
	CHECK_EQ(ipipe_pending(head, 0), 0);
	unstall(head);
	sleep_ns(2 * MS);
	mark("main");
	CHECK_STR(log_buf, "sleeper:start@3000000 unstalled@3500000 "
			   "sleeper@4000000 main@5500000");
	/* The sleeper's timer at 4 ms and main's at 5.5 ms came in. */
	check_stats(head, IPIPE_TIMER_IRQ(0), 3, 3, 0, 1, 0);
	sim_destroy();
}

/*
 * A full log drops further arrivals and counts them as lost; what it
 * kept replays.  The log size is not part of the contract: the test
 * only needs it to be below 2000.
 */
TEST(full_log_counts_lost)
{
	struct ipipe_domain *head;
	struct ipipe_irq_stats st;
	unsigned int irq;
	int kept;

	sim_create(10);
	head = ipipe_head_domain(nk);
	irq = virq_to(head, nop_handler, NULL, IPIPE_HANDLE);
	CHECK_EQ(ipipe_stall(head, 0), 0);
	for (int i = 0; i < 2000; i++)
		trigger(irq);
	kept = ipipe_pending(head, 0);
	CHECK(kept > 0 && kept < 2000);
	CHECK_EQ(ipipe_irq_stats(head, irq, &st), 0);
	CHECK_EQ(st.hits, 2000);
	CHECK_EQ(st.logged, 2000);
	CHECK_EQ(st.lost, 2000 - kept);
	CHECK_EQ(st.handled, 0);
	CHECK_EQ(ipipe_unstall(head, 0), 0);
	CHECK_EQ(ipipe_pending(head, 0), 0);
	CHECK_EQ(ipipe_irq_stats(head, irq, &st), 0);
	CHECK_EQ(st.handled, kept);
	/* Handlers take no virtual time on sim. */
	CHECK_EQ(st.worst_ns, 0);
	sim_destroy();
}

static unsigned int reentry_left;

/* Raises its own IRQ: the new arrival runs after this run ends. */
static void reentrant(unsigned int irq, void *cookie)
{
	(void)cookie;
	rec("start:%u", reentry_left);
	if (reentry_left) {
		reentry_left--;
		trigger(irq);
	}
	rec("end");
}

TEST(trigger_from_handler_does_not_nest)
{
	unsigned int irq;

	sim_create(10);
	irq = virq_to(ipipe_head_domain(nk), reentrant, NULL, IPIPE_HANDLE);
	reentry_left = 2;
	trigger(irq);
	rec("main");
	CHECK_STR(log_buf, "start:2 end start:1 end start:0 end main");
	check_stats(ipipe_head_domain(nk), irq, 3, 3, 0, 0, 0);
	sim_destroy();
}

/*
 * Any allocated number may be raised in software: a scripted source's
 * handler runs, and the nucleus timer IRQ fires nothing before its date.
 */
TEST(trigger_simulates_source_and_timer)
{
	struct ipipe_domain *head;
	unsigned int s;

	sim_create_scenario(10, "irq s at 2ms\n");
	head = ipipe_head_domain(nk);
	s = script("s");
	handle(head, s, rec_irq, "head", IPIPE_HANDLE);
	spawn("sleeper", 50, sleeper, NULL);
	trigger(s);
	CHECK_EQ(ipipe_trigger_irq(nk, IPIPE_TIMER_IRQ(0), 0), 0);
	mark("main");
	sleep_ns(3 * MS);
	CHECK_STR(log_buf, "sleeper:start@0 head:64@0 main@0 sleeper@1000000 "
			   "head:64@2000000");
	check_stats(head, s, 2, 2, 0, 0, 0);
	/* The software one, the sleeper's and main's timers. */
	check_stats(head, IPIPE_TIMER_IRQ(0), 3, 3, 0, 0, 0);
	sim_destroy();
}

/* Stall bits and logs are per CPU. */
TEST(stall_is_per_cpu)
{
	struct nk_instance_attr attr = {
	    .backend = "sim", .nr_cpus = 2, .main_priority = 10};
	struct ipipe_domain *head;
	unsigned int irq;

	sim_open(&attr, NULL);
	head = ipipe_head_domain(nk);
	irq = virq_to(head, rec_irq, "head", IPIPE_HANDLE);
	CHECK_EQ(ipipe_stall(head, 1), 0);
	CHECK_EQ(ipipe_test_stall(head, 0), 0);
	CHECK_EQ(ipipe_test_stall(head, 1), 1);
	CHECK_EQ(ipipe_trigger_irq(nk, irq, 1), 0);
	trigger(irq);
	mark("main");
	CHECK_EQ(ipipe_pending(head, 0), 0);
	CHECK_EQ(ipipe_pending(head, 1), 1);
	CHECK_EQ(nk_consume(nk, US), 0);
	CHECK_EQ(ipipe_pending(head, 1), 1);
	CHECK_EQ(ipipe_unstall(head, 1), 0);
	sleep_ns(US);
	CHECK_EQ(ipipe_pending(head, 1), 0);
	CHECK_STR(log_buf, "head:512@0 main@0 head:512@1000");
	check_stats(head, irq, 2, 2, 0, 1, 0);
	sim_destroy();
}

/*
 * Unregistering a domain removes its handlers (the IRQ reaches the next
 * domain again) and frees its priority.
 */
TEST(unregister_removes_handlers_and_priority)
{
	struct ipipe_domain *mid;
	unsigned int irq;

	sim_create(10);
	mid = register_mid();
	irq = virq_to(mid, rec_irq, "mid", IPIPE_HANDLE);
	handle(ipipe_root_domain(nk), irq, rec_irq, "root", IPIPE_HANDLE);
	trigger(irq);
	sleep_ns(US);
	CHECK_EQ(ipipe_unregister_domain(mid), 0);
	trigger(irq);
	sleep_ns(US);
	CHECK_STR(log_buf, "mid:512@0 root:512@1000");
	CHECK_EQ(ipipe_register_domain(nk, "again", 100, &mid), 0);
	check_stats(mid, irq, 0, 0, 0, 0, 0);
	CHECK_EQ(ipipe_unregister_domain(mid), 0);
	sim_destroy();
}

/* Root context is the idle task: a thread consuming CPU keeps it out. */
TEST(root_waits_for_rt_threads_to_block)
{
	unsigned int irq;

	sim_create(10);
	irq = virq_to(ipipe_root_domain(nk), rec_irq, "root", IPIPE_HANDLE);
	spawn("sleeper", 50, sleeper, NULL);
	trigger(irq);
	CHECK_EQ(nk_consume(nk, 2 * MS), 0);
	mark("main");
	sleep_ns(US);
	CHECK_STR(log_buf, "sleeper:start@0 sleeper@1000000 main@2000000 "
			   "root:512@2000000");
	sim_destroy();
}

/* --- virtual IRQ round trip --- */

static unsigned int trip_virq[3];

static void trip_head_first(unsigned int irq, void *cookie)
{
	rec_irq(irq, cookie);
	trigger(trip_virq[1]);
}

static void trip_root(unsigned int irq, void *cookie)
{
	rec_irq(irq, cookie);
	CHECK_EQ(nk_thread_self(nk) == NULL, 1);
	trigger(trip_virq[2]);
}

/*
 * head -> root -> head: the head handler of v1 raises v2 (root), whose
 * handler raises v3 (head), whose handler gives the semaphore an RT
 * thread waits on.  Root runs only once main blocks.
 */
TEST(virq_round_trip_head_root_head)
{
	struct ipipe_domain *head, *root;

	sim_create(10);
	head = ipipe_head_domain(nk);
	root = ipipe_root_domain(nk);
	for (int i = 0; i < 3; i++)
		trip_virq[i] = virq();
	handle(head, trip_virq[0], trip_head_first, "head", IPIPE_HANDLE);
	handle(root, trip_virq[1], trip_root, "root", IPIPE_HANDLE);
	handle(head, trip_virq[2], rec_irq_give, "head", IPIPE_HANDLE);
	spawn("waiter", 50, waiter, NULL);
	trigger(trip_virq[0]);
	mark("main");
	sleep_ns(MS);
	mark("main");
	CHECK_STR(log_buf, "head:512@0 main@0 root:513@0 head:514@0 "
			   "waiter@0 main@1000000");
	check_stats(head, trip_virq[0], 1, 1, 0, 0, 0);
	check_stats(root, trip_virq[1], 1, 1, 0, 0, 0);
	check_stats(head, trip_virq[2], 1, 1, 0, 0, 0);
	sim_destroy();
}

/* --- scheduler lock --- */

/*
 * An IRQ in a scheduler-locked section: its head handler runs at once
 * (synchronous trigger, and a scripted IRQ arriving during nk_consume),
 * but the thread it readies runs only at nk_sched_unlock.
 */
TEST(irq_during_sched_locked_section)
{
	struct ipipe_domain *head;
	unsigned int v, s;

	sim_create_scenario(10, "irq tick at 1ms\n");
	head = ipipe_head_domain(nk);
	v = virq();
	s = script("tick");
	handle(head, v, rec_irq_give, "head", IPIPE_HANDLE);
	handle(head, s, rec_irq_give, "head", IPIPE_HANDLE);
	spawn("waiter", 50, waiter, NULL);

	CHECK_EQ(nk_sched_lock(nk), 0);
	trigger(v);
	mark("main:locked");
	CHECK_EQ(nk_sched_unlock(nk), 0);
	mark("main:unlocked");
	CHECK_STR(log_buf, "head:512@0 main:locked@0 waiter@0 "
			   "main:unlocked@0");

	log_reset();
	CHECK_EQ(nk_sched_lock(nk), 0);
	CHECK_EQ(nk_sched_lock(nk), 0);
	CHECK_EQ(nk_consume(nk, 2 * MS), 0);
	mark("main:locked");
	CHECK_EQ(nk_sched_unlock(nk), 0);
	mark("main:inner-unlocked");
	CHECK_EQ(nk_sched_unlock(nk), 0);
	mark("main:unlocked");
	CHECK_STR(log_buf, "head:64@1000000 main:locked@2000000 "
			   "main:inner-unlocked@2000000 waiter@2000000 "
			   "main:unlocked@2000000");
	sim_destroy();
}

/* --- interrupt context --- */

static struct nk_mutex ctx_mutex;

/*
 * With the semaphore drained, blocking services fail with -EPERM in
 * interrupt context (head side) and in root context; non-blocking ones
 * work.
 */
static void blocking_in_handler(unsigned int irq, void *cookie)
{
	(void)irq;
	rec("%s:self=%d", (const char *)cookie, nk_thread_self(nk) != NULL);
	rec("take0=%d", nk_sem_take(&sem, 0, NK_RELATIVE));
	rec("take=%d", nk_sem_take(&sem, MS, NK_RELATIVE));
	rec("take-inf=%d", nk_sem_take(&sem, NK_INFINITE, NK_RELATIVE));
	rec("sleep=%d", nk_thread_sleep(nk, MS, NK_RELATIVE));
	rec("lock=%d", nk_mutex_lock(&ctx_mutex, NK_INFINITE, NK_RELATIVE));
	rec("consume=%d", nk_consume(nk, US));
	rec("schedlock=%d", nk_sched_lock(nk));
	rec("give=%d", nk_sem_give(&sem));
}

TEST(blocking_call_in_handler_is_eperm)
{
	struct ipipe_domain *mid;
	unsigned int irq;
	char expect[1024] = "";
	unsigned long count;

	sim_create(10);
	CHECK_EQ(nk_mutex_init(nk, &ctx_mutex, "m", 0, 0), 0);
	mid = register_mid();
	irq = virq_to(ipipe_head_domain(nk), blocking_in_handler, "head",
		      IPIPE_HANDLE | IPIPE_PASS);
	handle(mid, irq, blocking_in_handler, "mid", IPIPE_HANDLE | IPIPE_PASS);
	handle(ipipe_root_domain(nk), irq, blocking_in_handler, "root",
	       IPIPE_HANDLE);
	trigger(irq);
	sleep_ns(US);
	/* Each handler takes the unit the previous one gave. */
	for (int i = 0; i < 3; i++)
		append(expect, sizeof(expect),
		       "%s:self=0 take0=%d take=%d take-inf=%d sleep=%d "
		       "lock=%d consume=%d schedlock=%d give=0",
		       i == 0	? "head"
		       : i == 1 ? "mid"
				: "root",
		       i == 0 ? -EWOULDBLOCK : 0, -EPERM, -EPERM, -EPERM,
		       -EPERM, -EPERM, -EPERM);
	CHECK_STR(log_buf, expect);
	CHECK_EQ(nk_sem_count(&sem, &count), 0);
	CHECK_EQ(count, 1);
	CHECK(nk_mutex_owner(&ctx_mutex) == NULL);
	CHECK_EQ(nk_mutex_destroy(&ctx_mutex), 0);
	sim_destroy();
}

/*
 * A head handler that readies a more urgent thread: it preempts the
 * triggering thread before ipipe_trigger_irq returns; a less urgent one
 * waits for the caller to block.
 */
TEST(trigger_preempts_caller_before_return)
{
	unsigned int irq;

	sim_create(10);
	irq =
	    virq_to(ipipe_head_domain(nk), rec_irq_give, "head", IPIPE_HANDLE);
	spawn("waiter", 50, waiter, NULL);
	trigger(irq);
	mark("main");
	CHECK_STR(log_buf, "head:512@0 waiter@0 main@0");
	sim_destroy();

	sim_create(60);
	irq =
	    virq_to(ipipe_head_domain(nk), rec_irq_give, "head", IPIPE_HANDLE);
	spawn("waiter", 50, waiter, NULL);
	trigger_then_block(irq);
	CHECK_STR(log_buf, "head:512@0 main@0 waiter@0");
	sim_destroy();
}

/* --- bad input --- */

/* Zeroed memory and junk: neither is an instance or a domain. */
static union {
	unsigned char bytes[256];
	long long align;
} garbage;

/*
 * A per-CPU domain call (stall, unstall, test_stall, pending) refuses no
 * domain, the non-domain @bad, and @d on CPU 1 (on the single-CPU
 * instance), and on CPU -1 when @negative.
 */
static void check_per_cpu_refused(int (*call)(struct ipipe_domain *, int),
				  struct ipipe_domain *bad,
				  struct ipipe_domain *d, bool negative)
{
	CHECK_EQ(call(NULL, 0), -EINVAL);
	CHECK_EQ(call(bad, 0), -EINVAL);
	if (negative)
		CHECK_EQ(call(d, -1), -EINVAL);
	CHECK_EQ(call(d, 1), -EINVAL);
}

TEST(bad_input_domains)
{
	struct nk_instance *bad_nk = (struct nk_instance *)&garbage;
	struct ipipe_domain *bad = (struct ipipe_domain *)&garbage;
	struct ipipe_domain *head, *root, *mid, *other = NULL;
	char long_name[NK_NAME_MAX + 1];

	memset(&garbage, 0xa5, sizeof(garbage));
	CHECK(ipipe_head_domain(NULL) == NULL);
	CHECK(ipipe_root_domain(NULL) == NULL);
	CHECK(ipipe_head_domain(bad_nk) == NULL);
	CHECK(ipipe_root_domain(bad_nk) == NULL);
	sim_create(10);
	head = ipipe_head_domain(nk);
	root = ipipe_root_domain(nk);
	CHECK(head != NULL && root != NULL && head != root);

	CHECK_EQ(ipipe_register_domain(NULL, "x", 100, &mid), -EINVAL);
	CHECK_EQ(ipipe_register_domain(bad_nk, "x", 100, &mid), -EINVAL);
	CHECK_EQ(ipipe_register_domain(nk, "x", 100, NULL), -EINVAL);
	CHECK_EQ(ipipe_register_domain(nk, "x", IPIPE_HEAD_PRIORITY, &mid),
		 -EINVAL);
	CHECK_EQ(ipipe_register_domain(nk, "x", IPIPE_HEAD_PRIORITY + 1, &mid),
		 -EINVAL);
	memset(long_name, 'n', NK_NAME_MAX);
	long_name[NK_NAME_MAX] = '\0';
	CHECK_EQ(ipipe_register_domain(nk, long_name, 100, &mid), -EINVAL);
	long_name[NK_NAME_MAX - 1] = '\0';
	CHECK_EQ(
	    ipipe_register_domain(nk, long_name, IPIPE_ROOT_PRIORITY, &mid),
	    -EEXIST);
	CHECK_EQ(ipipe_register_domain(nk, long_name, 100, &mid), 0);
	CHECK_EQ(ipipe_register_domain(nk, "other", 100, &other), -EEXIST);
	CHECK(other == NULL);
	CHECK_EQ(
	    ipipe_register_domain(nk, "other", IPIPE_HEAD_PRIORITY - 1, &other),
	    0);

	CHECK_EQ(ipipe_unregister_domain(NULL), -EINVAL);
	CHECK_EQ(ipipe_unregister_domain(bad), -EINVAL);
	CHECK_EQ(ipipe_unregister_domain(head), -EINVAL);
	CHECK_EQ(ipipe_unregister_domain(root), -EINVAL);
	CHECK_EQ(ipipe_unregister_domain(other), 0);

	/* Stall state and log queries. */
	check_per_cpu_refused(ipipe_stall, bad, mid, true);
	check_per_cpu_refused(ipipe_unstall, bad, mid, false);
	CHECK_EQ(ipipe_restore(NULL, 0, 0), -EINVAL);
	CHECK_EQ(ipipe_restore(bad, 0, 1), -EINVAL);
	CHECK_EQ(ipipe_restore(mid, 1, 0), -EINVAL);
	CHECK_EQ(ipipe_restore(mid, 0, 2), -EINVAL);
	CHECK_EQ(ipipe_restore(mid, 0, -1), -EINVAL);
	check_per_cpu_refused(ipipe_test_stall, bad, mid, true);
	check_per_cpu_refused(ipipe_pending, bad, mid, false);
	CHECK_EQ(ipipe_test_stall(mid, 0), 0);
	CHECK_EQ(ipipe_pending(mid, 0), 0);
	CHECK_EQ(ipipe_unregister_domain(mid), 0);
	sim_destroy();
}

/* @call (an instance and an IRQ number) refuses the @n numbers @irqs. */
static void check_refused(int (*call)(struct nk_instance *, unsigned int),
			  const unsigned int *irqs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ret = call(nk, irqs[i]);

		if (ret != -EINVAL)
			fprintf(stderr, "IRQ %u accepted\n", irqs[i]);
		CHECK_EQ(ret, -EINVAL);
	}
}

TEST(bad_input_irqs)
{
	struct nk_instance *bad_nk = (struct nk_instance *)&garbage;
	struct ipipe_domain *bad = (struct ipipe_domain *)&garbage;
	struct ipipe_domain *head, *root, *mid;
	struct ipipe_irq_stats st;
	unsigned int v, w, irq;

	memset(&garbage, 0, sizeof(garbage));
	sim_create(10);
	head = ipipe_head_domain(nk);
	root = ipipe_root_domain(nk);
	mid = register_mid();
	v = virq();
	CHECK_EQ(v, IPIPE_FIRST_VIRQ);

	/* virtualize: domain, number, allocation, mode. */
	CHECK_EQ(ipipe_virtualize_irq(NULL, v, nop_handler, NULL, IPIPE_HANDLE),
		 -EINVAL);
	CHECK_EQ(ipipe_virtualize_irq(bad, v, nop_handler, NULL, IPIPE_HANDLE),
		 -EINVAL);
	CHECK_EQ(ipipe_virtualize_irq(head, IPIPE_NR_IRQS, nop_handler, NULL,
				      IPIPE_HANDLE),
		 -EINVAL);
	CHECK_EQ(
	    ipipe_virtualize_irq(head, ~0u, nop_handler, NULL, IPIPE_HANDLE),
	    -EINVAL);
	CHECK_EQ(
	    ipipe_virtualize_irq(head, v + 1, nop_handler, NULL, IPIPE_HANDLE),
	    -EINVAL);
	CHECK_EQ(ipipe_virtualize_irq(root, IPIPE_FIRST_SOURCE_IRQ, nop_handler,
				      NULL, IPIPE_HANDLE),
		 -EINVAL);
	/* Only CPU 0 exists: CPU 1's timer number is not allocated. */
	CHECK_EQ(ipipe_virtualize_irq(root, IPIPE_TIMER_IRQ(1), nop_handler,
				      NULL, IPIPE_HANDLE),
		 -EINVAL);
	CHECK_EQ(ipipe_virtualize_irq(head, v, nop_handler, NULL, 0x4),
		 -EINVAL);
	CHECK_EQ(ipipe_virtualize_irq(head, v, nop_handler, NULL,
				      IPIPE_HANDLE | 0x100),
		 -EINVAL);
	CHECK_EQ(ipipe_virtualize_irq(head, v, NULL, NULL, IPIPE_HANDLE),
		 -EINVAL);
	CHECK_EQ(ipipe_virtualize_irq(head, v, NULL, NULL,
				      IPIPE_HANDLE | IPIPE_PASS),
		 -EINVAL);
	CHECK_EQ(ipipe_virtualize_irq(head, IPIPE_TIMER_IRQ(0), nop_handler,
				      NULL, IPIPE_HANDLE),
		 -EPERM);
	CHECK_EQ(ipipe_virtualize_irq(head, IPIPE_TIMER_IRQ(0), NULL, NULL,
				      IPIPE_PASS),
		 -EPERM);
	CHECK_EQ(ipipe_virtualize_irq(head, IPIPE_TIMER_IRQ(0), NULL, NULL,
				      IPIPE_DISCARD),
		 -EPERM);

	/*
	 * Double registration; a domain or a number that still has
	 * arrivals or a handler is busy; removing a handler drops its
	 * logged arrivals (others stay, in order).
	 */
	handle(mid, v, rec_irq, "mid", IPIPE_HANDLE);
	CHECK_EQ(ipipe_virtualize_irq(mid, v, nop_handler, NULL, IPIPE_HANDLE),
		 -EBUSY);
	CHECK_EQ(ipipe_virtualize_irq(mid, v, rec_irq, "mid", IPIPE_HANDLE),
		 -EBUSY);
	w = virq_to(mid, rec_irq, "mid", IPIPE_HANDLE);
	CHECK_EQ(ipipe_stall(mid, 0), 0);
	trigger(v);
	trigger(w);
	trigger(v);
	CHECK_EQ(ipipe_pending(mid, 0), 3);
	CHECK_EQ(ipipe_unregister_domain(mid), -EBUSY);
	CHECK_EQ(ipipe_free_virq(nk, v), -EBUSY);
	CHECK_EQ(ipipe_virtualize_irq(mid, v, NULL, NULL, IPIPE_PASS), 0);
	CHECK_EQ(ipipe_pending(mid, 0), 1);
	CHECK_EQ(ipipe_unregister_domain(mid), -EBUSY);
	CHECK_EQ(ipipe_unstall(mid, 0), 0);
	CHECK_STR(log_buf, "mid:513@0");
	CHECK_EQ(ipipe_virtualize_irq(mid, w, NULL, NULL, IPIPE_PASS), 0);
	CHECK_EQ(ipipe_free_virq(nk, v), 0);
	CHECK_EQ(ipipe_free_virq(nk, w), 0);

	/* alloc / free. */
	CHECK_EQ(ipipe_alloc_virq(NULL, &w), -EINVAL);
	CHECK_EQ(ipipe_alloc_virq(bad_nk, &w), -EINVAL);
	CHECK_EQ(ipipe_alloc_virq(nk, NULL), -EINVAL);
	CHECK_EQ(ipipe_free_virq(NULL, v), -EINVAL);
	CHECK_EQ(ipipe_free_virq(bad_nk, v), -EINVAL);
	check_refused(ipipe_free_virq,
		      (unsigned int[]){v, IPIPE_NR_IRQS, IPIPE_TIMER_IRQ(0)},
		      3);
	for (unsigned int i = IPIPE_FIRST_VIRQ; i < IPIPE_NR_IRQS; i++) {
		CHECK_EQ(ipipe_alloc_virq(nk, &w), 0);
		CHECK_EQ(w, i);
	}
	CHECK_EQ(ipipe_alloc_virq(nk, &w), -EAGAIN);
	CHECK_EQ(ipipe_free_virq(nk, 700), 0);
	CHECK_EQ(ipipe_alloc_virq(nk, &w), 0);
	CHECK_EQ(w, 700);
	for (unsigned int i = IPIPE_FIRST_VIRQ; i < IPIPE_NR_IRQS; i++)
		CHECK_EQ(ipipe_free_virq(nk, i), 0);

	/* A freed and reallocated number starts clean: no handler, PASS. */
	v = virq_to(root, rec_irq, "root", IPIPE_HANDLE);
	CHECK_EQ(ipipe_virtualize_irq(root, v, NULL, NULL, IPIPE_PASS), 0);
	CHECK_EQ(ipipe_free_virq(nk, v), 0);
	CHECK_EQ(virq(), v);
	check_stats(root, v, 0, 0, 0, 0, 0);

	/* trigger. */
	CHECK_EQ(ipipe_trigger_irq(NULL, v, 0), -EINVAL);
	CHECK_EQ(ipipe_trigger_irq(bad_nk, v, 0), -EINVAL);
	CHECK_EQ(ipipe_trigger_irq(nk, IPIPE_NR_IRQS, 0), -EINVAL);
	CHECK_EQ(ipipe_trigger_irq(nk, v + 1, 0), -EINVAL);
	CHECK_EQ(ipipe_trigger_irq(nk, IPIPE_FIRST_SOURCE_IRQ, 0), -EINVAL);
	CHECK_EQ(ipipe_trigger_irq(nk, v, -1), -EINVAL);
	CHECK_EQ(ipipe_trigger_irq(nk, v, 1), -EINVAL);

	/* stats. */
	CHECK_EQ(ipipe_irq_stats(NULL, v, &st), -EINVAL);
	CHECK_EQ(ipipe_irq_stats(bad, v, &st), -EINVAL);
	CHECK_EQ(ipipe_irq_stats(head, v, NULL), -EINVAL);
	CHECK_EQ(ipipe_irq_stats(head, IPIPE_NR_IRQS, &st), -EINVAL);

	/* Sources on sim: only scripts; bad fields are -EINVAL first. */
	{
		struct ipipe_source fd_src = {.kind = IPIPE_SRC_FD, .fd = 0};
		struct ipipe_source sig_src = {.kind = IPIPE_SRC_SIGNAL,
					       .signo = SIGUSR1};
		struct ipipe_source uio_src = {.kind = IPIPE_SRC_UIO,
					       .path = "/dev/uio0"};
		struct ipipe_source gpio_src = {.kind = IPIPE_SRC_GPIO,
						.path = "/dev/gpiochip0",
						.edges = IPIPE_GPIO_RISING};
		struct ipipe_source src;

		CHECK_EQ(ipipe_attach_source(nk, &fd_src, 0, &irq), -ENOTSUP);
		CHECK_EQ(ipipe_attach_source(nk, &sig_src, 0, &irq), -ENOTSUP);
		CHECK_EQ(ipipe_attach_source(nk, &uio_src, 0, &irq), -ENOTSUP);
		CHECK_EQ(ipipe_attach_source(nk, &gpio_src, 0, &irq), -ENOTSUP);
		CHECK_EQ(ipipe_attach_source(NULL, &fd_src, 0, &irq), -EINVAL);
		CHECK_EQ(ipipe_attach_source(bad_nk, &fd_src, 0, &irq),
			 -EINVAL);
		CHECK_EQ(ipipe_attach_source(nk, NULL, 0, &irq), -EINVAL);
		CHECK_EQ(ipipe_attach_source(nk, &fd_src, 0, NULL), -EINVAL);
		CHECK_EQ(ipipe_attach_source(nk, &fd_src, -1, &irq), -EINVAL);
		CHECK_EQ(ipipe_attach_source(nk, &fd_src, 1, &irq), -EINVAL);
		src = fd_src;
		src.fd = -1;
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
		src = sig_src;
		src.signo = 0;
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
		src.signo = NSIG;
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
		src = uio_src;
		src.path = NULL;
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
		src = gpio_src;
		src.edges = 0;
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
		src.edges = 0x4;
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
		src = gpio_src;
		src.path = NULL;
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
		memset(&src, 0, sizeof(src));
		src.kind = IPIPE_SRC_SCRIPT;
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
		src.name = "";
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
		src.name = "nosuch";
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -ENOENT);
		src.kind = (enum ipipe_source_kind)42;
		CHECK_EQ(ipipe_attach_source(nk, &src, 0, &irq), -EINVAL);
	}

	/* Source-only calls on numbers that are not sources. */
	CHECK_EQ(ipipe_source_fd(NULL, v), -EINVAL);
	check_refused(
	    ipipe_source_fd,
	    (unsigned int[]){v, IPIPE_NR_IRQS, IPIPE_FIRST_SOURCE_IRQ}, 3);
	CHECK_EQ(ipipe_detach_source(NULL, v), -EINVAL);
	check_refused(ipipe_detach_source,
		      (unsigned int[]){v, IPIPE_TIMER_IRQ(0),
				       IPIPE_FIRST_SOURCE_IRQ, IPIPE_NR_IRQS},
		      4);
	CHECK_EQ(ipipe_lock_irq(NULL, v), -EINVAL);
	check_refused(ipipe_lock_irq, (unsigned int[]){v, IPIPE_NR_IRQS}, 2);
	CHECK_EQ(ipipe_unlock_irq(nk, v), -EINVAL);
	CHECK_EQ(ipipe_unregister_domain(mid), 0);
	sim_destroy();
}

/* Scripted sources: double attach, detach with a handler, re-attach. */
TEST(bad_input_script_sources)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_SCRIPT, .name = "a"};
	struct ipipe_domain *head;
	unsigned int a, again;

	sim_create_scenario(10, "irq a at 1ms\nirq b at 2ms\n");
	head = ipipe_head_domain(nk);
	a = script("a");
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &again), -EEXIST);
	CHECK_EQ(ipipe_source_fd(nk, a), -EINVAL);
	CHECK_EQ(ipipe_unlock_irq(nk, a), -EINVAL);
	CHECK_EQ(ipipe_lock_irq(nk, a), 0);
	CHECK_EQ(ipipe_unlock_irq(nk, a), 0);
	CHECK_EQ(ipipe_unlock_irq(nk, a), -EINVAL);
	CHECK_EQ(ipipe_free_virq(nk, a), -EINVAL);
	handle(head, a, rec_irq, "head", IPIPE_HANDLE);
	CHECK_EQ(ipipe_detach_source(nk, a), -EBUSY);
	CHECK_EQ(ipipe_virtualize_irq(head, a, NULL, NULL, IPIPE_PASS), 0);
	CHECK_EQ(ipipe_detach_source(nk, a), 0);
	CHECK_EQ(ipipe_detach_source(nk, a), -EINVAL);
	CHECK_EQ(ipipe_virtualize_irq(head, a, rec_irq, "head", IPIPE_HANDLE),
		 -EINVAL);
	/* Re-attached: it fires again (detached, it would not have). */
	CHECK_EQ(ipipe_attach_source(nk, &src, 0, &again), 0);
	CHECK_EQ(again, a);
	handle(head, a, rec_irq, "head", IPIPE_HANDLE);
	sleep_ns(3 * MS);
	CHECK_STR(log_buf, "head:64@1000000");
	sim_destroy();
}

TESTS(T(modes_three_domains_every_combination), T(default_mode_passes_silently),
      T(domain_below_root_runs_after_root),
      T(head_stall_logs_and_replays_in_arrival_order), T(lower_domain_stalls),
      T(nested_stall_restore), T(head_stall_delays_nucleus_timer),
      T(full_log_counts_lost), T(trigger_from_handler_does_not_nest),
      T(trigger_simulates_source_and_timer), T(stall_is_per_cpu),
      T(unregister_removes_handlers_and_priority),
      T(root_waits_for_rt_threads_to_block), T(virq_round_trip_head_root_head),
      T(irq_during_sched_locked_section), T(blocking_call_in_handler_is_eperm),
      T(trigger_preempts_caller_before_return), T(bad_input_domains),
      T(bad_input_irqs), T(bad_input_script_sources));
