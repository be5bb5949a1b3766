/* SPDX-License-Identifier: MIT */
/*
 * Timers: red-black trees of armed timers per RT CPU, ordered by date
 * (equal dates in arming order).  The backend is told only the earliest
 * date of a tree; when it passes, nk_timer_handler() runs every expired
 * timer in date order.
 *
 * A CPU has one tree per member process of a session (a private
 * instance uses member 0's): a handler is code at an address valid in
 * its own process only, so a timer waits in the tree of the member that
 * may call it, whose backend fires it.  That is its owner for a timer
 * with a handler, and whoever armed it for the nucleus's own timers
 * (thread timeouts, round robin), which every member runs by kind.
 */
#include "internal.h"

#include <string.h>

static bool timer_valid(const struct nk_timer *timer)
{
	return timer && timer->magic == NK_TIMER_MAGIC;
}

/* The instance of @timer, NULL for a bad one (for the lock check). */
static inline struct nk_instance *timer_instance(const struct nk_timer *timer)
{
	return timer_valid(timer) ? timer->nk : NULL;
}

static nk_hot int timer_compare(const struct nk_rbnode *a,
				const struct nk_rbnode *b)
{
	nk_time_t da = nk_container_of(a, struct nk_timer, node)->date;
	nk_time_t db = nk_container_of(b, struct nk_timer, node)->date;

	return da < db ? -1 : da > db;
}

int nk_timer_init(struct nk_instance *nk, struct nk_timer *timer,
		  const char *name, int cpu, nk_timer_fn handler, void *cookie)
{
	if (!nk_instance_valid(nk) || timer == NULL || handler == NULL ||
	    cpu < 0 || cpu >= nk->nr_cpus ||
	    (name && strlen(name) >= NK_NAME_MAX))
		return -EINVAL;
	nk_journal_obj(timer);
	memset(timer, 0, sizeof(*timer));
	timer->nk = nk;
	timer->cpu = cpu;
	timer->handler = handler;
	timer->cookie = cookie;
	timer->owner = nk->member;
	timer->date = NK_INFINITE;
	snprintf(timer->name, sizeof(timer->name), "%s", name ? name : "");
	timer->trace_id = nk_trace_id(nk);
	timer->magic = NK_TIMER_MAGIC;
	return 0;
}

void nk_timer_init_own(struct nk_instance *nk, struct nk_timer *timer, int cpu,
		       enum nk_timer_kind kind, void *cookie)
{
	nk_journal_obj(timer);
	memset(timer, 0, sizeof(*timer));
	timer->nk = nk;
	timer->cpu = cpu;
	timer->cookie = cookie;
	timer->owner = -1;
	timer->kind = (unsigned char)kind;
	timer->date = NK_INFINITE;
	timer->trace_id = nk_trace_id(nk);
	timer->magic = NK_TIMER_MAGIC;
}

static void timer_fire(struct nk_timer *timer)
{
	switch (timer->kind) {
	case NK_TIMER_THREAD:
		nk_thread_timeout(timer);
		break;
	case NK_TIMER_RR:
		nk_sched_rr_expired(timer);
		break;
	default:
		timer->handler(timer);
	}
}

nk_hot void nk_timer_reprogram(struct nk_sched *sched, int member)
{
	struct nk_rbnode *first = nk_rbtree_first(&sched->timers[member]);
	nk_time_t when =
	    first ? nk_container_of(first, struct nk_timer, node)->date
		  : NK_INFINITE;
	struct nk_instance *nk = sched->nk;

	if (when == sched->programmed[member])
		return;
	nk_journal_obj(&sched->programmed[member]);
	sched->programmed[member] = when;
	nk->be->program_timer(nk->be_priv, sched->cpu, member, when);
}

static struct nk_rbtree *timer_tree(const struct nk_timer *timer)
{
	return &timer->nk->scheds[timer->cpu].timers[timer->tree];
}

static void timer_dequeue(struct nk_timer *timer)
{
	nk_journal_obj(timer);
	nk_rbtree_erase(timer_tree(timer), &timer->node);
	timer->armed = false;
}

/* Into the tree of the member that may run it: see the top. */
static nk_hot void timer_enqueue(struct nk_timer *timer)
{
	nk_journal_obj(timer);
	timer->tree = timer->owner >= 0 ? timer->owner : timer->nk->member;
	nk_rbtree_insert(timer_tree(timer), &timer->node, timer_compare);
	timer->armed = true;
}

/* Reprogram the tree that held @timer before a change, and the one that
 * holds it after. */
static void timer_reprogram_both(struct nk_timer *timer, int cpu, int tree)
{
	nk_timer_reprogram(&timer->nk->scheds[cpu], tree);
	if (timer->armed && (timer->cpu != cpu || timer->tree != tree))
		nk_timer_reprogram(&timer->nk->scheds[timer->cpu], timer->tree);
}

void nk_timer_member_gone(struct nk_sched *sched, int member)
{
	struct nk_rbnode *first;

	nk_sched_note(sched);
	while ((first = nk_rbtree_first(&sched->timers[member])) != NULL) {
		struct nk_timer *timer =
		    nk_container_of(first, struct nk_timer, node);

		timer_dequeue(timer);
		if (timer->owner < 0)
			timer_enqueue(timer);
		else
			timer->date = NK_INFINITE;
	}
	nk_journal_obj(&sched->programmed[member]);
	sched->programmed[member] = NK_INFINITE;
	nk_timer_reprogram(sched, sched->nk->member);
}

/* Move @timer to @cpu's queue at the same date.  Lock held. */
void nk_timer_migrate(struct nk_timer *timer, int cpu)
{
	int old = timer->cpu, tree = timer->tree;

	nk_journal_obj(timer);
	if (!timer->armed) {
		timer->cpu = cpu;
		return;
	}
	timer_dequeue(timer);
	timer->cpu = cpu;
	timer_enqueue(timer);
	timer_reprogram_both(timer, old, tree);
}

nk_hot int nk_timer_start_locked(struct nk_timer *timer, nk_time_t value,
				 nk_time_t interval, enum nk_tmode mode)
{
	nk_time_t date;
	bool was_armed;
	int tree;

	nk_check_locked(timer_instance(timer));
	if (!timer_valid(timer) || interval < 0 ||
	    (mode != NK_RELATIVE && mode != NK_ABSOLUTE) ||
	    (value == NK_INFINITE && interval > 0))
		return -EINVAL;
	date = nk_abs_timeout(timer->nk, value, mode);
	nk_journal_obj(timer);
	was_armed = timer->armed;
	tree = timer->tree;
	if (was_armed)
		timer_dequeue(timer);
	timer->interval = interval;
	timer->date = date;
	if (date != NK_INFINITE)
		timer_enqueue(timer);
	if (was_armed)
		timer_reprogram_both(timer, timer->cpu, tree);
	else if (timer->armed)
		nk_timer_reprogram(&timer->nk->scheds[timer->cpu], timer->tree);
	return 0;
}

nk_hot void nk_timer_stop_locked(struct nk_timer *timer)
{
	nk_check_locked(timer_instance(timer));
	if (!timer_valid(timer) || !timer->armed)
		return;
	timer_dequeue(timer);
	timer->date = NK_INFINITE;
	/* Reprogram now: on sim a stale deadline would move virtual time. */
	nk_timer_reprogram(&timer->nk->scheds[timer->cpu], timer->tree);
}

int nk_timer_start(struct nk_timer *timer, nk_time_t value, nk_time_t interval,
		   enum nk_tmode mode)
{
	struct nk_instance *nk;
	int ret;

	if (!timer_valid(timer))
		return -EINVAL;
	nk = timer->nk;
	nk_lock_acquire(nk);
	ret = nk_timer_start_locked(timer, value, interval, mode);
	nk_lock_release(nk);
	return ret;
}

int nk_timer_stop(struct nk_timer *timer)
{
	struct nk_instance *nk;

	if (!timer_valid(timer))
		return -EINVAL;
	nk = timer->nk;
	nk_lock_acquire(nk);
	nk_timer_stop_locked(timer);
	nk_lock_release(nk);
	return 0;
}

int nk_timer_destroy(struct nk_timer *timer)
{
	int ret = nk_timer_stop(timer);

	if (ret == 0)
		timer->magic = 0;
	return ret;
}

nk_time_t nk_timer_date(struct nk_timer *timer)
{
	return timer_valid(timer) && timer->armed ? timer->date : NK_INFINITE;
}

/* Backend handler: the programmed date of @cpu, for this process's
 * member, has passed. */
nk_hot void nk_timer_handler(struct nk_instance *nk, int cpu, nk_time_t now)
{
	struct nk_sched *sched = &nk->scheds[cpu];
	struct nk_rbtree *tree = &sched->timers[nk->member];
	struct nk_rbnode *first;

	nk_journal_obj(&sched->programmed[nk->member]);
	sched->programmed[nk->member] =
	    NK_INFINITE; /* the backend consumed it */
	while ((first = nk_rbtree_first(tree)) != NULL) {
		struct nk_timer *timer =
		    nk_container_of(first, struct nk_timer, node);

		if (timer->date > now)
			break;
		timer_dequeue(timer);
		timer->fired++;
		if (timer->interval > 0) {
			/* Periods that elapsed entirely are overruns. */
			nk_time_t missed =
			    (now - timer->date) / timer->interval;

			timer->overruns += missed;
			timer->date =
			    nk_grid_next(timer->date, timer->interval, now);
			if (timer->date != NK_INFINITE)
				timer_enqueue(timer);
		} else {
			timer->date = NK_INFINITE;
		}
		if (timer->name[0])
			nk_trace(nk, cpu, NK_TRACE_TIMER, sched->curr,
				 timer->name, timer->trace_id,
				 (long)timer->fired);
		timer_fire(timer);
	}
	nk_timer_reprogram(sched, nk->member);
	nk_sched_run(nk);
}
