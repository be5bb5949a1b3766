/*
 * IRQ numbers: virtual IRQs and interrupt sources.  The backend owns
 * what raises a source (an fd, a device, a signal, a script); the
 * pipeline owns its number and its unmasking.
 */
#include "pipeline.h"

#include <string.h>

static int irq_alloc(struct ipipe *pipe, unsigned int first, unsigned int end,
		     enum ipipe_irq_kind kind, unsigned int *irq)
{
	for (unsigned int i = first; i < end; i++) {
		if (pipe->kind[i] == IPIPE_IRQ_FREE) {
			pipe->kind[i] = (unsigned char)kind;
			*irq = i;
			return 0;
		}
	}
	return -EAGAIN;
}

static bool irq_has_handler(struct ipipe *pipe, unsigned int irq)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &pipe->domains)
	{
		struct ipipe_domain *d =
		    nk_container_of(pos, struct ipipe_domain, link);

		if (d->irqs[irq].handler)
			return true;
	}
	return false;
}

/* Forget per-domain modes and statistics of a released number. */
static void irq_release(struct ipipe *pipe, unsigned int irq)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &pipe->domains)
	{
		struct ipipe_domain *d =
		    nk_container_of(pos, struct ipipe_domain, link);

		memset(&d->irqs[irq], 0, sizeof(d->irqs[irq]));
		d->irqs[irq].mode = IPIPE_PASS;
	}
	pipe->kind[irq] = IPIPE_IRQ_FREE;
	pipe->inflight[irq] = 0;
	pipe->locks[irq] = 0;
	pipe->parked[irq] = false;
	pipe->held[irq] = false;
}

/* The pipeline of @nk, locked, if @irq is a number at all; else NULL. */
static struct ipipe *pipe_enter(struct nk_instance *nk, unsigned int irq)
{
	if (!nk_instance_valid(nk) || irq >= IPIPE_NR_IRQS)
		return NULL;
	nk_lock_acquire(nk);
	return nk->pipeline;
}

static int irq_free(struct nk_instance *nk, unsigned int irq,
		    enum ipipe_irq_kind kind)
{
	struct ipipe *pipe = pipe_enter(nk, irq);
	int ret = 0;

	if (pipe == NULL)
		return -EINVAL;
	if (pipe->kind[irq] != kind) {
		ret = -EINVAL;
	} else if (irq_has_handler(pipe, irq)) {
		ret = -EBUSY;
	} else {
		if (kind == IPIPE_IRQ_SOURCE)
			nk->be->source_detach(nk->be_priv, irq);
		irq_release(pipe, irq);
	}
	nk_lock_release(nk);
	return ret;
}

int ipipe_alloc_virq(struct nk_instance *nk, unsigned int *irq)
{
	int ret;

	if (!nk_instance_valid(nk) || irq == NULL)
		return -EINVAL;
	nk_lock_acquire(nk);
	ret = irq_alloc(nk->pipeline, IPIPE_FIRST_VIRQ, IPIPE_NR_IRQS,
			IPIPE_IRQ_VIRQ, irq);
	nk_lock_release(nk);
	return ret;
}

int ipipe_free_virq(struct nk_instance *nk, unsigned int irq)
{
	return irq_free(nk, irq, IPIPE_IRQ_VIRQ);
}

static bool source_valid(const struct ipipe_source *src)
{
	switch (src->kind) {
	case IPIPE_SRC_FD:
		return src->fd >= 0;
	case IPIPE_SRC_UIO:
		return src->path != NULL;
	case IPIPE_SRC_GPIO:
		return src->path != NULL && src->edges != 0 &&
		       !(src->edges &
			 ~(IPIPE_GPIO_RISING | IPIPE_GPIO_FALLING));
	case IPIPE_SRC_SIGNAL:
		return src->signo > 0 && src->signo < NSIG;
	case IPIPE_SRC_SCRIPT:
		return src->name != NULL && src->name[0] != '\0';
	}
	return false;
}

int ipipe_attach_source(struct nk_instance *nk, const struct ipipe_source *src,
			int cpu, unsigned int *irq)
{
	unsigned int n;
	int ret;

	if (!nk_instance_valid(nk) || src == NULL || irq == NULL || cpu < 0 ||
	    cpu >= nk->nr_cpus || !source_valid(src))
		return -EINVAL;
	nk_lock_acquire(nk);
	ret = irq_alloc(nk->pipeline, IPIPE_FIRST_SOURCE_IRQ, IPIPE_FIRST_VIRQ,
			IPIPE_IRQ_SOURCE, &n);
	if (ret == 0) {
		ret = nk->be->source_attach(nk->be_priv, cpu, n, src);
		if (ret)
			irq_release(nk->pipeline, n);
		else
			*irq = n;
	}
	nk_lock_release(nk);
	return ret;
}

int ipipe_detach_source(struct nk_instance *nk, unsigned int irq)
{
	return irq_free(nk, irq, IPIPE_IRQ_SOURCE);
}

int ipipe_source_fd(struct nk_instance *nk, unsigned int irq)
{
	struct ipipe *pipe = pipe_enter(nk, irq);
	int ret = -EINVAL;

	if (pipe == NULL)
		return -EINVAL;
	if (pipe->kind[irq] == IPIPE_IRQ_SOURCE)
		ret = nk->be->source_fd(nk->be_priv, irq);
	nk_lock_release(nk);
	return ret;
}

/* A lock is one more handler run owed: the source stays masked. */
static int irq_lock(struct nk_instance *nk, unsigned int irq, bool lock)
{
	struct ipipe *pipe = pipe_enter(nk, irq);
	int ret = 0;

	if (pipe == NULL)
		return -EINVAL;
	if (pipe->kind[irq] != IPIPE_IRQ_SOURCE ||
	    (!lock && !pipe->locks[irq])) {
		ret = -EINVAL;
	} else if (lock) {
		pipe->locks[irq]++;
		pipe->inflight[irq]++;
		pipe->held[irq] = true;
	} else {
		pipe->locks[irq]--;
		ipipe_irq_done(pipe, irq);
	}
	nk_lock_release(nk);
	return ret;
}

int ipipe_lock_irq(struct nk_instance *nk, unsigned int irq)
{
	return irq_lock(nk, irq, true);
}

int ipipe_unlock_irq(struct nk_instance *nk, unsigned int irq)
{
	return irq_lock(nk, irq, false);
}
