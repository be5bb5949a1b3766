/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy timer services (Xenomai 3 API).  The Alchemy clock is the
 * nucleus clock, one tick per nanosecond: CLOCK_MONOTONIC on live,
 * virtual time on sim.  The "TSC" is that same clock, so every
 * conversion here is the identity.
 */
#ifndef FUSION_ALCHEMY_TIMER_H
#define FUSION_ALCHEMY_TIMER_H

#include <alchemy/alchemy.h>
#include <boilerplate/wrappers.h>

/*
 * What Xenomai's <alchemy/timer.h> brings along through its copperplate
 * clock and boilerplate headers, which programs rely on without
 * including them.  Every Alchemy header includes this one.
 */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What rt_timer_inquire() reports. */
typedef struct rt_timer_info {
	RTIME period; /**< clock resolution in ns: 1 (tickless) */
	RTIME tsc;    /**< time stamp counter (= date) */
	RTIME date;   /**< monotonic date in ticks */
} RT_TIMER_INFO;

#define rt_timer_read alchemy_rt_timer_read
#define rt_timer_tsc alchemy_rt_timer_tsc
#define rt_timer_ns2tsc alchemy_rt_timer_ns2tsc
#define rt_timer_tsc2ns alchemy_rt_timer_tsc2ns
#define rt_timer_ns2ticks alchemy_rt_timer_ns2ticks
#define rt_timer_ticks2ns alchemy_rt_timer_ticks2ns
#define rt_timer_inquire alchemy_rt_timer_inquire
#define rt_timer_spin alchemy_rt_timer_spin

/** Current date in ticks (ns).  0 if the runtime cannot start. */
RTIME rt_timer_read(void);
/** Time stamp counter: the same clock as rt_timer_read(). */
RTIME rt_timer_tsc(void);
/** @{ */
/** Conversions between ns, TSC units and ticks: all ns, so the identity. */
SRTIME rt_timer_ns2tsc(SRTIME ns);
SRTIME rt_timer_tsc2ns(SRTIME tsc);
SRTIME rt_timer_ns2ticks(SRTIME ns);
SRTIME rt_timer_ticks2ns(SRTIME ticks);
/** @} */
/**
 * Fill @p info with the clock's resolution and date (Xenomai 3 returns
 * nothing: there is no error to report).  A NULL @p info, or a runtime
 * that cannot start, leaves nothing written.  Any context.
 */
void rt_timer_inquire(RT_TIMER_INFO *info);
/**
 * Burn @p ns of CPU in the calling task (preemptible; on sim, virtual time
 * runs meanwhile).  Outside a task, or on error, returns at once.
 */
void rt_timer_spin(RTIME ns);

#ifdef __cplusplus
}
#endif

#endif
