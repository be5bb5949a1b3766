/* SPDX-License-Identifier: MIT */
/*
 * In a session, each member watches the others that share its instance
 * and cleans up after one that died (docs/architecture.md, "A member
 * dying"): a thread of its own ("fusion-members") looks every
 * LIVE_MEMBERS_WATCH_NS whether each still holds its slot, and whoever
 * sees a death first takes the nucleus lock, makes the backend forget
 * the dead member's shadows and has the nucleus remove its threads and
 * timers.  Dead, a member holds no lock: a poll is all it takes.
 */
#include "live.h"
#include "../../session/nucleus.h"

#include <stdio.h>

#define LIVE_MEMBERS_WATCH_NS (50 * 1000000L)

/*
 * Lock held: no CPU names a shadow of dead process @pid (member
 * @member) any more.  A thread handed to it as the idle waiter, which
 * it would have let in, is let in here, whether it was still the
 * waiter or was rung out of its poll already; so is a thread it made
 * current and was to let in after its release (the debt its gate
 * records, see owe_open()).
 */
static void forget(struct live *live, int member, pid_t pid)
{
	for (int i = 0; i < live->nr_cpus; i++) {
		struct live_cpu_shared *c = &live->sh->cpus[i];
		struct live_shadow *s = atomic_load(&c->idle_waiter);

		live_note_cpu(c);
		nk_journal_obj(&c->deadline[member]);
		nk_journal_obj(&c->irq_tid[member]);
		if (s && s->pid == pid)
			atomic_store(&c->idle_waiter, NULL);
		if ((s && s->pid == pid) ||
		    atomic_load(&c->handoff_pid) == pid) {
			s = atomic_exchange(&c->handoff, NULL);
			if (s && s->pid != pid)
				(void)be_gate_pay(&s->gate,
						  live_debtor(member));
		}
		s = atomic_load(&c->current);
		if (s && s->pid == pid)
			atomic_store(&c->current, NULL);
		else if (s)
			(void)be_gate_pay(&s->gate, live_debtor(member));
		atomic_store(&c->deadline[member], NK_INFINITE);
		atomic_store(&c->irq_tid[member], 0);
	}
	nk_journal_obj(&live->sh->pid[member]);
	atomic_store(&live->sh->pid[member], 0);
}

/*
 * Lock held: member @member, process @pid, is dead; clean up after it
 * unless another member did.  A death with the lock held may have left
 * the instance half changed: only a whole one is cleaned up.
 */
static void member_gone(struct live *live, int member, pid_t pid)
{
	char why[128];

	if (atomic_load(&live->sh->pid[member]) != pid)
		return;
	if (nk_instance_check(live->nk, why, sizeof(why))) {
		fprintf(stderr,
			"fusion: member %d (pid %d) of the session died; its "
			"instance is not whole (%s): left as it is\n",
			member, (int)pid, why);
		atomic_store(&live->sh->pid[member], 0);
		return;
	}
	forget(live, member, pid);
	live->handlers->member_gone(live->nk, member);
}

static void *members_main(void *arg)
{
	struct live *live = arg;

	pthread_setname_np(pthread_self(), "fusion-members");
	while (be_gate_wait_for(&live->members_gate, LIVE_MEMBERS_WATCH_NS) ==
	       ETIMEDOUT) {
		for (int m = 0; m < NK_MAX_MEMBERS; m++) {
			pid_t pid = atomic_load(&live->sh->pid[m]);

			if (m == live->member || pid == 0 ||
			    session_slot_alive(m, pid))
				continue;
			live_nucleus_lock(live);
			member_gone(live, m, pid);
			live_nucleus_unlock(live);
		}
	}
	return NULL;
}

int live_members_start(struct live *live)
{
	int ret;

	be_gate_init(&live->members_gate, false);
	ret = live_thread_start(&live->members_thread, members_main, live, -1,
				0, 0);
	live->members_started = ret == 0;
	return ret;
}

void live_members_stop(struct live *live)
{
	if (!live->members_started)
		return;
	be_gate_open(&live->members_gate);
	pthread_join(live->members_thread, NULL);
	live->members_started = false;
}
