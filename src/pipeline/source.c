/* SPDX-License-Identifier: MIT */
/*
 * IRQ numbers: virtual IRQs and interrupt sources.  The backend owns
 * what raises a source (an fd, a device, a signal, a script); the
 * pipeline owns its number and its unmasking.
 */
#include "pipeline.h"

#include <fusion/journal.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>

static int irq_alloc(struct ipipe *pipe, unsigned int first, unsigned int end,
		     enum ipipe_irq_kind kind, unsigned int *irq)
{
	for (unsigned int i = first; i < end; i++) {
		if (pipe->irqs[i].kind == IPIPE_IRQ_FREE) {
			ipipe_set_kind(pipe, i, kind);
			/* The pipeline is the process's own; @irq may be in
			 * a session's memory. */
			nk_journal_obj(irq);
			*irq = i;
			return 0;
		}
	}
	return -EAGAIN;
}

static bool irq_has_handler(struct ipipe *pipe, unsigned int irq)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &pipe->domains) {
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

	nk_list_for_each(pos, &pipe->domains) {
		struct ipipe_domain *d =
		    nk_container_of(pos, struct ipipe_domain, link);

		memset(&d->irqs[irq], 0, sizeof(d->irqs[irq]));
		d->irqs[irq].mode = IPIPE_PASS;
	}
	ipipe_set_kind(pipe, irq, IPIPE_IRQ_FREE);
	pipe->irqs[irq].inflight = 0;
	pipe->irqs[irq].locks = 0;
	pipe->irqs[irq].parked = false;
	pipe->irqs[irq].held = false;
	ipipe_storm_reset(pipe, irq);
}

static int irq_free(struct ipipe *pipe, unsigned int irq,
		    enum ipipe_irq_kind kind)
{
	int ret = 0;

	if (irq >= IPIPE_NR_IRQS)
		return -EINVAL;
	ipipe_lock(pipe);
	if (pipe->irqs[irq].kind != kind) {
		ret = -EINVAL;
	} else if (irq_has_handler(pipe, irq)) {
		ret = -EBUSY;
	} else {
		if (kind == IPIPE_IRQ_SOURCE)
			pipe->be->source_detach(pipe->be_priv, irq);
		irq_release(pipe, irq);
	}
	ipipe_unlock(pipe);
	return ret;
}

int ipipe_virq_alloc(struct ipipe *pipe, unsigned int *irq)
{
	int ret;

	if (irq == NULL)
		return -EINVAL;
	ipipe_lock(pipe);
	ret = irq_alloc(pipe, IPIPE_FIRST_VIRQ, IPIPE_NR_IRQS, IPIPE_IRQ_VIRQ,
			irq);
	ipipe_unlock(pipe);
	return ret;
}

int ipipe_virq_free(struct ipipe *pipe, unsigned int irq)
{
	return irq_free(pipe, irq, IPIPE_IRQ_VIRQ);
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

/* What @src is, for the storm report. */
static void source_describe(const struct ipipe_source *src, char *buf)
{
	switch (src->kind) {
	case IPIPE_SRC_FD:
		snprintf(buf, IPIPE_SOURCE_NAME, "fd %d", src->fd);
		break;
	case IPIPE_SRC_UIO:
		snprintf(buf, IPIPE_SOURCE_NAME, "%s", src->path);
		break;
	case IPIPE_SRC_GPIO:
		snprintf(buf, IPIPE_SOURCE_NAME, "%s line %u", src->path,
			 src->line);
		break;
	case IPIPE_SRC_SIGNAL:
		snprintf(buf, IPIPE_SOURCE_NAME, "signal %d", src->signo);
		break;
	case IPIPE_SRC_SCRIPT:
		snprintf(buf, IPIPE_SOURCE_NAME, "script %s", src->name);
		break;
	}
}

int ipipe_source_attach(struct ipipe *pipe, const struct ipipe_source *src,
			int cpu, unsigned int *irq)
{
	unsigned int n;
	int ret;

	if (src == NULL || irq == NULL || cpu < 0 || cpu >= pipe->nr_cpus ||
	    !source_valid(src))
		return -EINVAL;
	ipipe_lock(pipe);
	ret = irq_alloc(pipe, IPIPE_FIRST_SOURCE_IRQ, IPIPE_FIRST_VIRQ,
			IPIPE_IRQ_SOURCE, &n);
	if (ret == 0) {
		ret = pipe->be->source_attach(pipe->be_priv, cpu, n, src);
		if (ret) {
			irq_release(pipe, n);
		} else {
			source_describe(src, pipe->source_name[n]);
			nk_journal_obj(irq);
			*irq = n;
		}
	}
	ipipe_unlock(pipe);
	return ret;
}

int ipipe_source_detach(struct ipipe *pipe, unsigned int irq)
{
	return irq_free(pipe, irq, IPIPE_IRQ_SOURCE);
}

int ipipe_source_watched_fd(struct ipipe *pipe, unsigned int irq)
{
	int ret = -EINVAL;

	if (irq >= IPIPE_NR_IRQS)
		return -EINVAL;
	ipipe_lock(pipe);
	if (pipe->irqs[irq].kind == IPIPE_IRQ_SOURCE)
		ret = pipe->be->source_fd(pipe->be_priv, irq);
	ipipe_unlock(pipe);
	return ret;
}

/*
 * A lock is one more handler run owed: the source stays masked.  An
 * unlock enables a source the storm guard masked before it drops a lock.
 */
int ipipe_source_lock(struct ipipe *pipe, unsigned int irq, bool lock)
{
	int ret = 0;

	if (irq >= IPIPE_NR_IRQS)
		return -EINVAL;
	ipipe_lock(pipe);
	if (pipe->irqs[irq].kind != IPIPE_IRQ_SOURCE) {
		ret = -EINVAL;
	} else if (lock) {
		pipe->irqs[irq].locks++;
		pipe->irqs[irq].inflight++;
		pipe->irqs[irq].held = true;
	} else if (!ipipe_storm_unmask(pipe, irq)) {
		if (pipe->irqs[irq].locks) {
			pipe->irqs[irq].locks--;
			ipipe_irq_done(pipe, irq);
		} else {
			ret = -EINVAL;
		}
	}
	ipipe_unlock(pipe);
	return ret;
}
