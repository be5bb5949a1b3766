/*
 * Alchemy task control block, shared by task.c (life cycle, scheduling)
 * and task_msg.c (send/receive/reply).
 *
 * A TCB hangs off its nucleus thread through nk_thread_ext(); a magic
 * word tells it from another skin's extension.  Every field is read and
 * written under the nucleus lock.
 */
#ifndef ALCHEMY_TASK_INTERNAL_H
#define ALCHEMY_TASK_INTERNAL_H

#include "internal.h"

#include <alchemy/task.h>

#pragma GCC visibility push(hidden)

#define ALCHEMY_TASK_MAGIC 0x414c5441u /* ALTA */

struct alchemy_msg;

struct alchemy_task {
	unsigned int magic;
	uintptr_t handle;
	struct nk_thread *thread; /* NULL once it has terminated */
	RT_TASK self;		  /* what rt_task_self() hands out */
	int mode;		  /* T_JOINABLE, T_LOCK, T_WARNSW at start */
	bool started;
	bool adopted;			  /* main or a shadowed thread */
	bool shadowed;			  /* rt_task_shadow() made it a task */
	bool joining;			  /* a task waits in rt_task_join() */
	struct alchemy_task *join_target; /* the task this one joins */
	void (*entry)(void *arg);
	void *arg;
	struct nk_synch joiners;    /* rt_task_join() waits here */
	struct nk_list zombie_link; /* joinable, ended, not joined yet */
	/* Message passing (task_msg.c). */
	struct nk_list msg_pending;  /* sent to this task, not replied */
	struct nk_synch msg_recv;    /* this task waits for a message */
	struct nk_synch msg_reply;   /* this task, as a sender, waits */
	struct alchemy_msg *msg_out; /* this task's send in progress */
	int flowgen;
};

/*
 * Enter the skin (*@nk) and find the caller's TCB, attached on first
 * use to a nucleus thread that has none (main; a thread of another
 * skin's making has its own ext and is refused).  Errors: -EPERM (not
 * a nucleus thread: plain pthread or timer handler), -ENOMEM, those of
 * alchemy_enter().  Lock NOT held (it may allocate).
 */
int alchemy_task_current(struct nk_instance **nk, struct alchemy_task **out);
/* The TCB behind a live descriptor: -EINVAL otherwise.  Lock held. */
int alchemy_task_lookup(RT_TASK *task, struct alchemy_task **out);
/* Prepare / tear down the message-passing part of a TCB (task_msg.c). */
int alchemy_task_msg_init(struct nk_instance *nk, struct alchemy_task *t);
/* Wake every sender queued on @t with -EIDRM.  Lock held. */
void alchemy_task_msg_flush(struct alchemy_task *t);
/* Withdraw @t's own send in progress, if any (it ends).  Lock held. */
void alchemy_task_msg_cancel(struct alchemy_task *t);
/* Lock held. */
void alchemy_task_msg_destroy(struct alchemy_task *t);

#pragma GCC visibility pop

#endif
