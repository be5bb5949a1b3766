/* SPDX-License-Identifier: MIT */
/*
 * The agent's breakpoints: KIND:ARG, each kind a line of the table
 * below saying which events it watches and which field of theirs ARG
 * names (docs/sim-debugger.md).  Dates and overruns are watched by the
 * dispatcher instead (sim_debug_horizon): nothing need happen then.
 * Fill levels are looked at after each event: a service call that
 * changes one is followed by its service event.
 */
#include "debug.h"
#include "../common/duration.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum break_field {
	FIELD_THREAD,
	FIELD_OBJECT,
	FIELD_IRQ,
	FIELD_DATE,
	FIELD_LEVEL,   /* an object's fill level */
	FIELD_OVERRUN, /* a periodic thread's release points */
};

static const struct break_kind {
	const char *name;
	enum break_field field;
	int events[2];	/* watched (-1: none) */
	bool signalled; /* only wakes that are a success */
} kinds[] = {
    {"switch", FIELD_THREAD, {NK_TRACE_SWITCH, -1}, false},
    {"block", FIELD_THREAD, {NK_TRACE_BLOCK, -1}, false},
    {"wake", FIELD_THREAD, {NK_TRACE_WAKE, NK_TRACE_TIMEOUT}, false},
    {"prio", FIELD_THREAD, {NK_TRACE_PRIO, -1}, false},
    {"signal", FIELD_OBJECT, {NK_TRACE_WAKE, -1}, true},
    {"irq", FIELD_IRQ, {NK_TRACE_IRQ, -1}, false},
    {"mark", FIELD_OBJECT, {NK_TRACE_MARK, -1}, false},
    {"date", FIELD_DATE, {-1, -1}, false},
    {"full", FIELD_LEVEL, {-1, -1}, false},
    {"empty", FIELD_LEVEL, {-1, -1}, false},
    {"overrun", FIELD_OVERRUN, {-1, -1}, false},
};

#define NR_KINDS (int)(sizeof(kinds) / sizeof(kinds[0]))
#define KIND_LIST                                                              \
	"switch, block, wake, prio, signal, irq, mark, date, full, empty, "    \
	"overrun"

/* Does @brk (full: or empty:) hold now: 1, 0, or -1 (no such object)? */
static int level_state(struct sim *sim, const struct sim_break *brk)
{
	long count, capacity;

	if (sim->handlers->object_level(sim->nk, brk->arg, &count, &capacity))
		return -1;
	if (strcmp(kinds[brk->kind].name, "full") == 0)
		return capacity > 0 && count >= capacity;
	return count == 0;
}

static int parse_arg(struct sim_break *brk, const struct break_kind *k,
		     const char *arg, struct sim *sim, char *why, size_t len)
{
	char *end;

	switch (k->field) {
	case FIELD_THREAD:
	case FIELD_OBJECT:
	case FIELD_LEVEL:
	case FIELD_OVERRUN:
		if (strlen(arg) >= NK_NAME_MAX) {
			snprintf(why, len,
				 "name '%.40s' too long (at most %d "
				 "bytes)",
				 arg, NK_NAME_MAX - 1);
			return -EINVAL;
		}
		snprintf(brk->arg, sizeof(brk->arg), "%s", arg);
		/* A level fires as it changes, seen from now on; an overrun
		 * once per release point. */
		if (k->field == FIELD_LEVEL)
			brk->level = level_state(sim, brk);
		brk->date = -1;
		return 0;
	case FIELD_IRQ:
		errno = 0;
		brk->irq = strtol(arg, &end, 10);
		if (arg[0] < '0' || arg[0] > '9' || *end || errno) {
			snprintf(why, len, "bad IRQ number '%.40s'", arg);
			return -EINVAL;
		}
		return 0;
	case FIELD_DATE:
		if (be_parse_duration(arg, &brk->date)) {
			snprintf(why, len,
				 "bad date '%.40s' (an integer and ns, us, "
				 "ms or s)",
				 arg);
			return -EINVAL;
		}
		/* A date passed never comes again. */
		brk->done = brk->date <= sim->now;
		return 0;
	}
	return -EINVAL;
}

int sim_break_add(struct sim_breaks *b, struct sim *sim, int id,
		  const char *spec, char *why, size_t len)
{
	const char *colon = strchr(spec, ':');
	struct sim_break brk = {.id = id};
	int kind;

	if (b->count == SIM_BREAK_MAX) {
		snprintf(why, len, "too many breakpoints (at most %d)",
			 SIM_BREAK_MAX);
		return -EINVAL;
	}
	if (colon == NULL || colon == spec) {
		snprintf(why, len,
			 "bad breakpoint '%.40s' (KIND:ARG, KIND one of "
			 "" KIND_LIST ")",
			 spec);
		return -EINVAL;
	}
	for (kind = 0; kind < NR_KINDS; kind++)
		if (strlen(kinds[kind].name) == (size_t)(colon - spec) &&
		    strncmp(spec, kinds[kind].name, (size_t)(colon - spec)) ==
			0)
			break;
	if (kind == NR_KINDS) {
		snprintf(why, len,
			 "unknown breakpoint kind '%.*s' (allowed: " KIND_LIST
			 ")",
			 (int)(colon - spec > 40 ? 40 : colon - spec), spec);
		return -EINVAL;
	}
	if (colon[1] == '\0') {
		snprintf(why, len, "missing argument after '%s:'",
			 kinds[kind].name);
		return -EINVAL;
	}
	if (strlen(spec) >= SIM_BREAK_SPEC) {
		snprintf(why, len, "breakpoint too long (at most %d bytes)",
			 SIM_BREAK_SPEC - 1);
		return -EINVAL;
	}
	for (int i = 0; i < b->count; i++) {
		if (b->items[i].id == id) {
			snprintf(why, len, "breakpoint %d exists", id);
			return -EINVAL;
		}
	}
	brk.kind = kind;
	snprintf(brk.spec, sizeof(brk.spec), "%s", spec);
	if (parse_arg(&brk, &kinds[kind], colon + 1, sim, why, len))
		return -EINVAL;
	b->items[b->count++] = brk;
	return 0;
}

int sim_break_del(struct sim_breaks *b, int id)
{
	for (int i = 0; i < b->count; i++) {
		if (b->items[i].id != id)
			continue;
		memmove(&b->items[i], &b->items[i + 1],
			(size_t)(b->count - i - 1) * sizeof(b->items[0]));
		b->count--;
		return 0;
	}
	return -ENOENT;
}

static bool matches(const struct sim_break *brk,
		    const struct nk_trace_record *rec)
{
	const struct break_kind *k = &kinds[brk->kind];

	if ((int)rec->event != k->events[0] && (int)rec->event != k->events[1])
		return false;
	if (k->signalled && rec->arg != 0)
		return false;
	switch (k->field) {
	case FIELD_THREAD:
		return strcmp(rec->thread, brk->arg) == 0;
	case FIELD_OBJECT:
		return rec->object && strcmp(rec->object, brk->arg) == 0;
	case FIELD_IRQ:
		return rec->arg == brk->irq;
	case FIELD_DATE:
	case FIELD_LEVEL:
	case FIELD_OVERRUN:
		break;
	}
	return false;
}

struct sim_break *sim_break_match(struct sim_breaks *b,
				  const struct nk_trace_record *rec)
{
	for (int i = 0; i < b->count; i++) {
		if (matches(&b->items[i], rec)) {
			b->items[i].hits++;
			return &b->items[i];
		}
	}
	return NULL;
}

nk_time_t sim_break_next_date(const struct sim_breaks *b)
{
	nk_time_t next = NK_INFINITE;

	for (int i = 0; i < b->count; i++) {
		const struct sim_break *brk = &b->items[i];

		if (kinds[brk->kind].field == FIELD_DATE && !brk->done &&
		    brk->date < next)
			next = brk->date;
	}
	return next;
}

struct sim_break *sim_break_date_due(struct sim_breaks *b, nk_time_t now)
{
	struct sim_break *due = NULL;

	/* Several at one date fire as one stop: the first one names it. */
	for (int i = 0; i < b->count; i++) {
		struct sim_break *brk = &b->items[i];

		if (kinds[brk->kind].field != FIELD_DATE || brk->done ||
		    brk->date > now)
			continue;
		brk->done = true;
		brk->hits++;
		if (due == NULL)
			due = brk;
	}
	return due;
}

void sim_break_list(const struct sim_breaks *b, struct sim_reply *r)
{
	sim_reply_printf(r, ",\"breaks\":[");
	for (int i = 0; i < b->count; i++) {
		sim_reply_printf(r, "%s{\"id\":%d,\"spec\":", i ? "," : "",
				 b->items[i].id);
		sim_reply_string(r, b->items[i].spec);
		sim_reply_printf(r, ",\"hits\":%lu}", b->items[i].hits);
	}
	sim_reply_printf(r, "]");
}

struct sim_break *sim_break_levels(struct sim_breaks *b, struct sim *sim)
{
	struct sim_break *hit = NULL;

	for (int i = 0; i < b->count; i++) {
		struct sim_break *brk = &b->items[i];
		int state;

		if (kinds[brk->kind].field != FIELD_LEVEL)
			continue;
		state = level_state(sim, brk);
		if (state == 1 && brk->level == 0 && hit == NULL) {
			brk->hits++;
			hit = brk;
		}
		brk->level = state;
	}
	return hit;
}

/* When @brk's thread overruns next, if not reported yet. */
static nk_time_t overrun_date(const struct sim_break *brk, struct sim *sim)
{
	nk_time_t date;

	if (kinds[brk->kind].field != FIELD_OVERRUN)
		return NK_INFINITE;
	date = sim->handlers->overrun_date(sim->nk, brk->arg);
	return date > brk->date && date >= sim->now ? date : NK_INFINITE;
}

nk_time_t sim_break_next_overrun(const struct sim_breaks *b, struct sim *sim)
{
	nk_time_t next = NK_INFINITE;

	for (int i = 0; i < b->count; i++) {
		nk_time_t date = overrun_date(&b->items[i], sim);

		if (date < next)
			next = date;
	}
	return next;
}

struct sim_break *sim_break_overrun_due(struct sim_breaks *b, struct sim *sim)
{
	for (int i = 0; i < b->count; i++) {
		struct sim_break *brk = &b->items[i];

		if (overrun_date(brk, sim) == sim->now) {
			brk->date = sim->now;
			brk->hits++;
			return brk;
		}
	}
	return NULL;
}
