/* SPDX-License-Identifier: MIT */
/*
 * The debugger's view of an instance (handlers->inspect): threads,
 * objects, timers and the pipeline as JSON arrays, for the sim backend's
 * agent (docs/sim-debugger.md).  Written in pieces through the caller's
 * emit, with the lock held and the simulation stopped: nothing here
 * allocates or calls out.  And what its breakpoints watch: an object's
 * fill level, a periodic thread's next overrun.
 */
#include "internal.h"
#include "json.h"
#include "../pipeline/pipeline.h"

#include <fusion/status.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct json {
	void (*emit)(void *ctx, const char *text);
	void *ctx;
};

static void __attribute__((format(printf, 2, 3)))
json_printf(struct json *j, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	j->emit(j->ctx, buf);
}

/* @s as a JSON string; names are short, so one buffer does. */
static void json_string(struct json *j, const char *s)
{
	char buf[NK_JSON_QUOTED_MAX(2 * NK_NAME_MAX)];

	nk_json_quote(buf, sizeof(buf), s);
	j->emit(j->ctx, buf);
}

/* "KEY":"VALUE" after a comma unless @first. */
static void json_field(struct json *j, bool first, const char *key,
		       const char *value)
{
	json_printf(j, "%s\"%s\":", first ? "" : ",", key);
	json_string(j, value);
}

static void inspect_threads(struct nk_instance *nk, struct json *j)
{
	nk_time_t now = nk_clock_now(nk);
	const char *sep = "";
	struct nk_list *pos;

	nk_list_for_each(pos, &nk->core->threads) {
		struct nk_thread *t =
		    nk_list_entry(pos, struct nk_thread, instance_link);
		struct nk_status_thread st;

		nk_thread_status(t, now, &st);
		json_printf(j, "%s{", sep);
		json_field(j, true, "name", st.name);
		json_field(j, false, "skins", st.skins);
		json_field(j, false, "state", st.state);
		json_field(j, false, "waits", st.waits);
		json_printf(j,
			    ",\"base_prio\":%d,\"prio\":%d,\"cpu\":%d,"
			    "\"relaxed\":%s,\"switches\":%lu,\"exec_ns\":%lld",
			    st.base_prio, st.prio, st.cpu,
			    st.relaxed ? "true" : "false", st.switches,
			    (long long)st.exec_time);
		if (t->period)
			json_printf(j, ",\"period\":%lld,\"next_release\":%lld",
				    (long long)t->period,
				    (long long)t->next_release);
		j->emit(j->ctx, "}");
		sep = ",";
	}
}

/* The names of the threads queued on @synch, in queue order. */
static void synch_waiters(struct json *j, const char *key,
			  const struct nk_synch *synch)
{
	const char *sep = "";
	const struct nk_list *pos;

	json_printf(j, ",\"%s\":[", key);
	for (pos = synch->waiters.next; pos != &synch->waiters;
	     pos = pos->next) {
		const struct nk_thread *t =
		    nk_list_entry(pos, struct nk_thread, wait_link);

		j->emit(j->ctx, sep);
		json_string(j, t->name);
		sep = ",";
	}
	j->emit(j->ctx, "]");
}

struct objects_ctx {
	struct json *j;
	const char *sep;
};

static bool object_emit(void *ctx, const char *skin,
			const struct nk_object_info *info)
{
	struct objects_ctx *oc = ctx;
	struct json *j = oc->j;

	json_printf(j, "%s{", oc->sep);
	oc->sep = ",";
	json_field(j, true, "skin", skin);
	json_field(j, false, "class", info->cls);
	json_field(j, false, "name", info->name ? info->name : "");
	if (info->count >= 0)
		json_printf(j, ",\"count\":%ld", info->count);
	if (info->capacity > 0)
		json_printf(j, ",\"capacity\":%ld", info->capacity);
	if (info->owner)
		json_field(j, false, "owner", info->owner->name);
	if (info->waiters)
		synch_waiters(j, "waiters", info->waiters);
	if (info->senders)
		synch_waiters(j, "senders", info->senders);
	j->emit(j->ctx, "}");
	return true;
}

static void inspect_objects(struct nk_instance *nk, struct json *j)
{
	struct objects_ctx oc = {.j = j, .sep = ""};
	struct nk_objects_walk w = {.budget = UINT32_MAX};

	(void)nk_objects_walk(nk, &w, object_emit, &oc);
}

/* Whose timer @timer is: a thread's sleep or timeout, a CPU's round
 * robin, else its own name. */
static const char *timer_owner(struct nk_instance *nk,
			       const struct nk_timer *timer)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &nk->core->threads) {
		struct nk_thread *t =
		    nk_list_entry(pos, struct nk_thread, instance_link);

		if (timer == &t->rtimer)
			return t->name;
	}
	return NULL;
}

static void inspect_timers(struct nk_instance *nk, struct json *j)
{
	const char *sep = "";

	for (int i = 0; i < nk->nr_cpus * NK_MAX_MEMBERS; i++) {
		int cpu = i / NK_MAX_MEMBERS;
		struct nk_sched *sched = &nk->scheds[cpu];
		const struct nk_rbnode *node;

		for (node = nk_rbtree_first(&sched->timers[i % NK_MAX_MEMBERS]);
		     node; node = nk_rbtree_next(node)) {
			const struct nk_timer *timer =
			    nk_container_of(node, struct nk_timer, node);
			const char *thread = timer_owner(nk, timer);

			json_printf(j, "%s{", sep);
			sep = ",";
			if (thread) {
				json_field(j, true, "name", "");
				json_field(j, false, "thread", thread);
			} else {
				json_field(j, true, "name",
					   timer == &sched->rr_timer
					       ? "round-robin"
					       : timer->name);
			}
			json_printf(j,
				    ",\"cpu\":%d,\"date\":%lld,"
				    "\"interval\":%lld}",
				    cpu, (long long)timer->date,
				    (long long)timer->interval);
		}
	}
}

static void inspect_pipeline(struct nk_instance *nk, struct json *j)
{
	struct ipipe *pipe = nk->pipeline;
	const char *sep = "";
	struct nk_list *pos;

	nk_list_for_each(pos, &pipe->domains) {
		struct ipipe_domain *d =
		    nk_list_entry(pos, struct ipipe_domain, link);

		json_printf(j, "%s{", sep);
		sep = ",";
		json_field(j, true, "domain", d->name);
		json_printf(j, ",\"priority\":%d,\"stalled\":[", d->priority);
		for (int cpu = 0; cpu < pipe->nr_cpus; cpu++)
			json_printf(j, "%s%s", cpu ? "," : "",
				    d->cpus[cpu].stalled ? "true" : "false");
		j->emit(j->ctx, "],\"pending\":[");
		for (int cpu = 0; cpu < pipe->nr_cpus; cpu++) {
			const struct ipipe_log *log = &d->cpus[cpu].log;

			j->emit(j->ctx, cpu ? ",[" : "[");
			for (unsigned int i = 0; i < log->count; i++)
				json_printf(j, "%s%u", i ? "," : "",
					    log->irqs[(log->first + i) %
						      IPIPE_LOG_SIZE]);
			j->emit(j->ctx, "]");
		}
		j->emit(j->ctx, "]}");
	}
}

static void (*const inspectors[])(struct nk_instance *nk, struct json *j) = {
    [NK_INSPECT_THREADS] = inspect_threads,
    [NK_INSPECT_OBJECTS] = inspect_objects,
    [NK_INSPECT_TIMERS] = inspect_timers,
    [NK_INSPECT_PIPELINE] = inspect_pipeline,
};

void nk_inspect_handler(struct nk_instance *nk, int what,
			void (*emit)(void *ctx, const char *text), void *ctx)
{
	struct json j = {.emit = emit, .ctx = ctx};

	emit(ctx, "[");
	if (what >= 0 &&
	    (size_t)what < sizeof(inspectors) / sizeof(inspectors[0]))
		inspectors[what](nk, &j);
	emit(ctx, "]");
}

struct level_ctx {
	const char *name;
	bool found;
	long count, capacity;
};

/* Until the object named is found. */
static bool level_emit(void *ctx, const char *skin,
		       const struct nk_object_info *info)
{
	struct level_ctx *lc = ctx;

	(void)skin;
	if (info->count < 0 || info->name == NULL ||
	    strcmp(info->name, lc->name) != 0)
		return true;
	lc->found = true;
	lc->count = info->count;
	lc->capacity = info->capacity;
	return false;
}

int nk_inspect_level(struct nk_instance *nk, const char *name, long *count,
		     long *capacity)
{
	struct level_ctx lc = {.name = name};
	struct nk_objects_walk w = {.budget = UINT32_MAX};

	(void)nk_objects_walk(nk, &w, level_emit, &lc);
	if (!lc.found)
		return -ENOENT;
	*count = lc.count;
	*capacity = lc.capacity;
	return 0;
}

nk_time_t nk_inspect_overrun(struct nk_instance *nk, const char *thread)
{
	struct nk_list *pos;

	nk_list_for_each(pos, &nk->core->threads) {
		struct nk_thread *t =
		    nk_list_entry(pos, struct nk_thread, instance_link);

		if (strcmp(t->name, thread) != 0)
			continue;
		if (t->period == 0 || (t->state & NK_THREAD_ZOMBIE))
			return NK_INFINITE;
		if (t->release_awaited == 0)
			return t->next_release;
		/*
		 * In nk_thread_wait_period: asleep until the release, or made
		 * periodic anew meanwhile, its wait counts no overrun.
		 * Released and not run yet, every point after the release
		 * that passes before it runs is one.
		 */
		if ((t->state & NK_THREAD_DELAYED) ||
		    t->next_release != t->release_awaited)
			return NK_INFINITE;
		return nk_date_add(t->next_release, t->period);
	}
	return NK_INFINITE;
}
