/*
 * Alchemy event flag groups.
 *
 * Each blocked wait has a record (wait.h) holding its mask and mode, so
 * that a signal readies exactly the waiters it satisfies and hands each
 * one the flags that satisfied it (a later rt_event_clear cannot take
 * them back).  EV_PRIO needs no work: a signal readies every waiter it
 * satisfies at once, and the scheduler runs them by priority (in
 * arrival order within a level, as both modes queue).
 *
 * As in Xenomai, a wait ends with -EIDRM when the group is deleted
 * before the waiter runs again, even if a signal had satisfied it: the
 * flags went with the group.
 */
#include "wait.h"

#include <alchemy/event.h>

#include <stdlib.h>

struct event_wait {
	struct alchemy_wait wait;
	unsigned int mask;
	int mode;
	unsigned int bits; /* flags that satisfied the wait */
};

struct alchemy_event {
	struct alchemy_waitable wa; /* first: see wait.h */
	struct nk_list waiters;	    /* struct event_wait, arrival order */
	unsigned int value;
};

static bool event_satisfied(unsigned int value, unsigned int mask, int mode)
{
	unsigned int bits = value & mask;

	return (mode & EV_ANY) ? bits != 0 : bits == mask;
}

static int event_destroy(struct nk_instance *nk, void *object)
{
	struct alchemy_event *evcb = object;

	alchemy_wait_drop(nk, &evcb->waiters);
	alchemy_wait_drop(nk, &evcb->wa.spare);
	free(evcb);
	return 0;
}

int rt_event_create(RT_EVENT *event, const char *name, unsigned int ivalue,
		    int mode)
{
	struct alchemy_event *evcb;
	struct nk_instance *nk;
	int ret;

	if (event == NULL || (mode & ~EV_PRIO))
		return -EINVAL;
	ret = alchemy_enter_thread(&nk);
	if (ret)
		return ret;
	evcb = malloc(sizeof(*evcb));
	if (evcb == NULL)
		return -ENOMEM;
	nk_list_init(&evcb->waiters);
	evcb->value = ivalue;
	ret = alchemy_waitable_init(nk, &evcb->wa, ALCHEMY_EVENT, name,
				    sizeof(struct event_wait));
	if (ret == 0)
		ret = alchemy_publish(nk, ALCHEMY_EVENT, name, evcb,
				      &event->handle);
	if (ret)
		event_destroy(nk, evcb);
	return ret;
}

int rt_event_delete(RT_EVENT *event)
{
	return alchemy_delete(ALCHEMY_EVENT, alchemy_handle(event),
			      event_destroy);
}

static int event_wait(RT_EVENT *event, unsigned int mask, unsigned int *mask_r,
		      int mode, struct alchemy_timeout to)
{
	struct alchemy_event *evcb;
	struct alchemy_wait *aw;
	struct event_wait *w;
	struct nk_instance *nk;
	unsigned int bits = 0;
	int ret;

	if (to.error)
		return to.error;
	if (mode & ~EV_ANY)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_EVENT, alchemy_handle(event), &nk,
			  (void **)&evcb);
	if (ret)
		return ret;
	for (;;) {
		if (mask == 0 || event_satisfied(evcb->value, mask, mode)) {
			/* A null mask asks for the whole group, at once. */
			bits = mask ? evcb->value & mask : evcb->value;
			break;
		}
		if (alchemy_nonblock(to)) {
			ret = -EWOULDBLOCK;
			break;
		}
		aw = alchemy_wait_queue(nk, &evcb->wa, &evcb->waiters, false);
		if (aw == NULL) {
			ret = alchemy_wait_restock(
			    ALCHEMY_EVENT, &event->handle, &nk, (void **)&evcb);
			if (ret)
				return ret;
			continue;
		}
		w = nk_container_of(aw, struct event_wait, wait);
		w->mask = mask;
		w->mode = mode;
		ret = alchemy_wait_sleep(ALCHEMY_EVENT, event->handle, evcb, aw,
					 to);
		if (ret == 0)
			bits = w->bits;
		break;
	}
	nk_unlock(nk);
	if (ret == 0 && mask_r)
		*mask_r = bits;
	return ret;
}

int rt_event_wait_timed(RT_EVENT *event, unsigned int mask,
			unsigned int *mask_r, int mode,
			const struct timespec *abs_timeout)
{
	return event_wait(event, mask, mask_r, mode,
			  alchemy_timespec(abs_timeout));
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

int rt_event_signal(RT_EVENT *event, unsigned int mask)
{
	struct alchemy_event *evcb;
	struct nk_list *pos;
	struct nk_instance *nk;
	bool woken = false;
	int ret;

	ret = alchemy_get(ALCHEMY_EVENT, alchemy_handle(event), &nk,
			  (void **)&evcb);
	if (ret)
		return ret;
	evcb->value |= mask;
	nk_list_for_each(pos, &evcb->waiters)
	{
		struct event_wait *w =
		    nk_list_entry(pos, struct event_wait, wait.link);

		/* Served already, timed out, unblocked, or its task gone. */
		if (!alchemy_wait_asleep(&w->wait) ||
		    !event_satisfied(evcb->value, w->mask, w->mode))
			continue;
		w->bits = evcb->value & w->mask;
		nk_synch_wakeup_one(&w->wait.synch);
		woken = true;
	}
	if (woken)
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
	info->nwaiters = alchemy_wait_count(&evcb->waiters);
	alchemy_name(ALCHEMY_EVENT, event->handle, info->name);
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
	return alchemy_unbind(alchemy_handle(event));
}
