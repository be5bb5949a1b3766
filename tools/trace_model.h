/* SPDX-License-Identifier: MIT */
/*
 * fusion trace: a trace replayed event by event into what each thread
 * was doing (running, ready, blocked on what), who ran on each CPU and
 * which interrupt was being handled, for the report and the export.
 */
#ifndef FUSION_TOOL_TRACE_MODEL_H
#define FUSION_TOOL_TRACE_MODEL_H

#include "trace/ctf.h"

#define MODEL_MAX_CPUS 64

enum tstate { T_UNKNOWN, T_RUNNING, T_READY, T_BLOCKED, T_GONE };

struct tthread {
	char name[TRACE_THREAD_MAX];
	int id; /* 1, 2... in order of appearance */
	enum tstate state;
	int64_t since;		   /* date of the state's start */
	char wait[TRACE_TEXT_MAX]; /* what it blocks on */
	int64_t ready_at;	   /* -1: not waiting for the CPU */
	/* Who readied it last: a thread's name, or "irq " and a domain's. */
	char waker[TRACE_THREAD_MAX + 4];
	int64_t wake_date;
	int prio, base_prio;   /* -1: unknown */
	int64_t boosted_since; /* -1: not boosted */
	char boost_cause[TRACE_TEXT_MAX];
	int boost_prio; /* the highest of the boost */
	/* Totals. */
	int64_t cpu_time;
	unsigned long switches, relax[8], harden;
	unsigned long nr_lat;
	int64_t lat_min, lat_max, lat_sum;
};

struct tmodel;

/* What the replay tells its user; any may be NULL. */
struct tmodel_hooks {
	/* @t leaves @state, which lasted from t->since to @date. */
	void (*slice)(void *ctx, const struct tthread *t, enum tstate state,
		      int64_t date, int cpu);
	/* @t, readied at t->ready_at by t->waker, runs at @date. */
	void (*wakeup)(void *ctx, const struct tthread *t, int64_t date,
		       int cpu);
	/* IRQ @irq of @domain was handled on @cpu from @start to @end. */
	void (*irq)(void *ctx, const char *domain, long irq, int64_t start,
		    int64_t end, int cpu);
	/* @t waited from @start to @date on @object. */
	void (*wait)(void *ctx, const struct tthread *t, const char *object,
		     int64_t start, int64_t date);
	/* @t was boosted by @cause from t->boosted_since to @date. */
	void (*boost)(void *ctx, const struct tthread *t, int64_t date);
	/* Every event but switches and IRQs, as recorded, once the
	 * model took it in (marks, services, wake-ups...). */
	void (*event)(void *ctx, const struct trace_event *e);
};

/* Replay @log; NULL when out of memory. */
struct tmodel *tmodel_run(const struct trace_log *log,
			  const struct tmodel_hooks *hooks, void *ctx);
void tmodel_free(struct tmodel *m);
/* The threads seen, in order of appearance (id - 1). */
int tmodel_nr_threads(const struct tmodel *m);
const struct tthread *tmodel_thread(const struct tmodel *m, int i);

#endif
