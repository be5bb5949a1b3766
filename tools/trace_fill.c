/* SPDX-License-Identifier: MIT */
/* Queue and semaphore fill from service calls: see trace_fill.h. */
#include "trace_fill.h"
#include "name_table.h"

#include <fusion/fusion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* When a call did what its name says, by its result. */
enum fill_ok {
	OK_ZERO,     /* 0 (a status) */
	OK_NONNEG,   /* >= 0 (a size, a number of tasks woken) */
	OK_POSITIVE, /* > 0: RTAI's rt_sem_wait_if() took a unit */
	OK_COUNT,    /* RTAI: a count, not an RTE_* code */
};

/* RTAI's error codes are above RTE_BASE (rtai_lxrt.h). */
#define RTAI_RTE_BASE 0x3FFFFF00L

struct fill_rule {
	const char *skin;
	const char *service;
	const char *kind;
	int delta; /* 0: a reset */
	enum fill_ok ok;
};

static const struct fill_rule rules[] = {
#define FILL(skin, service, kind, delta, ok)                                   \
	{#skin, #service, #kind, delta, OK_##ok},
#include "trace_fill.def"
#undef FILL
};

static bool succeeded(enum fill_ok ok, long result)
{
	switch (ok) {
	case OK_ZERO:
		return result == 0;
	case OK_NONNEG:
		return result >= 0;
	case OK_POSITIVE:
		return result > 0 && result < RTAI_RTE_BASE;
	case OK_COUNT:
		break;
	}
	return result < RTAI_RTE_BASE;
}

/* The rule of a call of @service of @skin returning @result; NULL when
 * the call changes no fill (another service, or one that failed). */
static const struct fill_rule *rule_of(const char *skin, const char *service,
				       long result)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct fill_rule *r = &rules[i];

		if (strcmp(r->skin, skin) == 0 &&
		    strcmp(r->service, service) == 0)
			return succeeded(r->ok, result) ? r : NULL;
	}
	return NULL;
}

/* An object (its fill) or a thread (whether it was woken), by name. */
struct entry {
	char name[NK_NAME_MAX];
	long level;	 /* an object's fill */
	long handed;	 /* takes handed a unit whose give is to come */
	bool since_call; /* a thread woken since its last service call */
};

struct fill_tracker {
	struct name_table objects, threads; /* struct entry */
};

/* The entry of @name in @t, added zeroed if missing; NULL: no memory. */
static struct entry *entry_of(struct name_table *t, const char *name)
{
	bool added;

	return name_table_get(t, sizeof(struct entry), NK_NAME_MAX, name,
			      &added);
}

struct fill_tracker *fill_tracker_new(void)
{
	return calloc(1, sizeof(struct fill_tracker));
}

void fill_tracker_free(struct fill_tracker *t)
{
	if (t == NULL)
		return;
	name_table_free(&t->objects);
	name_table_free(&t->threads);
	free(t);
}

/* The new level of @f after a call of @r by a thread woken or not. */
static void apply(struct entry *f, const struct fill_rule *r, bool woken)
{
	if (r->delta == 0) {
		f->level = f->handed = 0;
	} else if (r->delta > 0 && f->handed > 0) {
		f->handed--; /* its take already went by */
	} else if (r->delta < 0 && woken && f->level <= 0) {
		f->handed++; /* its give is still to come */
	} else {
		f->level += r->delta;
	}
}

int fill_tracker_event(struct fill_tracker *t, const struct trace_event *e,
		       struct fill_sample *s)
{
	const struct fill_rule *r;
	struct entry *w = entry_of(&t->threads, e->thread);
	struct entry *f;
	bool woken;

	if (w == NULL)
		return -1;
	if (e->event == NK_TRACE_WAKE) {
		w->since_call = e->arg == NK_WAKE_OK;
		return 0;
	}
	if (!nk_trace_is_service(e->event))
		return 0;
	woken = w->since_call;
	w->since_call = false;
	r = rule_of(nk_tracepoint_info(e->event)->name, e->object,
		    (long)e->arg);
	if (r == NULL)
		return 0;
	f = entry_of(&t->objects, e->detail);
	if (f == NULL)
		return -1;
	apply(f, r, woken);
	snprintf(s->name, sizeof(s->name), "%s %s", r->kind, e->detail);
	s->level = f->level;
	return 1;
}
