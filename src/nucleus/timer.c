/* SPDX-License-Identifier: MIT */
/*
 * Timers: one red-black tree of armed timers per RT CPU, ordered by
 * date (equal dates in arming order).  The backend is told only the
 * earliest date; when it passes, nk_timer_handler() runs every expired
 * timer in date order.
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

static int timer_compare(const struct nk_rbnode *a, const struct nk_rbnode *b)
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
	memset(timer, 0, sizeof(*timer));
	timer->nk = nk;
	timer->cpu = cpu;
	timer->handler = handler;
	timer->cookie = cookie;
	timer->date = NK_INFINITE;
	snprintf(timer->name, sizeof(timer->name), "%s", name ? name : "");
	timer->trace_id = nk_trace_id(nk);
	timer->magic = NK_TIMER_MAGIC;
	return 0;
}

/* Tell the backend the earliest date of @sched, if it changed. */
void nk_timer_reprogram(struct nk_sched *sched)
{
	struct nk_rbnode *first = nk_rbtree_first(&sched->timers);
	nk_time_t when =
	    first ? nk_container_of(first, struct nk_timer, node)->date
		  : NK_INFINITE;
	struct nk_instance *nk = sched->nk;

	if (when == sched->programmed)
		return;
	sched->programmed = when;
	nk->be->program_timer(nk->be_priv, sched->cpu, when);
}

static void timer_dequeue(struct nk_timer *timer)
{
	nk_rbtree_erase(&timer->nk->scheds[timer->cpu].timers, &timer->node);
	timer->armed = false;
}

static void timer_enqueue(struct nk_timer *timer)
{
	nk_rbtree_insert(&timer->nk->scheds[timer->cpu].timers, &timer->node,
			 timer_compare);
	timer->armed = true;
}

/* Move @timer to @cpu's queue at the same date.  Lock held. */
void nk_timer_migrate(struct nk_timer *timer, int cpu)
{
	int old = timer->cpu;

	if (!timer->armed) {
		timer->cpu = cpu;
		return;
	}
	timer_dequeue(timer);
	timer->cpu = cpu;
	timer_enqueue(timer);
	nk_timer_reprogram(&timer->nk->scheds[old]);
	nk_timer_reprogram(&timer->nk->scheds[cpu]);
}

int nk_timer_start_locked(struct nk_timer *timer, nk_time_t value,
			  nk_time_t interval, enum nk_tmode mode)
{
	nk_time_t date;

	nk_check_locked(timer_instance(timer));
	if (!timer_valid(timer) || interval < 0 ||
	    (mode != NK_RELATIVE && mode != NK_ABSOLUTE) ||
	    (value == NK_INFINITE && interval > 0))
		return -EINVAL;
	date = nk_abs_timeout(timer->nk, value, mode);
	if (timer->armed)
		timer_dequeue(timer);
	timer->interval = interval;
	timer->date = date;
	if (date != NK_INFINITE)
		timer_enqueue(timer);
	nk_timer_reprogram(&timer->nk->scheds[timer->cpu]);
	return 0;
}

void nk_timer_stop_locked(struct nk_timer *timer)
{
	nk_check_locked(timer_instance(timer));
	if (!timer_valid(timer) || !timer->armed)
		return;
	timer_dequeue(timer);
	timer->date = NK_INFINITE;
	/* Reprogram now: on sim a stale deadline would move virtual time. */
	nk_timer_reprogram(&timer->nk->scheds[timer->cpu]);
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

/* Backend handler: the programmed date of @cpu has passed. */
void nk_timer_handler(struct nk_instance *nk, int cpu)
{
	struct nk_sched *sched = &nk->scheds[cpu];
	nk_time_t now = nk_clock_now(nk);
	struct nk_rbnode *first;

	sched->programmed = NK_INFINITE; /* the backend consumed it */
	while ((first = nk_rbtree_first(&sched->timers)) != NULL) {
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
		timer->handler(timer);
	}
	nk_timer_reprogram(sched);
	nk_sched_run(nk);
}
