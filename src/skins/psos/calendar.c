/* SPDX-License-Identifier: MIT */
/*
 * The pSOS calendar: a date and time kept as an offset from the tick
 * count of the skin's time base, set by tm_set(), read by tm_get(),
 * advanced by tm_tick(), slept on by tm_wkwhen().
 *
 * A calendar date is a tick count since 1 March of year -400 (so that
 * every date pSOS can pack, years 0 to 65535, counts up from 0).  The
 * waits and timers aimed at a date (tm_wkwhen, tm_evwhen) are re-aimed
 * when the calendar moves, as pSOS documents: a date passed by the move
 * is reached at once.
 */
#include "task_internal.h"

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

unsigned long psos_cal_ticks(struct psos_state *st, unsigned long date,
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

int64_t psos_cal_now(struct psos_state *st)
{
	return (int64_t)nk_tbase_ticks(&st->skin.tbase) + st->cal_offset;
}

struct skin_timeout psos_cal_date(struct psos_state *st, int64_t tick)
{
	int64_t t = tick - st->cal_offset;

	return skin_abs_ticks(&st->skin, t < 0 ? 0 : (uint64_t)t);
}

/* The calendar moved: dated waits and timers aim again.  Lock held. */
static void cal_moved(struct nk_instance *nk, struct psos_state *st)
{
	nk_synch_flush(&st->cal_sleepers, NK_WAKE_OK);
	psos_timers_reaim(st);
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
	ret = psos_cal_ticks(st, date, time, ticks, &cal);
	if (ret == 0) {
		nk_journal_block(st);
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
	cal = psos_cal_now(st);
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
	ret = st->time_set ? psos_cal_ticks(st, date, time, ticks, &cal)
			   : ERR_NOTIME;
	if (ret == 0 && cal <= psos_cal_now(st))
		ret = ERR_TOOLATE;
	/* A tm_set() wakes the sleepers: each looks at the calendar again. */
	while (ret == 0 && err == 0 && cal > psos_cal_now(st)) {
		struct skin_timeout to;

		if (psos_wait_begin(nk, self))
			continue;
		to = psos_cal_date(st, cal);
		err = nk_synch_sleep(&st->cal_sleepers, to.value, to.mode);
	}
	nk_unlock(nk);
	psos_wait_end(nk, self);
	return ret ? ret : psos_error(err == -ETIMEDOUT ? 0 : err);
}
