/* SPDX-License-Identifier: MIT */
/*
 * fusion sim's batch mode (sim.h): breakpoints, a run, the stop line and
 * the tables asked for, read from the agent's JSON replies with jansson.
 */
#include "tool.h"
#include "sim.h"

#include <fusion/trace.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The string member @key of @v, or @def. */
static const char *json_str(const json_t *v, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(v, key));

	return s ? s : def;
}

/* The integer member @key of @v, or @def. */
static long long json_num(const json_t *v, const char *key, long long def)
{
	const json_t *n = json_object_get(v, key);

	return json_is_integer(n) ? (long long)json_integer_value(n) : def;
}

/* "KIND THREAD [OBJECT] [ARG]" of an event, as the sim log shows it. */
static void print_event(FILE *out, const json_t *ev)
{
	const char *kind = json_str(ev, "kind", "?");
	const char *object = json_str(ev, "object", NULL);
	bool text_arg = false;

	for (int e = 0; e < NK_TRACE_NR_EVENTS; e++)
		if (strcmp(nk_trace_event_name(e), kind) == 0)
			text_arg = nk_tracepoint_info(e)->text_arg;
	fprintf(out, "%s %s", kind, json_str(ev, "thread", "?"));
	if (object)
		fprintf(out, " %s", object);
	if (text_arg)
		fprintf(out, " %lld", json_num(ev, "arg", 0));
}

static const char *break_spec(const struct sim_args *a, long long id)
{
	return id >= 1 && id <= a->nr_breaks ? a->breaks[id - 1] : "?";
}

/* The stop line. */
static void print_stop(FILE *out, const struct sim_args *a, const json_t *reply)
{
	const json_t *stop = json_object_get(reply, "stop");
	const json_t *ev = json_object_get(stop, "event");
	const char *reason = json_str(stop, "reason", "?");
	long long date = json_num(reply, "date", 0);

	if (strcmp(reason, "exit") == 0) {
		long long sig = json_num(stop, "signal", 0);
		long long status = json_num(stop, "status", 0);

		if (sig)
			fprintf(out, "exited at %lld ns: signal %lld\n", date,
				sig);
		else
			fprintf(out, "exited at %lld ns: status %lld\n", date,
				status);
		return;
	}
	fprintf(out, "stopped at %lld ns: ", date);
	if (strcmp(reason, "break") == 0) {
		long long id = json_num(stop, "break", 0);

		fprintf(out, "breakpoint %lld (%s)", id, break_spec(a, id));
	} else {
		fprintf(out, "%s", reason);
	}
	if (json_is_object(ev)) {
		fprintf(out, ": ");
		print_event(out, ev);
	}
	fprintf(out, "\n");
}

static void print_names(FILE *out, const json_t *list)
{
	for (size_t i = 0; list && i < json_array_size(list); i++)
		fprintf(out, "%s%s", i ? "," : "",
			json_is_string(json_array_get(list, i))
			    ? json_string_value(json_array_get(list, i))
			    : "?");
	if (list == NULL || json_array_size(list) == 0)
		fprintf(out, "-");
}

static void print_threads(FILE *out, const json_t *list)
{
	fprintf(out, "%-16s %-9s %4s %4s %3s %s\n", "THREAD", "STATE", "PRIO",
		"BASE", "CPU", "WAITS");
	for (size_t i = 0; i < json_array_size(list); i++) {
		const json_t *t = json_array_get(list, i);

		const char *waits = json_str(t, "waits", "");

		fprintf(out, "%-16s %-9s %4lld %4lld %3lld%s%s\n",
			json_str(t, "name", "?"), json_str(t, "state", "?"),
			json_num(t, "prio", 0), json_num(t, "base_prio", 0),
			json_num(t, "cpu", 0), waits[0] ? " " : "", waits);
	}
}

static void print_objects(FILE *out, const json_t *list)
{
	fprintf(out, "%-8s %-10s %-16s %5s %5s %-16s %s\n", "SKIN", "CLASS",
		"NAME", "COUNT", "CAP", "OWNER", "WAITERS");
	for (size_t i = 0; i < json_array_size(list); i++) {
		const json_t *o = json_array_get(list, i);
		const json_t *senders = json_object_get(o, "senders");
		char count[24] = "-", cap[24] = "-";

		if (json_object_get(o, "count"))
			snprintf(count, sizeof(count), "%lld",
				 json_num(o, "count", 0));
		if (json_object_get(o, "capacity"))
			snprintf(cap, sizeof(cap), "%lld",
				 json_num(o, "capacity", 0));
		fprintf(out, "%-8s %-10s %-16s %5s %5s %-16s ",
			json_str(o, "skin", "?"), json_str(o, "class", "?"),
			json_str(o, "name", ""), count, cap,
			json_str(o, "owner", "-"));
		print_names(out, json_object_get(o, "waiters"));
		if (senders) {
			fprintf(out, " senders ");
			print_names(out, senders);
		}
		fprintf(out, "\n");
	}
}

static void print_timers(FILE *out, const json_t *list)
{
	fprintf(out, "%14s %12s %3s %s\n", "DATE", "INTERVAL", "CPU", "TIMER");
	for (size_t i = 0; i < json_array_size(list); i++) {
		const json_t *t = json_array_get(list, i);
		const char *thread = json_str(t, "thread", NULL);

		fprintf(out, "%14lld %12lld %3lld ", json_num(t, "date", 0),
			json_num(t, "interval", 0), json_num(t, "cpu", 0));
		if (thread)
			fprintf(out, "thread %s\n", thread);
		else
			fprintf(out, "%s\n", json_str(t, "name", ""));
	}
}

static void print_pipeline(FILE *out, const json_t *list)
{
	fprintf(out, "%-16s %4s %3s %-7s %s\n", "DOMAIN", "PRIO", "CPU",
		"STALLED", "PENDING");
	for (size_t i = 0; i < json_array_size(list); i++) {
		const json_t *d = json_array_get(list, i);
		const json_t *stalled = json_object_get(d, "stalled");
		const json_t *pending = json_object_get(d, "pending");

		for (size_t cpu = 0; stalled && cpu < json_array_size(stalled);
		     cpu++) {
			const json_t *irqs =
			    pending && cpu < json_array_size(pending)
				? json_array_get(pending, cpu)
				: NULL;

			fprintf(out, "%-16s %4lld %3zu %-7s ",
				json_str(d, "domain", "?"),
				json_num(d, "priority", 0), cpu,
				json_is_true(json_array_get(stalled, cpu))
				    ? "yes"
				    : "no");
			for (size_t k = 0; irqs && k < json_array_size(irqs);
			     k++)
				fprintf(out, "%s%lld", k ? "," : "",
					json_integer_value(
					    json_array_get(irqs, k)));
			if (irqs == NULL || json_array_size(irqs) == 0)
				fprintf(out, "-");
			fprintf(out, "\n");
		}
	}
}

static void print_events(FILE *out, const json_t *list)
{
	for (size_t i = 0; i < json_array_size(list); i++) {
		fprintf(out, "%lld cpu%lld ",
			json_num(json_array_get(list, i), "date", 0),
			json_num(json_array_get(list, i), "cpu", 0));
		print_event(out, json_array_get(list, i));
		fprintf(out, "\n");
	}
}

static const struct {
	const char *name;
	void (*print)(FILE *out, const json_t *list);
} tables[] = {
    {"threads", print_threads}, {"objects", print_objects},
    {"timers", print_timers},	{"pipeline", print_pipeline},
    {"events", print_events},
};

static bool reply_ok(const json_t *v)
{
	const json_t *ok = json_object_get(v, "ok");

	return json_is_true(ok);
}

/* Whether the run stopped where it was asked to, or ended well. */
static bool stopped_as_asked(const json_t *reply)
{
	const json_t *stop = json_object_get(reply, "stop");
	const char *reason = json_str(stop, "reason", "");

	if (strcmp(reason, "exit") == 0)
		return json_num(stop, "status", 1) == 0;
	return strcmp(reason, "break") == 0 || strcmp(reason, "until") == 0;
}

/* One command whose reply must be ok: its tree, or NULL (said why). */
static json_t *command_ok(struct sim_runner *r, const char *cmd,
			  const char *what, bool print_json)
{
	json_t *v;
	char *reply = NULL;

	if (sim_runner_command(r, cmd, &reply)) {
		fprintf(stderr, "fusion sim: out of memory\n");
		return NULL;
	}
	v = json_loads(reply, 0, NULL);
	if (!reply_ok(v)) {
		fprintf(stderr, "fusion sim: %s: %s\n", what,
			json_str(v, "error", reply));
		json_decref(v);
		v = NULL;
	} else if (print_json) {
		printf("%s\n", reply);
	}
	free(reply);
	return v;
}

int sim_batch(struct sim_runner *r, const struct sim_args *a)
{
	json_t *v;
	char cmd[128], what[128];
	bool as_asked;

	for (int i = 0; i < a->nr_breaks; i++) {
		snprintf(cmd, sizeof(cmd), "break add %s", a->breaks[i]);
		snprintf(what, sizeof(what), "--break %s", a->breaks[i]);
		v = command_ok(r, cmd, what, false);
		if (v == NULL)
			return FUSION_EXIT_USAGE;
		json_decref(v);
	}
	if (a->until)
		snprintf(cmd, sizeof(cmd), "until %s", a->until);
	else
		snprintf(cmd, sizeof(cmd), "run");
	v = command_ok(r, cmd, cmd, a->json);
	if (v == NULL)
		return 1;
	if (!a->json)
		print_stop(stdout, a, v);
	as_asked = stopped_as_asked(v);
	for (int i = 0; i < a->nr_prints; i++) {
		json_t *p;

		if (strcmp(json_str(v, "state", ""), "paused") != 0)
			break;
		snprintf(cmd, sizeof(cmd), "print %s", a->prints[i]);
		p = command_ok(r, cmd, cmd, a->json);
		if (p == NULL) {
			json_decref(v);
			return 1;
		}
		for (size_t t = 0;
		     !a->json && t < sizeof(tables) / sizeof(tables[0]); t++)
			if (strcmp(tables[t].name, a->prints[i]) == 0)
				tables[t].print(
				    stdout, json_object_get(p, a->prints[i]));
		json_decref(p);
	}
	json_decref(v);
	return as_asked ? 0 : 1;
}

bool sim_batch_printable(const char *what)
{
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (strcmp(tables[i].name, what) == 0)
			return true;
	return false;
}
