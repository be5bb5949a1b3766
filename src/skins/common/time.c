/* SPDX-License-Identifier: MIT */
/* Skin timeouts into nucleus ones (skin.h), in ns or in ticks. */
#include "skin.h"

struct skin_timeout skin_rel_ticks(struct skin *sk, uint64_t ticks)
{
	nk_time_t date;

	if (sk->tbase.period == 0 || ticks == 0)
		return skin_rel_ns(ticks);
	/* The n-th tick boundary from now; NK_INFINITE when out of range. */
	date = nk_tbase_timeout(&sk->tbase, ticks);
	return date == NK_INFINITE
		   ? skin_infinite()
		   : (struct skin_timeout){.value = date, .mode = NK_ABSOLUTE};
}

struct skin_timeout skin_abs_ticks(struct skin *sk, uint64_t tick)
{
	uint64_t now;

	if (sk->tbase.period == 0)
		return skin_abs_ns(tick);
	now = nk_tbase_ticks(&sk->tbase);
	/* Passed: the current tick's date, in the past, expires at once. */
	if (tick <= now)
		return (struct skin_timeout){
		    .value = nk_tbase_timeout(&sk->tbase, 0),
		    .mode = NK_ABSOLUTE};
	return skin_rel_ticks(sk, tick - now);
}

struct skin_timeout skin_timespec(const struct timespec *date)
{
	if (date == NULL)
		return skin_infinite();
	if (date->tv_sec < 0 || date->tv_nsec < 0 ||
	    date->tv_nsec >= 1000000000L)
		return (struct skin_timeout){.error = -EINVAL};
	if (date->tv_sec == 0 && date->tv_nsec == 0)
		return skin_nonblock();
	if (date->tv_sec > (INT64_MAX - date->tv_nsec) / 1000000000LL)
		return skin_abs_ns(UINT64_MAX);
	return skin_abs_ns((uint64_t)date->tv_sec * 1000000000ULL +
			   (uint64_t)date->tv_nsec);
}

struct skin_timeout skin_deadline(struct nk_instance *nk,
				  struct skin_timeout to)
{
	if (to.mode != NK_RELATIVE || to.value == NK_INFINITE || to.value <= 0)
		return to;
	to.value = nk_date_add(nk_now(nk), to.value);
	to.mode = NK_ABSOLUTE;
	return to;
}
