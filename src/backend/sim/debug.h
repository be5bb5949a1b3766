/* SPDX-License-Identifier: MIT */
/*
 * Internals of fusion sim's agent (docs/sim-debugger.md): the reply
 * being written, the breakpoints and the event history.  Everything is
 * touched with the nucleus lock held, by the one executing OS thread.
 */
#ifndef FUSION_BACKEND_SIM_DEBUG_H
#define FUSION_BACKEND_SIM_DEBUG_H

#include "sim.h"

/* A JSON reply being written (debug_reply.c); a failed allocation
 * turns it into an error reply when sent. */
struct sim_reply {
	char *text;
	size_t len, cap;
	bool failed;
};

void sim_reply_reset(struct sim_reply *r);
void sim_reply_free(struct sim_reply *r);
void sim_reply_printf(struct sim_reply *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* @s as a JSON string, or null for NULL. */
void sim_reply_string(struct sim_reply *r, const char *s);
/* The record as an event object: {"date":…,"kind":…}. */
void sim_reply_event(struct sim_reply *r, const struct nk_trace_record *rec);

/* Breakpoints (debug_break.c). */
#define SIM_BREAK_MAX 64
#define SIM_BREAK_SPEC 64

struct sim_break {
	int id;
	int kind;		   /* index in debug_break.c's table */
	char spec[SIM_BREAK_SPEC]; /* as given */
	char arg[NK_NAME_MAX];	   /* a thread's, object's or mark's name */
	long irq;
	nk_time_t date; /* date:, or the last overrun reported */
	bool done;	/* a date reached: it does not fire again */
	int level;	/* full:, empty: last seen 1, 0, -1 (no object) */
	unsigned long hits;
};

struct sim_breaks {
	struct sim_break items[SIM_BREAK_MAX];
	int count;
};

/*
 * Add breakpoint @id (> 0, not in use) from @spec ("block:worker") to
 * the run of @sim.  Returns 0, or -EINVAL with what is wrong in @why.
 */
int sim_break_add(struct sim_breaks *b, struct sim *sim, int id,
		  const char *spec, char *why, size_t len);
/* Delete breakpoint @id: 0 or -ENOENT. */
int sim_break_del(struct sim_breaks *b, int id);
/* The first breakpoint @rec matches (its hits counted), or NULL. */
struct sim_break *sim_break_match(struct sim_breaks *b,
				  const struct nk_trace_record *rec);
/* The earliest date of a date breakpoint not reached, or NK_INFINITE. */
nk_time_t sim_break_next_date(const struct sim_breaks *b);
/* The date breakpoint due at @now (now done, its hit counted), or NULL. */
struct sim_break *sim_break_date_due(struct sim_breaks *b, nk_time_t now);
/* The first full:/empty: breakpoint that now holds and did not at the
 * last look (its hit counted), or NULL. */
struct sim_break *sim_break_levels(struct sim_breaks *b, struct sim *sim);
/* The earliest overrun to come of an overrun: breakpoint, or NK_INFINITE. */
nk_time_t sim_break_next_overrun(const struct sim_breaks *b, struct sim *sim);
/* The overrun: breakpoint due now (its hit counted), or NULL. */
struct sim_break *sim_break_overrun_due(struct sim_breaks *b, struct sim *sim);
/* "breaks":[…] */
void sim_break_list(const struct sim_breaks *b, struct sim_reply *r);

/* The event history (debug_history.c): the last events, oldest first. */
struct sim_event {
	nk_time_t date;
	int cpu;
	enum nk_trace_event event;
	long arg;
	bool has_object, has_detail;
	char thread[NK_NAME_MAX];
	char object[NK_NAME_MAX];
	char detail[NK_NAME_MAX];
};

struct sim_history {
	struct sim_event *ring;
	size_t cap, first, count;
	unsigned long dropped; /* older events no longer kept */
};

#define SIM_HISTORY_EVENTS 65536

/* 0 or -ENOMEM. */
int sim_history_init(struct sim_history *h);
void sim_history_free(struct sim_history *h);
void sim_history_put(struct sim_history *h, const struct nk_trace_record *rec);
/* "dropped":N,"events":[…] of the events dated @since or later. */
void sim_history_print(const struct sim_history *h, nk_time_t since,
		       struct sim_reply *r);

#endif
