/* SPDX-License-Identifier: MIT */
/*
 * `fusion sim [OPTIONS] -- PROGRAM [ARGS...]`: run a program on the sim
 * backend under the debugger (docs/sim-debugger.md).  Batch mode adds
 * breakpoints, runs, prints what was asked at the stop and exits;
 * otherwise commands come on stdin and their JSON replies go to stdout.
 */
#include "tool.h"
#include "json.h"
#include "sim_runner.h"
#include "sim_gui.h"
#include "backend/common/duration.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_MAX_ARGS 64

void fusion_sim_usage(FILE *out)
{
	fprintf(out,
		"usage: fusion sim [OPTIONS] -- PROGRAM [ARGS...]\n"
		"run PROGRAM on the sim backend under the debugger\n"
		"  --until DATE     run until the virtual date DATE "
		"(10ms, 1500us, 2s)\n"
		"  --break SPEC     stop there (repeatable): switch:THREAD, "
		"block:THREAD,\n"
		"                   wake:THREAD, prio:THREAD, "
		"signal:OBJECT, irq:N, mark:TEXT,\n"
		"                   date:DATE, full:OBJECT, empty:OBJECT, "
		"overrun:THREAD\n"
		"  --print WHAT     at the stop print threads, objects, "
		"timers, pipeline or\n"
		"                   events (repeatable)\n"
		"  --json           print the replies as JSON, one per line\n"
		"  --cost DURATION  virtual CPU time of each service call "
		"(FUSION_SIM_COST;\n"
		"                   measured: the host's, not deterministic)\n"
		"  --gui            serve the debugger's page on 127.0.0.1, "
		"print its URL\n"
		"without --until, --break or --print: commands on stdin, "
		"one JSON reply per line\n"
		"on stdout (docs/sim-debugger.md)\n");
}

struct sim_args {
	const char *until;
	const char *breaks[SIM_MAX_ARGS];
	int nr_breaks;
	const char *prints[SIM_MAX_ARGS];
	int nr_prints;
	bool json;
	bool gui;
	const char *cost;
};

/* "KIND THREAD [OBJECT] [ARG]" of an event, as the sim log shows it. */
static void print_event(FILE *out, const struct json_value *ev)
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
static void print_stop(FILE *out, const struct sim_args *a,
		       const struct json_value *reply)
{
	const struct json_value *stop = json_get(reply, "stop");
	const struct json_value *ev = json_get(stop, "event");
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
	if (ev && ev->type == JSON_OBJECT) {
		fprintf(out, ": ");
		print_event(out, ev);
	}
	fprintf(out, "\n");
}

static void print_names(FILE *out, const struct json_value *list)
{
	for (size_t i = 0; list && i < list->count; i++)
		fprintf(out, "%s%s", i ? "," : "",
			list->items[i]->type == JSON_STRING
			    ? list->items[i]->string
			    : "?");
	if (list == NULL || list->count == 0)
		fprintf(out, "-");
}

static void print_threads(FILE *out, const struct json_value *list)
{
	fprintf(out, "%-16s %-9s %4s %4s %3s %s\n", "THREAD", "STATE", "PRIO",
		"BASE", "CPU", "WAITS");
	for (size_t i = 0; i < list->count; i++) {
		const struct json_value *t = list->items[i];

		const char *waits = json_str(t, "waits", "");

		fprintf(out, "%-16s %-9s %4lld %4lld %3lld%s%s\n",
			json_str(t, "name", "?"), json_str(t, "state", "?"),
			json_num(t, "prio", 0), json_num(t, "base_prio", 0),
			json_num(t, "cpu", 0), waits[0] ? " " : "", waits);
	}
}

static void print_objects(FILE *out, const struct json_value *list)
{
	fprintf(out, "%-8s %-10s %-16s %5s %5s %-16s %s\n", "SKIN", "CLASS",
		"NAME", "COUNT", "CAP", "OWNER", "WAITERS");
	for (size_t i = 0; i < list->count; i++) {
		const struct json_value *o = list->items[i];
		const struct json_value *senders = json_get(o, "senders");
		char count[24] = "-", cap[24] = "-";

		if (json_get(o, "count"))
			snprintf(count, sizeof(count), "%lld",
				 json_num(o, "count", 0));
		if (json_get(o, "capacity"))
			snprintf(cap, sizeof(cap), "%lld",
				 json_num(o, "capacity", 0));
		fprintf(out, "%-8s %-10s %-16s %5s %5s %-16s ",
			json_str(o, "skin", "?"), json_str(o, "class", "?"),
			json_str(o, "name", ""), count, cap,
			json_str(o, "owner", "-"));
		print_names(out, json_get(o, "waiters"));
		if (senders) {
			fprintf(out, " senders ");
			print_names(out, senders);
		}
		fprintf(out, "\n");
	}
}

static void print_timers(FILE *out, const struct json_value *list)
{
	fprintf(out, "%14s %12s %3s %s\n", "DATE", "INTERVAL", "CPU", "TIMER");
	for (size_t i = 0; i < list->count; i++) {
		const struct json_value *t = list->items[i];
		const char *thread = json_str(t, "thread", NULL);

		fprintf(out, "%14lld %12lld %3lld ", json_num(t, "date", 0),
			json_num(t, "interval", 0), json_num(t, "cpu", 0));
		if (thread)
			fprintf(out, "thread %s\n", thread);
		else
			fprintf(out, "%s\n", json_str(t, "name", ""));
	}
}

static void print_pipeline(FILE *out, const struct json_value *list)
{
	fprintf(out, "%-16s %4s %3s %-7s %s\n", "DOMAIN", "PRIO", "CPU",
		"STALLED", "PENDING");
	for (size_t i = 0; i < list->count; i++) {
		const struct json_value *d = list->items[i];
		const struct json_value *stalled = json_get(d, "stalled");
		const struct json_value *pending = json_get(d, "pending");

		for (size_t cpu = 0; stalled && cpu < stalled->count; cpu++) {
			const struct json_value *irqs =
			    pending && cpu < pending->count
				? pending->items[cpu]
				: NULL;

			fprintf(out, "%-16s %4lld %3zu %-7s ",
				json_str(d, "domain", "?"),
				json_num(d, "priority", 0), cpu,
				stalled->items[cpu]->boolean ? "yes" : "no");
			for (size_t k = 0; irqs && k < irqs->count; k++)
				fprintf(out, "%s%lld", k ? "," : "",
					irqs->items[k]->number);
			if (irqs == NULL || irqs->count == 0)
				fprintf(out, "-");
			fprintf(out, "\n");
		}
	}
}

static void print_events(FILE *out, const struct json_value *list)
{
	for (size_t i = 0; i < list->count; i++) {
		fprintf(out, "%lld cpu%lld ",
			json_num(list->items[i], "date", 0),
			json_num(list->items[i], "cpu", 0));
		print_event(out, list->items[i]);
		fprintf(out, "\n");
	}
}

static const struct {
	const char *name;
	void (*print)(FILE *out, const struct json_value *list);
} tables[] = {
    {"threads", print_threads}, {"objects", print_objects},
    {"timers", print_timers},	{"pipeline", print_pipeline},
    {"events", print_events},
};

static bool reply_ok(const struct json_value *v)
{
	const struct json_value *ok = json_get(v, "ok");

	return ok && ok->type == JSON_BOOL && ok->boolean;
}

/* Whether the run stopped where it was asked to, or ended well. */
static bool stopped_as_asked(const struct json_value *reply)
{
	const struct json_value *stop = json_get(reply, "stop");
	const char *reason = json_str(stop, "reason", "");

	if (strcmp(reason, "exit") == 0)
		return json_num(stop, "status", 1) == 0;
	return strcmp(reason, "break") == 0 || strcmp(reason, "until") == 0;
}

/* One command whose reply must be ok: its tree, or NULL (said why). */
static struct json_value *command_ok(struct sim_runner *r, const char *cmd,
				     const char *what, bool print_json)
{
	struct json_value *v;
	char *reply = NULL;

	if (sim_runner_command(r, cmd, &reply)) {
		fprintf(stderr, "fusion sim: out of memory\n");
		return NULL;
	}
	v = json_parse(reply);
	if (!reply_ok(v)) {
		fprintf(stderr, "fusion sim: %s: %s\n", what,
			json_str(v, "error", reply));
		json_free(v);
		v = NULL;
	} else if (print_json) {
		printf("%s\n", reply);
	}
	free(reply);
	return v;
}

static int batch(struct sim_runner *r, const struct sim_args *a)
{
	struct json_value *v;
	char cmd[128], what[128];
	bool as_asked;

	for (int i = 0; i < a->nr_breaks; i++) {
		snprintf(cmd, sizeof(cmd), "break add %s", a->breaks[i]);
		snprintf(what, sizeof(what), "--break %s", a->breaks[i]);
		v = command_ok(r, cmd, what, false);
		if (v == NULL)
			return FUSION_EXIT_USAGE;
		json_free(v);
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
		struct json_value *p;

		if (strcmp(json_str(v, "state", ""), "paused") != 0)
			break;
		snprintf(cmd, sizeof(cmd), "print %s", a->prints[i]);
		p = command_ok(r, cmd, cmd, a->json);
		if (p == NULL) {
			json_free(v);
			return 1;
		}
		for (size_t t = 0;
		     !a->json && t < sizeof(tables) / sizeof(tables[0]); t++)
			if (strcmp(tables[t].name, a->prints[i]) == 0)
				tables[t].print(stdout,
						json_get(p, a->prints[i]));
		json_free(p);
	}
	json_free(v);
	return as_asked ? 0 : 1;
}

static int interactive(struct sim_runner *r)
{
	char *line = NULL, *reply = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (sim_runner_command(r, line, &reply)) {
			fprintf(stderr, "fusion sim: out of memory\n");
			break;
		}
		printf("%s\n", reply);
		fflush(stdout);
		free(reply);
	}
	free(line);
	return 0;
}

static bool valid_print(const char *what)
{
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (strcmp(tables[i].name, what) == 0)
			return true;
	return false;
}

int fusion_sim(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"until", required_argument, NULL, 'u'},
	    {"break", required_argument, NULL, 'b'},
	    {"print", required_argument, NULL, 'p'},
	    {"json", no_argument, NULL, 'j'},
	    {"cost", required_argument, NULL, 'c'},
	    {"gui", no_argument, NULL, 'g'},
	    {NULL, 0, NULL, 0},
	};
	struct sim_runner_options opts = {0};
	struct sim_args a = {0};
	struct sim_runner *r;
	nk_time_t ns;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'u':
			if (be_parse_duration(optarg, &ns)) {
				fprintf(stderr,
					"fusion sim: --until %s: not a date "
					"(an integer and ns, us, ms or s)\n",
					optarg);
				return FUSION_EXIT_USAGE;
			}
			a.until = optarg;
			break;
		case 'b':
		case 'p':
			if ((c == 'b' ? a.nr_breaks : a.nr_prints) ==
			    SIM_MAX_ARGS) {
				fprintf(stderr, "fusion sim: too many --%s\n",
					c == 'b' ? "break" : "print");
				return FUSION_EXIT_USAGE;
			}
			if (c == 'p' && !valid_print(optarg)) {
				fprintf(stderr,
					"fusion sim: --print %s: threads, "
					"objects, timers, pipeline or events\n",
					optarg);
				return FUSION_EXIT_USAGE;
			}
			if (c == 'b')
				a.breaks[a.nr_breaks++] = optarg;
			else
				a.prints[a.nr_prints++] = optarg;
			break;
		case 'j':
			a.json = true;
			break;
		case 'g':
			a.gui = true;
			break;
		case 'c':
			if (strcmp(optarg, "measured") != 0 &&
			    be_parse_duration(optarg, &ns)) {
				fprintf(stderr,
					"fusion sim: --cost %s: not a duration "
					"(e.g. 2us, 500ns) nor measured\n",
					optarg);
				return FUSION_EXIT_USAGE;
			}
			a.cost = optarg;
			break;
		default:
			fusion_sim_usage(stderr);
			return FUSION_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fusion_sim_usage(stderr);
		return FUSION_EXIT_USAGE;
	}
	opts.cost = a.cost;
	ret = sim_runner_start(argv + optind, &opts, &r);
	if (ret) {
		fprintf(stderr, "fusion sim: cannot start %s: %s\n",
			argv[optind], strerror(-ret));
		return 1;
	}
	if (a.gui)
		ret = fusion_sim_gui(r, stdout) ? 1 : 0;
	else if (a.until || a.nr_breaks || a.nr_prints)
		ret = batch(r, &a);
	else
		ret = interactive(r);
	fflush(stdout);
	sim_runner_stop(r);
	return ret;
}
