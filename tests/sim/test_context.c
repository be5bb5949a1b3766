/* SPDX-License-Identifier: MIT */
/*
 * nk_in_interrupt() on the sim backend: true in timer handlers and
 * head-side pipeline handlers (also when run on a thread's stack), false
 * in threads (with or without the nucleus lock), in root-side handlers
 * and in plain OS threads.
 */
#include "harness.h"

#include <fusion/fusion.h>

#include <pthread.h>

#define MS 1000000LL

static struct nk_instance *nk;
/* What each context saw: -1 until it ran. */
static int in_timer, in_head, in_root, in_thread, in_plain, in_plain_locked;

static void start_sim(void)
{
	struct nk_instance_attr attr = {.backend = "sim", .main_priority = 10};

	in_timer = in_head = in_root = in_thread = -1;
	in_plain = in_plain_locked = -1;
	CHECK_EQ(nk_instance_create(&attr, &nk), 0);
}

static void timer_handler(struct nk_timer *timer)
{
	(void)timer;
	in_timer = nk_in_interrupt(nk);
}

TEST(timer_handler_is_interrupt_context)
{
	struct nk_timer timer;

	start_sim();
	CHECK_EQ(nk_timer_init(nk, &timer, "t", 0, timer_handler, NULL), 0);
	CHECK_EQ(nk_timer_start(&timer, MS, 0, NK_RELATIVE), 0);
	CHECK_EQ(nk_thread_sleep(nk, 2 * MS, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(in_timer, 1);
	CHECK_EQ(nk_timer_destroy(&timer), 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static void body(void *arg)
{
	(void)arg;
	in_thread = nk_in_interrupt(nk);
	/* Holding the lock is not interrupt context either. */
	nk_lock(nk);
	if (nk_in_interrupt(nk))
		in_thread = 2;
	nk_unlock(nk);
}

TEST(threads_are_not)
{
	struct nk_thread_attr ta = {.name = "worker", .priority = 20};
	struct nk_thread *t;

	start_sim();
	CHECK_EQ(nk_in_interrupt(nk), 0);
	CHECK_EQ(nk_thread_create(nk, &ta, &t), 0);
	CHECK_EQ(nk_thread_start(t, body, NULL), 0);
	CHECK_EQ(in_thread, 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static void *plain(void *arg)
{
	(void)arg;
	in_plain = nk_in_interrupt(nk);
	nk_lock(nk);
	in_plain_locked = nk_in_interrupt(nk);
	nk_unlock(nk);
	return NULL;
}

TEST(plain_threads_are_not)
{
	pthread_t p;

	start_sim();
	/* main runs outside the nucleus meanwhile: the lock is free. */
	CHECK_EQ(pthread_create(&p, NULL, plain, NULL), 0);
	CHECK_EQ(pthread_join(p, NULL), 0);
	CHECK_EQ(in_plain, 0);
	CHECK_EQ(in_plain_locked, 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

static void head_handler(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	in_head = nk_in_interrupt(nk);
}

static void root_handler(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	in_root = nk_in_interrupt(nk);
}

TEST(pipeline_handlers_head_yes_root_no)
{
	unsigned int head_irq, root_irq;

	start_sim();
	CHECK_EQ(ipipe_alloc_virq(nk, &head_irq), 0);
	CHECK_EQ(ipipe_alloc_virq(nk, &root_irq), 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), head_irq,
				      head_handler, NULL, IPIPE_HANDLE),
		 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_root_domain(nk), root_irq,
				      root_handler, NULL, IPIPE_HANDLE),
		 0);
	/* Run at once on main's stack, before the call returns. */
	CHECK_EQ(ipipe_trigger_irq(nk, head_irq, 0), 0);
	CHECK_EQ(in_head, 1);
	CHECK_EQ(nk_in_interrupt(nk), 0);
	/* Root context runs once every thread is blocked. */
	CHECK_EQ(ipipe_trigger_irq(nk, root_irq, 0), 0);
	CHECK_EQ(nk_thread_sleep(nk, MS, NK_RELATIVE), NK_WAKE_OK);
	CHECK_EQ(in_root, 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_head_domain(nk), head_irq, NULL,
				      NULL, IPIPE_PASS),
		 0);
	CHECK_EQ(ipipe_virtualize_irq(ipipe_root_domain(nk), root_irq, NULL,
				      NULL, IPIPE_PASS),
		 0);
	CHECK_EQ(nk_instance_destroy(nk), 0);
}

TEST(bad_instance)
{
	struct nk_instance *junk = (struct nk_instance *)&in_timer;

	CHECK_EQ(nk_in_interrupt(NULL), 0);
	CHECK_EQ(nk_in_interrupt(junk), 0);
}

TESTS(T(timer_handler_is_interrupt_context), T(threads_are_not),
      T(plain_threads_are_not), T(pipeline_handlers_head_yes_root_no),
      T(bad_instance));
