/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy event flag groups (Xenomai 3 API).
 *
 * A group is a word of flags.  Signalling sets flags and readies every
 * waiter whose request is then satisfied: all of its bits (EV_ALL) or
 * at least one (EV_ANY).  Waiting never consumes flags; rt_event_clear
 * does.
 */
#ifndef FUSION_ALCHEMY_EVENT_H
#define FUSION_ALCHEMY_EVENT_H

#include <alchemy/alchemy.h>
#include <alchemy/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Creation modes. */
#define EV_PRIO 0x1 /**< waiters by task priority */
#define EV_FIFO 0x0 /**< waiters in arrival order */

/* Wait modes. */
#define EV_ANY 0x1 /**< disjunctive: any bit of the mask */
#define EV_ALL 0x0 /**< conjunctive: every bit of the mask */

/** A descriptor; a zeroed, stale or forged one is refused. */
struct RT_EVENT {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
};

/** Xenomai's name of struct RT_EVENT. */
typedef struct RT_EVENT RT_EVENT;

/** What rt_event_inquire() reports. */
struct RT_EVENT_INFO {
	unsigned int value;	      /**< current flags */
	int nwaiters;		      /**< tasks waiting */
	char name[XNOBJECT_NAME_LEN]; /**< its name */
};

/** Xenomai's name of struct RT_EVENT_INFO. */
typedef struct RT_EVENT_INFO RT_EVENT_INFO;

#define rt_event_create alchemy_rt_event_create
#define rt_event_delete alchemy_rt_event_delete
#define rt_event_signal alchemy_rt_event_signal
#define rt_event_wait_timed alchemy_rt_event_wait_timed
#define rt_event_wait_until alchemy_rt_event_wait_until
#define rt_event_wait alchemy_rt_event_wait
#define rt_event_clear alchemy_rt_event_clear
#define rt_event_inquire alchemy_rt_event_inquire
#define rt_event_bind alchemy_rt_event_bind
#define rt_event_unbind alchemy_rt_event_unbind

/**
 * Create a group holding the flags @p ivalue.  @p name NULL or "": anonymous.
 * Errors: -EINVAL (NULL event, unknown mode bits, name too long),
 * -EEXIST (name in use), -ENOMEM, -EPERM (from an alarm handler; any Linux
 * thread may create).
 */
int rt_event_create(RT_EVENT *event, const char *name, unsigned int ivalue,
		    int mode);
/** Delete @p event; its waiters return -EIDRM.  Errors: -EINVAL. */
int rt_event_delete(RT_EVENT *event);
/**
 * Set the flags @p mask; every waiter now satisfied is readied (and may
 * preempt the caller).  Errors: -EINVAL.  Any context.
 */
int rt_event_signal(RT_EVENT *event, unsigned int mask);
/**
 * Wait until the flags satisfy @p mask per @p mode (EV_ALL or EV_ANY), or
 * @p abs_timeout (NULL: forever; {0, 0}: do not wait).  *@p mask_r (may be
 * NULL) receives the awaited flags that were set when the request was
 * satisfied (@p mask & flags); a zero @p mask returns at once with all the
 * current flags.  Errors: -EINVAL (bad descriptor, mode or timespec),
 * -EWOULDBLOCK (unsatisfied, non-blocking), -ETIMEDOUT, -EINTR, -EIDRM
 * (deleted meanwhile, even once satisfied if the caller had not run
 * again yet: the flags went with the group), -EPERM (would block
 * outside a task, or with the scheduler locked).
 */
int rt_event_wait_timed(RT_EVENT *event, unsigned int mask,
			unsigned int *mask_r, int mode,
			const struct timespec *abs_timeout);
/** As rt_event_wait_timed, until the date @p abs_timeout. */
int rt_event_wait_until(RT_EVENT *event, unsigned int mask,
			unsigned int *mask_r, int mode, RTIME abs_timeout);
/** As rt_event_wait_timed, for @p timeout ns (TM_INFINITE, TM_NONBLOCK). */
int rt_event_wait(RT_EVENT *event, unsigned int mask, unsigned int *mask_r,
		  int mode, RTIME timeout);
/**
 * Clear the flags @p mask; the previous flags go to *@p mask_r (may be NULL).
 * Errors: -EINVAL.  Any context.
 */
int rt_event_clear(RT_EVENT *event, unsigned int mask, unsigned int *mask_r);
/** Flags, waiters and name.  -EINVAL (bad descriptor, NULL info). */
int rt_event_inquire(RT_EVENT *event, RT_EVENT_INFO *info);
/**
 * Find the group named @p name, waiting up to @p timeout ns for its
 * creation.  Errors: -EINVAL (NULL event or name), -EWOULDBLOCK
 * (TM_NONBLOCK and absent), -ETIMEDOUT, -EINTR, -EPERM.
 */
int rt_event_bind(RT_EVENT *event, const char *name, RTIME timeout);
/** Forget the binding.  -EINVAL (NULL event). */
int rt_event_unbind(RT_EVENT *event);

#ifdef __cplusplus
}
#endif

#endif
