/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU scheduler: a 256-level ready queue with a two-level bitmap
 * (O(1) pick), FIFO within a level, round robin at quantum boundaries,
 * and the one place where the current thread of a CPU changes.
 *
 * The current thread is never in the ready queue.  When it is preempted
 * it goes back to the head of its level (POSIX); when it yields or its
 * round-robin quantum ends, to the tail.
 */
#include "internal.h"

int nk_sched_init(struct nk_instance *nk, struct nk_sched *sched, int cpu)
{
	struct nk_thread *root;

	root = nk_alloc(nk, sizeof(*root));
	if (root == NULL)
		return -ENOMEM;
	nk_journal_obj(sched);
	sched->nk = nk;
	sched->cpu = cpu;
	for (int i = 0; i < NK_NR_PRIO; i++)
		nk_list_init(&sched->levels[i]);
	for (int m = 0; m < NK_MAX_MEMBERS; m++) {
		nk_rbtree_init(&sched->timers[m]);
		sched->programmed[m] = NK_INFINITE;
	}
	/* The root thread stands for Linux: below every real priority. */
	root->magic = NK_THREAD_MAGIC;
	root->nk = nk;
	root->sched = sched;
	root->state = NK_THREAD_ROOT;
	root->base_prio = root->prio = -1;
	snprintf(root->name, sizeof(root->name), "root%d", cpu);
	root->trace_id = nk_trace_id(nk);
	nk_list_init(&root->ready_link);
	nk_list_init(&root->owned);
	sched->root = root;
	sched->curr = root;
	/* Linux has had the CPU from here on, not since the clock's zero. */
	sched->switched_in = nk_clock_now(nk);
	nk_timer_init_own(nk, &sched->rr_timer, cpu, NK_TIMER_RR, sched);
	return 0;
}

static int sched_top_prio(const struct nk_sched *sched)
{
	int word, bit;

	if (sched->level_summary == 0)
		return -1;
	word = 31 - __builtin_clz(sched->level_summary);
	bit = 31 - __builtin_clz(sched->level_map[word]);
	return word * 32 + bit;
}

nk_hot void nk_sched_enqueue(struct nk_thread *thread, bool at_head)
{
	struct nk_sched *sched = thread->sched;
	int prio = thread->prio;

	nk_assert(!(thread->state & NK_THREAD_READY));
	nk_assert(prio >= 0 && prio < NK_NR_PRIO);
	nk_journal_obj(thread);
	nk_sched_note(sched);
	if (at_head)
		nk_list_add_after(&thread->ready_link, &sched->levels[prio]);
	else
		nk_list_add_before(&thread->ready_link, &sched->levels[prio]);
	sched->level_map[prio / 32] |= 1u << (prio % 32);
	sched->level_summary |= 1u << (prio / 32);
	thread->state |= NK_THREAD_READY;
}

nk_hot void nk_sched_dequeue(struct nk_thread *thread)
{
	struct nk_sched *sched = thread->sched;
	int prio = thread->prio;

	nk_assert(thread->state & NK_THREAD_READY);
	nk_journal_obj(thread);
	nk_sched_note(sched);
	nk_list_del(&thread->ready_link);
	if (nk_list_empty(&sched->levels[prio])) {
		sched->level_map[prio / 32] &= ~(1u << (prio % 32));
		if (sched->level_map[prio / 32] == 0)
			sched->level_summary &= ~(1u << (prio / 32));
	}
	thread->state &= ~NK_THREAD_READY;
}

static struct nk_thread *sched_pop(struct nk_sched *sched)
{
	int prio = sched_top_prio(sched);
	struct nk_thread *next;

	if (prio < 0)
		return sched->root;
	next = nk_list_first_entry(&sched->levels[prio], struct nk_thread,
				   ready_link);
	nk_sched_dequeue(next);
	return next;
}

nk_hot void nk_sched_mark(struct nk_sched *sched)
{
	nk_sched_note(sched);
	sched->resched = true;
}

/* Charge the time since the last switch to the current thread. */
nk_hot void nk_sched_account(struct nk_sched *sched, nk_time_t now)
{
	struct nk_thread *curr = sched->curr;

	nk_journal_obj(curr);
	nk_sched_note(sched);
	if (!(curr->state & NK_THREAD_ROOT))
		curr->stats.exec_time += now - sched->switched_in;
	else
		sched->idle_time += now - sched->switched_in;
	sched->switched_in = now;
}

/* Round robin: the quantum runs while the thread is current. */
nk_hot void nk_sched_rr_arm(struct nk_sched *sched)
{
	struct nk_thread *curr = sched->curr;

	if (curr->policy != NK_SCHED_RR || (curr->state & NK_THREAD_ROOT))
		return;
	nk_journal_obj(curr);
	nk_sched_note(sched);
	if (curr->rr_budget <= 0)
		curr->rr_budget = curr->quantum;
	sched->rr_start = nk_clock_now(sched->nk);
	nk_timer_start_locked(&sched->rr_timer, curr->rr_budget, 0,
			      NK_RELATIVE);
}

/*
 * Give @thread a new policy and quantum; its time slice restarts (see
 * nk_thread_set_policy).  A pending NK_INFO_YIELD can only be the
 * rotation the old slice asked for: nk_thread_yield() consumes its own
 * before returning.  Lock held.
 */
void nk_sched_set_policy(struct nk_thread *thread, enum nk_policy policy,
			 nk_time_t quantum)
{
	struct nk_sched *sched = thread->sched;
	bool current = sched->curr == thread;

	nk_journal_obj(thread);
	if (current && thread->policy == NK_SCHED_RR)
		nk_timer_stop_locked(&sched->rr_timer);
	thread->policy = policy;
	if (policy == NK_SCHED_RR)
		thread->quantum = quantum;
	thread->rr_budget = 0;
	if (current) {
		thread->info &= ~NK_INFO_YIELD;
		nk_sched_rr_arm(sched);
	}
}

void nk_sched_rr_expired(struct nk_timer *timer)
{
	struct nk_sched *sched = timer->cookie;
	struct nk_thread *curr = sched->curr;

	if (curr->policy != NK_SCHED_RR || (curr->state & NK_THREAD_ROOT))
		return;
	/* A fresh quantum, then rotate: to the tail if anyone is level. */
	nk_journal_obj(curr);
	curr->rr_budget = 0;
	curr->info |= NK_INFO_YIELD;
	nk_sched_mark(sched);
	nk_sched_rr_arm(sched);
}

/* What a trace of the switch away from @prev says of it. */
static long switch_reason(const struct nk_thread *prev)
{
	if (prev->state & NK_THREAD_ZOMBIE)
		return NK_TRACE_EXITED;
	if (prev->state & NK_THREAD_RELAXED)
		return NK_TRACE_RELAXED;
	if (prev->state & NK_THREAD_SUSPENDED)
		return NK_TRACE_SUSPENDED;
	return prev->state & NK_BLOCK_BITS ? NK_TRACE_BLOCKED
					   : NK_TRACE_PREEMPTED;
}

static void sched_switch_to(struct nk_sched *sched, struct nk_thread *prev,
			    struct nk_thread *next)
{
	struct nk_instance *nk = sched->nk;
	nk_time_t now = nk_clock_now(nk);
	unsigned int flags = 0;

	nk_journal_obj(prev);
	nk_journal_obj(next);
	nk_sched_note(sched);
	if (prev->policy == NK_SCHED_RR && !(prev->state & NK_THREAD_ROOT)) {
		nk_timer_stop_locked(&sched->rr_timer);
		prev->rr_budget -= now - sched->rr_start;
	}
	nk_sched_account(sched, now);
	sched->curr = next;
	next->stats.switches++;
	nk_sched_rr_arm(sched);
	nk_trace_at(nk, now, sched->cpu, NK_TRACE_SWITCH, next, prev->name,
		    prev->trace_id, switch_reason(prev));
	if (prev->state & NK_THREAD_ZOMBIE)
		flags |= NK_SWITCH_EXIT;
	else if (prev->state & NK_THREAD_RELAXED)
		flags |= NK_SWITCH_RELAX;
	if (prev->sched != sched)
		flags |= NK_SWITCH_MIGRATE; /* see sched_move */
	nk->be->switch_to(
	    nk->be_priv, prev->state & NK_THREAD_ROOT ? NULL : prev->shadow,
	    next->state & NK_THREAD_ROOT ? NULL : next->shadow, flags);
	/* Back as @prev (never after an exit, nor from the idle context). */
	if (!(prev->state & NK_THREAD_ROOT))
		nk_thread_check_cancel(prev);
}

/*
 * Lock held: @thread, current on no CPU or leaving its own (then
 * @runnable says whether it goes on running), now belongs to @to: it
 * joins @to's ready queue if it can run, and its timeout timer moves
 * with it.  A thread leaving its CPU is switched out with
 * NK_SWITCH_MIGRATE (sched_switch_to sees the new CPU in thread->sched);
 * the backend moves any other thread itself (thread_migrate).
 */
static void sched_move(struct nk_thread *thread, struct nk_sched *to,
		       bool runnable)
{
	struct nk_instance *nk = thread->nk;

	nk_journal_obj(thread);
	thread->migrate_to = NULL;
	if (thread->state & NK_THREAD_READY) {
		nk_sched_dequeue(thread);
		runnable = true;
	}
	nk_trace(nk, thread->sched->cpu, NK_TRACE_MIGRATE, thread, NULL, 0,
		 to->cpu);
	thread->sched = to;
	nk_timer_migrate(&thread->rtimer, to->cpu);
	if (runnable) {
		nk_sched_enqueue(thread, false);
		if (thread->prio > to->curr->prio)
			nk_sched_mark(to);
	}
}

/*
 * Make the most urgent ready thread current on @sched.  The caller is
 * the current thread of @sched, or @sched's idle/interrupt context when
 * the current thread is root.  Lock held.  Once a thread is switched back
 * in, decisions taken while it was away (a kick while it waited for its
 * CPU) are applied before it returns to its caller, on the CPU it is
 * back on: it may have been moved meanwhile.
 */
static nk_hot void sched_reschedule(struct nk_sched *sched)
{
	while (sched->resched) {
		struct nk_thread *curr = sched->curr, *next;
		bool runnable =
		    !(curr->state & (NK_BLOCK_BITS | NK_THREAD_ROOT));
		bool rotate;
		int top;

		/* A locked thread keeps its CPU; the flag waits for the unlock.
		 */
		if (runnable && curr->lock_count > 0)
			return;
		nk_sched_note(sched);
		nk_journal_obj(curr);
		sched->resched = false;
		if (curr->migrate_to && !(curr->state & NK_THREAD_ZOMBIE)) {
			struct nk_sched *to = curr->migrate_to;

			sched_move(curr, to, runnable);
			/* Its new CPU hears of it once the lock is free: the
			 * backend has not moved it yet. */
			if (to->resched)
				sched->nk->be->kick(sched->nk->be_priv,
						    to->cpu);
		} else {
			top = sched_top_prio(sched);
			if (runnable) {
				rotate = curr->info & NK_INFO_YIELD;
				curr->info &= ~NK_INFO_YIELD;
				if (top < curr->prio ||
				    (top == curr->prio && !rotate))
					return;
				nk_sched_enqueue(curr, !rotate);
			}
		}
		next = sched_pop(sched);
		if (next == curr)
			return;
		sched_switch_to(sched, curr, next);
		/* Idle context or a relaxed thread: @next runs on its own. */
		if (curr->state & (NK_THREAD_ROOT | NK_THREAD_RELAXED))
			return;
		sched = curr->sched;
	}
}

nk_hot void nk_sched_run(struct nk_instance *nk)
{
	struct nk_thread *self;

	nk_check_locked(nk);
	if (!nk_instance_valid(nk))
		return;
	self = nk_current(nk);
	for (int cpu = 0; cpu < nk->nr_cpus; cpu++) {
		struct nk_sched *sched = &nk->scheds[cpu];

		/* A CPU running pipeline handlers on its current thread's
		 * stack reschedules when they end (irq_exit, irq.c). */
		if (!sched->resched || (self && sched->curr == self) ||
		    sched->irq_depth)
			continue;
		/* An idle CPU has nobody to preempt: switch it from here. */
		if (sched->curr->state & NK_THREAD_ROOT)
			sched_reschedule(sched);
		else
			nk->be->kick(nk->be_priv, cpu);
	}
	if (self && self->sched->curr == self)
		sched_reschedule(self->sched);
}

int nk_thread_set_cpu(struct nk_thread *thread, int cpu)
{
	struct nk_instance *nk;
	struct nk_sched *to;
	int ret = 0;

	if (!nk_thread_valid(thread) || nk_thread_is_root(thread))
		return -EINVAL;
	nk = thread->nk;
	if (cpu < 0 || cpu >= nk->nr_cpus)
		return -EINVAL;
	to = &nk->scheds[cpu];
	nk_lock_acquire(nk);
	if (thread->state & NK_THREAD_ZOMBIE) {
		ret = -ESRCH;
	} else if (thread->sched->curr == thread) {
		/* It leaves its CPU itself, at its next reschedule: now if it
		 * is the caller, at the kick if it runs elsewhere. */
		nk_journal_obj(thread);
		thread->migrate_to = to == thread->sched ? NULL : to;
		if (thread->migrate_to) {
			nk_sched_mark(thread->sched);
			nk_sched_run(nk);
		}
	} else if (to != thread->sched) {
		sched_move(thread, to, false);
		nk->be->thread_migrate(nk->be_priv, thread->shadow, cpu);
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
	return ret;
}

/* Backend handler: @cpu was kicked while idle. */
void nk_sched_handle_resched(struct nk_instance *nk, int cpu)
{
	struct nk_sched *sched = &nk->scheds[cpu];

	if (sched->curr->state & NK_THREAD_ROOT)
		sched_reschedule(sched);
}

/*
 * Backend handler: a kick reached the current thread outside the nucleus
 * (live: the preemption signal).  Runs on that thread, lock not held.
 */
void nk_sched_handle_preempt(struct nk_instance *nk)
{
	struct nk_thread *self;

	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self) {
		nk_thread_check_cancel(self);
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
}

int nk_sched_lock(struct nk_instance *nk)
{
	struct nk_thread *self;
	int ret = 0;

	if (!nk_instance_valid(nk))
		return -EINVAL;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self)
		nk_journal_obj(self);
	if (self == NULL)
		ret = -EPERM;
	else if (self->lock_count == INT32_MAX)
		ret = -EOVERFLOW;
	else
		self->lock_count++;
	nk_lock_release(nk);
	return ret;
}

int nk_sched_unlock(struct nk_instance *nk)
{
	struct nk_thread *self;
	int ret = 0;

	if (!nk_instance_valid(nk))
		return -EINVAL;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	if (self)
		nk_journal_obj(self);
	if (self == NULL || self->lock_count == 0) {
		ret = -EPERM;
	} else if (--self->lock_count == 0) {
		nk_sched_run(nk);
	}
	nk_lock_release(nk);
	return ret;
}

int nk_sched_lock_depth(struct nk_instance *nk)
{
	struct nk_thread *self;
	int ret;

	if (!nk_instance_valid(nk))
		return -EINVAL;
	nk_lock_acquire(nk);
	self = nk_current(nk);
	ret = self ? self->lock_count : -EPERM;
	nk_lock_release(nk);
	return ret;
}
