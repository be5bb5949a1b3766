/* SPDX-License-Identifier: MIT */
/*
 * The pSOS task control block, shared by task.c (life cycle, modes),
 * event.c (its events) and timer.c (its timers).
 *
 * A TCB is an object of its own (nk_alloc), registered under the task's
 * ID, pointed at by the extension of pSOS's personality on its nucleus
 * thread: t_restart() gives the same TCB, and ID, to a new thread.
 * The exit hook of the thread that owns the TCB frees it.  Every field
 * is read and written under the nucleus lock.
 */
#ifndef PSOS_TASK_INTERNAL_H
#define PSOS_TASK_INTERNAL_H

#include "internal.h"

#pragma GCC visibility push(hidden)

#define PSOS_NR_REGS 16

typedef void (*psos_entry_fn)(unsigned long, unsigned long, unsigned long,
			      unsigned long);

struct psos_task {
	struct psos_object obj;
	uintptr_t handle;
	struct nk_thread *thread;
	unsigned long prio;  /* from t_create(): what t_restart() restores */
	size_t stack;	     /* from t_create() */
	unsigned long smode; /* from t_start(): what t_restart() restores */
	unsigned long mode;  /* T_* bits now */
	bool started;
	/* A T_NOPREEMPT task gave up its scheduler lock for a wait. */
	bool unlocked;
	/* The entry, as the user's program knows it: only this process
	 * calls it (sessions: a task runs in the process that made it). */
	psos_entry_fn entry;
	unsigned long args[4];
	unsigned long regs[PSOS_NR_REGS];
	unsigned long events;	/* pending */
	struct nk_synch evwait; /* the task itself, in ev_receive() */
	struct nk_list timers;	/* its tm_ev*() timers */
	/* Its ASR, called by this process only, its mode, the signals
	 * pending for it (read unlocked as a hint), the ASRs running
	 * (nested) and where as_return() goes, on the task's stack. */
	void (*asr)(unsigned long signals);
	unsigned long asr_mode;
	unsigned long signals;
	unsigned int in_asr;
	void *asr_return;
};

/* What the nucleus thread carries: its TCB (NULL once given away). */
struct psos_ext {
	struct psos_task *task;
};

/* Set the caller @t's mode (scheduler lock, time slice); returns the old
 * one.  Lock NOT held. */
unsigned long psos_task_mode(struct nk_instance *nk, struct psos_task *t,
			     unsigned long mode);

#pragma GCC visibility pop

#endif
