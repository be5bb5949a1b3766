/*
 * The interrupt thread of each RT CPU: pinned there, above every shadow.
 * It sleeps until the nucleus's next deadline for the CPU (one futex wait
 * with an absolute CLOCK_MONOTONIC timeout, so that a new earlier deadline
 * or an idle kick can wake it early), then runs the nucleus timer handler.
 */
#include "live.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <sys/syscall.h>
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
	atomic_fetch_add_explicit(&cpu->irq_seq, 1, memory_order_release);
	syscall(SYS_futex, &cpu->irq_seq, FUTEX_WAKE_PRIVATE, 1, NULL, NULL,
		0);
}

static void irq_sleep(struct live_cpu *cpu, uint32_t seq, nk_time_t until)
{
	struct timespec ts = {
		.tv_sec = until / 1000000000,
		.tv_nsec = until % 1000000000,
	};

	/* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC date. */
	syscall(SYS_futex, &cpu->irq_seq, FUTEX_WAIT_BITSET_PRIVATE, seq,
		until == NK_INFINITE ? NULL : &ts, NULL, FUTEX_BITSET_MATCH_ANY);
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
		uint32_t seq = atomic_load_explicit(&cpu->irq_seq,
						    memory_order_acquire);
		nk_time_t deadline = atomic_load(&cpu->idle_waiter)
					     ? NK_INFINITE
					     : atomic_load(&cpu->deadline);
		bool kicked = atomic_exchange(&cpu->idle_kick, false);
		bool posted = atomic_exchange(&cpu->irq_posted, false);

		if (!kicked && !posted && deadline > live_clock()) {
			irq_sleep(cpu, seq, deadline);
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
	struct sched_param param = {.sched_priority = LIVE_FIFO_IRQ};
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	pthread_attr_init(&attr);
	CPU_ZERO(&set);
	CPU_SET(cpu->linux_cpu, &set);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (live->rt) {
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &param);
	}
	ret = pthread_create(&cpu->irq_thread, &attr, irq_main, cpu);
	pthread_attr_destroy(&attr);
	if (ret)
		return -ret;
	cpu->irq_started = true;
	return 0;
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
