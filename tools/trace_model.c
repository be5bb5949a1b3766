/* SPDX-License-Identifier: MIT */
/* fusion trace: replaying a trace, see trace_model.h. */
#include "trace_model.h"
#include "name_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tmodel {
	struct name_table threads; /* struct tthread, in order of appearance */
	const struct tmodel_hooks *hooks;
	void *ctx;
	/* Per CPU: who runs, and the interrupt being handled. */
	int current[MODEL_MAX_CPUS]; /* thread index, -1: unknown */
	bool in_irq[MODEL_MAX_CPUS];
	int64_t irq_start[MODEL_MAX_CPUS];
	char irq_domain[MODEL_MAX_CPUS][TRACE_THREAD_MAX];
};

static struct tthread *at(const struct tmodel *m, int i)
{
	return (struct tthread *)m->threads.v + i;
}

static struct tthread *thread_of(struct tmodel *m, const char *name)
{
	bool added;
	struct tthread *t = name_table_get(&m->threads, sizeof(*t),
					   sizeof(t->name), name, &added);

	if (t && added) {
		t->id = (int)m->threads.nr;
		t->ready_at = t->boosted_since = -1;
		t->prio = t->base_prio = -1;
	}
	return t;
}

/* @t enters @state at @date, closing the slice of the one it leaves. */
static void set_state(struct tmodel *m, struct tthread *t, enum tstate state,
		      int64_t date, int cpu)
{
	if (t->state == state)
		return;
	if (t->state == T_RUNNING)
		t->cpu_time += date - t->since;
	if (t->state != T_UNKNOWN && m->hooks->slice)
		m->hooks->slice(m->ctx, t, t->state, date, cpu);
	t->state = state;
	t->since = date;
}

static void note_latency(struct tmodel *m, struct tthread *t, int64_t date,
			 int cpu)
{
	int64_t lat = date - t->ready_at;

	if (t->nr_lat == 0 || lat < t->lat_min)
		t->lat_min = lat;
	if (lat > t->lat_max)
		t->lat_max = lat;
	t->lat_sum += lat;
	t->nr_lat++;
	if (m->hooks->wakeup)
		m->hooks->wakeup(m->ctx, t, date, cpu);
	t->ready_at = -1;
}

static void do_switch(struct tmodel *m, const struct trace_event *e, int cpu)
{
	struct tthread *next, *prev;

	/* Both made first: making one may move the other. */
	if (thread_of(m, e->thread) == NULL || thread_of(m, e->object) == NULL)
		return;
	next = thread_of(m, e->thread);
	prev = thread_of(m, e->object);
	switch (e->arg) {
	case NK_TRACE_PREEMPTED:
		set_state(m, prev, T_READY, e->date, cpu);
		break;
	case NK_TRACE_EXITED:
		set_state(m, prev, T_GONE, e->date, cpu);
		break;
	default:
		set_state(m, prev, T_BLOCKED, e->date, cpu);
	}
	if (next->ready_at >= 0)
		note_latency(m, next, e->date, cpu);
	set_state(m, next, T_RUNNING, e->date, cpu);
	next->switches++;
	m->current[cpu] = next->id - 1;
}

/* Who readies a thread now on @cpu: the IRQ handled, or who runs. */
static void name_waker(struct tmodel *m, struct tthread *t, int cpu)
{
	if (m->in_irq[cpu])
		snprintf(t->waker, sizeof(t->waker), "irq %s",
			 m->irq_domain[cpu]);
	else if (m->current[cpu] >= 0)
		snprintf(t->waker, sizeof(t->waker), "%s",
			 at(m, m->current[cpu])->name);
	else
		snprintf(t->waker, sizeof(t->waker), "?");
}

static void do_prio(struct tmodel *m, struct tthread *t,
		    const struct trace_event *e)
{
	if (t->base_prio < 0)
		t->base_prio = t->prio;
	t->prio = (int)e->arg;
	if (e->object[0] && t->prio > t->base_prio) {
		if (t->boosted_since < 0) {
			t->boosted_since = e->date;
			t->boost_prio = t->prio;
			snprintf(t->boost_cause, sizeof(t->boost_cause), "%s",
				 e->object);
		}
		if (t->prio > t->boost_prio)
			t->boost_prio = t->prio;
	} else if (t->boosted_since >= 0) {
		if (m->hooks->boost)
			m->hooks->boost(m->ctx, t, e->date);
		t->boosted_since = -1;
	}
}

static void step(struct tmodel *m, const struct trace_event *e)
{
	int cpu = e->cpu < MODEL_MAX_CPUS ? e->cpu : 0;
	struct tthread *t;

	if (e->event == NK_TRACE_SWITCH) {
		do_switch(m, e, cpu);
		return;
	}
	if (e->event == NK_TRACE_IRQ) {
		m->in_irq[cpu] = true;
		m->irq_start[cpu] = e->date;
		snprintf(m->irq_domain[cpu], sizeof(m->irq_domain[cpu]), "%s",
			 e->thread);
		return;
	}
	if (e->event == NK_TRACE_IRQ_EXIT) {
		if (m->in_irq[cpu] && m->hooks->irq)
			m->hooks->irq(m->ctx, e->thread, (long)e->arg,
				      m->irq_start[cpu], e->date, cpu);
		m->in_irq[cpu] = false;
		return;
	}
	t = thread_of(m, e->thread);
	if (t == NULL)
		return;
	switch (e->event) {
	case NK_TRACE_CREATE:
	case NK_TRACE_START:
		t->prio = t->base_prio = (int)e->arg;
		break;
	case NK_TRACE_READY:
		if (t->prio < 0)
			t->prio = (int)e->arg;
		if (t->state != T_RUNNING && t->ready_at < 0) {
			set_state(m, t, T_READY, e->date, cpu);
			t->ready_at = e->date;
			name_waker(m, t, cpu);
		}
		break;
	case NK_TRACE_BLOCK:
		snprintf(t->wait, sizeof(t->wait), "%s", e->object);
		break;
	case NK_TRACE_WAKE:
	case NK_TRACE_TIMEOUT:
		if (t->state == T_BLOCKED && m->hooks->wait)
			m->hooks->wait(m->ctx, t, t->wait, t->since, e->date);
		break;
	case NK_TRACE_PRIO:
		do_prio(m, t, e);
		break;
	case NK_TRACE_RELAX:
		t->relax[e->arg & 7]++;
		break;
	case NK_TRACE_HARDEN:
		t->harden++;
		break;
	default:
		break;
	}
	if (m->hooks->event)
		m->hooks->event(m->ctx, e);
}

struct tmodel *tmodel_run(const struct trace_log *log,
			  const struct tmodel_hooks *hooks, void *ctx)
{
	struct tmodel *m = calloc(1, sizeof(*m));
	int64_t end = log->nr ? log->events[log->nr - 1].date : 0;

	if (m == NULL)
		return NULL;
	m->hooks = hooks;
	m->ctx = ctx;
	for (int cpu = 0; cpu < MODEL_MAX_CPUS; cpu++)
		m->current[cpu] = -1;
	for (size_t i = 0; i < log->nr; i++)
		step(m, &log->events[i]);
	/* What is still going on ends with the trace. */
	for (int i = 0; i < (int)m->threads.nr; i++)
		set_state(m, at(m, i), T_GONE, end, 0);
	return m;
}

void tmodel_free(struct tmodel *m)
{
	if (m)
		name_table_free(&m->threads);
	free(m);
}

int tmodel_nr_threads(const struct tmodel *m)
{
	return (int)m->threads.nr;
}

const struct tthread *tmodel_thread(const struct tmodel *m, int i)
{
	return at(m, i);
}
