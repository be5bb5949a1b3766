/* SPDX-License-Identifier: MIT */
/*
 * The live backend: the nucleus on real Linux threads in real time.
 *
 * A switch on one RT CPU costs what a raw two-thread futex ping-pong
 * costs: the outgoing shadow opens the gate of the incoming one (one
 * wake) and waits on its own (one wait).  The nucleus lock is released
 * before the wake so the incoming thread, usually more urgent and so
 * running at once, finds it free.
 *
 * Asynchronous preemption: when the interrupt thread (or another CPU)
 * readies a more urgent thread while the current shadow runs application
 * code, the kick is a signal; its handler enters the nucleus and
 * reschedules, parking the shadow on its gate.  A shadow inside the
 * nucleus (lock depth > 0) only notes the request; it is honoured when
 * the shadow leaves the nucleus.  At most one kick is queued per shadow
 * (kick_pending), so a storm of wake-ups never fills the user's queue of
 * pending signals (RLIMIT_SIGPENDING), which other programs share.
 *
 * A killed shadow ends at its gate, at its next nucleus entry, or, when
 * it runs application code in primary mode (a runaway), in the
 * preemption signal it is sent.  One that reaches none of them (a
 * relaxed thread spinning or blocked in Linux) is left behind when it is
 * reaped, after a bounded wait: the process can always exit.
 */
#include "live.h"
#include "../common/chan.h"
#include "../common/exit.h"
#include "../common/options.h"
#include "../common/host.h"
#include "../../nucleus/journal.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
/* Sanitizers map terabytes of shadow memory that mlockall cannot lock,
 * and must see every signal handler installed (no raw rt_sigaction). */
static const bool live_under_sanitizer = true;
#else
static const bool live_under_sanitizer = false;
#endif

/* Stack touched at shadow start when mlockall could not lock it. */
#define LIVE_PREFAULT (32 * 1024)
/* How long a reaper waits for a killed thread: one that ends at its gate,
 * its next nucleus entry or its kick needs far less, even when loaded. */
#define LIVE_REAP_WAIT_NS (2 * 1000000000L)

static __thread struct live_shadow *live_self;
/* Nucleus lock depth of this OS thread, and a preemption noted inside. */
static __thread volatile int live_depth;
static __thread volatile bool live_preempt_pending;
/* This thread runs preempt_all(): a preemption noted meanwhile is its. */
static __thread volatile bool live_preempting;
/* Set while an idle shadow runs the timer handler: interrupt context. */
static __thread bool live_irq_ctx;
/* In interrupt context: the idle waiter's own handler made it current. */
static __thread bool live_self_woken;
/* Where a shadow of ours goes to end from its kick (see shadow_main). */
static __thread sigjmp_buf *live_exit_point;
/* Set while nk_consume spins: nucleus code, outside the lock. */
static __thread bool live_busy_spin;
/* Shadows to act on once the lock is released, their gates held. */
struct live_pending {
	struct live_shadow *s[2 * NK_MAX_CPUS];
	int nr;
};
/*
 * Shadows to let go: a thread let go under the lock would run although
 * an undo of the section, should its holder die before the release, said
 * it must not (see release()).
 */
static __thread struct live_pending live_opens;
/*
 * Shadows of other processes to end, for the same reason: ended under
 * the lock, a thread of a process that lives on would be gone although
 * the undone section still lists it.
 */
static __thread struct live_pending live_kills;
static void shadow_kill(struct live *live, struct live_shadow *s);
__thread unsigned int live_signals;

/* Name of the calling shadow's thread, or NULL: async-signal-safe. */
const char *live_current_name(void)
{
	return live_self ? live_self->name : NULL;
}

/* The calling OS thread's shadow, or NULL: async-signal-safe. */
struct live_shadow *live_current_shadow(void)
{
	return live_self;
}

nk_hot nk_time_t live_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (nk_time_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The calling OS thread, @s, is a shadow no more: it is about to end. */
static void shadow_unbind_self(struct live_shadow *s)
{
	live_sud_allow();
	live_self = NULL;
	/* A kick arriving from here on must find no shadow to reschedule. */
	atomic_signal_fence(memory_order_seq_cst);
	live_depth = 0;
	live_watchdog_forget(s);
	/* Its last touch of the backend's state (live_fini waits for it). */
	atomic_fetch_sub(&s->live->bound, 1);
	if (s->detached)
		be_gate_open(&s->gone); /* the reaper may free @s from here */
}

static void __attribute__((noreturn)) shadow_exit(struct live_shadow *s)
{
	shadow_unbind_self(s);
	be_thread_end();
}

/*
 * A kick raises again a shadow that lowers itself meanwhile as long as
 * the shadow waits for a CPU: it asks every BOOST_RACE_NS, and leaves it
 * after BOOST_RACE_MAX_NS all the same (held off by a process above the
 * interrupt threads).
 */
#define BOOST_RACE_NS (10 * 1000 * 1000)
#define BOOST_RACE_MAX_NS (100 * 1000 * 1000)

/* Is @s on a CPU or waiting for one: not asleep, stopped or gone? */
static bool shadow_runnable(const struct live_shadow *s)
{
	return be_host_state(s->pid, s->tid) == 'R';
}

/*
 * Raise @s, which must hand its CPU over to a more urgent thread, to the
 * interrupt threads' priority until it has (shadow_unboost): at its own,
 * a real-time process ranking between the two would starve it.  A shadow
 * lowering itself meanwhile may have passed its look for a kick before
 * ours: its lowering then takes effect after our raise, and it may lose
 * its CPU before it sees the boost and raises itself again.  So the
 * raise is repeated until it is out of shadow_unboost, which it leaves
 * raised (yielding to it, should it share our CPU and priority).  How
 * long a runnable shadow takes to get there is the host's to say (a
 * hypervisor may hold a virtual CPU off for milliseconds): it is only
 * left once it is not runnable, to raise itself when it runs.  Asleep,
 * it may wait for the lock we hold, from a handler nested in its
 * lowering; stopped or gone, it will not run.  Not on ourselves: our
 * own shadow_unboost, interrupted, sees the boost when it resumes.
 */
static void shadow_boost(struct live *live, struct live_shadow *s)
{
	struct sched_param boost = {.sched_priority = live_fifo_irq(live)};
	nk_time_t start, look, now;

	if (atomic_load(&s->fifo) <= 0 || s->tid <= 0 ||
	    atomic_exchange(&s->boosted, true))
		return;
	syscall(SYS_sched_setparam, s->tid, &boost);
	if (s == live_self || !atomic_load(&s->lowering))
		return;
	start = live_clock();
	look = start + BOOST_RACE_NS;
	while (atomic_load(&s->lowering)) {
		now = live_clock();
		if (now >= look) {
			if (now - start >= BOOST_RACE_MAX_NS ||
			    !shadow_runnable(s))
				return;
			look = now + BOOST_RACE_NS;
		}
		sched_yield();
		syscall(SYS_sched_setparam, s->tid, &boost);
	}
}

/*
 * @s, the caller, back at its own priority after a boost: the bare
 * system call, safe in a signal handler, and not taken for a stray one.
 * Not while a kick is on its way or noted and not honoured yet: that
 * kick found the boost in place and left it to us (shadow_boost), and
 * the caller may be current again already (a thread that was to park
 * finds its gate open), with the preemption still to make above the
 * load that made the boost needed.  preempt_all lowers it once
 * honoured.  The kick is looked for after the exchange: one that found
 * the boost still in place is seen.  One that did not raises us itself,
 * maybe before our lowering takes effect: @lowering, counted before the
 * exchange, has it raise us again until we are out, and a boost found
 * then is taken back up.
 */
static nk_hot void shadow_unboost(struct live_shadow *s)
{
	struct sched_param param;
	bool lowered = false;
	char selector;

	if (!atomic_load_explicit(&s->boosted, memory_order_relaxed))
		return;
	/* From preempt_all, back in application code: not a stray call. */
	selector = live_sud_save_allow();
	atomic_fetch_add(&s->lowering, 1);
	/* Taken already by a handler that interrupted us: it lowered. */
	if (atomic_exchange(&s->boosted, false)) {
		if (atomic_load(&s->kick_pending) || live_preempt_pending) {
			atomic_store(&s->boosted, true);
		} else {
			param.sched_priority = atomic_load(&s->fifo);
			syscall(SYS_sched_setparam, s->tid, &param);
			lowered = true;
		}
	}
	if (atomic_fetch_sub(&s->lowering, 1) == 1 && lowered &&
	    atomic_load(&s->boosted)) {
		param.sched_priority = live_fifo_irq(s->live);
		syscall(SYS_sched_setparam, s->tid, &param);
	}
	live_sud_restore(selector);
}

/*
 * Lock held: @s's own SCHED_FIFO priority becomes @fifo (0: none), in
 * the count of shadows by priority and their top too.
 */
static void shadow_set_fifo(struct live *live, struct live_shadow *s, int fifo)
{
	struct live_shared *sh = live->sh;
	int old, top;

	nk_journal_obj(&s->fifo);
	nk_journal_obj(&sh->fifo_shadows[atomic_load(&s->fifo)]);
	nk_journal_obj(&sh->fifo_shadows[fifo]);
	nk_journal_obj(&sh->fifo_top);
	old = atomic_exchange(&s->fifo, fifo);
	if (old > 0)
		atomic_fetch_sub(&sh->fifo_shadows[old], 1);
	if (fifo > 0)
		atomic_fetch_add(&sh->fifo_shadows[fifo], 1);
	top = atomic_load(&sh->fifo_top);
	if (fifo > top)
		top = fifo;
	while (top > 0 && atomic_load(&sh->fifo_shadows[top]) == 0)
		top--;
	atomic_store(&sh->fifo_top, top);
}

/*
 * Does a shadow of the instance, on any CPU, rank above @s?  Only then
 * may a handler @s runs as idle waiter wake a thread that a real-time
 * process between the two priorities must not delay.  Asked at each
 * idle poll, so one load, not a walk of the levels above @s.
 */
static bool shadow_outranked(struct live *live, const struct live_shadow *s)
{
	return atomic_load_explicit(&live->sh->fifo_top, memory_order_relaxed) >
	       atomic_load_explicit(&s->fifo, memory_order_relaxed);
}

/*
 * The nucleus lock is ours.  From a holder that died holding it (a member
 * of the session, killed), its unfinished critical section is undone
 * first, which only a journal that overflowed or was damaged prevents
 * (docs/architecture.md, "A member dying"): said once.  Then our own
 * changes are noted.  Bare writes: this may run in a signal handler.
 */
enum take_kind {
	TAKE_CALL,    /* a call into the nucleus begins */
	TAKE_HANDLER, /* a handler runs while the caller's call waits */
	TAKE_RESUME,  /* a call goes on after a switch */
};

/* Lock held: a critical section of @kind begins, whose changes are
 * noted in a shared instance. */
static void journal_open(struct live *live, enum take_kind kind)
{
	struct nk_journal *j = live->sh->journal;

	if (j == NULL)
		return;
	if (kind == TAKE_RESUME)
		nk_journal_resume(j);
	else
		nk_journal_begin(j, kind == TAKE_CALL);
	if (live_self && live_self->live == live && kind != TAKE_HANDLER)
		nk_journal_thread(live_self->thread);
}

static nk_hot bool taken(struct live *live, enum be_pilock_taken how,
			 enum take_kind kind)
{
	static const char undone[] =
	    "fusion: a member of the session died holding the nucleus "
	    "lock: its unfinished change was undone\n";
	static const char broken[] =
	    "fusion: a member of the session died holding the nucleus "
	    "lock: its change could not be undone, the instance it shares "
	    "may be inconsistent\n";
	struct nk_journal *j = live->sh->journal;
	ssize_t told = 0;

	if (how == BE_PILOCK_ABANDONED)
		return false;
	if (how == BE_PILOCK_OWNER_DIED) {
		bool whole = j == NULL || nk_journal_undo(j);

		if (!atomic_exchange(&live->owner_died, true))
			told = whole ? write(STDERR_FILENO, undone,
					     sizeof(undone) - 1)
				     : write(STDERR_FILENO, broken,
					     sizeof(broken) - 1);
		(void)told; /* nothing more to tell it with if it failed */
	}
	journal_open(live, kind);
	return true;
}

static void take(struct live *live, enum take_kind kind)
{
	taken(live, be_pilock_acquire(&live->sh->lock), kind);
}

static bool take_unless(struct live *live, _Atomic bool *abandon,
			enum take_kind kind)
{
	return taken(live, be_pilock_acquire_unless(&live->sh->lock, abandon),
		     kind);
}

/*
 * Lock held: @n, current, is to be let go once the lock is released by
 * a thread of process @pid, session member @member.  A shadow of another
 * process would outlive that opener, killed before it opens the gate:
 * the gate records the debt, which whoever cleans up after the opener
 * pays if @n is still current (members.c).  The opener's own die with
 * it: no debt, and none left from before (a section undone).
 */
static void gate_owed_by(struct live_shadow *n, pid_t pid, int member)
{
	be_gate_owe(&n->gate, n->pid != pid ? live_debtor(member) : 0);
}

static void owe_open(struct live *live, struct live_shadow *n)
{
	gate_owed_by(n, live->pid, live->member);
}

/* Lock released: the open owe_open() promised, unless already paid. */
static void open_owed(struct live *live, struct live_shadow *n)
{
	if (n->pid != live->pid)
		(void)be_gate_pay(&n->gate, live_debtor(live->member));
	else
		(void)be_gate_open(&n->gate);
}

/*
 * Every change made under the lock is whole: no undo from here on.  The
 * threads it let go run from here on.
 */
static nk_hot void release(struct live *live)
{
	int opens = live_opens.nr, kills = live_kills.nr;

	if (live->sh->journal)
		nk_journal_commit(live->sh->journal);
	live_opens.nr = 0;
	live_kills.nr = 0;
	be_pilock_release(&live->sh->lock);
	for (int i = 0; i < kills; i++) {
		shadow_kill(live, live_kills.s[i]);
		be_gate_unhold(&live_kills.s[i]->gate);
	}
	for (int i = 0; i < opens; i++) {
		open_owed(live, live_opens.s[i]);
		be_gate_unhold(&live_opens.s[i]->gate);
	}
}

/* Lock held: act on @s at the release, its gate held; false if @p is
 * full (the caller acts at once). */
static bool pending_add(struct live_pending *p, struct live_shadow *s)
{
	if (p->nr == (int)(sizeof(p->s) / sizeof(p->s[0])))
		return false;
	be_gate_hold(&s->gate);
	p->s[p->nr++] = s;
	return true;
}

/* Lock held: not @s after all.  Was it there? */
static bool pending_drop(struct live_pending *p, struct live_shadow *s)
{
	bool dropped = false;

	for (int i = p->nr; i-- > 0;) {
		if (p->s[i] == s) {
			be_gate_unhold(&s->gate);
			p->s[i] = p->s[--p->nr];
			dropped = true;
		}
	}
	return dropped;
}

/* Lock held: @s may run once it is released. */
static void open_at_release(struct live *live, struct live_shadow *s)
{
	if (pending_add(&live_opens, s))
		owe_open(live, s);
	else
		be_gate_open(&s->gate);
}

nk_hot void live_nucleus_lock(struct live *live)
{
	struct live_shadow *s = live_self;

	if (live_depth++ > 0)
		return;
	/* The nucleus makes system calls of its own. */
	live_sud_allow();
	atomic_signal_fence(memory_order_seq_cst);
	if (s == NULL || s->live != live)
		take(live, TAKE_CALL);
	else if (atomic_load(&s->killed) ||
		 !take_unless(live, &s->killed, TAKE_CALL))
		shadow_exit(s); /* its killer may hold the lock, waiting */
	if (s && s->live == live) {
		nk_journal_obj(&s->entries);
		s->entries++;
	}
	if (s && s->live == live && s->relaxed && !live_irq_ctx) {
		nk_journal_obj(&s->relaxed);
		s->relaxed = false;
		live->handlers->harden(live->nk);
	}
}

/*
 * Lock free: the preemptions noted, one after another.  The handler's own
 * unlock, or a preemption signal meanwhile, only notes one for this loop:
 * a stream of kicks never nests handlers deeper than one.
 */
static void preempt_all(struct live *live, struct live_shadow *s)
{
	if (live_preempting)
		return;
	do {
		live_preempting = true;
		while (live_preempt_pending) {
			live_preempt_pending = false;
			live->handlers->preempt(live->nk);
			if (s)
				shadow_unboost(s);
		}
		live_preempting = false;
		atomic_signal_fence(memory_order_seq_cst);
	} while (live_preempt_pending);
}

nk_hot void live_nucleus_unlock(struct live *live)
{
	struct live_shadow *s = live_self;

	if (live_depth > 1) {
		live_depth--;
		return;
	}
	/* Back to application code: the CPU's timer at its deadline. */
	if (s && s->live == live &&
	    atomic_load_explicit(&live->cpus[s->cpu].sh->current,
				 memory_order_relaxed) == s)
		live_timer_sync(&live->cpus[s->cpu]);
	release(live);
	atomic_signal_fence(memory_order_seq_cst);
	live_depth = 0;
	if (live_preempt_pending)
		preempt_all(live, s);
	/* Primary mode again in application code: stray calls relax. */
	if (s && s->live == live && live->sud && !s->relaxed &&
	    !live_busy_spin && live_depth == 0)
		live_sud_block();
}

void live_relax_from_syscall(long nr)
{
	struct live_shadow *s = live_self;

	if (s && !s->relaxed)
		s->live->handlers->relax(s->live->nk, NK_RELAX_SYSCALL, nr);
}

int live_install_handler(struct live *live, int sig,
			 void (*handler)(int, siginfo_t *, void *),
			 struct sigaction *old)
{
	struct sigaction sa;

	if (old && sigaction(sig, NULL, old))
		return -errno;
	if (live->sud)
		return live_sud_sigaction(sig, handler, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL) ? -errno : 0;
}

static void preempt_signal(int sig, siginfo_t *info, void *context)
{
	struct live_shadow *s = live_self;
	int saved_errno = errno;
	char selector = live_sud_save_allow();

	(void)sig;
	(void)info;
	(void)context;
	live_signals++;
	/* First: a kick sent from here on sends a signal of its own. */
	if (s)
		atomic_store(&s->kick_pending, false);
	if (s && !atomic_load(&s->killed)) {
		live_preempt_pending = true;
		if (live_depth == 0)
			preempt_all(s->live, s);
	} else if (s && live_depth == 0 && !s->relaxed) {
		/*
		 * Killed in application code, primary mode: a runaway that
		 * would never reach its gate.  It ends here; relaxed code may
		 * hold a lock of the C library, so it is never ended this way.
		 * A thread of ours jumps back to where it started rather than
		 * unwind (pthread_exit may load the unwinder: no call for a
		 * signal handler).
		 */
		bool adopted = s->adopted;

		shadow_unbind_self(s);
		if (!adopted)
			siglongjmp(*live_exit_point, 1);
		be_thread_end();
	}
	live_sud_restore(selector);
	errno = saved_errno;
}

/*
 * A handler of the program ran on @s while it waited: break its wait,
 * as the signal would break a system call (handlers->interrupted), in
 * interrupt context so that the nucleus does not take @s for the
 * caller.  Never once @s is being deleted: whoever reaps it may hold
 * the lock while it waits for @s to end.
 */
static void shadow_interrupted(struct live_shadow *s)
{
	struct live *live = s->live;

	if (!take_unless(live, &s->killed, TAKE_HANDLER))
		return;
	live_irq_ctx = true;
	live->handlers->interrupted(live->nk, s->thread);
	live_irq_ctx = false;
	release(live);
}

static void park(struct live_shadow *s)
{
	shadow_unboost(s);
	while (!be_gate_wait_intr(&s->gate))
		shadow_interrupted(s);
	if (atomic_load(&s->killed))
		shadow_exit(s);
}

/* @s stops being @c's idle waiter, if it still is. */
static void leave_idle(struct live_cpu *c, struct live_shadow *s)
{
	struct live_shadow *expected = s;

	atomic_compare_exchange_strong(&c->sh->idle_waiter, &expected, NULL);
}

/*
 * Lock held: a handler that @s ran as @c's idle waiter made @s current
 * (its period came, its device spoke).  Unless it was killed, it goes on
 * at once, the lock kept: its gate is not opened, and the handler's
 * section ends as a release and a retake would end it.  A periodic
 * thread's wake-up then takes the lock once.  @woken: the switch saw it
 * wake itself (live_self_woken) and left its gate alone; otherwise a
 * switch by way of a waiter gone meanwhile left an open pending.
 */
static bool resume_at_once(struct live *live, struct live_cpu *c,
			   struct live_shadow *s, bool woken)
{
	if (atomic_load(&c->sh->current) != s || atomic_load(&s->killed) ||
	    (!woken && !pending_drop(&live_opens, s)))
		return false;
	if (live->sh->journal)
		nk_journal_commit(live->sh->journal);
	journal_open(live, TAKE_RESUME);
	return true;
}

/* Lock held: the date idle waiter @s of @c sleeps until, noted for
 * whoever moves the deadline earlier (ring_idle_waiter). */
static nk_time_t idle_until(struct live *live, struct live_cpu *c,
			    struct live_shadow *s)
{
	s->idle_until = live_timer_idle(live, c);
	return s->idle_until;
}

/*
 * @s parked as its idle CPU's waiter (see struct live_cpu): it takes the
 * CPU's timer and sources until its gate opens or it is replaced.  Its
 * first poll ends by @until (live_timer_idle).  Returns with the lock
 * held when its own handler let it go on (resume_at_once).
 */
static bool park_idle(struct live *live, struct live_shadow *s,
		      struct live_cpu *c, nk_time_t until)
{
	for (;;) {
		struct epoll_event events[LIVE_EVENTS];
		struct live_shadow *next;
		unsigned int ours = live_signals;
		bool interrupted = false, waiter, woken;
		int n;

		/*
		 * It takes the CPU's interrupts: at the interrupt threads'
		 * priority, unless nothing of ours ranks above it anyway
		 * (asked at each poll: a more urgent thread started since
		 * counts from the next).  Then the most urgent thread
		 * waiting for its device or its period makes no system
		 * call besides the poll.
		 */
		if (shadow_outranked(live, s))
			shadow_boost(live, s);
		n = live_idle_poll(c, s, until, events, &interrupted);

		if (n < 0)
			break;
		/* The hand-over is read under the lock: undone with the
		 * section that made it, it never happened. */
		take(live, TAKE_HANDLER);
		live_note_cpu(c->sh);
		/* Read and cleared under the lock only: no exchange needed. */
		next =
		    atomic_load_explicit(&c->sh->handoff, memory_order_relaxed);
		if (next)
			atomic_store(&c->sh->handoff, NULL);
		live_irq_ctx = true;
		live_idle_take(live, c, events, n);
		/*
		 * A poll fails on every handler, restarting or not: it was
		 * the program's if none of ours ran (they run at once in the
		 * poll, even under ThreadSanitizer, which delays signals).
		 */
		if (interrupted && live_signals == ours)
			live->handlers->interrupted(live->nk, s->thread);
		live_irq_ctx = false;
		woken = live_self_woken;
		live_self_woken = false;
		waiter = atomic_load(&c->sh->idle_waiter) == s;
		if (!waiter && next == NULL &&
		    resume_at_once(live, c, s, woken)) {
			shadow_unboost(s);
			return true;
		}
		/* Its gate is its way on after all: opened at the release. */
		if (woken)
			open_at_release(live, s);
		if (waiter)
			until = idle_until(live, c, s);
		else
			live_timer_sync(c); /* see live_switch_to */
		release(live);
		/* Last: the thread handed over, more urgent, would preempt us
		 * with the lock held. */
		if (next)
			open_owed(live, next);
		shadow_unboost(s);
		if (!waiter) {
			park(s);
			return false;
		}
	}
	/* Killed while polling, it kept the role until now. */
	if (atomic_load(&s->killed)) {
		leave_idle(c, s);
		shadow_exit(s);
	}
	return false;
}

/*
 * @n becomes current on idle @c, whose waiter was @w.  A waiter asleep
 * in the CPU's poll must not stay there under @n, taking the sources'
 * IRQs at its own priority: it is rung and opens @n's gate itself on its
 * way out.  Exactly one of it and us takes the handoff back.
 */
static void wake_on_idle(struct live_cpu *c, struct live_shadow *w,
			 struct live_shadow *n)
{
	live_note_cpu(c->sh);
	if (w && w != n) {
		atomic_store(&c->sh->handoff_pid, w->pid);
		atomic_store(&c->sh->handoff, n);
		gate_owed_by(n, w->pid, w->member);
		if (be_gate_ring(&w->gate)) {
			/* It opens @n's gate: it must get its CPU.  Were
			 * it quicker, it lowers itself before it parks. */
			shadow_boost(c->live, w);
			return;
		}
		if (atomic_exchange(&c->sh->handoff, NULL) != n)
			return;
	}
	open_at_release(c->live, n);
}

/*
 * @s, current on no CPU, belongs to RT CPU @cpu from now on.  Were it
 * its old CPU's idle waiter, it gives the role up (that CPU's interrupt
 * thread takes its interrupts, as for a relaxed thread) and is rung out
 * of the poll to park on its gate.  Lock held.
 */
static void shadow_move(struct live *live, struct live_shadow *s, int cpu)
{
	struct live_shadow *expected = s;
	cpu_set_t set;

	live_note_cpu(live->cpus[s->cpu].sh);
	nk_journal_obj(&s->cpu);
	if (atomic_compare_exchange_strong(&live->cpus[s->cpu].sh->idle_waiter,
					   &expected, NULL))
		be_gate_ring(&s->gate);
	s->cpu = cpu;
	CPU_ZERO(&set);
	CPU_SET(live->cpus[cpu].linux_cpu, &set);
	/* Refused (the CPU left our cpuset): only timing suffers.  Another
	 * process's thread is named by its id alone. */
	if (s->pid == live->pid)
		pthread_setaffinity_np(s->pthread, sizeof(set), &set);
	else
		sched_setaffinity(s->tid, sizeof(set), &set);
}

/*
 * A shadow inherits the signal mask of whoever created or adopted it;
 * the backend's own signals must get through whatever that was.  With
 * SUD, a stray call while SIGSYS is blocked would kill the process.
 */
static void unblock_backend_signals(struct live *live)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, LIVE_SIG_PREEMPT);
	if (live->sud)
		sigaddset(&set, SIGSYS);
	if (live->shared)
		sigaddset(&set, BE_SIG_DOORBELL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/*
 * Another member of the session rang: a poll of ours must end, which an
 * eventfd of ours does, even when the poll had not begun yet: the
 * interrupt thread's kick, or the eventfd the idle waiter announced on
 * its gate.  Rung late, it ends the next poll for nothing.
 */
static void doorbell_signal(int sig, siginfo_t *info, void *context)
{
	struct live_shadow *s = live_self;
	int saved_errno = errno;
	char selector = live_sud_save_allow();

	(void)sig;
	(void)info;
	(void)context;
	live_signals++;
	if (live_irq_cpu)
		be_efd_signal(live_irq_cpu->irq_efd);
	else if (s)
		be_efd_signal(atomic_load(&s->gate.poll_fd));
	live_sud_restore(selector);
	errno = saved_errno;
}

static bool live_fini(void *priv)
{
	struct live *live = priv;
	bool abandoned = atomic_load(&live->abandoned);

	/* In a session, a thread another member deleted and reaped may
	 * still be on its way out, through this struct. */
	for (long waited = 0; !abandoned && atomic_load(&live->bound) > 0 &&
			      waited < LIVE_REAP_WAIT_NS;
	     waited += 1000000)
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	abandoned = abandoned || atomic_load(&live->bound) > 0;

	live_members_stop(live);
	live_sources_stop(live);
	live_irq_stop(live);
	live_watchdog_stop(live);
	if (live->dma_latency_fd >= 0)
		close(live->dma_latency_fd);
	if (abandoned)
		return true;
	atomic_store(&live->sh->pid[live->member], 0);
	/* A session's goes with its segment's nucleus block, which the
	 * other members may still use. */
	if (!live->shared)
		nk_free(live->nk, live->sh);
	free(live);
	return false;
}

/*
 * The backend's shared state: made by the instance's first process,
 * which records its RT CPUs' Linux CPUs (@cpus); found by the others
 * (a session's members), which run on those and must count as many.
 */
static int shared_attach(struct live *live, int nr_cpus, const int *cpus)
{
	struct live_shared *sh;
	size_t size = sizeof(*sh) + (size_t)nr_cpus * sizeof(sh->cpus[0]);
	bool made;

	sh = nk_backend_state(live->nk, size, &made);
	if (sh == NULL)
		return -ENOMEM;
	if (made && live->shared) {
		sh->journal = nk_journal_make(live->nk);
		if (sh->journal == NULL)
			return -ENOMEM;
	}
	if (made) {
		be_pilock_init(&sh->lock, live->shared);
		sh->nr_cpus = nr_cpus;
		for (int i = 0; i < nr_cpus; i++)
			sh->cpus[i].linux_cpu = cpus[i];
	} else if (sh->nr_cpus != nr_cpus) {
		return -EINVAL;
	}
	for (int i = 0; i < nr_cpus; i++)
		atomic_store(&sh->cpus[i].deadline[live->member], NK_INFINITE);
	atomic_store(&sh->pid[live->member], live->pid);
	live->sh = sh;
	nk_journal_audit_skip(sh, size, true);
	return 0;
}

/* The options the live backend reads. */
static const enum be_option_id live_options[] = {
    BE_OPT_CPUS, BE_OPT_WATCHDOG_MS, BE_OPT_FIFO_RANGE, BE_OPT_NO_RT,
    BE_OPT_NO_SUD};

static int live_init(struct nk_instance *nk, int nr_cpus,
		     const struct nk_backend_handlers *handlers, void **priv)
{
	struct be_options opts = {0};
	int *cpus = opts.cpus;
	struct live *live;
	int ret = 0;

	for (size_t i = 0; i < sizeof(live_options) / sizeof(live_options[0]);
	     i++)
		if (be_option_get(live_options[i], &opts))
			return -EINVAL;
	if (opts.nr_cpus == 0 && be_default_cpus(cpus, nr_cpus) == nr_cpus)
		opts.nr_cpus = nr_cpus;
	if (opts.nr_cpus < nr_cpus) {
		fprintf(stderr, "fusion: %d RT CPUs asked for, only %d in %s\n",
			nr_cpus, opts.nr_cpus,
			getenv("FUSION_CPUS") ? "FUSION_CPUS"
					      : "the process's affinity");
		return -EINVAL;
	}
	live = calloc(1, sizeof(*live));
	if (live == NULL)
		return -ENOMEM;
	live->nk = nk;
	live->shared = nk_instance_shared(nk);
	live->member = nk_instance_member(nk);
	live->pid = be_self_pid();
	ret = shared_attach(live, nr_cpus, cpus);
	if (ret) {
		free(live);
		return ret;
	}
	live->handlers = handlers;
	live->nr_cpus = nr_cpus;
	live->rt = live_rt_allowed(opts.no_rt);
	live->fifo_lo = opts.fifo_lo;
	live->fifo_hi = opts.fifo_hi;
	if (!live->rt && !opts.no_rt)
		fprintf(stderr,
			"fusion: SCHED_FIFO is not permitted (needs "
			"CAP_SYS_NICE or RLIMIT_RTPRIO): scheduling "
			"order stays exact, timing is not guaranteed\n");
	if (live->rt && !live_under_sanitizer)
		live->locked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
	live->sud = !live_under_sanitizer && !opts.no_sud && live_sud_probe() &&
		    live_sud_install() == 0;
	live->dma_latency_fd = live->rt ? live_hold_dma_latency() : -1;
	live->poll_timeout = live_poll_timeout_probe();
	ret = live_watchdog_start(live, opts.watchdog_ms);
	if (ret == 0)
		ret = live_install_handler(live, LIVE_SIG_PREEMPT,
					   preempt_signal, NULL);
	if (ret == 0 && live->shared)
		ret = live_install_handler(live, BE_SIG_DOORBELL,
					   doorbell_signal, NULL);
	if (ret == 0 && live->shared)
		ret = live_members_start(live);
	for (int i = 0; i < nr_cpus && ret == 0; i++) {
		struct live_cpu *cpu = &live->cpus[i];

		cpu->live = live;
		cpu->sh = &live->sh->cpus[i];
		cpu->index = i;
		cpu->linux_cpu = cpu->sh->linux_cpu;
		cpu->deadline = &cpu->sh->deadline[live->member];
		ret = live_irq_start(live, cpu);
	}
	if (ret) {
		live_fini(live);
		return ret;
	}
	*priv = live;
	return 0;
}

static nk_hot nk_time_t live_now(void *priv)
{
	(void)priv;
	return live_clock();
}

/*
 * Lock held: does the caller leave the nucleus through a point that
 * brings @c's timer up to date?  @c's interrupt thread does as it ends
 * its pass; @c's current shadow as it returns to application code or
 * switches away; @c's idle waiter as it polls again.  The thread @c
 * runs next may reach its way out late (a real-time process of the
 * machine above it) or, in a session, be another process's, which
 * brings up to date its own timer only: the shadow switching to it
 * (live_switch_to) and the idle waiter handing over (park_idle) arm
 * ours first.
 */
static bool on_way_out(struct live *live, struct live_cpu *c)
{
	struct live_shadow *s = live_self;

	if (live_irq_cpu == c)
		return true;
	if (s == NULL || s->live != live || &live->cpus[s->cpu] != c)
		return false;
	if (live_irq_ctx)
		return atomic_load(&c->sh->idle_waiter) == s;
	return atomic_load(&c->sh->current) == s;
}

/*
 * Lock held, @when earlier than the date @c's idle waiter, one of ours
 * asleep on its gate, sleeps until: ring it, to sleep again until
 * @when.  False when it does not sleep yet: it may have read the
 * deadline before it moved.
 */
static bool ring_idle_waiter(struct live *live, struct live_cpu *c,
			     nk_time_t when)
{
	struct live_shadow *w = atomic_load(&c->sh->idle_waiter);

	return w && w->pid == live->pid && when < w->idle_until &&
	       live_idle_on_gate(c) && be_gate_ring(&w->gate);
}

static nk_hot void live_program_timer(void *priv, int cpu, int member,
				      nk_time_t when)
{
	struct live *live = priv;
	struct live_cpu *c = &live->cpus[cpu];

	if (member != live->member) {
		live_timer_remote(live, cpu, member, when);
		return;
	}
	nk_journal_obj(c->deadline);
	atomic_store(c->deadline, when);
	/*
	 * Earlier than the timer is armed, or it fired (an idle waiter
	 * polls with a timeout meanwhile): arm it now, unless the caller
	 * is on @c's own way out of the nucleus, which arms it or polls
	 * until it anyway, or rings the idle waiter that will.  Later: when
	 * the CPU next returns to application code; an expiry meanwhile
	 * only wakes someone for nothing.
	 */
	if ((c->armed == LIVE_TIMER_FIRED || when < c->armed) &&
	    !on_way_out(live, c) && !ring_idle_waiter(live, c, when))
		live_timer_sync(c);
}

static nk_hot void live_switch_to(void *priv, void *prev, void *next,
				  unsigned int flags)
{
	struct live *live = priv;
	struct live_shadow *p = prev, *n = next, *waiter = NULL;
	struct live_cpu *idle = NULL;
	nk_time_t until = NK_INFINITE;

	if (!(flags & NK_SWITCH_PARK)) {
		if (n)
			live_note_cpu(live->cpus[n->cpu].sh);
		if (p)
			live_note_cpu(live->cpus[p->cpu].sh);
		if (n) {
			atomic_store(&live->cpus[n->cpu].sh->current, n);
			waiter = atomic_exchange(
			    &live->cpus[n->cpu].sh->idle_waiter, NULL);
		} else if (p) {
			idle = &live->cpus[p->cpu];
			atomic_store(&idle->sh->current, NULL);
		}
	}
	if (p == NULL) {
		/* Interrupt or idle context: it keeps the lock.  A handler
		 * run by the idle waiter that woke the waiter itself leaves
		 * it to go on at once (park_idle), its gate untouched. */
		if (n && n == live_self && waiter == n && live_irq_ctx) {
			owe_open(live, n); /* no debt left from before */
			live_self_woken = true;
		} else if (n) {
			wake_on_idle(&live->cpus[n->cpu], waiter, n);
		}
		return;
	}
	/*
	 * @n's way out would bring the timer up to date (on_way_out), but
	 * it may come late: a real-time process of the machine ranking
	 * above @n keeps it from running, and the thread the timer is to
	 * wake may rank above that process.  Another process's @n would
	 * not arm ours at all.  Unchanged, the timer costs nothing here.
	 */
	if (n)
		live_timer_sync(&live->cpus[p->cpu]);
	/*
	 * An idle CPU's timer is armed before anyone sleeps on it: for its
	 * interrupt thread when @p does not wait there (it relaxes, ends or
	 * leaves the CPU), else through @p's timeout as its idle waiter.
	 */
	if (idle &&
	    (flags & (NK_SWITCH_RELAX | NK_SWITCH_EXIT | NK_SWITCH_MIGRATE)))
		live_timer_sync(idle);
	else if (idle)
		until = idle_until(live, idle, p);
	if (flags & NK_SWITCH_MIGRATE) {
		/* Gone from its old CPU, it cannot wait there as idle waiter.
		 */
		shadow_move(live, p, nk_thread_cpu(p->thread));
		idle = NULL;
	}
	if (flags & NK_SWITCH_RELAX) {
		/* @p runs on under Linux; nobody parks for an idle CPU: the
		 * interrupt thread takes its interrupts. */
		nk_journal_obj(&p->relaxed);
		p->relaxed = true;
		if (n)
			open_at_release(live, n);
		shadow_unboost(p);
		return;
	}
	if (n)
		owe_open(live, n);
	if (flags & NK_SWITCH_EXIT) {
		/* Everything shared is touched before the lock goes. */
		release(live);
		if (n)
			open_owed(live, n);
		shadow_exit(p);
	}
	if (idle)
		atomic_store(&idle->sh->idle_waiter, p);
	release(live);
	if (n)
		open_owed(live, n);
	/* Only now: lowered sooner, @p could lose its CPU to the load it
	 * was raised above before @n's gate opened; lowered here, it yields
	 * to @n at once. */
	shadow_unboost(p);
	if (idle) {
		/* Its own handler let it go on, the lock held. */
		if (park_idle(live, p, idle, until))
			return;
	} else {
		park(p);
	}
	/* Killed since its gate opened: its killer holds the lock. */
	if (!take_unless(live, &p->killed, TAKE_RESUME))
		shadow_exit(p);
}

/*
 * Send @s the preemption signal unless one is on its way already: the
 * handler clears the flag before it looks at the nucleus, so a kick it
 * has not seen either finds the flag clear and signals, or is seen.
 */
static void shadow_kick(struct live *live, struct live_shadow *s)
{
	if (atomic_exchange(&s->kick_pending, true))
		return;
	shadow_boost(live, s);
	if (s->pid == live->pid)
		pthread_kill(s->pthread, LIVE_SIG_PREEMPT);
	else
		syscall(SYS_tgkill, s->pid, s->tid, LIVE_SIG_PREEMPT);
}

/*
 * The calling OS thread is @s from now on.  A kick that reached it before
 * found no shadow and left kick_pending set: it is taken as noted, to be
 * honoured when the thread leaves the nucleus.
 */
static void bind_self(struct live_shadow *s)
{
	atomic_fetch_add(&s->live->bound, 1);
	live_self = s;
	atomic_signal_fence(memory_order_seq_cst);
	if (atomic_exchange(&s->kick_pending, false))
		live_preempt_pending = true;
}

static void live_kick(void *priv, int cpu)
{
	struct live *live = priv;
	struct live_cpu *c = &live->cpus[cpu];
	struct live_shadow *s = atomic_load(&c->sh->current);

	if (s == NULL) {
		atomic_store(&c->idle_kick, true);
		live_irq_wake(c);
	} else {
		shadow_kick(live, s);
	}
}

/* The records of our threads change without the lock too (gates,
 * flags): the journal's audit leaves them out. */
static void shadow_free(struct live *live, struct live_shadow *s)
{
	/* Freed in the section that let it go or ended it: nobody is to be
	 * let in or told. */
	(void)pending_drop(&live_opens, s);
	(void)pending_drop(&live_kills, s);
	be_gate_settle(&s->gate);
	nk_journal_audit_skip(s, sizeof(*s), false);
	nk_free(live->nk, s);
}

static struct live_shadow *shadow_new(struct live *live,
				      struct nk_thread *thread)
{
	struct live_shadow *s = nk_alloc(live->nk, sizeof(*s));

	if (s == NULL)
		return NULL;
	nk_journal_audit_skip(s, sizeof(*s), true);
	s->live = live;
	s->pid = live->pid;
	s->member = live->member;
	s->detached = live->shared;
	s->thread = thread;
	s->cpu = nk_thread_cpu(thread);
	snprintf(s->name, sizeof(s->name), "%s", nk_thread_name(thread));
	be_gate_init(&s->gate, live->shared);
	be_gate_init(&s->gone, live->shared);
	be_gate_init(&s->started, live->shared);
	return s;
}

static void *shadow_main(void *arg)
{
	struct live_shadow *s = arg;
	struct live *live = s->live;
	sigjmp_buf exit_point;

	/*
	 * Until it first passes its gate the thread has never been current,
	 * though the nucleus may already count it so: a kick sent meanwhile
	 * must only be noted, as inside the nucleus, and honoured once
	 * thread_entry leaves it.  Were the handler to reschedule from here,
	 * the switch would park us on the token meant for this first wait,
	 * and the token of our next turn would merge with it: lost wake-up.
	 * The kick may already be pending when the thread starts (sent before
	 * it first ran, delivered at the unblock below; ThreadSanitizer defers
	 * it to the next intercepted call), so the depth comes first.  The
	 * gate opens with the nucleus lock to be taken.
	 */
	live_depth = 1;
	atomic_signal_fence(memory_order_seq_cst);
	bind_self(s);
	s->tid = gettid();
	be_gate_open(&s->started);
	if (!live->locked)
		live_prefault_stack(LIVE_PREFAULT);
	unblock_backend_signals(live);
	if (live->sud)
		live_sud_enable_self();
	be_gate_wait(&s->gate);
	if (atomic_load(&s->killed)) {
		shadow_unbind_self(s);
		return NULL;
	}
	if (sigsetjmp(exit_point, 0))
		return NULL;
	live_exit_point = &exit_point;
	take(live, TAKE_CALL);
	live->handlers->thread_entry(s->thread);
	return NULL;
}

static int live_thread_init(void *priv, struct nk_thread *thread,
			    size_t stack_size, void **shadow)
{
	struct live *live = priv;
	struct live_shadow *s = shadow_new(live, thread);
	char name[16];
	int ret;

	if (s == NULL)
		return -ENOMEM;
	if (stack_size < (size_t)PTHREAD_STACK_MIN)
		stack_size = PTHREAD_STACK_MIN;
	*shadow = s;
	shadow_set_fifo(
	    live, s,
	    live->rt ? live_fifo_prio(live, nk_thread_priority(thread)) : 0);
	ret = live_thread_start(&s->pthread, shadow_main, s,
				live->cpus[s->cpu].linux_cpu,
				atomic_load(&s->fifo), stack_size);
	if (ret) {
		*shadow = NULL;
		shadow_set_fifo(live, s, 0);
		shadow_free(live, s);
		return ret == -EAGAIN ? -EAGAIN : -ENOMEM;
	}
	snprintf(name, sizeof(name), "%s", nk_thread_name(thread));
	pthread_setname_np(s->pthread, name);
	/* Its id is known from creation on (thread_host). */
	be_gate_wait(&s->started);
	/* Alive until its gate opens: nobody joins it (struct live_shadow). */
	if (s->detached)
		pthread_detach(s->pthread);
	return 0;
}

static int live_thread_adopt(void *priv, struct nk_thread *thread,
			     void **shadow)
{
	struct live *live = priv;
	struct live_shadow *s = shadow_new(live, thread);
	struct sched_param param;
	int ret;

	if (s == NULL)
		return -ENOMEM;
	s->adopted = true;
	s->detached = true;
	s->pthread = pthread_self();
	s->tid = gettid();
	pthread_getschedparam(s->pthread, &s->saved_policy, &s->saved_param);
	pthread_getaffinity_np(s->pthread, sizeof(s->saved_affinity),
			       &s->saved_affinity);
	ret = live_pin_self(live->cpus[s->cpu].linux_cpu);
	if (ret == 0 && live->rt) {
		param.sched_priority =
		    live_fifo_prio(live, nk_thread_priority(thread));
		shadow_set_fifo(live, s, param.sched_priority);
		ret = -pthread_setschedparam(s->pthread, SCHED_FIFO, &param);
	}
	if (ret == 0)
		ret = be_exit_hook_arm(live->handlers, live->nk);
	if (ret) {
		shadow_set_fifo(live, s, 0);
		shadow_free(live, s);
		return ret;
	}
	unblock_backend_signals(live);
	if (live->sud)
		live_sud_enable_self();
	bind_self(s);
	*shadow = s;
	return 0;
}

/* @s is to end: it is told so once (see live_thread_kill). */
static void shadow_kill(struct live *live, struct live_shadow *s)
{
	if (atomic_exchange(&s->killed, true))
		return;
	/* Asleep in the CPU's poll, an idle waiter keeps its role until it
	 * is out, so that nobody else polls meanwhile (see park_idle). */
	if (!be_gate_open(&s->gate))
		leave_idle(&live->cpus[s->cpu], s);
	/* Current on its CPU, it runs application code: the signal ends it
	 * there (preempt_signal). */
	if (atomic_load(&live->cpus[s->cpu].sh->current) == s)
		shadow_kick(live, s);
}

/*
 * A thread of ours ends now: should we die before the release, it dies
 * with us, and the member's cleanup removes it.  Another process's ends
 * at our release (live_kills), and is held till then (see shadow_free);
 * should we die before it, the cleanup of our death ends it again
 * (nk_member_handle_gone).
 */
static void live_thread_kill(void *priv, void *shadow)
{
	struct live *live = priv;
	struct live_shadow *s = shadow;

	if (s->pid == live->pid || !pending_add(&live_kills, s))
		shadow_kill(live, s);
}

static void live_thread_migrate(void *priv, void *shadow, int cpu)
{
	shadow_move(priv, shadow, cpu);
}

/*
 * The bare system call, as the watchdog's (watchdog.c): glibc's takes a
 * lock of the thread, which the code a signal interrupted may hold.  A
 * thread the watchdog demoted to SCHED_OTHER refuses it, and stays so.
 */
static void live_thread_priority(void *priv, void *shadow, int prio)
{
	struct live *live = priv;
	struct live_shadow *s = shadow;
	struct sched_param param = {.sched_priority =
					live_fifo_prio(live, prio)};

	if (!live->rt)
		return;
	shadow_set_fifo(live, s, param.sched_priority);
	/* A boosted shadow keeps its boost until it hands over. */
	if (s->tid > 0 && !atomic_load(&s->boosted))
		syscall(SYS_sched_setparam, s->tid, &param);
}

/*
 * Wait for @s's thread to end, LIVE_REAP_WAIT_NS at most: true when it
 * has.  A detached thread cannot be joined: it opens @gone as it ends
 * (see shadow_exit).
 */
static bool shadow_wait_end(struct live_shadow *s)
{
	struct timespec until;

	if (s->detached) {
		int ret;

		do
			ret = be_gate_wait_for(&s->gone, LIVE_REAP_WAIT_NS);
		while (ret == EINTR);
		return ret == 0;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += LIVE_REAP_WAIT_NS / 1000000000;
	return pthread_timedjoin_np(s->pthread, NULL, &until) == 0;
}

/*
 * @s's thread was killed and has not ended: it runs on outside the
 * nucleus, a relaxed runaway or stuck in a Linux call.  It would hold the
 * process alive for ever; it is left to end with the process, its
 * record and the backend's state kept for its signal handlers.
 */
static void shadow_abandon(struct live *live, struct live_shadow *s)
{
	fprintf(stderr,
		"fusion: thread %s (tid %d) did not end when deleted: left "
		"running outside the nucleus until the process exits\n",
		nk_thread_name(s->thread), (int)s->tid);
	if (!s->detached)
		pthread_detach(s->pthread);
	atomic_store(&live->abandoned, true);
}

static void live_thread_reap(void *priv, void *shadow)
{
	struct live *live = priv;
	struct live_shadow *s = shadow;

	/* Gone from the nucleus, it outranks no waiter any more. */
	shadow_set_fifo(live, s, 0);
	/*
	 * Another process's: deleted from here, it ends there, and says
	 * so on its gate; a dead member's ended with its process.  One
	 * that does not end keeps its record.
	 */
	if (s->pid != live->pid) {
		if (atomic_load(&live->sh->pid[s->member]) == s->pid &&
		    !shadow_wait_end(s)) {
			fprintf(stderr,
				"fusion: thread %s (tid %d) of process %d did "
				"not end when deleted\n",
				nk_thread_name(s->thread), (int)s->tid,
				(int)s->pid);
			return;
		}
		shadow_free(live, s);
		return;
	}
	if (live_self != s) {
		if (!shadow_wait_end(s)) {
			shadow_abandon(live, s);
			return;
		}
	} else {
		/* Unbinding ourselves: hand back the Linux scheduling. */
		pthread_setschedparam(s->pthread, s->saved_policy,
				      &s->saved_param);
		pthread_setaffinity_np(s->pthread, sizeof(s->saved_affinity),
				       &s->saved_affinity);
		live_sud_disable_self();
		be_exit_hook_disarm();
		live_self = NULL;
		atomic_signal_fence(memory_order_seq_cst);
		live_watchdog_forget(s);
		atomic_fetch_sub(&live->bound, 1);
	}
	shadow_free(live, s);
}

static nk_hot struct nk_thread *live_self_thread(void *priv)
{
	struct live_shadow *s = live_self;

	if (priv == NULL)
		return s ? s->thread : NULL;
	return s && s->live == priv && !live_irq_ctx ? s->thread : NULL;
}

static void live_thread_host(void *priv, void *shadow, pid_t *tid,
			     pthread_t *pthread)
{
	struct live_shadow *s = shadow;

	if (tid)
		*tid = s->tid;
	if (pthread)
		*pthread =
		    s->pid == ((struct live *)priv)->pid ? s->pthread : 0;
}

static int live_host_cpu(void *priv, int cpu)
{
	return ((struct live *)priv)->cpus[cpu].linux_cpu;
}

static unsigned long live_thread_entries(void *priv, void *shadow)
{
	(void)priv;
	return ((struct live_shadow *)shadow)->entries;
}

/* Nucleus work outside the lock: its system calls are not stray. */
static unsigned long live_host_faults(void *priv, pid_t tid)
{
	char selector = live_sud_save_allow();
	unsigned long faults = be_host_faults(priv, tid);

	live_sud_restore(selector);
	return faults;
}

static nk_time_t thread_cpu_time(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (nk_time_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void live_busy(void *priv, void *shadow, nk_time_t ns)
{
	struct live *live = priv;
	nk_time_t end = thread_cpu_time() + ns;

	(void)shadow;
	/* Spin outside the nucleus lock, so that preemption acts at once,
	 * but as nucleus code: its clock reads are not stray calls. */
	live_busy_spin = true;
	live_nucleus_unlock(live);
	while (thread_cpu_time() < end)
		;
	live_nucleus_lock(live);
	live_busy_spin = false;
}

static nk_hot void live_lock(void *priv)
{
	live_nucleus_lock(priv);
}

static nk_hot void live_unlock(void *priv)
{
	live_nucleus_unlock(priv);
}

static bool live_lock_held(void *priv)
{
	(void)priv;
	return live_depth > 0;
}

/*
 * Called by @shadow itself as it relaxes.  A program that blocks
 * SIGDEBUG and keeps relaxing would queue one per switch: one pending is
 * enough to tell it.
 */
static void live_warn(void *priv, void *shadow, int value)
{
	struct live_shadow *s = shadow;
	sigset_t pending;

	(void)priv;
	if (sigpending(&pending) == 0 && sigismember(&pending, NK_SIGDEBUG))
		return;
	pthread_sigqueue(s->pthread, NK_SIGDEBUG,
			 (union sigval){.sival_int = value});
}

const struct nk_backend_ops nk_backend_live = {
    .name = "live",
    .init = live_init,
    .fini = live_fini,
    .now = live_now,
    .program_timer = live_program_timer,
    .switch_to = live_switch_to,
    .kick = live_kick,
    .thread_init = live_thread_init,
    .thread_adopt = live_thread_adopt,
    .thread_kill = live_thread_kill,
    .thread_migrate = live_thread_migrate,
    .thread_priority = live_thread_priority,
    .thread_reap = live_thread_reap,
    .thread_host = live_thread_host,
    .host_cpu = live_host_cpu,
    .thread_entries = live_thread_entries,
    .host_faults = live_host_faults,
    .self = live_self_thread,
    .busy = live_busy,
    .lock = live_lock,
    .unlock = live_unlock,
    .lock_held = live_lock_held,
    .warn = live_warn,
    .chan_open = be_chan_open,
    .chan_close = be_chan_close,
    .chan_send = be_chan_send,
    .chan_recv = be_chan_recv,
    .irq_post = live_irq_post,
    .root_post = live_root_post,
    .source_attach = live_source_attach,
    .source_detach = live_source_detach,
    .source_end = live_source_end,
    .source_mask = live_source_mask,
    .source_fd = live_source_fd,
};
