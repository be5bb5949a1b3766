/* SPDX-License-Identifier: MIT */
/*
 * Deliberately deadlocks on sim: one task blocked for ever on each kind
 * of object whose wait carries a request (queue, buffer, event, heap),
 * main on a semaphore.  The deadlock report must name every object;
 * tests/CMakeLists.txt matches it (sim only: on live this would wait).
 */
#include <alchemy/buffer.h>
#include <alchemy/event.h>
#include <alchemy/heap.h>
#include <alchemy/queue.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>

static RT_QUEUE queue;
static RT_BUFFER buffer;
static RT_EVENT event;
static RT_HEAP heap;
static RT_SEM sem;

static void on_queue(void *arg)
{
	char buf[4];

	(void)arg;
	rt_queue_read(&queue, buf, sizeof(buf), TM_INFINITE);
}

static void on_buffer(void *arg)
{
	char buf[4];

	(void)arg;
	rt_buffer_read(&buffer, buf, sizeof(buf), TM_INFINITE);
}

static void on_event(void *arg)
{
	(void)arg;
	rt_event_wait(&event, 1, NULL, EV_ANY, TM_INFINITE);
}

static void on_heap(void *arg)
{
	void *block;

	(void)arg;
	rt_heap_alloc(&heap, 64, TM_INFINITE, &block);
}

int main(void)
{
	static void (*const bodies[])(void *) = {on_queue, on_buffer, on_event,
						 on_heap};
	RT_TASK tasks[4];
	void *all;

	rt_queue_create(&queue, "inbox", 64, Q_UNLIMITED, Q_FIFO);
	rt_buffer_create(&buffer, "stream", 64, B_FIFO);
	rt_event_create(&event, "flags", 0, EV_FIFO);
	rt_heap_create(&heap, "pool", 64, H_FIFO);
	rt_heap_alloc(&heap, 64, TM_NONBLOCK, &all);
	rt_sem_create(&sem, "never", 0, S_FIFO);
	for (int i = 0; i < 4; i++)
		rt_task_spawn(&tasks[i], NULL, 0, 10, 0, bodies[i], NULL);
	return rt_sem_p(&sem, TM_INFINITE);
}
