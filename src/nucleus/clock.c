/* SPDX-License-Identifier: MIT */
/*
 * The nucleus clock, CPU-time consumption, and tick time bases.
 */
#include "internal.h"

static bool tbase_valid(const struct nk_tbase *tb)
{
	return tb && tb->magic == NK_TBASE_MAGIC;
}

nk_hot nk_time_t nk_now(struct nk_instance *nk)
{
	return nk_instance_valid(nk) ? nk_clock_now(nk) : 0;
}

nk_time_t nk_wallclock(struct nk_instance *nk)
{
	if (!nk_instance_valid(nk))
		return 0;
	return nk_date_add(nk_clock_now(nk), nk->wall_offset);
}

int nk_set_wallclock(struct nk_instance *nk, nk_time_t date)
{
	if (!nk_instance_valid(nk) || date < 0)
		return -EINVAL;
	nk_lock_acquire(nk);
	/* Both dates are >= 0: the difference fits. */
	nk->wall_offset = date - nk_clock_now(nk);
	nk_lock_release(nk);
	return 0;
}

nk_time_t nk_grid_next(nk_time_t point, nk_time_t period, nk_time_t now)
{
	/* point + k * period, computed from now's side: no overflow. */
	return nk_date_add(now - (now - point) % period, period);
}

int nk_consume(struct nk_instance *nk, nk_time_t ns)
{
	struct nk_thread *self;
	nk_time_t remaining = ns;

	if (!nk_instance_valid(nk) || ns < 0)
		return -EINVAL;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	/* Preemptions during the busy period are taken here, and the rest
	 * of the period is consumed when the thread runs again. */
	while (self && remaining > 0) {
		nk_time_t start = nk_clock_now(nk);

		nk->be->busy(nk->be_priv, self->shadow, remaining);
		remaining -= nk_clock_now(nk) - start;
		nk_thread_check_cancel(self);
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
	return self ? 0 : -EPERM;
}

int nk_tbase_init(struct nk_instance *nk, struct nk_tbase *tb, nk_time_t period)
{
	if (!nk_instance_valid(nk) || tb == NULL || period < 0)
		return -EINVAL;
	nk_journal_obj(tb);
	tb->nk = nk;
	tb->period = period;
	tb->origin = nk_clock_now(nk);
	tb->origin_ticks = 0;
	tb->magic = NK_TBASE_MAGIC;
	return 0;
}

static nk_time_t tbase_unit(const struct nk_tbase *tb)
{
	return tb->period ? tb->period : 1;
}

uint64_t nk_tbase_ticks(struct nk_tbase *tb)
{
	if (!tbase_valid(tb))
		return 0;
	return tb->origin_ticks +
	       (uint64_t)(nk_clock_now(tb->nk) - tb->origin) / tbase_unit(tb);
}

/* Re-anchor the base on the last tick boundary, with @ticks counted. */
static void tbase_anchor(struct nk_tbase *tb, uint64_t ticks)
{
	nk_time_t now = nk_clock_now(tb->nk);

	nk_journal_obj(tb);
	tb->origin = now - (now - tb->origin) % tbase_unit(tb);
	tb->origin_ticks = ticks;
}

int nk_tbase_set_period(struct nk_tbase *tb, nk_time_t period)
{
	uint64_t ticks;

	if (!tbase_valid(tb) || period < 0)
		return -EINVAL;
	/* The new ticks start now; the partial old tick is dropped. */
	ticks = nk_tbase_ticks(tb);
	nk_journal_obj(tb);
	tb->origin = nk_clock_now(tb->nk);
	tb->origin_ticks = ticks;
	tb->period = period;
	return 0;
}

int nk_tbase_set_ticks(struct nk_tbase *tb, uint64_t ticks)
{
	if (!tbase_valid(tb))
		return -EINVAL;
	tbase_anchor(tb, ticks);
	return 0;
}

nk_time_t nk_tbase_timeout(struct nk_tbase *tb, uint64_t ticks)
{
	nk_time_t now, last_tick;

	if (!tbase_valid(tb))
		return NK_INFINITE;
	now = nk_clock_now(tb->nk);
	if (ticks > (uint64_t)(NK_INFINITE - now) / tbase_unit(tb))
		return NK_INFINITE;
	last_tick = now - (now - tb->origin) % tbase_unit(tb);
	return last_tick + (nk_time_t)ticks * tbase_unit(tb);
}

nk_time_t nk_tbase_ticks_to_ns(struct nk_tbase *tb, uint64_t ticks)
{
	if (!tbase_valid(tb))
		return 0;
	if (ticks > (uint64_t)NK_INFINITE / tbase_unit(tb))
		return NK_INFINITE;
	return (nk_time_t)ticks * tbase_unit(tb);
}

uint64_t nk_tbase_ns_to_ticks(struct nk_tbase *tb, nk_time_t ns)
{
	nk_time_t unit;

	if (!tbase_valid(tb) || ns <= 0)
		return 0;
	unit = tbase_unit(tb);
	return (uint64_t)(ns / unit) + (ns % unit != 0);
}
