/* SPDX-License-Identifier: MIT */
/*
 * Alchemy task control block, shared by task.c (life cycle, scheduling)
 * and task_msg.c (send/receive/reply).
 *
 * A TCB is the extension of Alchemy's personality on its nucleus thread
 * (fusion/personality.h): allocated, zeroed, by nk_thread_attach(), set
 * up by the attach hook, torn down by the exit hook whoever ends the
 * thread, and freed with the thread (reaped, or joined: T_JOINABLE
 * tasks are joinable nucleus threads).  Every field is read and written
 * under the nucleus lock.
 */
#ifndef ALCHEMY_TASK_INTERNAL_H
#define ALCHEMY_TASK_INTERNAL_H

#include "internal.h"

#include <alchemy/task.h>

#pragma GCC visibility push(hidden)

struct alchemy_task;

/*
 * A send in progress, in the sender's control block: the receiver,
 * maybe of another process of the session, reads it there.  The
 * sender's message blocks and buffers are its own process's: what the
 * receiver needs of them is copied here, and the bytes move with
 * nk_thread_copy_from() and _to() (task_msg.c).
 */
struct alchemy_msg {
	struct nk_list link; /* in receiver->msg_pending */
	struct alchemy_task *sender;
	struct alchemy_task *receiver; /* NULL once unlinked */
	int opcode;		       /* the sender's mcb_s */
	ssize_t size;
	const void *data; /* in the sender's process */
	void *rdata;	  /* mcb_r's buffer there, NULL: no reply data */
	ssize_t rsize;	  /* room for the reply */
	int ropcode;	  /* the reply's */
	ssize_t result;	  /* reply size or an error */
	int flowid;
};

struct alchemy_task {
	uintptr_t handle;
	struct nk_thread *thread;
	RT_TASK self; /* what rt_task_self() hands out */
	int mode;     /* T_JOINABLE, T_LOCK, T_WARNSW at start */
	/* Attached on a first call with Alchemy's defaults (main, a thread
	 * of another skin), not named by rt_task_shadow() yet. */
	bool defaults;
	void (*entry)(void *arg);
	void *arg;
	/* Message passing (task_msg.c). */
	struct nk_list msg_pending;  /* sent to this task, not replied */
	struct nk_synch msg_recv;    /* this task waits for a message */
	struct nk_synch msg_reply;   /* this task, as a sender, waits */
	struct alchemy_msg *msg_out; /* &out while a send is in progress */
	struct alchemy_msg out;
	int flowgen;
};

/*
 * Enter the skin (*@nk) and find the caller's TCB, attaching Alchemy
 * with its defaults (an anonymous task at the thread's priority) to a
 * nucleus thread that does not carry it yet: main, a thread of another
 * skin.  Errors: -EPERM (not a nucleus thread: plain pthread or timer
 * handler), -ENOMEM, those of alchemy_enter().  Lock held or not.
 */
int alchemy_task_current(struct nk_instance **nk, struct alchemy_task **out);
/*
 * The TCB behind a descriptor of a task that has not ended: -EINVAL
 * otherwise.  Lock held.
 */
int alchemy_task_lookup(RT_TASK *task, struct alchemy_task **out);
int alchemy_task_msg_init(struct nk_instance *nk, struct alchemy_task *t);
/*
 * @t ends: wake every sender queued on it with -EIDRM and withdraw its
 * own send in progress, if any.  Lock held; no reschedule.
 */
void alchemy_task_msg_exit(struct alchemy_task *t);
/* Lock held. */
void alchemy_task_msg_destroy(struct alchemy_task *t);

#pragma GCC visibility pop

#endif
