/* The sim backend's private state. */
#ifndef FUSION_BACKEND_SIM_H
#define FUSION_BACKEND_SIM_H

#include <fusion/fusion.h>
#include <fusion/backend.h>

#include <pthread.h>
#include <stdio.h>

#include "../common/futex.h"

/* Exit status of a simulation that deadlocked. */
#define SIM_EXIT_DEADLOCK 3

struct sim;

struct sim_shadow {
	struct sim *sim;
	struct nk_thread *thread;
	int cpu;
	pthread_t pthread;
	bool adopted;
	bool killed;
	bool relaxed; /* secondary mode: hardens at its next lock() */
	struct be_gate gate;
	struct be_gate gone; /* as in the live backend: see sim_thread_reap */
	bool queued; /* in sim->runnable */
	struct nk_list run_link;
	nk_time_t busy_until;
};

struct sim {
	struct nk_instance *nk;
	const struct nk_backend_handlers *handlers;
	int nr_cpus;
	nk_time_t now;
	nk_time_t deadline[NK_MAX_CPUS];
	bool kicked[NK_MAX_CPUS];
	struct sim_shadow *busy_on[NK_MAX_CPUS];
	struct nk_list runnable; /* shadows owed the baton, FIFO */
	bool dispatching; /* delivering events: interrupt context */
	struct be_lock lock;
	FILE *log;
};

/* Trace sink writing one line per record to the FILE in @ctx. */
void sim_log_record(void *ctx, const struct nk_trace_record *rec);

#endif
