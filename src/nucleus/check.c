/* SPDX-License-Identifier: MIT */
/*
 * The invariants of an instance, checked by walking it: every list well
 * linked and bounded, every ready thread queued once at its priority's
 * level with the level maps agreeing, every waiter in its object's queue
 * in the queue's order, every owner alive and holding what names it,
 * every effective priority what its ownerships justify, every timer
 * tree in date order, the registry's counts.  For tests, debugging and
 * a session's recovery after a member died (docs/architecture.md,
 * "Sessions"), which must tell a whole instance from a torn one.
 */
#include "internal.h"

#include <stdarg.h>

struct check {
	struct nk_instance *nk;
	char *why;
	size_t len;
};

/* Record the first violation: always false, for `return fail(...)`. */
__attribute__((format(printf, 2, 3))) static bool fail(struct check *c,
						       const char *fmt, ...)
{
	va_list ap;

	if (c->why && c->len) {
		va_start(ap, fmt);
		vsnprintf(c->why, c->len, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* Doubly linked both ways, at most @max entries: how many in *@n. */
static bool list_ok(const struct nk_list *head, unsigned int max,
		    unsigned int *n)
{
	const struct nk_list *pos = head;

	*n = 0;
	do {
		if (pos->next == NULL || pos->next->prev != pos)
			return false;
		pos = pos->next;
		if (pos != head && ++*n > max)
			return false;
	} while (pos != head);
	return true;
}

static bool is_thread(struct check *c, const struct nk_thread *t)
{
	return t && t->magic == NK_THREAD_MAGIC && t->nk == c->nk &&
	       t->sched >= c->nk->scheds &&
	       t->sched < c->nk->scheds + c->nk->nr_cpus;
}

static bool threads_ok(struct check *c, unsigned int *ready)
{
	struct nk_core *core = c->nk->core;
	unsigned int n = 0, dead = 0;
	struct nk_list *pos;

	/* Counted until freed: the dead waiting to be reaped too. */
	if (!list_ok(&core->threads, core->nr_threads, &n) ||
	    !list_ok(&core->reapable, core->nr_threads, &dead) ||
	    n + dead != core->nr_threads)
		return fail(c,
			    "thread lists: broken, or %u + %u threads for %u",
			    n, dead, core->nr_threads);
	*ready = 0;
	nk_list_for_each(pos, &core->threads) {
		struct nk_thread *t =
		    nk_list_entry(pos, struct nk_thread, instance_link);

		if (!is_thread(c, t) || (t->state & NK_THREAD_ROOT))
			return fail(c, "thread list: a bad thread");
		if ((t->state & NK_THREAD_READY) && (t->state & NK_BLOCK_BITS))
			return fail(c, "%s: ready and blocked (state %#x)",
				    t->name, t->state);
		*ready += !!(t->state & NK_THREAD_READY);
	}
	return true;
}

static bool level_ok(struct check *c, struct nk_sched *s, int prio,
		     unsigned int *queued)
{
	const struct nk_list *head = &s->levels[prio];
	bool mapped = s->level_map[prio / 32] & (1u << (prio % 32));
	unsigned int n;
	struct nk_list *pos;

	if (!list_ok(head, c->nk->core->nr_threads, &n))
		return fail(c, "cpu %d level %d: broken list", s->cpu, prio);
	if (mapped != (n > 0))
		return fail(c, "cpu %d level %d: map bit %d, %u threads",
			    s->cpu, prio, mapped, n);
	nk_list_for_each(pos, head) {
		struct nk_thread *t =
		    nk_list_entry(pos, struct nk_thread, ready_link);

		if (!is_thread(c, t) || t->sched != s || t->prio != prio ||
		    !(t->state & NK_THREAD_READY) || t == s->curr)
			return fail(c,
				    "cpu %d level %d: a thread not ready "
				    "there",
				    s->cpu, prio);
	}
	*queued += n;
	return true;
}

/* The timers of @s that member @m runs. */
static bool timers_ok(struct check *c, struct nk_sched *s, int m)
{
	const struct nk_rbtree *tree = &s->timers[m];
	const struct nk_rbnode *node = nk_rbtree_first(tree);
	const struct nk_timer *prev = NULL;
	size_t n = 0;

	if (tree->root && tree->root->parent)
		return fail(c, "cpu %d timers: the root has a parent", s->cpu);
	for (; node; node = nk_rbtree_next(node)) {
		const struct nk_timer *t =
		    nk_container_of(node, struct nk_timer, node);

		if ((node->left && node->left->parent != node) ||
		    (node->right && node->right->parent != node) ||
		    ++n > tree->count)
			return fail(c, "cpu %d timers: broken tree", s->cpu);
		if (t->magic != NK_TIMER_MAGIC || !t->armed ||
		    t->cpu != s->cpu || t->tree != m)
			return fail(c, "cpu %d timers: a timer not armed there",
				    s->cpu);
		if (prev && prev->date > t->date)
			return fail(c, "cpu %d timers: %s before %s, later",
				    s->cpu,
				    prev->name[0] ? prev->name : "(unnamed)",
				    t->name[0] ? t->name : "(unnamed)");
		prev = t;
	}
	if (n != tree->count)
		return fail(c, "cpu %d timers: %zu in order, %zu counted",
			    s->cpu, n, tree->count);
	return true;
}

static bool sched_ok(struct check *c, struct nk_sched *s, unsigned int *queued)
{
	uint32_t summary = 0;

	if (s->nk != c->nk || s->root == NULL ||
	    s->root->magic != NK_THREAD_MAGIC ||
	    !(s->root->state & NK_THREAD_ROOT))
		return fail(c, "cpu %d: bad scheduler or root", s->cpu);
	if (s->curr != s->root &&
	    (!is_thread(c, s->curr) || s->curr->sched != s ||
	     (s->curr->state & NK_THREAD_READY)))
		return fail(c, "cpu %d: bad current thread", s->cpu);
	for (int prio = 0; prio < NK_NR_PRIO; prio++)
		if (!level_ok(c, s, prio, queued))
			return false;
	for (int w = 0; w < NK_NR_PRIO / 32; w++)
		if (s->level_map[w])
			summary |= 1u << w;
	if (summary != s->level_summary)
		return fail(c, "cpu %d: level summary %#x, maps say %#x",
			    s->cpu, s->level_summary, summary);
	for (int m = 0; m < NK_MAX_MEMBERS; m++)
		if (!timers_ok(c, s, m))
			return false;
	return true;
}

/* @t waits on its wchan: queued there, in the queue's order. */
static bool waiter_ok(struct check *c, struct nk_thread *t)
{
	struct nk_synch *w = t->wchan;
	bool found = false;
	int last = NK_NR_PRIO;
	unsigned int n;
	struct nk_list *pos;

	if (w == NULL || w->magic != NK_SYNCH_MAGIC || w->nk != c->nk)
		return fail(c, "%s: pending on no live object", t->name);
	if (!list_ok(&w->waiters, c->nk->core->nr_threads, &n) ||
	    n != w->nr_waiters)
		return fail(c, "%s: broken queue, or %u waiters for %u",
			    w->name, n, w->nr_waiters);
	nk_list_for_each(pos, &w->waiters) {
		struct nk_thread *q =
		    nk_list_entry(pos, struct nk_thread, wait_link);

		if (!is_thread(c, q) || q->wchan != w ||
		    !(q->state & NK_THREAD_PENDING))
			return fail(c, "%s: a waiter waits elsewhere", w->name);
		if ((w->flags & NK_SYNCH_PRIO) && q->prio > last)
			return fail(c, "%s: %s queued behind less urgent",
				    w->name, q->name);
		last = q->prio;
		found |= q == t;
	}
	if (!found)
		return fail(c, "%s: pending on %s, not in its queue", t->name,
			    w->name);
	if ((w->flags & NK_SYNCH_OWNER) && w->owner &&
	    (!is_thread(c, w->owner) || (w->owner->state & NK_THREAD_ZOMBIE)))
		return fail(c, "%s: owned by a dead or bad thread", w->name);
	return true;
}

/* What @t owns names it; its priority is what that justifies. */
static bool owner_ok(struct check *c, struct nk_thread *t)
{
	const struct nk_synch *cause;
	unsigned int n;
	struct nk_list *pos;
	int want;

	if (!list_ok(&t->owned, ~0u, &n))
		return fail(c, "%s: broken list of owned objects", t->name);
	nk_list_for_each(pos, &t->owned) {
		struct nk_synch *s =
		    nk_list_entry(pos, struct nk_synch, owner_link);

		if (s->magic != NK_SYNCH_MAGIC || s->owner != t)
			return fail(c, "%s: owns an object owned by another",
				    t->name);
		if (t->state & NK_THREAD_ZOMBIE)
			return fail(c, "%s: dead, still owns %s", t->name,
				    s->name);
	}
	want = nk_synch_boost_of(t, &cause);
	if (want < t->base_prio)
		want = t->base_prio;
	if (t->prio != want)
		return fail(c, "%s: priority %d, its ownerships justify %d",
			    t->name, t->prio, want);
	return true;
}

/* The blocks of nk_alloc_local(): well linked, each marked, its
 * member's number in range. */
static bool locals_ok(struct check *c)
{
	const struct nk_list *head = &c->nk->core->locals;
	struct nk_list *pos;
	unsigned int n;

	if (c->nk->arena == NULL)
		return true;
	if (!list_ok(head,
		     (unsigned int)(c->nk->place.segment_size /
				    sizeof(struct nk_local)),
		     &n))
		return fail(c, "the list of local blocks is torn");
	nk_list_for_each(pos, head) {
		const struct nk_local *b =
		    nk_list_entry(pos, struct nk_local, link);

		if (b->magic != NK_LOCAL_MAGIC || b->member < 0 ||
		    b->member >= NK_MAX_MEMBERS)
			return fail(c, "local block %p is not one", (void *)b);
	}
	return true;
}

static bool instance_ok(struct check *c)
{
	unsigned int ready = 0, queued = 0;
	struct nk_list *pos;

	if (!threads_ok(c, &ready))
		return false;
	for (int cpu = 0; cpu < c->nk->nr_cpus; cpu++)
		if (!sched_ok(c, &c->nk->scheds[cpu], &queued))
			return false;
	if (queued != ready)
		return fail(c, "%u threads ready, %u queued", ready, queued);
	nk_list_for_each(pos, &c->nk->core->threads) {
		struct nk_thread *t =
		    nk_list_entry(pos, struct nk_thread, instance_link);

		if ((t->state & NK_THREAD_PENDING) && !waiter_ok(c, t))
			return false;
		if (!owner_ok(c, t))
			return false;
	}
	if (nk_registry_check(&c->nk->core->registry))
		return fail(c, "registry: counts or chains do not add up");
	return locals_ok(c);
}

int nk_instance_check(struct nk_instance *nk, char *why, size_t len)
{
	struct check c = {.nk = nk, .why = why, .len = len};
	bool ok;

	if (!nk_instance_valid(nk))
		return -EINVAL;
	if (why && len)
		why[0] = '\0';
	nk_lock(nk);
	ok = instance_ok(&c);
	nk_unlock(nk);
	return ok ? 0 : -EUCLEAN;
}
