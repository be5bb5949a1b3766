/* SPDX-License-Identifier: MIT */
/*
 * pSOS tasks over nucleus threads.
 *
 * A task is a nucleus thread carrying pSOS's personality, whose
 * extension points at the TCB (task_internal.h).  pSOS priorities are
 * nucleus priorities (1..255), so every level is distinct and main (0)
 * stays below them.  T_NOPREEMPT is the nucleus scheduler lock, given
 * up for the length of each wait (pSOS lets a non-preemptible task
 * block; the nucleus does not); T_TSLICE is round robin with a quantum
 * of kc_ticks2slice ticks.
 */
#include "task_internal.h"

#include <string.h>

#define PSOS_MIN_STACK 256
/* Host threads get the nucleus default stack unless asked for more. */
#define PSOS_HOST_STACK (256 * 1024)
#define PSOS_MODE_BITS (T_NOPREEMPT | T_TSLICE | T_NOASR | T_NOISR | T_SUPV)

static void task_trampoline(void *arg);

/* Free @t and all it holds, its ID if it has one.  Lock held. */
static void task_free(struct nk_instance *nk, struct psos_task *t)
{
	if (t->signals)
		psos_asr_count(-1);
	psos_timers_drop(t);
	if (t->handle)
		skin_unregister_locked(&psos_in(nk)->skin, t->handle);
	nk_synch_destroy_locked(&t->evwait);
	nk_free(nk, t);
}

void *psos_task_tcb(void *ext)
{
	return ((struct psos_ext *)ext)->task;
}

/* Set up a TCB for @thread: the one t_restart() hands over, else a new
 * one, with the thread's priority, running (main, another skin's
 * thread) until t_create() says it is dormant.  Lock held. */
int psos_task_attach(struct nk_thread *thread, void *ext)
{
	struct nk_instance *nk = nk_thread_instance(thread);
	struct psos_state *st = psos_in(nk);
	struct psos_ext *x = ext;
	struct psos_task *t = st->adopt;
	int ret;

	if (t) {
		nk_journal_obj(&x->task);
		x->task = t;
		return 0;
	}
	t = nk_alloc(nk, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	t->thread = thread;
	t->prio = (unsigned long)nk_thread_priority(thread);
	t->started = true;
	nk_list_init(&t->timers);
	ret = skin_wait_init(nk, &t->evwait, nk_thread_name(thread), false);
	if (ret == 0)
		ret = skin_register_locked(&st->skin, PSOS_TASK, NULL, t,
					   &t->handle);
	if (ret)
		task_free(nk, t);
	else
		x->task = t;
	return ret;
}

/*
 * Interrupts of @t's CPU off (@off) or on again: the head domain's stall,
 * which defers every timer and source handler there.  Called by the task
 * itself, or for it as it ends.
 */
static void task_isr(struct nk_instance *nk, struct psos_task *t, bool off)
{
	struct ipipe_domain *head = ipipe_head_domain(nk);
	int cpu = nk_thread_cpu(t->thread);

	if (off == t->isr_off)
		return;
	t->isr_off = off;
	if (off)
		ipipe_stall(head, cpu);
	else
		ipipe_unstall(head, cpu);
}

/* The thread ends: its TCB goes with it, unless t_restart() gave the
 * TCB to another thread.  Lock held. */
void psos_task_exit(struct nk_thread *thread, void *ext)
{
	struct psos_ext *x = ext;

	if (x->task == NULL)
		return;
	/* Deleted by another with interrupts off (it was preempted with
	 * them off): back on.  A task ending on its own turned them on
	 * before (task_trampoline, t_delete): doing it here replays the
	 * interrupts held, which could switch the thread out of its end.
	 * A dead process's task, cleaned up here, stalled its own
	 * pipeline, which went with it. */
	if (nk_thread_here(thread))
		task_isr(nk_thread_instance(thread), x->task, false);
	task_free(nk_thread_instance(thread), x->task);
	x->task = NULL;
}

struct psos_task *psos_self(struct nk_instance *nk)
{
	struct nk_thread *self = nk_thread_self(nk);
	struct psos_ext *x;

	if (self == NULL)
		return NULL;
	x = nk_thread_personality(self, &psos_skin.pers);
	if (x == NULL && nk_thread_attach(self, &psos_skin.pers, (void **)&x))
		return NULL;
	return x->task;
}

unsigned long psos_enter_self(struct nk_instance **nk, struct psos_state **st,
			      struct psos_task **self, unsigned long none)
{
	unsigned long ret = psos_enter(nk, st);

	if (ret)
		return ret;
	*self = psos_self(*nk);
	return *self && !nk_in_interrupt(*nk) ? SUCCESS : none;
}

bool psos_wait_prepare(struct nk_instance *nk, struct psos_task **self,
		       struct skin_timeout *to, unsigned long timeout)
{
	if (*self == NULL) {
		*self = psos_self(nk);
		*to = psos_timeout(psos(), timeout);
	}
	return psos_wait_begin(nk, *self);
}

bool psos_wait_begin(struct nk_instance *nk, struct psos_task *self)
{
	/* pSOS turns interrupts on while a T_NOISR task waits. */
	if (self && self->isr_off) {
		task_isr(nk, self, false);
		self->isr_waiting = true;
	}
	if (self == NULL || !(self->mode & T_NOPREEMPT) || self->unlocked)
		return false;
	self->unlocked = true;
	nk_sched_unlock(nk);
	return true;
}

void psos_wait_end(struct nk_instance *nk, struct psos_task *self)
{
	if (self && self->isr_waiting) {
		self->isr_waiting = false;
		task_isr(nk, self, true);
	}
	if (self && self->unlocked) {
		self->unlocked = false;
		nk_sched_lock(nk);
	}
	/* Back from the nucleus: signals sent meanwhile run first. */
	psos_asr_poll();
}

/*
 * Enter and find the task @tid (0: the caller, ERR_OBJID outside a
 * task).  Returns with the lock held on success only.
 */
static unsigned long task_get(unsigned long tid, struct nk_instance **nk,
			      struct psos_task **t)
{
	struct psos_state *st;
	unsigned long ret;

	if (tid)
		return psos_get(PSOS_TASK, tid, nk, (void **)t);
	ret = psos_enter_self(nk, &st, t, ERR_OBJID);
	if (ret)
		return ret;
	nk_lock(*nk);
	nk_journal_block(*t);
	return SUCCESS;
}

/* Round robin per T_TSLICE in @mode.  Lock held. */
static void task_set_slice(struct psos_task *t, unsigned long mode)
{
	struct psos_state *st = psos();
	nk_time_t q = nk_tbase_ticks_to_ns(&st->skin.tbase, st->ticks2slice);

	nk_thread_set_policy(
	    t->thread, (mode & T_TSLICE) ? NK_SCHED_RR : NK_SCHED_FIFO, q);
}

unsigned long t_create(const char *name, unsigned long prio,
		       unsigned long sstack, unsigned long ustack,
		       unsigned long flags, unsigned long *tid)
{
	struct nk_thread_attr attr = {.policy = NK_SCHED_FIFO};
	struct nk_thread *thread = NULL;
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_ext *x;
	char pname[PSOS_NAME_MAX];
	unsigned long ret;
	int err;

	(void)flags; /* T_GLOBAL, T_FPU: nothing to do on one node */
	if (tid == NULL)
		return ERR_OBJID;
	if (prio < 1 || prio > NK_PRIO_MAX)
		return ERR_PRIOR;
	if (sstack + ustack < PSOS_MIN_STACK || sstack + ustack < sstack)
		return ERR_TINYSTK;
	ret = psos_enter(&nk, &st);
	if (ret)
		return ret;
	nk_lock(nk);
	psos_name(st, pname, name);
	attr.name = pname;
	attr.priority = (int)prio;
	attr.stack_size =
	    sstack + ustack > PSOS_HOST_STACK ? sstack + ustack : 0;
	err = nk_thread_create(nk, &attr, &thread);
	if (err == 0)
		err = nk_thread_attach(thread, &psos_skin.pers, (void **)&x);
	if (err == 0) {
		struct psos_task *t = x->task;

		memcpy(t->obj.name, pname, sizeof(pname));
		t->prio = prio;
		t->stack = attr.stack_size;
		t->started = false;
		*tid = t->handle;
	} else if (thread) {
		nk_thread_delete(thread);
	}
	nk_unlock(nk);
	if (err == -ENOSPC)
		return ERR_OBJTFULL;
	return err ? ERR_NOTCB : SUCCESS;
}

/* Start @t's thread at its entry in mode @mode.  Lock held. */
static int task_launch(struct psos_task *t, unsigned long mode)
{
	nk_journal_block(t);
	t->mode = mode & PSOS_MODE_BITS;
	t->unlocked = false;
	/* A restart of a task that had them off turns them back on. */
	task_isr(nk_thread_instance(t->thread), t, false);
	t->isr_waiting = false;
	if (mode & T_TSLICE)
		task_set_slice(t, mode);
	return nk_thread_start(t->thread, task_trampoline, t);
}

unsigned long t_start(unsigned long tid, unsigned long mode,
		      psos_entry_fn start_addr, unsigned long targs[4])
{
	struct nk_instance *nk;
	struct psos_task *t;
	unsigned long ret;

	ret = psos_get(PSOS_TASK, tid, &nk, (void **)&t);
	if (ret)
		return ret;
	if (t->started) {
		ret = ERR_ACTIVE;
	} else if (start_addr == NULL) {
		ret = ERR_SSFN;
	} else {
		t->entry = start_addr;
		for (int i = 0; i < 4; i++)
			t->args[i] = targs ? targs[i] : 0;
		t->smode = mode;
		t->started = true;
		ret = psos_error(task_launch(t, mode));
	}
	nk_unlock(nk);
	return ret;
}

/* Returning from the entry ends the thread: the exit hook cleans up. */
static void task_trampoline(void *arg)
{
	struct psos_task *t = arg;
	struct nk_instance *nk = nk_thread_instance(t->thread);
	unsigned long a[4];
	psos_entry_fn entry;
	bool nopreempt;

	nk_lock(nk);
	entry = t->entry;
	memcpy(a, t->args, sizeof(a));
	nopreempt = t->mode & T_NOPREEMPT;
	nk_unlock(nk);
	if (nopreempt)
		nk_sched_lock(nk);
	task_isr(nk, t, t->mode & T_NOISR);
	entry(a[0], a[1], a[2], a[3]);
	/* Ending with interrupts off turns them back on, while the task
	 * still runs its own code (see psos_task_exit). */
	task_isr(nk, t, false);
}

unsigned long t_restart(unsigned long tid, unsigned long targs[4])
{
	struct nk_thread_attr attr = {.policy = NK_SCHED_FIFO};
	struct nk_thread *old, *thread = NULL;
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_ext *x;
	struct psos_task *t;
	unsigned long ret;
	int err;

	ret = task_get(tid, &nk, &t);
	if (ret)
		return ret;
	if (!t->started) {
		nk_unlock(nk);
		return ERR_NACTIVE;
	}
	/* Another process's task (a session's): its entry is code there. */
	if (!nk_thread_here(t->thread)) {
		nk_unlock(nk);
		return ERR_SSFN;
	}
	st = psos();
	attr.name = nk_thread_name(t->thread);
	attr.priority = (int)t->prio;
	attr.stack_size = t->stack;
	err = nk_thread_create(nk, &attr, &thread);
	if (err == 0) {
		nk_journal_obj(&st->adopt);
		st->adopt = t;
		err = nk_thread_attach(thread, &psos_skin.pers, (void **)&x);
		st->adopt = NULL;
	}
	if (err) {
		if (thread)
			nk_thread_delete(thread);
		nk_unlock(nk);
		return ERR_NOTCB;
	}
	/* The old thread lets go of the TCB; its exit frees nothing. */
	old = t->thread;
	x = nk_thread_personality(old, &psos_skin.pers);
	x->task = NULL;
	nk_journal_block(t);
	t->thread = thread;
	t->events = 0;
	/* It catches its signals again, if it wants them. */
	t->asr = NULL;
	if (t->signals)
		psos_asr_count(-1);
	__atomic_store_n(&t->signals, 0, __ATOMIC_RELAXED);
	psos_timers_drop(t);
	for (int i = 0; i < 4; i++)
		t->args[i] = targs ? targs[i] : 0;
	err = task_launch(t, t->smode);
	/* Last: on the caller, it does not return. */
	nk_thread_delete(old);
	nk_unlock(nk);
	return psos_error(err);
}

/* What t_delete() and its kind do to a task. */
enum task_op {
	TASK_DELETE,
	TASK_SUSPEND,
	TASK_RESUME,
	TASK_SETPRI,
	TASK_GETREG,
	TASK_SETREG,
};

/* @op on @t, with @arg (a priority, a register number) and *@value
 * (the old priority, a register's value).  Lock held. */
static unsigned long task_op(struct psos_task *t, enum task_op op,
			     unsigned long arg, unsigned long *value)
{
	unsigned int state = nk_thread_state(t->thread);

	switch (op) {
	case TASK_DELETE:
		/* The exit hook frees the TCB.  On the caller: no return. */
		return psos_error(nk_thread_delete(t->thread));
	case TASK_SUSPEND:
		if (state & NK_THREAD_SUSPENDED)
			return ERR_SUSP;
		if (state & NK_THREAD_DORMANT)
			return ERR_NACTIVE;
		return psos_error(nk_thread_suspend(t->thread));
	case TASK_RESUME:
		if (!(state & NK_THREAD_SUSPENDED))
			return ERR_NOTSUSP;
		return psos_error(nk_thread_resume(t->thread));
	case TASK_SETPRI:
		if (arg > NK_PRIO_MAX)
			return ERR_SETPRI;
		if (value)
			*value = (unsigned long)nk_thread_priority(t->thread);
		return arg ? psos_error(
				 nk_thread_set_priority(t->thread, (int)arg))
			   : SUCCESS;
	case TASK_GETREG:
	case TASK_SETREG:
		if (arg >= PSOS_NR_REGS)
			return ERR_REGNUM;
		if (op == TASK_GETREG)
			*value = t->regs[arg];
		else
			t->regs[arg] = *value;
		return SUCCESS;
	}
	return ERR_SSFN;
}

/* @op on the task @tid (0: the caller), a more urgent task it readies
 * running at once. */
static unsigned long task_control(unsigned long tid, enum task_op op,
				  unsigned long arg, unsigned long *value)
{
	struct nk_instance *nk;
	struct psos_task *t;
	unsigned long ret;

	ret = task_get(tid, &nk, &t);
	if (ret)
		return ret;
	ret = task_op(t, op, arg, value);
	nk_sched_run(nk);
	nk_unlock(nk);
	return ret;
}

unsigned long t_delete(unsigned long tid)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *self;

	/* A task deleting itself with interrupts off turns them on first,
	 * as one returning from its entry does. */
	if (psos_enter_self(&nk, &st, &self, ERR_OBJID) == 0 &&
	    (tid == 0 || tid == self->handle))
		task_isr(nk, self, false);
	return task_control(tid, TASK_DELETE, 0, NULL);
}

unsigned long t_suspend(unsigned long tid)
{
	return task_control(tid, TASK_SUSPEND, 0, NULL);
}

unsigned long t_resume(unsigned long tid)
{
	return task_control(tid, TASK_RESUME, 0, NULL);
}

unsigned long t_setpri(unsigned long tid, unsigned long newprio,
		       unsigned long *oldprio)
{
	return task_control(tid, TASK_SETPRI, newprio, oldprio);
}

unsigned long t_ident(const char *name, unsigned long node, unsigned long *tid)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *self;
	unsigned long ret;

	if (name && name[0])
		return psos_ident(PSOS_TASK, 0, name, node, tid);
	if (tid == NULL)
		return ERR_OBJID;
	if (node != 0)
		return ERR_NODENO;
	/* A null name is the caller. */
	ret = psos_enter_self(&nk, &st, &self, ERR_OBJID);
	if (ret == 0)
		*tid = self->handle;
	return ret;
}

unsigned long t_getreg(unsigned long tid, unsigned long regnum,
		       unsigned long *reg_value)
{
	if (reg_value == NULL)
		return ERR_OBJID;
	return task_control(tid, TASK_GETREG, regnum, reg_value);
}

unsigned long t_setreg(unsigned long tid, unsigned long regnum,
		       unsigned long reg_value)
{
	return task_control(tid, TASK_SETREG, regnum, &reg_value);
}

unsigned long psos_task_mode(struct nk_instance *nk, struct psos_task *t,
			     unsigned long mode)
{
	unsigned long old;

	nk_lock(nk);
	nk_journal_block(t);
	old = t->mode;
	t->mode = mode & PSOS_MODE_BITS;
	if ((old ^ mode) & T_TSLICE)
		task_set_slice(t, mode);
	nk_unlock(nk);
	/* Interrupts on first: what they ready may then preempt. */
	if ((old ^ mode) & T_NOISR)
		task_isr(nk, t, mode & T_NOISR);
	/* Preemption back on: a more urgent ready task runs now. */
	if ((old & ~mode) & T_NOPREEMPT)
		nk_sched_unlock(nk);
	if ((mode & ~old) & T_NOPREEMPT)
		nk_sched_lock(nk);
	return old;
}

unsigned long t_mode(unsigned long mask, unsigned long new_mode,
		     unsigned long *old_mode)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *t;
	unsigned long old, ret;

	ret = psos_enter_self(&nk, &st, &t, ERR_SSFN);
	if (ret)
		return ret;
	mask &= PSOS_MODE_BITS;
	old = psos_task_mode(nk, t, (t->mode & ~mask) | (new_mode & mask));
	if (old_mode)
		*old_mode = old;
	/* T_ASR back on: the signals it held off are delivered now. */
	psos_asr_poll();
	return SUCCESS;
}
