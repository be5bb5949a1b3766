/* SPDX-License-Identifier: MIT */
/*
 * nk_instance_status() and nk_instance_objects(): one snapshot of an
 * instance, copied under the lock in short steps with nothing else done
 * there (the formatting is the reader's).
 */
#include "internal.h"
#include "../pipeline/pipeline.h"

#include <fusion/status.h>

#include <limits.h>
#include <string.h>

/* @src into @dst of @size, cut: snprintf's result without its parsing,
 * which is most of a copy's time under the lock. */
static size_t copy_str(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; n + 1 < size && src[n]; n++)
		dst[n] = src[n];
	dst[n] = '\0';
	return n;
}

static const char *state_word(const struct nk_thread *t, bool current)
{
	unsigned int state = t->state;

	if (state & NK_THREAD_ZOMBIE)
		return "exited";
	if (state & NK_THREAD_DORMANT)
		return "dormant";
	if (state & NK_THREAD_SUSPENDED)
		return "suspended";
	if (state & NK_THREAD_PENDING)
		return "waiting";
	if (state & NK_THREAD_DELAYED)
		return "sleeping";
	return current ? "running" : "ready";
}

/* The names of the skins @t carries, in the order it took them. */
static void skins_of(const struct nk_thread *t, const struct nk_core *core,
		     char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	/* Bounded: a copy read without the lock (peek.c) may be torn. */
	for (int i = 0; i < t->nr_attached && i < NK_MAX_PERSONALITIES; i++) {
		int slot = t->pers_order[i];

		if (slot >= NK_MAX_PERSONALITIES || !t->pers_attached[slot])
			continue;
		if (at && at + 1 < len)
			at += copy_str(buf + at, len - at, ",");
		if (at + 1 >= len)
			break;
		at += copy_str(buf + at, len - at,
			       core->personalities[slot].name);
	}
}

void nk_thread_status_fields(const struct nk_thread *t,
			     const struct nk_core *core, bool current, int cpu,
			     const char *waits, struct nk_status_thread *out)
{
	memset(out, 0, sizeof(*out));
	copy_str(out->name, sizeof(out->name), t->name);
	skins_of(t, core, out->skins, sizeof(out->skins));
	copy_str(out->state, sizeof(out->state), state_word(t, current));
	copy_str(out->waits, sizeof(out->waits), waits ? waits : "");
	out->base_prio = t->base_prio;
	out->prio = t->prio;
	out->cpu = cpu;
	out->relaxed = t->state & NK_THREAD_RELAXED;
	out->switches = t->stats.switches;
	out->mode_switches = t->stats.mode_switches;
	out->exec_time = t->stats.exec_time;
}

void nk_thread_status(struct nk_thread *t, nk_time_t now,
		      struct nk_status_thread *out)
{
	const struct nk_backend_ops *be = t->nk->be;

	nk_thread_status_fields(t, t->nk->core, t->sched->curr == t,
				t->sched->cpu, nk_thread_wait_name(t), out);
	if (t->sched->curr == t)
		out->exec_time += now - t->sched->switched_in;
	if (t->shadow && !(t->state & NK_THREAD_ZOMBIE) && be->thread_host)
		be->thread_host(t->nk->be_priv, t->shadow, &out->tid, NULL);
}

/* Only the IRQs in use (a bit each): their stats, not every table,
 * are read under the lock. */
static unsigned int irqs_status(struct ipipe *pipe, struct nk_status_irq *irqs,
				unsigned int max)
{
	unsigned int n = 0;
	struct nk_list *pos;

	nk_list_for_each(pos, &pipe->domains) {
		struct ipipe_domain *d =
		    nk_list_entry(pos, struct ipipe_domain, link);

		for (unsigned int w = 0; w < IPIPE_NR_IRQS / 64; w++) {
			for (uint64_t bits = pipe->in_use[w]; bits;
			     bits &= bits - 1) {
				unsigned int irq =
				    w * 64 +
				    (unsigned int)__builtin_ctzll(bits);
				const struct ipipe_irq_stats *s =
				    &d->irqs[irq].stats;

				if (s->handled == 0)
					continue;
				if (n < max) {
					irqs[n].irq = irq;
					copy_str(irqs[n].domain,
						 sizeof(irqs[n].domain),
						 d->name);
					irqs[n].handled = s->handled;
					irqs[n].worst_ns = s->worst_ns;
				}
				n++;
			}
		}
	}
	return n;
}

/*
 * The thread list is walked STATUS_STEP threads a section, the lock
 * let go between them: a reader delays the real-time threads by one
 * short section (about a microsecond), whatever the number of threads
 * (each copy takes some 60 ns).  A walk whose list changed meanwhile
 * starts again; after STATUS_RETRIES such starts, one section takes the
 * rest.
 */
#define STATUS_STEP 16
#define STATUS_RETRIES 8

/* This process's threads: each member of a shared instance shows its
 * own.  Lock held; returns with it held. */
static unsigned int threads_status(struct nk_instance *nk,
				   struct nk_status_thread *threads,
				   unsigned int max)
{
	struct nk_list *head = &nk->core->threads, *pos = head->next;
	unsigned long gen = nk->core->threads_gen;
	unsigned int n = 0, retries = 0;

	while (pos != head) {
		nk_time_t now = nk_clock_now(nk);

		for (int i = 0; pos != head &&
				(i < STATUS_STEP || retries > STATUS_RETRIES);
		     i++, pos = pos->next) {
			struct nk_thread *t =
			    nk_list_entry(pos, struct nk_thread, instance_link);

			if (t->member != nk->member)
				continue;
			if (n < max)
				nk_thread_status(t, now, &threads[n]);
			n++;
		}
		if (pos == head)
			break;
		nk_lock_release(nk);
		nk_lock_acquire(nk);
		if (nk->core->threads_gen != gen) {
			gen = nk->core->threads_gen;
			pos = head->next;
			n = 0;
			retries++;
		}
	}
	return n;
}

int nk_instance_status(struct nk_instance *nk, struct nk_status *st,
		       struct nk_status_thread *threads,
		       unsigned int max_threads, struct nk_status_irq *irqs,
		       unsigned int max_irqs)
{
	nk_time_t now;

	if (!nk_instance_valid(nk) || st == NULL ||
	    (threads == NULL && max_threads) || (irqs == NULL && max_irqs))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	nk_lock_acquire(nk);
	now = nk_clock_now(nk);
	st->date = now;
	st->nr_cpus = nk->nr_cpus;
	for (int cpu = 0; cpu < nk->nr_cpus; cpu++) {
		struct nk_sched *sched = &nk->scheds[cpu];

		st->idle_time[cpu] = sched->idle_time;
		if (sched->curr == sched->root)
			st->idle_time[cpu] += now - sched->switched_in;
	}
	st->nr_irqs = irqs_status(nk->pipeline, irqs, max_irqs);
	st->nr_threads = threads_status(nk, threads, max_threads);
	nk_lock_release(nk);
	return 0;
}

struct objects_copy {
	struct nk_status_object *out;
	unsigned int max, n;
	unsigned int left; /* objects this section may still copy */
};

/* Until the section's share is copied. */
static bool object_copy(void *ctx, const char *skin,
			const struct nk_object_info *info)
{
	struct objects_copy *oc = ctx;
	struct nk_status_object *o;

	if (oc->n++ >= oc->max)
		return --oc->left > 0;
	o = &oc->out[oc->n - 1];
	copy_str(o->skin, sizeof(o->skin), skin);
	copy_str(o->cls, sizeof(o->cls), info->cls);
	copy_str(o->name, sizeof(o->name), info->name ? info->name : "");
	copy_str(o->owner, sizeof(o->owner),
		 info->owner ? info->owner->name : "");
	o->count = info->count;
	o->capacity = info->capacity;
	o->waiters = info->waiters ? info->waiters->nr_waiters : 0;
	o->senders = info->senders ? info->senders->nr_waiters : 0;
	return --oc->left > 0;
}

/*
 * The objects as the threads (above): STATUS_STEP objects a section,
 * and the walk starts again if the registry changed meanwhile.  Each
 * skin's class is a scan of the registry's slots: STATUS_SLOTS of them
 * at most a section (some 1.2 ns each).
 */
#define STATUS_SLOTS 512

int nk_instance_objects(struct nk_instance *nk,
			struct nk_status_object *objects, unsigned int max,
			unsigned int *total)
{
	struct objects_copy oc = {.out = objects, .max = max};
	struct nk_objects_walk w = {0};
	unsigned int retries = 0;
	uint32_t changes;

	if (!nk_instance_valid(nk) || total == NULL || (objects == NULL && max))
		return -EINVAL;
	nk_lock_acquire(nk);
	changes = nk->core->registry.changes;
	for (;;) {
		bool last = retries > STATUS_RETRIES;

		oc.left = last ? UINT_MAX : STATUS_STEP;
		w.budget = last ? UINT32_MAX : STATUS_SLOTS;
		if (nk_objects_walk(nk, &w, object_copy, &oc))
			break;
		nk_lock_release(nk);
		nk_lock_acquire(nk);
		if (nk->core->registry.changes != changes) {
			changes = nk->core->registry.changes;
			w = (struct nk_objects_walk){0};
			oc.n = 0;
			retries++;
		}
	}
	nk_lock_release(nk);
	*total = oc.n;
	return 0;
}
