/* SPDX-License-Identifier: MIT */
/** @file
 * Nucleus timers: absolute expiry dates in ns, optional period, a handler
 * run in interrupt context with the nucleus lock held.  Each RT CPU keeps
 * its armed timers in a red-black tree (O(log n) arm and disarm, O(1)
 * next deadline); timers with equal dates fire in the order they were
 * armed.
 */
#ifndef FUSION_TIMER_H
#define FUSION_TIMER_H

#include <fusion/types.h>
#include <fusion/rbtree.h>

struct nk_timer;

/**
 * Runs in interrupt context, lock held: may call any non-blocking service
 * (give a semaphore, start a timer...), never a blocking one (-EPERM).
 */
typedef void (*nk_timer_fn)(struct nk_timer *timer);

/** A timer, embedded by its user; set up by nk_timer_init(). */
struct nk_timer {
	unsigned int magic;	/**< tells a live timer from a stale one */
	struct nk_instance *nk; /**< its instance */
	struct nk_rbnode node;	/**< in its CPU's timer tree while armed */
	nk_time_t date;		/**< next expiry */
	nk_time_t interval;	/**< 0: one-shot */
	nk_timer_fn handler;	/**< called at each expiry */
	void *cookie;		/**< the user's */
	int cpu;		/**< RT CPU whose tree holds it */
	/** The member process of a session whose code the handler is (its
	 * creator's), which alone may call it; -1 for the nucleus's own
	 * timers, named by their kind, which any member runs.  0 in a
	 * private instance. */
	int owner;
	int tree;	    /**< member whose tree of its CPU holds it, armed */
	unsigned char kind; /**< which of the nucleus's own (0: none) */
	bool armed;	    /**< in the tree */
	unsigned long overruns; /**< periods missed, summed over expiries */
	unsigned long fired;	/**< expiries so far */
	char name[NK_NAME_MAX]; /**< what the sim log shows */
	unsigned int trace_id;	/**< its number in trace records */
};

/**
 * Prepare @p timer on RT CPU @p cpu.  @p name may be NULL.
 * Errors: -EINVAL (bad instance, NULL timer or handler, bad cpu, name
 * longer than NK_NAME_MAX - 1).
 * Context: any.
 */
nk_export int nk_timer_init(struct nk_instance *nk, struct nk_timer *timer,
			    const char *name, int cpu, nk_timer_fn handler,
			    void *cookie);

/**
 * Arm @p timer to expire at @p value (read per @p mode), then every @p interval
 * ns if @p interval > 0.  Re-arming an armed timer moves it.  A date in the
 * past fires at the next timer interrupt.  Dates saturate (clock.h): a
 * first expiry past the clock's range leaves the timer disarmed, and a
 * periodic timer whose next expiry is past it fires no more.
 * Errors: -EINVAL (bad timer, interval < 0, value NK_INFINITE with an
 * interval).  Context: any, lock held or not.  The _locked form: lock
 * held.
 */
nk_export int nk_timer_start(struct nk_timer *timer, nk_time_t value,
			     nk_time_t interval, enum nk_tmode mode);
/** Disarm (no error if not armed).  Errors: -EINVAL.  Context: any. */
nk_export int nk_timer_stop(struct nk_timer *timer);
/** Disarm and invalidate.  Errors: -EINVAL.  Context: any. */
nk_export int nk_timer_destroy(struct nk_timer *timer);
/** Next expiry date, or NK_INFINITE when not armed (bad timer too). */
nk_export nk_time_t nk_timer_date(struct nk_timer *timer);

/** @{ */
/** Lock-held forms for skins and the nucleus itself (a bad timer: -EINVAL
 * from start, nothing from stop). */
nk_export int nk_timer_start_locked(struct nk_timer *timer, nk_time_t value,
				    nk_time_t interval, enum nk_tmode mode);
nk_export void nk_timer_stop_locked(struct nk_timer *timer);
/** @} */

#endif
