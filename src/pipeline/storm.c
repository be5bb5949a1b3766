/* SPDX-License-Identifier: MIT */
/*
 * The storm guard: a budget per timer and source IRQ, as a kernel
 * protects itself from an interrupt that never stops.  Head-side
 * handlers run above every real-time thread (live: on an interrupt
 * thread at SCHED_FIFO 99), so an IRQ arriving faster than it is handled
 * would keep the CPU from everything else.  Past its budget in a window,
 * a source is masked until the application enables it again, and a
 * timer, which the nucleus cannot do without, is deferred to the end of
 * the window; either way the CPU goes back to the threads and to Linux.
 *
 * Windows are counted on the backend's clock from the first arrival
 * after the previous window: on sim the masking date is exact.  The
 * report goes straight to stderr, as the nucleus's assertion messages:
 * it is for the operator, not for the application.
 */
#include "pipeline.h"

#include <stdio.h>

static bool over_budget(const struct ipipe_budget *b,
			const struct ipipe_storm *s)
{
	return (b->arrivals && s->arrivals > b->arrivals) ||
	       (b->handler_ns && s->handler_ns > b->handler_ns);
}

static void report(struct ipipe *pipe, int cpu, unsigned int irq, nk_time_t now)
{
	const struct ipipe_budget *b = &pipe->budget;
	const struct ipipe_storm *s = &pipe->irqs[irq].storm;
	bool timer = pipe->irqs[irq].kind == IPIPE_IRQ_TIMER;

	fprintf(stderr,
		"fusion: irq %u (%s) on cpu %d: interrupt storm, %lu arrivals "
		"and %lld us in handlers within %lld us (budget: %lu "
		"arrivals, %lld us in handlers per %lld us); %s\n",
		irq, timer ? "timer" : pipe->source_name[irq], cpu, s->arrivals,
		(long long)(s->handler_ns / 1000),
		(long long)((now - s->start) / 1000), b->arrivals,
		(long long)(b->handler_ns / 1000),
		(long long)(b->window_ns / 1000),
		timer ? "deferred to the end of each window while it lasts"
		      : "masked until ipipe_unlock_irq()");
}

/* A source stays owed a handler run while masked, as under a lock. */
static void storm(struct ipipe *pipe, int cpu, unsigned int irq, nk_time_t now)
{
	struct ipipe_storm *s = &pipe->irqs[irq].storm;

	if (!s->reported)
		report(pipe, cpu, irq, now);
	s->reported = true;
	if (pipe->irqs[irq].kind == IPIPE_IRQ_TIMER) {
		/* This process's timer: the pipeline is its own. */
		pipe->be->program_timer(pipe->be_priv, cpu, pipe->member,
					s->start + pipe->budget.window_ns);
		return;
	}
	s->masked = true;
	pipe->irqs[irq].inflight++;
	pipe->irqs[irq].held = true;
	if (pipe->be->source_mask)
		pipe->be->source_mask(pipe->be_priv, irq);
}

nk_hot bool ipipe_storm_admit(struct ipipe *pipe, int cpu, unsigned int irq,
			      nk_time_t now)
{
	struct ipipe_storm *s = &pipe->irqs[irq].storm;

	if (s->masked)
		return false; /* raised before the mask took */
	if (pipe->budget.window_ns == 0)
		return true;
	if (s->arrivals == 0 || now - s->start >= pipe->budget.window_ns) {
		/* A window within budget ends the storm. */
		if (!over_budget(&pipe->budget, s))
			s->reported = false;
		s->start = now;
		s->arrivals = 0;
		s->handler_ns = 0;
	}
	s->arrivals++;
	if (!over_budget(&pipe->budget, s))
		return true;
	storm(pipe, cpu, irq, now);
	return false;
}

nk_hot void ipipe_storm_charge(struct ipipe *pipe, unsigned int irq,
			       nk_time_t ns)
{
	if (irq < IPIPE_FIRST_VIRQ)
		pipe->irqs[irq].storm.handler_ns += ns;
}

bool ipipe_storm_unmask(struct ipipe *pipe, unsigned int irq)
{
	if (!pipe->irqs[irq].storm.masked)
		return false;
	ipipe_storm_reset(pipe, irq);
	ipipe_irq_done(pipe, irq);
	return true;
}

void ipipe_storm_reset(struct ipipe *pipe, unsigned int irq)
{
	if (irq < IPIPE_FIRST_VIRQ)
		pipe->irqs[irq].storm = (struct ipipe_storm){0};
}

int ipipe_budget_set(struct ipipe *pipe, const struct ipipe_budget *budget)
{
	if (budget == NULL || budget->window_ns < 0 ||
	    budget->window_ns > IPIPE_BUDGET_WINDOW_MAX_NS ||
	    budget->handler_ns < 0)
		return -EINVAL;
	ipipe_lock(pipe);
	pipe->budget = *budget;
	ipipe_unlock(pipe);
	return 0;
}

int ipipe_storm_masked(struct ipipe *pipe, unsigned int irq)
{
	int ret;

	if (irq >= IPIPE_NR_IRQS)
		return -EINVAL;
	ipipe_lock(pipe);
	if (pipe->irqs[irq].kind == IPIPE_IRQ_FREE)
		ret = -EINVAL;
	else
		ret = irq < IPIPE_FIRST_VIRQ && pipe->irqs[irq].storm.masked;
	ipipe_unlock(pipe);
	return ret;
}
