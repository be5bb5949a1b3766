/* SPDX-License-Identifier: MIT */
/*
 * The instance's side of its interrupt pipeline: the handlers the
 * nucleus registers with the pipeline (the only calls up from it) and
 * with the backend for the pipeline, and the instance-level API of
 * fusion/pipeline.h, which checks the instance and hands the call to
 * its pipeline.
 */
#include "internal.h"
#include "../pipeline/pipeline.h"

/* The head domain's handler of each CPU's timer IRQ: the timers due
 * when it started. */
static nk_hot void timer_irq(unsigned int irq, void *cookie)
{
	struct nk_instance *nk = cookie;

	nk_timer_handler(nk, (int)irq,
			 ipipe_handler_start(nk->pipeline, (int)irq));
}

static bool irq_enter(struct nk_instance *nk, int cpu)
{
	struct nk_thread *self = nk_current(nk);

	if (self == NULL || self->sched->cpu != cpu ||
	    (self->state & NK_THREAD_RELAXED))
		return false;
	/* nk_current() now answers NULL: blocking calls are refused. */
	self->sched->irq_depth++;
	return true;
}

static void irq_exit(struct nk_instance *nk, int cpu)
{
	nk->scheds[cpu].irq_depth--;
	nk_sched_run(nk);
}

const struct ipipe_host nk_ipipe_host = {
    .timer = timer_irq,
    .irq_enter = irq_enter,
    .irq_exit = irq_exit,
};

nk_hot void nk_irq_handle_timer(struct nk_instance *nk, int cpu, nk_time_t now)
{
	ipipe_handle_timer(nk->pipeline, cpu, now);
}

nk_hot void nk_irq_handle(struct nk_instance *nk, int cpu, unsigned int irq,
			  nk_time_t now)
{
	ipipe_handle_irq(nk->pipeline, cpu, irq, now);
}

void nk_irq_handle_sync(struct nk_instance *nk, int cpu)
{
	ipipe_handle_sync(nk->pipeline, cpu);
}

void nk_irq_handle_root(struct nk_instance *nk)
{
	ipipe_handle_root(nk->pipeline);
}

struct ipipe_domain *ipipe_head_domain(struct nk_instance *nk)
{
	return nk_instance_valid(nk) ? nk->pipeline->head : NULL;
}

struct ipipe_domain *ipipe_root_domain(struct nk_instance *nk)
{
	return nk_instance_valid(nk) ? nk->pipeline->root : NULL;
}

int ipipe_register_domain(struct nk_instance *nk, const char *name,
			  int priority, struct ipipe_domain **out)
{
	if (!nk_instance_valid(nk))
		return -EINVAL;
	return ipipe_domain_register(nk->pipeline, name, priority, out);
}

int ipipe_alloc_virq(struct nk_instance *nk, unsigned int *irq)
{
	return nk_instance_valid(nk) ? ipipe_virq_alloc(nk->pipeline, irq)
				     : -EINVAL;
}

int ipipe_free_virq(struct nk_instance *nk, unsigned int irq)
{
	return nk_instance_valid(nk) ? ipipe_virq_free(nk->pipeline, irq)
				     : -EINVAL;
}

int ipipe_trigger_irq(struct nk_instance *nk, unsigned int irq, int cpu)
{
	return nk_instance_valid(nk) ? ipipe_irq_trigger(nk->pipeline, irq, cpu)
				     : -EINVAL;
}

int ipipe_attach_source(struct nk_instance *nk, const struct ipipe_source *src,
			int cpu, unsigned int *irq)
{
	if (!nk_instance_valid(nk))
		return -EINVAL;
	return ipipe_source_attach(nk->pipeline, src, cpu, irq);
}

int ipipe_detach_source(struct nk_instance *nk, unsigned int irq)
{
	return nk_instance_valid(nk) ? ipipe_source_detach(nk->pipeline, irq)
				     : -EINVAL;
}

int ipipe_source_fd(struct nk_instance *nk, unsigned int irq)
{
	return nk_instance_valid(nk)
		   ? ipipe_source_watched_fd(nk->pipeline, irq)
		   : -EINVAL;
}

int ipipe_lock_irq(struct nk_instance *nk, unsigned int irq)
{
	return nk_instance_valid(nk)
		   ? ipipe_source_lock(nk->pipeline, irq, true)
		   : -EINVAL;
}

int ipipe_unlock_irq(struct nk_instance *nk, unsigned int irq)
{
	return nk_instance_valid(nk)
		   ? ipipe_source_lock(nk->pipeline, irq, false)
		   : -EINVAL;
}

int ipipe_set_budget(struct nk_instance *nk, const struct ipipe_budget *budget)
{
	return nk_instance_valid(nk) ? ipipe_budget_set(nk->pipeline, budget)
				     : -EINVAL;
}

int ipipe_irq_masked(struct nk_instance *nk, unsigned int irq)
{
	return nk_instance_valid(nk) ? ipipe_storm_masked(nk->pipeline, irq)
				     : -EINVAL;
}
