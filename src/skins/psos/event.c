/* SPDX-License-Identifier: MIT */
/*
 * pSOS events: 32 bits pending per task, received by the task itself.
 * A waiting task carries its request (mask, EV_ANY/EV_ALL) in a wait
 * context; a send that satisfies it hands it the events, cleared at
 * once, so that a later send cannot be taken for them.
 */
#include "task_internal.h"

struct ev_wait {
	unsigned long mask;
	unsigned long flags;
	unsigned long got;
};

/* Take from @t what satisfies @w, if anything does.  Lock held. */
static bool ev_take(struct psos_task *t, struct ev_wait *w)
{
	unsigned long bits = t->events & w->mask;

	if ((w->flags & EV_ANY) ? bits == 0 : bits != w->mask)
		return false;
	nk_journal_obj(&t->events);
	nk_journal_obj(w);
	t->events &= ~bits;
	w->got = bits;
	return true;
}

static bool ev_serve(struct nk_thread *waiter, void *ctx, void *arg)
{
	(void)waiter;
	return ev_take(arg, ctx);
}

void psos_events_post(struct psos_task *t, unsigned long events)
{
	nk_journal_obj(&t->events);
	t->events |= events;
	skin_wait_serve_locked(&t->evwait, ev_serve, t, false);
}

static unsigned long ev_post(struct nk_instance *nk, void *t,
			     unsigned long events)
{
	psos_events_post(t, events);
	nk_sched_run(nk);
	return SUCCESS;
}

unsigned long ev_send(unsigned long tid, unsigned long events)
{
	return psos_call(PSOS_TASK, tid, ev_post, events);
}

unsigned long ev_receive(unsigned long events, unsigned long flags,
			 unsigned long timeout, unsigned long *events_r)
{
	struct ev_wait w = {.mask = events, .flags = flags};
	struct skin_timeout to;
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *self;
	unsigned long ret;
	int err = 0;

	ret = psos_enter_self(&nk, &st, &self, ERR_SSFN);
	if (ret)
		return ret;
	to = psos_timeout(st, timeout);
	for (;;) {
		nk_lock(nk);
		if (events == 0) {
			/* Nothing asked: what is pending, left there. */
			w.got = self->events;
		} else if (!ev_take(self, &w)) {
			if (flags & EV_NOWAIT) {
				err = -EWOULDBLOCK;
			} else if (psos_wait_begin(nk, self)) {
				nk_unlock(nk);
				continue;
			} else {
				err = skin_wait_sleep_locked(
				    &st->skin, PSOS_TASK, self->handle, self,
				    &self->evwait, &w, sizeof(w), to);
			}
		}
		nk_unlock(nk);
		break;
	}
	psos_wait_end(nk, self);
	if (err == -EWOULDBLOCK)
		return ERR_NOEVS;
	if (err == 0 && events_r)
		*events_r = w.got;
	return psos_error(err);
}
