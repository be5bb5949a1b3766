/* SPDX-License-Identifier: MIT */
/*
 * pSOS time: ticks of the skin's time base, a calendar kept as an
 * offset from the tick count (set by tm_set, read by tm_get), sleeps,
 * and timers that send events to the task that armed them.
 *
 * A calendar date is a tick count since 1 March of year -400 (so that
 * every date pSOS can pack, years 0 to 65535, counts up from 0).  The
 * waits and timers aimed at a date (tm_wkwhen, tm_evwhen) are
 * re-aimed when tm_set() moves the calendar, as pSOS documents: a date
 * passed by the move is reached at once.
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

#define SECS_PER_DAY 86400
/* Whole 400-year eras keep the calendar arithmetic exact. */
#define ERA_DAYS 146097
#define YEAR_SHIFT 400

/* Days from 1 March of year -YEAR_SHIFT to @y-@m-@d (a valid date). */
static int64_t days_of(unsigned long y, unsigned long m, unsigned long d)
{
	/* Years start in March: February's leap day falls last. */
	int64_t yy = (int64_t)y + YEAR_SHIFT - (m <= 2);
	int64_t era = yy / 400, yoe = yy % 400;
	int64_t doy = (153 * (int64_t)((m + 9) % 12) + 2) / 5 + (int64_t)d - 1;

	return era * ERA_DAYS + yoe * 365 + yoe / 4 - yoe / 100 + doy;
}

/* The inverse of days_of(). */
static void date_of(int64_t days, unsigned long *y, unsigned long *m,
		    unsigned long *d)
{
	int64_t era = days / ERA_DAYS, doe = days % ERA_DAYS;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;

	*d = (unsigned long)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned long)(mp < 10 ? mp + 3 : mp - 9);
	*y = (unsigned long)(era * 400 + yoe + (*m <= 2) - YEAR_SHIFT);
}

static bool leap(unsigned long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* The calendar tick of a packed date, or its error.  Lock held or not. */
static unsigned long cal_ticks(struct psos_state *st, unsigned long date,
			       unsigned long time, unsigned long ticks,
			       int64_t *out)
{
	static const unsigned char mdays[12] = {31, 28, 31, 30, 31, 30,
						31, 31, 30, 31, 30, 31};
	unsigned long y = date >> 16, m = (date >> 8) & 0xff, d = date & 0xff;
	unsigned long h = time >> 16, mi = (time >> 8) & 0xff, s = time & 0xff;
	int64_t secs;

	if (y > 0xffff || m < 1 || m > 12 || d < 1 ||
	    d > mdays[m - 1] + (unsigned long)(m == 2 && leap(y)))
		return ERR_ILLDATE;
	if (h > 23 || mi > 59 || s > 59)
		return ERR_ILLTIME;
	if (ticks >= st->ticks2sec)
		return ERR_ILLTICKS;
	secs =
	    days_of(y, m, d) * SECS_PER_DAY + (int64_t)(h * 3600 + mi * 60 + s);
	*out = secs * (int64_t)st->ticks2sec + (int64_t)ticks;
	return SUCCESS;
}

/* The calendar tick now.  Lock held. */
static int64_t cal_now(struct psos_state *st)
{
	return (int64_t)nk_tbase_ticks(&st->skin.tbase) + st->cal_offset;
}

/* When calendar tick @tick comes, on the nucleus clock.  Lock held. */
static struct skin_timeout cal_date(struct psos_state *st, int64_t tick)
{
	int64_t t = tick - st->cal_offset;

	return skin_abs_ticks(&st->skin, t < 0 ? 0 : (uint64_t)t);
}

static void timer_fire(struct nk_timer *timer)
{
	struct psos_timer *tm =
	    nk_container_of(timer, struct psos_timer, timer);

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

/* The calendar moved: dated waits and timers aim again.  Lock held. */
static void cal_moved(struct nk_instance *nk, struct psos_state *st)
{
	struct nk_list *pos;

	nk_synch_flush(&st->cal_sleepers, NK_WAKE_OK);
	nk_list_for_each(pos, &st->cal_timers) {
		struct psos_timer *tm =
		    nk_list_entry(pos, struct psos_timer, cal_link);
		struct skin_timeout to = cal_date(st, tm->cal_tick);

		nk_timer_start_locked(&tm->timer, to.value, 0, to.mode);
	}
	nk_sched_run(nk);
}

unsigned long tm_set(unsigned long date, unsigned long time,
		     unsigned long ticks)
{
	struct nk_instance *nk;
	struct psos_state *st;
	int64_t cal;
	unsigned long ret;

	ret = psos_enter(&nk, &st);
	if (ret)
		return ret;
	nk_lock(nk);
	ret = cal_ticks(st, date, time, ticks, &cal);
	if (ret == 0) {
		st->cal_offset = cal - (int64_t)nk_tbase_ticks(&st->skin.tbase);
		st->time_set = true;
		cal_moved(nk, st);
	}
	nk_unlock(nk);
	return ret;
}

unsigned long tm_tick(void)
{
	struct nk_instance *nk;
	struct psos_state *st;
	unsigned long ret;

	ret = psos_enter(&nk, &st);
	if (ret)
		return ret;
	nk_lock(nk);
	nk_tbase_set_ticks(&st->skin.tbase,
			   nk_tbase_ticks(&st->skin.tbase) + 1);
	cal_moved(nk, st);
	nk_unlock(nk);
	return SUCCESS;
}

unsigned long tm_get(unsigned long *date, unsigned long *time,
		     unsigned long *ticks)
{
	struct nk_instance *nk;
	struct psos_state *st;
	unsigned long ret, y, m, d;
	int64_t cal, secs;

	if (date == NULL || time == NULL || ticks == NULL)
		return ERR_OBJID;
	ret = psos_enter(&nk, &st);
	if (ret)
		return ret;
	nk_lock(nk);
	if (!st->time_set) {
		nk_unlock(nk);
		return ERR_NOTIME;
	}
	cal = cal_now(st);
	*ticks = (unsigned long)(cal % (int64_t)st->ticks2sec);
	secs = cal / (int64_t)st->ticks2sec;
	nk_unlock(nk);
	date_of(secs / SECS_PER_DAY, &y, &m, &d);
	secs %= SECS_PER_DAY;
	*date = y << 16 | m << 8 | d;
	*time = (unsigned long)(secs / 3600) << 16 |
		(unsigned long)(secs / 60 % 60) << 8 |
		(unsigned long)(secs % 60);
	return SUCCESS;
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

unsigned long tm_wkwhen(unsigned long date, unsigned long time,
			unsigned long ticks)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *self;
	int64_t cal;
	unsigned long ret;
	int err = 0;

	ret = psos_enter_self(&nk, &st, &self, ERR_SSFN);
	if (ret)
		return ret;
	nk_lock(nk);
	ret =
	    st->time_set ? cal_ticks(st, date, time, ticks, &cal) : ERR_NOTIME;
	if (ret == 0 && cal <= cal_now(st))
		ret = ERR_TOOLATE;
	/* A tm_set() wakes the sleepers: each looks at the calendar again. */
	while (ret == 0 && err == 0 && cal > cal_now(st)) {
		struct skin_timeout to;

		if (psos_wait_begin(nk, self))
			continue;
		to = cal_date(st, cal);
		err = nk_synch_sleep(&st->cal_sleepers, to.value, to.mode);
	}
	nk_unlock(nk);
	psos_wait_end(nk, self);
	return ret ? ret : psos_error(err == -ETIMEDOUT ? 0 : err);
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
	ret =
	    st->time_set ? cal_ticks(st, date, time, ticks, &cal) : ERR_NOTIME;
	if (ret == 0 && cal <= cal_now(st))
		ret = ERR_TOOLATE;
	if (ret == 0)
		ret = timer_arm(nk, st, self, events, cal_date(st, cal), 0,
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
