/* SPDX-License-Identifier: MIT */
/*
 * Alchemy event flag groups.
 *
 * Each blocked wait carries its mask and mode in a wait context
 * (skin.h), so that a signal readies exactly the waiters it satisfies
 * and hands each one the flags that satisfied it (a later
 * rt_event_clear cannot take them back).  A signal readies every waiter
 * it satisfies at once and the scheduler runs them by priority, so
 * EV_PRIO changes only the order of the wait queue.
 *
 * As in Xenomai, a wait ends with -EIDRM when the group is deleted
 * before the waiter runs again, even if a signal had satisfied it: the
 * flags went with the group.
 */
#include "internal.h"

#include <alchemy/event.h>

#include <stdlib.h>

struct event_wait {
	unsigned int mask;
	int mode;
	unsigned int bits; /* flags that satisfied the wait */
};

struct alchemy_event {
	struct nk_synch synch; /* waiters, with a struct event_wait */
	unsigned int value;
	int mode;
};

void alchemy_event_describe(const void *object, struct nk_object_info *info)
{
	const struct alchemy_event *ecb = object;

	info->count = (long)ecb->value;
	info->waiters = &ecb->synch;
}

static bool event_satisfied(unsigned int value, unsigned int mask, int mode)
{
	unsigned int bits = value & mask;

	return (mode & EV_ANY) ? bits != 0 : bits == mask;
}

static int event_setup(struct nk_instance *nk, void *object, const char *wname)
{
	struct alchemy_event *evcb = object;

	return skin_wait_init(nk, &evcb->synch, wname, evcb->mode & EV_PRIO);
}

/* Also what a failed creation releases.  Lock held or not. */
void alchemy_event_reclaim(struct nk_instance *nk, void *object)
{
	struct alchemy_event *evcb = object;

	skin_wait_destroy(nk, &evcb->synch);
	nk_free(nk, evcb);
}

int rt_event_create(RT_EVENT *event, const char *name, unsigned int ivalue,
		    int mode)
{
	struct alchemy_event *evcb;
	struct nk_instance *nk;
	int ret;

	if (event == NULL || (mode & ~EV_PRIO))
		return -EINVAL;
	ret = alchemy_waitable_alloc(name, sizeof(*evcb), &nk, (void **)&evcb);
	if (ret)
		return ret;
	evcb->value = ivalue;
	evcb->mode = mode;
	return skin_create(alchemy(), ALCHEMY_EVENT, name, evcb, event_setup,
			   alchemy_event_reclaim, &event->handle);
}

int rt_event_delete(RT_EVENT *event)
{
	return alchemy_delete(ALCHEMY_EVENT, alchemy_handle(event), NULL);
}

static int event_wait(RT_EVENT *event, unsigned int mask, unsigned int *mask_r,
		      int mode, struct skin_timeout to)
{
	struct event_wait w = {.mask = mask, .mode = mode};
	struct alchemy_event *evcb;
	struct nk_instance *nk;
	int ret;

	if (to.error)
		return to.error;
	if (mode & ~EV_ANY)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_EVENT, alchemy_handle(event), &nk,
			  (void **)&evcb);
	if (ret)
		return ret;
	if (mask == 0 || event_satisfied(evcb->value, mask, mode)) {
		/* A null mask asks for the whole group, at once. */
		w.bits = mask ? evcb->value & mask : evcb->value;
	} else if (skin_nonblocking(to)) {
		ret = -EWOULDBLOCK;
	} else {
		ret = skin_wait_sleep_locked(alchemy(), ALCHEMY_EVENT,
					     event->handle, evcb, &evcb->synch,
					     &w, sizeof(w), to);
	}
	nk_unlock(nk);
	if (ret == 0 && mask_r)
		*mask_r = w.bits;
	return ret;
}

int rt_event_wait_timed(RT_EVENT *event, unsigned int mask,
			unsigned int *mask_r, int mode,
			const struct timespec *abs_timeout)
{
	return event_wait(event, mask, mask_r, mode,
			  skin_timespec(abs_timeout));
}

int rt_event_wait_until(RT_EVENT *event, unsigned int mask,
			unsigned int *mask_r, int mode, RTIME abs_timeout)
{
	return event_wait(event, mask, mask_r, mode, alchemy_abs(abs_timeout));
}

int rt_event_wait(RT_EVENT *event, unsigned int mask, unsigned int *mask_r,
		  int mode, RTIME timeout)
{
	return event_wait(event, mask, mask_r, mode, alchemy_rel(timeout));
}

/* Hand a waiter the flags that satisfy it, if they do. */
static bool event_serve(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct alchemy_event *evcb = arg;
	struct event_wait *w = ctx;

	(void)waiter;
	if (!event_satisfied(evcb->value, w->mask, w->mode))
		return false;
	w->bits = evcb->value & w->mask;
	return true;
}

int rt_event_signal(RT_EVENT *event, unsigned int mask)
{
	struct alchemy_event *evcb;
	struct nk_instance *nk;
	int ret;

	ret = alchemy_get(ALCHEMY_EVENT, alchemy_handle(event), &nk,
			  (void **)&evcb);
	if (ret)
		return ret;
	evcb->value |= mask;
	if (skin_wait_serve_locked(&evcb->synch, event_serve, evcb, true))
		nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
}

int rt_event_clear(RT_EVENT *event, unsigned int mask, unsigned int *mask_r)
{
	struct alchemy_event *evcb;
	struct nk_instance *nk;
	int ret;

	ret = alchemy_get(ALCHEMY_EVENT, alchemy_handle(event), &nk,
			  (void **)&evcb);
	if (ret)
		return ret;
	if (mask_r)
		*mask_r = evcb->value;
	evcb->value &= ~mask;
	nk_unlock(nk);
	return 0;
}

int rt_event_inquire(RT_EVENT *event, RT_EVENT_INFO *info)
{
	struct alchemy_event *evcb;
	struct nk_instance *nk;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_EVENT, alchemy_handle(event), &nk,
			  (void **)&evcb);
	if (ret)
		return ret;
	info->value = evcb->value;
	info->nwaiters = (int)nk_synch_nr_waiters(&evcb->synch);
	alchemy_name(event->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_event_bind(RT_EVENT *event, const char *name, RTIME timeout)
{
	return alchemy_bind(ALCHEMY_EVENT, alchemy_handle(event), name,
			    timeout);
}

int rt_event_unbind(RT_EVENT *event)
{
	return skin_unbind(alchemy_handle(event));
}
