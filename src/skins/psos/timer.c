/* SPDX-License-Identifier: MIT */
/*
 * pSOS delays and timers: tm_wkafter(), and timers that send events to
 * the task that armed them, after some ticks, every some ticks or at a
 * calendar date (calendar.c).
 *
 * A timer belongs to its task: it goes when the task ends or restarts.
 * A one-shot timer that fired is unregistered at once (its ID is no
 * longer valid) and freed by its task's next timer call or its end,
 * since a nucleus timer is not freed from its own handler.
 */
#include "task_internal.h"

struct psos_timer {
	struct psos_object obj;
	uintptr_t handle;	 /* 0 once fired (one-shot) or cancelled */
	struct nk_list link;	 /* in its task's list */
	struct nk_list cal_link; /* tm_evwhen: in the state's list */
	struct nk_timer timer;
	struct psos_task *task;
	unsigned long events;
	bool periodic;
	int64_t cal_tick; /* tm_evwhen: the calendar tick it aims at */
};

static void timer_fire(struct nk_timer *timer)
{
	struct psos_timer *tm =
	    nk_container_of(timer, struct psos_timer, timer);

	nk_journal_block(tm);
	psos_events_post(tm->task, tm->events);
	if (!tm->periodic && tm->handle) {
		skin_unregister_locked(&psos_in(timer->nk)->skin, tm->handle);
		tm->handle = 0;
		nk_list_del(&tm->cal_link);
	}
}

/* Disarm and free @tm, registered or not.  Lock held. */
static void timer_free(struct nk_instance *nk, struct psos_timer *tm)
{
	nk_timer_destroy(&tm->timer);
	if (tm->handle)
		skin_unregister_locked(&psos_in(nk)->skin, tm->handle);
	nk_list_del(&tm->link);
	nk_list_del(&tm->cal_link);
	nk_free(nk, tm);
}

/* At the instance's end: timers die with their tasks, before. */
/* Its count: 1 while armed, 0 once fired or cancelled. */
void psos_timer_describe(const void *object, struct nk_object_info *info)
{
	const struct psos_timer *t = object;

	info->name = t->obj.name;
	info->count = t->timer.armed;
}

void psos_timer_reclaim(struct nk_instance *nk, void *object)
{
	struct psos_timer *tm = object;

	tm->handle = 0;
	timer_free(nk, tm);
}

void psos_timers_drop(struct psos_task *t)
{
	struct nk_instance *nk = nk_thread_instance(t->thread);
	struct nk_list *pos, *tmp;

	nk_list_for_each_safe(pos, tmp, &t->timers) {
		timer_free(nk, nk_list_entry(pos, struct psos_timer, link));
	}
}

/* Free @t's one-shot timers that fired.  Lock held. */
static void timers_sweep(struct nk_instance *nk, struct psos_task *t)
{
	struct nk_list *pos, *tmp;

	nk_list_for_each_safe(pos, tmp, &t->timers) {
		struct psos_timer *tm =
		    nk_list_entry(pos, struct psos_timer, link);

		if (tm->handle == 0)
			timer_free(nk, tm);
	}
}

void psos_timers_reaim(struct psos_state *st)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &st->cal_timers) {
		struct psos_timer *tm =
		    nk_list_entry(pos, struct psos_timer, cal_link);
		struct skin_timeout to = psos_cal_date(st, tm->cal_tick);

		nk_timer_start_locked(&tm->timer, to.value, 0, to.mode);
	}
}

unsigned long tm_wkafter(unsigned long ticks)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *self;
	struct skin_timeout to;
	unsigned long ret;
	int err;

	ret = psos_enter_self(&nk, &st, &self, ERR_SSFN);
	if (ret)
		return ret;
	if (ticks == 0)
		return psos_error(nk_thread_yield(nk));
	nk_lock(nk);
	psos_wait_begin(nk, self);
	to = skin_rel_ticks(&st->skin, ticks);
	nk_unlock(nk);
	err = nk_thread_sleep(nk, to.value, to.mode);
	psos_wait_end(nk, self);
	return psos_error(err);
}

/* Arm a timer of the caller sending @events at @to, then every @period
 * ns if not 0; a tm_evwhen() timer aims at calendar tick @cal. */
static unsigned long timer_arm(struct nk_instance *nk, struct psos_state *st,
			       struct psos_task *self, unsigned long events,
			       struct skin_timeout to, nk_time_t period,
			       const int64_t *cal, unsigned long *tmid)
{
	struct psos_timer *tm = nk_alloc(nk, sizeof(*tm));
	int err;

	if (tm == NULL)
		return ERR_NOTIMERS;
	nk_list_init(&tm->link);
	nk_list_init(&tm->cal_link);
	tm->task = self;
	tm->events = events;
	tm->periodic = period != 0;
	err = nk_timer_init(nk, &tm->timer, "psos", nk_thread_cpu(self->thread),
			    timer_fire, tm);
	if (err == 0)
		err = skin_register_locked(&st->skin, PSOS_TIMER, NULL, tm,
					   &tm->handle);
	if (err) {
		timer_free(nk, tm);
		return ERR_NOTIMERS;
	}
	nk_list_add_before(&tm->link, &self->timers);
	if (cal) {
		tm->cal_tick = *cal;
		nk_list_add_before(&tm->cal_link, &st->cal_timers);
	}
	nk_timer_start_locked(&tm->timer, to.value, period, to.mode);
	*tmid = tm->handle;
	return SUCCESS;
}

/* The caller's TCB for a timer call, the lock taken; fired one-shot
 * timers of the caller freed.  Errors: ERR_OBJID (NULL @tmid),
 * ERR_SSFN (not a task). */
static unsigned long timer_self(unsigned long *tmid, struct nk_instance **nk,
				struct psos_state **st, struct psos_task **self)
{
	unsigned long ret;

	if (tmid == NULL)
		return ERR_OBJID;
	ret = psos_enter_self(nk, st, self, ERR_SSFN);
	if (ret)
		return ret;
	nk_lock(*nk);
	timers_sweep(*nk, *self);
	return SUCCESS;
}

static unsigned long timer_after(unsigned long ticks, unsigned long events,
				 unsigned long *tmid, bool every)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *self;
	unsigned long ret;

	if (ticks == 0)
		return ERR_ILLTICKS;
	ret = timer_self(tmid, &nk, &st, &self);
	if (ret)
		return ret;
	ret =
	    timer_arm(nk, st, self, events, skin_rel_ticks(&st->skin, ticks),
		      every ? nk_tbase_ticks_to_ns(&st->skin.tbase, ticks) : 0,
		      NULL, tmid);
	nk_unlock(nk);
	return ret;
}

unsigned long tm_evafter(unsigned long ticks, unsigned long events,
			 unsigned long *tmid)
{
	return timer_after(ticks, events, tmid, false);
}

unsigned long tm_evevery(unsigned long ticks, unsigned long events,
			 unsigned long *tmid)
{
	return timer_after(ticks, events, tmid, true);
}

unsigned long tm_evwhen(unsigned long date, unsigned long time,
			unsigned long ticks, unsigned long events,
			unsigned long *tmid)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *self;
	unsigned long ret;
	int64_t cal;

	ret = timer_self(tmid, &nk, &st, &self);
	if (ret)
		return ret;
	ret = st->time_set ? psos_cal_ticks(st, date, time, ticks, &cal)
			   : ERR_NOTIME;
	if (ret == 0 && cal <= psos_cal_now(st))
		ret = ERR_TOOLATE;
	if (ret == 0)
		ret = timer_arm(nk, st, self, events, psos_cal_date(st, cal), 0,
				&cal, tmid);
	nk_unlock(nk);
	return ret;
}

static unsigned long timer_cancel(struct nk_instance *nk, void *tm,
				  unsigned long arg)
{
	(void)arg;
	timer_free(nk, tm);
	return SUCCESS;
}

unsigned long tm_cancel(unsigned long tmid)
{
	return psos_call(PSOS_TIMER, tmid, timer_cancel, 0);
}
