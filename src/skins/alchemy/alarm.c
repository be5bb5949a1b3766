/* SPDX-License-Identifier: MIT */
/*
 * Alchemy alarms over nucleus timers.  The handler runs in the timer's
 * interrupt context with the nucleus lock held (skin services it calls
 * take the lock again, which the timer contract allows for non-blocking
 * services).
 */
#include "internal.h"

#include <alchemy/alarm.h>

#include <stdlib.h>
#include <string.h>

struct alchemy_alarm {
	uintptr_t handle;
	struct nk_timer timer;
	void (*handler)(void *arg);
	void *arg;
	unsigned long expiries;
};

/* count: its expiries so far (its next one is in the timers' view). */
void alchemy_alarm_describe(const void *object, struct nk_object_info *info)
{
	info->count = (long)((const struct alchemy_alarm *)object)->expiries;
}

static void alarm_fire(struct nk_timer *timer)
{
	struct alchemy_alarm *a = timer->cookie;

	nk_journal_obj(&a->expiries);
	a->expiries++;
	/* rt_alarm_delete() refuses to run in here, so @a stays valid. */
	a->handler(a->arg);
}

int rt_alarm_create(RT_ALARM *alarm, const char *name,
		    void (*handler)(void *arg), void *arg)
{
	struct nk_instance *nk;
	struct alchemy_alarm *a;
	int ret;

	if (alarm == NULL || handler == NULL ||
	    (name && strlen(name) >= XNOBJECT_NAME_LEN))
		return -EINVAL;
	/* Refused before allocating: a handler runs in timer context. */
	ret = alchemy_enter_object(&nk);
	if (ret)
		return ret;
	a = nk_alloc_local(nk, sizeof(*a));
	if (a == NULL)
		return -ENOMEM;
	a->handler = handler;
	a->arg = arg;
	ret = nk_timer_init(nk, &a->timer, name && name[0] ? name : "alarm", 0,
			    alarm_fire, a);
	if (ret) {
		nk_free_local(nk, a);
		return ret;
	}
	ret = alchemy_publish(ALCHEMY_ALARM, name, a, &a->handle);
	if (ret) {
		alchemy_alarm_reclaim(nk, a);
		return ret;
	}
	alarm->handle = a->handle;
	return 0;
}

static int alarm_in_handler(struct nk_instance *nk, void *object)
{
	(void)object;
	return nk_in_interrupt(nk) ? -EPERM : 0;
}

void alchemy_alarm_reclaim(struct nk_instance *nk, void *object)
{
	struct alchemy_alarm *a = object;

	nk_timer_destroy(&a->timer);
	nk_free_local(nk, a);
}

int rt_alarm_delete(RT_ALARM *alarm)
{
	return alchemy_delete(ALCHEMY_ALARM, alchemy_handle(alarm),
			      alarm_in_handler);
}

int rt_alarm_start(RT_ALARM *alarm, RTIME value, RTIME interval)
{
	struct nk_instance *nk;
	struct alchemy_alarm *a;
	int ret;

	if (value > (RTIME)INT64_MAX - 1 || interval > (RTIME)INT64_MAX - 1)
		return -EINVAL;
	ret =
	    alchemy_get(ALCHEMY_ALARM, alchemy_handle(alarm), &nk, (void **)&a);
	if (ret)
		return ret;
	ret = nk_timer_start_locked(&a->timer, (nk_time_t)value,
				    (nk_time_t)interval, NK_RELATIVE);
	nk_unlock(nk);
	return ret;
}

int rt_alarm_stop(RT_ALARM *alarm)
{
	struct nk_instance *nk;
	struct alchemy_alarm *a;
	int ret;

	ret =
	    alchemy_get(ALCHEMY_ALARM, alchemy_handle(alarm), &nk, (void **)&a);
	if (ret)
		return ret;
	nk_timer_stop_locked(&a->timer);
	nk_unlock(nk);
	return 0;
}

int rt_alarm_inquire(RT_ALARM *alarm, RT_ALARM_INFO *info)
{
	struct nk_instance *nk;
	struct alchemy_alarm *a;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret =
	    alchemy_get(ALCHEMY_ALARM, alchemy_handle(alarm), &nk, (void **)&a);
	if (ret)
		return ret;
	memset(info, 0, sizeof(*info));
	alchemy_name(a->handle, info->name);
	info->expiries = a->expiries;
	info->active = nk_timer_date(&a->timer) != NK_INFINITE;
	nk_unlock(nk);
	return 0;
}
