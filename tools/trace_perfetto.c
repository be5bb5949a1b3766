/* SPDX-License-Identifier: MIT */
/*
 * fusion trace export --perfetto: the Chrome trace-event JSON format,
 * which the Perfetto UI (and chrome://tracing) opens: one track per
 * thread with its running, ready and blocked slices, one track per
 * interrupt domain and CPU with its handlers, flow arrows from who
 * readied a thread to where it runs, marks, service calls (in their
 * skin's category) and watchdog demotions as instants on their thread's
 * track, and a counter track per queue, semaphore, mailbox or pipe with
 * its fill as its service calls tell (trace_fill.h).
 */
#include "trace_cmd.h"
#include "trace_fill.h"
#include "trace_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS_PID 1
#define IRQS_PID 2
#define OBJECTS_PID 3 /* the fill counters */
#define MAX_DOMAINS 64

/* Things drawn once every thread has its id. */
struct pending {
	char who[sizeof(
	    ((struct tthread *)0)->waker)]; /* thread, or "irq DOMAIN" */
	int64_t date;
	int to_id; /* the woken thread (flows), 0: an instant */
	int64_t to_date;
	int cpu;
	const struct trace_event *event; /* instants */
};

struct export
{
	FILE *out;
	bool first;
	struct pending *pending;
	size_t nr_pending, cap_pending;
	char domains[MAX_DOMAINS][TRACE_THREAD_MAX];
	int nr_domains;
	struct fill_tracker *fills;
	bool any_fill;
	bool failed;
};

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Microseconds, exactly: the format's unit, from nanoseconds. */
static void json_us(FILE *out, const char *key, int64_t ns)
{
	fprintf(out, ",\"%s\":%lld.%03lld", key, (long long)(ns / 1000),
		(long long)(ns % 1000));
}

/* Start an event object: the comma between events, its phase, track. */
static void begin(struct export *x, const char *ph, int pid, int tid)
{
	fprintf(x->out, "%s\n{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d",
		x->first ? "" : ",", ph, pid, tid);
	x->first = false;
}

/* Name track @tid of @pid; tid -1: the process (as a whole). */
static void name_track(struct export *x, int pid, int tid, const char *name)
{
	begin(x, "M", pid, tid < 0 ? 0 : tid);
	fprintf(x->out, ",\"name\":\"%s\",\"args\":{\"name\":",
		tid < 0 ? "process_name" : "thread_name");
	json_string(x->out, name);
	fprintf(x->out, "}}");
}

static int domain_tid(struct export *x, const char *domain, int cpu)
{
	char name[TRACE_THREAD_MAX];

	snprintf(name, sizeof(name), "%s", domain);
	for (int i = 0; i < x->nr_domains; i++)
		if (strcmp(x->domains[i], name) == 0)
			return cpu * MAX_DOMAINS + i + 1;
	if (x->nr_domains == MAX_DOMAINS)
		return cpu * MAX_DOMAINS + MAX_DOMAINS;
	snprintf(x->domains[x->nr_domains++], TRACE_THREAD_MAX, "%s", name);
	return cpu * MAX_DOMAINS + x->nr_domains;
}

static void on_slice(void *ctx, const struct tthread *t, enum tstate state,
		     int64_t date, int cpu)
{
	static const char *const names[] = {[T_RUNNING] = "running",
					    [T_READY] = "ready",
					    [T_BLOCKED] = "blocked"};
	struct export *x = ctx;

	if (state != T_RUNNING && state != T_READY && state != T_BLOCKED)
		return;
	begin(x, "X", THREADS_PID, t->id);
	fprintf(x->out, ",\"name\":");
	if (state == T_BLOCKED && t->wait[0]) {
		char name[TRACE_TEXT_MAX + 16];

		snprintf(name, sizeof(name), "blocked: %s", t->wait);
		json_string(x->out, name);
	} else {
		json_string(x->out, names[state]);
	}
	json_us(x->out, "ts", t->since);
	json_us(x->out, "dur", date - t->since);
	fprintf(x->out, ",\"args\":{\"cpu\":%d}}", cpu);
}

static struct pending *add_pending(struct export *x)
{
	if (x->nr_pending == x->cap_pending) {
		size_t cap = x->cap_pending ? x->cap_pending * 2 : 256;
		struct pending *p = realloc(x->pending, cap * sizeof(*p));

		if (p == NULL) {
			x->failed = true;
			return NULL;
		}
		x->pending = p;
		x->cap_pending = cap;
	}
	memset(&x->pending[x->nr_pending], 0, sizeof(x->pending[0]));
	return &x->pending[x->nr_pending++];
}

static void on_wakeup(void *ctx, const struct tthread *t, int64_t date, int cpu)
{
	struct pending *p = add_pending(ctx);

	if (p == NULL)
		return;
	snprintf(p->who, sizeof(p->who), "%s", t->waker);
	p->date = t->ready_at;
	p->to_id = t->id;
	p->to_date = date;
	p->cpu = cpu;
}

static void on_irq(void *ctx, const char *domain, long irq, int64_t start,
		   int64_t end, int cpu)
{
	struct export *x = ctx;
	char name[32];

	begin(x, "X", IRQS_PID, domain_tid(x, domain, cpu));
	snprintf(name, sizeof(name), "irq %ld", irq);
	fprintf(x->out, ",\"name\":");
	json_string(x->out, name);
	json_us(x->out, "ts", start);
	json_us(x->out, "dur", end - start);
	fprintf(x->out, "}");
}

/* A call that changes an object's fill: a counter sample on the
 * object's track. */
static void count_fill(struct export *x, const struct trace_event *e)
{
	struct fill_sample sample;
	int ret = fill_tracker_event(x->fills, e, &sample);

	if (ret < 0)
		x->failed = true;
	if (ret <= 0)
		return;
	begin(x, "C", OBJECTS_PID, 0);
	fprintf(x->out, ",\"name\":");
	json_string(x->out, sample.name);
	json_us(x->out, "ts", e->date);
	fprintf(x->out, ",\"args\":{\"fill\":%ld}}", sample.level);
	x->any_fill = true;
}

static void on_event(void *ctx, const struct trace_event *e)
{
	struct pending *p;

	count_fill(ctx, e);
	if (e->event != NK_TRACE_MARK && e->event != NK_TRACE_WATCHDOG &&
	    !nk_trace_is_service(e->event))
		return;
	p = add_pending(ctx);
	if (p == NULL)
		return;
	snprintf(p->who, sizeof(p->who), "%s", e->thread);
	p->date = e->date;
	p->event = e;
}

/* The track of @who: a thread's, an interrupt domain's, or none (0). */
static int track_of(struct export *x, const struct tmodel *m, const char *who,
		    int cpu, int *pid)
{
	*pid = THREADS_PID;
	if (strncmp(who, "irq ", 4) == 0) {
		*pid = IRQS_PID;
		return domain_tid(x, who + 4, cpu);
	}
	for (int i = 0; i < tmodel_nr_threads(m); i++)
		if (strcmp(tmodel_thread(m, i)->name, who) == 0)
			return tmodel_thread(m, i)->id;
	return 0;
}

/* One end of wake-up arrow @id: "s" where it leaves, "f" where it
 * arrives (bound to the slice that starts there). */
static void flow_end(struct export *x, const char *ph, int pid, int tid,
		     unsigned long id, int64_t date)
{
	begin(x, ph, pid, tid);
	fprintf(x->out, "%s,\"name\":\"wakeup\",\"cat\":\"wakeup\",\"id\":%lu",
		ph[0] == 'f' ? ",\"bp\":\"e\"" : "", id);
	json_us(x->out, "ts", date);
	fprintf(x->out, "}");
}

static void write_pending(struct export *x, const struct tmodel *m)
{
	unsigned long flow = 0;

	for (size_t i = 0; i < x->nr_pending; i++) {
		const struct pending *p = &x->pending[i];
		int pid, tid = track_of(x, m, p->who, p->cpu, &pid);

		if (tid == 0)
			continue;
		if (p->to_id == 0) {
			const struct nk_tracepoint *tp =
			    nk_tracepoint_info(p->event->event);

			begin(x, "i", pid, tid);
			fprintf(x->out, ",\"s\":\"t\",\"name\":");
			json_string(x->out, p->event->event == NK_TRACE_WATCHDOG
						? tp->name
						: p->event->object);
			json_us(x->out, "ts", p->date);
			fprintf(x->out, ",\"cat\":\"%s\",\"args\":{", tp->name);
			if (nk_trace_is_service(p->event->event)) {
				fprintf(x->out, "\"object\":");
				json_string(x->out, p->event->detail);
				fprintf(x->out, ",\"result\":%lld",
					(long long)p->event->arg);
			}
			fprintf(x->out, "}}");
			continue;
		}
		flow++;
		flow_end(x, "s", pid, tid, flow, p->date);
		flow_end(x, "f", THREADS_PID, p->to_id, flow, p->to_date);
	}
}

int fusion_trace_perfetto(const struct trace_log *log, FILE *out)
{
	static const struct tmodel_hooks hooks = {
	    .slice = on_slice,
	    .wakeup = on_wakeup,
	    .irq = on_irq,
	    .event = on_event,
	};
	struct export x = {.out = out, .first = true};
	struct tmodel *m;

	x.fills = fill_tracker_new();
	if (x.fills == NULL)
		return -1;

	fprintf(out,
		"{\"displayTimeUnit\":\"ns\",\"otherData\":{\"lost\":"
		"%llu},\"traceEvents\":[",
		(unsigned long long)log->lost);
	m = tmodel_run(log, &hooks, &x);
	if (m == NULL || x.failed) {
		tmodel_free(m);
		free(x.pending);
		fill_tracker_free(x.fills);
		return -1;
	}
	write_pending(&x, m);
	name_track(&x, THREADS_PID, -1, "fusion threads");
	name_track(&x, IRQS_PID, -1, "fusion interrupts");
	if (x.any_fill)
		name_track(&x, OBJECTS_PID, -1, "fusion objects (fill)");
	for (int i = 0; i < tmodel_nr_threads(m); i++)
		name_track(&x, THREADS_PID, tmodel_thread(m, i)->id,
			   tmodel_thread(m, i)->name);
	for (int cpu = 0; cpu < log->nr_cpus; cpu++)
		for (int i = 0; i < x.nr_domains; i++) {
			char name[TRACE_THREAD_MAX + 16];

			snprintf(name, sizeof(name), "%s cpu%d", x.domains[i],
				 cpu);
			name_track(&x, IRQS_PID, cpu * MAX_DOMAINS + i + 1,
				   name);
		}
	fprintf(out, "\n]}\n");
	tmodel_free(m);
	free(x.pending);
	fill_tracker_free(x.fills);
	return 0;
}
