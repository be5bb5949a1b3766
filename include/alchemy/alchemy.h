/* SPDX-License-Identifier: MIT */
/** @file
 * Definitions shared by every Alchemy header: time types, timeout
 * constants, and the link names.
 *
 * Alchemy functions link as alchemy_<name> (the headers map each
 * rt_<name> onto it) so that another skin using the same C names (RTAI
 * has rt_task_wait_period too) can live in the same program, each
 * translation unit seeing the names of the headers it includes.
 *
 * The Alchemy clock counts nanoseconds (one tick = 1 ns) on the nucleus
 * clock: CLOCK_MONOTONIC on live, virtual time on sim.  The
 * struct timespec of the _timed services is a date on that clock.
 *
 * Calling context, where a call does not name its own: any (a task,
 * main, a plain pthread, an alarm handler), except that a call that
 * would wait returns -EPERM where waiting is not allowed: outside a
 * task, in an alarm handler, with the scheduler locked (T_LOCK).
 */
#ifndef FUSION_ALCHEMY_ALCHEMY_H
#define FUSION_ALCHEMY_ALCHEMY_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned long long RTIME; /**< a date or a delay, in ticks (ns) */
typedef long long SRTIME;	  /**< a signed delay, in ticks (ns) */

#define TM_INFINITE 0		   /**< timeout: wait for ever */
#define TM_NOW 0		   /**< date: now (rt_alarm_start...) */
#define TM_NONBLOCK ((RTIME)-1ULL) /**< timeout: do not wait */

/** Longest object name, with its terminating NUL. */
#define XNOBJECT_NAME_LEN 32

#ifdef __cplusplus
}
#endif

#endif
