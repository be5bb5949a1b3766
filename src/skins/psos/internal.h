/* SPDX-License-Identifier: MIT */
/*
 * pSOS skin internals: the skin on the common object layer
 * (skins/common/skin.h), its per-instance state and the helpers every
 * service shares.
 *
 * An ID is the layer's handle (class tag and registry handle), so a
 * stale, forged or zeroed one is refused before anything is followed.
 * pSOS names need not be unique, so objects are registered anonymously
 * and carry their name in their control block (struct psos_object):
 * *_ident() walks the class in the shared registry.  Everything is
 * serialised by the nucleus lock.
 */
#ifndef PSOS_INTERNAL_H
#define PSOS_INTERNAL_H

#include "skins/common/skin.h"

#include <psos/psos.h>
#include <fusion/fusion.h>

#include <stdbool.h>

#pragma GCC visibility push(hidden)

enum psos_class_id {
	PSOS_TASK,
	PSOS_SEM,
	PSOS_QUEUE,
	PSOS_TIMER,
	PSOS_REGION,
	PSOS_PARTITION,
	PSOS_NR_CLASSES
};

#define PSOS_NAME_MAX 32
#define PSOS_SHORT_NAME 4
#define PSOS_OBJ_VARQ 0x1 /* a queue of the q_v* family */

/* The head of every control block: what *_ident() compares. */
struct psos_object {
	char name[PSOS_NAME_MAX];
	unsigned int kind; /* PSOS_OBJ_* */
};

/* The skin's state in an instance.  Lock held for every field. */
struct psos_state {
	struct skin skin;
	unsigned long ticks2sec;
	unsigned long ticks2slice;
	bool long_names;
	/* The calendar: tm_set() was called, and calendar ticks (since
	 * 1 March of year 0) minus the time base's tick count. */
	bool time_set;
	int64_t cal_offset;
	/* tm_wkwhen() sleepers, woken by tm_set() to look again. */
	struct nk_synch cal_sleepers;
	/* tm_evwhen() timers, armed again by tm_set(). */
	struct nk_list cal_timers;
	/* t_restart(): the TCB the new thread's attach hook takes. */
	struct psos_task *adopt;
	/* Tasks with signals pending: read unlocked, so that the ASR
	 * delivery points cost nothing while nobody sends any. */
	unsigned int asr_pending;
};

extern const struct skin_desc psos_skin;

/* The thread hooks and reclaim hooks, in their classes' files. */
int psos_task_attach(struct nk_thread *thread, void *ext);
void psos_task_exit(struct nk_thread *thread, void *ext);
void *psos_task_tcb(void *ext);
int psos_state_init(struct nk_instance *nk, void *state);
void psos_state_fini(struct nk_instance *nk, void *state);
void psos_sem_reclaim(struct nk_instance *nk, void *object);
void psos_queue_reclaim(struct nk_instance *nk, void *object);
void psos_timer_reclaim(struct nk_instance *nk, void *object);
void psos_timer_describe(const void *object, struct nk_object_info *info);
void psos_region_reclaim(struct nk_instance *nk, void *object);
void psos_partition_reclaim(struct nk_instance *nk, void *object);
/* Describe hooks (skin_class.describe), in the class's file. */
void psos_sem_describe(const void *object, struct nk_object_info *info);
void psos_queue_describe(const void *object, struct nk_object_info *info);
void psos_region_describe(const void *object, struct nk_object_info *info);
void psos_partition_describe(const void *object, struct nk_object_info *info);

/* A nucleus code or wake reason as a pSOS one (object.c). */
unsigned long psos_error(int err);

/* A wait's result: @killed when its object was deleted. */
static inline unsigned long psos_wait_error(int ret, unsigned long killed)
{
	return ret == -EIDRM ? killed : psos_error(ret);
}

/* Run the caller's ASR if it has signals pending (asr.c).  Lock NOT
 * held. */
void psos_asr_deliver(struct nk_instance *nk);
/* Count a task's signals going from none to some (+1) or back (-1).
 * Lock held. */
void psos_asr_count(int delta);

/*
 * A delivery point of the caller's ASR: on entry to a service and on
 * return from a wait, a task with signals pending and its ASR enabled
 * runs it first.  Lock NOT held.
 */
static inline void psos_asr_poll(void)
{
	struct nk_instance *nk;
	struct skin *sk = skin_entered(&psos_skin, &nk);

	if (sk && __atomic_load_n(&((struct psos_state *)sk)->asr_pending,
				  __ATOMIC_RELAXED))
		psos_asr_deliver(nk);
}

/* The skin's state, entering the skin (the caller may become main);
 * a delivery point of the caller's ASR. */
static inline unsigned long psos_enter(struct nk_instance **nk,
				       struct psos_state **st)
{
	psos_asr_poll();
	return (unsigned long)skin_enter(&psos_skin, nk, (struct skin **)st);
}

/* The state once entered (lock held or not). */
static inline struct psos_state *psos(void)
{
	return (struct psos_state *)skin_state(&psos_skin);
}

/* The state in instance @nk, for the hooks that run in it whatever the
 * process runtime is (lock held or not). */
static inline struct psos_state *psos_in(struct nk_instance *nk)
{
	return nk_personality_state(nk, &psos_skin.pers);
}

/*
 * Enter, lock and find the object of class @cls behind @id.  Returns
 * with the lock held on success only.  Errors: ERR_OBJID, ERR_OBJTYPE
 * (an ID of another pSOS class), those of psos_enter().
 */
unsigned long psos_get(unsigned int cls, unsigned long id,
		       struct nk_instance **nk, void **object);

/* What psos_call() runs on an object, lock held: it reschedules if it
 * wakes a thread. */
typedef unsigned long (*psos_op_fn)(struct nk_instance *nk, void *object,
				    unsigned long arg);

/* Find the object of @cls behind @id and run @op(nk, object, @arg) on
 * it under the lock.  Errors: those of psos_get() and @op. */
unsigned long psos_call(unsigned int cls, unsigned long id, psos_op_fn op,
			unsigned long arg);

/*
 * Delete the object of @cls behind @id: @check says what deletion
 * tells the deleter (0, or an informative code: ERR_TATSDEL...) or
 * refuses it (*@keep set).  Waiters wake with -EIDRM.  Lock NOT held.
 */
unsigned long psos_delete(unsigned int cls, unsigned long id,
			  unsigned long (*check)(void *object, bool *keep));

/* Copy @name as this instance compares names (4 chars or a string). */
void psos_name(struct psos_state *st, char *dst, const char *name);
/*
 * The ID of an object of @cls named @name whose kind is @kind.
 * Errors: ERR_OBJNF, ERR_NODENO (@node not 0), ERR_OBJID (NULL @id or
 * @name).  Lock NOT held.
 */
unsigned long psos_ident(unsigned int cls, unsigned int kind, const char *name,
			 unsigned long node, unsigned long *id);
/*
 * Create an object of class @cls named @name: a control block of @size
 * bytes from the instance's memory, a copy of @init (which starts with
 * a struct psos_object, its name left for this call to fill in), then
 * prepared by @setup (given the name its wait queues carry; it returns
 * 0, a -errno or a pSOS code) and published into *@id.  On any error
 * the class's reclaim hook frees all of it (it must take what @setup
 * left undone).  Errors: ERR_OBJID (NULL @id), @setup's, ERR_OBJTFULL
 * (registry full), @nomem.  Lock NOT held.
 */
unsigned long psos_create(unsigned int cls, const char *name, const void *init,
			  size_t size,
			  int (*setup)(struct nk_instance *nk, void *object,
				       const char *wname),
			  unsigned long nomem, unsigned long *id);

/*
 * The memory of a region or partition and the size it is cut in:
 * @addr_err for a NULL or not long-aligned @addr, @size_err for a @size
 * below @min or not a power of 2.
 */
static inline unsigned long
psos_check_pool(const void *addr, unsigned long size, unsigned long min,
		unsigned long addr_err, unsigned long size_err)
{
	if (addr == NULL || (uintptr_t)addr % sizeof(long))
		return addr_err;
	return size < min || (size & (size - 1)) ? size_err : SUCCESS;
}

/* A timeout in ticks, pSOS's way: 0 waits for ever. */
static inline struct skin_timeout psos_timeout(struct psos_state *st,
					       unsigned long ticks)
{
	return ticks ? skin_deadline(st->skin.nk,
				     skin_rel_ticks(&st->skin, ticks))
		     : skin_infinite();
}

/* The caller's TCB (task.c), attached with the defaults if need be;
 * NULL outside a nucleus thread.  Lock held or not. */
struct psos_task *psos_self(struct nk_instance *nk);
/*
 * Enter the skin (psos_enter()) and find the caller's TCB (psos_self());
 * @none when the caller is no task or runs in interrupt context.  Lock
 * NOT held.
 */
unsigned long psos_enter_self(struct nk_instance **nk, struct psos_state **st,
			      struct psos_task **self, unsigned long none);
/*
 * In a service's retry loop, before a wait: the first time, find the
 * caller (*@self) and turn @timeout (ticks, 0: for ever) into one
 * deadline (*@to) for every retry; then psos_wait_begin().  True when
 * the caller must unlock and look at its object again.  Lock held.
 */
bool psos_wait_prepare(struct nk_instance *nk, struct psos_task **self,
		       struct skin_timeout *to, unsigned long timeout);
/*
 * Before a wait: a T_NOPREEMPT caller gives up its scheduler lock (the
 * nucleus refuses to block under it), which may let a more urgent task
 * run at once; true when it did: the caller must then look at its
 * object again.  psos_wait_end() takes the lock back after the wait.
 * Lock held for begin, not for end.
 */
bool psos_wait_begin(struct nk_instance *nk, struct psos_task *self);
void psos_wait_end(struct nk_instance *nk, struct psos_task *self);

/* Send @events to @t, waking it if they satisfy its wait.  Lock held;
 * the caller reschedules. */
void psos_events_post(struct psos_task *t, unsigned long events);
/* Drop @t's timers (task ends or restarts).  Lock held. */
void psos_timers_drop(struct psos_task *t);
/* Aim the tm_evwhen() timers again, the calendar moved (timer.c).
 * Lock held. */
void psos_timers_reaim(struct psos_state *st);

/*
 * The calendar (calendar.c).  The calendar tick of a packed date into
 * *@out, or ERR_ILLDATE, ERR_ILLTIME, ERR_ILLTICKS.  Lock held or not.
 */
unsigned long psos_cal_ticks(struct psos_state *st, unsigned long date,
			     unsigned long time, unsigned long ticks,
			     int64_t *out);
/* The calendar tick now.  Lock held. */
int64_t psos_cal_now(struct psos_state *st);
/* When calendar tick @tick comes, on the nucleus clock.  Lock held. */
struct skin_timeout psos_cal_date(struct psos_state *st, int64_t tick);

#pragma GCC visibility pop

#endif
