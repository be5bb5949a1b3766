/* SPDX-License-Identifier: MIT */
/*
 * The program fusion sim's tests run under the debugger (test_runner.c),
 * an unmodified Alchemy program:
 *
 *   sim_app worker    feeder (prio 10) sleeps 2 ms, marks "feed N" and
 *                     gives sem1, three times; worker (prio 20) takes
 *                     sem1, then under the mutex "lock" writes N into
 *                     the queue "q" (3 messages at most: full at 6 ms);
 *                     main then reads the three and marks "drained".
 *   sim_app pingpong  ping and pong (prio 10) hand a semaphore back and
 *                     forth forever; main (prio 50) sleeps 1.5 s, then
 *                     says when it woke and how many exchanges it saw,
 *                     and ends the program.  With no cost per service
 *                     call, virtual time never gets to 1.5 s: a
 *                     livelock.
 *   sim_app deadlock  stuck takes sem1, which nobody gives; main joins
 *                     it.
 *   sim_app spin      main computes for a while, sleeps 1 us and says
 *                     when it woke: 1 us, or later with a measured cost.
 *   sim_app irq       a scripted source "dev" (FUSION_SIM_SCENARIO) is
 *                     handled in the head domain; main sleeps 5 ms and
 *                     says how many arrived.
 *   sim_app periodic  tick (prio 30) runs every 1 ms from 1 ms, spinning
 *                     300 us, but 1.5 ms its second time: it overruns
 *                     its release point at 3 ms.
 */
#include <alchemy/mutex.h>
#include <alchemy/queue.h>
#include <alchemy/sem.h>
#include <alchemy/task.h>
#include <alchemy/timer.h>
#include <fusion/pipeline.h>
#include <fusion/runtime.h>
#include <fusion/trace.h>

#include <stdio.h>
#include <string.h>

#define MS 1000000LL

static RT_SEM sem1, ping_sem, pong_sem;
static RT_MUTEX lock;
static RT_QUEUE q;
static long exchanges;

static void worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		if (rt_sem_p(&sem1, TM_INFINITE) ||
		    rt_mutex_acquire(&lock, TM_INFINITE))
			return;
		rt_queue_write(&q, &i, sizeof(i), Q_NORMAL);
		rt_mutex_release(&lock);
	}
}

static void feeder(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		rt_task_sleep(2 * MS);
		fusion_trace_mark("feed %d", i);
		rt_sem_v(&sem1);
	}
}

static int run_worker(void)
{
	RT_TASK w, f;

	if (rt_sem_create(&sem1, "sem1", 0, S_FIFO) ||
	    rt_mutex_create(&lock, "lock") ||
	    rt_queue_create(&q, "q", 3 * 64, 3, Q_FIFO) ||
	    rt_task_create(&w, "worker", 0, 20, T_JOINABLE) ||
	    rt_task_create(&f, "feeder", 0, 10, T_JOINABLE) ||
	    rt_task_start(&w, worker, NULL) || rt_task_start(&f, feeder, NULL))
		return 1;
	rt_task_join(&w);
	rt_task_join(&f);
	for (int i = 0, n; i < 3; i++)
		rt_queue_read(&q, &n, sizeof(n), TM_NONBLOCK);
	fusion_trace_mark("drained");
	printf("worker: done at %lld ns\n", (long long)rt_timer_read());
	return 0;
}

static void ping(void *arg)
{
	(void)arg;
	for (;;) {
		rt_sem_v(&pong_sem);
		if (rt_sem_p(&ping_sem, TM_INFINITE))
			return;
		exchanges++;
	}
}

static void pong(void *arg)
{
	(void)arg;
	for (;;) {
		if (rt_sem_p(&pong_sem, TM_INFINITE))
			return;
		rt_sem_v(&ping_sem);
	}
}

static int run_pingpong(void)
{
	RT_TASK a, b;

	if (rt_task_shadow(NULL, "main", 50, 0) ||
	    rt_sem_create(&ping_sem, "ping", 0, S_FIFO) ||
	    rt_sem_create(&pong_sem, "pong", 0, S_FIFO) ||
	    rt_task_create(&a, "ping", 0, 10, 0) ||
	    rt_task_create(&b, "pong", 0, 10, 0) ||
	    rt_task_start(&a, ping, NULL) || rt_task_start(&b, pong, NULL))
		return 1;
	rt_task_sleep(1500 * MS);
	printf("main: woke at %lld ns, %ld exchanges\n",
	       (long long)rt_timer_read(), exchanges);
	return 0;
}

static void stuck(void *arg)
{
	(void)arg;
	rt_sem_p(&sem1, TM_INFINITE);
}

static int run_deadlock(void)
{
	RT_TASK t;

	if (rt_sem_create(&sem1, "sem1", 0, S_FIFO) ||
	    rt_task_create(&t, "stuck", 0, 10, T_JOINABLE) ||
	    rt_task_start(&t, stuck, NULL))
		return 1;
	rt_task_join(&t);
	return 0;
}

static int run_spin(void)
{
	volatile unsigned long sum = 0;

	for (unsigned long i = 0; i < 10000000; i++)
		sum += i;
	rt_task_sleep(1000);
	printf("main: woke at %lld ns\n", (long long)rt_timer_read());
	return sum == 0;
}

static unsigned long arrivals;

static void dev_irq(unsigned int irq, void *cookie)
{
	(void)irq;
	(void)cookie;
	arrivals++;
}

static int run_irq(void)
{
	struct ipipe_source src = {.kind = IPIPE_SRC_SCRIPT, .name = "dev"};
	struct nk_instance *nk;
	unsigned int irq;

	if (rt_task_shadow(NULL, "main", 50, 0))
		return 1;
	nk = fusion_runtime_peek();
	if (ipipe_attach_source(nk, &src, 0, &irq) ||
	    ipipe_virtualize_irq(ipipe_head_domain(nk), irq, dev_irq, NULL,
				 IPIPE_HANDLE))
		return 1;
	rt_task_sleep(5 * MS);
	printf("irq %u: %lu arrivals\n", irq, arrivals);
	return 0;
}

static void tick(void *arg)
{
	(void)arg;
	if (rt_task_set_periodic(NULL, TM_NOW, MS))
		return;
	for (int i = 0; i < 4; i++) {
		rt_task_wait_period(NULL);
		rt_timer_spin(i == 1 ? 1500000 : 300000);
	}
}

static int run_periodic(void)
{
	RT_TASK t;

	if (rt_task_create(&t, "tick", 0, 30, T_JOINABLE) ||
	    rt_task_start(&t, tick, NULL))
		return 1;
	rt_task_join(&t);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "worker") == 0)
		return run_worker();
	if (argc == 2 && strcmp(argv[1], "pingpong") == 0)
		return run_pingpong();
	if (argc == 2 && strcmp(argv[1], "deadlock") == 0)
		return run_deadlock();
	if (argc == 2 && strcmp(argv[1], "periodic") == 0)
		return run_periodic();
	if (argc == 2 && strcmp(argv[1], "spin") == 0)
		return run_spin();
	if (argc == 2 && strcmp(argv[1], "irq") == 0)
		return run_irq();
	fprintf(stderr,
		"usage: sim_app worker|pingpong|deadlock|periodic|spin|irq\n");
	return 2;
}
