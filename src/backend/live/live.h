/* SPDX-License-Identifier: MIT */
/*
 * The live backend's private state: real time on a stock Linux kernel.
 *
 * Each RT CPU maps to one Linux CPU.  Its shadows and its interrupt
 * thread are pinned there; with the privilege, shadows run SCHED_FIFO at
 * a priority mapped from their nucleus priority and the interrupt thread
 * above them all.  Only the nucleus-current shadow of an RT CPU runs in
 * primary mode: every other one waits on its gate.
 */
#ifndef FUSION_BACKEND_LIVE_H
#define FUSION_BACKEND_LIVE_H

#include <fusion/fusion.h>
#include <fusion/backend.h>

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/epoll.h>
#include <sys/resource.h>

#include "../common/futex.h"
#include "../common/pilock.h"

/* SCHED_FIFO priorities are 1..99 on Linux: an array by priority. */
#define LIVE_FIFO_LEVELS 100

/* The signal that preempts a shadow running application code. */
#define LIVE_SIG_PREEMPT (SIGRTMIN + 7)

struct live;

/* Session member @member as a gate's debtor (be_gate_owe): 0 is
 * nobody, and members count from 0. */
static inline uint32_t live_debtor(int member)
{
	return (uint32_t)member + 1;
}

/*
 * A shadow's record.  In a session it lies in the segment, where other
 * members read and write it (its gates, kick flag, CPU and priority);
 * @live, @pthread and the rest of its process's own are followed by
 * that process only (@pid says which).
 */
struct live_shadow {
	struct live *live;
	struct nk_thread *thread;
	pid_t pid;
	int member; /* its process's number in the session (0: private) */
	/* The RT CPU: written under the lock, read by the watchdog's
	 * signal handler too. */
	_Atomic int cpu;
	pthread_t pthread;
	pid_t tid;
	bool adopted;
	/* Its end is seen through @gone, not by a join: adopted, or in a
	 * session, where its reaper may be another process. */
	bool detached;
	_Atomic bool killed;
	/*
	 * A preemption signal is on its way: set by the sender, which sends
	 * only when it was clear, and cleared by the handler before it acts,
	 * so that at most one is ever queued, whatever the kicks' rate.
	 */
	_Atomic bool kick_pending;
	/*
	 * Its own SCHED_FIFO priority (0: none), and whether a kick raised
	 * it to the interrupt threads' own: a preempted shadow must run its
	 * handler to hand its CPU over, and a real-time process between its
	 * priority and the waiting thread's would starve it.  Lowered back
	 * by the shadow itself once it handed over (shadow_unboost).
	 */
	_Atomic int fifo;
	_Atomic bool boosted;
	/* Inside shadow_unboost, nested in a signal handler or not: a kick
	 * meanwhile may be undone by its lowering (shadow_boost). */
	_Atomic int lowering;
	bool relaxed; /* secondary mode: hardens at its next lock() */
	/* As its CPU's idle waiter, the date its sleep ends by (lock held). */
	nk_time_t idle_until;
	struct be_gate gate;
	/* Opened by a detached thread's last touch of this record, as it
	 * ends: the reaper waits for it (it cannot pthread_join). */
	struct be_gate gone;
	/* An adopted thread gets its scheduling back when unbound. */
	int saved_policy;
	struct sched_param saved_param;
	cpu_set_t saved_affinity;
	/* Away from the fields a switch touches. */
	struct be_gate started; /* opened once @tid is known */
	/* The thread's name for signal handlers, which must not read the
	 * nucleus thread: a thread left behind outlives it. */
	char name[NK_NAME_MAX];
	unsigned long entries; /* nucleus entries (lock held) */
};

/*
 * A demotion to trace (watchdog.c): written by the SIGXCPU handler of
 * the CPU's thread while @pending is clear, read and cleared by the
 * watchdog thread.
 */
struct live_wd_event {
	_Atomic bool pending;
	nk_time_t date;
	char name[NK_NAME_MAX];
};

/* An interrupt thread's account of its own CPU time (irq_watchdog.c). */
struct live_irq_watchdog {
	nk_time_t period; /* 0: off */
	nk_time_t start;  /* of the current period */
	nk_time_t cpu_start;
	nk_time_t slept; /* in epoll_wait, in this period */
};

/*
 * What the members of a session share of one RT CPU: who runs it, in
 * whichever process, and each member's timer deadline there.  The first
 * part, written at every switch, two cache lines apart from the next
 * CPU's whatever the start's alignment.
 */
#define LIVE_CPU_STRIDE 128
struct live_cpu_shared {
	union {
		struct {
			/* NULL: idle (Linux) */
			struct live_shadow *_Atomic current;
			/*
			 * While the CPU is idle, the shadow that parked last
			 * sleeps in the idle set and takes the CPU's
			 * interrupts itself.  Only it ever sleeps there: a
			 * thread made current in its place is handed to it
			 * (handoff), and it opens that thread's gate on its
			 * way out.
			 */
			struct live_shadow *_Atomic idle_waiter;
			struct live_shadow *_Atomic handoff;
			/* The process of the waiter rung to open it: if
			 * that one dies first, its cleaner does. */
			_Atomic pid_t handoff_pid;
			int linux_cpu; /* the same for every member */
		};
		char line[LIVE_CPU_STRIDE];
	};
	/* Each member's timer date here (programmed by any member: the
	 * nucleus's own timers may be armed by one for another), and the
	 * interrupt thread it rings when it moves the date earlier. */
	_Atomic nk_time_t deadline[NK_MAX_MEMBERS];
	_Atomic pid_t irq_tid[NK_MAX_MEMBERS];
};

/*
 * What the members of a session share of the backend, in its segment
 * (nk_backend_state); a private instance has its own.  Its futexes are
 * shared ones there.
 */
struct live_shared {
	struct be_pilock lock; /* the nucleus lock */
	/* Its holder's notes, in a session (NULL: a private instance). */
	struct nk_journal *journal;
	int nr_cpus;
	_Atomic pid_t pid[NK_MAX_MEMBERS]; /* each member's process, 0: none */
	/* How many shadows have each SCHED_FIFO priority as their own,
	 * and the highest such priority (0: none), read without the lock. */
	_Atomic unsigned int fifo_shadows[LIVE_FIFO_LEVELS];
	_Atomic int fifo_top;
	struct live_cpu_shared cpus[]; /* by RT CPU */
};

struct live_cpu {
	struct live *live;
	int index;
	int linux_cpu;
	/* Interrupt events and thread (irq.c). */
	pthread_t irq_thread;
	bool irq_started;
	struct live_irq_watchdog irq_wd;
	int timer_fd;			 /* armed at the deadline... */
	nk_time_t armed;		 /* ...this one (lock held), or: */
#define LIVE_TIMER_FIRED ((nk_time_t)-1) /* no date: it fired */
	_Atomic nk_time_t *deadline;	 /* our member's, in sh */
	int irq_epfd;			 /* the interrupt thread's set */
	int irq_efd;			 /* ...and its kick */
	int idle_epfd;			 /* the idle waiter's set */
	int idle_efd;			 /* ...and its gate's doorbell */
	_Atomic int watched;		 /* source fds in the sets */
	_Atomic bool idle_kick;		 /* resched requested while idle */
	_Atomic bool irq_posted;	 /* the pipeline asked for a sync */
	struct live_cpu_shared *sh;	 /* in live->sh */
};

struct live_source;

struct live {
	struct nk_instance *nk;
	const struct nk_backend_handlers *handlers;
	int nr_cpus;
	bool rt; /* SCHED_FIFO in use */
	int fifo_lo,
	    fifo_hi; /* shadows' SCHED_FIFO range (FUSION_FIFO_RANGE) */
	bool shared; /* the instance is in a session */
	int member;  /* our number there (0: private) */
	pid_t pid;   /* our process */
	struct live_shared *sh;
	bool locked;	    /* mlockall succeeded */
	int dma_latency_fd; /* holds /dev/cpu_dma_latency at 0, or -1 */
	bool watchdog;
	bool sud;	   /* Syscall User Dispatch catches stray calls */
	bool poll_timeout; /* epoll_pwait2 works: idle waiters time out */
	struct rlimit saved_rttime;
	struct sigaction saved_sigxcpu;
	/*
	 * The watchdog thread (watchdog.c) hands glibc the demotions the
	 * SIGXCPU handler made: wd_demoted[cpu] is the shadow to tell it of,
	 * wd_busy the one it is telling of, wd_gate its wake-up.
	 */
	pthread_t wd_thread;
	bool wd_started;
	_Atomic bool wd_stop;
	struct be_gate wd_gate;
	struct live_shadow *_Atomic wd_demoted[NK_MAX_CPUS];
	struct live_shadow *_Atomic wd_busy;
	/* What the handler saw, for the watchdog thread to trace. */
	struct live_wd_event wd_event[NK_MAX_CPUS];
	_Atomic bool stopping;
	/* The watch of the session's other members (members.c). */
	pthread_t members_thread;
	bool members_started;
	struct be_gate members_gate; /* opened to stop it */
	_Atomic bool owner_died;     /* told: the nucleus lock's holder died */
	/* A shadow did not end when reaped: its thread may still read this
	 * struct (and its own record), so neither is ever freed. */
	_Atomic bool abandoned;
	/* OS threads of ours bound as shadows, until their last touch of
	 * this struct as they end or unbind. */
	_Atomic int bound;
	struct live_cpu cpus[NK_MAX_CPUS];
	/* Root context (source.c). */
	pthread_t root_thread;
	bool root_started;
	_Atomic bool root_pending;
	_Atomic uint32_t root_seq;
	struct live_source *sources[1024]; /* by IRQ (IPIPE_NR_IRQS) */
};

/* Lock held: @c's record of who runs it is about to change (the
 * journal of a shared instance's lock, fusion/journal.h). */
static inline void live_note_cpu(struct live_cpu_shared *c)
{
	nk_journal_save(c->line, sizeof(c->line));
}

/* setup.c */
bool live_rt_allowed(bool no_rt);
int live_fifo_prio(const struct live *live, int nucleus_prio);
/* Interrupt and watchdog threads: above every shadow. */
int live_fifo_irq(const struct live *live);
int live_pin_self(int linux_cpu);
void live_prefault_stack(size_t size);
int live_hold_dma_latency(void);
/*
 * Start a backend thread pinned to @linux_cpu (-1: every CPU), at
 * SCHED_FIFO @fifo_prio (0: SCHED_OTHER), with @stack_size bytes of
 * stack (0: the default).  Returns 0 or -errno of pthread_create.
 */
int live_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg,
		      int linux_cpu, int fifo_prio, size_t stack_size);

/* irq.c */
int live_irq_start(struct live *live, struct live_cpu *cpu);
void live_irq_stop(struct live *live);
void live_irq_wake(struct live_cpu *cpu);
void live_irq_post(void *priv, int cpu);
/* Lock held: arm @c's timer at its deadline if it is armed elsewhere. */
void live_timer_sync(struct live_cpu *c);
/* Lock held: member @member's deadline on @cpu becomes @when; its
 * interrupt thread there is rung when that is earlier. */
void live_timer_remote(struct live *live, int cpu, int member, nk_time_t when);
/*
 * Lock held, @c about to idle under a waiter: the date the waiter's poll
 * must end by (NK_INFINITE: the timerfd fires in time, or without
 * epoll_pwait2 it was armed now; a waiter that sleeps on its gate alone
 * gets the deadline itself).
 */
nk_time_t live_timer_idle(struct live *live, struct live_cpu *c);
/* Does @c's idle waiter sleep on its gate (nothing to watch but the
 * timer) rather than in a poll? */
bool live_idle_on_gate(struct live_cpu *c);
/* Does epoll_pwait2 work here (not under every qemu-user)? */
bool live_poll_timeout_probe(void);
/* The CPU whose interrupt thread the caller is, or NULL. */
extern __thread struct live_cpu *live_irq_cpu;
/*
 * Watch @fd in both of @c's sets as source @irq (0 or -errno); stop; or
 * watch it again, which reports what is already there.
 */
int live_cpu_watch(struct live_cpu *c, int fd, unsigned int irq);
void live_cpu_unwatch(struct live_cpu *c, int fd);
void live_cpu_rewatch(struct live_cpu *c, int fd, unsigned int irq);
/*
 * The idle waiter @s of @c sleeps until its gate opens (-1, token
 * taken), events arrive or @until (live_timer_idle) comes: returns how many it
 * wrote to @events (0 when it is no longer the waiter, or when a signal handler
 * broke the wait:
 * *@interrupted is then set).  Then, lock held and in interrupt
 * context, live_idle_take runs the timer if due and the sources.
 */
#define LIVE_EVENTS 16
int live_idle_poll(struct live_cpu *c, struct live_shadow *s, nk_time_t until,
		   struct epoll_event events[LIVE_EVENTS], bool *interrupted);
void live_idle_take(struct live *live, struct live_cpu *c,
		    struct epoll_event events[LIVE_EVENTS], int n);

/*
 * irq_watchdog.c, on @cpu's interrupt thread: start its watch (on when
 * the watchdog is), and check it at each wake-up from a wait that began
 * at @slept_from (live_clock()).
 */
void live_irq_watchdog_start(struct live *live, struct live_cpu *cpu);
void live_irq_watchdog_check(struct live_cpu *cpu, nk_time_t slept_from);

/* source.c */
void live_root_post(void *priv);
int live_source_attach(void *priv, int cpu, unsigned int irq,
		       const struct ipipe_source *src);
void live_source_detach(void *priv, unsigned int irq);
void live_source_end(void *priv, unsigned int irq, bool recheck);
void live_source_mask(void *priv, unsigned int irq);
int live_source_fd(void *priv, unsigned int irq);
void live_sources_stop(struct live *live);
/* Lock held: raise in the pipeline what source @irq of @cpu reported,
 * seen at @now. */
void live_source_deliver(struct live *live, int cpu, unsigned int irq,
			 nk_time_t now);

/*
 * sud_x86_64.c, the one port of Syscall User Dispatch; sud_none.c on
 * other architectures, where live_sud_probe() is false and the rest
 * does nothing.
 */
bool live_sud_probe(void);
int live_sud_install(void);
int live_sud_enable_self(void);
void live_sud_disable_self(void);
void live_sud_allow(void);
void live_sud_block(void);
char live_sud_save_allow(void);
void live_sud_restore(char old);
int live_sud_sigaction(int sig, void (*handler)(int, siginfo_t *, void *),
		       int also);
/* In a SIGSYS handler: issue system call @nr again on return. */
void live_sud_retry(void *context, int nr);

/* members.c: in a session, the watch of the other members. */
int live_members_start(struct live *live);
void live_members_stop(struct live *live);

/* watchdog.c */
int live_watchdog_start(struct live *live, long ms);
void live_watchdog_stop(struct live *live);
void live_watchdog_forget(struct live_shadow *s);

/* live.c */
/*
 * Runs of the backend's own signal handlers on the calling thread, so
 * that an interrupted wait can tell the program's signals from ours.
 */
extern __thread unsigned int live_signals;
nk_time_t live_clock(void);
const char *live_current_name(void);
struct live_shadow *live_current_shadow(void);
void live_relax_from_syscall(long nr);
int live_install_handler(struct live *live, int sig,
			 void (*handler)(int, siginfo_t *, void *),
			 struct sigaction *old);
void live_nucleus_lock(struct live *live);
void live_nucleus_unlock(struct live *live);

#endif
