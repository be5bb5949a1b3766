/* SPDX-License-Identifier: MIT */
/*
 * pSOS semaphores: nucleus counting semaphores.  A V with waiters hands
 * its token straight to the first one (FIFO or by priority), so a woken
 * P never touches the semaphore again.
 */
#include "internal.h"

struct psos_sem {
	struct psos_object obj;
	unsigned long count0; /* from sm_create() */
	unsigned long flags;
	struct nk_sem sem;
};

void psos_sem_describe(const void *object, struct nk_object_info *info)
{
	const struct psos_sem *s = object;

	/* pSOS names are the skin's own (not unique). */
	info->name = s->obj.name;
	skin_describe_sem(&s->sem, info);
}

void psos_sem_reclaim(struct nk_instance *nk, void *object)
{
	struct psos_sem *s = object;

	/* The waiters run once the caller reschedules, the semaphore
	 * gone from the registry. */
	nk_synch_destroy_locked(&s->sem.synch);
	nk_free(nk, s);
}

static int sem_setup(struct nk_instance *nk, void *object, const char *wname)
{
	struct psos_sem *s = object;

	return nk_sem_init(nk, &s->sem, wname, s->count0, 0,
			   (s->flags & SM_PRIOR) ? NK_SYNCH_PRIO
						 : NK_SYNCH_FIFO);
}

unsigned long sm_create(const char *name, unsigned long count,
			unsigned long flags, unsigned long *smid)
{
	const struct psos_sem init = {.count0 = count, .flags = flags};

	return psos_create(PSOS_SEM, name, &init, sizeof(init), sem_setup,
			   ERR_NOSCB, smid);
}

static unsigned long sem_check(void *object, bool *keep)
{
	struct psos_sem *s = object;

	(void)keep;
	return nk_synch_nr_waiters(&s->sem.synch) ? ERR_TATSDEL : SUCCESS;
}

unsigned long sm_delete(unsigned long smid)
{
	return psos_delete(PSOS_SEM, smid, sem_check);
}

unsigned long sm_ident(const char *name, unsigned long node,
		       unsigned long *smid)
{
	return psos_ident(PSOS_SEM, 0, name, node, smid);
}

unsigned long sm_p(unsigned long smid, unsigned long flags,
		   unsigned long timeout)
{
	struct skin_timeout to = skin_infinite();
	struct nk_instance *nk;
	struct psos_task *self = NULL;
	struct psos_sem *s;
	unsigned long ret;
	int err;

	for (;;) {
		ret = psos_get(PSOS_SEM, smid, &nk, (void **)&s);
		if (ret)
			break;
		err = nk_sem_take_locked(&s->sem, 0, NK_RELATIVE);
		if (err == -EWOULDBLOCK && !(flags & SM_NOWAIT)) {
			if (psos_wait_prepare(nk, &self, &to, timeout)) {
				nk_unlock(nk);
				continue;
			}
			err = nk_sem_take_locked(&s->sem, to.value, to.mode);
		}
		nk_unlock(nk);
		ret = err == -EWOULDBLOCK ? ERR_NOSEM
					  : psos_wait_error(err, ERR_SKILLD);
		break;
	}
	psos_wait_end(nk, self);
	return ret;
}

/* A woken waiter more urgent than the caller runs at once. */
static unsigned long sem_give(struct nk_instance *nk, void *object,
			      unsigned long arg)
{
	struct psos_sem *s = object;

	(void)nk, (void)arg;
	return psos_error(nk_sem_give_locked(&s->sem));
}

unsigned long sm_v(unsigned long smid)
{
	return psos_call(PSOS_SEM, smid, sem_give, 0);
}
