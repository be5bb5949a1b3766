/* SPDX-License-Identifier: MIT */
/*
 * RTAI skin internals: the skin on the common object layer
 * (skins/common/skin.h), its per-instance state and its task control
 * block.
 *
 * Every RTAI object lives in nk_alloc() memory; what the program holds
 * (RT_TASK *, SEM *...) is the object's handle cast to a pointer, never
 * an address: LXRT programs never dereference those pointers, and a
 * handle is refused when stale, forged or of another kind.  All
 * classes share one name space, "rtai", as rt_get_adr() finds any kind
 * of object by its number (num2nam() of it is the registry name).
 */
#ifndef RTAI_INTERNAL_H
#define RTAI_INTERNAL_H

#include "skins/common/skin.h"

#include <rtai/rtai_lxrt.h>
#include <fusion/fusion.h>

#include <stdbool.h>

#pragma GCC visibility push(hidden)

/* RTAI priority p runs at nucleus priority 255 - p; those beyond 253
 * all at 1, so that main (0, Linux's level) stays below every task. */
#define RTAI_PRIO_LEVELS 254
static inline int rtai_nk_prio(int prio)
{
	return prio < RTAI_PRIO_LEVELS ? 255 - prio : 1;
}

/* The RTAI priority of nucleus priority @nkprio. */
static inline int rtai_prio(int nkprio)
{
	return nkprio > 0 ? 255 - nkprio : RT_SCHED_LINUX_PRIORITY;
}

enum rtai_class_id {
	RTAI_TASK,   /* a task: its TCB */
	RTAI_THREAD, /* a thread of rt_thread_create(): its TCB */
	RTAI_SEM,
	RTAI_MBX,
	RTAI_BITS,
	RTAI_RWL,
	RTAI_SPL,
	RTAI_SHM,
	RTAI_NR_CLASSES
};

/*
 * The first member of every object that rt_named_*_init() may share:
 * how many of those calls it still serves.  Lock held.
 */
struct rtai_named {
	int uses;
};

/* FIFOs by number, as RTAI's /dev/rtfN (fifo.c). */
#define RTAI_FIFOS 64

struct rtai_fifo;

/* The skin's state in an instance.  Lock held for every field. */
struct rtai_state {
	struct skin skin;
	bool periodic_mode; /* rt_set_periodic_mode() was the last call */
	bool timer_running; /* between start_rt_timer and stop_rt_timer */
};

/* Delete every FIFO of this process left, as it leaves the instance.
 * Lock held. */
void rtai_fifo_reclaim(struct nk_instance *nk);

/* The personality's fini and leave: the process's FIFOs, then the
 * objects (skin_fini, skin_leave). */
void rtai_fini(struct nk_instance *nk, void *state);
void rtai_leave(struct nk_instance *nk, void *state);

/*
 * The RTAI extension of a nucleus thread: allocated, zeroed, by
 * nk_thread_attach() on a thread's first RTAI call (or its creation by
 * rt_thread_create()), freed with the thread.  Lock held for every
 * field.
 */
struct rtai_task {
	struct nk_thread *thread;
	uintptr_t task;	  /* its RT_TASK handle; 0: not a task */
	uintptr_t joiner; /* its rt_thread_create() id; 0: none */
	int prio;	  /* RTAI base priority */
	bool hard;	  /* rt_make_hard_real_time() */
	RTIME born;	  /* date it became a task, ns */
	/* rt_task_suspend: depth (negative: resumes ahead), and the queue
	 * the task sleeps on when it suspends itself. */
	int suspdepth;
	bool self_suspended;
	struct nk_synch suspq;
	/* Messages (msg.c): senders and callers wait on msgq, the task
	 * itself on recvq when nothing was sent to it. */
	struct nk_synch msgq;
	struct nk_synch recvq;
	/* The sized messages that are the task's to free, should it end
	 * before it gets to (nk memory): its own bytes in flight, the
	 * bytes handed to it as a receiver, a return handed to it. */
	char *msg_out, *msg_in, *msg_back;
	/* What it waits for in a message call (RT_SCHED_SEND, _RPC,
	 * _RETURN, _RECEIVE), 0: none; for rt_get_task_state(). */
	unsigned long msg_state;
	/* Periodic work, in counts: the last release and the period
	 * (0: not periodic). */
	RTIME release;
	RTIME period;
	/* rt_thread_create(): what the thread runs.  A user function of
	 * the creating process, called by that thread only. */
	void *(*fun)(void *args);
	void *args;
};

extern const struct skin_desc rtai_skin;

/* Prepare and end a task's message queues (msg.c).  Lock held. */
int rtai_msg_init(struct nk_instance *nk, struct rtai_task *t);
void rtai_msg_exit(struct rtai_task *t);

/* The personality's hooks (task.c).  Lock held. */
int rtai_task_attach(struct nk_thread *thread, void *ext);
void rtai_task_exit(struct nk_thread *thread, void *ext);
void rtai_task_finalize(struct nk_thread *thread, void *ext);

void rtai_sem_reclaim(struct nk_instance *nk, void *object);
void rtai_mbx_reclaim(struct nk_instance *nk, void *object);
void rtai_waitable_reclaim(struct nk_instance *nk, void *object);
void rtai_shm_reclaim(struct nk_instance *nk, void *object);
void rtai_shm_describe(const void *object, struct nk_object_info *info);
/* Describe hooks (skin_class.describe), in the class's file. */
void rtai_sem_describe(const void *object, struct nk_object_info *info);
void rtai_mbx_describe(const void *object, struct nk_object_info *info);
void rtai_bits_describe(const void *object, struct nk_object_info *info);
void rtai_rwl_describe(const void *object, struct nk_object_info *info);
void rtai_spl_describe(const void *object, struct nk_object_info *info);

/*
 * The objects with one wait queue in priority order (event bits,
 * read-write locks, spinlocks) start with it.
 */
struct rtai_waitable {
	struct nk_synch waiters;
};

/*
 * Such an object of class @cls, @size bytes in nk memory from
 * rtai_waitable_alloc() (zeroed) and filled in by the caller, named
 * @name (0: anonymous): its queue is prepared, then it is published.
 * Its handle as a pointer, or NULL (the object is freed).  Lock NOT
 * held.
 */
void *rtai_waitable_alloc(size_t size);
void *rtai_waitable_publish(unsigned int cls, unsigned long name, void *object);
/* Delete the object behind @adr of class @cls (skin_delete()). */
int rtai_object_delete(unsigned int cls, void *adr);

/*
 * rt_named_*_init(): the object of class @cls named nam2num(@name),
 * one use more, or else a new one from @create(registry name, @a, @b).
 * NULL for a NULL or empty name, a name of another class, or when
 * @create fails.  Lock NOT held.
 */
void *rtai_named_init(unsigned int cls, const char *name,
		      void *(*create)(const char *key, int a, int b), int a,
		      int b);
/* rt_named_*_delete(): one use less, deleting at the last.  Returns the
 * uses left, or the class's bad-handle code.  Lock NOT held. */
int rtai_named_delete(unsigned int cls, void *adr);

/* The skin's state, NULL before the first rtai_enter(). */
static inline struct rtai_state *rtai_state(void)
{
	return (struct rtai_state *)skin_state(&rtai_skin);
}

static inline struct skin *rtai(void)
{
	return skin_state(&rtai_skin);
}

/*
 * The calling thread, NULL for a plain pthread and in interrupt
 * context: a handler runs on behalf of no task, whichever it
 * interrupted.  Lock held or not.
 */
static inline struct nk_thread *rtai_self(struct nk_instance *nk)
{
	return nk_in_interrupt(nk) ? NULL : nk_thread_self(nk);
}

/* Enter the skin (the process runtime).  Errors: skin_enter()'s. */
static inline int rtai_enter(struct nk_instance **nk)
{
	return skin_enter(&rtai_skin, nk, NULL);
}

/* A handle as the program holds it, and back. */
static inline void *rtai_ptr(uintptr_t handle)
{
	return (void *)handle;
}

static inline uintptr_t rtai_handle(const void *ptr)
{
	return (uintptr_t)ptr;
}

/* The registry name of RTAI name @num into @buf (7 bytes at least):
 * "" for 0, anonymous. */
void rtai_name(unsigned long num, char *buf);

/*
 * The TCB of the task behind @task (NULL: the caller's), lock taken on
 * success only.  Errors: -EINVAL (not a live task, or the caller is
 * not one), those of rtai_enter().
 */
int rtai_task_get(RT_TASK *task, struct nk_instance **nk,
		  struct rtai_task **out);
/*
 * The caller's TCB, attaching RTAI to its nucleus thread if need be
 * (it is not a task until rt_task_init()).  Errors: -EPERM (not a
 * nucleus thread), -ENOMEM.  Lock NOT held.
 */
int rtai_current(struct nk_instance **nk, struct rtai_task **out);

/* RTAI's round-robin quantum when none is given. */
#define RTAI_RR_QUANTUM 1000000

/* The RT CPU of the lowest Linux CPU of @mask that runs one (0: CPU
 * 0), -1 if none does. */
int rtai_task_cpu(unsigned long mask);

/* Timeouts from counts: relative (0: non-blocking) and absolute. */
static inline struct skin_timeout rtai_rel(struct skin *sk, RTIME delay)
{
	return delay <= 0 ? skin_nonblock()
			  : skin_rel_ticks(sk, (uint64_t)delay);
}

static inline struct skin_timeout rtai_abs(struct skin *sk, RTIME date)
{
	return skin_abs_ticks(sk, date < 0 ? 0 : (uint64_t)date);
}

/* A timeout of @t counts from now, or (@date) until the date @t;
 * non-blocking if the skin cannot be entered. */
struct skin_timeout rtai_timeout(RTIME t, bool date);

/* Now in counts of @sk's time base. */
RTIME rtai_now(struct skin *sk);

#pragma GCC visibility pop

#endif
