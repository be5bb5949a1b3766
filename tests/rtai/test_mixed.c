/* SPDX-License-Identifier: MIT */
/*
 * RTAI and Alchemy in one program: this translation unit uses RTAI's
 * names, mixed_alchemy.c Alchemy's same names (rt_sem_delete,
 * rt_task_delete...), each mapped onto its skin's link names by the
 * headers.  The binary links only if the names do not collide, and
 * each call must reach its own skin.
 */
#include "rtai_test.h"

#include "mixed.h"

#include <rtai/rtai_msg.h>
#include <rtai/rtai_sem.h>

TEST(same_names_two_skins)
{
	unsigned long count = 0;
	unsigned long long slept = 0;
	SEM *sem;

	main_task();
	sem = rt_sem_init(nam2num("MIXED"), 3);
	CHECK(sem != NULL);
	/* Alchemy's semaphore of the same name lives in its own space. */
	CHECK_EQ(alchemy_side_sem(&count), 0);
	CHECK_EQ(count, 1);
	CHECK_EQ(rt_sem_wait(sem), 3);
	CHECK_EQ(rt_sem_count(sem), 2);
	CHECK_EQ(alchemy_side_task(&slept), 0);
	if (on_sim())
		CHECK_EQ(slept, MS);
	/* main is an RTAI task still, whatever Alchemy attached. */
	CHECK(rt_whoami() == rt_get_adr(nam2num("MAIN")));
	CHECK_EQ(rt_sem_delete(sem), 0);
	CHECK_EQ(rt_sem_delete(sem), RTE_OBJINV);
}

/* What RTAI calls give in interrupt context (an Alchemy alarm). */
struct in_handler {
	SEM *sem;
	int signal, wait, wait_if, sleep, suspend, count;
	RT_TASK *init, *self, *send;
};

static void rtai_in_handler(void *arg)
{
	struct in_handler *h = arg;

	h->signal = rt_sem_signal(h->sem);
	h->wait_if = rt_sem_wait_if(h->sem);
	h->wait = rt_sem_wait(h->sem);
	h->count = rt_sem_count(h->sem);
	h->sleep = rt_sleep(MS);
	h->suspend = rt_task_suspend(NULL);
	h->init = rt_task_init(nam2num("IRQ"), 1, 0, 0);
	h->self = rt_whoami();
	h->send = rt_send(rt_get_adr(nam2num("MAIN")), 1);
}

TEST(interrupt_context)
{
	struct in_handler h;

	memset(&h, 0x55, sizeof(h));
	main_task();
	h.sem = rt_sem_init(0, 0);
	CHECK_EQ(alchemy_side_in_handler(rtai_in_handler, &h), 0);
	/* Non-blocking calls work; what would wait is refused. */
	CHECK_EQ(h.signal, 0);
	CHECK_EQ(h.wait_if, 1);
	CHECK_EQ(h.wait, RTE_PERM);
	CHECK_EQ(h.count, 0);
	CHECK_EQ(h.sleep, RTE_PERM);
	CHECK_EQ(h.suspend, -EINVAL);
	CHECK(h.init == NULL);
	CHECK(h.self == NULL);
	CHECK(h.send == (RT_TASK *)RTE_OBJINV);
	CHECK_EQ(rt_sem_delete(h.sem), 0);
}

TESTS(T(same_names_two_skins), T(interrupt_context));
