/* SPDX-License-Identifier: MIT */
/** @file
 * Nucleus threads.  Each is backed by one OS thread (its shadow), which
 * runs only while the nucleus makes it current on its RT CPU.
 *
 * Priorities run from 0 to 255, higher is more urgent.  A thread has a
 * base priority (what it was given) and an effective one (raised by
 * priority inheritance or a ceiling while it owns mutexes).
 */
#ifndef FUSION_THREAD_H
#define FUSION_THREAD_H

#include <fusion/types.h>

#include <pthread.h>
#include <signal.h>
#include <sys/types.h>

/** The mode-switch warning signal (Xenomai's SIGDEBUG). */
#define NK_SIGDEBUG (SIGRTMIN + 8)

/** Scheduling policies. */
enum nk_policy {
	NK_SCHED_FIFO = 0, /**< runs until it blocks, yields or is preempted */
	NK_SCHED_RR = 1,   /**< as FIFO, rotated among equals every quantum */
};

/* nk_thread_attr.flags */
#define NK_THREAD_JOINABLE 0x1 /**< nk_thread_join() reaps it */

/** What nk_thread_create() and nk_thread_shadow() are given. */
struct nk_thread_attr {
	const char *name;      /**< NULL or "": "thread<N>" */
	int priority;	       /**< 0..255 */
	enum nk_policy policy; /**< NK_SCHED_FIFO or NK_SCHED_RR */
	nk_time_t quantum;     /**< NK_SCHED_RR only, > 0 */
	size_t stack_size;     /**< 0: the instance default */
	int cpu;	       /**< RT CPU */
	unsigned int flags;    /**< NK_THREAD_JOINABLE or 0 */
};

/* Thread state bits, as nk_thread_state() reports them. */
#define NK_THREAD_DORMANT 0x001	  /**< created, not started */
#define NK_THREAD_READY 0x002	  /**< in a ready queue */
#define NK_THREAD_PENDING 0x004	  /**< waits on a synch object */
#define NK_THREAD_DELAYED 0x008	  /**< waits for a date (sleep or timeout) */
#define NK_THREAD_SUSPENDED 0x010 /**< nk_thread_suspend() */
#define NK_THREAD_ZOMBIE 0x020	  /**< terminated, not reaped */
#define NK_THREAD_CURRENT 0x040	  /**< current on its CPU */
#define NK_THREAD_RELAXED 0x080	  /**< secondary mode: runs under Linux */

/** What nk_thread_stats() reports. */
struct nk_thread_stats {
	unsigned long switches; /**< times switched in */
	nk_time_t exec_time;	/**< ns spent current, on the backend clock */
	unsigned long mode_switches; /**< primary -> secondary transitions */
	/* What the backend counts (0 where it counts nothing): */
	unsigned long syscalls;	   /**< nucleus entries: its "system calls" */
	unsigned long page_faults; /**< of its OS thread (minor and major) */
};

/** Why a thread left primary mode (the warning signal carries it). */
enum nk_relax_reason {
	NK_RELAX_EXPLICIT = 1, /**< nk_thread_relax() */
	NK_RELAX_SYSCALL = 2,  /**< a stray system call in primary mode */
};

/* nk_thread_set_mode() bits */
#define NK_MODE_WARNSW 0x1 /**< signal the thread when it relaxes by itself */

/** A thread's entry point, given to nk_thread_start(). */
typedef void (*nk_thread_fn)(void *arg);

/**
 * Create a dormant thread.  Errors: -EINVAL (bad instance, NULL attr or
 * out, priority outside 0..255, RR without a positive quantum, bad cpu,
 * unknown flags, name too long), -ENOMEM, -EAGAIN (no OS thread).
 * Context: any.
 */
nk_export int nk_thread_create(struct nk_instance *nk,
			       const struct nk_thread_attr *attr,
			       struct nk_thread **out);

/**
 * Make the calling OS thread a nucleus thread (its own shadow): it waits
 * until the nucleus gives it its CPU, then returns.  @p attr as for
 * nk_thread_create, FIFO policy, no flags (it ends with nk_thread_exit,
 * by deletion, or when the OS thread returns from its start routine or
 * calls pthread_exit, which ends it as nk_thread_exit would; its stack
 * is its own).
 * Errors: -EINVAL (bad instance or attr), -EBUSY (the caller already is
 * a nucleus thread), -ENOMEM, -EAGAIN.  Context: a plain OS thread, never
 * interrupt context; lock not held (it waits for its CPU).
 */
nk_export int nk_thread_shadow(struct nk_instance *nk,
			       const struct nk_thread_attr *attr,
			       struct nk_thread **out);

/**
 * Start a dormant thread at @p entry(@p arg).  It is readied and may preempt
 * the caller at once.  Returning from @p entry ends the thread.
 * Errors: -EINVAL (bad thread, NULL entry), -EBUSY (already started),
 * -EPERM (a thread of another process of the session: @p entry is code
 * of the caller's).
 * Context: any.
 */
nk_export int nk_thread_start(struct nk_thread *thread, nk_thread_fn entry,
			      void *arg);

/**
 * Delete @p thread, which may be the caller (then it does not return).
 * Safe in any state: waits are cancelled (owners de-boosted), owned
 * mutexes pass to their next waiter (who sees NK_WAKE_OWNER_DEAD),
 * joiners wake.  A non-joinable thread is freed; a joinable one stays a
 * zombie until joined.
 * A thread of another process sharing the instance ends there; its
 * skins' hooks, that process's code, do not run.
 * Errors: -EINVAL (bad thread), -ESRCH (already terminated).
 * Context: any.
 */
nk_export int nk_thread_delete(struct nk_thread *thread);

/** End the calling thread.  Context: thread (else returns -EPERM). */
nk_export int nk_thread_exit(struct nk_instance *nk);

/**
 * Wait for a joinable @p thread to terminate, then free it.
 * Errors: -EINVAL (bad thread, not joinable), -EDEADLK (joining self),
 * -EBUSY (another thread joins it), -EPERM (wrong context),
 * NK_WAKE_UNBLOCKED.  Context: thread.
 */
nk_export nk_must_check int nk_thread_join(struct nk_thread *thread);

/**
 * Suspend @p thread (nesting: as many resumes are needed).  A suspended
 * thread that waits for a resource still gets it, but stays suspended.
 * Errors: -EINVAL, -ESRCH (terminated), -EPERM (dormant), -EOVERFLOW
 * (nesting beyond INT_MAX).  Context: any; suspending self: thread.
 */
nk_export int nk_thread_suspend(struct nk_thread *thread);
/** Undo one suspend.  Errors: -EINVAL, -ESRCH, -EPERM (not suspended). */
nk_export int nk_thread_resume(struct nk_thread *thread);

/**
 * Set the base priority.  The effective priority follows (inheritance
 * and ceilings still apply); a raised ready thread goes to the tail of
 * its new level, a lowered one to the head.
 * Errors: -EINVAL (bad thread, priority out of range), -ESRCH.
 * Context: any.
 */
nk_export int nk_thread_set_priority(struct nk_thread *thread, int priority);

/**
 * Move @p thread to RT CPU @p cpu's scheduler, in any state.  Ready, it
 * leaves its old CPU's ready queue for the tail of its level on @p cpu,
 * where it preempts a less urgent current thread.  Blocked, suspended or
 * dormant, it runs on @p cpu once readied.  Current on its CPU (the caller
 * itself, or another CPU's current thread), it leaves that CPU at once
 * (the other CPU is kicked) and goes on running on @p cpu, in turn with
 * the threads ready there; holding the scheduler lock, it keeps its CPU
 * until it unlocks, and moves then.  Its pending sleep or wait timeout
 * moves with it and fires on @p cpu at the same date.  Priorities and
 * priority inheritance are unchanged.  The backend moves the thread's OS
 * thread too (live: its Linux affinity becomes @p cpu's Linux CPU).
 * nk_thread_cpu() names the CPU the thread runs on: the old one until a
 * deferred move takes effect.
 * Errors: -EINVAL (bad or root thread, @p cpu out of range), -ESRCH
 * (terminated).  Context: any.
 */
nk_export int nk_thread_set_cpu(struct nk_thread *thread, int cpu);

/**
 * Set the scheduling policy, and for NK_SCHED_RR the quantum (ns, > 0;
 * ignored for FIFO).  The thread's time slice restarts: at once if it is
 * current (a full quantum from now; a rotation its old slice had earned
 * and not yet taken is dropped), else when it next runs.  Back to FIFO,
 * the thread is no longer rotated.  Its place in the ready queue stays.
 * Errors: -EINVAL (bad thread, unknown policy, RR without a positive
 * quantum), -ESRCH (terminated).  Context: any.
 */
nk_export int nk_thread_set_policy(struct nk_thread *thread,
				   enum nk_policy policy, nk_time_t quantum);

/**
 * Move the caller to the tail of its priority level.
 * Errors: -EINVAL, -EPERM (not a thread of @p nk).  Context: thread.
 */
nk_export int nk_thread_yield(struct nk_instance *nk);

/**
 * Sleep until @p timeout (per @p mode) passes.  Returns NK_WAKE_OK, or
 * NK_WAKE_UNBLOCKED.  Errors: -EINVAL (bad instance), -EPERM (wrong
 * context or scheduler locked).  Context: thread.
 */
nk_export nk_must_check int
nk_thread_sleep(struct nk_instance *nk, nk_time_t timeout, enum nk_tmode mode);

/**
 * Move the date at which @p thread, delayed (sleeping, or waiting with a
 * timeout), wakes to @p date (absolute; a date passed wakes it at
 * once), and say when it was to wake in *@p was (may be NULL).
 * Errors: -EINVAL (bad thread, date < 0), -EAGAIN (@p thread is not
 * delayed, or waits without a timeout).  Context: any.
 */
nk_export int nk_thread_set_wakeup(struct nk_thread *thread, nk_time_t date,
				   nk_time_t *was);

/**
 * Make the caller periodic: releases at @p start (absolute; NK_INFINITE:
 * one period from now, as Cobalt's xnthread_set_periodic) then every
 * @p period ns.  @p period 0 stops it.  Release dates saturate (clock.h): a
 * release past the clock's range never comes.
 * Errors: -EINVAL (bad instance, start < 0, period < 0), -EPERM.
 * Context: thread.
 */
nk_export int nk_thread_set_periodic(struct nk_instance *nk, nk_time_t start,
				     nk_time_t period);

/**
 * As nk_thread_set_periodic, for any @p thread (dormant, ready, waiting):
 * its next release is @p start (NK_INFINITE: one period from now), awaited
 * by its own nk_thread_wait_period().  If it waits for a release point
 * of its previous grid meanwhile, that wait ends as planned (never, for
 * a release past the clock's range) and its next release is the first
 * point of the new grid after that (points passed meanwhile are no
 * overruns).  Errors: -EINVAL (bad thread, start < 0, period < 0),
 * -ESRCH (terminated).  Context: any.
 */
nk_export int nk_thread_make_periodic(struct nk_thread *thread, nk_time_t start,
				      nk_time_t period);

/**
 * Wait for the caller's next release point.  On return *@p overruns (may
 * be NULL) holds the release points missed after it: passed before the
 * call (which then returns at once) or while the caller, released, did
 * not run yet (a more urgent thread, a stall), as Cobalt counts them.
 * Returns -ETIMEDOUT if any were missed, else NK_WAKE_OK; either way the
 * next call waits for a point to come.  A release past the clock's range
 * is waited for until nk_thread_unblock().  Errors: -EWOULDBLOCK (not
 * periodic), -EPERM, NK_WAKE_UNBLOCKED.  Context: thread.
 */
nk_export nk_must_check int nk_thread_wait_period(struct nk_instance *nk,
						  unsigned long *overruns);

/**
 * Break @p thread out of its current wait (sleep, synch wait, period
 * wait): the wait returns NK_WAKE_UNBLOCKED.  Suspension is not undone.
 * Errors: -EINVAL, -ESRCH, -EAGAIN (it was not waiting).  Context: any.
 */
nk_export int nk_thread_unblock(struct nk_thread *thread);

/** The calling thread if it belongs to @p nk, else NULL.  Context: any. */
nk_export struct nk_thread *nk_thread_self(struct nk_instance *nk);

/**
 * Leave primary mode: the caller stops being scheduled by the nucleus and
 * runs as an ordinary Linux thread (blocking I/O, printf...) until its
 * next nucleus service, which hardens it back (it then waits for its
 * turn on its CPU).  The CPU goes to the next ready thread at once.
 * Errors: -EINVAL, -EPERM (not a thread of @p nk, scheduler locked).
 * Context: thread.
 */
nk_export int nk_thread_relax(struct nk_instance *nk);
/** Back to primary mode now (no-op when not relaxed).  Context: thread. */
nk_export int nk_thread_harden(struct nk_instance *nk);

/**
 * Set (@p set) and clear (@p clear) NK_MODE_* bits of the caller; the
 * previous bits go to *@p old if not NULL.  With NK_MODE_WARNSW, a switch
 * to secondary mode that the thread did not ask for (a system call in
 * primary mode) raises NK_SIGDEBUG on it, sival_int = reason << 16 |
 * syscall number.  Errors: -EINVAL, -EPERM.  Context: thread.
 */
nk_export int nk_thread_set_mode(struct nk_instance *nk, unsigned int clear,
				 unsigned int set, unsigned int *old);

/** @{ */
/** Accessors: -EINVAL / NULL / 0 on a bad thread. */
nk_export struct nk_instance *nk_thread_instance(struct nk_thread *thread);
nk_export const char *nk_thread_name(struct nk_thread *thread);
nk_export int nk_thread_priority(struct nk_thread *thread);
nk_export int nk_thread_effective_priority(struct nk_thread *thread);
nk_export int nk_thread_cpu(struct nk_thread *thread);
nk_export unsigned int nk_thread_state(struct nk_thread *thread);
/** @} */
/**
 * Whether @p thread runs in the calling process: always in a private
 * instance; in one a session shares, false for another member's
 * thread, whose stack, handlers and Linux resources are that process's
 * (false for a bad thread too).  Context: any.
 */
nk_export bool nk_thread_here(struct nk_thread *thread);
/**
 * Copy @p len bytes from @p src, in the caller's memory, to @p dst in
 * the memory of @p thread's process (to), or from @p src there to
 * @p dst here (from): a plain copy for a thread of the caller's
 * process; for another member's thread of a session, the kernel copies
 * between the two processes (a waker handing a message to a waiter's
 * buffer).  Errors: -EINVAL (bad thread, NULL address with @p len),
 * -EFAULT (an address not mapped there), -EPERM (the kernel refuses:
 * another user's process), -ESRCH (that process is gone).  Context:
 * any; a system call for another process's thread.
 */
nk_export int nk_thread_copy_to(struct nk_thread *thread, void *dst,
				const void *src, size_t len);
/** As nk_thread_copy_to(), from @p src in @p thread's process to @p dst
 * in the caller's. */
nk_export int nk_thread_copy_from(struct nk_thread *thread, void *dst,
				  const void *src, size_t len);
/**
 * Statistics of @p thread into @p stats; syscalls and page_faults come from
 * the backend (its page faults are read outside the lock, a system
 * call or two).  Errors: -EINVAL.  Context: any.
 */
nk_export int nk_thread_stats(struct nk_thread *thread,
			      struct nk_thread_stats *stats);
/**
 * The host OS thread of @p thread: its Linux thread id in *@p tid and its
 * pthread in *@p pthread (either may be NULL).  Every backend runs a
 * thread on an OS thread of its own, known from creation (or adoption)
 * on.  Errors: -EINVAL (bad thread), -ESRCH (terminated), -ENOSYS (the
 * backend does not tell).  Context: any.
 */
nk_export int nk_thread_host(struct nk_thread *thread, pid_t *tid,
			     pthread_t *pthread);

/** Per-thread error slot (NULL on bad thread).  Skins keep their
 * per-thread data as personality extensions (fusion/personality.h). */
nk_export int *nk_thread_errno(struct nk_thread *thread);

#endif
