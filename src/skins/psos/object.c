/* SPDX-License-Identifier: MIT */
/*
 * The pSOS skin on the common object layer: its descriptor, its one
 * translation of nucleus codes, and what every service shares: IDs,
 * deletion that tells the deleter about waiters, names and ident.
 */
#include "task_internal.h"

#include <string.h>

/* A 100 Hz clock and 10-tick slices, as pSOS's sample configurations. */
#define PSOS_TICKS2SEC 100
#define PSOS_TICKS2SLICE 10

unsigned long psos_error(int err)
{
	switch (err) {
	case 0:
		return SUCCESS;
	case -ETIMEDOUT:
		return ERR_TIMEOUT;
	case -EIDRM:
		return ERR_OBJDEL;
	case -ENOSPC:
		return ERR_OBJTFULL;
	case -ENOMEM:
		return ERR_NOTCB;
	default:
		/* -EPERM: a wait where none may be (not a task, a timer
		 * handler); pSOS refuses such calls as illegal services. */
		return err > 0 ? (unsigned long)err : ERR_SSFN;
	}
}

static int psos_skin_error(int err)
{
	return (int)psos_error(err);
}

int psos_state_init(struct nk_instance *nk, void *state)
{
	struct psos_state *st = state;

	st->ticks2sec = PSOS_TICKS2SEC;
	st->ticks2slice = PSOS_TICKS2SLICE;
	nk_list_init(&st->cal_timers);
	return nk_synch_init(nk, &st->cal_sleepers, "calendar", NK_SYNCH_FIFO,
			     0);
}

void psos_state_fini(struct nk_instance *nk, void *state)
{
	struct psos_state *st = state;

	skin_fini(nk, state);
	nk_synch_destroy_locked(&st->cal_sleepers);
}

/* Tasks: TCBs are freed by their thread's exit hook. */
static const struct skin_class psos_classes[PSOS_NR_CLASSES] = {
    [PSOS_TASK] = {"task"},
    [PSOS_SEM] = {"sem", .reclaim = psos_sem_reclaim,
		  .describe = psos_sem_describe},
    [PSOS_QUEUE] = {"queue", .reclaim = psos_queue_reclaim,
		    .describe = psos_queue_describe},
    [PSOS_TIMER] = {"timer", .bad_handle = ERR_BADTMID,
		    .reclaim = psos_timer_reclaim,
		    .describe = psos_timer_describe},
    [PSOS_REGION] = {"region", .reclaim = psos_region_reclaim,
		     .describe = psos_region_describe},
    [PSOS_PARTITION] = {"partition", .reclaim = psos_partition_reclaim,
			.describe = psos_partition_describe},
};

const struct skin_desc psos_skin = {
    .pers =
	{
	    .name = "psos",
	    .state_size = sizeof(struct psos_state),
	    .thread_size = sizeof(struct psos_ext),
	    .init = psos_state_init,
	    .attach = psos_task_attach,
	    .exit = psos_task_exit,
	    .tcb = psos_task_tcb,
	    .fini = psos_state_fini,
	    .leave = skin_leave,
	    .member_gone = skin_member_gone,
	    .objects = skin_objects,
	},
    .classes = psos_classes,
    .nr_classes = PSOS_NR_CLASSES,
    .tick = 1000000000 / PSOS_TICKS2SEC,
    .bad_handle = ERR_OBJID,
    .error = psos_skin_error,
};

unsigned long psos_configure(const struct psos_config *config)
{
	struct nk_instance *nk;
	struct psos_state *st;
	unsigned long ret;

	if (config == NULL)
		return ERR_OBJID;
	/* Calendar ticks since year 0 must fit 63 bits: at most 1 MHz. */
	if (config->kc_ticks2sec == 0 || config->kc_ticks2sec > 1000000 ||
	    config->kc_ticks2slice == 0)
		return ERR_ILLTICKS;
	ret = psos_enter(&nk, &st);
	if (ret)
		return ret;
	nk_lock(nk);
	nk_journal_block(st);
	if (config->kc_ticks2sec != st->ticks2sec) {
		nk_tbase_set_period(&st->skin.tbase,
				    1000000000 /
					(nk_time_t)config->kc_ticks2sec);
		/* The calendar counted ticks of the old rate. */
		st->time_set = false;
	}
	st->ticks2sec = config->kc_ticks2sec;
	st->ticks2slice = config->kc_ticks2slice;
	st->long_names = config->long_names != 0;
	nk_unlock(nk);
	return SUCCESS;
}

unsigned long psos_get(unsigned int cls, unsigned long id,
		       struct nk_instance **nk, void **object)
{
	struct skin *sk = skin_entered(&psos_skin, nk);
	unsigned long ret;
	void *other;

	/* skin_get(), with the ASR delivery point on the same state. */
	if (__builtin_expect(sk == NULL, 0)) {
		ret = (unsigned long)skin_enter_slow(&psos_skin, nk, &sk);
		if (ret)
			return ret;
	} else if (__atomic_load_n(&((struct psos_state *)sk)->asr_pending,
				   __ATOMIC_RELAXED)) {
		psos_asr_deliver(*nk);
	}
	nk_lock(*nk);
	if (skin_lookup_locked(sk, cls, id, object) == 0)
		return SUCCESS;
	/* Only on the error path: is it an ID of another class? */
	ret = (unsigned long)skin_bad_handle(&psos_skin, cls);
	for (unsigned int c = 0; c < PSOS_NR_CLASSES; c++)
		if (c != cls && skin_lookup_locked(sk, c, id, &other) == 0)
			ret = ERR_OBJTYPE;
	nk_unlock(*nk);
	return ret;
}

unsigned long psos_call(unsigned int cls, unsigned long id, psos_op_fn op,
			unsigned long arg)
{
	struct nk_instance *nk;
	void *object;
	unsigned long ret;

	ret = psos_get(cls, id, &nk, &object);
	if (ret)
		return ret;
	ret = op(nk, object, arg);
	nk_unlock(nk);
	return ret;
}

unsigned long psos_delete(unsigned int cls, unsigned long id,
			  unsigned long (*check)(void *object, bool *keep))
{
	struct nk_instance *nk;
	void *object;
	bool keep = false;
	unsigned long ret;

	ret = psos_get(cls, id, &nk, &object);
	if (ret)
		return ret;
	ret = check(object, &keep);
	if (!keep) {
		skin_unregister_locked(skin_state(&psos_skin), id);
		psos_skin.classes[cls].reclaim(nk, object);
		nk_sched_run(nk);
	}
	nk_unlock(nk);
	return ret;
}

void psos_name(struct psos_state *st, char *dst, const char *name)
{
	size_t max = st->long_names ? PSOS_NAME_MAX - 1 : PSOS_SHORT_NAME;
	size_t n = 0;

	while (name && n < max && name[n])
		n++;
	memcpy(dst, name ? name : "", n);
	dst[n] = '\0';
}

unsigned long psos_ident(unsigned int cls, unsigned int kind, const char *name,
			 unsigned long node, unsigned long *id)
{
	char want[PSOS_NAME_MAX];
	struct skin_entry e;
	struct nk_instance *nk;
	struct psos_state *st;
	uint32_t cursor = 0;
	unsigned long ret;

	if (id == NULL || name == NULL)
		return ERR_OBJID;
	if (node != 0)
		return ERR_NODENO;
	ret = psos_enter(&nk, &st);
	if (ret)
		return ret;
	psos_name(st, want, name);
	ret = ERR_OBJNF;
	nk_lock(nk);
	while (ret && skin_list_locked(&st->skin, cls, &cursor, &e) == 0) {
		struct psos_object *o = e.object;

		if (o->kind == kind && strcmp(o->name, want) == 0) {
			*id = e.handle;
			ret = SUCCESS;
		}
	}
	nk_unlock(nk);
	return ret;
}

unsigned long psos_create(unsigned int cls, const char *name, const void *init,
			  size_t size,
			  int (*setup)(struct nk_instance *nk, void *object,
				       const char *wname),
			  unsigned long nomem, unsigned long *id)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_object *o;
	uintptr_t handle;
	unsigned long ret;
	int err;

	if (id == NULL)
		return ERR_OBJID;
	ret = psos_enter(&nk, &st);
	if (ret)
		return ret;
	o = nk_alloc(nk, size);
	if (o == NULL)
		return nomem;
	memcpy(o, init, size);
	psos_name(st, o->name, name);
	/* Its wait queues carry its own name, not the anonymous entry's. */
	err = setup(nk, o, skin_synch_name(&st->skin, cls, o->name));
	if (err == 0)
		err = skin_publish(&st->skin, cls, NULL, o, &handle);
	if (err) {
		nk_lock(nk);
		psos_skin.classes[cls].reclaim(nk, o);
		nk_unlock(nk);
		if (err > 0)
			return (unsigned long)err;
		return err == -ENOSPC ? ERR_OBJTFULL : nomem;
	}
	*id = handle;
	return SUCCESS;
}
