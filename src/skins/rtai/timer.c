/* SPDX-License-Identifier: MIT */
/*
 * RTAI's timer and time.  The nucleus clock always runs; the timer's
 * mode only chooses what a count is: a nanosecond in oneshot mode (a 1
 * GHz time stamp counter), a tick of the timer's period, counted from
 * start_rt_timer(), in periodic mode (the skin's time base).
 */
#include "internal.h"

RTIME rtai_now(struct skin *sk)
{
	if (sk->tbase.period)
		return (RTIME)nk_tbase_ticks(&sk->tbase);
	return (RTIME)nk_now(sk->nk);
}

struct skin_timeout rtai_timeout(RTIME t, bool date)
{
	struct skin *sk;

	if (skin_enter(&rtai_skin, NULL, &sk))
		return skin_nonblock();
	return date ? rtai_abs(sk, t) : rtai_rel(sk, t);
}

RTIME start_rt_timer(int period)
{
	struct nk_instance *nk;
	struct rtai_state *st;

	if (rtai_enter(&nk))
		return 0;
	st = rtai_state();
	nk_lock(nk);
	nk_journal_block(st);
	st->timer_running = true;
	if (st->periodic_mode && period > 0) {
		(void)nk_tbase_set_period(&st->skin.tbase, period);
		(void)nk_tbase_set_ticks(&st->skin.tbase, 0);
	} else {
		(void)nk_tbase_set_period(&st->skin.tbase, 0);
	}
	nk_unlock(nk);
	return period;
}

void stop_rt_timer(void)
{
	struct nk_instance *nk;
	struct rtai_state *st;

	if (rtai_enter(&nk))
		return;
	st = rtai_state();
	nk_lock(nk);
	nk_journal_block(st);
	st->timer_running = false;
	(void)nk_tbase_set_period(&st->skin.tbase, 0);
	nk_unlock(nk);
}

/* Choose the mode of the next start_rt_timer(). */
static void timer_mode(bool periodic)
{
	struct nk_instance *nk;

	if (rtai_enter(&nk))
		return;
	nk_lock(nk);
	nk_journal_obj(&rtai_state()->periodic_mode);
	rtai_state()->periodic_mode = periodic;
	nk_unlock(nk);
}

void rt_set_oneshot_mode(void)
{
	timer_mode(false);
}

void rt_set_periodic_mode(void)
{
	timer_mode(true);
}

int rt_is_hard_timer_running(void)
{
	struct nk_instance *nk;
	int running;

	if (rtai_enter(&nk))
		return 0;
	nk_lock(nk);
	running = rtai_state()->timer_running;
	nk_unlock(nk);
	return running;
}

RTIME nano2count(RTIME nanosecs)
{
	struct skin *sk;

	if (skin_enter(&rtai_skin, NULL, &sk) || sk->tbase.period == 0)
		return nanosecs;
	if (nanosecs < 0)
		return -(RTIME)nk_tbase_ns_to_ticks(&sk->tbase, -nanosecs);
	return (RTIME)nk_tbase_ns_to_ticks(&sk->tbase, nanosecs);
}

RTIME count2nano(RTIME counts)
{
	struct skin *sk;

	if (skin_enter(&rtai_skin, NULL, &sk) || sk->tbase.period == 0)
		return counts;
	if (counts < 0)
		return -nk_tbase_ticks_to_ns(&sk->tbase, (uint64_t)-counts);
	return nk_tbase_ticks_to_ns(&sk->tbase, (uint64_t)counts);
}

RTIME nano2count_cpuid(RTIME nanosecs, unsigned int cpuid)
{
	(void)cpuid;
	return nano2count(nanosecs);
}

RTIME count2nano_cpuid(RTIME counts, unsigned int cpuid)
{
	(void)cpuid;
	return count2nano(counts);
}

RTIME rt_get_time(void)
{
	struct skin *sk;

	if (skin_enter(&rtai_skin, NULL, &sk))
		return 0;
	return rtai_now(sk);
}

RTIME rt_get_time_cpuid(unsigned int cpuid)
{
	(void)cpuid;
	return rt_get_time();
}

RTIME rt_get_time_ns(void)
{
	struct nk_instance *nk;

	if (rtai_enter(&nk))
		return 0;
	return (RTIME)nk_now(nk);
}

RTIME rt_get_time_ns_cpuid(unsigned int cpuid)
{
	(void)cpuid;
	return rt_get_time_ns();
}

RTIME rt_get_cpu_time_ns(void)
{
	return rt_get_time_ns();
}

RTIME rt_get_tscnt(void)
{
	return rt_get_time_ns();
}

RTIME rt_get_real_time_ns(void)
{
	struct nk_instance *nk;

	if (rtai_enter(&nk))
		return 0;
	return (RTIME)nk_wallclock(nk);
}

RTIME rt_get_real_time(void)
{
	return nano2count(rt_get_real_time_ns());
}
