/* SPDX-License-Identifier: MIT */
/*
 * IRQ delivery: an arrival walks the domains in priority order; each
 * domain that handles it logs it, and the log is replayed (synced) when
 * the domain may run its handlers: head-side domains at once in
 * interrupt context unless stalled, root-side ones in root context.
 */
#include "pipeline.h"

static bool log_push(struct ipipe_log *log, unsigned int irq)
{
	if (log->count == IPIPE_LOG_SIZE)
		return false;
	log->irqs[(log->first + log->count) % IPIPE_LOG_SIZE] = irq;
	log->count++;
	return true;
}

static unsigned int log_pop(struct ipipe_log *log)
{
	unsigned int irq = log->irqs[log->first];

	log->first = (log->first + 1) % IPIPE_LOG_SIZE;
	log->count--;
	return irq;
}

nk_hot void ipipe_irq_done(struct ipipe *pipe, unsigned int irq)
{
	if (pipe->irqs[irq].inflight && --pipe->irqs[irq].inflight == 0 &&
	    pipe->irqs[irq].kind == IPIPE_IRQ_SOURCE) {
		pipe->be->source_end(pipe->be_priv, irq, pipe->irqs[irq].held);
		pipe->irqs[irq].held = false;
	}
}

void ipipe_raise(struct ipipe *pipe, int cpu, unsigned int irq)
{
	unsigned int owed_before = pipe->irqs[irq].inflight;
	struct nk_list *pos;

	/* Held while walking, so that an unmask waits for every domain. */
	pipe->irqs[irq].inflight++;
	nk_list_for_each(pos, &pipe->domains) {
		struct ipipe_domain *d =
		    nk_container_of(pos, struct ipipe_domain, link);
		struct ipipe_entry *e = &d->irqs[irq];

		if (e->handler == NULL && e->mode == IPIPE_PASS)
			continue;
		e->stats.hits++;
		if (e->mode & IPIPE_HANDLE) {
			if (d->cpus[cpu].stalled)
				e->stats.logged++;
			if (log_push(&d->cpus[cpu].log, irq)) {
				pipe->irqs[irq].inflight++;
				if (d->root_side)
					pipe->be->root_post(pipe->be_priv);
			} else {
				e->stats.lost++;
			}
		}
		if (!(e->mode & IPIPE_PASS)) {
			if (!(e->mode & IPIPE_HANDLE))
				e->stats.discarded++;
			break;
		}
		e->stats.propagated++;
	}
	/*
	 * A source nobody handles would be raised again at once by a
	 * level that nobody clears: it stays masked until a handler for
	 * it is installed (ipipe_virtualize_irq unparks it).
	 */
	if (pipe->irqs[irq].kind == IPIPE_IRQ_SOURCE &&
	    pipe->irqs[irq].inflight == owed_before + 1 &&
	    !pipe->irqs[irq].parked) {
		pipe->irqs[irq].parked = true;
		pipe->irqs[irq].held = true;
		return;
	}
	ipipe_irq_done(pipe, irq);
}

static void trace_irq(struct ipipe *pipe, struct ipipe_domain *d, int cpu,
		      unsigned int irq, enum nk_trace_event ev, nk_time_t now)
{
	struct nk_trace_record rec = {
	    .date = now,
	    .cpu = cpu,
	    .event = ev,
	    .thread = d->name,
	    .arg = (long)irq,
	};

	pipe->trace(pipe->trace_ctx, &rec);
}

/*
 * Run @d's handler of @irq, which starts at @start (the backend's
 * clock).  Returns the date it ended, read once for its run time: the
 * start of a handler run right after it.
 */
static nk_hot nk_time_t run_handler(struct ipipe *pipe, struct ipipe_domain *d,
				    int cpu, unsigned int irq, bool unlocked,
				    nk_time_t start)
{
	struct ipipe_entry *e = &d->irqs[irq];
	ipipe_handler_t handler = e->handler;
	void *cookie = e->cookie;
	nk_time_t took;

	if (handler == NULL) /* removed while logged: dropped */
		return start;
	/* Timer IRQs are traced by what they do (timer, timeout...). */
	if (nk_unlikely(pipe->trace != NULL) &&
	    pipe->irqs[irq].kind != IPIPE_IRQ_TIMER)
		trace_irq(pipe, d, cpu, irq, NK_TRACE_IRQ, start);
	pipe->started[cpu] = start;
	if (unlocked)
		ipipe_unlock(pipe);
	handler(irq, cookie);
	if (unlocked)
		ipipe_lock(pipe);
	took = pipe->be->now(pipe->be_priv) - start;
	if (nk_unlikely(pipe->trace != NULL) &&
	    pipe->irqs[irq].kind != IPIPE_IRQ_TIMER)
		trace_irq(pipe, d, cpu, irq, NK_TRACE_IRQ_EXIT, start + took);
	ipipe_storm_charge(pipe, irq, took);
	if (e->handler == handler) {
		e->stats.handled++;
		if (took > e->stats.worst_ns)
			e->stats.worst_ns = took;
	}
	return start + took;
}

/*
 * The most urgent head-side domain with arrivals to replay on @cpu.  The
 * list holds the domains by priority, no two alike, so the root domain
 * (priority 0) comes first of the root side: the walk ends there,
 * without reading it.
 */
static nk_hot struct ipipe_domain *next_head_pending(struct ipipe *pipe,
						     int cpu)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &pipe->domains) {
		struct ipipe_domain *d =
		    nk_container_of(pos, struct ipipe_domain, link);

		if (d == pipe->root)
			break;
		if (!d->cpus[cpu].stalled && d->cpus[cpu].log.count)
			return d;
	}
	return NULL;
}

/* The next arrival root context may replay, of any CPU (set in @cpu),
 * most urgent domain first. */
static struct ipipe_domain *next_root_pending(struct ipipe *pipe, int *cpu)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &pipe->domains) {
		struct ipipe_domain *d =
		    nk_container_of(pos, struct ipipe_domain, link);

		if (!d->root_side)
			continue;
		for (int c = 0; c < pipe->nr_cpus; c++) {
			if (!d->cpus[c].stalled && d->cpus[c].log.count) {
				*cpu = c;
				return d;
			}
		}
	}
	return NULL;
}

/*
 * Replay head-side logs of @cpu from @start on; handlers may raise more
 * arrivals.  Each handler starts when the one before it ended.
 */
static nk_hot void sync_head(struct ipipe *pipe, int cpu, nk_time_t start)
{
	struct ipipe_domain *d;

	if (pipe->syncing[cpu])
		return; /* the outer loop below picks new arrivals up */
	pipe->syncing[cpu] = true;
	while ((d = next_head_pending(pipe, cpu)) != NULL) {
		unsigned int irq = log_pop(&d->cpus[cpu].log);

		start = run_handler(pipe, d, cpu, irq, false, start);
		ipipe_irq_done(pipe, irq);
	}
	pipe->syncing[cpu] = false;
}

bool ipipe_head_syncing(struct ipipe *pipe)
{
	for (int cpu = 0; cpu < pipe->nr_cpus; cpu++) {
		if (pipe->syncing[cpu])
			return true;
	}
	return false;
}

void ipipe_post(struct ipipe_domain *d, int cpu)
{
	struct ipipe *pipe = d->pipe;

	if (d->root_side) {
		pipe->be->root_post(pipe->be_priv);
		return;
	}
	if (pipe->syncing[cpu])
		return;
	/*
	 * On a thread of @cpu the pipeline runs at once, on its stack, as
	 * Adeos does on the current CPU: interrupt context until the sync
	 * ends, then a preemption point.  Elsewhere, the CPU's interrupt
	 * context does it.
	 */
	if (pipe->host->irq_enter(pipe->nk, cpu)) {
		sync_head(pipe, cpu, pipe->be->now(pipe->be_priv));
		pipe->host->irq_exit(pipe->nk, cpu);
		return;
	}
	pipe->be->irq_post(pipe->be_priv, cpu);
}

/*
 * An arrival the head domain keeps for itself (handled, not passed on:
 * a CPU's timer always, whose entry there is fixed) runs its handler at
 * once when the head may take it now, on a CPU with nothing logged, as
 * Adeos dispatches to an unstalled head: the walk and the log would
 * only hand it over in the same order.  Held in flight meanwhile, as
 * the walk holds it, so that a source is acknowledged after its handler.
 * It starts at *@now, which becomes the date it ended.
 */
static bool head_runs_at_once(struct ipipe *pipe, int cpu, unsigned int irq,
			      nk_time_t *now)
{
	struct ipipe_domain *head = pipe->head;
	struct ipipe_entry *e = &head->irqs[irq];

	if ((e->mode & (IPIPE_HANDLE | IPIPE_PASS)) != IPIPE_HANDLE ||
	    pipe->syncing[cpu] || head->cpus[cpu].stalled ||
	    head->cpus[cpu].log.count)
		return false;
	e->stats.hits++;
	pipe->irqs[irq].inflight++;
	pipe->syncing[cpu] = true;
	*now = run_handler(pipe, head, cpu, irq, false, *now);
	pipe->syncing[cpu] = false;
	ipipe_irq_done(pipe, irq);
	return true;
}

/* @irq arrived on @cpu at @now: the storm guard's date, and the start
 * of the first handler it runs (what its handlers raised follows). */
static nk_hot void handle_arrival(struct ipipe *pipe, int cpu, unsigned int irq,
				  nk_time_t now)
{
	if (ipipe_storm_admit(pipe, cpu, irq, now) &&
	    !head_runs_at_once(pipe, cpu, irq, &now))
		ipipe_raise(pipe, cpu, irq);
	sync_head(pipe, cpu, now);
}

nk_hot void ipipe_handle_irq(struct ipipe *pipe, int cpu, unsigned int irq,
			     nk_time_t now)
{
	handle_arrival(pipe, cpu, irq, now);
}

nk_hot void ipipe_handle_timer(struct ipipe *pipe, int cpu, nk_time_t now)
{
	handle_arrival(pipe, cpu, IPIPE_TIMER_IRQ(cpu), now);
}

void ipipe_handle_sync(struct ipipe *pipe, int cpu)
{
	sync_head(pipe, cpu, pipe->be->now(pipe->be_priv));
}

void ipipe_handle_root(struct ipipe *pipe)
{
	struct ipipe_domain *d;
	int cpu = 0;

	ipipe_lock(pipe);
	while ((d = next_root_pending(pipe, &cpu)) != NULL) {
		unsigned int irq = log_pop(&d->cpus[cpu].log);

		run_handler(pipe, d, cpu, irq, true,
			    pipe->be->now(pipe->be_priv));
		ipipe_irq_done(pipe, irq);
	}
	ipipe_unlock(pipe);
}

int ipipe_irq_trigger(struct ipipe *pipe, unsigned int irq, int cpu)
{
	int ret = 0;

	if (irq >= IPIPE_NR_IRQS || cpu < 0 || cpu >= pipe->nr_cpus)
		return -EINVAL;
	ipipe_lock(pipe);
	if (pipe->irqs[irq].kind == IPIPE_IRQ_FREE) {
		ret = -EINVAL;
	} else {
		ipipe_raise(pipe, cpu, irq);
		if (next_head_pending(pipe, cpu))
			ipipe_post(pipe->head, cpu);
	}
	ipipe_unlock(pipe);
	return ret;
}

int ipipe_irq_stats(struct ipipe_domain *d, unsigned int irq,
		    struct ipipe_irq_stats *stats)
{
	if (stats == NULL || irq >= IPIPE_NR_IRQS || ipipe_test_stall(d, 0) < 0)
		return -EINVAL;
	ipipe_lock(d->pipe);
	*stats = d->irqs[irq].stats;
	ipipe_unlock(d->pipe);
	return 0;
}

void ipipe_set_trace(struct ipipe *pipe, nk_trace_fn fn, void *ctx)
{
	pipe->trace = fn;
	pipe->trace_ctx = ctx;
}
