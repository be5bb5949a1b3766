/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy tasks (Xenomai 3 API): creation, deletion and join, scheduling
 * control, periodic release, and synchronous message passing between
 * tasks (send/receive/reply).
 *
 * Priorities run from T_LOPRIO (0) to T_HIPRIO (99), higher is more
 * urgent.  The program's main thread is a task below every Alchemy
 * priority once it has called any Alchemy service (rt_task_shadow()
 * gives it a name and a priority).  So is any other nucleus thread (one
 * of another skin, say) at its first Alchemy call: an anonymous task at
 * its own priority.  A plain pthread is no task: rt_task_self() is NULL
 * there, and services that would wait or act on the caller return
 * -EPERM, as on Xenomai.
 *
 * A task ends by returning from its entry, by rt_task_delete() (of
 * itself or by another), or when the process ends; whichever, once it
 * has ended its name is free again and tasks waiting for its reply to a
 * message wake with -EIDRM.
 */
#ifndef FUSION_ALCHEMY_TASK_H
#define FUSION_ALCHEMY_TASK_H

#include <alchemy/alchemy.h>
#include <alchemy/timer.h>

/* As Xenomai's, through its copperplate thread object header. */
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define T_LOPRIO 0  /**< least urgent task priority */
#define T_HIPRIO 99 /**< most urgent task priority */

/* Mode bits (rt_task_create, rt_task_shadow, rt_task_set_mode). */
#define T_LOCK 0x1	   /**< scheduler locked (set_mode, create) */
#define T_WARNSW 0x2	   /**< signal on spurious mode switches */
#define T_CONFORMING 0x4   /**< set_mode: back to primary mode now */
#define T_JOINABLE 0x10000 /**< rt_task_join() reaps it */
#define T_FPU 0x0	   /**< compatibility only */
/**
 * CPU affinity at creation: T_CPU(n) for Linux CPU n (0..7), ORed into a
 * set.  The task goes to the RT CPU running on one of them (see
 * rt_task_set_affinity; FUSION_CPUS lists the RT CPUs' Linux CPUs).
 */
#define T_CPU(cpu) ((int)(1u << (24 + ((cpu)&7))))
#define T_CPUMASK 0xff000000 /**< the T_CPU bits of a mode */

/** A descriptor; a zeroed, stale or forged one is refused. */
struct RT_TASK {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
	pthread_t thread; /**< the task's thread (0 in a zeroed descriptor) */
};

/** Xenomai's name of struct RT_TASK. */
typedef struct RT_TASK RT_TASK;

/** Message control block of rt_task_send/receive/reply. */
struct RT_TASK_MCB {
	int flowid;   /**< rt_task_receive: the flow to reply to */
	int opcode;   /**< the user's; a reply's status code */
	void *data;   /**< the message bytes */
	ssize_t size; /**< bytes of data (receive: capacity in, size out) */
};

/** Xenomai's name of struct RT_TASK_MCB. */
typedef struct RT_TASK_MCB RT_TASK_MCB;

/** Run-time statistics of a task, as rt_task_inquire() reports them. */
struct threadobj_stat {
	RTIME xtime;	     /**< ns spent running */
	RTIME timeout;	     /**< ns left before the current wait times out */
	uint64_t msw;	     /**< primary -> secondary mode switches */
	uint64_t csw;	     /**< context switches (times switched in) */
	uint64_t xsc;	     /**< real-time services called (nucleus entries) */
	int cpu;	     /**< RT CPU */
	int schedlock;	     /**< scheduler lock depth */
	unsigned int status; /**< nucleus state bits (NK_THREAD_*) */
	uint32_t pf;	     /**< page faults of its thread (minor + major) */
};

/** What rt_task_inquire() reports. */
struct RT_TASK_INFO {
	int prio;		      /**< base priority */
	struct threadobj_stat stat;   /**< run-time statistics */
	char name[XNOBJECT_NAME_LEN]; /**< its name */
	pid_t pid; /**< Linux thread id of the task (tgkill, /proc) */
};

/** Xenomai's name of struct RT_TASK_INFO. */
typedef struct RT_TASK_INFO RT_TASK_INFO;

/** An initialiser for a descriptor naming no task. */
#define NO_ALCHEMY_TASK ((RT_TASK){0, 0})

/**
 * T_WARNSW notifications, as Xenomai's: a task with T_WARNSW that
 * leaves primary mode by itself (a system call outside the real-time
 * services) receives SIGDEBUG; sigdebug_reason(siginfo) tells why.
 * Xenomai's Cobalt core uses SIGXCPU, which Fusion's live backend keeps
 * for its CPU watchdog: SIGDEBUG is a real-time signal here (the
 * nucleus's NK_SIGDEBUG), so handle it by name.
 */
#define SIGDEBUG (SIGRTMIN + 8)
/** @{ */
/** A reason of sigdebug_reason(), as Xenomai numbers them. */
#define SIGDEBUG_UNDEFINED 0
#define SIGDEBUG_MIGRATE_SIGNAL 1
/** @} */
#define SIGDEBUG_MIGRATE_SYSCALL 2 /**< the only one Fusion raises */
/** @{ */
/** A reason of sigdebug_reason(), as Xenomai numbers them. */
#define SIGDEBUG_MIGRATE_FAULT 3
#define SIGDEBUG_MIGRATE_PRIOINV 4
#define SIGDEBUG_NOMLOCK 5
#define SIGDEBUG_WATCHDOG 6
#define SIGDEBUG_RESCNT_IMBALANCE 7
#define SIGDEBUG_LOCK_BREAK 8
#define SIGDEBUG_MUTEX_SLEEP 9
/** @} */
/** The value the signal carries: the reason in bits 16-23, then (for
 * SIGDEBUG_MIGRATE_SYSCALL) the low 16 bits of the system call number. */
#define sigdebug_code(si) ((si)->si_value.sival_int)
/** The reason (SIGDEBUG_*) of the siginfo @p si. */
#define sigdebug_reason(si) ((sigdebug_code(si) >> 16) & 0xff)

#define rt_task_create alchemy_rt_task_create
#define rt_task_delete alchemy_rt_task_delete
#define rt_task_set_affinity alchemy_rt_task_set_affinity
#define rt_task_start alchemy_rt_task_start
#define rt_task_spawn alchemy_rt_task_spawn
#define rt_task_shadow alchemy_rt_task_shadow
#define rt_task_join alchemy_rt_task_join
#define rt_task_set_periodic alchemy_rt_task_set_periodic
#define rt_task_wait_period alchemy_rt_task_wait_period
#define rt_task_sleep alchemy_rt_task_sleep
#define rt_task_sleep_until alchemy_rt_task_sleep_until
#define rt_task_same alchemy_rt_task_same
#define rt_task_suspend alchemy_rt_task_suspend
#define rt_task_resume alchemy_rt_task_resume
#define rt_task_self alchemy_rt_task_self
#define rt_task_set_priority alchemy_rt_task_set_priority
#define rt_task_set_mode alchemy_rt_task_set_mode
#define rt_task_yield alchemy_rt_task_yield
#define rt_task_unblock alchemy_rt_task_unblock
#define rt_task_slice alchemy_rt_task_slice
#define rt_task_inquire alchemy_rt_task_inquire
#define rt_task_send_timed alchemy_rt_task_send_timed
#define rt_task_send_until alchemy_rt_task_send_until
#define rt_task_send alchemy_rt_task_send
#define rt_task_receive_timed alchemy_rt_task_receive_timed
#define rt_task_receive_until alchemy_rt_task_receive_until
#define rt_task_receive alchemy_rt_task_receive
#define rt_task_reply alchemy_rt_task_reply
#define rt_task_bind alchemy_rt_task_bind
#define rt_task_unbind alchemy_rt_task_unbind

/**
 * Create a dormant task.  @p stksize 0: default stack.  @p mode: T_JOINABLE,
 * T_LOCK (the task starts with the scheduler locked), T_WARNSW, T_CPU(n)
 * (placed as by rt_task_set_affinity; -EINVAL when no CPU of the set
 * runs an RT CPU).
 * Errors: -EINVAL (NULL task, prio outside 0..99, unknown mode bits,
 * negative stksize, no such RT CPU, name too long), -EEXIST (name in
 * use), -ENOMEM.  Not from an alarm handler (the nucleus cannot tell
 * that context from a plain thread's, so this is not checked).
 */
int rt_task_create(RT_TASK *task, const char *name, int stksize, int prio,
		   int mode);
/**
 * Start a task made by rt_task_create: a more urgent task runs before
 * this returns.  Starting a started task is a no-op.  -EINVAL.
 */
int rt_task_start(RT_TASK *task, void (*entry)(void *arg), void *arg);
/** rt_task_create + rt_task_start; errors of both. */
int rt_task_spawn(RT_TASK *task, const char *name, int stksize, int prio,
		  int mode, void (*entry)(void *arg), void *arg);
/*
 * Signals.  A task runs on a Linux thread of its own (RT_TASK.thread,
 * RT_TASK_INFO.pid): a signal sent to it with pthread_kill(), tgkill()
 * or kill() of its pid (which Linux hands to that thread first) runs
 * the program's handler in the task, and a wait of the task that the
 * handler interrupts (a sleep, any blocking service) returns -EINTR, as
 * on Xenomai, when the handler was installed without SA_RESTART (the
 * default of sigaction(); signal() sets SA_RESTART, and then the wait
 * may go on, as Linux restarts such calls).  As with any blocking
 * system call, a handler that runs just before the task goes to sleep
 * does not break the sleep to come.  On sim the signal comes from
 * outside the simulation: it breaks the wait at whatever virtual date
 * the run has reached when it lands.
 */

/**
 * Make the caller an Alchemy task named @p name at @p prio (@p task may be
 * NULL).  Main or a thread of another skin (already a nucleus thread)
 * is renamed in the registry and reprioritised, once; a plain pthread
 * becomes a nucleus thread first (and stays one if the name is taken,
 * as on Xenomai), which ends when the pthread returns.
 * Errors: -EINVAL, -EEXIST, -ENOMEM, -EBUSY (already an Alchemy task
 * created by rt_task_create or shadowed before).
 */
int rt_task_shadow(RT_TASK *task, const char *name, int prio, int mode);
/**
 * Delete @p task (NULL: the caller, which does not return).  Senders
 * waiting on it wake with -EIDRM, its name is free.  A joinable task
 * stays until joined.  A task running on another RT CPU or in secondary
 * mode ends at its next nucleus call or preemption point.
 * Errors: -EINVAL (bad descriptor), -EPERM (NULL outside a task).
 */
int rt_task_delete(RT_TASK *task);
/**
 * Wait for a T_JOINABLE task to end and reclaim it (its name was freed
 * when it ended).  Errors: -EINVAL (bad or reaped descriptor, not
 * joinable, another task joins it already), -EDEADLK (self), -EPERM
 * (cannot block: scheduler locked, or not a nucleus thread: unlike
 * Xenomai's, a plain pthread cannot wait on a task), -EINTR
 * (rt_task_unblock).
 */
int rt_task_join(RT_TASK *task);
/**
 * Make @p task (NULL: caller) affine to the Linux CPUs of @p cpus: it stays
 * on its RT CPU if that CPU's Linux CPU is in the set, else it moves, in
 * whatever state it is, to the RT CPU of the lowest Linux CPU of the set
 * that runs one (CPUs running no RT CPU are ignored, as Linux ignores
 * offline ones).  Moving the caller, it goes on running on the new CPU.
 * Errors: -EINVAL (@p cpus NULL or naming no RT CPU's Linux CPU, bad
 * descriptor, @p task NULL outside a task).  Context: any.
 */
int rt_task_set_affinity(RT_TASK *task, const cpu_set_t *cpus);

/**
 * Make @p task (NULL: the caller) periodic from @p idate (TM_NOW: one
 * @p period from now) every @p period ns (TM_INFINITE: stop).  Any task,
 * dormant ones included; it awaits its release points itself with
 * rt_task_wait_period() (a wait in progress for the old grid ends as
 * planned, the next release is @p idate).  A release date past the
 * clock's range (INT64_MAX ns) never comes: the wait for it lasts until
 * rt_task_unblock().  Errors: -EINVAL (bad descriptor, NULL outside a
 * task, @p idate beyond INT64_MAX - 1, @p period beyond INT64_MAX),
 * -ETIMEDOUT (@p idate in the past).  Any context.
 */
int rt_task_set_periodic(RT_TASK *task, RTIME idate, RTIME period);
/**
 * Wait for the next release point.  *@p overruns_r (may be NULL): release
 * points missed.  Errors: -EWOULDBLOCK (not periodic), -ETIMEDOUT
 * (overrun: returns at once), -EINTR (rt_task_unblock), -EPERM.
 */
int rt_task_wait_period(unsigned long *overruns_r);
/** Sleep @p delay ns (0: return at once).  -EINTR, -EPERM. */
int rt_task_sleep(RTIME delay);
/** Sleep until @p date (TM_INFINITE: forever).  -ETIMEDOUT (date past),
 * -EINTR, -EPERM. */
int rt_task_sleep_until(RTIME date);
/** Non-zero if both descriptors name the same task. */
int rt_task_same(RT_TASK *task1, RT_TASK *task2);
/** @{ */
/** Suspend (nesting) / resume @p task (NULL: caller).  -EINVAL, -EPERM. */
int rt_task_suspend(RT_TASK *task);
int rt_task_resume(RT_TASK *task);
/** @} */
/** The caller's descriptor, or NULL outside a task. */
RT_TASK *rt_task_self(void);
/** Set the base priority; returns 0 or -EINVAL, -EPERM. */
int rt_task_set_priority(RT_TASK *task, int prio);
/**
 * Clear then set mode bits of the caller: T_LOCK (scheduler lock,
 * nesting), T_WARNSW (SIGDEBUG on spurious mode switches).  T_CONFORMING
 * in @p setmask brings a task that runs in secondary mode back to primary
 * mode now (a request, never reported as a mode bit).  Previous bits
 * in *@p mode_r.  Errors: -EINVAL (other bits), -EPERM (not a task).
 */
int rt_task_set_mode(int clrmask, int setmask, int *mode_r);
/** Move to the tail of the caller's priority level.  -EPERM. */
int rt_task_yield(void);
/** Break @p task out of any wait with -EINTR.  -EINVAL. */
int rt_task_unblock(RT_TASK *task);
/**
 * Round-robin among the tasks of @p task's priority (NULL: the caller),
 * @p quantum ns each (one tick = 1 ns); 0 turns it off (FIFO).  Takes
 * effect at once: a running task starts a fresh slice.  Errors:
 * -EINVAL (bad descriptor, quantum beyond INT64_MAX), -EPERM (NULL
 * outside a task).
 */
int rt_task_slice(RT_TASK *task, RTIME quantum);
/**
 * Status of @p task (NULL: caller) into @p info (NULL: just probe that it
 * exists): priority, name, Linux thread id, statistics.  The page
 * faults of another task are read from /proc, a few system calls made
 * with the nucleus lock held: keep it off time-critical paths.
 * -EINVAL (bad descriptor), -EPERM (NULL outside a task).
 */
int rt_task_inquire(RT_TASK *task, RT_TASK_INFO *info);

/** @{ */
/**
 * Send @p mcb_s to @p task and wait for its reply, collected into @p mcb_r
 * (NULL when no reply data is expected; @p mcb_r->opcode receives the
 * replier's status code).  The timeout covers the whole transaction.
 * Returns the reply's size.  Errors: -EINVAL (bad task or mcb),
 * -ENOBUFS (reply larger than @p mcb_r->size, or data with a NULL
 * @p mcb_r), -EWOULDBLOCK (non-blocking and the task is not receiving;
 * if it is, the reply is awaited), -ETIMEDOUT, -EIDRM (task deleted),
 * -EINTR, -EPERM (not a task, or scheduler locked).
 */
ssize_t rt_task_send_timed(RT_TASK *task, RT_TASK_MCB *mcb_s,
			   RT_TASK_MCB *mcb_r,
			   const struct timespec *abs_timeout);
ssize_t rt_task_send_until(RT_TASK *task, RT_TASK_MCB *mcb_s,
			   RT_TASK_MCB *mcb_r, RTIME timeout);
ssize_t rt_task_send(RT_TASK *task, RT_TASK_MCB *mcb_s, RT_TASK_MCB *mcb_r,
		     RTIME timeout);
/** @} */
/** @{ */
/**
 * Wait for a message; returns its flow id (> 0) for rt_task_reply().
 * @p mcb_r->size: capacity of @p mcb_r->data in, message size out.
 * Errors: -EINVAL, -ENOBUFS (message larger than @p mcb_r->size, which
 * is set to the message size: it stays queued, receive it again with
 * a larger buffer), -EWOULDBLOCK, -ETIMEDOUT, -EINTR, -EPERM.
 */
int rt_task_receive_timed(RT_TASK_MCB *mcb_r,
			  const struct timespec *abs_timeout);
int rt_task_receive_until(RT_TASK_MCB *mcb_r, RTIME timeout);
int rt_task_receive(RT_TASK_MCB *mcb_r, RTIME timeout);
/** @} */
/**
 * Reply to the sender of flow @p flowid, releasing it.  @p mcb_s may be NULL
 * (empty reply, opcode 0).  Errors: -EINVAL (bad flowid or mcb),
 * -ENXIO (no such sender waiting), -ENOBUFS (sender's buffer too small:
 * both sides get it), -EPERM (not a task).
 */
int rt_task_reply(int flowid, RT_TASK_MCB *mcb_s);

/** Find a task by name, waiting up to @p timeout.  As every rt_*_bind. */
int rt_task_bind(RT_TASK *task, const char *name, RTIME timeout);
/** Forget the binding (the object lives on).  -EINVAL (NULL descriptor). */
int rt_task_unbind(RT_TASK *task);

#ifdef __cplusplus
}
#endif

#endif
