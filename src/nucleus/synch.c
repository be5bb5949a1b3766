/* SPDX-License-Identifier: MIT */
/*
 * The wait queue under every synchronisation object, with ownership,
 * priority inheritance (transitive), priority ceiling and owner-cycle
 * detection.  Priority inheritance lives here and nowhere else.
 *
 * A thread's effective priority is the highest of its base priority,
 * the ceilings of the PP synchs it owns and the priority of the first
 * waiter of each PI synch it owns (waiters of a PI synch are kept in
 * priority order).  Whenever one of those inputs changes, the chain
 * update below recomputes it and, if the thread itself waits on a PI
 * synch, walks on to that synch's owner.
 */
#include "internal.h"

#include <string.h>

static bool synch_valid(const struct nk_synch *synch)
{
	return synch && synch->magic == NK_SYNCH_MAGIC;
}

/* The instance of @synch, NULL for a bad one (for the lock check). */
static inline struct nk_instance *synch_instance(const struct nk_synch *synch)
{
	return synch_valid(synch) ? synch->nk : NULL;
}

int nk_synch_init(struct nk_instance *nk, struct nk_synch *synch,
		  const char *name, unsigned int flags, int ceiling)
{
	if (!nk_instance_valid(nk) || synch == NULL)
		return -EINVAL;
	if (flags &
	    ~(NK_SYNCH_PRIO | NK_SYNCH_OWNER | NK_SYNCH_PI | NK_SYNCH_PP))
		return -EINVAL;
	if ((flags & NK_SYNCH_PI) && (flags & NK_SYNCH_PP))
		return -EINVAL;
	if ((flags & NK_SYNCH_PP) &&
	    (ceiling < NK_PRIO_MIN || ceiling > NK_PRIO_MAX))
		return -EINVAL;
	if (name && strlen(name) >= NK_NAME_MAX)
		return -EINVAL;
	if (flags & NK_SYNCH_PI)
		flags |= NK_SYNCH_OWNER | NK_SYNCH_PRIO;
	if (flags & NK_SYNCH_PP)
		flags |= NK_SYNCH_OWNER;
	nk_journal_obj(synch);
	memset(synch, 0, sizeof(*synch));
	synch->nk = nk;
	synch->flags = flags;
	synch->ceiling = ceiling;
	nk_list_init(&synch->waiters);
	nk_list_init(&synch->owner_link);
	snprintf(synch->name, sizeof(synch->name), "%s", name ? name : "");
	synch->trace_id = nk_trace_id(nk);
	synch->magic = NK_SYNCH_MAGIC;
	return 0;
}

int nk_synch_boost_of(struct nk_thread *thread, const struct nk_synch **cause)
{
	struct nk_list *pos;
	int boost = -1;

	nk_list_for_each(pos, &thread->owned) {
		struct nk_synch *synch =
		    nk_list_entry(pos, struct nk_synch, owner_link);
		int prio = -1;

		if (synch->flags & NK_SYNCH_PP)
			prio = synch->ceiling;
		else if ((synch->flags & NK_SYNCH_PI) && synch->nr_waiters)
			prio = nk_list_first_entry(&synch->waiters,
						   struct nk_thread, wait_link)
				   ->prio;
		if (prio > boost) {
			boost = prio;
			*cause = synch;
		}
	}
	return boost;
}

void nk_synch_update_chain(struct nk_thread *thread)
{
	/* Owner cycles are refused at acquire time; the bound only keeps a
	 * skin's misuse of nk_synch_sleep on its own PI synch finite. */
	unsigned int hops = thread->nk->core->nr_threads + 1;

	while (thread && hops--) {
		const struct nk_synch *cause = NULL;
		int boost = nk_synch_boost_of(thread, &cause);
		int want =
		    boost > thread->base_prio ? boost : thread->base_prio;
		struct nk_synch *wchan;

		if (want == thread->prio)
			return;
		nk_thread_set_effective(
		    thread, want, boost > thread->base_prio ? cause : NULL);
		wchan = thread->wchan;
		if (!(thread->state & NK_THREAD_PENDING) ||
		    !(wchan->flags & NK_SYNCH_PI))
			return;
		thread = wchan->owner;
	}
}

static nk_hot void synch_enqueue(struct nk_synch *synch,
				 struct nk_thread *thread)
{
	struct nk_list *pos;

	nk_journal_obj(synch);
	nk_journal_obj(thread);
	if (synch->flags & NK_SYNCH_PRIO) {
		/* Before the first less urgent waiter: FIFO within a level. */
		nk_list_for_each(pos, &synch->waiters) {
			if (nk_list_entry(pos, struct nk_thread, wait_link)
				->prio < thread->prio)
				break;
		}
		nk_list_add_before(&thread->wait_link, pos);
	} else {
		nk_list_add_before(&thread->wait_link, &synch->waiters);
	}
	synch->nr_waiters++;
}

static nk_hot void synch_dequeue(struct nk_synch *synch,
				 struct nk_thread *thread)
{
	nk_journal_obj(synch);
	nk_journal_obj(thread);
	nk_list_del(&thread->wait_link);
	synch->nr_waiters--;
}

void nk_synch_requeue_waiter(struct nk_thread *thread)
{
	struct nk_synch *synch = thread->wchan;

	if (!(synch->flags & NK_SYNCH_PRIO))
		return;
	synch_dequeue(synch, thread);
	synch_enqueue(synch, thread);
}

/* @thread leaves @synch's queue early (timeout, unblock, deletion). */
void nk_synch_forget_waiter(struct nk_thread *thread)
{
	struct nk_synch *synch = thread->wchan;

	synch_dequeue(synch, thread);
	if ((synch->flags & NK_SYNCH_PI) && synch->owner)
		nk_synch_update_chain(synch->owner);
}

static nk_hot void synch_wake(struct nk_synch *synch, struct nk_thread *thread,
			      unsigned int info)
{
	synch_dequeue(synch, thread);
	thread->info |= info;
	nk_trace(synch->nk, thread->sched->cpu, NK_TRACE_WAKE, thread,
		 synch->name, synch->trace_id, nk_thread_wait_result(thread));
	nk_thread_release(thread, NK_THREAD_PENDING | NK_THREAD_DELAYED);
}

static void synch_set_owner(struct nk_synch *synch, struct nk_thread *thread)
{
	nk_journal_obj(synch);
	synch->owner = thread;
	nk_list_add_before(&synch->owner_link, &thread->owned);
	nk_synch_update_chain(thread);
}

/*
 * @owner gives @synch up: the first waiter (if any) owns it now, with
 * @info telling it why.  Both owners' priorities follow.
 */
static void synch_transfer(struct nk_synch *synch, unsigned int info)
{
	struct nk_thread *old = synch->owner, *next;

	nk_journal_obj(synch);
	nk_list_del(&synch->owner_link);
	synch->owner = NULL;
	if (synch->nr_waiters) {
		next = nk_list_first_entry(&synch->waiters, struct nk_thread,
					   wait_link);
		synch_wake(synch, next, info);
		nk_journal_obj(next);
		next->info |= NK_INFO_HANDED;
		synch_set_owner(synch, next);
	}
	nk_synch_update_chain(old);
}

void nk_synch_release_all(struct nk_thread *thread)
{
	while (!nk_list_empty(&thread->owned))
		synch_transfer(nk_list_first_entry(&thread->owned,
						   struct nk_synch, owner_link),
			       NK_INFO_OWNER_DEAD);
}

int nk_synch_destroy_locked(struct nk_synch *synch)
{
	int woken;

	nk_check_locked(synch_instance(synch));
	if (!synch_valid(synch))
		return -EINVAL;
	woken = nk_synch_flush(synch, NK_WAKE_DELETED);
	nk_journal_obj(synch);
	if (synch->owner) {
		struct nk_thread *owner = synch->owner;

		nk_journal_obj(owner);
		if (owner->info & NK_INFO_HANDED)
			owner->info |= NK_INFO_DELETED;
		nk_list_del(&synch->owner_link);
		synch->owner = NULL;
		nk_synch_update_chain(owner);
	}
	synch->magic = 0;
	return woken;
}

int nk_synch_destroy(struct nk_synch *synch)
{
	struct nk_instance *nk;
	int ret;

	if (!synch_valid(synch))
		return -EINVAL;
	nk = synch->nk;
	nk_lock_acquire(nk);
	ret = nk_synch_destroy_locked(synch);
	nk_sched_run(nk);
	nk_lock_release(nk);
	return ret < 0 ? ret : 0;
}

static nk_hot int synch_block(struct nk_synch *synch, struct nk_thread *self,
			      nk_time_t date)
{
	struct nk_instance *nk = synch->nk;

	if (date != NK_INFINITE && date <= nk_clock_now(nk))
		return NK_WAKE_TIMEOUT;
	synch_enqueue(synch, self);
	nk_thread_block(self,
			NK_THREAD_PENDING |
			    (date != NK_INFINITE ? NK_THREAD_DELAYED : 0),
			date, synch);
	nk_trace(nk, self->sched->cpu, NK_TRACE_BLOCK, self, synch->name,
		 synch->trace_id, 0);
	if ((synch->flags & NK_SYNCH_PI) && synch->owner)
		nk_synch_update_chain(synch->owner);
	nk_sched_run(nk);
	return nk_thread_wait_result(self);
}

static int synch_may_block(struct nk_synch *synch, struct nk_thread **self,
			   enum nk_tmode mode)
{
	if (!synch_valid(synch) || (mode != NK_RELATIVE && mode != NK_ABSOLUTE))
		return -EINVAL;
	*self = nk_current(synch->nk);
	if (*self == NULL || (*self)->lock_count > 0)
		return -EPERM;
	return 0;
}

nk_hot int nk_synch_sleep_ctx(struct nk_synch *synch, void *ctx, size_t size,
			      nk_time_t timeout, enum nk_tmode mode)
{
	struct nk_thread *self;
	void *seen = ctx;
	int ret;

	nk_check_locked(synch_instance(synch));
	ret = synch_may_block(synch, &self, mode);
	if (ret)
		return ret;
	if (synch->owner == self)
		return -EDEADLK;
	/* In a session a waker may be another process: it sees a copy in
	 * the instance's memory, not the caller's stack. */
	if (ctx && synch->nk->arena) {
		seen = nk_alloc(synch->nk, size);
		if (seen == NULL)
			return -ENOMEM;
		memcpy(seen, ctx, size);
	}
	nk_journal_obj(self);
	self->wait_ctx = seen;
	ret =
	    synch_block(synch, self, nk_abs_timeout(synch->nk, timeout, mode));
	nk_journal_obj(self);
	self->wait_ctx = NULL;
	if (seen != ctx) {
		memcpy(ctx, seen, size);
		nk_free(synch->nk, seen);
	}
	return ret;
}

nk_hot int nk_synch_sleep(struct nk_synch *synch, nk_time_t timeout,
			  enum nk_tmode mode)
{
	nk_check_locked(synch_instance(synch));
	return nk_synch_sleep_ctx(synch, NULL, 0, timeout, mode);
}

struct nk_thread *nk_synch_next_waiter(struct nk_synch *synch,
				       struct nk_thread *after)
{
	struct nk_list *next;

	nk_check_locked(synch_instance(synch));
	if (!synch_valid(synch))
		return NULL;
	if (after == NULL)
		next = synch->waiters.next;
	else if (nk_thread_valid(after) && after->wchan == synch &&
		 (after->state & NK_THREAD_PENDING))
		next = after->wait_link.next;
	else
		return NULL;
	return next == &synch->waiters
		   ? NULL
		   : nk_list_entry(next, struct nk_thread, wait_link);
}

void *nk_synch_waiter_ctx(struct nk_thread *thread)
{
	nk_check_locked(nk_thread_valid(thread) ? thread->nk : NULL);
	if (!nk_thread_valid(thread) || !(thread->state & NK_THREAD_PENDING))
		return NULL;
	/* Its waker serves the request there: noted, in a session. */
	nk_journal_block(thread->wait_ctx);
	return thread->wait_ctx;
}

nk_hot struct nk_thread *nk_synch_wakeup_one(struct nk_synch *synch)
{
	struct nk_thread *thread;

	nk_check_locked(synch_instance(synch));
	if (!synch_valid(synch) || synch->nr_waiters == 0)
		return NULL;
	thread =
	    nk_list_first_entry(&synch->waiters, struct nk_thread, wait_link);
	synch_wake(synch, thread, 0);
	if ((synch->flags & NK_SYNCH_PI) && synch->owner)
		nk_synch_update_chain(synch->owner);
	return thread;
}

int nk_synch_wakeup_this(struct nk_synch *synch, struct nk_thread *thread)
{
	nk_check_locked(synch_instance(synch));
	if (!synch_valid(synch) || !nk_thread_valid(thread))
		return -EINVAL;
	if (!(thread->state & NK_THREAD_PENDING) || thread->wchan != synch)
		return -ESRCH;
	synch_wake(synch, thread, 0);
	if ((synch->flags & NK_SYNCH_PI) && synch->owner)
		nk_synch_update_chain(synch->owner);
	return 0;
}

static unsigned int wake_info(enum nk_wake reason)
{
	switch (reason) {
	case NK_WAKE_TIMEOUT:
		return NK_INFO_TIMEOUT;
	case NK_WAKE_DELETED:
		return NK_INFO_DELETED;
	case NK_WAKE_UNBLOCKED:
		return NK_INFO_UNBLOCKED;
	case NK_WAKE_OWNER_DEAD:
		return NK_INFO_OWNER_DEAD;
	default:
		return 0;
	}
}

int nk_synch_flush(struct nk_synch *synch, enum nk_wake reason)
{
	int woken = 0;

	nk_check_locked(synch_instance(synch));
	if (!synch_valid(synch))
		return -EINVAL;
	while (synch->nr_waiters) {
		synch_wake(synch,
			   nk_list_first_entry(&synch->waiters,
					       struct nk_thread, wait_link),
			   wake_info(reason));
		woken++;
	}
	if ((synch->flags & NK_SYNCH_PI) && synch->owner)
		nk_synch_update_chain(synch->owner);
	return woken;
}

/* Would @self waiting for @synch close a cycle of owners? */
static bool synch_closes_cycle(struct nk_synch *synch, struct nk_thread *self)
{
	struct nk_thread *owner = synch->owner;
	unsigned int hops = synch->nk->core->nr_threads + 1;

	while (owner && hops--) {
		if (owner == self)
			return true;
		if (!(owner->state & NK_THREAD_PENDING) ||
		    !(owner->wchan->flags & NK_SYNCH_OWNER))
			return false;
		owner = owner->wchan->owner;
	}
	return owner != NULL;
}

int nk_synch_try_acquire(struct nk_synch *synch, struct nk_thread *thread)
{
	nk_check_locked(synch_instance(synch));
	if (!synch_valid(synch) || !(synch->flags & NK_SYNCH_OWNER) ||
	    !nk_thread_valid(thread) ||
	    (thread->state & (NK_THREAD_ZOMBIE | NK_THREAD_ROOT)))
		return -EINVAL;
	if (synch->owner)
		return -EBUSY;
	if ((synch->flags & NK_SYNCH_PP) && synch->ceiling < thread->base_prio)
		return -EPERM;
	synch_set_owner(synch, thread);
	return 0;
}

/* Lock held.  @refuse_cycle: -EDEADLK rather than close an owner cycle. */
static int synch_acquire(struct nk_synch *synch, nk_time_t timeout,
			 enum nk_tmode mode, bool refuse_cycle)
{
	struct nk_thread *self;
	int ret;

	ret = synch_may_block(synch, &self, mode);
	if (ret)
		return ret;
	if (!(synch->flags & NK_SYNCH_OWNER))
		return -EINVAL;
	if (synch->owner == self)
		return -EDEADLK;
	ret = nk_synch_try_acquire(synch, self);
	if (ret != -EBUSY)
		return ret;
	if (refuse_cycle && synch_closes_cycle(synch, self))
		return -EDEADLK;
	ret =
	    synch_block(synch, self, nk_abs_timeout(synch->nk, timeout, mode));
	nk_journal_obj(self);
	self->info &= ~NK_INFO_HANDED;
	/* Deleted: @synch may be freed memory by now. */
	nk_assert(ret == NK_WAKE_DELETED ||
		  (ret < 0 && ret != NK_WAKE_OWNER_DEAD
		       ? synch->owner != self
		       : synch->owner == self));
	return ret;
}

int nk_synch_acquire(struct nk_synch *synch, nk_time_t timeout,
		     enum nk_tmode mode)
{
	nk_check_locked(synch_instance(synch));
	return synch_acquire(synch, timeout, mode, true);
}

int nk_synch_reacquire(struct nk_synch *synch)
{
	struct nk_thread *self;
	int ret;

	nk_check_locked(synch_instance(synch));
	/*
	 * The caller must come back owning @synch, as a condition wait
	 * does: a cycle of owners may be broken by another waiter's
	 * timeout, and an unblock is no reason to give up either.  The
	 * wait stays queued through unblocks: a waiter taken off the queue
	 * could not know whether @synch was deleted before it ran again.
	 */
	self = nk_current(synch->nk);
	if (self) {
		nk_journal_obj(self);
		self->info |= NK_INFO_NOBREAK;
	}
	ret = synch_acquire(synch, NK_INFINITE, NK_RELATIVE, false);
	if (self) {
		nk_journal_obj(self);
		self->info &= ~NK_INFO_NOBREAK;
	}
	return ret;
}

int nk_synch_release(struct nk_synch *synch)
{
	nk_check_locked(synch_instance(synch));
	if (!synch_valid(synch) || !(synch->flags & NK_SYNCH_OWNER))
		return -EINVAL;
	if (synch->owner == NULL || synch->owner != nk_current(synch->nk))
		return -EPERM;
	synch_transfer(synch, 0);
	return 0;
}

struct nk_thread *nk_synch_owner(struct nk_synch *synch)
{
	struct nk_thread *owner;

	if (!synch_valid(synch))
		return NULL;
	nk_lock_acquire(synch->nk);
	owner = synch->owner;
	nk_lock_release(synch->nk);
	return owner;
}

unsigned int nk_synch_nr_waiters(struct nk_synch *synch)
{
	unsigned int n;

	if (!synch_valid(synch))
		return 0;
	nk_lock_acquire(synch->nk);
	n = synch->nr_waiters;
	nk_lock_release(synch->nk);
	return n;
}
