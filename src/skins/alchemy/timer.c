/* SPDX-License-Identifier: MIT */
/*
 * Alchemy timer services: the nucleus clock read in ns (one tick = 1 ns,
 * and the "TSC" is the same clock).
 */
#include "internal.h"

#include <alchemy/timer.h>

RTIME rt_timer_read(void)
{
	struct nk_instance *nk;

	if (alchemy_enter(&nk))
		return 0;
	return (RTIME)nk_now(nk);
}

RTIME rt_timer_tsc(void)
{
	return rt_timer_read();
}

SRTIME rt_timer_ns2tsc(SRTIME ns)
{
	return ns;
}

SRTIME rt_timer_tsc2ns(SRTIME tsc)
{
	return tsc;
}

SRTIME rt_timer_ns2ticks(SRTIME ns)
{
	return ns;
}

SRTIME rt_timer_ticks2ns(SRTIME ticks)
{
	return ticks;
}

void rt_timer_inquire(RT_TIMER_INFO *info)
{
	struct nk_instance *nk;

	if (info == NULL || alchemy_enter(&nk))
		return;
	info->period = 1;
	info->date = (RTIME)nk_now(nk);
	info->tsc = info->date;
}

void rt_timer_spin(RTIME ns)
{
	struct nk_instance *nk;

	if (alchemy_enter(&nk))
		return;
	/* Longer than INT64_MAX ns is "forever" for every practical use. */
	(void)nk_consume(nk, ns > (RTIME)INT64_MAX ? INT64_MAX : (nk_time_t)ns);
}
