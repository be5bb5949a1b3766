/* SPDX-License-Identifier: MIT */
/** @file
 * The nucleus clock (monotonic ns from the backend, plus a settable wall
 * offset) and time bases that give tick-based skins their ticks.
 */
#ifndef FUSION_CLOCK_H
#define FUSION_CLOCK_H

#include <fusion/types.h>

/*
 * Dates are ns from 0 up to NK_INFINITE, which stands for "never".
 * Whatever is computed from a caller's date or interval saturates: a
 * date past the clock's range is never reached (a timeout there is
 * infinite, a timer stays disarmed, a release never comes), a date
 * before 0 is in the past.
 */

/**
 * @p date + @p interval, saturated at NK_INFINITE (and at INT64_MIN for a
 * negative @p interval); NK_INFINITE stays NK_INFINITE.  Any context.
 */
static inline nk_time_t nk_date_add(nk_time_t date, nk_time_t interval)
{
	nk_time_t sum;

	if (date == NK_INFINITE)
		return NK_INFINITE;
	if (__builtin_add_overflow(date, interval, &sum))
		return interval > 0 ? NK_INFINITE : INT64_MIN;
	return sum;
}

/** Monotonic nucleus time in ns (0 on an invalid instance).  Any context. */
nk_export nk_time_t nk_now(struct nk_instance *nk);

/** Wall-clock time: nk_now() plus the offset set below, saturated. */
nk_export nk_time_t nk_wallclock(struct nk_instance *nk);
/**
 * Set the wall clock to @p date (ns since the epoch).  Errors: -EINVAL
 * (bad instance, @p date < 0).  Any context.
 */
nk_export int nk_set_wallclock(struct nk_instance *nk, nk_time_t date);

/**
 * Charge @p ns of CPU time to the calling thread: on sim, virtual time runs
 * for @p ns while the thread holds its CPU (it may be preempted meanwhile
 * and resumes the rest later); on a real-time backend, the thread spins.
 * Errors: -EINVAL (bad instance, ns < 0), -EPERM (not a thread of @p nk,
 * or interrupt context).  Context: thread.
 */
nk_export int nk_consume(struct nk_instance *nk, nk_time_t ns);

/**
 * A time base converts between a skin's ticks and nucleus ns.  Ticks
 * count whole periods since the base's origin; a tick-based timeout of
 * n ticks expires on the n-th tick boundary from now, as a tick
 * interrupt would deliver it.  No periodic timer is needed for that:
 * dates are computed.  A period of 0 makes a tickless base (1 tick = 1 ns).
 */
struct nk_tbase {
	unsigned int magic;	/**< tells a live base from a stale one */
	struct nk_instance *nk; /**< its instance */
	nk_time_t period;	/**< ns per tick; 0: tickless */
	nk_time_t origin;	/**< date of tick 0 */
	uint64_t origin_ticks;	/**< tick count at @p origin */
};

/** Errors: -EINVAL (bad instance or tbase, period < 0).  Context: any. */
nk_export int nk_tbase_init(struct nk_instance *nk, struct nk_tbase *tb,
			    nk_time_t period);
/**
 * Change the tick period; the tick count carries on from its current
 * value.  Errors: -EINVAL.  Context: any.
 */
nk_export int nk_tbase_set_period(struct nk_tbase *tb, nk_time_t period);
/** Ticks elapsed since the base started (0 for a bad tbase). */
nk_export uint64_t nk_tbase_ticks(struct nk_tbase *tb);
/** Set the tick count (VxWorks tickSet).  -EINVAL. */
nk_export int nk_tbase_set_ticks(struct nk_tbase *tb, uint64_t ticks);
/** Absolute date at which a timeout of @p ticks from now expires. */
nk_export nk_time_t nk_tbase_timeout(struct nk_tbase *tb, uint64_t ticks);
/** @{ */
/** Conversions (tickless: identity).  Rounds ns to ticks up.  On a bad
 * tbase: 0, and NK_INFINITE from nk_tbase_timeout. */
nk_export nk_time_t nk_tbase_ticks_to_ns(struct nk_tbase *tb, uint64_t ticks);
nk_export uint64_t nk_tbase_ns_to_ticks(struct nk_tbase *tb, nk_time_t ns);
/** @} */

#endif
