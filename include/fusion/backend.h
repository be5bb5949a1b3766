/* SPDX-License-Identifier: MIT */
/*
 * The backend operations table: everything the nucleus needs from the
 * machine, and nothing more.  The nucleus never reads a clock, creates an
 * OS thread or makes a system call itself; it goes through these.
 *
 * Conventions for every operation below:
 * - "priv" is the pointer the backend's init returned.
 * - Threads are named to switch_to and busy by their shadow (the
 *   pointer thread_init or thread_adopt stored); NULL in switch_to names
 *   the CPU's idle (root) context: Linux, in the design's terms.
 * - "Lock held" means the nucleus lock (see lock/unlock) is held by the
 *   caller.  The lock is logical, not tied to an OS thread.
 * - Interrupt context (where the backend calls handlers->timer and
 *   handlers->resched) is wherever self() answers NULL: that is how the
 *   nucleus refuses blocking calls from handlers.
 */
#ifndef FUSION_BACKEND_H
#define FUSION_BACKEND_H

#include <fusion/types.h>
#include <fusion/trace.h>

#include <pthread.h>
#include <sys/types.h>

struct nk_instance_attr;

/* Entry points the nucleus registers with its backend (calls "up"). */
struct nk_backend_handlers {
	/*
	 * The deadline last given to program_timer(@cpu) for this
	 * process's member has passed: run the expired timers and
	 * reschedule.  @now is the backend's clock when it saw the date
	 * pass (it reads it to know): the arrival's date, which the
	 * nucleus does not read again.  Lock held.  Called from the
	 * backend's interrupt context (never from a nucleus thread's own
	 * code path).
	 */
	void (*timer)(struct nk_instance *nk, int cpu, nk_time_t now);
	/*
	 * @cpu was kicked while it ran its idle context: pick its next
	 * thread and switch it in.  Lock held, interrupt context.
	 */
	void (*resched)(struct nk_instance *nk, int cpu);
	/*
	 * A kick reached the current thread of a CPU while it ran
	 * application code: reschedule now.  Called on that thread's own OS
	 * thread (live: from the preemption signal), lock not held.
	 */
	void (*preempt)(struct nk_instance *nk);
	/*
	 * The caller, in primary mode, made a system call outside the
	 * nucleus (@syscall_nr; -1 for none): switch it to secondary mode.
	 * Called on its own OS thread, lock not held (sim: held once, by
	 * the handler that checked under it that the relax is due).
	 */
	void (*relax)(struct nk_instance *nk, int reason, long syscall_nr);
	/*
	 * The caller, relaxed, enters the nucleus: make it current again
	 * (it waits for its turn).  Lock held.
	 */
	void (*harden)(struct nk_instance *nk);
	/*
	 * A signal handler of the program ran on the OS thread of @thread
	 * while it waited in the backend to be made current (a signal sent
	 * to it with pthread_kill or tgkill): break its wait, if it waits
	 * for something, as nk_thread_unblock() does, so that the service
	 * it sleeps in returns NK_WAKE_UNBLOCKED (-EINTR), as a Linux
	 * system call interrupted by a handler would.  Lock held,
	 * interrupt context (@thread is not current; live calls it on
	 * @thread's OS thread, sim on the simulation's).
	 */
	void (*interrupted)(struct nk_instance *nk, struct nk_thread *thread);
	/*
	 * First run of a shadow created by thread_init, on its own OS
	 * thread, lock held.  Does not return: the thread ends through
	 * switch_to(.., NK_SWITCH_EXIT).
	 */
	void (*thread_entry)(struct nk_thread *thread);
	/*
	 * The OS thread bound by thread_adopt is ending on its own (it
	 * returned from its start routine or called pthread_exit) while
	 * its nucleus thread lives: end that thread as nk_thread_exit()
	 * would.  Called on that OS thread, lock not held.  It ends, as
	 * every thread, through switch_to(.., NK_SWITCH_EXIT), after which
	 * the backend lets the OS thread finish ending.
	 */
	void (*thread_gone)(struct nk_instance *nk);
	/*
	 * Process @member of the session sharing @nk died: its threads
	 * leave every queue (mutexes they owned pass on with
	 * NK_WAKE_OWNER_DEAD) and are freed, each through thread_reap;
	 * the nucleus's own timers it had armed move to this process, the
	 * others it owned go; the CPUs it ran pick their next thread.
	 * Lock held, from a thread of the backend that is no nucleus
	 * thread, after the backend forgot the dead member's CPUs.
	 */
	void (*member_gone)(struct nk_instance *nk, int member);
	/*
	 * Describe every thread and what it waits for, one line per call
	 * of @emit.  Lock held.  Used for deadlock reports.
	 */
	void (*describe)(struct nk_instance *nk,
			 void (*emit)(void *ctx, const char *line), void *ctx);
	/*
	 * Interrupt pipeline entries.  irq: a source attached with
	 * source_attach raised @irq on @cpu, seen at @now on the backend's
	 * clock, as for the timer (lock held, interrupt context).
	 * irq_sync: the work irq_post asked for (lock held, interrupt
	 * context).  root_sync: the work root_post asked for, in root
	 * context: a plain OS thread, lock not held (sim: the dispatcher,
	 * holding it; the lock is recursive).
	 */
	void (*irq)(struct nk_instance *nk, int cpu, unsigned int irq,
		    nk_time_t now);
	void (*irq_sync)(struct nk_instance *nk, int cpu);
	void (*root_sync)(struct nk_instance *nk);
	/*
	 * The backend's watchdog took real time away from the thread
	 * named @name, current on @cpu at @date, for keeping its CPU too
	 * long without blocking: trace it (NK_TRACE_WATCHDOG).  Lock held;
	 * called after the fact, from a thread of the backend (the
	 * demotion itself happens in a signal handler, which must not take
	 * the lock), so the thread may have ended since.
	 */
	void (*watchdog)(struct nk_instance *nk, int cpu, const char *name,
			 nk_time_t date);
	/*
	 * The debugger's view (the sim backend's agent,
	 * docs/sim-debugger.md): write @what, one of NK_INSPECT_*, as one
	 * JSON array, in pieces through @emit.  Lock held, the instance
	 * complete (its first trace record has been made).
	 */
	void (*inspect)(struct nk_instance *nk, int what,
			void (*emit)(void *ctx, const char *text), void *ctx);
	/*
	 * For the agent's breakpoints on fill levels: the count and
	 * capacity (0: unbounded) of the first object named @name, as
	 * inspect shows them.  Returns 0, or -ENOENT (no such object, or
	 * one without a count).  Lock held.
	 */
	int (*object_level)(struct nk_instance *nk, const char *name,
			    long *count, long *capacity);
	/*
	 * For the agent's overrun breakpoints: the release point at which
	 * the periodic thread named @thread, which does not wait for it
	 * now, overruns; NK_INFINITE if it waits for it, is not periodic
	 * or does not exist.  Lock held.
	 */
	nk_time_t (*overrun_date)(struct nk_instance *nk, const char *thread);
};

/* What handlers->inspect describes. */
enum nk_inspect_what {
	NK_INSPECT_THREADS,
	NK_INSPECT_OBJECTS,
	NK_INSPECT_TIMERS,
	NK_INSPECT_PIPELINE,
};

struct ipipe_source;

/* switch_to flags */
#define NK_SWITCH_EXIT 0x1 /* prev is dead: end its OS thread, never return */
#define NK_SWITCH_PARK                                                         \
	0x2 /* next is NULL: prev only waits to be made current */
#define NK_SWITCH_RELAX 0x4   /* prev leaves primary mode: it goes on running */
#define NK_SWITCH_MIGRATE 0x8 /* prev leaves its CPU for another RT CPU */

struct nk_backend_ops {
	const char *name;

	/*
	 * Set up the backend for @nk with @nr_cpus RT CPUs; store the
	 * backend's private pointer in *@priv.  Called once, before any
	 * other operation, from the thread creating the instance.
	 * Returns 0 or a negative errno.
	 */
	int (*init)(struct nk_instance *nk, int nr_cpus,
		    const struct nk_backend_handlers *handlers, void **priv);
	/*
	 * Release what init took.  Every shadow has been reaped.  Returns
	 * true when a thread it could not end (reaped, never ended) may
	 * still touch the memory of its shadow, from nk_alloc(): the
	 * instance's memory must then outlive it, until the process exits.
	 */
	bool (*fini)(void *priv);

	/* Monotonic time in ns.  Any context, lock held or not. */
	nk_time_t (*now)(void *priv);

	/*
	 * Call handlers->timer(@cpu, now()) once now() >= @when, in the process
	 * of member @member of the session sharing the instance (0, the only
	 * one, for a private instance): each runs its own timers.  A new
	 * call replaces the previous deadline of (@cpu, @member);
	 * NK_INFINITE cancels it.  Lock held.
	 */
	void (*program_timer)(void *priv, int cpu, int member, nk_time_t when);

	/*
	 * The nucleus made @next current on its CPU in place of @prev
	 * (either may be NULL: the idle context).  Lock held, and nucleus
	 * state final: the backend may release the lock before parking
	 * @prev and take it again before returning (live does; sim keeps it
	 * held throughout, since only one thread executes).  @next, when it
	 * resumes, holds the lock.
	 * - @prev is the caller's own thread: returns when @prev is made
	 *   current again, lock held.
	 * - NK_SWITCH_PARK (@next NULL): nothing changes hands; @prev, a
	 *   thread that just adopted itself, waits until it is made current.
	 * - NK_SWITCH_RELAX: @prev (the caller) leaves primary mode and
	 *   returns at once, lock held, to run as a plain thread.  At its
	 *   next lock(), the backend calls handlers->harden first.
	 * - @prev is NULL (interrupt or idle context): returns at once,
	 *   lock still held; @next runs when the backend gives it its CPU.
	 * - NK_SWITCH_MIGRATE: @prev (the caller, runnable or not) leaves
	 *   its old RT CPU, which @next now runs, for the one
	 *   nk_thread_cpu() of its thread names (the nucleus has moved it
	 *   there): the backend releases the old CPU, then moves @prev as
	 *   thread_migrate does, and @prev waits as any @prev, never as the
	 *   old CPU's idle waiter.  May be combined with NK_SWITCH_RELAX.
	 * - NK_SWITCH_EXIT: @prev (the caller) is dead; its OS thread ends
	 *   here and the call does not return.  The nucleus must not touch
	 *   @prev after this call is made; the shadow stays allocated until
	 *   thread_reap.
	 */
	void (*switch_to)(void *priv, void *prev, void *next,
			  unsigned int flags);

	/*
	 * Ask @cpu to reschedule: the thread current there (never the
	 * caller) must enter the nucleus and reschedule at its next
	 * preemption point; if @cpu runs its idle context, the backend
	 * calls handlers->resched(@cpu).  Lock held.
	 */
	void (*kick)(void *priv, int cpu);

	/*
	 * Create the shadow of @thread: an OS thread that waits, without
	 * running any nucleus code, until switch_to first names it, then
	 * calls handlers->thread_entry.  Store the backend's per-thread
	 * data in *@shadow.  Lock held.  Returns 0, -ENOMEM or -EAGAIN.
	 */
	int (*thread_init)(void *priv, struct nk_thread *thread,
			   size_t stack_size, void **shadow);
	/*
	 * Bind the calling OS thread to @thread, which becomes its shadow
	 * (and is current on its CPU on return).  Should the OS thread end
	 * while bound, the backend calls handlers->thread_gone on it first.
	 * Lock held.
	 */
	int (*thread_adopt)(void *priv, struct nk_thread *thread,
			    void **shadow);
	/*
	 * End the OS thread of a shadow that is not current anywhere (it
	 * waits in the backend, or was never started) without letting it
	 * run nucleus code again.  Lock held.  The OS thread of another
	 * process ends once the lock is released (an undone section must
	 * not have ended it); a second call does nothing.
	 */
	void (*thread_kill)(void *priv, void *shadow);
	/*
	 * The thread of @shadow now belongs to RT CPU @cpu (the nucleus
	 * moved it there): move its OS thread accordingly (live: its Linux
	 * affinity becomes @cpu's Linux CPU; a refusal by the OS leaves it
	 * where it was, which costs timing, never correctness).  The thread
	 * is current on no CPU: it waits in the backend, was never started,
	 * or runs relaxed.  Lock held.  The current thread of a CPU moves
	 * through switch_to(.., NK_SWITCH_MIGRATE) instead.
	 */
	void (*thread_migrate)(void *priv, void *shadow, int cpu);
	/*
	 * The effective priority of the thread of @shadow is now @prio (a
	 * change, an inheritance boost or its end): its OS thread follows
	 * where the OS ranks threads by priority (live: its SCHED_FIFO
	 * priority, so that other real-time processes find it where its
	 * nucleus priority says).  Lock held; any context, a signal
	 * handler's included.  NULL: nothing to do.
	 */
	void (*thread_priority)(void *priv, void *shadow, int prio);
	/*
	 * Wait until the OS thread of a dead or killed shadow has ended
	 * and free the shadow.  For an adopted thread, unbind it instead.
	 * Lock held (the dying thread never takes it).
	 */
	void (*thread_reap)(void *priv, void *shadow);

	/*
	 * Optional: the Linux thread id and pthread of @shadow's OS thread,
	 * known once thread_init or thread_adopt has returned.  Lock held.
	 */
	void (*thread_host)(void *priv, void *shadow, pid_t *tid,
			    pthread_t *pthread);
	/*
	 * Optional: how many times @shadow's thread entered the nucleus
	 * (its outermost lock() calls: its "system calls").  Lock held.
	 */
	unsigned long (*thread_entries)(void *priv, void *shadow);
	/*
	 * Optional: the page faults (minor and major) of the OS thread
	 * @tid of this process so far; 0 when it has gone.  May make
	 * system calls.  Lock NOT held.
	 */
	unsigned long (*host_faults)(void *priv, pid_t tid);
	/*
	 * Optional: the Linux CPU RT CPU @cpu (valid) runs on, as the
	 * instance's first process chose it.  Any context.
	 */
	int (*host_cpu)(void *priv, int cpu);

	/*
	 * The nucleus thread bound to the calling OS thread in the instance
	 * of @priv, or NULL.  With @priv NULL: in any instance of this
	 * backend (an OS thread belongs to one instance at most).
	 */
	struct nk_thread *(*self)(void *priv);

	/*
	 * Keep the CPU of @shadow (the caller, current) busy for @ns of
	 * the backend's clock, then return.  Returns early, with the lock
	 * held, when kicked (a preemption is due); the nucleus computes
	 * what remains from now().  Lock held.
	 */
	void (*busy)(void *priv, void *shadow, nk_time_t ns);

	/*
	 * The nucleus lock: see the conventions above.  Recursive for the
	 * OS thread holding it, so that timer handlers (run with it held)
	 * may call any non-blocking nucleus service.  Any context.
	 */
	void (*lock)(void *priv);
	void (*unlock)(void *priv);
	/*
	 * Does the calling OS thread hold the nucleus lock: has it taken
	 * it (lock(), or a handler called with it held) more times than
	 * it released it?  The lock's owner, as far as the caller is
	 * concerned: a thread parked in switch_to still counts its levels
	 * and holds the lock again when it resumes.  The depth is counted
	 * per OS thread, not per instance.  Debug builds assert each
	 * nucleus entry's lock state with it, and the nucleus tells
	 * interrupt context by it.  Any context; never blocks.
	 */
	bool (*lock_held)(void *priv);

	/*
	 * Deliver NK_SIGDEBUG to @shadow's thread (the caller) with
	 * @value.  Optional.  Any context.
	 */
	void (*warn)(void *priv, void *shadow, int value);

	/*
	 * Call handlers->irq_sync(@cpu) in interrupt context as soon as
	 * possible: live wakes the CPU's interrupt thread (it runs once the
	 * lock is free); sim at the next dispatch, which a nucleus thread
	 * of @cpu reaches at once through busy(0).  Lock held.
	 */
	void (*irq_post)(void *priv, int cpu);
	/* Call handlers->root_sync soon, in root context.  Lock held. */
	void (*root_post)(void *priv);
	/*
	 * Interrupt sources (see fusion/pipeline.h).  attach: make @src
	 * raise handlers->irq(@cpu, @irq) at each new arrival (an edge:
	 * data already there when the IRQ was taken raises nothing more);
	 * -ENOTSUP for a kind the backend lacks.  detach: stop it (no call
	 * after return).  end: every handler of the last arrivals has run:
	 * unmask the device if it needs it, and with @recheck (the pipeline
	 * held the IRQ back meanwhile) raise it again if the source still
	 * has something.  fd: the fd watched, or -EINVAL.  Lock held for
	 * all four.
	 */
	int (*source_attach)(void *priv, int cpu, unsigned int irq,
			     const struct ipipe_source *src);
	void (*source_detach)(void *priv, unsigned int irq);
	void (*source_end)(void *priv, unsigned int irq, bool recheck);
	int (*source_fd)(void *priv, unsigned int irq);
	/*
	 * Optional: stop raising @irq until source_end(@irq, true): the
	 * pipeline masked a storm (arrivals meanwhile are dropped).  Lock
	 * held.
	 */
	void (*source_mask)(void *priv, unsigned int irq);

	/*
	 * Pipe channels (fusion/pipe.h): open a connected pair of message
	 * sockets, fds[0] the nucleus end, fds[1] the Linux end.  send and
	 * recv use the nucleus end and never block (-EAGAIN); recv returns
	 * the message's full size even when larger than @len (the rest is
	 * dropped unless @peek), 0 when the Linux end is closed.  Any
	 * context, lock held or not.
	 */
	int (*chan_open)(void *priv, int fds[2]);
	void (*chan_close)(void *priv, int fd);
	ssize_t (*chan_send)(void *priv, int fd, const void *buf, size_t len);
	ssize_t (*chan_recv)(void *priv, int fd, void *buf, size_t len,
			     bool peek);

	/*
	 * Optional: the trace sink the backend wants installed at start
	 * (the sim backend's FUSION_SIM_LOG).  Leaves *@fn NULL for none.
	 */
	void (*default_trace)(void *priv, nk_trace_fn *fn, void **ctx);
};

/* Backends built into this library. */
extern const struct nk_backend_ops nk_backend_live;
extern const struct nk_backend_ops nk_backend_sim;

/*
 * Resolve a backend by name: "live" or "sim"; NULL means $FUSION_BACKEND,
 * else the default (live).  Returns NULL for an unknown or unavailable name.
 */
const struct nk_backend_ops *nk_backend_lookup(const char *name);

/* Is the calling OS thread a nucleus thread of any instance? */
bool nk_backend_thread_bound(void);

/*
 * The backend's state that every process sharing @nk uses (a session's
 * members; a private instance has one): @size zeroed bytes from
 * nk_alloc(), made by the first process to ask (*@made set) and found
 * by the others.  NULL: no memory.  Called from init.
 */
void *nk_backend_state(struct nk_instance *nk, size_t size, bool *made);

/*
 * The undo journal that goes with a shared instance's nucleus lock
 * (fusion/journal.h, docs/architecture.md, "A member dying"), which the
 * backend keeps with its shared state: made once, from init (NULL: no
 * memory, or a private instance, which needs none); begun by each
 * holder as it takes the lock; committed just before it releases it;
 * undone by a taker whose lock's holder died before it took it (false:
 * it could not be, and the instance is left as the holder left it).
 */
struct nk_journal *nk_journal_make(struct nk_instance *nk);
void nk_journal_begin(struct nk_journal *j, bool call);
/* As begin, for a holder that takes the lock back after a switch, in
 * the middle of its call (@call: begin says the holder starts a call
 * into the nucleus; false for a handler run while the holder's call
 * waits): what it noted before is noted again. */
void nk_journal_resume(struct nk_journal *j);
void nk_journal_commit(struct nk_journal *j);
bool nk_journal_undo(struct nk_journal *j);
/*
 * Note @thread and its personalities' extensions (its TCBs): what a call
 * of its own changes most, often found before the lock was taken.  For
 * the backend, as a thread of ours takes the lock.
 */
void nk_journal_thread(struct nk_thread *thread);

#endif
