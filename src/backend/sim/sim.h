/* SPDX-License-Identifier: MIT */
/* The sim backend's private state. */
#ifndef FUSION_BACKEND_SIM_H
#define FUSION_BACKEND_SIM_H

#include <fusion/fusion.h>
#include <fusion/backend.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>

#include "../common/futex.h"

/* Exit status of a simulation that deadlocked, or livelocked. */
#define SIM_EXIT_DEADLOCK 3
#define SIM_EXIT_LIVELOCK 4
/* The signal that asks the baton holder to give the baton up (sim.c). */
#define SIM_SIG_CEDE (SIGRTMIN + 9)

struct sim;

/* A livelock names the threads of its last 1024 events, 16 at most. */
#define SIM_LIVELOCK_WINDOW 1024
#define SIM_LIVELOCK_THREADS 16

struct sim_shadow {
	struct sim *sim;
	struct nk_thread *thread;
	int cpu;
	pthread_t pthread;
	pid_t tid;
	struct be_gate started; /* opened once @tid is known */
	unsigned long entries;	/* nucleus entries (lock held) */
	bool adopted;
	_Atomic bool killed;
	bool relaxed; /* secondary mode: hardens at its next lock() */
	bool away;    /* relaxed without the baton: waits for it at harden */
	struct be_gate gate;
	struct be_gate gone; /* as in the live backend: see sim_thread_reap */
	bool queued;	     /* in sim->runnable */
	struct nk_list run_link;
	/* In sim->interrupted (both under sim->intr_lock). */
	bool intr_queued;
	struct nk_list intr_link;
	nk_time_t busy_until;
	nk_time_t owed;	    /* FUSION_SIM_COST of the call it is in */
	nk_time_t cpu_mark; /* measured cost: its CPU clock as it left */
};

enum sim_script_kind { SCRIPT_AT, SCRIPT_EVERY, SCRIPT_POISSON };

/* A scripted interrupt source of the scenario (scenario.c). */
struct sim_script {
	char name[NK_NAME_MAX];
	enum sim_script_kind kind;
	nk_time_t period; /* every: period; poisson: mean interval */
	nk_time_t jitter;
	nk_time_t from; /* at: the date */
	nk_time_t until;
	uint64_t seed;
	uint64_t state;	     /* generator, reset to seed at attach */
	unsigned long count; /* occurrences drawn */
	nk_time_t last;	     /* date of the latest drawn */
	nk_time_t next;	     /* next to deliver, NK_INFINITE: none */
	int irq;	     /* -1: not attached */
	int cpu;
};

struct sim {
	struct nk_instance *nk;
	const struct nk_backend_handlers *handlers;
	int nr_cpus;
	nk_time_t now;
	nk_time_t deadline[NK_MAX_CPUS];
	bool kicked[NK_MAX_CPUS];
	struct sim_shadow *busy_on[NK_MAX_CPUS];
	/* The baton: the shadow whose OS thread executes (see sim.c);
	 * NULL while every thread waits, some on one that is away. */
	struct sim_shadow *holder;
	/* Shadows away: relaxed, without the baton. */
	int away;
	struct nk_list runnable; /* shadows owed the baton, FIFO */
	bool irq_posted[NK_MAX_CPUS];
	bool root_posted;
	struct sim_script *scripts;
	int nr_scripts;
	bool dispatching; /* delivering events: interrupt context */
	struct be_lock lock;
	/*
	 * Parked shadows whose wait a signal handler of the program broke,
	 * for the baton holder to tell the nucleus (see sim.c).  A plain
	 * mutex: the signalled shadows are outside the simulation.
	 */
	pthread_mutex_t intr_lock;
	struct nk_list interrupted;
	_Atomic bool intr_pending;
	struct sim_log *log;	 /* NULL: no event log */
	struct sim_debug *debug; /* fusion sim's agent, NULL: none */
	nk_time_t cost;		 /* FUSION_SIM_COST: per nucleus entry */
	bool measured;		 /* FUSION_SIM_COST=measured */
	nk_trace_fn cost_next;	 /* the sink after cost_record (sim.c) */
	void *cost_next_ctx;
	/* Livelock watch: events since virtual time last moved, and the
	 * threads that ran in the last SIM_LIVELOCK_WINDOW of them. */
	unsigned long livelock_limit;
	unsigned long same_date_events;
	nk_time_t same_date;
	struct nk_thread *livelock_threads[SIM_LIVELOCK_THREADS];
	int nr_livelock_threads;
};

/* Scenario (scenario.c).  load prints "FILE:LINE: error" on stderr. */
int sim_scenario_load(struct sim *sim, const char *path);
/* Whether @path is a valid scenario: 0, or -EINVAL after its line. */
int sim_scenario_check(const char *path);
void sim_scenario_free(struct sim *sim);
int sim_scenario_attach(struct sim *sim, int cpu, unsigned int irq,
			const char *name);
void sim_scenario_detach(struct sim *sim, unsigned int irq);
/* Earliest attached occurrence (index in *@which), or NK_INFINITE. */
nk_time_t sim_scenario_next(struct sim *sim, int *which);
void sim_scenario_fire(struct sim *sim, int which);

/*
 * The event log (log.c): open creates or truncates @path (NULL and
 * errno on failure); close flushes.  The first write error, then or
 * while recording, prints one line naming the file.
 */
struct sim_log;
struct sim_log *sim_log_open(const char *path);
void sim_log_close(struct sim_log *log);
/* Trace sink writing one line per record to the sim_log in @ctx. */
void sim_log_record(void *ctx, const struct nk_trace_record *rec);

/*
 * fusion sim's agent (debug*.c, docs/sim-debugger.md).  open: an agent
 * on the control socket @fd, or NULL and errno.  It stops the run at
 * breakpoints and answers requests from the runner while stopped, with
 * the nucleus lock held on the one executing OS thread.
 */
struct sim_debug;
struct sim_debug *sim_debug_open(struct sim *sim, int fd);
/* Tell the runner the instance ends, then free the agent. */
void sim_debug_close(struct sim_debug *d);
/* Put the agent's sink in front of the sink *@fn / *@ctx (may be NULL). */
void sim_debug_attach(struct sim_debug *d, nk_trace_fn *fn, void **ctx);
/*
 * The dispatcher is about to move virtual time to @next: the date,
 * earlier or equal, at which the agent wants to stop instead, or
 * NK_INFINITE.  Lock held.
 */
nk_time_t sim_debug_horizon(struct sim_debug *d, nk_time_t next);
/* Virtual time reached the horizon: stop there.  Lock held. */
void sim_debug_reached(struct sim_debug *d);
/*
 * The run cannot go on (@reason: "deadlock", "livelock"): stop so that
 * the runner may look, before the report.  Lock held.
 */
void sim_debug_fatal(struct sim_debug *d, const char *reason);

#endif
