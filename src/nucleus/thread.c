/* SPDX-License-Identifier: MIT */
/*
 * Nucleus threads: creation, the block/release core every wait goes
 * through, suspension, priorities, periodic release, deletion and join.
 *
 * A thread blocks by setting state bits (PENDING, DELAYED, SUSPENDED,
 * DORMANT) and runs again once none is left, so the conditions compose:
 * a suspended thread whose wait ends gets the resource but stays
 * suspended.
 */
#include "internal.h"

#include <limits.h>
#include <string.h>

/* --- the block/release core (lock held) --- */

nk_hot void nk_thread_block(struct nk_thread *thread, unsigned int bits,
			    nk_time_t date, struct nk_synch *wchan)
{
	struct nk_sched *sched = thread->sched;

	nk_journal_obj(thread);
	if (bits & (NK_THREAD_PENDING | NK_THREAD_DELAYED))
		thread->info &= ~NK_INFO_WAKE_MASK;
	if (thread->state & NK_THREAD_READY)
		nk_sched_dequeue(thread);
	thread->state |= bits;
	if (bits & NK_THREAD_PENDING)
		thread->wchan = wchan;
	if ((bits & NK_THREAD_DELAYED) && date != NK_INFINITE)
		nk_timer_start_locked(&thread->rtimer, date, 0, NK_ABSOLUTE);
	if (sched->curr == thread)
		nk_sched_mark(sched);
}

nk_hot void nk_thread_release(struct nk_thread *thread, unsigned int bits)
{
	struct nk_sched *sched = thread->sched;

	if (!(thread->state & bits))
		return;
	nk_journal_obj(thread);
	if (bits & NK_THREAD_DELAYED)
		nk_timer_stop_locked(&thread->rtimer);
	if (bits & NK_THREAD_PENDING)
		thread->wchan = NULL;
	thread->state &= ~bits;
	if (thread->state & NK_BLOCK_BITS)
		return;
	if (sched->curr == thread)
		return; /* it blocked and was released before switching out */
	nk_sched_enqueue(thread, false);
	nk_trace(thread->nk, sched->cpu, NK_TRACE_READY, thread, NULL, 0,
		 thread->prio);
	if (thread->prio > sched->curr->prio)
		nk_sched_mark(sched);
}

nk_hot int nk_thread_wait_result(struct nk_thread *thread)
{
	unsigned int info = thread->info;

	if (info & NK_INFO_DELETED)
		return NK_WAKE_DELETED;
	if (info & NK_INFO_UNBLOCKED)
		return NK_WAKE_UNBLOCKED;
	if (info & NK_INFO_TIMEOUT)
		return NK_WAKE_TIMEOUT;
	if (info & NK_INFO_OWNER_DEAD)
		return NK_WAKE_OWNER_DEAD;
	return NK_WAKE_OK;
}

/* Timeout of a sleep or a wait: the thread's resource timer. */
nk_hot void nk_thread_timeout(struct nk_timer *timer)
{
	struct nk_thread *thread = timer->cookie;
	struct nk_instance *nk = thread->nk;

	nk_journal_obj(thread);
	if (thread->state & NK_THREAD_PENDING) {
		nk_trace(nk, thread->sched->cpu, NK_TRACE_TIMEOUT, thread,
			 thread->wchan->name, thread->wchan->trace_id, 0);
		thread->info |= NK_INFO_TIMEOUT;
		nk_synch_forget_waiter(thread);
	} else {
		nk_trace(nk, thread->sched->cpu, NK_TRACE_WAKE, thread, "delay",
			 0, 0);
	}
	nk_thread_release(thread, NK_THREAD_PENDING | NK_THREAD_DELAYED);
}

/*
 * Apply a new effective priority: requeue where the thread sits (ready
 * queue: tail when raised, head when lowered, as POSIX; priority-ordered
 * wait queue) and flag the CPUs that may need to switch.
 */
void nk_thread_set_effective(struct nk_thread *thread, int prio,
			     const struct nk_synch *cause)
{
	struct nk_sched *sched = thread->sched;
	int old = thread->prio;

	if (prio == old)
		return;
	nk_journal_obj(thread);
	if (thread->state & NK_THREAD_READY) {
		nk_sched_dequeue(thread);
		thread->prio = prio;
		nk_sched_enqueue(thread, prio < old);
	} else {
		thread->prio = prio;
	}
	if (thread->state & NK_THREAD_PENDING)
		nk_synch_requeue_waiter(thread);
	if (sched->curr == thread ? prio < old : prio > sched->curr->prio)
		nk_sched_mark(sched);
	if (thread->shadow && !(thread->state & NK_THREAD_ZOMBIE) &&
	    thread->nk->be->thread_priority)
		thread->nk->be->thread_priority(thread->nk->be_priv,
						thread->shadow, prio);
	nk_trace(thread->nk, sched->cpu, NK_TRACE_PRIO, thread,
		 cause ? cause->name : NULL, cause ? cause->trace_id : 0, prio);
}

/* --- creation --- */

static int thread_setup(struct nk_instance *nk, struct nk_thread *thread,
			const char *name, int prio, int cpu)
{
	nk_journal_obj(thread);
	nk_core_note(nk->core);
	thread->magic = NK_THREAD_MAGIC;
	thread->nk = nk;
	thread->sched = &nk->scheds[cpu];
	nk->core->thread_serial++;
	thread->trace_id = nk_trace_id(nk);
	if (name && name[0])
		snprintf(thread->name, sizeof(thread->name), "%s", name);
	else
		snprintf(thread->name, sizeof(thread->name), "thread%lu",
			 nk->core->thread_serial);
	thread->base_prio = thread->prio = prio;
	nk_list_init(&thread->ready_link);
	nk_list_init(&thread->wait_link);
	nk_list_init(&thread->owned);
	nk_timer_init_own(nk, &thread->rtimer, cpu, NK_TIMER_THREAD, thread);
	thread->member = nk->member;
	thread->pid = nk->pid;
	return nk_synch_init(nk, &thread->joiners, thread->name, NK_SYNCH_FIFO,
			     0);
}

static int check_name(const char *name)
{
	return name && strlen(name) >= NK_NAME_MAX ? -EINVAL : 0;
}

int nk_thread_create(struct nk_instance *nk, const struct nk_thread_attr *attr,
		     struct nk_thread **out)
{
	struct nk_thread *thread;
	size_t stack;
	int ret;

	if (!nk_instance_valid(nk) || attr == NULL || out == NULL)
		return -EINVAL;
	if (attr->priority < NK_PRIO_MIN || attr->priority > NK_PRIO_MAX ||
	    attr->cpu < 0 || attr->cpu >= nk->nr_cpus ||
	    (attr->flags & ~NK_THREAD_JOINABLE) || check_name(attr->name))
		return -EINVAL;
	if (attr->policy == NK_SCHED_RR ? attr->quantum <= 0
					: attr->policy != NK_SCHED_FIFO)
		return -EINVAL;
	thread = nk_alloc(nk, sizeof(*thread));
	if (thread == NULL)
		return -ENOMEM;
	stack = attr->stack_size ? attr->stack_size : nk->default_stack_size;
	nk_lock_acquire(nk);
	nk_thread_reap_all(nk);
	ret = thread_setup(nk, thread, attr->name, attr->priority, attr->cpu);
	if (ret == 0) {
		thread->policy = attr->policy;
		thread->quantum = attr->quantum;
		thread->flags = attr->flags;
		thread->stack_size = stack;
		thread->state = NK_THREAD_DORMANT;
		ret = nk->be->thread_init(nk->be_priv, thread, stack,
					  &thread->shadow);
	}
	if (ret == 0) {
		nk_list_add_before(&thread->instance_link, &nk->core->threads);
		nk_core_note(nk->core);
		nk->core->nr_threads++;
		nk->core->threads_gen++;
		nk_trace(nk, attr->cpu, NK_TRACE_CREATE, thread, NULL, 0,
			 thread->prio);
	}
	nk_lock_release(nk);
	if (ret) {
		thread->magic = 0;
		nk_free(nk, thread);
		return ret;
	}
	*out = thread;
	return 0;
}

int nk_thread_adopt(struct nk_instance *nk, const char *name, int prio, int cpu,
		    struct nk_thread **out)
{
	struct nk_thread *thread;
	int ret;

	thread = nk_alloc(nk, sizeof(*thread));
	if (thread == NULL)
		return -ENOMEM;
	ret = thread_setup(nk, thread, name, prio, cpu);
	if (ret == 0)
		ret =
		    nk->be->thread_adopt(nk->be_priv, thread, &thread->shadow);
	if (ret) {
		nk_free(nk, thread);
		return ret;
	}
	nk_journal_obj(thread);
	thread->adopted = true;
	thread->stack_size = nk->default_stack_size;
	nk_list_add_before(&thread->instance_link, &nk->core->threads);
	nk_core_note(nk->core);
	nk->core->nr_threads++;
	nk->core->threads_gen++;
	*out = thread;
	return 0;
}

void nk_thread_wait_cpu(struct nk_thread *self)
{
	struct nk_instance *nk = self->nk;

	/* Ready it like a started thread, then wait for the CPU. */
	nk_journal_obj(self);
	self->state = NK_THREAD_DORMANT;
	nk_thread_release(self, NK_THREAD_DORMANT);
	nk_sched_run(nk);
	nk->be->switch_to(nk->be_priv, self->shadow, NULL, NK_SWITCH_PARK);
}

int nk_thread_shadow(struct nk_instance *nk, const struct nk_thread_attr *attr,
		     struct nk_thread **out)
{
	struct nk_thread *thread;
	int ret;

	/* The backend hides the thread under a handler: it would adopt it
	 * twice (sim) or adopt the interrupt thread (live). */
	nk_check_not_interrupt(nk);
	nk_check_unlocked(nk);
	if (!nk_instance_valid(nk) || attr == NULL || out == NULL ||
	    attr->priority < NK_PRIO_MIN || attr->priority > NK_PRIO_MAX ||
	    attr->cpu < 0 || attr->cpu >= nk->nr_cpus || attr->flags ||
	    attr->policy != NK_SCHED_FIFO || check_name(attr->name))
		return -EINVAL;
	nk_lock_acquire(nk);
	if (nk->be->self(nk->be_priv)) {
		ret = -EBUSY;
	} else {
		ret = nk_thread_adopt(nk, attr->name, attr->priority, attr->cpu,
				      &thread);
	}
	if (ret == 0) {
		nk_thread_wait_cpu(thread);
		*out = thread;
	}
	nk_lock_release(nk);
	return ret;
}

int nk_thread_start(struct nk_thread *thread, nk_thread_fn entry, void *arg)
{
	struct nk_instance *nk;
	int ret = 0;

	if (!nk_thread_valid(thread) || entry == NULL)
		return -EINVAL;
	nk = thread->nk;
	/* @entry is code of this process: the thread must run here. */
	if (thread->member != nk->member)
		return -EPERM;
	nk_lock_acquire(nk);
	if (!(thread->state & NK_THREAD_DORMANT) || thread->entry) {
		ret = -EBUSY;
	} else {
		nk_journal_obj(thread);
		thread->entry = entry;
		thread->arg = arg;
		nk_trace(nk, thread->sched->cpu, NK_TRACE_START, thread, NULL,
			 0, thread->prio);
		nk_thread_release(thread, NK_THREAD_DORMANT);
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
	return ret;
}

/* --- termination --- */

void nk_thread_unlink(struct nk_thread *thread)
{
	nk_journal_obj(thread);
	if (thread->state & NK_THREAD_PENDING)
		nk_synch_forget_waiter(thread);
	nk_timer_stop_locked(&thread->rtimer);
	if (thread->state & NK_THREAD_READY)
		nk_sched_dequeue(thread);
	thread->state &= ~(NK_THREAD_PENDING | NK_THREAD_DELAYED |
			   NK_THREAD_SUSPENDED | NK_THREAD_DORMANT);
	thread->wchan = NULL;
	if (thread->joining) {
		nk_journal_obj(thread->joining);
		thread->joining->joiner = NULL;
		thread->joining = NULL;
	}
	thread->lock_count = 0;
	thread->period = 0;
	nk_synch_release_all(thread);
}

/* @thread ends: unlinked, then its skins and joiners told.  Lock held. */
static void thread_detach_all(struct nk_thread *thread)
{
	nk_thread_unlink(thread);
	nk_journal_obj(thread);
	thread->state |= NK_THREAD_ZOMBIE;
	nk_trace(thread->nk, thread->sched->cpu, NK_TRACE_EXIT, thread, NULL, 0,
		 0);
	nk_personality_exit(thread);
	nk_synch_flush(&thread->joiners, NK_WAKE_OK);
	if (!(thread->flags & NK_THREAD_JOINABLE)) {
		nk_list_del(&thread->instance_link);
		nk_list_add_before(&thread->instance_link,
				   &thread->nk->core->reapable);
		nk_core_note(thread->nk->core);
		thread->nk->core->threads_gen++;
	}
}

/* The caller terminates.  Lock held; does not return. */
static void __attribute__((noreturn)) thread_do_exit(struct nk_thread *self)
{
	thread_detach_all(self);
	nk_sched_mark(self->sched);
	nk_sched_run(self->nk);
	/* switch_to(.., NK_SWITCH_EXIT) ended this OS thread. */
	__builtin_unreachable();
}

nk_hot void nk_thread_check_cancel(struct nk_thread *thread)
{
	if (thread->info & NK_INFO_CANCEL)
		thread_do_exit(thread);
}

void nk_thread_entry(struct nk_thread *thread)
{
	struct nk_instance *nk = thread->nk;

	nk_thread_check_cancel(thread);
	nk_sched_run(nk);
	nk_lock_release(nk);
	thread->entry(thread->arg);
	nk_lock_acquire(nk);
	thread_do_exit(thread);
}

/*
 * Backend handler: the caller's OS thread ends without having ended its
 * nucleus thread (an adopted thread returned).  Entering the nucleus
 * hardens it first if it was relaxed.
 */
void nk_thread_handle_gone(struct nk_instance *nk)
{
	struct nk_thread *self;

	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self)
		thread_do_exit(self);
	nk_lock_release(nk);
}

void nk_thread_free(struct nk_thread *thread)
{
	struct nk_instance *nk = thread->nk;

	nk->be->thread_reap(nk->be_priv, thread->shadow);
	nk_personality_finalize(thread);
	nk_list_del(&thread->instance_link);
	nk_core_note(nk->core);
	nk_journal_obj(thread);
	nk->core->nr_threads--;
	nk->core->threads_gen++;
	thread->magic = 0;
	thread->rtimer.magic = 0;
	thread->joiners.magic = 0;
	nk_free(nk, thread);
}

void nk_thread_reap_all(struct nk_instance *nk)
{
	struct nk_list *pos, *next;

	nk_list_for_each_safe(pos, next, &nk->core->reapable) {
		struct nk_thread *thread =
		    nk_list_entry(pos, struct nk_thread, instance_link);

		if (thread->member == nk->member)
			nk_thread_free(thread);
	}
}

int nk_thread_delete(struct nk_thread *thread)
{
	struct nk_instance *nk;
	struct nk_thread *self;
	int ret = 0;

	if (!nk_thread_valid(thread) || nk_thread_is_root(thread))
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (thread->state & NK_THREAD_ZOMBIE) {
		ret = -ESRCH;
	} else if (thread == self) {
		thread_do_exit(self);
	} else if (thread->sched->curr == thread ||
		   (thread->state & NK_THREAD_RELAXED)) {
		/* Running on another CPU, or under Linux: it ends itself at
		 * its next preemption point or nucleus call. */
		nk_journal_obj(thread);
		thread->info |= NK_INFO_CANCEL;
		nk_sched_mark(thread->sched);
		nk_sched_run(nk);
	} else {
		thread_detach_all(thread);
		thread->info |= NK_INFO_KILLED;
		nk->be->thread_kill(nk->be_priv, thread->shadow);
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
	return ret;
}

int nk_thread_exit(struct nk_instance *nk)
{
	struct nk_thread *self;

	if (!nk_instance_valid(nk))
		return -EINVAL;
	self = nk_thread_self(nk);
	if (self == NULL)
		return -EPERM;
	return nk_thread_delete(self);
}

int nk_thread_join(struct nk_thread *thread)
{
	struct nk_instance *nk;
	struct nk_thread *self;
	int ret = 0;

	if (!nk_thread_valid(thread) || !(thread->flags & NK_THREAD_JOINABLE))
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self == NULL)
		ret = -EPERM;
	else if (self == thread)
		ret = -EDEADLK;
	else if (thread->joiner)
		ret = -EBUSY;
	if (ret)
		goto out;
	nk_journal_obj(thread);
	nk_journal_obj(self);
	thread->joiner = self;
	self->joining = thread;
	if (!(thread->state & NK_THREAD_ZOMBIE))
		ret =
		    nk_synch_sleep(&thread->joiners, NK_INFINITE, NK_RELATIVE);
	nk_journal_obj(thread);
	nk_journal_obj(self);
	thread->joiner = NULL;
	self->joining = NULL;
	if (ret == 0)
		nk_thread_free(thread);
out:
	nk_lock_release(nk);
	return ret;
}

/* --- suspension, priority, yield, sleep --- */

/* Refuse to block the caller where it may not: lock held. */
static int check_may_block(struct nk_instance *nk, struct nk_thread **self)
{
	*self = nk_current(nk);
	if (*self == NULL || (*self)->lock_count > 0)
		return -EPERM;
	return 0;
}

int nk_thread_suspend(struct nk_thread *thread)
{
	struct nk_instance *nk;
	struct nk_thread *self;
	int ret = 0;

	if (!nk_thread_valid(thread) || nk_thread_is_root(thread))
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (thread->state & NK_THREAD_ZOMBIE)
		ret = -ESRCH;
	else if (thread->state & NK_THREAD_DORMANT)
		ret = -EPERM;
	else if (thread->suspend_count == INT_MAX)
		ret = -EOVERFLOW;
	else if (thread == self && self->lock_count > 0)
		ret = -EPERM;
	if (ret == 0) {
		nk_journal_obj(thread);
		thread->suspend_count++;
		nk_trace(nk, thread->sched->cpu, NK_TRACE_SUSPEND, thread, NULL,
			 0, thread->suspend_count);
		if (thread->suspend_count == 1)
			nk_thread_block(thread, NK_THREAD_SUSPENDED,
					NK_INFINITE, NULL);
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
	return ret;
}

int nk_thread_resume(struct nk_thread *thread)
{
	struct nk_instance *nk;
	int ret = 0;

	if (!nk_thread_valid(thread) || nk_thread_is_root(thread))
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	if (thread->state & NK_THREAD_ZOMBIE) {
		ret = -ESRCH;
	} else if (thread->suspend_count == 0) {
		ret = -EPERM;
	} else {
		nk_journal_obj(thread);
		thread->suspend_count--;
		nk_trace(nk, thread->sched->cpu, NK_TRACE_RESUME, thread, NULL,
			 0, thread->suspend_count);
		if (thread->suspend_count == 0) {
			nk_thread_release(thread, NK_THREAD_SUSPENDED);
			nk_sched_run(nk);
		}
	}
	nk_lock_release(nk);
	return ret;
}

int nk_thread_set_priority(struct nk_thread *thread, int priority)
{
	struct nk_instance *nk;
	int ret = 0;

	if (!nk_thread_valid(thread) || nk_thread_is_root(thread) ||
	    priority < NK_PRIO_MIN || priority > NK_PRIO_MAX)
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	if (thread->state & NK_THREAD_ZOMBIE) {
		ret = -ESRCH;
	} else {
		nk_journal_obj(thread);
		thread->base_prio = priority;
		nk_synch_update_chain(thread);
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
	return ret;
}

int nk_thread_set_policy(struct nk_thread *thread, enum nk_policy policy,
			 nk_time_t quantum)
{
	struct nk_instance *nk;
	int ret = 0;

	if (!nk_thread_valid(thread) || nk_thread_is_root(thread))
		return -EINVAL;
	if (policy == NK_SCHED_RR ? quantum <= 0 : policy != NK_SCHED_FIFO)
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	if (thread->state & NK_THREAD_ZOMBIE)
		ret = -ESRCH;
	else
		nk_sched_set_policy(thread, policy, quantum);
	nk_lock_release(nk);
	return ret;
}

int nk_thread_yield(struct nk_instance *nk)
{
	struct nk_thread *self;

	if (!nk_instance_valid(nk))
		return -EINVAL;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self) {
		nk_journal_obj(self);
		self->info |= NK_INFO_YIELD;
		nk_sched_mark(self->sched);
		nk_sched_run(nk);
		/* Nobody level to yield to: forget the request. */
		nk_journal_obj(self);
		self->info &= ~NK_INFO_YIELD;
	}
	nk_lock_release(nk);
	return self ? 0 : -EPERM;
}

/* Sleep the caller until @date, still to come.  Lock held, caller may
 * block. */
static nk_hot int thread_delay(struct nk_thread *self, nk_time_t date)
{
	struct nk_instance *nk = self->nk;

	nk_thread_block(self, NK_THREAD_DELAYED, date, NULL);
	nk_trace(nk, self->sched->cpu, NK_TRACE_BLOCK, self, "delay", 0, 0);
	nk_sched_run(nk);
	return self->info & NK_INFO_UNBLOCKED ? NK_WAKE_UNBLOCKED : NK_WAKE_OK;
}

/* Sleep the caller until @date, if it is to come. */
static int thread_sleep_until(struct nk_thread *self, nk_time_t date)
{
	if (date != NK_INFINITE && date <= nk_clock_now(self->nk))
		return NK_WAKE_OK;
	return thread_delay(self, date);
}

int nk_thread_sleep(struct nk_instance *nk, nk_time_t timeout,
		    enum nk_tmode mode)
{
	struct nk_thread *self;
	int ret;

	if (!nk_instance_valid(nk) ||
	    (mode != NK_RELATIVE && mode != NK_ABSOLUTE))
		return -EINVAL;
	nk_lock_acquire(nk);
	ret = check_may_block(nk, &self);
	if (ret == 0)
		ret =
		    thread_sleep_until(self, nk_abs_timeout(nk, timeout, mode));
	nk_lock_release(nk);
	return ret;
}

int nk_thread_set_wakeup(struct nk_thread *thread, nk_time_t date,
			 nk_time_t *was)
{
	struct nk_instance *nk;
	int ret = 0;

	if (!nk_thread_valid(thread) || date < 0)
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	/* Delayed for ever (a wait without timeout): nothing to move. */
	if (!(thread->state & NK_THREAD_DELAYED) || !thread->rtimer.armed) {
		ret = -EAGAIN;
	} else {
		if (was)
			*was = thread->rtimer.date;
		nk_timer_start_locked(&thread->rtimer, date, 0, NK_ABSOLUTE);
	}
	nk_lock_release(nk);
	return ret;
}

/* Lock held. */
static void thread_set_periodic(struct nk_thread *thread, nk_time_t start,
				nk_time_t period)
{
	nk_journal_obj(thread);
	thread->period = period;
	thread->next_release =
	    start == NK_INFINITE ? nk_date_add(nk_clock_now(thread->nk), period)
				 : start;
}

int nk_thread_set_periodic(struct nk_instance *nk, nk_time_t start,
			   nk_time_t period)
{
	struct nk_thread *self;

	if (!nk_instance_valid(nk) || start < 0 || period < 0)
		return -EINVAL;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self)
		thread_set_periodic(self, start, period);
	nk_lock_release(nk);
	return self ? 0 : -EPERM;
}

int nk_thread_make_periodic(struct nk_thread *thread, nk_time_t start,
			    nk_time_t period)
{
	struct nk_instance *nk;
	int ret = 0;

	if (!nk_thread_valid(thread) || nk_thread_is_root(thread) ||
	    start < 0 || period < 0)
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	if (thread->state & NK_THREAD_ZOMBIE)
		ret = -ESRCH;
	else
		thread_set_periodic(thread, start, period);
	nk_lock_release(nk);
	return ret;
}

nk_hot int nk_thread_wait_period(struct nk_instance *nk,
				 unsigned long *overruns)
{
	struct nk_thread *self;
	nk_time_t now;
	unsigned long missed = 0;
	int ret;

	if (!nk_instance_valid(nk))
		return -EINVAL;
	nk_lock_acquire(nk);
	ret = check_may_block(nk, &self);
	if (ret == 0 && self->period == 0)
		ret = -EWOULDBLOCK;
	if (ret)
		goto out;
	nk_journal_obj(self);
	now = nk_clock_now(nk);
	if (now < self->next_release) {
		nk_time_t release = self->next_release;

		self->release_awaited = release;
		ret = thread_delay(self, release);
		nk_journal_obj(self);
		self->release_awaited = 0;
		if (ret)
			goto out;
		now = nk_clock_now(nk);
		if (self->next_release != release || self->period == 0) {
			/* Made periodic anew (or stopped) meanwhile: this
			 * release stands for the new grid's points passed
			 * while it waited (no overrun), the next one is the
			 * first to come. */
			if (self->period > 0 && self->next_release <= now)
				self->next_release = nk_grid_next(
				    self->next_release, self->period, now);
			goto out;
		}
	}
	/*
	 * This call's release has passed, before the call or while it
	 * waited (woken late: a more urgent thread, a stall); every later
	 * point up to now is an overrun of this call, as Cobalt counts
	 * them once the waiter runs, so that the caller's next wait is for
	 * a point to come.
	 */
	missed = (unsigned long)((now - self->next_release) / self->period);
	self->next_release =
	    nk_grid_next(self->next_release, self->period, now);
	if (missed)
		ret = -ETIMEDOUT;
out:
	if (overruns)
		*overruns = missed;
	nk_lock_release(nk);
	return ret;
}

int nk_thread_unblock(struct nk_thread *thread)
{
	struct nk_instance *nk;
	int ret = 0;

	if (!nk_thread_valid(thread) || nk_thread_is_root(thread))
		return -EINVAL;
	nk = thread->nk;
	nk_lock_acquire(nk);
	if (thread->state & NK_THREAD_ZOMBIE) {
		ret = -ESRCH;
	} else if (!(thread->state & (NK_THREAD_PENDING | NK_THREAD_DELAYED))) {
		ret = -EAGAIN;
	} else if (thread->info & NK_INFO_NOBREAK) {
		/* A relock: it goes on waiting, as it would after a break. */
	} else {
		nk_journal_obj(thread);
		thread->info |= NK_INFO_UNBLOCKED;
		if (thread->state & NK_THREAD_PENDING)
			nk_synch_forget_waiter(thread);
		nk_trace(nk, thread->sched->cpu, NK_TRACE_WAKE, thread,
			 "unblock", 0, NK_WAKE_UNBLOCKED);
		nk_thread_release(thread,
				  NK_THREAD_PENDING | NK_THREAD_DELAYED);
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
	return ret;
}

void nk_thread_handle_interrupted(struct nk_instance *nk,
				  struct nk_thread *thread)
{
	(void)nk;
	/* Waiting for its CPU only, or suspended: nothing to break. */
	(void)nk_thread_unblock(thread);
}

/* --- modes --- */

/* The caller leaves primary mode.  Lock held, caller current. */
static void thread_relax(struct nk_thread *self, int reason, long nr)
{
	struct nk_instance *nk = self->nk;

	nk_thread_block(self, NK_THREAD_RELAXED, NK_INFINITE, NULL);
	nk_journal_obj(self);
	self->stats.mode_switches++;
	nk_trace(nk, self->sched->cpu, NK_TRACE_RELAX, self, NULL, 0, reason);
	if (reason == NK_RELAX_SYSCALL && (self->mode & NK_MODE_WARNSW) &&
	    nk->be->warn)
		nk->be->warn(nk->be_priv, self->shadow,
			     reason << 16 | (int)(nr & 0xffff));
	nk_sched_run(nk);
}

void nk_thread_leave(struct nk_thread *self)
{
	thread_relax(self, NK_RELAX_EXPLICIT, -1);
	nk_thread_unlink(self);
	nk_personality_exit(self);
	nk_thread_free(self);
}

void nk_thread_handle_relax(struct nk_instance *nk, int reason, long nr)
{
	struct nk_thread *self;

	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self && self->sched->curr == self)
		thread_relax(self, reason, nr);
	nk_lock_release(nk);
}

void nk_thread_handle_harden(struct nk_instance *nk)
{
	struct nk_thread *self = nk_current(nk);

	if (self == NULL || !(self->state & NK_THREAD_RELAXED))
		return;
	nk_trace(nk, self->sched->cpu, NK_TRACE_HARDEN, self, NULL, 0, 0);
	nk_thread_release(self, NK_THREAD_RELAXED);
	nk_sched_run(nk);
	/* Wait for the CPU (the token is already there if it was idle). */
	nk->be->switch_to(nk->be_priv, self->shadow, NULL, NK_SWITCH_PARK);
	nk_thread_check_cancel(self);
}

int nk_thread_relax(struct nk_instance *nk)
{
	struct nk_thread *self;
	int ret;

	if (!nk_instance_valid(nk))
		return -EINVAL;
	nk_lock_acquire(nk);
	ret = check_may_block(nk, &self);
	if (ret == 0)
		thread_relax(self, NK_RELAX_EXPLICIT, -1);
	nk_lock_release(nk);
	return ret;
}

int nk_thread_harden(struct nk_instance *nk)
{
	struct nk_thread *self;

	if (!nk_instance_valid(nk))
		return -EINVAL;
	/* Entering the nucleus is what hardens a relaxed thread. */
	nk_lock_acquire(nk);
	self = nk_current(nk);
	nk_lock_release(nk);
	return self ? 0 : -EPERM;
}

int nk_thread_set_mode(struct nk_instance *nk, unsigned int clear,
		       unsigned int set, unsigned int *old)
{
	struct nk_thread *self;

	if (!nk_instance_valid(nk) || ((clear | set) & ~NK_MODE_WARNSW))
		return -EINVAL;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self) {
		if (old)
			*old = self->mode;
		nk_journal_obj(self);
		self->mode = (self->mode & ~clear) | set;
	}
	nk_lock_release(nk);
	return self ? 0 : -EPERM;
}

/* --- accessors --- */

struct nk_thread *nk_thread_self(struct nk_instance *nk)
{
	if (!nk_instance_valid(nk))
		return NULL;
	return nk_current(nk);
}

struct nk_instance *nk_thread_instance(struct nk_thread *thread)
{
	return nk_thread_valid(thread) ? thread->nk : NULL;
}

bool nk_thread_here(struct nk_thread *thread)
{
	return nk_thread_valid(thread) && thread->member == thread->nk->member;
}

const char *nk_thread_name(struct nk_thread *thread)
{
	return nk_thread_valid(thread) ? thread->name : NULL;
}

int nk_thread_priority(struct nk_thread *thread)
{
	return nk_thread_valid(thread) ? thread->base_prio : -EINVAL;
}

int nk_thread_effective_priority(struct nk_thread *thread)
{
	return nk_thread_valid(thread) ? thread->prio : -EINVAL;
}

int nk_thread_cpu(struct nk_thread *thread)
{
	return nk_thread_valid(thread) ? thread->sched->cpu : -EINVAL;
}

unsigned int nk_thread_state(struct nk_thread *thread)
{
	unsigned int state;

	if (!nk_thread_valid(thread))
		return 0;
	state = thread->state & ~NK_THREAD_ROOT;
	if (thread->sched->curr == thread)
		state |= NK_THREAD_CURRENT;
	return state;
}

/* Whether the backend can say something of @thread's OS thread. */
static bool thread_has_host(struct nk_thread *thread)
{
	return thread->shadow && !(thread->state & NK_THREAD_ZOMBIE);
}

int nk_thread_stats(struct nk_thread *thread, struct nk_thread_stats *stats)
{
	const struct nk_backend_ops *be;
	struct nk_instance *nk;
	pid_t tid = 0;

	if (!nk_thread_valid(thread) || stats == NULL)
		return -EINVAL;
	nk = thread->nk;
	be = nk->be;
	nk_lock_acquire(nk);
	*stats = thread->stats;
	if (thread->sched->curr == thread)
		stats->exec_time +=
		    nk_clock_now(nk) - thread->sched->switched_in;
	if (thread_has_host(thread)) {
		if (be->thread_entries)
			stats->syscalls =
			    be->thread_entries(nk->be_priv, thread->shadow);
		if (be->thread_host)
			be->thread_host(nk->be_priv, thread->shadow, &tid,
					NULL);
	}
	nk_lock_release(nk);
	/* System calls, kept out of the lock: the thread may end meanwhile,
	 * and then its id reads nothing. */
	if (tid > 0 && be->host_faults)
		stats->page_faults = be->host_faults(nk->be_priv, tid);
	return 0;
}

int nk_thread_host(struct nk_thread *thread, pid_t *tid, pthread_t *pthread)
{
	struct nk_instance *nk;
	pid_t t = 0;
	pthread_t pt = 0;
	int ret = 0;

	if (!nk_thread_valid(thread) || nk_thread_is_root(thread))
		return -EINVAL;
	nk = thread->nk;
	if (nk->be->thread_host == NULL)
		return -ENOSYS;
	nk_lock_acquire(nk);
	if (thread_has_host(thread))
		nk->be->thread_host(nk->be_priv, thread->shadow, &t, &pt);
	else
		ret = -ESRCH;
	nk_lock_release(nk);
	if (ret == 0 && tid)
		*tid = t;
	if (ret == 0 && pthread)
		*pthread = pt;
	return ret;
}

int *nk_thread_errno(struct nk_thread *thread)
{
	if (!nk_thread_valid(thread))
		return NULL;
	/* Set through the pointer, under the lock for another thread's. */
	nk_journal_obj(&thread->errno_slot);
	return &thread->errno_slot;
}

const char *nk_thread_wait_word(unsigned int state, const char *wchan_name)
{
	if (state & NK_THREAD_PENDING)
		return wchan_name;
	if (state & NK_THREAD_DELAYED)
		return "delay";
	if (state & NK_THREAD_SUSPENDED)
		return "suspend";
	if (state & NK_THREAD_DORMANT)
		return "start";
	return NULL;
}

const char *nk_thread_wait_name(struct nk_thread *thread)
{
	return nk_thread_wait_word(
	    thread->state,
	    thread->state & NK_THREAD_PENDING ? thread->wchan->name : NULL);
}
