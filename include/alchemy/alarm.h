/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy alarms (Xenomai 3 API): watchdog timers running a user
 * handler once or periodically.
 *
 * The handler runs in timer (interrupt) context, with the nucleus lock
 * held, on RT CPU 0: it must not block.  It may call the non-blocking
 * services of every skin (rt_sem_v, rt_event_signal, rt_task_resume,
 * rt_alarm_start/stop, a TM_NONBLOCK send...); a blocking request from
 * there fails with -EPERM, and so do rt_alarm_create/delete.
 */
#ifndef FUSION_ALCHEMY_ALARM_H
#define FUSION_ALCHEMY_ALARM_H

#include <alchemy/alchemy.h>
#include <alchemy/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A descriptor; a zeroed, stale or forged one is refused. */
typedef struct RT_ALARM {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
} RT_ALARM;

/** What rt_alarm_inquire() reports. */
typedef struct RT_ALARM_INFO {
	unsigned long expiries;	      /**< handler runs so far */
	char name[XNOBJECT_NAME_LEN]; /**< its name */
	int active;		      /**< armed */
} RT_ALARM_INFO;

#define rt_alarm_create alchemy_rt_alarm_create
#define rt_alarm_delete alchemy_rt_alarm_delete
#define rt_alarm_start alchemy_rt_alarm_start
#define rt_alarm_stop alchemy_rt_alarm_stop
#define rt_alarm_inquire alchemy_rt_alarm_inquire

/**
 * Create a stopped alarm calling @p handler(@p arg) at each expiry.
 * Errors: -EINVAL (NULL alarm or handler, name too long), -EEXIST
 * (name in use), -ENOMEM, -EPERM (called from an alarm handler).
 */
int rt_alarm_create(RT_ALARM *alarm, const char *name,
		    void (*handler)(void *arg), void *arg);
/** Stop and delete.  -EINVAL (bad descriptor), -EPERM (from a handler). */
int rt_alarm_delete(RT_ALARM *alarm);
/**
 * Fire first @p value ns from now (0: at once), then every @p interval ns
 * (TM_INFINITE: once).  Re-arms an armed alarm.  An expiry past the
 * clock's range (INT64_MAX ns) never comes: the alarm is inactive from
 * then on.  Errors: -EINVAL (bad descriptor, @p value or @p interval beyond
 * INT64_MAX - 1).  Any context.
 */
int rt_alarm_start(RT_ALARM *alarm, RTIME value, RTIME interval);
/** Disarm (no error when not armed).  -EINVAL.  Any context. */
int rt_alarm_stop(RT_ALARM *alarm);
/** Status of @p alarm into @p info.  -EINVAL (bad descriptor, NULL info). */
int rt_alarm_inquire(RT_ALARM *alarm, RT_ALARM_INFO *info);

#ifdef __cplusplus
}
#endif

#endif
