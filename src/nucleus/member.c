/* SPDX-License-Identifier: MIT */
/*
 * A member process of a session that died, seen by another that shares
 * its instance (docs/architecture.md, "A member dying"): what it left
 * there goes, so that the others go on.  Its threads leave every queue
 * as a deleted thread does (mutexes pass on with NK_WAKE_OWNER_DEAD,
 * joiners wake; the skins' hooks, this process's copy of them, let go
 * of their part), and a CPU one of them ran as current picks its next
 * thread; then each skin forgets the objects only that process could
 * use, and their memory (nk_alloc_local()) is freed: their timers were
 * disarmed first, and only that process's threads, gone now, used them.
 */
#include "internal.h"

/* Lock held: @thread, the dead member's, leaves and is freed. */
static void thread_gone(struct nk_thread *thread)
{
	struct nk_sched *sched = thread->sched;

	if (sched->curr == thread) {
		/* Handlers it ran on its stack died with it. */
		sched->irq_depth = 0;
		sched->curr = sched->root;
		nk_sched_mark(sched);
	}
	if (!(thread->state & NK_THREAD_ZOMBIE)) {
		/* The copy of its wait context, in the instance's memory
		 * (nk_synch_sleep_ctx). */
		if (thread->state & NK_THREAD_PENDING)
			nk_free(thread->nk, thread->wait_ctx);
		nk_thread_unlink(thread);
		thread->state |= NK_THREAD_ZOMBIE;
		nk_personality_exit(thread);
		nk_synch_flush(&thread->joiners, NK_WAKE_OK);
	}
	nk_thread_free(thread);
}

/*
 * Lock held: @thread, another member's, was deleted by a section whole
 * now, whose maker may have died before the backend ended its OS thread
 * (that waits for the release): end it again, which does nothing to one
 * that was.
 */
static void thread_kill_again(struct nk_thread *thread)
{
	struct nk_instance *nk = thread->nk;

	if ((thread->state & NK_THREAD_ZOMBIE) &&
	    (thread->info & NK_INFO_KILLED))
		nk->be->thread_kill(nk->be_priv, thread->shadow);
}

void nk_member_handle_gone(struct nk_instance *nk, int member)
{
	struct nk_list *pos, *next;

	for (int cpu = 0; cpu < nk->nr_cpus; cpu++)
		nk_timer_member_gone(&nk->scheds[cpu], member);
	nk_list_for_each_safe(pos, next, &nk->core->threads) {
		struct nk_thread *thread =
		    nk_list_entry(pos, struct nk_thread, instance_link);

		if (thread->member == member)
			thread_gone(thread);
		else
			thread_kill_again(thread);
	}
	/* Its dead ones it had yet to free. */
	nk_list_for_each_safe(pos, next, &nk->core->reapable) {
		struct nk_thread *thread =
		    nk_list_entry(pos, struct nk_thread, instance_link);

		if (thread->member == member)
			nk_thread_free(thread);
		else
			thread_kill_again(thread);
	}
	nk_personality_member_gone(nk, member);
	nk_local_member_gone(nk, member);
	nk_sched_run(nk);
}
