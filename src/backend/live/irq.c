/*
 * The interrupt thread of each RT CPU: pinned there, above every shadow.
 * It sleeps until the nucleus's next deadline for the CPU (one futex wait
 * with an absolute CLOCK_MONOTONIC timeout, so that a new earlier deadline
 * or an idle kick can wake it early), then runs the nucleus timer handler.
 */
#include "live.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* The RT CPU whose interrupt thread this is, NULL elsewhere. */
static __thread struct live_cpu *irq_self;

struct live_cpu *live_irq_cpu(void)
{
	return irq_self;
}

void live_irq_wake(struct live_cpu *cpu)
{
	be_seq_bump(&cpu->irq_seq);
}

static void *irq_main(void *arg)
{
	struct live_cpu *cpu = arg;
	struct live *live = cpu->live;
	char name[16];

	irq_self = cpu;
	snprintf(name, sizeof(name), "fusion-irq/%d", cpu->index);
	pthread_setname_np(pthread_self(), name);
	while (!atomic_load(&live->stopping)) {
		uint32_t seq =
		    atomic_load_explicit(&cpu->irq_seq, memory_order_acquire);
		nk_time_t deadline = atomic_load(&cpu->idle_waiter)
					 ? NK_INFINITE
					 : atomic_load(&cpu->deadline);
		bool kicked = atomic_exchange(&cpu->idle_kick, false);
		bool posted = atomic_exchange(&cpu->irq_posted, false);

		if (!kicked && !posted && deadline > live_clock()) {
			be_seq_wait(&cpu->irq_seq, seq, deadline);
			continue;
		}
		live_nucleus_lock(live);
		if (posted)
			live->handlers->irq_sync(live->nk, cpu->index);
		if (kicked)
			live->handlers->resched(live->nk, cpu->index);
		if (!atomic_load(&cpu->idle_waiter) &&
		    atomic_load(&cpu->deadline) <= live_clock()) {
			atomic_store(&cpu->deadline, NK_INFINITE);
			live->handlers->timer(live->nk, cpu->index);
		}
		live_nucleus_unlock(live);
	}
	return NULL;
}

void live_irq_post(void *priv, int index)
{
	struct live_cpu *cpu = &((struct live *)priv)->cpus[index];

	atomic_store(&cpu->irq_posted, true);
	live_irq_wake(cpu);
}

int live_irq_start(struct live *live, struct live_cpu *cpu)
{
	int ret =
	    live_thread_start(&cpu->irq_thread, irq_main, cpu, cpu->linux_cpu,
			      live->rt ? LIVE_FIFO_IRQ : 0, 0);

	if (ret == 0)
		cpu->irq_started = true;
	return ret;
}

void live_irq_stop(struct live *live)
{
	atomic_store(&live->stopping, true);
	for (int i = 0; i < live->nr_cpus; i++) {
		struct live_cpu *cpu = &live->cpus[i];

		if (!cpu->irq_started)
			continue;
		live_irq_wake(cpu);
		pthread_join(cpu->irq_thread, NULL);
		cpu->irq_started = false;
	}
}
