/* SPDX-License-Identifier: MIT */
/*
 * Pipeline domains: creation, ordering, per-IRQ handlers and modes, and
 * the per-CPU stall bit.
 */
#include "pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IPIPE_DOMAIN_MAGIC 0x49504450u /* IPDP */

static bool domain_valid(const struct ipipe_domain *d)
{
	return d && d->magic == IPIPE_DOMAIN_MAGIC;
}

static struct ipipe_domain *domain_new(struct ipipe *pipe, const char *name,
				       int priority)
{
	struct ipipe_domain *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	d->cpus = calloc((size_t)pipe->nr_cpus, sizeof(*d->cpus));
	if (d->cpus == NULL) {
		free(d);
		return NULL;
	}
	d->pipe = pipe;
	d->priority = priority;
	d->root_side = priority <= IPIPE_ROOT_PRIORITY;
	snprintf(d->name, sizeof(d->name), "%s", name ? name : "");
	for (unsigned int irq = 0; irq < IPIPE_NR_IRQS; irq++)
		d->irqs[irq].mode = IPIPE_PASS;
	nk_list_init(&d->link);
	d->magic = IPIPE_DOMAIN_MAGIC;
	return d;
}

static void domain_free(struct ipipe_domain *d)
{
	d->magic = 0;
	free(d->cpus);
	free(d);
}

/* Keep the list in decreasing priority: the order IRQs walk it. */
static void domain_insert(struct ipipe *pipe, struct ipipe_domain *d)
{
	struct nk_list *pos;

	for (pos = pipe->domains.next; pos != &pipe->domains; pos = pos->next) {
		struct ipipe_domain *o =
		    nk_container_of(pos, struct ipipe_domain, link);

		if (o->priority < d->priority)
			break;
	}
	nk_list_add_before(&d->link, pos);
}

int ipipe_create(struct nk_instance *nk, const struct ipipe_host *host,
		 const struct nk_backend_ops *be, void *be_priv, int nr_cpus,
		 int member, struct ipipe **out)
{
	/* Its IRQ records are aligned on cache lines (struct ipipe_irq). */
	struct ipipe *pipe =
	    aligned_alloc(_Alignof(struct ipipe), sizeof(*pipe));

	if (pipe == NULL)
		return -ENOMEM;
	memset(pipe, 0, sizeof(*pipe));
	pipe->nk = nk;
	pipe->host = host;
	pipe->be = be;
	pipe->be_priv = be_priv;
	pipe->nr_cpus = nr_cpus;
	pipe->member = member;
	pipe->budget = (struct ipipe_budget){
	    .window_ns = IPIPE_BUDGET_WINDOW_NS,
	    .arrivals = IPIPE_BUDGET_ARRIVALS,
	    .handler_ns = IPIPE_BUDGET_HANDLER_NS,
	};
	nk_list_init(&pipe->domains);
	pipe->syncing = calloc((size_t)nr_cpus, sizeof(*pipe->syncing));
	pipe->started = calloc((size_t)nr_cpus, sizeof(*pipe->started));
	pipe->head = pipe->syncing && pipe->started
			 ? domain_new(pipe, "head", IPIPE_HEAD_PRIORITY)
			 : NULL;
	pipe->root =
	    pipe->head ? domain_new(pipe, "root", IPIPE_ROOT_PRIORITY) : NULL;
	if (pipe->root == NULL) {
		ipipe_destroy(pipe);
		return -ENOMEM;
	}
	domain_insert(pipe, pipe->head);
	domain_insert(pipe, pipe->root);
	/* The nucleus timer of each CPU reaches it through the head. */
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct ipipe_entry *e = &pipe->head->irqs[IPIPE_TIMER_IRQ(cpu)];

		ipipe_set_kind(pipe, IPIPE_TIMER_IRQ(cpu), IPIPE_IRQ_TIMER);
		e->handler = host->timer;
		e->cookie = nk;
		e->mode = IPIPE_HANDLE;
	}
	*out = pipe;
	return 0;
}

void ipipe_destroy(struct ipipe *pipe)
{
	while (!nk_list_empty(&pipe->domains)) {
		struct ipipe_domain *d = nk_list_first_entry(
		    &pipe->domains, struct ipipe_domain, link);

		nk_list_del(&d->link);
		if (d != pipe->head && d != pipe->root)
			domain_free(d);
	}
	if (pipe->head)
		domain_free(pipe->head);
	if (pipe->root)
		domain_free(pipe->root);
	free(pipe->syncing);
	free(pipe->started);
	free(pipe);
}

int ipipe_domain_register(struct ipipe *pipe, const char *name, int priority,
			  struct ipipe_domain **out)
{
	struct ipipe_domain *d;
	struct nk_list *pos;
	int ret = 0;

	if (out == NULL || priority >= IPIPE_HEAD_PRIORITY ||
	    (name && strlen(name) >= NK_NAME_MAX))
		return -EINVAL;
	d = domain_new(pipe, name, priority);
	if (d == NULL)
		return -ENOMEM;
	ipipe_lock(pipe);
	nk_list_for_each(pos, &pipe->domains) {
		if (nk_container_of(pos, struct ipipe_domain, link)->priority ==
		    priority)
			ret = -EEXIST;
	}
	if (ret == 0)
		domain_insert(pipe, d);
	ipipe_unlock(pipe);
	if (ret) {
		domain_free(d);
		return ret;
	}
	*out = d;
	return 0;
}

static bool domain_has_pending(const struct ipipe_domain *d)
{
	for (int cpu = 0; cpu < d->pipe->nr_cpus; cpu++)
		if (d->cpus[cpu].log.count)
			return true;
	return false;
}

int ipipe_unregister_domain(struct ipipe_domain *d)
{
	struct ipipe *pipe;
	int ret = 0;

	if (!domain_valid(d) || d == d->pipe->head || d == d->pipe->root)
		return -EINVAL;
	pipe = d->pipe;
	ipipe_lock(pipe);
	if (domain_has_pending(d))
		ret = -EBUSY;
	else
		nk_list_del(&d->link);
	ipipe_unlock(pipe);
	if (ret == 0)
		domain_free(d);
	return ret;
}

/* Drop @irq's arrivals from @d's logs (its handler goes away). */
static void log_purge(struct ipipe_domain *d, unsigned int irq)
{
	for (int cpu = 0; cpu < d->pipe->nr_cpus; cpu++) {
		struct ipipe_log *log = &d->cpus[cpu].log;
		unsigned int kept = 0, dropped = 0;

		for (unsigned int i = 0; i < log->count; i++) {
			unsigned int v =
			    log->irqs[(log->first + i) % IPIPE_LOG_SIZE];

			if (v == irq)
				dropped++;
			else
				log->irqs[(log->first + kept++) %
					  IPIPE_LOG_SIZE] = v;
		}
		log->count = kept;
		while (dropped--)
			ipipe_irq_done(d->pipe, irq);
	}
}

int ipipe_virtualize_irq(struct ipipe_domain *d, unsigned int irq,
			 ipipe_handler_t handler, void *cookie,
			 unsigned int mode)
{
	struct ipipe_entry *e;
	struct ipipe *pipe;
	int ret = 0;

	if (!domain_valid(d) || irq >= IPIPE_NR_IRQS ||
	    (mode & ~(IPIPE_HANDLE | IPIPE_PASS)) ||
	    ((mode & IPIPE_HANDLE) && handler == NULL))
		return -EINVAL;
	pipe = d->pipe;
	ipipe_lock(pipe);
	e = &d->irqs[irq];
	if (d->pipe->irqs[irq].kind == IPIPE_IRQ_FREE)
		ret = -EINVAL;
	else if (d == d->pipe->head &&
		 d->pipe->irqs[irq].kind == IPIPE_IRQ_TIMER)
		ret = -EPERM;
	else if (handler && e->handler)
		ret = -EBUSY;
	if (ret == 0) {
		if (handler == NULL)
			log_purge(d, irq);
		e->handler = handler;
		e->cookie = cookie;
		e->mode = handler ? mode : IPIPE_PASS;
		if (handler == NULL && !(mode & IPIPE_HANDLE))
			e->mode = mode;
		memset(&e->stats, 0, sizeof(e->stats));
		/* Bring root context up now, not on the first IRQ's path. */
		if (handler && d->root_side)
			pipe->be->root_post(pipe->be_priv);
		if (handler && d->pipe->irqs[irq].parked) {
			d->pipe->irqs[irq].parked = false;
			ipipe_irq_done(d->pipe, irq);
		}
	}
	ipipe_unlock(pipe);
	return ret;
}

int ipipe_test_stall(struct ipipe_domain *d, int cpu)
{
	if (!domain_valid(d) || cpu < 0 || cpu >= d->pipe->nr_cpus)
		return -EINVAL;
	return d->cpus[cpu].stalled;
}

int ipipe_stall(struct ipipe_domain *d, int cpu)
{
	int old = ipipe_test_stall(d, cpu);

	if (old < 0)
		return old;
	ipipe_lock(d->pipe);
	old = d->cpus[cpu].stalled;
	d->cpus[cpu].stalled = true;
	ipipe_unlock(d->pipe);
	return old;
}

int ipipe_unstall(struct ipipe_domain *d, int cpu)
{
	int ret = ipipe_test_stall(d, cpu);

	if (ret < 0)
		return ret;
	ipipe_lock(d->pipe);
	d->cpus[cpu].stalled = false;
	if (d->cpus[cpu].log.count)
		ipipe_post(d, cpu);
	ipipe_unlock(d->pipe);
	return 0;
}

int ipipe_restore(struct ipipe_domain *d, int cpu, int state)
{
	if (state != 0 && state != 1)
		return -EINVAL;
	if (state)
		return ipipe_stall(d, cpu) < 0 ? -EINVAL : 0;
	return ipipe_unstall(d, cpu);
}

int ipipe_pending(struct ipipe_domain *d, int cpu)
{
	int ret = ipipe_test_stall(d, cpu);

	return ret < 0 ? ret : (int)d->cpus[cpu].log.count;
}
