/* SPDX-License-Identifier: MIT */
/*
 * pSOS asynchronous signals.  pSOS runs a task's ASR the next time the
 * task is dispatched; a Fusion task runs its own code between nucleus
 * calls, so its ASR runs at the pSOS calls it makes: on entry to a
 * service and on return from a wait, which is where a blocked task is
 * dispatched again.  The ASR runs in its own mode (as_catch()), the
 * task's mode back afterwards; as_return() leaves it through a jump
 * to the point that called it, on the task's own stack.
 */
#include "task_internal.h"

#include <setjmp.h>

void psos_asr_count(int delta)
{
	nk_journal_obj(&psos()->asr_pending);
	__atomic_add_fetch(&psos()->asr_pending, (unsigned int)delta,
			   __ATOMIC_RELAXED);
}

/* The caller's TCB if it has signals pending. */
static struct psos_task *asr_due(struct nk_instance *nk)
{
	struct nk_thread *self = nk_thread_self(nk);
	struct psos_ext *x;

	if (self == NULL || nk_in_interrupt(nk))
		return NULL;
	x = nk_thread_personality(self, &psos_skin.pers);
	if (x == NULL || x->task == NULL ||
	    __atomic_load_n(&x->task->signals, __ATOMIC_RELAXED) == 0)
		return NULL;
	return x->task;
}

void psos_asr_deliver(struct nk_instance *nk)
{
	struct psos_task *t = asr_due(nk);

	while (t) {
		void (*asr)(unsigned long) = NULL;
		unsigned long signals = 0, mode = 0, old;
		void *outer;
		jmp_buf back;

		nk_lock(nk);
		nk_journal_block(t);
		if (t->asr && t->signals && !(t->mode & T_NOASR)) {
			asr = t->asr;
			mode = t->asr_mode;
			signals = t->signals;
			__atomic_store_n(&t->signals, 0, __ATOMIC_RELAXED);
			psos_asr_count(-1);
		}
		nk_unlock(nk);
		if (asr == NULL)
			return;
		old = psos_task_mode(nk, t, mode);
		outer = t->asr_return;
		t->asr_return = &back;
		t->in_asr++;
		if (setjmp(back) == 0)
			asr(signals);
		t->in_asr--;
		t->asr_return = outer;
		psos_task_mode(nk, t, old);
	}
}

unsigned long as_catch(void (*start_addr)(unsigned long signals),
		       unsigned long mode)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *t;
	unsigned long ret;

	ret = psos_enter_self(&nk, &st, &t, ERR_SSFN);
	if (ret)
		return ret;
	nk_lock(nk);
	nk_journal_block(t);
	t->asr = start_addr;
	t->asr_mode = mode;
	nk_unlock(nk);
	return SUCCESS;
}

static unsigned long asr_post(struct nk_instance *nk, void *object,
			      unsigned long signals)
{
	struct psos_task *t = object;

	(void)nk;
	if (t->asr == NULL)
		return ERR_NOASR;
	if (signals && t->signals == 0)
		psos_asr_count(1);
	__atomic_store_n(&t->signals, t->signals | signals, __ATOMIC_RELAXED);
	return SUCCESS;
}

unsigned long as_send(unsigned long tid, unsigned long signals)
{
	unsigned long ret = psos_call(PSOS_TASK, tid, asr_post, signals);

	/* Sent to itself: its ASR runs before the call returns. */
	if (ret == 0)
		psos_asr_poll();
	return ret;
}

unsigned long as_return(void)
{
	struct nk_instance *nk;
	struct psos_state *st;
	struct psos_task *t;
	unsigned long ret;

	ret = (unsigned long)skin_enter(&psos_skin, &nk, (struct skin **)&st);
	if (ret)
		return ret;
	t = psos_self(nk);
	if (t == NULL || t->in_asr == 0)
		return ERR_NOTINASR;
	longjmp(*(jmp_buf *)t->asr_return, 1);
}
