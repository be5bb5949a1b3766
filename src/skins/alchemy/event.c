/*
 * Alchemy event flag groups.
 *
 * Each blocked wait owns a record holding its mask, mode and a private
 * synch it sleeps on, so that a signal readies exactly the waiters it
 * satisfies and hands each one the flags that satisfied it (a later
 * rt_event_clear cannot take them back).  Records belong to the group,
 * never to the waiter's stack: a task deleted while it waits leaves
 * its record behind (its synch simply has no sleeper any more), and the
 * group frees every record when it is deleted.  Records are recycled
 * through a free list, stocked at creation: waits allocate (outside
 * the lock) only beyond EVENT_RECORDS concurrent waiters, so the usual
 * wait makes no system call that could switch the task to secondary
 * mode.
 */
#include "internal.h"

/* The Alchemy API is exported from libfusion.so (the tree builds hidden). */
#pragma GCC visibility push(default)
#include <alchemy/event.h>
#pragma GCC visibility pop

#include <stdlib.h>

#define EVENT_RECORDS 4

struct event_waiter {
	struct nk_list link; /* group's waiters (arrival order) or free list */
	struct nk_synch synch;
	unsigned int mask;
	int mode;
	unsigned int bits; /* flags that satisfied the wait */
};

struct alchemy_event {
	struct nk_list waiters;
	struct nk_list spare;
	unsigned int value;
};

static int event_lock(RT_EVENT *event, struct nk_instance **nk,
		      struct alchemy_event **evcb)
{
	int ret;

	if (event == NULL)
		return -EINVAL;
	ret = alchemy_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = alchemy_lookup(ALCHEMY_EVENT, event->handle, (void **)evcb);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

static bool event_satisfied(unsigned int value, unsigned int mask, int mode)
{
	unsigned int bits = value & mask;

	return (mode & EV_ANY) ? bits != 0 : bits == mask;
}

/* A wait record with its synch ready; lock NOT held. */
static struct event_waiter *event_record(struct nk_instance *nk)
{
	struct event_waiter *w = malloc(sizeof(*w));

	if (w && nk_synch_init(nk, &w->synch, NULL, NK_SYNCH_FIFO, 0)) {
		free(w);
		w = NULL;
	}
	return w;
}

/* Free an unpublished group; lock NOT held. */
static void event_discard(struct alchemy_event *evcb)
{
	while (!nk_list_empty(&evcb->spare)) {
		struct event_waiter *w = nk_list_first_entry(
		    &evcb->spare, struct event_waiter, link);

		nk_list_del(&w->link);
		free(w);
	}
	free(evcb);
}

int rt_event_create(RT_EVENT *event, const char *name, unsigned int ivalue,
		    int mode)
{
	struct alchemy_event *evcb;
	struct event_waiter *w;
	struct nk_instance *nk;
	int ret;

	if (event == NULL || (mode & ~EV_PRIO))
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	if (nk_thread_self(nk) == NULL)
		return -EPERM;
	evcb = malloc(sizeof(*evcb));
	if (evcb == NULL)
		return -ENOMEM;
	/*
	 * EV_PRIO needs no work: a signal readies every waiter it
	 * satisfies at once, and the scheduler runs them by priority
	 * (in arrival order within a level, as both modes queue).
	 */
	nk_list_init(&evcb->waiters);
	nk_list_init(&evcb->spare);
	evcb->value = ivalue;
	for (int i = 0; i < EVENT_RECORDS; i++) {
		w = event_record(nk);
		if (w == NULL) {
			event_discard(evcb);
			return -ENOMEM;
		}
		nk_list_add_before(&w->link, &evcb->spare);
	}
	nk_lock(nk);
	ret = alchemy_register(ALCHEMY_EVENT, name, evcb, &event->handle);
	nk_unlock(nk);
	if (ret)
		event_discard(evcb);
	return ret;
}

static void event_free_records(struct nk_list *list)
{
	while (!nk_list_empty(list)) {
		struct event_waiter *w =
		    nk_list_first_entry(list, struct event_waiter, link);

		nk_list_del(&w->link);
		nk_synch_destroy_locked(&w->synch);
		free(w);
	}
}

int rt_event_delete(RT_EVENT *event)
{
	struct alchemy_event *evcb;
	struct nk_instance *nk;
	int ret;

	ret = event_lock(event, &nk, &evcb);
	if (ret)
		return ret;
	alchemy_unregister(ALCHEMY_EVENT, event->handle);
	/* Sleepers wake with -EIDRM and leave their records to us. */
	event_free_records(&evcb->waiters);
	event_free_records(&evcb->spare);
	free(evcb);
	nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
}

/*
 * Sleep on record @w until a signal satisfies it.  Lock held.  The
 * group may be deleted between our wake-up and our return to the CPU:
 * a record still linked to its waiters was freed with it, a record a
 * signal already unlinked is ours to free.
 */
static int event_block(RT_EVENT *event, struct alchemy_event *evcb,
		       struct event_waiter *w, nk_time_t timeout,
		       enum nk_tmode tmode, unsigned int *bits)
{
	uintptr_t handle = event->handle;
	bool gone;
	void *now;
	int ret;

	nk_list_add_before(&w->link, &evcb->waiters);
	ret = nk_synch_sleep(&w->synch, timeout, tmode);
	gone = alchemy_lookup(ALCHEMY_EVENT, handle, &now) != 0 || now != evcb;
	if (ret == 0) {
		*bits = w->bits;
		if (gone) {
			nk_synch_destroy_locked(&w->synch);
			free(w);
			return 0;
		}
	} else if (gone) {
		return ret;
	} else {
		nk_list_del(&w->link);
	}
	nk_list_add_before(&w->link, &evcb->spare);
	return ret;
}

static int event_wait(RT_EVENT *event, unsigned int mask, unsigned int *mask_r,
		      int mode, nk_time_t timeout, enum nk_tmode tmode)
{
	struct event_waiter *w = NULL, *fresh = NULL;
	struct alchemy_event *evcb;
	struct nk_instance *nk;
	unsigned int bits = 0;
	int ret;

	if (mode & ~EV_ANY)
		return -EINVAL;
	for (;;) {
		ret = event_lock(event, &nk, &evcb);
		if (ret)
			break;
		if (fresh)
			nk_list_add_before(&fresh->link, &evcb->spare);
		fresh = NULL;
		if (mask == 0 || event_satisfied(evcb->value, mask, mode)) {
			/* A null mask asks for the whole group, at once. */
			bits = mask ? evcb->value & mask : evcb->value;
		} else if (alchemy_nonblock(timeout, tmode)) {
			ret = -EWOULDBLOCK;
		} else if (!nk_list_empty(&evcb->spare)) {
			w = nk_list_first_entry(&evcb->spare,
						struct event_waiter, link);
			nk_list_del(&w->link);
			w->mask = mask;
			w->mode = mode;
			ret =
			    event_block(event, evcb, w, timeout, tmode, &bits);
		} else {
			/* Allocate outside the lock, then start over. */
			nk_unlock(nk);
			fresh = event_record(nk);
			if (fresh == NULL)
				return -ENOMEM;
			continue;
		}
		nk_unlock(nk);
		break;
	}
	/* The group went away while we allocated. */
	free(fresh);
	if (ret == 0 && mask_r)
		*mask_r = bits;
	return ret;
}

int rt_event_wait_timed(RT_EVENT *event, unsigned int mask,
			unsigned int *mask_r, int mode,
			const struct timespec *abs_timeout)
{
	nk_time_t timeout;
	enum nk_tmode tmode;
	int ret;

	ret = alchemy_timespec(abs_timeout, &timeout, &tmode);
	return ret ? ret
		   : event_wait(event, mask, mask_r, mode, timeout, tmode);
}

int rt_event_wait_until(RT_EVENT *event, unsigned int mask,
			unsigned int *mask_r, int mode, RTIME abs_timeout)
{
	nk_time_t timeout;
	enum nk_tmode tmode;

	alchemy_abs(abs_timeout, &timeout, &tmode);
	return event_wait(event, mask, mask_r, mode, timeout, tmode);
}

int rt_event_wait(RT_EVENT *event, unsigned int mask, unsigned int *mask_r,
		  int mode, RTIME timeout)
{
	nk_time_t nkto;
	enum nk_tmode tmode;

	alchemy_rel(timeout, &nkto, &tmode);
	return event_wait(event, mask, mask_r, mode, nkto, tmode);
}

int rt_event_signal(RT_EVENT *event, unsigned int mask)
{
	struct alchemy_event *evcb;
	struct nk_list *pos, *tmp;
	struct nk_instance *nk;
	bool woken = false;
	int ret;

	ret = event_lock(event, &nk, &evcb);
	if (ret)
		return ret;
	evcb->value |= mask;
	nk_list_for_each_safe(pos, tmp, &evcb->waiters)
	{
		struct event_waiter *w =
		    nk_list_entry(pos, struct event_waiter, link);

		if (!event_satisfied(evcb->value, w->mask, w->mode))
			continue;
		/*
		 * No sleeper: it timed out or was unblocked (it unlinks
		 * itself when it runs), or its task was deleted.
		 */
		if (nk_synch_wakeup_one(&w->synch) == NULL)
			continue;
		w->bits = evcb->value & w->mask;
		nk_list_del(&w->link);
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

	ret = event_lock(event, &nk, &evcb);
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
	struct nk_list *pos;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = event_lock(event, &nk, &evcb);
	if (ret)
		return ret;
	info->value = evcb->value;
	info->nwaiters = 0;
	nk_list_for_each(pos, &evcb->waiters)
	{
		struct event_waiter *w =
		    nk_list_entry(pos, struct event_waiter, link);

		info->nwaiters += (int)nk_synch_nr_waiters(&w->synch);
	}
	alchemy_name(ALCHEMY_EVENT, event->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_event_bind(RT_EVENT *event, const char *name, RTIME timeout)
{
	struct nk_instance *nk;
	nk_time_t nkto;
	enum nk_tmode tmode;
	int ret;

	if (event == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	alchemy_rel(timeout, &nkto, &tmode);
	nk_lock(nk);
	ret = alchemy_bind(ALCHEMY_EVENT, name, &event->handle, nkto, tmode);
	nk_unlock(nk);
	return ret;
}

int rt_event_unbind(RT_EVENT *event)
{
	if (event == NULL)
		return -EINVAL;
	event->handle = 0;
	return 0;
}
