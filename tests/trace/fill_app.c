/* SPDX-License-Identifier: MIT */
/*
 * A program recorded by tests/trace/test_tools.sh for the Perfetto
 * export's fill counters: an Alchemy queue filled with three messages
 * and emptied by a reader, which then waits for a fourth (handed over,
 * never queued), and a semaphore given twice and taken once.
 */
#include <alchemy/queue.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>

static RT_QUEUE queue;
static RT_SEM sem;

/* Above main: reads the three queued messages, then waits for one. */
static void reader(void *arg)
{
	char buf[8];

	(void)arg;
	for (int i = 0; i < 4; i++)
		rt_queue_read(&queue, buf, sizeof(buf), TM_INFINITE);
}

int main(void)
{
	RT_TASK task;

	rt_queue_create(&queue, "q", 1024, Q_UNLIMITED, Q_FIFO);
	for (int i = 0; i < 3; i++)
		rt_queue_write(&queue, "msg", 4, Q_NORMAL);
	rt_task_spawn(&task, "reader", 0, 10, T_JOINABLE, reader, NULL);
	rt_queue_write(&queue, "msg", 4, Q_NORMAL);
	rt_task_join(&task);
	rt_sem_create(&sem, "s", 0, S_FIFO);
	rt_sem_v(&sem);
	rt_sem_v(&sem);
	rt_sem_p(&sem, TM_INFINITE);
	rt_sem_delete(&sem);
	rt_queue_delete(&queue);
	return 0;
}
