/* SPDX-License-Identifier: MIT */
/*
 * Every wait names its object in the nucleus trace (the sim log) and so
 * in the deadlock report, which reads the same name: the object's own,
 * or its class's for an anonymous object.
 */
#include "alchemy_test.h"

#include <alchemy/buffer.h>
#include <alchemy/event.h>
#include <alchemy/heap.h>
#include <alchemy/queue.h>
#include <alchemy/sem.h>

/* Objects main blocked on, in order (the lock serialises the sink). */
static void record_block(void *ctx, const struct nk_trace_record *rec)
{
	(void)ctx;
	if (rec->event == NK_TRACE_BLOCK && strcmp(rec->thread, "main") == 0)
		step(rec->object ? rec->object : "(none)");
}

TEST(waits_name_their_object)
{
	RT_QUEUE q, anon_q;
	RT_BUFFER b;
	RT_EVENT ev;
	RT_HEAP h;
	RT_SEM anon_s;
	char buf[4];
	void *block;

	CHECK_EQ(rt_queue_create(&q, "q1", 64, Q_UNLIMITED, Q_FIFO), 0);
	CHECK_EQ(rt_queue_create(&anon_q, NULL, 64, Q_UNLIMITED, Q_FIFO), 0);
	CHECK_EQ(rt_buffer_create(&b, "b1", 4, B_FIFO), 0);
	CHECK_EQ(rt_event_create(&ev, "e1", 0, EV_FIFO), 0);
	CHECK_EQ(rt_heap_create(&h, "h1", 64, H_FIFO), 0);
	CHECK_EQ(rt_sem_create(&anon_s, NULL, 0, S_FIFO), 0);
	CHECK_EQ(rt_heap_alloc(&h, 64, TM_NONBLOCK, &block), 0);
	log_start();
	CHECK_EQ(nk_instance_set_trace(test_runtime(), record_block, NULL), 0);
	CHECK_EQ(rt_queue_read(&q, buf, sizeof(buf), MS), -ETIMEDOUT);
	CHECK_EQ(rt_queue_read(&anon_q, buf, sizeof(buf), MS), -ETIMEDOUT);
	CHECK_EQ(rt_buffer_read(&b, buf, 1, MS), -ETIMEDOUT);
	CHECK_EQ(rt_buffer_write(&b, "abcd", 4, TM_NONBLOCK), 4);
	CHECK_EQ(rt_buffer_write(&b, "e", 1, MS), -ETIMEDOUT);
	CHECK_EQ(rt_event_wait(&ev, 1, NULL, EV_ANY, MS), -ETIMEDOUT);
	CHECK_EQ(rt_heap_alloc(&h, 8, MS, &block), -ETIMEDOUT);
	CHECK_EQ(rt_sem_p(&anon_s, MS), -ETIMEDOUT);
	CHECK_EQ(nk_instance_set_trace(test_runtime(), NULL, NULL), 0);
	check_log("q1 queue b1 b1 e1 h1 sem");
	CHECK_EQ(rt_sem_delete(&anon_s), 0);
	CHECK_EQ(rt_heap_delete(&h), 0);
	CHECK_EQ(rt_event_delete(&ev), 0);
	CHECK_EQ(rt_buffer_delete(&b), 0);
	CHECK_EQ(rt_queue_delete(&anon_q), 0);
	CHECK_EQ(rt_queue_delete(&q), 0);
}

TESTS(T(waits_name_their_object));
